#define _GNU_SOURCE
#include "stp_thread.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
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

int stp_thread_set_name(const char *name) {
#ifdef __linux__
    char short_name[16];
    strncpy(short_name, name, sizeof short_name - 1);
    short_name[sizeof short_name - 1] = 0;
    return pthread_setname_np(pthread_self(), short_name) == 0 ? 0 : -1;
#else
    (void)name;
    errno = ENOSYS;
    return -1;
#endif
}

int stp_thread_name(char *name, size_t size) {
#ifdef __linux__
    return pthread_getname_np(pthread_self(), name, size) == 0 ? 0 : -1;
#else
    if (size) name[0] = 0;
    errno = ENOSYS;
    return -1;
#endif
}
