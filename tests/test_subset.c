/* SPDX-License-Identifier: MIT */
/* test_subset.c - searches restricted to a subset of the moves: naming
 * the subset, optimal answers within it, and states out of its reach. */
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "puzzle.h"
#include "testlib.h"

/*
 * Design: the golden figures are published counts of positions by depth
 * of two subgroups of the 3x3x3: <U,R> in the quarter-turn metric (M.
 * Longridge, Cube-Lovers, 1 Sep 1994: 1, 4, 10, 24, 58, 140, 338, 816,
 * 1970, 4756) and <R,U,F> in the quarter-turn metric (cubeman.org forum,
 * "C3v Three Face Group", node 198: 1, 6, 27, 120, 534, 2376, 10560), and
 * the order of <U,R>, 5! * 3^5 * 7! / 2 = 73,483,200 (same source): 120
 * arrangements of its six moving corners, any twist of them, no edge
 * flipped. A breadth-first search in this file, over the restricted
 * puzzle's moves with plain puzzle_apply, must find the published counts;
 * its depths are then the exact answers the engines must give.
 */

/* --- a plain breadth-first search over a restricted puzzle --- */

typedef struct bfs {
    size_t cap;
    size_t count;
    pz_state_t *states; /* in order of depth */
    uint8_t *depth;
    uint32_t *slots; /* index + 1 */
} bfs_t;

static bool
bfs_add(bfs_t *b, const pz_puzzle_t *p, const pz_state_t *s, int depth)
{
    size_t mask = 4 * b->cap - 1;
    size_t i = puzzle_hash(p, s) & mask;

    while (b->slots[i] != 0) {
        if (puzzle_equal(p, &b->states[b->slots[i] - 1], s)) {
            return false;
        }
        i = (i + 1) & mask;
    }
    ck_assert_uint_lt(b->count, b->cap);
    b->states[b->count] = *s;
    b->depth[b->count] = (uint8_t)depth;
    b->slots[i] = (uint32_t)++b->count;
    return true;
}

/* Every state within max moves of the goal, with counts[d] of each depth
 * d (cap: a power of two above the total). */
static bfs_t
bfs_run(const pz_puzzle_t *p, int max, size_t cap, uint64_t *counts)
{
    bfs_t b = { .cap = cap };
    pz_state_t g;

    b.states = malloc(cap * sizeof(*b.states));
    b.depth = malloc(cap);
    b.slots = calloc(4 * cap, sizeof(*b.slots));
    ck_assert(b.states != NULL && b.depth != NULL && b.slots != NULL);
    puzzle_goal(p, &g);
    bfs_add(&b, p, &g, 0);
    memset(counts, 0, (size_t)(max + 1) * sizeof(*counts));
    counts[0] = 1;
    for (size_t q = 0; q < b.count && b.depth[q] < max; q++) {
        for (int m = 0; m < p->nmoves; m++) {
            pz_state_t c;

            if (!(p->subset >> m & 1) ||
                !puzzle_apply(p, &b.states[q], m, &c)) {
                continue;
            }
            if (bfs_add(&b, p, &c, b.depth[q] + 1)) {
                counts[b.depth[q] + 1]++;
            }
        }
    }
    return b;
}

static void
bfs_free(bfs_t *b)
{
    free(b->states);
    free(b->depth);
    free(b->slots);
}

static pz_puzzle_t *
restricted(const char *name, int metric, const char *const *moves)
{
    pz_puzzle_t *p = tl_make(name, 0, 0, metric);
    uint64_t mask = 0;
    pz_diag_t d;

    pz_diag_clear(&d);
    for (int i = 0; moves[i] != NULL; i++) {
        ck_assert_msg(puzzle_moves_add(p, moves[i], &mask, &d) == PZ_OK,
                      "%s: %s", moves[i], d.detail);
    }
    ck_assert_msg(puzzle_restrict(p, mask, &d) == PZ_OK, "%s", d.detail);
    return p;
}

/* Solves every step-th state of b (and all within 3 moves) with engine
 * and heuristic: each answer is exactly its depth, uses allowed moves
 * only, and is marked optimal. */
