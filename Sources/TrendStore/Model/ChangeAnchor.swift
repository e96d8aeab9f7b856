/// A position in one store's change feed: what ``TrendStore/changes(since:)`` returns with
/// every change set, to ask next time for what was committed after it.
///
/// Anchors are opaque: keep one (it is `Codable`, and its `description` is a short string
/// that ``init(_:)`` reads back, for a command line or a file) and give it back to the store
/// that made it. It survives closing and reopening the store and a ``TrendStore/backup(to:)-lais``;
/// another store refuses it (``StoreError/Code/foreignAnchor``), and an anchor older than
/// the store's change retention is answered with ``StoreError/Code/anchorExpired``:
/// ask again from `nil`.
///
/// ```swift
/// let changes = try await phone.changes(since: savedAnchor)
/// savedAnchor = changes.anchor
/// ```
public struct ChangeAnchor: Hashable, Sendable, Codable, LosslessStringConvertible {
    /// The store whose feed this is a position in.
    let store: StoreID
    /// The number of changes the store had committed.
    let position: UInt64

    init(store: StoreID, position: UInt64) {
        self.store = store
        self.position = position
    }

    /// The id of the store this anchor belongs to (32 hexadecimal digits): a key under which
    /// to keep the anchors of several stores one syncs with.
    public var storeIdentifier: String { store.hex }

    /// The anchor as text: `ts1-`, the store's id in 32 hexadecimal digits, `-`, the position.
    public var description: String { "ts1-\(store.hex)-\(position)" }

    /// Reads an anchor from its ``description``; `nil` when `description` is not one.
    public init?(_ description: String) {
        let parts = description.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "ts1", parts[1].utf8.count == 32,
            parts[1].allSatisfy(\.isHexDigit), !parts[2].isEmpty,
            parts[2].allSatisfy({ $0.isASCII && $0.isNumber }), let position = UInt64(parts[2])
        else { return nil }
        var bytes: [UInt8] = []
        var index = parts[1].startIndex
        while index < parts[1].endIndex {
            let next = parts[1].index(index, offsetBy: 2)
            guard let byte = UInt8(parts[1][index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        guard let store = StoreID(bytes: bytes) else { return nil }
        self.init(store: store, position: position)
    }

    /// Decodes an anchor encoded as its ``description``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let anchor = ChangeAnchor(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text.prefix(80))\" is not a change anchor")
        }
        self = anchor
    }

    /// Encodes the anchor as its ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
