/// The one formula for a sample's share of a time bucket, used everywhere a bucket is filled.
enum Proration {
    /// `value × overlap / duration`, multiplying first: exact whenever the true share is representable.
    @inline(__always)
    static func share(of value: Double, overlap: Int64, duration: Double) -> Double {
        value * Double(overlap) / duration
    }
}
