#ifndef STP_PNG_H
#define STP_PNG_H
#include <stddef.h>

// A decoded PNG, always expanded to 8-bit RGBA, rows top to bottom.
typedef struct stp_png_image {
    int width;
    int height;
    int has_alpha;   // the file had an alpha channel or a tRNS chunk
    int is_grey;     // the file was greyscale
    unsigned char *rgba;  // width * height * 4 bytes, malloc'd; free with stp_png_free
} stp_png_image;

// Reads any PNG (grey, palette, 16-bit, interlaced) into 8-bit RGBA from fd, an open
// regular file of file_size bytes (the caller opened and checked it; fd is closed here).
// The declared size is checked before anything is decoded: each side at most max_side,
// width × height at most max_pixels, and no more pixel data than file_size bytes of
// deflate can hold. libpng's longjmp errors stay inside: returns 0 on success, -1 with one
// line in err and, in *err_offset, the byte where the problem was found (-1: none).
int stp_png_read_fd(int fd, long long file_size, int max_side, long long max_pixels,
                    stp_png_image *out, long long *err_offset, char *err, size_t errlen);
// The same for a PNG held in memory (`count` bytes at `bytes`).
int stp_png_read_memory(const void *bytes, size_t count, int max_side, long long max_pixels,
                        stp_png_image *out, long long *err_offset, char *err, size_t errlen);
void stp_png_free(stp_png_image *image);

// Encodes 8-bit RGBA (rows top to bottom) into a malloc'd PNG in memory through libpng.
// level 0...9: up to 3 libpng's fast profile (Sub filter, zlib's run-length deflate), 4 and
// above libpng's adaptive filters with deflate at that level (smaller, several times slower).
// Stipple encodes levels 0-3 with its own encoder (stp_png_segment.h) and uses libpng for 4-9.
// Returns 0 on success and sets *out / *out_len; free *out with free().
int stp_png_encode(const unsigned char *rgba, int width, int height, int level,
                   unsigned char **out, size_t *out_len, char *err, size_t errlen);
// As stp_png_encode with libpng's choice of filters for every level (`fast` 0), or the
// Sub filter and run-length deflate (`fast` 1): the encoders Stipple's own is measured against.
int stp_png_encode_libpng(const unsigned char *pixels, int width, int height, int channels, int level, int fast,
                          unsigned char **out, size_t *out_len, char *err, size_t errlen);

// As stp_png_encode, for 8-bit grey (channels 1) or RGBA (channels 4) pixels.
int stp_png_encode_channels(const unsigned char *pixels, int width, int height, int channels, int level,
                            unsigned char **out, size_t *out_len, char *err, size_t errlen);

#endif
