// Huffman codes for deflate (see stp_huffman.h).
#include "stp_huffman.h"

#include <string.h>

// Code lengths (at most `limit` bits) for `n` symbols with counts `freq`, as miniz does:
// Huffman lengths by the two-queue method, then the deepest codes moved up until the
// Kraft sum is 1 again.
void stp_huffman_lengths(const uint32_t *freq, int n, int limit, uint8_t *lengths) {
    int order[288];
    uint32_t weight[2 * 288];
    int parent[2 * 288];
    int used = 0;
    memset(lengths, 0, (size_t)n);
    for (int i = 0; i < n; i++) if (freq[i]) order[used++] = i;
    if (used == 0) return;
    if (used == 1) { lengths[order[0]] = 1; return; }
    // Sort the used symbols by count, equal counts in symbol order: a radix sort, a byte of
    // the count a pass from the lowest, as many passes as the largest count has bytes.
    uint32_t bits = 0;
    for (int i = 0; i < used; i++) bits |= freq[order[i]];
    for (int shift = 0; shift < 32 && (bits >> shift); shift += 8) {
        int start[257] = {0}, sorted[288];
        for (int i = 0; i < used; i++) start[(freq[order[i]] >> shift & 255) + 1]++;
        for (int b = 1; b < 257; b++) start[b] += start[b - 1];
        for (int i = 0; i < used; i++) sorted[start[freq[order[i]] >> shift & 255]++] = order[i];
        memcpy(order, sorted, (size_t)used * sizeof *order);
    }
    for (int i = 0; i < used; i++) weight[i] = freq[order[i]];
    // Two queues: leaves (sorted) and internal nodes (made in increasing weight).
    int leaf = 0, node = used, next_node = used;
    for (int k = 0; k < used - 1; k++) {
        int pick[2];
        for (int t = 0; t < 2; t++) {
            if (leaf < used && (node >= next_node || weight[leaf] <= weight[node])) pick[t] = leaf++;
            else pick[t] = node++;
        }
        weight[next_node] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = parent[pick[1]] = next_node;
        next_node++;
    }
    // Depths: the root is the last node.
    int depth[2 * 288];
    depth[next_node - 1] = 0;
    for (int i = next_node - 2; i >= 0; i--) depth[i] = depth[parent[i]] + 1;
    int count_at[33] = {0};
    for (int i = 0; i < used; i++) count_at[depth[i] > 32 ? 32 : depth[i]]++;
    for (int i = limit + 1; i <= 32; i++) { count_at[limit] += count_at[i]; count_at[i] = 0; }
    uint32_t total = 0;
    for (int i = limit; i > 0; i--) total += (uint32_t)count_at[i] << (limit - i);
    while (total != (1u << limit)) {
        count_at[limit]--;
        for (int i = limit - 1; i > 0; i--) {
            if (count_at[i]) { count_at[i]--; count_at[i + 1] += 2; break; }
        }
        total--;
    }
    // The rarest symbols get the longest codes.
    int s = 0;
    for (int len = limit; len > 0; len--)
        for (int k = 0; k < count_at[len]; k++) lengths[order[s++]] = (uint8_t)len;
}

// Canonical codes for `lengths`, bit-reversed for deflate's LSB-first order.
void stp_huffman_codes(const uint8_t *lengths, int n, uint16_t *codes) {
    int bl_count[16] = {0}, next[16] = {0};
    for (int i = 0; i < n; i++) bl_count[lengths[i]]++;
    bl_count[0] = 0;
    int code = 0;
    for (int b = 1; b < 16; b++) { code = (code + bl_count[b - 1]) << 1; next[b] = code; }
    for (int i = 0; i < n; i++) {
        int len = lengths[i];
        if (!len) { codes[i] = 0; continue; }
        unsigned c = (unsigned)next[len]++, r = 0;
        for (int k = 0; k < len; k++) { r = (r << 1) | (c & 1); c >>= 1; }
        codes[i] = (uint16_t)r;
    }
}
