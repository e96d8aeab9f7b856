/// The plaintext of a sealed value, in memory of its own: it lives as long as this object,
/// so a reader that keeps pointers into rows (``HourRows``) keeps the object.
///
/// Unchecked `Sendable`: the bytes are written once, in `init`, and only read after.
final class OpenedPlaintext: @unchecked Sendable {
    private let storage: UnsafeMutableRawBufferPointer
    /// The number of plaintext bytes.
    let count: Int

    /// The plaintext's bytes, valid while the object lives.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage.baseAddress, count: count)
    }

    /// A copy of `bytes`.
    init(copying bytes: UnsafeRawBufferPointer) {
        storage = UnsafeMutableRawBufferPointer.allocate(
            byteCount: max(bytes.count, 1), alignment: 8)
        if let base = bytes.baseAddress, let target = storage.baseAddress {
            target.copyMemory(from: base, byteCount: bytes.count)
        }
        count = bytes.count
    }

    deinit { storage.deallocate() }
}
