// The fast PNG profile's row filters (see stp_png_filter.h), libpng's heuristic over four of
// PNG's five filters. Paeth is what anti-aliased edges and overlapping soft stamps want: on
// such an RGBA frame its rows code about a seventh smaller than Sub's or Up's. Grey images
// (dataset cells: strokes on white) leave it out: it won one row in thirty there, for 0.2 %
// of the bytes, at a fifth more time. Average is left out: offered as well, it left four
// sketch frames the same size, or 0.07 % larger.
//
// Each row's four sums are taken in one pass, and Paeth's residuals written to the output
// as they are summed, so that a row that takes Paeth is not filtered twice; a row that takes
// another filter is written over. In AVX2 where the CPU has it, else byte by byte.
#include "stp_png_filter.h"
#include "stp_png_segment.h"

#include <stdlib.h>
#include <string.h>

// A byte's distance from zero taken as signed: min(v, 256 − v).
static inline unsigned absb(unsigned char v) { return v < 128 ? v : 256u - v; }

// The Paeth predictor of one byte: left `a`, up `b`, upper left `c` (PNG 9.4).
static inline unsigned char paeth(unsigned char a, unsigned char b, unsigned char c) {
    int p = (int)a + (int)b - (int)c;
    int pa = abs(p - (int)a), pb = abs(p - (int)b), pc = abs(p - (int)c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// Bytes [from, stride) of the four sums, byte by byte, Paeth's residuals into `out`: the
// first pixel, whose Sub is None and whose Paeth is Up (nothing lies to its left), then the
// rest, a sum a loop, so that compilers can vectorise them.
static void sums_from(const unsigned char *in, const unsigned char *prev, int paeth_too, unsigned char *out, size_t from,
                      size_t stride, size_t b, unsigned sums[4]) {
    for (size_t i = from; i < b && i < stride; i++) {
        sums[0] += absb(in[i]);
        sums[1] += absb(in[i]);
        if (!prev) continue;
        out[i] = (unsigned char)(in[i] - prev[i]);
        sums[2] += absb(out[i]);
        if (paeth_too) sums[3] += absb(out[i]);
    }
    size_t start = from > b ? from : b;
    unsigned n = 0, s = 0, u = 0, q = 0;
    for (size_t i = start; i < stride; i++) {
        n += absb(in[i]);
        s += absb((unsigned char)(in[i] - in[i - b]));
    }
    if (prev) {
        for (size_t i = start; i < stride; i++) u += absb((unsigned char)(in[i] - prev[i]));
    }
    if (paeth_too) {
        for (size_t i = start; i < stride; i++) {
            out[i] = (unsigned char)(in[i] - paeth(in[i - b], prev[i], prev[i - b]));
            q += absb(out[i]);
        }
    }
    sums[0] += n; sums[1] += s; sums[2] += u; sums[3] += q;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define AVX2 __attribute__((target("avx2")))

static inline AVX2 __m256i le_epu8(__m256i x, __m256i y) { return _mm256_cmpeq_epi8(_mm256_min_epu8(x, y), x); }
static inline AVX2 __m256i absdiff_epu8(__m256i x, __m256i y) {
    return _mm256_sub_epi8(_mm256_max_epu8(x, y), _mm256_min_epu8(x, y));
}

// The Paeth predictor 32 bytes at once, in eight bits: pa = |b − c| and pb = |a − c|;
// pc = |a + b − 2c| is pa + pb where b − c and a − c have one sign and |pa − pb| where they
// differ (a zero difference fits both); pa + pb saturates at 255, and a pc that large is at
// least pa and pb, so every comparison comes out as in nine bits (checked against `paeth`
// for every a, b and c).
static inline AVX2 __m256i paeth32(__m256i a, __m256i b, __m256i c) {
    __m256i pa = absdiff_epu8(b, c), pb = absdiff_epu8(a, c);
    __m256i same = _mm256_cmpeq_epi8(le_epu8(c, b), le_epu8(c, a));
    __m256i pc = _mm256_blendv_epi8(absdiff_epu8(pa, pb), _mm256_adds_epu8(pa, pb), same);
    __m256i use_a = _mm256_and_si256(le_epu8(pa, pb), le_epu8(pa, pc));
    __m256i use_b = le_epu8(pb, pc);
    return _mm256_blendv_epi8(_mm256_blendv_epi8(c, b, use_b), a, use_a);
}

// Each byte's distance from zero, summed eight at a time into four 64-bit lanes.
static inline AVX2 __m256i add_abs(__m256i acc, __m256i v) {
    __m256i zero = _mm256_setzero_si256();
    return _mm256_add_epi64(acc, _mm256_sad_epu8(_mm256_min_epu8(v, _mm256_sub_epi8(zero, v)), zero));
}

static inline AVX2 unsigned total(__m256i v) {
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return (unsigned)(_mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1));
}

static AVX2 void sums_avx2(const unsigned char *in, const unsigned char *prev, int paeth_too, unsigned char *out,
                           size_t stride, size_t b, unsigned sums[4]) {
    __m256i sn = _mm256_setzero_si256(), ss = sn, su = sn, sp = sn;
    size_t i = b;
    for (; i + 32 <= stride; i += 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(in + i));
        __m256i left = _mm256_loadu_si256((const __m256i *)(in + i - b));
        sn = add_abs(sn, x);
        ss = add_abs(ss, _mm256_sub_epi8(x, left));
        if (!prev) continue;
        __m256i above = _mm256_loadu_si256((const __m256i *)(prev + i));
        su = add_abs(su, _mm256_sub_epi8(x, above));
        if (!paeth_too) continue;
        __m256i p = _mm256_sub_epi8(x, paeth32(left, above, _mm256_loadu_si256((const __m256i *)(prev + i - b))));
        _mm256_storeu_si256((__m256i *)(out + i), p);
        sp = add_abs(sp, p);
    }
    sums[0] = total(sn); sums[1] = total(ss); sums[2] = total(su); sums[3] = total(sp);
    sums_from(in, prev, paeth_too, out, 0, b, b, sums);
    if (i < stride && stride >= b + 32) {
        // The last 32 bytes again, the lanes already summed masked out (Paeth's residuals
        // there are written again, the same bytes).
        static const unsigned char tail[64] = {
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
            255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
        __m256i keep = _mm256_loadu_si256((const __m256i *)(tail + (stride - i)));
        size_t j = stride - 32;
        __m256i x = _mm256_loadu_si256((const __m256i *)(in + j));
        __m256i left = _mm256_loadu_si256((const __m256i *)(in + j - b));
        __m256i none = _mm256_setzero_si256();
        sums[0] += total(add_abs(none, _mm256_and_si256(x, keep)));
        sums[1] += total(add_abs(none, _mm256_and_si256(_mm256_sub_epi8(x, left), keep)));
        if (!prev) return;
        __m256i above = _mm256_loadu_si256((const __m256i *)(prev + j));
        sums[2] += total(add_abs(none, _mm256_and_si256(_mm256_sub_epi8(x, above), keep)));
        if (!paeth_too) return;
        __m256i p = _mm256_sub_epi8(x, paeth32(left, above, _mm256_loadu_si256((const __m256i *)(prev + j - b))));
        _mm256_storeu_si256((__m256i *)(out + j), p);
        sums[3] += total(add_abs(none, _mm256_and_si256(p, keep)));
    } else {
        sums_from(in, prev, paeth_too, out, i, stride, b, sums);
    }
}

static int has_avx2(void) {
    static int avx2 = -1;
    if (avx2 < 0) { __builtin_cpu_init(); avx2 = __builtin_cpu_supports("avx2") ? 1 : 0; }
    return avx2;
}
#endif

void stp_png_filter_row(const unsigned char *in, const unsigned char *prev, unsigned char *out, size_t stride, int bpp) {
    size_t b = (size_t)bpp < stride ? (size_t)bpp : stride;
    int paeth_too = prev && bpp == 4;
    unsigned sums[4] = {0, 0, 0, 0};
    unsigned char *row = out + 1;
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    if (has_avx2()) sums_avx2(in, prev, paeth_too, row, stride, b, sums);
    else
#endif
        sums_from(in, prev, paeth_too, row, 0, stride, b, sums);
    // The smallest sum; on a tie, the lower type.
    int type = 0;
    unsigned best = sums[0];
    if (sums[1] < best) { type = 1; best = sums[1]; }
    if (prev && sums[2] < best) { type = 2; best = sums[2]; }
    if (paeth_too && sums[3] < best) type = 4;
    out[0] = (unsigned char)type;
    switch (type) {
    case 0: memcpy(row, in, stride); break;
    case 1:
        memcpy(row, in, b);
        for (size_t i = b; i < stride; i++) row[i] = (unsigned char)(in[i] - in[i - b]);
        break;
    case 2:
        for (size_t i = 0; i < stride; i++) row[i] = (unsigned char)(in[i] - prev[i]);
        break;
    default: break;  // Paeth's residuals are in place
    }
}

void stp_png_filter_image(const unsigned char *pixels, const unsigned char *above, int width, int channels, int rows,
                          unsigned char *out) {
    size_t stride = (size_t)width * (size_t)channels;
    for (int y = 0; y < rows; y++) {
        const unsigned char *row = pixels + (size_t)y * stride;
        stp_png_filter_row(row, y > 0 ? row - stride : above, out + (size_t)y * (stride + 1), stride, channels);
    }
}
