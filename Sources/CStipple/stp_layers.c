// Stroke layers composed on the CPU, one working row at a time, in AVX2 (see stp_layers.h).
// Every step is the Swift loop's (PixelLayerCompositor): the same integer arithmetic lane by
// lane, and the same single-precision operations in the same order, never contracted into
// fused multiply-adds, so the bytes and the floats are the same.
#include "stp_layers.h"

#pragma clang fp contract(off)

#if defined(__x86_64__) && defined(__clang__)
#include "stp_lanes.h"

// Four chroma samples, each under two pixels.
static inline AVX2 __m256i widen4twice(const uint8_t *p) {
    uint32_t four;
    __builtin_memcpy(&four, p, 4);
    __m128i v = _mm_shuffle_epi8(_mm_cvtsi32_si128((int)four), _mm_setr_epi8(0, 0, 1, 1, 2, 2, 3, 3, -1, -1, -1, -1, -1, -1, -1, -1));
    return _mm256_cvtepu8_epi32(v);
}

// v (|v| < 2^22) to the nearest whole number, ties to even: its low bits after adding 1.5 x 2^23.
static inline AVX2 __m256i rounded(__m256 v) {
    return _mm256_sub_epi32(_mm256_castps_si256(_mm256_add_ps(v, _mm256_set1_ps(12582912.0f))),
                            _mm256_set1_epi32(0x4B400000));
}

static inline AVX2 __m256i channel(__m256i w, int shift) {
    return _mm256_and_si256(_mm256_srli_epi32(w, shift), _mm256_set1_epi32(255));
}

static inline AVX2 __m256 ld(const float *p) { return _mm256_loadu_ps(p); }
static inline AVX2 void st(float *p, __m256 v) { _mm256_storeu_ps(p, v); }

static inline AVX2 int whole_groups(int width) { return width / 8; }

// Asks the memory for bytes `from` ..< `to`, a cache line at a time.
static inline void prefetch(const uint8_t *from, const uint8_t *to) {
    for (uintptr_t q = (uintptr_t)from & ~(uintptr_t)63; q < (uintptr_t)to; q += 64) __builtin_prefetch((const void *)q);
}

AVX2 void stp_layers_read(const uint8_t *luma, const uint8_t *cb, const uint8_t *cr, int subsampled, int width,
                          const uint8_t *groups, int lo, int hi, const stp_rgb_of_ycbcr *c, uint32_t *words, float *r,
                          float *g, float *b, float *a) {
    const __m256i half = _mm256_set1_epi32(1 << 19), k128 = _mm256_set1_epi32(128);
    const __m256 k255 = _mm256_set1_ps(255.0f), one = _mm256_set1_ps(1.0f);
    int last = hi < whole_groups(width) - 1 ? hi : whole_groups(width) - 1;
    for (int group = lo; group <= last; group++) {
        if (!groups[group]) continue;
        int x = group * 8;
        __m256i l = widen8(luma + x);
        __m256i u = _mm256_sub_epi32(subsampled ? widen4twice(cb + x / 2) : widen8(cb + x), k128);
        __m256i v = _mm256_sub_epi32(subsampled ? widen4twice(cr + x / 2) : widen8(cr + x), k128);
        __m256i t = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_sub_epi32(l, _mm256_set1_epi32(c->black)), _mm256_set1_epi32(c->y)), half);
        __m256i rr = clamp255(_mm256_srai_epi32(_mm256_add_epi32(t, _mm256_mullo_epi32(v, _mm256_set1_epi32(c->r_cr))), 20));
        __m256i gg = clamp255(_mm256_srai_epi32(_mm256_add_epi32(_mm256_add_epi32(t, _mm256_mullo_epi32(u, _mm256_set1_epi32(c->g_cb))),
                                                                 _mm256_mullo_epi32(v, _mm256_set1_epi32(c->g_cr))), 20));
        __m256i bb = clamp255(_mm256_srai_epi32(_mm256_add_epi32(t, _mm256_mullo_epi32(u, _mm256_set1_epi32(c->b_cb))), 20));
        __m256i w = _mm256_or_si256(_mm256_or_si256(rr, _mm256_slli_epi32(gg, 8)),
                                    _mm256_or_si256(_mm256_slli_epi32(bb, 16), _mm256_set1_epi32((int)0xFF000000u)));
        _mm256_storeu_si256((__m256i *)(words + x), w);
        st(r + x, _mm256_div_ps(_mm256_cvtepi32_ps(rr), k255));
        st(g + x, _mm256_div_ps(_mm256_cvtepi32_ps(gg), k255));
        st(b + x, _mm256_div_ps(_mm256_cvtepi32_ps(bb), k255));
        st(a + x, one);
    }
}

