/* SPDX-License-Identifier: MIT */
/* test_engines_limits.c - the engines under limits: memory, nodes, time,
 * cancel, depth; IDA* on threads. */

/* Every limit ends a search cleanly with all its memory returned, and IDA* on
 * several threads finds the answers of one. The toy puzzles are
 * engines_testlib.h's. */
#include <pthread.h>
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

static pancake_t pk16_cfg = { 16 };

/* -------------------------------------------------------- limit tests -- */

/* A 16-pancake stack no engine solves blind within the small limits. */
static void
hard_case(pz_puzzle_t *p, pz_state_t *s, pz_state_t *goal)
{
    pz_rng_t rng;

    toy_setup(p, &pancake_ops, 16, 15, &pk16_cfg);
    pz_rng_seed(&rng, 16);
    pk_random(p, &rng, s);
    puzzle_goal(p, goal);
}

START_TEST(test_engines_limits_memory_budget)
{
    static const char *const engines[] = { "astar", "wastar", "bibfs" };
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;

    hard_case(&p, &s, &goal);
    for (int e = 0; e < 3; e++) {
        job_t j = { .engine = engines[e],
                    .puzzle = &p,
                    .start = &s,
                    .goal = &goal,
                    .weight = 2.0 };
        pz_stats_view_t view;

        j.limits.memory_bytes = 64 * 1024;
        /* run_status -> run_job asserts the budget is back to 0. */
        ck_assert_str_eq(pz_status_name(run_status(&j, &view)), "memory_limit");
        ck_assert_uint_le(view.peak_memory, 64 * 1024);
    }
    {
        /* The process goes on: a normal budget solves the next search. */
        pz_puzzle_t p8;
        pz_heuristic_t gap;
        pz_state_t s8;
        pz_state_t g8;
        pz_rng_t rng;

        toy_setup(&p8, &pancake_ops, 8, 7, &pk8_cfg);
        gap = heur_bind(&gap_ops, &p8, NULL);
        pz_rng_seed(&rng, 1);
        pk_random(&p8, &rng, &s8);
        puzzle_goal(&p8, &g8);
        for (int e = 0; e < 3; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = &p8,
                        .heuristic = &gap,
                        .start = &s8,
                        .goal = &g8 };
            pz_stats_view_t view;

            j.limits.memory_bytes = 64u << 20;
            ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_SOLVED);
        }
    }
}
END_TEST

START_TEST(test_engines_limits_memory_idastar_tiny_budget)
{
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;
    job_t j = { .engine = "idastar", .puzzle = &p, .start = &s, .goal = &goal };
    pz_stats_view_t view;

    /* IDA* needs only a path of frames; 512 bytes cannot hold even that. */
    hard_case(&p, &s, &goal);
    j.limits.memory_bytes = 512;
    ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_MEMORY_LIMIT);
}
END_TEST

START_TEST(test_engines_limits_node_limit)
{
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;

    hard_case(&p, &s, &goal);
    for (int e = 0; e < N_ALL_ENGINES; e++) {
        job_t j = { .engine = all_engines[e],
                    .puzzle = &p,
                    .start = &s,
                    .goal = &goal,
                    .weight = 2.0 };
        pz_stats_view_t view;

        j.limits.max_nodes = 1000;
        ck_assert_msg(run_status(&j, &view) == PZ_STATUS_NODE_LIMIT, "%s",
                      all_engines[e]);
        ck_assert_uint_ge(view.nodes_expanded, 900);
        ck_assert_uint_le(view.nodes_expanded, 1000 + 16);
    }
}
END_TEST

