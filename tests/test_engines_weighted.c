/* SPDX-License-Identifier: MIT */
/* test_engines_weighted.c - weighted A* and the anytime engine: bounds, limits,
 * improving answers. */

/* Weighted answers stay within their bound, the anytime engine improves its
 * answers until it proves the optimum or meets its limits. The toy puzzles are
 * engines_testlib.h's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine.h"
#include "engines_testlib.h"
#include "heuristic.h"
#include "puzzle.h"
#include "search.h"
#include "testlib.h"

/* ----------------------------------------------------- weighted tests -- */

START_TEST(test_engines_wastar_within_weight_bound)
{
    static const double weights[] = { 1.5, 2.0, 3.0, 5.0 };
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 21);
    for (int c = 0; c < 40; c++) {
        pz_state_t s;
        int opt;

        pk_random(&p, &rng, &s);
        opt = dist[pk_rank(&s, 8)];
        for (int w = 0; w < 4; w++) {
            job_t j = { .engine = "wastar",
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal,
                        .weight = weights[w] };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert_msg(sol.length >= opt &&
                              sol.length <= weights[w] * opt + 1e-9,
                          "case %d w %.1f: length %d, optimum %d", c,
                          weights[w], sol.length, opt);
            ck_assert(!sol.optimal);
        }
    }
    free(dist);
}
END_TEST

/* Anytime weighted A* without limits runs on until it proves its best
 * optimal: the breadth-first optimum, marked optimal, with the lower
 * bound at it. */
START_TEST(test_engines_anytime_ends_proven_optimal)
{
    static const double weights[] = { 1.0, 2.0, 3.0, 5.0 };
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 23);
    for (int c = 0; c < 30; c++) {
        pz_state_t s;
        int opt;

        pk_random(&p, &rng, &s);
        opt = dist[pk_rank(&s, 8)];
        for (int w = 0; w < 4; w++) {
            job_t j = { .engine = "anytime",
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal,
                        .weight = weights[w] };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert_msg(sol.length == opt && sol.optimal,
                          "case %d w %.1f: length %d optimal %d, optimum %d", c,
                          weights[w], sol.length, sol.optimal, opt);
            ck_assert_int_eq(view.lower_bound, opt);
            ck_assert_int_eq(view.best_length, opt);
        }
    }
    free(dist);
}
END_TEST

/* Cut short by a node limit, the anytime engine answers with its best so
 * far, not marked optimal, with a lower bound at most the optimum; before
 * its first answer the limit is the status. A target length ends it at
 * the first answer short enough. */
START_TEST(test_engines_anytime_limits_and_target)
{
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;
    int cut_short = 0;
    int before_first = 0;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 24);
    for (int c = 0; c < 30; c++) {
        pz_state_t s;
        int opt;

        pk_random(&p, &rng, &s);
        opt = dist[pk_rank(&s, 8)];
        for (uint64_t nodes = 1; nodes <= 64; nodes *= 2) {
            job_t j = { .engine = "anytime",
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal,
                        .weight = 5.0 };
            pz_solution_t sol;
            pz_stats_view_t view;

            j.limits.max_nodes = nodes;
            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            if (sol.status != PZ_STATUS_SOLVED) {
                ck_assert_int_eq(sol.status, PZ_STATUS_NODE_LIMIT);
                ck_assert_int_eq(view.best_length, -1);
                before_first++;
                continue;
            }
            ck_assert(sol.length >= opt);
            ck_assert(view.lower_bound >= 0 && view.lower_bound <= opt);
            if (sol.length > opt) {
                ck_assert(!sol.optimal);
                cut_short++;
            }
        }
        {
            job_t j = { .engine = "anytime",
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal,
                        .weight = 5.0,
                        .target = 2 * opt };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert(sol.length >= opt && sol.length <= 2 * opt);
        }
    }
    ck_assert_int_gt(cut_short, 0);
    ck_assert_int_gt(before_first, 0);
    free(dist);
}
END_TEST

/* The anytime engine shortens each answer: on 15-puzzles a walk of 300
 * moves from the goal, the first answer (the quick answer, shortened
 * before the search; the target makes it the result) is never longer
 * than the quick answer, shorter on half or more, replays onto the goal, and
 * has no stretch of the last length the shortening tried (16 moves, from
 * every eighth move) that bidirectional BFS can shorten. */
