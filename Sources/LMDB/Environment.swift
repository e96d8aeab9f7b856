import CLMDB
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An LMDB environment: one memory-mapped file holding named databases.
///
/// You open one per store directory and keep it for as long as you use the store.
/// Reads and writes happen in closure-scoped transactions:
///
/// ```swift
/// let env = try Environment(path: "/tmp/store", options: .init())
/// let db = try env.openDatabase(named: "samples")
/// try env.write { txn in try txn.put([1, 2, 3], forKey: [0x01], in: db) }
/// let value = try env.read { txn in try txn.value(forKey: [0x01], in: db) }
/// ```
///
/// The environment is opened with `MDB_NOTLS`, so a read transaction is not tied to
/// the thread that began it, and its files are created with ``Options/fileMode``
/// (0600 by default). Stale reader slots left by dead processes are cleared at open.
/// The map grows by itself: a write that fills the map is rolled back, the map is
/// doubled and the write runs again.
///
/// The corresponding LMDB function is `mdb_env_open`.
///
/// @unchecked: LMDB environments are thread-safe with MDB_NOTLS; mutable state is behind `resizeLock`.
public final class Environment: @unchecked Sendable {
    /// How to open an environment.
    public struct Options: Sendable {
        /// The initial size of the memory map in bytes. It grows by itself when full.
        public var mapSize: Int = 256 << 20
        /// The largest size the map may grow to, in bytes: 1 TiB on 64-bit systems, 1 GiB
        /// where `Int` has 32 bits (watchOS on arm64_32), whose address space is 4 GiB.
        public var maximumMapSize: Int =
            MemoryLayout<Int>.size >= 8 ? Int(truncatingIfNeeded: Int64(1) << 40) : 1 << 30
        /// The maximum number of named databases.
        public var maxDatabases: Int = 16
        /// The maximum number of simultaneous read transactions, across all processes.
        public var maxReaders: Int = 126
        /// Opens the environment for reading only. Writes throw ``LMDBError/Code/permissionDenied``.
        public var readOnly: Bool = false
        /// Permission bits for the files LMDB creates.
        public var fileMode: mode_t = 0o600

        /// Creates the default options: a 256 MiB initial map, read-write, durable, mode 0600.
        public init() {}
    }

    /// The open environment; replaced by ``resume()``. Read under the resize lock.
    var pointer: OpaquePointer
    let resizeLock = ResizeLock()
    /// The named databases opened so far, by handle: ``resume()`` opens them again in the
    /// same order, so every ``Database`` handed out keeps its handle.
    let openedDatabases = Mutex<[MDB_dbi: String]>([:])
    /// Where each write transaction records its own id (``stampCommits(in:key:)``), if anywhere.
    let commitStamp = Mutex<CommitStamp?>(nil)
    /// The directory holding `data.mdb` and `lock.mdb`.
    public let path: String
    /// The options the environment was opened with.
    public let options: Options
    /// The page size read transactions check values against (``ValueBounds``), or `nil` where
    /// the file's pages are not the system's.
    let checkedPageSize: Int?

    /// Opens the environment in an existing directory, creating its files if needed.
    ///
    /// - Parameters:
    ///   - path: A directory; it must exist.
    ///   - options: Map size, limits, read-only mode and file permissions.
    /// - Throws: ``LMDBError`` when the directory cannot be opened, the file is not an
    ///   LMDB file (``LMDBError/Code/invalid``) or was written by an incompatible version,
    ///   or is empty or shorter than its pages (``LMDBError/Code/corrupted``).
    public init(path: String, options: Options = Options()) throws {
        do {
            pointer = try Self.open(path: path, options: options, lockless: false)
            isLockless = false
        } catch let error as LMDBError
            where options.readOnly && (error.code == .permissionDenied || error.code.rawValue == 30)
        {
            // A read-only directory or medium: LMDB cannot open its lock file for writing.
            pointer = try Self.open(path: path, options: options, lockless: true)
            isLockless = true
        }
        self.path = path
        self.options = options
        checkedPageSize = ValueBounds.checkedPageSize(of: pointer)
    }

    /// Whether the environment was opened without LMDB's lock file, because its directory
    /// cannot be written (read-only only).
    ///
    /// - Warning: Reads then do not coordinate with writers: do not let another process
    ///   write the store meanwhile.
    public let isLockless: Bool

