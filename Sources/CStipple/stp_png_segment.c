// The fast PNG profile as independent segments (see stp_png_segment.h).
#include "stp_png_segment.h"
#include "stp_deflate_rle.h"
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

// One row filtered by whichever of None, Sub, Up and Paeth (PNG filter types 0, 1, 2, 4)
// gives the smallest sum of the bytes taken as signed, libpng's heuristic; `prev` is the row
// above, NULL for a segment's first row (which then uses neither Up nor Paeth, so that a
// segment depends on its own rows alone). Paeth is what anti-aliased edges and overlapping
// soft stamps want: on such an RGBA frame its rows code about a seventh smaller than Sub's or
// Up's. Grey images (dataset cells: strokes on white) leave it out: it won one row in thirty
// there, for 0.2 % of the bytes, at a fifth more time.
static inline unsigned absb(unsigned char v) { return v < 128 ? v : 256u - v; }

// The Paeth predictor of one byte: left `a`, up `b`, upper left `c` (PNG 9.4).
static inline unsigned char paeth(unsigned char a, unsigned char b, unsigned char c) {
    int p = (int)a + (int)b - (int)c;
    int pa = abs(p - (int)a), pb = abs(p - (int)b), pc = abs(p - (int)c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

#if defined(__SSE2__)
#include <emmintrin.h>

// x <= y, unsigned, lane by lane.
static inline __m128i le_epu8(__m128i x, __m128i y) { return _mm_cmpeq_epi8(_mm_min_epu8(x, y), x); }
static inline __m128i absdiff_epu8(__m128i x, __m128i y) { return _mm_sub_epi8(_mm_max_epu8(x, y), _mm_min_epu8(x, y)); }

// The Paeth predictor sixteen bytes at once, in eight bits: pa = |b − c| and pb = |a − c|;
// pc = |a + b − 2c| is pa + pb where b − c and a − c have one sign and |pa − pb| where they
// differ (a zero difference fits both); pa + pb saturates at 255, and a pc that large is at
// least pa and pb, so every comparison comes out as in nine bits.
static inline __m128i paeth16(__m128i a, __m128i b, __m128i c) {
    __m128i pa = absdiff_epu8(b, c), pb = absdiff_epu8(a, c);
    __m128i same = _mm_cmpeq_epi8(le_epu8(c, b), le_epu8(c, a));
    __m128i pc = _mm_or_si128(_mm_and_si128(same, _mm_adds_epu8(pa, pb)), _mm_andnot_si128(same, absdiff_epu8(pa, pb)));
    __m128i use_a = _mm_and_si128(le_epu8(pa, pb), le_epu8(pa, pc));
    __m128i use_b = _mm_andnot_si128(use_a, le_epu8(pb, pc));
    __m128i use_c = _mm_andnot_si128(_mm_or_si128(use_a, use_b), _mm_set1_epi8(-1));
    return _mm_or_si128(_mm_or_si128(_mm_and_si128(use_a, a), _mm_and_si128(use_b, b)), _mm_and_si128(use_c, c));
}

// The four sums sixteen bytes a step: a byte's distance from zero taken as signed is
// min(v, 256 − v), and a sum of absolute differences against zero adds eight of them.
static void filter_sums(const unsigned char *in, const unsigned char *prev, int paeth_too, size_t stride, size_t b,
                        unsigned *none, unsigned *sub, unsigned *up, unsigned *pae) {
    const __m128i zero = _mm_setzero_si128();
    __m128i sn = zero, ss = zero, su = zero, sp = zero;
#define STP_ABS_SUM(acc, v) acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_min_epu8(v, _mm_sub_epi8(zero, v)), zero))
    size_t i = b;
    for (; i + 16 <= stride; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(in + i));
        __m128i left = _mm_loadu_si128((const __m128i *)(in + i - b));
        __m128i d = _mm_sub_epi8(x, left);
        STP_ABS_SUM(sn, x);
        STP_ABS_SUM(ss, d);
        if (prev) {
            __m128i above = _mm_loadu_si128((const __m128i *)(prev + i));
            __m128i u = _mm_sub_epi8(x, above);
            STP_ABS_SUM(su, u);
            if (paeth_too) {
                __m128i p = _mm_sub_epi8(x, paeth16(left, above, _mm_loadu_si128((const __m128i *)(prev + i - b))));
                STP_ABS_SUM(sp, p);
            }
        }
    }
#undef STP_ABS_SUM
#define STP_SUM(v) (unsigned)(_mm_cvtsi128_si32(v) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(v, v)))
    unsigned n = STP_SUM(sn), s = STP_SUM(ss), u = STP_SUM(su), q = STP_SUM(sp);
#undef STP_SUM
    for (; i < stride; i++) {
        n += absb(in[i]);
        s += absb((unsigned char)(in[i] - in[i - b]));
        if (prev) {
            u += absb((unsigned char)(in[i] - prev[i]));
            if (paeth_too) q += absb((unsigned char)(in[i] - paeth(in[i - b], prev[i], prev[i - b])));
        }
    }
    // The first pixel: Sub leaves it as it is, and Paeth, with nothing to its left, is Up.
    for (size_t k = 0; k < b; k++) {
        n += absb(in[k]);
        s += absb(in[k]);
        if (prev) {
            u += absb((unsigned char)(in[k] - prev[k]));
            if (paeth_too) q += absb((unsigned char)(in[k] - prev[k]));
        }
    }
    *none = n; *sub = s; *up = u; *pae = q;
}

// A row filtered by Paeth.
static void paeth_row(const unsigned char *in, const unsigned char *prev, unsigned char *out, size_t stride, size_t b) {
    for (size_t k = 0; k < b; k++) out[k] = (unsigned char)(in[k] - prev[k]);
    size_t i = b;
    for (; i + 16 <= stride; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(in + i));
        __m128i pred = paeth16(_mm_loadu_si128((const __m128i *)(in + i - b)), _mm_loadu_si128((const __m128i *)(prev + i)),
                               _mm_loadu_si128((const __m128i *)(prev + i - b)));
        _mm_storeu_si128((__m128i *)(out + i), _mm_sub_epi8(x, pred));
    }
    for (; i < stride; i++) out[i] = (unsigned char)(in[i] - paeth(in[i - b], prev[i], prev[i - b]));
}
#else
static void filter_sums(const unsigned char *in, const unsigned char *prev, int paeth_too, size_t stride, size_t b,
                        unsigned *none, unsigned *sub, unsigned *up, unsigned *pae) {
    unsigned n = 0, s = 0, u = 0, q = 0;
    for (size_t i = 0; i < stride; i++) n += absb(in[i]);
    for (size_t i = 0; i < b; i++) s += absb(in[i]);
    for (size_t i = b; i < stride; i++) s += absb((unsigned char)(in[i] - in[i - b]));
    if (prev) {
        for (size_t i = 0; i < stride; i++) u += absb((unsigned char)(in[i] - prev[i]));
    }
    if (paeth_too) {
        for (size_t i = 0; i < b; i++) q += absb((unsigned char)(in[i] - prev[i]));
        for (size_t i = b; i < stride; i++) q += absb((unsigned char)(in[i] - paeth(in[i - b], prev[i], prev[i - b])));
    }
    *none = n; *sub = s; *up = u; *pae = q;
}

