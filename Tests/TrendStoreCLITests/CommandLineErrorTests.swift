import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

/// What the CLI says when a user gets something wrong (issue 13, items 11–13): one line
/// naming what and why, and a documented exit status (0 ok, 1 error, 2 usage, 3 damage).
@Suite("Command-line errors and exit codes")
struct CommandLineErrorTests {
    private func csv(in directory: TemporaryDirectory, _ lines: [String]) throws -> String {
        try directory.file(
            "in.csv", containing: (["series,start,end,value"] + lines).joined(separator: "\n"))
    }

    @Test("a store path that is a file, or under one, is named in one line with status 1")
    func storePathIsAFile() throws {
        try withTemporaryDirectory { directory in
            let file = directory.url.appendingPathComponent("plain").path
            try "x".write(toFile: file, atomically: true, encoding: .utf8)
            let input = try csv(in: directory, ["x,1,1,1"])
            for (arguments, expected) in [
                (["info", "--store", file], "store \(file): is a file, not a store directory"),
                (
                    ["import", input, "--store", file],
                    "store \(file): is a file, not a store directory"
                ),
                (
                    ["import", input, "--store", file + "/sub"],
                    "store \(file)/sub: cannot create the directory: Not a directory"
                ),
            ] {
                let result = try CommandLineTool.run(arguments)
                #expect(result.status == 1)
                #expect(result.output == "trendstore: \(expected)\n", "\(arguments)")
            }
        }
    }

    @Test("usage errors print one line and a hint with status 2, never the whole usage text")
    func usageErrors() throws {
        for arguments in [
            ["frobnicate"], ["query", "today"],
            ["query", "today", "--series", "x", "--now", "9223372036854775807"],
            ["query", "today", "--series", "x", "--now=-62135596800001"],
            ["query", "heatmap", "--series", "x", "--from", "0000-01-01", "--to", "2000-01-01"],
        ] {
            let result = try CommandLineTool.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            let lines = result.output.split(separator: "\n")
            #expect(lines.count == 2, "\(arguments): \(result.output)")
            #expect(lines.first?.hasPrefix("trendstore: ") == true)
            #expect(lines.last?.hasPrefix("hint: see 'trendstore") == true)
            #expect(!result.output.contains("USAGE"))
        }
    }

    @Test("verify exits 3 when it finds damage")
    func verifyDamage() async throws {
        try await withTemporaryStore { store, url in
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: "x",
                unit: "kcal")
            #expect(try CommandLineTool.run(["verify", "--store", url.path]).status == 0)
            try store.engine.write { txn, _ in
                let record = try store.engine.storage.requireSeries(named: "x", in: txn)
                try txn.put(
                    [1, 2, 3], forKey: StorageKey.make(series: record.id, index: 0),
                    in: store.engine.storage.blocks.database)
            }
            let result = try CommandLineTool.run(["verify", "--store", url.path])
            #expect(result.status == 3, "\(result.output)")
        }
    }

    @Test("a failed first import leaves no store behind; a later failure keeps the store")
    func failedFirstImport() throws {
        try withTemporaryDirectory { directory in
            let store = directory.url.appendingPathComponent("new-store").path
            let bad = try csv(in: directory, ["x,1,1,1", "x,2,1,1"])
            let failed = try CommandLineTool.run(["import", bad, "--store", store, "--tz", "UTC"])
            #expect(failed.status == 1)
            #expect(failed.output.contains("in.csv:3: end:"), "\(failed.output)")
            #expect(failed.output.contains("(nothing was committed)"))
            #expect(!FileManager.default.fileExists(atPath: store))
            let good = try csv(in: directory, ["x,1,1,1"])
            #expect(try CommandLineTool.run(["import", good, "--store", store]).status == 0)
            let bad2 = try csv(in: directory, ["x,2,1,1"])
            #expect(try CommandLineTool.run(["import", bad2, "--store", store]).status == 1)
            #expect(FileManager.default.fileExists(atPath: store + "/data.mdb"))
        }
    }

    @Test("a heatmap over two centuries streams as JSON with one entry per date")
    func longHeatmapStreams() async throws {
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "UTC")
        try await withTemporaryStore(options: options) { store, url in
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 0, value: 2)], to: "x", unit: "m")
            let result = try CommandLineTool.run([
                "query", "heatmap", "--series", "x", "--from", "1900-01-01", "--to", "2099-12-31",
                "--store", url.path, "--json",
            ])
            #expect(result.status == 0)
            let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
            let days = try #require((json as? [String: Any])?["days"] as? [[String: Any]])
            // 200 years of the Gregorian calendar: 200 × 365 + 49 leap days (1904 … 2096; 1900 is not).
            #expect(days.count == 73_049)
            #expect(
                days.filter { ($0["count"] as? Int) == 1 }.map { $0["date"] as? String } == [
                    "1970-01-01"
                ])
            let drawn = try CommandLineTool.run([
                "query", "heatmap", "--series", "x", "--from", "1900-01-01", "--to", "2099-12-31",
                "--store", url.path,
            ])
            #expect(drawn.status == 1 && drawn.output.contains("use --json"))
        }
    }
}