START_TEST(test_engines_limits_time_limit)
{
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;

    hard_case(&p, &s, &goal);
    for (int e = 0; e < N_ALL_ENGINES; e++) {
        job_t j = { .engine = all_engines[e],
                    .puzzle = &p,
                    .start = &s,
                    .goal = &goal,
                    .weight = 2.0 };
        pz_stats_view_t view;

        j.limits.time_ms = 50;
        j.limits.memory_bytes = 512u << 20;
        ck_assert_msg(run_status(&j, &view) == PZ_STATUS_TIMEOUT, "%s",
                      all_engines[e]);
        /* Generous: sanitizer builds and a busy machine poll late; the
         * bound only tells a stop at the limit from no stop. */
        ck_assert_msg(view.elapsed_ms >= 49 && view.elapsed_ms <= 3000,
                      "%s: %.1f ms", all_engines[e], view.elapsed_ms);
    }
}
END_TEST

static void *
cancel_later(void *arg)
{
    struct timespec ts = { 0, 20 * 1000 * 1000 };

    nanosleep(&ts, NULL);
    atomic_store((atomic_bool *)arg, true);
    return NULL;
}

START_TEST(test_engines_limits_cancel_from_thread)
{
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;

    hard_case(&p, &s, &goal);
    for (int e = 0; e < N_ALL_ENGINES; e++) {
        atomic_bool cancel;
        pthread_t t;
        job_t j = { .engine = all_engines[e],
                    .puzzle = &p,
                    .start = &s,
                    .goal = &goal,
                    .weight = 2.0,
                    .cancel = &cancel };
        pz_stats_view_t view;

        double t0;
        double waited;

        atomic_init(&cancel, false);
        j.limits.memory_bytes = 512u << 20;
        j.limits.time_ms = 5000; /* a safety net, never reached */
        t0 = (double)pz_now_ns() / 1e6;
        ck_assert_int_eq(pthread_create(&t, NULL, cancel_later, &cancel), 0);
        ck_assert_msg(run_status(&j, &view) == PZ_STATUS_CANCELLED, "%s",
                      all_engines[e]);
        waited = (double)pz_now_ns() / 1e6 - t0;
        ck_assert_int_eq(pthread_join(t, NULL), 0);
        /* Not before the cancel, which comes 20 ms after the thread
         * starts (the engine's own clock starts later, after its set-up,
         * so its elapsed time can be shorter on a busy machine); soon
         * after it. */
        ck_assert_msg(waited >= 19 && view.elapsed_ms <= 3000,
                      "%s: %.1f ms after the thread started, %.1f ms in the "
                      "engine",
                      all_engines[e], waited, view.elapsed_ms);
    }
}
END_TEST

START_TEST(test_engines_limits_depth_limit)
{
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 31);
    for (int c = 0; c < 8; c++) {
        pz_state_t s;
        int opt;

        pk_random(&p, &rng, &s);
        opt = dist[pk_rank(&s, 8)];
        for (int e = 0; e < N_ALL_ENGINES; e++) {
            job_t j = { .engine = all_engines[e],
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal,
                        .weight = 2.0 };
            pz_solution_t sol;
            pz_stats_view_t view;

            j.limits.max_depth = opt - 1;
            ck_assert_msg(run_status(&j, &view) == PZ_STATUS_DEPTH_LIMIT,
                          "%s case %d", all_engines[e], c);
            /* At the optimum itself every engine, even wastar, must
             * find the optimal answer. */
            j.limits.max_depth = opt;
            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert_int_eq(sol.length, opt);
        }
    }
    free(dist);
}
END_TEST

/* ------------------------------------------------------ IDA* threads -- */

START_TEST(test_engines_idastar_threads_match_bfs)
{
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    /* Split searches must find the same optimal lengths. */
    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 51);
    for (int c = 0; c < 30; c++) {
        pz_state_t s;
        job_t j = { .engine = "idastar",
                    .puzzle = &p,
                    .heuristic = &gap,
                    .start = &s,
                    .goal = &goal,
                    .threads = 2 + c % 3 };

        pk_random(&p, &rng, &s);
        expect_optimal(&j, dist[pk_rank(&s, 8)], c);
    }
    free(dist);
}
END_TEST

