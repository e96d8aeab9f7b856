import Foundation

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
