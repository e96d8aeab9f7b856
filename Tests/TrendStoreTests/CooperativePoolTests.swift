import Foundation
import Testing
import TestSupport
import TrendStore

/// Writes wait for LMDB's writer lock on the store's own thread: while another process holds
/// the lock, the cooperative pool's tasks stay on time. Measured in a peer process of its
/// own, so the other tests running on this process's pool do not hold up the ticker.
@Suite("Writes never block the cooperative pool")
struct CooperativePoolTests {
    @Test(
        "a 10 ms ticker stays on time while writes wait a second for another process's lock",
        arguments: [1, 2])
    func tickerOnTime(handles: Int) throws {
        try withTemporaryDirectory { directory in
            _ = try TrendStore(directory: directory.url)
            let holder = try PeerProcess(store: directory.url, durability: "lmdb")
            let writer = try PeerProcess(store: directory.url)
            defer {
                holder.quit()
                writer.quit()
            }
            try writer.send("handles \(handles)")
            try holder.send("hold 1000")
            let figures = try writer.send("ticked-write").split(separator: " ")
            let wall = try #require(Int(figures[0]))
            let late = try #require(Int(figures[1]))
            // The writes did wait for the other process's lock (else the ticker proves nothing)…
            #expect(wall >= 800, "the writes took \(wall) ms")
            // …and the pool's ticker was never more than 20 ms late meanwhile.
            #expect(late <= 20, "the ticker ran \(late) ms late")
            let store = try TrendStore(directory: directory.url)
            #expect(
                try store.samples(of: "ticked", from: .distantPast, to: .distantFuture).count
                    == handles
            )
        }
    }
}
