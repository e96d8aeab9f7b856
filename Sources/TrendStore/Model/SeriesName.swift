import Foundation

/// The rules of series names: stored and compared in Unicode NFC, 1 to 255 UTF-8 bytes.
///
/// `Café` typed with a precomposed `é` and with `e` plus a combining accent are one
/// series: every name that enters the store (writes, queries, cache keys) goes through
/// ``normalized(_:)`` first.
public enum SeriesName {
    /// The longest name, in UTF-8 bytes after normalisation.
    public static let maximumByteCount = 255

    /// `name` in Unicode Normalization Form C (canonical composition); ASCII is returned as is.
    public static func normalized(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return name }
        return name.precomposedStringWithCanonicalMapping
    }

    /// The normalised name, checked against the length rules.
    ///
    /// - Throws: ``StoreError/Code/invalidSeriesName`` for an empty name or one
    ///   longer than 255 UTF-8 bytes.
    public static func validated(_ name: String) throws(StoreError) -> String {
        let normal = normalized(name)
        let bytes = normal.utf8.count
        if bytes == 0 { throw .invalidSeriesName(name, reason: "the name is empty") }
        if bytes > maximumByteCount {
            throw .invalidSeriesName(
                name, reason: "the name is \(bytes) UTF-8 bytes; at most 255 are allowed")
        }
        return normal
    }

    /// Up to three of `known` closest to `name` by edit distance, closest first: the
    /// names a typo most likely meant.
    static func closest(to name: String, among known: [String]) -> [String] {
        let target = Array(normalized(name).lowercased())
        let limit = max(2, target.count / 3)
        return
            known
            .map { (name: $0, distance: editDistance(target, Array($0.lowercased()))) }
            .filter { $0.distance <= limit }
            .sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }
            .prefix(3).map(\.name)
    }

    /// Levenshtein distance between two character arrays.
    private static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        if lhs.isEmpty { return rhs.count }
        var previous = Array(0...rhs.count)
        var current = previous
        for (i, left) in lhs.enumerated() {
            current[0] = i + 1
            for (j, right) in rhs.enumerated() {
                current[j + 1] = min(
                    previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[rhs.count]
    }
}
