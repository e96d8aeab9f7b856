import Foundation

/// Codes the value column of one block (format 1, ``BlockCodec``) losslessly, choosing per
/// block the scheme that makes them smallest.
///
/// - Decimal (the approach of ALP, Afroozeh, Kuffo and Boncz, SIGMOD 2024): every value
///   `v` becomes the integer `n = round(v × 10^e ÷ 10^f)` for the block's exponent `e`
///   and factor `f`, kept only when `Double(n) × 10^f ÷ 10^e` gives back `v` bit for bit;
///   the values that do not (a `-0.0`, a full-precision double among decimals) are
///   exceptions, stored with their positions and raw bits. Values converted from a decimal
///   in another unit (kilojoules to kilocalories: `x ÷ 4.184`) are full 17-digit doubles;
///   when dividing by one of a few unit factors (``conversionDivisors``) gives them back
///   from decimals, that divisor is part of the scheme. The integers are stored as
///   zig-zag deltas of consecutive values, or as offsets from the block's smallest,
///   whichever is smaller (an exception repeats its neighbour's integer).
/// - Bits, for blocks where decimal scaling does not pay: the IEEE bits XOR the previous
///   value's (small for slowly changing measurements), or the raw bits; the byte planes of
///   the sign and exponent are nearly constant and compress to almost nothing.
///
/// Sizes are compared by each candidate column's estimated deflated size in the smaller of
/// its layouts (``ColumnLayout/chosen(for:)``).
enum ValueCoding {
    /// How a block's value column is to be read.
    enum Scheme: UInt8 {
        case decimalDeltas = 0
        case decimalOffsets = 1
        case xorBits = 2
        case rawBits = 3
    }

    /// What a decoder needs besides the column and the exceptions.
    struct Parameters: Equatable {
        var scheme: Scheme
        var exponent: UInt8 = 0
        var factor: UInt8 = 0
        /// The index of the unit divisor in ``conversionDivisors`` (0: none).
        var divisor: UInt8 = 0
        /// The smallest integer, for ``Scheme/decimalOffsets``; otherwise 0.
        var reference: Int64 = 0
    }

    /// A block's values, coded.
    struct Encoded {
        var parameters: Parameters
        /// One unsigned integer per value.
        var column: [UInt64]
        /// How the column is to be stored.
        var layout: ColumnLayout
        /// The positions of the values the decimal scheme could not represent, ascending.
        var exceptionPositions: [UInt32] = []
        /// Their IEEE bits.
        var exceptionBits: [UInt64] = []
    }

    /// The largest decimal exponent tried: 10^18 × a value still fits an Int64 when it is below 9.
    static let maximumExponent = 18
    /// `10^k` for k = 0…18, each exactly representable.
    static let powers: [Double] = [
        1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18,
    ]
    /// Unit factors values are often divided by after they were typed or measured as
    /// decimals: kJ per kcal, km per mile, kg per pound, m per foot, cm per inch, km/h
    /// per m/s, and 1,000, 60 and 3,600. Index 0 is no conversion.
    static let conversionDivisors: [Double] = [
        1, 4.184, 1.609344, 0.45359237, 0.3048, 2.54, 3.6, 1_000, 60, 3_600,
    ]
    /// A block whose exceptions exceed this share of its values is coded as bits instead.
    private static let exceptionShareLimit = 0.25
    /// How many values, evenly spaced, the exponent and factor are chosen from.
    private static let sampleSize = 32

    // MARK: Decimal mapping

    /// The integer that gives `value` back exactly in `form`, or `nil`.
    ///
    /// Unlike ALP, the factor may exceed the exponent: `n × 10^f` is exact for the small
    /// integers that makes, so whole numbers with trailing zeros shrink too.
    @inline(__always)
    static func decimalInteger(_ value: Double, _ form: DecimalForm) -> Int64? {
        let divisor = conversionDivisors[form.divisor]
        let scaled = (value * divisor * powers[form.exponent] / powers[form.factor]).rounded()
        // NaN and infinities fail this comparison too.
        guard abs(scaled) < 9.0e18 else { return nil }
        let integer = Int64(scaled)
        guard decimalValue(integer, form).bitPattern == value.bitPattern else { return nil }
        return integer
    }

    /// The value of integer `n` in `form`: the one formula decoding uses.
    @inline(__always)
    static func decimalValue(_ integer: Int64, _ form: DecimalForm) -> Double {
        let decimal = Double(integer) * powers[form.factor] / powers[form.exponent]
        return form.divisor == 0 ? decimal : decimal / conversionDivisors[form.divisor]
    }

    /// A decimal exponent, factor and unit divisor.
    struct DecimalForm {
        var exponent = 0
        var factor = 0
        var divisor = 0
    }

    // MARK: Encoding

    /// Codes `values` (at least one).
    static func encode(_ values: [Double]) -> Encoded {
        // Every value +0.0 (the identities a change log stores as a block): what the search
        // below chooses for them, without searching.
        if values.allSatisfy({ $0.bitPattern == 0 }) {
            return Encoded(
                parameters: Parameters(scheme: .decimalDeltas),
                column: [UInt64](repeating: 0, count: values.count), layout: .packed(bits: 0))
        }
        return searched(values)
    }

