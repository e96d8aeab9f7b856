import Foundation

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
                periodStarts.append(Milliseconds(next))
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
