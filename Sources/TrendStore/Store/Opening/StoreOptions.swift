import Foundation

/// How to open a store.
public struct StoreOptions: Sendable {
    /// The zone local-day figures of this handle use when a query names none.
    ///
    /// A new store records this zone (default `TimeZone.current`) as its default. An
    /// existing store keeps the zone it recorded: setting one here changes only what this
    /// handle uses, never the stored default (``TrendStore/setDefaultTimeZone(_:)`` does).
    public var timeZone: TimeZone?
    /// Opens the store for queries only; every write throws.
    public var readOnly: Bool = false
    /// The initial size of the memory map in bytes; it grows by itself.
    public var initialMapSize: Int = 64 << 20
    /// What a commit guarantees against a power loss: ``Durability/full`` (the default),
    /// ``Durability/normal`` or ``Durability/none``. Each handle chooses its own; two
    /// processes may differ.
    public var durability: Durability = .full
    /// Whether the store suspends on ``TrendStore/suspendNotification`` and resumes on
    /// ``TrendStore/resumeNotification`` posted to `NotificationCenter.default` (default
    /// `false`): an app posts them from its lifecycle instead of calling
    /// ``TrendStore/suspend()`` and ``TrendStore/resume()`` on every store.
    public var observesSuspensionNotifications = false
    /// The grid a new store's rollups resolve; `nil` (the default) chooses from the new
    /// store's zone: ``RollupGrid/hour``, its summaries in the zone's local hours, when
    /// the zone's hours from 2000 through 2099 all begin at one minute of the UTC hour
    /// (every zone but Lord Howe Island), else ``RollupGrid/quarterHour``. An existing store
    /// keeps the grid it was created with.
    public var rollupGrid: RollupGrid?

    #if Encryption
        /// The key of an encrypted store: a new store created with one seals every value it
        /// writes (AES-256-GCM); an encrypted store opens only with its key. `nil` (the
        /// default): a plain store, which refuses a key.
        public var encryptionKey: EncryptionKey?
    #endif

    /// How long the change feed remembers what each commit changed, in days (default 90,
    /// at least 1): deletions and priority orders are forgotten after it, and an anchor
    /// older than it is answered with ``StoreError/Code/anchorExpired``. Every
    /// store that syncs should keep the same retention, and none should stay apart longer.
    public var changeRetentionDays: Int = 90

    /// The clock cache freshness rules and migrations read; tests set it to move time.
    public var clock: @Sendable () -> Date = { Date() }
    /// Whether queries read whole summary hours from the hour summaries (the default) or
    /// from their quarter-hour slots: the same bits, which the tests hold them to.
    var readsHourSummaries = true
    /// Whether a copy marked incomplete opens: only for the backup that verifies it before
    /// removing the mark.
    var opensIncompleteCopy = false

    /// The defaults: the current time zone and the grid it suits for a new store,
    /// read-write, ``Durability/full`` commits, the system clock.
    public init() {}
}
