import Foundation
import LMDB
import Testing
import TestSupport
@testable import TrendStore

/// Each handle's commits reach the disk as its `durability` says, even where two handles of
/// one process share an LMDB environment. (Counted with `strace` by hand: two flushes per
/// commit for `.full`, one for `.normal`, none for `.none`.)
@Suite("durability")
struct DurabilityTests {
    @Test("each handle's commits use its own sync mode")
    func perHandle() async throws {
        try await withTemporaryDirectory { directory in
            var handles: [(TrendStore, Environment.Sync)] = []
            for (durability, sync) in [
                (Durability.full, Environment.Sync.full), (.normal, .dataOnly), (.none, .none),
            ] {
                var options = StoreOptions()
                options.durability = durability
                handles.append((try TrendStore(directory: directory.url, options: options), sync))
            }
            // One environment for the three handles: each commit sets its own flags.
            #expect(
                handles.allSatisfy { $0.0.engine.environment === handles[0].0.engine.environment })
            for round in 0..<2 {
                for (index, (store, sync)) in handles.enumerated() {
                    let start = Int64(round * 3 + index) * 60_000
                    try await store.write(
                        [
                            Sample(
                                startMilliseconds: start, endMilliseconds: start + 60_000, value: 1)
                        ],
                        to: "e", unit: "kcal")
                    #expect(try store.engine.environment.lastCommitSync() == sync)
                }
            }
            #expect(
                try handles[0].0.samples(of: "e", from: .distantPast, to: .distantFuture).count == 6
            )
            for (store, _) in handles { await store.close() }
        }
    }
}
