import Foundation
import ZIPFoundation

/// Finds the Apple Health export inside an `export.zip`, to be streamed out of it.
///
/// The export is the XML entry whose root is `<HealthData`, whatever its (possibly
/// localized) name; `__MACOSX/` entries, `export_cda.xml` (a clinical document) and
/// `workout-routes/` GPX files are passed over because their content does not match.
/// An archive holding two such entries is refused, naming both, rather than one picked.
///
/// The search is bounded whatever the archive's directory says: at most
/// ``maximumCandidates`` entries are opened (Health's zips hold two XML entries), each
/// inflated to its first 64 KiB at most.
enum AppleHealthArchive {
    private struct EnoughRead: Error {}

    /// The most XML entries opened to look for the export's root.
    static let maximumCandidates = 32

    /// The path, inside the zip, of its one Apple Health export.
    static func exportEntry(in zipPath: String) throws(ImportError) -> String {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: zipPath), accessMode: .read)
        } catch {
            throw ImportError(file: zipPath, reason: "not a readable zip archive (\(error))")
        }
        var found: [String] = []
        var candidates = 0
        for entry in archive where entry.type == .file && !entry.path.hasPrefix("__MACOSX/") {
            guard entry.path.lowercased().hasSuffix(".xml") || !entry.path.contains(".") else {
                continue
            }
            candidates += 1
            guard candidates <= maximumCandidates else {
                throw ImportError(
                    file: zipPath,
                    reason:
                        "the zip holds more than \(maximumCandidates) XML entries: not an Apple Health export as Health writes it"
                )
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
            if String(decoding: head.prefix(64 << 10), as: UTF8.self).contains("<HealthData") {
                found.append(entry.path)
            }
        }
        guard let first = found.first else {
            throw ImportError(
                file: zipPath,
                reason:
                    "the zip holds no Apple Health export (no XML entry with a <HealthData> root)")
        }
        guard found.count == 1 else {
            throw ImportError(
                file: zipPath,
                reason:
                    "the zip holds \(found.count) Apple Health exports (\(found.joined(separator: ", "))): import one at a time"
            )
        }
        return first
    }
}
