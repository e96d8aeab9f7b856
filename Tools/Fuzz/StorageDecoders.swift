// libFuzzer target: the decoders of stored bytes (blocks, rollup rows of both layouts, hour
// summaries, cached payloads, an encrypted store's opened entries, the change log's sample
// versions of layouts 2 and 3 and deletions, change sets of versions 1 and 2). The AES-GCM open itself
// is BoringSSL's (swift-crypto), not built here; the tests feed random sealed values to it.
// Built by Tools/Fuzz/run.sh together with the TrendStore sources, so internal decoders are reachable.
// Checksums are fixed up first so the fuzzer reaches the code behind them.

/// libFuzzer's entry point: decodes `size` bytes every way stored bytes are decoded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStorageDecoders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let zlib = ZlibCodec()
    // As a block of layout 1 and of layout 2 (the first byte set), each under its checksum.
    for layout: UInt8 in [1, 2] where bytes.count >= BlockCodec.checksumOffset(layout: layout) + 4 {
        var block = bytes
        block[0] = layout
        let checksum = block.withUnsafeBytes(BlockCodec.checksum(of:))
        let at = BlockCodec.checksumOffset(layout: layout)
        withUnsafeBytes(of: checksum.littleEndian) {
            block.replaceSubrange(at..<(at + 4), with: $0)
        }
        var samples: [Sample] = []
        block.withUnsafeBytes { _ = try? BlockCodec.decode($0, zlib: zlib, appendingTo: &samples) }
    }
    // The bytes as a row checked by CRC-32C and, with the layout byte set, as a compact
    // row (``CompactRowCodec``), each read whole and from a slot the input picks; and as a
    // cached payload checked by zlib's CRC-32.
    var payload = bytes
    payload.append(
        contentsOf: withUnsafeBytes(
            of: bytes.withUnsafeBytes { ZlibCodec.crc32($0) }.littleEndian, Array.init))
    var checkedRow = bytes
    checkedRow.append(
        contentsOf: withUnsafeBytes(
            of: bytes.withUnsafeBytes { CRC32C.checksum($0) }.littleEndian, Array.init))
    var compactRow = bytes.isEmpty ? [CompactRowCodec.version] : bytes
    compactRow[0] = CompactRowCodec.version
    let compactSum = compactRow.withUnsafeBytes { CRC32C.checksum($0) }
    compactRow.append(contentsOf: withUnsafeBytes(of: compactSum.littleEndian, Array.init))
    let firstSlot = Int(bytes.last ?? 0) % (DayRollup.slotCount + 1)
    for candidate in [checkedRow, compactRow] {
        candidate.withUnsafeBytes {
            _ = try? RollupRowCodec.forEachSlot($0) { _, _, _, _ in }
            _ = try? RollupRowCodec.forEachSlot($0, in: firstSlot..<DayRollup.slotCount) {
                _, _, _, _ in
            }
            _ = try? RollupRowCodec.forEachDiscreteSlot(
                $0, day: 0, in: firstSlot..<min(firstSlot + 3, DayRollup.slotCount)
            ) { _, _, _, _ in }
            _ = try? RollupRowCodec.decode($0, day: 0)
        }
    }
    for kind in SeriesKind.allCases {
        for phase in [HourPhase.utc, HourPhase(milliseconds: TimeGrid.quarterHour)!] {
            decodeHourSummary(bytes, kind: kind, phase: phase)
        }
    }
    bytes.withUnsafeBytes { _ = AggregatePayload.window(of: $0) }
    payload.withUnsafeBytes { _ = try? AggregatePayload(bytes: $0) }
    _ = try? WeekdayAverageCache.decode(bytes, subject: "s", variant: "1")
    _ = try? TodayCache.decode(bytes, subject: "s", variant: nil)
    _ = try? HeatmapCache.decode(bytes, subject: "s", variant: nil)
    _ = try? V1Average(body: bytes)
    // An encrypted store's opened entry of a blinded table (key length, key, value), the
    // opened-value cache's key of a sealed value, and the name of a damaged record's key.
    bytes.withUnsafeBytes { opened in
        if let entry = RawTable.splitEntry(opened) {
            precondition(entry.key.count + entry.value.count + 2 == opened.count)
        }
        if opened.count >= 29 { _ = OpenedValueCache.Key(opened) }
    }
    _ = SealedValueDamage(table: "series", key: bytes).recordName
    decodeSyncRecords(bytes, zlib: zlib)
    return 0
}

