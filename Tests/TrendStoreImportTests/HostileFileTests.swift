import Foundation
import Testing
import TestSupport
import TrendStore
import ZIPFoundation

@testable import TrendStoreImport

/// Files built to hurt: zip bombs, odd line endings, huge lines, values and names out of
/// range (issue 13, items 2, 5, 9–13). Each must end in a clear error or a correct import,
/// with memory and disk bounded and nothing partial committed.
@Suite("Hostile files")
struct HostileFileTests {

    /// A zip whose entries are `(name, head, filler, times)`: `head`, then `filler` repeated `times`.
    private func zip(
        _ entries: [(String, head: String, filler: String, times: Int)], to name: String,
        in directory: TemporaryDirectory
    ) throws -> String {
        let url = directory.url.appendingPathComponent(name)
        let archive = try Archive(url: url, accessMode: .create)
        for (path, headText, fillerText, times) in entries {
            let head = Data(headText.utf8)
            let filler = Data(fillerText.utf8)
            let size = Int64(head.count + filler.count * times)
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: size, compressionMethod: .deflate,
                provider: { position, length in
                    var data = Data()
                    var at = Int(position)
                    while data.count < length {
                        if at < head.count {
                            let take = min(head.count - at, length - data.count)
                            data.append(head[at..<(at + take)])
                            at += take
                        } else {
                            let offset = (at - head.count) % filler.count
                            let take = min(filler.count - offset, length - data.count)
                            data.append(filler[offset..<(offset + take)])
                            at += take
                        }
                    }
                    return data
                })
        }
        return url.path
    }

    private static let exportHead =
        "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2026-01-02 00:00:00 +0000\"/>\n"

    @Test("a zip of hundreds of XML entries is refused after a bounded search")
    func manyEntries() async throws {
        try await withTemporaryDirectory { directory in
            // Each entry 256 KiB of whitespace, each opened only up to its first 64 KiB.
            let entries = (0..<200).map {
                (
                    "entry-\($0).xml", head: "<?xml version=\"1.0\"?>\n", filler: "        ",
                    times: 1 << 15
                )
            }
            let path = try zip(entries, to: "many.zip", in: directory)
            let began = ContinuousClock.now
            try await withTemporaryStore { store, _ in
                do {
                    _ = try await Importer(store: store).importFile(at: path)
                    Issue.record("a zip of 200 XML entries was accepted")
                } catch let error as ImportError {
                    #expect(error.reason.contains("more than 32 XML entries"), "\(error)")
                }
            }
            #expect(ContinuousClock.now - began < .seconds(30))
        }
    }

    @Test("a zip whose export expands past the limit is refused without writing to disk")
    func zipBomb() async throws {
        try await withTemporaryDirectory { directory in
            // 65 MB of whitespace: an export root never comes, so only the limit can stop it.
            let big = try zip(
                [
                    (
                        "apple_health_export/export.xml", head: Self.exportHead,
                        filler: String(repeating: " ", count: 1 << 16), times: 1_000
                    )
                ],
                to: "big.zip", in: directory)
            let before = try FileManager.default.contentsOfDirectory(
                atPath: FileManager.default.temporaryDirectory.path
            ).filter { $0.hasPrefix("trendstore-import") }
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.expansionLimits.maximumBytes = 8 << 20
                do {
                    _ = try await Importer(store: store).importFile(
                        at: big, options: options)
                    Issue.record("a 65 MB whitespace entry was accepted under an 8 MiB limit")
                } catch let error as ImportError {
                    #expect(error.reason.contains("refused as a possible zip bomb"), "\(error)")
                    #expect(error.file.hasSuffix("big.zip/apple_health_export/export.xml"))
                }
                #expect(try store.series().isEmpty)
            }
            let after = try FileManager.default.contentsOfDirectory(
                atPath: FileManager.default.temporaryDirectory.path
            ).filter { $0.hasPrefix("trendstore-import") }
            #expect(after == before, "the import left temporary files")
        }
    }

    @Test("the ratio limit applies past the first 64 MiB; the size limit always")
    func expansionRules() {
        var limits = ExpansionLimits()
        limits.maximumBytes = 1 << 40
        #expect(
            ZipEntrySource.overLimit(produced: 60 << 20, compressed: 1_000, limits: limits) == nil)
        #expect(
            ZipEntrySource.overLimit(produced: 70 << 20, compressed: 1_000, limits: limits)?
                .contains(
                    "200 times") == true)
        #expect(
            ZipEntrySource.overLimit(produced: 70 << 20, compressed: 10 << 20, limits: limits)
                == nil)
        limits.maximumBytes = 1 << 20
        #expect(
            ZipEntrySource.overLimit(produced: 2 << 20, compressed: 2 << 20, limits: limits)?
                .contains(
                    "more than 1048576 bytes") == true)
    }

    @Test("a zip holding two exports is refused, naming both")
    func twoExports() async throws {
        try await withTemporaryDirectory { directory in
            let document = Self.exportHead + "</HealthData>\n"
            let path = try zip(
                [
                    ("a/export.xml", head: document, filler: " ", times: 1),
                    ("b/export.xml", head: document, filler: " ", times: 1),
                ], to: "two.zip",
                in: directory)
            try await withTemporaryStore { (store, _) async throws -> Void in
                await #expect(
                    throws: ImportError(
                        file: path,
                        reason:
                            "the zip holds 2 Apple Health exports (a/export.xml, b/export.xml): import one at a time"
                    )
                ) {
                    _ = try await Importer(store: store).importFile(at: path)
                }
            }
        }
    }

    @Test("the zipped fixture streams to the same figures as the XML, leaving no temporary file")
    func zippedFixture() async throws {
        let before = try FileManager.default.contentsOfDirectory(
            atPath: FileManager.default.temporaryDirectory.path)
        let fromZip = try await withTemporaryStore { store, _ in
            _ = try await Importer(store: store).importFile(
                at: Fixtures.path("apple-health/export.zip"))
            return try store.series()
        }
        let fromXML = try await withTemporaryStore { store, _ in
            _ = try await Importer(store: store).importFile(
                at: Fixtures.path("apple-health/export.xml"))
            return try store.series()
        }
        #expect(!fromZip.isEmpty && fromZip == fromXML)
        let after = try FileManager.default.contentsOfDirectory(
            atPath: FileManager.default.temporaryDirectory.path)
        #expect(Set(after).subtracting(before).filter { $0.hasPrefix("trendstore-import") }.isEmpty)
    }

    @Test(
        "LF, CRLF and CR line endings read the same records",
        arguments: ["\n", "\r\n", "\r"])
    func lineEndings(ending: String) async throws {
        try await withTemporaryDirectory { directory in
            let lines = [
                "series,start,end,value", "x,1763683200000,1763683200000,1",
                "\"x\",1763683260000,1763683260000,2", "y,1763683260000,1763683320000,3",
            ]
            let csv = try directory.file(
                "a.csv", containing: lines.joined(separator: ending) + ending)
            let ndjson = try directory.file(
                "a.ndjson",
                containing: [
                    #"{"series":"x","start":1763683200000,"end":1763683200000,"value":1}"#,
                    #"{"series":"y","start":1763683260000,"end":1763683320000,"value":3}"#,
                ].joined(separator: ending))
            try await withTemporaryStore { store, _ in
                let summary = try await Importer(store: store).importFile(at: csv)
                #expect(summary.recordsRead == 3)
                #expect(summary.written["x"]?.inserted == 2)
                #expect(summary.written["y"]?.inserted == 1)
                let second = try await Importer(store: store).importFile(at: ndjson)
                #expect(second.recordsRead == 2 && second.written["x"]?.unchanged == 1)
            }
        }
    }

    @Test("a CR-only file with an error names the right line")
    func crLineNumbers() async throws {
        try await withTemporaryDirectory { directory in
            let path = try directory.file(
                "cr.csv", containing: "series,start,end,value\rx,1,1,1\rx,2,2,oops\r")
            try await withTemporaryStore { store, _ in
                do {
                    _ = try await Importer(store: store).importFile(at: path)
                    Issue.record("accepted")
                } catch let error as ImportError {
                    #expect(error.line == 3 && error.field == "value", "\(error)")
                }
            }
        }
    }

    @Test("a non-empty file with no records is an error, not a success")
    func noRecords() async throws {
        try await withTemporaryDirectory { directory in
            let path = try directory.file("header.csv", containing: "series,start,end,value\n")
            try await withTemporaryStore { (store, _) async throws -> Void in
                await #expect(throws: ImportError.self) {
                    _ = try await Importer(store: store).importFile(at: path)
                }
                #expect(try store.series().isEmpty)
            }
        }
    }

    @Test("a line longer than the limit is an error naming it, read in bounded memory")
    func longLine() async throws {
        try await withTemporaryDirectory { directory in
            let path = try directory.file(
                "long.csv",
                containing: "series,start,end,value\nx,1,1,1\n"
                    + String(repeating: "x", count: 3 << 20)
                    + ",1,1,1\n")
            let xml = try directory.file(
                "long.xml",
                containing: Self.exportHead
                    + "<Record type=\"HKQuantityTypeIdentifierStepCount\" value=\""
                    + String(repeating: "9", count: 3 << 20) + "\"/>\n</HealthData>\n")
            try await withTemporaryStore { store, _ in
                for (file, line) in [(path, 3), (xml, 4)] {
                    do {
                        _ = try await Importer(store: store).importFile(at: file)
                        Issue.record("\(file) accepted")
                    } catch let error as ImportError {
                        #expect(error.line == line, "\(error)")
                        #expect(error.reason.contains("longer than 1048576 bytes"), "\(error)")
                    }
                }
                #expect(try store.series().isEmpty)
            }
        }
    }

    @Test(
        "values beyond ±1e15, instants outside years 1–9999 and 256-byte names are refused by line and field",
        arguments: [
            ("x,1763683200000,1763690400000,1e304", "value", "larger in magnitude than 1e15"),
            ("x,1763683200000,1763690400000,-1000000000000001", "value", "larger in magnitude"),
            ("x,-62135596800001,-62135596800001,1", "start", "outside the supported years"),
            ("x,1,253402300800000,1", "end", "outside the supported years"),
            (
                String(repeating: "a", count: 256) + ",1,1,1", "series",
                "the name is 256 UTF-8 bytes"
            ),
        ])
    func outOfRange(line: String, field: String, reason: String) async throws {
        try await withTemporaryDirectory { directory in
            let path = try directory.file(
                "range.csv", containing: "series,start,end,value\nok,1,1,1\n\(line)\n")
            try await withTemporaryStore { store, _ in
                do {
                    _ = try await Importer(store: store).importFile(at: path)
                    Issue.record("accepted")
                } catch let error as ImportError {
                    #expect(error.line == 3 && error.field == field, "\(error)")
                    #expect(error.reason.contains(reason), "\(error)")
                    #expect(error.committedSamples == 0)
                    #expect(error.description.hasSuffix("(nothing was committed)"))
                }
                #expect(try store.series().isEmpty)
            }
        }
    }

    @Test("NFC and NFD spellings in two files are one series")
    func unicodeNamesAcrossFiles() async throws {
        try await withTemporaryDirectory { directory in
            let nfc = try directory.file(
                "nfc.csv", containing: "series,start,end,value\nCaf\u{E9},1,1,1\n")
            let nfd = try directory.file(
                "nfd.csv", containing: "series,start,end,value\nCafe\u{301},2,2,2\n")
            try await withTemporaryStore { store, _ in
                _ = try await Importer(store: store).importFile(at: nfc)
                _ = try await Importer(store: store).importFile(at: nfd)
                let series = try store.series()
                #expect(series.count == 1 && series.first?.sampleCount == 2)
            }
        }
    }

    @Test("a failure after committed batches says how many stay; --atomic commits nothing")
    func atomicity() async throws {
        try await withTemporaryDirectory { directory in
            let good = (0..<10).map { "x,\($0 * 60_000),\($0 * 60_000 + 60_000),1" }
            let path = try directory.file(
                "f.csv",
                containing: (["series,start,end,value"] + good + ["x,1,0,1"]).joined(
                    separator: "\n"))
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.batchSize = 4
                do {
                    _ = try await Importer(store: store).importFile(at: path, options: options)
                } catch let error as ImportError {
                    #expect(error.committedSamples == 8)
                    #expect(
                        error.description.contains("8 samples of earlier batches were committed"))
                    #expect(error.description.contains("re-running the same file is safe"))
                }
                #expect(try store.series().first?.sampleCount == 8)
            }
            try await withTemporaryStore { (store, _) async throws -> Void in
                var options = ImportOptions()
                options.batchSize = 4
                options.atomic = true
                await #expect(throws: ImportError.self) {
                    _ = try await Importer(store: store).importFile(at: path, options: options)
                }
                #expect(try store.series().isEmpty)
            }
        }
    }
}