static void
assert_depths(const pz_puzzle_t *p,
              const bfs_t *b,
              size_t step,
              const char *engine,
              const char *heuristic)
{
    int solved = 0;

    for (size_t i = 0; i < b->count; i++) {
        solve_spec_t spec;
        pz_solution_t sol;

        if (b->depth[i] > 3 && i % step != 0) {
            continue;
        }
        spec = tl_spec(p, &b->states[i], NULL);
        sol = tl_solve_spec(&spec, engine, heuristic, 1.0, NULL);
        ck_assert_msg(sol.length == b->depth[i], "%s: %d moves for depth %d",
                      engine, sol.length, b->depth[i]);
        ck_assert(sol.optimal);
        for (int k = 0; k < sol.length; k++) {
            ck_assert(p->subset >> sol.moves[k] & 1);
        }
        solved++;
    }
    ck_assert_int_gt(solved, 40);
}

START_TEST(test_subset_ur_qtm_depth_counts_and_optimal_answers)
{
    static const char *const ur[] = { "U", "R", NULL };
    static const uint64_t published[] = { 1,   4,   10,  24,   58,
                                          140, 338, 816, 1970, 4756 };
    pz_puzzle_t *p = restricted("3x3x3", PZ_METRIC_QTM, ur);
    uint64_t counts[10];
    bfs_t b = bfs_run(p, 9, 1 << 14, counts);

    ck_assert_int_eq(__builtin_popcountll(p->subset), 4);
    for (int d = 0; d <= 9; d++) {
        ck_assert_msg(counts[d] == published[d], "depth %d: %llu", d,
                      (unsigned long long)counts[d]);
    }
    assert_depths(p, &b, 97, "idastar", "misplaced");
    assert_depths(p, &b, 211, "astar", "misplaced");
    assert_depths(p, &b, 211, "bibfs", "none");
    bfs_free(&b);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_subset_ruf_qtm_depth_counts_and_optimal_answers)
{
    static const char *const ruf[] = { "R", "U", "F", NULL };
    static const uint64_t published[] = { 1, 6, 27, 120, 534, 2376, 10560 };
    pz_puzzle_t *p = restricted("3x3x3", PZ_METRIC_QTM, ruf);
    uint64_t counts[7];
    bfs_t b = bfs_run(p, 6, 1 << 14, counts);

    ck_assert_int_eq(__builtin_popcountll(p->subset), 6);
    for (int d = 0; d <= 6; d++) {
        ck_assert_msg(counts[d] == published[d], "depth %d: %llu", d,
                      (unsigned long long)counts[d]);
    }
    assert_depths(p, &b, 173, "idastar", "misplaced");
    assert_depths(p, &b, 257, "astar", "misplaced");
    bfs_free(&b);
    puzzle_destroy(p);
}
END_TEST

/* The six corners and seven edges <U,R> moves (cube3.h order). */
static const int ur_corners[6] = { 0, 1, 2, 3, 4, 7 };

/* A 3x3x3 state: corners of the goal with the six moving ones permuted
 * by perm and twisted by twist; UF and UL swapped when swap_edges. */
static pz_state_t
ur_state(const int *perm, const int *twist, bool swap_edges)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, 0);
    pz_state_t s;

    puzzle_goal(p, &s);
    for (int k = 0; k < 6; k++) {
        s.b[ur_corners[k]] = (uint8_t)(ur_corners[perm[k]] * 3 + twist[k]);
    }
    if (swap_edges) {
        uint8_t t = s.b[8 + 1];

        s.b[8 + 1] = s.b[8 + 2];
        s.b[8 + 2] = t;
    }
    puzzle_destroy(p);
    return s;
}

static bool
odd(const int *perm, int n)
{
    bool o = false;

    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            o ^= perm[i] > perm[j];
        }
    }
    return o;
}

