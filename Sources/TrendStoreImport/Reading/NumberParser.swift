import Foundation

/// Parses numbers and timestamps from ASCII bytes without making strings.
enum NumberParser {
    /// An optionally signed decimal integer, or `nil`.
    static func integer(_ bytes: UnsafeRawBufferPointer) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- 48
            guard digit < 10 else { return nil }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = shifted.addingReportingOverflow(Int64(digit))
            guard !overflow1 && !overflow2 else { return nil }
            value = added
            index += 1
        }
        return negative ? -value : value
    }

    /// Why `bytes`, which ``double(_:)`` refused, is no value: `is not a finite number` for
    /// NaN and numbers out of Double's range, `is not a number` for other text.
    static func problem(_ bytes: UnsafeRawBufferPointer) -> String {
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return Double(text) == nil ? "is not a number" : "is not a finite number"
    }

    /// A decimal number, exactly as `strtod` would round it, or `nil`.
    ///
    /// Plain decimals with at most 15 significant digits take a fast exact path
    /// (an integer divided by a power of ten is correctly rounded); anything else goes
    /// through `strtod`. `nan`, `inf` and hex floats are rejected.
    static func double(_ bytes: UnsafeRawBufferPointer) -> Double? {
        guard !bytes.isEmpty, bytes.count < 64 else { return nil }
        var index = 0
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        var mantissa: Int64 = 0
        var significantDigits = 0
        var fractionDigits = 0
        var sawDigit = false
        var seenPoint = false
        var simple = true
        scan: while index < bytes.count {
            let byte = bytes[index]
            let digit = byte &- 48
            if digit < 10 {
                sawDigit = true
                if mantissa == 0 && digit == 0 {
                    if seenPoint { fractionDigits += 1 }
                } else if significantDigits < 15 {
                    mantissa = mantissa * 10 + Int64(digit)
                    significantDigits += 1
                    if seenPoint { fractionDigits += 1 }
                } else {
                    simple = false
                }
            } else if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                simple = false
                break scan
            } else {
                return nil
            }
            index += 1
        }
        guard sawDigit else { return nil }
        if simple && fractionDigits <= 22 {
            let value = Double(mantissa) / powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        return viaStrtod(bytes)
    }

    /// Exponents and long mantissas: the C library, on a NUL-terminated copy.
    private static func viaStrtod(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var text = [CChar](repeating: 0, count: bytes.count + 1)
        for (offset, byte) in bytes.enumerated() {
            guard
                byte &- 48 < 10 || byte == 0x2E || byte == 0x2B || byte == 0x2D || byte == 0x65
                    || byte == 0x45
            else {
                return nil
            }
            text[offset] = CChar(bitPattern: byte)
        }
        return text.withUnsafeMutableBufferPointer { buffer -> Double? in
            var endPointer: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &endPointer)
            guard let endPointer, endPointer - buffer.baseAddress! == bytes.count, value.isFinite
            else { return nil }
            return value
        }
    }

    /// 10^0 … 10^22, every one exact in a Double; a literal, so no lazy initialization.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
