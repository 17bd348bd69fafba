// The process's heap: how many malloc arenas its threads share.
#ifndef STP_HEAP_H
#define STP_HEAP_H

// Asks the C library to share at most `count` malloc arenas between all threads (glibc
// makes up to eight a core, one per thread that finds the others busy, and memory freed in
// one is never reused by another). Returns 1 when set, 0 where the C library has no such
// setting.
int stp_heap_limit_arenas(int count);

// Gives the pages of freed heap memory back to the system (glibc keeps them otherwise, and
// a long-running process's resident memory then counts what it freed long ago). Returns 1
// when memory was released, 0 when none was or the C library cannot.
int stp_heap_trim(void);

// What the heap holds: `used`, the bytes of live allocations; `held`, the bytes the heap has
// from the system (its arenas and its separately mapped large blocks), used or free. Both 0
// where the C library does not say.
void stp_heap_figures(unsigned long long *used, unsigned long long *held);

#endif
