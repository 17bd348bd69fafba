// A deflate encoder for filtered PNG rows: runs of a repeated byte become matches at
// distance 1 (what zlib's Z_RLE strategy finds), every other byte a literal, coded with one
// dynamic Huffman block built from the segment's own counts. No hash chains and no lazy
// matching: the runs found sixteen bytes a step and the literals between them counted (past
// the first 16 384, a sample of them), then the codes written, literals straight from the
// input, four to a store. Where copies from farther back would pay, the segment is coded a
// second time with them as well, and the smaller kept: textures and screenshots repeat at
// distances a run never sees, where sketches gain nothing from it (on a sketch frame the
// copies made it 14 % larger, on a textured photo 41 % smaller). Whether they pay is asked
// of a sample of the segment (`copies_pay`), or not at all, or taken as given (levels 2–3).
#include "stp_deflate_rle.h"
#include "stp_huffman.h"
#include "stp_scratch.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Length codes 257..285: base length and extra bits (RFC 1951, 3.2.5).
static const uint16_t len_base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                      35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                      3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
// Order of the code length code's lengths in the header.
static const uint8_t clen_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

// The length code (0..28) of each match length 3..258.
static uint8_t len_code[259];
static int tables_ready;

static void init_tables(void) {
    if (tables_ready) return;
    for (int c = 0; c < 29; c++) {
        int end = c == 28 ? 259 : len_base[c + 1];
        if (c == 27) end = 258;  // 227..257 are code 27; 258 alone is code 28
        for (int l = len_base[c]; l < end && l < 259; l++) len_code[l] = (uint8_t)c;
    }
    len_code[258] = 28;
    tables_ready = 1;
}

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

// The next run at or after `i` (1 ≤ i): the first position where in[i − 1] and the three
// bytes from i are one byte, with i + 2 < len (zlib's Z_RLE: a match at distance 1 of at
// least three bytes). Sixteen positions at a time: four loads a byte apart compared.
static size_t next_run(const unsigned char *in, size_t len, size_t i) {
#if defined(__SSE2__)
    while (i + 18 <= len) {
        const unsigned char *p = in + i - 1;
        __m128i v0 = _mm_loadu_si128((const __m128i *)p), v1 = _mm_loadu_si128((const __m128i *)(p + 1));
        __m128i v2 = _mm_loadu_si128((const __m128i *)(p + 2)), v3 = _mm_loadu_si128((const __m128i *)(p + 3));
        __m128i eq = _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(v0, v1), _mm_cmpeq_epi8(v0, v2)), _mm_cmpeq_epi8(v0, v3));
        unsigned mask = (unsigned)_mm_movemask_epi8(eq);
        if (mask) return i + (size_t)__builtin_ctz(mask);
        i += 16;
    }
#endif
    for (; i + 2 < len; i++) {
        unsigned char b = in[i - 1];
        if (in[i] == b && in[i + 1] == b && in[i + 2] == b) return i;
    }
    return len;
}

// How many bytes from `i` equal `b`, at most `max`.
static size_t run_length(const unsigned char *in, size_t i, size_t max, unsigned char b) {
    size_t run = 0;
#if defined(__SSE2__)
    __m128i v = _mm_set1_epi8((char)b);
    while (run + 16 <= max) {
        unsigned ne = 0xFFFFu & ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(in + i + run)), v));
        if (ne) return run + (size_t)__builtin_ctz(ne);
        run += 16;
    }
#endif
    while (run < max && in[i + run] == b) run++;
    return run;
}

// The deflate distance code (0..29) of a distance 1..32768, its extra bits and their value.
static inline unsigned dist_symbol(unsigned d, unsigned *extra, unsigned *value) {
    unsigned d1 = d - 1;
    if (d1 < 4) { *extra = 0; *value = 0; return d1; }
    unsigned nb = 31u - (unsigned)__builtin_clz(d1);
    *extra = nb - 1;
    *value = d1 & ((1u << (nb - 1)) - 1);
    return 2 * nb + ((d1 >> (nb - 1)) & 1);
}

// Repeats farther back than one byte (a texture's period, a row drawn again): the literals
// between runs are searched for an earlier copy of their next bytes, one candidate each,
// the last place the same four bytes were seen (a hash of them), within deflate's window
// (32 KiB less a byte, so that a distance fits fifteen bits); copies of four bytes or more
// are taken. Where no copy turns up the search steps on faster, one byte more every 64
// misses (LZ4's acceleration), so that noise costs less.
enum { hash_bits = 14, min_match = 4, window = 32767 };

static inline uint32_t load32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint32_t hash4(uint32_t v) { return (v * 2654435761u) >> (32 - hash_bits); }

// How many bytes from `a` and `b` agree, at most `max`.
static size_t common(const unsigned char *a, const unsigned char *b, size_t max) {
    size_t n = 0;
    while (n + 8 <= max) {
        uint64_t x, y;
        memcpy(&x, a + n, 8); memcpy(&y, b + n, 8);
        if (x != y) return n + (size_t)(__builtin_ctzll(x ^ y) >> 3);
        n += 8;
    }
    while (n < max && a[n] == b[n]) n++;
    return n;
}

