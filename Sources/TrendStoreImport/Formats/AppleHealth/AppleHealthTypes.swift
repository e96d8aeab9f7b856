/// The Apple Health quantity types imported, each into one series with one unit.
enum AppleHealthQuantity: Int, CaseIterable {
    case activeEnergy, basalEnergy, steps, distanceWalkingRunning, heartRate

    /// The `type` attribute of its `Record` elements.
    var identifier: String {
        switch self {
        case .activeEnergy: return "HKQuantityTypeIdentifierActiveEnergyBurned"
        case .basalEnergy: return "HKQuantityTypeIdentifierBasalEnergyBurned"
        case .steps: return "HKQuantityTypeIdentifierStepCount"
        case .distanceWalkingRunning: return "HKQuantityTypeIdentifierDistanceWalkingRunning"
        case .heartRate: return "HKQuantityTypeIdentifierHeartRate"
        }
    }

    /// The series it is imported into.
    var series: String {
        switch self {
        case .activeEnergy: return "activeEnergy"
        case .basalEnergy: return "basalEnergy"
        case .steps: return "steps"
        case .distanceWalkingRunning: return "distanceWalkingRunning"
        case .heartRate: return "heartRate"
        }
    }

    /// The series' unit; every record's value is converted to it.
    var unit: String {
        switch self {
        case .activeEnergy, .basalEnergy: return "kcal"
        case .steps: return "count"
        case .distanceWalkingRunning: return "m"
        case .heartRate: return "count/min"
        }
    }

    /// The factor that converts a value in `unit` into the series' unit, or `nil` for a unit that does not fit.
    func factor(from unit: String) -> Double? {
        switch self {
        case .activeEnergy, .basalEnergy: return AppleHealthUnits.energy[unit]
        case .distanceWalkingRunning: return AppleHealthUnits.distance[unit]
        case .steps: return unit == "count" ? 1 : nil
        case .heartRate: return unit == "count/min" ? 1 : nil
        }
    }

    private static let identifiers: [[UInt8]] = allCases.map { Array($0.identifier.utf8) }

    /// The quantity of a `type` attribute, or `nil` for a type not imported.
    static func of(_ identifier: UnsafeRawBufferPointer) -> AppleHealthQuantity? {
        for (index, candidate) in identifiers.enumerated()
        where candidate.count == identifier.count && candidate.last == identifier.last
            && identifier.elementsEqual(candidate)
        {
            return AppleHealthQuantity(rawValue: index)
        }
        return nil
    }
}

/// Unit conversions of Apple Health exports.
enum AppleHealthUnits {
    /// Factors to kilocalories. `Cal` (capital C) is the dietary calorie, a kilocalorie.
    static let energy: [String: Double] = [
        "kcal": 1, "Cal": 1, "cal": 0.001, "kJ": 1 / 4.184, "J": 1 / 4184,
    ]
    /// Factors to metres.
    static let distance: [String: Double] = [
        "m": 1, "km": 1000, "cm": 0.01, "mi": 1609.344, "ft": 0.3048, "yd": 0.9144,
    ]
}

/// Which source wins where two record the same quantity over the same time.
///
/// A watch measures what the wearer does; a phone estimates it from its own sensors;
/// other apps often write summaries. So: Apple Watch 3, iPhone 2, anything else 1,
/// judged by the source's and the device's names (`Watch`, `iPhone` anywhere in them).
enum SourcePriority {
    private static let watch = Array("Watch".utf8)
    private static let iPhone = Array("iPhone".utf8)

    /// The rank of a source from the raw bytes of its `sourceName` and `device` attributes.
    static func rank(sourceName: UnsafeRawBufferPointer, device: UnsafeRawBufferPointer?) -> Int {
        if contains(sourceName, watch) || device.map({ contains($0, watch) }) == true { return 3 }
        if contains(sourceName, iPhone) || device.map({ contains($0, iPhone) }) == true { return 2 }
        return 1
    }

    private static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
