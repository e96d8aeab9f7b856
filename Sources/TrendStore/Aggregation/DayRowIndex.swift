/// Where each UTC day's decoded rollup row sits in a loader's flat arrays of 96 slots per row.
struct DayRowIndex {
    private let firstDay: Int64
    /// For each day from `firstDay`, its row number in the flat arrays, or -1.
    private var rowOfDay: [Int32]

    /// An index for the days `days.first...days.last` (sorted), none of them loaded yet.
    init(days: [Int64]) {
        let first = days.first ?? 0
        firstDay = first
        rowOfDay = Array(repeating: -1, count: days.last.map { Int($0 - first + 1) } ?? 0)
    }

    /// Records that `day`'s row is row number `row`.
    mutating func set(_ day: Int64, row: Int) { rowOfDay[Int(day - firstDay)] = Int32(row) }

    /// The offset of `day`'s first slot in the flat arrays, or `nil` when it has no row.
    @inline(__always)
    func base(ofDay day: Int64) -> Int? {
        let index = day - firstDay
        guard index >= 0, index < rowOfDay.count else { return nil }
        let row = rowOfDay[Int(index)]
        return row < 0 ? nil : Int(row) * DayRollup.slotCount
    }
}
