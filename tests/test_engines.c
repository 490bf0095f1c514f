/* SPDX-License-Identifier: MIT */
/* test_engines.c - the search engines on small puzzles with known answers. */

/* Optimal answers of every engine against brute-force BFS and closed formulas,
 * the statistics they publish, and the engines agreeing on real puzzles. The
 * toy puzzles are engines_testlib.h's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine.h"
#include "engines/idastar.h"
#include "engines_testlib.h"
#include "heuristic.h"
#include "puzzle.h"
#include "search.h"
#include "testlib.h"

/* --------------------------------------------------- optimality tests -- */

START_TEST(test_engines_bfs_pancake_number)
{
    pz_puzzle_t p;
    uint8_t *dist;
    int max = 0;

    /* The reference BFS itself: the 8-pancake number is 9 (OEIS A058986). */
    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    dist = pk_bfs(&p);
    for (uint32_t r = 0; r < factorial(8); r++) {
        max = dist[r] > max ? dist[r] : max;
    }
    ck_assert_int_eq(max, 9);
    free(dist);
}
END_TEST

START_TEST(test_engines_solve_pancake_matches_bfs)
{
    static const char *const engines[] = { "astar", "bibfs", "idastar" };
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 8);
    for (int c = 0; c < 40; c++) {
        pz_state_t s;
        int want;

        pk_random(&p, &rng, &s);
        want = dist[pk_rank(&s, 8)];
        for (int e = 0; e < 3; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal };

            expect_optimal(&j, want, c);
        }
    }
    free(dist);
}
END_TEST

START_TEST(test_engines_solve_pancake_blind_matches_bfs)
{
    static const char *const engines[] = { "astar", "bibfs" };
    pz_puzzle_t p;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    /* h = 0: A* degenerates to uniform-cost search; still optimal. */
    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 88);
    for (int c = 0; c < 10; c++) {
        pz_state_t s;

        pk_random(&p, &rng, &s);
        for (int e = 0; e < 2; e++) {
            job_t j = {
                .engine = engines[e], .puzzle = &p, .start = &s, .goal = &goal
            };

            expect_optimal(&j, dist[pk_rank(&s, 8)], c);
        }
    }
    free(dist);
}
END_TEST

START_TEST(test_engines_solve_pancake_hardest_matches_bfs)
{
    static const char *const engines[] = { "astar", "bibfs", "idastar" };
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_state_t s;
    uint8_t *dist;
    uint32_t r = 0;

    /* A stack at the pancake number, the deepest the space has. */
    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    while (dist[r] != 9) {
        r++;
    }
    /* Unrank r (factorial number system). */
    {
        int used[8] = { 0 };
        uint32_t rest = r;

        state_clear(&s);
        for (int i = 0; i < 8; i++) {
            uint32_t f = factorial(7 - i);
            int k = (int)(rest / f);

            rest %= f;
            for (int v = 0; v < 8; v++) {
                if (!used[v] && k-- == 0) {
                    s.b[i] = (uint8_t)v;
                    used[v] = 1;
                    break;
                }
            }
        }
    }
    ck_assert_uint_eq(pk_rank(&s, 8), r);
    for (int e = 0; e < 3; e++) {
        job_t j = { .engine = engines[e],
                    .puzzle = &p,
                    .heuristic = &gap,
                    .start = &s,
                    .goal = &goal };

        expect_optimal(&j, 9, 0);
    }
    free(dist);
}
END_TEST

START_TEST(test_engines_solve_inconsistent_heuristic_optimal)
{
    static const char *const engines[] = { "astar", "idastar" };
    pz_puzzle_t p;
    pz_heuristic_t patchy;
    patchy_t ctx;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    dist = pk_bfs(&p);
    ctx.dist = dist;
    patchy = heur_bind(&patchy_ops, &p, &ctx);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 3);
    for (int c = 0; c < 25; c++) {
        pz_state_t s;

        pk_random(&p, &rng, &s);
        for (int e = 0; e < 2; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = &p,
                        .heuristic = &patchy,
                        .start = &s,
                        .goal = &goal };

            expect_optimal(&j, dist[pk_rank(&s, 8)], c);
        }
    }
    free(dist);
}
END_TEST

