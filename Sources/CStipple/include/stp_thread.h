// The calling OS thread's scheduling priority.
#ifndef STP_THREAD_H
#define STP_THREAD_H

// Sets the calling thread's nice value (0 normal, up to 19 the most yielding); threads it
// creates afterwards start with it. Linux keeps a nice value per thread. Returns 0, or -1
// where the system refuses or has no per-thread priority (errno says why).
int stp_thread_set_niceness(int niceness);

#endif
