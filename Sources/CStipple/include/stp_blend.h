#ifndef STP_BLEND_H
#define STP_BLEND_H
#include <stddef.h>
#include <stdint.h>

// The video compositor's inner loop with the CPU's vector units (AVX2, chosen at run time).
// Swift's SIMD types compile to the baseline x86-64 instruction set, where a 32-bit
// multiply and a float conversion are emulated; this file is compiled for AVX2 and called
// only where the CPU has it.

// An R'G'B' → Y'CbCr conversion: coefficients ×65536, offsets ×65536 with the rounding half.
typedef struct stp_ycbcr {
    int32_t y_r, y_g, y_b, y_offset;
    int32_t cb_r, cb_g, cb_b;
    int32_t cr_r, cr_g, cr_b;
    int32_t c_offset;
} stp_ycbcr;

// 1 when stp_blend_rows420 can run here (the CPU has AVX2), else 0.
int stp_blend_has_avx2(void);

// Blends `count` premultiplied RGBA pixels (a multiple of 8) of two rows, `top` and `bottom`,
// onto luma rows `y_top`, `y_bottom` and the chroma row `cb`, `cr` (count / 2 samples) of a
// 4:2:0 frame, eight pixels at a time: each pixel un-premultiplied as min((c·255 + a/2) / a, 255),
// converted, and blended as ffmpeg's overlay, d = ((d·(255 − a) + s·a + 128)·257) >> 16; each
// 2×2 block's chroma from its average straight colour and alpha. Samples where alpha is 0
// (for chroma: the block's average) come out as read. Returns the pixels with alpha above 0.
int stp_blend_rows420(const uint8_t *top, const uint8_t *bottom, int count, uint8_t *y_top, uint8_t *y_bottom,
                      uint8_t *cb, uint8_t *cr, const stp_ycbcr *c);

// The kept sketch's form of `count` premultiplied RGBA pixels (a multiple of 8) of two rows
// (`top`, `bottom`) of a 4:2:0 frame, eight pixels at a time (AVX2; call only where
// stp_blend_has_avx2): each pixel's alpha and converted straight luma (`a_top`, `y_top`, …),
// each 2×2 block's average alpha and converted average straight colour (`ca`, `cb`, `cr`:
// count / 2 samples); 0 where the alpha is 0. The bytes of SketchPlanes' own loop.
void stp_convert_rows420(const uint8_t *top, const uint8_t *bottom, int count, uint8_t *a_top, uint8_t *a_bottom,
                         uint8_t *y_top, uint8_t *y_bottom, uint8_t *ca, uint8_t *cb, uint8_t *cr, const stp_ycbcr *c);

// The kept sketch's blend over a box of one plane (`rows` rows of `count` samples, rows
// `stride` samples apart in all three arrays): d = ((d·(255 − a) + s·a + 128)·257) >> 16,
// s the sketch's straight converted sample and a its alpha. Thirty-two samples at a time in
// 16-bit lanes where the CPU has AVX2: x = d·(255 − a) + s·a + 128 is at most 255·255 + 128,
// so it fits, and (x·257) >> 16 is the high half of x·257. Where a is 0, d comes out unchanged.
void stp_blend_kept(uint8_t *d, const uint8_t *a, const uint8_t *s, ptrdiff_t stride, int count, int rows);
#endif
