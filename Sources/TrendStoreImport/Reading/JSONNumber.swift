import Foundation

/// Numbers out of `JSONSerialization`, told apart from `true` and `false`.
///
/// `value is Bool` is no test: on Linux every `NSNumber` holding 0 or 1 casts to `Bool`,
/// so a value of exactly 1 would read as a boolean. Booleans are the numbers whose
/// Objective-C type is `c` (JSON has no 8-bit integers), on every platform.
enum JSONNumber {
    /// The number `value` holds, or `nil` for a boolean, a string or anything else.
    static func number(_ value: Any?) -> NSNumber? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else {
            return nil
        }
        return number
    }
}
