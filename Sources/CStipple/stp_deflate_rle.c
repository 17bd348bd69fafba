// A deflate encoder for filtered PNG rows: runs of a repeated byte become matches at distance
// 1 (what zlib's Z_RLE strategy finds), every other byte a literal, coded with one dynamic
// Huffman block built from the segment's own counts. The runs are found sixteen bytes a step
// and the literals between them counted (past the first 16 384, a sample of them), then the
// codes written, literals straight from the input, four to a store. Where copies from farther
// back would pay, the segment is coded a second time with them as well, and the smaller kept:
// textures and screenshots repeat at distances a run never sees, where sketches gain nothing
// from it (on a sketch frame the copies made it 14 % larger, on a textured photo 41 %
// smaller). Whether they pay is asked of a sample of the segment (stp_deflate_sample.c) where
// runs left many literals, or not at all, or taken as given (levels 2–3). The parse into
// runs, copies and literals is stp_deflate_parse.c's.
#include "stp_deflate_rle.h"
#include "stp_deflate_parse.h"
#include "stp_huffman.h"
#include "stp_scratch.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// Order of the code length code's lengths in the header.
static const uint8_t clen_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

// Bits gathered in a 64-bit word, written eight bytes at a time: `add` puts bits in, `flush`
// stores the word and moves on by its whole bytes, keeping at most seven bits. Between
// flushes up to 57 bits may be added (four literals of at most 14 bits each). The output
// needs eight bytes of room past its end (`stp_deflate_rle_bound` leaves them).
typedef struct {
    uint8_t *out;
    size_t pos;
    uint64_t bits;
    int count;
} bit_writer;

static inline void add(bit_writer *w, uint64_t value, int n) {
    w->bits |= value << w->count;
    w->count += n;
}

static inline void flush(bit_writer *w) {
    memcpy(w->out + w->pos, &w->bits, 8);  // little-endian machines (x86-64, arm64)
    w->pos += (size_t)(w->count >> 3);
    w->bits >>= w->count & ~7;
    w->count &= 7;
}

static inline void put(bit_writer *w, uint64_t value, int n) {
    add(w, value, n);
    flush(w);
}

static void flush_bytes(bit_writer *w) {
    while (w->count > 0) {
        w->out[w->pos++] = (uint8_t)w->bits;
        w->bits >>= 8;
        w->count -= 8;
    }
    w->bits = 0;
    w->count = 0;
}

size_t stp_deflate_rle_bound(size_t len) {
    // Literals of at most 14 bits each, the header, the sync flush, and the bit writer's
    // eight bytes stored past its end.
    return len * 14 / 8 + 1024;
}

