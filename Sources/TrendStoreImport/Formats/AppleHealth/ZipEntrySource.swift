import Foundation
import ZIPFoundation

/// How far a zip entry may expand before the import refuses it as a possible zip bomb.
public struct ExpansionLimits: Sendable, Equatable {
    /// The most bytes an entry may expand to. Default 64 GiB: larger than any real Apple
    /// Health export (a decade of a watch's data is a few GB).
    public var maximumBytes: Int64 = 64 << 30
    /// The most an entry may expand relative to its compressed size, past its first
    /// 64 MiB. Default 200: XML exports compress 10 to 30 times; a file of repeated
    /// whitespace compresses a thousand times.
    public var maximumRatio: Double = 200

    /// The defaults: 64 GiB and 200 times.
    public init() {}

    /// Bytes below which the ratio is not checked: small entries may compress well.
    static let ratioGrace: Int64 = 64 << 20
}

/// The bytes of one zip entry, inflated on a helper thread as they are read: nothing is
/// written to disk, and at most a few chunks are held in memory.
///
/// The helper stops when the reader goes away, and the entry's CRC-32 is checked at its end.
final class ZipEntrySource: ByteSource {
    private let state = ProducerState()
    private var pending = Data()
    private var pendingOffset = 0
    private let name: String

    /// Starts inflating `entryPath` of the zip at `zipPath`.
    init(zipPath: String, entryPath: String, limits: ExpansionLimits) throws(ImportError) {
        name = "\(zipPath)/\(entryPath)"
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: zipPath), accessMode: .read)
        } catch {
            throw ImportError(file: zipPath, reason: "not a readable zip archive (\(error))")
        }
        guard let entry = archive[entryPath] else {
            throw ImportError(file: zipPath, reason: "has no entry \(entryPath)")
        }
        let state = self.state
        let name = self.name
        let compressed = Int64(clamping: entry.compressedSize)
        let handOver = HandOver(archive: archive, entry: entry)
        let thread = Thread {
            var produced: Int64 = 0
            do {
                let checksum = try handOver.archive.extract(
                    handOver.entry, bufferSize: 1 << 20
                ) { chunk in
                    produced += Int64(chunk.count)
                    if let reason = Self.overLimit(
                        produced: produced, compressed: compressed, limits: limits)
                    {
                        throw ImportError(file: name, reason: reason)
                    }
                    try state.put(chunk)
                }
                // Stored and deflated entries alike: a changed byte of a stored entry is
                // found only here.
                let recorded = handOver.entry.checksum
                guard checksum == recorded else {
                    throw ImportError(
                        file: name,
                        reason:
                            "is damaged: its bytes have CRC-32 \(Self.hex(checksum)) but the archive records \(Self.hex(recorded))"
                    )
                }
                state.finish(nil)
            } catch let error as ImportError {
                state.finish(error)
            } catch is ProducerState.Cancelled {
                state.finish(nil)
            } catch {
                state.finish(ImportError(file: name, reason: "cannot be extracted (\(error))"))
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit { state.cancel() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        if pendingOffset == pending.count {
            guard let next = try state.take() else { return 0 }
            pending = next
            pendingOffset = 0
        }
        let count = min(buffer.count, pending.count - pendingOffset)
        pending.withUnsafeBytes { bytes in
            guard let source = bytes.baseAddress else { return }
            base.copyMemory(from: source + pendingOffset, byteCount: count)
        }
        pendingOffset += count
        return count
    }

    /// A CRC-32 as eight hex digits.
    private static func hex(_ checksum: UInt32) -> String {
        let digits = String(checksum, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Why `produced` bytes out of `compressed` break the limits, or `nil`.
    static func overLimit(produced: Int64, compressed: Int64, limits: ExpansionLimits) -> String? {
        if produced > limits.maximumBytes {
            return
                "expands to more than \(limits.maximumBytes) bytes: refused as a possible zip bomb (raise --max-expanded-bytes if the archive is genuine)"
        }
        if produced > ExpansionLimits.ratioGrace,
            Double(produced) > limits.maximumRatio * Double(max(compressed, 1))
        {
            return
                "expands more than \(Int(limits.maximumRatio)) times its compressed size (\(compressed) bytes): refused as a possible zip bomb (raise --max-expansion-ratio if the archive is genuine)"
        }
        return nil
    }
}

/// The archive and entry, handed to the inflating thread.
private struct HandOver: @unchecked Sendable {
    // @unchecked: created for the thread and used by it alone from then on.
    let archive: Archive
    let entry: Entry
}

/// The hand-over between the inflating thread and the reader: a queue of at most
/// `capacity` chunks, the end, an error, or the reader's cancellation.
private final class ProducerState: @unchecked Sendable {
    // @unchecked: every field is read and written under `condition`'s lock.
    struct Cancelled: Error {}

    private let condition = NSCondition()
    private var chunks: [Data] = []
    private var finished = false
    private var failure: ImportError?
    private var cancelled = false
    private let capacity = 4

    /// Queues a chunk, waiting while the queue is full; throws once the reader has gone.
    func put(_ chunk: Data) throws {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        chunks.append(chunk)
        condition.broadcast()
    }

    /// Marks the end of the entry, with the error that ended it early, if any.
    func finish(_ error: ImportError?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk, waiting for one; `nil` at the end.
    func take() throws(ImportError) -> Data? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !finished { condition.wait() }
        if !chunks.isEmpty {
            let chunk = chunks.removeFirst()
            condition.broadcast()
            return chunk
        }
        if let failure { throw failure }
        return nil
    }

    /// Tells the inflating thread to stop.
    func cancel() {
        condition.lock()
        cancelled = true
        chunks.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
