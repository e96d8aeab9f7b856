import Foundation
import TestSupport
import Testing
import TrendStoreTesting

@testable import TrendStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every `trendstore` command that opens a store runs in a child process its parent waits
/// for: a fault in the child (a damaged page) is one line and exit status 3, and killing the
/// parent kills the command.
@Suite("Commands run supervised")
struct SupervisedRunTests {
    /// Starts `import` of a named pipe nobody writes to, so the command's child blocks in
    /// opening it, and returns the parent, the child's process id and the parent's output.
    private static func blockedImport(in directory: URL) async throws
        -> (parent: ChildProcess, child: pid_t, output: Pipe)
    {
        let pipe = directory.appendingPathComponent("samples.csv")
        try #require(mkfifo(pipe.path, 0o600) == 0)
        let (parent, output) = try CommandLineTool.start([
            "import", pipe.path, "--store", directory.appendingPathComponent("store").path,
        ])
        let children = "/proc/\(parent.processIdentifier)/task/\(parent.processIdentifier)/children"
        for _ in 0..<1_000 {
            if let text = try? String(contentsOfFile: children, encoding: .utf8),
                let child = text.split(separator: " ").first.flatMap({ pid_t($0) })
            {
                // Give the child time to reach the pipe's open, past its start.
                try await Task.sleep(for: .milliseconds(200))
                return (parent, child, output)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        parent.terminate()
        throw CommandLineTool.ToolMissing()
    }

    /// Sends `signal` to the child of a blocked import and returns its parent, ended, and
    /// what the parent printed.
    private static func childSent(_ signal: Int32, in directory: URL) async throws
        -> (parent: ChildProcess, printed: String)
    {
        let (parent, child, output) = try await blockedImport(in: directory)
        kill(child, signal)
        let printed = String(
            decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        parent.waitUntilExit()
        return (parent, printed)
    }

    @Test("killing the command's process with SIGKILL ends the command's child too")
    func childDiesWithParent() async throws {
        try await withTemporaryDirectory { directory in
            let (parent, child, _) = try await Self.blockedImport(in: directory.url)
            #expect(!ProcessOwnedDirectory.hasEnded(child))
            kill(parent.processIdentifier, SIGKILL)
            // Not waitUntilExit: a child left running may hold what Foundation watches.
            var ended = false
            for _ in 0..<500 where !ended {
                ended = ProcessOwnedDirectory.hasEnded(child)
                if !ended { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(ended, "the command's child \(child) outlived its killed parent")
            if !ended { kill(child, SIGKILL) }
        }
    }

    @Test("a child killed by a fault is reported in one line naming the store, exit status 3")
    func faultIsDamage() async throws {
        try await withTemporaryDirectory { directory in
            let (parent, printed) = try await Self.childSent(SIGSEGV, in: directory.url)
            #expect(!parent.endedBySignal)
            #expect(parent.terminationStatus == 3)
            let store = directory.url.appendingPathComponent("store").path
            #expect(
                printed.hasPrefix(
                    "trendstore: store \(store) is damaged: the command was killed by signal 11"),
                "\(printed)")
            #expect(printed.split(separator: "\n").count == 1, "\(printed)")
        }
    }

    @Test("a child ended by a signal that is no fault ends its parent by the same signal")
    func otherSignalPassesThrough() async throws {
        try await withTemporaryDirectory { directory in
            let (parent, printed) = try await Self.childSent(SIGTERM, in: directory.url)
            #expect(parent.endedBySignal)
            #expect(parent.terminationStatus == SIGTERM)
            #expect(printed.isEmpty, "\(printed)")
        }
    }
}
