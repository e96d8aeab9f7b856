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

    /// Opens every table of `environment` beside `meta`, opened (and its settings checked)
    /// first, creating those missing in a writable environment.
    init(in environment: Environment, meta: MetaTable) throws {
        self.meta = meta
        payloads = try PayloadTable(in: environment)
        keyValues = try KeyValueTable(in: environment)
        series = try SeriesTable(in: environment)
        blocks = try BlockTable(in: environment)
        days = try DayRowTable(in: environment)
        hours = try HourSummaryTable(in: environment)
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
}
