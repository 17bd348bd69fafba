// EGL bring-up: GBM on a render node, else Mesa's surfaceless platform, else EGL's
// device platform. Extensions are checked before their functions are looked up.
// Finding a render node is stp_drm.c's concern.
#define _GNU_SOURCE
#include "stp_say.h"
#include "stp_egl.h"
#include "stp_drm.h"
#include "stp_egl_internal.h"

#include <EGL/eglext.h>
#include <gbm.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef EGL_PLATFORM_SURFACELESS_MESA
#define EGL_PLATFORM_SURFACELESS_MESA 0x31DD
#endif

#define STP_INSTALL_HINT \
    "install Mesa's EGL and drivers: apt-get install libegl1 libegl-mesa0 libgles2 libgbm1 libgl1-mesa-dri"



// True when the space-separated extension list names ext exactly.
static int has_extension(const char *list, const char *ext) {
    if (!list) return 0;
    size_t n = strlen(ext);
    for (const char *p = list; (p = strstr(p, ext)) != NULL; p += n) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
    }
    return 0;
}

static EGLDisplay get_platform_display(EGLenum platform, void *native, char *err, size_t errlen) {
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!client || !has_extension(client, "EGL_EXT_platform_base")) {
        stp_say(err, errlen, "EGL has no EGL_EXT_platform_base (is Mesa's EGL installed?); " STP_INSTALL_HINT);
        return EGL_NO_DISPLAY;
    }
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display) {
        stp_say(err, errlen, "eglGetPlatformDisplayEXT is missing; " STP_INSTALL_HINT);
        return EGL_NO_DISPLAY;
    }
    EGLDisplay d = get_display(platform, native, NULL);
    if (d == EGL_NO_DISPLAY) {
        stp_say(err, errlen, "eglGetPlatformDisplayEXT failed (%s); " STP_INSTALL_HINT,
            stp_egl_error_name(eglGetError()));
    }
    return d;
}

static int open_gbm(stp_egl *egl, char *err, size_t errlen) {
    // The render node first: without one no EGL can help, whatever its extensions (NVIDIA's
    // EGL in a machine without /dev/dri lacks both).
    egl->drm_fd = stp_drm_open_render_node(egl->device, sizeof egl->device);
    if (egl->drm_fd < 0) {
        stp_say(err, errlen, "the GBM platform needs a render node (/dev/dri/renderD*), and this machine has none "
            "(no GPU, or no access to it); use STIPPLE_EGL_PLATFORM=surfaceless or leave it unset");
        egl->device[0] = '\0';
        return -1;
    }
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!has_extension(client, "EGL_KHR_platform_gbm") && !has_extension(client, "EGL_MESA_platform_gbm")) {
        stp_say(err, errlen, "EGL has no GBM platform (EGL_KHR_platform_gbm); " STP_INSTALL_HINT);
        return -1;
    }
    egl->gbm = gbm_create_device(egl->drm_fd);
    if (!egl->gbm) {
        stp_say(err, errlen, "gbm_create_device(%s) failed; install libgbm1 and Mesa's drivers (libgl1-mesa-dri)",
            egl->device);
        return -1;
    }
    egl->display = get_platform_display(EGL_PLATFORM_GBM_KHR, egl->gbm, err, errlen);
    return egl->display == EGL_NO_DISPLAY ? -1 : 0;
}

static int open_surfaceless(stp_egl *egl, char *err, size_t errlen) {
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!has_extension(client, "EGL_MESA_platform_surfaceless")) {
        stp_say(err, errlen, "EGL has no surfaceless platform (EGL_MESA_platform_surfaceless); " STP_INSTALL_HINT);
        return -1;
    }
    egl->display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, err, errlen);
    return egl->display == EGL_NO_DISPLAY ? -1 : 0;
}

static int open_device(stp_egl *egl, char *err, size_t errlen) {
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!has_extension(client, "EGL_EXT_platform_device") ||
        !(has_extension(client, "EGL_EXT_device_enumeration") || has_extension(client, "EGL_EXT_device_base"))) {
        stp_say(err, errlen, "EGL has no device platform (EGL_EXT_platform_device); " STP_INSTALL_HINT);
        return -1;
    }
    PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    if (!query_devices) {
        stp_say(err, errlen, "eglQueryDevicesEXT is missing; " STP_INSTALL_HINT);
        return -1;
    }
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!query_devices(16, devices, &count) || count < 1) {
        stp_say(err, errlen, "EGL's device platform lists no device; " STP_INSTALL_HINT);
        return -1;
    }
    // Every device is tried in order; the first that initialises wins (index noted).
    snprintf(egl->device, sizeof egl->device, "EGL device 0 of %d", (int)count);
    egl->display = get_platform_display(EGL_PLATFORM_DEVICE_EXT, devices[0], err, errlen);
    return egl->display == EGL_NO_DISPLAY ? -1 : 0;
}

