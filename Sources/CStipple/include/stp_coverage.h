// A dataset cell's coverage out of a drawn page (InkAtlas): each factor x factor block's
// mean, rounded, of one byte of every pixel, written row by row from the top.
#ifndef STP_COVERAGE_H
#define STP_COVERAGE_H

#include <stdint.h>

// `page` holds `page_rows` rows of `stride` pixels of `bpp` bytes, the coverage in byte
// `channel` of each (RGBA: 3, alpha; a one-channel target read as RGBA: 0, red; one byte a
// pixel: 0), bottom to top as GL reads them (top to bottom where `top_down`). The cell's
// top-left corner is at column `x`, row `y` counted from the top; `out` gets `width` x
// `height` bytes, each the mean over a `factor` x `factor` block, rounded half up, or 255
// minus it with `invert`.
void stp_cell_coverage(const uint8_t *page, int stride, int page_rows, int top_down, int bpp, int channel, int x,
                       int y, int width, int height, int factor, int invert, uint8_t *out);

#endif
