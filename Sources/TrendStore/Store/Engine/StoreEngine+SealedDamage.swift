import Foundation

extension StoreEngine {
    /// The store error for a sealed value of an encrypted store that did not open, naming
    /// the series and the window its key tells: a damaged block or rollup as for a plain
    /// store, else a damaged record.
    func storeError(for damage: SealedValueDamage) -> StoreError {
        storeError(for: damage, records: seriesRecordsByID())
    }

    /// The series records by id, read once for the errors of several damaged values; `nil`
    /// when they cannot be read. Not through `read`, which turns damage into a store error:
    /// a series record that does not open leaves the series unnamed.
    private func seriesRecordsByID() -> [UInt32: SeriesRecord]? {
        (try? Transactions.read(in: environment) { try storage.allSeriesRecords(in: $0) })
            .map { Dictionary($0.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }
    }

    private func storeError(for damage: SealedValueDamage, records: [UInt32: SeriesRecord]?)
        -> StoreError
    {
        let reason = SealedValueDamage.reason
        func record(_ id: UInt32) -> SeriesRecord? { records?[id] }
        func name(_ id: UInt32) -> String { record(id)?.name ?? "#\(id)" }
        return damage.key.withUnsafeBytes { key in
            switch damage.table {
            case BlockTable.name:
                if let (id, firstStart) = StorageKey.parse(key) {
                    return .damagedBlock(series: name(id), firstStart: firstStart, reason: reason)
                }
            case DayRowTable.name:
                if let (id, day) = StorageKey.parseDayRow(key) {
                    return .damagedRollup(
                        series: name(id), dayStart: TimeGrid.clampedStart(ofDay: day),
                        reason: reason)
                }
            case HourSummaryTable.name:
                if let (id, group) = StorageKey.parse(key) {
                    let kind = record(id)?.kind ?? .cumulative
                    let day =
                        HourSummaryCodec.firstDay(ofGroup: group, kind: kind)
                        ?? (group < 0 ? Int64.min : Int64.max)
                    return .damagedRollup(
                        series: name(id), dayStart: TimeGrid.clampedStart(ofDay: day),
                        reason: "hour summary " + reason)
                }
            default:
                break
            }
            return .damagedRecord(table: damage.table, record: damage.recordName, reason: reason)
        }
    }

    /// The problems ``TrendStore/verify()-1rh8s`` reports for sealed values that did not open.
    func problems(for damages: [SealedValueDamage]) -> [VerificationReport.Problem] {
        guard !damages.isEmpty else { return [] }
        let records = seriesRecordsByID()
        return damages.map { problem(for: storeError(for: $0, records: records)) }
    }

    private func problem(for error: StoreError) -> VerificationReport.Problem {
        switch error.detail {
        case let .damagedBlock(series, firstStart, _):
            return .init(
                kind: .damagedBlock, series: series, at: Date(milliseconds: firstStart),
                detail: "\(error)")
        case let .damagedRollup(series, dayStart, _):
            return .init(
                kind: .damagedRollup, series: series, at: Date(milliseconds: dayStart),
                detail: "\(error)")
        default:
            return .init(
                kind: .unreadable, series: "", at: Date(milliseconds: 0), detail: "\(error)")
        }
    }
}
