// A second process for the tests: opens a store and carries out the commands it reads from
// standard input, one a line, answering each with a line ("ok" and a figure, or "error" and
// why), so a test can interleave its own reads with this process's commits exactly.
//
//   trendstore-test-peer STORE DURABILITY
//   write SERIES START_MS END_MS VALUE     one sample in one commit
//   today SERIES                           the cached today curve's total, or "none"
//   handles COUNT                          opens COUNT more handles on the store
//   ticked-write                           those handles each write one sample at once
//                                          while a 10 ms ticker runs on the pool; answers
//                                          the writes' wall time and the ticker's worst
//                                          lateness, in ms
//   pairs SERIES EARLY_MS LATE_MS COUNT    COUNT commits, commit i writing a minute sample
//                                          at EARLY + i minutes and one at LATE + i minutes
//   cache NAMESPACE KEY VALUE              a TypedCache<String, Int> insert
//   mirror SERIES BATCHES SIZE             a mirrored import: from the batch after the one
//                                          the external anchor "mirror" names, each batch b
//                                          (SIZE minute samples of value b, ids "b/i")
//                                          written with anchor b and the deletion by id of
//                                          batch b-1's first sample in one commit
//   apply FILE                             applies the change set in FILE, a block (8,192
//                                          samples) a transaction
//   quit
import Foundation
import TrendStore

/// Writes `line` to standard output at once (the test waits for it).
func answer(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[2] == "lmdb" { holdWriterLock(directory: arguments[1]) }
guard arguments.count == 3, let durability = Durability(rawValue: arguments[2]) else {
    answer("error usage: trendstore-test-peer STORE full|normal|none")
    exit(2)
}
var options = StoreOptions()
options.durability = durability
let store: TrendStore
do {
    store = try TrendStore(directory: URL(fileURLWithPath: arguments[1]), options: options)
} catch {
    answer("error \(error)")
    exit(1)
}
answer("ready")
var handles: [TrendStore] = []

while let line = readLine() {
    let words = line.split(separator: " ").map(String.init)
    do {
        switch words.first {
        case "write" where words.count == 5:
            guard let start = Int64(words[2]), let end = Int64(words[3]),
                let value = Double(words[4])
            else { throw PeerError.malformed(line) }
            try await store.write(
                [Sample(startMilliseconds: start, endMilliseconds: end, value: value)],
                to: words[1], unit: "kcal")
            answer("ok")
        case "pairs" where words.count == 5:
            guard let early = Int64(words[2]), let late = Int64(words[3]),
                let count = Int64(words[4])
            else { throw PeerError.malformed(line) }
            for i in 0..<count {
                let samples = [early, late].map { start in
                    Sample(
                        startMilliseconds: start + i * 60_000,
                        endMilliseconds: start + i * 60_000 + 60_000, value: 1)
                }
                try await store.write(samples, to: words[1], unit: "kcal")
            }
            answer("ok")
        case "cache" where words.count == 4:
            guard let value = Int(words[3]) else { throw PeerError.malformed(line) }
            try TypedCache<String, Int>(store: store, namespace: words[1])
                .insert(value, forKey: words[2])
            answer("ok")
        case "today" where words.count == 2:
            let cached = try store.cachedToday(of: words[1])
            answer("ok \(cached.map { "\($0.value.curve.total)" } ?? "none")")
        case "handles" where words.count == 2:
            guard let count = Int(words[1]) else { throw PeerError.malformed(line) }
            handles = try (0..<count).map { _ in
                try TrendStore(directory: URL(fileURLWithPath: arguments[1]), options: options)
            }
            answer("ok")
        case "ticked-write":
            let (wall, late) = try await tickedWrites(through: handles)
            answer("ok \(wall) \(late)")
        case "mirror" where words.count == 4:
            guard let batches = Int(words[2]), let size = Int64(words[3]) else {
                throw PeerError.malformed(line)
            }
            let done = try store.externalAnchor(named: "mirror").flatMap {
                Int(String(decoding: $0, as: UTF8.self))
            }
            for batch in ((done ?? 0) + 1)..<(batches + 1) {
                let samples = (0..<size).map { minute in
                    let start = 1_780_000_000_000 + (Int64(batch) * size + minute) * 60_000
                    return Sample(
                        startMilliseconds: start, endMilliseconds: start + 60_000,
                        value: Double(batch))
                }
                let ids = try (0..<size).map { try SampleID("\(batch)/\($0)") }
                try await store.write(
                    [SeriesSamples(series: words[1], unit: "kcal", samples: samples, ids: ids)],
                    deletingSamplesWithIDs: batch > 1
                        ? [words[1]: [try SampleID("\(batch - 1)/0")]] : [:],
                    externalAnchor: Data(String(batch).utf8), named: "mirror")
            }
            answer("ok")
        case "apply" where words.count == 2:
            let changes = try ChangeSet(encoded: Data(contentsOf: URL(fileURLWithPath: words[1])))
            let summary = try await store.apply(changes, samplesPerBatch: 1)
            answer("ok \(summary.samplesWritten)")
        case "heatmap" where words.count == 4:
            guard let from = LocalDate(words[2]), let through = LocalDate(words[3]) else {
                throw PeerError.malformed(line)
            }
            let heatmap = try await store.refreshedHeatmap(
                of: words[1].split(separator: ",").map(String.init), from: from,
                through: through, maxAge: 0)
            answer("ok \(heatmap.value.days.reduce(0) { $0 + $1.count })")
        case "quit":
            exit(0)
        default:
            throw PeerError.malformed(line)
        }
    } catch {
        answer("error \(error)")
    }
}

/// A command this program does not know.
enum PeerError: Error {
    case malformed(String)
}
