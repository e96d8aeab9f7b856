import TrendStore

/// The priority orders a file's `priority` ranks declare (``ImportSummary/priorityOrders``).
extension Importer {
    /// Sets each order of `summary` that differs from its series' own, after every record
    /// was written: one priority change per series (its rows rebuilt once), none for an
    /// order the store already has.
    func setPriorityOrders(of summary: ImportSummary) async throws {
        for (series, order) in summary.priorityOrders.sorted(by: { $0.key < $1.key }) {
            guard try store.sourcePriority(of: series) != order else { continue }
            try await store.setSourcePriority(order, for: series)
        }
    }
}
