#ifndef STP_LIBDEFLATE_H
#define STP_LIBDEFLATE_H
#include <stddef.h>

// libdeflate as a deflate back-end the PNG writer could have used, measured by `stipple
// bench` on the same filtered rows as Stipple's own coder. libdeflate.so.0 is loaded with
// dlopen when first needed, so the package does not depend on it at build time.

// 0 when libdeflate.so.0 and every function used are there; -1 + one line otherwise.
int stp_libdeflate_available(char *err, size_t errlen);

// `len` bytes as one zlib stream at `level` (1…12), on the calling thread: its size, 0 when
// the library is missing or out of memory. The thread keeps a compressor for each level it
// used and one output buffer, for the life of the process.
size_t stp_libdeflate_zlib(const unsigned char *in, size_t len, int level);

#endif