// Literals [from, to) counted into four tables in turn (so that repeated bytes do not wait on
// one counter): whole while fewer than `counted_whole` have been counted (`*literals` so far),
// then four bytes of every sixteen, each weighing four (every channel of a pixel still
// sampled, a filter byte shifting them a row at a time).
enum { counted_whole = 16384 };
static void count_literals(const unsigned char *in, size_t from, size_t to, uint32_t lit4[4][256], size_t *literals) {
    size_t k = from, done = *literals;
    size_t whole = done >= counted_whole ? k : to - k > counted_whole - done ? k + (counted_whole - done) : to;
    for (; k + 4 <= whole; k += 4) {
        lit4[0][in[k]]++; lit4[1][in[k + 1]]++; lit4[2][in[k + 2]]++; lit4[3][in[k + 3]]++;
    }
    for (; k < whole; k++) lit4[0][in[k]]++;
    for (; k + 16 <= to; k += 16) {
        lit4[0][in[k]] += 4; lit4[1][in[k + 1]] += 4; lit4[2][in[k + 2]] += 4; lit4[3][in[k + 3]] += 4;
    }
    for (; k < to; k++) lit4[0][in[k]]++;
    *literals = done + (to - from);
}

// A segment's parse: its matches (runs at distance 1 and, with a table of where four bytes
// were last seen, copies from farther back), as where each starts, its distance and its
// length, start << 24 | distance << 9 | length; every other byte is a literal. With them,
// the symbols' counts the codes are built from (the literals' estimated: `count_literals`).
typedef struct {
    uint64_t *runs;
    size_t n_runs;
    uint32_t lit_freq[286], dist_freq[30];
} parse_result;

// Parses `in`; `seen` (cleared by the caller, or NULL for runs alone) is the table of where
// four bytes were last seen (position + 1; 0: not yet). `p->runs` holds len / 3 + 1 matches:
// every match covers three bytes or more (a run after a copy needs no literal before it).
static void parse(const unsigned char *in, size_t from, size_t len, uint32_t *seen, parse_result *p) {
    uint64_t *runs = p->runs;
    size_t n_runs = 0;
    uint32_t *lit_freq = p->lit_freq, *dist_freq = p->dist_freq;
    memset(p->lit_freq, 0, sizeof p->lit_freq);
    memset(p->dist_freq, 0, sizeof p->dist_freq);
    // The literals' counts (`count_literals`); a match's bytes are never counted. The codes
    // are built from those estimates, and every byte value gets one, seen in the sample or not.
    uint32_t lit4[4][256];
    memset(lit4, 0, sizeof lit4);
    size_t literals = 0;
    size_t literal = from;  // where the literals since the last match begin
    for (size_t i = from + 1 < len ? next_run(in, len, from + 1) : len;;) {
        size_t end = i < len ? i : len;
        // Copies from farther back among the literals before the run at `i`.
        size_t k = literal, misses = 0;
        while (seen && k + min_match <= end) {
            uint32_t v = load32(in + k), h = hash4(v);
            size_t c = seen[h];
            seen[h] = (uint32_t)k + 1;
            if (c && k + 1 - c <= window && load32(in + c - 1) == v) {
                size_t from = c - 1, max = len - k < 258 ? len - k : 258;
                size_t n = 4 + common(in + from + 4, in + k + 4, max - 4);
                if (n >= min_match) {
                    count_literals(in, literal, k, lit4, &literals);
                    unsigned extra, value, d = (unsigned)(k - from);
                    runs[n_runs++] = (uint64_t)k << 24 | (uint64_t)d << 9 | n;
                    lit_freq[257 + len_code[n]]++;
                    dist_freq[dist_symbol(d, &extra, &value)]++;
                    k += n;
                    literal = k;
                    misses = 0;
                    continue;
                }
            }
            k += 1 + (misses++ >> 6);
        }
        if (literal > i) {
            // A copy ran past the run: look for the next one after it.
            i = literal < len ? next_run(in, len, literal) : len;
            continue;
        }
        count_literals(in, literal, end, lit4, &literals);
        if (i >= len) break;
        unsigned char b = in[i - 1];
        size_t max = len - i < 258 ? len - i : 258;
        size_t run = 3 + run_length(in, i + 3, max - 3, b);
        runs[n_runs++] = (uint64_t)i << 24 | 1u << 9 | run;
        lit_freq[257 + len_code[run]]++;
        dist_freq[0]++;
        i += run;
        literal = i;
        i = next_run(in, len, i);
    }
    for (int k = 0; k < 256; k++) {
        lit_freq[k] = lit4[0][k] + lit4[1][k] + lit4[2][k] + lit4[3][k];
        if (literals > counted_whole && !lit_freq[k]) lit_freq[k] = 1;  // a byte the sample missed
    }
    lit_freq[256] = 1;
    if (!dist_freq[0]) dist_freq[0] = 1;  // one distance code, one bit, even when unused
    p->n_runs = n_runs;
}

