#include "stp_heap.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int stp_heap_limit_arenas(int count) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    return mallopt(M_ARENA_MAX, count);
#else
    (void)count;
    return 0;
#endif
}

int stp_heap_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}
