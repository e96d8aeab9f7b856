/// The order in which a series' sources count where their samples overlap, highest first.
///
/// A series' order names the sources it ranks, in order; it may name sources not written
/// yet. Sources it leaves out rank below those it names, in Health's default order: first
/// every source whose name contains `Watch` (an Apple Watch), then every one whose name
/// contains `iPhone`, then the others; within each group by name (Unicode scalar order),
/// and the default source (no name) last of all. Before any order is set, every source is
/// ranked this way.
public enum SourcePriority {
    /// `sources` (distinct, normalised names) ranked by `order`, then by the default rule.
    public static func ranked(_ sources: [String], order: [String]) -> [String] {
        var position: [String: Int] = [:]
        for (index, name) in order.enumerated() where position[name] == nil {
            position[name] = index
        }
        let named = sources.filter { position[$0] != nil }
            .sorted { position[$0, default: 0] < position[$1, default: 0] }
        let rest = sources.filter { position[$0] == nil }.map { (group: group($0), name: $0) }
            .sorted {
                $0.group != $1.group
                    ? $0.group < $1.group
                    : $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars)
            }
        return named + rest.map(\.name)
    }

    /// The default rule's group of `name`: 0 a watch, 1 an iPhone, 2 any other, 3 the
    /// default source.
    private static func group(_ name: String) -> Int {
        if name.isEmpty { return 3 }
        if contains(name, watch) { return 0 }
        if contains(name, iPhone) { return 1 }
        return 2
    }

    private static let watch = Array("Watch".utf8)
    private static let iPhone = Array("iPhone".utf8)

    /// Whether `name`'s UTF-8 bytes hold `word` (no locale, no allocation).
    private static func contains(_ name: String, _ word: [UInt8]) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count >= word.count else { return false }
        return (0...(bytes.count - word.count)).contains { start in
            bytes[start..<start + word.count].elementsEqual(word)
        }
    }
}