    static func open(path: String, options: Options, lockless: Bool) throws -> OpaquePointer {
        try checkFiles(in: path)
        var env: OpaquePointer?
        try check(mdb_env_create(&env), "create environment for \(path)")
        guard let env else { throw LMDBError(code: .invalid, operation: "create environment") }
        do {
            try check(mdb_env_set_assert(env, AssertionExit.handler), "set assertion handler")
            try check(mdb_env_set_mapsize(env, options.mapSize), "set map size of \(path)")
            try check(
                mdb_env_set_maxdbs(env, MDB_dbi(options.maxDatabases)),
                "set maximum databases of \(path)")
            try check(
                mdb_env_set_maxreaders(env, UInt32(options.maxReaders)),
                "set maximum readers of \(path)")
            var flags = UInt32(MDB_NOTLS)
            if options.readOnly { flags |= UInt32(MDB_RDONLY) }
            if lockless { flags |= UInt32(MDB_NOLOCK) }
            try check(mdb_env_open(env, path, flags, options.fileMode), "open environment \(path)")
            if !lockless {
                var dead: Int32 = 0
                try check(mdb_reader_check(env, &dead), "clear stale readers of \(path)")
            }
            try checkNotTruncated(env, path: path)
            return env
        } catch {
            mdb_env_close(env)
            throw error
        }
    }

    /// Whether ``close()`` ran; written under the resize lock held exclusively, read under it shared.
    var isClosed = false
    /// What ``suspend()`` recorded of the closed files, until ``resume()``; under the resize
    /// lock as `isClosed`.
    var suspension: Suspension?

    deinit {
        if !isClosed && suspension == nil { mdb_env_close(pointer) }
    }

    /// Closes the environment: waits for the transactions running in other threads to end,
    /// then releases the map and the files. Later transactions throw ``LMDBError/Code/closed``.
    /// Closing twice does nothing.
    ///
    /// The corresponding LMDB function is `mdb_env_close`.
    public func close() {
        resizeLock.withExclusive {
            guard !isClosed else { return }
            isClosed = true
            if suspension == nil { mdb_env_close(pointer) }
        }
    }

    /// Writes a consistent copy of the environment into the existing directory `destination`,
    /// which must hold no `data.mdb`, while readers and writers go on. With `compacting`, free
    /// pages are left out and the copy is as small as its data.
    ///
    /// The copy is written to `data.mdb.partial` with ``Options/fileMode`` (never wider, whatever
    /// the umask), synced, and only then renamed to `data.mdb`: a copy that fails (a full disk)
    /// or is killed leaves no `data.mdb`, so nothing half written opens as a store. A failed
    /// copy removes its partial file.
    ///
    /// The corresponding LMDB function is `mdb_env_copyfd2`.
    public func copy(to destination: String, compacting: Bool) throws {
        let partial = destination + "/data.mdb.partial"
        let final = destination + "/data.mdb"
        try resizeLock.withShared {
            try checkOpen("copy to \(destination)")
            let descriptor = FileCalls.createNew(partial, mode: options.fileMode)
            guard descriptor >= 0 else {
                throw LMDBError(
                    code: LMDBError.Code(rawValue: errno), operation: "create \(partial)")
            }
            do {
                defer { FileCalls.closeFile(descriptor) }
                _ = fchmod(descriptor, options.fileMode)
                try check(
                    mdb_env_copyfd2(pointer, descriptor, compacting ? UInt32(MDB_CP_COMPACT) : 0),
                    "copy \(path) to \(destination)")
                guard fsync(descriptor) == 0 else {
                    throw LMDBError(
                        code: LMDBError.Code(rawValue: errno), operation: "sync \(partial)")
                }
                guard link(partial, final) == 0 else {
                    throw LMDBError(
                        code: LMDBError.Code(rawValue: errno), operation: "name \(final)")
                }
            } catch {
                unlink(partial)
                throw error
            }
            unlink(partial)
        }
    }

    func checkOpen(_ operation: String) throws {
        if isClosed { throw LMDBError(code: .closed, operation: "\(operation) in \(path)") }
        if suspension != nil {
            throw LMDBError(code: .suspended, operation: "\(operation) in \(path)")
        }
    }

    /// The current size of the memory map in bytes (0 once closed).
    public var mapSize: Int {
        resizeLock.withShared { isClosed || suspension != nil ? 0 : currentMapSize() }
    }

    /// The map size; the caller holds the resize lock and has checked the environment is open.
    func currentMapSize() -> Int {
        var info = MDB_envinfo()
        mdb_env_info(pointer, &info)
        return info.me_mapsize
    }

    /// Opens a named database, creating it when the environment is writable.
    ///
    /// - Parameter name: The database's name.
    /// - Returns: A handle valid for the life of the environment.
    /// - Throws: ``LMDBError`` with ``LMDBError/Code/notFound`` when a read-only
    ///   environment has no such database.
    ///
    /// The corresponding LMDB function is `mdb_dbi_open`.
    public func openDatabase(named name: String) throws -> Database {
        if options.readOnly {
            // A handle opened in a read transaction survives only if that transaction commits.
            return try resizeLock.withShared {
                var txn: OpaquePointer?
                try check(
                    mdb_txn_begin(pointer, nil, UInt32(MDB_RDONLY), &txn),
                    "begin read transaction in \(path)")
                do {
                    let database = try TransactionOperations.openDatabase(
                        txn!, named: name, create: false)
                    try check(mdb_txn_commit(txn), "commit opening of database '\(name)'")
                    record(database)
                    return database
                } catch {
                    mdb_txn_abort(txn)
                    throw error
                }
            }
        }
        let database = try write { (txn) in try txn.openDatabase(named: name, create: true) }
        record(database)
        return database
    }

