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
