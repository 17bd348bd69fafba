// PNG written band by band (see stp_png_stream.h). libpng reports errors by longjmp:
// every libpng call stays in here, behind setjmp, and comes out as a status code.
#include "stp_say.h"
#include "stp_png_stream.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

struct stp_png_stream {
    png_structp png;
    png_infop info;
    FILE *file;
    int width, height, written, failed;
    char message[256];
};

static void on_stream_error(png_structp png, png_const_charp message) {
    stp_png_stream *s = png_get_error_ptr(png);
    if (s) {
        if (errno != 0 && strcmp(message, "Write Error") == 0) {
            snprintf(s->message, sizeof s->message, "write failed: %s", strerror(errno));
        } else {
            snprintf(s->message, sizeof s->message, "%s", message);
        }
    }
    png_longjmp(png, 1);
}

static void on_stream_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

stp_png_stream *stp_png_stream_open(int fd, int width, int height, int level, char *err, size_t errlen) {
    if (width <= 0 || height <= 0) { stp_say(err, errlen, "cannot encode an empty image"); return NULL; }
    stp_png_stream *s = calloc(1, sizeof *s);
    if (!s) { stp_say(err, errlen, "out of memory"); return NULL; }
    int copy = dup(fd);
    s->file = copy >= 0 ? fdopen(copy, "wb") : NULL;
    if (!s->file) {
        stp_say(err, errlen, "cannot write: %s", strerror(errno));
        if (copy >= 0) close(copy);
        free(s);
        return NULL;
    }
    s->width = width;
    s->height = height;
    s->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, s, on_stream_error, on_stream_warning);
    s->info = s->png ? png_create_info_struct(s->png) : NULL;
    if (!s->png || !s->info) {
        stp_say(err, errlen, "out of memory");
        stp_png_stream_close(s, 0, NULL, 0);
        return NULL;
    }
    if (setjmp(png_jmpbuf(s->png))) {
        stp_say(err, errlen, "%s", s->message);
        stp_png_stream_close(s, 0, NULL, 0);
        return NULL;
    }
    png_init_io(s->png, s->file);
    level = level < 0 ? 0 : level > 9 ? 9 : level;
    png_set_compression_level(s->png, level);
    if (level <= 3) {
        // libpng's fast profile, as stp_png_encode's. (Stipple writes levels 0-3 with its own
        // encoder, PNGSegments; it streams through libpng at 4-9.)
        png_set_filter(s->png, 0, PNG_FILTER_SUB);
        png_set_compression_strategy(s->png, Z_RLE);
    }
    png_set_IHDR(s->png, s->info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(s->png, s->info);
    return s;
}

int stp_png_stream_write_rows(stp_png_stream *s, const unsigned char *rgba, int count, char *err, size_t errlen) {
    // A closed (NULL) stream or missing rows are refused, never dereferenced.
    if (!s) { stp_say(err, errlen, "the PNG stream is closed"); return -1; }
    if (!rgba && count > 0) { stp_say(err, errlen, "no rows given"); return -1; }
    if (s->failed) { stp_say(err, errlen, "the PNG stream failed earlier"); return -1; }
    if (count < 0 || s->written + count > s->height) {
        stp_say(err, errlen, "%d more rows do not fit a %d-row image (%d written)", count, s->height, s->written);
        return -1;
    }
    if (setjmp(png_jmpbuf(s->png))) {
        s->failed = 1;
        stp_say(err, errlen, "%s", s->message);
        return -1;
    }
    errno = 0;
    size_t line = (size_t)s->width * 4;
    for (int y = 0; y < count; y++) png_write_row(s->png, (png_const_bytep)(rgba + (size_t)y * line));
    s->written += count;
    return 0;
}

int stp_png_stream_close(stp_png_stream *s, int finish, char *err, size_t errlen) {
    // Nothing to free; but a closed stream cannot finish a PNG.
    if (!s) {
        if (!finish) return 0;
        stp_say(err, errlen, "the PNG stream is closed");
        return -1;
    }
    int rc = 0;
    if (finish) {
        if (s->failed || s->written != s->height) {
            stp_say(err, errlen, "the PNG is incomplete (%d of %d rows)", s->written, s->height);
            rc = -1;
        } else if (setjmp(png_jmpbuf(s->png))) {
            stp_say(err, errlen, "%s", s->message);
            rc = -1;
        } else {
            errno = 0;
            png_write_end(s->png, NULL);
        }
    }
    if (s->png) png_destroy_write_struct(&s->png, s->info ? &s->info : NULL);
    if (s->file) {
        errno = 0;
        if (fclose(s->file) != 0 && finish && rc == 0) {
            stp_say(err, errlen, "write failed: %s", strerror(errno));
            rc = -1;
        }
    }
    free(s);
    return rc;
}
