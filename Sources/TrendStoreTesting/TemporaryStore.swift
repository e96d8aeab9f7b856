import Foundation
import TrendStore

/// A unique directory under the system's temporary folder, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    /// The directory's location.
    public let url: URL

    /// Creates a fresh, empty directory named `prefix-UUID`.
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

/// Runs `body` with a fresh temporary directory (``TemporaryDirectory``), removed when
/// `body` returns or throws.
///
/// ```swift
/// try await withTemporaryDirectory { directory in
///     let csv = try directory.file("a.csv", containing: "series,start,end,value\n")
///     _ = try await Importer(store: store).importFile(at: csv)
/// }
/// ```
public func withTemporaryDirectory<R>(
    prefix: String = "trendstore-test", _ body: (TemporaryDirectory) async throws -> R
) async throws -> R {
    let directory = try TemporaryDirectory(prefix: prefix)
    defer { directory.remove() }
    return try await body(directory)
}

/// Runs `body`, which does not wait, with a fresh temporary directory
/// (``TemporaryDirectory``), removed when `body` returns or throws.
public func withTemporaryDirectory<R>(
    prefix: String = "trendstore-test", _ body: (TemporaryDirectory) throws -> R
) throws -> R {
    let directory = try TemporaryDirectory(prefix: prefix)
    defer { directory.remove() }
    return try body(directory)
}

/// A store in a fresh temporary directory that is deleted when this object goes away: for
/// a host app's tests, which should neither share nor leave stores.
///
/// Commits do not wait for the disk (`StoreOptions.durability` is `.none`): a
/// test's store does not outlive a power loss.
///
/// ```swift
/// let temporary = try TemporaryStore()
/// try await temporary.store.write(samples, to: "activeEnergy", unit: "kcal")
/// #expect(try temporary.store.todayCurve(of: "activeEnergy").total > 0)
/// ```
public final class TemporaryStore: Sendable {
    /// The store.
    public let store: TrendStore
    /// The store's directory, inside a temporary directory of its own.
    public let url: URL
    private let directory: TemporaryDirectory

    /// Opens a new store with `options` in a new temporary directory.
    public init(options: StoreOptions = StoreOptions()) throws {
        directory = try TemporaryDirectory()
        url = directory.url.appendingPathComponent("store")
        var options = options
        options.durability = .none
        do {
            store = try TrendStore(directory: url, options: options)
        } catch {
            directory.remove()
            throw error
        }
    }

    deinit { directory.remove() }
}

/// Runs `body` with a store in a fresh temporary directory, deleted afterwards (see
/// ``TemporaryStore``).
public func withTemporaryStore<R>(
    options: StoreOptions = StoreOptions(), _ body: (TrendStore, URL) async throws -> R
) async throws -> R {
    let temporary = try TemporaryStore(options: options)
    defer { withExtendedLifetime(temporary) {} }
    return try await body(temporary.store, temporary.url)
}
