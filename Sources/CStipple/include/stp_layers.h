// The CPU composition of stroke layers that act pixel by pixel (PixelLayerCompositor), one
// working row at a time, in AVX2: each function gives, group of eight pixels by group, the
// bytes and floats of the Swift loop it stands for (call only where stp_blend_has_avx2).
// Each covers only the row's whole groups (x + 8 <= width) among `lo` ... `hi` whose entry
// in `groups` is not 0; a partial last group is left to the Swift loop.
#ifndef STP_LAYERS_H
#define STP_LAYERS_H

#include <stddef.h>
#include <stdint.h>
#include "stp_blend.h"

// Y'CbCr -> R'G'B' in fixed point with 20 fractional bits (YCbCrToRGB's coefficients).
typedef struct stp_rgb_of_ycbcr {
    int32_t y, r_cr, g_cb, g_cr, b_cb, black;
} stp_rgb_of_ycbcr;

// The working row's pixels as read: luma row `luma`, chroma rows `cb`, `cr` (4:2:0: each
// sample under two pixels). Each pixel's RGBA8 word (alpha 255) into `words`, its colour
// (0...1) into `r`, `g`, `b` and 1 into `a`; all indexed by pixel column.
void stp_layers_read(const uint8_t *luma, const uint8_t *cb, const uint8_t *cr, int subsampled, int width,
                     const uint8_t *groups, int lo, int hi, const stp_rgb_of_ycbcr *c, uint32_t *words, float *r,
                     float *g, float *b, float *a);

// One layer over columns x0 ..< x1 of the working row (from x0 rounded down to eight):
// L's plane p for column x at `l + p * plane + x`, scaled by `k`; op as PixelLayer.Op's
// order (over, erase, multiply, screen, lighten, darken, saturate, desaturate). Where
// `ahead` is not 0, the planes' same columns `ahead` bytes away (a row of L that a later
// call reaches) are asked of the memory first.
void stp_layers_span(int op, const uint8_t *l, ptrdiff_t plane, ptrdiff_t ahead, float k, int x0, int x1, float *r,
                     float *g, float *b, float *a);

// The working row laid over its colours as read (`words`): each pixel's changed flag into
// `changed`; where a group has a changed pixel, its new words, and the luma (and, with
// `cb` and `cr` not NULL, 4:4:4 chroma) samples of its changed pixels.
void stp_layers_write(uint8_t *luma, uint8_t *cb, uint8_t *cr, int width, const uint8_t *groups, int lo, int hi,
                      const stp_ycbcr *c, uint32_t *words, const float *r, const float *g, const float *b,
                      const float *a, uint8_t *changed);

// The 4:2:0 chroma rows `cb`, `cr` under two written working rows: each block with a
// changed pixel from its pixels' words averaged.
void stp_layers_chroma420(uint8_t *cb, uint8_t *cr, int width, const uint8_t *groups, int lo, int hi,
                          const stp_ycbcr *c, const uint32_t *words0, const uint32_t *words1,
                          const uint8_t *changed0, const uint8_t *changed1);

#endif
