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
        let rest = sources.filter { position[$0] == nil }.sorted(by: defaultOrder)
        return named + rest
    }

    /// Whether `lhs` ranks above `rhs` by the default rule.
    static func defaultOrder(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (group(lhs), group(rhs))
        if left != right { return left < right }
        return lhs.unicodeScalars.lexicographicallyPrecedes(rhs.unicodeScalars)
    }

    /// The default rule's group of `name`: 0 a watch, 1 an iPhone, 2 any other, 3 the
    /// default source.
    private static func group(_ name: String) -> Int {
        if name.isEmpty { return 3 }
        if name.contains("Watch") { return 0 }
        if name.contains("iPhone") { return 1 }
        return 2
    }
}
