// The fast PNG profile as independent segments (see stp_png_segment.h).
#include "stp_png_segment.h"
#include "stp_deflate_rle.h"
#include "stp_scratch.h"
#include "stp_say.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int stp_png_segment_rows(int width, int channels) {
    size_t row = (size_t)width * (size_t)channels + 1;
    size_t rows = ((size_t)1 << 18) / row;
    return rows < 1 ? 1 : rows > 1 << 20 ? 1 << 20 : (int)rows;
}

// Adler-32 of the filtered rows. zlib's loop adds a byte at a time; with SSSE3 (checked at
// run time) 32 bytes a step, as Chromium's zlib does: s1 gains the bytes' sum (a sum of
// absolute differences against zero) and s2 their sum weighted 32 down to 1 (multiply-adds),
// plus 32 times s1 as it stood before the step; both reduced modulo 65521 every 5 552 bytes
// (173 steps) at most, before they could overflow.
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

__attribute__((target("ssse3")))
static unsigned long adler32_ssse3(unsigned long adler, const unsigned char *buf, size_t len) {
    uint32_t s1 = adler & 0xFFFF, s2 = (uint32_t)(adler >> 16);
    size_t blocks = len / 32;
    len -= blocks * 32;
    const __m128i tap1 = _mm_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17);
    const __m128i tap2 = _mm_setr_epi8(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    const __m128i zero = _mm_setzero_si128(), ones = _mm_set1_epi16(1);
    while (blocks) {
        unsigned n = 5552 / 32;
        if (n > blocks) n = (unsigned)blocks;
        blocks -= n;
        __m128i ps = _mm_setr_epi32((int)(s1 * n), 0, 0, 0), v1 = zero, v2 = _mm_setr_epi32((int)s2, 0, 0, 0);
        do {
            __m128i b1 = _mm_loadu_si128((const __m128i *)buf), b2 = _mm_loadu_si128((const __m128i *)(buf + 16));
            ps = _mm_add_epi32(ps, v1);
            v1 = _mm_add_epi32(v1, _mm_add_epi32(_mm_sad_epu8(b1, zero), _mm_sad_epu8(b2, zero)));
            v2 = _mm_add_epi32(v2, _mm_madd_epi16(_mm_maddubs_epi16(b1, tap1), ones));
            v2 = _mm_add_epi32(v2, _mm_madd_epi16(_mm_maddubs_epi16(b2, tap2), ones));
            buf += 32;
        } while (--n);
        v2 = _mm_add_epi32(v2, _mm_slli_epi32(ps, 5));
        v1 = _mm_add_epi32(v1, _mm_shuffle_epi32(v1, _MM_SHUFFLE(2, 3, 0, 1)));
        v1 = _mm_add_epi32(v1, _mm_shuffle_epi32(v1, _MM_SHUFFLE(1, 0, 3, 2)));
        v2 = _mm_add_epi32(v2, _mm_shuffle_epi32(v2, _MM_SHUFFLE(2, 3, 0, 1)));
        v2 = _mm_add_epi32(v2, _mm_shuffle_epi32(v2, _MM_SHUFFLE(1, 0, 3, 2)));
        s1 = (s1 + (uint32_t)_mm_cvtsi128_si32(v1)) % 65521;
        s2 = (uint32_t)_mm_cvtsi128_si32(v2) % 65521;
    }
    while (len--) { s1 += *buf++; s2 += s1; }
    return (unsigned long)(s1 % 65521) | (unsigned long)(s2 % 65521) << 16;
}

static unsigned long filtered_adler32(const unsigned char *raw, size_t len) {
    static int ssse3 = -1;
    if (ssse3 < 0) { __builtin_cpu_init(); ssse3 = __builtin_cpu_supports("ssse3") ? 1 : 0; }
    if (ssse3) return adler32_ssse3(1, raw, len);
    return adler32(adler32(0L, Z_NULL, 0), raw, (uInt)len);
}
#else
static unsigned long filtered_adler32(const unsigned char *raw, size_t len) {
    return adler32(adler32(0L, Z_NULL, 0), raw, (uInt)len);
}
#endif

