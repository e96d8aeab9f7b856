import Foundation

/// An error of the store, naming the series, sample, block or store path involved.
///
/// Every error has a stable ``code`` a host app can compare, switch on or log, and a one-line
/// ``description`` (also its `localizedDescription`) that says what and why. Codes are open:
/// a later release adds codes without breaking a host's code, so a `switch` over
/// ``code`` ends with a `default`, and a `catch` names the codes it handles:
///
/// ```swift
/// do {
///     try store.write(samples, to: "activeEnergy", unit: "kcal")
/// } catch StoreError.Code.unitMismatch {
///     // the series is stored in another unit
/// } catch let error as StoreError where error.systemCode == 28 {
///     // the disk is full; nothing was written
/// }
/// ```
///
/// The values that say where (``series``, ``path``, ``reason``, …) are properties, present
/// when the error has them.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// What failed, with the values that say where.
    let detail: Detail

    init(_ detail: Detail) { self.detail = detail }

    /// What failed, as a stable name.
    public var code: Code { detail.code }

    /// A one-line description naming what is wrong and where.
    public var description: String { detail.description }

    /// The description, for `LocalizedError`.
    public var errorDescription: String? { description }

    /// The series the error is about: the name given for an unknown series or an invalid
    /// name, else the series whose sample, block, rollup, unit or kind failed; `nil` when the
    /// error is not about one series.
    public var series: String? {
        switch detail {
        case .invalidSeriesName(let name, _), .unknownSeries(let name, _): return name
        case .invalidSample(let series, _, _), .unitMismatch(let series, _, _),
            .kindMismatch(let series, _, _), .unsupportedForKind(let series, _, _),
            .damagedBlock(let series, _, _), .damagedRollup(let series, _, _):
            return series
        default: return nil
        }
    }

    /// The store's path, when the error is about its files, its key or its state (closed,
    /// suspended); else `nil`.
    public var path: String? {
        switch detail {
        case .storeUnavailable(let path, _), .storage(let path, _, _, _), .closed(let path),
            .suspended(let path), .encryptionKeyRequired(let path, _),
            .wrongEncryptionKey(let path), .notEncrypted(let path):
            return path
        default: return nil
        }
    }

    /// Why, in the words the error was given (the part of the ``description`` after where);
    /// `nil` when the code says it all.
    public var reason: String? {
        switch detail {
        case .invalidSeriesName(_, let reason), .invalidSample(_, _, let reason),
            .unsupportedForKind(_, _, let reason), .damagedBlock(_, _, let reason),
            .damagedRollup(_, _, let reason), .storeUnavailable(_, let reason),
            .storage(_, _, _, let reason), .incompatibleFormat(let reason),
            .invalidArgument(_, let reason), .encryptionKeyRequired(_, let reason),
            .damagedRecord(_, _, let reason), .damagedChangeSet(let reason):
            return reason
        default: return nil
        }
    }

    /// LMDB's return code or the system's `errno` of a ``Code/storage`` error (28: the disk is
    /// full); `nil` for every other code.
    public var systemCode: Int32? {
        if case .storage(_, _, let code, _) = detail { return code }
        return nil
    }

    /// The argument an ``Code/invalidArgument(_:)`` error names; `nil` for every other code.
    public var argument: Argument? {
        if case .invalidArgument(let argument, _) = detail { return argument }
        return nil
    }

    /// The position in its batch of the sample an ``Code/invalidSample`` error names; `nil`
    /// for every other code.
    public var sampleIndex: Int? {
        if case .invalidSample(_, let index, _) = detail { return index }
        return nil
    }

    /// Up to three stored series names an ``Code/unknownSeries`` name may have meant, closest
    /// first; empty for every other code.
    public var closestSeries: [String] {
        if case .unknownSeries(_, let closest) = detail { return closest }
        return []
    }
}