static int create_context(stp_egl *egl, char *err, size_t errlen) {
    EGLint major = 0, minor = 0;
    if (!eglInitialize(egl->display, &major, &minor)) {
        stp_say(err, errlen, "eglInitialize on the %s platform failed (%s); " STP_INSTALL_HINT,
            stp_egl_platform_name(egl->platform), stp_egl_error_name(eglGetError()));
        egl->display = EGL_NO_DISPLAY;
        return -1;
    }
    stp_egl_display_retain(egl->display);
    snprintf(egl->version, sizeof egl->version, "%d.%d", (int)major, (int)minor);
    const char *vendor = eglQueryString(egl->display, EGL_VENDOR);
    snprintf(egl->vendor, sizeof egl->vendor, "%s", vendor ? vendor : "unknown");

    if (!eglBindAPI(EGL_OPENGL_ES_API)) {
        stp_say(err, errlen, "eglBindAPI(EGL_OPENGL_ES_API) failed (%s): this EGL has no OpenGL ES; "
            "install libgles2 and libgl1-mesa-dri", stp_egl_error_name(eglGetError()));
        return -1;
    }

    int gbm = egl->platform == STP_PLATFORM_GBM;
    const EGLint config_attribs[] = {
        EGL_SURFACE_TYPE, gbm ? EGL_WINDOW_BIT : EGL_PBUFFER_BIT,
        EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
        EGL_NONE,
    };
    EGLConfig configs[64];
    EGLint count = 0;
    if (!eglChooseConfig(egl->display, config_attribs, configs, 64, &count) || count < 1) {
        stp_say(err, errlen, "no EGL config with 8-bit RGBA and OpenGL ES 2 on the %s platform (%s)",
            stp_egl_platform_name(egl->platform), stp_egl_error_name(eglGetError()));
        return -1;
    }
    egl->config = configs[0];
    if (gbm) {
        // The GBM surface's format must match the config's native visual.
        int matched = 0;
        for (EGLint i = 0; i < count && !matched; i++) {
            EGLint visual = 0;
            if (eglGetConfigAttrib(egl->display, configs[i], EGL_NATIVE_VISUAL_ID, &visual) &&
                visual == GBM_FORMAT_ARGB8888) {
                egl->config = configs[i];
                matched = 1;
            }
        }
        if (!matched) {
            stp_say(err, errlen, "no EGL config on GBM matches GBM_FORMAT_ARGB8888");
            return -1;
        }
    }

    const EGLint context_attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    egl->context = eglCreateContext(egl->display, egl->config, EGL_NO_CONTEXT, context_attribs);
    if (egl->context == EGL_NO_CONTEXT) {
        stp_say(err, errlen, "eglCreateContext for OpenGL ES 2 failed (%s)", stp_egl_error_name(eglGetError()));
        return -1;
    }

    // Rendering goes to framebuffer objects; the surface only lets the context be current
    // where EGL_KHR_surfaceless_context is missing.
    if (gbm) {
        egl->gbm_surface = gbm_surface_create(egl->gbm, 16, 16, GBM_FORMAT_ARGB8888, GBM_BO_USE_RENDERING);
        if (!egl->gbm_surface) {
            stp_say(err, errlen, "gbm_surface_create failed on %s", egl->device);
            return -1;
        }
        egl->surface = eglCreateWindowSurface(egl->display, egl->config,
                                              (EGLNativeWindowType)egl->gbm_surface, NULL);
    } else {
        const EGLint pbuffer_attribs[] = { EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE };
        egl->surface = eglCreatePbufferSurface(egl->display, egl->config, pbuffer_attribs);
    }
    if (egl->surface == EGL_NO_SURFACE) {
        stp_say(err, errlen, "creating the %s surface failed (%s)", gbm ? "GBM window" : "pbuffer",
            stp_egl_error_name(eglGetError()));
        return -1;
    }
    return 0;
}