static inline AVX2 __m256 select_ps(__m256 yes, __m256 no, __m256 mask) { return _mm256_blendv_ps(no, yes, mask); }

AVX2 void stp_layers_span(int op, const uint8_t *l, ptrdiff_t plane, ptrdiff_t ahead, float k, int x0, int x1,
                          float *r, float *g, float *b, float *a) {
    const __m256 kk = _mm256_set1_ps(k), one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    const __m256 wr = _mm256_set1_ps(0.299f), wg = _mm256_set1_ps(0.587f), wb = _mm256_set1_ps(0.114f);
    const int reads_colour = op <= 3 && op != 1, changes_alpha = op <= 3;
    // The same columns `ahead` bytes away (a row the next calls reach), asked of the memory now.
    if (ahead) {
        for (int p = reads_colour ? 0 : 3; p < 4; p++) prefetch(l + p * plane + x0 + ahead, l + p * plane + x1 + ahead);
    }
    for (int x = x0 & ~7; x < x1; x += 8) {
        uint64_t alpha8;
        __builtin_memcpy(&alpha8, l + 3 * plane + x, 8);
        if (alpha8 == 0) continue;
        __m256 sa = _mm256_mul_ps(_mm256_cvtepi32_ps(widen8(l + 3 * plane + x)), kk);
        __m256 sr = zero, sg = zero, sb = zero;
        if (reads_colour) {
            sr = _mm256_mul_ps(_mm256_cvtepi32_ps(widen8(l + x)), kk);
            sg = _mm256_mul_ps(_mm256_cvtepi32_ps(widen8(l + plane + x)), kk);
            sb = _mm256_mul_ps(_mm256_cvtepi32_ps(widen8(l + 2 * plane + x)), kk);
        }
        __m256 dr = ld(r + x), dg = ld(g + x), db = ld(b + x), da = ld(a + x);
        switch (op) {
        case 0: {  // over
            __m256 keep = _mm256_sub_ps(one, sa);
            dr = _mm256_add_ps(sr, _mm256_mul_ps(dr, keep)); dg = _mm256_add_ps(sg, _mm256_mul_ps(dg, keep));
            db = _mm256_add_ps(sb, _mm256_mul_ps(db, keep)); da = _mm256_add_ps(sa, _mm256_mul_ps(da, keep));
            break;
        }
        case 1: {  // erase
            __m256 keep = _mm256_sub_ps(one, sa);
            dr = _mm256_mul_ps(dr, keep); dg = _mm256_mul_ps(dg, keep); db = _mm256_mul_ps(db, keep); da = _mm256_mul_ps(da, keep);
            break;
        }
        case 2: {  // multiply
            __m256 ks = _mm256_sub_ps(one, da), kd = _mm256_sub_ps(one, sa);
#define MULTIPLY(s, d) _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(s, ks), _mm256_mul_ps(d, kd)), _mm256_mul_ps(s, d))
            dr = MULTIPLY(sr, dr); dg = MULTIPLY(sg, dg); db = MULTIPLY(sb, db); da = MULTIPLY(sa, da);
#undef MULTIPLY
            break;
        }
        case 3: {  // screen
#define SCREEN(s, d) _mm256_sub_ps(_mm256_add_ps(s, d), _mm256_mul_ps(s, d))
            dr = SCREEN(sr, dr); dg = SCREEN(sg, dg); db = SCREEN(sb, db); da = SCREEN(sa, da);
#undef SCREEN
            break;
        }
        case 7: {  // desaturate: linear in the premultiplied colour
            __m256 luma = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(wr, dr), _mm256_mul_ps(wg, dg)), _mm256_mul_ps(wb, db));
            dr = _mm256_add_ps(dr, _mm256_mul_ps(_mm256_sub_ps(luma, dr), sa));
            dg = _mm256_add_ps(dg, _mm256_mul_ps(_mm256_sub_ps(luma, dg), sa));
            db = _mm256_add_ps(db, _mm256_mul_ps(_mm256_sub_ps(luma, db), sa));
            break;
        }
        default: {  // lighten, darken, saturate: on the straight colour
            __m256 live = _mm256_and_ps(_mm256_cmp_ps(da, zero, _CMP_GT_OQ), _mm256_cmp_ps(sa, zero, _CMP_GT_OQ));
            __m256 alpha = select_ps(da, one, live);
            __m256 cr = _mm256_div_ps(dr, alpha), cg = _mm256_div_ps(dg, alpha), cb = _mm256_div_ps(db, alpha);
            __m256 luma = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(wr, cr), _mm256_mul_ps(wg, cg)), _mm256_mul_ps(wb, cb));
            __m256 e[3], c3[3] = {cr, cg, cb};
            for (int i = 0; i < 3; i++) {
                __m256 c = c3[i];
                if (op == 4) {
                    __m256 m = _mm256_sub_ps(one, c);
                    e[i] = _mm256_sub_ps(one, _mm256_mul_ps(m, m));
                } else if (op == 5) {
                    e[i] = _mm256_mul_ps(c, c);
                } else {
                    __m256 v = _mm256_add_ps(luma, _mm256_mul_ps(_mm256_set1_ps(2.0f), _mm256_sub_ps(c, luma)));
                    v = select_ps(zero, v, _mm256_cmp_ps(v, zero, _CMP_LT_OQ));
                    e[i] = select_ps(one, v, _mm256_cmp_ps(v, one, _CMP_GT_OQ));
                }
            }
