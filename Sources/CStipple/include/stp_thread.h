// The calling OS thread's scheduling priority and name.
#ifndef STP_THREAD_H
#define STP_THREAD_H

#include <stddef.h>

// Sets the calling thread's nice value (0 normal, up to 19 the most yielding); threads it
// creates afterwards start with it. Linux keeps a nice value per thread. Returns 0, or -1
// where the system refuses or has no per-thread priority (errno says why).
int stp_thread_set_niceness(int niceness);

// Names the calling thread as the system sees it (`top`, `perf`), cut to Linux's 15 bytes;
// reads that name back into `name` (`size` bytes, at least 16). Return 0, or -1 (errno).
int stp_thread_set_name(const char *name);
int stp_thread_name(char *name, size_t size);

#endif
