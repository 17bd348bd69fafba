#ifndef STP_SCRATCH_H
#define STP_SCRATCH_H
#include <stdlib.h>

// A buffer the calling thread keeps from one call to the next (fresh pages every call, faulted
// in and zeroed, cost more than the work done in them), grown to at least `need` bytes, and
// to `least` at first: the buffer, or NULL when out of memory. `buffer` and `capacity` are the
// caller's `static __thread` variables.
static inline void *stp_scratch(void **buffer, size_t *capacity, size_t need, size_t least) {
    if (*capacity < need) {
        free(*buffer);
        size_t size = need > least ? need : least;
        *buffer = malloc(size);
        *capacity = *buffer ? size : 0;
    }
    return *buffer;
}

#endif
