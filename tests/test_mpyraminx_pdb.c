/* SPDX-License-Identifier: MIT */
/* test_mpyraminx_pdb.c - the Master Pyraminx pattern databases: complete
 * rank spaces, admissibility against breadth-first depths, any goal. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "puzzles/mpyraminx/mpyraminx.h"
#include "solve.h"
#include "tables.h"
#include "testlib.h"
#include "tmpdir_testlib.h"

/*
 * Golden facts (independent counts, docs/master-pyraminx.md): the positions
 * at depth 0..4 with the 32-move set, 1 32 648 11536 198736, and the number
 * of positions without tips, 2,681,795,837,952,000 = 3^4 (axial twists) x
 * 4!/2 (centres) x 6!/2 x 2^5 (midges) x 12!/2 (wings), with 3^4 tip twists
 * on top. Each table's rank space is a product of these factors, so a table
 * whose search reaches every rank agrees with the group.
 */
static const uint64_t published[5] = { 1, 32, 648, 11536, 198736 };

static char table_dir[64];

static void
dir_setup(void)
{
    tmpdir_make(table_dir, sizeof(table_dir), "test-mpyr-pdb");
    if (tables_set_dir(table_dir) != PZ_OK) {
        abort();
    }
}

static void
dir_teardown(void)
{
    tables_unload_all();
    /* Back to the environment's directory (the slow tests use it). */
    if (tables_set_dir(NULL) != PZ_OK) {
        abort();
    }
    tmpdir_remove(table_dir);
}

/* Builds table t in memory; returns the entries reached in total and
 * the counts per stored distance in counts[16]. */
static uint64_t
build_counts(int t, uint64_t *counts)
{
    uint64_t bytes = mpyraminx_pdb_bytes(t);
    uint8_t *data = calloc(1, bytes);
    uint64_t total = 0;

    ck_assert_ptr_nonnull(data);
    ck_assert_int_eq(mpyraminx_pdb_build(t, data, bytes, counts), PZ_OK);
    for (int d = 0; d < 16; d++) {
        total += counts[d];
    }
    free(data);
    return total;
}

/* --- Open-addressing set of 16-byte states for the BFS ---------------- */

typedef struct set {
    pz_state_t *e;
    uint8_t *used;
    size_t cap;
} set_t;

static bool
set_add(set_t *t, const pz_state_t *s)
{
    size_t h = state_hash_bytes(s->b, 16) & (t->cap - 1);

    while (t->used[h]) {
        if (memcmp(t->e[h].b, s->b, 16) == 0) {
            return false;
        }
        h = (h + 1) & (t->cap - 1);
    }
    t->used[h] = 1;
    t->e[h] = *s;
    return true;
}

/*
 * Breadth-first search to max_depth (<= 4) from goal; checks the layer sizes
 * against the published counts (for the default goal) and, for every
 * state, that h never exceeds its depth and changes by at most one per
 * move (a consistent estimate). Returns the failures (0 expected).
 */
static int
bfs_check(const pz_puzzle_t *p,
          const pz_heuristic_t *h,
          const pz_state_t *goal,
          int max_depth,
          bool counts_published,
          int *h_max)
{
    set_t t = { NULL, NULL, (size_t)1 << 20 };
    pz_state_t *layer = malloc(250000 * sizeof(pz_state_t));
    pz_state_t *next = malloc(250000 * sizeof(pz_state_t));
    size_t n = 1;
    int bad = 0;

    t.e = malloc(t.cap * sizeof(pz_state_t));
    t.used = calloc(t.cap, 1);
    ck_assert(layer != NULL && next != NULL && t.e != NULL && t.used != NULL);
    layer[0] = *goal;
    set_add(&t, goal);
    bad += heuristic_eval(h, goal) != 0;
    *h_max = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        size_t nn = 0;

        for (size_t i = 0; i < n; i++) {
            int hp = heuristic_eval(h, &layer[i]);

            for (int m = 0; m < 32; m++) {
                pz_state_t s;
                int hc;

                puzzle_apply(p, &layer[i], m, &s);
                hc = heuristic_eval(h, &s);
                bad += hc > hp + 1 || hc < hp - 1;
                if (set_add(&t, &s)) {
                    bad += hc > depth;
                    *h_max = hc > *h_max ? hc : *h_max;
                    next[nn++] = s;
                }
            }
        }
        if (counts_published && nn != published[depth]) {
            bad++;
        }
        memcpy(layer, next, nn * sizeof(pz_state_t));
        n = nn;
    }
    free(t.e);
    free(t.used);
    free(layer);
    free(next);
    return bad;
}

