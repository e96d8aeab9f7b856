import Foundation

/// Reads a file in large blocks, counting bytes for progress. Not thread-safe.
final class ByteStream {
    private let handle: FileHandle
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// Bytes consumed so far.
    private(set) var bytesConsumed: Int = 0
    /// The file's size in bytes, for progress.
    let totalBytes: Int
    let path: String

    init(path: String, blockSize: Int = 1 << 20) throws(ImportError) {
        self.path = path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ImportError(
                file: path, reason: exists ? "cannot be opened for reading" : "no such file")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            throw ImportError(file: path, reason: "is a directory, not a file")
        }
        self.handle = handle
        buffer = [UInt8](repeating: 0, count: blockSize)
        totalBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    deinit { try? handle.close() }

    /// The first bytes of the file, without consuming them.
    func peek(_ count: Int) -> [UInt8] {
        fill(minimum: count)
        return Array(buffer[start..<min(end, start + count)])
    }

    /// Calls `body` with the unread bytes (at least `minimum` unless the file ends) and
    /// consumes as many as it returns.
    func consume(minimum: Int = 1, _ body: (UnsafeRawBufferPointer, _ isFinal: Bool) throws -> Int)
        rethrows -> Bool
    {
        fill(minimum: minimum)
        if start == end && atEnd { return false }
        let used = try buffer.withUnsafeBytes {
            try body(UnsafeRawBufferPointer(rebasing: $0[start..<end]), atEnd)
        }
        start += used
        bytesConsumed += used
        return true
    }

    private func fill(minimum: Int) {
        while end - start < minimum && !atEnd {
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    raw.baseAddress!.copyMemory(
                        from: raw.baseAddress! + start, byteCount: end - start)
                }
                end -= start
                start = 0
            }
            if end == buffer.count {
                buffer.append(contentsOf: repeatElement(0, count: buffer.count))
            }
            let read = buffer.withUnsafeMutableBytes { raw in
                Foundation.read(handle.fileDescriptor, raw.baseAddress! + end, raw.count - end)
            }
            if read <= 0 { atEnd = true } else { end += read }
        }
    }
}
