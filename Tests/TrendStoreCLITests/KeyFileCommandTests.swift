#if Encryption
    import Foundation
    import Testing
    import TestSupport

    /// The command line's keys: made by `keygen`, read from files, never from arguments.
    @Suite("Key files on the command line")
    struct KeyFileCommandTests {
        @Test(
            "keygen writes a 0600 key and never overwrites; every command reads --key-file or TRENDSTORE_KEY_FILE"
        )
        func keyFiles() throws {
            try withTemporaryDirectory { directory in
                let key = directory.url.appendingPathComponent("key").path
                let store = directory.url.appendingPathComponent("store").path
                let csv = directory.url.appendingPathComponent("in.csv")
                try Data(
                    "series,start,end,value,unit\nenergy,1763683200000,1763683260000,1.5,kcal\n"
                        .utf8
                ).write(to: csv)

                #expect(try CommandLineTool.run(["keygen", "--out", key]).status == 0)
                let attributes = try FileManager.default.attributesOfItem(atPath: key)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
                let written = try String(contentsOfFile: key, encoding: .utf8)
                let again = try CommandLineTool.run(["keygen", "--out", key])
                #expect(again.status == 1 && again.output.contains("File exists"))
                #expect(try String(contentsOfFile: key, encoding: .utf8) == written)

                let imported = try CommandLineTool.run([
                    "import", csv.path, "--store", store, "--key-file", key,
                ])
                #expect(imported.status == 0, "\(imported.output)")
                let info = try CommandLineTool.run(["info", "--store", store, "--key-file", key])
                #expect(info.output.contains("encrypted yes, AES-256-GCM"), "\(info.output)")
                #expect(
                    !info.output.contains(written.trimmingCharacters(in: .whitespacesAndNewlines)))
                let noKey = try CommandLineTool.run(["info", "--store", store])
                #expect(noKey.status == 1 && noKey.output.contains("encrypted (AES-256-GCM)"))
                // The environment variable names the file too.
                #expect(
                    try CommandLineTool.run(
                        ["verify", "--store", store], environment: ["TRENDSTORE_KEY_FILE": key]
                    ).status == 0)
                // 32 raw bytes are a key; other files are refused naming the file; a key is
                // never an argument's value.
                let raw = directory.url.appendingPathComponent("raw")
                try Data(repeating: 7, count: 32).write(to: raw)
                let wrong = try CommandLineTool.run([
                    "verify", "--store", store, "--key-file", raw.path,
                ])
                #expect(wrong.status == 1 && wrong.output.contains("the key does not open"))
                let short = directory.url.appendingPathComponent("short")
                try Data(repeating: 7, count: 31).write(to: short)
                let refused = try CommandLineTool.run([
                    "info", "--store", store, "--key-file", short.path,
                ])
                #expect(
                    refused.status == 1
                        && refused.output.contains("key file \(short.path): not a key"))
                #expect(
                    try CommandLineTool.run(["info", "--store", store, "--key", written]).status
                        == 2)
            }
        }
    }
#endif
