import Foundation
import Testing
import TestSupport
import TrendStore
import TrendStoreImport

/// An Apple Health export with a watch, a phone and a third-party app writing the same
/// quantity: every record is kept with its source, and the figures are the merge Health's
/// default order gives, checked against the slow reference (``ReferenceMerge``).
@Suite("Apple Health sources")
struct AppleHealthSourcesTests {
    /// A record of active energy, in the export's text form (offset −08:00).
    /// An `export.xml` in `directory` holding `lines` (records), exported at `exportDate`.
    private static func export(
        _ lines: [String], exportDate: String, in directory: TemporaryDirectory
    ) throws -> String {
        try directory.file(
            "export.xml",
            containing: """
                <?xml version="1.0" encoding="UTF-8"?>
                <HealthData locale="en_US">
                 <ExportDate value="\(exportDate)"/>
                \(lines.joined(separator: "\n"))
                </HealthData>

                """)
    }

    private static func record(
        source: String, device: String?, start: Int64, end: Int64, value: Double
    ) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: -8 * 3_600)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        func text(_ milliseconds: Int64) -> String {
            formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        }
        let deviceAttribute = device.map { " device=\"\($0)\"" } ?? ""
        return
            " <Record type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" sourceName=\"\(source)\"\(deviceAttribute) unit=\"kcal\" startDate=\"\(text(start))\" endDate=\"\(text(end))\" value=\"\(value)\"/>"
    }

    @Test(
        "a watch's minutes with off-wrist gaps, a phone's 5–15-minute samples and an app's long samples and daily totals merge by Health's order",
        arguments: 0..<4)
    func watchPhoneAndApp(seed: Int) async throws {
        var random = SampleGenerator(seed: 4_100 + seed)
        let first: Int64 = 1_772_006_400_000  // 2026-02-25T08:00Z, midnight in Los Angeles
        let end = first + 3 * 86_400_000
        var watch: [Sample] = []
        var phone: [Sample] = []
        var app: [Sample] = []
        var start = first + random.integer(in: 0...59) * 1000
        while start < end {
            if random.integer(in: 0...30) == 0 { start += random.integer(in: 10...120) * 60_000 }
            watch.append(
                Sample(
                    startMilliseconds: start, endMilliseconds: start + 60_000,
                    value: Double(random.integer(in: 0...90)) / 10))
            start += 60_000
        }
        start = first
        while start < end {
            let length = random.integer(in: 5...15) * 60_000
            phone.append(
                Sample(
                    startMilliseconds: start, endMilliseconds: start + length,
                    value: Double(random.integer(in: 0...400)) / 4))
            start += length + random.integer(in: 0...20) * 60_000
        }
        for day in 0..<3 {
            let midnight = first + Int64(day) * 86_400_000
            app.append(Sample(startMilliseconds: midnight, endMilliseconds: midnight, value: 1_000))
            let begin = midnight + random.integer(in: 0...20) * 3_600_000
            app.append(
                Sample(
                    startMilliseconds: begin,
                    endMilliseconds: begin + random.integer(in: 1...4) * 3_600_000, value: 250))
        }
        let watchDevice =
            "&lt;&lt;HKDevice: 0x28\(seed)&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1&gt;"
        var lines: [String] = []
        for (index, sample) in watch.enumerated() {
            // One record in five without a device, as older records of a watch come.
            lines.append(
                Self.record(
                    source: "Ann’s Apple Watch",
                    device: index % 5 == 4
                        ? nil
                        : watchDevice.replacingOccurrences(
                            of: "0x28", with: "0x\(random.integer(in: 100...999))"),
                    start: sample.startMilliseconds, end: sample.endMilliseconds,
                    value: sample.value))
        }
        for sample in phone {
            lines.append(
                Self.record(
                    source: "Ann’s iPhone",
                    device:
                        "&lt;&lt;HKDevice: 0x\(random.integer(in: 100...999))&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2&gt;",
                    start: sample.startMilliseconds, end: sample.endMilliseconds,
                    value: sample.value))
        }
        for sample in app {
            lines.append(
                Self.record(
                    source: "Oura", device: nil, start: sample.startMilliseconds,
                    end: sample.endMilliseconds, value: sample.value))
        }
        var order = Array(lines.indices)
        for index in order.indices.reversed() where index > 0 {
            order.swapAt(index, Int(random.integer(in: 0...Int64(index))))
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.export(
            order.map { lines[$0] }, exportDate: "2026-03-01 10:00:00 -0800", in: directory)
        let los = try #require(TimeZone(identifier: "America/Los_Angeles"))
        var options = StoreOptions()
        options.timeZone = los
        try await withTemporaryStore(options: options) { store, _ in
            _ = try await Importer(store: store).importFile(at: path)
            // One source per device, whatever address each record's device shows, and the
            // watch's records without one are the watch's.
            #expect(
                try store.sources(of: "activeEnergy").map(\.name) == [
                    "Ann’s Apple Watch (Watch)", "Ann’s iPhone (iPhone)", "Oura",
                ])
            let kept = ReferenceMerge.merge([watch, phone, app])
            let pieces = ReferenceMerge.prorated(kept)
            let reference = ReferenceAggregator(zone: los)
            let firstDate = reference.date(of: first)
            for offset in 0..<3 {
                let date = firstDate.adding(days: offset)
                let curve = try store.dayCurve(of: "activeEnergy", on: date)
                var running = 0.0
                let expected = reference.figures(of: date, samples: pieces).hourly.map {
                    running += $0
                    return running
                }
                for hour in 0..<24
                where !approximatelyEqual(curve.cumulative[hour], expected[hour], scale: 1e-3) {
                    Issue.record(
                        "\(date) hour \(hour): \(curve.cumulative[hour]) vs \(expected[hour])")
                    break
                }
            }
            let heatmap = try store.heatmap(
                of: ["activeEnergy"], from: firstDate, through: firstDate.adding(days: 2))
            for day in heatmap.days {
                let starting = kept.filter {
                    reference.date(of: $0.sample.startMilliseconds) == day.date
                }
                #expect(day.count == starting.filter(\.counts).count, "\(day.date)")
                #expect(
                    approximatelyEqual(
                        day.total, starting.reduce(0) { $0 + $1.value }, scale: 1e-3), "\(day.date)"
                )
            }
            #expect(try await store.verify().isHealthy)
        }
    }

    @Test(
        "a record without a device takes its source's one model; a source of two models leaves it without"
    )
    func recordsWithoutDevice() async throws {
        let start: Int64 = 1_772_400_000_000
        func device(_ model: String) -> String {
            "&lt;&lt;HKDevice: 0x1&gt;, name:\(model), manufacturer:Apple Inc., model:\(model)&gt;"
        }
        let rows: [(String, String?)] = [
            ("Ann’s Apple Watch", nil), ("Ann’s Apple Watch", device("Watch")),
            ("Strava", device("Watch")), ("Strava", device("iPhone")), ("Strava", nil),
            ("Oura", nil),
        ]
        let lines = rows.enumerated().map { index, row in
            Self.record(
                source: row.0, device: row.1, start: start + Int64(index) * 600_000,
                end: start + Int64(index) * 600_000 + 60_000, value: 1)
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.export(lines, exportDate: "2026-03-10 10:00:00 -0800", in: directory)
        try await withTemporaryStore { store, _ in
            _ = try await Importer(store: store).importFile(at: path)
            let sources = try store.sources(of: "activeEnergy")
            #expect(
                Dictionary(uniqueKeysWithValues: sources.map { ($0.name, $0.sampleCount) }) == [
                    "Ann’s Apple Watch (Watch)": 2, "Strava (Watch)": 1, "Strava (iPhone)": 1,
                    "Strava": 1, "Oura": 1,
                ])
        }
    }
}
