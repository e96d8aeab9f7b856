import Foundation

/// The spelling of a source's rank in its series' priority order in CSV and NDJSON files:
/// a whole number from 1 (the highest source) up. The ranks a file gives a series' sources
/// set its order when the import ends (``ImportSummary/prioritiesSet``).
enum SourceRank {
    /// The greatest rank read: far more sources than any series has.
    static let maximum = 65_535

    /// What a `priority` field must hold, for error messages.
    static let expectation = "a priority is a whole number from 1 (the highest source) to 65535"

    /// The rank the ASCII digits of `field` spell, or `nil`.
    static func parse(_ field: UnsafeRawBufferPointer) -> Int? {
        guard let rank = Digits.value(of: field).map(Int.init), (1...maximum).contains(rank)
        else { return nil }
        return rank
    }

    /// The rank a JSON value holds (a whole number), or `nil`.
    static func parse(json value: Any) -> Int? {
        guard let number = JSONNumber.number(value), let rank = Int(exactly: number.doubleValue),
            (1...maximum).contains(rank)
        else { return nil }
        return rank
    }
}