// The matches' buffer and the table of where four bytes were last seen, each kept by the
// thread (a fresh one a segment would be fresh pages, faulted in and zeroed every time);
// the table cleared. NULL when out of memory.
static uint64_t *kept_runs(size_t len) {
    static __thread void *kept;
    static __thread size_t kept_cap;
    return stp_scratch(&kept, &kept_cap, (len / 3 + 1) * sizeof(uint64_t), (size_t)1 << 19);
}

static uint32_t *cleared_table(void) {
    static __thread void *kept_seen;
    static __thread size_t seen_cap;
    uint32_t *seen = stp_scratch(&kept_seen, &seen_cap, sizeof *seen << hash_bits, 0);
    if (seen) memset(seen, 0, sizeof *seen << hash_bits);
    return seen;
}

static size_t encode(const unsigned char *in, size_t len, int last, unsigned char *out, int repeats) {
    parse_result p;
    if (!(p.runs = kept_runs(len))) return 0;
    uint32_t *seen = NULL;
    if (repeats && !(seen = cleared_table())) return 0;
    parse(in, 0, len, seen, &p);
    const uint64_t *runs = p.runs;
    size_t n_runs = p.n_runs;
    const uint32_t *lit_freq = p.lit_freq, *dist_freq = p.dist_freq;


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
        unsigned run = (unsigned)(runs[r] & 511), c = len_code[run], extra, value;
        unsigned d = dist_symbol((unsigned)(runs[r] >> 9 & 0x7FFF), &extra, &value);
        add(&w, lit_code[257 + c], lit_len[257 + c]);
        put(&w, run - len_base[c], len_extra[c]);
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

// Whether copies would pay in a segment, judged from a sample before coding it twice: two
// slices of 4 KiB, at a quarter and three quarters of the way, each parsed with runs alone
// and with copies as well (the table of where four bytes were seen first filled from the
// 8 KiB before the slice, every other position, as if the parse had come that way); the
// slices' symbols costed in codes built from their counts, each way. Copies pay where they
// save a twentieth. Measured on sketch frames, textures, screenshots and generated video (a
// C harness, 28 pictures): of what coding every segment twice saves, the sample found 0.77
// on average over the 20 pictures with something to gain (0.997 of the bytes), for 1.1–1.3
// times the time on sketches, where it never fired. Segments under 16 KiB are not sampled:
// the slices would be most of them.
enum { probe_slice = 4096, probe_slices = 2, probe_history = 8192, probe_least = 1 << 14 };

// The slices' symbols counted one way (runs alone, or with copies), and the extra bits of
// their matches.
typedef struct {
    uint32_t lit_freq[286], dist_freq[30];
    double extra_bits;
} sample_counts;

static void add_parse(sample_counts *c, const parse_result *p) {
    for (int k = 0; k < 286; k++) c->lit_freq[k] += p->lit_freq[k];
    for (int k = 0; k < 30; k++) c->dist_freq[k] += p->dist_freq[k];
    for (size_t r = 0; r < p->n_runs; r++) {
        unsigned extra, value;
        dist_symbol((unsigned)(p->runs[r] >> 9 & 0x7FFF), &extra, &value);
        c->extra_bits += len_extra[len_code[p->runs[r] & 511]] + extra;
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

static int copies_pay(const unsigned char *in, size_t len) {
    if (len < probe_least) return 0;
    parse_result p;
    if (!(p.runs = kept_runs(len))) return 0;
    sample_counts runs_only, copies;
    memset(&runs_only, 0, sizeof runs_only);
    memset(&copies, 0, sizeof copies);
    for (int k = 0; k < probe_slices; k++) {
        size_t at = (len - probe_slice) * (size_t)(2 * k + 1) / (2 * probe_slices);
        parse(in, at, at + probe_slice, NULL, &p);
        add_parse(&runs_only, &p);
        uint32_t *seen = cleared_table();
        if (!seen) return 0;
        for (size_t j = at > probe_history ? at - probe_history : 0; j < at; j += 2) seen[hash4(load32(in + j))] = (uint32_t)j + 1;
        parse(in, at, at + probe_slice, seen, &p);
        add_parse(&copies, &p);
    }
    return sample_bits(&copies) < sample_bits(&runs_only) * 0.95;
}

size_t stp_deflate_rle(const unsigned char *in, size_t len, int last, unsigned char *out, int repeats) {
    init_tables();
    size_t n = encode(in, len, last, out, 0);
    if (!repeats || !n) return n;
    if (repeats == STP_REPEATS_SAMPLED && !copies_pay(in, len)) return n;
    // Coded again with copies from farther back, into a buffer the thread keeps; the
    // smaller of the two is kept.
    static __thread void *kept_other;
    static __thread size_t other_cap;
    unsigned char *other = stp_scratch(&kept_other, &other_cap, stp_deflate_rle_bound(len), 0);
    if (!other) return n;
    size_t m = encode(in, len, last, other, 1);
    if (m && m < n) { memcpy(out, other, m); return m; }
    return n;
}
