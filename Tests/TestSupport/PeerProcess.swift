import Foundation

/// The `trendstore-test-peer` executable built beside the tests, run as a second process on
/// a store: each ``send(_:)`` hands it one command and waits for its answer, so a test
/// knows exactly which of the peer's commits have returned.
public final class PeerProcess {
    private let process: ChildProcess
    private let input = Pipe()
    private let output = Pipe()
    private var buffered: [UInt8] = []

    /// Starts the peer on the store at `store`, committing with `durability` (`full`,
    /// `normal` or `none`), and waits until it has opened the store.
    public init(store: URL, durability: String = "full") throws {
        guard let url = CommandLineTool.sibling(named: "trendstore-test-peer") else {
            throw CommandLineTool.ToolMissing()
        }
        process = try ChildProcess(
            url, arguments: [store.path, durability], input: input.fileHandleForReading,
            output: output.fileHandleForWriting, error: .standardError)
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        let first = try readLine()
        guard first == "ready" else { throw PeerFailure(answer: first) }
    }

    /// Sends `command` and returns the peer's answer after "ok" (the peer's work is done
    /// then); throws with its answer when it failed.
    @discardableResult
    public func send(_ command: String) throws -> String {
        begin(command)
        return try finish()
    }

    /// Sends `command` without waiting for the answer: the peer works while the test goes on.
    public func begin(_ command: String) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    /// Waits for the answer to the command ``begin(_:)`` sent, as ``send(_:)`` does.
    @discardableResult
    public func finish() throws -> String {
        let answer = try readLine()
        guard answer.hasPrefix("ok") else { throw PeerFailure(answer: answer) }
        return String(answer.dropFirst(2)).trimmingCharacters(in: .whitespaces)
    }

    /// Whether the peer has written an answer not read yet.
    public var hasAnswer: Bool {
        if buffered.contains(10) { return true }
        var status = pollfd(
            fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&status, 1, 0) > 0
    }

    /// Ends the peer and waits for it.
    public func quit() {
        input.fileHandleForWriting.write(Data("quit\n".utf8))
        process.waitUntilExit()
    }

    /// Kills the peer with SIGKILL, wherever it is, and waits for it.
    public func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffered.firstIndex(of: 10) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                return line
            }
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { throw PeerFailure(answer: "the peer ended") }
            buffered += data
        }
    }

    /// The peer refused a command or ended; `answer` is what it said.
    public struct PeerFailure: Error, CustomStringConvertible {
        /// The peer's answer.
        public var answer: String
        /// The answer, as the error's text.
        public var description: String { "the peer answered: \(answer)" }
    }
}
