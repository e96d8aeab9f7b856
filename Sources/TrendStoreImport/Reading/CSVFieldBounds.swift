/// Where the fields of a row lie: the first `capacity` fields' start and end offsets,
/// in memory the caller owns. Fields past them are counted, not kept (a row's columns
/// are all among the first `capacity`).
struct CSVFieldBounds {
    let pointer: UnsafeMutablePointer<Int>
    let capacity: Int

    /// Notes field `fields` as `start..<end` and counts it.
    @inline(__always)
    func add(_ fields: inout Int, _ start: Int, _ end: Int) {
        if fields < capacity {
            pointer[2 * fields] = start
            pointer[2 * fields + 1] = end
        }
        fields += 1
    }

    /// Field `index`'s offsets.
    @inline(__always)
    func range(_ index: Int) -> Range<Int> { pointer[2 * index]..<pointer[2 * index + 1] }

    /// Whether field `index` is empty.
    func isEmpty(_ index: Int) -> Bool { pointer[2 * index] == pointer[2 * index + 1] }

    /// Field `index`'s bytes in `base`.
    @inline(__always)
    func field(_ index: Int, in base: UnsafeRawPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(
            start: base + pointer[2 * index], count: pointer[2 * index + 1] - pointer[2 * index])
    }
}
