import Foundation
import TrendStore

/// Reads a JSON list of Strava API activities (`GET /athlete/activities` pages saved to
/// a file): `start_date` (UTC), `elapsed_time` (s), `distance` (m), `sport_type` or
/// `type`. Errors name the record's 1-based position in the list.
final class StravaJSONParser: RecordParser {
    private let file: String
    private var activities: [Any]
    private var index = 0
    private let size: Int

    init(stream: ByteStream) throws(ImportError) {
        file = stream.path
        size = stream.totalBytes
        var data = Data()
        while try stream.consume({ bytes, _ in
            data.append(contentsOf: bytes); return bytes.count
        }) {}
        guard let list = (try? JSONSerialization.jsonObject(with: data)) as? [Any] else {
            throw ImportError(file: file, reason: "not a JSON list of Strava activities")
        }
        activities = list
    }

    var bytesConsumed: Int { activities.isEmpty ? size : size * index / activities.count }
    var totalBytes: Int { size }

    func next() throws(ImportError) -> ParsedRecord? {
        guard index < activities.count else { return nil }
        index += 1
        func invalid(_ field: String?, _ reason: String) -> ParsedRecord {
            .invalid(
                ImportError(
                    file: file, line: index, field: field,
                    reason: reason + " (record \(index) of the list)"))
        }
        guard let activity = activities[index - 1] as? [String: Any] else {
            return invalid(nil, "not a JSON object")
        }
        guard let type = (activity["sport_type"] as? String) ?? (activity["type"] as? String),
            !type.isEmpty
        else {
            return invalid("sport_type", "missing")
        }
        guard let dateText = activity["start_date"] as? String,
            let start = Array(dateText.utf8).withUnsafeBytes(TimestampParser.milliseconds)
        else { return invalid("start_date", "missing or not ISO-8601 with a UTC offset") }
        guard let elapsed = (activity["elapsed_time"] as? NSNumber)?.doubleValue, elapsed >= 0,
            elapsed.isFinite
        else {
            return invalid("elapsed_time", "missing or not a number of seconds")
        }
        let distance = (activity["distance"] as? NSNumber)?.doubleValue ?? 0
        guard distance.isFinite, distance >= 0 else {
            return invalid("distance", "not a distance in metres")
        }
        return StravaActivity.record(
            type: type, start: start, elapsedSeconds: elapsed, metres: distance, line: index)
    }
}
