import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreImport
import ZIPFoundation

/// A zipped export whose bytes do not match the CRC-32 its archive records is damaged: the
/// import names the entry and commits nothing, whether the entry is stored or deflated.
@Suite("Zip checksums")
struct ZipChecksumTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="2026-01-02 00:00:00 +0000"/>
         <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Watch" unit="kcal" startDate="2026-01-01 10:00:00 +0000" endDate="2026-01-01 10:01:00 +0000" value="0.064"/>
        </HealthData>

        """

    /// A zip of `export` as `apple_health_export/export.xml`, compressed by `method`.
    static func archive(_ export: String, method: CompressionMethod, at url: URL) throws {
        let archive = try Archive(url: url, accessMode: .create)
        let data = Data(export.utf8)
        try archive.addEntry(
            with: "apple_health_export/export.xml", type: .file,
            uncompressedSize: Int64(data.count), compressionMethod: method,
            provider: { position, length in
                data.subdata(in: Int(position)..<Int(position) + length)
            })
    }

    /// `bytes` with every occurrence of `old` replaced by `new` (of the same length).
    static func replacing(_ old: [UInt8], with new: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        var index = 0
        var replaced = 0
        while index + old.count <= bytes.count {
            if Array(bytes[index..<index + old.count]) == old {
                bytes.replaceSubrange(index..<index + old.count, with: new)
                replaced += 1
            }
            index += 1
        }
        #expect(replaced > 0, "nothing to replace")
        return bytes
    }

    /// Imports `zip` and expects the checksum error naming the entry, with nothing written.
    static func expectRefused(_ zip: URL) async throws {
        try await withTemporaryStore { store, _ in
            do {
                _ = try await Importer(store: store).importFile(at: zip.path)
                Issue.record("a zip with a wrong CRC-32 imported")
            } catch let error as ImportError {
                #expect(error.file.hasSuffix("apple_health_export/export.xml"), "\(error)")
                #expect(error.reason.contains("CRC-32"), "\(error)")
            }
            #expect(try store.series().isEmpty)
        }
    }

    @Test("a stored entry with one digit changed is refused")
    func storedEntryChanged() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("export.zip")
            try Self.archive(Self.export, method: .none, at: url)
            let bytes = [UInt8](try Data(contentsOf: url))
            try Data(Self.replacing(Array("0.064".utf8), with: Array("0.964".utf8), in: bytes))
                .write(to: url)
            try await Self.expectRefused(url)
        }
    }

    @Test("a deflated entry whose recorded CRC-32 differs is refused")
    func deflatedEntryChecksum() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("export.zip")
            try Self.archive(Self.export, method: .deflate, at: url)
            let archive = try Archive(url: url, accessMode: .read)
            let recorded = try #require(archive["apple_health_export/export.xml"]).checksum
            let bytes = [UInt8](try Data(contentsOf: url))
            let wrong = recorded ^ 0x0100
            // The local header and the central directory both record it.
            let damaged = Self.replacing(
                withUnsafeBytes(of: recorded.littleEndian, Array.init),
                with: withUnsafeBytes(of: wrong.littleEndian, Array.init), in: bytes)
            try Data(damaged).write(to: url)
            try await Self.expectRefused(url)
        }
    }

    @Test("the same zips, undamaged, import")
    func undamagedImports() async throws {
        for method in [CompressionMethod.none, .deflate] {
            try await withTemporaryDirectory { directory in
                let url = directory.url.appendingPathComponent("export.zip")
                try Self.archive(Self.export, method: method, at: url)
                try await withTemporaryStore { store, _ in
                    _ = try await Importer(store: store).importFile(at: url.path)
                    let samples = try store.samples(
                        of: "activeEnergy", from: .distantPast, to: .distantFuture)
                    #expect(samples.map(\.value) == [0.064])
                }
            }
        }
    }
}
