// Internal to CStipple: what an open stp_egl holds, shared by stp_egl.c (bring-up, tear-down)
// stp_egl_current.c (which context is current on which thread) and stp_egl_display.c
// (displays shared between them).
#ifndef STP_EGL_INTERNAL_H
#define STP_EGL_INTERNAL_H
#include <EGL/egl.h>
#include <gbm.h>
#include "stp_egl.h"

struct stp_egl {
    stp_platform platform;
    EGLDisplay display;
    EGLConfig config;
    EGLContext context;
    EGLSurface surface;
    int drm_fd;
    struct gbm_device *gbm;
    struct gbm_surface *gbm_surface;
    char reason[256];
    char version[32];
    char vendor[128];
    char device[128];
};

// Counts a user of `d` (stp_egl_display.c).
void stp_egl_display_retain(EGLDisplay d);
// Uncounts one; returns 1 when the caller was the last user of the display.
int stp_egl_display_release(EGLDisplay d);

#endif
