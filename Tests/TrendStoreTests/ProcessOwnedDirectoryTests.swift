import Foundation
import Testing
import TrendStoreTesting

@testable import TrendStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Directories of ended processes")
struct ProcessOwnedDirectoryTests {
    @Test("a process that ended but was not reaped (a zombie) has ended; a running one has not")
    func zombieHasEnded() throws {
        #expect(!ProcessOwnedDirectory.hasEnded(getpid()))
        var child: pid_t = 0
        let arguments = [strdup("/bin/true"), nil]
        defer { free(arguments[0]) }
        try #require(posix_spawn(&child, "/bin/true", nil, nil, arguments, nil) == 0)
        // Not waited for: once it exits it is a zombie of this process until reaped.
        var ended = false
        for _ in 0..<500 where !ended {
            usleep(2_000)
            ended = ProcessOwnedDirectory.hasEnded(child)
        }
        #expect(ended)
        var status: Int32 = 0
        #expect(waitpid(child, &status, 0) == child)
        #expect(ProcessOwnedDirectory.hasEnded(child))
    }

    @Test("a directory named after a zombie is removed; one named after this process stays")
    func zombiesDirectoryRemoved() throws {
        try withTemporaryDirectory { directory in
            let parent = directory.url
            var child: pid_t = 0
            let arguments = [strdup("/bin/true"), nil]
            defer { free(arguments[0]) }
            try #require(posix_spawn(&child, "/bin/true", nil, nil, arguments, nil) == 0)
            while !ProcessOwnedDirectory.hasEnded(child) { usleep(2_000) }
            let prefix = ".copy.partial-"
            let zombies = parent.appendingPathComponent("\(prefix)\(child)-a")
            let mine = parent.appendingPathComponent(ProcessOwnedDirectory.name(prefix: prefix))
            for directory in [zombies, mine] {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true)
            }
            ProcessOwnedDirectory.removeAbandoned(in: parent, prefix: prefix)
            #expect(!FileManager.default.fileExists(atPath: zombies.path))
            #expect(FileManager.default.fileExists(atPath: mine.path))
            var status: Int32 = 0
            _ = waitpid(child, &status, 0)
        }
    }
}
