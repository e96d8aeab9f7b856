// A phone's store and a tablet's store converge through change-set files, as they would
// through CloudKit or an HTTP endpoint: each device writes, deletes and reorders sources on
// its own, and the phone mirrors HealthKit's steps (samples with ids, deletions by id); then
// each sends the other what it committed after the anchor the other last applied. CI builds
// and runs it; the DocC article "Syncing stores" quotes it.
//
//     swift run sync-example
import Foundation
import TrendStore

/// One device's store, and where it drops the change-set files it sends.
struct Device {
    let name: String
    let store: TrendStore
}

/// Sends what `sender` committed since `receiver` last applied its changes, as a file (the
/// transport), and applies it on `receiver` with the sender's new anchor in the same commit.
@discardableResult
func send(from sender: Device, to receiver: Device, through folder: URL) async throws
    -> ApplySummary
{
    let anchorName = "peer." + (try sender.store.changeAnchor().storeIdentifier)
    var since: ChangeAnchor?
    if let saved = try receiver.store.externalAnchor(named: anchorName) {
        since = ChangeAnchor(String(decoding: saved, as: UTF8.self))
    }
    let changes: ChangeSet
    do {
        changes = try sender.store.changes(since: since)
    } catch StoreError.Code.anchorExpired {
        changes = try sender.store.changes(since: nil)
    }
    let file = folder.appendingPathComponent("\(sender.name)-\(changes.anchor).changes")
    try changes.encoded().write(to: file)

    let received = try ChangeSet(encoded: try Data(contentsOf: file))
    return try await receiver.store.apply(
        received, externalAnchor: Data(received.anchor.description.utf8), named: anchorName)
}

/// What an `HKAnchoredObjectQuery` reports: samples added (with their UUIDs), the UUIDs of
/// samples deleted, and the query's new anchor (archived).
struct HealthKitResults {
    let added: [(uuid: UUID, sample: Sample)]
    let deleted: [UUID]
    let archivedAnchor: Data
}

/// Mirrors one query's results into `store`: the samples, the deletions by id and the
/// query's anchor land in one commit, so a mirror killed between two queries resumes from
/// the anchor without losing or repeating a sample.
func mirror(_ results: HealthKitResults, into store: TrendStore) async throws -> WriteSummary? {
    let samples = results.added.map(\.sample)
    let added = results.added.map(\.uuid)
    let deleted = results.deleted
    let archivedAnchor = results.archivedAnchor
    let summary = try await store.write(
        [
            SeriesSamples(
                series: "stepCount", unit: "count", samples: samples, source: "iPhone",
                ids: added.map { SampleID($0) })
        ],
        deletingSamplesWithIDs: ["stepCount": deleted.map { SampleID($0) }],
        externalAnchor: archivedAnchor, named: "healthkit.stepCount")
    return summary["stepCount"]
}

/// Minutes of active energy from `start`, one sample a minute.
func minutes(from start: Date, count: Int, value: Double) -> [Sample] {
    (0..<count).map { minute in
        let begin = start.addingTimeInterval(Double(minute) * 60)
        return Sample(start: begin, end: begin.addingTimeInterval(60), value: value)
    }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "sync-example-\(ProcessInfo.processInfo.processIdentifier)")
defer { try? FileManager.default.removeItem(at: folder) }
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
var options = StoreOptions()
options.timeZone = TimeZone(identifier: "Europe/Berlin")
let phone = Device(
    name: "phone",
    store: try TrendStore(directory: folder.appendingPathComponent("phone"), options: options))
let tablet = Device(
    name: "tablet",
    store: try TrendStore(directory: folder.appendingPathComponent("tablet"), options: options))

// Each device writes what its own sources measured; the ring overlaps the watch.
let morning = Date(timeIntervalSince1970: 1_780_036_200)  // 2026-05-29 08:30 in Berlin
try await phone.store.write(
    minutes(from: morning, count: 90, value: 4), to: "activeEnergy", unit: "kcal", source: "Watch")
try await tablet.store.write(
    minutes(from: morning, count: 30, value: 3), to: "activeEnergy", unit: "kcal", source: "Ring")
try await send(from: phone, to: tablet, through: folder)
try await send(from: tablet, to: phone, through: folder)

// Then, apart: the phone deletes ten minutes, the tablet ranks the ring first.
try await phone.store.deleteSamples(
    of: "activeEnergy", from: morning, to: morning.addingTimeInterval(600))
try await tablet.store.setSourcePriority(["Ring"], for: "activeEnergy")
// The phone mirrors HealthKit's steps: three samples, then a query that reports one of
// them deleted and a fourth added.
let walks = (0..<4).map { (uuid: UUID(), sample: minutes(from: morning, count: 4, value: 500)[$0]) }
try await phone.store.declareSeries("stepCount", unit: "count")
_ = try await mirror(
    HealthKitResults(added: Array(walks.prefix(3)), deleted: [], archivedAnchor: Data([1])),
    into: phone.store)
let second = try await mirror(
    HealthKitResults(added: [walks[3]], deleted: [walks[0].uuid], archivedAnchor: Data([2])),
    into: phone.store)
print("mirrored: \(second?.removed ?? 0) sample removed by id, \(second?.inserted ?? 0) added")
let toTablet = try await send(from: phone, to: tablet, through: folder)
let toPhone = try await send(from: tablet, to: phone, through: folder)
print("phone → tablet: \(toTablet.samplesRemoved) samples removed")
print("tablet → phone: \(toPhone.priorityOrders) priority order")

// Both answer the same, and one more exchange changes nothing.
let day = LocalDate(containing: morning, in: options.timeZone ?? .current)
let phoneTotal = try phone.store.dayCurve(of: "activeEnergy", on: day).total
let tabletTotal = try tablet.store.dayCurve(of: "activeEnergy", on: day).total
let steps = try tablet.store.dayCurve(of: "stepCount", on: day).total
let again = try await send(from: phone, to: tablet, through: folder)
print("total on the phone: \(phoneTotal) kcal, on the tablet: \(tabletTotal) kcal")
print("steps on the tablet: \(steps)")
// The watch's 80 minutes left count but where the ring, ranked first, covers 20 of them.
let expected: Double = 80 * 4 - 20 * 4 + 20 * 3
guard phoneTotal == tabletTotal, phoneTotal == expected, steps == 1_500, again.changedNothing
else {
    print("the stores did not converge")
    exit(1)
}
await phone.store.close()
await tablet.store.close()
