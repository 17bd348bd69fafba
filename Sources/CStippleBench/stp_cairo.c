// Cairo drawing the benchmark's stamps, loaded at run time (dlopen), so Stipple builds
// without cairo's headers and runs without the library.
//
// Per stamp, the usual Cairo way: save, translate to the square's top-left corner, scale
// brush texels to pixels, clip to the square, set_source_rgba(straight colour), mask with
// the brush, restore. cairo_mask_surface cannot take a filter or an extend mode, so the
// brush's pattern is made once and drawn with cairo_mask (what cairo_mask_surface(cr,
// brush, 0, 0) does with its defaults), set up to match the GL path:
// - CAIRO_FILTER_BILINEAR: GL_LINEAR. Both sample at pixel centres, texel centres at +0.5.
// - CAIRO_EXTEND_PAD: GL_CLAMP_TO_EDGE. Cairo's default (NONE) fades the outermost half
//   texel to nothing, which shows on brushes whose border is not empty (hard-round's edge
//   midpoints are fully covered).
// - The clip to the square with CAIRO_ANTIALIAS_NONE: a pixel is drawn when its centre is
//   inside, as GL rasterises a point. (PAD alone would cover the whole canvas.) The clip is
//   a box, so it costs next to nothing: measured the same speed as EXTEND_NONE unclipped.
// What still differs: a pixel centre exactly on the square's edge (Cairo takes the top
// row, GL on llvmpipe the bottom: docs/reference.md §4 lets drivers differ), and pixman's rounding
// against llvmpipe's 8-bit blending (a few units a channel).
#define _POSIX_C_SOURCE 199309L
#include "../CStipple/stp_say.h"  // internal to the package: not in CStipple's public headers
#include "stp_cairo.h"
#include "stp_dl.h"
#include "stp_bench.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The few parts of cairo.h used here (cairo's ABI has been stable since 1.0).
typedef struct cairo cairo_t;
typedef struct cairo_surface cairo_surface_t;
typedef struct cairo_pattern cairo_pattern_t;
enum { CAIRO_FORMAT_ARGB32 = 0, CAIRO_FORMAT_A8 = 2 };
enum { CAIRO_OPERATOR_CLEAR = 0, CAIRO_OPERATOR_OVER = 2 };
enum { CAIRO_FILTER_BILINEAR = 4 };
enum { CAIRO_EXTEND_PAD = 3 };
enum { CAIRO_ANTIALIAS_NONE = 1 };
enum { CAIRO_STATUS_SUCCESS = 0 };

#define STP_CAIRO_HINT "apt-get install libcairo2"

static struct {
    int (*format_stride_for_width)(int format, int width);
    cairo_surface_t *(*image_surface_create)(int format, int width, int height);
    cairo_surface_t *(*image_surface_create_for_data)(unsigned char *data, int format, int width, int height,
                                                      int stride);
    unsigned char *(*image_surface_get_data)(cairo_surface_t *surface);
    int (*image_surface_get_stride)(cairo_surface_t *surface);
    int (*surface_status)(cairo_surface_t *surface);
    void (*surface_flush)(cairo_surface_t *surface);
    void (*surface_destroy)(cairo_surface_t *surface);
    cairo_pattern_t *(*pattern_create_for_surface)(cairo_surface_t *surface);
    void (*pattern_set_filter)(cairo_pattern_t *pattern, int filter);
    void (*pattern_set_extend)(cairo_pattern_t *pattern, int extend);
    int (*pattern_status)(cairo_pattern_t *pattern);
    void (*pattern_destroy)(cairo_pattern_t *pattern);
    cairo_t *(*create)(cairo_surface_t *target);
    int (*status)(cairo_t *cr);
    const char *(*status_to_string)(int status);
    void (*destroy)(cairo_t *cr);
    void (*set_operator)(cairo_t *cr, int op);
    void (*paint)(cairo_t *cr);
    void (*save)(cairo_t *cr);
    void (*restore)(cairo_t *cr);
    void (*translate)(cairo_t *cr, double tx, double ty);
    void (*scale)(cairo_t *cr, double sx, double sy);
    void (*set_source_rgba)(cairo_t *cr, double red, double green, double blue, double alpha);
    void (*mask)(cairo_t *cr, cairo_pattern_t *pattern);
    void (*set_antialias)(cairo_t *cr, int antialias);
    void (*rectangle)(cairo_t *cr, double x, double y, double width, double height);
    void (*clip)(cairo_t *cr);
} cairo;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static void load(void) {
    const stp_dl_function functions[] = {
        {"cairo_format_stride_for_width", &cairo.format_stride_for_width},
        {"cairo_image_surface_create", &cairo.image_surface_create},
        {"cairo_image_surface_create_for_data", &cairo.image_surface_create_for_data},
        {"cairo_image_surface_get_data", &cairo.image_surface_get_data},
        {"cairo_image_surface_get_stride", &cairo.image_surface_get_stride},
        {"cairo_surface_status", &cairo.surface_status},
        {"cairo_surface_flush", &cairo.surface_flush},
        {"cairo_surface_destroy", &cairo.surface_destroy},
        {"cairo_pattern_create_for_surface", &cairo.pattern_create_for_surface},
        {"cairo_pattern_set_filter", &cairo.pattern_set_filter},
        {"cairo_pattern_set_extend", &cairo.pattern_set_extend},
        {"cairo_pattern_status", &cairo.pattern_status},
        {"cairo_pattern_destroy", &cairo.pattern_destroy},
        {"cairo_create", &cairo.create},
        {"cairo_status", &cairo.status},
        {"cairo_status_to_string", &cairo.status_to_string},
        {"cairo_destroy", &cairo.destroy},
        {"cairo_set_operator", &cairo.set_operator},
        {"cairo_paint", &cairo.paint},
        {"cairo_save", &cairo.save},
        {"cairo_restore", &cairo.restore},
        {"cairo_translate", &cairo.translate},
        {"cairo_scale", &cairo.scale},
        {"cairo_set_source_rgba", &cairo.set_source_rgba},
        {"cairo_mask", &cairo.mask},
        {"cairo_set_antialias", &cairo.set_antialias},
        {"cairo_rectangle", &cairo.rectangle},
        {"cairo_clip", &cairo.clip},
    };
    loaded = stp_dl_load("libcairo.so.2", STP_CAIRO_HINT, functions, sizeof functions / sizeof *functions, load_error,
                         sizeof load_error) != NULL;
}

