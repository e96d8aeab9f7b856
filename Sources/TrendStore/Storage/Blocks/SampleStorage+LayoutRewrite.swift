import Foundation
import LMDB

extension SampleStorage {
    /// Where a rewrite of blocks resumes: a series id and the first start of a block.
    typealias BlockPosition = (series: UInt32, firstStart: Int64)

    /// Rewrites up to `limit` blocks of layout 1 in the layout ``BlockCodec`` writes, the
    /// same samples under the same keys, in key order from `position` (from the first
    /// block when `nil`); returns where the next call resumes, or `nil` when no block
    /// after `position` is of layout 1.
    ///
    /// Blocks of layout 2 are passed over; a block that does not decode is left as it is
    /// (``TrendStore/verify()`` reports it), so a damaged block never stops the rewrite.
    /// The rollups are not touched: the samples are the same.
    func rewriteLayoutOneBlocks(
        from position: BlockPosition?, limit: Int, in txn: borrowing WriteTransaction
    ) throws -> BlockPosition? {
        let zlib = ZlibCodec()
        let records = try allSeriesRecords(in: txn).filter { $0.id >= position?.series ?? 0 }
            .sorted { $0.id < $1.id }
        var rewritten = 0
        for record in records {
            let from = record.id == position?.series ? position?.firstStart ?? .min : .min
            // Rewritten after the walk: a put moves the pages the walk reads.
            var rewrites: [(firstStart: Int64, bytes: [UInt8])] = []
            try blocks.forEachBlock(
                series: record.id, startingFrom: from, through: .max, in: txn,
                reaches: { _, _ in false }
            ) { firstStart, bytes in
                // The layout byte alone: decoding checks the rest.
                guard bytes.first == 1 else { return true }
                var samples: [Sample] = []
                guard (try? BlockCodec.decode(bytes, zlib: zlib, appendingTo: &samples)) != nil
                else { return true }
                rewrites.append((firstStart, try BlockCodec.encode(samples[...], zlib: zlib)))
                return rewritten + rewrites.count < limit
            }
            for rewrite in rewrites {
                try blocks.put(
                    rewrite.bytes, series: record.id, firstStart: rewrite.firstStart, in: txn)
            }
            rewritten += rewrites.count
            if rewritten >= limit, let last = rewrites.last {
                return (record.id, last.firstStart)
            }
        }
        return nil
    }
}
