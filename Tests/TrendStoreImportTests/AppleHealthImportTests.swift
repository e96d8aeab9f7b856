import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreImport

/// Sums of a series' values and its sample count.
private func figures(_ store: TrendStore, _ series: String) throws -> (count: Int, total: Double) {
    let samples = try store.samples(of: series, from: .distantPast, to: .distantFuture)
    return (samples.count, samples.map(\.value).reduce(0, +))
}

/// An export dated 2026-11-20 written into `directory`, its body made by `body` from the
/// attributes of a watch's active energy record.
func energyExport(
    in directory: TemporaryDirectory, _ body: (_ energy: String) -> String
) throws -> String {
    let energy =
        #"type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Watch" unit="kcal""#
    return try directory.file(
        "export.xml",
        containing: """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2026-11-20 10:00:00 -0800"/>
            \(body(energy))
            </HealthData>
            """)
}

@Suite("Importing Apple Health exports")
struct AppleHealthImportTests {
    // The figures below are worked out by hand from Fixtures/apple-health/export.xml (see its comments).
    @Test(
        "the export's figures, from the XML and from the zip",
        arguments: ["apple-health/export.xml", "apple-health/export.zip"])
    func exportFigures(fixture: String) async throws {
        try await withTemporaryStore { store, _ in
            let summary = try await Importer(store: store).importFile(at: Fixtures.path(fixture))
            #expect(summary.format == .appleHealth)
            #expect(summary.recordsRead == 19)
            #expect(summary.ignored.values.reduce(0, +) == 2)
            #expect(
                summary.ignored["record type HKCategoryTypeIdentifierSleepAnalysis is not imported"]
                    == 1)
            #expect(
                summary.ignored["starts after the export's ExportDate (device clock error)"] == 1)

            // Every record is kept with its source; the watch's records with and without a
            // device attribute are one source, named with the model the others name, and
            // rank above the iPhone's, the app's last.
            let energy = try figures(store, "activeEnergy")
            #expect(energy.count == 6 && energy.total == 17.75)
            #expect(
                try store.sources(of: "activeEnergy").map(\.name) == [
                    "Max’s Apple Watch (Watch)", "Max’s iPhone",
                ])
            #expect(
                try store.sources(of: "heartRate").map(\.name) == ["Max’s Apple Watch (Watch)"])
            // Merged: the watch's 0.5 + 0.75 + 2, the last 30 s of the iPhone's first 9 over
            // 120 s (2.25, not counted: a quarter uncovered), its uncovered 4.25, the iOS 9
            // record's 1.25.
            let los = try #require(TimeZone(identifier: "America/Los_Angeles"))
            let week = try store.heatmap(
                of: ["activeEnergy"], from: LocalDate("2026-03-06")!,
                through: LocalDate("2026-03-12")!, timeZone: los)
            #expect(week.days.reduce(0) { $0 + $1.count } == 5)
            #expect(abs(week.days.reduce(0) { $0 + $1.total } - 11) < 1e-9)
            #expect(try store.unit(of: "activeEnergy") == "kcal")
            let basal = try figures(store, "basalEnergy")  // 418.4 kJ
            #expect(basal.count == 1 && abs(basal.total - 100) < 1e-9)
            // The app's 1200 daily total, an instant no higher source covers, counts.
            #expect(try figures(store, "steps") == (3, 2400))
            #expect(
                try store.sources(of: "steps").map(\.name) == ["Max’s iPhone", "Pedometer&Co"])
            let distance = try figures(store, "distanceWalkingRunning")
            #expect(distance.count == 2 && abs(distance.total - (1500 + 1609.344)) < 1e-9)
            #expect(
                try store.samples(of: "heartRate", from: .distantPast, to: .distantFuture).map(
                    \.value) == [120, 142])
            #expect(
                try store.samples(of: "Running", from: .distantPast, to: .distantFuture).map(
                    \.value) == [5010])
            #expect(
                try store.samples(of: "Cycling", from: .distantPast, to: .distantFuture).map(
                    \.value) == [20_500])
            #expect(
                try store.samples(of: "Yoga", from: .distantPast, to: .distantFuture).map(\.value)
                    == [0])
            #expect(try store.unit(of: "Running") == "m")
        }
    }

    @Test("timestamps keep their own offsets across the daylight-saving change")
    func offsets() async throws {
        try await withTemporaryStore { store, _ in
            _ = try await Importer(store: store).importFile(
                at: Fixtures.path("apple-health/export.xml"))
            let energy = try store.samples(
                of: "activeEnergy", from: .distantPast, to: .distantFuture)
            // "2026-03-08 00:58:00 -0700" is 07:58 UTC (23:58 PST the evening before, written in the export's PDT offset).
            #expect(
                energy.contains {
                    $0.startMilliseconds == foundationMilliseconds("2026-03-08T07:58:00Z")
                })
            // The iOS 9 compact date "20260307120000-0800".
            #expect(
                energy.first?.startMilliseconds == foundationMilliseconds("2026-03-07T20:00:00Z"))
        }
    }

    @Test("re-importing the export changes nothing")
    func idempotent() async throws {
        try await withTemporaryStore { store, _ in
            _ = try await Importer(store: store).importFile(
                at: Fixtures.path("apple-health/export.zip"))
            let before = try store.series()
            let again = try await Importer(store: store).importFile(
                at: Fixtures.path("apple-health/export.xml"))
            #expect(again.written.values.allSatisfy { $0.inserted == 0 && $0.replaced == 0 })
            #expect(try store.series() == before)
        }
    }

    @Test("broken exports get a clear message")
    func brokenExports() async throws {
        try await withTemporaryDirectory { directory in
            let full = try String(
                contentsOfFile: Fixtures.path("apple-health/export.xml"), encoding: .utf8)
            let truncated = directory.url.appendingPathComponent("truncated.xml").path
            try String(full.prefix(full.count * 2 / 3)).write(
                toFile: truncated, atomically: true, encoding: .utf8)
            let cutBetweenTags = directory.url.appendingPathComponent("cut.xml").path
            try String(full[..<full.range(of: "<!-- Workouts")!.lowerBound]).write(
                toFile: cutBetweenTags, atomically: true, encoding: .utf8)
            let notHealth = directory.url.appendingPathComponent("other.xml").path
            try "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"></gpx>\n".write(
                toFile: notHealth, atomically: true, encoding: .utf8)
            try await withTemporaryStore { store, _ in
                do {
                    _ = try await Importer(store: store).importFile(at: truncated)
                    Issue.record("a truncated export imported")
                } catch let error as ImportError {
                    #expect(error.file == truncated)
                    #expect(error.reason.contains("ends inside") || error.line != nil, "\(error)")
                }
                await #expect(
                    throws: ImportError(
                        file: cutBetweenTags,
                        reason: "the export ends before </HealthData>: the file is truncated")
                ) {
                    _ = try await Importer(store: store).importFile(at: cutBetweenTags)
                }
                let series = try store.series()
                #expect(series.isEmpty, "a truncated export wrote samples")
                await #expect(throws: ImportError.self) {
                    _ = try await Importer(store: store).importFile(at: notHealth)
                }
                do {
                    _ = try await Importer(store: store).importFile(
                        at: Fixtures.path("bad/garbage.csv"))
                    Issue.record("garbage imported")
                } catch let error as ImportError {
                    #expect(error.reason.hasPrefix("not a readable zip archive"), "\(error)")
                }
            }
        }
    }
}

