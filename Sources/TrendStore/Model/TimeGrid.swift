/// Fixed time grids of the store, in milliseconds.
enum TimeGrid {
    static let minute: Int64 = 60_000
    static let quarterHour: Int64 = 900_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000
}
