import Foundation
import Testing
import TestSupport
import TrendStore

/// An option naming a file to write never destroys a store: `--out` and `--svg` onto a
/// store's file, into its directory, or onto a hard link of its data file are refused
/// before a byte is written, and the store is left as it was.
@Suite("Output paths that are stores")
struct OutputPathTests {
    @Test("export, generate and the SVG queries refuse a store's files and directory")
    func refused() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory.url.appendingPathComponent("store")
            let opened = try TrendStore(directory: store)
            try await opened.write(
                [
                    Sample(
                        startMilliseconds: 1_780_000_000_000, endMilliseconds: 1_780_000_060_000,
                        value: 2)
                ],
                to: "e", unit: "kcal")
            await opened.close()
            let data = store.appendingPathComponent("data.mdb").path
            let linked = directory.url.appendingPathComponent("elsewhere.csv").path
            #expect(link(data, linked) == 0)
            let before = try Data(contentsOf: URL(fileURLWithPath: data))
            let targets = [
                data, store.appendingPathComponent("lock.mdb").path,
                store.appendingPathComponent("new.csv").path, store.path, linked,
            ]
            for target in targets {
                let commands = [
                    ["export", "--store", store.path, "--series", "e", "--out", target],
                    ["generate", "--days", "1", "--out", target],
                    [
                        "query", "weekday-average", "--series", "e", "--store", store.path, "--svg",
                        target,
                    ],
                    [
                        "query", "heatmap", "--series", "e", "--from", "2026-05-01", "--to",
                        "2026-06-01", "--store", store.path, "--svg", target,
                    ],
                ]
                for arguments in commands {
                    let result = try CommandLineTool.run(arguments)
                    #expect(result.status != 0, "\(arguments)")
                    #expect(
                        result.output.contains("destroy the store"),
                        "\(arguments): \(result.output)")
                }
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: data)) == before)
            #expect(
                !FileManager.default.fileExists(
                    atPath: store.appendingPathComponent("new.csv").path))
            #expect(try CommandLineTool.run(["verify", "--store", store.path]).status == 0)
        }
    }

    @Test("an ordinary path beside the store is written")
    func ordinaryPath() async throws {
        try withTemporaryDirectory { directory in
            let out = directory.url.appendingPathComponent("out.csv").path
            let result = try CommandLineTool.run(["generate", "--days", "1", "--out", out])
            #expect(result.status == 0, "\(result.output)")
            #expect(FileManager.default.fileExists(atPath: out))
        }
    }
}
