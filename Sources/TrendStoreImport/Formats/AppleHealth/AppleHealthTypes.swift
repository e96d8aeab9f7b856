import TrendStore

/// An Apple Health quantity type imported into one series, with one unit and the kind
/// Apple documents for it (its `HKQuantityAggregationStyle`: cumulative, or discrete).
struct AppleHealthQuantity {
    /// Its position in ``all``.
    let index: Int
    /// The `type` attribute of its `Record` elements, without `HKQuantityTypeIdentifier`.
    let name: String
    /// The series it is imported into.
    let series: String
    /// The series' unit; every record's value is converted to it.
    let unit: String
    /// Whether values add up or are measurements.
    let kind: SeriesKind
    /// The units its records may carry.
    let dimension: AppleHealthUnits.Dimension

    /// The full `type` attribute.
    var identifier: String { "HKQuantityTypeIdentifier" + name }

    /// How to convert a value in `unit` to the series' unit (`value × scale + offset`), or
    /// `nil` for a unit that does not fit.
    func conversion(from unit: String) -> (scale: Double, offset: Double)? {
        dimension.conversion(from: unit, to: self.unit)
    }

    /// Every type imported: `(name, series, unit, kind, dimension)`.
    private static let table: [(String, String, String, SeriesKind, AppleHealthUnits.Dimension)] = [
        // Cumulative: energy, counts, distances, times, intake.
        ("ActiveEnergyBurned", "activeEnergy", "kcal", .cumulative, .energy),
        ("BasalEnergyBurned", "basalEnergy", "kcal", .cumulative, .energy),
        ("DietaryEnergyConsumed", "dietaryEnergy", "kcal", .cumulative, .energy),
        ("StepCount", "steps", "count", .cumulative, .count),
        ("FlightsClimbed", "flightsClimbed", "count", .cumulative, .count),
        ("PushCount", "pushCount", "count", .cumulative, .count),
        ("SwimmingStrokeCount", "swimmingStrokeCount", "count", .cumulative, .count),
        ("NikeFuel", "nikeFuel", "count", .cumulative, .count),
        ("NumberOfTimesFallen", "numberOfTimesFallen", "count", .cumulative, .count),
        ("NumberOfAlcoholicBeverages", "alcoholicBeverages", "count", .cumulative, .count),
        ("InhalerUsage", "inhalerUsage", "count", .cumulative, .count),
        ("DistanceWalkingRunning", "distanceWalkingRunning", "m", .cumulative, .length),
        ("DistanceCycling", "distanceCycling", "m", .cumulative, .length),
        ("DistanceSwimming", "distanceSwimming", "m", .cumulative, .length),
        ("DistanceWheelchair", "distanceWheelchair", "m", .cumulative, .length),
        ("DistanceDownhillSnowSports", "distanceDownhillSnowSports", "m", .cumulative, .length),
        ("DistanceRowing", "distanceRowing", "m", .cumulative, .length),
        ("DistancePaddleSports", "distancePaddleSports", "m", .cumulative, .length),
        ("DistanceCrossCountrySkiing", "distanceCrossCountrySkiing", "m", .cumulative, .length),
        ("DistanceSkatingSports", "distanceSkatingSports", "m", .cumulative, .length),
        ("AppleExerciseTime", "exerciseTime", "min", .cumulative, .time),
        ("AppleStandTime", "standTime", "min", .cumulative, .time),
        ("AppleMoveTime", "moveTime", "min", .cumulative, .time),
        ("TimeInDaylight", "timeInDaylight", "min", .cumulative, .time),
        ("DietaryWater", "dietaryWater", "L", .cumulative, .volume),
        ("DietaryProtein", "dietaryProtein", "g", .cumulative, .mass),
        ("DietaryCarbohydrates", "dietaryCarbohydrates", "g", .cumulative, .mass),
        ("DietaryFatTotal", "dietaryFatTotal", "g", .cumulative, .mass),
        ("DietarySugar", "dietarySugar", "g", .cumulative, .mass),
        ("DietaryFiber", "dietaryFiber", "g", .cumulative, .mass),
        ("DietaryCaffeine", "dietaryCaffeine", "g", .cumulative, .mass),
        ("DietarySodium", "dietarySodium", "g", .cumulative, .mass),
        ("InsulinDelivery", "insulinDelivery", "IU", .cumulative, .international),
        // Discrete: heart, body, respiration, gait, fitness, environment.
        ("HeartRate", "heartRate", "count/min", .discrete, .frequency),
        ("RestingHeartRate", "restingHeartRate", "count/min", .discrete, .frequency),
        ("WalkingHeartRateAverage", "walkingHeartRateAverage", "count/min", .discrete, .frequency),
        ("HeartRateRecoveryOneMinute", "heartRateRecovery", "count/min", .discrete, .frequency),
        ("RespiratoryRate", "respiratoryRate", "count/min", .discrete, .frequency),
        ("CyclingCadence", "cyclingCadence", "count/min", .discrete, .frequency),
        ("HeartRateVariabilitySDNN", "heartRateVariability", "ms", .discrete, .time),
        ("RunningGroundContactTime", "runningGroundContactTime", "ms", .discrete, .time),
        ("BodyMass", "bodyMass", "kg", .discrete, .mass),
        ("LeanBodyMass", "leanBodyMass", "kg", .discrete, .mass),
        ("BodyMassIndex", "bodyMassIndex", "count", .discrete, .count),
        ("BodyFatPercentage", "bodyFatPercentage", "%", .discrete, .percent),
        ("OxygenSaturation", "oxygenSaturation", "%", .discrete, .percent),
        ("WalkingAsymmetryPercentage", "walkingAsymmetry", "%", .discrete, .percent),
        ("WalkingDoubleSupportPercentage", "walkingDoubleSupport", "%", .discrete, .percent),
        ("AppleWalkingSteadiness", "walkingSteadiness", "%", .discrete, .percent),
        ("BloodAlcoholContent", "bloodAlcoholContent", "%", .discrete, .percent),
        ("PeripheralPerfusionIndex", "peripheralPerfusionIndex", "%", .discrete, .percent),
        ("AtrialFibrillationBurden", "atrialFibrillationBurden", "%", .discrete, .percent),
        ("Height", "height", "m", .discrete, .length),
        ("WaistCircumference", "waistCircumference", "m", .discrete, .length),
        ("WalkingStepLength", "walkingStepLength", "m", .discrete, .length),
        ("RunningStrideLength", "runningStrideLength", "m", .discrete, .length),
        ("RunningVerticalOscillation", "runningVerticalOscillation", "m", .discrete, .length),
        ("SixMinuteWalkTestDistance", "sixMinuteWalkTestDistance", "m", .discrete, .length),
        ("UnderwaterDepth", "underwaterDepth", "m", .discrete, .length),
        ("WalkingSpeed", "walkingSpeed", "m/s", .discrete, .speed),
        ("StairAscentSpeed", "stairAscentSpeed", "m/s", .discrete, .speed),
        ("StairDescentSpeed", "stairDescentSpeed", "m/s", .discrete, .speed),
        ("RunningSpeed", "runningSpeed", "m/s", .discrete, .speed),
        ("CyclingSpeed", "cyclingSpeed", "m/s", .discrete, .speed),
        ("RunningPower", "runningPower", "W", .discrete, .power),
        ("CyclingPower", "cyclingPower", "W", .discrete, .power),
        (
            "CyclingFunctionalThresholdPower", "cyclingFunctionalThresholdPower", "W", .discrete,
            .power
        ),
        ("VO2Max", "vo2Max", "mL/min·kg", .discrete, .oxygenUptake),
        ("BodyTemperature", "bodyTemperature", "degC", .discrete, .temperature),
        ("BasalBodyTemperature", "basalBodyTemperature", "degC", .discrete, .temperature),
        (
            "AppleSleepingWristTemperature", "sleepingWristTemperature", "degC", .discrete,
            .temperature
        ),
        ("WaterTemperature", "waterTemperature", "degC", .discrete, .temperature),
        ("BloodPressureSystolic", "bloodPressureSystolic", "mmHg", .discrete, .pressure),
        ("BloodPressureDiastolic", "bloodPressureDiastolic", "mmHg", .discrete, .pressure),
        ("BloodGlucose", "bloodGlucose", "mg/dL", .discrete, .glucose),
        ("EnvironmentalAudioExposure", "environmentalAudioExposure", "dBASPL", .discrete, .sound),
        ("HeadphoneAudioExposure", "headphoneAudioExposure", "dBASPL", .discrete, .sound),
        ("EnvironmentalSoundReduction", "environmentalSoundReduction", "dBASPL", .discrete, .sound),
        ("PeakExpiratoryFlowRate", "peakExpiratoryFlowRate", "L/min", .discrete, .flow),
        ("ForcedVitalCapacity", "forcedVitalCapacity", "L", .discrete, .volume),
        ("ForcedExpiratoryVolume1", "forcedExpiratoryVolume1", "L", .discrete, .volume),
        ("PhysicalEffort", "physicalEffort", "kcal/hr·kg", .discrete, .effort),
        ("UVExposure", "uvExposure", "count", .discrete, .count),
        ("ElectrodermalActivity", "electrodermalActivity", "S", .discrete, .conductance),
    ]

