import Foundation
import LMDB
import Synchronization

/// The synchronous core of a store: the LMDB environment, the sample storage, the aggregate
/// caches and the write lock.
///
/// ``TrendStore`` wraps it for host apps. Reads run on any thread in their own read
/// transaction; writes are serialised by `writer`, which also owns the write path's
/// reusable zlib stream.
final class StoreEngine: Sendable {
    let environment: Environment
    /// Every table of the store: the one door to LMDB.
    let tables: StoreTables
    /// The series, their sample blocks, rollup rows and hour summaries.
    let storage: SampleStorage
    /// The aggregates computed from `storage`.
    var queries: Queries { Queries(storage: storage) }
    /// Cached aggregates under versioned keys (``SchemaKey``).
    let caches: AggregateCache
    /// Typed key-value caches of host apps, by namespace.
    var keyValues: KeyValueTable { tables.keyValues }
    /// The zone local-day figures of this handle use by default: the zone it was opened
    /// with, else the store's recorded default.
    let timeZone: TimeZone
    /// The default zone the store records (changed only by ``setStoredTimeZone(_:)``).
    var storedTimeZone: TimeZone { storedZone.withLock { $0 } }
    private let storedZone: Mutex<TimeZone>
    /// The directory holding the store.
    let directory: URL
    /// The clock cache freshness and migrations read (injectable for tests).
    let clock: @Sendable () -> Date
    /// How long the change log keeps what each commit changed, in days.
    let changeRetentionDays: Int
    private let writer: Mutex<ZlibCodec>
    /// How this handle's commits reach the disk (``StoreOptions/durability``).
    private let commitSync: Environment.Sync
    /// Wakes the observers of every handle of this process on the directory when a write of
    /// this handle commits.
    let commits: CommitSignal

    init(directory: URL, options: StoreOptions) throws {
        var envOptions = Environment.Options()
        envOptions.mapSize = options.initialMapSize
        envOptions.readOnly = options.readOnly
        var creating = false
        var acquired: EnvironmentRegistry.Shared?
        // A process whose first import failed removes the empty store it made: when that
        // happens between finding the data file and taking the directory's lock, the store
        // is made again rather than LMDB making an empty data file.
        for _ in 0..<100 where acquired == nil {
            creating = try NewStoreFiles.makeIfMissing(in: directory, options: options)
            do {
                acquired = try EnvironmentRegistry.acquire(
                    directory: directory, options: envOptions,
                    requiringDataFile: !options.readOnly)
            } catch is EnvironmentRegistry.DataFileRemoved {
                continue
            } catch {
                if creating { _ = try? TrendStore.removeStoreIfEmpty(at: directory) }
                throw error
            }
        }
        guard let shared = acquired else {
            throw StoreError.storeUnavailable(
                path: directory.path, reason: "the store keeps being removed while it is opened")
        }
        let environment = shared.environment
        self.environment = environment
        commits = shared.commits
        if !options.readOnly, !creating, (try? environment.metaPagesAgree()) == false {
            EnvironmentRegistry.release(environment)
            throw StoreError.storeUnavailable(
                path: directory.path,
                reason:
                    "the newest meta page of its data file is damaged, so LMDB would open an earlier commit and a write would make losing the later ones permanent; run trendstore verify, then restore a backup or export what it holds"
            )
        }
        readOnly = options.readOnly
        self.directory = directory
        writer = Mutex(ZlibCodec(level: 1))
        commitSync =
            switch options.durability {
            case .full: .full
            case .normal: .dataOnly
            case .none: .none
            }
        clock = options.clock
        changeRetentionDays = min(max(options.changeRetentionDays, 1), 36_500)
        let createdStore: Bool
        do {
            // The settings first: a store of a development build, or a data file without a
            // store's settings, is refused before any table is created.
            let meta = try MetaTable(in: environment)
            if !options.readOnly { meta.stampCommits(of: environment) }
            let settings = try StoreSettings.load(
                environment: environment, meta: meta, options: options, path: directory.path,
                creating: false)
            let tables = try StoreTables(
                in: environment, meta: settings.meta ?? meta, sealer: settings.sealer)
            try Transactions.read(in: environment) { try tables.loadStoreSeal(in: $0) }
            self.tables = tables
            caches = AggregateCache(payloads: tables.payloads)
            storage = SampleStorage(
                tables: tables, rollupGrid: settings.rollupGrid,
                hourPhase: settings.hourPhase, readsHourSummaries: options.readsHourSummaries)
            createdStore = creating
            storedZone = Mutex(settings.storedTimeZone)
            timeZone = options.timeZone ?? settings.storedTimeZone
        } catch {
            // Not initialised, so no deinit will give the environment back.
            EnvironmentRegistry.release(environment)
            // A store this open began to create (a disk that filled up) is not left half made.
            if creating { _ = try? TrendStore.removeStoreIfEmpty(at: directory) }
            throw error
        }
        // Initialised from here: a failure is followed by deinit, which closes the handle.
        if !options.readOnly {
            try Migrator.run(migrationContext, newStore: createdStore)
            // Another process may have finished a migration this handle's sealer did not see
            // (not `read`, which would call this handle one of the old format).
            try Transactions.read(in: environment) { try tables.loadStoreSeal(in: $0) }
            // A priority change killed between batches is continued here. Until its rows are
            // rebuilt its series reads its samples, so a rebuild that fails now (a full
            // disk) leaves every figure right and is tried again at the next open.
            try? finishRowRebuilds()
        }
    }

