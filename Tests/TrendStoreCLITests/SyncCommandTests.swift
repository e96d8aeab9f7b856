import Foundation
import Testing
import TestSupport
import TrendStoreTesting

import TrendStore

/// `trendstore changes`, `apply` and `sync` on real files, as a user runs them.
@Suite("The sync commands")
struct SyncCommandTests {
    static func csv(_ rows: [(Int64, Double, String)]) -> String {
        "series,start,end,value,source\n"
            + rows.map { "energy,\($0.0),\($0.0 + 60_000),\($0.1),\($0.2)" }.joined(separator: "\n")
            + "\n"
    }

    @Test(
        "changes writes a file and its anchor, apply applies it, sync brings two stores together once"
    )
    func changesApplySync() throws {
        try withTemporaryDirectory { directory in
            let phone = directory.url.appendingPathComponent("phone").path
            let tablet = directory.url.appendingPathComponent("tablet").path
            let start: Int64 = 1_780_000_000_000
            let phoneCSV = try directory.file(
                "phone.csv",
                containing: Self.csv((0..<30).map { (start + $0 * 60_000, 2, "Watch") }))
            let tabletCSV = try directory.file(
                "tablet.csv",
                containing: Self.csv((0..<10).map { (start + $0 * 60_000, 1, "Ring") }))
            #expect(try CommandLineTool.run(["import", phoneCSV, "--store", phone]).status == 0)
            #expect(try CommandLineTool.run(["import", tabletCSV, "--store", tablet]).status == 0)

            let file = directory.url.appendingPathComponent("phone.changes").path
            let changes = try CommandLineTool.run([
                "changes", "--store", phone, "--out", file, "--json",
            ])
            #expect(changes.status == 0, "\(changes.output)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(changes.output.utf8)) as? [String: Any])
            #expect(report["samples"] as? Int == 30 && report["deletions"] as? Int == 0)
            #expect(
                report["bytes"] as? Int
                    == (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int))
            let anchor = try #require(report["anchor"] as? String)
            #expect(ChangeAnchor(anchor) != nil)
            let none = try CommandLineTool.run([
                "changes", "--store", phone, "--since", anchor, "--out", file + ".2",
            ])
            #expect(
                none.status == 0
                    && none.output.trimmingCharacters(in: .whitespacesAndNewlines) == anchor)

            let applied = try CommandLineTool.run(["apply", file, "--store", tablet])
            #expect(
                applied.status == 0 && applied.output.contains("30 samples written"),
                "\(applied.output)")
            let again = try CommandLineTool.run(["apply", file, "--store", tablet])
            #expect(again.output.contains("0 samples written"), "\(again.output)")

            let sync = try CommandLineTool.run(["sync", phone, tablet])
            #expect(sync.status == 0, "\(sync.output)")
            #expect(
                sync.output.contains("tablet → \(phone): 10 samples written")
                    || sync.output.contains("→ \(phone): 10 samples written"), "\(sync.output)")
            let second = try CommandLineTool.run(["sync", phone, tablet])
            #expect(
                second.output.components(separatedBy: "0 samples written, 0 removed").count == 3,
                "\(second.output)")

            for store in [phone, tablet] {
                let exported = try CommandLineTool.run([
                    "export", "--series", "energy", "--store", store, "--out", store + ".csv",
                ])
                #expect(exported.status == 0)
            }
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: phone + ".csv"))
                    == Data(contentsOf: URL(fileURLWithPath: tablet + ".csv")))
        }
    }

    @Test("a bad anchor is a usage error; a damaged file names itself and changes nothing")
    func refusals() throws {
        try withTemporaryDirectory { directory in
            let store = directory.url.appendingPathComponent("store").path
            let csv = try directory.file(
                "a.csv", containing: Self.csv([(1_780_000_000_000, 1, "")]))
            #expect(try CommandLineTool.run(["import", csv, "--store", store]).status == 0)
            let bad = try CommandLineTool.run([
                "changes", "--store", store, "--since", "yesterday", "--out",
                directory.url.appendingPathComponent("x").path,
            ])
            #expect(bad.status == 2 && bad.output.contains("not a change anchor"), "\(bad.output)")
            let damaged = try directory.file("damaged.changes", containing: "TSCS not really")
            let applied = try CommandLineTool.run(["apply", damaged, "--store", store])
            #expect(
                applied.status == 1 && applied.output.contains("damaged.changes: not a change set"),
                "\(applied.output)")
        }
    }

    #if Encryption
        @Test(
            "sync opens each store with its own key, or none when it is plain, and brings them together"
        )
        func syncAcrossKeys() throws {
            try withTemporaryDirectory { directory in
                let start: Int64 = 1_780_000_000_000
                var stores: [String] = []
                var keys: [String] = []
                for (index, name) in ["plain", "one", "two"].enumerated() {
                    let store = directory.url.appendingPathComponent(name).path
                    let csv = try directory.file(
                        "\(name).csv",
                        containing: Self.csv(
                            (0..<5).map { (start + Int64(index * 5 + $0) * 60_000, 1, name) }))
                    var arguments = ["import", csv, "--store", store]
                    if index > 0 {
                        let key = directory.url.appendingPathComponent("\(name).hex").path
                        #expect(try CommandLineTool.run(["keygen", "--out", key]).status == 0)
                        arguments += ["--key-file", key]
                        keys.append(key)
                    }
                    #expect(try CommandLineTool.run(arguments).status == 0)
                    stores.append(store)
                }
                let withPlain = try CommandLineTool.run([
                    "sync", stores[1], stores[0], "--key-file", keys[0],
                ])
                #expect(withPlain.status == 0, "\(withPlain.output)")
                let twoKeys = try CommandLineTool.run([
                    "sync", stores[1], stores[2], "--key-file", keys[0], "--second-key-file",
                    keys[1],
                ])
                #expect(twoKeys.status == 0, "\(twoKeys.output)")
                #expect(twoKeys.output.contains("10 samples written"), "\(twoKeys.output)")
                let oneKey = try CommandLineTool.run([
                    "sync", stores[1], stores[2], "--key-file", keys[0],
                ])
                #expect(oneKey.status != 0, "the second store's key is another")
                var exports: [Data] = []
                for (store, key) in zip(stores.dropFirst(), keys) {
                    let out = store + ".csv"
                    let exported = try CommandLineTool.run([
                        "export", "--series", "energy", "--store", store, "--key-file", key,
                        "--out", out,
                    ])
                    #expect(exported.status == 0, "\(exported.output)")
                    exports.append(try Data(contentsOf: URL(fileURLWithPath: out)))
                }
                #expect(exports[0] == exports[1] && exports[0].count > 300)
            }
        }
    #endif
}
