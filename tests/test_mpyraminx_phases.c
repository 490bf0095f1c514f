/* SPDX-License-Identifier: MIT */
/* test_mpyraminx_phases.c - the Master Pyraminx's fast method: wing macros
 * and solves of uniformly random states through the twophase engine. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "engine.h"
#include "puzzle.h"
#include "puzzles/mpyraminx/mpyraminx.h"
#include "puzzles/mpyraminx/mpyraminx_internal.h"
#include "solve.h"
#include "tables.h"
#include "testlib.h"
#include "tmpdir_testlib.h"

/*
 * Independent facts used here: the sticker permutations of the 32 moves
 * (whose breadth-first counts match independent ones in test_mpyraminx),
 * the wing slots the geometry finds (12 of 2 stickers), and the group's
 * structure: every even permutation of the 12 wings is reachable, so a
 * macro must exist for each of the 12 * 11 * 10 directed 3-cycles. The
 * solver's own slot tables and piece reading are not used to check its
 * answers: macros are replayed on sticker labels, solutions on the puzzle
 * itself.
 */

static char table_dir[64];

static void
dir_setup(void)
{
    tmpdir_make(table_dir, sizeof(table_dir), "test-mpyr-phases");
    if (tables_set_dir(table_dir) != PZ_OK) {
        abort();
    }
}

static void
dir_teardown(void)
{
    tables_unload_all();
    tmpdir_remove(table_dir);
}

/* Solves start -> goal with the twophase engine within max_nodes
 * expansions (0: no limit); returns the run. */
static void
solve_limited(const pz_puzzle_t *p,
              const pz_state_t *start,
              const pz_state_t *goal,
              uint64_t max_nodes,
              solve_run_t *run)
{
    solve_spec_t spec = tl_spec(p, start, goal);

    spec.limits.time_ms = 60000;
    spec.limits.memory_bytes = 64u << 20;
    spec.limits.max_nodes = max_nodes;
    ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, run), PZ_OK);
}

static void
solve(const pz_puzzle_t *p,
      const pz_state_t *start,
      const pz_state_t *goal,
      solve_run_t *run)
{
    solve_limited(p, start, goal, 0, run);
}

/* True when moves[0..n) take start to goal on the puzzle itself. */
static bool
replays_to(const pz_puzzle_t *p,
           const pz_state_t *start,
           const pz_state_t *goal,
           const uint8_t *moves,
           int n)
{
    pz_state_t end;

    return puzzle_replay(p, start, moves, n, &end) == PZ_OK &&
           puzzle_equal(p, &end, goal);
}

/* Sticker labels after moves: label[i] is the sticker now at i. */
static void
track(const mpyr_priv_t *pv, const uint8_t *moves, int n, int *label)
{
    for (int i = 0; i < NSTICKERS; i++) {
        label[i] = i;
    }
    for (int k = 0; k < n; k++) {
        int old[NSTICKERS];

        memcpy(old, label, sizeof(old));
        for (int i = 0; i < NSTICKERS; i++) {
            label[i] = old[pv->perm[moves[k]][i]];
        }
    }
}

/* True when the stickers of slot to hold exactly those of slot from. */
static bool
wing_went(const mpyr_priv_t *pv, const int *label, int from, int to)
{
    const slot_t *f = &pv->kind[P_WING].slot[from];
    const slot_t *t = &pv->kind[P_WING].slot[to];

    for (int j = 0; j < 2; j++) {
        if (label[t->stk[j]] != f->stk[0] && label[t->stk[j]] != f->stk[1]) {
            return false;
        }
    }
    return label[t->stk[0]] != label[t->stk[1]];
}

START_TEST(test_mpyraminx_phases_macro_every_cycle)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    const mpyr_priv_t *pv = p->priv;
    int covered = 0;
    int bad = 0;
    int longest = 0;

    ck_assert_int_eq(pv->kind[P_WING].nslots, 12);
    for (int a = 0; a < 12; a++) {
        for (int b = 0; b < 12; b++) {
            for (int c = 0; c < 12; c++) {
                uint8_t mv[16];
                int label[NSTICKERS];
                bool in_slot[NSTICKERS] = { false };
                int n;

                if (a == b || b == c || a == c) {
                    continue;
                }
                n = mpyraminx_phases_macro(a, b, c, mv);
                if (n <= 0 || n > 10) {
                    bad++;
                    continue;
                }
                covered++;
                longest = n > longest ? n : longest;
                track(pv, mv, n, label);
                if (!wing_went(pv, label, a, b) ||
                    !wing_went(pv, label, b, c) ||
                    !wing_went(pv, label, c, a)) {
                    bad++;
                    continue;
                }
                /* Every other sticker, of any kind, stays where it was. */
                for (int j = 0; j < 2; j++) {
                    in_slot[pv->kind[P_WING].slot[a].stk[j]] = true;
                    in_slot[pv->kind[P_WING].slot[b].stk[j]] = true;
                    in_slot[pv->kind[P_WING].slot[c].stk[j]] = true;
                }
                for (int i = 0; i < NSTICKERS; i++) {
                    if (!in_slot[i] && label[i] != i) {
                        bad++;
                        break;
                    }
                }
            }
        }
    }
    ck_assert_int_eq(covered, 12 * 11 * 10);
    ck_assert_int_eq(bad, 0);
    ck_assert_int_ge(longest, 4);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_phases_macro_bad_slots)
{
    uint8_t mv[16];

    ck_assert_int_eq(mpyraminx_phases_macro(0, 0, 1, mv), PZ_EINVAL);
    ck_assert_int_eq(mpyraminx_phases_macro(0, 1, 12, mv), PZ_EINVAL);
    ck_assert_int_eq(mpyraminx_phases_macro(-1, 1, 2, mv), PZ_EINVAL);
}
END_TEST

