/* SPDX-License-Identifier: MIT */
/* test_mask.c - goals that care about some pieces only: the quotient a
 * masked instance searches, and optimal answers against plain BFS. */
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "puzzle.h"
#include "tables.h"
#include "testlib.h"

/*
 * Design: the oracle is a breadth-first search in this file over the
 * states of the masked instance (plain puzzle_apply, which renames the
 * pieces the goal does not care about), from the masked goal. Its sizes
 * are counted by hand: the cross is 4 of 12 edges with their flips,
 * 12 * 11 * 10 * 9 * 2^4 = 190,080 arrangements, and the cross is never
 * more than 8 moves from solved in HTM (a known fact of the 3x3x3); the
 * 15-puzzle's first row with the blank is 16 * 15 * 14 * 13 * 12 =
 * 524,160; the 2x2x2's first layer, whose DBL corner the model keeps in
 * place, 7 * 6 * 5 * 3^3 = 5,670. The engines, with the pattern
 * databases the search builds for itself, must answer every sampled
 * state in exactly its BFS depth, and the answer replayed on the whole
 * state must solve the pieces asked for.
 */

typedef struct oracle {
    size_t cap;
    size_t count;
    pz_state_t *states;
    uint8_t *depth;
    uint32_t *slots;
    int max_depth;
} oracle_t;

static int64_t
oracle_find(const oracle_t *o,
            const pz_puzzle_t *p,
            const pz_state_t *s,
            size_t *slot)
{
    size_t mask = 4 * o->cap - 1;
    size_t i = puzzle_hash(p, s) & mask;

    while (o->slots[i] != 0) {
        if (puzzle_equal(p, &o->states[o->slots[i] - 1], s)) {
            return o->slots[i] - 1;
        }
        i = (i + 1) & mask;
    }
    *slot = i;
    return -1;
}

/* Breadth-first search from the n goals goals[] at once. */
static oracle_t
oracle_run_from(const pz_puzzle_t *p,
                const pz_state_t *goals,
                int n,
                size_t cap)
{
    oracle_t o = { .cap = cap };
    size_t slot;

    o.states = malloc(cap * sizeof(*o.states));
    o.depth = malloc(cap);
    o.slots = calloc(4 * cap, sizeof(*o.slots));
    ck_assert(o.states != NULL && o.depth != NULL && o.slots != NULL);
    for (int i = 0; i < n; i++) {
        ck_assert_int_lt(oracle_find(&o, p, &goals[i], &slot), 0);
        o.states[o.count] = goals[i];
        o.depth[o.count] = 0;
        o.slots[slot] = (uint32_t)++o.count;
    }
    for (size_t q = 0; q < o.count; q++) {
        for (int m = 0; m < p->nmoves; m++) {
            pz_state_t c;

            if (!puzzle_apply(p, &o.states[q], m, &c) ||
                oracle_find(&o, p, &c, &slot) >= 0) {
                continue;
            }
            ck_assert_uint_lt(o.count, cap);
            o.states[o.count] = c;
            o.depth[o.count] = (uint8_t)(o.depth[q] + 1);
            o.max_depth = o.depth[q] + 1;
            o.slots[slot] = (uint32_t)++o.count;
        }
    }
    return o;
}

static oracle_t
oracle_run(const pz_puzzle_t *p, const pz_state_t *goal, size_t cap)
{
    return oracle_run_from(p, goal, 1, cap);
}

static void
oracle_free(oracle_t *o)
{
    free(o->states);
    free(o->depth);
    free(o->slots);
}

static pz_puzzle_t *
masked(const char *name, int rows, const char *const *care, int n)
{
    pz_puzzle_t *p = tl_make(name, rows, rows, 0);
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_msg(puzzle_mask_care(p, care, n, &d) == PZ_OK, "%s", d.detail);
    return p;
}

/* Solves samples random states of the full puzzle full to the masked
 * goal of p with engine: each answer is as long as the oracle's depth of
 * the masked start, optimal, and solves the cared-about bytes of the
 * whole state. */
