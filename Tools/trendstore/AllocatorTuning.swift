import CAllocatorTuning

/// How the tool asks the C allocator to treat freed memory.
enum AllocatorTuning {
    /// Keeps freed blocks for reuse instead of handing them back to the kernel.
    ///
    /// glibc maps a block of a megabyte or more on its own and unmaps it when freed, and
    /// trims a worker thread's heap with `madvise` as soon as its top is free, so an import
    /// that allocates a chunk buffer and a record block per megabyte of input faulted every
    /// page in again: measured on the L CSV, a quarter of a one-thread dry run's time went
    /// to page faults (4.9–6.8 → 10.4–12.4 M samples/s with this; a whole import 1.67 →
    /// 1.37 s, peak RSS 86 → 100 MiB). The library never does this: the host app owns its
    /// allocator.
    static func keepFreedMemory() { trendstore_keep_freed_memory() }
}
