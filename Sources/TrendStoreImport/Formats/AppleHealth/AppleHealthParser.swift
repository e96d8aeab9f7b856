import Foundation
import TrendStore

/// Reads the records of an Apple Health `export.xml` (the second of two passes over the
/// file, after ``AppleHealthSurvey``) into series: the whole file as one stream, or one of
/// the pieces the survey cut it into.
///
/// - `Record` elements of the types in ``AppleHealthQuantity`` become samples of one
///   series per type, values converted to the series' unit; other types are counted as ignored.
/// - `Workout` elements become one sample each in a series named after the activity
///   (`HKWorkoutActivityTypeRunning` → `Running`), valued at the distance in metres
///   (`totalDistance`, or the sum of its `WorkoutStatistics` distances; 0 when none). A
///   `Workout` that begins inside another, or is never closed, is a malformed record.
/// - Sources: each record's source is its `sourceName` with the model of its `device` in
///   parentheses (`Alice’s Apple Watch (Watch)`; the device's `HKDevice: 0x…` address, which
///   differs from record to record, is not part of it), so one device is one source; a
///   record without a `device` takes the model its source's other records all name (the
///   survey's ``AppleHealthSurvey/soleModels``), so a watch's older records are the watch's. Nothing
///   is dropped here: where sources overlap, the store counts the one its priority order
///   ranks highest (by default a watch, then an iPhone, then the others), as Health does.
/// - A record starting more than a day after the file's `ExportDate` is a device clock
///   error: counted as ignored, not imported.
/// - Both `sourceName=` and old iOS 8/9 exports' `source=` are read, and compact dates
///   such as `20151107171924+0100`.
final class AppleHealthParser: RecordParser {
    private let scanner: XMLTagScanner
    private let file: String
    private let exportDate: Int64?
    private var pendingWorkout: PendingWorkout?
    private var queued: [ParsedRecord] = []
    /// The last source's attribute bytes and name: most records share the one before's.
    private var lastSource: (sourceName: [UInt8], device: [UInt8]?, name: String?)?
    /// The survey's model of each source whose records with a device name one.
    private let soleModels: [[UInt8]: String]

    private struct PendingWorkout {
        var series: String
        var start: Int64
        var end: Int64
        var distance: Double?
        var statisticsDistance = 0.0
        var line: Int
        var source: String?
    }

    /// The attribute names either pass reads.
    static let attribute = (
        type: Array("type".utf8), sourceName: Array("sourceName".utf8),
        source: Array("source".utf8),
        device: Array("device".utf8), unit: Array("unit".utf8), startDate: Array("startDate".utf8),
        endDate: Array("endDate".utf8), value: Array("value".utf8),
        activityType: Array("workoutActivityType".utf8),
        totalDistance: Array("totalDistance".utf8),
        totalDistanceUnit: Array("totalDistanceUnit".utf8), sum: Array("sum".utf8)
    )

    /// Reads the records of `stream` (the export, or a piece of it whose lines count from
    /// its start) by what `survey` found in the whole export, named `displayPath` in errors.
    init(displayPath: String, survey: AppleHealthSurvey, stream: ByteStream) {
        file = displayPath
        exportDate = survey.exportDate
        soleModels = survey.soleModels
        scanner = XMLTagScanner(stream: stream, interesting: AppleHealthSurvey.Element.all)
    }

    var bytesConsumed: Int { scanner.bytesConsumed }
    var totalBytes: Int { scanner.totalBytes }

    func next() throws(ImportError) -> ParsedRecord? {
        while queued.isEmpty {
            let tag: XMLTag?
            do {
                tag = try scanner.next()
            } catch {
                throw ImportError(
                    file: file, line: error.line, field: error.field, reason: error.reason)
            }
            guard let tag else {
                // A workout still open at the end would vanish from the summary.
                guard let open = pendingWorkout else { return nil }
                pendingWorkout = nil
                return invalid(
                    open.line, "Workout", "is never closed: the file ends before its </Workout>")
            }
            if let record = read(tag) { queued.append(record) }
        }
        return queued.removeFirst()
    }

    /// The source of `tag`: its `sourceName` (or an old export's `source`), with its
    /// device's model in parentheses when it names one, or, without a `device`, the one
    /// model the source's other records name; `nil` when it names no source.
    private func source(of tag: XMLTag) -> String? {
        let name =
            tag.withAttribute(Self.attribute.sourceName) { Array($0) }
            ?? tag.withAttribute(Self.attribute.source) { Array($0) } ?? []
        let device = tag.withRawAttribute(Self.attribute.device) { Array($0) }
        if let lastSource, lastSource.sourceName == name, lastSource.device == device {
            return lastSource.name
        }
        let text = String(decoding: name, as: UTF8.self)
        let model =
            device.map { $0.withUnsafeBytes(AppleHealthDevice.model(raw:)) } ?? soleModels[name]
        let source = text.isEmpty ? nil : model.map { "\(text) (\($0))" } ?? text
        lastSource = (name, device, source)
        return source
    }

    private func invalid(_ line: Int, _ field: String, _ reason: String) -> ParsedRecord {
        .invalid(ImportError(file: file, line: line, field: field, reason: reason))
    }

    private func read(_ tag: XMLTag) -> ParsedRecord? {
        if tag.name == AppleHealthSurvey.Element.record && !tag.isEnd { return record(tag) }
        if tag.name == AppleHealthSurvey.Element.workout { return workout(tag) }
        if tag.name == AppleHealthSurvey.Element.workoutStatistics, !tag.isEnd,
            pendingWorkout != nil,
            let type = tag.string(Self.attribute.type),
            type.hasPrefix("HKQuantityTypeIdentifierDistance"),
            let sum = tag.withAttribute(Self.attribute.sum, NumberParser.double),
            let factor = tag.string(Self.attribute.unit).flatMap({ AppleHealthUnits.distance[$0] })
        {
            pendingWorkout!.statisticsDistance += sum * factor
        }
        return nil
    }