@Suite("Importing Apple Health vitals: discrete types, units and daily statistics")
struct AppleHealthVitalsTests {
    private static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// `Record` elements of `type` in the fixture, counted from its text, not by the importer.
    private static func recordCount(_ type: String) throws -> Int {
        let text = try String(
            contentsOfFile: Fixtures.path("apple-health/vitals.xml"), encoding: .utf8)
        return text.components(separatedBy: "<Record type=\"HKQuantityTypeIdentifier\(type)\"")
            .count - 1
    }

    private static func instant(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    @Test("per-type counts, kinds and units, and hand-computed daily statistics")
    func vitals() async throws {
        var options = StoreOptions()
        options.timeZone = Self.berlin
        try await withTemporaryStore(options: options) { store, _ in
            let summary = try await Importer(store: store).importFile(
                at: Fixtures.path("apple-health/vitals.xml"))
            // Each type's records, every one kept with its source.
            let expected:
                [(type: String, series: String, dropped: Int, kind: SeriesKind, unit: String)] = [
                    ("HeartRate", "heartRate", 0, .discrete, "count/min"),
                    ("RestingHeartRate", "restingHeartRate", 0, .discrete, "count/min"),
                    ("HeartRateVariabilitySDNN", "heartRateVariability", 0, .discrete, "ms"),
                    ("BodyMass", "bodyMass", 0, .discrete, "kg"),
                    ("OxygenSaturation", "oxygenSaturation", 0, .discrete, "%"),
                    ("BodyTemperature", "bodyTemperature", 0, .discrete, "degC"),
                    ("StepCount", "steps", 0, .cumulative, "count"),
                    ("AppleExerciseTime", "exerciseTime", 0, .cumulative, "min"),
                ]
            for type in expected {
                let stored = try store.samples(
                    of: type.series, from: .distantPast, to: .distantFuture)
                #expect(
                    stored.count == (try Self.recordCount(type.type)) - type.dropped, "\(type.type)"
                )
                #expect(try store.kind(of: type.series) == type.kind, "\(type.type)")
                #expect(try store.unit(of: type.series) == type.unit, "\(type.type)")
            }
            #expect(summary.ignored["record type SomethingNew is not imported"] == 1)
            #expect(
                summary.ignored[
                    "record type HKCategoryTypeIdentifierMindfulSession is not imported"] == 1)
            let mass = try store.samples(of: "bodyMass", from: .distantPast, to: .distantFuture)
                .map(\.value)
            #expect(mass.count == 2 && abs(mass[0] - 154.3 * 0.45359237) < 1e-9 && mass[1] == 70.2)
            let temperature = try #require(
                try store.samples(of: "bodyTemperature", from: .distantPast, to: .distantFuture)
                    .first)
            #expect(abs(temperature.value - 37) < 1e-9)

