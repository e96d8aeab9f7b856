import Foundation
import Testing
import TestSupport
import TrendStore

/// A leaf page whose header lists fewer entries than it holds (a damaged `mp_lower`) makes
/// LMDB read fewer rows without a word: queries must throw, never answer from what is left
/// (issue 32, item 9).
@Suite("Pages hiding entries")
struct HiddenEntriesTests {
    private static let pageSize = 4_096
    private static let firstDay = Int64(20_300)

    /// A store of 40 days of minute energy and two runs a day, closed; returns its directory.
    private static func makeStore(in directory: TemporaryDirectory) async throws -> URL {
        let url = directory.url.appendingPathComponent("store")
        let store = try TrendStore(directory: url)
        var generator = SampleGenerator(seed: 32)
        let start = firstDay * 86_400_000
        try await store.write(
            generator.minuteSamples(from: start, count: 40 * 1_440), to: "energy", unit: "kcal")
        let runs = (0..<80).map { index in
            let begin = start + Int64(index) * 43_200_000 + 25_200_000
            return Sample(
                startMilliseconds: begin, endMilliseconds: begin + 1_800_000,
                value: Double(index % 7) + 0.25)
        }
        try await store.write(runs, to: "Run", unit: "kcal")
        await store.close()
        return url
    }

    /// Every query the test asks, as text: samples, weekday averages, a heatmap, a day's curve.
    private static func answers(of url: URL) throws -> String {
        var options = StoreOptions()
        options.readOnly = true
        let store = try TrendStore(directory: url, options: options)
        let utc = TimeZone(identifier: "UTC")!
        let now = Date(timeIntervalSince1970: Double(firstDay + 40) * 86_400 - 3_600)
        return try store.read { snapshot in
            let everything = (Date(timeIntervalSince1970: 0), now.addingTimeInterval(86_400))
            return [
                "\(try snapshot.samples(of: "energy", from: everything.0, to: everything.1))",
                "\(try snapshot.samples(of: "Run", from: everything.0, to: everything.1))",
                "\(try snapshot.weekdayAverages(of: "energy", now: now, timeZone: utc))",
                "\(try snapshot.heatmap(of: ["Run"], from: LocalDate(dayNumber: firstDay), through: LocalDate(dayNumber: firstDay + 39), timeZone: utc))",
                "\(try snapshot.todayCurve(of: "energy", now: now, timeZone: utc))",
            ].joined(separator: "\n")
        }
    }

    /// Writes `damaged` as the data file of a store at `copy` and asks the queries: `true`
    /// when they throw; otherwise expects them to answer `expected` (the undamaged answers).
    private static func refuses(
        _ damaged: [UInt8], at copy: URL, answeringOtherwiseThan expected: String, page: Int
    ) throws -> Bool {
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try Data(damaged).write(to: copy.appendingPathComponent("data.mdb"))
        do {
            let same = try answers(of: copy) == expected
            #expect(same, "page \(page): the queries answered otherwise")
            return false
        } catch {
            return true
        }
    }

    @Test("every leaf page made to hide its last entry: each query answers as before or throws")
    func hiddenLastEntry() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try await Self.makeStore(in: directory)
        let original = [UInt8](try Data(contentsOf: url.appendingPathComponent("data.mdb")))
        let expected = try Self.answers(of: url)
        let copy = directory.url.appendingPathComponent("copy")
        var refused = 0
        var leaves = 0
        for page in 2..<(original.count / Self.pageSize) {
            let base = page * Self.pageSize
            let flags = UInt16(original[base + 10]) | UInt16(original[base + 11]) << 8
            let lower = Int(original[base + 12]) | Int(original[base + 13]) << 8
            // A leaf of at least two entries (a leaf of one would read as empty, as a branch).
            guard flags == 0x02, lower >= 16 + 4 else { continue }
            leaves += 1
            var damaged = original
            damaged[base + 12] = UInt8((lower - 2) & 0xFF)
            damaged[base + 13] = UInt8((lower - 2) >> 8)
            if try Self.refuses(damaged, at: copy, answeringOtherwiseThan: expected, page: page) {
                refused += 1
            }
        }
        // The pages hiding a row the queries read are refused; the others (day rows and
        // cached values no query here reads) answer as before.
        #expect(leaves >= 8, "\(leaves) leaf pages")
        #expect(refused >= 3, "\(refused) of \(leaves) refused")
    }

    @Test(
        "every leaf page overwritten with LMDB's directory of tables (a misplaced write): each query answers as before or throws"
    )
    func directoryPageInATable() async throws {
        try await withTemporaryDirectory { directory in
            let url = try await Self.makeStore(in: directory)
            let original = [UInt8](try Data(contentsOf: url.appendingPathComponent("data.mdb")))
            let expected = try Self.answers(of: url)
            func word(_ offset: Int, _ count: Int) -> Int {
                (0..<count).reduce(0) { $0 | Int(original[offset + $1]) << (8 * $1) }
            }
            // The newest meta page (larger transaction id at byte 144) names the directory's
            // root at byte 128: the page listing the tables, each node flagged a sub-database.
            let meta = word(144, 8) > word(Self.pageSize + 144, 8) ? 0 : Self.pageSize
            let directoryPage = word(meta + 128, 8)
            let source = Array(
                original[(directoryPage * Self.pageSize)..<((directoryPage + 1) * Self.pageSize)])
            let copy = directory.url.appendingPathComponent("copy")
            var refused = 0
            var leaves = 0
            for page in 2..<(original.count / Self.pageSize) where page != directoryPage {
                let base = page * Self.pageSize
                guard word(base + 10, 2) == 0x02 else { continue }
                leaves += 1
                var damaged = original
                damaged.replaceSubrange(base..<(base + Self.pageSize), with: source)
                for byte in 0..<8 { damaged[base + byte] = UInt8((page >> (8 * byte)) & 0xFF) }
                if try Self.refuses(damaged, at: copy, answeringOtherwiseThan: expected, page: page)
                {
                    refused += 1
                }
            }
            #expect(leaves >= 8, "\(leaves) leaf pages")
            #expect(refused >= 3, "\(refused) of \(leaves) refused")
        }
    }
}
