/// Which UTC days a loader wants, and where each loaded day's rollup row sits in its flat
/// arrays of 96 slots per row.
struct DayRowIndex {
    private let firstDay: Int64
    /// For each day from `firstDay`: its row number in the flat arrays; ``notLoaded`` for a
    /// wanted day without a row yet; ``notWanted`` for a day between wanted ones.
    private var rowOfDay: [Int32]
    private static let notWanted: Int32 = -1
    private static let notLoaded: Int32 = -2

    /// An index wanting `days` (sorted, unique), none of them loaded yet.
    init(days: [Int64]) {
        let first = days.first ?? 0
        firstDay = first
        rowOfDay = Array(
            repeating: Self.notWanted, count: days.last.map { Int($0 - first + 1) } ?? 0)
        for day in days { rowOfDay[Int(day - first)] = Self.notLoaded }
    }

    /// Whether `day` is one of the days the index was made for.
    func isWanted(_ day: Int64) -> Bool {
        let index = day - firstDay
        return index >= 0 && index < rowOfDay.count && rowOfDay[Int(index)] != Self.notWanted
    }

    /// Records that `day`'s row is row number `row`.
    mutating func set(_ day: Int64, row: Int) { rowOfDay[Int(day - firstDay)] = Int32(row) }

    /// The offset of `day`'s first slot in the flat arrays, or `nil` when it has no row.
    @inline(__always)
    func base(ofDay day: Int64) -> Int? { row(ofDay: day).map { $0 * DayRollup.slotCount } }

    /// The row number of `day` in the flat arrays, or `nil` when it has no row.
    @inline(__always)
    func row(ofDay day: Int64) -> Int? {
        let index = day - firstDay
        guard index >= 0, index < rowOfDay.count else { return nil }
        let row = rowOfDay[Int(index)]
        return row < 0 ? nil : Int(row)
    }
}
