import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

@Suite("Stores of the hour grid")
struct RollupGridTests {
    /// Every key and value of one of the store's databases.
    static func contents(
        of store: TrendStore, _ database: KeyPath<SampleStorage, Database>
    )
        throws -> [[UInt8]: [UInt8]]
    {
        try store.engine.read { txn in
            var contents: [[UInt8]: [UInt8]] = [:]
            try txn.withCursor(store.engine.storage[keyPath: database]) {
                try $0.forEach { key, value in
                    contents[Array(key)] = Array(value)
                    return true
                }
            }
            return contents
        }
    }

    /// The UTC days of the rows the store keeps.
    static func rowDays(of store: TrendStore) throws -> [Int64] {
        try contents(of: store, \.days.database).keys.compactMap {
            $0.withUnsafeBytes(StorageKey.parseDayRow)?.day
        }.sorted()
    }

    /// The two newest UTC days `samples` (sorted, within a day of each other) touch.
    static func lastDays(of samples: [Sample]) -> [Int64] {
        let last = ((samples.map(\.endMilliseconds).max() ?? 0) - 1).floorDivided(by: TimeGrid.day)
        return [last - 1, last]
    }

    /// Samples of 30 s starting every minute of `days` whole UTC days from `day` (none
    /// crossing midnight), the sample of minute `m` (counted from `day`'s start) valued `value(m)`.
    static func minuteSamples(fromDay day: Int64, days: Int64, value: (Int64) -> Double)
        -> [Sample]
    {
        (0..<(days * 1_440)).map { minute in
            let start = day * TimeGrid.day + minute * 60_000
            return Sample(
                startMilliseconds: start, endMilliseconds: start + 30_000, value: value(minute))
        }
    }

