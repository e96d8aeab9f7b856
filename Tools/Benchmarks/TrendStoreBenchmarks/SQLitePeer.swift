import Foundation
import TrendStore

/// The same data in SQLite, queried the two ways a Swift app using SQLite would:
/// in SQL (buckets joined to samples, prorated in the query) and by stepping rows and
/// aggregating in the app. Hour buckets come from `Calendar`.
final class SQLitePeer {
    let database: SQLiteDatabase
    let buckets: CalendarBuckets
    let zone: TimeZone
    private var maximumDuration: [String: Int64] = [:]

    /// Loads the importer's CSV (`series,start_epoch_ms,end_epoch_ms,value,unit`) in one transaction.
    init(path: String, csv: String, zone: TimeZone) throws {
        try? FileManager.default.removeItem(atPath: path)
        database = try SQLiteDatabase(path: path)
        buckets = CalendarBuckets(zone: zone)
        self.zone = zone
        try database.execute(
            """
            CREATE TABLE samples(series TEXT NOT NULL, start_ms INTEGER NOT NULL, end_ms INTEGER NOT NULL, value REAL NOT NULL,
                                 PRIMARY KEY (series, start_ms, end_ms)) WITHOUT ROWID;
            CREATE TEMP TABLE spans(day INTEGER, hour INTEGER, b_start INTEGER, b_end INTEGER);
            CREATE TEMP TABLE days(day INTEGER, d_start INTEGER, d_end INTEGER);
            """)
        let data = try Data(contentsOf: URL(fileURLWithPath: csv))
        let insert = try database.prepare("INSERT OR REPLACE INTO samples VALUES (?1, ?2, ?3, ?4)")
        try database.execute("BEGIN")
        var first = true
        for line in data.split(separator: 0x0A) {
            if first { first = false; continue }
            let fields = line.split(separator: 0x2C, omittingEmptySubsequences: false)
            guard fields.count >= 4, let start = Int64(String(decoding: fields[1], as: UTF8.self)),
                let end = Int64(String(decoding: fields[2], as: UTF8.self)),
                let value = Double(String(decoding: fields[3], as: UTF8.self))
            else { continue }
            insert.reset()
            insert.bind(1, String(decoding: fields[0], as: UTF8.self))
            insert.bind(2, start)
            insert.bind(3, end)
            insert.bind(4, value)
            _ = try insert.step()
        }
        try database.execute("COMMIT")
        let longest = try database.prepare(
            "SELECT series, MAX(end_ms - start_ms) FROM samples GROUP BY series")
        while try longest.step() { maximumDuration[longest.text(0)] = longest.int(1) }
    }

    var fileSize: Int {
        (try? FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int) ?? 0
    }

    /// The candidate days of the 70-day window before the local date of `now`.
    func candidates(weekday: Int?, now: Date, windowDays: Int = 70) -> [LocalDate] {
        let today = LocalDate(containing: now, in: zone)
        return (1...windowDays).reversed().map { today.adding(days: -$0) }.filter {
            weekday == nil || $0.weekday.rawValue == weekday
        }
    }

    // MARK: SQL

    private func loadSpans(_ spans: [CalendarBuckets.Span]) throws {
        try database.execute("DELETE FROM temp.spans")
        let insert = try database.prepare("INSERT INTO temp.spans VALUES (?1, ?2, ?3, ?4)")
        for span in spans {
            insert.reset()
            insert.bind(1, Int64(span.day))
            insert.bind(2, Int64(span.hour))
            insert.bind(3, span.start)
            insert.bind(4, span.end)
            _ = try insert.step()
        }
    }

    /// Hourly prorated sums per day, in SQL.
    func hourlySQL(series: String, dates: [LocalDate], until now: Int64? = nil) throws -> [(
        hourly: [Double], hasData: Bool
    )] {
        try database.execute("BEGIN")
        defer { try? database.execute("COMMIT") }
        try loadSpans(buckets.spans(dates, until: now))
        let query = try database.prepare(
            """
            SELECT sp.day, sp.hour, SUM(CASE WHEN s.end_ms = s.start_ms THEN s.value
                   ELSE s.value * (MIN(s.end_ms, sp.b_end) - MAX(s.start_ms, sp.b_start)) * 1.0 / (s.end_ms - s.start_ms) END)
            FROM temp.spans sp JOIN samples s
              ON s.series = ?1 AND s.start_ms >= sp.b_start - ?2 AND s.start_ms < sp.b_end
            WHERE s.end_ms > sp.b_start OR (s.end_ms = s.start_ms AND s.start_ms >= sp.b_start)
            GROUP BY sp.day, sp.hour
            """)
        query.bind(1, series)
        query.bind(2, maximumDuration[series] ?? 0)
        var result = Array(
            repeating: (hourly: [Double](repeating: 0, count: 24), hasData: false),
            count: dates.count)
        while try query.step() {
            let day = Int(query.int(0))
            result[day].hourly[Int(query.int(1))] += query.double(2)
            result[day].hasData = true
        }
        return result
    }

