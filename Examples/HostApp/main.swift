// An app and its widget on one store: the README's "Using it from Swift" is the part of
// this file between the README markers, and CI builds and runs it, so neither can rot.
//
//     swift run host-app-example
import Foundation
import TrendStore

#if canImport(HealthKit)
    import HealthKit

    /// Writes active energy as HealthKit delivers it: the anchored query's first answer, then
    /// every new batch, each one transaction with the query's new anchor, which the next
    /// launch starts from (on Apple platforms only; not compiled on Linux).
    ///
    /// What it does not do yet: it does not apply HealthKit's deletions (the store does not
    /// keep HealthKit's sample ids). A failed query or write is passed to `report`, never
    /// dropped.
    func deliverActiveEnergy(
        from health: HKHealthStore, to store: TrendStore,
        report: @escaping @Sendable (any Error) -> Void
    ) {
        let anchorName = "healthkit.activeEnergy"
        var saved: HKQueryAnchor?
        if let data = try? store.externalAnchor(named: anchorName) {
            saved = try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data)
        }
        // One writer, in delivery order: each batch lands with the anchor that follows it.
        let (batches, delivered) = AsyncStream.makeStream(of: ([Sample], Data).self)
        Task {
            for await (samples, anchor) in batches {
                do {
                    let part = SeriesSamples(series: "activeEnergy", unit: "kcal", samples: samples)
                    try await store.write([part], externalAnchor: anchor, named: anchorName)
                } catch {
                    report(error)
                }
            }
        }
        @Sendable func write(_ added: [HKSample]?, _ anchor: HKQueryAnchor?, _ error: (any Error)?)
        {
            if let error { return report(error) }
            let samples = (added as? [HKQuantitySample] ?? []).map { sample in
                Sample(
                    start: sample.startDate, end: sample.endDate,
                    value: sample.quantity.doubleValue(for: .kilocalorie()))
            }
            guard let anchor,
                let archived = try? NSKeyedArchiver.archivedData(
                    withRootObject: anchor, requiringSecureCoding: true)
            else { return }
            delivered.yield((samples, archived))
        }
        let query = HKAnchoredObjectQuery(
            type: HKQuantityType(.activeEnergyBurned), predicate: nil, anchor: saved,
            limit: HKObjectQueryNoLimit
        ) { _, added, _, anchor, error in write(added, anchor, error) }
        query.updateHandler = { _, added, _, anchor, error in write(added, anchor, error) }
        health.execute(query)
    }
#endif

/// Where the app and its widget share files: the app group container on Apple platforms,
/// a temporary directory elsewhere.
func sharedContainer() -> URL {
    #if os(iOS) || os(watchOS)
        if let url = FileManager.default.containerURL(
            forSecurityApplicationGroupIdentifier: "group.com.example.trends")
        {
            return url
        }
    #endif
    return FileManager.default.temporaryDirectory.appendingPathComponent(
        "host-app-example-\(ProcessInfo.processInfo.processIdentifier)")
}

/// The widget's side, run as a second process: it reads what its timeline shows from the
/// cache, then writes one sample the app observes.
func runAsWidget(storePath: String) async throws {
    let store = try TrendStore(directory: URL(fileURLWithPath: storePath))
    let entry = try store.cachedToday(of: "activeEnergy")  // the timeline provider's figures
    try check(entry != nil, "the widget found no cached curve")
    let minute = Date(
        timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60)
    try await store.write(
        [Sample(start: minute, end: minute.addingTimeInterval(60), value: 1.5)],
        to: "activeEnergy", unit: "kcal")
    await store.close()
}

/// Runs the widget's side as a second process, as the system would, and waits for it.
func runWidget(on store: URL) async throws {
    let widget = Process()
    widget.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    widget.arguments = ["--widget", store.path]
    try widget.run()
    widget.waitUntilExit()
    try check(widget.terminationStatus == 0, "the widget process failed")
}

/// A view model's side: the live value a SwiftUI view would bind to, on the main actor.
@MainActor
func showToday(of store: TrendStore) async throws -> Double? {
    let today = LiveQuery(store) { try $0.todayCurve(of: "activeEnergy").total }
    for _ in 0..<400 where today.value == nil { try await Task.sleep(for: .milliseconds(5)) }
    return today.value
}

/// An encrypted store: its key comes from where the platform keeps secrets (the Keychain).
func keepEncrypted(beside container: URL) async throws {
    let keyFromTheKeychain = EncryptionKey.random().withUnsafeBytes { Array($0) } ?? []
    var options = StoreOptions()
    options.encryptionKey = try EncryptionKey(rawBytes: keyFromTheKeychain)  // or .random(), kept
    let store = try TrendStore(directory: container.appending(path: "trends"), options: options)
    try await store.declareSeries("activeEnergy", unit: "kcal")
    try check(try store.encryptionCipher == "AES-256-GCM", "the store is not encrypted")
    await store.close()
}

/// Fails the example (and CI) with a message.
struct ExampleFailure: Error, CustomStringConvertible {
    let description: String
}

func check(_ condition: Bool, _ message: String) throws {
    if !condition { throw ExampleFailure(description: message) }
}

