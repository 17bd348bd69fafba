#ifndef STP_HUFFMAN_H
#define STP_HUFFMAN_H
#include <stdint.h>

// Code lengths of at most `limit` bits for `n` symbols (n ≤ 288) with counts `freq`; a
// symbol never seen gets none (length 0), and a lone symbol one bit.
void stp_huffman_lengths(const uint32_t *freq, int n, int limit, uint8_t *lengths);

// Canonical codes for `lengths` (RFC 1951, 3.2.2), bit-reversed for deflate's LSB-first order.
void stp_huffman_codes(const uint8_t *lengths, int n, uint16_t *codes);

#endif