    /// Creates those of the named databases that do not exist, all in one write transaction:
    /// one commit reaching the disk where opening each with ``openDatabase(named:)`` would
    /// take one a database (which then opens them without writing anything).
    ///
    /// The corresponding LMDB function is `mdb_dbi_open` with `MDB_CREATE`.
    public func createDatabases(named names: [String]) throws {
        let databases = try write { txn in
            try names.map { try txn.openDatabase(named: $0, create: true) }
        }
        databases.forEach(record)
    }

    /// Runs `body` in a read transaction and returns its result.
    ///
    /// The transaction sees one consistent snapshot of the environment, unaffected by
    /// writes that commit meanwhile, in this process or another. Bytes read through it
    /// are valid only inside `body`: decode or copy them before it returns.
    ///
    /// The corresponding LMDB function is `mdb_txn_begin` with `MDB_RDONLY`.
    public func read<R>(
        _ body: (borrowing ReadTransaction) throws -> R
    ) throws -> R {
        while true {
            let outcome: R? = try resizeLock.withShared { () throws -> R? in
                try checkOpen("begin read transaction")
                var txn: OpaquePointer?
                let rc = mdb_txn_begin(pointer, nil, UInt32(MDB_RDONLY), &txn)
                if rc == MDB_MAP_RESIZED { return nil }
                try check(rc, "begin read transaction in \(path)")
                let transaction = ReadTransaction(pointer: txn!, checkedPageSize: checkedPageSize)
                defer { mdb_txn_abort(txn) }
                return try body(transaction)
            }
            if let outcome { return outcome }
            try adoptMapSizeOfOtherProcess()
        }
    }

    /// Runs `body` in a write transaction, committing when it returns (reaching the disk as
    /// `sync` says) and aborting when it throws.
    ///
    /// Writes are serialised across threads and processes: a second writer waits for the
    /// first to commit. If the map fills up, the transaction is rolled back, the map is
    /// grown and `body` runs again, so `body` must have no effects outside the
    /// transaction that would be wrong to repeat.
    ///
    /// - Warning: Do not begin another transaction of this environment inside `body`.
    ///
    /// The corresponding LMDB functions are `mdb_txn_begin` and `mdb_txn_commit`.
    public func write<R>(
        sync: Sync = .full, _ body: (borrowing WriteTransaction) throws -> R
    ) throws -> R {
        if options.readOnly {
            throw LMDBError(
                code: .permissionDenied, operation: "write to read-only environment \(path)")
        }
        while true {
            let state = WriteTransaction.State()
            do {
                let outcome: R? = try resizeLock.withShared { () throws -> R? in
                    try checkOpen("begin write transaction")
                    var txn: OpaquePointer?
                    let rc = mdb_txn_begin(pointer, nil, 0, &txn)
                    if rc == MDB_MAP_RESIZED { return nil }
                    try check(rc, "begin write transaction in \(path)")
                    let transaction = WriteTransaction(pointer: txn!, state: state)
                    let result: R
                    do {
                        try commitSyncing(sync)
                        result = try body(transaction)
                        try stamp(transaction)
                    } catch {
                        mdb_txn_abort(txn)
                        throw error
                    }
                    let commit = mdb_txn_commit(txn)
                    if commit == MDB_MAP_FULL { state.mapFull = true }
                    try check(commit, "commit write transaction in \(path)")
                    state.committed = true
                    return result
                }
                if let outcome { return outcome }
                try adoptMapSizeOfOtherProcess()
            } catch {
                guard state.mapFull else { throw error }
                try growMap()
            }
        }
    }

    /// Flushes the data to disk, even when commits are not durable.
    ///
    /// The corresponding LMDB function is `mdb_env_sync`.
    public func sync() throws {
        try resizeLock.withShared {
            try checkOpen("sync")
            try check(mdb_env_sync(pointer, 1), "sync \(path)")
        }
    }

    /// Doubles the map, up to ``Options/maximumMapSize``.
    private func growMap() throws {
        try resizeLock.withExclusive { () in
            try checkOpen("grow the map")
            let current = currentMapSize()
            guard current < options.maximumMapSize else {
                throw LMDBError(
                    code: .mapFull, operation: "grow map of \(path) beyond \(current) bytes")
            }
            let grown = min(current * 2, options.maximumMapSize)
            try check(mdb_env_set_mapsize(pointer, grown), "grow map of \(path) to \(grown) bytes")
        }
    }

    /// Takes the map size another process has grown the file to.
    private func adoptMapSizeOfOtherProcess() throws {
        try resizeLock.withExclusive { () in
            try checkOpen("adopt the map size")
            try check(mdb_env_set_mapsize(pointer, 0), "adopt map size of \(path)")
        }
    }
}
