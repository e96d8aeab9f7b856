/// Copies of rows that must outlive the closure that read them: in a plain store a row
/// lies in the transaction's pages for as long as the transaction, but an encrypted store's
/// rows are opened into buffers that end with the closure.
final class RowArena {
    private var buffers: [UnsafeMutableRawBufferPointer] = []

    /// A copy of `bytes` that lives as long as the arena.
    func keep(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
        copy.copyMemory(from: bytes)
        buffers.append(copy)
        return UnsafeRawBufferPointer(copy)
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }
}
