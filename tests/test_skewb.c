/* SPDX-License-Identifier: MIT */
/* test_skewb.c - the Skewb against its published counts, and every engine.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "skewb_testlib.h"
#include "tables.h"
#include "tmpdir_testlib.h"

/* The facts checked and the encoding used: skewb_testlib.h. Moves,
 * stickers and input: test_skewb_input.c. */

static char table_dir[64];

/* --- Distance table by the test's own BFS (unchecked fixture) ----------- */

static uint8_t *dist;
static uint64_t counts[32];
static int deepest;
static long bad_states; /* generated states that failed the rank checks */

static void
bfs_setup(void)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    uint32_t *queue = malloc(NSTATES * sizeof(*queue));
    size_t head = 0;
    size_t tail = 0;
    pz_state_t goal;

    dist = malloc(NSTATES);
    memset(dist, 255, NSTATES);
    memset(counts, 0, sizeof(counts));
    bad_states = 0;
    deepest = 0;
    puzzle_goal(p, &goal);
    queue[tail++] = (uint32_t)puzzle_rank(p, &goal);
    dist[queue[0]] = 0;
    counts[0] = 1;
    while (head < tail) {
        uint32_t r = queue[head++];
        pz_state_t s;

        state_clear(&s);
        puzzle_unrank(p, r, &s);
        /* Plain checks: Check assertions in a hot loop cost a pipe write
         * each. */
        for (int m = 0; m < 8; m++) {
            pz_state_t t;
            pz_state_t back;
            uint64_t tr;

            puzzle_apply(p, &s, m, &t);
            tr = puzzle_rank(p, &t);
            if (tr >= NSTATES) {
                bad_states++;
                continue;
            }
            state_clear(&back);
            puzzle_unrank(p, tr, &back);
            bad_states += memcmp(&back, &t, sizeof(t)) != 0;
            if (dist[tr] == 255) {
                dist[tr] = (uint8_t)(dist[r] + 1);
                counts[dist[tr]]++;
                deepest = dist[tr];
                queue[tail++] = (uint32_t)tr;
            }
        }
    }
    free(queue);
    puzzle_destroy(p);
}

static void
bfs_teardown(void)
{
    free(dist);
    dist = NULL;
}

/* Optimal distance of s to the solved state. */
static int
distance(const pz_puzzle_t *p, const pz_state_t *s)
{
    return dist[puzzle_rank(p, s)];
}

/* --- init ---------------------------------------------------------------- */

START_TEST(test_skewb_init_default_is_moves)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);

    ck_assert_str_eq(p->id, "skewb");
    ck_assert_int_eq(p->nmoves, 8);
    ck_assert_int_eq(p->metric, PZ_METRIC_MOVES);
    ck_assert_str_eq(p->metric_name, "moves");
    ck_assert_uint_eq(p->state_size, 14);
    ck_assert_str_eq(p->ops->default_heuristic, "pieces");
    ck_assert(!puzzle_rank_partial(p));
    ck_assert_uint_eq(puzzle_rank_count(p), NSTATES);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_init_cube_metrics_and_size_rejected)
{
    pz_params_t size = { 3, 3, 0 };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    for (int metric = PZ_METRIC_HTM; metric <= PZ_METRIC_QTM; metric++) {
        pz_params_t prm = { 0, 0, metric };

        pz_diag_clear(&d);
        ck_assert_int_eq(puzzle_create("skewb", &prm, &p, &d), PZ_EMETRIC);
        ck_assert_ptr_null(p);
    }
    ck_assert_int_eq(puzzle_create("SKEWB", &size, &p, &d), PZ_ESIZE);
    ck_assert_ptr_null(p);
}
END_TEST

/* --- breadth-first search against the published distribution ---------- */

START_TEST(test_skewb_bfs_published_distribution)
{
    static const uint64_t expect[] = {
        1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90,
    };
    uint64_t total = 0;

    ck_assert_int_eq(bad_states, 0);
    ck_assert_int_eq(deepest, 11);
    for (int i = 0; i <= 11; i++) {
        ck_assert_uint_eq(counts[i], expect[i]);
        total += counts[i];
    }
    ck_assert_uint_eq(total, NSTATES);
}
END_TEST

