// The fast PNG profile as independent segments (see stp_png_segment.h).
#include "stp_png_segment.h"
#include "stp_deflate_rle.h"
#include "stp_say.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int stp_png_segment_rows(int width, int channels) {
    size_t row = (size_t)width * (size_t)channels + 1;
    size_t rows = ((size_t)1 << 18) / row;
    return rows < 1 ? 1 : rows > 1 << 20 ? 1 << 20 : (int)rows;
}

// One row filtered by whichever of None, Sub and Up (PNG filter types 0, 1, 2) gives the
// smallest sum of the bytes taken as signed, libpng's heuristic; `prev` is the row above,
// NULL for a segment's first row (which then never uses Up, so that a segment depends on its
// own rows alone).
static inline unsigned absb(unsigned char v) { return v < 128 ? v : 256u - v; }

static void filter_row(const unsigned char *in, const unsigned char *prev, unsigned char *out, size_t stride, int bpp) {
    size_t b = (size_t)bpp < stride ? (size_t)bpp : stride;
    // Branch-free loops over the row, so that the compiler vectorises them.
    unsigned none = 0, sub = 0, up = 0;
    for (size_t i = 0; i < stride; i++) none += absb(in[i]);
    for (size_t i = 0; i < b; i++) sub += absb(in[i]);
    for (size_t i = b; i < stride; i++) sub += absb((unsigned char)(in[i] - in[i - b]));
    if (prev) for (size_t i = 0; i < stride; i++) up += absb((unsigned char)(in[i] - prev[i]));
    int type = sub < none ? 1 : 0;
    if (prev && up < (type == 1 ? sub : none)) type = 2;
    out[0] = (unsigned char)type;
    out++;
    switch (type) {
    case 0: memcpy(out, in, stride); break;
    case 1:
        memcpy(out, in, b);
        for (size_t i = b; i < stride; i++) out[i] = (unsigned char)(in[i] - in[i - b]);
        break;
    default:
        for (size_t i = 0; i < stride; i++) out[i] = (unsigned char)(in[i] - prev[i]);
    }
}

// A finished segment: its coded bytes (owned by `out` from now), the Adler-32 of its filtered
// rows and its chunk's CRC.
static int deliver(stp_png_segment *out, unsigned char *data, size_t len, const unsigned char *raw, size_t raw_len) {
    out->data = data;
    out->len = len;
    out->raw_len = raw_len;
    out->adler = adler32(adler32(0L, Z_NULL, 0), raw, (uInt)raw_len);
    out->crc = crc32(crc32(0L, (const Bytef *)"IDAT", 4), data, (uInt)len);
    return 0;
}

int stp_png_segment_encode(const unsigned char *pixels, int width, int channels, int rows, int last, int level,
                           stp_png_segment *out, char *err, size_t errlen) {
    memset(out, 0, sizeof *out);
    if (width <= 0 || rows <= 0 || (channels != 1 && channels != 4)) {
        stp_say(err, errlen, "cannot encode an empty segment");
        return -1;
    }
    size_t stride = (size_t)width * (size_t)channels;
    size_t raw_len = (stride + 1) * (size_t)rows;
    // The filtered rows, in a buffer each thread keeps (fresh pages a segment cost more than the filter).
    static __thread unsigned char *kept;
    static __thread size_t kept_cap;
    if (kept_cap < raw_len) {
        free(kept);
        kept_cap = raw_len > (size_t)1 << 18 ? raw_len : (size_t)1 << 18;
        kept = malloc(kept_cap);
        if (!kept) { kept_cap = 0; stp_say(err, errlen, "out of memory"); return -1; }
    }
    unsigned char *raw = kept;
    for (int y = 0; y < rows; y++) {
        const unsigned char *row = pixels + (size_t)y * stride;
        filter_row(row, y > 0 ? row - stride : NULL, raw + (size_t)y * (stride + 1), stride, channels);
    }

    level = level < 0 ? 0 : level > 3 ? 3 : level;
    if (level > 0) {
        // Runs and literals in one Huffman block of the segment's own counts, coded into a
        // buffer the thread keeps and copied out at its size.
        static __thread unsigned char *coded;
        static __thread size_t coded_cap;
        size_t bound = stp_deflate_rle_bound(raw_len);
        if (coded_cap < bound) {
            free(coded);
            coded_cap = bound;
            coded = malloc(coded_cap);
            if (!coded) { coded_cap = 0; stp_say(err, errlen, "out of memory"); return -1; }
        }
        size_t len = stp_deflate_rle(raw, raw_len, last, coded);
        unsigned char *data = len ? malloc(len) : NULL;
        if (!data) {
            stp_say(err, errlen, "out of memory");
            return -1;
        }
        memcpy(data, coded, len);
        return deliver(out, data, len, raw, raw_len);
    }
    // Level 0: stored blocks, through zlib.
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_RLE) != Z_OK) {
        stp_say(err, errlen, "out of memory");
        return -1;
    }
    // deflateBound, plus the sync flush's empty stored block and slack.
    size_t cap = deflateBound(&z, (uLong)raw_len) + 16;
    unsigned char *data = malloc(cap);
    if (!data) {
        deflateEnd(&z);
        stp_say(err, errlen, "out of memory");
        return -1;
    }
    z.next_in = raw;
    z.avail_in = (uInt)raw_len;
    z.next_out = data;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
    int complete = last ? rc == Z_STREAM_END : (rc == Z_OK && z.avail_in == 0 && z.avail_out > 0);
    size_t len = cap - z.avail_out;
    deflateEnd(&z);
    if (!complete) {
        free(data);
        stp_say(err, errlen, "deflate failed (%d)", rc);
        return -1;
    }
    return deliver(out, data, len, raw, raw_len);
}

void stp_png_segment_free(stp_png_segment *segment) {
    if (!segment) return;
    free(segment->data);
    segment->data = NULL;
    segment->len = 0;
}

unsigned long stp_adler32_combine(unsigned long a, unsigned long b, size_t len_b) {
    return adler32_combine(a, b, (z_off_t)len_b);
}

unsigned long stp_crc32(unsigned long crc, const unsigned char *data, size_t len) {
    return crc32(crc, data, (uInt)len);
}
