import Foundation
import Testing
import TestSupport
@testable import TrendStore
import TrendStoreGenerator
@testable import TrendStoreImport

/// Apple Health exports parsed in pieces on several threads: the same store, summary and
/// errors at the same lines as one piece read by one thread, wherever the survey cuts.
@Suite("Apple Health exports in pieces")
struct AppleHealthPiecesTests {
    /// A generated export (energy from a watch and a phone, workouts) with, at seeded random
    /// places: workouts without a total distance whose statistics give it after a record
    /// inside the workout (no piece may begin at that record), records of other
    /// types, malformed values, a correlation holding records, comments with tags in them.
    static func export(in directory: TemporaryDirectory, badValues: Bool) throws -> String {
        var configuration = DatasetGenerator.Configuration(
            days: 6, endDate: LocalDate("2026-03-10")!)
        configuration.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let generated = directory.url.appendingPathComponent("generated.xml").path
        let writer = try AppleHealthXMLWriter(
            path: generated, exportDate: Date(timeIntervalSince1970: 1_773_100_000),
            zone: configuration.timeZone)
        try DatasetGenerator(configuration).generate { try writer.write($0) }
        try writer.close()
        var lines = try String(contentsOfFile: generated, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let body = (lines.firstIndex { $0.contains("<Me ") } ?? 0) + 1
        let closing = lines.lastIndex { $0.contains("</HealthData>") } ?? lines.count
        var random = SeededGenerator(seed: 41)
        var inserts: [(Int, String)] = []
        for _ in 0..<60 {
            let at = Int.random(in: body..<closing, using: &random)
            // Only between elements: never inside a workout the generator wrote.
            guard lines[at].hasPrefix(" <Record") || lines[at].hasPrefix(" <Workout ") else {
                continue
            }
            let day = "2026-03-0\(Int.random(in: 5...9, using: &random)) 10:1\(at % 10)"
            let (date, end) = ("\(day):00 +0100", "\(day):30 +0100")
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                inserts.append(
                    (
                        at,
                        " <Workout workoutActivityType=\"HKWorkoutActivityTypeRowing\" sourceName=\"Watch\" startDate=\"\(date)\" endDate=\"\(date)\">\n  <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" startDate=\"\(date)\" endDate=\"\(end)\" value=\"3\"/>\n  <WorkoutStatistics type=\"HKQuantityTypeIdentifierDistanceRowing\" sum=\"1.5\" unit=\"km\"/>\n  <!-- <Record type=\"HKQuantityTypeIdentifierStepCount\"/> -->\n </Workout>"
                    ))
            case 1:
                inserts.append(
                    (
                        at,
                        " <Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"Scale\" unit=\"kg\" startDate=\"\(date)\" endDate=\"\(date)\" value=\"71.5\"/>"
                    ))
            case 2 where badValues:
                inserts.append(
                    (
                        at,
                        " <Record type=\"HKQuantityTypeIdentifierActiveEnergyBurned\" sourceName=\"Apple Watch\" unit=\"kcal\" startDate=\"\(date)\" endDate=\"\(end)\" value=\"1,5\"/>"
                    ))
            case 3:
                inserts.append(
                    (
                        at,
                        " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" startDate=\"\(date)\" endDate=\"\(date)\">\n  <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" startDate=\"\(date)\" endDate=\"\(end)\" value=\"12\"/>\n </Correlation>"
                    ))
            default:
                inserts.append((at, " <!-- a note: <Workout> </HealthData> -->"))
            }
        }
        for (at, text) in inserts.sorted(by: { $0.0 > $1.0 }) { lines.insert(text, at: at) }
        let path = directory.url.appendingPathComponent("export.xml").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func configure(threads: Int, pieceBytes: Int, skipInvalid: Bool)
        -> (inout ImportOptions) -> Void
    {
        { options in
            options.skipInvalid = skipInvalid
            options.batchSize = 3_000
            options.threads = threads
            options.sliceBytes = pieceBytes
        }
    }

    @Test("the parsing threads hold at most the piece budget, whatever --threads asks for")
    func boundedThreads() {
        typealias Pipeline = SlicePipeline<AppleHealthPieces>
        let budget = Pipeline.pieceBudget
        // 256 threads asked for pieces of 8 MiB (eight records of the 1 MiB limit): 4 run.
        #expect(Pipeline.workers(requested: 256, longestPiece: 8 << 20) == budget / (8 << 20))
        #expect(Pipeline.workers(requested: 256, longestPiece: 8 << 20) * (8 << 20) <= budget)
        // Pieces of a slice and a record: as many as the budget holds, never more than asked.
        #expect(Pipeline.workers(requested: 256, longestPiece: 2 << 20) == budget / (2 << 20))
        #expect(Pipeline.workers(requested: 3, longestPiece: 2 << 20) == 3)
        // A piece larger than the budget still gets one thread; none asked, none run.
        #expect(Pipeline.workers(requested: 8, longestPiece: .max) == 1)
        #expect(Pipeline.workers(requested: 0, longestPiece: 1) == 0)
    }

    @Test(
        "pieces cut anywhere and parsed on several threads write the very bytes one piece on one thread writes, with the same summary",
        arguments: [(2, 4_096), (3, 777), (1, 1 << 14), (2, 1), (256, 4_096)])
    func sameStore(threads: Int, pieceBytes: Int) async throws {
        try await withTemporaryDirectory { directory in
            let path = try Self.export(in: directory, badValues: true)
            let whole = try await ParallelImportTests.importAndDump(
                path, into: directory.url.appendingPathComponent("whole"),
                configure: Self.configure(threads: 1, pieceBytes: .max, skipInvalid: true))
            let pieces = try await ParallelImportTests.importAndDump(
                path, into: directory.url.appendingPathComponent("pieces"),
                configure: Self.configure(
                    threads: threads, pieceBytes: pieceBytes, skipInvalid: true))
            #expect(pieces.outcome == whole.outcome)
            #expect(pieces.contents == whole.contents)
            // Worth comparing: samples written, records skipped and ignored, workouts summed.
            #expect(whole.samples > 5_000)
            #expect(whole.outcome.contains("value: \\\"1,5\\\""), "\(whole.outcome)")
            #expect(whole.outcome.contains("Rowing"), "\(whole.outcome)")
        }
    }

    @Test(
        "a malformed record far into the export stops the import at its line in any pieces",
        arguments: [(1, Int.max), (2, 2_048), (3, 100)])
    func errorAtItsLine(threads: Int, pieceBytes: Int) async throws {
        try await withTemporaryDirectory { directory in
            let path = try Self.export(in: directory, badValues: true)
            let lines = try String(contentsOfFile: path, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            let bad = try #require(lines.firstIndex { $0.contains("value=\"1,5\"") }) + 1
            let outcome = try await ParallelImportTests.importAndDump(
                path, into: directory.url.appendingPathComponent("store"),
                configure: Self.configure(
                    threads: threads, pieceBytes: pieceBytes, skipInvalid: false))
            #expect(outcome.outcome.contains("export.xml:\(bad): value"), "\(outcome.outcome)")
        }
    }

    @Test(
        "an export with a workout that never ends is read as one stream, in bounded memory, to the same store"
    )
    func unendedWorkout() async throws {
        try await withTemporaryDirectory { directory in
            let path = try Self.export(in: directory, badValues: false)
            // No workout of the file ends: each begins inside the one before.
            var text = try String(contentsOfFile: path, encoding: .utf8)
                .replacingOccurrences(of: "\n </Workout>", with: "")
            let body = try #require(text.range(of: "<Record"))
            text.insert(
                contentsOf:
                    "<Workout workoutActivityType=\"HKWorkoutActivityTypeYoga\" startDate=\"2026-03-06 10:00:00 +0100\" endDate=\"2026-03-06 11:00:00 +0100\">\n ",
                at: body.lowerBound)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            // Small records allowed: no piece may exceed 8 of them, and everything after the
            // workout's start is one stretch without a place to cut.
            let stream = try ByteStream(path: path)
            let survey = try AppleHealthSurvey(
                stream: stream, displayPath: path, pieceBytes: 4_096, longestPiece: 8 * 4_096)
            #expect(survey.cuts == nil)
            let streamed = try await ParallelImportTests.importAndDump(
                path, into: directory.url.appendingPathComponent("streamed"),
                configure: { options in
                    options.threads = 2
                    options.sliceBytes = 4_096
                    options.maximumRecordBytes = 4_096
                    options.skipInvalid = true
                })
            // (The nested workouts, and the first, never closed, are skipped and counted.)
            let whole = try await ParallelImportTests.importAndDump(
                path, into: directory.url.appendingPathComponent("whole"),
                configure: { options in
                    options.threads = 2
                    options.skipInvalid = true
                })
            #expect(streamed.outcome == whole.outcome)
            #expect(streamed.contents == whole.contents)
            #expect(whole.samples > 5_000, "\(whole.outcome)")
        }
    }

    @Test(
        "a survey in two stretches, the second from any <Record or <Workout of the export, is the single pass's, or refused when that one lies in a comment or a workout"
    )
    func stretches() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.export(in: directory, badValues: true)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let single = try AppleHealthSurvey(
            stream: try ByteStream(path: path), displayPath: path, pieceBytes: 1,
            longestPiece: .max)
        let singleCuts = try #require(single.cuts)
        // Every candidate, and what a reading by hand says of it.
        func offsets(of needle: String) -> [Int] {
            let wanted = Array(needle.utf8)
            return (0...(bytes.count - wanted.count)).filter {
                bytes[$0] == wanted[0] && Array(bytes[$0..<($0 + wanted.count)]) == wanted
            }
        }
        let marks = ["<!--", "-->", "<Workout ", "</Workout>"].map { ($0, offsets(of: $0)) }
        let byMark = Dictionary(uniqueKeysWithValues: marks)
        func lastStart(of needle: String, before offset: Int) -> Int {
            byMark[needle]?.last { $0 < offset } ?? -1
        }
        let newlines = bytes.indices.filter { bytes[$0] == 0x0A }
        func line(of offset: Int) -> Int {
            var (low, high) = (0, newlines.count)
            while low < high {
                let middle = (low + high) / 2
                if newlines[middle] < offset { low = middle + 1 } else { high = middle }
            }
            return low + 1
        }
        let candidates = (offsets(of: "<Record ") + offsets(of: "<Workout ")).sorted()
        var random = SeededGenerator(seed: 7)
        var checked = (kept: 0, refused: 0)
        for start in candidates {
            let inComment =
                lastStart(of: "<!--", before: start) > lastStart(of: "-->", before: start)
            let inWorkout =
                lastStart(of: "<Workout ", before: start)
                > lastStart(of: "</Workout>", before: start)
            // Every refusable candidate, and a seeded sample of the rest.
            guard inComment || inWorkout || Int.random(in: 0..<600, using: &random) == 0 else {
                continue
            }
            let survey = try AppleHealthSurvey(
                path: path, displayPath: path, stretchesFrom: [0, start], size: bytes.count,
                pieceBytes: 1, longestPiece: .max, maximumRecordBytes: 1 << 20)
            if inComment || inWorkout {
                let refused = survey == nil
                #expect(refused, "at \(start)")
                checked.refused += 1
                continue
            }
            let stretched = try #require(survey, "at \(start)")
            #expect(stretched.exportDate == single.exportDate)
            #expect(stretched.byteCount == bytes.count)
            // The single pass's cuts, the one before the stretch's start moved to it.
            let replaced = singleCuts.last { $0.offset <= start }?.offset
            let cuts = try #require(stretched.cuts)
            let sameCuts =
                cuts.map(\.offset) == singleCuts.map { $0.offset == replaced ? start : $0.offset }
            #expect(sameCuts, "at \(start)")
            #expect(cuts.allSatisfy { $0.line == line(of: $0.offset) }, "at \(start)")
            checked.kept += 1
        }
        // Both kinds seen: the export holds workouts with a record and a comment inside.
        #expect(checked.refused >= 4 && checked.kept >= 8, "\(checked)")
    }
}
