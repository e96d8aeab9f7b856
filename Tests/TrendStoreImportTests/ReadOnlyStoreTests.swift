import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreImport

@Suite("A read-only store directory")
struct ReadOnlyStoreTests {
    /// Runs the tool as the unprivileged user `nobody` (root ignores permission bits).
    private func runAsNobody(_ arguments: [String]) throws -> (status: Int32, output: String) {
        guard let tool = CommandLineTool.url else { throw CommandLineTool.ToolMissing() }
        let (process, output) = try CommandLineTool.startWithOutputPipe(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", tool.path] + arguments)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(
        "is opened read-only for queries by a user who cannot write it; writes fail with a clear error",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && getuid() == 0))
    func readOnlyDirectory() async throws {
        let directory = try TemporaryDirectory()
        defer {
            try? FileManager.default.setAttributes(
                [.posixPermissions: 0o700],
                ofItemAtPath: directory.url.appendingPathComponent("store").path)
            directory.remove()
        }
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: directory.url.path)
        let storeURL = directory.url.appendingPathComponent("store")
        do {
            let store = try TrendStore(directory: storeURL)
            _ = try await Importer(store: store).importFile(
                at: Fixtures.path("csv/energy-small.csv"))
        }
        for file in ["data.mdb", "lock.mdb"] {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o444], ofItemAtPath: storeURL.appendingPathComponent(file).path
            )
        }
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o555], ofItemAtPath: storeURL.path)

        let info = try runAsNobody(["info", "--store", storeURL.path, "--json"])
        #expect(info.status == 0, "\(info.output)")
        #expect(info.output.contains("\"sampleCount\" : 8"), "\(info.output)")
        let verify = try runAsNobody(["verify", "--store", storeURL.path])
        #expect(verify.status == 0 && verify.output.contains("healthy"), "\(verify.output)")
        let write = try runAsNobody([
            "import", Fixtures.path("csv/bom-crlf.csv"), "--store", storeURL.path,
        ])
        #expect(
            write.status != 0 && write.output.hasPrefix("trendstore: ")
                && write.output.contains("Permission denied"), "\(write.output)")
    }
}
