import Foundation
import Synchronization

/// A time zone's UTC offset as a step function of the instant, over a bounded range.
///
/// Built once per query from Foundation's transition list, then read with integer
/// arithmetic only: no `Calendar` or `TimeZone` call per sample or per slot.
struct ZoneOffsets {
    /// The instant each period begins; the first period extends back without limit.
    private(set) var periodStarts: [Int64]
    /// The offset in milliseconds of each period.
    private(set) var offsets: [Int64]

    /// The offsets of `zone` for every instant in `[from, to]`.
    init(zone: TimeZone, from: Int64, to: Int64) {
        periodStarts = [Int64.min]
        offsets = [Int64(zone.secondsFromGMT(for: Date(milliseconds: from))) * 1000]
        var cursor = Date(milliseconds: from)
        let limit = Date(milliseconds: to)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next <= limit {
            let offset = Int64(zone.secondsFromGMT(for: next)) * 1000
            if offset != offsets.last {
                periodStarts.append(next.millisecondsSince1970)
                offsets.append(offset)
            }
            cursor = next
        }
    }

    /// The index of the period holding `instant`.
    @inline(__always)
    func period(containing instant: Int64) -> Int {
        var low = 0
        var high = periodStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if periodStarts[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The offset in force at `instant`, in milliseconds.
    @inline(__always)
    func offset(at instant: Int64) -> Int64 { offsets[period(containing: instant)] }

    /// The first instant of period `index` and the first instant after it.
    @inline(__always)
    func bounds(ofPeriod index: Int) -> (start: Int64, end: Int64) {
        (periodStarts[index], index + 1 < periodStarts.count ? periodStarts[index + 1] : Int64.max)
    }

    var periodCount: Int { periodStarts.count }
}

/// Offset tables of the zones queries use, kept for the life of the process, so a query
/// reads integers instead of asking Foundation for transitions.
///
/// A table covers a range of instants; a query outside it rebuilds a table covering
/// both, with a year of margin on each side, so rebuilds are rare.
enum ZoneOffsetsCache {
    private static let tables = Mutex<[String: (from: Int64, to: Int64, offsets: ZoneOffsets)]>([:])
    private static let margin: Int64 = 366 * TimeGrid.day

    /// A table of `zone` covering at least `[from, to]`.
    static func offsets(for zone: TimeZone, from: Int64, to: Int64) -> ZoneOffsets {
        let key = zone.identifier
        if let cached = tables.withLock({ $0[key] }), cached.from <= from, cached.to >= to {
            return cached.offsets
        }
        let existing = tables.withLock { $0[key] }
        let lower = min(from, existing?.from ?? from) - margin
        let upper = max(to, existing?.to ?? to) + margin
        let built = ZoneOffsets(zone: zone, from: lower, to: upper)
        tables.withLock { $0[key] = (lower, upper, built) }
        return built
    }
}
