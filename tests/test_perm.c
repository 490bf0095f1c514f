/* SPDX-License-Identifier: MIT */
/* test_perm.c - permutation ranks, even and partial ranks, parity, shuffles.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "perm.h"

/* The references below are written out the slow, obvious way, so that a
 * wrong shortcut in perm.h cannot agree with itself. */

static uint64_t
factorial(int n)
{
    uint64_t f = 1;

    for (int i = 2; i <= n; i++) {
        f *= (uint64_t)i;
    }
    return f;
}

/* Next k-permutation of n in lexicographic order; false after the last.
 * Odometer over all k-tuples, skipping those with a repeated value (slow:
 * for small n only). */
static bool
next_tuple(uint8_t *p, int n, int k)
{
    for (;;) {
        int i = k - 1;
        bool distinct = true;

        while (i >= 0 && p[i] == n - 1) {
            p[i--] = 0;
        }
        if (i < 0) {
            return false;
        }
        p[i]++;
        for (int a = 0; a < k && distinct; a++) {
            for (int b = a + 1; b < k; b++) {
                distinct = distinct && p[a] != p[b];
            }
        }
        if (distinct) {
            return true;
        }
    }
}

/* Next permutation of n in lexicographic order; false after the last. */
static bool
next_perm(uint8_t *p, int n)
{
    int i = n - 2;
    int j = n - 1;

    while (i >= 0 && p[i] > p[i + 1]) {
        i--;
    }
    if (i < 0) {
        return false;
    }
    while (p[j] < p[i]) {
        j--;
    }
    {
        uint8_t t = p[i];

        p[i] = p[j];
        p[j] = t;
    }
    for (int a = i + 1, b = n - 1; a < b; a++, b--) {
        uint8_t t = p[a];

        p[a] = p[b];
        p[b] = t;
    }
    return true;
}

/* Digit i counts the values below p[i] that p[0..i) has not used. */
static uint64_t
ref_partial_rank(const uint8_t *p, int n, int k)
{
    uint64_t r = 0;

    for (int i = 0; i < k; i++) {
        int d = 0;

        for (int v = 0; v < p[i]; v++) {
            bool used = false;

            for (int j = 0; j < i; j++) {
                used = used || p[j] == v;
            }
            d += !used;
        }
        r = r * (uint64_t)(n - i) + (uint64_t)d;
    }
    return r;
}

/* Parity from the cycles: a permutation of n with c cycles is a product
 * of n - c transpositions. */
static int
ref_parity(const uint8_t *p, int n)
{
    bool seen[PERM_MAX] = { false };
    int cycles = 0;

    for (int i = 0; i < n; i++) {
        if (!seen[i]) {
            cycles++;
            for (int j = i; !seen[j]; j = p[j]) {
                seen[j] = true;
            }
        }
    }
    return (n - cycles) & 1;
}

static bool
is_permutation(const uint8_t *p, int n)
{
    bool seen[256] = { false };

    for (int i = 0; i < n; i++) {
        if (seen[p[i]] || p[i] >= n) {
            return false;
        }
        seen[p[i]] = true;
    }
    return true;
}

static void
identity(uint8_t *p, int n)
{
    for (int i = 0; i < n; i++) {
        p[i] = (uint8_t)i;
    }
}

/* A random permutation drawn without perm.h. */
static void
ref_random(uint8_t *p, int n, pz_rng_t *rng)
{
    identity(p, n);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(pz_rng_next(rng) % (uint64_t)(i + 1));
        uint8_t t = p[i];

        p[i] = p[j];
        p[j] = t;
    }
}

/* A source that returns the scripted words in turn and counts them. */
typedef struct script {
    const uint64_t *word;
    int used;
} script_t;

static uint64_t
script_next(void *rng)
{
    script_t *s = rng;

    return s->word[s->used++];
}

/* --- perm_rank, perm_unrank --------------------------------------------- */