    /// Every type imported, in the order of ``table``.
    static let all: [AppleHealthQuantity] = table.enumerated().map { index, row in
        AppleHealthQuantity(
            index: index, name: row.0, series: row.1, unit: row.2, kind: row.3, dimension: row.4)
    }

    private static let identifiers: [[UInt8]] = all.map { Array($0.identifier.utf8) }

    /// The quantity of a `type` attribute, or `nil` for a type not imported.
    static func of(_ identifier: UnsafeRawBufferPointer) -> AppleHealthQuantity? {
        for (index, candidate) in identifiers.enumerated()
        where candidate.count == identifier.count && candidate.last == identifier.last
            && identifier.baseAddress.map({ ByteSearch.matches(candidate, at: $0) }) == true
        {
            return all[index]
        }
        return nil
    }
}

/// Unit conversions of Apple Health exports, by dimension.
enum AppleHealthUnits {
    /// A physical dimension and the units of it an export writes.
    enum Dimension {
        case energy, count, length, time, volume, mass, international, frequency, percent
        case speed, power, oxygenUptake, temperature, pressure, glucose, sound, flow, effort
        case conductance

        /// `value × scale + offset` converts a value in `unit` to `target`; `nil` when
        /// either is not a unit of the dimension.
        func conversion(from unit: String, to target: String) -> (scale: Double, offset: Double)? {
            if self == .temperature {
                // Affine: degF → degC is (F − 32) × 5/9; K → degC is K − 273.15.
                guard target == "degC" else { return nil }
                switch unit {
                case "degC": return (1, 0)
                case "degF": return (5.0 / 9.0, -32.0 * 5.0 / 9.0)
                case "K": return (1, -273.15)
                default: return nil
                }
            }
            if self == .glucose, target == "mg/dL", unit.hasPrefix("mmol<"), unit.hasSuffix(">/L"),
                let molarMass = Double(unit.dropFirst(5).dropLast(3)), molarMass > 0
            {
                // mmol/L × g/mol = mg/L; ÷ 10 for mg/dL.
                return (molarMass / 10, 0)
            }
            guard let from = factors[unit], let to = factors[target] else { return nil }
            return (from == to ? 1 : from / to, 0)
        }

