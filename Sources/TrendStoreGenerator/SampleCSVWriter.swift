import Foundation
import TrendStore

/// Writes samples in the importer's CSV format: `series,start_epoch_ms,end_epoch_ms,value,unit`,
/// and `kind` (empty where a series' samples name none) when asked for.
public final class SampleCSVWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    /// The number of samples written.
    public private(set) var count = 0
    /// Whether rows end with the series' kind.
    private let includesKind: Bool

    /// Creates (or truncates) the file at `path` and writes the header, with a `kind`
    /// column when `includesKind`.
    public init(path: String, includesKind: Bool = false) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw OutputFileError(path: path, reason: "cannot be created for writing") }
        self.handle = handle
        self.includesKind = includesKind
        buffer.reserveCapacity(1 << 20)
        buffer.append(
            contentsOf:
                "series,start_epoch_ms,end_epoch_ms,value,unit\(includesKind ? ",kind" : "")\n"
                .utf8)
    }

    /// Appends one series' samples.
    public func write(_ entry: SeriesSamples) throws {
        let series = Self.quoted(entry.series)
        let unit =
            Self.quoted(entry.unit)
            + (includesKind ? Array(",\(entry.kind?.rawValue ?? "")".utf8) : [])
        for sample in entry.samples {
            buffer.append(contentsOf: series)
            buffer.append(0x2C)
            buffer.append(contentsOf: String(sample.startMilliseconds).utf8)
            buffer.append(0x2C)
            buffer.append(contentsOf: String(sample.endMilliseconds).utf8)
            buffer.append(0x2C)
            buffer.append(contentsOf: String(sample.value).utf8)
            buffer.append(0x2C)
            buffer.append(contentsOf: unit)
            buffer.append(0x0A)
            count += 1
            if buffer.count >= 1 << 20 { try flush() }
        }
    }

    /// Writes what is buffered and closes the file.
    public func close() throws {
        try flush()
        try handle.close()
    }

    private func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private static func quoted(_ text: String) -> [UInt8] {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else {
            return Array(text.utf8)
        }
        return Array(("\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"").utf8)
    }
}