START_TEST(test_engines_solve_grid_matches_bfs)
{
    static const char *const engines[] = { "astar", "bibfs", "idastar" };
    pz_puzzle_t p;
    int cases = 0;

    /* Every pair of open cells in the top-left component (stepping to keep
     * the test short), with illegal moves at every wall. */
    toy_setup(&p, &grid_ops, 2, 4, NULL);
    for (int a = 0; a < GRID_W * GRID_H; a += 2) {
        for (int b = 1; b < GRID_W * GRID_H; b += 5) {
            int want =
                grid_distance(a % GRID_W, a / GRID_W, b % GRID_W, b / GRID_W);
            pz_state_t s;
            pz_state_t g;
            pz_heuristic_t h;

            if (want < 0 || !grid_open(a % GRID_W, a / GRID_W)) {
                continue;
            }
            state_clear(&s);
            state_clear(&g);
            s.b[0] = (uint8_t)(a % GRID_W);
            s.b[1] = (uint8_t)(a / GRID_W);
            g.b[0] = (uint8_t)(b % GRID_W);
            g.b[1] = (uint8_t)(b / GRID_W);
            h = heur_bind(&grid_manhattan_ops, &p, &g);
            for (int e = 0; e < 3; e++) {
                job_t j = { .engine = engines[e],
                            .puzzle = &p,
                            .heuristic = &h,
                            .start = &s,
                            .goal = &g };

                expect_optimal(&j, want, cases);
            }
            cases++;
        }
    }
    ck_assert_int_gt(cases, 50);
}
END_TEST

START_TEST(test_engines_solve_grid_unreachable_is_proven)
{
    static const char *const engines[] = { "astar", "wastar", "bibfs" };
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t g;

    /* (8, 8) is walled in: no search can reach it from (0, 0). */
    toy_setup(&p, &grid_ops, 2, 4, NULL);
    ck_assert_int_lt(grid_distance(0, 0, 8, 8), 0);
    state_clear(&s);
    state_clear(&g);
    g.b[0] = 8;
    g.b[1] = 8;
    for (int e = 0; e < 3; e++) {
        pz_heuristic_t h = heur_bind(&grid_manhattan_ops, &p, &g);
        job_t j = { .engine = engines[e],
                    .puzzle = &p,
                    .heuristic = &h,
                    .start = &s,
                    .goal = &g,
                    .weight = 2.0 };
        pz_stats_view_t view;

        ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_UNREACHABLE);
    }
}
END_TEST

START_TEST(test_engines_solve_torus_pruned_matches_formula)
{
    static const char *const engines[] = { "astar", "bibfs", "idastar" };
    pz_puzzle_t p;
    pz_rng_t rng;

    toy_setup(&p, &torus_ops, 3, 6, NULL);
    /* The rule must actually prune: -x is not allowed after +y. */
    ck_assert(!(puzzle_allowed_after(&p, 2) & 2));
    pz_rng_seed(&rng, 5);
    for (int c = 0; c < 60; c++) {
        pz_state_t s;
        pz_state_t g;
        pz_heuristic_t exact;

        state_clear(&s);
        state_clear(&g);
        for (int axis = 0; axis < 3; axis++) {
            s.b[axis] = (uint8_t)pz_rand_below(pz_rng_next, &rng,
                                               (uint64_t)torus_size[axis]);
            g.b[axis] = (uint8_t)pz_rand_below(pz_rng_next, &rng,
                                               (uint64_t)torus_size[axis]);
        }
        exact = heur_bind(&torus_exact_ops, &p, &g);
        for (int e = 0; e < 3; e++) {
            job_t blind = {
                .engine = engines[e], .puzzle = &p, .start = &s, .goal = &g
            };
            job_t informed = blind;

            informed.heuristic = &exact;
            expect_optimal(&blind, torus_distance(&s, &g), c);
            expect_optimal(&informed, torus_distance(&s, &g), c);
        }
    }
}
END_TEST

START_TEST(test_engines_solve_start_is_goal_zero_moves)
{
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t s;
    pz_rng_t rng;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    pz_rng_seed(&rng, 11);
    pk_random(&p, &rng, &s);
    for (int e = 0; e < N_ALL_ENGINES; e++) {
        /* A goal other than the identity too: h is not 0 there, yet the
         * engines must see that nothing needs doing. */
        pz_state_t id;
        job_t j = { .engine = all_engines[e],
                    .puzzle = &p,
                    .heuristic = &gap,
                    .start = &s,
                    .goal = &s,
                    .weight = 2.0 };
        pz_solution_t sol;
        pz_stats_view_t view;

        ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert_int_eq(sol.length, 0);
        puzzle_goal(&p, &id);
        j.start = &id;
        j.goal = &id;
        ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert_int_eq(sol.length, 0);
    }
}
END_TEST

