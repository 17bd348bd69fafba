// The video compositor's inner loop in AVX2 (see stp_blend.h). Every step gives the bytes
// of the pixel-by-pixel Swift code:
// - Un-premultiplying, floor((c·255 + a/2) / a), is done in single precision as
//   round((n + ½)·(1/a) − ½), n = c·255 + a/2. The fraction of (n + ½)/a lies in
//   [½/a, 1 − ½/a], and the rounding errors (1/a, the product, the subtraction) stay under
//   0.012/a: the value never comes near a half, so rounding to nearest is the floor.
// - Everything else is 32-bit integer arithmetic, lane by lane, as in Swift.
#include "stp_blend.h"

// The kept sketch's blend of one row, sample by sample: what the vector code computes.
static void blend_kept_row(uint8_t *d, const uint8_t *a, const uint8_t *s, int count) {
    for (int i = 0; i < count; i++) d[i] = (uint8_t)(((uint32_t)d[i] * (255u - a[i]) + (uint32_t)s[i] * a[i] + 128u) * 257u >> 16);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include "stp_lanes.h"

int stp_blend_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

// Channel c (0…255 a lane) of pixels of alpha a, un-premultiplied; 0 where `covered` is 0.
static inline AVX2 __m256i unpremultiplied(__m256i c, __m256i half, __m256 inverse, __m256i covered) {
    __m256i n = _mm256_add_epi32(_mm256_mullo_epi32(c, _mm256_set1_epi32(255)), half);
    __m256 v = _mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(_mm256_cvtepi32_ps(n), _mm256_set1_ps(0.5f)), inverse),
                             _mm256_set1_ps(0.5f));
    __m256i q = _mm256_min_epi32(_mm256_cvtps_epi32(v), _mm256_set1_epi32(255));
    return _mm256_and_si256(q, covered);
}

// ((d·(255 − a) + s·a + 128)·257) >> 16, lane by lane.
static inline AVX2 __m256i overlay(__m256i d, __m256i s, __m256i a) {
    __m256i t = _mm256_add_epi32(_mm256_mullo_epi32(d, _mm256_sub_epi32(_mm256_set1_epi32(255), a)),
                                 _mm256_add_epi32(_mm256_mullo_epi32(s, a), _mm256_set1_epi32(128)));
    return _mm256_srli_epi32(_mm256_mullo_epi32(t, _mm256_set1_epi32(257)), 16);
}

typedef struct { __m256i r, g, b, a; } lanes;

// Eight pixels' straight colours (black where alpha is 0) and alphas.
static inline AVX2 lanes straight(__m256i w) {
    __m256i byte = _mm256_set1_epi32(0xFF);
    __m256i a = _mm256_srli_epi32(w, 24);
    __m256i on = _mm256_cmpgt_epi32(a, _mm256_setzero_si256());
    __m256i half = _mm256_srli_epi32(a, 1);
    __m256 inverse = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_cvtepi32_ps(a));
    lanes p;
    p.r = unpremultiplied(_mm256_and_si256(w, byte), half, inverse, on);
    p.g = unpremultiplied(_mm256_and_si256(_mm256_srli_epi32(w, 8), byte), half, inverse, on);
    p.b = unpremultiplied(_mm256_and_si256(_mm256_srli_epi32(w, 16), byte), half, inverse, on);
    p.a = a;
    return p;
}

// Eight pixels' straight colours and alphas, and their luma blended onto `y`.
static inline AVX2 lanes row(const uint8_t *rgba, uint8_t *y, const stp_ycbcr *c, int *covered) {
    lanes p = straight(_mm256_loadu_si256((const __m256i *)rgba));
    __m256i on = _mm256_cmpgt_epi32(p.a, _mm256_setzero_si256());
    *covered += __builtin_popcount((unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(on)));
    narrow8(y, overlay(widen8(y), convert(p.r, p.g, p.b, c->y_r, c->y_g, c->y_b, c->y_offset), p.a));
    return p;
}

static inline AVX2 void blend_chroma(uint8_t *d, __m256i s, __m256i a) {
    __m256i dv = _mm256_setr_epi32(d[0], d[1], 0, 0, d[2], d[3], 0, 0);
    __m256i out = overlay(dv, s, a);
    d[0] = (uint8_t)_mm256_extract_epi32(out, 0);
    d[1] = (uint8_t)_mm256_extract_epi32(out, 1);
    d[2] = (uint8_t)_mm256_extract_epi32(out, 4);
    d[3] = (uint8_t)_mm256_extract_epi32(out, 5);
}

