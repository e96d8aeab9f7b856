import Foundation
import LMDB
import Synchronization

/// What a typed cache holds for a key.
public enum CacheLookup<Value: Sendable>: Sendable {
    /// A value within its lifetime.
    case fresh(Value)
    /// A value past its lifetime: never returned by ``TypedCache/value(forKey:)``, offered
    /// here for callers that serve stale data when a refresh fails.
    case expired(Value)
    /// Nothing, or an entry that could not be decoded (it is treated as missing).
    case missing
}

/// A persistent key-value cache for whatever else a host app caches, kept in the store.
///
/// Keys and values are `Codable`; entries live in a namespace of the store, shared by
/// every process that opens it. Each entry expires after `entryLifetime` (by the store's
/// clock, injectable in tests); expired entries are never returned. Inserting beyond
/// `maximumEntryCount` or `maximumBytes` evicts the least recently used entries.
///
/// ```swift
/// let articles = TypedCache<Article.ID, Article>(store: store, namespace: "articles", entryLifetime: 3600)
/// try articles.insert(article, forKey: article.id)
/// let cached = try articles.value(forKey: id)
/// ```
///
/// Recency is recorded in memory on reads and written with the next insert, so reads
/// never write; reads in another process count once that process inserts.
public final class TypedCache<Key: Codable & Hashable & Sendable, Value: Codable & Sendable>:
    Sendable
{
    /// The store holding the entries.
    public let store: TrendStore
    /// The namespace: caches with the same namespace share entries.
    public let namespace: String
    /// How long an entry lives after it is inserted.
    public let entryLifetime: TimeInterval
    /// The most entries kept.
    public let maximumEntryCount: Int
    /// The most bytes of encoded values kept.
    public let maximumBytes: Int
    private let recentReads = Mutex<[[UInt8]: Int64]>([:])
    /// Decoded entries read lately, valid until the next commit of any process.
    private let memory: TypedCacheMemory<Key, Value>

    /// Creates a cache over `namespace` of `store`.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` (``StoreError/Argument/cacheConfiguration``)
    ///   for an empty namespace or one with a NUL byte, a limit that is not positive, or a
    ///   lifetime that is negative or not finite.
    public init(
        store: TrendStore, namespace: String, entryLifetime: TimeInterval = 12 * 3600,
        maximumEntryCount: Int = 50, maximumBytes: Int = 1 << 20
    ) throws(StoreError) {
        guard !namespace.isEmpty, !namespace.utf8.contains(0) else {
            throw .invalidArgument(
                .cacheConfiguration, reason: "a namespace is a non-empty name without NUL bytes")
        }
        guard maximumEntryCount > 0, maximumBytes > 0 else {
            throw .invalidArgument(
                .cacheConfiguration,
                reason:
                    "the limits must be positive, not \(maximumEntryCount) entries and \(maximumBytes) bytes"
            )
        }
        guard entryLifetime.isFinite, entryLifetime >= 0, entryLifetime < 1e12 else {
            throw .invalidArgument(
                .cacheConfiguration, reason: "the entry lifetime \(entryLifetime) s is out of range"
            )
        }
        self.store = store
        self.namespace = namespace
        self.entryLifetime = entryLifetime
        self.maximumEntryCount = maximumEntryCount
        self.maximumBytes = maximumBytes
        memory = TypedCacheMemory(capacity: maximumEntryCount)
    }

    /// Stores `value` under `key`, replacing what was there, then evicts the least recently used entries beyond the limits.
    public func insert(_ value: Value, forKey key: Key) throws {
        let engine = store.engine
        let now = engine.clock().millisecondsSince1970
        let entryKey = try encodedKey(key)
        let entry = KeyValueEntry(
            expiresAt: now + Int64(entryLifetime * 1000), lastUsed: now, insertedAt: now,
            value: try Self.encoder.encode(value))
        var reads = recentReads.withLock { reads in
            defer { reads.removeAll() }; return reads
        }
        for (key, time) in memory.takeHits() {
            let encoded = try encodedKey(key)
            reads[encoded] = max(reads[encoded] ?? time, time)
        }
        try engine.write { txn, _ in
            try engine.keyValues.put(entry.encoded(), forKey: entryKey, in: txn)
            try KeyValueEntry.evict(
                namespace: prefix, recentReads: reads, now: now, maximumCount: maximumEntryCount,
                maximumBytes: maximumBytes,
                engine: engine, txn: txn)
        }
    }

    /// The value under `key` if it has not expired.
    public func value(forKey key: Key) throws -> Value? {
        if case .fresh(let value) = try lookup(key) { return value }
        return nil
    }

    /// What the cache holds for `key`, expired or not.
    ///
    /// A key read lately is answered from memory, without an LMDB lookup or a decode, as
    /// long as no process has committed since it was read: a read transaction tells, so the
    /// answer is never older than what a read of the store would give.
    public func lookup(_ key: Key) throws -> CacheLookup<Value> {
        let engine = store.engine
        let now = engine.clock().millisecondsSince1970
        // The kept entry is used only when the snapshot it was read in is still the newest
        // a reader sees; otherwise the entry is read in that newest snapshot.
        let (transactionID, kept, stored) = try engine.read { txn in
            let transactionID = Transactions.snapshotID(of: txn)
            if let kept = memory.entry(for: key, at: transactionID) {
                return (transactionID, Optional(kept), (key: [UInt8](), value: [UInt8]?.none))
            }
            let entryKey = try encodedKey(key)
            return (
                transactionID, nil,
                (key: entryKey, value: try engine.keyValues.entry(forKey: entryKey, in: txn))
            )
        }
        if let kept {
            guard kept.expiresAt > now else { return .expired(kept.value) }
            memory.recordHit(key, at: now)
            return .fresh(kept.value)
        }
        guard let bytes = stored.value, let entry = KeyValueEntry(bytes),
            let value = try? Self.decoder.decode(Value.self, from: entry.value)
        else {
            return .missing
        }
        memory.keep(
            .init(value: value, expiresAt: entry.expiresAt), for: key, readAt: transactionID)
        guard entry.expiresAt > now else { return .expired(value) }
        recentReads.withLock { $0[stored.key] = now }
        return .fresh(value)
    }

    /// Removes the entry under `key`.
    public func removeValue(forKey key: Key) throws {
        let engine = store.engine
        let entryKey = try encodedKey(key)
        try engine.write { txn, _ in try engine.keyValues.remove(forKey: entryKey, in: txn) }
    }

    /// Removes every entry of the namespace.
    public func removeAll() throws {
        let engine = store.engine
        try engine.write { txn, _ in
            for key in try KeyValueEntry.keys(namespace: prefix, engine: engine, txn: txn) {
                try engine.keyValues.remove(forKey: key, in: txn)
            }
        }
    }

    /// The number of entries stored, expired ones included until the next insert evicts them.
    public var count: Int {
        get throws {
            let engine = store.engine
            return try engine.read { txn in
                try KeyValueEntry.keys(namespace: prefix, engine: engine, txn: txn).count
            }
        }
    }

    private var prefix: [UInt8] { KeyValueTable.prefix(of: namespace) }

    /// Encodes items the way this cache stores them, for ``CollectionValidation/replace(_:lifetime:)``.
    public func encodedItems(_ items: [Key: Value]) throws -> [(key: Data, value: Data)] {
        try items.map { (try Self.encoder.encode($0.key), try Self.encoder.encode($0.value)) }
    }

    private func encodedKey(_ key: Key) throws -> [UInt8] {
        let bytes = prefix + Array(try Self.encoder.encode(key))
        guard bytes.count <= 511 else {
            throw StoreError.invalidArgument(
                .cacheConfiguration,
                reason: "the encoded cache key is \(bytes.count) bytes; LMDB keys are at most 511")
        }
        return bytes
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

    private static var decoder: JSONDecoder { JSONDecoder() }
}

/// One stored entry of a typed cache in `key-values` (format 1): expiry, last use, insertion
/// time, encoded value.
struct KeyValueEntry {
    var expiresAt: Int64
    var lastUsed: Int64
    var insertedAt: Int64
    var value: Data

    init(expiresAt: Int64, lastUsed: Int64, insertedAt: Int64, value: Data) {
        self.expiresAt = expiresAt
        self.lastUsed = lastUsed
        self.insertedAt = insertedAt
        self.value = value
    }

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 24 else { return nil }
        func load(_ offset: Int) -> Int64 {
            bytes.withUnsafeBytes {
                $0.littleEndian(at: offset, as: Int64.self)
            }
        }
        expiresAt = load(0)
        lastUsed = load(8)
        insertedAt = load(16)
        value = Data(bytes[24...])
    }

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 24 + value.count)
        writer.appendLittleEndian(expiresAt)
        writer.appendLittleEndian(lastUsed)
        writer.appendLittleEndian(insertedAt)
        writer.append(contentsOf: value)
        return writer.bytes
    }

    static func keys<T: ReadableTransaction & ~Copyable>(
        namespace prefix: [UInt8], engine: StoreEngine, txn: borrowing T
    ) throws -> [[UInt8]] {
        try engine.keyValues.keys(prefix: prefix, in: txn)
    }

    /// Writes recorded reads, drops expired entries, then the least recently used beyond the limits.
    static func evict(
        namespace prefix: [UInt8], recentReads: [[UInt8]: Int64], now: Int64, maximumCount: Int,
        maximumBytes: Int,
        engine: StoreEngine, txn: borrowing WriteTransaction
    ) throws {
        var live: [(key: [UInt8], lastUsed: Int64, size: Int)] = []
        for key in try keys(namespace: prefix, engine: engine, txn: txn) {
            guard let bytes = try engine.keyValues.entry(forKey: key, in: txn),
                var entry = KeyValueEntry(bytes), entry.expiresAt > now
            else {
                try engine.keyValues.remove(forKey: key, in: txn)
                continue
            }
            if let read = recentReads[key], read > entry.lastUsed {
                entry.lastUsed = read
                try engine.keyValues.put(entry.encoded(), forKey: key, in: txn)
            }
            live.append((key, entry.lastUsed, entry.value.count))
        }
        live.sort {
            $0.lastUsed != $1.lastUsed
                ? $0.lastUsed < $1.lastUsed : $0.key.lexicographicallyPrecedes($1.key)
        }
        var bytes = live.reduce(0) { $0 + $1.size }
        var index = 0
        while live.count - index > maximumCount || (bytes > maximumBytes && live.count - index > 1)
        {
            try engine.keyValues.remove(forKey: live[index].key, in: txn)
            bytes -= live[index].size
            index += 1
        }
    }
}