START_TEST(test_engines_solve_inadmissible_not_marked_optimal)
{
    static const char *const engines[] = { "astar", "idastar" };
    pz_puzzle_t p;
    pz_heuristic_t gap3;
    pz_state_t goal;
    pz_rng_t rng;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap3 = heur_bind(&gap3_ops, &p, NULL);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 23);
    for (int c = 0; c < 10; c++) {
        pz_state_t s;

        pk_random(&p, &rng, &s);
        for (int e = 0; e < 2; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = &p,
                        .heuristic = &gap3,
                        .start = &s,
                        .goal = &goal };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert(!sol.optimal);
        }
    }
}
END_TEST

/* -------------------------------------------------------- stats tests -- */

START_TEST(test_engines_stats_published)
{
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_state_t s;
    pz_rng_t rng;
    uint8_t *dist;
    int opt;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 41);
    do {
        pk_random(&p, &rng, &s);
        opt = dist[pk_rank(&s, 8)];
    } while (opt < 7);
    for (int e = 0; e < N_ALL_ENGINES; e++) {
        job_t j = { .engine = all_engines[e],
                    .puzzle = &p,
                    .heuristic = &gap,
                    .start = &s,
                    .goal = &goal };
        pz_stats_view_t view;

        ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_SOLVED);
        ck_assert_uint_gt(view.nodes_expanded, 0);
        ck_assert_uint_ge(view.nodes_generated, view.nodes_expanded);
        ck_assert_int_eq(view.heuristic_at_start, gap_eval(&p, NULL, &s));
        ck_assert_int_eq(view.best_length, opt);
        if (strcmp(all_engines[e], "idastar") == 0) {
            /* The last bound is the optimum; there was one iteration per
             * bound, starting from h(start). */
            ck_assert_int_eq(view.depth_bound, opt);
            ck_assert_int_ge(view.iterations, 1);
            ck_assert_int_le(view.iterations,
                             opt - view.heuristic_at_start + 1);
        }
        if (strcmp(all_engines[e], "bibfs") == 0) {
            ck_assert_uint_gt(view.frontier_fwd + view.frontier_bwd, 0);
            ck_assert_int_eq(view.depth_bound, opt - 1);
        }
    }
    free(dist);
}
END_TEST

/* ------------------------------------------------------ real puzzles -- */

START_TEST(test_engines_solve_8puzzle_scrambles_agree)
{
    static const char *const engines[] = { "astar", "bibfs", "idastar" };
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);
    pz_heuristic_t *h;
    pz_state_t goal;
    pz_rng_t rng;

    /* God's number of the 8-puzzle is 31 (published): no optimal answer may
     * be longer. */
    puzzle_goal(p, &goal);
    h = tl_heuristic(p, "manhattan", &goal);
    pz_rng_seed(&rng, 9);
    for (int c = 0; c < 10; c++) {
        pz_state_t s;
        int len = -1;

        tl_scramble(p, &goal, 60, &rng, &s);
        for (int e = 0; e < 3; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = p,
                        .heuristic = h,
                        .start = &s,
                        .goal = &goal };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert(sol.optimal);
            ck_assert_int_le(sol.length, 31);
            if (len >= 0) {
                ck_assert_int_eq(sol.length, len);
            }
            len = sol.length;
        }
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* Solves n random scrambles of len moves of p with each engine, asserting
 * that they agree and stay within bound moves. Returns nothing: failures
 * abort the test. */
static void
cube_scrambles_agree(pz_puzzle_t *p,
                     const char *const *engines,
                     int nengines,
                     int len,
                     int bound)
{
    pz_heuristic_t *h;
    pz_state_t goal;
    pz_rng_t rng;

    puzzle_goal(p, &goal);
    h = tl_heuristic(p, "seed", &goal);
    pz_rng_seed(&rng, (uint64_t)len);
    for (int c = 0; c < 4; c++) {
        pz_state_t s;
        int first = -1;

        tl_scramble(p, &goal, len, &rng, &s);
        for (int e = 0; e < nengines; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = p,
                        .heuristic = h,
                        .start = &s,
                        .goal = &goal };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert(sol.optimal);
            ck_assert_int_le(sol.length, bound);
            if (first >= 0) {
                ck_assert_msg(sol.length == first, "%s: %d, %s: %d", engines[0],
                              first, engines[e], sol.length);
            }
            first = sol.length;
        }
    }
    heuristic_destroy(h);
}

