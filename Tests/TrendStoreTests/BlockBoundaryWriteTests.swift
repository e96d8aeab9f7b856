import Foundation
import Testing
import TestSupport
@testable import TrendStore

/// Writes at a series' newest blocks: a batch that changes a full block's samples and
/// appends after it.
@Suite("Writes at the newest block")
struct BlockBoundaryWriteTests {
    private static func options() -> StoreOptions {
        var options = StoreOptions()
        options.durability = .none
        options.timeZone = TimeZone(identifier: "UTC")!
        return options
    }

    private static func bitEqual(_ lhs: [Sample], _ rhs: [Sample]) -> Bool {
        lhs.count == rhs.count
            && zip(lhs, rhs).allSatisfy {
                $0.startMilliseconds == $1.startMilliseconds
                    && $0.endMilliseconds == $1.endMilliseconds
                    && $0.value.bitPattern == $1.value.bitPattern
            }
    }

    @Test("a batch that changes a full block's last sample and appends after it keeps both")
    func replacementBesideAppendAfterFullBlock() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TrendStore(directory: directory.url, options: Self.options())
        // A first block of 4,096 samples (the writer's first guess), then one holding as
        // many as a block may: a full block, whatever its bytes.
        let start: Int64 = 1_762_992_000_000  // a UTC midnight
        let full = (0..<(4_096 + SampleStorage.maximumBlockSamples)).map { index in
            let begin = start + Int64(index) * 60_000
            return Sample(startMilliseconds: begin, endMilliseconds: begin + 60_000, value: 1)
        }
        try await store.write(full, to: "e", unit: "kcal")
        let last = full[full.count - 1]
        let changed = Sample(
            startMilliseconds: last.startMilliseconds, endMilliseconds: last.endMilliseconds,
            value: 5)
        let appended = Sample(
            startMilliseconds: last.endMilliseconds, endMilliseconds: last.endMilliseconds + 60_000,
            value: 2)
        try await store.write([changed, appended], to: "e", unit: "kcal")
        let expected = full.dropLast() + [changed, appended]
        #expect(
            Self.bitEqual(
                try store.samples(of: "e", from: .distantPast, to: .distantFuture),
                Array(expected)))
        // The day's rollups hold the changed value: its curve totals the day's samples.
        let date = LocalDate(
            containing: Date(timeIntervalSince1970: Double(last.startMilliseconds) / 1_000),
            in: TimeZone(identifier: "UTC")!)
        let dayStart = date.dayNumber * 86_400_000
        let dayTotal = expected.filter {
            $0.startMilliseconds >= dayStart && $0.startMilliseconds < dayStart + 86_400_000
        }.reduce(0) { $0 + $1.value }
        #expect(try store.dayCurve(of: "e", on: date).total == dayTotal)
        #expect(try await store.verify().problems.isEmpty)
    }
}