static void
assert_answers(const pz_puzzle_t *full,
               const pz_puzzle_t *p,
               const oracle_t *o,
               const char *engine,
               int samples,
               int scramble)
{
    pz_state_t goal;
    pz_rng_t rng;

    pz_rng_seed(&rng, 77);
    puzzle_goal(full, &goal);
    for (int k = 0; k < samples; k++) {
        pz_state_t s;
        pz_state_t ms;
        pz_state_t mg = goal;
        pz_state_t end;
        solve_spec_t spec;
        pz_solution_t sol;
        size_t slot;
        int64_t at;

        if (scramble > 0) {
            tl_scramble(full, &goal, scramble, &rng, &s);
        } else {
            s = tl_random_state(full, &rng);
        }
        ms = s;
        puzzle_mask_state(p, &ms);
        puzzle_mask_state(p, &mg);
        at = oracle_find(o, p, &ms, &slot);
        ck_assert_int_ge(at, 0);
        spec = tl_spec(p, &ms, &mg);
        sol = tl_solve_spec(&spec, engine, "mask-pdb", 1.0, NULL);
        ck_assert_msg(sol.length == o->depth[at], "%s: %d moves, BFS %d",
                      engine, sol.length, o->depth[at]);
        ck_assert(sol.optimal);
        /* On the whole puzzle, the cared-about pieces end solved. */
        ck_assert_int_eq(puzzle_replay(full, &s, sol.moves, sol.length, &end),
                         PZ_OK);
        puzzle_mask_state(p, &end);
        ck_assert(puzzle_is_goal(p, &end, &mg));
    }
}

START_TEST(test_mask_cross_quotient_and_answers)
{
    static const char *const care[] = { "cross" };
    pz_puzzle_t *full = tl_make("3x3x3", 0, 0, 0);
    pz_puzzle_t *p = masked("3x3x3", 0, care, 1);
    pz_state_t g;
    oracle_t o;

    ck_assert_int_eq(p->mask->cared_count, 4);
    puzzle_goal(p, &g);
    puzzle_mask_state(p, &g);
    o = oracle_run(p, &g, 1 << 18);
    ck_assert_uint_eq(o.count, 190080);
    ck_assert_int_eq(o.max_depth, 8);
    assert_answers(full, p, &o, "idastar", 8, 0);
    assert_answers(full, p, &o, "astar", 2, 0);
    oracle_free(&o);
    puzzle_destroy(p);
    puzzle_destroy(full);
}
END_TEST

START_TEST(test_mask_tiles_first_row_quotient_and_answers)
{
    static const char *const fixed[] = { "0", "1", "2", "3", "4" };
    static const char *const row[] = { "1", "2", "3", "4" };
    pz_puzzle_t *full = tl_make("tiles", 4, 4, 0);
    pz_puzzle_t *p = masked("tiles", 4, fixed, 5);
    pz_puzzle_t *q = masked("tiles", 4, row, 4);
    pz_state_t goals[12];
    pz_state_t g;
    oracle_t o;

    /* The blank named: its goal cell counts; one goal state. */
    ck_assert_int_eq(p->mask->cared_count, 5);
    ck_assert(!p->mask->free_blank);
    puzzle_goal(p, &g);
    puzzle_mask_state(p, &g);
    o = oracle_run(p, &g, 1 << 20);
    ck_assert_uint_eq(o.count, 524160);
    assert_answers(full, p, &o, "idastar", 5, 0);
    assert_answers(full, p, &o, "bibfs", 2, 0);
    oracle_free(&o);
    /* The first row only: the blank in any of the other 12 cells is a
     * goal; the oracle starts from all twelve. */
    ck_assert(q->mask->free_blank);
    puzzle_goal(q, &g);
    puzzle_mask_state(q, &g);
    for (int i = 4; i < 16; i++) {
        goals[i - 4] = g;
        goals[i - 4].b[15] = g.b[5]; /* a wildcard where the blank was */
        goals[i - 4].b[i] = 0;
        goals[i - 4].b[16] = (uint8_t)i;
        ck_assert(puzzle_is_goal(q, &goals[i - 4], &g));
    }
    o = oracle_run_from(q, goals, 12, 1 << 20);
    ck_assert_uint_eq(o.count, 524160);
    assert_answers(full, q, &o, "idastar", 5, 0);
    assert_answers(full, q, &o, "astar", 2, 0);
    oracle_free(&o);
    puzzle_destroy(q);
    puzzle_destroy(p);
    puzzle_destroy(full);
}
END_TEST