    /// Hourly prorated sums per day, stepping rows and aggregating in the app.
    func hourlyRows(series: String, dates: [LocalDate], until now: Int64? = nil) throws -> [(
        hourly: [Double], hasData: Bool
    )] {
        let spans = buckets.spans(dates, until: now)
        guard let first = spans.first, let last = spans.last else {
            return Array(repeating: ([Double](repeating: 0, count: 24), false), count: dates.count)
        }
        let query = try database.prepare(
            "SELECT start_ms, end_ms, value FROM samples WHERE series = ?1 AND start_ms >= ?2 AND start_ms < ?3 ORDER BY start_ms"
        )
        query.bind(1, series)
        query.bind(2, first.start - (maximumDuration[series] ?? 0))
        query.bind(3, last.end + (now == nil ? 0 : 1))
        var rows: [(start: Int64, end: Int64, value: Double)] = []
        while try query.step() { rows.append((query.int(0), query.int(1), query.double(2))) }
        return RowAggregation.hourly(rows: rows, spans: spans, days: dates.count, closedAt: now)
    }

    /// The greatest end among samples overlapping `[dayStart, now]`.
    func latestEnd(series: String, dayStart: Int64, now: Int64) throws -> Int64? {
        let query = try database.prepare(
            """
            SELECT MAX(end_ms) FROM samples WHERE series = ?1 AND start_ms >= ?2 - ?3 AND start_ms <= ?4
              AND ((end_ms > ?2 AND start_ms < ?4) OR (end_ms = start_ms AND start_ms >= ?2))
            """)
        query.bind(1, series)
        query.bind(2, dayStart)
        query.bind(3, maximumDuration[series] ?? 0)
        query.bind(4, now)
        guard try query.step(), !query.isNull(0) else { return nil }
        return query.int(0)
    }

    /// Per day and series: count of starts and sum of values, in SQL.
    func heatmapSQL(series: [String], dates: [LocalDate]) throws -> [[DayCount]] {
        try database.execute("BEGIN")
        defer { try? database.execute("COMMIT") }
        try database.execute("DELETE FROM temp.days")
        let insert = try database.prepare("INSERT INTO temp.days VALUES (?1, ?2, ?3)")
        for (index, date) in dates.enumerated() {
            let starts = buckets.hourStarts(date)
            insert.reset()
            insert.bind(1, Int64(index))
            insert.bind(2, starts[0])
            insert.bind(3, starts[24])
            _ = try insert.step()
        }
        var result = Array(
            repeating: Array(repeating: DayCount(count: 0, total: 0), count: dates.count),
            count: series.count)
        let query = try database.prepare(
            """
            SELECT d.day, COUNT(*), SUM(s.value) FROM temp.days d JOIN samples s
              ON s.series = ?1 AND s.start_ms >= d.d_start AND s.start_ms < d.d_end GROUP BY d.day
            """)
        for (index, name) in series.enumerated() {
            query.reset()
            query.bind(1, name)
            while try query.step() {
                result[index][Int(query.int(0))] = DayCount(
                    count: Int(query.int(1)), total: query.double(2))
            }
        }
        return result
    }

    /// Per day and series: count and sum, stepping rows and binning in the app.
    func heatmapRows(series: [String], dates: [LocalDate]) throws -> [[DayCount]] {
        let bounds = dates.map { buckets.hourStarts($0) }.map { ($0[0], $0[24]) }
        var result = Array(
            repeating: Array(repeating: DayCount(count: 0, total: 0), count: dates.count),
            count: series.count)
        let query = try database.prepare(
            "SELECT start_ms, value FROM samples WHERE series = ?1 AND start_ms >= ?2 AND start_ms < ?3"
        )
        for (index, name) in series.enumerated() {
            query.reset()
            query.bind(1, name)
            query.bind(2, bounds.first?.0 ?? 0)
            query.bind(3, bounds.last?.1 ?? 0)
            while try query.step() {
                let start = query.int(0)
                let day = RowAggregation.lowerBound(bounds) { $0.1 > start }
                guard day < bounds.count, start >= bounds[day].0 else { continue }
                result[index][day].count += 1
                result[index][day].total += query.double(1)
            }
        }
        return result
    }

    /// The first sample's start.
    func firstStart(series: String) throws -> Int64? {
        let query = try database.prepare("SELECT MIN(start_ms) FROM samples WHERE series = ?1")
        query.bind(1, series)
        guard try query.step(), !query.isNull(0) else { return nil }
        return query.int(0)
    }
}

/// Averages of per-day hourly sums: the weekday pattern, from either SQLite path.
func averagePattern(_ days: [(hourly: [Double], hasData: Bool)]) -> [Double]? {
    let included = days.filter(\.hasData)
    guard !included.isEmpty else { return nil }
    var sums = [Double](repeating: 0, count: 24)
    for day in included {
        var running = 0.0
        for hour in 0..<24 {
            running += day.hourly[hour]
            sums[hour] += running
        }
    }
    return sums.map { $0 / Double(included.count) }
}