        /// Each unit's size in the dimension's base unit.
        private var factors: [String: Double] {
            switch self {
            case .energy: return AppleHealthUnits.energy
            case .length: return AppleHealthUnits.distance
            case .count: return ["count": 1]
            case .time: return ["ms": 0.001, "s": 1, "min": 60, "hr": 3_600, "d": 86_400]
            case .volume:
                return [
                    "L": 1, "mL": 0.001, "dL": 0.1, "cL": 0.01, "fl_oz_us": 0.0295735295625,
                    "fl_oz_imp": 0.0284130625, "cup_us": 0.2365882365, "pt_us": 0.473176473,
                ]
            case .mass:
                return [
                    "g": 1, "kg": 1_000, "mg": 0.001, "mcg": 0.000001, "lb": 453.59237,
                    "oz": 28.349523125, "st": 6_350.29318,
                ]
            case .international: return ["IU": 1]
            case .frequency: return ["count/min": 1, "count/s": 60]
            case .percent: return ["%": 1]
            case .speed: return ["m/s": 1, "km/hr": 1 / 3.6, "mi/hr": 0.44704, "ft/s": 0.3048]
            case .power: return ["W": 1, "kW": 1_000]
            case .oxygenUptake: return ["mL/min·kg": 1]
            case .temperature: return [:]
            case .pressure: return ["mmHg": 1]
            case .glucose: return ["mg/dL": 1]
            case .sound: return ["dBASPL": 1]
            case .flow: return ["L/min": 1]
            case .effort: return ["kcal/hr·kg": 1]
            case .conductance: return ["S": 1, "mS": 0.001, "mcS": 0.000001]
            }
        }
    }

    /// Factors to kilocalories. `Cal` (capital C) is the dietary calorie, a kilocalorie.
    static let energy: [String: Double] = [
        "kcal": 1, "Cal": 1, "cal": 0.001, "kJ": 1 / 4.184, "J": 1 / 4184,
    ]
    /// Factors to metres.
    static let distance: [String: Double] = [
        "m": 1, "km": 1000, "cm": 0.01, "mm": 0.001, "mi": 1609.344, "ft": 0.3048,
        "yd": 0.9144, "in": 0.0254,
    ]
}
