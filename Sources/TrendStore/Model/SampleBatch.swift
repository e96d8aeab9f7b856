/// A validated batch of samples for one series: sorted by `(start, end)`, one sample per identity.
///
/// Building one checks every sample first, so a bad sample rejects the whole batch
/// before anything is written. Where a batch holds the same identity twice, the last
/// occurrence wins.
struct SampleBatch {
    /// The samples, sorted by start then end, identities unique.
    let samples: [Sample]
    /// The longest duration in the batch, in milliseconds.
    let maximumDuration: Int64
    /// How many samples a later sample of the same identity in the batch replaced.
    let duplicates: Int

    /// Validates and normalises `samples` written to `series`.
    ///
    /// - Throws: ``StoreError/invalidSample(series:index:reason:)`` naming the first bad sample.
    init(series: String, samples input: [Sample]) throws(StoreError) {
        var longest: Int64 = 0
        for (index, sample) in input.enumerated() {
            if let violation = SampleRules.violation(of: sample) {
                throw .invalidSample(series: series, index: index, reason: violation.description)
            }
            longest = max(longest, sample.endMilliseconds - sample.startMilliseconds)
        }
        self.maximumDuration = longest
        if Self.isStrictlyOrdered(input) {
            // Already in order with unique identities, as most bulk writes are.
            self.samples = input
            duplicates = 0
            return
        }
        // Stable order by identity; among equal identities the input order is kept, so the last wins.
        let ordered = input.enumerated().sorted { lhs, rhs in
            if lhs.element.startMilliseconds != rhs.element.startMilliseconds {
                return lhs.element.startMilliseconds < rhs.element.startMilliseconds
            }
            if lhs.element.endMilliseconds != rhs.element.endMilliseconds {
                return lhs.element.endMilliseconds < rhs.element.endMilliseconds
            }
            return lhs.offset < rhs.offset
        }
        var unique: [Sample] = []
        unique.reserveCapacity(ordered.count)
        for (_, sample) in ordered {
            if let last = unique.last, last.startMilliseconds == sample.startMilliseconds,
                last.endMilliseconds == sample.endMilliseconds
            {
                unique[unique.count - 1] = sample
            } else {
                unique.append(sample)
            }
        }
        self.samples = unique
        duplicates = input.count - unique.count
    }

    /// Whether `samples` are sorted by `(start, end)` with no identity twice.
    private static func isStrictlyOrdered(_ samples: [Sample]) -> Bool {
        var index = 1
        while index < samples.count {
            let previous = samples[index - 1]
            let sample = samples[index]
            if previous.startMilliseconds > sample.startMilliseconds
                || (previous.startMilliseconds == sample.startMilliseconds
                    && previous.endMilliseconds >= sample.endMilliseconds)
            {
                return false
            }
            index += 1
        }
        return true
    }
}
