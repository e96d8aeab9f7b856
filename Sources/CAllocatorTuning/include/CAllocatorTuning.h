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
/// again: on the L CSV a quarter of a one-thread dry run (4.9–6.8 → 10.4–12.4 M samples/s
/// with this; a whole import 1.67 → 1.37 s, peak RSS 86 → 100 MiB).
void trendstore_keep_freed_memory(void);

#endif
