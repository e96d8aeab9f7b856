import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Private working directories named after the process that made them
/// (`PREFIX<pid>-<uuid>`): a new store being made, a copy being written. One left by a
/// process that was killed is removed by the next that works in the same place; those of
/// running processes are left to them.
enum ProcessOwnedDirectory {
    /// A new name with `prefix` for a directory of this process.
    static func name(prefix: String) -> String {
        "\(prefix)\(getpid())-\(UUID().uuidString)"
    }

    /// Removes the directories in `parent` named with `prefix` whose process has ended.
    static func removeAbandoned(in parent: URL, prefix: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let pid = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(pid), hasEnded(pid) else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    /// Whether process `pid` has ended: none has the id, or it is a zombie (ended, not yet
    /// reaped: a killed command's orphan under an init that does not reap, as in some
    /// containers, stays one).
    static func hasEnded(_ pid: pid_t) -> Bool {
        if kill(pid, 0) != 0 { return errno == ESRCH }
        // /proc/PID/stat: "PID (NAME) STATE ..."; the name may hold any byte but ends at the
        // last ')'.
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
            let close = stat.lastIndex(of: UInt8(ascii: ")"))
        else { return false }
        let state = stat[close...].dropFirst().drop { $0 == UInt8(ascii: " ") }.first
        return state == UInt8(ascii: "Z") || state == UInt8(ascii: "X")
    }
}
