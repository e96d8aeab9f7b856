/// The optional 24-value cumulative pattern and projected total, as the weekday-average and
/// v1-average bodies write it: a presence byte (0 or 1), then 24 doubles and the total.
enum HourlyPatternCoding {
    /// Appends `pattern` and `total`; a presence byte of 0 alone when either is missing or the
    /// pattern does not have 24 values.
    static func append(_ pattern: [Double]?, total: Double?, to writer: inout ByteWriter) {
        guard let pattern, let total, pattern.count == 24 else {
            writer.append(0)
            return
        }
        writer.append(1)
        for value in pattern { writer.appendDouble(value) }
        writer.appendDouble(total)
    }

    /// The pattern and total `reader` is at, both `nil` when absent; throws on a presence byte
    /// other than 0 or 1, or bytes that end early.
    static func read(_ reader: inout ByteReader) throws -> ([Double]?, Double?) {
        let present = try reader.readByte()
        guard present == 1 else {
            guard present == 0 else { throw AggregatePayload.Damage() }
            return (nil, nil)
        }
        var pattern: [Double] = []
        for _ in 0..<24 { pattern.append(try reader.readDouble()) }
        return (pattern, try reader.readDouble())
    }
}
