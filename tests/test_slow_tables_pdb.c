/* SPDX-License-Identifier: MIT */
/* test_slow_tables_pdb.c - the 15- and 24-puzzle pattern databases against
 * Korf's published lengths and linear conflict (label "slow"). */

/*
 * These build (or load) the big tables in the table directory
 * ($PUZZLED_TABLES, the tests' own under ctest), so they run only with
 * the slow tests (ctest -L slow): the 15-puzzle's take a few minutes and
 * 600 MB once, the 24-puzzle's longer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine.h"
#include "puzzles/tiles/tiles_pdb.h"
#include "solve.h"
#include "tables.h"
#include "tables_testlib.h"
#include "testlib.h"
#include "tmpdir_testlib.h"

/* Reads Korf's instances (tiles and published optimal lengths). */
static int
read_korf(int tiles[][16], int *lengths, int max)
{
    FILE *f = fopen(PZ_SOURCE_DIR "/bench/data/korf100.txt", "r");
    char line[512];
    int n = 0;

    ck_assert_ptr_nonnull(f);
    while (n < max && fgets(line, sizeof(line), f) != NULL) {
        int *t = tiles[n];

        if (line[0] != '#' &&
            sscanf(line, "%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d",
                   &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], &t[6], &t[7],
                   &t[8], &t[9], &t[10], &t[11], &t[12], &t[13], &t[14], &t[15],
                   &lengths[n]) == 17) {
            n++;
        }
    }
    fclose(f);
    return n;
}

START_TEST(test_tables_pdb_15puzzle_korf_instances_optimal)
{
    static int tiles[100][16];
    static int lengths[100];
    static const int blank_first[16] = { 0, 1, 2,  3,  4,  5,  6,  7,
                                         8, 9, 10, 11, 12, 13, 14, 15 };
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    int n = read_korf(tiles, lengths, 100);
    pz_state_t goal;
    int bad = 0;

    ck_assert_int_eq(tables_set_dir(NULL), PZ_OK);
    ck_assert_int_eq(n, 100);
    ck_assert_int_eq(tl_parse_ints(p, blank_first, 16, &goal, NULL), PZ_OK);
    /* All 100 (the published lengths are the facts; about a second). */
    for (int i = 0; i < n; i++) {
        pz_state_t s;
        pz_solution_t sol;

        ck_assert_int_eq(tl_parse_ints(p, tiles[i], 16, &s, NULL), PZ_OK);
        for (int k = 0; k < 3; k++) {
            const char *heur = k == 0 ? "pdb" : "pdb-dual";
            const char *engine = k == 2 ? "dida" : "idastar";

            ck_assert_int_eq(run(p, &s, &goal, engine, heur, 1u << 20, &sol),
                             PZ_OK);
            if (sol.status != PZ_STATUS_SOLVED || !sol.optimal ||
                sol.length != lengths[i]) {
                fprintf(stderr, "korf %d %s %s: %s length %d, published %d\n",
                        i + 1, engine, heur, pz_status_name(sol.status),
                        sol.length, lengths[i]);
                bad++;
            }
        }
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_pdb_15puzzle_admissible_and_above_manhattan)
{
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    pz_heuristic_t *pdb = NULL;
    pz_heuristic_t *md = NULL;
    pz_state_t goal;
    pz_rng_t rng;
    int below_md = 0;
    int over = 0;

    ck_assert_int_eq(tables_set_dir(NULL), PZ_OK);
    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &pdb, NULL), PZ_OK);
    ck_assert_int_eq(heuristic_create(p, "manhattan", &goal, &md, NULL), PZ_OK);
    ck_assert_int_eq(heuristic_eval(pdb, &goal), 0);
    pz_rng_seed(&rng, 41);
    /* Each pattern needs at least its tiles' Manhattan distances, so the
     * sum is at least Manhattan; walks bound the distance from above. */
    for (int i = 0; i < 20000; i++) {
        uint8_t moves[60];
        pz_state_t s;
        int len = 1 + (int)pz_rand_below(pz_rng_next, &rng, 59);

        puzzle_random_moves(p, &goal, len, pz_rng_next, &rng, moves);
        puzzle_replay(p, &goal, moves, len, &s);
        below_md += heuristic_eval(pdb, &s) < heuristic_eval(md, &s);
        over += heuristic_eval(pdb, &s) > len;
    }
    ck_assert_int_eq(below_md, 0);
    ck_assert_int_eq(over, 0);
    heuristic_destroy(pdb);
    heuristic_destroy(md);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_pdb_15puzzle_goals_share_tables)
{
    static const int blank_first[16] = { 0, 1, 2,  3,  4,  5,  6,  7,
                                         8, 9, 10, 11, 12, 13, 14, 15 };
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    size_t before;

    ck_assert_int_eq(tables_set_dir(NULL), PZ_OK);
    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &h, NULL), PZ_OK);
    heuristic_destroy(h);
    before = tables_memory_bytes();
    /* The blank-first goal is the blank-last one turned half a turn. */
    ck_assert_int_eq(tl_parse_ints(p, blank_first, 16, &goal, NULL), PZ_OK);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &h, NULL), PZ_OK);
    ck_assert_uint_eq(tables_memory_bytes(), before);
    {
        const char *names[8];
        int n = tiles_pdb_heuristic.tables(p, &goal, names, 8);

        ck_assert_int_eq(n, 2);
        ck_assert(tables_available(names, n, NULL));
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_pdb_24puzzle_short_walks_optimal)
{
    pz_puzzle_t *p = tl_make("24-puzzle", 0, 0, 0);
    pz_state_t goal;
    pz_rng_t rng;
    int bad = 0;

    ck_assert_int_eq(tables_set_dir(NULL), PZ_OK);
    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 51);
    /* Linear conflict IDA* proves these short distances quickly; pdb
     * must agree. */
    for (int i = 0; i < 10; i++) {
        uint8_t moves[40];
        pz_state_t s;
        pz_solution_t a;
        pz_solution_t b;

        puzzle_random_moves(p, &goal, 40, pz_rng_next, &rng, moves);
        puzzle_replay(p, &goal, moves, 40, &s);
        ck_assert_int_eq(run(p, &s, &goal, "idastar", "pdb", 1u << 20, &a),
                         PZ_OK);
        ck_assert_int_eq(
            run(p, &s, &goal, "idastar", "linear-conflict", 1u << 20, &b),
            PZ_OK);
        bad += a.status != PZ_STATUS_SOLVED || b.status != PZ_STATUS_SOLVED ||
               a.length != b.length;
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

static Suite *
slow_tables_pdb_suite(void)
{
    Suite *s = suite_create("slow_tables_pdb");
    TCase *tc = tcase_create("slow_pdb");

    tcase_set_timeout(tc, 3000);
    tcase_add_test(tc, test_tables_pdb_15puzzle_korf_instances_optimal);
    tcase_add_test(tc, test_tables_pdb_15puzzle_admissible_and_above_manhattan);
    tcase_add_test(tc, test_tables_pdb_15puzzle_goals_share_tables);
    tcase_add_test(tc, test_tables_pdb_24puzzle_short_walks_optimal);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    return tables_test_run(slow_tables_pdb_suite());
}
