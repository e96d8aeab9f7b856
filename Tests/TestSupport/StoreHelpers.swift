import Foundation
@_exported import TrendStoreTesting
import TrendStore

/// The samples `store` holds for `series`: none when the series was never created (no
/// batch committed); any other error fails the caller, so "nothing stored" never passes
/// for "could not read".
public func committedSamples(of series: String, in store: TrendStore) throws -> [Sample] {
    do {
        return try store.samples(of: series, from: .distantPast, to: .distantFuture)
    } catch StoreError.Code.unknownSeries {
        return []
    }
}

extension StoreOptions {
    /// The defaults in UTC, without syncs: stores a test writes many small commits into.
    public static var unsyncedUTC: StoreOptions {
        var options = StoreOptions()
        options.durability = .none
        options.timeZone = TimeZone(identifier: "UTC")!
        return options
    }

    /// The defaults with quarter-hour rollup rows, whatever the zone: for tests of the rows.
    public static var quarterHourGrid: StoreOptions {
        var options = StoreOptions()
        options.rollupGrid = .quarterHour
        return options
    }
}

/// Whether `lhs` and `rhs` hold the same samples bit for bit (so -0.0 and 0.0 differ and NaN
/// payloads would show), in the same order.
public func bitIdentical(_ lhs: [Sample], _ rhs: [Sample]) -> Bool {
    lhs.count == rhs.count
        && zip(lhs, rhs).allSatisfy {
            $0.startMilliseconds == $1.startMilliseconds && $0.endMilliseconds == $1.endMilliseconds
                && $0.value.bitPattern == $1.value.bitPattern
        }
}

extension StoreOptions {
    /// These options with ``StoreOptions/readOnly`` set.
    public var readingOnly: StoreOptions {
        var options = self
        options.readOnly = true
        return options
    }
}
