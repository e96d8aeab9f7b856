import CLMDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Environment {
    /// What a suspended environment keeps of its closed files, to open them again.
    struct Suspension {
        /// The map size when it was suspended (the file's, if another process grew it since,
        /// is taken at resume).
        let mapSize: Int
        /// The device and inode of `data.mdb`: resuming onto another file is refused.
        let dataFile: FileIdentity
    }

    /// A file's device and inode.
    struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        /// The identity of the file at `path`, or `nil` when there is none.
        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// Whether ``suspend()`` closed the files and no ``resume()`` has opened them again.
    public var isSuspended: Bool { resizeLock.withShared { suspension != nil } }

    /// Closes the environment's files, releasing every lock LMDB holds on them, without
    /// ending the environment: waits for the transactions running in other threads, then
    /// closes; until ``resume()``, transactions throw ``LMDBError/Code/suspended``. Every
    /// ``Database`` stays valid. Suspending a suspended or closed environment does nothing.
    ///
    /// The corresponding LMDB function is `mdb_env_close`.
    public func suspend() {
        resizeLock.withExclusive {
            guard !isClosed, suspension == nil,
                let identity = FileIdentity(path: path + "/data.mdb")
            else { return }
            suspension = Suspension(mapSize: currentMapSize(), dataFile: identity)
            mdb_env_close(pointer)
        }
    }

    /// Opens the files ``suspend()`` closed again, with the same options and every database
    /// opened before under its handle. Resuming an environment that is not suspended does
    /// nothing.
    ///
    /// - Throws: ``LMDBError`` with ``LMDBError/Code/invalid`` when `data.mdb` was removed
    ///   or replaced by another file meanwhile, another code when the files cannot be
    ///   opened; the environment stays suspended then.
    ///
    /// The corresponding LMDB functions are `mdb_env_open` and `mdb_dbi_open`.
    public func resume() throws {
        try resizeLock.withExclusive {
            guard !isClosed, let suspension else { return }
            let dataPath = path + "/data.mdb"
            guard FileIdentity(path: dataPath) == suspension.dataFile else {
                throw LMDBError(
                    code: .invalid,
                    operation: "resume \(path): its data file was removed or replaced")
            }
            var reopening = options
            reopening.mapSize = suspension.mapSize
            let reopened = try Self.open(path: path, options: reopening, lockless: isLockless)
            do {
                try reopenDatabases(in: reopened)
            } catch {
                mdb_env_close(reopened)
                throw error
            }
            pointer = reopened
            self.suspension = nil
        }
    }

    /// Opens in `environment`, in one read transaction, every database opened before, in the
    /// order of their handles, which gives each its old handle again.
    private func reopenDatabases(in environment: OpaquePointer) throws {
        let databases = openedDatabases.withLock { $0 }.sorted { $0.key < $1.key }
        var txn: OpaquePointer?
        try check(
            mdb_txn_begin(environment, nil, UInt32(MDB_RDONLY), &txn),
            "begin read transaction in \(path)")
        guard let txn else { throw LMDBError(code: .badTransaction, operation: "resume \(path)") }
        do {
            for (handle, name) in databases {
                let database = try TransactionOperations.openDatabase(
                    txn, named: name, create: false)
                guard database.handle == handle else {
                    throw LMDBError(
                        code: .incompatible,
                        operation:
                            "resume \(path): database '\(name)' reopened under another handle")
                }
            }
            try check(mdb_txn_commit(txn), "commit reopening of the databases of \(path)")
        } catch {
            mdb_txn_abort(txn)
            throw error
        }
    }

    /// Notes `database` as opened, for ``resume()``.
    func record(_ database: Database) {
        openedDatabases.withLock { $0[database.handle] = database.name }
    }
}
