#ifndef STP_DEFLATE_RLE_H
#define STP_DEFLATE_RLE_H
#include <stddef.h>

// Raw deflate of `len` bytes as one dynamic Huffman block of literals and distance-1 matches
// (runs of a repeated byte), into `out`, which holds stp_deflate_rle_bound(len) bytes.
// `repeats` says when the bytes are also coded with copies from up to 32 KiB back (matches of
// four bytes or more, the longest among the `depth` newest places of their first four bytes)
// and the smaller coding kept: never, where runs left a sixteenth of the bytes or fewer as
// literals or a sample of the segment says copies would pay, or always. A `last` block ends
// the stream; any other is followed by an empty stored block, so the output ends on a byte
// boundary and the next block may be written after it by anyone.
// Returns the bytes written, 0 when out of memory.
enum { STP_REPEATS_NEVER = 0, STP_REPEATS_SAMPLED = 1, STP_REPEATS_ALWAYS = 2 };
size_t stp_deflate_rle(const unsigned char *in, size_t len, int last, unsigned char *out, int repeats, int depth);
size_t stp_deflate_rle_bound(size_t len);

#endif