/* Every index is a state the parser accepts and formats back. */
START_TEST(test_skewb_rank_round_trip_every_index)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    static const uint8_t zero[PZ_STATE_MAX];
    long bad = 0;
    long rejected = 0;

    for (uint32_t i = 0; i < NSTATES; i++) {
        pz_state_t s;

        memset(&s, 0xAA, sizeof(s));
        puzzle_unrank(p, i, &s);
        bad += puzzle_rank(p, &s) != i || s.b[CB(UFR)] != 0 ||
               memcmp(s.b + 14, zero, PZ_STATE_MAX - 14) != 0;
        if (i % 97 == 0) {
            char buf[31];
            pz_state_t back;
            pz_diag_t d;

            format(p, &s, buf);
            rejected += tl_parse_text(p, buf, &back, &d) != PZ_OK ||
                        !puzzle_equal(p, &back, &s);
        }
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(rejected, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_pieces_admissible_every_state)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t goal;
    pz_heuristic_t *h;
    long bad = 0;
    int hmax = 0;

    puzzle_goal(p, &goal);
    h = tl_heuristic(p, "pieces", &goal);
    ck_assert(heuristic_admissible(h));
    for (uint32_t i = 0; i < NSTATES; i++) {
        pz_state_t s;
        int v;

        state_clear(&s);
        puzzle_unrank(p, i, &s);
        v = heuristic_eval(h, &s);
        bad += v > dist[i];
        hmax = v > hmax ? v : hmax;
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_ge(hmax, 2);
    ck_assert_int_eq(heuristic_eval(h, &goal), 0);
    for (int m = 0; m < 8; m++) {
        pz_state_t s;

        puzzle_apply(p, &goal, m, &s);
        ck_assert_int_eq(heuristic_eval(h, &s), 1);
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_exact_is_the_distance)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t goal;
    pz_heuristic_t *h;
    pz_rng_t rng;

    puzzle_goal(p, &goal);
    h = tl_heuristic(p, "exact", &goal);
    pz_rng_seed(&rng, 11);
    for (int i = 0; i < 2000; i++) {
        pz_state_t s;

        puzzle_random_state(p, pz_rng_next, &rng, &s);
        ck_assert_int_eq(heuristic_eval(h, &s), distance(p, &s));
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* --- engines ------------------------------------------------------------- */

/* The length engine finds from start to goal with heuristic (NULL:
 * none) and weight (tl_solve_weighted checks the replay). */
static int
run_engine(const pz_puzzle_t *p,
           const char *engine,
           const char *heuristic,
           double weight,
           const pz_state_t *start,
           const pz_state_t *goal)
{
    return tl_solve_weighted(p, start, goal, engine, heuristic, weight).length;
}

/* Every optimal engine finds the table's distance; weighted A* stays
 * within its weight. */
static void
check_engines(const pz_puzzle_t *p,
              const pz_state_t *s,
              const pz_state_t *goal,
              int want)
{
    int wa;

    ck_assert_int_eq(run_engine(p, "table", NULL, 1.0, s, goal), want);
    ck_assert_int_eq(run_engine(p, "bibfs", NULL, 1.0, s, goal), want);
    ck_assert_int_eq(run_engine(p, "astar", "pieces", 1.0, s, goal), want);
    ck_assert_int_eq(run_engine(p, "idastar", "pieces", 1.0, s, goal), want);
    ck_assert_int_eq(run_engine(p, "idastar", "exact", 1.0, s, goal), want);
    wa = run_engine(p, "wastar", "pieces", 1.5, s, goal);
    ck_assert_int_ge(wa, want);
    ck_assert_int_le(wa * 2, want * 3);
}

START_TEST(test_skewb_engines_agree_on_scrambles)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_rng_t rng;
    pz_state_t goal;

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 3);
    for (int n = 1; n <= 10; n++) {
        uint8_t moves[12];
        pz_state_t s;
        int want;

        ck_assert_int_eq(
            puzzle_random_moves(p, &goal, n, pz_rng_next, &rng, moves), PZ_OK);
        puzzle_replay(p, &goal, moves, n, &s);
        want = distance(p, &s);
        ck_assert_int_le(want, n);
        check_engines(p, &s, &goal, want);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_engines_random_states_optimal)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_rng_t rng;
    pz_state_t goal;

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 4);
    for (int trial = 0; trial < 3; trial++) {
        pz_state_t s;

        puzzle_random_state(p, pz_rng_next, &rng, &s);
        check_engines(p, &s, &goal, distance(p, &s));
    }
    puzzle_destroy(p);
}
END_TEST