AVX2 int stp_blend_rows420(const uint8_t *top, const uint8_t *bottom, int count, uint8_t *y_top, uint8_t *y_bottom,
                           uint8_t *cb, uint8_t *cr, const stp_ycbcr *c) {
    int covered = 0;
    __m256i alpha = _mm256_set1_epi32((int)0xFF000000u);
    for (int x = 0; x + 8 <= count; x += 8) {
        __m256i any = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(top + 4 * x)),
                                      _mm256_loadu_si256((const __m256i *)(bottom + 4 * x)));
        if (_mm256_testz_si256(any, alpha)) continue;
        lanes t = row(top + 4 * x, y_top + x, c, &covered);
        lanes b = row(bottom + 4 * x, y_bottom + x, c, &covered);
        // Each block's average straight colour and alpha (transparent pixels count as black).
        __m256i two = _mm256_set1_epi32(2);
        __m256i r = _mm256_srli_epi32(_mm256_add_epi32(pairs(_mm256_add_epi32(t.r, b.r)), two), 2);
        __m256i g = _mm256_srli_epi32(_mm256_add_epi32(pairs(_mm256_add_epi32(t.g, b.g)), two), 2);
        __m256i bl = _mm256_srli_epi32(_mm256_add_epi32(pairs(_mm256_add_epi32(t.b, b.b)), two), 2);
        __m256i a = _mm256_srli_epi32(pairs(_mm256_add_epi32(t.a, b.a)), 2);
        blend_chroma(cb + x / 2, convert(r, g, bl, c->cb_r, c->cb_g, c->cb_b, c->c_offset), a);
        blend_chroma(cr + x / 2, convert(r, g, bl, c->cr_r, c->cr_g, c->cr_b, c->c_offset), a);
    }
    return covered;
}

// A converted sample where its alpha is above 0, else 0 (the planes' value for no sketch).
static inline AVX2 __m256i where_covered(__m256i v, __m256i a) {
    return _mm256_andnot_si256(_mm256_cmpeq_epi32(a, _mm256_setzero_si256()), v);
}

AVX2 void stp_convert_rows420(const uint8_t *top, const uint8_t *bottom, int count, uint8_t *a_top, uint8_t *a_bottom,
                              uint8_t *y_top, uint8_t *y_bottom, uint8_t *ca, uint8_t *cb, uint8_t *cr,
                              const stp_ycbcr *c) {
    __m256i alpha = _mm256_set1_epi32((int)0xFF000000u);
    for (int x = 0; x + 8 <= count; x += 8) {
        __m256i wt = _mm256_loadu_si256((const __m256i *)(top + 4 * x));
        __m256i wb = _mm256_loadu_si256((const __m256i *)(bottom + 4 * x));
        if (_mm256_testz_si256(_mm256_or_si256(wt, wb), alpha)) {
            uint64_t zero = 0;
            __builtin_memcpy(a_top + x, &zero, 8); __builtin_memcpy(a_bottom + x, &zero, 8);
            __builtin_memcpy(y_top + x, &zero, 8); __builtin_memcpy(y_bottom + x, &zero, 8);
            uint32_t z4 = 0;
            __builtin_memcpy(ca + x / 2, &z4, 4); __builtin_memcpy(cb + x / 2, &z4, 4); __builtin_memcpy(cr + x / 2, &z4, 4);
            continue;
        }
        lanes t = straight(wt), b = straight(wb);
        narrow8(a_top + x, t.a);
        narrow8(a_bottom + x, b.a);
        narrow8(y_top + x, where_covered(convert(t.r, t.g, t.b, c->y_r, c->y_g, c->y_b, c->y_offset), t.a));
        narrow8(y_bottom + x, where_covered(convert(b.r, b.g, b.b, c->y_r, c->y_g, c->y_b, c->y_offset), b.a));
        // Each block's average straight colour and alpha (transparent pixels count as black).
        __m256i two = _mm256_set1_epi32(2);
        __m256i r = _mm256_srli_epi32(_mm256_add_epi32(pairs(_mm256_add_epi32(t.r, b.r)), two), 2);
        __m256i g = _mm256_srli_epi32(_mm256_add_epi32(pairs(_mm256_add_epi32(t.g, b.g)), two), 2);
        __m256i bl = _mm256_srli_epi32(_mm256_add_epi32(pairs(_mm256_add_epi32(t.b, b.b)), two), 2);
        __m256i a = _mm256_srli_epi32(pairs(_mm256_add_epi32(t.a, b.a)), 2);
        narrow4(ca + x / 2, a);
        narrow4(cb + x / 2, where_covered(convert(r, g, bl, c->cb_r, c->cb_g, c->cb_b, c->c_offset), a));
        narrow4(cr + x / 2, where_covered(convert(r, g, bl, c->cr_r, c->cr_g, c->cr_b, c->c_offset), a));
    }
}

