import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreImport

@Suite("Export")
struct ExportTests {
    @Test(
        "import(export(store)) gives the same samples bit for bit, units and kinds included",
        arguments: [ExportFormat.csv, .ndjson])
    func roundTrip(format: ExportFormat) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var generator = SampleGenerator(seed: format == .csv ? 1 : 2)
        var start: Int64 = 1_700_000_000_000
        let samples =
            (0..<3_000).map { _ -> Sample in
                start += generator.integer(in: 0...600_000)
                var value = generator.anyFiniteValue()
                if abs(value) > 1e15 { value = value.truncatingRemainder(dividingBy: 1e15) }
                return Sample(
                    startMilliseconds: start,
                    endMilliseconds: start + generator.integer(in: 0...60_000),
                    value: value)
            } + [Sample(startMilliseconds: 0, endMilliseconds: 0, value: -0.0)]
        let original = try TrendStore(directory: directory.url.appendingPathComponent("a"))
        try await original.write(samples, to: "Caf\u{E9}, \"quoted\"", unit: "kJ")
        try await original.write(
            Array(samples.prefix(10)), to: "steps", unit: "count", kind: .discrete)
        let file = directory.url.appendingPathComponent("export.\(format.rawValue)").path
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: file))
        let written = try await Exporter(store: original).export(
            series: ["Caf\u{E9}, \"quoted\"", "steps"], from: .distantPast, to: .distantFuture,
            format: format, to: handle)
        try handle.close()
        #expect(written == samples.count + 10)

        let copy = try TrendStore(directory: directory.url.appendingPathComponent("b"))
        _ = try await Importer(store: copy).importFile(at: file)
        for name in ["Caf\u{E9}, \"quoted\"", "steps"] {
            let before = try original.samples(of: name, from: .distantPast, to: .distantFuture)
            let after = try copy.samples(of: name, from: .distantPast, to: .distantFuture)
            #expect(bitIdentical(before, after), "\(name)")
            #expect(try copy.unit(of: name) == original.unit(of: name))
            #expect(try copy.kind(of: name) == original.kind(of: name))
        }
    }

    @Test(
        "import(export(store)) keeps every series name, byte for byte, in every format",
        arguments: [ExportFormat.csv, .ndjson])
    func namesRoundTrip(format: ExportFormat) async throws {
        try await withTemporaryDirectory { directory in
            let names = [
                "\u{FEFF}steps", "steps", "steps\u{FEFF}", "a\u{FEFF}b", "\u{200B}zero width",
                " spaced ", "tab\there", "new\nline", "cr\rreturn", "crlf\r\nname", "comma, name",
                "\"quoted\"", "back\\slash", "\u{1F3C3} run", "\u{202E}rtl", "%2C", "nul\u{0}byte",
            ]
            let original = try TrendStore(directory: directory.url.appendingPathComponent("a"))
            for (index, name) in names.enumerated() {
                let start = Int64(index) * 60_000
                try await original.write(
                    [Sample(startMilliseconds: start, endMilliseconds: start + 60_000, value: 1)],
                    to: name, unit: "u\u{FEFF}\(index)")
            }
            let file = directory.url.appendingPathComponent("export.\(format.rawValue)").path
            #expect(FileManager.default.createFile(atPath: file, contents: nil))
            let handle = try #require(FileHandle(forWritingAtPath: file))
            try await Exporter(store: original).export(
                series: names, from: .distantPast, to: .distantFuture, format: format, to: handle)
            try handle.close()
            let copy = try TrendStore(directory: directory.url.appendingPathComponent("b"))
            _ = try await Importer(store: copy).importFile(at: file)
            let stored = try copy.series()
            #expect(Set(stored.map { Array($0.name.utf8) }) == Set(names.map { Array($0.utf8) }))
            for name in names {
                #expect(
                    try copy.unit(of: name) == original.unit(of: name), "\(name.debugDescription)")
            }
        }
    }

    @Test("the streaming API hands out a block at a time, only samples in the range")
    func batches() async throws {
        try await withTemporaryStore { store, _ in
            let samples = (0..<30_000).map {
                Sample(
                    startMilliseconds: Int64($0) * 60_000,
                    endMilliseconds: Int64($0) * 60_000 + 60_000,
                    value: 1)
            }
            try await store.write(samples, to: "e", unit: "kcal")
            var batches = 0
            var total = 0
            for try await batch in store.sampleBatches(
                of: "e", from: Date(milliseconds: 600_000), to: Date(milliseconds: 1_200_000_000))
            {
                batches += 1
                total += batch.count
                #expect(
                    batch.allSatisfy { (600_000..<1_200_000_000).contains($0.startMilliseconds) })
            }
            #expect(total == (1_200_000_000 - 600_000) / 60_000)
            // 30,000 samples of one value pack tightly: a first block of 4,096, then one of
            // the remaining 25,904 (at most 32,768 per block); the range touches both, and
            // ends inside the second, whose later samples the iterator must not walk through.
            #expect(batches == 2)
        }
    }

    @Test("an export is one snapshot: another process's two-sample commits are never torn apart")
    func exportIsSnapshot() async throws {
        try await withTemporaryStore { store, directory in
            // Two weeks a year apart: their samples lie in different blocks.
            let early: Int64 = 1_740_000_000_000
            let late = early + 365 * 86_400_000
            let base = (0..<2_000).flatMap { i in
                [early, late].map {
                    Sample(
                        startMilliseconds: $0 - 2_000 * 60_000 + Int64(i) * 60_000,
                        endMilliseconds: $0 - 2_000 * 60_000 + Int64(i) * 60_000 + 60_000,
                        value: 1)
                }
            }
            try await store.write(base, to: "e", unit: "kcal")
            let peer = try PeerProcess(store: directory, durability: "none")
            defer { peer.quit() }
            peer.begin("pairs e \(early) \(late) 200")
            let file = directory.appendingPathComponent("export.csv")
            var exports = 0
            var torn = 0
            repeat {
                _ = FileManager.default.createFile(atPath: file.path, contents: nil)
                let output = try FileHandle(forWritingTo: file)
                try await Exporter(store: store).export(
                    series: ["e"], from: .distantPast, to: .distantFuture, format: .csv,
                    to: output)
                try output.close()
                let starts = try String(contentsOf: file, encoding: .utf8)
                    .split(separator: "\n").dropFirst()
                    .compactMap { Int64($0.split(separator: ",")[1]) }
                let earlyCount = starts.count { $0 < early + 180 * 86_400_000 }
                if earlyCount * 2 != starts.count { torn += 1 }
                exports += 1
            } while !peer.hasAnswer
            try peer.finish()
            #expect(exports > 3)
            #expect(torn == 0, "\(torn) of \(exports) exports torn")
        }
    }
}
