import Foundation
import TrendStore

/// Local-day hour buckets computed the way a host app using SQLite would: with `Calendar`.
struct CalendarBuckets {
    /// One wall-clock hour of one candidate day, as instants.
    struct Span {
        var day: Int
        var hour: Int
        var start: Int64
        var end: Int64
    }

    private let calendar: Calendar

    init(zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
    }

    /// The instants where each hour of `date` begins, and where the next day begins (25 values).
    func hourStarts(_ date: LocalDate) -> [Int64] {
        (0...24).map { hour in
            let components =
                hour == 24
                ? DateComponents(
                    year: date.adding(days: 1).year, month: date.adding(days: 1).month,
                    day: date.adding(days: 1).day)
                : DateComponents(year: date.year, month: date.month, day: date.day, hour: hour)
            return calendar.date(from: components)!.millisecondsSince1970
        }
    }

    /// The hour spans of `dates`, in time order; `day` is the index into `dates`.
    func spans(_ dates: [LocalDate], until now: Int64? = nil) -> [Span] {
        var spans: [Span] = []
        for (index, date) in dates.enumerated() {
            let starts = hourStarts(date)
            for hour in 0..<24 where starts[hour] < starts[hour + 1] {
                let end = min(starts[hour + 1], now ?? .max)
                if starts[hour] < end || (now != nil && starts[hour] == end) {
                    spans.append(Span(day: index, hour: hour, start: starts[hour], end: end))
                }
            }
        }
        return spans
    }
}

/// Distributes samples read row by row into hour spans: the app-side aggregation.
enum RowAggregation {
    /// Per day: hourly prorated sums and whether any sample touched the day.
    static func hourly(
        rows: [(start: Int64, end: Int64, value: Double)], spans: [CalendarBuckets.Span], days: Int,
        closedAt now: Int64? = nil
    )
        -> [(hourly: [Double], hasData: Bool)]
    {
        var result = Array(
            repeating: (hourly: [Double](repeating: 0, count: 24), hasData: false), count: days)
        for row in rows {
            var index = lowerBound(spans) {
                $0.end > row.start || ($0.end == row.start && row.end == row.start && $0.end == now)
            }
            while index < spans.count && spans[index].start <= row.end {
                let span = spans[index]
                if row.end == row.start {
                    if row.start >= span.start
                        && (row.start < span.end
                            || (now != nil && row.start == now && span.end == now))
                    {
                        result[span.day].hourly[span.hour] += row.value
                        result[span.day].hasData = true
                    }
                } else {
                    let overlap = min(row.end, span.end) - max(row.start, span.start)
                    if overlap > 0 {
                        result[span.day].hourly[span.hour] +=
                            row.value * Double(overlap) / Double(row.end - row.start)
                        result[span.day].hasData = true
                    }
                }
                index += 1
            }
        }
        return result
    }

    static func lowerBound<T>(_ items: [T], _ predicate: (T) -> Bool) -> Int {
        var low = 0
        var high = items.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(items[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