    deinit { close() }

    /// Whether this handle refuses writes (the environment may be shared with a writer).
    let readOnly: Bool
    private let closed = Mutex(false)

    /// Ends this handle: later reads and writes throw ``StoreError/Code/closed``. The
    /// environment closes when no other handle of this process uses it. Closing twice does nothing.
    func close() {
        let wasOpen = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if wasOpen { EnvironmentRegistry.release(environment) }
    }

    /// Throws ``StoreError/Code/closed`` once the handle is closed.
    func checkOpen() throws(StoreError) {
        if closed.withLock({ $0 }) { throw .closed(path: directory.path) }
    }

    /// Creates `directory` (and its parents) with mode 0700 when it does not exist.
    ///
    /// - Throws: ``StoreError/Code/storeUnavailable`` with the system's reason.
    static func createDirectory(_ directory: URL) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storeUnavailable(
                path: directory.path, reason: "cannot create the directory: \(systemReason(error))")
        }
    }

    /// The operating system's words for a Foundation file error ("Permission denied").
    private static func systemReason(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error,
            case let posix = underlying as NSError, posix.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(posix.code)))
        }
        return (error as NSError).localizedDescription
    }

    /// Runs a write transaction with the write path's zlib stream, one writer at a time.
    func write<R: Sendable>(_ body: (borrowing WriteTransaction, ZlibCodec) throws -> R) throws -> R
    {
        try checkOpen()
        if readOnly {
            throw StoreError.storage(
                path: directory.path, operation: "write", code: 13,
                reason: "the store is open read-only")
        }
        do {
            let result = try writer.withLock { zlib in
                try Transactions.write(in: environment, sync: commitSync) { txn in
                    try body(txn, zlib)
                }
            }
            commits.notify()
            return result
        } catch let damage as SealedValueDamage {
            throw storeError(for: damage)
        } catch {
            throw StoreError.wrapping(error, path: directory.path)
        }
    }

    /// Records `zone` as the store's default zone.
    func setStoredTimeZone(_ zone: TimeZone) throws {
        try write { txn, _ in
            try tables.meta.setZoneIdentifier(zone.identifier, in: txn)
        }
        storedZone.withLock { $0 = zone }
    }

    /// Runs a read transaction.
    ///
    /// - Throws: ``StoreError/Code/storeUnavailable`` when this handle read an
    ///   encrypted store of format 6 or older and another process has since bound its values
    ///   to the store (format 7): its keys are blinded anew, so the handle must open it again.
    func read<R>(_ body: (borrowing ReadTransaction) throws -> R) throws -> R {
        try checkOpen()
        do {
            return try Transactions.read(in: environment) { txn in
                if let sealer = tables.sealer, sealer.isUnbound,
                    try tables.meta.sealID(in: txn) != nil
                {
                    throw StoreError.storeUnavailable(
                        path: directory.path,
                        reason:
                            "another process brought it to storage format 7 (its values bound to the store) after this handle opened it; open it again"
                    )
                }
                return try body(txn)
            }
        } catch let damage as SealedValueDamage {
            throw storeError(for: damage)
        } catch {
            throw StoreError.wrapping(error, path: directory.path)
        }
    }

    /// The size of the store's data file in bytes.
    func fileSize() -> Int {
        let path = directory.appendingPathComponent("data.mdb").path
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// What the schema's migrations work on.
    var migrationContext: MigrationContext {
        MigrationContext(
            environment: environment, meta: tables.meta, tables: tables, storage: storage,
            caches: caches,
            defaultZone: storedTimeZone, clock: clock)
    }

    /// Copies the store, compacted, into `directory`, which must not hold a store.
    func backup(to directory: URL) throws {
        try checkOpen()
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("data.mdb").path)
        {
            throw StoreError.storeUnavailable(
                path: directory.path, reason: "already holds a store; back up into a new directory")
        }
        let created = !FileManager.default.fileExists(atPath: directory.path)
        try Self.createDirectory(directory)
        do {
            try environment.copy(to: directory.path, compacting: true)
        } catch {
            // The copy removed its partial file; a directory made for it goes too.
            if created { try? FileManager.default.removeItem(at: directory) }
            throw StoreError.wrapping(error, path: self.directory.path)
        }
    }
}
