// libFuzzer target: the file readers of TrendStoreImport, each given the input as a file.
// Built by Tools/Fuzz/run.sh together with the TrendStoreImport sources (less the zip and
// Importer plumbing), so internal parsers are reachable.
import Foundation
import TrendStore

private let path = FileManager.default.temporaryDirectory.appendingPathComponent(
    "trendstore-fuzz-\(getpid()).input"
).path

private func drain(_ parser: any RecordParser) {
    var records = 0
    while records < 100_000, let record = try? parser.next() {
        _ = record
        records += 1
    }
}

private func drain<Source: BlockSource>(_ source: Source) {
    var pieces = 0
    while pieces < 10_000, let piece = try? source.cut() {
        if source.parse(piece).failure != nil { return }
        pieces += 1
    }
}

/// libFuzzer's entry point: reads `size` bytes with every importer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImportParsers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    guard FileManager.default.createFile(atPath: path, contents: bytes) else { return 0 }
    bytes.withUnsafeBytes { raw in
        _ = TimestampParser.milliseconds(raw)
        _ = NumberParser.double(raw)
        _ = NumberParser.integer(raw)
    }
    _ = StravaActivityDate.milliseconds(String(decoding: bytes.prefix(64), as: UTF8.self))
    if let stream = try? ByteStream(path: path) { _ = try? FormatDetector.detect(stream) }
    // The CSV reader in pieces cut small (so records straddle them) and large, strict and skipping.
    for (chunkBytes, skipInvalid) in [(61, true), (1 << 20, false)] {
        if let stream = try? ByteStream(path: path),
            let source = try? SampleCSVParser(
                stream: stream, skipInvalid: skipInvalid, chunkBytes: chunkBytes)
        {
            drain(source)
        }
    }
    if let stream = try? ByteStream(path: path) { drain(NDJSONParser(stream: stream)) }
    if let stream = try? ByteStream(path: path), let parser = try? StravaCSVParser(stream: stream) {
        drain(parser)
    }
    if let stream = try? ByteStream(path: path), let parser = try? StravaJSONParser(stream: stream)
    {
        drain(parser)
    }
    if let parser = try? AppleHealthParser(
        displayPath: "fuzz", open: { () throws(ImportError) in try ByteStream(path: path) })
    {
        drain(parser)
    }
    _ = try? LegacyCacheFile.read(bytes, zone: TimeZone(identifier: "America/Los_Angeles")!)
    return 0
}
