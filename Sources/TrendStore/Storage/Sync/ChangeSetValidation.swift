/// Checks a change set before it is applied, so a set built by hand or decoded from bytes
/// that are well formed but wrong is refused whole, with a reason, before anything changes.
enum ChangeSetValidation {
    /// - Throws: ``StoreError/Code/damagedChangeSet`` naming the first problem.
    static func check(_ changes: ChangeSet) throws(StoreError) {
        for declaration in changes.declarations {
            try name(declaration.series, "declaration")
            guard declaration.unit.utf8.count <= 255 else {
                throw .damagedChangeSet(
                    reason: "series \(declaration.series): a unit longer than 255 bytes")
            }
        }
        for written in changes.written {
            try name(written.series, "written samples")
            try source(written.source, of: written.series)
            guard written.samples.count == written.versions.count else {
                throw .damagedChangeSet(
                    reason:
                        "series \(written.series): \(written.samples.count) samples, \(written.versions.count) versions"
                )
            }
            guard written.ids.isEmpty || written.ids.count == written.samples.count else {
                throw .damagedChangeSet(
                    reason:
                        "series \(written.series): \(written.samples.count) samples, \(written.ids.count) ids"
                )
            }
            var previous: Sample?
            for (index, sample) in written.samples.enumerated() {
                if let violation = SampleRules.violation(of: sample) {
                    throw .damagedChangeSet(
                        reason: "series \(written.series): sample \(index): \(violation)")
                }
                if let previous,
                    (previous.startMilliseconds, previous.endMilliseconds)
                        >= (sample.startMilliseconds, sample.endMilliseconds)
                {
                    throw .damagedChangeSet(
                        reason: "series \(written.series): sample \(index) out of order")
                }
                previous = sample
            }
        }
        for deletion in changes.deletions {
            try name(deletion.series, "deletion")
            if let name = deletion.source { try source(name, of: deletion.series) }
        }
        for change in changes.priorities {
            try name(change.series, "priority order")
            for name in change.order { try source(name, of: change.series) }
            guard Set(change.order).count == change.order.count else {
                throw .damagedChangeSet(
                    reason: "series \(change.series): a source named twice in its priority order")
            }
        }
    }

    private static func name(_ series: String, _ what: String) throws(StoreError) {
        guard (try? SeriesName.validated(series)) == series else {
            throw .damagedChangeSet(reason: "\(what): invalid series name \"\(series.prefix(40))\"")
        }
    }

    private static func source(_ name: String, of series: String) throws(StoreError) {
        guard (try? SourceName.validated(name)) == name else {
            throw .damagedChangeSet(
                reason: "series \(series): invalid source name \"\(name.prefix(40))\"")
        }
    }
}

extension ChangeSet {
    /// The newest version the set carries.
    var newestVersion: ChangeVersion? {
        [
            written.lazy.compactMap { $0.versions.max() }.max(), deletions.map(\.version).max(),
            priorities.map(\.version).max(),
        ].compactMap { $0 }.max()
    }
}
