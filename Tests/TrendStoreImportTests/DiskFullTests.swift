import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreGenerator
import TrendStoreImport

@Suite("A disk that fills up")
struct DiskFullTests {
    @Test(
        "an import that runs out of space ends with a clear error, and the store opens, verifies and keeps whole batches"
    )
    func fileSizeLimit() async throws {
        guard let tool = CommandLineTool.url else { throw CommandLineTool.ToolMissing() }
        try await withTemporaryDirectory { directory in
            var generator = SampleGenerator(seed: 4)
            let samples = generator.minuteSamples(from: 1_780_000_000_000, count: 200_000)
            let csv = directory.url.appendingPathComponent("big.csv").path
            let writer = try SampleCSVWriter(path: csv)
            try writer.write(SeriesSamples(series: "energy", unit: "kcal", samples: samples))
            try writer.close()
            let storeURL = directory.url.appendingPathComponent("store")
            _ = try TrendStore(directory: storeURL)

            // Files this process writes may not grow past 400 KiB: the data file hits the limit mid-import.
            let (process, output) = try CommandLineTool.startWithOutputPipe(
                URL(fileURLWithPath: "/bin/bash"),
                [
                    "-c",
                    "ulimit -f 800; trap '' XFSZ; exec \"$0\" import \"$1\" --store \"$2\" --batch-size 10000",
                    tool.path, csv, storeURL.path,
                ])
            let text = String(
                decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus != 0)
            #expect(
                text.hasPrefix("trendstore: ") && text.contains("the disk may be full"), "\(text)")
            #expect(text.split(separator: "\n").count == 1, "one line on standard error: \(text)")

            let store = try TrendStore(directory: storeURL)
            #expect(try await store.verify().isHealthy)
            let stored =
                try committedSamples(of: "energy", in: store)
            #expect(
                stored.count % 10_000 == 0 && stored.count < samples.count,
                "\(stored.count) samples")
            #expect(stored == Array(samples.prefix(stored.count)))
            // With room again, the same import completes.
            _ = try await Importer(store: store).importFile(at: csv)
            #expect(
                try store.samples(of: "energy", from: .distantPast, to: .distantFuture).count
                    == samples.count)
        }
    }
}

/// Whether this process may mount a tmpfs (root in a sandbox that allows it).
private let canMountTmpfs: Bool = {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else {
        return false
    }
    let probe = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tmpfs-probe-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: probe) }
    guard
        (try? runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path])) == 0
    else { return false }
    _ = try? runProgram("/bin/umount", [probe.path])
    return true
}()

@discardableResult
private func runProgram(_ path: String, _ arguments: [String]) throws -> Int32 {
    let process = try ChildProcess(URL(fileURLWithPath: path), arguments: arguments)
    process.waitUntilExit()
    return process.terminationStatus
}

/// A 1 MiB tmpfs mounted at `small` in `directory`; the caller unmounts it.
private func mountSmallFileSystem(in directory: TemporaryDirectory) throws -> URL {
    let mountPoint = directory.url.appendingPathComponent("small")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    #expect(
        try runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path])
            == 0)
    return mountPoint
}

