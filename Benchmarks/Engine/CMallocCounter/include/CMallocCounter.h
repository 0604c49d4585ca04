#ifndef CMALLOC_COUNTER_H
#define CMALLOC_COUNTER_H

#include <stdint.h>

/// Allocation calls (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by the
/// whole process since it started. Linking this target into an executable interposes glibc's
/// allocator entry points, which forward to glibc's own implementation (__libc_*).
uint64_t mc_allocations(void);

#endif
