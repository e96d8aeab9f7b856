import Foundation
import Testing
import TestSupport
@testable import TrendStore

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
        ])
    func rejectsBadSample(bad: Sample, reason: String) async throws {
        try await withTemporaryStore { store, _ in
            try await store.write([Self.good], to: "kept", unit: "kcal")
            do {
                try await store.write([Self.good, Self.good, bad], to: "energy", unit: "kcal")
                Issue.record("the batch was accepted")
            } catch let error as StoreError {
                guard case let .invalidSample(series, index, message) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(series == "energy")
                #expect(index == 2)
                #expect(message.contains(reason))
            }
            #expect(try store.series().map(\.name) == ["kept"])
            #expect(try store.verify().isHealthy)
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