START_TEST(test_engines_idastar_threads_torus_and_grid)
{
    pz_puzzle_t torus;
    pz_puzzle_t grid;
    pz_rng_t rng;

    toy_setup(&torus, &torus_ops, 3, 6, NULL);
    toy_setup(&grid, &grid_ops, 2, 4, NULL);
    pz_rng_seed(&rng, 52);
    for (int c = 0; c < 30; c++) {
        pz_state_t s;
        pz_state_t g;
        job_t j = { .engine = "idastar",
                    .puzzle = &torus,
                    .start = &s,
                    .goal = &g,
                    .threads = 2 + c % 4 };

        state_clear(&s);
        state_clear(&g);
        for (int axis = 0; axis < 3; axis++) {
            s.b[axis] = (uint8_t)pz_rand_below(pz_rng_next, &rng,
                                               (uint64_t)torus_size[axis]);
        }
        expect_optimal(&j, torus_distance(&s, &g), c);
    }
    for (int c = 0; c < 20; c++) {
        pz_state_t s;
        pz_state_t g;
        pz_heuristic_t h;
        job_t j = { .engine = "idastar",
                    .puzzle = &grid,
                    .start = &s,
                    .goal = &g,
                    .heuristic = &h,
                    .threads = 2 };
        int want;

        state_clear(&s);
        state_clear(&g);
        do {
            s.b[0] = (uint8_t)pz_rand_below(pz_rng_next, &rng, GRID_W);
            s.b[1] = (uint8_t)pz_rand_below(pz_rng_next, &rng, GRID_H);
            want = grid_distance(s.b[0], s.b[1], 0, 0);
        } while (!grid_open(s.b[0], s.b[1]) || want < 0);
        h = heur_bind(&grid_manhattan_ops, &grid, &g);
        expect_optimal(&j, want, c);
    }
}
END_TEST

START_TEST(test_engines_idastar_threads_limits)
{
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;
    job_t j = { .engine = "idastar",
                .puzzle = &p,
                .start = &s,
                .goal = &goal,
                .threads = 2 };
    pz_stats_view_t view;
    atomic_bool cancel;
    pthread_t t;

    hard_case(&p, &s, &goal);
    j.limits.max_nodes = 1000;
    ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_NODE_LIMIT);
    ck_assert_uint_ge(view.nodes_expanded, 1000);
    ck_assert_uint_le(view.nodes_expanded, 1000 + 16);

    j.limits.max_nodes = 0;
    j.limits.time_ms = 50;
    ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_TIMEOUT);
    ck_assert_msg(view.elapsed_ms >= 49 && view.elapsed_ms <= 3000, "%.1f ms",
                  view.elapsed_ms);

    j.limits.time_ms = 5000;
    j.cancel = &cancel;
    atomic_init(&cancel, false);
    ck_assert_int_eq(pthread_create(&t, NULL, cancel_later, &cancel), 0);
    ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_CANCELLED);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    /* The engine's clock starts after its set-up, so only an upper
     * bound: soon after the cancel, long before the time limit. */
    ck_assert_msg(view.elapsed_ms <= 3000, "%.1f ms", view.elapsed_ms);
}
END_TEST

static Suite *
engines_limits_suite(void)
{
    Suite *s = suite_create("engines_limits");
    TCase *tc;

    tc = tcase_create("limits");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_engines_limits_memory_budget);
    tcase_add_test(tc, test_engines_limits_memory_idastar_tiny_budget);
    tcase_add_test(tc, test_engines_limits_node_limit);
    tcase_add_test(tc, test_engines_limits_time_limit);
    tcase_add_test(tc, test_engines_limits_cancel_from_thread);
    tcase_add_test(tc, test_engines_limits_depth_limit);
    suite_add_tcase(s, tc);
    tc = tcase_create("threads");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_engines_idastar_threads_match_bfs);
    tcase_add_test(tc, test_engines_idastar_threads_torus_and_grid);
    tcase_add_test(tc, test_engines_idastar_threads_limits);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(engines_limits_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
