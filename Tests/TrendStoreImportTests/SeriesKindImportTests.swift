import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreImport

@Suite("Series kinds in imported files")
struct SeriesKindImportTests {
    private static func file(_ name: String, _ text: String, in directory: TemporaryDirectory)
        -> String
    {
        let path = directory.url.appendingPathComponent(name).path
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test("a CSV kind column and an NDJSON kind field set the kind of new series")
    func kindsFromFiles() async throws {
        try await withTemporaryDirectory { directory in
            let csv = Self.file(
                "a.csv",
                "series,start,end,value,unit,kind\nhr,0,0,60,count/min,discrete\nsteps,0,60000,5,count,\n",
                in: directory)
            let ndjson = Self.file(
                "b.ndjson",
                """
                {"series":"weight","start":0,"end":0,"value":70.1,"unit":"kg","kind":"discrete"}
                {"series":"energy","start":0,"end":60000,"value":1.5,"unit":"kcal","kind":"cumulative"}

                """, in: directory)
            try await withTemporaryStore { store, _ in
                _ = try await Importer(store: store).importFile(at: csv)
                _ = try await Importer(store: store).importFile(at: ndjson)
                #expect(try store.kind(of: "hr") == .discrete)
                #expect(try store.kind(of: "steps") == .cumulative)
                #expect(try store.kind(of: "weight") == .discrete)
                #expect(try store.kind(of: "energy") == .cumulative)
            }
        }
    }

    @Test("the default kind applies to new series of files without one; a conflict is an error")
    func defaultsAndConflicts() async throws {
        try await withTemporaryDirectory { directory in
            let plain = Self.file("plain.csv", "series,start,end,value\nhr,0,0,60\n", in: directory)
            let conflicting = Self.file(
                "conflict.csv",
                "series,start,end,value,kind\nx,0,0,1,discrete\nx,1,1,2,cumulative\n", in: directory
            )
            let bad = Self.file(
                "bad.csv", "series,start,end,value,kind\nx,0,0,1,average\n", in: directory)
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.defaultKind = .discrete
                _ = try await Importer(store: store).importFile(at: plain, options: options)
                #expect(try store.kind(of: "hr") == .discrete)
                do {
                    _ = try await Importer(store: store).importFile(at: conflicting)
                    Issue.record("two kinds for one series in one file")
                } catch let error as ImportError {
                    #expect(error.line == 3 && error.field == "kind")
                    #expect("\(error)".contains("cumulative differs from discrete"))
                }
                #expect(try store.kind(of: "x") == nil)
                do {
                    _ = try await Importer(store: store).importFile(at: bad)
                    Issue.record("an unknown kind")
                } catch let error as ImportError {
                    #expect(error.line == 2 && error.field == "kind")
                }
                // A file whose kind conflicts with the stored series: nothing of it is written.
                let cumulative = Self.file(
                    "cumulative.csv", "series,start,end,value,kind\nhr,5,5,61,cumulative\n",
                    in: directory)
                do {
                    _ = try await Importer(store: store).importFile(at: cumulative)
                    Issue.record("a kind that differs from the stored one")
                } catch let error as ImportError {
                    #expect("\(error)".contains("series hr is discrete, not cumulative"))
                }
                #expect(
                    try store.samples(of: "hr", from: .distantPast, to: .distantFuture).count == 1)
            }
        }
    }
}
