// Making a context current, and the record of which one is current on this thread that
// Stipple's GL guard reads before every call.
#include "stp_say.h"
#include "stp_egl_internal.h"

// Which stp_egl this thread made current: the context guard's cheap check. Asking EGL
// (eglGetCurrentContext) on every GL call costs a getpid() syscall in glvnd's fork check.
static _Thread_local const stp_egl *current_here = NULL;

const stp_egl *stp_egl_current_here(void) { return current_here; }

int stp_egl_make_current(stp_egl *egl, char *err, size_t errlen) {
    if (!eglMakeCurrent(egl->display, egl->surface, egl->surface, egl->context)) {
        stp_say(err, errlen, "eglMakeCurrent failed (%s)", stp_egl_error_name(eglGetError()));
        return -1;
    }
    current_here = egl;
    return 0;
}

int stp_egl_is_current_in_egl(const stp_egl *egl) {
    return egl && eglGetCurrentContext() == egl->context;
}

void stp_egl_release_current(stp_egl *egl) {
    if (egl && egl->display != EGL_NO_DISPLAY) {
        eglMakeCurrent(egl->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    }
    if (current_here == egl) current_here = NULL;
}

void stp_egl_release_thread(void) {
    eglReleaseThread();
}
