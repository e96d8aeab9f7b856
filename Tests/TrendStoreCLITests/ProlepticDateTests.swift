import Foundation
import Testing
import TestSupport
import TrendStore

/// Dates given to the CLI are read, and instants printed, in the proleptic Gregorian calendar
/// the store keeps for every year, also before 1582-10-15 where Foundation's Gregorian
/// calendar is Julian (issue 32, item 12).
@Suite("Dates before 1582")
struct ProlepticDateTests {
    @Test("prune, stats and info agree with the stored instants of 1500-03-01")
    func beforeGregorianReform() async throws {
        try await withTemporaryDirectory { directory in
            let storeURL = directory.url.appendingPathComponent("store")
            var options = StoreOptions()
            options.timeZone = TimeZone(identifier: "UTC")
            let store = try TrendStore(directory: storeURL, options: options)
            // 1500-03-01T12:00Z, proleptic Gregorian: days from 1970 as Python's proleptic `datetime.date` counts them.
            let noon = Int64(-171_605) * 86_400_000 + 43_200_000
            #expect(LocalDate("1500-03-01")?.dayNumber == -171_605)
            try await store.write(
                [Sample(startMilliseconds: noon, endMilliseconds: noon + 60_000, value: 7)],
                to: "old", unit: "kcal")
            await store.close()
            let path = storeURL.path

            let info = try CommandLineTool.run(["info", "--store", path])
            #expect(info.output.contains("1500-03-01T12:00:00.000Z"), "\(info.output)")
            let stats = try CommandLineTool.run([
                "query", "stats", "--series", "old", "--from", "1500-03-01", "--to", "1500-03-02",
                "--interval", "1d", "--store", path, "--json",
            ])
            #expect(stats.status == 0, "\(stats.output)")
            #expect(stats.output.contains("\"start\": \(noon - 43_200_000)"), "\(stats.output)")
            #expect(stats.output.contains("\"sum\": 7.0, \"count\": 1"), "\(stats.output)")
            let whole = try CommandLineTool.run([
                "query", "stats", "--series", "old", "--from", "0001-01-01", "--to", "9999-12-31",
                "--interval", "1mo", "--store", path, "--json",
            ])
            #expect(whole.status == 0, "\(whole.output)")
            let pruned = try CommandLineTool.run([
                "prune", "--before", "1500-03-01", "--store", path,
            ])
            #expect(pruned.status == 0, "\(pruned.output)")
            let reopened = try TrendStore(directory: storeURL)
            #expect(
                try reopened.samples(of: "old", from: .distantPast, to: .distantFuture).count == 1)
            await reopened.close()
            #expect(
                try CommandLineTool.run(["prune", "--before", "1500-03-02", "--store", path]).status
                    == 0)
            let after = try TrendStore(directory: storeURL)
            #expect(try after.samples(of: "old", from: .distantPast, to: .distantFuture).isEmpty)
        }
    }
}