/* --- build ------------------------------------------------------------ */

START_TEST(test_mpyraminx_pdb_build_acm_reaches_every_rank)
{
    uint64_t counts[16] = { 0 };

    /* 3^4 axial twists x 4!/2 centres x 6!/2 x 2^5 midges. */
    ck_assert_uint_eq(build_counts(MPYRAMINX_PDB_ACM, counts),
                      UINT64_C(81) * 12 * 360 * 32);
    ck_assert_uint_eq(counts[0], 1);
    ck_assert_uint_eq(counts[15], 0);
}
END_TEST

START_TEST(test_mpyraminx_pdb_build_tam_reaches_every_rank_slow)
{
    uint64_t counts[16] = { 0 };

    /* 3^4 tip x 3^4 axial twists x 6!/2 x 2^5 midges; every move changes
     * one of these, and the 32 moves of depth 1 are all different. */
    ck_assert_uint_eq(build_counts(MPYRAMINX_PDB_TAM, counts),
                      UINT64_C(81) * 81 * 360 * 32);
    ck_assert_uint_eq(counts[0], 1);
    ck_assert_uint_eq(counts[1], published[1]);
    ck_assert_uint_eq(counts[15], 0);
}
END_TEST

START_TEST(test_mpyraminx_pdb_build_wrong_size_rejected)
{
    uint8_t byte = 0;

    ck_assert_int_eq(mpyraminx_pdb_build(MPYRAMINX_PDB_ACM, &byte, 1, NULL),
                     PZ_EINVAL);
    ck_assert_int_eq(mpyraminx_pdb_build(7, &byte, 1, NULL), PZ_EINVAL);
    ck_assert_uint_eq(mpyraminx_pdb_bytes(-1), 0);
}
END_TEST

START_TEST(test_mpyraminx_pdb_table_defs_listed)
{
    tables_blob_def_t defs[MPYRAMINX_PDB_COUNT];
    int n = mpyraminx_table_defs(defs, MPYRAMINX_PDB_COUNT);

    ck_assert_int_eq(n, MPYRAMINX_PDB_COUNT);
    for (int i = 0; i < n; i++) {
        ck_assert_uint_eq(defs[i].bytes, mpyraminx_pdb_bytes(i));
        ck_assert(defs[i].build != NULL);
    }
    /* 12!/2 wings at 4 bits each. */
    ck_assert_uint_eq(defs[MPYRAMINX_PDB_WINGS].bytes, 239500800 / 2);
}
END_TEST

/* --- heuristic ---------------------------------------------------------- */

START_TEST(test_mpyraminx_pdb_small_admissible_to_depth_4)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    int h_max;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "pdb-small", &goal, &h, NULL), PZ_OK);
    ck_assert(heuristic_admissible(h));
    ck_assert_int_eq(bfs_check(p, h, &goal, 4, true, &h_max), 0);
    /* Informative: some depth-4 state is seen to need 4 moves. */
    ck_assert_int_eq(h_max, 4);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_pdb_small_admissible_random_goal)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    pz_rng_t rng;
    int h_max;

    pz_rng_seed(&rng, 7);
    ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &goal), PZ_OK);
    ck_assert_int_eq(heuristic_create(p, "pdb-small", &goal, &h, NULL), PZ_OK);
    /* Depths from a random goal: the same tables, renamed pieces. */
    ck_assert_int_eq(bfs_check(p, h, &goal, 3, false, &h_max), 0);
    ck_assert_int_eq(h_max, 3);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/*
 * IDA* with heuristic ha against IDA* with hb on count random scrambles of
 * moves moves (seed), threads 1 or, with alternate, 1 and 2 in turn, time
 * limit time_ms (0: none); with solved, ha's runs must end solved.
 * Returns the scrambles where the lengths differ or ha's answer is not
 * optimal.
 */
