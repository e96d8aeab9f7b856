#if Encryption
    import Foundation
    import Testing
    import TestSupport
    import TrendStore

    /// `changes`, `apply` on an encrypted store: the changes file is sealed with its key.
    @Suite("Sealed change sets on the command line")
    struct SealedChangeSetCommandTests {
        @Test(
            "an encrypted store's changes file is sealed; apply opens it with --key-file and refuses it without"
        )
        func commandLine() throws {
            try withTemporaryDirectory { directory in
                let key = directory.url.appendingPathComponent("key.hex").path
                #expect(try CommandLineTool.run(["keygen", "--out", key]).status == 0)
                let phone = directory.url.appendingPathComponent("phone").path
                let tablet = directory.url.appendingPathComponent("tablet").path
                let start: Int64 = 1_780_000_000_000
                let other = directory.url.appendingPathComponent("other.hex").path
                #expect(try CommandLineTool.run(["keygen", "--out", other]).status == 0)
                let third = directory.url.appendingPathComponent("third").path
                let phoneCSV = try directory.file(
                    "phone.csv",
                    containing: SyncCommandTests.csv(
                        (0..<30).map { (start + $0 * 60_000, 2, "Watch") }))
                let tabletCSV = try directory.file(
                    "tablet.csv",
                    containing: SyncCommandTests.csv(
                        (0..<10).map { (start + $0 * 60_000, 1, "Ring") }))
                for (csv, store, storeKey) in [
                    (phoneCSV, phone, key), (tabletCSV, tablet, key), (tabletCSV, third, other),
                ] {
                    let made = try CommandLineTool.run([
                        "import", csv, "--store", store, "--key-file", storeKey,
                    ])
                    #expect(made.status == 0, "\(made.output)")
                }
                let file = directory.url.appendingPathComponent("phone.changes").path
                let changes = try CommandLineTool.run([
                    "changes", "--store", phone, "--key-file", key, "--out", file,
                ])
                #expect(changes.status == 0, "\(changes.output)")
                let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                #expect(ChangeSet.isSealed(bytes) && bytes.range(of: Data("energy".utf8)) == nil)

                let plainStore = directory.url.appendingPathComponent("plain").path
                let refused = try CommandLineTool.run(["apply", file, "--store", plainStore])
                #expect(refused.status == 1, "\(refused.output)")
                #expect(
                    refused.output.contains("\(file): sealed with a store's key"),
                    "\(refused.output)")
                #expect(!FileManager.default.fileExists(atPath: plainStore))

                let applied = try CommandLineTool.run([
                    "apply", file, "--store", tablet, "--key-file", key,
                ])
                #expect(
                    applied.status == 0 && applied.output.contains("30 samples written"),
                    "\(applied.output)")
                // A store of another key opens with it; the file does not.
                let wrong = try CommandLineTool.run([
                    "apply", file, "--store", third, "--key-file", other,
                ])
                #expect(
                    wrong.status == 1 && wrong.output.contains("does not open with this key"),
                    "\(wrong.output)")
            }
        }
    }
#endif
