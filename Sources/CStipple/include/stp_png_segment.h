#ifndef STP_PNG_SEGMENT_H
#define STP_PNG_SEGMENT_H
#include <stddef.h>

// The fast PNG profile (levels 0-3) as independent segments: a run of rows, each filtered by
// None, Sub, Up or Paeth (RGBA; grey rows None, Sub or Up: the smallest sum; the image's first
// row neither Up nor Paeth; a segment's first row reads the row above it), compressed into raw
// deflate (level 0: stored; 1-3: runs and literals, stp_deflate_rle, and copies from farther
// back where smaller: at 2-3 always tried, at 1 where an RGBA segment's runs left few literals
// or a sample of it shows they pay; searched 8 places deep, 32 at level 3) that ends on a byte
// boundary (a sync flush; the image's last segment ends the stream), so that segments
// compressed on any thread, in any order, concatenate into one zlib stream. Each segment is one IDAT chunk; the caller writes
// the zlib header before them and the Adler-32 of the whole (combined from the segments')
// after.
typedef struct {
    unsigned char *data;   // raw deflate bytes
    size_t len;
    unsigned long adler;   // Adler-32 of the segment's filtered scanlines, from 1
    size_t raw_len;        // bytes of filtered scanlines
    unsigned long crc;     // CRC-32 of "IDAT" and data: the chunk's CRC
} stp_png_segment;

// Rows in every segment but the last, for an image `width` pixels wide of `channels`
// (1 or 4) bytes a pixel: about 256 KiB of pixels. Depends on the row's size alone, so an
// image's bytes are the same whoever encodes it, whole or band by band.
int stp_png_segment_rows(int width, int channels);

// Filters and compresses `rows` rows of `pixels` (width * channels bytes each, back to
// back); `above` is the image's row above them (NULL for the image's first segment), which
// the first row's Up and Paeth read. `last`: the image's last segment. 0 on success, -1 with
// one line in err.
int stp_png_segment_encode(const unsigned char *pixels, const unsigned char *above, int width, int channels, int rows,
                           int last, int level, stp_png_segment *out, char *err, size_t errlen);

void stp_png_segment_free(stp_png_segment *segment);

// Adler-32 of a stream whose first part has `a` and second part (`len_b` bytes) has `b`.
unsigned long stp_adler32_combine(unsigned long a, unsigned long b, size_t len_b);

// CRC-32 of `len` bytes, continuing `crc` (0 to start): zlib's, computed by carry-less
// multiplication where the CPU has it (stp_crc32.c).
unsigned long stp_crc32(unsigned long crc, const unsigned char *data, size_t len);

// `rows` rows of pixels filtered as one segment filters them (each row's filter type byte,
// then its bytes; `above` the row above the first, or NULL), into `out`, (width × channels +
// 1) × rows bytes: what the coder is given, for comparing coders on the same bytes.
void stp_png_filter_image(const unsigned char *pixels, const unsigned char *above, int width, int channels, int rows,
                          unsigned char *out);

#endif
