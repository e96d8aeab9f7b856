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
    /// A store whose newest meta page is damaged opens at an earlier commit than its last
    /// (``TrendStore/metaPagesAgree()``): a writable open refuses it, and so does a read-only
    /// one unless `showingEarlierCommit` (for the commands that report it themselves), so no
    /// answer comes from a commit the store has moved past.
    ///
    /// With `keyless`, no key is given, whatever `--key-file` or `$TRENDSTORE_KEY_FILE` name.
    ///
    /// - Throws: ``CommandFailure`` naming the path when it is a file, cannot be read or
    ///   written, (to read) holds no store, or (with exit status 3) shows an earlier commit.
    func open(
        newStoreZone timeZone: TimeZone? = nil, newStoreGrid grid: RollupGrid? = nil,
        readOnly: Bool = false, showingEarlierCommit: Bool = false, keyless: Bool = false
    ) throws -> TrendStore {
        var options = StoreOptions()
        options.readOnly = readOnly
        if !keyless { try key.apply(to: &options) }
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
        let store = try TrendStore(directory: directory, options: options)
        if readOnly, !showingEarlierCommit, try !store.metaPagesAgree() {
            throw CommandFailure(
                "store \(path): the newest meta page of its data file is damaged, so it would show an earlier commit than the last; run trendstore verify, then restore a backup or export what it holds",
                status: TrendStoreCommand.damageStatus)
        }
        return store
    }
}

/// A failure printed as one line on standard error, with a non-zero exit status.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    /// The exit status: 1, or ``TrendStoreCommand/damageStatus`` for a damaged store.
    let status: Int32
    init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }
}

/// Runs `body`, turning any error into one line on standard error and exit status 1 (a
/// ``CommandFailure``'s own status).
func reportingErrors<R>(_ body: () async throws -> R) async throws -> R {
    do {
        return try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch let failure as CommandFailure {
        FileHandle.standardError.write(Data("trendstore: \(Terminal.safe("\(failure)"))\n".utf8))
        throw ExitCode(failure.status)
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
