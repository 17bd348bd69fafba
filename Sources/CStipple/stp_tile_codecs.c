// Pyramid tiles in JPEG and WebP through libraries loaded at run time (see stp_tile_codecs.h).
// Only the few functions used are looked up; their signatures are those of TurboJPEG 2.x's
// tj* API and libwebp's simple encoding API, both stable across their Debian releases.
#include "stp_tile_codecs.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void *tjhandle;
typedef tjhandle (*tj_init_compress_fn)(void);
typedef int (*tj_compress2_fn)(tjhandle, const unsigned char *, int, int, int, int, unsigned char **, unsigned long *,
                               int, int, int);
typedef void (*tj_free_fn)(unsigned char *);
typedef int (*tj_destroy_fn)(tjhandle);
typedef char *(*tj_error_fn)(tjhandle);
enum { TJPF_RGB = 0, TJSAMP_420 = 2 };

typedef size_t (*webp_encode_fn)(const uint8_t *, int, int, int, float, uint8_t **);
typedef size_t (*webp_lossless_fn)(const uint8_t *, int, int, int, uint8_t **);
typedef void (*webp_free_fn)(void *);

static struct {
    pthread_once_t once;
    const char *failure;
    tj_init_compress_fn init;
    tj_compress2_fn compress;
    tj_free_fn release;
    tj_destroy_fn destroy;
    tj_error_fn error;
} jpeg = {PTHREAD_ONCE_INIT, NULL, NULL, NULL, NULL, NULL, NULL};

static struct {
    pthread_once_t once;
    const char *failure;
    webp_encode_fn encode;
    webp_lossless_fn lossless;
    webp_free_fn release;
} webp = {PTHREAD_ONCE_INIT, NULL, NULL, NULL, NULL};

static void say(char *err, size_t len, const char *what) {
    if (err && len) snprintf(err, len, "%s", what);
}

static void load_jpeg(void) {
    void *lib = dlopen("libturbojpeg.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib) { jpeg.failure = "JPEG tiles need libturbojpeg.so.0 (Debian: apt-get install libturbojpeg0)"; return; }
    jpeg.init = (tj_init_compress_fn)dlsym(lib, "tjInitCompress");
    jpeg.compress = (tj_compress2_fn)dlsym(lib, "tjCompress2");
    jpeg.release = (tj_free_fn)dlsym(lib, "tjFree");
    jpeg.destroy = (tj_destroy_fn)dlsym(lib, "tjDestroy");
    jpeg.error = (tj_error_fn)dlsym(lib, "tjGetErrorStr2");
    if (!jpeg.init || !jpeg.compress || !jpeg.release || !jpeg.destroy || !jpeg.error)
        jpeg.failure = "libturbojpeg.so.0 lacks the TurboJPEG 2 functions Stipple uses";
}

static void load_webp(void) {
    void *lib = dlopen("libwebp.so.7", RTLD_NOW | RTLD_LOCAL);
    if (!lib) { webp.failure = "WebP tiles need libwebp.so.7 (Debian: apt-get install libwebp7)"; return; }
    webp.encode = (webp_encode_fn)dlsym(lib, "WebPEncodeRGBA");
    webp.lossless = (webp_lossless_fn)dlsym(lib, "WebPEncodeLosslessRGBA");
    webp.release = (webp_free_fn)dlsym(lib, "WebPFree");
    if (!webp.encode || !webp.lossless || !webp.release) webp.failure = "libwebp.so.7 lacks WebPEncodeRGBA or WebPFree";
}

int stp_jpeg_available(char *err, size_t err_len) {
    pthread_once(&jpeg.once, load_jpeg);
    if (jpeg.failure) { say(err, err_len, jpeg.failure); return 0; }
    return 1;
}

int stp_webp_available(char *err, size_t err_len) {
    pthread_once(&webp.once, load_webp);
    if (webp.failure) { say(err, err_len, webp.failure); return 0; }
    return 1;
}

int stp_jpeg_encode(const uint8_t *rgb, int width, int height, int quality, uint8_t **out, size_t *out_len,
                    char *err, size_t err_len) {
    if (!stp_jpeg_available(err, err_len)) return -1;
    tjhandle h = jpeg.init();
    if (!h) { say(err, err_len, "tjInitCompress failed"); return -1; }
    unsigned char *buf = NULL;
    unsigned long len = 0;
    int rc = jpeg.compress(h, rgb, width, width * 3, height, TJPF_RGB, &buf, &len, TJSAMP_420, quality, 0);
    if (rc != 0) {
        say(err, err_len, jpeg.error(h));
        if (buf) jpeg.release(buf);
        jpeg.destroy(h);
        return -1;
    }
    *out = malloc(len);
    if (*out) memcpy(*out, buf, len);
    jpeg.release(buf);
    jpeg.destroy(h);
    if (!*out) { say(err, err_len, "out of memory"); return -1; }
    *out_len = len;
    return 0;
}

int stp_webp_encode(const uint8_t *rgba, int width, int height, float quality, int lossless, uint8_t **out,
                    size_t *out_len, char *err, size_t err_len) {
    if (!stp_webp_available(err, err_len)) return -1;
    uint8_t *buf = NULL;
    size_t len = lossless ? webp.lossless(rgba, width, height, width * 4, &buf)
                          : webp.encode(rgba, width, height, width * 4, quality, &buf);
    if (len == 0 || !buf) { say(err, err_len, "WebP encoding failed"); return -1; }
    *out = malloc(len);
    if (*out) memcpy(*out, buf, len);
    webp.release(buf);
    if (!*out) { say(err, err_len, "out of memory"); return -1; }
    *out_len = len;
    return 0;
}
