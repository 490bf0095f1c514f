/* SPDX-License-Identifier: MIT */
/* state.h - the fixed-size puzzle state value engines copy, hash and compare.
 */
#ifndef PZ_SOLVER_STATE_H
#define PZ_SOLVER_STATE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Large enough for an 8x8 sliding-tile board plus its blank index (65 bytes)
 * and for every cube and pyraminx encoding. A multiple of 16 so copies stay
 * aligned and whole-word hashing never reads past the struct.
 */
#define PZ_STATE_MAX 80

/* A puzzle state. Bytes at and past the puzzle's state_size are always zero,
 * so two states are equal exactly when their first state_size bytes are. */
typedef struct pz_state {
    uint8_t b[PZ_STATE_MAX];
} pz_state_t;

/* Sets every byte of s to zero. */
static inline void
state_clear(pz_state_t *s)
{
    memset(s->b, 0, sizeof(s->b));
}

/* True when the first size bytes of a and b are equal. */
static inline int
state_equal(const pz_state_t *a, const pz_state_t *b, size_t size)
{
    return memcmp(a->b, b->b, size) == 0;
}

/* 64-bit hash of len bytes of p, read one at a time (no padding needed):
 * for keys packed back to back (the reachability and pattern-database
 * sets of move subsets and masked goals). */
static inline uint64_t
state_hash_packed(const uint8_t *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325u;

    for (size_t i = 0; i < len; i++) {
        h = (h ^ p[i]) * 0x100000001b3u;
    }
    return h ^ h >> 29;
}

/*
 * 64-bit hash of the first size bytes of p (size <= PZ_STATE_MAX). Words are
 * read whole; the caller guarantees the bytes up to the next multiple of 8
 * are readable and zero past size (true for pz_state_t and node pools that
 * store states padded to 8 bytes).
 */
static inline uint64_t
state_hash_bytes(const uint8_t *p, size_t size)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ size;

    for (size_t i = 0; i < size; i += 8) {
        uint64_t w;

        memcpy(&w, p + i, 8);
        h ^= w;
        h *= 0xbf58476d1ce4e5b9u;
        h ^= h >> 31;
    }
    h *= 0x94d049bb133111ebu;
    h ^= h >> 29;
    return h;
}

#endif
