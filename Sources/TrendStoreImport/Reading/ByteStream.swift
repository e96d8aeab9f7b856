import Foundation

/// Where a ``ByteStream`` reads from: a file, or an entry streamed out of a zip archive.
protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer`; 0 at the end.
    ///
    /// - Throws: ``ImportError`` when the source cannot go on (a read error, a zip entry
    ///   that expands past its limits).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int
}

/// Reads a source in large buffers, counting bytes for progress. Not thread-safe.
final class ByteStream {
    private let source: any ByteSource
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// Bytes consumed so far.
    private(set) var bytesConsumed: Int = 0
    /// The size of what is read in bytes, for progress (0 when unknown).
    let totalBytes: Int
    /// The name errors use: the file, or `archive.zip/entry`.
    let path: String
    /// The longest record (a line, a tag) a reader may hold whole, so memory stays
    /// bounded whatever the file holds.
    var maximumRecordBytes = ByteStream.defaultMaximumRecordBytes

    /// 1 MiB: far longer than any real record, short enough that a hostile line costs little.
    static let defaultMaximumRecordBytes = 1 << 20

    /// Reads the file at `path`.
    convenience init(path: String, bufferSize: Int = 1 << 20) throws(ImportError) {
        let file = try FileSource(path: path)
        self.init(source: file, path: path, totalBytes: file.size, bufferSize: bufferSize)
    }

    /// Reads `source`, naming it `path` in errors.
    init(source: any ByteSource, path: String, totalBytes: Int, bufferSize: Int = 1 << 20) {
        self.source = source
        self.path = path
        self.totalBytes = totalBytes
        buffer = [UInt8](repeating: 0, count: bufferSize)
    }

    /// Reads `bytes`, already in memory, naming them `path` in errors.
    init(bytes: [UInt8], path: String) {
        source = NoMoreBytes()
        self.path = path
        totalBytes = bytes.count
        buffer = bytes
        end = bytes.count
        atEnd = true
    }

    /// Checks that a reader may buffer `wanted` bytes of one record.
    ///
    /// - Throws: ``ImportError`` naming the line when the record is longer than ``maximumRecordBytes``.
    func allowRecord(of wanted: Int, line: Int) throws(ImportError) {
        guard wanted > maximumRecordBytes else { return }
        throw ImportError(
            file: path, line: line,
            reason: Self.recordTooLong(maximumRecordBytes))
    }

    /// Why a record longer than `maximum` bytes is refused.
    static func recordTooLong(_ maximum: Int) -> String {
        "the record is longer than \(maximum) bytes, the longest this importer reads (raise it with --max-record-bytes or ImportOptions.maximumRecordBytes)"
    }

    /// The first bytes, without consuming them.
    func peek(_ count: Int) throws(ImportError) -> [UInt8] {
        try fill(minimum: count)
        return Array(buffer[start..<min(end, start + count)])
    }

    /// Calls `body` with the unread bytes (at least `minimum` unless the source ends) and
    /// consumes as many as it returns; `false` at the end.
    func consume(
        minimum: Int = 1, _ body: (UnsafeRawBufferPointer, _ isFinal: Bool) -> Int
    ) throws(ImportError) -> Bool {
        try fill(minimum: minimum)
        if start == end && atEnd { return false }
        let used = buffer.withUnsafeBytes {
            body(UnsafeRawBufferPointer(rebasing: $0[start..<end]), atEnd)
        }
        start += used
        bytesConsumed += used
        return true
    }

    private func fill(minimum: Int) throws(ImportError) {
        while end - start < minimum && !atEnd {
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    base.copyMemory(from: base + start, byteCount: end - start)
                }
                end -= start
                start = 0
            }
            if end == buffer.count {
                buffer.append(contentsOf: repeatElement(0, count: buffer.count))
            }
            let filled = end
            let source = self.source
            let read: Result<Int, ImportError> = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(ImportError) in
                    try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                }
            }
            let count = try read.get()
            if count <= 0 { atEnd = true } else { end += count }
        }
    }
}

/// The source of a stream whose bytes are all in its buffer already.
private final class NoMoreBytes: ByteSource {
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int { 0 }
}

/// A file read with `read(2)`.
final class FileSource: ByteSource {
    private let handle: FileHandle
    private let path: String
    /// The file's size in bytes.
    let size: Int

    init(path: String) throws(ImportError) {
        self.path = path
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue {
            throw ImportError(file: path, reason: "is a directory, not a file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImportError(
                file: path,
                reason: exists
                    ? "cannot be opened for reading (permission denied?)" : "no such file")
        }
        self.handle = handle
        size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    deinit { try? handle.close() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = Foundation.read(handle.fileDescriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw ImportError(
                file: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
        }
    }
}