func runAsApp() async throws {
    let container = sharedContainer()
    defer { try? FileManager.default.removeItem(at: container) }
    let now = Date()
    let retention: TimeInterval = 400 * 86_400  // what the app keeps on the device
    let longAgo = now.addingTimeInterval(-retention - 30 * 86_400)
    // The last three hours' minutes, and one sample of an import from long ago.
    let minuteSamples =
        (1...180).map { minutesAgo in
            let start = now.addingTimeInterval(-60 * Double(minutesAgo))
            return Sample(start: start, end: start.addingTimeInterval(60), value: 0.8)
        } + [Sample(start: longAgo, end: longAgo.addingTimeInterval(60), value: 1)]

    // README:begin
    // 1. Open (or create) the store in the app group container, off the main thread (it may
    //    run migrations); the widget opens it too.
    let store = try await TrendStore.open(directory: container.appending(path: "trends"))

    // 2. Write samples as they arrive: one transaction per call, rollups updated in step.
    try await store.write(minuteSamples, to: "activeEnergy", unit: "kcal")

    // 3. Query a screen's figures from one snapshot, so they agree with each other.
    let (today, mondays) = try store.read { snapshot in
        (
            try snapshot.todayCurve(of: "activeEnergy", now: now),
            try snapshot.weekdayAverage(of: "activeEnergy", weekday: .monday, now: now)
        )
    }
    let expectedByNow = mondays.value(atHour: 9.5)  // nil until a Monday has samples

    // 4. Observe a live value: today's total now, then after every commit that changes it,
    //    from this process or the widget's (a SwiftUI view binds to a LiveQuery instead).
    let totals = Task {
        var seen: [Double] = []
        for try await total in store.observe({ try $0.todayCurve(of: "activeEnergy").total }) {
            seen.append(total)
            if total > today.total { break }  // the widget's write has come
        }
        return seen
    }

    // 5. Cache what the widget shows: refreshed by the rules; a write into today rewrites it.
    let cached = try await store.refreshedToday(of: "activeEnergy", now: now)

    // 6. Keep the store small and safe: a compacted backup, samples past the retention pruned.
    let backup = container.appending(path: "backup-\(Int(now.timeIntervalSince1970))")
    try await store.backup(to: backup)
    let removed = try await store.deleteSamples(
        of: "activeEnergy", before: now.addingTimeInterval(-retention))

    // 7. Before iOS suspends the app, give up the store's file locks (an app suspended holding
    //    one is ended); observers stay alive and catch up when it resumes.
    store.suspend()
    try await runWidget(on: container.appending(path: "trends"))  // the widget writes meanwhile
    try store.resume()
    // README:end

    let observed = try await totals.value
    let shown = try await showToday(of: store)

    // Heart rate is a discrete series: intervals report its average, minimum and maximum.
    let beats = (0..<120).map { minutesAgo in
        let start = now.addingTimeInterval(-60 * Double(minutesAgo))
        return Sample(start: start, end: start, value: Double(60 + minutesAgo % 40))
    }
    try await store.write(beats, to: "heartRate", unit: "count/min", kind: .discrete)
    let hours = try store.statistics(
        of: "heartRate", from: now.addingTimeInterval(-7_200), to: now.addingTimeInterval(1),
        interval: .hours(1), options: [.average, .minimum, .maximum])
    for bucket in hours.buckets where bucket.average != nil {
        print(bucket.start, bucket.average!, bucket.minimum!, bucket.maximum!)
    }

    // A watch and a phone count the same minutes of yesterday morning: where they overlap the
    // watch counts (Health's default order), so the day shows 3,000 + a quarter of the
    // phone's 2,000.
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = store.defaultTimeZone
    let yesterday = now.addingTimeInterval(-86_400)
    let morning = calendar.date(bySettingHour: 10, minute: 0, second: 0, of: yesterday) ?? yesterday
    let watchSteps = (0..<30).map { minute in
        let start = morning.addingTimeInterval(60 * Double(minute))
        return Sample(start: start, end: start.addingTimeInterval(60), value: 100)
    }
    let phoneSteps = [
        Sample(start: morning, end: morning.addingTimeInterval(2_400), value: 2_000)
    ]
    try await store.write(watchSteps, to: "steps", unit: "count", source: "Apple Watch")
    try await store.write(phoneSteps, to: "steps", unit: "count", source: "iPhone")
    let stepDay = LocalDate(containing: morning, in: store.defaultTimeZone)
    let merged = try store.dayCurve(of: "steps", on: stepDay)
    let phoneAlone = try store.dayCurve(of: "steps", on: stepDay, source: "iPhone")
    await store.close()

    try check(
        (observed.last ?? 0) > today.total, "the widget's write was not observed: \(observed)")
    try check(shown != nil, "the live query showed nothing")
    try await keepEncrypted(beside: container.appending(path: "encrypted"))
    try check(today.total > 0 && today.latestSampleTimestamp != nil, "today's curve is empty")
    try check(cached.value.curve.total == today.total, "the cached curve differs from the query")
    try check(removed > 0, "nothing was pruned")
    try check(
        abs(merged.total - 3_500) < 1e-9 && phoneAlone.total == 2_000,
        "sources: merged \(merged.total), the phone alone \(phoneAlone.total)")
    try check(
        hours.buckets.compactMap(\.maximum).max() == 99
            && hours.buckets.compactMap(\.minimum).min() == 60,
        "heart rate statistics: \(hours.buckets)")
    print(
        "host app: today \(today.total) kcal, Monday pattern \(expectedByNow.map { "\($0)" } ?? "none yet"), "
            + "widget's write observed, backup made, \(removed) old samples pruned, store closed")
}

if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "--widget" {
    try await runAsWidget(storePath: CommandLine.arguments[2])
} else {
    try await runAsApp()
}
