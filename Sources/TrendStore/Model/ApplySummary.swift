/// What applying a change set changed (``TrendStore/apply(_:)``).
public struct ApplySummary: Sendable, Equatable, Codable {
    /// Samples written: new here, or newer than the sample of the same identity here.
    public var samplesWritten = 0
    /// Samples the set carried that this store already had, or had newer (or deleted later).
    public var samplesIgnored = 0
    /// Samples removed by the set's deletions.
    public var samplesRemoved = 0
    /// Deletions new to this store (each is remembered, to refuse older writes it covers).
    public var deletions = 0
    /// Priority orders that replaced an older one.
    public var priorityOrders = 0

    /// A summary with the given counts.
    public init(
        samplesWritten: Int = 0, samplesIgnored: Int = 0, samplesRemoved: Int = 0,
        deletions: Int = 0, priorityOrders: Int = 0
    ) {
        self.samplesWritten = samplesWritten
        self.samplesIgnored = samplesIgnored
        self.samplesRemoved = samplesRemoved
        self.deletions = deletions
        self.priorityOrders = priorityOrders
    }

    /// Whether the set changed nothing here.
    public var changedNothing: Bool {
        samplesWritten == 0 && samplesRemoved == 0 && deletions == 0 && priorityOrders == 0
    }
}
