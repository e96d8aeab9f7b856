/// Finds the power of ten that turns values into exact integers, so they encode as small varints.
///
/// A value `v` has scale `k` when `Double(n) / 10^k` gives back `v` bit for bit for the
/// integer `n = round(v × 10^k)`, with `|n| < 2^53`. Values typed by people and
/// devices (`4.2`, `0.351`) have small scales; arbitrary binary fractions have none.
enum DecimalScale {
    /// The largest exponent tried.
    static let maximumExponent = 9
    /// `10^k` for k = 0…9, exactly.
    static let powers: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
    private static let integerLimit = 9_007_199_254_740_992.0  // 2^53

    /// The integer `value × 10^exponent` if it gives `value` back exactly, else `nil`.
    @inline(__always)
    static func scaled(_ value: Double, exponent: Int) -> Int64? {
        let product = (value * powers[exponent]).rounded()
        guard abs(product) < integerLimit else { return nil }
        let integer = Int64(product)
        guard (Double(integer) / powers[exponent]).bitPattern == value.bitPattern else {
            return nil
        }
        return integer
    }

    /// Every value as an integer at the smallest exponent at which all of them scale exactly,
    /// or `nil` when there is none.
    ///
    /// Exactness at one exponent does not imply exactness at a larger one (`1e7 × 10^9`
    /// passes 2^53), so the exponent the values need is found first and then every value
    /// is scaled at that one exponent; a single miss means there is no common exponent.
    static func commonScaling(of values: some Collection<Double>) -> (
        exponent: Int, integers: [Int64]
    )? {
        var exponent = 0
        for value in values {
            while scaled(value, exponent: exponent) == nil {
                exponent += 1
                if exponent > maximumExponent { return nil }
            }
        }
        var integers: [Int64] = []
        integers.reserveCapacity(values.count)
        for value in values {
            guard let integer = scaled(value, exponent: exponent) else { return nil }
            integers.append(integer)
        }
        return (exponent, integers)
    }
}
