// Eight 32-bit lanes in AVX2, as the video compositor (stp_blend.c) and the stroke layers'
// composition (stp_layers.c) both use them: bytes widened and narrowed, a clamp, the
// fixed-point R'G'B' -> Y'CbCr sum, and 2 x 2 blocks summed. Private to CStipple; include
// it only inside an x86-64 clang or GCC block.
#ifndef STP_LANES_H
#define STP_LANES_H

#include <immintrin.h>
#include <stdint.h>

#define AVX2 __attribute__((target("avx2")))

// Eight bytes as eight lanes.
static inline AVX2 __m256i widen8(const uint8_t *p) { return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)); }

// Each lane's low byte (truncated, as Swift's truncatingIfNeeded), eight bytes.
static inline AVX2 void narrow8(uint8_t *p, __m256i v) {
    v = _mm256_and_si256(v, _mm256_set1_epi32(255));
    __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(v, v), _mm256_setzero_si256());
    uint32_t low = (uint32_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(bytes));
    uint32_t high = (uint32_t)_mm_cvtsi128_si32(_mm256_extracti128_si256(bytes, 1));
    uint64_t packed = (uint64_t)low | ((uint64_t)high << 32);
    __builtin_memcpy(p, &packed, 8);
}

// Lanes 0, 1, 4 and 5 (a row's two pairs of blocks, as `pairs` leaves them) as four bytes.
static inline AVX2 void narrow4(uint8_t *p, __m256i v) {
    p[0] = (uint8_t)_mm256_extract_epi32(v, 0);
    p[1] = (uint8_t)_mm256_extract_epi32(v, 1);
    p[2] = (uint8_t)_mm256_extract_epi32(v, 4);
    p[3] = (uint8_t)_mm256_extract_epi32(v, 5);
}

static inline AVX2 __m256i clamp255(__m256i v) {
    return _mm256_min_epi32(_mm256_max_epi32(v, _mm256_setzero_si256()), _mm256_set1_epi32(255));
}

// (kr·r + kg·g + kb·b + offset) >> 16 (arithmetic), not clamped.
static inline AVX2 __m256i combined(__m256i r, __m256i g, __m256i b, int32_t kr, int32_t kg, int32_t kb, int32_t offset) {
    __m256i s = _mm256_add_epi32(_mm256_add_epi32(_mm256_mullo_epi32(r, _mm256_set1_epi32(kr)),
                                                  _mm256_mullo_epi32(g, _mm256_set1_epi32(kg))),
                                 _mm256_add_epi32(_mm256_mullo_epi32(b, _mm256_set1_epi32(kb)), _mm256_set1_epi32(offset)));
    return _mm256_srai_epi32(s, 16);
}

// The same, clamped to 0…255.
static inline AVX2 __m256i convert(__m256i r, __m256i g, __m256i b, int32_t kr, int32_t kg, int32_t kb, int32_t offset) {
    return clamp255(combined(r, g, b, kr, kg, kb, offset));
}

// Pairs of lanes summed: blocks 0, 1 in lanes 0, 1 and blocks 2, 3 in lanes 4, 5.
static inline AVX2 __m256i pairs(__m256i v) { return _mm256_hadd_epi32(v, v); }

#endif