static int
idastar_disagreements(const char *ha,
                      const char *hb,
                      int count,
                      int moves,
                      uint64_t seed,
                      bool alternate,
                      uint64_t time_ms,
                      bool solved)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_rng_t rng;
    int bad = 0;

    pz_rng_seed(&rng, seed);
    for (int i = 0; i < count; i++) {
        uint8_t mv[PZ_SOLUTION_MAX];
        solve_spec_t spec;
        solve_run_t a;
        solve_run_t b;

        memset(&spec, 0, sizeof(spec));
        spec.puzzle = p;
        spec.threads = alternate ? 1 + i % 2 : 1;
        spec.limits.time_ms = time_ms;
        spec.limits.memory_bytes = 64 << 20;
        puzzle_goal(p, &spec.goal);
        puzzle_random_moves(p, &spec.goal, moves, pz_rng_next, &rng, mv);
        puzzle_replay(p, &spec.goal, mv, moves, &spec.start);
        solve_run_init(&a, engine_find("idastar"), ha, 1.0);
        solve_run_init(&b, engine_find("idastar"), hb, 1.0);
        ck_assert_int_eq(solve_execute(&spec, &a, NULL), PZ_OK);
        ck_assert_int_eq(solve_execute(&spec, &b, NULL), PZ_OK);
        if (solved) {
            ck_assert_int_eq(a.solution.status, PZ_STATUS_SOLVED);
        }
        bad += a.solution.length != b.solution.length || !a.solution.optimal;
    }
    puzzle_destroy(p);
    return bad;
}

/* IDA* with pdb-small finds the same optimal lengths as IDA* with the
 * independent 'pieces' heuristic. */
START_TEST(test_mpyraminx_pdb_small_idastar_agrees_with_pieces)
{
    ck_assert_int_eq(idastar_disagreements("pdb-small", "pieces", 4, 5, 11,
                                           false, 60000, false),
                     0);
}
END_TEST

/* The children op of heuristic name gives each child its exact estimate
 * when that is at most the limit, and an admissible estimate above the
 * limit otherwise (random states, random limits). */
static void
check_children_match_eval(const char *name)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    pz_rng_t rng;
    int bad = 0;
    int above = 0;
    int exact = 0;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, name, &goal, &h, NULL), PZ_OK);
    ck_assert(heuristic_has_children(h));
    pz_rng_seed(&rng, 5);
    for (int i = 0; i < 200; i++) {
        pz_state_t s;
        int16_t out[32];
        int limit = (int)(pz_rng_next(&rng) % 13);
        /* Every move, or a random part of them (as after move pruning). */
        uint64_t todo = i % 2 ? UINT64_C(0xffffffff)
                              : pz_rng_next(&rng) & UINT64_C(0xffffffff);
        int hp;

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &s), PZ_OK);
        hp = heuristic_eval(h, &s);
        heuristic_children(h, &s, hp, todo, limit, out);
        for (int m = 0; m < 32; m++) {
            pz_state_t c;
            int e;

            if (!(todo >> m & 1)) {
                continue;
            }
            puzzle_apply(p, &s, m, &c);
            e = heuristic_eval(h, &c);
            if (e <= limit) {
                bad += out[m] != e;
                exact++;
            } else {
                bad += out[m] <= limit || out[m] > e;
                above++;
            }
        }
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_gt(above, 0);
    ck_assert_int_gt(exact, 0);
    heuristic_destroy(h);
    puzzle_destroy(p);
}

START_TEST(test_mpyraminx_pdb_small_children_match_eval)
{
    check_children_match_eval("pdb-small");
}
END_TEST

/* With optimal, auto takes the strongest heuristic whose tables are built
 * and fit under the tables' memory cap, else pdb. */
START_TEST(test_mpyraminx_pdb_auto_takes_strongest_built)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    engine_choice_t c;
    char dir[256];

    tables_unload_all();
    tmpdir_make(dir, sizeof(dir), "pz-mpyr-auto");
    ck_assert_int_eq(tables_set_dir(dir), PZ_OK);
    puzzle_goal(p, &goal);
    engine_auto(p, NULL, true, &c);
    ck_assert_str_eq(c.heuristic, "pdb");
    /* Builds (and saves) the two tables of pdb-small. */
    ck_assert_int_eq(heuristic_create(p, "pdb-small", &goal, &h, NULL), PZ_OK);
    heuristic_destroy(h);
    engine_auto(p, NULL, true, &c);
    ck_assert_str_eq(c.engine->name, "idastar");
    ck_assert_str_eq(c.heuristic, "pdb-small");
    /* Out of memory, in files: 41 MiB do not fit under a 1 MiB cap. */
    tables_unload_all();
    tables_set_memory_limit(1 << 20);
    engine_auto(p, NULL, true, &c);
    ck_assert_str_eq(c.heuristic, "pdb");
    tables_set_memory_limit(0);
    engine_auto(p, NULL, true, &c);
    ck_assert_str_eq(c.heuristic, "pdb-small");
    tables_unload_all();
    ck_assert_int_eq(tables_set_dir(table_dir), PZ_OK);
    tmpdir_remove(dir);
    puzzle_destroy(p);
}
END_TEST

