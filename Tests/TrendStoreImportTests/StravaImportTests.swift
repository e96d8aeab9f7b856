import Foundation
import Testing
import TestSupport
import TrendStore
@testable import TrendStoreImport

@Suite("Importing Strava exports")
struct StravaImportTests {
    /// Each series' samples as (UTC start, seconds, metres).
    private func activities(_ store: TrendStore, _ series: String) throws -> [(
        Int64, Int64, Double
    )] {
        try store.samples(of: series, from: .distantPast, to: .distantFuture).map {
            ($0.startMilliseconds, $0.durationMilliseconds / 1000, $0.value)
        }
    }

    @Test(
        "activities.csv: second Elapsed Time and Distance columns, quoted multi-line fields, CRLF, rows in any order"
    )
    func bulkExport() async throws {
        try await withTemporaryStore { store, _ in
            let summary = try await Importer(store: store).importFile(
                at: Fixtures.path("strava/activities.csv"))
            #expect(summary.format == .stravaCSV)
            #expect(summary.recordsRead == 4)
            let run = try activities(store, "Run")
            #expect(run.count == 1)
            // "Oct 6, 2022, 11:19:20 PM" UTC
            #expect(run.first?.0 == foundationMilliseconds("2022-10-06T23:19:20Z"))
            #expect(run.first?.1 == 2520 && run.first?.2 == 8012.3)
            #expect(try activities(store, "Swim").map(\.2) == [1025])
            // sorted by start: Jan 2 before Oct 1
            #expect(try activities(store, "Ride").map(\.2) == [25034.1, 60512.7])
            #expect(
                try activities(store, "Ride").first?.0
                    == foundationMilliseconds("2022-01-02T08:00:00Z"))
            #expect(try store.unit(of: "Run") == "m")
        }
    }

    @Test("the older snake_case layout with one distance column in kilometres")
    func oldLayout() async throws {
        try await withTemporaryStore { store, _ in
            _ = try await Importer(store: store).importFile(
                at: Fixtures.path("strava/activities-old-layout.csv"))
            #expect(try activities(store, "Run").map(\.2) == [10_500])
            #expect(try activities(store, "Ride").map(\.2) == [7_250])
            #expect(
                try activities(store, "Ride").first?.0
                    == foundationMilliseconds("2021-05-02T18:30:00Z"))
        }
    }

    @Test("API activity lists use sport_type, start_date, elapsed_time and distance")
    func apiJSON() async throws {
        try await withTemporaryStore { store, _ in
            let summary = try await Importer(store: store).importFile(
                at: Fixtures.path("strava/activities.json"))
            #expect(summary.format == .stravaJSON)
            #expect(
                try activities(store, "TrailRun").map { [$0.1, Int64($0.2 * 10)] } == [
                    [1620, 50123]
                ])
            #expect(
                try activities(store, "Ride").map(\.0) == [
                    foundationMilliseconds("2024-06-02T16:00:00Z")!
                ])
        }
    }

    @Test("a heatmap of the runs and rides counts each activity on its day")
    func heatmap() async throws {
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "UTC")
        try await withTemporaryStore(options: options) { store, _ in
            _ = try await Importer(store: store).importFile(
                at: Fixtures.path("strava/activities.csv"))
            let map = try store.heatmap(
                of: ["Run", "Ride"], from: LocalDate("2022-09-30")!,
                through: LocalDate("2022-10-06")!)
            #expect(map.bucket == "Ride,Run")
            #expect(map.days.map(\.count) == [0, 1, 0, 0, 0, 0, 1])
            #expect(map.days.last?.bySeries["Run"] == DayCount(count: 1, total: 8012.3))
        }
    }

    @Test(
        "Strava dates in their several spellings",
        arguments: [
            ("Oct 6, 2022, 11:19:20 PM", "2022-10-06T23:19:20Z"),
            ("Oct 6 2022 11:19:20 PM", "2022-10-06T23:19:20Z"),
            ("Jan 1, 2022, 12:05:00 AM", "2022-01-01T00:05:00Z"),
            ("Dec 31, 2021, 12:00:00 PM", "2021-12-31T12:00:00Z"),
            ("2021-05-01 07:00:00", "2021-05-01T07:00:00Z"),
        ])
    func dates(text: String, utc: String) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.url.appendingPathComponent("activities.csv").path
            try
                "Activity ID,Activity Date,Activity Type,Elapsed Time,Distance\n1,\"\(text)\",Run,60,1\n"
                .write(toFile: path, atomically: true, encoding: .utf8)
            try await withTemporaryStore { store, _ in
                _ = try await Importer(store: store).importFile(at: path)
                #expect(
                    try store.samples(of: "Run", from: .distantPast, to: .distantFuture).first?
                        .startMilliseconds == foundationMilliseconds(utc))
            }
        }
    }

    @Test(
        "an elapsed time past the longest sample is ignored with its reason, in CSV and JSON; a date past year 9999 is an error",
        arguments: ["1e16", "1209601", "9223372036854775807", "1e308"])
    func elapsedTimeAtTheLimits(elapsed: String) async throws {
        try await withTemporaryDirectory { directory in
            let csv = try directory.file(
                "activities.csv",
                containing:
                    "Activity ID,Activity Date,Activity Type,Elapsed Time,Distance\n1,\"Oct 6, 2022, 11:19:20 PM\",Run,\(elapsed),1\n2,\"Oct 7, 2022, 11:19:20 PM\",Run,60,1\n"
            )
            let json = try directory.file(
                "activities.json",
                containing:
                    #"[{"sport_type":"Run","start_date":"2022-10-06T23:19:20Z","elapsed_time":\#(elapsed),"distance":1},{"sport_type":"Run","start_date":"2022-10-07T23:19:20Z","elapsed_time":60,"distance":1}]"#
            )
            for file in [csv, json] {
                try await withTemporaryStore { store, _ in
                    let summary = try await Importer(store: store).importFile(at: file)
                    #expect(
                        summary.ignored == [
                            "lasts longer than 14 days (the longest a sample may)": 1
                        ])
                    #expect(
                        try store.samples(of: "Run", from: .distantPast, to: .distantFuture).count
                            == 1)
                }
            }
        }
    }

    @Test("a year no Int64 of milliseconds holds is a malformed date, not a crash")
    func hugeYear() async throws {
        #expect(StravaActivityDate.milliseconds("Oct 6, 9223372036854775807, 11:19:20 PM") == nil)
        #expect(StravaActivityDate.milliseconds("Oct 6, -9223372036854775808, 11:19:20 PM") == nil)
        #expect(LocalDate(year: Int.max, month: 1, day: 1) == nil)
        #expect(LocalDate(year: 10_000, month: 1, day: 1) == nil)
        #expect(LocalDate(year: 9999, month: 12, day: 31) != nil)
    }
}
