#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// The plaintexts of sealed values opened lately, by their nonce and tag, so a query asked
/// again (a widget's today curve, a screen's weekday average) does not decrypt the same
/// rows each time.
///
/// Entries are found by the value's nonce and tag and answer only when the stored bytes are
/// exactly the ones that were opened and authenticated, under the same database and key: a
/// changed byte, a write from this or another process (which seals anew) or a value copied
/// under another key is opened, and fails, as if nothing were kept. Bounded by
/// ``capacityBytes`` (sealed and opened bytes); when full, the older half is dropped.
final class OpenedValueCache: Sendable {
    /// A sealed value's nonce and tag: 28 bytes, held as integers for a cheap hash.
    struct Key: Hashable {
        let nonceHead: UInt64
        let nonceTail: UInt32
        let tagHead: UInt64
        let tagTail: UInt64

        /// The key of `sealed` (`scheme ‖ nonce ‖ ciphertext ‖ tag`, at least 29 bytes).
        init(_ sealed: UnsafeRawBufferPointer) {
            nonceHead = sealed.loadUnaligned(fromByteOffset: 1, as: UInt64.self)
            nonceTail = sealed.loadUnaligned(fromByteOffset: 9, as: UInt32.self)
            tagHead = sealed.loadUnaligned(fromByteOffset: sealed.count - 16, as: UInt64.self)
            tagTail = sealed.loadUnaligned(fromByteOffset: sealed.count - 8, as: UInt64.self)
        }
    }

    private struct Entry {
        let sealed: [UInt8]
        let place: [UInt8]
        let plaintext: [UInt8]
        var use: UInt64
        var bytes: Int { sealed.count + plaintext.count }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most plaintext bytes kept.
    let capacityBytes: Int
    /// Values larger than this are not kept (a sample block is decoded and cached above).
    let largestValue: Int
    private let state = Mutex(State())

    init(capacityBytes: Int = 4 << 20, largestValue: Int = 4_096) {
        self.capacityBytes = capacityBytes
        self.largestValue = largestValue
    }

    /// The plaintext kept for `sealed` (whose key is `key`), if exactly these bytes were
    /// opened in database `table` under `entryKey`.
    func plaintext(
        of sealed: UnsafeRawBufferPointer, key: Key, table: String,
        entryKey: UnsafeRawBufferPointer
    ) -> [UInt8]? {
        state.withLock { state in
            guard let entry = state.entries[key],
                entry.sealed.count == sealed.count,
                entry.sealed.withUnsafeBytes({ stored in
                    guard let stored = stored.baseAddress, let found = sealed.baseAddress else {
                        return false
                    }
                    return memcmp(stored, found, sealed.count) == 0
                }),
                Self.place(entry.place, is: table, entryKey)
            else { return nil }
            state.clock += 1
            state.entries[key]?.use = state.clock
            return entry.plaintext
        }
    }

    /// Whether `place` (``ValueSealer``'s associated data) is `table ‖ 0x00 ‖ entryKey`.
    private static func place(
        _ place: [UInt8], is table: String, _ entryKey: UnsafeRawBufferPointer
    ) -> Bool {
        let name = table.utf8
        guard place.count == name.count + 1 + entryKey.count else { return false }
        return place.withUnsafeBytes { place in
            place.prefix(name.count).elementsEqual(name) && place[name.count] == 0
                && place.suffix(entryKey.count).elementsEqual(entryKey)
        }
    }

    /// Keeps `plaintext`, opened from `sealed` at `place` (the database and entry key bound
    /// into it), under `key`, dropping the older half of the entries when full.
    func keep(
        _ plaintext: [UInt8], of sealed: UnsafeRawBufferPointer, key: Key, at place: [UInt8]
    ) {
        guard plaintext.count <= largestValue else { return }
        let entry = Entry(sealed: Array(sealed), place: place, plaintext: plaintext, use: 0)
        state.withLock { state in
            if state.bytes + entry.bytes > capacityBytes {
                let uses = state.entries.values.map(\.use).sorted()
                let cut = uses[uses.count / 2]
                state.entries = state.entries.filter { $0.value.use > cut }
                state.bytes = state.entries.values.reduce(0) { $0 + $1.bytes }
            }
            state.clock += 1
            var kept = entry
            kept.use = state.clock
            state.bytes += kept.bytes - (state.entries.updateValue(kept, forKey: key)?.bytes ?? 0)
        }
    }
}