static bool
next_perm(int *a, int n)
{
    int i = n - 2;
    int j = n - 1;

    while (i >= 0 && a[i] >= a[i + 1]) {
        i--;
    }
    if (i < 0) {
        return false;
    }
    while (a[j] <= a[i]) {
        j--;
    }
    int t = a[i];

    a[i] = a[j];
    a[j] = t;
    for (int l = i + 1, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return true;
}

START_TEST(test_subset_ur_group_order_factors)
{
    static const char *const ur[] = { "U", "R", NULL };
    pz_puzzle_t *p = restricted("3x3x3", PZ_METRIC_HTM, ur);
    int perm[6] = { 0, 1, 2, 3, 4, 5 };
    int zero[6] = { 0 };
    int reached = 0;
    int twists = 0;
    pz_state_t goal;
    pz_diag_t d;

    puzzle_goal(p, &goal);
    /* 120 of the 720 arrangements of the moving corners. */
    do {
        pz_state_t s = ur_state(perm, zero, odd(perm, 6));

        pz_diag_clear(&d);
        ck_assert_int_eq(puzzle_check_pair(p, &s, &goal, &d), PZ_OK);
        int rc = puzzle_subset_reachable(p, &s, &goal, &d);

        ck_assert(rc == PZ_OK || rc == PZ_EUNREACHABLE);
        reached += rc == PZ_OK;
    } while (next_perm(perm, 6));
    ck_assert_int_eq(reached, 120);
    /* Every twist of them: 3^5. */
    for (int code = 0; code < 243; code++) {
        int id[6] = { 0, 1, 2, 3, 4, 5 };
        int tw[6];
        int sum = 0;

        for (int k = 0, c = code; k < 5; k++, c /= 3) {
            tw[k] = c % 3;
            sum += tw[k];
        }
        tw[5] = (3 - sum % 3) % 3;
        pz_state_t s = ur_state(id, tw, false);

        twists += puzzle_subset_reachable(p, &s, &goal, &d) == PZ_OK;
    }
    ck_assert_int_eq(twists, 243);
    /* No edge flipped; a piece out of the two faces stays home. */
    pz_state_t flip = goal;

    flip.b[8 + 1] ^= 1; /* UF and UL flipped in place */
    flip.b[8 + 2] ^= 1;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_subset_reachable(p, &flip, &goal, &d),
                     PZ_EUNREACHABLE);
    ck_assert_ptr_nonnull(strstr(d.detail, "edges"));
    pz_state_t moved = tl_scrambled(p, "R U D");

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_subset_reachable(p, &moved, &goal, &d),
                     PZ_EUNREACHABLE);
    ck_assert_ptr_nonnull(strstr(d.detail, "never move"));
    pz_state_t in = tl_scrambled(p, "R U2 R' U' R U' R' U2 R2 U");

    ck_assert_int_eq(puzzle_subset_reachable(p, &in, &goal, &d), PZ_OK);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_subset_names_faces_and_exact_turns)
{
    pz_puzzle_t *htm = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_puzzle_t *qtm = tl_make("3x3x3", 0, 0, PZ_METRIC_QTM);
    pz_puzzle_t *tiles = tl_make("tiles", 3, 3, 0);
    uint64_t m = 0;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_moves_add(htm, "R", &m, &d), PZ_OK);
    ck_assert_int_eq(__builtin_popcountll(m), 3);
    ck_assert_int_eq(puzzle_moves_add(htm, "F2", &m, &d), PZ_OK);
    ck_assert_int_eq(__builtin_popcountll(m), 4);
    ck_assert_int_eq(puzzle_restrict(htm, m, &d), PZ_OK);
    ck_assert_uint_eq(htm->subset, m);
    m = 0;
    ck_assert_int_eq(puzzle_moves_add(qtm, "U", &m, &d), PZ_OK);
    ck_assert_int_eq(__builtin_popcountll(m), 2);
    ck_assert_int_eq(puzzle_moves_add(qtm, "U2", &m, &d), PZ_EMOVE);
    ck_assert_int_eq(puzzle_moves_add(qtm, "X", &m, &d), PZ_EMOVE);
    /* An exact turn without its inverse, and an empty set. */
    m = 0;
    ck_assert_int_eq(puzzle_moves_add(qtm, "R'", &m, &d), PZ_OK);
    ck_assert_int_eq(puzzle_restrict(qtm, m, &d), PZ_EMOVE);
    ck_assert_ptr_nonnull(strstr(d.detail, "inverse"));
    ck_assert_int_eq(puzzle_restrict(qtm, 0, &d), PZ_EMOVE);
    ck_assert_uint_eq(qtm->subset, 0);
    /* Every move is no restriction at all. */
    m = 0;
    for (const char *t = "UDLR"; *t != '\0'; t++) {
        char name[2] = { *t, '\0' };

        ck_assert_int_eq(puzzle_moves_add(tiles, name, &m, &d), PZ_OK);
    }
    ck_assert_int_eq(puzzle_restrict(tiles, m, &d), PZ_OK);
    ck_assert_uint_eq(tiles->subset, 0);
    puzzle_destroy(htm);
    puzzle_destroy(qtm);
    puzzle_destroy(tiles);
}
END_TEST

