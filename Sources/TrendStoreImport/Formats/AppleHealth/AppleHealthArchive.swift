import Foundation
import ZIPFoundation

/// Finds the Apple Health export inside an `export.zip` and extracts it to a temporary file.
///
/// The export is the XML entry whose root is `<HealthData`, whatever its (possibly
/// localized) name; `__MACOSX/` entries, `export_cda.xml` (a clinical document) and
/// `workout-routes/` GPX files are passed over because their content does not match.
enum AppleHealthArchive {
    private struct EnoughRead: Error {}

    /// Extracts the export into `directory` and returns the file's path and the entry's name.
    static func extractExport(from zipPath: String, into directory: URL) throws(ImportError) -> (
        path: String, entry: String
    ) {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: zipPath), accessMode: .read)
        } catch {
            throw ImportError(file: zipPath, reason: "not a readable zip archive (\(error))")
        }
        for entry in archive where entry.type == .file && !entry.path.hasPrefix("__MACOSX/") {
            guard entry.path.lowercased().hasSuffix(".xml") || !entry.path.contains(".") else {
                continue
            }
            var head = Data()
            do {
                _ = try archive.extract(entry, bufferSize: 64 << 10, skipCRC32: true) { chunk in
                    head.append(chunk)
                    if head.count >= 64 << 10 { throw EnoughRead() }
                }
            } catch is EnoughRead {
            } catch {
                throw ImportError(
                    file: "\(zipPath)/\(entry.path)", reason: "cannot be extracted (\(error))")
            }
            guard String(decoding: head.prefix(64 << 10), as: UTF8.self).contains("<HealthData")
            else { continue }
            let target = directory.appendingPathComponent("export.xml")
            do {
                guard FileManager.default.createFile(atPath: target.path, contents: nil) else {
                    throw ImportError(file: target.path, reason: "cannot be created for writing")
                }
                let handle = try FileHandle(forWritingTo: target)
                defer { try? handle.close() }
                _ = try archive.extract(entry, bufferSize: 1 << 20) { chunk in
                    try handle.write(contentsOf: chunk)
                }
            } catch {
                throw ImportError(
                    file: "\(zipPath)/\(entry.path)", reason: "cannot be extracted (\(error))")
            }
            return (target.path, entry.path)
        }
        throw ImportError(
            file: zipPath,
            reason: "the zip holds no Apple Health export (no XML entry with a <HealthData> root)")
    }
}
