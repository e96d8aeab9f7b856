#ifndef TRENDSTORE_CALLOCATORTUNING_H
#define TRENDSTORE_CALLOCATORTUNING_H

/// Asks the C allocator to keep freed memory for reuse rather than return it to the kernel
/// at once: glibc's mmap and trim thresholds raised to 32 and 256 MiB. Does nothing with
/// other C libraries. For the command-line tool only: a library leaves its host's
/// allocator alone.
void trendstore_keep_freed_memory(void);

#endif
