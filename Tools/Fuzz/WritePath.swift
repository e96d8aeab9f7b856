// libFuzzer target: the write path. The input becomes batches of samples (times, durations
// and values drawn from its bytes, values often as raw IEEE bit patterns, so every finite
// double, huge and tiny ones mixed in one block, reaches the encoder); they are written
// through the engine, read back and compared bit for bit, and the store is verified. Inputs
// alternate between a store of each rollup grid.
// Built by Tools/Fuzz/run.sh together with the TrendStore sources.
import Foundation

/// One store of each rollup grid for the whole run, in fresh temporary directories.
/// (unsafe: libFuzzer calls in one thread)
nonisolated(unsafe) private var fuzzEngines: [StoreEngine] = []
nonisolated(unsafe) private var iteration = 0  // unsafe: as above

/// Reads integers of the input in order, zero past its end.
private struct InputReader {
    let bytes: [UInt8]
    var offset = 0
    var atEnd: Bool { offset >= bytes.count }

    mutating func next<T: FixedWidthInteger>(_: T.Type) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size {
            let byte = offset < bytes.count ? bytes[offset] : 0
            value |= T(truncatingIfNeeded: byte) << (8 * index)
            offset += 1
        }
        return value
    }
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWritePath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if fuzzEngines.isEmpty {
        fuzzEngines = RollupGrid.allCases.map { grid in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "trendstore-fuzz-write-\(getpid())-\(grid.rawValue)")
            var options = StoreOptions()
            options.durability = .none
            options.timeZone = TimeZone(identifier: "UTC")
            options.rollupGrid = grid
            return try! StoreEngine(directory: directory, options: options)
        }
    }
    iteration += 1
    let engine = fuzzEngines[iteration % fuzzEngines.count]
    let series = "fuzz-\(iteration % 8)"
    var reader = InputReader(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    var expected: [Int64: [Int64: Sample]] = [:]
    let before = try? engine.read {
        try engine.storage.samples(series: series, from: .min, to: .max, in: $0)
    }
    if let stored = before {
        for sample in stored {
            expected[sample.startMilliseconds, default: [:]][sample.endMilliseconds] = sample
        }
    }
    while !reader.atEnd {
        var batch: [Sample] = []
        var start: Int64 = 1_700_000_000_000 + Int64(reader.next(Int32.self)) * 1000
        for _ in 0..<(Int(reader.next(UInt8.self)) % 64 + 1) {
            start += Int64(reader.next(Int16.self))
            let duration = Int64(reader.next(UInt16.self)) * Int64(reader.next(UInt8.self) % 4 + 1)
            let mode = reader.next(UInt8.self) % 4
            let bits = reader.next(UInt64.self)
            let value =
                mode == 0
                ? Double(bitPattern: bits)
                : mode == 1
                    ? Double(Int64(truncatingIfNeeded: bits) % 10_000_000) / 10_000
                    : mode == 2 ? Double(Int32(truncatingIfNeeded: bits)) : Double(bits % 1000) / 7
            batch.append(
                Sample(startMilliseconds: start, endMilliseconds: start + duration, value: value))
        }
        do {
            _ = try engine.write([SeriesSamples(series: series, unit: "u", samples: batch)])
            for sample in batch {
                expected[sample.startMilliseconds, default: [:]][sample.endMilliseconds] = sample
            }
        } catch StoreError.Code.invalidSample {
            // Rejected whole (a value beyond ±1e15 or not finite): nothing may have changed.
        } catch {
            fatalError("write failed: \(error)")
        }
    }
    let wanted = expected.values.flatMap(\.values).sorted {
        ($0.startMilliseconds, $0.endMilliseconds) < ($1.startMilliseconds, $1.endMilliseconds)
    }
    let stored =
        (try? engine.read {
            try engine.storage.samples(series: series, from: .min, to: .max, in: $0)
        }) ?? []
    guard stored.count == wanted.count,
        zip(stored, wanted).allSatisfy({
            $0.startMilliseconds == $1.startMilliseconds && $0.endMilliseconds == $1.endMilliseconds
                && $0.value.bitPattern == $1.value.bitPattern
        })
    else {
        fatalError("read back \(stored.count) samples, expected \(wanted.count), or values differ")
    }
    if iteration % 256 < fuzzEngines.count {
        let report = try? engine.read { try IntegrityCheck(storage: engine.storage).run(in: $0) }
        guard let report, report.isHealthy else {
            fatalError("the store fails its integrity check")
        }
    }
    return 0
}
