import Foundation
import TrendStore

/// Runs `pcodec_sizes.py` on a dataset's CSV: the bytes pcodec needs for the columns
/// TrendStore's blocks store (gap, duration, value as a scaled integer), per series.
enum PcodecPeer {
    /// The size report of pcodec beside the store's sample pages, or why pcodec was skipped.
    static func report(csv: String, store: TrendStore, samples: Int) -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("pcodec_sizes.py").path
        guard let outcome = try? ChildProcess.run("python3", [script, csv]), outcome.status == 0,
            let json = try? JSONSerialization.jsonObject(with: Data(outcome.output.utf8))
                as? [String: Any],
            let peerBytes = json["bytes"] as? Int, samples > 0
        else {
            return "pcodec: skipped (pip install pcodec numpy to compare sizes with it)"
        }
        guard let pages = try? store.footprint().sampleBytes else {
            return "pcodec: skipped (the store's footprint could not be read)"
        }
        let ours = Double(pages) / Double(samples)
        let peer = Double(peerBytes) / Double(samples)
        return String(
            format:
                "sample pages %.3f bytes per sample, pcodec %.3f on the same columns: %.3f× pcodec (target ≤ 1.10×)",
            ours, peer, ours / peer)
    }
}