/* One of the 90 positions at depth 11, God's number. */
START_TEST(test_skewb_engines_antipode_is_eleven)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t goal;
    pz_state_t s;
    uint32_t i = 0;

    puzzle_goal(p, &goal);
    while (dist[i] != 11) {
        i++;
    }
    state_clear(&s);
    puzzle_unrank(p, i, &s);
    check_engines(p, &s, &goal, 11);
    puzzle_destroy(p);
}
END_TEST

/* A goal other than solved: the table engine and "exact" serve it from
 * the shared table by relabelling the pieces after their places in the
 * goal; their lengths must equal bidirectional BFS's, which needs no
 * table. */
START_TEST(test_skewb_engines_custom_goal)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_rng_t rng;

    pz_rng_seed(&rng, 9);
    for (int trial = 0; trial < 4; trial++) {
        pz_state_t s;
        pz_state_t g;
        int want;

        puzzle_random_state(p, pz_rng_next, &rng, &s);
        puzzle_random_state(p, pz_rng_next, &rng, &g);
        want = run_engine(p, "bibfs", NULL, 1.0, &s, &g);
        ck_assert_int_le(want, 11);
        ck_assert_int_eq(run_engine(p, "table", NULL, 1.0, &s, &g), want);
        ck_assert_int_eq(run_engine(p, "astar", "exact", 1.0, &s, &g), want);
        ck_assert_int_eq(run_engine(p, "idastar", "pieces", 1.0, &s, &g), want);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_random_state_round_trips)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_rng_t rng;
    int depth[12] = { 0 };

    pz_rng_seed(&rng, 6);
    for (int i = 0; i < 3000; i++) {
        pz_state_t s;
        pz_state_t back;
        pz_diag_t d;
        char buf[31];

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &s), PZ_OK);
        format(p, &s, buf);
        ck_assert_msg(tl_parse_text(p, buf, &back, &d) == PZ_OK, "%s: %s", buf,
                      d.detail);
        ck_assert(puzzle_equal(p, &back, &s));
        depth[distance(p, &s)]++;
    }
    /* Uniform: depths 8 and 9 hold 85% of the positions. */
    ck_assert_int_gt(depth[8] + depth[9], 2400);
    ck_assert_int_gt(depth[7], 150);
    puzzle_destroy(p);
}
END_TEST

static Suite *
skewb_suite(void)
{
    Suite *s = suite_create("skewb");
    TCase *tc_init = tcase_create("init");
    TCase *tc_bfs = tcase_create("bfs");

    tcase_add_test(tc_init, test_skewb_init_default_is_moves);
    tcase_add_test(tc_init, test_skewb_init_cube_metrics_and_size_rejected);
    suite_add_tcase(s, tc_init);

    tcase_add_unchecked_fixture(tc_bfs, bfs_setup, bfs_teardown);
    tcase_set_timeout(tc_bfs, 300);
    tcase_add_test(tc_bfs, test_skewb_bfs_published_distribution);
    tcase_add_test(tc_bfs, test_skewb_rank_round_trip_every_index);
    tcase_add_test(tc_bfs, test_skewb_pieces_admissible_every_state);
    tcase_add_test(tc_bfs, test_skewb_exact_is_the_distance);
    tcase_add_test(tc_bfs, test_skewb_engines_agree_on_scrambles);
    tcase_add_test(tc_bfs, test_skewb_engines_random_states_optimal);
    tcase_add_test(tc_bfs, test_skewb_engines_antipode_is_eleven);
    tcase_add_test(tc_bfs, test_skewb_engines_custom_goal);
    tcase_add_test(tc_bfs, test_skewb_random_state_round_trips);
    suite_add_tcase(s, tc_bfs);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(skewb_suite());
    int failed;

    /* The table engine and "exact" build the complete table here once;
     * each test runs in its own process and loads it from the file. */
    snprintf(table_dir, sizeof(table_dir), "/tmp/pz-skewb-XXXXXX");
    if (mkdtemp(table_dir) == NULL || tables_set_dir(table_dir) != PZ_OK) {
        fprintf(stderr, "cannot use the table directory %s\n", table_dir);
        return EXIT_FAILURE;
    }
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    tmpdir_remove(table_dir);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
