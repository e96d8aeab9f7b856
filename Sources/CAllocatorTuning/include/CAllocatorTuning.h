#ifndef TRENDSTORE_CALLOCATORTUNING_H
#define TRENDSTORE_CALLOCATORTUNING_H

/// Asks the C allocator to keep freed memory for reuse rather than return it to the kernel
/// at once: glibc's mmap and trim thresholds raised to 32 and 256 MiB. Does nothing with
/// other C libraries. For the command-line tool only: a library leaves its host's
/// allocator alone.
///
/// glibc maps a block of a megabyte or more on its own and unmaps it when freed, and trims
/// a worker thread's heap with `madvise` as soon as its top is free, so an import that
/// allocates a chunk buffer and a record block per megabyte of input faulted every page in
/// again, which took a large share of an import's time; keeping freed memory raises the
/// peak RSS a little instead (BENCHMARKS.md measures imports with it).
void trendstore_keep_freed_memory(void);

#endif
