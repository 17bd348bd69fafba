// A segment's parse for the deflate coder: runs of a repeated byte (matches at distance 1,
// what zlib's Z_RLE strategy finds) and, on request, copies from farther back, every other
// byte a literal, with the symbols' counts the codes are built from.
#include "stp_deflate_parse.h"
#include "stp_scratch.h"

#include <stdlib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

const uint16_t stp_deflate_len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10,  11,  13,  15,  17,  19,  23, 27,
                                           31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
const uint8_t stp_deflate_len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                           3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
uint8_t stp_deflate_len_code[259];
static int tables_ready;

void stp_deflate_tables(void) {
    if (tables_ready) return;
    for (int c = 0; c < 29; c++) {
        int end = c == 28 ? 259 : stp_deflate_len_base[c + 1];
        if (c == 27) end = 258;  // 227..257 are code 27; 258 alone is code 28
        for (int l = stp_deflate_len_base[c]; l < end && l < 259; l++)
            stp_deflate_len_code[l] = (uint8_t)c;
    }
    stp_deflate_len_code[258] = 28;
    tables_ready = 1;
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

// Repeats farther back than one byte (a texture's period, a row drawn again): the literals
// between runs are searched for an earlier copy of their next bytes among the places the same
// four bytes were seen (a hash of them, and a chain from each place to the one before), the
// newest `depth` of them within deflate's window (32 KiB less a byte, so that a distance fits
// fifteen bits); the longest copy of four bytes or more is taken, the newest among equals. The
// newest place alone misses the longer copies a pattern's repeats hold farther back: in a C
// harness at level 1 (one thread), eight places (in the coding and in the sample that decides
// on it) coded ffmpeg's `cellauto` frame 26 % smaller than one did (280 093 → 206 224 bytes,
// from libpng level 1's size to 0.72 of it), `life` 14 %, `gradients` and `mandelbrot` 8 %,
// the brush-modes pictures of the docs 3.5–18 %, for 1.15–1.6 times the time on those pictures
// (3.4 on the one whose sample now calls for copies); sketches and noise kept their bytes and
// their time. One step of lazy matching (zlib's) as well saved 2 % more on two of them (7 % at
// 32 places) and cost 6–9 % on three others: not kept. Where no copy turns up the search steps
// on faster, one byte more every 64 misses (LZ4's acceleration), so that noise costs less. The
// places inside a copy of 5 to 32 bytes are entered in the table too, as zlib enters those
// inside its short matches: the next repeat often starts within one. In a C harness the
// pictures coded with copies came out up to 2.8 % smaller (ffmpeg's `cellauto` 2.6 %, from
// just above libpng level 1's size to below it; one 0.1 % larger), for up to a quarter more
// time on them (`mandelbrot`; the others 1.06 times or less); sketches kept their bytes.
// Copies of exactly four bytes are not entered: that saved up to 1.3 % more (one picture 0.5 %
// less), but it would undo the densest parse a segment can hold, which PNGEncoderTests builds
// against this table.
enum { min_match = 4, window = 32767, entered_from = 5, entered_to = 32 };
// A copy this long ends the walk (zlib's "nice" length at its level 4).
enum { good_enough = 64 };

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

// The longest earlier copy of the bytes at `k` (up to 258, and to `len`) among the places
// the same four bytes were seen, the newest first, at most `depth` of them within the
// window: its length (0 when none has four bytes) and, in *back, where it starts.
static size_t longest(const unsigned char *in, size_t k, size_t len, const uint32_t *seen, int depth, size_t *back) {
    uint32_t v = stp_deflate_load32(in + k);
    size_t c = seen[stp_deflate_hash4(v)], best = 0, max = len - k < 258 ? len - k : 258;
    const uint32_t *chain = seen + ((size_t)1 << stp_deflate_hash_bits);
    for (int tries = depth; c && k + 1 - c <= window && tries > 0; tries--) {
        size_t at = c - 1;
        // A candidate must agree on the four bytes and, to be longer, on the byte past the best.
        if (stp_deflate_load32(in + at) == v && (best < 4 || (best < max && in[at + best] == in[k + best]))) {
            size_t n = 4 + common(in + at + 4, in + k + 4, max - 4);
            if (n > best) {
                (best = n, *back = at);
                if (n >= good_enough || n == max) break;
            }
        }
        c = chain[at % stp_deflate_chain_size];
    }
    return best;
}

void stp_deflate_parse(const unsigned char *in, size_t from, size_t len, uint32_t *seen, int depth,
                       stp_deflate_parse_result *p) {
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
            size_t back, n = longest(in, k, len, seen, depth, &back);
            stp_deflate_enter(seen, in, k);
            if (n >= min_match) {
                count_literals(in, literal, k, lit4, &literals);
                unsigned extra, value, d = (unsigned)(k - back);
                runs[n_runs++] = (uint64_t)k << 24 | (uint64_t)d << 9 | n;
                lit_freq[257 + stp_deflate_len_code[n]]++;
                dist_freq[stp_deflate_dist_symbol(d, &extra, &value)]++;
                if (n >= entered_from && n <= entered_to)
                    for (size_t j = k + 1; j < k + n && j + 4 <= len; j++) stp_deflate_enter(seen, in, j);
                k += n;
                literal = k;
                misses = 0;
                continue;
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
        lit_freq[257 + stp_deflate_len_code[run]]++;
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
    p->literals = literals;
}

uint64_t *stp_deflate_kept_matches(size_t len) {
    static __thread void *kept;
    static __thread size_t kept_cap;
    return stp_scratch(&kept, &kept_cap, (len / 3 + 1) * sizeof(uint64_t), (size_t)1 << 19);
}

uint32_t *stp_deflate_cleared_table(void) {
    static __thread void *kept_seen;
    static __thread size_t seen_cap;
    uint32_t *seen = stp_scratch(&kept_seen, &seen_cap, sizeof *seen * (((size_t)1 << stp_deflate_hash_bits) + stp_deflate_chain_size), 0);
    if (seen) memset(seen, 0, sizeof *seen << stp_deflate_hash_bits);
    return seen;
}

