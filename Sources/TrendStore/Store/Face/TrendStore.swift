import Foundation
import LMDB

/// An embedded store of health and fitness samples, with fast aggregates.
///
/// You open one per store directory and keep it. Writes go through the actor; queries
/// are `nonisolated` and synchronous, so a widget can call them without `await`, from
/// any thread, while another process writes:
///
/// ```swift
/// let store = try TrendStore(directory: containerURL.appending(path: "trends"))
/// try await store.write(minuteSamples, to: "activeEnergy", unit: "kcal")
/// let stored = try store.samples(of: "activeEnergy", from: startOfDay, to: now)
/// ```
///
/// Every write is one LMDB transaction: it lands whole or not at all, and the
/// rollups the aggregates read are updated in the same transaction. The actor runs on a
/// serial dispatch queue of its own, not on Swift's cooperative pool: a write waiting for
/// another process's writer lock, or for the disk, never holds up the app's other tasks.
public actor TrendStore {
    nonisolated let engine: StoreEngine
    private nonisolated let executor = WriterExecutor()
    /// Follows the app's suspension notifications (``StoreOptions/observesSuspensionNotifications``).
    private nonisolated let suspensionObserver: SuspensionObserver?

    /// The executor the actor's methods (writes, declarations, deletions, cache writes) run
    /// on: a serial dispatch queue of the store's own, outside the cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Opens the store in `directory`, creating it (mode 0700, files 0600) when needed.
    ///
    /// Runs on the calling thread, which may wait for the disk, for migrations and for
    /// another process's writer lock: from async code, use ``open(directory:options:)``,
    /// which runs it on a thread of its own.
    ///
    /// - Throws: ``StoreError/Code/incompatibleFormat`` for a store of an unknown format,
    ///   ``StoreError/Code/storage`` when the directory holds
    ///   something that is not a store or cannot be opened.
    public init(directory: URL, options: StoreOptions = StoreOptions()) throws {
        do {
            engine = try StoreEngine(directory: directory, options: options)
        } catch {
            throw StoreError.wrapping(error, path: directory.path)
        }
        suspensionObserver =
            options.observesSuspensionNotifications ? SuspensionObserver(engine: engine) : nil
    }

    /// Opens the store in `directory` off the caller's thread, creating it (mode 0700, files
    /// 0600) when needed and running its migrations there, so an app can open it from the
    /// main actor without blocking it.
    ///
    /// ```swift
    /// let store = try await TrendStore.open(directory: containerURL.appending(path: "trends"))
    /// ```
    ///
    /// - Throws: What ``init(directory:options:)`` throws.
    public static func open(directory: URL, options: StoreOptions = StoreOptions()) async throws
        -> TrendStore
    {
        try await offCallerThread { try TrendStore(directory: directory, options: options) }
    }

    /// The zone local-day figures use when a query names none: the zone this handle was
    /// opened with (``StoreOptions/timeZone``), else the store's default.
    public nonisolated var timeZone: TimeZone { engine.timeZone }

    /// The default zone the store records, whatever zone this handle was opened with.
    public nonisolated var defaultTimeZone: TimeZone { engine.storedTimeZone }

    /// Records `zone` as the store's default zone, for handles opened without one from now on.
    ///
    /// Cached figures are keyed by zone, so those computed for the old default stay
    /// filed under it and are never served for the new one.
    public func setDefaultTimeZone(_ zone: TimeZone) throws {
        try engine.setStoredTimeZone(zone)
    }

    /// The directory holding the store.
    public nonisolated var directory: URL { engine.directory }

    /// Writes samples to one series, creating the series on first use.
    ///
    /// A sample whose `(start, end)` is already stored replaces its value; within the
    /// call the last occurrence of an identity wins, so writing the same samples twice
    /// changes nothing.
    ///
    /// - Parameters:
    ///   - samples: The samples, in any order.
    ///   - series: The series name: 1 to 255 UTF-8 bytes.
    ///   - unit: The unit of the values; a new series is created with it.
    ///   - kind: The kind of the series when this write creates it (`nil`: cumulative);
    ///     for an existing series, `nil` or its own kind.
    ///   - source: The device or app the samples came from (`nil`: the default source);
    ///     where sources overlap, the series' priority order says which counts (<doc:Sources>).
    /// - Throws: ``StoreError/Code/invalidSample`` for a non-finite value
    ///   or an end before the start, ``StoreError/Code/invalidSeriesName``,
    ///   ``StoreError/Code/unitMismatch``,
    ///   ``StoreError/Code/kindMismatch``, ``StoreError/Code/invalidArgument(_:)``
    ///   for a source name longer than 255 bytes; nothing is written then.
    @discardableResult
    public func write(
        _ samples: [Sample], to series: String, unit: String, kind: SeriesKind? = nil,
        source: String? = nil
    ) throws -> WriteSummary {
        let name = try SeriesName.validated(series)
        return try engine.write([
            SeriesSamples(series: name, unit: unit, kind: kind, samples: samples, source: source)
        ])[name] ?? WriteSummary()
    }

    /// Writes samples to several series in one transaction: all of them land, or none.
    ///
    /// - Returns: What the write changed, per series.
    @discardableResult
    public func write(_ entries: [SeriesSamples]) throws -> [String: WriteSummary] {
        try engine.write(entries)
    }

    /// Records `series` with its unit and kind before any sample arrives, so queries on it
    /// answer empty figures instead of throwing ``StoreError/Code/unknownSeries``: a
    /// widget asking for today's curve before the app's first write gets a curve of zeros.
    ///
    /// Declaring a series that exists with the same unit and kind does nothing; a name that
    /// was never declared nor written still throws ``StoreError/Code/unknownSeries``
    /// with suggestions, so a typo is still caught.
    ///
    /// - Throws: ``StoreError/Code/invalidSeriesName``,
    ///   ``StoreError/Code/unitMismatch`` or
    ///   ``StoreError/Code/kindMismatch`` when the series exists otherwise.
    public func declareSeries(_ series: String, unit: String, kind: SeriesKind = .cumulative)
        throws
    {
        try write([], to: series, unit: unit, kind: kind)
    }

    /// Removes the samples of `series` that start in `[from, to)`.
    ///
    /// - Returns: How many samples were removed.
    /// - Warning: The samples are gone once this returns.
    @discardableResult
    public func deleteSamples(of series: String, from: Date, to: Date) throws -> Int {
        try engine.delete(
            series: series, from: from.millisecondsSince1970, to: to.millisecondsSince1970)
    }

    /// Removes a series, its samples and its rollups.
    ///
    /// - Warning: The series is gone once this returns.
    public func deleteSeries(_ series: String) throws {
        try engine.deleteSeries(named: series)
    }

    /// Calls `body` with the samples of `series` starting in `[from, to)`, one stored block
    /// at a time in time order, without holding them all in memory: for exports and scans.
    ///
    /// - Returns: How many samples were passed to `body`.
    /// - Warning: `body` runs inside a read transaction: keep it short and do not write to the store from it.
    @discardableResult
    public nonisolated func forEachBlock(
        of series: String, from: Date, to: Date, _ body: ([Sample]) throws -> Void
    ) throws -> Int {
        try engine.read { txn in
            try engine.storage.forEachBlockOfSamples(
                series: series, from: from.millisecondsSince1970, to: to.millisecondsSince1970,
                in: txn, body)
        }
    }

    /// The size of the store's data file in bytes.
    public nonisolated var fileSize: Int { engine.fileSize() }

    /// Checks every block, rollup row and hour summary of the store.
    ///
    /// Decodes every block, checks its checksum and invariants, recomputes every rollup row
    /// and hour summary from the samples and compares. A damaged block is reported with its
    /// series and first start; its bytes are never read as numbers. In an encrypted store
    /// every stored value is authenticated first, and one that fails is reported with the
    /// series and window (or the record) its key names.
    ///
    /// - Complexity: Reads the whole store once.
    public nonisolated func verify() throws -> VerificationReport {
        // In an encrypted store every value must open first: one that does not is reported
        // with its series and window, and the checks below pass over it.
        let unopenable = try engine.read { try engine.tables.unopenableValues(in: $0) }
        var report: VerificationReport
        do {
            report = try engine.read { txn in
                try IntegrityCheck(storage: engine.storage).run(in: txn)
            }
        } catch let error as StoreError where !unopenable.isEmpty {
            // A series record that does not open keeps the series from being listed.
            report = VerificationReport()
            report.problems.append(
                .init(kind: .unreadable, series: "", at: Date(milliseconds: 0), detail: "\(error)"))
        }
        report.problems.insert(contentsOf: engine.problems(for: unopenable), at: 0)
        let ids = try engine.environment.metaPageTransactionIDs()
        if !Environment.transactionIDsAgree(ids) {
            report.problems.insert(
                .init(
                    kind: .damagedMetaPage, series: "(data.mdb)", at: Date(milliseconds: 0),
                    detail:
                        "the meta pages record transactions \(ids[0]) and \(ids[1]), not two in a row: "
                        + "one is damaged, and the store may have opened an earlier commit than its last"
                ),
                at: 0)
        }
        return report
    }
}