// A finished segment: its coded bytes (owned by `out` from now), the Adler-32 of its filtered
// rows and its chunk's CRC.
static int deliver(stp_png_segment *out, unsigned char *data, size_t len, const unsigned char *raw, size_t raw_len) {
    out->data = data;
    out->len = len;
    out->raw_len = raw_len;
    out->adler = filtered_adler32(raw, raw_len);
    out->crc = stp_crc32(stp_crc32(0, (const unsigned char *)"IDAT", 4), data, len);
    return 0;
}

int stp_png_segment_encode(const unsigned char *pixels, const unsigned char *above, int width, int channels, int rows,
                           int last, int level, stp_png_segment *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (width <= 0 || rows <= 0 || (channels != 1 && channels != 4)) {
        stp_say(err, errlen, "cannot encode an empty segment");
        return -1;
    }
    size_t stride = (size_t)width * (size_t)channels;
    size_t raw_len = (stride + 1) * (size_t)rows;
    // The filtered rows, in a buffer each thread keeps (fresh pages a segment cost more than the filter).
    static __thread void *kept;
    static __thread size_t kept_cap;
    unsigned char *raw = stp_scratch(&kept, &kept_cap, raw_len, (size_t)1 << 18);
    if (!raw) { stp_say(err, errlen, "out of memory"); return -1; }
    stp_png_filter_image(pixels, above, width, channels, rows, raw);

    level = level < 0 ? 0 : level > 3 ? 3 : level;
    if (level > 0) {
        // Runs and literals in one Huffman block of the segment's own counts, coded into a
        // buffer the thread keeps and copied out at its size. Copies from farther back as
        // well at levels 2–3, and at level 1 in an RGBA segment where runs left few literals
        // or a sample says they pay; grey images are ink cells, lines on a plain ground where
        // runs find what there is (over 80 cells, the sample saved no byte and took half as
        // long again). Each copy is the longest of the 8 newest places of its first four
        // bytes (32 at level 3).
        static __thread void *kept_coded;
        static __thread size_t coded_cap;
        unsigned char *coded = stp_scratch(&kept_coded, &coded_cap, stp_deflate_rle_bound(raw_len), 0);
        if (!coded) { stp_say(err, errlen, "out of memory"); return -1; }
        size_t len = stp_deflate_rle(raw, raw_len, last, coded,
                                    level >= 2      ? STP_REPEATS_ALWAYS
                                    : channels == 4 ? STP_REPEATS_SAMPLED
                                                    : STP_REPEATS_NEVER,
                                    level >= 3 ? 32 : 8);
        unsigned char *data = len ? malloc(len) : NULL;
        if (!data) {
            stp_say(err, errlen, "out of memory");
            return -1;
        }
        memcpy(data, coded, len);
        return deliver(out, data, len, raw, raw_len);
    }
    // Level 0: stored blocks, through zlib.
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_RLE) != Z_OK) {
        stp_say(err, errlen, "out of memory");
        return -1;
    }
    // deflateBound, plus the sync flush's empty stored block and slack.
    size_t cap = deflateBound(&z, (uLong)raw_len) + 16;
    unsigned char *data = malloc(cap);
    if (!data) {
        deflateEnd(&z);
        stp_say(err, errlen, "out of memory");
        return -1;
    }
    z.next_in = raw;
    z.avail_in = (uInt)raw_len;
    z.next_out = data;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
    int complete = last ? rc == Z_STREAM_END : (rc == Z_OK && z.avail_in == 0 && z.avail_out > 0);
    size_t len = cap - z.avail_out;
    deflateEnd(&z);
    if (!complete) {
        free(data);
        stp_say(err, errlen, "deflate failed (%d)", rc);
        return -1;
    }
    return deliver(out, data, len, raw, raw_len);
}

void stp_png_segment_free(stp_png_segment *segment) {
    if (!segment) return;
    free(segment->data);
    segment->data = NULL;
    segment->len = 0;
}

unsigned long stp_adler32_combine(unsigned long a, unsigned long b, size_t len_b) {
    return adler32_combine(a, b, (z_off_t)len_b);
}