@Suite("A small file system that fills up")
struct SmallFileSystemTests {
    @Test(
        "a store on a read-only file system says so when asked to write, and still answers reads",
        .enabled(if: canMountTmpfs))
    func readOnlyFileSystem() async throws {
        try withTemporaryDirectory { directory in
            let mountPoint = try mountSmallFileSystem(in: directory)
            defer { _ = try? runProgram("/bin/umount", [mountPoint.path]) }
            let store = mountPoint.appendingPathComponent("store").path
            let csv = try directory.file(
                "one.csv", containing: "series,start,end,value\ne,0,60000,1\n")
            #expect(try CommandLineTool.run(["import", csv, "--store", store]).status == 0)
            #expect(
                try runProgram("/bin/mount", ["-o", "remount,ro", mountPoint.path]) == 0)
            let write = try CommandLineTool.run(["import", csv, "--store", store])
            #expect(write.status == 1)
            #expect(write.output.contains("Read-only file system"), "\(write.output)")
            #expect(!write.output.contains("Permission denied"), "\(write.output)")
            #expect(try CommandLineTool.run(["info", "--store", store]).status == 0)
        }
    }

    @Test(
        "an import onto a 1 MiB tmpfs stops with a clear error; the store opens, verifies and keeps whole batches",
        .enabled(if: canMountTmpfs))
    func tmpfs() async throws {
        try await withTemporaryDirectory { directory in
            let mountPoint = try mountSmallFileSystem(in: directory)
            defer { _ = try? runProgram("/bin/umount", [mountPoint.path]) }

            var generator = SampleGenerator(seed: 5)
            let samples = generator.minuteSamples(from: 1_780_000_000_000, count: 300_000)
            let csv = directory.url.appendingPathComponent("big.csv").path
            let writer = try SampleCSVWriter(path: csv)
            try writer.write(SeriesSamples(series: "energy", unit: "kcal", samples: samples))
            try writer.close()

            let storeURL = mountPoint.appendingPathComponent("store")
            var options = ImportOptions()
            options.batchSize = 20_000
            do {
                let store = try TrendStore(directory: storeURL)
                _ = try await Importer(store: store).importFile(at: csv, options: options)
                Issue.record("the import fitted in 1 MiB")
            } catch {
                #expect("\(error)".contains("the disk may be full"), "\(error)")
            }
            let reopened = try TrendStore(directory: storeURL)
            #expect(try await reopened.verify().isHealthy)
            let stored =
                try committedSamples(of: "energy", in: reopened)
            #expect(stored.count % 20_000 == 0 && stored.count < samples.count, "\(stored.count)")
            #expect(stored == Array(samples.prefix(stored.count)))
        }
    }

    @Test(
        "creating a store or a backup on a full file system: one error line, exit 1, nothing half made left",
        .enabled(if: canMountTmpfs))
    func fullAtCreation() async throws {
        guard CommandLineTool.url != nil else { throw CommandLineTool.ToolMissing() }
        try await withTemporaryDirectory { directory in
            let source = directory.url.appendingPathComponent("source")
            var generator = SampleGenerator(seed: 6)
            let store = try TrendStore(directory: source)
            try await store.write(
                generator.minuteSamples(from: 1_780_000_000_000, count: 400_000), to: "energy",
                unit: "kcal")
            await store.close()
            let csv = try directory.file(
                "one.csv", containing: "series,start,end,value\nx,1763683200000,1763683260000,1\n")
            let mountPoint = try mountSmallFileSystem(in: directory)
            defer { _ = try? runProgram("/bin/umount", [mountPoint.path]) }
            // Leave from nothing to less than the source's compacted copy needs (about 1.3 MiB).
            for leftKiB in [0, 8, 64, 200, 400, 700] {
                let fill = mountPoint.appendingPathComponent("fill")
                try? FileManager.default.removeItem(at: fill)
                #expect(
                    try runProgram(
                        "/bin/dd",
                        ["if=/dev/zero", "of=\(fill.path)", "bs=1k", "count=\(1024 - leftKiB)"])
                        == 0)
                let target = mountPoint.appendingPathComponent("store")
                let imported = try CommandLineTool.run(["import", csv, "--store", target.path])
                if imported.status == 0 {
                    #expect(
                        try CommandLineTool.run(["verify", "--store", target.path]).status == 0)
                } else {
                    #expect(imported.status == 1, "\(leftKiB) KiB: \(imported.output)")
                    #expect(imported.output.split(separator: "\n").count == 1, "\(imported.output)")
                    #expect(!FileManager.default.fileExists(atPath: target.path), "\(leftKiB) KiB")
                }
                try? FileManager.default.removeItem(at: target)
                let copy = mountPoint.appendingPathComponent("backup")
                let backup = try CommandLineTool.run(["backup", copy.path, "--store", source.path])
                #expect(backup.status == 1, "\(leftKiB) KiB: \(backup.output)")
                #expect(backup.output.split(separator: "\n").count == 1, "\(backup.output)")
                #expect(!FileManager.default.fileExists(atPath: copy.path), "\(leftKiB) KiB")
            }
        }
    }
}

@Suite("Backups")
struct BackupPermissionTests {
    @Test("a backup's files are as private as the store's (0600), whatever the umask")
    func privateCopy() async throws {
        try await withTemporaryDirectory { directory in
            let store = try TrendStore(directory: directory.url.appendingPathComponent("store"))
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)], to: "x", unit: ""
            )
            let previous = umask(0o022)
            defer { umask(previous) }
            let copy = directory.url.appendingPathComponent("copy")
            try await store.backup(to: copy)
            for name in ["data.mdb"] {
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: copy.appendingPathComponent(name).path)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            }
            let contents = try FileManager.default.contentsOfDirectory(atPath: copy.path)
            #expect(contents == ["data.mdb"])
        }
    }
}
