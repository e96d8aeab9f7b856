import TrendStore

extension AppleHealthSurvey {
    /// Surveys the export file at `path` in up to `threads` stretches read at once, each
    /// beginning at a `<Record ` or `<Workout ` found near an even share of the file; `nil`
    /// when only a single pass (``init(stream:displayPath:pieceBytes:longestPiece:)``) can
    /// survey it.
    ///
    /// A stretch is read as if it began between two constructs outside any workout. That
    /// holds when the stretch before it, read the same way, ended between two constructs
    /// (its last tag, comment or DOCTYPE complete) outside any workout: then, stretch by
    /// stretch from the file's start, each read is the one a single pass makes, and the
    /// survey is the single pass's (the same export date; cuts at each
    /// stretch's start besides). When it does not hold (a boundary inside a comment, a
    /// workout or a malformed tag), any stretch fails, or the file is too small to share,
    /// this gives `nil`, and the single pass gives its answer or its error at its line.
    ///
    /// - Throws: ``ImportError`` for a file the stretches show is no whole export.
    init?(
        path: String, pieceBytes: Int, longestPiece: Int, threads: Int, maximumRecordBytes: Int
    ) throws(ImportError) {
        let shortest = pieceBytes.multipliedReportingOverflow(by: 8)
        guard let size = FileRangeSource.regularFileSize(path), !shortest.overflow,
            let starts = Self.stretchStarts(
                path: path, size: size, count: min(threads, size / max(1, shortest.partialValue)))
        else { return nil }
        try self.init(
            path: path, displayPath: path, stretchesFrom: starts, size: size,
            pieceBytes: pieceBytes, longestPiece: longestPiece,
            maximumRecordBytes: maximumRecordBytes)
    }

    /// Surveys the `size`-byte file at `path` in stretches from each of `starts` (0 first,
    /// ascending) at once; `nil` when a stretch fails, or one but the last ends inside a
    /// workout or a construct: then only a single pass can tell.
    ///
    /// - Throws: ``ImportError`` for a file the stretches show is no whole export.
    init?(
        path: String, displayPath: String, stretchesFrom starts: [Int], size: Int,
        pieceBytes: Int, longestPiece: Int, maximumRecordBytes: Int
    ) throws(ImportError) {
        let stretches = try? ConcurrentWork.map(starts.count) { index in
            let end = index + 1 < starts.count ? starts[index + 1] : size
            let stream = ByteStream(
                source: try FileRangeSource(path: path, range: starts[index]..<end),
                path: displayPath, totalBytes: end - starts[index])
            stream.maximumRecordBytes = maximumRecordBytes
            return try Stretch(stream: stream, displayPath: displayPath, pieceBytes: pieceBytes)
        }
        guard let stretches, !stretches.dropLast().contains(where: \.endsInWorkout) else {
            return nil
        }
        try self.init(stretches: stretches, displayPath: displayPath, longestPiece: longestPiece)
    }

    /// The bytes searched after a share's even start for the tag its stretch begins at.
    private static let searchWindow = 1 << 16

    /// Where `count` stretches of the `size`-byte file at `path` begin: 0, then for each
    /// further share, the first `<Record ` or `<Workout ` within ``searchWindow`` of its even
    /// start (a share without one joins the stretch before). `nil` when that leaves one.
    private static func stretchStarts(path: String, size: Int, count: Int) -> [Int]? {
        guard count >= 2, let file = try? FileRangeSource(path: path, range: 0..<size) else {
            return nil
        }
        var starts = [0]
        var window = [UInt8](repeating: 0, count: searchWindow)
        for share in 1..<count {
            let even = size / count * share
            guard even > starts[starts.count - 1],
                let found = file.firstStretchTag(at: even, in: &window)
            else { continue }
            if found > starts[starts.count - 1] { starts.append(found) }
        }
        return starts.count >= 2 ? starts : nil
    }
}

extension FileRangeSource {
    /// The offset of the first `<Record ` or `<Workout ` in the `window.count` bytes at
    /// `offset`, or `nil`.
    fileprivate func firstStretchTag(at offset: Int, in window: inout [UInt8]) -> Int? {
        let record = Array("<Record ".utf8)
        let workout = Array("<Workout ".utf8)
        return window.withUnsafeMutableBytes { buffer -> Int? in
            guard let count = try? read(into: buffer, at: offset),
                let base = UnsafeRawPointer(buffer.baseAddress)
            else { return nil }
            var index = 0
            while let open = ByteSearch.first(of: 0x3C, in: base, from: index, to: count) {
                let rest = count - open
                if (rest >= record.count && ByteSearch.matches(record, at: base + open))
                    || (rest >= workout.count && ByteSearch.matches(workout, at: base + open))
                {
                    return offset + open
                }
                index = open + 1
            }
            return nil
        }
    }
}
