import Foundation
import TrendStore

/// Parses instants written as epoch milliseconds or as ISO-8601 local time with a UTC offset.
///
/// Accepted forms: `1700000000123`; `2026-03-08T01:59:00Z`, with `.fff` fractions
/// (floored to the millisecond) and offsets `±HH:MM`, `±HHMM` or `±HH`; Apple Health's
/// `2019-03-10 01:59:00 -0800`; and old iOS exports' compact `20151107171924+0100`.
/// A local time without an offset is rejected: it names no instant.
enum TimestampParser {
    /// Why a timestamp was rejected, for error messages.
    static let expectation =
        "expected epoch milliseconds or ISO-8601 with a UTC offset (2026-03-08T01:59:00-08:00)"

    static func milliseconds(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        // Fast path: plain epoch milliseconds, up to 18 digits (never 14: that is a compact date).
        if bytes.count <= 18 && bytes.count != 14, let value = Digits.value(of: bytes) {
            return value
        }
        // Fourteen digits are a compact date; a sign makes them a (negative) epoch instant.
        if bytes.allSatisfy({ $0 &- 48 < 10 || $0 == UInt8(ascii: "-") })
            && (bytes.count != 14 || bytes[0] == UInt8(ascii: "-"))
        {
            if let value = NumberParser.integer(bytes),
                bytes.firstIndex(of: UInt8(ascii: "-")).map({ $0 == 0 }) ?? true
            {
                return value
            }
        }
        var cursor = Cursor(bytes: bytes)
        guard let year = cursor.digits(4) else { return nil }
        let compact = !cursor.skip("-")
        guard let month = cursor.digits(2), compact || cursor.skip("-"), let day = cursor.digits(2)
        else { return nil }
        guard compact || cursor.skip("T") || cursor.skip(" ") || cursor.skip("t") else {
            return nil
        }
        guard let hour = cursor.digits(2), compact || cursor.skip(":"),
            let minute = cursor.digits(2)
        else { return nil }
        var second: Int64 = 0
        var millisecond: Int64 = 0
        if compact || cursor.skip(":") {
            guard let parsed = cursor.digits(2) else { return nil }
            second = parsed
            if cursor.skip(".") || cursor.skip(",") {
                var scale: Int64 = 100
                guard let first = cursor.digit() else { return nil }
                millisecond = first * scale
                while let digit = cursor.digit() {
                    scale /= 10
                    millisecond += digit * scale
                }
            }
        }
        while cursor.skip(" ") {}
        let offsetMinutes: Int64
        if cursor.skip("Z") || cursor.skip("z") {
            offsetMinutes = 0
        } else if let sign = cursor.sign() {
            guard let hours = cursor.digits(2) else { return nil }
            var minutes: Int64 = 0
            if cursor.skip(":") {
                guard let parsed = cursor.digits(2) else { return nil }
                minutes = parsed
            } else if let parsed = cursor.digits(2) {
                minutes = parsed
            }
            guard hours <= 18, minutes < 60 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
        } else {
            return nil
        }
        guard cursor.atEnd, hour < 24, minute < 60, second < 61,
            let date = LocalDate(year: Int(year), month: Int(month), day: Int(day))
        else { return nil }
        let wall =
            ((date.dayNumber * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        return wall - offsetMinutes * 60_000
    }

    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int64? {
            guard index < bytes.count, bytes[index] &- 48 < 10 else { return nil }
            defer { index += 1 }
            return Int64(bytes[index] &- 48)
        }

        mutating func digits(_ count: Int) -> Int64? {
            var value: Int64 = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func sign() -> Int64? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}

/// Parses the timestamps the importer accepts, for callers outside the importer.
public enum Timestamp {
    /// The instant written as epoch milliseconds or ISO-8601 with a UTC offset, or `nil`
    /// when it is neither or lies outside ``SampleRules/instantRange`` (years 0001–9999).
    public static func parse(_ text: String) -> Date? {
        guard let milliseconds = Array(text.utf8).withUnsafeBytes(TimestampParser.milliseconds),
            SampleRules.instantRange.contains(milliseconds)
        else { return nil }
        return Date(milliseconds: milliseconds)
    }
}