static void paeth_row(const unsigned char *in, const unsigned char *prev, unsigned char *out, size_t stride, size_t b) {
    for (size_t k = 0; k < b; k++) out[k] = (unsigned char)(in[k] - prev[k]);
    for (size_t i = b; i < stride; i++) out[i] = (unsigned char)(in[i] - paeth(in[i - b], prev[i], prev[i - b]));
}
#endif

static void filter_row(const unsigned char *in, const unsigned char *prev, unsigned char *out, size_t stride, int bpp) {
    size_t b = (size_t)bpp < stride ? (size_t)bpp : stride;
    unsigned none, sub, up, pae;
    int paeth_too = prev && bpp == 4;
    filter_sums(in, prev, paeth_too, stride, b, &none, &sub, &up, &pae);
    // The smallest sum; on a tie, the lower type.
    int type = 0;
    unsigned best = none;
    if (sub < best) { type = 1; best = sub; }
    if (prev && up < best) { type = 2; best = up; }
    if (paeth_too && pae < best) type = 4;
    out[0] = (unsigned char)type;
    out++;
    switch (type) {
    case 0: memcpy(out, in, stride); break;
    case 1:
        memcpy(out, in, b);
        for (size_t i = b; i < stride; i++) out[i] = (unsigned char)(in[i] - in[i - b]);
        break;
    case 2:
        for (size_t i = 0; i < stride; i++) out[i] = (unsigned char)(in[i] - prev[i]);
        break;
    default: paeth_row(in, prev, out, stride, b);
    }
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

int stp_png_segment_encode(const unsigned char *pixels, int width, int channels, int rows, int last, int level,
                           stp_png_segment *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (width <= 0 || rows <= 0 || (channels != 1 && channels != 4)) {
        stp_say(err, errlen, "cannot encode an empty segment");
        return -1;
    }
    size_t stride = (size_t)width * (size_t)channels;
    size_t raw_len = (stride + 1) * (size_t)rows;
    // The filtered rows, in a buffer each thread keeps (fresh pages a segment cost more than the filter).
    static __thread unsigned char *kept;
    static __thread size_t kept_cap;
    if (kept_cap < raw_len) {
        free(kept);
        kept_cap = raw_len > (size_t)1 << 18 ? raw_len : (size_t)1 << 18;
        kept = malloc(kept_cap);
        if (!kept) { kept_cap = 0; stp_say(err, errlen, "out of memory"); return -1; }
    }
    unsigned char *raw = kept;
    for (int y = 0; y < rows; y++) {
        const unsigned char *row = pixels + (size_t)y * stride;
        filter_row(row, y > 0 ? row - stride : NULL, raw + (size_t)y * (stride + 1), stride, channels);
    }

    level = level < 0 ? 0 : level > 3 ? 3 : level;
    if (level > 0) {
        // Runs and literals in one Huffman block of the segment's own counts, coded into a
        // buffer the thread keeps and copied out at its size.
        static __thread unsigned char *coded;
        static __thread size_t coded_cap;
        size_t bound = stp_deflate_rle_bound(raw_len);
        if (coded_cap < bound) {
            free(coded);
            coded_cap = bound;
            coded = malloc(coded_cap);
            if (!coded) { coded_cap = 0; stp_say(err, errlen, "out of memory"); return -1; }
        }
        size_t len = stp_deflate_rle(raw, raw_len, last, coded);
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
