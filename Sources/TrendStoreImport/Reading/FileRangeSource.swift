import Foundation

/// A stretch of a regular file, read with `pread(2)`, so several can be read at once.
final class FileRangeSource: ByteSource {
    private let descriptor: Int32
    private let path: String
    private var offset: Int
    private let end: Int

    /// Reads `range` of the file at `path`.
    ///
    /// - Throws: ``ImportError`` when the file cannot be opened.
    init(path: String, range: Range<Int>) throws(ImportError) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ImportError(
                file: path, reason: "cannot be opened: \(String(cString: strerror(errno)))")
        }
        self.path = path
        offset = range.lowerBound
        end = range.upperBound
    }

    deinit { close(descriptor) }

    /// The size of the regular file at `path`, or `nil` for anything else.
    static func regularFileSize(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        let count = try read(
            into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(max(0, end - offset))),
            at: offset)
        offset += count
        return count
    }

    /// Reads up to `buffer.count` bytes at `position` of the file (past the range's end
    /// too), leaving where ``read(into:)`` goes on unchanged; 0 at the file's end.
    func read(into buffer: UnsafeMutableRawBufferPointer, at position: Int) throws(ImportError)
        -> Int
    {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = pread(descriptor, base, buffer.count, off_t(position))
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw ImportError(
                file: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
        }
    }
}
