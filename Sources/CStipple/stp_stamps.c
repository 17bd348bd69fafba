// One pass over a batch's stamps for the frame planner (stp_stamps.h). A stamp's first four
// fields (x, y, radius, age) are one 16-byte load; four running minima and maxima of
// those vectors keep four loads in flight.
#include "stp_stamps.h"

#include <math.h>

#if defined(__x86_64__) || defined(__SSE2__)
#include <emmintrin.h>

void stp_stamp_extent_of(const stp_sketch_point *stamps, size_t count, stp_stamp_extent *out) {
    const __m128 inf = _mm_set1_ps(INFINITY), ninf = _mm_set1_ps(-INFINITY);
    __m128 lo[4] = {inf, inf, inf, inf}, hi[4] = {ninf, ninf, ninf, ninf};
    __m128 nan[4] = {_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()};
    size_t i = 0;
    // minps and maxps give their second operand where the first is NaN: a NaN field never
    // enters the running value.
#define STEP(k, p)                                        \
    do {                                                  \
        __m128 v = _mm_loadu_ps(&(p)->x);                 \
        lo[k] = _mm_min_ps(v, lo[k]);                     \
        hi[k] = _mm_max_ps(v, hi[k]);                     \
        nan[k] = _mm_or_ps(nan[k], _mm_cmpunord_ps(v, v)); \
    } while (0)
    for (; i + 4 <= count; i += 4) {
        STEP(0, stamps + i);
        STEP(1, stamps + i + 1);
        STEP(2, stamps + i + 2);
        STEP(3, stamps + i + 3);
    }
    for (; i < count; i++) STEP(0, stamps + i);
#undef STEP
    __m128 l = _mm_min_ps(_mm_min_ps(lo[0], lo[1]), _mm_min_ps(lo[2], lo[3]));
    __m128 h = _mm_max_ps(_mm_max_ps(hi[0], hi[1]), _mm_max_ps(hi[2], hi[3]));
    __m128 n = _mm_or_ps(_mm_or_ps(nan[0], nan[1]), _mm_or_ps(nan[2], nan[3]));
    _mm_storeu_ps(out->min, l);
    _mm_storeu_ps(out->max, h);
    out->nan_age = (_mm_movemask_ps(n) & 8) != 0;
}

#else

void stp_stamp_extent_of(const stp_sketch_point *stamps, size_t count, stp_stamp_extent *out) {
    for (int f = 0; f < 4; f++) { out->min[f] = INFINITY; out->max[f] = -INFINITY; }
    out->nan_age = 0;
    for (size_t i = 0; i < count; i++) {
        const float v[4] = {stamps[i].x, stamps[i].y, stamps[i].radius, stamps[i].age};
        for (int f = 0; f < 4; f++) {
            if (v[f] < out->min[f]) out->min[f] = v[f];
            if (v[f] > out->max[f]) out->max[f] = v[f];
        }
        if (isnan(stamps[i].age)) out->nan_age = 1;
    }
}

#endif
