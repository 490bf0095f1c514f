/* SPDX-License-Identifier: MIT */
/* perm.c - permutation parity, counts and random permutations. */
#include "perm.h"

int
perm_parity(const uint8_t *p, int n)
{
    int inv = 0;

    /* Counting the pairs out of order, rather than cycles, needs no
     * scratch and stays defined when p is not a permutation of 0..n-1. */
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            inv += p[i] > p[j];
        }
    }
    return inv & 1;
}

uint64_t
perm_count(int n, int k)
{
    uint64_t c = 1;

    for (int i = 0; i < k; i++) {
        c *= (uint64_t)(n - i);
    }
    return c;
}

void
perm_shuffle(uint8_t *p, int n, pz_rand_fn rand, void *rng)
{
    /* The draws are exactly uniform (pz_rand_below), so each of the n!
     * orders comes out with the same probability. */
    for (int i = n - 1; i > 0; i--) {
        int j = (int)pz_rand_below(rand, rng, (uint64_t)i + 1);
        uint8_t t = p[i];

        p[i] = p[j];
        p[j] = t;
    }
}

void
perm_random(uint8_t *p, int n, pz_rand_fn rand, void *rng)
{
    /* Each step puts i at a uniform position j of 0..i, moving the value
     * there to the new end; p[i] is never read before it is written. */
    for (int i = 0; i < n; i++) {
        int j = (int)pz_rand_below(rand, rng, (uint64_t)i + 1);

        if (j != i) {
            p[i] = p[j];
        }
        p[j] = (uint8_t)i;
    }
}