START_TEST(test_engines_solve_2x2x2_engines_agree)
{
    static const char *const all3[] = { "bibfs", "astar", "idastar" };
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, 0);

    /* The 2x2x2's pruning drops same-face pairs (HTM) and U' U' (QTM), so
     * the engines' pruned searches are checked against each other; God's
     * numbers (published: 11 HTM, 14 QTM) bound every optimal answer. */
    cube_scrambles_agree(p, all3, 3, 7, 7);
    cube_scrambles_agree(p, all3, 3, 30, 11);
    puzzle_destroy(p);
    p = tl_make("2x2x2", 0, 0, PZ_METRIC_QTM);
    cube_scrambles_agree(p, all3, 3, 8, 8);
    cube_scrambles_agree(p, all3, 1, 40, 14);
    puzzle_destroy(p);
}
END_TEST

/* ------------------------------------------- a solver's own search -- */

/* What a solver's own search (idastar_dfs_fn) saw: each root it took, in
 * the order taken, with its iteration's bound and its expansions (in
 * all, and weighted by depth as the engine orders roots). */
enum {
    ORDER_LOG_MAX = 1 << 16,
    ORDER_DEPTH_MAX = 16, /* the engine splits no deeper */
    ORDER_LEVELS = 96     /* levels below a root (the 15-puzzle's bounds) */
};

typedef struct order_log {
    int n;
    int bound[ORDER_LOG_MAX];
    int depth[ORDER_LOG_MAX];
    uint8_t moves[ORDER_LOG_MAX][ORDER_DEPTH_MAX]; /* from the start */
    uint64_t nodes[ORDER_LOG_MAX];
    double weight[ORDER_LOG_MAX];
    size_t task[ORDER_LOG_MAX]; /* the engine's index of the root */
} order_log_t;

static order_log_t g_order;

/* Plain depth-first search below s (h: its estimate) at depth g,
 * counting the expansions g - root + 1 levels below the root in
 * count[g - root]. */
static int
order_dfs_below(const pz_heuristic_t *h,
                idastar_job_t *job,
                const pz_state_t *s,
                int hs,
                int g,
                int last,
                int root,
                uint64_t *count)
{
    const pz_puzzle_t *p = h->puzzle;

    if (hs == 0 && puzzle_is_goal(p, s, job->goal)) {
        job->length = g;
        return PZ_STATUS_SOLVED;
    }
    for (uint64_t todo = puzzle_allowed_after(p, last); todo != 0;
         todo &= todo - 1) {
        int m = __builtin_ctzll(todo);
        pz_state_t c;
        int hc;
        int status;

        if (!puzzle_apply(p, s, m, &c)) {
            continue;
        }
        ++*job->generated;
        hc = heuristic_update(h, s, hs, m, &c);
        if (g + 1 + hc > job->bound) {
            job->next = g + 1 + hc < job->next ? g + 1 + hc : job->next;
            continue;
        }
        job->moves[g] = (uint8_t)m;
        ck_assert_int_lt(g - root, ORDER_LEVELS);
        count[g - root]++;
        if (++*job->expanded >= *job->next_poll &&
            (status = job->poll(job->arg)) != PZ_STATUS_RUNNING) {
            return status;
        }
        status = order_dfs_below(h, job, &c, hc, g + 1, m, root, count);
        if (status != PZ_STATUS_RUNNING) {
            return status;
        }
    }
    return PZ_STATUS_RUNNING;
}

/* An own search that logs its roots and reports their expansions. */
static int
order_dfs(const pz_heuristic_t *h, idastar_job_t *job)
{
    pz_state_t s;
    int depth;

    while (job->take(job->arg, &s, &depth, job->moves)) {
        int i = g_order.n++;
        uint64_t count[ORDER_LEVELS] = { 0 };
        int n = job->bound - depth;
        int status;

        ck_assert_int_lt(i, ORDER_LOG_MAX);
        ck_assert_int_le(depth, ORDER_DEPTH_MAX);
        g_order.task[i] = job->task;
        g_order.bound[i] = job->bound;
        g_order.depth[i] = depth;
        memcpy(g_order.moves[i], job->moves, (size_t)depth);
        status = order_dfs_below(h, job, &s, heuristic_eval(h, &s), depth,
                                 job->moves[depth - 1], depth, count);
        /* An expansion counts 8 times more than one a level higher. */
        g_order.nodes[i] = 0;
        g_order.weight[i] = 0;
        for (int k = n - 1; k >= 0; k--) {
            g_order.nodes[i] += count[k];
            g_order.weight[i] = g_order.weight[i] * 8.0 + (double)count[k];
        }
        if (status != PZ_STATUS_RUNNING) {
            return status;
        }
        job->done(job->arg, job->task, count, n);
    }
    return PZ_STATUS_RUNNING;
}

