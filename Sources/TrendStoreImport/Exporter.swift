import Foundation
import TrendStore

/// The formats ``Exporter`` writes: the importer's CSV and NDJSON.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// `series,start,end,value,unit,kind,source,priority`, times in epoch milliseconds; the
    /// source empty for the default source; the priority the rank of the row's source in
    /// its series' priority order (1 first), empty when the order names it not.
    case csv
    /// One `{"series", "start", "end", "value", "unit", "kind"}` object per line, with
    /// `"source"` for a sample of a source other than the default and `"priority"` for one
    /// whose source the series' priority order names (its rank, 1 first).
    case ndjson
}

/// Writes a store's samples in the importer's own formats, with their sources and the
/// ranks the series' priority orders give them, so that importing an export into a fresh
/// store gives the same samples, sources and orders, bit for bit, and so the same figures.
/// (An order's names of sources that hold no sample change no figure and are not written.)
///
/// Values are written as the shortest decimal that reads back to the same double (`-0.0`
/// included), times as epoch milliseconds. Samples are read one stored block at a time from
/// one snapshot (``StoreSnapshot/forEachSampleBatch(of:from:to:source:_:)``), so memory stays flat
/// for any store and the export is never torn by a concurrent write.
///
/// ```swift
/// let count = try await Exporter(store: store).export(
///     series: ["activeEnergy"], from: .distantPast, to: .distantFuture, format: .csv,
///     to: FileHandle.standardOutput)
/// ```
public struct Exporter: Sendable {
    /// The store read from.
    public let store: TrendStore

    /// Creates an exporter reading `store`.
    public init(store: TrendStore) { self.store = store }

    /// Writes the samples of `series` starting in `[from, to)` to `output`; returns how many.
    ///
    /// Everything is read in one snapshot of the store (one read transaction), so the export
    /// is a state the store was in, whatever other processes commit meanwhile. While it runs,
    /// the pages that snapshot sees are not reused, so a long export beside heavy writes lets
    /// the data file grow until it ends.
    ///
    /// - Throws: ``StoreError/Code/unknownSeries`` for a series the store does not hold,
    ///   or the error of writing to `output`.
    @discardableResult
    public func export(
        series: [String], from: Date, to: Date, format: ExportFormat, to output: FileHandle
    ) async throws -> Int {
        try store.read { snapshot in
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 20)
            if format == .csv {
                buffer += Array("series,start,end,value,unit,kind,source,priority\n".utf8)
            }
            var count = 0
            for name in series {
                // An unknown series is named here, with the closest names, as by every query.
                let order = try snapshot.sourcePriority(of: name)
                for source in try snapshot.sources(of: name) {
                    let rank = order.firstIndex(of: source.name).map { $0 + 1 }
                    let fields = Fields(
                        series: Self.quoted(SeriesName.normalized(name), for: format),
                        unit: Self.quoted(try snapshot.unit(of: name) ?? "", for: format),
                        kind: (try snapshot.kind(of: name) ?? .cumulative).rawValue,
                        source: source.name.isEmpty ? "" : Self.quoted(source.name, for: format),
                        priority: rank.map(String.init) ?? "")
                    try snapshot.forEachSampleBatch(
                        of: name, from: from, to: to, source: source.name
                    ) { samples in
                        for sample in samples {
                            Self.append(sample, fields: fields, format: format, to: &buffer)
                        }
                        count += samples.count
                        if buffer.count >= 1 << 20 {
                            try output.write(contentsOf: buffer)
                            buffer.removeAll(keepingCapacity: true)
                        }
                    }
                }
            }
            try output.write(contentsOf: buffer)
            return count
        }
    }

    /// The fields every sample of one source of one series shares, quoted for the format.
    private struct Fields {
        let series: String, unit: String, kind: String
        /// Empty for the default source.
        let source: String
        /// The source's rank in the series' priority order; empty when it names it not.
        let priority: String
    }

    private static func append(
        _ sample: Sample, fields: Fields, format: ExportFormat, to buffer: inout [UInt8]
    ) {
        // Swift's description of a Double is the shortest decimal that reads back to it.
        let value = "\(sample.value)"
        switch format {
        case .csv:
            buffer += Array(
                "\(fields.series),\(sample.startMilliseconds),\(sample.endMilliseconds),\(value),\(fields.unit),\(fields.kind),\(fields.source),\(fields.priority)\n"
                    .utf8)
        case .ndjson:
            buffer += Array(
                "{\"series\":\(fields.series),\"start\":\(sample.startMilliseconds),\"end\":\(sample.endMilliseconds),\"value\":\(value),\"unit\":\(fields.unit),\"kind\":\"\(fields.kind)\"\(fields.source.isEmpty ? "" : ",\"source\":\(fields.source)")\(fields.priority.isEmpty ? "" : ",\"priority\":\(fields.priority)")}\n"
                    .utf8)
        }
    }

    /// A CSV field (quoted when it holds a comma, quote, line break or NUL) or a JSON string.
    private static func quoted(_ text: String, for format: ExportFormat) -> String {
        switch format {
        case .csv:
            // Bytes, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
            guard text.utf8.contains(where: { [0x2C, 0x22, 0x0A, 0x0D, 0x00].contains($0) })
            else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        case .ndjson:
            let data = (try? JSONSerialization.data(withJSONObject: [text], options: [])) ?? Data()
            // `["text"]` → `"text"`: JSONSerialization escapes exactly as JSON requires.
            return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        }
    }
}
