import Foundation
import TrendStore

/// Writes samples as an Apple Health `export.xml`, for import tests and benchmarks at scale.
///
/// Energy becomes Apple Watch `Record`s (with an iPhone duplicate of every 20th minute,
/// which the watch covers, so it counts nothing), activities become `Workout`s. Every
/// timestamp is written with the offset of `zone` at the export date, as real exports do.
public final class AppleHealthXMLWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private let offsetText: String
    private let offsetMilliseconds: Int64
    private var energyCount = 0
    /// The number of elements written (records and workouts).
    public private(set) var count = 0

    /// Creates (or truncates) the file and writes the header, DOCTYPE and `ExportDate`.
    public init(path: String, exportDate: Date, zone: TimeZone) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw OutputFileError(path: path, reason: "cannot be created for writing")
        }
        self.handle = handle
        let seconds = zone.secondsFromGMT(for: exportDate)
        offsetMilliseconds = Int64(seconds) * 1000
        offsetText = String(
            format: "%@%02d%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3600,
            abs(seconds) / 60 % 60)
        buffer.reserveCapacity(1 << 20)
        append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord)*)>
            <!ATTLIST HealthData locale CDATA #REQUIRED>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="\(timestamp(exportDate.millisecondsSince1970))"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet"/>

            """)
    }

    /// Appends one series' samples: energy as records, anything else as workouts.
    public func write(_ entry: SeriesSamples) throws {
        for sample in entry.samples {
            if entry.unit == "kcal" {
                let start = timestamp(sample.startMilliseconds)
                let end = timestamp(sample.endMilliseconds)
                append(
                    " <Record type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" sourceName=\"Apple Watch\" sourceVersion=\"10.3\" device=\"&lt;&lt;HKDevice: 0x2819, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.3&gt;&gt;\" unit=\"kcal\" creationDate=\"\(end)\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(sample.value)\"/>\n"
                )
                energyCount += 1
                if energyCount % 20 == 0 {
                    append(
                        " <Record type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" sourceName=\"iPhone\" sourceVersion=\"17.4\" unit=\"kcal\" creationDate=\"\(end)\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(sample.value * 1.1)\"/>\n"
                    )
                    count += 1
                }
            } else {
                append(
                    " <Workout workoutActivityType=\"HKWorkoutActivityType\(entry.series)\" duration=\"\(Double(sample.durationMilliseconds) / 60_000)\" durationUnit=\"min\" totalDistance=\"\(sample.value / 1000)\" totalDistanceUnit=\"km\" sourceName=\"Apple Watch\" startDate=\"\(timestamp(sample.startMilliseconds))\" endDate=\"\(timestamp(sample.endMilliseconds))\">\n  <WorkoutEvent type=\"HKWorkoutEventTypeSegment\" date=\"\(timestamp(sample.startMilliseconds))\"/>\n </Workout>\n"
                )
            }
            count += 1
            if buffer.count >= 1 << 20 { try flush() }
        }
    }

    /// Closes `HealthData`, writes what is buffered and closes the file.
    public func close() throws {
        append("</HealthData>\n")
        try flush()
        try handle.close()
    }

    private func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

    private func flush() throws {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// `2026-03-08 01:59:00 -0800`, in the export's fixed offset.
    private func timestamp(_ milliseconds: Int64) -> String {
        let wall = milliseconds + offsetMilliseconds
        let date = LocalDate(
            dayNumber: wall >= 0 ? wall / 86_400_000 : (wall - 86_399_999) / 86_400_000)
        let inDay = wall - date.dayNumber * 86_400_000
        return String(
            format: "%@ %02d:%02d:%02d %@", date.description, Int(inDay / 3_600_000),
            Int(inDay / 60_000 % 60), Int(inDay / 1000 % 60), offsetText)
    }
}
