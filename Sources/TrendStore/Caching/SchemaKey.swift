import Foundation

/// Keys of the `aggregates` database. Each carries the schema version its payload was
/// written with and, for figures of local days, the time zone they were computed for, so a
/// figure computed for one zone is never served for another.
///
/// | key | payload |
/// |---|---|
/// | `v1/average/<series>` | one average pattern for all days (the old format, migrated away) |
/// | `v2/weekday-average/<series>/<zone>/<W>` | the weekday average of weekday W (1 = Sunday … 7) |
/// | `v2/today/<series>/<zone>` | today's curve, latest sample and move goal |
/// | `v2/heatmap/<bucket>/<zone>` | a heatmap bucket: days of a set of series (bucket = ``Heatmap/bucketKey(for:)``: names sorted, `%` and `,` escaped, joined by `,`) |
///
/// Series names are in NFC. Within the series, bucket and zone parts, `%` is written
/// `%25` and `/` is written `%2F`, so a key splits on `/` without ambiguity and the keys
/// of one series share a prefix no other series has.
public enum SchemaKey: Sendable {
    /// The schema version new payloads are written with.
    public static let currentVersion = 2

    /// The v1 all-days average of `series`.
    public static func v1Average(_ series: String) -> String {
        "v1/average/\(SeriesName.normalized(series))"
    }

    /// The v2 weekday average of `series` for `weekday`, computed in `zone`.
    public static func weekdayAverage(_ series: String, weekday: Weekday, zone: TimeZone)
        -> String
    {
        "\(weekdayAveragePrefix(series))\(part(zone.identifier))/\(weekday.rawValue)"
    }

    /// The v2 today cache of `series`, computed in `zone`.
    public static func today(_ series: String, zone: TimeZone) -> String {
        "\(todayPrefix(series))\(part(zone.identifier))"
    }

    /// The v2 heatmap bucket of a set of series, for dates in `zone`.
    public static func heatmap(_ series: some Sequence<String>, zone: TimeZone) -> String {
        "\(heatmapPrefix)\(part(Heatmap.bucketKey(for: series)))/\(part(zone.identifier))"
    }

    static let heatmapPrefix = "v2/heatmap/"

    /// What a v2 key names, read back from the key.
    struct Parsed: Equatable {
        enum Kind: Equatable {
            case weekdayAverage(weekday: Weekday)
            case today
            case heatmap
        }
        let kind: Kind
        /// The series, or for a heatmap the bucket (``Heatmap/bucketKey(for:)``).
        let subject: String
        let zoneIdentifier: String
    }

    /// The parts of a v2 key, or `nil` for a v1 key or one this version does not write.
    static func parse(_ key: String) -> Parsed? {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false).map {
            unescaped($0)
        }
        guard parts.count >= 4, parts[0] == "v2" else { return nil }
        switch (parts[1], parts.count) {
        case ("weekday-average", 5):
            guard let weekday = Int(parts[4]).flatMap(Weekday.init(rawValue:)) else { return nil }
            return Parsed(
                kind: .weekdayAverage(weekday: weekday), subject: parts[2],
                zoneIdentifier: parts[3])
        case ("today", 4):
            return Parsed(kind: .today, subject: parts[2], zoneIdentifier: parts[3])
        case ("heatmap", 4):
            return Parsed(kind: .heatmap, subject: parts[2], zoneIdentifier: parts[3])
        default:
            return nil
        }
    }

    /// The prefixes under which every cached payload of `series` lies (the v1 key is exact).
    static func prefixes(of series: String) -> [String] {
        [weekdayAveragePrefix(series), todayPrefix(series)]
    }

    static func weekdayAveragePrefix(_ series: String) -> String {
        "v2/weekday-average/\(part(SeriesName.normalized(series)))/"
    }

    private static func todayPrefix(_ series: String) -> String {
        "v2/today/\(part(SeriesName.normalized(series)))/"
    }

    /// `text` with `%` and `/` escaped, so it is one part of a key.
    static func part(_ text: String) -> String {
        // Bytes, not Characters or Foundation: a widget builds a key on every cached read.
        guard text.utf8.contains(where: { $0 == 0x25 || $0 == 0x2F }) else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case 0x25: escaped += [0x25, 0x32, 0x35]  // %25
            case 0x2F: escaped += [0x25, 0x32, 0x46]  // %2F
            default: escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private static func unescaped(_ part: Substring) -> String {
        guard part.contains("%") else { return String(part) }
        return part.replacingOccurrences(of: "%2F", with: "/").replacingOccurrences(
            of: "%25", with: "%")
    }
}
