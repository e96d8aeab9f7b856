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
/// ``capacityBytes`` (sealed and opened bytes); when full, the half kept longest ago is
/// dropped.
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
        let table: String
        let entryKey: [UInt8]
        let plaintext: OpenedPlaintext
        /// When it was kept: the older half goes first.
        var added: UInt64
        var bytes: Int { sealed.count + plaintext.count }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most plaintext bytes kept.
    let capacityBytes: Int
    /// Values larger than this are not kept: a sample block (about 16 KiB) is, because the
    /// decoded-block cache above must read a block's header to know whether it changed.
    let largestValue: Int
    private let state = Mutex(State())

    init(capacityBytes: Int = 8 << 20, largestValue: Int = 64 << 10) {
        self.capacityBytes = capacityBytes
        self.largestValue = largestValue
    }

    /// The number of values kept.
    var entryCount: Int { state.withLock { $0.entries.count } }

    /// The plaintext kept for `sealed` (whose key is `key`), if exactly these bytes were
    /// opened in database `table` under `entryKey`.
    func plaintext(
        of sealed: UnsafeRawBufferPointer, key: Key, table: String,
        entryKey: UnsafeRawBufferPointer
    ) -> OpenedPlaintext? {
        state.withLock { state in
            guard let entry = state.entries[key], entry.table == table,
                Self.same(entry.sealed, sealed), Self.same(entry.entryKey, entryKey)
            else { return nil }
            return entry.plaintext
        }
    }

    /// Whether `stored` holds the bytes of `found`.
    private static func same(_ stored: [UInt8], _ found: UnsafeRawBufferPointer) -> Bool {
        guard stored.count == found.count else { return false }
        guard let found = found.baseAddress else { return true }
        return stored.withUnsafeBytes { stored in
            stored.baseAddress.map { memcmp($0, found, stored.count) == 0 } ?? false
        }
    }

    /// Keeps `plaintext`, opened from `sealed` in database `table` under `entryKey`, under
    /// `key`, dropping the older half of the entries when full.
    func keep(
        _ plaintext: OpenedPlaintext, of sealed: UnsafeRawBufferPointer, key: Key, table: String,
        entryKey: UnsafeRawBufferPointer
    ) {
        guard plaintext.count <= largestValue else { return }
        var entry = Entry(
            sealed: Array(sealed), table: table, entryKey: Array(entryKey),
            plaintext: plaintext, added: 0)
        state.withLock { state in
            if state.bytes + entry.bytes > capacityBytes {
                let ages = state.entries.values.map(\.added).sorted()
                let cut = ages[ages.count / 2]
                state.entries = state.entries.filter { $0.value.added > cut }
                state.bytes = state.entries.values.reduce(0) { $0 + $1.bytes }
            }
            state.clock += 1
            entry.added = state.clock
            state.bytes += entry.bytes - (state.entries.updateValue(entry, forKey: key)?.bytes ?? 0)
        }
    }
}
