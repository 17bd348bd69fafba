// libdeflate loaded at run time (see stp_libdeflate.h). Debian installs its library with
// vips and libtiff (libdeflate0); only four functions are used, declared here.
#include "../CStipple/stp_scratch.h"  // internal to the package: not in CStipple's public headers
#include "stp_libdeflate.h"
#include "stp_dl.h"

#include <pthread.h>
#include <stdio.h>

#define STP_LIBDEFLATE_HINT "apt-get install libdeflate0"

struct libdeflate_compressor;
static struct {
    struct libdeflate_compressor *(*alloc)(int level);
    size_t (*bound)(struct libdeflate_compressor *c, size_t len);
    size_t (*compress)(struct libdeflate_compressor *c, const void *in, size_t len, void *out, size_t avail);
} lib_fns;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static void load(void) {
    const stp_dl_function functions[] = {
        {"libdeflate_alloc_compressor", &lib_fns.alloc},
        {"libdeflate_zlib_compress_bound", &lib_fns.bound},
        {"libdeflate_zlib_compress", &lib_fns.compress},
    };
    loaded = stp_dl_load("libdeflate.so.0", STP_LIBDEFLATE_HINT, functions, sizeof functions / sizeof *functions,
                         load_error, sizeof load_error) != NULL;
}

int stp_libdeflate_available(char *err, size_t errlen) {
    pthread_once(&load_once, load);
    if (loaded) return 0;
    if (err && errlen) snprintf(err, errlen, "%s", load_error);
    return -1;
}

size_t stp_libdeflate_zlib(const unsigned char *in, size_t len, int level) {
    if (stp_libdeflate_available(NULL, 0) != 0 || level < 1 || level > 12) return 0;
    // A compressor for each level and the output buffer, kept by the thread from call to call,
    // as a PNG writer built on libdeflate would keep them (and as Stipple's coder keeps its
    // buffers): the time measured is the compression's.
    static __thread struct libdeflate_compressor *compressors[13];
    static __thread void *kept_out;
    static __thread size_t out_cap;
    if (!compressors[level] && !(compressors[level] = lib_fns.alloc(level))) return 0;
    size_t cap = lib_fns.bound(compressors[level], len);
    void *out = stp_scratch(&kept_out, &out_cap, cap, 0);
    return out ? lib_fns.compress(compressors[level], in, len, out, cap) : 0;
}