START_TEST(test_mask_cube2_first_layer_quotient_and_answers)
{
    static const char *const care[] = { "first-layer" };
    pz_puzzle_t *full = tl_make("2x2x2", 0, 0, 0);
    pz_puzzle_t *p = masked("2x2x2", 0, care, 1);
    pz_state_t g;
    oracle_t o;

    puzzle_goal(p, &g);
    puzzle_mask_state(p, &g);
    o = oracle_run(p, &g, 1 << 14);
    ck_assert_uint_eq(o.count, 5670);
    assert_answers(full, p, &o, "idastar", 12, 0);
    assert_answers(full, p, &o, "astar", 6, 0);
    oracle_free(&o);
    puzzle_destroy(p);
    puzzle_destroy(full);
}
END_TEST

/* The xcross's quotient is larger than one database may hold: the search
 * splits its pieces into groups, and its answer is optimal, solves the
 * six pieces on the whole cube, and is no shorter than the cross alone. */
START_TEST(test_mask_xcross_splits_and_solves)
{
    static const char *const xcross[] = { "xcross" };
    static const char *const cross[] = { "cross" };
    pz_puzzle_t *full = tl_make("3x3x3", 0, 0, 0);
    pz_state_t s = tl_scrambled(full, "R U F' L2 D B' R2 U' F D2 L' B U2 R'");
    int len[2];

    for (int k = 0; k < 2; k++) {
        pz_puzzle_t *p = masked("3x3x3", 0, k == 0 ? xcross : cross, 1);
        pz_state_t ms = s;
        pz_state_t mg;
        pz_state_t end;
        solve_spec_t spec;
        pz_solution_t sol;

        ck_assert_int_eq(p->mask->cared_count, k == 0 ? 6 : 4);
        puzzle_goal(full, &mg);
        puzzle_mask_state(p, &mg);
        puzzle_mask_state(p, &ms);
        spec = tl_spec(p, &ms, &mg);
        sol = tl_solve_spec(&spec, "idastar", "mask-pdb", 1.0, NULL);
        ck_assert(sol.optimal);
        ck_assert_int_eq(puzzle_replay(full, &s, sol.moves, sol.length, &end),
                         PZ_OK);
        puzzle_mask_state(p, &end);
        ck_assert(puzzle_equal(p, &end, &mg));
        len[k] = sol.length;
        puzzle_destroy(p);
    }
    ck_assert_int_ge(len[0], len[1]);
    puzzle_destroy(full);
}
END_TEST

/* Orientation only: "eo" makes every edge one class, oriented; its
 * quotient is the 2^11 = 2,048 flip patterns. "oll" keeps the first two
 * layers and orients the last: sampled last-layer cases are solved with
 * the first two layers in place and the last layer oriented. */
START_TEST(test_mask_orientation_classes)
{
    static const char *const eo[] = { "eo" };
    static const char *const oll[] = { "oll" };
    pz_puzzle_t *full = tl_make("3x3x3", 0, 0, 0);
    pz_puzzle_t *p = masked("3x3x3", 0, eo, 1);
    pz_puzzle_t *q = masked("3x3x3", 0, oll, 1);
    static const char *const cases[] = {
        "R U R' U R U2 R'",
        "F R U R' U' F'",
        "R U2 R2 U' R2 U' R2 U2 R",
        "F R U R' U' F' U F R U R' U' F'",
    };
    pz_state_t g;
    oracle_t o;

    puzzle_goal(p, &g);
    puzzle_mask_state(p, &g);
    o = oracle_run(p, &g, 1 << 12);
    ck_assert_uint_eq(o.count, 2048);
    assert_answers(full, p, &o, "idastar", 8, 0);
    oracle_free(&o);
    ck_assert_int_eq(q->mask->cared_count, 20);
    for (int i = 0; i < 4; i++) {
        pz_state_t s = tl_scrambled(full, cases[i]);
        pz_state_t ms = s;
        pz_state_t mg;
        pz_state_t end;
        solve_spec_t spec;
        pz_solution_t sol;

        puzzle_goal(full, &mg);
        puzzle_mask_state(q, &mg);
        puzzle_mask_state(q, &ms);
        spec = tl_spec(q, &ms, &mg);
        sol = tl_solve_spec(&spec, "idastar", "mask-pdb", 1.0, NULL);
        ck_assert(sol.optimal);
        ck_assert_int_le(sol.length, 14);
        ck_assert_int_eq(puzzle_replay(full, &s, sol.moves, sol.length, &end),
                         PZ_OK);
        /* First two layers home; the last layer's U stickers up. */
        for (int c = 4; c < 8; c++) {
            ck_assert_int_eq(end.b[c], c * 3);
        }
        for (int e = 4; e < 12; e++) {
            ck_assert_int_eq(end.b[8 + e], e * 2);
        }
        for (int c = 0; c < 4; c++) {
            ck_assert_int_eq(end.b[c] % 3, 0);
            ck_assert_int_lt(end.b[c] / 3, 4);
        }
        for (int e = 0; e < 4; e++) {
            ck_assert_int_eq(end.b[8 + e] % 2, 0);
            ck_assert_int_lt(end.b[8 + e] / 2, 4);
        }
    }
    puzzle_destroy(q);
    puzzle_destroy(p);
    puzzle_destroy(full);
}
END_TEST

