/// The file formats the importer reads.
public enum ImportFormat: String, CaseIterable, Sendable, Codable {
    /// Decide from the file's first bytes (and its name when they do not tell).
    case auto
    /// CSV with a header naming `series`, `start`, `end`, `value` (and optionally `unit`).
    case csv
    /// One JSON object per line with the same fields as the CSV.
    case ndjson
    /// Apple Health's `export.xml`, or the `export.zip` holding it.
    case appleHealth = "apple-health"
    /// Strava's bulk-export `activities.csv`.
    case stravaCSV = "strava-csv"
    /// A JSON list of Strava API activities.
    case stravaJSON = "strava-json"
    /// The Health Trends and ActivityCache JSON cache files.
    case legacy
}

/// Tells a file's format from its content, never trusting its extension alone.
enum FormatDetector {
    /// Whether `bytes` hold a NUL outside double quotes: binary data. A CSV field may hold a
    /// NUL inside quotes (a series name may, and the exporter quotes it).
    private static func holdsUnquotedNUL(_ bytes: ArraySlice<UInt8>) -> Bool {
        var inQuotes = false
        for byte in bytes {
            if byte == 0x22 { inQuotes.toggle() } else if byte == 0 && !inQuotes { return true }
        }
        return false
    }

    static func detect(_ stream: ByteStream) throws(ImportError) -> ImportFormat {
        var head = try stream.peek(64 << 10)
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
        guard
            let first = head.firstIndex(where: {
                !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D)
            })
        else {
            throw ImportError(file: stream.path, reason: "the file is empty")
        }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .appleHealth }
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
            throw ImportError(file: stream.path, reason: "UTF-16 text: save the file as UTF-8")
        }
        if holdsUnquotedNUL(head.prefix(8192)) || head.starts(with: [0x1F, 0x8B]) {
            throw ImportError(
                file: stream.path, reason: "binary data, not a text file this importer reads")
        }
        let text = String(decoding: head, as: UTF8.self)
        switch head[first] {
        case UInt8(ascii: "<"):
            if text.contains("<HealthData") { return .appleHealth }
            throw ImportError(
                file: stream.path,
                reason: "XML without a <HealthData> root: not an Apple Health export")
        case UInt8(ascii: "["):
            return .stravaJSON
        case UInt8(ascii: "{"):
            if text.contains("\"buckets\"") || text.contains("\"weekdayData\"")
                || text.contains("\"averageHourlyPattern\"")
                || text.contains("\"todayHourlyData\"")
            {
                return .legacy
            }
            return .ndjson
        default:
            let header = text.prefix { $0 != "\n" && $0 != "\r\n" }.lowercased()
            if header.contains("activity id") || header.contains("activity_id")
                || header.contains("activity type")
            {
                return .stravaCSV
            }
            if header.contains("series") && header.contains("start") {
                return .csv
            }
            throw ImportError(
                file: stream.path, line: 1,
                reason:
                    "not a format this importer knows (a CSV needs a header naming series, start, end and value)"
            )
        }
    }
}
