// The fast PNG profile as independent segments (see stp_png_segment.h).
#include "stp_png_segment.h"
#include "stp_say.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int stp_png_segment_rows(int width, int channels) {
    size_t row = (size_t)width * (size_t)channels + 1;
    size_t rows = ((size_t)1 << 18) / row;
    return rows < 1 ? 1 : rows > 1 << 20 ? 1 << 20 : (int)rows;
}

// The Sub filter: each byte less the byte one pixel to its left (PNG filter type 1).
static void sub_filter(const unsigned char *in, unsigned char *out, size_t stride, int bpp) {
    out[0] = 1;
    out++;
    for (int i = 0; i < bpp && (size_t)i < stride; i++) out[i] = in[i];
    for (size_t i = (size_t)bpp; i < stride; i++) out[i] = (unsigned char)(in[i] - in[i - (size_t)bpp]);
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
    unsigned char *raw = malloc(raw_len);
    if (!raw) { stp_say(err, errlen, "out of memory"); return -1; }
    for (int y = 0; y < rows; y++) sub_filter(pixels + (size_t)y * stride, raw + (size_t)y * (stride + 1), stride, channels);

    z_stream z;
    memset(&z, 0, sizeof z);
    level = level < 0 ? 0 : level > 3 ? 3 : level;
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_RLE) != Z_OK) {
        free(raw);
        stp_say(err, errlen, "out of memory");
        return -1;
    }
    // deflateBound, plus the sync flush's empty stored block and slack.
    size_t cap = deflateBound(&z, (uLong)raw_len) + 16;
    unsigned char *data = malloc(cap);
    if (!data) {
        deflateEnd(&z);
        free(raw);
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
        free(raw);
        free(data);
        stp_say(err, errlen, "deflate failed (%d)", rc);
        return -1;
    }
    out->data = data;
    out->len = len;
    out->raw_len = raw_len;
    out->adler = adler32(adler32(0L, Z_NULL, 0), raw, (uInt)raw_len);
    out->crc = crc32(crc32(0L, (const Bytef *)"IDAT", 4), data, (uInt)len);
    free(raw);
    return 0;
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
