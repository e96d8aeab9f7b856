// libFuzzer target: the file readers of TrendStoreImport, each given the input as a file.
// Built by Tools/Fuzz/run.sh together with the TrendStoreImport sources (less the zip and
// Importer plumbing), so internal parsers are reachable.
import Foundation
import TrendStore

private let path = FileManager.default.temporaryDirectory.appendingPathComponent(
    "trendstore-fuzz-\(getpid()).input"
).path

private func drain(_ parser: any RecordParser) {
    var records = 0
    while records < 100_000, let record = try? parser.next() {
        _ = record
        records += 1
    }
}

private func drain<Source: SliceSource>(_ source: Source) {
    var pieces = 0
    while pieces < 10_000, let piece = try? source.cut() {
        if source.parse(piece).failure != nil { return }
        pieces += 1
    }
}

/// Numbers at the limits of what each numeric field's arithmetic holds: Int64's and Double's
/// ends, values just past the store's rules (1e15, 14 days, years 1 and 9999), signed zeros.
private let limits = [
    "0", "-0", "1", "-1", "1e15", "1.0000000000000002e15", "1e16", "1e308", "1.8e308", "-1e308",
    "4.9e-324", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "18446744073709551616", "1209600", "1209601", "1209600000", "1209600001",
    "253402300799999", "253402300800000", "-62135596800000", "-62135596800001", "NaN", "inf",
    "1e-400", "0x10", "00000000000000000000001",
]

/// Files of every format whose numeric fields are drawn from ``limits`` by the input's bytes.
private func filesAtTheLimits(_ bytes: Data) -> [String] {
    var next = bytes.makeIterator()
    func limit() -> String { limits[Int(next.next() ?? 0) % limits.count] }
    let years = ["0001", "9999", "10000", "9223372036854775807", "2026"]
    func year() -> String { years[Int(next.next() ?? 0) % years.count] }
    return [
        "series,start,end,value\nx,\(limit()),\(limit()),\(limit())\nx,\(year())-01-01T00:00:00Z,\(year())-12-31T23:59:59.999+14:00,\(limit())\n",
        #"{"series":"x","start":\#(limit()),"end":\#(limit()),"value":\#(limit())}"# + "\n",
        "Activity ID,Activity Date,Activity Type,Elapsed Time,Distance\n1,\"Oct 6, \(year()), 11:19:20 PM\",Run,\(limit()),\(limit())\n",
        #"[{"sport_type":"Run","start_date":"\#(year())-10-06T23:19:20Z","elapsed_time":\#(limit()),"distance":\#(limit())}]"#,
        """
        <HealthData><ExportDate value="2026-11-20 10:00:00 -0800"/>
        <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" unit="kJ" startDate="\(year())-01-01 00:00:00 -0800" endDate="\(year())-01-01 00:00:00 +1400" value="\(limit())"/>
        <Workout workoutActivityType="HKWorkoutActivityTypeRunning" startDate="2026-01-01 00:00:00 -0800" endDate="\(year())-01-01 00:00:00 -0800" totalDistance="\(limit())" totalDistanceUnit="mi"><WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" sum="\(limit())" unit="mi"/></Workout>
        </HealthData>
        """,
    ]
}

/// Reads the file at `path` with every reader; the CSV reader in pieces cut small (so
/// records straddle them) and large, strict and skipping.
private func readEveryFormat() {
    for (sliceBytes, skipInvalid) in [(61, true), (1 << 20, false)] {
        if let stream = try? ByteStream(path: path),
            let source = try? SampleCSVParser(
                stream: stream, skipInvalid: skipInvalid, sliceBytes: sliceBytes)
        {
            drain(source)
        }
    }
    if let stream = try? ByteStream(path: path) { drain(NDJSONParser(stream: stream)) }
    if let stream = try? ByteStream(path: path), let parser = try? StravaCSVParser(stream: stream) {
        drain(parser)
    }
    if let stream = try? ByteStream(path: path), let parser = try? StravaJSONParser(stream: stream)
    {
        drain(parser)
    }
    // Apple Health: the survey in stretches, in one pass, then the records as one stream
    // and in pieces cut small.
    _ = try? AppleHealthSurvey(
        path: path, pieceBytes: 1, longestPiece: 1 << 20, threads: 3,
        maximumRecordBytes: 1 << 20)
    if let stream = try? ByteStream(path: path),
        let survey = try? AppleHealthSurvey(
            stream: stream, displayPath: "fuzz", pieceBytes: 61, longestPiece: 1 << 20)
    {
        if let stream = try? ByteStream(path: path) {
            drain(AppleHealthParser(displayPath: "fuzz", survey: survey, stream: stream))
        }
        if let cuts = survey.cuts, let stream = try? ByteStream(path: path) {
            drain(
                AppleHealthPieces(
                    displayPath: "fuzz", survey: survey, cuts: cuts, stream: stream,
                    skipInvalid: true))
        }
    }
}

/// libFuzzer's entry point: reads `size` bytes with every importer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImportParsers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    guard FileManager.default.createFile(atPath: path, contents: bytes) else { return 0 }
    bytes.withUnsafeBytes { raw in
        _ = TimestampParser.milliseconds(raw)
        _ = NumberParser.double(raw)
        _ = NumberParser.integer(raw)
    }
    _ = StravaActivityDate.milliseconds(String(decoding: bytes.prefix(64), as: UTF8.self))
    if let stream = try? ByteStream(path: path) { _ = try? FormatDetector.detect(stream) }
    readEveryFormat()
    _ = try? LegacyCacheFile.read(bytes, zone: TimeZone(identifier: "America/Los_Angeles")!)
    for file in filesAtTheLimits(bytes)
    where FileManager.default.createFile(atPath: path, contents: Data(file.utf8)) {
        readEveryFormat()
    }
    return 0
}