#define ADJUSTED(old, c, e) select_ps(_mm256_mul_ps(_mm256_add_ps(c, _mm256_mul_ps(_mm256_sub_ps(e, c), sa)), da), old, live)
            dr = ADJUSTED(dr, cr, e[0]); dg = ADJUSTED(dg, cg, e[1]); db = ADJUSTED(db, cb, e[2]);
#undef ADJUSTED
            break;
        }
        }
        st(r + x, dr); st(g + x, dg); st(b + x, db);
        if (changes_alpha) st(a + x, da);
    }
}

static inline AVX2 __m256i select_epi32(__m256i yes, __m256i no, __m256i mask) {
    return _mm256_or_si256(_mm256_and_si256(yes, mask), _mm256_andnot_si256(mask, no));
}

AVX2 void stp_layers_write(uint8_t *luma, uint8_t *cb, uint8_t *cr, int width, const uint8_t *groups, int lo, int hi,
                           const stp_ycbcr *c, uint32_t *words, const float *r, const float *g, const float *b,
                           const float *a, uint8_t *changed) {
    const __m256 k255 = _mm256_set1_ps(255.0f), one = _mm256_set1_ps(1.0f);
    int last = hi < whole_groups(width) - 1 ? hi : whole_groups(width) - 1;
    for (int group = lo; group <= last; group++) {
        if (!groups[group]) continue;
        int x = group * 8;
        __m256i w = _mm256_loadu_si256((const __m256i *)(words + x));
        __m256i vr = channel(w, 0), vg = channel(w, 8), vb = channel(w, 16);
        __m256 keep = _mm256_sub_ps(one, ld(a + x));
#define OUT(d, v) rounded(_mm256_add_ps(_mm256_mul_ps(ld(d + x), k255), _mm256_mul_ps(_mm256_cvtepi32_ps(v), keep)))
        __m256i nr = OUT(r, vr), ng = OUT(g, vg), nb = OUT(b, vb);
#undef OUT
        __m256i diff = _mm256_or_si256(_mm256_or_si256(_mm256_xor_si256(nr, vr), _mm256_xor_si256(ng, vg)),
                                       _mm256_xor_si256(nb, vb));
        __m256i moved = _mm256_xor_si256(_mm256_cmpeq_epi32(diff, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
        narrow8(changed + x, _mm256_and_si256(moved, _mm256_set1_epi32(1)));
        if (_mm256_testz_si256(moved, moved)) continue;
        __m256i word = _mm256_or_si256(_mm256_or_si256(nr, _mm256_slli_epi32(ng, 8)),
                                       _mm256_or_si256(_mm256_slli_epi32(nb, 16), _mm256_set1_epi32((int)0xFF000000u)));
        _mm256_storeu_si256((__m256i *)(words + x), word);
        narrow8(luma + x, select_epi32(combined(nr, ng, nb, c->y_r, c->y_g, c->y_b, c->y_offset), widen8(luma + x), moved));
        if (cb && cr) {
            narrow8(cb + x, select_epi32(convert(nr, ng, nb, c->cb_r, c->cb_g, c->cb_b, c->c_offset), widen8(cb + x), moved));
            narrow8(cr + x, select_epi32(convert(nr, ng, nb, c->cr_r, c->cr_g, c->cr_b, c->c_offset), widen8(cr + x), moved));
        }
    }
}

AVX2 void stp_layers_chroma420(uint8_t *cb, uint8_t *cr, int width, const uint8_t *groups, int lo, int hi,
                               const stp_ycbcr *c, const uint32_t *words0, const uint32_t *words1,
                               const uint8_t *changed0, const uint8_t *changed1) {
    const __m256i two = _mm256_set1_epi32(2);
    int last = hi < whole_groups(width) - 1 ? hi : whole_groups(width) - 1;
    for (int group = lo; group <= last; group++) {
        if (!groups[group]) continue;
        int x = group * 8;
        uint64_t c0, c1;
        __builtin_memcpy(&c0, changed0 + x, 8);
        __builtin_memcpy(&c1, changed1 + x, 8);
        if ((c0 | c1) == 0) continue;
        __m256i w0 = _mm256_loadu_si256((const __m256i *)(words0 + x));
        __m256i w1 = _mm256_loadu_si256((const __m256i *)(words1 + x));
#define MEAN(shift) _mm256_srli_epi32(_mm256_add_epi32(pairs(_mm256_add_epi32(channel(w0, shift), channel(w1, shift))), two), 2)
        __m256i mr = MEAN(0), mg = MEAN(8), mb = MEAN(16);
#undef MEAN
        // A block with a changed pixel: its lane of the pairs of `changed` is not 0.
        __m256i any = pairs(_mm256_or_si256(widen8(changed0 + x), widen8(changed1 + x)));
        __m256i mask = _mm256_xor_si256(_mm256_cmpeq_epi32(any, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
        uint8_t *pb = cb + x / 2, *pr = cr + x / 2;
        __m256i oldb = _mm256_setr_epi32(pb[0], pb[1], 0, 0, pb[2], pb[3], 0, 0);
        __m256i oldr = _mm256_setr_epi32(pr[0], pr[1], 0, 0, pr[2], pr[3], 0, 0);
        narrow4(pb, select_epi32(convert(mr, mg, mb, c->cb_r, c->cb_g, c->cb_b, c->c_offset), oldb, mask));
        narrow4(pr, select_epi32(convert(mr, mg, mb, c->cr_r, c->cr_g, c->cr_b, c->c_offset), oldr, mask));
    }
}

#else

void stp_layers_read(const uint8_t *luma, const uint8_t *cb, const uint8_t *cr, int subsampled, int width,
                     const uint8_t *groups, int lo, int hi, const stp_rgb_of_ycbcr *c, uint32_t *words, float *r,
                     float *g, float *b, float *a) {
    (void)luma; (void)cb; (void)cr; (void)subsampled; (void)width; (void)groups; (void)lo; (void)hi; (void)c;
    (void)words; (void)r; (void)g; (void)b; (void)a;
}

void stp_layers_span(int op, const uint8_t *l, ptrdiff_t plane, ptrdiff_t ahead, float k, int x0, int x1, float *r,
                     float *g, float *b, float *a) {
    (void)op; (void)l; (void)plane; (void)ahead; (void)k; (void)x0; (void)x1; (void)r; (void)g; (void)b; (void)a;
}

void stp_layers_write(uint8_t *luma, uint8_t *cb, uint8_t *cr, int width, const uint8_t *groups, int lo, int hi,
                      const stp_ycbcr *c, uint32_t *words, const float *r, const float *g, const float *b,
                      const float *a, uint8_t *changed) {
    (void)luma; (void)cb; (void)cr; (void)width; (void)groups; (void)lo; (void)hi; (void)c; (void)words; (void)r;
    (void)g; (void)b; (void)a; (void)changed;
}

void stp_layers_chroma420(uint8_t *cb, uint8_t *cr, int width, const uint8_t *groups, int lo, int hi,
                          const stp_ycbcr *c, const uint32_t *words0, const uint32_t *words1,
                          const uint8_t *changed0, const uint8_t *changed1) {
    (void)cb; (void)cr; (void)width; (void)groups; (void)lo; (void)hi; (void)c; (void)words0; (void)words1;
    (void)changed0; (void)changed1;
}

#endif
