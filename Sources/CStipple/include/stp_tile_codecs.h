#ifndef STP_TILE_CODECS_H
#define STP_TILE_CODECS_H
#include <stddef.h>
#include <stdint.h>

// JPEG and WebP encoders for pyramid tiles, loaded at run time from Debian's libturbojpeg0
// (libturbojpeg.so.0) and libwebp7 (libwebp.so.7): Stipple builds without their headers,
// and a run that asks for such tiles on a machine without them gets a clear error.

// 1 when the library can be loaded here, else 0 (and `err` says why).
int stp_jpeg_available(char *err, size_t err_len);
int stp_webp_available(char *err, size_t err_len);

// Encodes `width` × `height` RGB pixels (3 bytes a pixel, rows top to bottom) as a baseline
// JPEG of `quality` (1–100), chroma 4:2:0. On success returns 0 and a malloc'd buffer in
// `*out` of `*out_len` bytes (the caller frees it); otherwise -1 with `err` filled.
int stp_jpeg_encode(const uint8_t *rgb, int width, int height, int quality, uint8_t **out, size_t *out_len,
                    char *err, size_t err_len);

// Encodes straight RGBA pixels as WebP: lossy at `quality` (0–100), or lossless when
// `lossless` is 1. Same contract as stp_jpeg_encode.
int stp_webp_encode(const uint8_t *rgba, int width, int height, float quality, int lossless, uint8_t **out,
                    size_t *out_len, char *err, size_t err_len);
#endif