extension TrendStore {
    /// Whether the data file's two meta pages record consecutive commits: `false` when one
    /// is damaged, so LMDB may have opened an earlier commit than the last and every read
    /// misses what the later ones wrote (``verify()-1rh8s`` reports it as
    /// ``VerificationReport/Problem/Kind/damagedMetaPage``; a writable open refuses it).
    ///
    /// - Complexity: Reads the file's two meta pages, not its data.
    public nonisolated func metaPagesAgree() throws -> Bool {
        try engine.checkOpen()
        do {
            return try engine.environment.metaPagesAgree()
        } catch {
            throw StoreError.wrapping(error, path: directory.path)
        }
    }

    /// The storage format the store's data is in: 4, or an earlier one (1 to 3) in a store
    /// opened read-only that no writable handle has migrated yet; every release opens them
    /// all (`FORMAT.md`).
    public nonisolated var formatVersion: Int {
        get throws {
            Int(try engine.read { try engine.tables.meta.settings(in: $0) }.format ?? 0)
        }
    }

    /// The cipher an encrypted store seals every value with (`"AES-256-GCM"`), `nil` for a
    /// plain store (``StoreOptions/encryptionKey``).
    public nonisolated var encryptionCipher: String? {
        get throws { try engine.read { try engine.tables.meta.encryptionRecords(in: $0)?.cipher } }
    }

    /// The grid the store's rollups resolve, chosen when it was created (``StoreOptions/rollupGrid``).
    public nonisolated var rollupGrid: RollupGrid { engine.storage.rollupGrid }

    /// The minute of each UTC hour at which the store's hour summaries begin (0, 15, 30 or
    /// 45), chosen when it was created: local hours of zones whose hours begin there are
    /// read from summaries (a store of the hour grid created in India has 30).
    public nonisolated var hourSummaryMinute: Int {
        Int(engine.storage.hourPhase.offset / TimeGrid.minute)
    }
}
