import Synchronization

/// The sources of the series read lately, each kept with the committed snapshot it was read
/// in: a widget asking for a merged figure again reads a series' sources and priority order
/// from here until the next commit, of any process, gives read transactions a new snapshot.
final class SourceStreamsCache: Sendable {
    private struct Entry {
        let snapshot: Int
        let record: SeriesRecord
        let streams: [SourceStream]
    }

    private let entries = Mutex<[UInt32: Entry]>([:])

    /// How many series' sources are kept; past it, every entry is dropped.
    static let seriesLimit = 64

    /// The streams of `record` read in `snapshot`, if kept.
    func streams(of record: SeriesRecord, snapshot: Int) -> [SourceStream]? {
        entries.withLock { entries in
            guard let entry = entries[record.id], entry.snapshot == snapshot,
                entry.record == record
            else { return nil }
            return entry.streams
        }
    }

    /// Keeps `streams`, the sources of `record` as `snapshot` holds them.
    func keep(_ streams: [SourceStream], of record: SeriesRecord, snapshot: Int) {
        entries.withLock { entries in
            if entries.count >= Self.seriesLimit, entries[record.id] == nil {
                entries.removeAll(keepingCapacity: true)
            }
            entries[record.id] = Entry(snapshot: snapshot, record: record, streams: streams)
        }
    }
}
