import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreImport

/// Malformed workouts are accounted for: a workout inside another or one never closed is a
/// malformed record (an error naming its line, or skipped and counted), never lost without
/// a trace, on one thread or several.
@Suite("Apple Health workouts, malformed")
struct AppleHealthWorkoutTests {
    static let running =
        #"workoutActivityType="HKWorkoutActivityTypeRunning" totalDistance="5" totalDistanceUnit="km""#
    static let cycling =
        #"workoutActivityType="HKWorkoutActivityTypeCycling" totalDistance="20" totalDistanceUnit="km""#

    /// An export whose body is a record (line 4), then `tail`.
    static func export(in directory: TemporaryDirectory, _ tail: String) throws -> String {
        try energyExport(in: directory) { energy in
            """
             <Record \(energy) startDate="2026-01-01 00:00:00 -0800" endDate="2026-01-01 00:01:00 -0800" value="1"/>
            \(tail)
            """
        }
    }

    static let nested = """
         <Workout \(running) startDate="2026-01-02 08:00:00 -0800" endDate="2026-01-02 09:00:00 -0800">
          <Workout \(cycling) startDate="2026-01-02 08:10:00 -0800" endDate="2026-01-02 08:20:00 -0800">
          </Workout>
         </Workout>
        """

    @Test(
        "a workout inside another stops the import at its line; skipped, it is counted and the outer one stored",
        arguments: [1, 2])
    func nested(threads: Int) async throws {
        try await withTemporaryDirectory { directory in
            let path = try Self.export(in: directory, Self.nested)
            try await withTemporaryStore { store, _ in
                var options = ImportOptions()
                options.threads = threads
                let error = await #expect(throws: ImportError.self) {
                    try await Importer(store: store).importFile(at: path, options: options)
                }
                #expect(error?.line == 6, "\(String(describing: error))")
                #expect(error?.field == "Workout")
                #expect(error?.reason.contains("inside the Workout of line 5") == true)
                options.skipInvalid = true
                let summary = try await Importer(store: store).importFile(
                    at: path, options: options)
                #expect(summary.recordsRead == 3)
                #expect(summary.skipped == 1)
                #expect(summary.skippedExamples.first?.contains(":6: Workout:") == true)
                let runs = try store.samples(of: "Running", from: .distantPast, to: .distantFuture)
                #expect(runs.map(\.value) == [5_000])
                #expect(try store.series().map(\.name).sorted() == ["Running", "activeEnergy"])
            }
        }
    }

    @Test("a workout never closed is an error at its line, or counted when skipped")
    func neverClosed() async throws {
        try await withTemporaryDirectory { directory in
            let path = try directory.file(
                "export.xml",
                containing: """
                    <?xml version="1.0" encoding="UTF-8"?>
                    <HealthData locale="en_US">
                     <ExportDate value="2026-11-20 10:00:00 -0800"/>
                     <Workout \(Self.running) startDate="2026-01-02 08:00:00 -0800" endDate="2026-01-02 09:00:00 -0800">
                      <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" sum="5" unit="km"/>
                    </HealthData>
                    """)
            try await withTemporaryStore { store, _ in
                let error = await #expect(throws: ImportError.self) {
                    try await Importer(store: store).importFile(at: path)
                }
                #expect(error?.line == 4, "\(String(describing: error))")
                #expect(error?.reason.contains("never closed") == true)
                var options = ImportOptions()
                options.skipInvalid = true
                let summary = try await Importer(store: store).importFile(
                    at: path, options: options)
                #expect(summary.recordsRead == 1)
                #expect(summary.skipped == 1)
            }
        }
    }
}