START_TEST(test_perm_rank_identity_and_reversal)
{
    for (int n = 1; n <= 20; n++) {
        uint8_t p[20];

        identity(p, n);
        ck_assert_uint_eq(perm_rank(p, n), 0);
        for (int i = 0; i < n; i++) {
            p[i] = (uint8_t)(n - 1 - i);
        }
        ck_assert_uint_eq(perm_rank(p, n), factorial(n) - 1);
    }
}
END_TEST

START_TEST(test_perm_rank_known_values)
{
    static const uint8_t three[6][3] = {
        { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
        { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
    };
    static const uint8_t p4[4] = { 1, 0, 3, 2 };             /* 1*6 + 0 + 1 */
    static const uint8_t p8[8] = { 7, 0, 1, 2, 3, 4, 5, 6 }; /* 7 * 7! */

    for (int r = 0; r < 6; r++) {
        ck_assert_uint_eq(perm_rank(three[r], 3), (uint64_t)r);
    }
    ck_assert_uint_eq(perm_rank(p4, 4), 7);
    ck_assert_uint_eq(perm_rank(p8, 8), 7 * 5040);
}
END_TEST

START_TEST(test_perm_rank_all_small_in_order_and_back)
{
    for (int n = 0; n <= 8; n++) {
        uint8_t p[PERM_MAX]; /* not [8]: GCC cannot bound n */
        uint64_t count = 0;

        identity(p, n);
        do {
            uint8_t q[PERM_MAX];

            ck_assert_uint_eq(perm_rank(p, n), count);
            perm_unrank(count, n, q);
            ck_assert_mem_eq(q, p, (size_t)n);
            count++;
        } while (next_perm(p, n));
        ck_assert_uint_eq(count, factorial(n));
    }
}
END_TEST

START_TEST(test_perm_rank_random_large_round_trip)
{
    pz_rng_t rng;

    pz_rng_seed(&rng, 7);
    for (int trial = 0; trial < 200; trial++) {
        int n = 9 + trial % 12; /* 9..20 */
        uint8_t p[20];
        uint8_t q[20];
        uint64_t r;

        ref_random(p, n, &rng);
        r = perm_rank(p, n);
        ck_assert_uint_eq(r, ref_partial_rank(p, n, n));
        ck_assert_uint_lt(r, factorial(n));
        perm_unrank(r, n, q);
        ck_assert_mem_eq(q, p, (size_t)n);
    }
}
END_TEST

/* --- perm_partial_rank, perm_partial_unrank ----------------------------- */

START_TEST(test_perm_partial_rank_all_small_in_order_and_back)
{
    for (int n = 1; n <= 7; n++) {
        for (int k = 0; k <= n; k++) {
            uint8_t p[PERM_MAX]; /* not [8]: GCC cannot bound n */
            uint64_t count = 0;

            identity(p, k);
            do {
                uint8_t q[PERM_MAX];

                ck_assert_uint_eq(perm_partial_rank(p, n, k), count);
                perm_partial_unrank(count, n, k, q);
                ck_assert_mem_eq(q, p, (size_t)k);
                count++;
            } while (k > 0 && next_tuple(p, n, k));
            ck_assert_uint_eq(count, perm_count(n, k));
        }
    }
}
END_TEST

START_TEST(test_perm_partial_rank_wide_values_round_trip)
{
    pz_rng_t rng;

    pz_rng_seed(&rng, 11);
    for (int trial = 0; trial < 300; trial++) {
        int n = trial % 2 ? 25 : 64;
        int k = 1 + trial % 8;
        uint8_t all[64];
        uint8_t q[8];
        uint64_t r;

        ref_random(all, n, &rng); /* the first k: a random k-permutation */
        r = perm_partial_rank(all, n, k);
        ck_assert_uint_eq(r, ref_partial_rank(all, n, k));
        ck_assert_uint_lt(r, perm_count(n, k));
        perm_partial_unrank(r, n, k, q);
        ck_assert_mem_eq(q, all, (size_t)k);
    }
}
END_TEST

START_TEST(test_perm_partial_rank_top_value)
{
    uint8_t p[2] = { 63, 62 };
    uint8_t q[2];

    ck_assert_uint_eq(perm_partial_rank(p, 64, 2), 64 * 63 - 1);
    perm_partial_unrank(64 * 63 - 1, 64, 2, q);
    ck_assert_mem_eq(q, p, 2);
}
END_TEST

/* --- perm_even_rank, perm_even_unrank ----------------------------------- */

START_TEST(test_perm_even_rank_bijection_in_order)
{
    for (int n = 2; n <= 8; n++) {
        uint8_t p[PERM_MAX]; /* not [8]: GCC cannot bound n */
        uint64_t next_even = 0;

        identity(p, n);
        do {
            uint8_t q[PERM_MAX];

            if (ref_parity(p, n) != 0) {
                continue;
            }
            /* The even permutations in lexicographic order rank 0, 1, ..
             * and unrank to themselves. */
            ck_assert_uint_eq(perm_even_rank(p, n), next_even);
            perm_even_unrank(next_even, n, q);
            ck_assert_mem_eq(q, p, (size_t)n);
            next_even++;
        } while (next_perm(p, n));
        ck_assert_uint_eq(next_even, factorial(n) / 2);
    }
}
END_TEST

START_TEST(test_perm_even_unrank_gives_even)
{
    uint8_t q[12];

    for (uint64_t r = 0; r < factorial(12) / 2; r += 7919) {
        perm_even_unrank(r, 12, q);
        ck_assert(is_permutation(q, 12));
        ck_assert_int_eq(ref_parity(q, 12), 0);
        ck_assert_uint_eq(perm_even_rank(q, 12), r);
    }
    perm_even_unrank(0, 1, q);
    ck_assert_uint_eq(q[0], 0);
}
END_TEST

START_TEST(test_perm_even_rank_odd_shares_last_swap)
{
    uint8_t p[6] = { 3, 1, 4, 0, 5, 2 };
    uint8_t s[6] = { 3, 1, 4, 0, 2, 5 };

    ck_assert_int_eq(ref_parity(p, 6), 1);
    ck_assert_uint_eq(perm_even_rank(p, 6), perm_even_rank(s, 6));
}
END_TEST

/* --- perm_parity -------------------------------------------------------- */

START_TEST(test_perm_parity_known_permutations)
{
    static const uint8_t swap[4] = { 1, 0, 2, 3 };
    static const uint8_t three_cycle[4] = { 1, 2, 0, 3 };
    static const uint8_t four_cycle[4] = { 1, 2, 3, 0 };
    static const uint8_t two_swaps[4] = { 1, 0, 3, 2 };
    uint8_t p[64];

    ck_assert_int_eq(perm_parity(swap, 4), 1);
    ck_assert_int_eq(perm_parity(three_cycle, 4), 0);
    ck_assert_int_eq(perm_parity(four_cycle, 4), 1);
    ck_assert_int_eq(perm_parity(two_swaps, 4), 0);
    for (int n = 0; n <= 64; n++) {
        identity(p, n);
        ck_assert_int_eq(perm_parity(p, n), 0);
        /* The reversal has n (n - 1) / 2 pairs out of order. */
        for (int i = 0; i < n; i++) {
            p[i] = (uint8_t)(n - 1 - i);
        }
        ck_assert_int_eq(perm_parity(p, n), n * (n - 1) / 2 % 2);
    }
}
END_TEST

START_TEST(test_perm_parity_matches_cycles)
{
    uint8_t p[7];

    identity(p, 7);
    do {
        ck_assert_int_eq(perm_parity(p, 7), ref_parity(p, 7));
    } while (next_perm(p, 7));
}
END_TEST

START_TEST(test_perm_parity_distinct_values)
{
    static const uint8_t sorted[3] = { 2, 9, 11 };
    static const uint8_t one_pair[3] = { 9, 2, 11 };
    static const uint8_t two_pairs[3] = { 11, 2, 9 };

    ck_assert_int_eq(perm_parity(sorted, 3), 0);
    ck_assert_int_eq(perm_parity(one_pair, 3), 1);
    ck_assert_int_eq(perm_parity(two_pairs, 3), 0);
}
END_TEST

/* --- perm_count --------------------------------------------------------- */

START_TEST(test_perm_count_known_values)
{
    ck_assert_uint_eq(perm_count(0, 0), 1);
    ck_assert_uint_eq(perm_count(9, 0), 1);
    ck_assert_uint_eq(perm_count(5, 2), 20);
    ck_assert_uint_eq(perm_count(12, 6), 665280);
    ck_assert_uint_eq(perm_count(9, 9), 362880);
    ck_assert_uint_eq(perm_count(20, 20), factorial(20));
}
END_TEST

/* --- perm_shuffle, perm_random ------------------------------------------ */

START_TEST(test_perm_shuffle_permutes_the_values)
{
    pz_rng_t rng;

    pz_rng_seed(&rng, 3);
    for (int n = 0; n <= 64; n++) {
        uint8_t p[64];
        int sum = 0;

        /* Values 2i + 1: a shuffle moves values, it does not make 0..n-1. */
        for (int i = 0; i < n; i++) {
            p[i] = (uint8_t)(2 * i + 1);
        }
        perm_shuffle(p, n, pz_rng_next, &rng);
        for (int i = 0; i < n; i++) {
            ck_assert_uint_eq(p[i] % 2, 1);
            p[i] /= 2;
            sum += p[i];
        }
        ck_assert(is_permutation(p, n));
        ck_assert_int_eq(sum, n * (n - 1) / 2);
    }
}
END_TEST

START_TEST(test_perm_shuffle_draw_order_is_fixed)
{
    /* Words 0, 1, 0: j = 0 for i = 3, j = 1 for i = 2, j = 0 for i = 1. */
    static const uint64_t words[3] = { 0, 1, 0 };
    script_t s = { words, 0 };
    uint8_t p[4] = { 0, 1, 2, 3 };
    static const uint8_t want[4] = { 2, 3, 1, 0 };

    perm_shuffle(p, 4, script_next, &s);
    ck_assert_int_eq(s.used, 3);
    ck_assert_mem_eq(p, want, 4);
}
END_TEST

START_TEST(test_perm_shuffle_same_seed_same_order)
{
    pz_rng_t a;
    pz_rng_t b;
    uint8_t p[12];
    uint8_t q[12];
    int same = 0;

    pz_rng_seed(&a, 42);
    pz_rng_seed(&b, 42);
    for (int t = 0; t < 20; t++) {
        uint8_t before[12];

        identity(p, 12);
        identity(q, 12);
        memcpy(before, p, sizeof(before));
        perm_shuffle(p, 12, pz_rng_next, &a);
        perm_shuffle(q, 12, pz_rng_next, &b);
        ck_assert_mem_eq(p, q, 12);
        same += memcmp(p, before, 12) == 0;
    }
    ck_assert_int_lt(same, 2);
}
END_TEST

START_TEST(test_perm_shuffle_uniform_over_three)
{
    pz_rng_t rng;
    int hits[6] = { 0 };

    pz_rng_seed(&rng, 5);
    for (int t = 0; t < 6000; t++) {
        uint8_t p[3] = { 0, 1, 2 };

        perm_shuffle(p, 3, pz_rng_next, &rng);
        hits[perm_rank(p, 3)]++;
    }
    for (int r = 0; r < 6; r++) {
        ck_assert_int_gt(hits[r], 850);
        ck_assert_int_lt(hits[r], 1150);
    }
}
END_TEST

START_TEST(test_perm_random_draw_order_is_fixed)
{
    /* Words 0, 0, 1, 2: j = 0 (i = 0), 0 (i = 1), 1 (i = 2), 2 (i = 3). */
    static const uint64_t words[4] = { 0, 0, 1, 2 };
    script_t s = { words, 0 };
    uint8_t p[4];
    static const uint8_t want[4] = { 1, 2, 3, 0 };

    perm_random(p, 4, script_next, &s);
    ck_assert_int_eq(s.used, 4);
    ck_assert_mem_eq(p, want, 4);
}
END_TEST

START_TEST(test_perm_random_gives_permutation_reproducibly)
{
    pz_rng_t a;
    pz_rng_t b;

    pz_rng_seed(&a, 9);
    pz_rng_seed(&b, 9);
    for (int n = 0; n <= 64; n++) {
        uint8_t p[64];
        uint8_t q[64];

        perm_random(p, n, pz_rng_next, &a);
        perm_random(q, n, pz_rng_next, &b);
        ck_assert(is_permutation(p, n));
        ck_assert_mem_eq(p, q, (size_t)n);
    }
}
END_TEST

START_TEST(test_perm_random_uniform_over_three)
{
    pz_rng_t rng;
    int hits[6] = { 0 };

    pz_rng_seed(&rng, 6);
    for (int t = 0; t < 6000; t++) {
        uint8_t p[3];

        perm_random(p, 3, pz_rng_next, &rng);
        hits[perm_rank(p, 3)]++;
    }
    for (int r = 0; r < 6; r++) {
        ck_assert_int_gt(hits[r], 850);
        ck_assert_int_lt(hits[r], 1150);
    }
}
END_TEST

static Suite *
perm_suite(void)
{
    Suite *s = suite_create("perm");
    TCase *tc = tcase_create("rank");

    tcase_add_test(tc, test_perm_rank_identity_and_reversal);
    tcase_add_test(tc, test_perm_rank_known_values);
    tcase_add_test(tc, test_perm_rank_all_small_in_order_and_back);
    tcase_add_test(tc, test_perm_rank_random_large_round_trip);
    suite_add_tcase(s, tc);
    tc = tcase_create("partial_rank");
    tcase_add_test(tc, test_perm_partial_rank_all_small_in_order_and_back);
    tcase_add_test(tc, test_perm_partial_rank_wide_values_round_trip);
    tcase_add_test(tc, test_perm_partial_rank_top_value);
    suite_add_tcase(s, tc);
    tc = tcase_create("even_rank");
    tcase_add_test(tc, test_perm_even_rank_bijection_in_order);
    tcase_add_test(tc, test_perm_even_unrank_gives_even);
    tcase_add_test(tc, test_perm_even_rank_odd_shares_last_swap);
    suite_add_tcase(s, tc);
    tc = tcase_create("parity");
    tcase_add_test(tc, test_perm_parity_known_permutations);
    tcase_add_test(tc, test_perm_parity_matches_cycles);
    tcase_add_test(tc, test_perm_parity_distinct_values);
    suite_add_tcase(s, tc);
    tc = tcase_create("count");
    tcase_add_test(tc, test_perm_count_known_values);
    suite_add_tcase(s, tc);
    tc = tcase_create("shuffle");
    tcase_add_test(tc, test_perm_shuffle_permutes_the_values);
    tcase_add_test(tc, test_perm_shuffle_draw_order_is_fixed);
    tcase_add_test(tc, test_perm_shuffle_same_seed_same_order);
    tcase_add_test(tc, test_perm_shuffle_uniform_over_three);
    tcase_add_test(tc, test_perm_random_draw_order_is_fixed);
    tcase_add_test(tc, test_perm_random_gives_permutation_reproducibly);
    tcase_add_test(tc, test_perm_random_uniform_over_three);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(perm_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
