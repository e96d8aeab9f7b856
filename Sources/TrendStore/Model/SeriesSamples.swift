/// Samples for one series, as one entry of a write.
public struct SeriesSamples: Sendable, Codable, Equatable {
    /// The series name: 1 to 255 UTF-8 bytes.
    public var series: String
    /// The unit of the values, such as `kcal`; a series keeps the unit it was created with.
    public var unit: String
    /// The samples, in any order.
    public var samples: [Sample]
    /// The source the samples came from (a device or an app, such as `Apple Watch`): at most
    /// 255 UTF-8 bytes, any characters; `nil` or empty for the default source.
    public var source: String?
    /// The kind of a series this write creates (`nil`: cumulative); for an existing series
    /// a kind other than its own is an error, and `nil` accepts any.
    public var kind: SeriesKind?
    /// Whether ``unit`` is only the unit of a series this write creates: an existing series
    /// then keeps its own unit. When `false` (the default), a unit that differs from the
    /// stored one is an error.
    public var unitIsDefault: Bool
    /// The ids of the samples (``SampleID``; `ids[i]` is `samples[i]`'s, `nil` for none),
    /// or `nil` to give none: as many as ``samples``. A sample keeps the id of its last
    /// write, so that ``TrendStore/deleteSamples(withIDs:from:)`` finds it.
    public var ids: [SampleID?]?

    /// Creates an entry of a write.
    public init(
        series: String, unit: String, kind: SeriesKind? = nil, samples: [Sample],
        unitIsDefault: Bool = false, source: String? = nil, ids: [SampleID?]? = nil
    ) {
        self.series = series
        self.unit = unit
        self.kind = kind
        self.samples = samples
        self.unitIsDefault = unitIsDefault
        self.source = source
        self.ids = ids
    }
}
