#ifndef VAULTMAIL_CMALLOC_SHIM_H
#define VAULTMAIL_CMALLOC_SHIM_H

#include <malloc.h>

/* glibc's allocator settings for the long-running daemon: at most `count` heaps (arenas) instead
   of one per thread up to 8 x cores, and freed heap memory given back to the system. */
static inline int vm_malloc_limit_arenas(int count) { return mallopt(M_ARENA_MAX, count); }
static inline int vm_malloc_fixed_thresholds(int mmap_bytes, int trim_bytes) {
    return mallopt(M_MMAP_THRESHOLD, mmap_bytes) && mallopt(M_TRIM_THRESHOLD, trim_bytes);
}
static inline int vm_malloc_trim(void) { return malloc_trim(0); }

/* What the heap holds from the system (`held`) and what of it live allocations use (`used`),
   over every arena, mmapped blocks included. */
static inline void vm_malloc_usage(size_t *held, size_t *used) {
    struct mallinfo2 info = mallinfo2();
    *held = info.arena + info.hblkhd;
    *used = info.uordblks + info.hblkhd;
}

#endif
