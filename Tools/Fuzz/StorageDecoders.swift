// libFuzzer target: the decoders of stored bytes (chunks, rollup rows and blocks, cached payloads).
// Built by Tools/Fuzz/run.sh together with the TrendStore sources, so internal decoders are reachable.
// Checksums are fixed up first so the fuzzer reaches the code behind them.

/// libFuzzer's entry point: decodes `size` bytes every way stored bytes are decoded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStorageDecoders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let zlib = ZlibCodec()
    if bytes.count >= ChunkCodec.headerSize {
        let checksum = bytes.withUnsafeBytes {
            ZlibCodec.crc32(UnsafeRawBufferPointer(rebasing: $0[ChunkCodec.headerSize...]))
        }
        var chunk = bytes
        withUnsafeBytes(of: checksum.littleEndian) { chunk.replaceSubrange(48..<52, with: $0) }
        var samples: [Sample] = []
        chunk.withUnsafeBytes { _ = try? ChunkCodec.decode($0, zlib: zlib, appendingTo: &samples) }
    }
    var row = bytes
    row.append(
        contentsOf: withUnsafeBytes(
            of: bytes.withUnsafeBytes { ZlibCodec.crc32($0) }.littleEndian, Array.init))
    row.withUnsafeBytes { _ = try? RollupCodec.forEachSlot($0) { _, _, _, _ in } }
    bytes.withUnsafeBytes { block in
        _ = try? RollupBlock.forEachRow(block) { _, row in
            try RollupCodec.forEachSlot(row) { _, _, _, _ in }
        }
        _ = try? RollupBlock(index: 0, bytes: block)
        _ = AggregatePayload.window(of: block)
    }
    row.withUnsafeBytes { _ = try? AggregatePayload(bytes: $0) }
    _ = try? PayloadBodies.weekdayAverage(series: "s", bytes)
    _ = try? PayloadBodies.today(series: "s", bytes)
    _ = try? PayloadBodies.v1Average(bytes)
    return 0
}
