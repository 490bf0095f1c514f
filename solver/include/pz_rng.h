/* SPDX-License-Identifier: MIT */
/* pz_rng.h - the seeded random source of scrambles, random states and tests.
 */
#ifndef PZ_SOLVER_PZ_RNG_H
#define PZ_SOLVER_PZ_RNG_H

#include <stdint.h>

/* Source of random 64-bit words for scrambles and random states. */
typedef uint64_t (*pz_rand_fn)(void *rng);

/* Splitmix64 / xoshiro-style generator for scrambles and tests. */
typedef struct pz_rng {
    uint64_t s[4];
} pz_rng_t;

/* Seeds r deterministically from seed. Thread: any (r is the caller's). */
void pz_rng_seed(pz_rng_t *r, uint64_t seed);

/* Next word of r (r is a pz_rng_t *). Matches pz_rand_fn. Thread: any. */
uint64_t pz_rng_next(void *r);

/* Uniform integer in 0..n-1 (n >= 1) from rand, which is called with rng
 * (borrowed) at least once. Thread: any. */
uint64_t pz_rand_below(pz_rand_fn rand, void *rng, uint64_t n);

#endif
