#include "stp_heap.h"

// Any C library header first: glibc defines __GLIBC__ in <features.h>, which they include,
// and the tests below must see it.
#include <stdlib.h>

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

void stp_heap_figures(unsigned long long *used, unsigned long long *held) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 m = mallinfo2();
    *used = (unsigned long long)(m.uordblks + m.hblkhd);
    *held = (unsigned long long)(m.arena + m.hblkhd);
#else
    *used = 0;
    *held = 0;
#endif
}