stp_egl *stp_egl_open(stp_platform request, char *err, size_t errlen) {
    stp_egl *egl = calloc(1, sizeof *egl);
    if (!egl) { stp_say(err, errlen, "out of memory"); return NULL; }
    egl->drm_fd = -1;
    egl->display = EGL_NO_DISPLAY;
    egl->context = EGL_NO_CONTEXT;
    egl->surface = EGL_NO_SURFACE;

    int rc = -1;
    char first_err[512] = "";
    if (request == STP_PLATFORM_AUTO) {
        if (stp_drm_render_node_exists()) {
            egl->platform = STP_PLATFORM_GBM;
            rc = open_gbm(egl, first_err, sizeof first_err);
            if (rc == 0) rc = create_context(egl, first_err, sizeof first_err);
            snprintf(egl->reason, sizeof egl->reason, "a render node exists (%s): GBM chosen", egl->device);
            if (rc != 0) { stp_egl_close(egl); egl = calloc(1, sizeof *egl); if (!egl) return NULL;
                           egl->drm_fd = -1; }
        }
        if (rc != 0) {
            egl->platform = STP_PLATFORM_SURFACELESS;
            rc = open_surfaceless(egl, err, errlen);
            if (rc == 0) rc = create_context(egl, err, errlen);
            snprintf(egl->reason, sizeof egl->reason, "%s: the surfaceless platform chosen",
                     first_err[0] ? "GBM failed" : "no render node under /dev/dri");
        }
        if (rc != 0) {
            // Keep the surfaceless error: try the device platform last.
            char second_err[512];
            snprintf(second_err, sizeof second_err, "%s", err ? err : "");
            stp_egl_close(egl);
            egl = calloc(1, sizeof *egl);
            if (!egl) return NULL;
            egl->drm_fd = -1;
            egl->platform = STP_PLATFORM_DEVICE;
            rc = open_device(egl, err, errlen);
            if (rc == 0) rc = create_context(egl, err, errlen);
            snprintf(egl->reason, sizeof egl->reason, "surfaceless failed (%.180s): EGL's device platform chosen",
                     second_err);
            if (rc != 0 && err && second_err[0]) snprintf(err, errlen, "neither the surfaceless nor the device platform works: %s", second_err);
        }
    } else {
        egl->platform = request;
        switch (request) {
        case STP_PLATFORM_GBM: rc = open_gbm(egl, err, errlen); break;
        case STP_PLATFORM_DEVICE: rc = open_device(egl, err, errlen); break;
        default: rc = open_surfaceless(egl, err, errlen); break;
        }
        if (rc == 0) rc = create_context(egl, err, errlen);
        snprintf(egl->reason, sizeof egl->reason, "STIPPLE_EGL_PLATFORM=%s asked for it",
                 stp_egl_platform_name(request));
    }
    if (rc != 0) stp_egl_close(egl);
    // Every EGL call leaves per-thread state behind (glvnd's and Mesa's) on the calling
    // thread, which is usually a pool thread, not the render thread. Free it now: a pool
    // thread that ends while the process exits would free it a second time (see
    // stp_egl_release_thread). No context is current on this thread, so nothing else changes.
    eglReleaseThread();
    return rc != 0 ? NULL : egl;
}

void stp_egl_close(stp_egl *egl) {
    if (!egl) return;
    if (egl->display != EGL_NO_DISPLAY) {
        if (egl->surface != EGL_NO_SURFACE) eglDestroySurface(egl->display, egl->surface);
        if (egl->context != EGL_NO_CONTEXT) eglDestroyContext(egl->display, egl->context);
        // No eglTerminate, even for the last user: it unloads Mesa's driver (dlclose), and a
        // render thread that is still ending runs the driver's thread-exit destructors
        // from the unloaded code (SIGSEGV at exit). The display lives until the process ends.
        (void)stp_egl_display_release(egl->display);
    }
    if (egl->gbm_surface) gbm_surface_destroy(egl->gbm_surface);
    if (egl->gbm) gbm_device_destroy(egl->gbm);
    if (egl->drm_fd >= 0) close(egl->drm_fd);
    free(egl);
}

stp_platform stp_egl_platform(const stp_egl *egl) { return egl->platform; }
const char *stp_egl_reason(const stp_egl *egl) { return egl->reason; }
EGLContext stp_egl_context(const stp_egl *egl) { return egl->context; }
EGLDisplay stp_egl_display(const stp_egl *egl) { return egl->display; }
const char *stp_egl_version(const stp_egl *egl) { return egl->version; }
const char *stp_egl_vendor(const stp_egl *egl) { return egl->vendor; }
const char *stp_egl_device(const stp_egl *egl) { return egl->device; }
