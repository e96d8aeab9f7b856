import Foundation
import TrendStore

/// Files under the package's `Fixtures/` folder.
public enum Fixtures {
    /// The `Fixtures/` folder of the package.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The path of `relative` inside `Fixtures/`.
    public static func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// A copy of the committed store `relative` (its `data.mdb`) in a new `store` folder of
    /// `directory`, to open and change without touching the committed file.
    public static func copyOfStore(_ relative: String, in directory: URL) throws -> URL {
        let copy = directory.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: path(relative) + "/data.mdb",
            toPath: copy.appendingPathComponent("data.mdb").path)
        return copy
    }
}

/// Parses an ISO-8601 timestamp with Foundation's own formatter, for independent checks.
public func foundationMilliseconds(_ text: String) -> Int64? {
    if let epoch = Int64(text) { return epoch }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions =
        text.contains(".")
        ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
    return formatter.date(from: text).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
}

/// The samples of a simple CSV or NDJSON fixture, read independently of the importer:
/// split on commas (or decoded with JSONSerialization), times by Foundation, last occurrence wins.
public func independentlyReadSamples(_ path: String) throws -> [String: [Sample]] {
    var identities: [String: [String: Sample]] = [:]
    let text = try String(contentsOfFile: path, encoding: .utf8)
    func add(_ series: String, _ start: Int64, _ end: Int64, _ value: Double) {
        identities[series, default: [:]]["\(start)-\(end)"] = Sample(
            startMilliseconds: start, endMilliseconds: end, value: value)
    }
    if path.hasSuffix(".ndjson") {
        for line in text.split(separator: "\n")
        where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            func time(_ value: Any?) -> Int64 {
                (value as? String).flatMap(foundationMilliseconds)
                    ?? (value as! NSNumber).int64Value
            }
            add(
                object["series"] as! String, time(object["start"]), time(object["end"]),
                (object["value"] as! NSNumber).doubleValue)
        }
    } else {
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(separator: ",").map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"\u{FEFF}"))
            }
            add(
                fields[0], foundationMilliseconds(fields[1])!, foundationMilliseconds(fields[2])!,
                Double(fields[3])!)
        }
    }
    return identities.mapValues {
        $0.values.sorted {
            ($0.startMilliseconds, $0.endMilliseconds) < ($1.startMilliseconds, $1.endMilliseconds)
        }
    }
}