@Suite("One import pipeline")
struct ImportPipelineTests {
    @Test(
        "units are resolved by the write's own transaction; a conflict keeps the store's error as its cause"
    )
    func unitsResolvedInTheWrite() async throws {
        try await withTemporaryDirectory { directory in
            let withUnit = try directory.file(
                "kcal.csv", containing: "series,start,end,value,unit\ne,0,60000,1,kcal\n")
            let without = try directory.file(
                "plain.csv", containing: "series,start,end,value\ne,60000,120000,2\nf,0,1,3\n")
            let other = try directory.file(
                "kj.csv", containing: "series,start,end,value,unit\ne,120000,180000,3,kJ\n")
            try await withTemporaryStore { (store, _) async throws -> Void in
                _ = try await Importer(store: store).importFile(at: withUnit)
                var options = ImportOptions()
                options.defaultUnit = "count"
                _ = try await Importer(store: store).importFile(at: without, options: options)
                #expect(try store.unit(of: "e") == "kcal")
                #expect(try store.unit(of: "f") == "count")
                do {
                    _ = try await Importer(store: store).importFile(at: other)
                    Issue.record("a kJ sample went into a kcal series")
                } catch let error as ImportError {
                    #expect(error.cause == .unitMismatch(series: "e", stored: "kcal", given: "kJ"))
                    #expect(error.committedSamples == 0)
                }
                #expect(try committedSamples(of: "e", in: store).count == 2)
            }
        }
    }
}