// One row of the kept sketch's blend in 16-bit lanes, thirty-two samples a step (see stp_blend.h).
static AVX2 void blend_kept_row_avx2(uint8_t *d, const uint8_t *a, const uint8_t *s, int count) {
    const __m256i full = _mm256_set1_epi16(255), k257 = _mm256_set1_epi16(257), half = _mm256_set1_epi16(128);
    const __m256i zero = _mm256_setzero_si256();
    int i = 0;
    for (; i + 32 <= count; i += 32) {
        // Thirty-two transparent samples: the blend gives d back exactly; nothing to read or write.
        __m256i a8 = _mm256_loadu_si256((const __m256i *)(a + i));
        if (_mm256_testz_si256(a8, a8)) continue;
        __m256i d8 = _mm256_loadu_si256((const __m256i *)(d + i));
        __m256i s8 = _mm256_loadu_si256((const __m256i *)(s + i));
        // Bytes widened within each 128-bit half; packing narrows them back in the same order.
        __m256i al = _mm256_unpacklo_epi8(a8, zero), ah = _mm256_unpackhi_epi8(a8, zero);
        __m256i xl = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(d8, zero), _mm256_sub_epi16(full, al)),
                                      _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(s8, zero), al), half));
        __m256i xh = _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(d8, zero), _mm256_sub_epi16(full, ah)),
                                      _mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(s8, zero), ah), half));
        __m256i r = _mm256_packus_epi16(_mm256_mulhi_epu16(xl, k257), _mm256_mulhi_epu16(xh, k257));
        _mm256_storeu_si256((__m256i *)(d + i), r);
    }
    blend_kept_row(d + i, a + i, s + i, count - i);
}

void stp_blend_kept(uint8_t *d, const uint8_t *a, const uint8_t *s, ptrdiff_t stride, int count, int rows) {
    static int avx2 = -1;
    if (avx2 < 0) avx2 = stp_blend_has_avx2();
    for (int y = 0; y < rows; y++) {
        if (avx2) blend_kept_row_avx2(d + y * stride, a + y * stride, s + y * stride, count);
        else blend_kept_row(d + y * stride, a + y * stride, s + y * stride, count);
    }
}

#else

int stp_blend_has_avx2(void) { return 0; }

int stp_blend_rows420(const uint8_t *top, const uint8_t *bottom, int count, uint8_t *y_top, uint8_t *y_bottom,
                      uint8_t *cb, uint8_t *cr, const stp_ycbcr *c) {
    (void)top; (void)bottom; (void)count; (void)y_top; (void)y_bottom; (void)cb; (void)cr; (void)c;
    return 0;
}

void stp_convert_rows420(const uint8_t *top, const uint8_t *bottom, int count, uint8_t *a_top, uint8_t *a_bottom,
                         uint8_t *y_top, uint8_t *y_bottom, uint8_t *ca, uint8_t *cb, uint8_t *cr, const stp_ycbcr *c) {
    (void)top; (void)bottom; (void)count; (void)a_top; (void)a_bottom; (void)y_top; (void)y_bottom;
    (void)ca; (void)cb; (void)cr; (void)c;
}

void stp_blend_kept(uint8_t *d, const uint8_t *a, const uint8_t *s, ptrdiff_t stride, int count, int rows) {
    for (int y = 0; y < rows; y++) blend_kept_row(d + y * stride, a + y * stride, s + y * stride, count);
}

#endif
