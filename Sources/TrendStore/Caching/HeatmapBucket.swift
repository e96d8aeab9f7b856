import Foundation
import LMDB

/// A cached heatmap bucket, one per set of activity types: the days, and optionally the raw
/// records they were made from (as an app's own activity cache keeps them).
public struct HeatmapBucket: Sendable, Equatable, Codable {
    /// The days of the heatmap.
    public var heatmapDays: [HeatmapDay]
    /// Raw records kept beside the days (for example the fetched activities, as JSON), or `nil`.
    public var activities: Data?

    /// Creates a bucket.
    public init(heatmapDays: [HeatmapDay], activities: Data? = nil) {
        self.heatmapDays = heatmapDays
        self.activities = activities
    }
}
