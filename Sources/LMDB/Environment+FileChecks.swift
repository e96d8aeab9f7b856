import CLMDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What opening checks of a store's files before and after LMDB reads them.
extension Environment {
    /// Refuses files LMDB would misuse: a `data.mdb` or `lock.mdb` that is a symbolic link
    /// (LMDB follows it and writes its lock data, or pages, wherever it points), and an empty
    /// `data.mdb` (LMDB would read it as an environment never written and write a new one
    /// into it: a file cut to nothing must stay as it is and say so).
    static func checkFiles(in path: String) throws {
        for name in ["data.mdb", "lock.mdb"] {
            var status = stat()
            guard lstat(path + "/" + name, &status) == 0 else { continue }
            if (status.st_mode & S_IFMT) == S_IFLNK {
                throw LMDBError(
                    code: .permissionDenied,
                    operation:
                        "open \(path): \(name) is a symbolic link, which a store's files never are")
            }
            if name == "data.mdb", status.st_size == 0 {
                throw LMDBError(
                    code: .corrupted,
                    operation: "open \(path): the data file is empty (0 bytes), so its data is lost"
                )
            }
        }
    }

    /// Refuses a data file shorter than the pages its meta page claims: reading past the end
    /// of a memory-mapped file would kill the process instead of failing.
    static func checkNotTruncated(_ env: OpaquePointer, path: String) throws {
        var info = MDB_envinfo()
        var pages = MDB_stat()
        try check(mdb_env_info(env, &info), "read environment info of \(path)")
        try check(mdb_env_stat(env, &pages), "read environment stat of \(path)")
        let needed = (info.me_last_pgno + 1) * Int(pages.ms_psize)
        var status = stat()
        guard lstat(path + "/data.mdb", &status) == 0 else { return }
        if Int(status.st_size) < needed {
            throw LMDBError(
                code: .corrupted,
                operation:
                    "open \(path): the data file is \(status.st_size) bytes but its pages reach \(needed) (truncated)"
            )
        }
    }
}
