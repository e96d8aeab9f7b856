import LMDB

/// The text keys of an encrypted store (FORMAT.md, "Encrypted stores"): series names,
/// cached-aggregate keys and typed-cache keys would show what a store holds, so a table of
/// them stores each key blinded, segment by segment, and seals the key itself inside the value.
///
/// A key splits at its separators (`/` and the zero byte) into segments; the stored key is each
/// segment's ``ValueSealer/blind(_:)`` followed by its separator, so keys sharing a prefix that
/// ends at a separator still share a stored prefix and a namespace or series walk stays one
/// range. The sealed value is `key length (2 bytes, little-endian) ‖ key ‖ value`.
extension RawTable {
    /// The separators text keys split at: `/` and the zero byte.
    private static func isSeparator(_ byte: UInt8) -> Bool { byte == 0x2F || byte == 0 }

    /// The key under which `key` is stored: itself, or blinded in a table that blinds keys.
    func storedKey(_ key: [UInt8]) -> [UInt8] {
        guard blindsKeys, let sealer else { return key }
        return Self.blinded(key, by: sealer, dropsTrailingSegment: false)
    }

    /// The stored prefix every key starting with `prefix` is stored under.
    func storedPrefix(_ prefix: [UInt8]) -> [UInt8] {
        guard blindsKeys, let sealer else { return prefix }
        // A segment the prefix cuts short cannot be blinded: the walk starts before it.
        let whole = prefix.lastIndex(where: Self.isSeparator).map { prefix[...$0] } ?? []
        return Self.blinded(Array(whole), by: sealer, dropsTrailingSegment: true)
    }

    /// `key` blinded segment by segment; with `dropsTrailingSegment`, the empty segment after a final
    /// separator (a prefix's) is left out.
    private static func blinded(_ key: [UInt8], by sealer: ValueSealer, dropsTrailingSegment: Bool)
        -> [UInt8]
    {
        var stored: [UInt8] = []
        var segmentStart = key.startIndex
        for index in key.indices where isSeparator(key[index]) {
            stored += sealer.blind(key[segmentStart..<index])
            stored.append(key[index])
            segmentStart = index + 1
        }
        if !(dropsTrailingSegment && segmentStart == key.endIndex) {
            stored += sealer.blind(key[segmentStart...])
        }
        return stored
    }

    /// The plaintext stored under a blinded key: `value` behind `key`.
    func entryPlaintext(key: [UInt8], value: [UInt8]) -> [UInt8] {
        guard blindsKeys else { return value }
        let length = UInt16(truncatingIfNeeded: key.count)
        return [UInt8(length & 0xFF), UInt8(length >> 8)] + key + value
    }

    /// The key and value of an opened entry of a table that blinds keys; `nil` when it is too
    /// short for the key it says it holds.
    static func splitEntry(_ plaintext: UnsafeRawBufferPointer) -> (
        key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer
    )? {
        guard plaintext.count >= 2 else { return nil }
        let length = Int(plaintext[0]) | Int(plaintext[1]) << 8
        guard plaintext.count >= 2 + length else { return nil }
        return (
            UnsafeRawBufferPointer(rebasing: plaintext[2..<(2 + length)]),
            UnsafeRawBufferPointer(rebasing: plaintext[(2 + length)...])
        )
    }

    /// Every entry of a table that blinds keys whose key starts with `prefix` and sorts at or
    /// after `start`, as `(key, value)` copies in key order.
    func blindedEntries<T: ReadableTransaction & ~Copyable>(
        prefix: [UInt8], from start: [UInt8], in txn: borrowing T
    ) throws -> [(key: [UInt8], value: [UInt8])] {
        var entries: [(key: [UInt8], value: [UInt8])] = []
        let stored = storedPrefix(prefix)
        try txn.withCursor(database) { cursor in
            try cursor.forEach(from: stored) { storedKey, value in
                guard storedKey.starts(with: stored) else { return false }
                try opened(value, key: storedKey) { plaintext in
                    guard let entry = Self.splitEntry(plaintext) else {
                        throw SealedValueDamage(table: name, key: Array(storedKey))
                    }
                    let key = Array(entry.key)
                    if key.starts(with: prefix) && !key.lexicographicallyPrecedes(start) {
                        entries.append((key, Array(entry.value)))
                    }
                }
                return true
            }
        }
        return entries.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }
}
