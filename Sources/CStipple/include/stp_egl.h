#ifndef STP_EGL_H
#define STP_EGL_H
#include <stddef.h>
#include <EGL/egl.h>

// Which EGL platform to open. AUTO takes GBM when a render node exists, else Mesa's
// surfaceless platform, else EGL's device platform.
typedef enum stp_platform {
    STP_PLATFORM_AUTO = 0,
    STP_PLATFORM_GBM = 1,
    STP_PLATFORM_DEVICE = 2,
    STP_PLATFORM_SURFACELESS = 3,
} stp_platform;

typedef struct stp_egl stp_egl;

// Opens a display, picks an RGBA8888 ES2 config and creates a context and a small surface
// (GBM surface or pbuffer). Nothing is made current. Returns NULL and writes one line
// into err on failure (naming what is missing and how to install it).
stp_egl *stp_egl_open(stp_platform request, char *err, size_t errlen);

// Makes the context current on the calling thread: the render thread calls it once.
int stp_egl_make_current(stp_egl *egl, char *err, size_t errlen);

// The stp_egl that the calling thread made current with stp_egl_make_current, or NULL:
// one thread-local read, cheap enough for a check before every GL call.
const stp_egl *stp_egl_current_here(void);

// Asks EGL whether egl's context is current on the calling thread (slower: once a frame).
int stp_egl_is_current_in_egl(const stp_egl *egl);

// Releases the context from the calling thread (which must be the one that made it current).
void stp_egl_release_current(stp_egl *egl);

// Frees the calling thread's EGL state (eglReleaseThread): the last EGL call a thread
// makes. glvnd frees a thread's state in a thread-exit destructor and again, for every
// thread, in its library destructor at exit(): a thread ending with state while another
// runs exit() can free it twice. A thread that has released it ends with none.
void stp_egl_release_thread(void);

// Destroys the context and surface (the display stays: see stp_egl.c).
void stp_egl_close(stp_egl *egl);

stp_platform stp_egl_platform(const stp_egl *egl);
const char *stp_egl_platform_name(stp_platform platform);
// Why this platform was chosen, one sentence.
const char *stp_egl_reason(const stp_egl *egl);
EGLContext stp_egl_context(const stp_egl *egl);
EGLDisplay stp_egl_display(const stp_egl *egl);
// "1.5", the EGL vendor string, the device file used (GBM) or "".
const char *stp_egl_version(const stp_egl *egl);
const char *stp_egl_vendor(const stp_egl *egl);
const char *stp_egl_device(const stp_egl *egl);

// Name of an EGL error code, e.g. "EGL_BAD_MATCH".
const char *stp_egl_error_name(EGLint code);

#endif