    /// Why a record that lasts longer than a sample may (``SampleRules/maximumDuration``) is left out.
    private static let tooLong = "lasts longer than 14 days"

    private func record(_ tag: XMLTag) -> ParsedRecord {
        guard let quantity = tag.withAttribute(Self.attribute.type, AppleHealthQuantity.of) else {
            let type = tag.string(Self.attribute.type) ?? "without a type"
            return .ignored(
                reason:
                    "record type \(type.replacingOccurrences(of: "HKQuantityTypeIdentifier", with: "")) is not imported"
            )
        }
        let line = tag.line
        guard let start = tag.withAttribute(Self.attribute.startDate, TimestampParser.milliseconds)
        else {
            return invalid(
                line, "startDate",
                "\"\(tag.string(Self.attribute.startDate) ?? "")\": \(TimestampParser.expectation)")
        }
        guard let end = tag.withAttribute(Self.attribute.endDate, TimestampParser.milliseconds)
        else {
            return invalid(
                line, "endDate",
                "\"\(tag.string(Self.attribute.endDate) ?? "")\": \(TimestampParser.expectation)")
        }
        guard end >= start else { return invalid(line, "endDate", "is before startDate") }
        if end - start > SampleRules.maximumDuration {
            return .ignored(reason: Self.tooLong)
        }
        guard let raw = tag.withAttribute(Self.attribute.value, NumberParser.double) else {
            let problem = tag.withAttribute(Self.attribute.value, NumberParser.problem)
            return invalid(
                line, "value",
                "\"\(tag.string(Self.attribute.value) ?? "")\" \(problem ?? "is missing")")
        }
        let unit = tag.string(Self.attribute.unit) ?? ""
        guard let conversion = quantity.conversion(from: unit) else {
            return invalid(line, "unit", "\"\(unit)\" is not a unit of \(quantity.series)")
        }
        if let exportDate, start > exportDate + 86_400_000 {
            return .ignored(reason: "starts after the export's ExportDate (device clock error)")
        }
        return .sample(
            series: quantity.series, unit: quantity.unit, kind: quantity.kind,
            source: source(of: tag),
            sample: Sample(
                startMilliseconds: start, endMilliseconds: end,
                // (An offset of 0 is not added: it would turn -0.0 into 0.0.)
                value: conversion.offset == 0
                    ? raw * conversion.scale : raw * conversion.scale + conversion.offset),
            line: line)
    }

    /// The local day of a record's start, by the UTC offset written in its own `startDate`.
    private func localDay(of tag: XMLTag, start: Int64) -> (start: Int64, end: Int64) {
        let offset =
            tag.withAttribute(Self.attribute.startDate) { text -> Int64? in
                let wall = Array("2000-01-01 00:00:00 ".utf8) + Array(text.suffix(5))
                return wall.withUnsafeBytes(TimestampParser.milliseconds).map {
                    946_684_800_000 - $0
                }
            } ?? 0
        let wall = start + offset
        let dayNumber = wall >= 0 ? wall / 86_400_000 : (wall - 86_399_999) / 86_400_000
        let dayStart = dayNumber * 86_400_000 - offset
        return (dayStart, dayStart + 86_400_000)
    }

    private func workout(_ tag: XMLTag) -> ParsedRecord? {
        if tag.isEnd {
            guard let pending = pendingWorkout else { return nil }
            pendingWorkout = nil
            return emit(pending)
        }
        let line = tag.line
        if let outer = pendingWorkout {
            // Left out with a reason; the next </Workout> closes the outer one, as the
            // survey's cuts assume.
            return invalid(line, "Workout", "begins inside the Workout of line \(outer.line)")
        }
        guard let type = tag.string(Self.attribute.activityType) else {
            return invalid(line, "workoutActivityType", "is missing")
        }
        guard let start = tag.withAttribute(Self.attribute.startDate, TimestampParser.milliseconds)
        else {
            return invalid(
                line, "startDate",
                "\"\(tag.string(Self.attribute.startDate) ?? "")\": \(TimestampParser.expectation)")
        }
        guard let end = tag.withAttribute(Self.attribute.endDate, TimestampParser.milliseconds),
            end >= start
        else {
            return invalid(line, "endDate", "is missing, malformed or before startDate")
        }
        if end - start > SampleRules.maximumDuration { return .ignored(reason: Self.tooLong) }
        var distance: Double?
        if let total = tag.withAttribute(Self.attribute.totalDistance, NumberParser.double) {
            let unit = tag.string(Self.attribute.totalDistanceUnit) ?? "km"
            guard let factor = AppleHealthUnits.distance[unit] else {
                return invalid(line, "totalDistanceUnit", "\"\(unit)\" is not a distance unit")
            }
            distance = total * factor
        }
        let name =
            type.hasPrefix("HKWorkoutActivityType")
            ? String(type.dropFirst("HKWorkoutActivityType".count)) : type
        let workout = PendingWorkout(
            series: name.isEmpty ? "Workout" : name, start: start, end: end, distance: distance,
            line: line, source: source(of: tag))
        if tag.isSelfClosing { return emit(workout) }
        pendingWorkout = workout
        return nil
    }

    private func emit(_ workout: PendingWorkout) -> ParsedRecord {
        .sample(
            series: workout.series, unit: "m", kind: .cumulative, source: workout.source,
            sample: Sample(
                startMilliseconds: workout.start, endMilliseconds: workout.end,
                value: workout.distance ?? workout.statisticsDistance),
            line: workout.line)
    }
}
