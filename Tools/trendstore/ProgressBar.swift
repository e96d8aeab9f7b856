import Foundation
import TrendStoreImport

/// A one-line progress bar on standard error, shown only when it is a terminal.
///
/// @unchecked: updates come from the importing task only, one at a time.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let enabled = isatty(STDERR_FILENO) != 0
    private var shown = false

    init(label: String) { self.label = label }

    /// Redraws the bar: bytes done, samples per second, time left.
    func update(_ progress: ImportProgress) {
        guard enabled, progress.bytesTotal > 0 else { return }
        let fraction = min(1, Double(progress.bytesDone) / Double(progress.bytesTotal))
        let width = 24
        let filled = Int(fraction * Double(width))
        let rate = progress.elapsed > 0 ? Double(progress.samples) / progress.elapsed : 0
        let left = fraction > 0 ? progress.elapsed * (1 - fraction) / fraction : 0
        let line =
            "\r\(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] "
            + "\(Int(fraction * 100))% \(Format.bytes(progress.bytesDone))/\(Format.bytes(progress.bytesTotal)) "
            + "\(Format.rate(rate)) samples/s, \(Int(left.rounded())) s left   "
        FileHandle.standardError.write(Data(line.utf8))
        shown = true
    }

    /// Ends the bar's line.
    func finish() {
        if shown { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

/// Number formatting for the tool's output.
enum Format {
    static func bytes(_ count: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    static func rate(_ perSecond: Double) -> String {
        perSecond >= 1e6
            ? String(format: "%.2fM", perSecond / 1e6)
            : perSecond >= 1e3
                ? String(format: "%.1fk", perSecond / 1e3) : String(format: "%.0f", perSecond)
    }

    static func number(_ value: Double) -> String { String(format: "%.1f", value) }
}
