import Foundation
import TrendStore

/// JSON output: sorted keys, ISO-8601 dates.
enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(timestamp(date))
        }
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// One value as compact JSON on one line (sorted keys).
    static func encodeLine(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// `2026-11-22T10:15:00.000Z`, in the proleptic Gregorian calendar the store uses for
    /// every year (Foundation's formatters are Julian before 1582-10-15).
    static func timestamp(_ date: Date) -> String {
        Timestamps.text(date, in: TimeZone(identifier: "UTC")!, milliseconds: true)
    }
}

/// ISO-8601 text of instants, in the proleptic Gregorian calendar.
enum Timestamps {
    /// `date` as local time in `zone` with its offset (`Z` where it is 0): `2026-11-22T02:15:00-08:00`,
    /// with `.000` milliseconds when `milliseconds`.
    static func text(_ date: Date, in zone: TimeZone, milliseconds: Bool = false) -> String {
        let offsetSeconds = zone.secondsFromGMT(for: date)
        let local = date.millisecondsSince1970 + Int64(offsetSeconds) * 1000
        let day = LocalDate(
            dayNumber: local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000)
        let time = local - day.dayNumber * 86_400_000
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text =
            "\(day)T\(two(time / 3_600_000)):\(two(time / 60_000 % 60)):\(two(time / 1000 % 60))"
        if milliseconds { text += String(format: ".%03lld", time % 1000) }
        if offsetSeconds == 0 { return text + "Z" }
        let sign = offsetSeconds < 0 ? "-" : "+"
        let minutes = Int64(abs(offsetSeconds) / 60)
        return text + "\(sign)\(two(minutes / 60)):\(two(minutes % 60))"
    }
}

/// Text for a terminal: what stores and files hold (series names, units, cache keys) may hold
/// control characters that would move the cursor or clear the screen.
enum Terminal {
    /// `text` with every control character (C0, DEL, C1) written as a Swift escape: `\u{1B}`.
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}

/// Plain-text tables with aligned columns; cells are made ``Terminal/safe(_:)``.
enum Table {
    static func render(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        let rows = rows.map { $0.map(Terminal.safe) }
        let widths = header.indices.map { column in
            ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}

/// Standard output written in blocks of 64 KiB, for output that is streamed as it is computed.
struct BufferedOutput {
    private var pending: [UInt8] = []

    /// Appends `text`, writing the block out when it is full.
    mutating func write(_ text: String) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= 1 << 16 { flush() }
    }

    /// Writes out what is pending.
    mutating func flush() {
        FileHandle.standardOutput.write(Data(pending))
        pending.removeAll(keepingCapacity: true)
    }
}