int stp_cairo_available(char *err, size_t errlen) {
    pthread_once(&load_once, load);
    if (loaded) return 0;
    stp_say(err, errlen, "%s", load_error);
    return -1;
}

// One canvas, one brush, one cairo_t: what a run makes.
typedef struct stp_cairo_canvas {
    cairo_surface_t *target, *brush;
    unsigned char *brush_rows;  // the brush, rows padded to cairo's A8 stride
    cairo_pattern_t *pattern;
    cairo_t *cr;
} stp_cairo_canvas;

static void close_canvas(stp_cairo_canvas *c) {
    if (c->cr) cairo.destroy(c->cr);
    if (c->pattern) cairo.pattern_destroy(c->pattern);
    if (c->brush) cairo.surface_destroy(c->brush);
    if (c->target) cairo.surface_destroy(c->target);
    free(c->brush_rows);
}

static int open_canvas(stp_cairo_canvas *c, const stp_sketch_point *stamps, int count, int width, int height,
                       const unsigned char *brush, int brush_width, int brush_height, char *err, size_t errlen) {
    memset(c, 0, sizeof *c);
    if (stp_cairo_available(err, errlen) != 0) return -1;
    if (count < 0 || (count > 0 && !stamps) || width < 1 || height < 1 || !brush || brush_width < 1 ||
        brush_height < 1) {
        stp_say(err, errlen, "stp_bench_cairo: stamps, a canvas and a brush are needed");
        return -1;
    }
    int stride = cairo.format_stride_for_width(CAIRO_FORMAT_A8, brush_width);
    c->brush_rows = stride > 0 ? calloc((size_t)stride, (size_t)brush_height) : NULL;
    if (!c->brush_rows) {
        stp_say(err, errlen, "no memory for a %dx%d brush", brush_width, brush_height);
        return -1;
    }
    for (int y = 0; y < brush_height; y++)
        memcpy(c->brush_rows + (size_t)y * (size_t)stride, brush + (size_t)y * (size_t)brush_width,
               (size_t)brush_width);
    c->brush = cairo.image_surface_create_for_data(c->brush_rows, CAIRO_FORMAT_A8, brush_width, brush_height,
                                                   stride);
    c->target = cairo.image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    c->pattern = cairo.pattern_create_for_surface(c->brush);
    cairo.pattern_set_filter(c->pattern, CAIRO_FILTER_BILINEAR);
    c->cr = cairo.create(c->target);
    cairo.pattern_set_extend(c->pattern, CAIRO_EXTEND_PAD);  // GL_CLAMP_TO_EDGE
    cairo.set_antialias(c->cr, CAIRO_ANTIALIAS_NONE);        // clip by pixel centres, as GL rasterises
    int status = cairo.surface_status(c->brush);
    if (status == CAIRO_STATUS_SUCCESS) status = cairo.surface_status(c->target);
    if (status == CAIRO_STATUS_SUCCESS) status = cairo.pattern_status(c->pattern);
    if (status == CAIRO_STATUS_SUCCESS) status = cairo.status(c->cr);
    if (status != CAIRO_STATUS_SUCCESS) {
        stp_say(err, errlen, "cairo could not make a %dx%d canvas and a %dx%d brush: %s", width, height, brush_width,
            brush_height, cairo.status_to_string(status));
        return -1;
    }
    return 0;
}

