import ArgumentParser
import Foundation
import TrendStore

/// The `--store` option every command that opens a store shares.
struct StoreLocation: ParsableArguments {
    @Option(
        name: .long,
        help:
            "The store directory (default: $TRENDSTORE_STORE, else ~/.local/share/trendstore/default)."
    )
    var store: String?

    @OptionGroup var key: KeyFileOption

    func validate() throws {
        // An empty path would silently mean the current directory.
        if store?.isEmpty == true { throw ValidationError("--store names no directory") }
    }

    /// The directory the store lives in.
    var directory: URL {
        if let store { return URL(fileURLWithPath: store) }
        if let fromEnvironment = ProcessInfo.processInfo.environment["TRENDSTORE_STORE"],
            !fromEnvironment.isEmpty
        {
            return URL(fileURLWithPath: fromEnvironment)
        }
        let dataHome =
            ProcessInfo.processInfo.environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                ".local/share")
        return dataHome.appendingPathComponent("trendstore/default")
    }

    /// Whether the directory holds a store already.
    var holdsStore: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("data.mdb").path)
    }

    /// Opens the store; `timeZone` and `grid` are recorded only by a new store (an existing
    /// one keeps its own; `timeZone` is then this handle's zone).
    ///
    /// - Throws: ``CommandFailure`` naming the path when it is a file, cannot be read or
    ///   written, or (to read) holds no store.
    func open(
        newStoreZone timeZone: TimeZone? = nil, newStoreGrid grid: RollupGrid? = nil,
        readOnly: Bool = false
    ) throws -> TrendStore {
        var options = StoreOptions()
        options.readOnly = readOnly
        try key.apply(to: &options)
        let path = directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CommandFailure("store \(path): is a file, not a store directory")
            }
            guard access(path, R_OK | X_OK) == 0, readOnly || access(path, W_OK) == 0 else {
                // The system's reason: "Read-only file system" is not "Permission denied".
                throw CommandFailure(
                    "store \(path): \(String(cString: strerror(errno))) (cannot \(readOnly ? "read" : "write") the directory)"
                )
            }
        }
        if readOnly && !holdsStore { throw CommandFailure("store \(path): no store there") }
        // Given whether or not the files are there yet: another process may be creating the
        // store, and the settings are those of whichever data file is put in place first.
        options.timeZone = timeZone
        options.rollupGrid = grid
        return try TrendStore(directory: directory, options: options)
    }
}

/// A failure printed as one line on standard error, with a non-zero exit status.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body`, turning any error into one line on standard error and exit status 1.
func reportingErrors<R>(_ body: () async throws -> R) async throws -> R {
    do {
        return try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        FileHandle.standardError.write(Data("trendstore: \(Terminal.safe("\(error)"))\n".utf8))
        throw ExitCode.failure
    }
}

/// The `--tz` option of the queries: the zone of local days, parsed once at the edge.
struct ZoneOption: ParsableArguments {
    @Option(help: "The time zone of local days (default: the store's).", transform: Arguments.zone)
    var tz: TimeZone?

    /// The zone to use with `store`: `--tz`, else the store's default. Says on standard
    /// error which zone is used when `--tz` is not the store's default.
    func zone(for store: TrendStore) -> TimeZone {
        guard let zone = tz else { return store.defaultTimeZone }
        if zone.identifier != store.defaultTimeZone.identifier {
            FileHandle.standardError.write(
                Data(
                    "trendstore: using \(zone.identifier) (--tz); the store's default zone is \(store.defaultTimeZone.identifier)\n"
                        .utf8))
        }
        return zone
    }
}
