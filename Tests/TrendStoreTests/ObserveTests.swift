import Foundation
import Synchronization
import Testing
import TestSupport
import TrendStore

/// Live values: `observe` answers now, then after every change that can move the value.
@Suite("Observing a query")
struct ObserveTests {
    static let start: Int64 = 1_772_640_000_000  // 2026-03-04 16:00Z

    static func sample(_ offset: Int64, _ value: Double) -> [Sample] {
        [
            Sample(
                startMilliseconds: start + offset * 60_000,
                endMilliseconds: start + offset * 60_000 + 60_000, value: value)
        ]
    }

    /// Runs `body` with a store of UTC days whose clock is a `ManualClock` set to `instant`,
    /// and the store's directory.
    static func withClockedStore(
        at instant: Int64, _ body: (TrendStore, ManualClock, URL) async throws -> Void
    ) async throws {
        let clock = ManualClock(Date(milliseconds: instant))
        var options = StoreOptions()
        options.timeZone = TimeZone(identifier: "UTC")
        options.clock = clock.reading
        try await withTemporaryStore(options: options) { store, directory in
            try await body(store, clock, directory)
        }
    }

    @Test("a write of this process reaches the observer at once, not at the next poll")
    func inProcessLatency() async throws {
        try await Self.withClockedStore(at: Self.start + 3_600_000) { store, _, _ in
            try await store.write(Self.sample(0, 1), to: "e", unit: "kcal")
            // A poll every 10 s: an element within a second came from the commit signal.
            var values = store.observe(every: .seconds(10)) { try $0.todayCurve(of: "e").total }
                .makeAsyncIterator()
            #expect(try await values.next() == 1)
            var latencies: [Double] = []
            for round in 1...5 {
                let begin = ContinuousClock.now
                try await store.write(Self.sample(Int64(round), 1), to: "e", unit: "kcal")
                #expect(try await values.next() == Double(round + 1))
                latencies.append(
                    Double((ContinuousClock.now - begin).components.attoseconds) / 1e15)
            }
            print(
                "observe, in-process latency (ms): \(latencies.map { String(format: "%.2f", $0) })")
            #expect(latencies.allSatisfy { $0 < 1_000 })
        }
    }

    @Test("a write through another handle of this process on the store wakes the observer too")
    func anotherHandleOfThisProcess() async throws {
        try await Self.withClockedStore(at: Self.start + 3_600_000) { store, _, directory in
            try await store.write(Self.sample(0, 1), to: "e", unit: "kcal")
            var options = StoreOptions()
            options.timeZone = TimeZone(identifier: "UTC")
            let writer = try TrendStore(directory: directory, options: options)
            // A poll every 60 s: an element before it came from the shared commit signal.
            var values = store.observe(every: .seconds(60)) { try $0.todayCurve(of: "e").total }
                .makeAsyncIterator()
            #expect(try await values.next() == 1)
            let begin = ContinuousClock.now
            try await writer.write(Self.sample(1, 2), to: "e", unit: "kcal")
            #expect(try await values.next() == 3)
            #expect(ContinuousClock.now - begin < .seconds(30))
            await writer.close()
        }
    }

    @Test("only writes to the series the query read, and that change its value, produce elements")
    func regionAndDuplicates() async throws {
        try await Self.withClockedStore(at: Self.start + 3_600_000) { store, _, _ in
            try await store.write(Self.sample(0, 1), to: "e", unit: "kcal")
            try await store.write(Self.sample(0, 5), to: "other", unit: "kcal")
            let evaluations = Mutex(0)
            var values = store.observe(every: .milliseconds(20)) { snapshot in
                evaluations.withLock { $0 += 1 }
                return try snapshot.todayCurve(of: "e").total
            }.makeAsyncIterator()
            #expect(try await values.next() == 1)
            // Another series: not evaluated again.
            try await store.write(Self.sample(1, 5), to: "other", unit: "kcal")
            try await Task.sleep(for: .milliseconds(200))
            #expect(evaluations.withLock { $0 } == 1)
            // The series, but a day the query does not read: evaluated, no element.
            try await store.write(Self.sample(-24 * 60, 7), to: "e", unit: "kcal")
            let deadline = ContinuousClock.now + .seconds(10)
            while evaluations.withLock({ $0 }) < 2 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(evaluations.withLock { $0 } == 2)
            // A change of the value: the next element.
            try await store.write(Self.sample(2, 2), to: "e", unit: "kcal")
            #expect(try await values.next() == 3)
        }
    }

    @Test("a new local day on the store's clock moves today's curve at midnight")
    func midnight() async throws {
        // 23:59:30 UTC.
        try await Self.withClockedStore(at: Self.start + 7 * 3_600_000 + 59 * 60_000 + 30_000) {
            store, clock, _ in
            try await store.write(Self.sample(0, 4), to: "e", unit: "kcal")
            var values = store.observe(every: .milliseconds(20)) {
                let curve = try $0.todayCurve(of: "e")
                return "\(curve.date) \(curve.total)"
            }.makeAsyncIterator()
            #expect(try await values.next() == "2026-03-04 4.0")
            clock.advance(by: 60)
            #expect(try await values.next() == "2026-03-05 0.0")
        }
    }

    @Test(
        "a write of another process is seen at the next poll; closing ends the sequence with an error"
    )
    func otherProcessAndClose() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent("store")
            var options = StoreOptions()
            options.timeZone = TimeZone(identifier: "UTC")
            let store = try TrendStore(directory: url, options: options)
            try await store.write(Self.sample(0, 1), to: "e", unit: "kcal")
            var values = store.observe {
                try $0.samples(of: "e", from: .distantPast, to: .distantFuture).count
            }.makeAsyncIterator()
            #expect(try await values.next() == 1)
            let csv = try directory.file(
                "more.csv",
                containing:
                    "series,start,end,value,unit\ne,\(Self.start + 60_000),\(Self.start + 120_000),2,kcal\n"
            )
            let begin = ContinuousClock.now
            let child = try CommandLineTool.run(["import", csv, "--store", url.path])
            #expect(child.status == 0, "\(child.output)")
            #expect(try await values.next() == 2)
            print(
                "observe, another process's write seen after \(ContinuousClock.now - begin) (import included)"
            )
            await store.close()
            await #expect { _ = try await values.next() } throws: {
                ($0 as? StoreError)?.code == "closed"
            }
        }
    }
}