static void draw_frame(stp_cairo_canvas *c, const stp_sketch_point *stamps, int count, int brush_width,
                       int brush_height, float point_scale) {
    cairo_t *cr = c->cr;
    cairo.set_operator(cr, CAIRO_OPERATOR_CLEAR);
    cairo.paint(cr);
    cairo.set_operator(cr, CAIRO_OPERATOR_OVER);
    for (int i = 0; i < count; i++) {
        const stp_sketch_point *p = &stamps[i];
        double side = 2.0 * (double)p->radius * (double)point_scale;
        if (!(side >= 1.0)) side = 1.0;  // docs/reference.md §3: never below one pixel (and never a singular matrix)
        cairo.save(cr);
        cairo.translate(cr, (double)p->x - side / 2, (double)p->y - side / 2);
        cairo.scale(cr, side / brush_width, side / brush_height);
        cairo.rectangle(cr, 0, 0, brush_width, brush_height);  // the stamp's square, in brush texels
        cairo.clip(cr);
        cairo.set_source_rgba(cr, p->red, p->green, p->blue, p->alpha);
        cairo.mask(cr, c->pattern);
        cairo.restore(cr);
    }
    cairo.surface_flush(c->target);
}

static int frame_status(stp_cairo_canvas *c, char *err, size_t errlen) {
    int status = cairo.status(c->cr);
    if (status == CAIRO_STATUS_SUCCESS) return 0;
    stp_say(err, errlen, "cairo failed drawing the stamps: %s", cairo.status_to_string(status));
    return -1;
}

int stp_bench_cairo(const stp_sketch_point *stamps, int count, int width, int height,
                    const unsigned char *brush, int brush_width, int brush_height, float point_scale,
                    int warmup, int reps, double *out_seconds, char *err, size_t errlen) {
    if (warmup < 0 || reps < 0 || (reps > 0 && !out_seconds)) {
        stp_say(err, errlen, "stp_bench_cairo: warmup and reps must be >= 0, with room for reps times");
        return -1;
    }
    stp_cairo_canvas c;
    int rc = open_canvas(&c, stamps, count, width, height, brush, brush_width, brush_height, err, errlen);
    if (rc == 0) {
        for (int i = 0; i < warmup; i++) draw_frame(&c, stamps, count, brush_width, brush_height, point_scale);
        for (int i = 0; i < reps; i++) {
            double t0 = stp_bench_now();
            draw_frame(&c, stamps, count, brush_width, brush_height, point_scale);
            out_seconds[i] = stp_bench_now() - t0;
        }
        rc = frame_status(&c, err, errlen);
    }
    if (stp_cairo_available(NULL, 0) == 0) close_canvas(&c);
    return rc;
}

int stp_cairo_render(const stp_sketch_point *stamps, int count, int width, int height,
                     const unsigned char *brush, int brush_width, int brush_height, float point_scale,
                     unsigned char *out_rgba_premultiplied, char *err, size_t errlen) {
    if (!out_rgba_premultiplied) {
        stp_say(err, errlen, "stp_cairo_render: no output buffer");
        return -1;
    }
    stp_cairo_canvas c;
    int rc = open_canvas(&c, stamps, count, width, height, brush, brush_width, brush_height, err, errlen);
    if (rc == 0) {
        draw_frame(&c, stamps, count, brush_width, brush_height, point_scale);
        rc = frame_status(&c, err, errlen);
    }
    if (rc == 0) {
        // ARGB32 is one native-endian 32-bit word a pixel, premultiplied: A in the top byte.
        const unsigned char *data = cairo.image_surface_get_data(c.target);
        int stride = cairo.image_surface_get_stride(c.target);
        for (int y = 0; y < height; y++) {
            const unsigned char *row = data + (size_t)y * (size_t)stride;
            unsigned char *out = out_rgba_premultiplied + (size_t)y * (size_t)width * 4;
            for (int x = 0; x < width; x++) {
                uint32_t v;
                memcpy(&v, row + (size_t)x * 4, 4);
                out[x * 4 + 0] = (unsigned char)(v >> 16);
                out[x * 4 + 1] = (unsigned char)(v >> 8);
                out[x * 4 + 2] = (unsigned char)v;
                out[x * 4 + 3] = (unsigned char)(v >> 24);
            }
        }
    }
    if (stp_cairo_available(NULL, 0) == 0) close_canvas(&c);
    return rc;
}
