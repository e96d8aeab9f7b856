import Foundation
import Testing
import TestSupport
import TrendStore

/// `StoreError` is a struct with an open code: a host matches codes in `catch` clauses,
/// reads where the error is from its properties, and a `switch` written against the enum it
/// was compiles through `legacy`; `VerificationReport.Problem.Kind` is open the same way and
/// keeps its JSON.
@Suite struct StoreErrorCodeTests {
    /// The codes hosts compare are spelled as documented, never changing between releases.
    @Test func codesAreStable() {
        let expected: [(StoreError, String)] = [
            (.invalidSeriesName("", reason: "empty"), "invalid-series-name"),
            (.invalidSample(series: "e", index: 1, reason: "r"), "invalid-sample"),
            (.unitMismatch(series: "e", stored: "kcal", given: "kJ"), "unit-mismatch"),
            (.kindMismatch(series: "e", stored: .cumulative, given: .discrete), "kind-mismatch"),
            (.unknownSeries("e", closest: []), "unknown-series"),
            (.storage(path: "/p", operation: "commit", code: 28, reason: "full"), "storage"),
            (.closed(path: "/p"), "closed"),
            (.suspended(path: "/p"), "suspended"),
            (.invalidArgument(.window, reason: "r"), "invalid-argument.window"),
            (.wrongEncryptionKey(path: "/p"), "wrong-encryption-key"),
            (.anchorExpired(retentionDays: 30), "anchor-expired"),
            (.damagedChangeSet(reason: "r"), "damaged-change-set"),
        ]
        for (error, code) in expected {
            #expect(error.code.rawValue == code)
            #expect(error.code == StoreError.Code(rawValue: code))
        }
        #expect(StoreError.Code.invalidArgument(.sampleID).rawValue == "invalid-argument.sampleID")
    }

    /// A thrown error is caught by its code, and says where through its properties.
    @Test func caughtByCodeWithWhere() async throws {
        try await withTemporaryDirectory { directory in
            let store = try TrendStore(directory: directory.url)
            try await store.write(
                [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)],
                to: "activeEnergy", unit: "kcal")
            var caught = false
            do {
                _ = try store.todayCurve(of: "activeEnergie", now: Date(milliseconds: 60_000))
            } catch StoreError.Code.unknownSeries {
                caught = true
            }
            #expect(caught)
            do {
                try await store.write(
                    [Sample(startMilliseconds: 0, endMilliseconds: 60_000, value: 1)],
                    to: "activeEnergy", unit: "kJ")
                Issue.record("a write in another unit was accepted")
            } catch let error as StoreError {
                #expect(error.code == .unitMismatch)
                #expect(error.code == "unit-mismatch")
                #expect(error.series == "activeEnergy")
                #expect(error.path == nil && error.systemCode == nil && error.sampleIndex == nil)
                #expect(error == .unitMismatch(series: "activeEnergy", stored: "kcal", given: "kJ"))
            }
            do {
                _ = try store.todayCurve(of: "activeEnergie", now: Date(milliseconds: 60_000))
            } catch let error as StoreError {
                #expect(error.series == "activeEnergie")
                #expect(error.closestSeries == ["activeEnergy"])
                #expect(error.localizedDescription == error.description)
                #expect(error.description.contains("did you mean \"activeEnergy\""))
            }
            await store.close()
            #expect {
                _ = try store.series()
            } throws: { error in
                let path = (error as? StoreError)?.path
                return StoreError.Code.closed ~= error && path == directory.url.path
            }
        }
    }

    /// A code a later release adds is just another value: a `switch` with a `default` takes
    /// it, and it never equals a code of this release.
    @Test func unknownCodesAreValues() {
        let later = StoreError.Code(rawValue: "quota-exceeded")
        let known: [StoreError.Code] = [.closed, .storage, .unknownSeries, .anchorExpired]
        #expect(!known.contains(later))
        let kind = VerificationReport.Problem.Kind(rawValue: "damagedIndex")
        #expect(kind != .damagedBlock && kind.description == "damagedIndex")
    }

    /// The kind of a problem still encodes as its bare name, as `verify --json` wrote it when
    /// the kind was an enum, and an unknown name decodes.
    @Test func problemKindJSON() throws {
        let written = Data(#"{"kind":"damagedBlock","series":"e","at":0,"detail":"crc"}"#.utf8)
        let problem = try JSONDecoder().decode(VerificationReport.Problem.self, from: written)
        #expect(problem.kind == .damagedBlock)
        let json = try JSONEncoder().encode(problem)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["kind"] as? String == "damagedBlock")
        let later = Data(#"{"kind":"damagedIndex","series":"e","at":0,"detail":"d"}"#.utf8)
        let decoded = try JSONDecoder().decode(VerificationReport.Problem.self, from: later)
        #expect(decoded.kind.rawValue == "damagedIndex")
    }

    /// A `switch` written against the enum compiles over `legacy` and sees the same case
    /// with the same values.
    @available(*, deprecated, message: "exercises the deprecated legacy enum")
    @Test func legacySwitch() {
        let error = StoreError.storage(path: "/p", operation: "commit", code: 28, reason: "full")
        switch error.legacy {
        case let .storage(path, operation, code, reason):
            #expect(path == "/p" && operation == "commit" && code == 28 && reason == "full")
        default:
            Issue.record("\(error.legacy)")
        }
        #expect(
            StoreError.unknownSeries("x", closest: ["y"]).legacy
                == .unknownSeries("x", closest: ["y"]))
    }
}
