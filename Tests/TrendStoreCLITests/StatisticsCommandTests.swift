import Foundation
import Testing
import TestSupport
import TrendStore

@Suite("trendstore query stats")
struct StatisticsCommandTests {
    @Test("--json prints the documented shape: only the asked figures, null for empty buckets")
    func json() async throws {
        try await withTemporaryDirectory { directory in
            var options = StoreOptions()
            options.timeZone = TimeZone(identifier: "Europe/Berlin")
            let store = try TrendStore(directory: directory.url, options: options)
            // 2026-01-01 in Europe/Berlin (UTC+1): 60 at 00:10 and 80 at 05:00; nothing after 06:00.
            let midnight: Int64 = 1_767_222_000_000
            try await store.write(
                [
                    Sample(
                        startMilliseconds: midnight + 600_000, endMilliseconds: midnight + 600_000,
                        value: 60),
                    Sample(
                        startMilliseconds: midnight + 18_000_000,
                        endMilliseconds: midnight + 18_060_000,
                        value: 80.5),
                ], to: "hr", unit: "count/min", kind: .discrete)
            await store.close()
            let (status, output) = try CommandLineTool.run([
                "query", "stats", "--series", "hr", "--from", "2026-01-01",
                "--to", "2026-01-01T12:00:00+01:00", "--interval", "6h", "--tz", "Europe/Berlin",
                "--stat", "avg,count,most-recent", "--json", "--store", directory.url.path,
            ])
            #expect(status == 0)
            #expect(
                output == """
                    {"series": "hr", "kind": "discrete", "timeZone": "Europe/Berlin", "interval": "6h",
                     "buckets": [
                      {"start": 1767222000000, "end": 1767243600000, "average": 70.25, "count": 2, "mostRecent": {"start": 1767240000000, "end": 1767240060000, "value": 80.5}},
                      {"start": 1767243600000, "end": 1767265200000, "average": null, "count": null, "mostRecent": null}]}

                    """)
            let badInterval = try CommandLineTool.run([
                "query", "stats", "--series", "hr", "--from", "2026-01-01", "--to", "2026-01-02",
                "--interval", "1fortnight", "--store", directory.url.path,
            ])
            #expect(badInterval.status != 0)
            #expect(badInterval.output.contains("is not an interval"))
        }
    }
}