    /// Codes `values` with the scheme and layout estimated smallest among every candidate.
    static func searched(_ values: [Double]) -> Encoded {
        let decimal = decimalCandidate(values)
        // Narrow decimal integers always win; wide ones (16 or more digits) are weighed
        // against the bits.
        if let decimal, decimal.encoded.layout.valueBytes < 6 { return decimal.encoded }
        var previous: UInt64 = 0
        let xor = values.map { value in
            defer { previous = value.bitPattern }
            return value.bitPattern ^ previous
        }
        let raw = values.map(\.bitPattern)
        let xorLayout = ColumnLayout.chosen(for: xor)
        let rawLayout = ColumnLayout.chosen(for: raw)
        if let decimal, decimal.estimatedBits <= min(xorLayout.bits, rawLayout.bits) {
            return decimal.encoded
        }
        return xorLayout.bits < rawLayout.bits
            ? Encoded(
                parameters: Parameters(scheme: .xorBits), column: xor, layout: xorLayout.layout)
            : Encoded(
                parameters: Parameters(scheme: .rawBits), column: raw, layout: rawLayout.layout)
    }

    /// Codes `values` with `parameters` and `layout`, a block's choice kept for the next
    /// version of that block; `nil` when they cannot hold them (a value without a decimal
    /// form among too many, an integer wider than the layout), and ``encode(_:)`` chooses anew.
    static func encode(
        _ values: [Double], keeping parameters: Parameters, layout: ColumnLayout
    ) -> Encoded? {
        var encoded: Encoded
        switch parameters.scheme {
        case .decimalDeltas, .decimalOffsets:
            let form = DecimalForm(
                exponent: Int(parameters.exponent), factor: Int(parameters.factor),
                divisor: Int(parameters.divisor))
            guard let mapped = decimalIntegers(values, form) else { return nil }
            encoded = decimalEncoded(
                mapped, form: form, useDeltas: parameters.scheme == .decimalDeltas, layout: layout
            )
        case .xorBits:
            var previous: UInt64 = 0
            let xor = values.map { value in
                defer { previous = value.bitPattern }
                return value.bitPattern ^ previous
            }
            encoded = Encoded(parameters: parameters, column: xor, layout: layout)
        case .rawBits:
            encoded = Encoded(
                parameters: parameters, column: values.map(\.bitPattern), layout: layout)
        }
        return layout.holds(encoded.column) ? encoded : nil
    }

    /// The integers of `values` in `form`, an exception's repeating its neighbour's (so it
    /// costs no delta), and the exceptions' positions and bits; `nil` when more than
    /// ``exceptionShareLimit`` of them, or all, are exceptions.
    private static func decimalIntegers(_ values: [Double], _ form: DecimalForm) -> (
        integers: [Int64], positions: [UInt32], bits: [UInt64]
    )? {
        var integers = [Int64](repeating: 0, count: values.count)
        var positions: [UInt32] = []
        var bits: [UInt64] = []
        let limit = Int(Double(values.count) * exceptionShareLimit)
        var previous: Int64?
        var firstExceptions = 0
        for (index, value) in values.enumerated() {
            if let integer = decimalInteger(value, form) {
                integers[index] = integer
                if previous == nil {
                    // Leading exceptions repeat the first integer, so they cost no delta.
                    for earlier in 0..<firstExceptions { integers[earlier] = integer }
                }
                previous = integer
            } else {
                positions.append(UInt32(index))
                bits.append(value.bitPattern)
                guard positions.count <= limit else { return nil }
                if let previous { integers[index] = previous } else { firstExceptions += 1 }
            }
        }
        guard previous != nil else { return nil }
        return (integers, positions, bits)
    }

    /// The column of `mapped` integers in `form`, as deltas or as offsets from the smallest.
    private static func decimalEncoded(
        _ mapped: (integers: [Int64], positions: [UInt32], bits: [UInt64]), form: DecimalForm,
        useDeltas: Bool, layout: ColumnLayout
    ) -> Encoded {
        let smallest = useDeltas ? 0 : mapped.integers.min() ?? 0
        var last: Int64 = 0
        let column =
            useDeltas
            ? mapped.integers.map { integer in
                defer { last = integer }
                return ByteColumns.zigZag(integer &- last)
            } : mapped.integers.map { UInt64(bitPattern: $0 &- smallest) }
        return Encoded(
            parameters: Parameters(
                scheme: useDeltas ? .decimalDeltas : .decimalOffsets,
                exponent: UInt8(form.exponent), factor: UInt8(form.factor),
                divisor: UInt8(form.divisor), reference: smallest),
            column: column, layout: layout, exceptionPositions: mapped.positions,
            exceptionBits: mapped.bits)
    }

