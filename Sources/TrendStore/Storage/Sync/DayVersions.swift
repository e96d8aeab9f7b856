/// What the change log remembers of one source's samples of one UTC day (format 5, the
/// `sync` database): for every sample written since format 5, its identity (start, end),
/// the ``ChangeVersion`` of its last write, the feed position of the commit that made it,
/// and the ``SampleID`` that write gave it, if any.
///
/// A write or an applied change set brings the record of each day it touched up to date;
/// ``TrendStore/changes(since:)`` reads back the identities with a later position, and an
/// applied change set compares its versions with these. Stored in the layouts of
/// `DayVersions+Layouts.swift`.
struct DayVersions: Equatable, Sendable {
    /// One remembered sample.
    struct Entry: Equatable, Sendable {
        var start: Int64
        var end: Int64
        var version: ChangeVersion
        var position: UInt64
        /// The id the last write gave the sample; `nil` when it gave none.
        var id: SampleID? = nil
    }

    /// The entries, sorted by (start, end), identities unique.
    private(set) var entries: [Entry] = []

    init() {}

    /// A record of `entries`, sorted by (start, end), identities unique.
    init(sorted entries: [Entry]) { self.entries = entries }

    /// The version recorded for the sample `(start, end)`, if any.
    func version(start: Int64, end: Int64) -> ChangeVersion? {
        index(start: start, end: end).found.map { entries[$0].version }
    }

    /// The entry of the sample `(start, end)`, if any.
    func entry(start: Int64, end: Int64) -> Entry? {
        index(start: start, end: end).found.map { entries[$0] }
    }

    /// Records `incoming` (sorted by (start, end)) in one merge.
    mutating func record(sorted incoming: [Entry]) {
        guard !entries.isEmpty else {
            entries = incoming
            return
        }
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count + incoming.count)
        var old = 0
        var new = 0
        while old < entries.count || new < incoming.count {
            if new == incoming.count {
                merged.append(entries[old]); old += 1
            } else if old == entries.count || Self.precedes(incoming[new], entries[old]) {
                merged.append(incoming[new]); new += 1
            } else if Self.precedes(entries[old], incoming[new]) {
                merged.append(entries[old]); old += 1
            } else {
                merged.append(incoming[new]); old += 1; new += 1
            }
        }
        entries = merged
    }

    /// The entries committed after `position`.
    func entries(after position: UInt64) -> [Entry] {
        entries.filter { $0.position > position }
    }

    static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        (lhs.start, lhs.end) < (rhs.start, rhs.end)
    }

    private func index(start: Int64, end: Int64) -> (found: Int?, insertion: Int) {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if (entries[middle].start, entries[middle].end) < (start, end) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        let found = low < entries.count && entries[low].start == start && entries[low].end == end
        return (found ? low : nil, low)
    }
}