START_TEST(test_mpyraminx_phases_solve_random_states)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t goal;
    pz_rng_t rng;
    int unsolved = 0;
    int wrong = 0;
    int too_long = 0;
    int too_slow = 0;
    int longest = 0;

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 20240605);
    for (int i = 0; i < 200; i++) {
        pz_state_t start;
        solve_run_t run;
        pz_stats_view_t view;

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &start),
                         PZ_OK);
        /* A node limit makes the search stop early (the 200 states stay
         * quick under sanitizers) but never without an answer: the first
         * phase-1 answer and the greedy wing descent always complete. */
        solve_limited(p, &start, &goal, i % 4 == 0 ? 0 : 1000, &run);
        stats_read(&run.stats, &view);
        if (run.solution.status != PZ_STATUS_SOLVED) {
            unsolved++;
            continue;
        }
        wrong += !replays_to(p, &start, &goal, run.solution.moves,
                             run.solution.length);
        wrong += run.solution.optimal;
        /* Generous: 10 + 4 moves for the rest, five 3-cycles of at most
         * 10 moves. Time: one second, ten under sanitizers. */
        too_long += run.solution.length > 64;
        too_slow += view.elapsed_ms > 10000.0;
        longest = run.solution.length > longest ? run.solution.length : longest;
    }
    ck_assert_int_eq(unsolved, 0);
    ck_assert_int_eq(wrong, 0);
    ck_assert_int_eq(too_long, 0);
    ck_assert_int_eq(too_slow, 0);
    ck_assert_int_gt(longest, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_phases_solve_custom_goal)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_rng_t rng;
    int wrong = 0;

    pz_rng_seed(&rng, 7);
    for (int i = 0; i < 10; i++) {
        pz_state_t start;
        pz_state_t goal;
        solve_run_t run;

        puzzle_random_state(p, pz_rng_next, &rng, &start);
        puzzle_random_state(p, pz_rng_next, &rng, &goal);
        solve(p, &start, &goal, &run);
        wrong += run.solution.status != PZ_STATUS_SOLVED ||
                 !replays_to(p, &start, &goal, run.solution.moves,
                             run.solution.length);
    }
    ck_assert_int_eq(wrong, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_phases_solve_scrambled_goal)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t start;
    pz_state_t goal;
    solve_run_t run;
    pz_diag_t d;

    /* The goal one wing commutator away from the start. */
    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_parse_scramble(p, "3Rw 2B l 3U'", &start, &d),
                     PZ_OK);
    ck_assert_int_eq(
        puzzle_parse_scramble(p, "3Rw 2B l 3U' 2U 3L 2U' 3L'", &goal, &d),
        PZ_OK);
    solve(p, &start, &goal, &run);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
    ck_assert(
        replays_to(p, &start, &goal, run.solution.moves, run.solution.length));
    /* A single 3-cycle: one macro, at most 4 moves (the commutator). */
    ck_assert_int_le(run.solution.length, 4);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_phases_solve_solved_start)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t goal;
    pz_rng_t rng;
    solve_run_t run;

    puzzle_goal(p, &goal);
    solve(p, &goal, &goal, &run);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
    ck_assert_int_eq(run.solution.length, 0);
    /* Also when the goal is any other state. */
    pz_rng_seed(&rng, 3);
    puzzle_random_state(p, pz_rng_next, &rng, &goal);
    solve(p, &goal, &goal, &run);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
    ck_assert_int_eq(run.solution.length, 0);
    puzzle_destroy(p);
}
END_TEST

static Suite *
mpyraminx_phases_suite(void)
{
    Suite *s = suite_create("mpyraminx_phases");
    TCase *tc_macro = tcase_create("macro");
    TCase *tc_solve = tcase_create("solve");

    tcase_add_test(tc_macro, test_mpyraminx_phases_macro_every_cycle);
    tcase_add_test(tc_macro, test_mpyraminx_phases_macro_bad_slots);
    tcase_set_timeout(tc_macro, 60);
    suite_add_tcase(s, tc_macro);

    tcase_add_unchecked_fixture(tc_solve, dir_setup, dir_teardown);
    tcase_add_test(tc_solve, test_mpyraminx_phases_solve_random_states);
    tcase_add_test(tc_solve, test_mpyraminx_phases_solve_custom_goal);
    tcase_add_test(tc_solve, test_mpyraminx_phases_solve_scrambled_goal);
    tcase_add_test(tc_solve, test_mpyraminx_phases_solve_solved_start);
    tcase_set_timeout(tc_solve, 300);
    suite_add_tcase(s, tc_solve);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(mpyraminx_phases_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
