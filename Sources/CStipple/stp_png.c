// PNG read and write on libpng. libpng reports errors by longjmp, which Swift cannot
// catch: every libpng call stays in here, behind setjmp, and comes out as a status code.
#include "stp_say.h"
#include "stp_png.h"

#include <errno.h>
#include <png.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>


// Reads for libpng, counting bytes, so that every error can name the byte it was found
// at, and a short file is reported as truncated rather than as libpng's bare "Read Error".
typedef struct { FILE *f; size_t offset; } png_reader;

// libpng's message goes into the caller's buffer before libpng longjmps; the reader, when
// there is one, gives the byte offset reached.
typedef struct { char *err; size_t errlen; png_reader *reader; long long offset; } png_errbox;

static void on_png_error(png_structp png, png_const_charp message) {
    png_errbox *box = png_get_error_ptr(png);
    if (box) {
        if (box->reader && box->offset < 0) box->offset = (long long)box->reader->offset;
        stp_say(box->err, box->errlen, "%s", message);
    }
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void read_counted(png_structp png, png_bytep data, png_size_t len) {
    png_reader *r = png_get_io_ptr(png);
    size_t n = fread(data, 1, len, r->f);
    r->offset += n;
    if (n != len) {
        char message[160];
        if (ferror(r->f)) {
            snprintf(message, sizeof message, "read failed: %s", strerror(errno));
        } else {
            snprintf(message, sizeof message, "the file ends early: truncated?");
        }
        png_error(png, message);
    }
}

// The most bytes deflate can expand one input byte to (zlib's documented worst case is
// about 1032:1), with room for the zlib and chunk headers of a tiny file.
#define STP_DEFLATE_MAX_RATIO 1040ULL
#define STP_DEFLATE_SLACK (1ULL << 16)

static int read_stream(FILE *f, long long file_size, int max_side, long long max_pixels,
                       stp_png_image *out, long long *err_offset, char *err, size_t errlen);

int stp_png_read_fd(int fd, long long file_size, int max_side, long long max_pixels,
                    stp_png_image *out, long long *err_offset, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    *err_offset = -1;
    FILE *f = fdopen(fd, "rb");
    if (!f) { stp_say(err, errlen, "cannot open: %s", strerror(errno)); close(fd); return -1; }
    return read_stream(f, file_size, max_side, max_pixels, out, err_offset, err, errlen);
}

int stp_png_read_memory(const void *bytes, size_t count, int max_side, long long max_pixels,
                        stp_png_image *out, long long *err_offset, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    *err_offset = -1;
    if (count == 0) { stp_say(err, errlen, "no bytes: an empty PNG"); *err_offset = 0; return -1; }
    FILE *f = fmemopen((void *)bytes, count, "rb");
    if (!f) { stp_say(err, errlen, "cannot read from memory: %s", strerror(errno)); return -1; }
    return read_stream(f, (long long)count, max_side, max_pixels, out, err_offset, err, errlen);
}

// Reads the PNG in f (file_size bytes) and closes f.
static int read_stream(FILE *f, long long file_size, int max_side, long long max_pixels,
                       stp_png_image *out, long long *err_offset, char *err, size_t errlen) {

    unsigned char signature[8];
    size_t got = fread(signature, 1, 8, f);
    if (got != 8 || png_sig_cmp(signature, 0, 8) != 0) {
        if (ferror(f)) stp_say(err, errlen, "cannot read: %s", strerror(errno));
        else stp_say(err, errlen, "it does not start with the 8-byte PNG signature: is it a PNG at all?");
        *err_offset = 0;
        fclose(f);
        return -1;
    }
    png_reader reader = { f, 8 };

    png_errbox box = { err, errlen, &reader, -1 };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &box, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        if (png) png_destroy_read_struct(&png, NULL, NULL);
        fclose(f);
        stp_say(err, errlen, "out of memory");
        return -1;
    }
    // Volatile: read after longjmp.
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        *err_offset = box.offset;
        free(pixels);
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        return -1;  // on_png_error (or the checks below) wrote the message
    }
    png_set_read_fn(png, &reader, read_counted);
    png_set_sig_bytes(png, 8);
    // libpng's own guard, at the same limit; the checks below give the clearer message.
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    // No chunk outside the image data is allocated beyond the file's own size (plus 8 MiB
    // for a compressed profile or text that inflates): a 76-byte file declaring a 2 GiB chunk
    // is refused before the 2 GiB are allocated.
    png_set_chunk_malloc_max(png, (png_alloc_size_t)file_size + (8u << 20));
    // Only IHDR, PLTE, tRNS and the image data matter here: every other chunk is skipped
    // unread. libpng allocates a text chunk's declared length whatever the limit above
    // (a 68-byte file declaring a 2 GiB tEXt took 2.1 GB before "ends early").
    static const png_byte skipped[] =
        "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0pCAL\0sCAL\0eXIf\0hIST\0sBIT\0cHRM\0gAMA\0sRGB\0bKGD\0oFFs\0pHYs\0tIME";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, skipped, (int)(sizeof skipped / 5));
    png_read_info(png, info);

    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;

    // The declared size, before a byte of pixels is allocated or decoded (IHDR's width is
    // at byte 16, its height at byte 20).
    if (width > (png_uint_32)max_side || height > (png_uint_32)max_side ||
        (unsigned long long)width * height > (unsigned long long)max_pixels) {
        stp_say(err, errlen, "declares %ux%u pixels; PNGs are read up to %dx%d and %lld pixels",
                (unsigned)width, (unsigned)height, max_side, max_side, max_pixels);
        box.offset = 16;
        png_longjmp(png, 1);
    }
    unsigned long long channels = png_get_channels(png, info);
    unsigned long long raw = (unsigned long long)height * (1 + ((unsigned long long)width * channels * bit_depth + 7) / 8);
    if (raw > (unsigned long long)file_size * STP_DEFLATE_MAX_RATIO + STP_DEFLATE_SLACK) {
        stp_say(err, errlen, "declares %ux%u pixels (%llu bytes of image data), more than a %lld-byte file "
                "can hold: truncated or corrupt", (unsigned)width, (unsigned)height, raw, file_size);
        box.offset = 16;
        png_longjmp(png, 1);
    }

    out->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;
    out->is_grey = (color_type & PNG_COLOR_MASK_COLOR) == 0;

    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_strip_16(png);
    if (out->is_grey) png_set_gray_to_rgb(png);
    if (!out->has_alpha) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        stp_say(err, errlen, "unsupported PNG layout (%d-bit, colour type %d)", bit_depth, color_type);
        box.offset = 24;
        png_longjmp(png, 1);
    }
    pixels = malloc((size_t)width * height * 4);
    rows = malloc(sizeof(png_bytep) * height);
    if (!pixels || !rows) {
        stp_say(err, errlen, "out of memory for a %ux%u image", (unsigned)width, (unsigned)height);
        png_longjmp(png, 1);
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * width * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);

    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
    out->width = (int)width;
    out->height = (int)height;
    out->rgba = pixels;
    return 0;
}