/// Reads `bytes` as the change log and a change set read them: sample versions of layouts 2
/// and 3 and a deletion record, and a change set of versions 1 and 2, checksums fixed up.
private func decodeSyncRecords(_ bytes: [UInt8], zlib: ZlibCodec) {
    for layout: UInt8 in [2, 3, 4] {
        var versions = bytes.isEmpty ? [layout] : bytes
        versions[0] = layout
        let checksum = versions.withUnsafeBytes { CRC32C.checksum($0) }
        versions.append(contentsOf: withUnsafeBytes(of: checksum.littleEndian, Array.init))
        versions.withUnsafeBytes {
            _ = try? DayVersions(bytes: $0, zlib: zlib)
            _ = try? DayVersions.wholeDay(in: $0)
            _ = DayVersions.newestPosition(in: $0)
        }
    }
    bytes.withUnsafeBytes {
        var reader = ByteReader($0)
        _ = try? SampleDeletion(from: &reader)
    }
    for version: UInt8 in [1, 2] {
        var set = ChangeSetCodec.magic + [version, 0] + bytes
        let checksum = set.withUnsafeBytes { CRC32C.checksum($0) }
        set.append(contentsOf: withUnsafeBytes(of: checksum.littleEndian, Array.init))
        set.withUnsafeBytes { _ = try? ChangeSetCodec.decode($0, zlib: zlib) }
    }
}

/// Reads `bytes` as an hour-summary row of one segment (series 1, day 0) whose checksum is
/// fixed up, with hours of `phase`: all its entries as one run, each entry alone, and the sums.
private func decodeHourSummary(_ bytes: [UInt8], kind: SeriesKind, phase: HourPhase) {
    guard bytes.count >= 5 else { return }
    var segment = bytes
    segment[0] = 0
    var prefix = [UInt8](repeating: 0, count: 12)
    prefix[0] = 1
    let seed = prefix.withUnsafeBytes { CRC32C.checksum($0) }
    let checksum = segment.withUnsafeBytes { CRC32C.checksum($0, continuing: seed) }
    segment.append(contentsOf: withUnsafeBytes(of: checksum.littleEndian, Array.init))
    let row = [HourSummaryCodec.version, kind == .cumulative ? 0 : 1] + segment
    row.withUnsafeBytes { row in
        _ = try? HourSummaryCodec.forEachSegment(
            row, series: 1, group: 0, kind: kind, phase: phase, isWanted: { _ in true }
        ) { day, segment in
            let hours = HourSummaryCodec.hours(of: segment)
            var all = RunFigures()
            HourSummaryCodec.add(
                hours: hours, of: segment, day: day, phase: phase, kind: kind, into: &all)
            for entry in 0..<DayHours.entryCount where hours & (1 << UInt32(entry)) != 0 {
                var one = RunFigures()
                HourSummaryCodec.add(
                    hours: 1 << UInt32(entry), of: segment, day: day, phase: phase, kind: kind,
                    into: &one)
                _ = HourSummaryCodec.sum(ofEntry: entry, in: segment, kind: kind)
            }
            var sums = [Double](repeating: 0, count: DayHours.entryCount)
            HourSummaryCodec.forEachSum(in: segment, kind: kind) { sums[$0] = $1 }
        }
        _ = HourSummaryCodec.segments(of: row, kind: kind)
    }
}
