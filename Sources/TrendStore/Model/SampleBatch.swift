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
    /// - Throws: ``StoreError/Code/invalidSample`` naming the first bad sample.
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
        let ordered = Self.nearlySorted(input) ?? Self.stablySorted(input)
        var unique: [Sample] = []
        unique.reserveCapacity(ordered.count)
        for sample in ordered {
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

    /// `samples` in stable `(start, end)` order by insertion, when that takes fewer than
    /// about eight moves a sample (a phone's and a watch's late arrivals, a few overlaps);
    /// `nil` for input further from order, which a merge sort orders in bounded time.
    private static func nearlySorted(_ samples: [Sample]) -> [Sample]? {
        var sorted = samples
        var budget = 8 * samples.count + 1_024
        var index = 1
        while index < sorted.count {
            let sample = sorted[index]
            var target = index
            // Past the samples strictly after it only, so equal identities keep their order.
            while target > 0 && sample.isOrdered(before: sorted[target - 1]) {
                target -= 1
            }
            if target != index {
                budget -= index - target
                guard budget >= 0 else { return nil }
                var move = index
                while move > target {
                    sorted[move] = sorted[move - 1]
                    move -= 1
                }
                sorted[target] = sample
            }
            index += 1
        }
        return sorted
    }

    /// `samples` in stable `(start, end)` order by a merge sort.
    private static func stablySorted(_ samples: [Sample]) -> [Sample] {
        samples.enumerated().sorted { lhs, rhs in
            if lhs.element.isOrdered(before: rhs.element) { return true }
            if rhs.element.isOrdered(before: lhs.element) { return false }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// Whether `samples` are sorted by `(start, end)` with no identity twice.
    private static func isStrictlyOrdered(_ samples: [Sample]) -> Bool {
        var index = 1
        while index < samples.count {
            guard samples[index - 1].isOrdered(before: samples[index]) else { return false }
            index += 1
        }
        return true
    }
}

extension Sample {
    /// Whether this sample's identity comes strictly before `other`'s: an earlier start, or
    /// the same start and an earlier end.
    fileprivate func isOrdered(before other: Sample) -> Bool {
        startMilliseconds < other.startMilliseconds
            || (startMilliseconds == other.startMilliseconds
                && endMilliseconds < other.endMilliseconds)
    }
}
