/* SPDX-License-Identifier: MIT */
/* perm.h - permutations: Lehmer ranks, partial and even ranks, parity and
 * shuffles, shared by the puzzles. */
#ifndef PZ_SOLVER_PERM_H
#define PZ_SOLVER_PERM_H

#include <stdint.h>

#include "pz_rng.h"

/*
 * A permutation of n is an array p[0..n) holding each of 0..n-1 once; what
 * p[i] means (the piece in slot i, the slot of piece i) is the caller's.
 * A k-permutation of n (0 <= k <= n) is p[0..k) holding k distinct values
 * of 0..n-1: the ordered choice of k of them.
 *
 * Ranks are lexicographic. The rank of a k-permutation is the mixed-radix
 * number whose digit i, in radix n - i, counts the values below p[i] that
 * p[0..i) has not used; with k = n it is the Lehmer code, the identity
 * ranks 0 and the reversal n! - 1. The digits of a Lehmer code add up to
 * the permutation's inversions, so the code's last free digit (radix 2)
 * is its parity given the others: the even permutations are ranked by the
 * Lehmer rank halved, 0 .. n!/2 - 1 for n >= 2.
 *
 * The rank functions are inline: the complete tables and the pattern
 * databases rank a state at every lookup and unrank one per state built.
 * Values must be below PERM_MAX (they index a 64-bit mask), and the caller
 * keeps n!/(n-k)! below 2^64 (n <= 20 for whole permutations). Every
 * function is Thread: any; the arrays are borrowed.
 */

/* Values are below this (64-bit masks of used values). */
#define PERM_MAX 64

/* The set bits of x (__builtin_popcountll is a library call on baseline
 * x86-64, and ranks and table builds are inner loops). */
static inline int
perm_bits(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) +
        ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* Internal to this header: p[i] = the digit[i]-th smallest value (from 0)
 * that p[0..i) has not used, for i < k. */
static inline void
perm_place(const uint8_t *digit, int k, uint8_t *p)
{
    uint64_t used = 0;

    for (int i = 0; i < k; i++) {
        uint64_t avail = ~used;

        for (int d = digit[i]; d > 0; d--) {
            avail &= avail - 1;
        }
        p[i] = (uint8_t)__builtin_ctzll(avail);
        used |= UINT64_C(1) << p[i];
    }
}

/* Rank (0 .. n!/(n-k)! - 1) of the k-permutation p[0..k) of n. */
static inline uint64_t
perm_partial_rank(const uint8_t *p, int n, int k)
{
    uint64_t used = 0;
    uint64_t r = 0;

    for (int i = 0; i < k; i++) {
        uint64_t below = (UINT64_C(1) << p[i]) - 1;

        r = r * (uint64_t)(n - i) + (uint64_t)(p[i] - perm_bits(used & below));
        used |= UINT64_C(1) << p[i];
    }
    return r;
}

/* The k-permutation p[0..k) of n of rank r (r < n!/(n-k)!). */
static inline void
perm_partial_unrank(uint64_t r, int n, int k, uint8_t *p)
{
    uint8_t digit[PERM_MAX];

    for (int i = k - 1; i >= 0; i--) {
        digit[i] = (uint8_t)(r % (uint64_t)(n - i));
        r /= (uint64_t)(n - i);
    }
    perm_place(digit, k, p);
}

/* Lehmer rank (0 .. n! - 1) of the permutation p[0..n). */
static inline uint64_t
perm_rank(const uint8_t *p, int n)
{
    /* The last digit has radix 1: always 0. */
    return perm_partial_rank(p, n, n - 1);
}

/* The permutation p[0..n) of Lehmer rank r (r < n!). */
static inline void
perm_unrank(uint64_t r, int n, uint8_t *p)
{
    perm_partial_unrank(r, n, n, p);
}

/* Rank (0 .. n!/2 - 1) of the even permutation p[0..n), n >= 2: its
 * Lehmer rank halved. An odd p shares the rank of the even permutation
 * that swaps its last two values. */
static inline uint64_t
perm_even_rank(const uint8_t *p, int n)
{
    /* Halving drops the radix-2 digit; the radix-1 digit is 0. */
    return perm_partial_rank(p, n, n - 2);
}

/* The even permutation p[0..n) of rank r (n >= 1, r < max(n!/2, 1)). */
static inline void
perm_even_unrank(uint64_t r, int n, uint8_t *p)
{
    uint8_t digit[PERM_MAX];
    int sum = 0;

    if (n < 1) {
        return;
    }
    /* r is the Lehmer rank without its last two digits (radix 2 and 1);
     * the radix-2 digit makes the digit sum, the inversions, even. */
    for (int i = n - 3; i >= 0; i--) {
        digit[i] = (uint8_t)(r % (uint64_t)(n - i));
        r /= (uint64_t)(n - i);
        sum += digit[i];
    }
    if (n >= 2) {
        digit[n - 2] = (uint8_t)(sum & 1);
    }
    digit[n - 1] = 0;
    perm_place(digit, n, p);
}

/* Lehmer rank (0 .. n! - 1) of the order of the n distinct values
 * p[0..n) (any bytes): digit i counts the later values below p[i]. For a
 * permutation, its Lehmer rank. */
static inline uint64_t
perm_order_rank(const uint8_t *p, int n)
{
    uint64_t r = 0;

    for (int i = 0; i < n; i++) {
        int below = 0;

        for (int j = i + 1; j < n; j++) {
            below += p[j] < p[i];
        }
        r = r * (uint64_t)(n - i) + (uint64_t)below;
    }
    return r;
}

/* Parity of the order of the n distinct values p[0..n): 0 when the pairs
 * out of order are even in number, 1 when odd. For a permutation, its
 * parity. n <= PERM_MAX; the values may be any distinct bytes. */
int perm_parity(const uint8_t *p, int n);

/* n!/(n-k)!, the number of k-permutations of n (0 <= k <= n); the caller
 * keeps it below 2^64. */
uint64_t perm_count(int n, int k);

/* Shuffles p[0..n) in place, uniformly (Fisher-Yates from the end: n - 1
 * draws below n, n - 1, .., 2 from rand with rng, borrowed). */
void perm_shuffle(uint8_t *p, int n, pz_rand_fn rand, void *rng);

/* Fills p[0..n) with a uniformly random permutation of 0..n-1 (n < 256),
 * built from the front (the inside-out Fisher-Yates: n draws below 1, 2,
 * .., n from rand with rng, borrowed). Not the permutation perm_shuffle
 * makes of the identity from the same words. */
void perm_random(uint8_t *p, int n, pz_rand_fn rand, void *rng);

#endif
