import ArgumentParser
import Foundation
import TrendStore
import TrendStoreImport

/// Parsers for the arguments every command shares, run once by swift-argument-parser as
/// each option is read (`@Option(transform:)`): the rest of the tool sees only strong
/// types, never the strings.
enum Arguments {
    /// An IANA zone name.
    static func zone(_ text: String) throws -> TimeZone {
        guard let zone = TimeZone(identifier: text) else {
            throw ValidationError(
                "unknown time zone \"\(text)\" (use an IANA name such as America/Los_Angeles)")
        }
        return zone
    }

    /// An instant: epoch milliseconds or ISO-8601 with an offset, in the years 0001–9999.
    static func instant(_ text: String) throws -> Date {
        guard let date = Timestamp.parse(text) else {
            throw ValidationError(
                "\(text) is not epoch ms or ISO-8601 with an offset in the years 0001 to 9999")
        }
        return date
    }

    /// A local date, `YYYY-MM-DD`, in the years 0001–9999.
    static func date(_ text: String) throws -> LocalDate {
        guard let date = LocalDate(text) else {
            throw ValidationError("\(text) is not a date YYYY-MM-DD in the years 0001 to 9999")
        }
        return date
    }

    /// A weekday: its number (1 = Sunday … 7) or its English name or first three letters.
    static func weekday(_ text: String) throws -> Weekday {
        let lowered = text.lowercased()
        if let number = Int(lowered), let weekday = Weekday(rawValue: number) { return weekday }
        if let weekday = Weekday.allCases.first(where: {
            let name = $0.description.lowercased()
            return name == lowered || (lowered.count == 3 && name.hasPrefix(lowered))
        }) {
            return weekday
        }
        throw ValidationError("\(text) is not a weekday: 1 (Sunday) … 7 (Saturday), or a name")
    }

    /// A series kind: `cumulative` or `discrete`.
    static func kind(_ text: String) throws -> SeriesKind {
        guard let kind = SeriesKind(rawValue: text) else {
            throw ValidationError("\(text) is not a kind: use cumulative or discrete")
        }
        return kind
    }

    /// A source name: NFC, at most 255 UTF-8 bytes (empty: the default source).
    static func source(_ text: String) throws -> String {
        do {
            return try SourceName.validated(text)
        } catch {
            throw ValidationError("\(error)")
        }
    }

    /// A rollup grid: `quarterHour` or `hour`.
    static func grid(_ text: String) throws -> RollupGrid {
        guard let grid = RollupGrid(rawValue: text) else {
            throw ValidationError("\(text) is not a rollup grid: use quarterHour or hour")
        }
        return grid
    }

    /// A statistics interval: a count and `min`, `h`, `d`, `w` or `mo`.
    static func interval(_ text: String) throws -> StatisticsInterval {
        guard let interval = StatisticsInterval(text) else {
            throw ValidationError(
                "\(text) is not an interval: a count and min, h, d, w or mo, such as 15min, 1h, 1d, 1w, 1mo"
            )
        }
        return interval
    }

    /// The figures of a statistics query: a comma-separated list of `sum`, `avg`, `min`,
    /// `max`, `count`, `most-recent`.
    static func statistics(_ text: String) throws -> StatisticsOptions {
        let names: [String: StatisticsOptions] = [
            "sum": .sum, "avg": .average, "average": .average, "min": .minimum,
            "minimum": .minimum, "max": .maximum, "maximum": .maximum, "count": .count,
            "most-recent": .mostRecent,
        ]
        var options: StatisticsOptions = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let option = names[trimmed] else {
                throw ValidationError(
                    "\"\(trimmed)\" is not a statistic: use sum, avg, min, max, count, most-recent")
            }
            options.insert(option)
        }
        return options
    }

    /// A local date (midnight in some zone) or an instant.
    enum DateOrInstant {
        case date(LocalDate)
        case instant(Date)

        /// The instant: a date's first instant in `zone` (proleptic Gregorian, as stored).
        func instant(in zone: TimeZone) -> Date {
            switch self {
            case .instant(let date): return date
            case .date(let date): return date.firstInstant(in: zone)
            }
        }
    }

    /// `YYYY-MM-DD`, or an instant as ``instant(_:)`` reads it.
    static func dateOrInstant(_ text: String) throws -> DateOrInstant {
        if let date = LocalDate(text) { return .date(date) }
        return .instant(try instant(text))
    }
}
