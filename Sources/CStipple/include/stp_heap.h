// The process's heap: how many malloc arenas its threads share.
#ifndef STP_HEAP_H
#define STP_HEAP_H

// Asks the C library to share at most `count` malloc arenas between all threads (glibc
// makes up to eight a core, one per thread that finds the others busy, and memory freed in
// one is never reused by another). Returns 1 when set, 0 where the C library has no such
// setting.
int stp_heap_limit_arenas(int count);

#endif
