#ifndef STP_PNG_FILTER_H
#define STP_PNG_FILTER_H
#include <stddef.h>

// Filters one row of `stride` bytes (`bpp` bytes a pixel: 1 grey, 4 RGBA) into `out`: the
// filter type byte, then the filtered bytes. `prev` is the row above, NULL for the image's
// first row. The filter is whichever of None, Sub, Up and Paeth (RGBA; grey rows None, Sub
// or Up) gives the smallest sum of the bytes taken as signed, the lower type on a tie; the
// image's first row takes neither Up nor Paeth. The same bytes on every CPU.
void stp_png_filter_row(const unsigned char *in, const unsigned char *prev, unsigned char *out, size_t stride, int bpp);

#endif
