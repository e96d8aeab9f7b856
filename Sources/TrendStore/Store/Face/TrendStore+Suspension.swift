import Foundation

extension TrendStore {
    /// Posted by a host app (on `NotificationCenter.default`) when it is about to be suspended:
    /// every store opened with ``StoreOptions/observesSuspensionNotifications`` suspends.
    ///
    /// ```swift
    /// NotificationCenter.default.post(name: TrendStore.suspendNotification, object: nil)
    /// ```
    public static let suspendNotification = Notification.Name("TrendStoreSuspendNotification")
    /// Posted by a host app when it runs again: every store opened with
    /// ``StoreOptions/observesSuspensionNotifications`` resumes.
    public static let resumeNotification = Notification.Name("TrendStoreResumeNotification")

    /// Releases every file lock and file handle the store holds, without ending anything:
    /// what iOS asks of an app before it is suspended with a store in a shared app-group
    /// container (a process suspended while it holds a file lock there is killed,
    /// `0xdead10cc`).
    ///
    /// Waits for the reads and the write running now, then closes LMDB's files and gives up
    /// the directory's lock. Until ``resume()``:
    /// - reads and writes throw ``StoreError/Code/suspended``: they answer nothing stale
    ///   and queue nothing (`await` the writes you need before suspending);
    /// - ``observe(every:_:)`` sequences, ``changes(of:every:)`` sequences and ``LiveQuery``
    ///   models stay alive and quiet; after ``resume()`` each reads the store again and
    ///   yields if its value changed meanwhile (another process wrote);
    /// - a ``TypedCache`` answers nothing from memory either: its first read after resuming
    ///   checks the store's last commit, as every read does.
    ///
    /// Every handle of this process on the directory is suspended with this one (they share
    /// the files). Suspending twice does nothing.
    public nonisolated func suspend() {
        engine.suspend()
    }

    /// Opens the store's files again after ``suspend()`` and wakes every observer of this
    /// process on it. Resuming a store that is not suspended does nothing.
    ///
    /// - Throws: ``StoreError/Code/storeUnavailable`` when the store was removed
    ///   or replaced while suspended (open it again), ``StoreError/Code/closed`` after
    ///   ``close()``, ``StoreError/Code/storage`` when its files
    ///   cannot be opened; the store stays suspended then.
    public nonisolated func resume() throws {
        try engine.resume()
    }

    /// Whether the store is suspended (``suspend()``), by this handle or another of this
    /// process on the directory.
    public nonisolated var isSuspended: Bool { engine.environment.isSuspended }
}

extension StoreEngine {
    /// Suspends the environment of every handle of this process on the directory.
    func suspend() {
        if (try? checkOpen()) != nil { EnvironmentRegistry.suspend(environment) }
    }

    /// Resumes the environment and wakes this process's observers of the store.
    func resume() throws {
        try checkOpen()
        do {
            try EnvironmentRegistry.resume(environment, directory: directory)
        } catch {
            throw StoreError.wrapping(error, path: directory.path)
        }
        commits.notify()
    }
}

/// The app's suspension notifications, followed by a store opened with
/// ``StoreOptions/observesSuspensionNotifications``, until the store goes away.
final class SuspensionObserver: @unchecked Sendable {
    // @unchecked: the tokens are written once, in init, and only read after.
    private var tokens: [any NSObjectProtocol] = []

    /// Suspends and resumes `engine` on ``TrendStore/suspendNotification`` and
    /// ``TrendStore/resumeNotification``; a failed resume leaves it suspended, to be
    /// resumed by ``TrendStore/resume()``, which says why.
    init(engine: StoreEngine) {
        let center = NotificationCenter.default
        tokens = [
            center.addObserver(forName: TrendStore.suspendNotification, object: nil, queue: nil) {
                [weak engine] _ in engine?.suspend()
            },
            center.addObserver(forName: TrendStore.resumeNotification, object: nil, queue: nil) {
                [weak engine] _ in try? engine?.resume()
            },
        ]
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}