/* Scrambles made of the subset's moves are never refused, and every
 * optimal engine answers them within the subset, no longer than the
 * scramble. */
START_TEST(test_subset_scrambles_of_the_subset_solve_on_every_puzzle)
{
    static const struct {
        const char *puzzle;
        int rows;
        const char *moves[4];
        const char *engine;
        const char *heuristic;
    } cases[] = {
        { "2x2x2", 0, { "R", "U", NULL }, "idastar", "seed" },
        { "pyraminx", 0, { "U", "R", "u", NULL }, "astar", "pieces" },
        { "skewb", 0, { "R", "U", NULL }, "bibfs", "none" },
        { "tiles", 3, { "U", "D", NULL }, "idastar", "manhattan" },
        { "mpyraminx", 0, { "2U", "3L", NULL }, "bibfs", "none" },
    };
    pz_rng_t rng;

    pz_rng_seed(&rng, 19);
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        pz_puzzle_t *p =
            tl_make(cases[c].puzzle, cases[c].rows, cases[c].rows, 0);
        uint64_t mask = 0;
        pz_state_t goal;
        pz_diag_t d;

        pz_diag_clear(&d);
        for (int i = 0; i < 4 && cases[c].moves[i] != NULL; i++) {
            ck_assert_msg(puzzle_moves_add(p, cases[c].moves[i], &mask, &d) ==
                              PZ_OK,
                          "%s: %s", cases[c].puzzle, d.detail);
        }
        ck_assert_int_eq(puzzle_restrict(p, mask, &d), PZ_OK);
        puzzle_goal(p, &goal);
        for (int k = 0; k < 6; k++) {
            pz_state_t s;
            solve_spec_t spec;
            pz_solution_t sol;
            int n = 3 + k;

            tl_scramble(p, &goal, n, &rng, &s);
            ck_assert_msg(puzzle_subset_reachable(p, &s, &goal, &d) == PZ_OK,
                          "%s: %s", cases[c].puzzle, d.detail);
            spec = tl_spec(p, &s, NULL);
            sol = tl_solve_spec(&spec, cases[c].engine, cases[c].heuristic, 1.0,
                                NULL);
            ck_assert_int_le(sol.length, n);
            for (int i = 0; i < sol.length; i++) {
                ck_assert(p->subset == 0 || (p->subset >> sol.moves[i] & 1));
            }
        }
        puzzle_destroy(p);
    }
}
END_TEST

/* A state no cheap check refuses, out of reach: complete searches prove
 * it (status unreachable). The Master Pyraminx declares no pieces. */
START_TEST(test_subset_complete_search_proves_unreachable)
{
    static const char *const tips[] = { "u", "l", NULL };
    pz_puzzle_t *p = restricted("mpyraminx", 0, tips);
    pz_state_t s = tl_scrambled(p, "u r");
    pz_state_t goal;
    pz_diag_t d;
    const char *engines[] = { "astar", "bibfs" };

    pz_diag_clear(&d);
    puzzle_goal(p, &goal);
    ck_assert_int_eq(puzzle_subset_reachable(p, &s, &goal, &d), PZ_OK);
    for (int i = 0; i < 2; i++) {
        solve_spec_t spec = tl_spec(p, &s, NULL);
        solve_run_t run;

        ck_assert_int_eq(tl_run(&spec, engines[i], "none", 1.0, NULL, &run),
                         PZ_OK);
        ck_assert_msg(run.solution.status == PZ_STATUS_UNREACHABLE, "%s: %s",
                      engines[i], pz_status_name(run.solution.status));
        ck_assert_str_eq(pz_status_name(run.solution.status), "unreachable");
    }
    puzzle_destroy(p);
}
END_TEST

static Suite *
subset_suite(void)
{
    Suite *s = suite_create("subset");
    TCase *tc = tcase_create("subset");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_subset_ur_qtm_depth_counts_and_optimal_answers);
    tcase_add_test(tc, test_subset_ruf_qtm_depth_counts_and_optimal_answers);
    tcase_add_test(tc, test_subset_ur_group_order_factors);
    tcase_add_test(tc, test_subset_names_faces_and_exact_turns);
    tcase_add_test(tc,
                   test_subset_scrambles_of_the_subset_solve_on_every_puzzle);
    tcase_add_test(tc, test_subset_complete_search_proves_unreachable);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(subset_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
