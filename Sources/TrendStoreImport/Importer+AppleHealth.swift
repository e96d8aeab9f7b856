import Foundation

extension Importer {
    /// Reads an Apple Health export, a file or the export in a zip archive (streamed out of
    /// it once per pass, never to disk): the survey's pass (``AppleHealthSurvey``; a file's
    /// in stretches read on every thread), then the records, in pieces parsed on every
    /// thread when the survey could cut the file, else as one stream.
    func readAppleHealth(
        path: String, stream: ByteStream, into summary: inout ImportSummary,
        options: ImportOptions, began: Date, progress: (@Sendable (ImportProgress) -> Void)?
    ) async throws {
        let isArchive = try stream.peek(4) == [0x50, 0x4B, 0x03, 0x04]
        let displayPath: String
        let open: () throws(ImportError) -> ByteStream
        if isArchive {
            let entry = try AppleHealthArchive.exportEntry(in: path)
            let limits = options.expansionLimits
            displayPath = "\(path)/\(entry)"
            open = { () throws(ImportError) in
                ByteStream(
                    source: try ZipEntrySource(zipPath: path, entryPath: entry, limits: limits),
                    path: displayPath, totalBytes: 0)
            }
        } else {
            displayPath = path
            open = { () throws(ImportError) in try ByteStream(path: path) }
        }
        func opened() throws(ImportError) -> ByteStream {
            let stream = try open()
            stream.maximumRecordBytes = options.maximumRecordBytes
            return stream
        }
        // A piece is held whole, one a thread: at most 8 of the longest records the import
        // reads (real exports can be cut at every record or workout).
        let longest = options.maximumRecordBytes.multipliedReportingOverflow(by: 8)
        let longestPiece = longest.overflow ? Int.max : longest.partialValue
        let stretched =
            isArchive
            ? nil
            : try AppleHealthSurvey(
                path: path, pieceBytes: options.sliceBytes, longestPiece: longestPiece,
                threads: options.threads, maximumRecordBytes: options.maximumRecordBytes)
        let survey =
            try stretched
            ?? AppleHealthSurvey(
                stream: try opened(), displayPath: displayPath, pieceBytes: options.sliceBytes,
                longestPiece: longestPiece)
        guard let cuts = survey.cuts else {
            let records = AppleHealthParser(
                displayPath: displayPath, survey: survey, stream: try opened())
            try await read(
                RecordParserBlocks(parser: records, file: path, skipInvalid: options.skipInvalid),
                workers: min(1, options.threads - 1), into: &summary, options: options,
                began: began, progress: progress)
            return
        }
        let pieces = AppleHealthPieces(
            displayPath: displayPath, survey: survey, cuts: cuts, stream: try opened(),
            skipInvalid: options.skipInvalid)
        // Writing an export's samples takes little beside parsing them: every thread parses.
        try await read(
            pieces, workers: options.threads > 1 ? options.threads : 0, into: &summary,
            options: options, began: began, progress: progress)
    }
}
