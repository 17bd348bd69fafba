// A dataset cell's coverage out of a drawn page (see stp_coverage.h): plain loops over a
// row, which the compiler vectorises (a copy, or strided loads of one byte in four).
#include "stp_coverage.h"

#include <stddef.h>
#include <string.h>

void stp_cell_coverage(const uint8_t *page, int stride, int page_rows, int top_down, int bpp, int channel, int x,
                       int y, int width, int height, int factor, int invert, uint8_t *out) {
    const uint8_t flip = invert ? 255 : 0;
    // Row r from the top: the byte that holds column x's coverage.
    #define ROW(r) (page + ((size_t)(top_down ? (r) : page_rows - 1 - (r)) * (size_t)stride + (size_t)x) * (size_t)bpp \
                    + channel)
    if (factor == 1) {
        for (int j = 0; j < height; j++) {
            const uint8_t *src = ROW(y + j);
            uint8_t *dst = out + (size_t)j * (size_t)width;
            if (bpp == 1 && !invert) { memcpy(dst, src, (size_t)width); continue; }
            for (int i = 0; i < width; i++) dst[i] = src[(size_t)i * (size_t)bpp] ^ flip;
        }
        return;
    }
    if (factor == 2) {
        // The common case (28 x 28 from 56-pixel cells), with the block's shape known.
        const size_t step = (size_t)bpp;
        for (int j = 0; j < height; j++) {
            const uint8_t *a = ROW(y + 2 * j), *b = ROW(y + 2 * j + 1);
            uint8_t *dst = out + (size_t)j * (size_t)width;
            for (int i = 0; i < width; i++) {
                size_t k = 2 * (size_t)i * step;
                unsigned s = (unsigned)a[k] + a[k + step] + b[k] + b[k + step];
                dst[i] = (uint8_t)((s + 2) / 4) ^ flip;
            }
        }
        return;
    }
    const unsigned n = (unsigned)(factor * factor), half = n / 2;
    unsigned sums[4096];
    for (int j = 0; j < height; j++) {
        uint8_t *dst = out + (size_t)j * (size_t)width;
        for (int i0 = 0; i0 < width; i0 += 4096) {
            int count = width - i0 < 4096 ? width - i0 : 4096;
            memset(sums, 0, sizeof(unsigned) * (size_t)count);
            for (int dy = 0; dy < factor; dy++) {
                const uint8_t *src = ROW(y + j * factor + dy) + (size_t)i0 * (size_t)factor * (size_t)bpp;
                for (int i = 0; i < count; i++) {
                    unsigned s = 0;
                    for (int dx = 0; dx < factor; dx++) s += src[((size_t)i * (size_t)factor + (size_t)dx) * (size_t)bpp];
                    sums[i] += s;
                }
            }
            for (int i = 0; i < count; i++) dst[i0 + i] = (uint8_t)((sums[i] + half) / n) ^ flip;
        }
    }
    #undef ROW
}
