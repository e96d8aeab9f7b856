import Foundation
import Testing
import TestSupport
import TrendStore

@Suite("Rejected input")
struct SampleValidationTests {
    static let good = Sample(startMilliseconds: 1_000, endMilliseconds: 61_000, value: 1)

    @Test(
        "a bad sample rejects the whole batch, naming the sample",
        arguments: [
            (Sample(startMilliseconds: 0, endMilliseconds: 1, value: .nan), "not finite"),
            (Sample(startMilliseconds: 0, endMilliseconds: 1, value: .infinity), "not finite"),
            (Sample(startMilliseconds: 0, endMilliseconds: 1, value: -.infinity), "not finite"),
            (Sample(startMilliseconds: 10, endMilliseconds: 9, value: 1), "before start"),
            (
                Sample(startMilliseconds: 0, endMilliseconds: 9_000_000_000_000_000, value: 1),
                "outside"
            ),
            (
                Sample(startMilliseconds: 0, endMilliseconds: 14 * 86_400_000 + 1, value: 1),
                "the sample lasts 14.0 days; a sample lasts at most 14 days"
            ),
            (
                Sample(
                    startMilliseconds: -30_610_224_000_000, endMilliseconds: 253_402_214_400_000,
                    value: 9000),
                "the sample lasts 3287181.0 days"
            ),
        ])
    func rejectsBadSample(bad: Sample, reason: String) async throws {
        try await withTemporaryStore { store, _ in
            try await store.write([Self.good], to: "kept", unit: "kcal")
            do {
                try await store.write([Self.good, Self.good, bad], to: "energy", unit: "kcal")
                Issue.record("the batch was accepted")
            } catch let error as StoreError {
                #expect(error.code == .invalidSample, "\(error)")
                #expect(error.series == "energy")
                #expect(error.sampleIndex == 2)
                #expect(error.reason?.contains(reason) == true, "\(error)")
            }
            #expect(try store.series().map(\.name) == ["kept"])
            #expect(try await store.verify().isHealthy)
        }
    }

    @Test(
        "series names must be 1 to 255 UTF-8 bytes",
        arguments: ["", String(repeating: "é", count: 128)])
    func rejectsBadNames(name: String) async throws {
        try await withTemporaryStore { store, _ in
            await #expect(throws: StoreError.self) {
                try await store.write([Self.good], to: name, unit: "kcal")
            }
            let series = try store.series()
            #expect(series.isEmpty)
        }
    }

    @Test("a sample of exactly 14 days is stored, and costs a few kilobytes")
    func longestSample() async throws {
        try await withTemporaryStore { store, url in
            let fortnight = Sample(
                startMilliseconds: 1_700_000_000_000,
                endMilliseconds: 1_700_000_000_000 + SampleRules.maximumDuration, value: 14)
            try await store.write([fortnight], to: "sleep", unit: "h")
            #expect(
                try store.samples(of: "sleep", from: .distantPast, to: .distantFuture) == [
                    fortnight
                ])
            #expect(try await store.verify().isHealthy)
        }
    }

    @Test("a name of exactly 255 bytes is accepted")
    func acceptsLongestName() async throws {
        try await withTemporaryStore { store, _ in
            let name = String(repeating: "a", count: 255)
            try await store.write([Self.good], to: name, unit: "kcal")
            #expect(
                try store.samples(of: name, from: .distantPast, to: .distantFuture) == [Self.good])
        }
    }

    @Test("a series keeps its unit")
    func rejectsOtherUnit() async throws {
        try await withTemporaryStore { store, _ in
            try await store.write([Self.good], to: "energy", unit: "kcal")
            await #expect(
                throws: StoreError.unitMismatch(series: "energy", stored: "kcal", given: "kJ")
            ) {
                try await store.write([Self.good], to: "energy", unit: "kJ")
            }
        }
    }

    @Test("a multi-series write with one bad part writes nothing")
    func atomicAcrossSeries() async throws {
        try await withTemporaryStore { store, _ in
            let bad = Sample(startMilliseconds: 5, endMilliseconds: 1, value: 1)
            await #expect(throws: StoreError.self) {
                try await store.write([
                    SeriesSamples(series: "a", unit: "kcal", samples: [Self.good]),
                    SeriesSamples(series: "b", unit: "kcal", samples: [bad]),
                ])
            }
            let series = try store.series()
            #expect(series.isEmpty)
        }
    }
}