// Codes `in` into `out` (copies searched `depth` places deep, or none at 0); *literals, when
// given, receives how many bytes were left as literals.
static size_t encode(const unsigned char *in, size_t len, int last, unsigned char *out, int depth, size_t *literals) {
    stp_deflate_parse_result parsed;
    if (!(parsed.runs = stp_deflate_kept_matches(len))) return 0;
    uint32_t *seen = NULL;
    if (depth && !(seen = stp_deflate_cleared_table())) return 0;
    stp_deflate_parse(in, 0, len, seen, depth, &parsed);
    const uint64_t *runs = parsed.runs;
    size_t n_runs = parsed.n_runs;
    if (literals) *literals = parsed.literals;
    const uint32_t *lit_freq = parsed.lit_freq, *dist_freq = parsed.dist_freq;

    uint8_t lit_len[286], dist_len[30];
    uint16_t lit_code[286], dist_code[30];
    // Literal and length codes of at most 14 bits (deflate allows 15), so that four literals
    // go out with one flush; only the rarest symbols of a segment could want more.
    stp_huffman_lengths(lit_freq, 286, 14, lit_len);
    stp_huffman_lengths(dist_freq, 30, 15, dist_len);
    stp_huffman_codes(lit_len, 286, lit_code);
    stp_huffman_codes(dist_len, 30, dist_code);
    int hlit = 286;
    while (hlit > 257 && !lit_len[hlit - 1]) hlit--;
    int hdist = 30;
    while (hdist > 1 && !dist_len[hdist - 1]) hdist--;

    // The code lengths of both trees, run-length coded with symbols 16, 17 and 18.
    uint8_t all[286 + 30];
    int n_all = 0;
    for (int k = 0; k < hlit; k++) all[n_all++] = lit_len[k];
    for (int k = 0; k < hdist; k++) all[n_all++] = dist_len[k];
    uint16_t cl_syms[316];
    uint8_t cl_extra[316];
    int n_cl = 0;
    uint32_t cl_freq[19] = {0};
    for (int k = 0; k < n_all;) {
        int v = all[k], run = 1;
        while (k + run < n_all && all[k + run] == v) run++;
        if (v == 0 && run >= 3) {
            int r = run > 138 ? 138 : run;
            if (r <= 10) { cl_syms[n_cl] = 17; cl_extra[n_cl++] = (uint8_t)(r - 3); }
            else { cl_syms[n_cl] = 18; cl_extra[n_cl++] = (uint8_t)(r - 11); }
            cl_freq[cl_syms[n_cl - 1]]++;
            k += r;
        } else if (v != 0 && run >= 4) {
            cl_syms[n_cl] = (uint16_t)v; cl_extra[n_cl++] = 0; cl_freq[v]++;
            int r = run - 1 > 6 ? 6 : run - 1;
            cl_syms[n_cl] = 16; cl_extra[n_cl++] = (uint8_t)(r - 3); cl_freq[16]++;
            k += 1 + r;
        } else {
            cl_syms[n_cl] = (uint16_t)v; cl_extra[n_cl++] = 0; cl_freq[v]++;
            k++;
        }
    }
    uint8_t cl_len[19];
    uint16_t cl_code[19];
    stp_huffman_lengths(cl_freq, 19, 7, cl_len);
    stp_huffman_codes(cl_len, 19, cl_code);
    int hclen = 19;
    while (hclen > 4 && !cl_len[clen_order[hclen - 1]]) hclen--;

    bit_writer w = {out, 0, 0, 0};
    put(&w, last ? 1 : 0, 1);
    put(&w, 2, 2);  // dynamic Huffman
    put(&w, (uint64_t)(hlit - 257), 5);
    put(&w, (uint64_t)(hdist - 1), 5);
    put(&w, (uint64_t)(hclen - 4), 4);
    for (int k = 0; k < hclen; k++) put(&w, cl_len[clen_order[k]], 3);
    for (int k = 0; k < n_cl; k++) {
        int s = cl_syms[k];
        put(&w, cl_code[s], cl_len[s]);
        if (s == 16) put(&w, cl_extra[k], 2);
        else if (s == 17) put(&w, cl_extra[k], 3);
        else if (s == 18) put(&w, cl_extra[k], 7);
    }
    // A literal's code and length in one word: code in the low 16 bits, length above.
    uint32_t packed[256];
    for (int k = 0; k < 256; k++) packed[k] = (uint32_t)lit_code[k] | (uint32_t)lit_len[k] << 16;
    // The literals before each run, four to a flush, then the run.
    size_t at = 0;
    for (size_t r = 0; r <= n_runs; r++) {
        size_t start = r < n_runs ? (size_t)(runs[r] >> 24) : len;
        for (; at + 4 <= start; at += 4) {
            uint32_t p0 = packed[in[at]], p1 = packed[in[at + 1]], p2 = packed[in[at + 2]], p3 = packed[in[at + 3]];
            add(&w, p0 & 0xFFFF, (int)(p0 >> 16));
            add(&w, p1 & 0xFFFF, (int)(p1 >> 16));
            add(&w, p2 & 0xFFFF, (int)(p2 >> 16));
            add(&w, p3 & 0xFFFF, (int)(p3 >> 16));
            flush(&w);
        }
        for (; at < start; at++) { uint32_t p = packed[in[at]]; put(&w, p & 0xFFFF, (int)(p >> 16)); }
        if (r == n_runs) break;
        unsigned run = (unsigned)(runs[r] & 511), c = stp_deflate_len_code[run], extra, value;
        unsigned d = stp_deflate_dist_symbol((unsigned)(runs[r] >> 9 & 0x7FFF), &extra, &value);
        add(&w, lit_code[257 + c], lit_len[257 + c]);
        put(&w, run - stp_deflate_len_base[c], stp_deflate_len_extra[c]);
        add(&w, dist_code[d], dist_len[d]);
        put(&w, value, (int)extra);
        at = start + run;
    }
    put(&w, lit_code[256], lit_len[256]);
    if (!last) {
        // A sync flush: an empty stored block, so the next segment starts on a byte.
        put(&w, 0, 3);
        flush_bytes(&w);
        out[w.pos++] = 0; out[w.pos++] = 0; out[w.pos++] = 0xFF; out[w.pos++] = 0xFF;
    } else {
        flush_bytes(&w);
    }
    return w.pos;
}

size_t stp_deflate_rle(const unsigned char *in, size_t len, int last, unsigned char *out, int repeats, int depth) {
    stp_deflate_tables();
    size_t literals = 0;
    size_t n = encode(in, len, last, out, 0, &literals);
    if (!repeats || !n) return n;
    // Copies are searched for among the literals alone: where runs left a sixteenth of the
    // bytes or fewer, coding again with them costs little, and is tried without a sample,
    // which a few slices of such a segment can misjudge (a paper ground scaled up four times,
    // 1276×956: where a segment's slices held runs alone the sample said no, yet copies of
    // earlier rows coded the image 8 % smaller).
    if (repeats == STP_REPEATS_SAMPLED && literals * 16 > len && !stp_deflate_copies_pay(in, len, depth)) return n;
    // Coded again with copies from farther back, into a buffer the thread keeps; the
    // smaller of the two is kept.
    static __thread void *kept_other;
    static __thread size_t other_cap;
    unsigned char *other = stp_scratch(&kept_other, &other_cap, stp_deflate_rle_bound(len), 0);
    if (!other) return n;
    size_t m = encode(in, len, last, other, depth, NULL);
    if (m && m < n) { memcpy(out, other, m); return m; }
    return n;
}
