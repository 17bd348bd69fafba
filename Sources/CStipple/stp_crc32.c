// CRC-32 (PNG's, zlib's) by carry-less multiplication where the CPU has PCLMULQDQ: 64 bytes
// folded a step into four 128-bit lanes, then folded to one and reduced (Intel's "Fast CRC
// Computation for Generic Polynomials Using PCLMULQDQ Instruction", with the constants that
// zlib's and the Linux kernel's versions of it use). Elsewhere, and for what is left past
// the last whole sixteen bytes, zlib's own.
#include "stp_png_segment.h"

#include <stdint.h>

#include <zlib.h>

// zlib's, a billion bytes at most a call (its length is 32 bits).
static unsigned long zlib_crc32(unsigned long crc, const unsigned char *data, size_t len) {
    while (len > 0) {
        uInt n = len > (1u << 30) ? 1u << 30 : (uInt)len;
        crc = crc32(crc, data, n);
        data += n;
        len -= n;
    }
    return crc;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

#define CLMUL __attribute__((target("pclmul,sse4.1")))

// `crc` taken and given in the pre- and post-inverted form; `len` at least 64, a multiple of 16.
static CLMUL uint32_t fold(const unsigned char *buf, size_t len, uint32_t crc) {
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    __m128i x1 = _mm_loadu_si128((const __m128i *)(buf + 0x00)), x2 = _mm_loadu_si128((const __m128i *)(buf + 0x10));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(buf + 0x20)), x4 = _mm_loadu_si128((const __m128i *)(buf + 0x30));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
    buf += 64;
    len -= 64;
#define FOLD(x, k, next) do { __m128i lo = _mm_clmulepi64_si128(x, k, 0x00); \
    x = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x11), lo), next); } while (0)
    for (; len >= 64; buf += 64, len -= 64) {
        FOLD(x1, k1k2, _mm_loadu_si128((const __m128i *)(buf + 0x00)));
        FOLD(x2, k1k2, _mm_loadu_si128((const __m128i *)(buf + 0x10)));
        FOLD(x3, k1k2, _mm_loadu_si128((const __m128i *)(buf + 0x20)));
        FOLD(x4, k1k2, _mm_loadu_si128((const __m128i *)(buf + 0x30)));
    }
    FOLD(x1, k3k4, x2);
    FOLD(x1, k3k4, x3);
    FOLD(x1, k3k4, x4);
    for (; len >= 16; buf += 16, len -= 16) FOLD(x1, k3k4, _mm_loadu_si128((const __m128i *)buf));
#undef FOLD
    // 128 bits to 64, then Barrett's reduction to 32.
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);
    x2 = _mm_clmulepi64_si128(x1, k3k4, 0x10);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2);
    x2 = _mm_srli_si128(x1, 4);
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, low32), k5k0, 0x00), x2);
    x2 = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), poly, 0x10);
    x2 = _mm_clmulepi64_si128(_mm_and_si128(x2, low32), poly, 0x00);
    return (uint32_t)_mm_extract_epi32(_mm_xor_si128(x1, x2), 1);
}

unsigned long stp_crc32(unsigned long crc, const unsigned char *data, size_t len) {
    static int clmul = -1;
    if (clmul < 0) {
        __builtin_cpu_init();
        clmul = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1") ? 1 : 0;
    }
    if (clmul && len >= 64) {
        size_t whole = len & ~(size_t)15;
        crc = ~fold(data, whole, ~(uint32_t)crc) & 0xFFFFFFFFu;
        data += whole;
        len -= whole;
    }
    return zlib_crc32(crc, data, len);
}
#else
unsigned long stp_crc32(unsigned long crc, const unsigned char *data, size_t len) { return zlib_crc32(crc, data, len); }
#endif
