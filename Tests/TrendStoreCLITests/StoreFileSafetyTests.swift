import Foundation
import Testing
import TestSupport
import TrendStore

/// Files around a store that the tool must not trust: symbolic links in place of its files,
/// key files that are links to large files or readable by others, plaintext exports of an
/// encrypted store, and empty names.
@Suite("Files around a store")
struct StoreFileSafetyTests {
    /// A store of one sample at `directory`/store.
    static func makeStore(in directory: TemporaryDirectory, key: String? = nil) throws -> String {
        let store = directory.url.appendingPathComponent("store").path
        let csv = try directory.file("one.csv", containing: "series,start,end,value\ne,0,60000,1\n")
        var arguments = ["import", csv, "--store", store]
        if let key { arguments += ["--key-file", key] }
        let result = try CommandLineTool.run(arguments)
        #expect(result.status == 0, "\(result.output)")
        return store
    }

    @Test("a data.mdb or lock.mdb that is a symbolic link is refused, its target untouched")
    func symlinkedFiles() throws {
        try withTemporaryDirectory { directory in
            let store = try Self.makeStore(in: directory)
            let victim = directory.url.appendingPathComponent("victim").path
            try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
            let lock = store + "/lock.mdb"
            try FileManager.default.removeItem(atPath: lock)
            try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: victim)
            for arguments in [["info", "--store", store], ["verify", "--store", store]] {
                let result = try CommandLineTool.run(arguments)
                #expect(result.status != 0, "\(arguments): \(result.output)")
                #expect(result.output.contains("symbolic link"), "\(result.output)")
            }
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
            // A link in place of a missing lock file to a file not there yet creates nothing.
            let absent = directory.url.appendingPathComponent("absent").path
            try FileManager.default.removeItem(atPath: lock)
            try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: absent)
            #expect(try CommandLineTool.run(["info", "--store", store]).status != 0)
            #expect(!FileManager.default.fileExists(atPath: absent))
        }
    }

    #if Encryption
        @Test("a key file is read to 4 KiB at most, whatever it links to, and a loose one warns")
        func keyFiles() throws {
            try withTemporaryDirectory { directory in
                let key = directory.url.appendingPathComponent("key").path
                #expect(try CommandLineTool.run(["keygen", "--out", key]).status == 0)
                let store = try Self.makeStore(in: directory, key: key)
                // A link to a 1 GiB file (sparse): refused at once, not read.
                let large = directory.url.appendingPathComponent("large").path
                #expect(FileManager.default.createFile(atPath: large, contents: nil))
                #expect(truncate(large, 1 << 30) == 0)
                let link = directory.url.appendingPathComponent("link").path
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: large)
                let begin = ContinuousClock.now
                let refused = try CommandLineTool.run([
                    "info", "--store", store, "--key-file", link,
                ])
                #expect(refused.status == 1)
                #expect(refused.output.contains("larger than 4096 bytes"), "\(refused.output)")
                #expect(ContinuousClock.now - begin < .seconds(10))
                // Readable by others: used, with a warning.
                #expect(chmod(key, 0o644) == 0)
                let loose = try CommandLineTool.run(["info", "--store", store, "--key-file", key])
                #expect(loose.status == 0)
                #expect(loose.output.contains("may be read by other users"), "\(loose.output)")
                // A directory is not a key file.
                let notFile = try CommandLineTool.run([
                    "info", "--store", store, "--key-file", directory.url.path,
                ])
                #expect(notFile.status == 1 && notFile.output.contains("not a regular file"))
            }
        }

        @Test("an export of an encrypted store to a file is as private as its backups (0600)")
        func privateExport() throws {
            try withTemporaryDirectory { directory in
                let key = directory.url.appendingPathComponent("key").path
                #expect(try CommandLineTool.run(["keygen", "--out", key]).status == 0)
                let store = try Self.makeStore(in: directory, key: key)
                let out = directory.url.appendingPathComponent("out.csv").path
                let result = try CommandLineTool.run([
                    "export", "--store", store, "--key-file", key, "--series", "e", "--out", out,
                ])
                #expect(result.status == 0, "\(result.output)")
                let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions]
                #expect((mode as? NSNumber)?.intValue == 0o600)
            }
        }
    #endif

    @Test("an empty --store or an empty series name to export is an argument error")
    func emptyNames() throws {
        try withTemporaryDirectory { directory in
            let store = try Self.makeStore(in: directory)
            let emptyStore = try CommandLineTool.run(["info", "--store", ""])
            #expect(emptyStore.status == 2, "\(emptyStore.output)")
            for series in ["", "e,", ",e"] {
                let result = try CommandLineTool.run([
                    "export", "--store", store, "--series", series,
                ])
                #expect(result.status == 2, "\(series): \(result.output)")
            }
        }
    }
}