/* --- slow: the wing table ------------------------------------------------ */

START_TEST(test_mpyraminx_pdb_build_wings_reaches_every_rank_slow)
{
    uint64_t counts[16] = { 0 };

    /* 12!/2 wing permutations; tip moves carry no wing, so depth 1 holds
     * the 24 other moves. */
    ck_assert_uint_eq(build_counts(MPYRAMINX_PDB_WINGS, counts),
                      UINT64_C(239500800));
    ck_assert_uint_eq(counts[1], 24);
    ck_assert_uint_eq(counts[15], 0);
}
END_TEST

START_TEST(test_mpyraminx_pdb_admissible_to_depth_4_slow)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    int h_max;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &h, NULL), PZ_OK);
    ck_assert_int_eq(bfs_check(p, h, &goal, 4, true, &h_max), 0);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* --- slow: pdb-large (wings and centres; tips, axials, centres, midges) -- */

/* Builds table t in memory into *data (owned by the caller); returns the
 * counts per stored distance in counts[16]. */
static uint8_t *
build_table(int t, uint64_t *counts)
{
    uint64_t bytes = mpyraminx_pdb_bytes(t);
    uint8_t *data = calloc(1, bytes);

    ck_assert_ptr_nonnull(data);
    ck_assert_int_eq(mpyraminx_pdb_build(t, data, bytes, counts), PZ_OK);
    return data;
}

static int
entry(const uint8_t *t, uint64_t i)
{
    return t[i >> 1] >> (4 * (i & 1)) & 15;
}

/*
 * A table over fewer pieces holds, for each of its patterns, the least
 * value of the larger table over the patterns that add the centres: a
 * sequence that solves a larger pattern solves its part, and the moves
 * that solve a part, made from the goal, reach some larger pattern over
 * it. Coarse index o * inner + j, fine index (o * 12 + c) * inner + j.
 * Returns the coarse entries that differ.
 */
static uint64_t
centre_min_mismatches(const uint8_t *coarse,
                      const uint8_t *fine,
                      uint64_t outer,
                      uint64_t inner)
{
    uint64_t bad = 0;

    for (uint64_t o = 0; o < outer; o++) {
        for (uint64_t j = 0; j < inner; j++) {
            int least = 15;

            for (uint64_t c = 0; c < 12; c++) {
                int v = entry(fine, (o * 12 + c) * inner + j);

                least = v < least ? v : least;
            }
            bad += least != entry(coarse, o * inner + j);
        }
    }
    return bad;
}

START_TEST(test_mpyraminx_pdb_build_tacm_projects_onto_tam_slow)
{
    uint64_t counts[16] = { 0 };
    uint64_t small[16] = { 0 };
    uint8_t *tacm = build_table(MPYRAMINX_PDB_TACM, counts);
    uint8_t *tam = build_table(MPYRAMINX_PDB_TAM, small);

    /* The 32 moves of depth 1 are all different; the tips, axials and
     * midges table (no entry clamped) is the least over the centres. */
    ck_assert_uint_eq(counts[0], 1);
    ck_assert_uint_eq(counts[1], published[1]);
    ck_assert_uint_eq(small[14], 0);
    ck_assert_uint_eq(
        centre_min_mismatches(tam, tacm, UINT64_C(11520) * 6561, 1), 0);
    free(tacm);
    free(tam);
}
END_TEST

START_TEST(test_mpyraminx_pdb_build_wings_centres_projects_onto_wings_slow)
{
    uint64_t counts[16] = { 0 };
    uint64_t small[16] = { 0 };
    uint8_t *wc = build_table(MPYRAMINX_PDB_WC, counts);
    uint8_t *wings = build_table(MPYRAMINX_PDB_WINGS, small);
    uint64_t total = 0;

    /* 12!/2 wings x 4!/2 centres, every one reached below the clamp;
     * tip moves carry neither, so depth 1 holds the 24 others. */
    for (int d = 0; d < 14; d++) {
        total += counts[d];
    }
    ck_assert_uint_eq(total, UINT64_C(239500800) * 12);
    ck_assert_uint_eq(counts[1], 24);
    ck_assert_uint_eq(centre_min_mismatches(wings, wc, 665280, 360), 0);
    free(wc);
    free(wings);
}
END_TEST

/* pdb-large is admissible and consistent to depth 4, and never below pdb
 * (each of its tables holds the pieces of one or two of pdb's and more). */