/* IDA* handing its tasks to order_dfs, as a puzzle's solver does. */
static int
order_solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    return idastar_solve_split(ctx, out, order_dfs, 8);
}

static const engine_ops_t order_engine = {
    .name = "idastar-ordered-test",
    .optimal = true,
    .uses_heuristic = true,
    .threads = true,
    .solve = order_solve,
};

/* The log entry of the root with moves m at depth d in the iteration
 * before the one of bound b, or -1. */
static int
order_find(int b, int d, const uint8_t *m)
{
    int before = -1;

    for (int i = 0; i < g_order.n; i++) {
        if (g_order.bound[i] < b && g_order.bound[i] > before) {
            before = g_order.bound[i];
        }
    }
    for (int i = 0; i < g_order.n; i++) {
        if (g_order.bound[i] == before && g_order.depth[i] == d &&
            memcmp(g_order.moves[i], m, (size_t)d) == 0) {
            return i;
        }
    }
    return -1;
}

/*
 * Handed to a solver's own search, each iteration's roots come in the
 * order of the expansions the last iteration made below them, each
 * weighing 8 times more than one a level higher (and the sum scaled by
 * their count of next moves), the most first; the answer is the plain
 * engine's optimum. The 15-puzzle's random scrambles make subtrees of
 * very different sizes, so the order is not the split's.
 */
