#if Encryption
    import Foundation

    extension TrendStore {
        /// Writes a compacted copy of the store into `directory` (created if missing, and it
        /// must hold no store) with every value sealed by `key`, or in the clear when `key` is
        /// `nil`: how a store moves from plain to encrypted, to another key, or back, while
        /// other threads and processes go on reading and writing it.
        ///
        /// The copy is written beside `directory` under a hidden name
        /// (`.NAME.partial-PID-UUID`) marked incomplete, then opened with `key` and verified,
        /// and only then marked complete and renamed to `directory`; the original is only
        /// read. A copy stopped before it finished (a killed process, a full disk) leaves no
        /// store at `directory`; the partial one a killed process leaves refuses to open
        /// (``StoreError/Code/incompatibleFormat``) and is removed by the next backup to the
        /// same `directory`. No value reaches the disk in the clear unless `key` is `nil`.
        ///
        /// - Returns: The report of verifying the copy, which is healthy.
        /// - Throws: ``StoreError/Code/storeUnavailable`` when `directory` holds a
        ///   store, cannot be made, or the copy does not verify (the original's damage, which
        ///   ``verify()-1rh8s`` shows); nothing is left at `directory` then.
        @discardableResult
        public nonisolated func backup(to directory: URL, encryptingWith key: EncryptionKey?)
            throws -> VerificationReport
        {
            let files = FileManager.default
            if files.fileExists(atPath: directory.appendingPathComponent("data.mdb").path) {
                throw StoreError.storeUnavailable(
                    path: directory.path,
                    reason: "already holds a store; back up into a new directory")
            }
            // Partial copies to the same place by processes since killed are removed.
            let parent = directory.deletingLastPathComponent()
            let prefix = ".\(directory.lastPathComponent).partial-"
            ProcessOwnedDirectory.removeAbandoned(in: parent, prefix: prefix)
            let partial = parent.appendingPathComponent(ProcessOwnedDirectory.name(prefix: prefix))
            try StoreEngine.createDirectory(partial)
            do {
                var options = StoreOptions()
                options.encryptionKey = key
                try engine.writeSealedCopy(into: partial, options: options)
                options.opensIncompleteCopy = true
                let copy = try TrendStore(directory: partial, options: options)
                defer { copy.engine.close() }
                let report = try copy.verify()
                guard report.isHealthy else {
                    throw StoreError.storeUnavailable(
                        path: directory.path,
                        reason:
                            "the copy did not verify (\(report.problems.count) problems, first: \(report.problems[0])); run verify on the original"
                    )
                }
                try copy.engine.markCopyComplete()
                copy.engine.close()
                // An empty directory at `directory` is replaced; one holding files is not.
                guard rename(partial.path, directory.path) == 0 else {
                    throw StoreError.storeUnavailable(
                        path: directory.path,
                        reason: "cannot move the copy there: \(String(cString: strerror(errno)))")
                }
                return report
            } catch {
                try? files.removeItem(at: partial)
                throw StoreError.wrapping(error, path: directory.path)
            }
        }
    }
#endif
