import Foundation

/// The `trendstore` executable built beside the tests, run as a real child process.
public enum CommandLineTool {
    /// The executable's location: next to the test bundle in the build folder.
    public static var url: URL? { sibling(named: "trendstore") }

    /// The executable `name` of this package built next to the test bundle.
    public static func sibling(named name: String) -> URL? {
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        let fromBuild = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/\(name)")
        return FileManager.default.isExecutableFile(atPath: fromBuild.path) ? fromBuild : nil
    }

    /// Starts the tool with `arguments`, and `environment` added to this process's; its
    /// output goes to the returned pipe.
    public static func start(_ arguments: [String], environment: [String: String] = [:]) throws
        -> (process: ChildProcess, output: Pipe)
    {
        guard let url else { throw ToolMissing() }
        return try startWithOutputPipe(url, arguments, environment: environment)
    }

    /// Starts `executable` with `arguments` (and `environment` added), its output and error
    /// going to the returned pipe, whose write end only the child then holds.
    public static func startWithOutputPipe(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (process: ChildProcess, output: Pipe) {
        let output = Pipe()
        let process = try ChildProcess(
            executable, arguments: arguments, environment: environment,
            output: output.fileHandleForWriting, error: output.fileHandleForWriting)
        try output.fileHandleForWriting.close()
        process.outputPipe = output
        return (process, output)
    }

    /// Starts the tool with `arguments`, kills it with SIGKILL after `delay` and waits for
    /// it to end; returns the pipe holding what it printed before.
    public static func killed(_ arguments: [String], after delay: Duration) async throws -> Pipe {
        let (process, output) = try start(arguments)
        try await Task.sleep(for: delay)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return output
    }

    /// Runs the tool (with `environment` added) to the end and returns its exit status and
    /// output.
    public static func run(_ arguments: [String], environment: [String: String] = [:]) throws
        -> (status: Int32, output: String)
    {
        let (process, output) = try start(arguments, environment: environment)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Thrown when the tool was not built.
    public struct ToolMissing: Error, CustomStringConvertible {
        /// Creates the error.
        public init() {}
        /// What is missing and how to build it.
        public var description: String {
            "the trendstore executable is not built next to the tests (run swift build first)"
        }
    }
}
