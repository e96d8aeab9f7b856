import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreImport

/// Sources through the importer and the exporter: the `source` column and field,
/// `--source`, the warning for columns the importer does not read, and the round trip.
@Suite("Importing and exporting sources")
struct SourceImportTests {
    @Test(
        "a CSV source column anywhere in the header, an NDJSON source field, and a default source for records that name none"
    )
    func sourceColumnAndField() async throws {
        try await withTemporaryDirectory { directory in
            let csv = try directory.file(
                "s.csv",
                containing: """
                    source,series,start,end,value
                    "Ring, v2",e,0,60000,1
                    ,e,0,60000,2
                    Watch,e,0,60000,3
                    Watch,e,0,60000,4

                    """)
            let ndjson = try directory.file(
                "s.ndjson",
                containing: """
                    {"series":"e","start":120000,"end":180000,"value":5,"source":"Cafe\\u0301"}
                    {"series":"e","start":120000,"end":180000,"value":6}

                    """)
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.defaultSource = "Phone"
                let summary = try await Importer(store: store).importFile(at: csv, options: options)
                #expect(summary.warnings.isEmpty)
                // The same identity in one source: the last wins; across sources: both kept.
                #expect(summary.written["e"]?.duplicates == 1)
                _ = try await Importer(store: store).importFile(at: ndjson)
                let sources = try store.sources(of: "e")
                #expect(
                    Set(sources.map(\.name)) == ["Ring, v2", "Phone", "Watch", "Caf\u{E9}", ""])
                for (name, values) in [
                    ("Ring, v2", [1.0]), ("Phone", [2]), ("Watch", [4]), ("", [6]),
                ] {
                    #expect(
                        try store.samples(
                            of: "e", from: .distantPast, to: .distantFuture, source: name
                        ).map(\.value) == values, "\(name)")
                }
                // NFC: the decomposed accent names the precomposed source.
                #expect(
                    try store.samples(
                        of: "e", from: .distantPast, to: .distantFuture, source: "Cafe\u{301}"
                    ).map(\.value) == [5])
            }
        }
    }

    @Test("a header column the importer does not read is named in a warning, not silently ignored")
    func unknownColumn() async throws {
        try await withTemporaryDirectory { directory in
            let csv = try directory.file(
                "u.csv", containing: "series,start,end,value,device,unit\ne,0,60000,1,ring,kcal\n")
            try await withTemporaryStore { store, _ in
                let summary = try await Importer(store: store).importFile(at: csv)
                #expect(
                    summary.warnings == [
                        "\(csv):1: column \"device\" is not one the importer reads; its values were left out"
                    ])
                #expect(try store.unit(of: "e") == "kcal")
            }
        }
    }

    @Test("an NDJSON field the importer does not read is named in a warning, at its first line")
    func unknownField() async throws {
        try await withTemporaryDirectory { directory in
            let lines = [
                #"{"series":"e","start":0,"end":60000,"value":1,"unit":"kcal"}"#,
                #"{"series":"e","start":60000,"end":120000,"value":2,"device":"ring","zone":"x"}"#,
                #"{"series":"e","start":120000,"end":180000,"value":3,"device":"ring"}"#,
            ]
            let ndjson = try directory.file(
                "u.ndjson", containing: lines.joined(separator: "\n") + "\n")
            try await withTemporaryStore { store, _ in
                let summary = try await Importer(store: store).importFile(at: ndjson)
                #expect(
                    summary.warnings == [
                        "\(ndjson):2: field \"device\" is not one the importer reads; its values were left out",
                        "\(ndjson):2: field \"zone\" is not one the importer reads; its values were left out",
                    ])
                #expect(
                    try store.samples(of: "e", from: .distantPast, to: .distantFuture).map(\.value)
                        == [1, 2, 3])
            }
        }
    }

    @Test(
        "a source longer than 255 bytes is an error naming the file, line and field; nothing is written"
    )
    func longSource() async throws {
        try await withTemporaryDirectory { directory in
            let long = String(repeating: "é", count: 128)
            let csv = try directory.file(
                "l.csv",
                containing: "series,start,end,value,source\ne,0,60000,1,ok\ne,0,60000,1,\(long)\n")
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.atomic = true
                do {
                    _ = try await Importer(store: store).importFile(at: csv, options: options)
                    Issue.record("the import did not fail")
                } catch let error as ImportError {
                    #expect(error.line == 3 && error.field == "source", "\(error)")
                }
                #expect(try store.series().isEmpty)
            }
        }
    }

    @Test(
        "export then import into a fresh store gives the same sources, priority order, samples and figures, and the same export, bit for bit",
        arguments: [ExportFormat.csv, .ndjson])
    func roundTrip(format: ExportFormat) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var random = SampleGenerator(seed: 31)
        var options = StoreOptions()
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        options.timeZone = berlin
        let day: Int64 = 20_500 * 86_400_000
        let order = ["Oura, \"Gen 3\"", "iPhone"]
        try await withTemporaryStore(options: options) { store, _ in
            for source in ["Apple Watch", "iPhone", "Oura, \"Gen 3\"", ""] {
                let samples = (0..<300).map { _ in
                    let start = day + random.integer(in: 0...3 * 86_400_000)
                    return Sample(
                        startMilliseconds: start,
                        endMilliseconds: start + random.integer(in: 0...3_600_000),
                        value: Double(random.integer(in: 0...10_000)) / 7)
                }
                try await store.write(samples, to: "energy", unit: "kcal", source: source)
            }
            try await store.setSourcePriority(order, for: "energy")
            let file = try await Self.export(store, to: directory, named: "export", format)
            try await withTemporaryStore(options: options) { copy, _ in
                let summary = try await Importer(store: copy).importFile(at: file.path)
                #expect(summary.priorityOrders == ["energy": order])
                #expect(try copy.sourcePriority(of: "energy") == order)
                #expect(try copy.sources(of: "energy") == store.sources(of: "energy"))
                let again = try await Self.export(copy, to: directory, named: "again", format)
                #expect(try Data(contentsOf: again) == Data(contentsOf: file))
                for source in try store.sources(of: "energy").map(\.name) {
                    #expect(
                        try copy.samples(
                            of: "energy", from: .distantPast, to: .distantFuture, source: source)
                            == store.samples(
                                of: "energy", from: .distantPast, to: .distantFuture,
                                source: source))
                }
                let first = LocalDate(containing: Date(milliseconds: day), in: berlin)
                for offset in 0...4 {
                    let date = first.adding(days: offset)
                    #expect(
                        try copy.dayCurve(of: "energy", on: date).cumulative
                            == store.dayCurve(of: "energy", on: date).cumulative)
                }
                let last = first.adding(days: 4)
                #expect(
                    try copy.heatmap(of: ["energy"], from: first, through: last)
                        == store.heatmap(of: ["energy"], from: first, through: last))
                #expect(try await copy.verify().isHealthy)
            }
        }
    }

    @Test(
        "a priority rank that is no whole number from 1, or that contradicts an earlier row, is an error naming the file, line and field; no order is set",
        arguments: [
            ("e,0,60000,1,watch,0\n", 2),
            ("e,0,60000,1,watch,x\n", 2),
            ("e,0,60000,1,watch,1\ne,0,60000,1,phone,1\n", 3),
            ("e,0,60000,1,watch,1\ne,60000,120000,1,watch,2\n", 3),
        ])
    func badRanks(rows: String, line: Int) async throws {
        try await withTemporaryDirectory { directory in
            let csv = try directory.file(
                "r.csv", containing: "series,start,end,value,source,priority\n" + rows)
            try await withTemporaryStore { store, _ in
                do {
                    _ = try await Importer(store: store).importFile(at: csv)
                    Issue.record("the import did not fail")
                } catch let error as ImportError {
                    #expect(error.line == line && error.field == "priority", "\(error)")
                }
                if try store.series().contains(where: { $0.name == "e" }) {
                    #expect(try store.sourcePriority(of: "e").isEmpty)
                }
            }
        }
    }

    @Test(
        "ranks set the order once the import ends, ranked sources first by rank; unranked rows change nothing"
    )
    func ranksSetOrder() async throws {
        try await withTemporaryDirectory { directory in
            let ndjson = try directory.file(
                "r.ndjson",
                containing: """
                    {"series":"e","start":0,"end":60000,"value":10,"source":"watch","priority":2}
                    {"series":"e","start":0,"end":60000,"value":7,"source":"phone","priority":1}
                    {"series":"e","start":0,"end":60000,"value":3,"source":"ring"}

                    """)
            try await withTemporaryStore { store, _ in
                let summary = try await Importer(store: store).importFile(at: ndjson)
                #expect(summary.priorityOrders == ["e": ["phone", "watch"]])
                #expect(summary.warnings.isEmpty)
                #expect(try store.sourcePriority(of: "e") == ["phone", "watch"])
                let date = LocalDate(containing: Date(milliseconds: 0), in: store.defaultTimeZone)
                // The phone ranks first and covers the minute: 7, not 10, 3 or a sum.
                #expect(try store.dayCurve(of: "e", on: date).cumulative[23] == 7)
            }
        }
    }

    /// Exports `series` "energy" of `store` to `name.format` in `directory`.
    static func export(
        _ store: TrendStore, to directory: TemporaryDirectory, named name: String,
        _ format: ExportFormat
    ) async throws -> URL {
        let file = directory.url.appendingPathComponent("\(name).\(format.rawValue)")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try await Exporter(store: store).export(
            series: ["energy"], from: .distantPast, to: .distantFuture, format: format,
            to: handle)
        try handle.close()
        return file
    }
}
