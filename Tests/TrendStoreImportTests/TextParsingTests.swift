import Foundation
import Testing
import TestSupport
import TrendStoreGenerator
@testable import TrendStoreImport

@Suite("Timestamps and numbers")
struct TextParsingTests {
    @Test(
        "timestamp forms agree with Foundation",
        arguments: [
            ("2026-03-08T01:59:00-08:00", "2026-03-08T09:59:00Z"),
            ("2026-03-08T01:59:00.999-0800", "2026-03-08T09:59:00.999Z"),
            ("2019-03-10 01:59:00 -0800", "2019-03-10T09:59:00Z"),
            ("20151107171924+0100", "2015-11-07T16:19:24Z"),
            ("2026-03-08T10:13:30.2509Z", "2026-03-08T10:13:30.250Z"),
            ("2024-02-29T23:59:59+05:45", "2024-02-29T18:14:59Z"),
            ("1772956680000", "2026-03-08T07:58:00Z"),
        ])
    func timestampForms(text: String, utc: String) throws {
        #expect(
            Timestamp.parse(text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
                == foundationMilliseconds(utc))
    }

    @Test(
        "timestamps without an offset, or impossible ones, are rejected",
        arguments: [
            "2026-03-08T01:59:00", "2026-02-30T00:00:00Z", "2026-03-08T24:00:00Z", "yesterday", "",
            "12:00", "2026-03-08T01:59:00+25:00",
        ])
    func rejectsTimestamps(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }
}

@Suite("Digit runs")
struct DigitRunTests {
    @Test("1 to 18 digits read eight at a time equal Int64(String); any non-digit is refused")
    func matchesInt64() {
        var generator = SampleGenerator(seed: 11)
        for _ in 0..<20_000 {
            let count = Int(generator.integer(in: 1...18))
            var text = (0..<count).map { _ in UInt8(48 + generator.integer(in: 0...9)) }
            let expected = Int64(String(decoding: text, as: UTF8.self))
            text.withUnsafeBytes { #expect(Digits.value(of: $0) == expected) }
            // One byte anywhere made a non-digit: just below '0', just above '9', or any.
            let position = Int(generator.integer(in: 0...Int64(count - 1)))
            let nonDigits: [UInt8] = [47, 58, 0x2C, 0xFF, 0x30 + 0x80]
            text[position] = nonDigits[Int(generator.integer(in: 0...4))]
            text.withUnsafeBytes { #expect(Digits.value(of: $0) == nil, "\(text)") }
        }
        for empty in [[UInt8](), [UInt8](repeating: 0x31, count: 19)] {
            empty.withUnsafeBytes { #expect(Digits.value(of: $0) == nil) }
        }
    }
}

@Suite("Byte search")
struct ByteSearchTests {
    @Test("eight bytes at a time finds the first of one or three bytes, as a plain scan does")
    func matchesPlainScan() {
        var generator = SampleGenerator(seed: 12)
        for _ in 0..<5_000 {
            let count = Int(generator.integer(in: 1...40))
            // Few distinct bytes, so matches, near misses (±1) and high bytes all occur.
            let alphabet: [UInt8] = [0x21, 0x22, 0x23, 0x27, 0x3D, 0x3E, 0x3F, 0x80, 0xA2, 0xFF]
            let bytes = (0..<count).map { _ in alphabet[Int(generator.integer(in: 0...9))] }
            let from = Int(generator.integer(in: 0...Int64(count)))
            bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                let three = ByteSearch.first(
                    of: 0x3E, 0x22, 0x27, in: base, from: from, to: count)
                #expect(three == bytes[from...].firstIndex { [0x3E, 0x22, 0x27].contains($0) })
                let one = ByteSearch.first(of: 0xA2, in: base, from: from, to: count)
                #expect(one == bytes[from...].firstIndex(of: 0xA2))
            }
        }
    }
}

@Suite("Decimal parsing")
struct DecimalParsingTests {
    @Test("the fast path rounds exactly like Double(String)", arguments: 0..<5)
    func matchesSwift(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed))
        for _ in 0..<20_000 {
            let integer = Int64.random(in: -9_999_999...9_999_999, using: &random)
            let places = Int.random(in: 0...12, using: &random)
            var text = String(abs(integer))
            if places > 0 {
                text = String(repeating: "0", count: max(0, places + 1 - text.count)) + text
                text.insert(".", at: text.index(text.endIndex, offsetBy: -places))
            }
            if integer < 0 { text = "-" + text }
            if Int.random(in: 0..<10, using: &random) == 0 {
                text += "e\(Int.random(in: -30...30, using: &random))"
            }
            let parsed = Array(text.utf8).withUnsafeBytes { NumberParser.double($0) }
            #expect(parsed?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test(
        "every finite double's shortest decimal (as the exporter writes it) reads back bit for bit",
        arguments: 0..<4)
    func shortestDecimalsRoundTrip(seed: Int) {
        var values = SampleGenerator(seed: seed)
        for _ in 0..<20_000 {
            let value = values.anyFiniteValue()
            let text = "\(value)"
            let parsed = Array(text.utf8).withUnsafeBytes { NumberParser.double($0) }
            #expect(parsed?.bitPattern == value.bitPattern, "\(text)")
        }
    }

    @Test(
        "non-numbers are rejected",
        arguments: ["", "-", ".", "1.2.3", "nan", "inf", "0x10", "1,5", "12a", "1e999"])
    func rejects(text: String) {
        #expect(Array(text.utf8).withUnsafeBytes { NumberParser.double($0) } == nil)
    }
}
