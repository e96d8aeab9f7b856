import Foundation

/// The rules every stored sample keeps (a finite value of at most 1e15 in magnitude, an end
/// not before its start, times within years 1–9999, at most 14 days long), checked in one
/// place by the write API and by every importer.
///
/// ```swift
/// if let problem = SampleRules.violation(of: sample) {
///     print("\(problem.field): \(problem.reason)")
/// }
/// ```
public enum SampleRules {
    /// The largest magnitude a value may have: `1e15`, far beyond any health figure, small
    /// enough that sums of millions of samples stay finite and exact decimals stay exact.
    public static let maximumMagnitude = 1e15

    /// The instants a sample may start and end at, in milliseconds since 1970:
    /// 0001-01-01T00:00:00.000Z through 9999-12-31T23:59:59.999Z, the years every
    /// import and export format can write.
    public static let instantRange: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// The longest a sample may last: 14 days, in milliseconds.
    ///
    /// Real exports hold samples of minutes (energy, steps), hours (sleep, workouts) and a
    /// day (daily totals); the longest genuine ones are multi-day events recorded as one
    /// activity (a 200-mile race, an expedition), within a week or two. Rollups prorate a
    /// sample over every quarter-hour it spans and reads start a series' longest duration
    /// before their range, so without a bound one record dated from year 1000 to 9999 would
    /// cost minutes and gigabytes to write and slow every later read of its series.
    public static let maximumDuration: Int64 = 14 * 86_400_000

    /// A broken rule: the field at fault (`start`, `end` or `value`) and why.
    public struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// The field at fault: `start`, `end` or `value`.
        public var field: String
        /// What is wrong with it.
        public var reason: String

        /// `field: reason`.
        public var description: String { "\(field): \(reason)" }
    }

    /// Why `sample` cannot be stored, or `nil` when it can.
    public static func violation(of sample: Sample) -> Violation? {
        if let reason = instantViolation(sample.startMilliseconds) {
            return Violation(field: "start", reason: reason)
        }
        if let reason = instantViolation(sample.endMilliseconds) {
            return Violation(field: "end", reason: reason)
        }
        if sample.endMilliseconds < sample.startMilliseconds {
            return Violation(
                field: "end",
                reason:
                    "\(sample.endMilliseconds) ms is before start \(sample.startMilliseconds) ms")
        }
        if sample.endMilliseconds - sample.startMilliseconds > maximumDuration {
            return Violation(field: "end", reason: durationViolation(sample.durationMilliseconds))
        }
        if let reason = valueViolation(sample.value) {
            return Violation(field: "value", reason: reason)
        }
        return nil
    }

    /// Why a sample of `milliseconds` cannot be stored (it lasts longer than ``maximumDuration``).
    public static func durationViolation(_ milliseconds: Int64) -> String {
        let days = Double(milliseconds) / 86_400_000
        return "the sample lasts \(String(format: "%.1f", days)) days; "
            + "a sample lasts at most 14 days"
    }

    /// Why `value` cannot be stored, or `nil` when it can.
    public static func valueViolation(_ value: Double) -> String? {
        if !value.isFinite { return "\(value) is not finite" }
        if abs(value) > maximumMagnitude {
            return "\(value) is larger in magnitude than 1e15, the largest value a series holds"
        }
        return nil
    }

    /// The local dates queries accept: 0001-01-01 through 9999-12-31.
    public static let dateRange: ClosedRange<LocalDate> =
        LocalDate(dayNumber: -719_162)...LocalDate(dayNumber: 2_932_896)

    /// `date` in milliseconds, checked against ``instantRange``.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` naming `argument` when it is outside.
    static func instant(_ date: Date, argument: StoreError.Argument) throws(StoreError) -> Int64 {
        let milliseconds = date.millisecondsSince1970
        if let reason = instantViolation(milliseconds) {
            throw .invalidArgument(argument, reason: reason)
        }
        return milliseconds
    }

    /// Checks that the dates lie in ``dateRange``.
    ///
    /// - Throws: ``StoreError/Code/invalidArgument(_:)`` naming the date outside it.
    static func checkDates(_ dates: LocalDate...) throws(StoreError) {
        for date in dates where !dateRange.contains(date) {
            throw .invalidArgument(
                .date,
                reason: "\(date.dayNumber) days from 1970 is outside the years 0001 to 9999")
        }
    }

    /// Why `milliseconds` is not a storable instant, or `nil` when it is.
    public static func instantViolation(_ milliseconds: Int64) -> String? {
        instantRange.contains(milliseconds)
            ? nil
            : "\(milliseconds) ms is outside the supported years 0001 to 9999"
    }
}
