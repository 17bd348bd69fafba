// Whether copies would pay in a segment, judged from a sample before coding it twice: two
// slices of 4 KiB, at a quarter and three quarters of the way, each parsed with runs alone and
// with copies as well (the table of where four bytes were last seen filled first from the 8
// KiB before the slice, every other position, as if the parse had come that way); the slices'
// symbols costed in codes built from their counts, each way. Copies pay where they save a
// twentieth. Measured on sketch frames, textures, screenshots and generated video (a C
// harness, 28 pictures): of what coding every segment twice saves, the sample found 0.77 on
// average over the 20 pictures with something to gain (0.997 of the bytes). Of seven sketches
// on a plain ground it fired on one (hard strokes on white, 1 % smaller); the six others kept
// their bytes, at 1.17–1.33 times the time. The slices are searched as deep as the coding
// would search: searched one place deep while the coding searched eight, it missed what copies
// save on ffmpeg's `gradients` frame (coded 9 % larger: 218 609 bytes against 200 865), a
// brush-modes picture of the docs (23 %) and two others (2.4–2.6 %); sketches and noise took
// the same time either way. Segments under 16 KiB are not sampled: the slices would be most of
// them.
#include "stp_deflate_parse.h"
#include "stp_huffman.h"

enum { sample_slice = 4096, sample_slices = 2, sample_history = 8192, sample_least = 1 << 14 };

// The slices' symbols counted one way (runs alone, or with copies), and the extra bits of
// their matches.
typedef struct {
    uint32_t lit_freq[286], dist_freq[30];
    double extra_bits;
} sample_counts;

static void add_parse(sample_counts *c, const stp_deflate_parse_result *p) {
    for (int k = 0; k < 286; k++) c->lit_freq[k] += p->lit_freq[k];
    for (int k = 0; k < 30; k++) c->dist_freq[k] += p->dist_freq[k];
    for (size_t r = 0; r < p->n_runs; r++) {
        unsigned extra, value;
        stp_deflate_dist_symbol((unsigned)(p->runs[r] >> 9 & 0x7FFF), &extra, &value);
        c->extra_bits += stp_deflate_len_extra[stp_deflate_len_code[p->runs[r] & 511]] + extra;
    }
}

// The bits the symbols would take in codes built from their own counts (the header left out).
static double sample_bits(const sample_counts *c) {
    uint8_t lit_len[286], dist_len[30];
    stp_huffman_lengths(c->lit_freq, 286, 14, lit_len);
    stp_huffman_lengths(c->dist_freq, 30, 15, dist_len);
    double bits = c->extra_bits;
    for (int k = 0; k < 286; k++) bits += (double)c->lit_freq[k] * lit_len[k];
    for (int k = 0; k < 30; k++) bits += (double)c->dist_freq[k] * dist_len[k];
    return bits;
}

int stp_deflate_copies_pay(const unsigned char *in, size_t len, int depth) {
    if (len < sample_least) return 0;
    stp_deflate_parse_result p;
    if (!(p.runs = stp_deflate_kept_matches(len))) return 0;
    sample_counts runs_only, copies;
    memset(&runs_only, 0, sizeof runs_only);
    memset(&copies, 0, sizeof copies);
    for (int k = 0; k < sample_slices; k++) {
        size_t at = (len - sample_slice) * (size_t)(2 * k + 1) / (2 * sample_slices);
        stp_deflate_parse(in, at, at + sample_slice, NULL, 0, &p);
        add_parse(&runs_only, &p);
        uint32_t *seen = stp_deflate_cleared_table();
        if (!seen) return 0;
        for (size_t j = at > sample_history ? at - sample_history : 0; j < at; j += 2)
            stp_deflate_enter(seen, in, j);
        stp_deflate_parse(in, at, at + sample_slice, seen, depth, &p);
        add_parse(&copies, &p);
    }
    return sample_bits(&copies) < sample_bits(&runs_only) * 0.95;
}

