#define _GNU_SOURCE
#include "stp_thread.h"

#include <errno.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

int stp_thread_set_niceness(int niceness) {
#ifdef __linux__
    // Linux's setpriority with a thread ID acts on that thread alone (POSIX would say the
    // process); the ID is the kernel's, not pthread_self's.
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), niceness);
#else
    (void)niceness;
    errno = ENOSYS;
    return -1;
#endif
}