START_TEST(test_mpyraminx_pdb_large_admissible_and_above_pdb_slow)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_heuristic_t *large = NULL;
    pz_heuristic_t *pdb = NULL;
    pz_state_t goal;
    pz_rng_t rng;
    int h_max;
    int below = 0;
    int higher = 0;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "pdb-large", &goal, &large, NULL),
                     PZ_OK);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &pdb, NULL), PZ_OK);
    ck_assert(heuristic_admissible(large));
    ck_assert_int_eq(bfs_check(p, large, &goal, 4, true, &h_max), 0);
    ck_assert_int_eq(h_max, 4);
    pz_rng_seed(&rng, 9);
    for (int i = 0; i < 2000; i++) {
        pz_state_t s;
        int a;
        int b;

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &s), PZ_OK);
        a = heuristic_eval(large, &s);
        b = heuristic_eval(pdb, &s);
        below += a < b;
        higher += a > b;
    }
    ck_assert_int_eq(below, 0);
    ck_assert_int_gt(higher, 0);
    heuristic_destroy(large);
    heuristic_destroy(pdb);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_pdb_large_children_match_eval_slow)
{
    check_children_match_eval("pdb-large");
}
END_TEST

/* IDA* with pdb-large finds the optimal lengths IDA* with pdb finds, on
 * one and two threads. */
START_TEST(test_mpyraminx_pdb_large_idastar_agrees_with_pdb_slow)
{
    ck_assert_int_eq(
        idastar_disagreements("pdb-large", "pdb", 6, 10, 13, true, 0, true), 0);
}
END_TEST

static Suite *
mpyraminx_pdb_suite(void)
{
    Suite *s = suite_create("mpyraminx_pdb");
    TCase *tc_build = tcase_create("build");
    TCase *tc_heur = tcase_create("heuristic");

    tcase_set_timeout(tc_build, 120);
    tcase_add_test(tc_build, test_mpyraminx_pdb_build_acm_reaches_every_rank);
    tcase_add_test(tc_build, test_mpyraminx_pdb_build_wrong_size_rejected);
    tcase_add_test(tc_build, test_mpyraminx_pdb_table_defs_listed);
    suite_add_tcase(s, tc_build);

    /* The small tables are built once into a temporary directory by the
     * parent, so each forked test maps them. */
    tcase_add_unchecked_fixture(tc_heur, dir_setup, dir_teardown);
    tcase_set_timeout(tc_heur, 120);
    tcase_add_test(tc_heur, test_mpyraminx_pdb_small_admissible_to_depth_4);
    tcase_add_test(tc_heur, test_mpyraminx_pdb_small_admissible_random_goal);
    tcase_add_test(tc_heur,
                   test_mpyraminx_pdb_small_idastar_agrees_with_pieces);
    tcase_add_test(tc_heur, test_mpyraminx_pdb_small_children_match_eval);
    tcase_add_test(tc_heur, test_mpyraminx_pdb_auto_takes_strongest_built);
    suite_add_tcase(s, tc_heur);

    /* Builds of every table in memory (the largest 1.4 GB, a few minutes
     * on one thread) and the heuristics on the tables of the table
     * directory ($PUZZLED_TABLES, built there once): only on request. */
    if (getenv("PZ_SLOW_TESTS") != NULL) {
        TCase *tc_slow = tcase_create("slow");

        tcase_set_timeout(tc_slow, 1800);
        tcase_add_test(tc_slow,
                       test_mpyraminx_pdb_build_tam_reaches_every_rank_slow);
        tcase_add_test(tc_slow,
                       test_mpyraminx_pdb_build_wings_reaches_every_rank_slow);
        tcase_add_test(tc_slow, test_mpyraminx_pdb_admissible_to_depth_4_slow);
        tcase_add_test(tc_slow,
                       test_mpyraminx_pdb_build_tacm_projects_onto_tam_slow);
        tcase_add_test(
            tc_slow,
            test_mpyraminx_pdb_build_wings_centres_projects_onto_wings_slow);
        tcase_add_test(tc_slow,
                       test_mpyraminx_pdb_large_admissible_and_above_pdb_slow);
        tcase_add_test(tc_slow,
                       test_mpyraminx_pdb_large_idastar_agrees_with_pdb_slow);
        tcase_add_test(tc_slow,
                       test_mpyraminx_pdb_large_children_match_eval_slow);
        suite_add_tcase(s, tc_slow);
    }
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(mpyraminx_pdb_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
