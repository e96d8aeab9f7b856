import Synchronization

/// The blinded key parts an encrypted store computed lately: names are few and asked for
/// again and again, and a keyed hash costs more than a lookup. At most ``capacity`` parts.
final class BlindedParts: Sendable {
    private let parts = Mutex([[UInt8]: [UInt8]]())
    /// The most parts kept; when full, all are dropped.
    let capacity: Int

    init(capacity: Int = 4_096) { self.capacity = capacity }

    /// Forgets every part: the blinding key changed.
    func removeAll() {
        parts.withLock { $0.removeAll() }
    }

    /// The blinded form of `part`, from `blind` the first time.
    func blinded(_ part: [UInt8], _ blind: ([UInt8]) -> [UInt8]) -> [UInt8] {
        if let blinded = parts.withLock({ $0[part] }) { return blinded }
        let blinded = blind(part)
        parts.withLock { parts in
            if parts.count >= capacity { parts.removeAll(keepingCapacity: true) }
            parts[part] = blinded
        }
        return blinded
    }
}