    /// The decimal coding of `values` with its estimated size in bits, or `nil` when too
    /// many would be exceptions.
    private static func decimalCandidate(_ values: [Double]) -> (
        encoded: Encoded, estimatedBits: Double
    )? {
        guard let form = decimalParameters(values), let mapped = decimalIntegers(values, form)
        else { return nil }
        let deltas = decimalEncoded(mapped, form: form, useDeltas: true, layout: .packed(bits: 0))
        let offsets = decimalEncoded(
            mapped, form: form, useDeltas: false, layout: .packed(bits: 0))
        let deltaLayout = ColumnLayout.chosen(for: deltas.column)
        let offsetLayout = ColumnLayout.chosen(for: offsets.column)
        var encoded = deltaLayout.bits <= offsetLayout.bits ? deltas : offsets
        encoded.layout =
            deltaLayout.bits <= offsetLayout.bits ? deltaLayout.layout : offsetLayout.layout
        return (
            encoded, min(deltaLayout.bits, offsetLayout.bits) + Double(mapped.positions.count) * 96
        )
    }

    /// The exponent and factor that make a sample of `values` smallest (as ALP chooses:
    /// the bits of the integers' range per value, 96 bits per exception); `nil` when most
    /// of the sample has no decimal form.
    private static func decimalParameters(_ values: [Double]) -> DecimalForm? {
        let step = max(1, values.count / sampleSize)
        let sample = stride(from: 0, to: values.count, by: step).map { values[$0] }
        func cost(_ form: DecimalForm) -> (bits: Int, misses: Int) {
            var misses = 0
            var smallest = Int64.max
            var largest = Int64.min
            for value in sample {
                if let integer = decimalInteger(value, form) {
                    smallest = min(smallest, integer)
                    largest = max(largest, integer)
                } else {
                    misses += 1
                }
            }
            let range = misses == sample.count ? 0 : UInt64(bitPattern: largest &- smallest)
            let width = 64 - range.leadingZeroBitCount
            return ((sample.count - misses) * width + misses * 96, misses)
        }
        func bestExponent(divisor: Int) -> (form: DecimalForm, cost: (bits: Int, misses: Int)) {
            var best = (
                form: DecimalForm(divisor: divisor), cost: cost(DecimalForm(divisor: divisor))
            )
            for exponent in 1...maximumExponent {
                let form = DecimalForm(exponent: exponent, divisor: divisor)
                let candidate = cost(form)
                if candidate.bits < best.cost.bits { best = (form, candidate) }
            }
            return best
        }
        var best = bestExponent(divisor: 0)
        // Converted units only when plain decimals leave many exceptions or wide integers.
        if best.cost.misses > 0 || best.cost.bits > sample.count * 40 {
            for divisor in 1..<conversionDivisors.count {
                let candidate = bestExponent(divisor: divisor)
                if candidate.cost.bits < best.cost.bits { best = candidate }
            }
        }
        // A factor divides out trailing zeros (1.5e6 at e = 0 becomes 15 at f = 5).
        for factor in 1...maximumExponent {
            var form = best.form
            form.factor = factor
            let candidate = cost(form)
            if candidate.bits < best.cost.bits { best = (form, candidate) }
        }
        guard Double(best.cost.misses) <= Double(sample.count) * exceptionShareLimit else {
            return nil
        }
        return best.form
    }

    // MARK: Decoding

    /// Whether `parameters` read from a block can be decoded.
    static func isValid(_ parameters: Parameters) -> Bool {
        Int(parameters.exponent) <= maximumExponent && Int(parameters.factor) <= maximumExponent
            && Int(parameters.divisor) < conversionDivisors.count
            && (parameters.scheme == .decimalOffsets || parameters.reference == 0)
            && (parameters.scheme == .decimalDeltas || parameters.scheme == .decimalOffsets
                || (parameters.exponent == 0 && parameters.factor == 0 && parameters.divisor == 0))
    }

    /// Turns the stored column back into values, in place of `column`'s integers; the
    /// exceptions are patched in afterwards by the caller.
    @inline(__always)
    static func decode(
        _ parameters: Parameters, count: Int, column: (Int) -> UInt64,
        into values: UnsafeMutableBufferPointer<Double>
    ) {
        let form = DecimalForm(
            exponent: Int(parameters.exponent), factor: Int(parameters.factor),
            divisor: Int(parameters.divisor))
        switch parameters.scheme {
        case .decimalDeltas:
            var integer: Int64 = 0
            for index in 0..<count {
                integer = integer &+ ByteColumns.unZigZag(column(index))
                values[index] = decimalValue(integer, form)
            }
        case .decimalOffsets:
            for index in 0..<count {
                let integer = parameters.reference &+ Int64(bitPattern: column(index))
                values[index] = decimalValue(integer, form)
            }
        case .xorBits:
            var bits: UInt64 = 0
            for index in 0..<count {
                bits ^= column(index)
                values[index] = Double(bitPattern: bits)
            }
        case .rawBits:
            for index in 0..<count { values[index] = Double(bitPattern: column(index)) }
        }
    }
}
