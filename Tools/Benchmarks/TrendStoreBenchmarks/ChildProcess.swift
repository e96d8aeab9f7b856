import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program to its end and measures it as the shell's `time` would: wall-clock
/// seconds and the peak resident memory of the child.
enum ChildProcess {
    struct Outcome {
        /// The exit status (128 + the signal when killed).
        var status: Int32
        /// Wall-clock seconds from spawn to exit.
        var seconds: Double
        /// The child's peak resident set, in bytes.
        var peakResidentBytes: Int
        /// What it wrote to standard output.
        var output: String
    }

    /// Runs `executable` with `arguments`, standard output captured, standard error shown.
    static func run(_ executable: String, _ arguments: [String]) throws -> Outcome {
        let outputPath = NSTemporaryDirectory() + "trendstore-bench-\(UUID().uuidString).out"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(
            &actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = BenchClock.now()
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchmarkError("cannot run \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = BenchClock.seconds(since: start)
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // Linux reports ru_maxrss in KiB.
        return Outcome(
            status: exit, seconds: seconds, peakResidentBytes: Int(usage.ru_maxrss) * 1024,
            output: output)
    }
}

/// A benchmark that cannot go on, with why.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
