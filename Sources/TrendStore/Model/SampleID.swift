import Foundation

/// The id another system gives a sample — HealthKit's `UUID` of an `HKSample`, a server's
/// record id — kept beside the sample so that a deletion naming only the id
/// (`HKDeletedObject`) can be applied: ``TrendStore/deleteSamples(withIDs:from:)``.
///
/// An id is 1 to 64 opaque bytes: 16 for a `UUID` (`SampleID(uuid)`), the UTF-8 of a
/// string id (`try SampleID("record-42")`). Ids are compared byte for byte.
public struct SampleID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The id's bytes.
    public let bytes: [UInt8]

    /// The most bytes an id holds.
    public static let maximumByteCount = 64

    /// The id of a `UUID`: its 16 bytes.
    public init(_ uuid: UUID) {
        bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    /// The id whose bytes are the UTF-8 of `text`.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` (``StoreError/Argument/sampleID``)
    ///   when `text` is empty or longer than 64 UTF-8 bytes.
    public init(_ text: String) throws {
        try self.init(bytes: Array(text.utf8))
    }

    /// The id `bytes`.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` (``StoreError/Argument/sampleID``)
    ///   when there are none or more than 64.
    public init(bytes: [UInt8]) throws {
        guard let id = SampleID(checking: bytes) else {
            throw StoreError.invalidArgument(
                .sampleID, reason: "a sample id holds 1 to 64 bytes, not \(bytes.count)")
        }
        self = id
    }

    /// The id `bytes`, or `nil` when they are not 1 to 64.
    init?(checking bytes: [UInt8]) {
        guard (1...Self.maximumByteCount).contains(bytes.count) else { return nil }
        self.bytes = bytes
    }

    /// The `UUID` whose 16 bytes this id is; `nil` for an id of another length.
    public var uuid: UUID? {
        guard bytes.count == 16 else { return nil }
        var value = UUID().uuid
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes) }
        return UUID(uuid: value)
    }

    /// The id as text: a `UUID`'s string for 16 bytes, else the bytes in hexadecimal.
    public var description: String {
        uuid?.uuidString ?? bytes.hexDigits
    }

    /// Decodes an id encoded as its bytes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let bytes = try container.decode([UInt8].self)
        guard let id = SampleID(checking: bytes) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a sample id holds 1 to 64 bytes")
        }
        self = id
    }

    /// Encodes the id as its bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bytes)
    }
}