START_TEST(test_engines_anytime_shortens_its_answers)
{
    pz_puzzle_t *p = tl_make("tiles", 4, 4, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    pz_rng_t rng;
    int shorter = 0;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "manhattan", &goal, &h, NULL), PZ_OK);
    pz_rng_seed(&rng, 5);
    for (int c = 0; c < 8; c++) {
        static uint8_t quick[PZ_SOLUTION_MAX];
        job_t j = { .engine = "anytime",
                    .puzzle = p,
                    .heuristic = h,
                    .goal = &goal,
                    .weight = 3.0,
                    .target = PZ_SOLUTION_MAX };
        pz_state_t s;
        pz_state_t at;
        pz_solution_t sol;
        pz_stats_view_t view;
        int qlen;

        tl_scramble(p, &goal, 300, &rng, &s);
        qlen = puzzle_quick_solve(p, &s, &goal, quick, PZ_SOLUTION_MAX);
        ck_assert_int_gt(qlen, 0);
        j.start = &s;
        ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert_int_le(sol.length, qlen);
        shorter += sol.length < qlen;
        ck_assert_int_eq(puzzle_replay(p, &s, sol.moves, sol.length, &at),
                         PZ_OK);
        ck_assert(puzzle_is_goal(p, &at, &goal));
        for (int i = 0; i + 2 <= sol.length; i += 8) {
            int e = i + 16 < sol.length ? i + 16 : sol.length;
            job_t b = { .engine = "bibfs", .puzzle = p, .goal = &at };
            pz_state_t from;
            pz_state_t to;
            pz_solution_t part;

            puzzle_replay(p, &s, sol.moves, i, &from);
            puzzle_replay(p, &s, sol.moves, e, &to);
            b.start = &from;
            b.goal = &to;
            b.limits.max_depth = e - i - 1;
            ck_assert_int_eq(run_job(&b, &part, &view), PZ_OK);
            ck_assert_msg(part.status == PZ_STATUS_DEPTH_LIMIT,
                          "case %d: moves %d..%d shorten to %d", c, i, e,
                          part.length);
        }
    }
    ck_assert_int_ge(shorter, 4);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* Restarts: on 15-puzzles a walk of 60 moves from the goal, the anytime
 * engine with weight 5 and no limit restarts with lower weights until
 * its open list runs out, and then its answer is the optimum (IDA* with
 * Manhattan distance), marked optimal, with the lower bound equal; with
 * a node limit its lower bound is never above the optimum. */
START_TEST(test_engines_anytime_restarts_end_at_the_optimum)
{
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    pz_rng_t rng;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "manhattan", &goal, &h, NULL), PZ_OK);
    pz_rng_seed(&rng, 9);
    for (int c = 0; c < 6; c++) {
        job_t j = { .puzzle = p, .heuristic = h, .goal = &goal };
        pz_state_t s;
        pz_solution_t opt;
        pz_solution_t sol;
        pz_stats_view_t view;

        tl_scramble(p, &goal, 60, &rng, &s);
        j.start = &s;
        j.engine = "idastar";
        ck_assert_int_eq(run_job(&j, &opt, &view), PZ_OK);
        ck_assert(opt.optimal);
        j.engine = "anytime";
        j.weight = 5.0;
        ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert_msg(sol.length == opt.length && sol.optimal,
                      "case %d: %d moves (optimal %d), marked %d", c,
                      sol.length, opt.length, sol.optimal);
        ck_assert_int_eq(view.lower_bound, opt.length);
        /* Stopped after any number of expansions, before or after a
         * restart, the bound published is never above the optimum. */
        j.weight = 1.2; /* the bound rises above h before an answer */
        for (uint64_t n = 1; c == 0 && n <= 1000; n += 3) {
            j.limits.max_nodes = n;
            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_msg(view.lower_bound <= opt.length,
                          "case %d, %llu nodes: bound %d, optimum %d", c,
                          (unsigned long long)n, view.lower_bound, opt.length);
        }
        j.limits.max_nodes = 0;
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_engines_wastar_weight_one_is_optimal)
{
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    /* Weight 1 is plain A*: optimal answers; engine_run still does not
     * claim optimality for an engine registered as non-optimal. */
    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 22);
    for (int c = 0; c < 20; c++) {
        pz_state_t s;
        job_t j = { .engine = "wastar",
                    .puzzle = &p,
                    .heuristic = &gap,
                    .start = &s,
                    .goal = &goal,
                    .weight = 1.0 };
        pz_solution_t sol;
        pz_stats_view_t view;

        pk_random(&p, &rng, &s);
        ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert_int_eq(sol.length, dist[pk_rank(&s, 8)]);
        ck_assert(!sol.optimal);
    }
    free(dist);
}
END_TEST

static Suite *
engines_weighted_suite(void)
{
    Suite *s = suite_create("engines_weighted");
    TCase *tc;

    tc = tcase_create("wastar");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_engines_wastar_within_weight_bound);
    tcase_add_test(tc, test_engines_wastar_weight_one_is_optimal);
    tcase_add_test(tc, test_engines_anytime_ends_proven_optimal);
    tcase_add_test(tc, test_engines_anytime_limits_and_target);
    tcase_add_test(tc, test_engines_anytime_shortens_its_answers);
    tcase_add_test(tc, test_engines_anytime_restarts_end_at_the_optimum);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(engines_weighted_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
