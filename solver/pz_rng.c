/* SPDX-License-Identifier: MIT */
/* pz_rng.c - xoshiro256** seeded by splitmix64, and exact uniform draws. */
#include "pz_rng.h"

static uint64_t
splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void
pz_rng_seed(pz_rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        r->s[i] = splitmix64(&seed);
    }
}

static uint64_t
rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t
pz_rng_next(void *rng)
{
    /* xoshiro256** (Blackman and Vigna, 2018). */
    uint64_t *s = ((pz_rng_t *)rng)->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t
pz_rand_below(pz_rand_fn rand, void *rng, uint64_t n)
{
    /* Rejection sampling keeps the draw exactly uniform. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;

    do {
        x = rand(rng);
    } while (x >= limit);
    return x % n;
}