START_TEST(test_engines_own_search_orders_tasks)
{
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    pz_heuristic_t *h;
    pz_state_t goal;
    pz_rng_t rng;
    int reordered = 0;

    puzzle_goal(p, &goal);
    h = tl_heuristic(p, "manhattan", &goal);
    pz_rng_seed(&rng, 21);
    for (int c = 0; c < 3; c++) {
        pz_state_t s;
        job_t j = { .engine = "idastar",
                    .puzzle = p,
                    .heuristic = h,
                    .start = &s,
                    .goal = &goal };
        job_t own = j;
        pz_solution_t want;
        pz_solution_t sol;
        pz_stats_view_t view;

        tl_scramble(p, &goal, 40, &rng, &s);
        ck_assert_int_eq(run_job(&j, &want, &view), PZ_OK);
        ck_assert_int_eq(want.status, PZ_STATUS_SOLVED);
        own.engine = order_engine.name;
        own.ops = &order_engine;
        g_order.n = 0;
        ck_assert_int_eq(run_job(&own, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert_int_eq(sol.length, want.length);
        for (int i = 1; i < g_order.n; i++) {
            int a;
            int b;
            double ka;
            double kb;

            if (g_order.bound[i] != g_order.bound[i - 1] ||
                g_order.depth[i] != g_order.depth[i - 1]) {
                continue;
            }
            /* One iteration's roots come in the engine's order. */
            ck_assert_uint_eq(g_order.task[i], g_order.task[i - 1] + 1);
            /* Both roots' weights in the iteration before (the same split
             * depth: the split never gets shallower). */
            a = order_find(g_order.bound[i], g_order.depth[i - 1],
                           g_order.moves[i - 1]);
            b = order_find(g_order.bound[i], g_order.depth[i],
                           g_order.moves[i]);
            if (a < 0 || b < 0) {
                continue;
            }
            ka = g_order.weight[a] /
                 __builtin_popcountll(puzzle_allowed_after(
                     p, g_order.moves[i - 1][g_order.depth[i - 1] - 1]));
            kb = g_order.weight[b] /
                 __builtin_popcountll(puzzle_allowed_after(
                     p, g_order.moves[i][g_order.depth[i] - 1]));
            ck_assert_msg(ka >= kb, "bound %d: root %d (%g) before %d (%g)",
                          g_order.bound[i], i - 1, ka, i, kb);
            reordered += memcmp(g_order.moves[i - 1], g_order.moves[i],
                                (size_t)g_order.depth[i]) > 0;
        }
    }
    ck_assert_int_gt(reordered, 0);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* Evaluations of the capped gap heuristic, counted (one thread). */
static long g_capped_lookups;

/* The gap count capped at 2: admissible and never above 2, so weak that
 * IDA* runs many bounds above it. */
static int
capped_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    int h = gap_eval(p, ctx, s);

    g_capped_lookups++;
    return h < 2 ? h : 2;
}

static int
capped_max(const pz_puzzle_t *p, const void *ctx)
{
    (void)p;
    (void)ctx;
    return 2;
}

static const heuristic_ops_t capped_ops = {
    .name = "capped-gap",
    .admissible = true,
    .eval = capped_eval,
};

/* The same estimates, with their largest value known. */
static const heuristic_ops_t capped_max_ops = {
    .name = "capped-gap",
    .admissible = true,
    .eval = capped_eval,
    .max_estimate = capped_max,
};

/*
 * When the split depth plus the heuristic's largest estimate is within
 * the bound, the split pass cannot cut a node, and the engine makes it
 * without a lookup: the same roots in the same order with the same
 * expansions below them, the same optimal answer, and fewer evaluations
 * (only the own search's). The 8-pancake's distances come from BFS.
 */
START_TEST(test_engines_own_search_split_skips_lookups)
{
    pz_puzzle_t p;
    pz_heuristic_t plain;
    pz_heuristic_t with_max;
    pz_state_t goal;
    pz_state_t s;
    pz_rng_t rng;
    uint8_t *dist;
    order_log_t *first = malloc(sizeof(*first));
    long lookups[2];
    uint64_t expanded[2];
    int length[2];

    ck_assert_ptr_nonnull(first);
    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    plain = heur_bind(&capped_ops, &p, NULL);
    with_max = heur_bind(&capped_max_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 5);
    do {
        pk_random(&p, &rng, &s);
    } while (dist[pk_rank(&s, 8)] < 7);
    for (int k = 0; k < 2; k++) {
        job_t j = { .engine = order_engine.name,
                    .ops = &order_engine,
                    .puzzle = &p,
                    .heuristic = k == 0 ? &plain : &with_max,
                    .start = &s,
                    .goal = &goal };
        pz_solution_t sol;
        pz_stats_view_t view;

        g_order.n = 0;
        g_capped_lookups = 0;
        ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert(sol.optimal);
        length[k] = sol.length;
        lookups[k] = g_capped_lookups;
        expanded[k] = view.nodes_expanded;
        if (k == 0) {
            memcpy(first, &g_order, sizeof(*first));
        }
    }
    ck_assert_int_eq(length[0], dist[pk_rank(&s, 8)]);
    ck_assert_int_eq(length[1], length[0]);
    ck_assert_uint_eq(expanded[1], expanded[0]);
    ck_assert_int_eq(g_order.n, first->n);
    for (int i = 0; i < g_order.n; i++) {
        ck_assert_int_eq(g_order.bound[i], first->bound[i]);
        ck_assert_int_eq(g_order.depth[i], first->depth[i]);
        ck_assert_mem_eq(g_order.moves[i], first->moves[i],
                         (size_t)g_order.depth[i]);
        ck_assert_uint_eq(g_order.nodes[i], first->nodes[i]);
    }
    ck_assert_int_lt(lookups[1], lookups[0]);
    free(first);
    free(dist);
}
END_TEST

static Suite *
engines_suite(void)
{
    Suite *s = suite_create("engines");
    TCase *tc;

    tc = tcase_create("solve");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_engines_bfs_pancake_number);
    tcase_add_test(tc, test_engines_solve_pancake_matches_bfs);
    tcase_add_test(tc, test_engines_solve_pancake_blind_matches_bfs);
    tcase_add_test(tc, test_engines_solve_pancake_hardest_matches_bfs);
    tcase_add_test(tc, test_engines_solve_inconsistent_heuristic_optimal);
    tcase_add_test(tc, test_engines_solve_grid_matches_bfs);
    tcase_add_test(tc, test_engines_solve_grid_unreachable_is_proven);
    tcase_add_test(tc, test_engines_solve_torus_pruned_matches_formula);
    tcase_add_test(tc, test_engines_solve_start_is_goal_zero_moves);
    tcase_add_test(tc, test_engines_solve_inadmissible_not_marked_optimal);
    tcase_add_test(tc, test_engines_solve_8puzzle_scrambles_agree);
    tcase_add_test(tc, test_engines_solve_2x2x2_engines_agree);
    tcase_add_test(tc, test_engines_own_search_orders_tasks);
    tcase_add_test(tc, test_engines_own_search_split_skips_lookups);
    suite_add_tcase(s, tc);
    tc = tcase_create("stats");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_engines_stats_published);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(engines_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
