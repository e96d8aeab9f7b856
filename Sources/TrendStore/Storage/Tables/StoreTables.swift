import LMDB

/// Every table of a store (FORMAT.md), opened once per handle: the typed door through which
/// every stored value passes.
struct StoreTables: Sendable {
    /// Settings, migrations, series ids, change counts.
    let meta: MetaTable
    /// The series registry.
    let series: SeriesTable
    /// Sample blocks.
    let blocks: BlockTable
    /// Rollup rows.
    let days: DayRowTable
    /// Hour summaries.
    let hours: HourSummaryTable
    /// Cached aggregates.
    let payloads: PayloadTable
    /// Typed-cache entries.
    let keyValues: KeyValueTable
    /// The series' sources and priority orders; `nil` in a store of an earlier format
    /// opened read-only (it has none).
    let sources: SourceTable?
    /// The change log and the host's external anchors; `nil` in a store of a format before
    /// 5 opened read-only (it has none).
    let sync: SyncTable?
    /// Seals and opens every table's values in an encrypted store; `nil` in a plain one.
    let sealer: ValueSealer?

    /// Opens every table of `environment` beside `meta`, opened (and its settings checked)
    /// first, creating those missing in a writable environment; `sealer` seals their values
    /// in an encrypted store (`meta` is already sealed by it).
    init(in environment: Environment, meta: MetaTable, sealer: ValueSealer?) throws {
        self.meta = meta
        self.sealer = sealer
        payloads = try PayloadTable(in: environment, sealer: sealer)
        keyValues = try KeyValueTable(in: environment, sealer: sealer)
        series = try SeriesTable(in: environment, sealer: sealer)
        blocks = try BlockTable(in: environment, sealer: sealer)
        days = try DayRowTable(in: environment, sealer: sealer)
        hours = try HourSummaryTable(in: environment, sealer: sealer)
        do {
            sources = try SourceTable(in: environment, sealer: sealer)
        } catch let error as LMDBError where error.code == .notFound {
            sources = nil
        }
        do {
            sync = try SyncTable(in: environment, sealer: sealer)
        } catch let error as LMDBError where error.code == .notFound {
            sync = nil
        }
    }

    /// Creates every table of a new store in `environment` (writable) in one transaction, so
    /// the store's creation syncs once for them all; opening each table then writes nothing.
    static func create(in environment: Environment) throws {
        try environment.createDatabases(named: [
            MetaTable.name, PayloadTable.name, KeyValueTable.name, SeriesTable.name,
            BlockTable.name, DayRowTable.name, HourSummaryTable.name, SourceTable.name,
            SyncTable.name,
        ])
    }

    /// Whether the store of `environment` holds no series, cached aggregates or typed-cache
    /// entries; a table never created counts as empty.
    static func holdNothing(in environment: Environment) throws -> Bool {
        for name in [SeriesTable.name, PayloadTable.name, KeyValueTable.name] {
            let table: RawTable
            do {
                table = try RawTable(named: name, in: environment)
            } catch let error as LMDBError where error.code == .notFound {
                continue
            }
            if try Transactions.read(in: environment, { try table.entryCount(in: $0) }) > 0 {
                return false
            }
        }
        return true
    }

    /// Every stored value of an encrypted store that does not open, table by table (none in
    /// a plain store): what ``TrendStore/verify()-1rh8s`` reports before it decodes anything.
    func unopenableValues<T: ReadableTransaction & ~Copyable>(in txn: borrowing T) throws
        -> [SealedValueDamage]
    {
        try meta.unopenableValues(in: txn) + series.unopenableValues(in: txn)
            + blocks.unopenableValues(in: txn) + days.unopenableValues(in: txn)
            + hours.unopenableValues(in: txn) + payloads.unopenableValues(in: txn)
            + keyValues.unopenableValues(in: txn) + (sources?.unopenableValues(in: txn) ?? [])
            + (sync?.unopenableValues(in: txn) ?? [])
    }
}
