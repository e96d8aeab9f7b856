/// The identity of a store in sync: 16 random bytes drawn when the store is created (or
/// brought to format 5), kept in its `sync` database and copied with it by a backup.
struct StoreID: Hashable, Comparable, Sendable {
    /// The identifier's bytes, as two big-endian halves (so `<` is byte order).
    let high: UInt64
    let low: UInt64

    /// The origin of samples no store's change log remembers (written before format 5, or
    /// longer ago than the retention): lower than every store's id.
    static let none = StoreID(high: 0, low: 0)

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A new random identifier.
    static func random() -> StoreID {
        var generator = SystemRandomNumberGenerator()
        return StoreID(high: generator.next() | 1 << 63, low: generator.next())
    }

    /// The 16 bytes, big-endian.
    var bytes: [UInt8] {
        withUnsafeBytes(of: high.bigEndian) { Array($0) }
            + withUnsafeBytes(of: low.bigEndian) { Array($0) }
    }

    /// The identifier in `bytes` (16, big-endian), or `nil` for another length.
    init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.init(high: high, low: low)
    }

    /// 32 lowercase hexadecimal digits.
    var hex: String { bytes.hexDigits }

    static func < (lhs: StoreID, rhs: StoreID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}

/// When and where a sample, deletion or priority order was written, ordering every change
/// of every store that syncs: a hybrid logical clock (milliseconds since 1970 times 1,024,
/// plus a counter; never behind any version the store has seen) and the id of the store that
/// made the change, which breaks ties.
///
/// The later version wins: a write over an older write of the same sample, a deletion over
/// the writes it covers that are older, a priority order over an older one.
struct ChangeVersion: Hashable, Comparable, Sendable {
    /// The clock reading.
    let clock: UInt64
    /// The store that made the change.
    let origin: StoreID

    /// The version of what no change log remembers: older than every change.
    static let unrecorded = ChangeVersion(clock: 0, origin: .none)

    /// The clock ticks per millisecond.
    static let ticksPerMillisecond: UInt64 = 1024

    static func < (lhs: ChangeVersion, rhs: ChangeVersion) -> Bool {
        (lhs.clock, lhs.origin) < (rhs.clock, rhs.origin)
    }

    /// The next clock reading of a store whose last reading was `last`, at `nowMilliseconds`:
    /// later than `last` and than every earlier reading, whatever the wall clock says.
    static func nextClock(after last: UInt64, nowMilliseconds: Int64) -> UInt64 {
        let wall = UInt64(clamping: max(0, nowMilliseconds)).multipliedReportingOverflow(
            by: ticksPerMillisecond)
        let reading = wall.overflow ? UInt64.max - 1 : wall.partialValue
        return max(reading, last == .max ? last : last + 1)
    }
}

extension Collection<UInt8> {
    /// The bytes as lowercase hexadecimal digits, two a byte.
    var hexDigits: String {
        let digits = Array("0123456789abcdef")
        return String(flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}
