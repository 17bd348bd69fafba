#ifndef STP_CAIRO_H
#define STP_CAIRO_H
#include <stddef.h>
#include "stp_types.h"

// The CPU peer of `stipple bench`: the same stamps drawn with Cairo. libcairo.so.2 is
// loaded with dlopen when first needed, so the package does not depend on cairo at build
// time; without it every function here returns -1 and says how to install it.

// 0 when libcairo.so.2 and every function used are there; -1 + one line otherwise
// (e.g. "libcairo.so.2 not found; apt-get install libcairo2").
int stp_cairo_available(char *err, size_t errlen);

// Draws every stamp (age effects ignored: the benchmark uses maxAge 0) as its brush, scaled to the stamp's
// square of side 2*radius*point_scale (at least 1 px, as the GL path) centred on (x, y), coloured with its
// straight colour and alpha, composited OVER an ARGB32 image surface of width×height cleared to transparent
// each frame; `warmup` untimed frames then `reps` timed ones (CLOCK_MONOTONIC, clear to flush), seconds
// into out_seconds[reps]. 0 ok, -1 + message.
int stp_bench_cairo(const stp_sketch_point *stamps, int count, int width, int height,
                    const unsigned char *brush, int brush_width, int brush_height, float point_scale,
                    int warmup, int reps, double *out_seconds, char *err, size_t errlen);

// Draws one frame as stp_bench_cairo does and copies it into out_rgba_premultiplied
// (width * height * 4 bytes: premultiplied RGBA, rows top to bottom, as Renderer.renderPremultiplied).
int stp_cairo_render(const stp_sketch_point *stamps, int count, int width, int height,
                     const unsigned char *brush, int brush_width, int brush_height, float point_scale,
                     unsigned char *out_rgba_premultiplied, char *err, size_t errlen);

#endif