    static var hourGrid: StoreOptions {
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "America/Los_Angeles")
        options.rollupGrid = .hour
        return options
    }

    @Test(
        "a new store gets the hour grid, its hours those of its zone, where the zone's hours since 2000 begin at one minute of the UTC hour, else quarter-hours",
        arguments: [
            ("America/Los_Angeles", RollupGrid.hour, 0), ("UTC", .hour, 0),
            ("Europe/Berlin", .hour, 0), ("Asia/Kolkata", .hour, 30),
            ("Asia/Kathmandu", .hour, 15), ("America/St_Johns", .hour, 30),
            ("Australia/Adelaide", .hour, 30), ("Pacific/Chatham", .hour, 15),
            ("Africa/Monrovia", .hour, 0), ("Australia/Lord_Howe", .quarterHour, 0),
        ])
    func gridSuitsTheZone(identifier: String, expected: RollupGrid, minutes: Int64) async throws {
        var options = StoreOptions()
        options.timeZone = try #require(TimeZone(identifier: identifier))
        try await withTemporaryStore(options: options) { store, directory in
            #expect(store.rollupGrid == expected)
            #expect(store.engine.storage.hourPhase.offset == minutes * TimeGrid.minute)
            #expect(try store.formatVersion == Int(StorageFormat.current))
            await store.close()
            // Reopened in another zone, the store keeps the phase it recorded.
            var elsewhere = StoreOptions()
            elsewhere.timeZone = TimeZone(identifier: "Asia/Tokyo")
            let reopened = try TrendStore(directory: directory, options: elsewhere)
            #expect(reopened.engine.storage.hourPhase.offset == minutes * TimeGrid.minute)
        }
    }

    @Test(
        "a quarter-hour store has UTC hour summaries; a phase recorded for it, off the quarter-hours or of the wrong width is refused"
    )
    func phaseIsChecked() async throws {
        var options = StoreOptions.quarterHourGrid
        options.timeZone = TimeZone(identifier: "Asia/Kolkata")
        for (grid, recorded, width) in [
            (RollupGrid.quarterHour, Int64(30), 8), (.hour, 7, 8), (.hour, 30, 3),
        ] {
            try await withTemporaryDirectory { directory in
                options.rollupGrid = grid
                do {
                    let store = try TrendStore(directory: directory.url, options: options)
                    #expect(
                        store.engine.storage.hourPhase
                            == (grid == .hour
                                ? HourPhase(milliseconds: 30 * TimeGrid.minute) : .utc))
                    try store.engine.write { txn, _ in
                        try txn.put(
                            Array(
                                withUnsafeBytes(
                                    of: (recorded * TimeGrid.minute).littleEndian, Array.init
                                ).prefix(width)),
                            forKey: Array("hour-phase-ms".utf8),
                            in: store.engine.storage.meta.database)
                    }
                    await store.close()
                }
                let error = #expect(throws: StoreError.self) {
                    try TrendStore(directory: directory.url)
                }
                let expected =
                    width == 8 ? "hour phase of \(recorded * TimeGrid.minute) ms" : "3 bytes"
                #expect(
                    String(describing: error).contains(expected), "\(String(describing: error))")
            }
        }
    }

    @Test(
        "keeps hour summaries and the rows of the two newest days, records its grid and keeps it when reopened"
    )
    func keepsSummariesOnly() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("store")
            var generator = SampleGenerator(seed: 7)
            let first = generator.minuteSamples(from: 1_700_000_000_000, count: 5_000)
            do {
                let store = try TrendStore(directory: url, options: Self.hourGrid)
                try await store.write(first, to: "energy", unit: "kcal")
                #expect(try store.formatVersion == Int(StorageFormat.current))
                #expect(try Self.rowDays(of: store) == Self.lastDays(of: first))
                #expect(try Self.contents(of: store, \.hours.database).count >= 1)
            }
            // Reopened with the default options, the store keeps the grid it was created with.
            let store = try TrendStore(directory: url)
            #expect(store.engine.storage.rollupGrid == .hour)
            let second = generator.minuteSamples(
                from: (first.last?.endMilliseconds ?? 0) + 60_000, count: 2_000)
            try await store.write(second, to: "energy", unit: "kcal")
            #expect(try Self.rowDays(of: store) == Self.lastDays(of: second))
            // A write into an older day rebuilds its row, which is not kept.
            try await store.write(
                [
                    Sample(
                        startMilliseconds: first[10].startMilliseconds + 1,
                        endMilliseconds: first[10].startMilliseconds + 2, value: 1)
                ],
                to: "energy", unit: "kcal")
            #expect(try Self.rowDays(of: store) == Self.lastDays(of: second))
            let report = try await store.verify()
            #expect(report.isHealthy, "\(report.problems)")
            #expect(report.rollupsChecked >= 5)
        }
    }

    @Test(
        "trendstore import --rollup-grid picks a new store's grid; info reports it; others keep theirs"
    )
    func commandLine() throws {
        try withTemporaryDirectory { directory in
            let csv = directory.url.appendingPathComponent("a.csv").path
            try "series,start,end,value\nenergy,1700000000000,1700000060000,1.5\n".write(
                toFile: csv, atomically: true, encoding: .utf8)
            for (grid, arguments, format) in [
                (
                    "hour", ["--tz", "Asia/Kolkata", "--rollup-grid", "hour"],
                    Int(StorageFormat.current)
                ),
                (
                    "quarterHour", ["--tz", "Asia/Kolkata", "--rollup-grid", "quarterHour"],
                    Int(StorageFormat.current)
                ),
                ("quarterHour", ["--tz", "Australia/Lord_Howe"], Int(StorageFormat.current)),
                ("hour", ["--tz", "Europe/Berlin"], Int(StorageFormat.current)),
            ] {
                let store = directory.url.appendingPathComponent("store-\(arguments.joined())").path
                let imported = try CommandLineTool.run(
                    ["import", csv, "--store", store] + arguments)
                #expect(imported.status == 0, "\(imported.output)")
                // A later import naming another grid does not change the store's.
                let again = try CommandLineTool.run([
                    "import", csv, "--store", store, "--rollup-grid",
                    grid == "hour" ? "quarterHour" : "hour",
                ])
                #expect(again.status == 0, "\(again.output)")
                let info = try CommandLineTool.run(["info", "--store", store, "--json"])
                #expect(info.output.contains("\"rollupGrid\" : \"\(grid)\""), "\(info.output)")
                #expect(info.output.contains("\"formatVersion\" : \(format)"), "\(info.output)")
            }
            let bad = try CommandLineTool.run(["import", csv, "--rollup-grid", "minute"])
            #expect(bad.status == 2)
            #expect(bad.output.contains("minute is not a rollup grid"))
        }
    }

    @Test(
        "a store whose meta lost its grid or its hour phase is refused, not read as quarter-hours or UTC hours",
        arguments: ["rollup-grid", "hour-phase-ms"])
    func lostGridIsRefused(key: String) async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("store")
            do {
                let store = try TrendStore(directory: url, options: Self.hourGrid)
                try store.engine.write { txn, _ in
                    _ = try txn.delete(
                        forKey: Array(key.utf8), in: store.engine.storage.meta.database)
                }
                await store.close()
            }
            #expect(throws: StoreError.self) { try TrendStore(directory: url) }
        }
    }

    @Test("deleting the newest days' samples removes their rows; later writes rebuild older days")
    func deletionsRemoveRows() async throws {
        try await withTemporaryStore(options: Self.hourGrid) { store, _ in
            let dayStart: Int64 = 19_700 * TimeGrid.day
            let samples = Self.minuteSamples(fromDay: 19_700, days: 3) { Double($0 % 7) + 0.25 }
            try await store.write(samples, to: "energy", unit: "kcal")
            #expect(try Self.rowDays(of: store) == [19_701, 19_702])
            let removed = try await store.deleteSamples(
                of: "energy", from: Date(milliseconds: dayStart + TimeGrid.day),
                to: Date(milliseconds: dayStart + 3 * TimeGrid.day))
            #expect(removed == 2 * 1_440)
            #expect(try Self.rowDays(of: store).isEmpty)
            #expect(try await store.verify().isHealthy)
            // Into the first day, which has a summary and no row: rebuilt from its samples.
            try await store.write(
                [
                    Sample(
                        startMilliseconds: dayStart + 5_000, endMilliseconds: dayStart + 6_000,
                        value: 2)
                ],
                to: "energy", unit: "kcal")
            let report = try await store.verify()
            #expect(report.isHealthy, "\(report.problems)")
            let curve = try store.dayCurve(
                of: "energy", on: LocalDate(dayNumber: 19_700),
                timeZone: TimeZone(identifier: "UTC"))
            let expected = samples[..<1_440].reduce(2.0) { $0 + $1.value }
            #expect(abs(curve.cumulative[23] - expected) < 1e-9)
        }
    }

    @Test(
        "a deletion that empties the newest day keeps the row of the newest day with samples left, as a rebuild encodes it"
    )
    func deletionKeepsNewestRemainingRow() async throws {
        try await withTemporaryStore(options: Self.hourGrid) { store, _ in
            let dayStart: Int64 = 19_700 * TimeGrid.day
            let samples = Self.minuteSamples(fromDay: 19_700, days: 4) { Double($0 % 11) + 0.5 }
            try await store.write(samples, to: "energy", unit: "kcal")
            #expect(try Self.rowDays(of: store) == [19_702, 19_703])
            // From noon of the first day: that day keeps its morning, the three after it are
            // emptied, so the first day's row is the one kept.
            let noon = dayStart + TimeGrid.day / 2
            _ = try await store.deleteSamples(
                of: "energy", from: Date(milliseconds: noon),
                to: Date(milliseconds: dayStart + 4 * TimeGrid.day))
            let rows = try Self.contents(of: store, \.days.database)
            #expect(try Self.rowDays(of: store) == [19_700])
            let left = samples.filter { $0.startMilliseconds < noon }
            let expected = RollupRowCodec.encode(
                DayRollup.build(day: 19_700, kind: .cumulative, from: left))
            #expect(rows.values.first == expected)
            let report = try await store.verify()
            #expect(report.isHealthy, "\(report.problems)")
        }
    }

    @Test(
        "a write keeps the newest rows of the series it changes, across a gap of days, and leaves other series' rows"
    )
    func keptRowsPerSeries() async throws {
        try await withTemporaryStore(options: Self.hourGrid) { store, _ in
            func minutes(fromDay day: Int64, days: Int64) -> [Sample] {
                Self.minuteSamples(fromDay: day, days: days) { _ in 1.5 }
            }
            for series in ["a", "b", "c"] {
                try await store.write(
                    minutes(fromDay: 19_700, days: 3), to: series, unit: "kcal")
            }
            // Twenty days later, one sample at a time into series b.
            for sample in minutes(fromDay: 19_722, days: 2).prefix(3) {
                try await store.write([sample], to: "b", unit: "kcal")
            }
            try await store.write(minutes(fromDay: 19_723, days: 1), to: "b", unit: "kcal")
            var daysBySeries: [UInt32: [Int64]] = [:]
            for key in try Self.contents(of: store, \.days.database).keys {
                if let (series, day) = key.withUnsafeBytes(StorageKey.parseDayRow) {
                    daysBySeries[series, default: []].append(day)
                }
            }
            #expect(
                daysBySeries.values.map { $0.sorted() }.sorted { $0[0] < $1[0] }
                    == [[19_701, 19_702], [19_701, 19_702], [19_722, 19_723]])
            let report = try await store.verify()
            #expect(report.isHealthy, "\(report.problems)")
        }
    }

    @Test(
        "single-sample writes give the summaries one batch gives, byte for byte, in UTC hours and in Nepal's",
        arguments: ["America/Los_Angeles", "Asia/Kathmandu"])
    func appendsMatchABatch(identifier: String) async throws {
        var options = Self.hourGrid
        options.timeZone = TimeZone(identifier: identifier)
        var generator = SampleGenerator(seed: 11)
        // Minute samples over two UTC days, and a few that straddle hours and days.
        var samples = generator.minuteSamples(from: 1_700_006_400_000, count: 1_800)
        samples += generator.awkwardSamples(
            in: 1_700_006_400_000..<1_700_179_200_000, count: 40)
        let batch = try SampleBatch(series: "energy", samples: samples).samples
        try await withTemporaryStore(options: options) { whole, _ in
            try await whole.write(batch, to: "energy", unit: "kcal")
            try await withTemporaryStore(options: options) { oneByOne, _ in
                // In a shuffled order, one transaction a sample, a few hundred of them.
                var order = SampleGenerator(seed: 3)
                var rest = batch
                var written: [Sample] = []
                while !rest.isEmpty {
                    let index = Int(order.integer(in: 0...Int64(rest.count - 1)))
                    let chunk = Array(rest[index..<min(rest.count, index + 8)])
                    rest.removeSubrange(index..<min(rest.count, index + 8))
                    written += chunk
                    if written.count % 200 < 8 || rest.isEmpty {
                        for sample in chunk {
                            try await oneByOne.write([sample], to: "energy", unit: "kcal")
                        }
                    } else {
                        try await oneByOne.write(chunk, to: "energy", unit: "kcal")
                    }
                }
                #expect(
                    try Self.contents(of: oneByOne, \.hours.database)
                        == Self.contents(of: whole, \.hours.database))
                #expect(
                    try Self.contents(of: oneByOne, \.days.database)
                        == Self.contents(of: whole, \.days.database))
                #expect(try Self.contents(of: whole, \.days.database).count == 2)
                #expect(try await oneByOne.verify().isHealthy)
            }
        }
    }

    @Test("answers equal a quarter-hour store's in Kolkata, Los Angeles and Kathmandu")
    func answersEqualQuarterHourStore() async throws {
        var generator = SampleGenerator(seed: 19)
        let start: Int64 = 1_760_000_000_000
        let samples = try SampleBatch(
            series: "energy",
            samples: generator.minuteSamples(from: start, count: 20_000)
                + generator.awkwardSamples(in: start..<(start + 14 * 86_400_000), count: 300)
                .map {
                    Sample(
                        startMilliseconds: $0.startMilliseconds,
                        endMilliseconds: $0.endMilliseconds, value: abs($0.value))
                }
        ).samples
        try await withTemporaryStore(options: Self.hourGrid) { hourly, _ in
            try await hourly.write(samples, to: "energy", unit: "kcal")
            try await withTemporaryStore { quarterly, _ in
                try await quarterly.write(samples, to: "energy", unit: "kcal")
                for identifier in ["Asia/Kolkata", "America/Los_Angeles", "Asia/Kathmandu"] {
                    let zone = try #require(TimeZone(identifier: identifier))
                    let now = Date(milliseconds: start + 13 * 86_400_000 + 1_234_567)
                    for weekday in Weekday.allCases {
                        let a = try hourly.weekdayAverage(
                            of: "energy", weekday: weekday, now: now, timeZone: zone)
                        let b = try quarterly.weekdayAverage(
                            of: "energy", weekday: weekday, now: now, timeZone: zone)
                        #expect(a.days == b.days && !a.days.isEmpty)
                        expectClose(
                            a.averageHourlyPattern ?? [], b.averageHourlyPattern ?? [],
                            "\(identifier) \(weekday)")
                    }
                    let today = try hourly.todayCurve(of: "energy", now: now, timeZone: zone)
                    let todayQuarter = try quarterly.todayCurve(
                        of: "energy", now: now, timeZone: zone)
                    expectClose(today.cumulative, todayQuarter.cumulative, "\(identifier) today")
                    let from = LocalDate(dayNumber: start / 86_400_000)
                    let heatmap = try hourly.heatmap(
                        of: ["energy"], from: from, through: from.adding(days: 13), timeZone: zone)
                    let heatmapQuarter = try quarterly.heatmap(
                        of: ["energy"], from: from, through: from.adding(days: 13), timeZone: zone)
                    #expect(heatmap.days.map(\.count) == heatmapQuarter.days.map(\.count))
                    expectClose(
                        heatmap.days.map(\.total), heatmapQuarter.days.map(\.total),
                        "\(identifier) heatmap")
                }
            }
        }
    }
}
