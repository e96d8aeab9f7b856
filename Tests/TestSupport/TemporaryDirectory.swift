import Foundation
import TrendStore

/// A unique directory under the system's temporary folder, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    /// The directory's location.
    public let url: URL

    /// Creates a fresh, empty directory.
    public init(prefix: String = "trendstore-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to the file `name` in the directory and returns its path.
    public func file(_ name: String, containing text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Deletes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Runs `body` with a store in a fresh temporary directory, removed afterwards.
public func withTemporaryStore<R>(
    options: StoreOptions = StoreOptions(), _ body: (TrendStore, URL) async throws -> R
) async throws -> R {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    var options = options
    options.durableCommits = false
    let storeURL = directory.url.appendingPathComponent("store")
    let store = try TrendStore(directory: storeURL, options: options)
    return try await body(store, storeURL)
}

/// The samples `store` holds for `series`: none when the series was never created (no
/// batch committed); any other error fails the caller, so "nothing stored" never passes
/// for "could not read".
public func committedSamples(of series: String, in store: TrendStore) throws -> [Sample] {
    do {
        return try store.samples(of: series, from: .distantPast, to: .distantFuture)
    } catch StoreError.unknownSeries {
        return []
    }
}

extension StoreOptions {
    /// The defaults with quarter-hour rollup rows, whatever the zone: for tests of the rows.
    public static var quarterHourGrid: StoreOptions {
        var options = StoreOptions()
        options.rollupGrid = .quarterHour
        return options
    }
}