void stp_png_free(stp_png_image *image) {
    if (!image) return;
    free(image->rgba);
    image->rgba = NULL;
}

// A growing memory buffer for png_set_write_fn.
typedef struct { unsigned char *data; size_t len, cap; int failed; } png_membuf;

static void mem_write(png_structp png, png_bytep data, png_size_t len) {
    png_membuf *buf = png_get_io_ptr(png);
    if (buf->failed) return;
    if (buf->len + len > buf->cap) {
        size_t cap = buf->cap ? buf->cap : 65536;
        while (cap < buf->len + len) cap *= 2;
        unsigned char *grown = realloc(buf->data, cap);
        if (!grown) { buf->failed = 1; png_error(png, "out of memory while encoding"); return; }
        buf->data = grown;
        buf->cap = cap;
    }
    memcpy(buf->data + buf->len, data, len);
    buf->len += len;
}

static void mem_flush(png_structp png) { (void)png; }

int stp_png_encode(const unsigned char *rgba, int width, int height, int level,
                   unsigned char **out, size_t *out_len, char *err, size_t errlen) {
    return stp_png_encode_channels(rgba, width, height, 4, level, out, out_len, err, errlen);
}

int stp_png_encode_channels(const unsigned char *rgba, int width, int height, int channels, int level,
                            unsigned char **out, size_t *out_len, char *err, size_t errlen) {
    return stp_png_encode_libpng(rgba, width, height, channels, level, level <= 3, out, out_len, err, errlen);
}

int stp_png_encode_libpng(const unsigned char *rgba, int width, int height, int channels, int level, int fast,
                          unsigned char **out, size_t *out_len, char *err, size_t errlen) {
    *out = NULL;
    *out_len = 0;
    if (width <= 0 || height <= 0) { stp_say(err, errlen, "cannot encode an empty image"); return -1; }
    png_errbox box = { err, errlen, NULL, -1 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &box, on_png_error, on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        if (png) png_destroy_write_struct(&png, NULL);
        stp_say(err, errlen, "out of memory");
        return -1;
    }
    png_membuf buf = { NULL, 0, 0, 0 };
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        free(buf.data);
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, &buf, mem_write, mem_flush);
    level = level < 0 ? 0 : level > 9 ? 9 : level;
    png_set_compression_level(png, level);
    if (fast) {
        // Fast: the Sub filter and run-length deflate. Measured on a noisy 1280x720 frame:
        // ~6x faster than libpng's adaptive filters with default deflate, and no larger.
        png_set_filter(png, 0, PNG_FILTER_SUB);
        png_set_compression_strategy(png, Z_RLE);
    }
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    rows = malloc(sizeof(png_bytep) * (size_t)height);
    if (!rows) png_error(png, "out of memory");
    size_t stride = (size_t)width * (channels == 1 ? 1 : 4);
    for (int y = 0; y < height; y++) rows[y] = (png_bytep)(rgba + (size_t)y * stride);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    free(rows);
    png_destroy_write_struct(&png, &info);
    *out = buf.data;
    *out_len = buf.len;
    return 0;
}