/* A database built in full is kept for the process, within the tables'
 * memory cap: the next search for the same goal builds nothing (its
 * budget's peak stays small); past the cap nothing is kept. */
START_TEST(test_mask_databases_are_cached)
{
    static const char *const cross[] = { "cross" };
    static const char *const block[] = { "2x2x2-block" };
    pz_puzzle_t *full = tl_make("3x3x3", 0, 0, 0);
    pz_puzzle_t *p = masked("3x3x3", 0, cross, 1);
    pz_puzzle_t *q = masked("3x3x3", 0, block, 1);
    pz_state_t s = tl_scrambled(full, "R U F' L2 D B' R2 U' F D2");
    size_t before = tables_memory_bytes();
    size_t peak[2];
    size_t kept;

    for (int k = 0; k < 2; k++) {
        pz_stats_view_t v;
        pz_state_t ms = s;
        solve_spec_t spec;

        puzzle_mask_state(p, &ms);
        spec = tl_spec(p, &ms, NULL);
        puzzle_mask_state(p, &spec.goal);
        (void)tl_solve_spec(&spec, "idastar", "mask-pdb", 1.0, &v);
        peak[k] = v.peak_memory;
    }
    kept = tables_memory_bytes() - before;
    ck_assert_uint_gt(kept, (size_t)190080 * 20);
    ck_assert_uint_gt(peak[0], (size_t)190080 * 20);
    ck_assert_uint_lt(peak[1], (size_t)64 << 10);
    /* At the cap: built for the search, not kept. */
    tables_set_memory_limit(tables_memory_bytes());
    for (int k = 0; k < 2; k++) {
        pz_stats_view_t v;
        pz_state_t ms = s;
        solve_spec_t spec;

        puzzle_mask_state(q, &ms);
        spec = tl_spec(q, &ms, NULL);
        puzzle_mask_state(q, &spec.goal);
        (void)tl_solve_spec(&spec, "idastar", "mask-pdb", 1.0, &v);
        ck_assert_uint_gt(v.peak_memory, (size_t)1 << 20);
    }
    ck_assert_uint_eq(tables_memory_bytes() - before, kept);
    tables_set_memory_limit(0);
    puzzle_destroy(q);
    puzzle_destroy(p);
    puzzle_destroy(full);
}
END_TEST

/* The skewb's first layer (the D centre and corners): 6 * 7 * 6 * 5 *
 * 4 * 3^4 arrangements at most (the UFR corner never moves), searched by
 * the oracle; answers equal its depths. */
START_TEST(test_mask_skewb_first_layer)
{
    static const char *const care[] = { "first-layer" };
    pz_puzzle_t *full = tl_make("skewb", 0, 0, 0);
    pz_puzzle_t *p = masked("skewb", 0, care, 1);
    pz_state_t g;
    oracle_t o;

    ck_assert_int_eq(p->mask->cared_count, 5);
    puzzle_goal(p, &g);
    puzzle_mask_state(p, &g);
    o = oracle_run(p, &g, 1 << 20);
    ck_assert_uint_gt(o.count, 1000);
    ck_assert_uint_le(o.count, 6 * 7 * 6 * 5 * 4 * 81);
    assert_answers(full, p, &o, "idastar", 6, 0);
    assert_answers(full, p, &o, "bibfs", 3, 0);
    oracle_free(&o);
    puzzle_destroy(p);
    puzzle_destroy(full);
}
END_TEST