            let from = Self.instant("2026-02-28T23:00:00Z")  // 2026-03-01 00:00 in Berlin
            let to = Self.instant("2026-03-03T23:00:00Z")
            let heart = try store.statistics(
                of: "heartRate", from: from, to: to, interval: .days(1),
                options: [.average, .minimum, .maximum, .count, .mostRecent])
            #expect(
                heart.buckets.map(\.start) == [
                    from, Self.instant("2026-03-01T23:00:00Z"),
                    Self.instant("2026-03-02T23:00:00Z"),
                ])
            // A discrete type merges nothing: the iPhone's 80 counts beside the watch's readings.
            #expect(heart.buckets.map(\.average) == [75.5, 87, nil])
            #expect(heart.buckets.map(\.minimum) == [60, 64, nil])
            #expect(heart.buckets.map(\.maximum) == [90, 110, nil])
            #expect(heart.buckets.map(\.count) == [4, 2, nil])
            #expect(heart.buckets.map { $0.mostRecent?.value } == [90, 64, nil])
            let steps = try store.statistics(
                of: "steps", from: from, to: to, interval: .days(1), options: [.sum, .count])
            // The iPhone's 500 is half covered by the watch's 800: 250 counts, not as a sample.
            #expect(steps.buckets.map(\.sum) == [1050, 1000, nil])
            #expect(steps.buckets.map(\.count) == [1, 1, nil])
        }
    }

    @Test(
        "records and workouts longer than 14 days are ignored with their reason, the rest imported")
    func overlongRecords() async throws {
        try await withTemporaryDirectory { directory in
            let path = try energyExport(in: directory) { energy in
                """
                 <Record \(energy) startDate="1000-01-01 00:00:00 -0800" endDate="9999-12-31 00:00:00 -0800" value="9000"/>
                 <Record \(energy) startDate="2026-01-01 00:00:00 -0800" endDate="2026-01-15 00:00:01 -0800" value="1"/>
                 <Record \(energy) startDate="2026-02-01 00:00:00 -0800" endDate="2026-02-15 00:00:00 -0800" value="2"/>
                 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" startDate="2020-01-01 00:00:00 -0800" endDate="2026-01-01 00:00:00 -0800" totalDistance="5" totalDistanceUnit="km">
                  <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" sum="5" unit="km"/>
                 </Workout>
                """
            }
            try await withTemporaryStore { store, _ in
                let summary = try await Importer(store: store).importFile(at: path)
                #expect(summary.ignored == ["lasts longer than 14 days": 3])
                #expect(try figures(store, "activeEnergy") == (1, 2))
                #expect(try store.series().map(\.name) == ["activeEnergy"])
            }
        }
    }

    @Test(
        "megabytes of elements the import skips (activity summaries) between two records are no over-long record, on one thread or two",
        arguments: [1, 2])
    func longSkippedRun(threads: Int) async throws {
        try await withTemporaryDirectory { directory in
            // 2.4 MB of elements read past in one call of the scanner, across its buffer's end;
            // the longest record allowed is far shorter.
            let summaries = String(
                repeating:
                    " <ActivitySummary dateComponents=\"2024-01-01\" activeEnergyBurned=\"410\" activeEnergyBurnedGoal=\"500\" activeEnergyBurnedUnit=\"Cal\"/>\n",
                count: 20_000)
            let path = try energyExport(in: directory) { energy in
                """
                 <Record \(energy) startDate="2026-01-01 00:00:00 -0800" endDate="2026-01-01 00:01:00 -0800" value="1"/>
                \(summaries) <Record \(energy) startDate="2026-02-01 00:00:00 -0800" endDate="2026-02-01 00:01:00 -0800" value="2"/>
                """
            }
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.threads = threads
                options.maximumRecordBytes = 4_096
                let summary = try await Importer(store: store).importFile(
                    at: path, options: options)
                #expect(summary.written["activeEnergy"]?.inserted == 2)
                #expect(try figures(store, "activeEnergy") == (2, 3))
            }
        }
    }

    @Test("an attribute is parsed as its messages show it: entities decoded first")
    func entitiesInValues() async throws {
        try await withTemporaryDirectory { directory in
            let path = try energyExport(in: directory) { energy in
                """
                 <Record \(energy) startDate="2026-01-01 00:00:00 -0800" endDate="2026-01-01 00:01:00 -0800" value="&#49;&#46;5"/>
                 <Record \(energy) startDate="2026-01-01 00:01:00 -0800" endDate="2026-01-01 00:02:00 -0800" value="&#50;x"/>
                """
            }
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.skipInvalid = true
                let summary = try await Importer(store: store).importFile(
                    at: path, options: options)
                #expect(try figures(store, "activeEnergy") == (1, 1.5))
                #expect(summary.skippedExamples.first?.contains("\"2x\"") == true, "\(summary)")
            }
        }
    }
}
