import LMDB

extension TrendStore {
    /// For command-line tools: when LMDB stops on one of its own assertions in this process
    /// (it met a damaged page), print `prefix` and what failed as one line on standard error
    /// and exit with `status`, instead of aborting.
    ///
    /// LMDB checks some invariants of its B-tree with assertions and aborts the process when
    /// one fails, where no error can be thrown; a damaged branch page can lead a read there.
    /// Call this before opening a store. A host app should leave the default (the abort and
    /// its crash report): exiting skips every cleanup.
    package static func exitOnStorageAssertion(status: Int32, prefix: String) {
        AssertionExit.exit(withStatus: status, prefix: prefix)
    }
}