/* Building the databases counts against the search's time: a time limit
 * shorter than the build ends the run at it, with nothing left drawn. */
START_TEST(test_mask_pdb_build_keeps_the_time_limit)
{
    static const char *const care[] = { "f2l" };
    pz_puzzle_t *full = tl_make("3x3x3", 0, 0, 0);
    pz_puzzle_t *p = masked("3x3x3", 0, care, 1);
    pz_state_t s = tl_scrambled(full, "R U F' L2 D B' R2 U' F D2 L' B U2");
    solve_spec_t spec;
    solve_run_t run;

    puzzle_mask_state(p, &s);
    spec = tl_spec(p, &s, NULL);
    puzzle_mask_state(p, &spec.goal);
    spec.limits.time_ms = 30;
    ck_assert_int_eq(tl_run(&spec, "idastar", "mask-pdb", 1.0, NULL, &run),
                     PZ_OK);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_TIMEOUT);
    puzzle_destroy(p);
    puzzle_destroy(full);
}
END_TEST

START_TEST(test_mask_names_and_refusals)
{
    static const char *const bad[] = { "DF", "QQ" };
    static const char *const two[] = { "DF", "urf" };
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, 0);
    pz_puzzle_t *pyr = tl_make("pyraminx", 0, 0, 0);
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_mask_care(p, bad, 2, &d), PZ_EINVAL);
    ck_assert_ptr_nonnull(strstr(d.detail, "QQ"));
    ck_assert_ptr_null(p->mask);
    ck_assert_int_eq(puzzle_mask_care(p, two, 2, &d), PZ_OK);
    ck_assert_int_eq(p->mask->cared_count, 2);
    ck_assert_ptr_nonnull(heuristic_find(p, "mask-pdb"));
    ck_assert_int_eq(puzzle_mask_care(pyr, two, 1, &d), PZ_EUNSUPPORTED);
    ck_assert_ptr_null(heuristic_find(pyr, "mask-pdb"));
    puzzle_destroy(p);
    puzzle_destroy(pyr);
}
END_TEST

/* A database that cannot be built within the budget ends the run with
 * memory_limit, and everything drawn is given back. */
START_TEST(test_mask_pdb_respects_the_budget)
{
    static const char *const care[] = { "cross" };
    pz_puzzle_t *full = tl_make("3x3x3", 0, 0, 0);
    pz_puzzle_t *p = masked("3x3x3", 0, care, 1);
    pz_state_t s = tl_scrambled(full, "R U F' L2 D B' R2");
    solve_spec_t spec;
    solve_run_t run;

    puzzle_mask_state(p, &s);
    spec = tl_spec(p, &s, NULL);
    puzzle_mask_state(p, &spec.goal);
    spec.limits.memory_bytes = 2048;
    ck_assert_int_eq(tl_run(&spec, "idastar", "mask-pdb", 1.0, NULL, &run),
                     PZ_OK);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_MEMORY_LIMIT);
    /* A small budget still answers, from a smaller database. */
    spec.limits.memory_bytes = (size_t)1 << 20;
    ck_assert_int_eq(tl_run(&spec, "idastar", "mask-pdb", 1.0, NULL, &run),
                     PZ_OK);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
    ck_assert(run.solution.optimal);
    puzzle_destroy(p);
    puzzle_destroy(full);
}
END_TEST

static Suite *
mask_suite(void)
{
    Suite *s = suite_create("mask");
    TCase *tc = tcase_create("mask");

    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_mask_cross_quotient_and_answers);
    tcase_add_test(tc, test_mask_tiles_first_row_quotient_and_answers);
    tcase_add_test(tc, test_mask_cube2_first_layer_quotient_and_answers);
    tcase_add_test(tc, test_mask_xcross_splits_and_solves);
    tcase_add_test(tc, test_mask_orientation_classes);
    tcase_add_test(tc, test_mask_databases_are_cached);
    tcase_add_test(tc, test_mask_skewb_first_layer);
    tcase_add_test(tc, test_mask_pdb_build_keeps_the_time_limit);
    tcase_add_test(tc, test_mask_names_and_refusals);
    tcase_add_test(tc, test_mask_pdb_respects_the_budget);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(mask_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
