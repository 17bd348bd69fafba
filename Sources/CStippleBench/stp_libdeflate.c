// libdeflate loaded at run time (see stp_libdeflate.h). Debian installs its library with
// vips and libtiff (libdeflate0); only four functions are used, declared here.
#include "stp_libdeflate.h"
#include "stp_dl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STP_LIBDEFLATE_HINT "apt-get install libdeflate0"

struct libdeflate_compressor;
static struct {
    struct libdeflate_compressor *(*alloc)(int level);
    size_t (*bound)(struct libdeflate_compressor *c, size_t len);
    size_t (*compress)(struct libdeflate_compressor *c, const void *in, size_t len, void *out, size_t avail);
    void (*release)(struct libdeflate_compressor *c);
} lib_fns;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

#define RESOLVE(field, name)                                                                                       \
    do {                                                                                                           \
        if (stp_dl_symbol(lib, "libdeflate.so.0", name, &lib_fns.field, STP_LIBDEFLATE_HINT, load_error,             \
                          sizeof load_error))                                                                      \
            return;                                                                                                \
    } while (0)

static void load(void) {
    void *lib = stp_dl_open("libdeflate.so.0", STP_LIBDEFLATE_HINT, load_error, sizeof load_error);
    if (!lib) return;
    RESOLVE(alloc, "libdeflate_alloc_compressor");
    RESOLVE(bound, "libdeflate_zlib_compress_bound");
    RESOLVE(compress, "libdeflate_zlib_compress");
    RESOLVE(release, "libdeflate_free_compressor");
    loaded = 1;
}

int stp_libdeflate_available(char *err, size_t errlen) {
    pthread_once(&load_once, load);
    if (loaded) return 0;
    if (err && errlen) snprintf(err, errlen, "%s", load_error);
    return -1;
}

size_t stp_libdeflate_zlib(const unsigned char *in, size_t len, int level) {
    if (stp_libdeflate_available(NULL, 0) != 0) return 0;
    struct libdeflate_compressor *c = lib_fns.alloc(level);
    if (!c) return 0;
    size_t cap = lib_fns.bound(c, len);
    void *out = malloc(cap);
    size_t n = out ? lib_fns.compress(c, in, len, out, cap) : 0;
    free(out);
    lib_fns.release(c);
    return n;
}
