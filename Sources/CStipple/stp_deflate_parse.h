#ifndef STP_DEFLATE_PARSE_H
#define STP_DEFLATE_PARSE_H
// What the deflate coder (stp_deflate_rle.c) and its sample of a segment
// (stp_deflate_sample.c) share: deflate's length tables, a segment's parse into runs, copies
// and literals, and the buffers the parse works in.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// Length codes 257..285: base length and extra bits (RFC 1951, 3.2.5); the length code
// (0..28) of each match length 3..258, made by stp_deflate_tables() before any use.
extern const uint16_t stp_deflate_len_base[29];
extern const uint8_t stp_deflate_len_extra[29];
extern uint8_t stp_deflate_len_code[259];
void stp_deflate_tables(void);

// The deflate distance code (0..29) of a distance 1..32768, its extra bits and their value.
static inline unsigned stp_deflate_dist_symbol(unsigned d, unsigned *extra, unsigned *value) {
    unsigned d1 = d - 1;
    if (d1 < 4) { *extra = 0; *value = 0; return d1; }
    unsigned nb = 31u - (unsigned)__builtin_clz(d1);
    *extra = nb - 1;
    *value = d1 & ((1u << (nb - 1)) - 1);
    return 2 * nb + ((d1 >> (nb - 1)) & 1);
}

// The table of where four bytes were last seen is indexed by a hash of them.
enum { stp_deflate_hash_bits = 14 };
static inline uint32_t stp_deflate_load32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint32_t stp_deflate_hash4(uint32_t v) { return (v * 2654435761u) >> (32 - stp_deflate_hash_bits); }

// Position j entered in the table: the newest place of its four bytes, the place they were
// seen before that kept in the chain after the table (one entry for each place in the
// window, by the place's low 15 bits).
enum { stp_deflate_chain_size = 32768 };
static inline void stp_deflate_enter(uint32_t *seen, const unsigned char *in, size_t j) {
    uint32_t h = stp_deflate_hash4(stp_deflate_load32(in + j));
    seen[((size_t)1 << stp_deflate_hash_bits) + j % stp_deflate_chain_size] = seen[h];
    seen[h] = (uint32_t)j + 1;
}

// A segment's parse: its matches (runs at distance 1 and, with a table of where four bytes
// were last seen, copies from farther back), as where each starts, its distance and its
// length, start << 24 | distance << 9 | length; every other byte is a literal. With them,
// the symbols' counts the codes are built from (past the first 16 384 literals, estimated
// from a sample of them).
typedef struct {
    uint64_t *runs;
    size_t n_runs;
    size_t literals;  // the bytes left as literals
    uint32_t lit_freq[286], dist_freq[30];
} stp_deflate_parse_result;

// Parses in[from, len), copies reaching back before `from` where `seen` says; `seen`
// (cleared by the caller, or NULL for runs alone) is the table of where four bytes were
// last seen (position + 1; 0: not yet) with its chains (`stp_deflate_enter`). A copy is
// the longest among the `depth` newest places of its four bytes (1: the newest alone, the
// fastest search). `p->runs` holds len / 3 + 1 matches: every match
// covers three bytes or more (a run after a copy needs no literal before it).
void stp_deflate_parse(const unsigned char *in, size_t from, size_t len, uint32_t *seen, int depth,
                       stp_deflate_parse_result *p);

// The matches' buffer and the table of where four bytes were last seen (with its chains
// after it), each kept by the thread (a fresh one a segment would be fresh pages, faulted
// in and zeroed every time); the table cleared, the chains not (a walk follows only places
// entered since, and stops at the window's edge). NULL when out of memory.
uint64_t *stp_deflate_kept_matches(size_t len);
uint32_t *stp_deflate_cleared_table(void);

// Whether coding the segment with copies as well would pay, judged from a sample of it
// searched `depth` places deep, as the coding would search (stp_deflate_sample.c).
int stp_deflate_copies_pay(const unsigned char *in, size_t len, int depth);

#endif
