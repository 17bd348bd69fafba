// How many stp_egl share each EGLDisplay in this process.
#include "stp_egl_internal.h"

#include <pthread.h>

// Displays are shared by every stp_egl of the same platform in a process (EGL hands out
// one EGLDisplay per platform and native display): terminate only when the last goes.
static pthread_mutex_t display_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { EGLDisplay display; int users; } display_users[8];

void stp_egl_display_retain(EGLDisplay d) {
    pthread_mutex_lock(&display_lock);
    int free_slot = -1;
    for (int i = 0; i < 8; i++) {
        if (display_users[i].display == d && display_users[i].users > 0) {
            display_users[i].users++;
            pthread_mutex_unlock(&display_lock);
            return;
        }
        if (display_users[i].users == 0 && free_slot < 0) free_slot = i;
    }
    if (free_slot >= 0) { display_users[free_slot].display = d; display_users[free_slot].users = 1; }
    pthread_mutex_unlock(&display_lock);
}

// Returns 1 when the caller was the last user of the display.
int stp_egl_display_release(EGLDisplay d) {
    int last = 0;
    pthread_mutex_lock(&display_lock);
    for (int i = 0; i < 8; i++) {
        if (display_users[i].display == d && display_users[i].users > 0) {
            last = --display_users[i].users == 0;
            break;
        }
    }
    pthread_mutex_unlock(&display_lock);
    return last;
}
