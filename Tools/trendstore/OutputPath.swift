import ArgumentParser
import Foundation

/// The check every option naming a file to write (`--out`, `--svg`) passes before a byte is
/// written: the path must not be a store's file or lie in a store's directory, where
/// writing would replace the store with a CSV or an SVG.
enum OutputPath {
    /// The files LMDB keeps in a store's directory.
    static let storeFiles = ["data.mdb", "lock.mdb"]

    /// Throws a validation error naming `option` when `path` is a store's directory, lies
    /// in one, or is a file that begins as an LMDB data or lock file does (a store's file
    /// under another name, a hard link or a copy).
    static func validate(_ path: String, option: String) throws {
        let url = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let parent = url.deletingLastPathComponent()
        for directory in [parent, url] where holdsStore(directory) {
            throw ValidationError(
                "\(option) \(path): \(directory.path) is a store's directory; writing there would destroy the store"
            )
        }
        if beginsAsLMDBFile(url.path) {
            throw ValidationError(
                "\(option) \(path): the file is an LMDB store's data or lock file; writing it would destroy the store"
            )
        }
    }

    /// Whether `directory` holds a store's files.
    private static func holdsStore(_ directory: URL) -> Bool {
        storeFiles.contains {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path)
        }
    }

    /// Whether the file at `path` carries LMDB's magic number where a data file's meta page
    /// (offset 16) or a lock file's header (offset 0) keeps it.
    private static func beginsAsLMDBFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 20), head.count >= 4 else { return false }
        let bytes = [UInt8](head)
        let magic: [UInt8] = [0xDE, 0xC0, 0xEF, 0xBE]  // 0xBEEFC0DE, little-endian
        return Array(bytes[0..<4]) == magic || (bytes.count >= 20 && Array(bytes[16..<20]) == magic)
    }
}
