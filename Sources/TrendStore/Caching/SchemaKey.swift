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
        key(
            WeekdayAverageCache.self, subject: series, zone: zone,
            variant: WeekdayAverageCache.variant(weekday))
    }

    /// The v2 today cache of `series`, computed in `zone`.
    public static func today(_ series: String, zone: TimeZone) -> String {
        key(TodayCache.self, subject: series, zone: zone)
    }

    /// The v2 heatmap bucket of a set of series, for dates in `zone`.
    public static func heatmap(_ series: some Sequence<String>, zone: TimeZone) -> String {
        key(HeatmapCache.self, subject: Heatmap.bucketKey(for: series), zone: zone)
    }

    /// The key of the figures of the kind `figures` for `subject` (a series, in NFC here, or
    /// a heatmap bucket), computed in `zone`: `v2/<name>/<subject>/<zone>[/<variant>]`.
    static func key<Figures: CachedFigures>(
        _ figures: Figures.Type, subject: String, zone: TimeZone, variant: String? = nil
    ) -> String {
        let subject = Figures.subjectIsSeries ? SeriesName.normalized(subject) : subject
        var key = "v2/\(Figures.name)/\(part(subject))/\(part(zone.identifier))"
        if let variant {
            key += "/"
            key += part(variant)
        }
        return key
    }

    /// The prefix of the heatmap buckets' keys.
    static let heatmapPrefix = "v2/\(HeatmapCache.name)/"

    /// What a v2 key names, read back from the key.
    struct Parsed {
        /// The kind of figures its payload holds.
        let figures: any CachedFigures.Type
        /// The series, or for a heatmap the bucket (``Heatmap/bucketKey(for:)``).
        let subject: String
        let zoneIdentifier: String
        /// The part after the zone (a weekday average's weekday), or `nil`.
        let variant: String?
    }

    /// The parts of a v2 key, or `nil` for a v1 key or one this version does not write.
    static func parse(_ key: String) -> Parsed? {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false).map {
            unescaped($0)
        }
        guard parts.count == 4 || parts.count == 5, parts[0] == "v2",
            let figures = CachedKinds.named(parts[1])
        else { return nil }
        let variant = parts.count == 5 ? parts[4] : nil
        guard figures.accepts(variant: variant) else { return nil }
        return Parsed(
            figures: figures, subject: parts[2], zoneIdentifier: parts[3], variant: variant)
    }

    /// The prefixes under which every cached payload of `series` lies, one per kind whose
    /// subject is a series (the v1 key is exact).
    static func prefixes(of series: String) -> [String] {
        let subject = part(SeriesName.normalized(series))
        return CachedKinds.all.filter { $0.subjectIsSeries }.map { "v2/\($0.name)/\(subject)/" }
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
