/* SPDX-License-Identifier: MIT */
/* test_slow_cube3_pdb_sep.c - the full separation table and "pdb-huge". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "cube3_pdb_testlib.h"

/*
 * Slow: main() loads (or builds, for many minutes on one thread) the
 * separation table (7.2 GB), its base-offset copy (7.2 GB), the HTM
 * tables of "pdb-small" and the QTM corner and sorted tables from the
 * default table directory before the tests fork: run `puzzled tables
 * build 3x3x3 3x3x3-huge` first. About 16 GB of memory. Meant for the ctest
 * label "slow".
 *
 * Independent facts: the published depth counts (HTM to depth 5), exact
 * distances walked down the mod-3 table, and bibfs and IDA* with
 * "pdb-small" (no shared offset table, no inverse) for optimal lengths.
 */

/* The base-offset copy agrees with the exact pattern distances on
 * random states and their neighbours: 0 for 9 or less, else the
 * distance (12 meaning 12 or more). */
START_TEST(test_slow_cube3_pdb_sep_offset_matches_exact)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    long bad = 0;
    long nonzero = 0;
    long zero = 0;

    pz_rng_seed(&rng, 41);
    for (int i = 0; i < 300; i++) {
        pz_state_t s;
        pz_state_t t;

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &s), PZ_OK);
        /* Some states near solved too, where the copy reads 0. */
        if (i % 3 == 0) {
            pz_state_t goal;

            puzzle_goal(p, &goal);
            tl_scramble(p, &goal, 4 + i % 7, &rng, &s);
        }
        puzzle_apply(p, &s, (int)(pz_rng_next(&rng) % 18), &t);
        for (int k = 0; k < 2; k++) {
            const pz_state_t *x = k == 0 ? &s : &t;
            int d = cube3_pdb_distance(CUBE3_PDB_SEP, false, x);
            int b = cube3_pdb_offset_bound(CUBE3_PDB_SEP, x);

            bad += d < 0 || b != (d <= 9 ? 0 : d < 12 ? d : 12);
            nonzero += b != 0;
            zero += b == 0;
        }
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_gt(nonzero, 0);
    ck_assert_int_gt(zero, 0);
    puzzle_destroy(p);
}
END_TEST

/* "pdb-huge" never overestimates within 5 moves of solved (published
 * counts); inconsistent (the inverse's lookups), so only overestimates
 * count. */
START_TEST(test_slow_cube3_pdb_huge_admissible_htm_to_depth_5)
{
    tl_check_admissible_htm_depth_5("pdb-huge", false);
}
END_TEST

/* Never below "pdb-small" (it reads the same small tables), above it on
 * most random states, and at most 20. */
START_TEST(test_slow_cube3_pdb_huge_at_least_small)
{
    ck_assert_int_gt(tl_check_at_least_small("pdb-huge", 20, 42, 200), 100);
}
END_TEST

START_TEST(test_slow_cube3_pdb_huge_solve_agrees_with_bibfs)
{
    tl_check_agrees(PZ_METRIC_HTM, "pdb-huge", "bibfs", "none", 43, 6, 8, 1);
}
END_TEST

/* On 12- to 14-move scrambles IDA* with "pdb-huge" (the lanes, both
 * lookups of the offset table, the inverse's bound kept over half
 * turns) finds answers exactly as short as IDA* with "pdb-small", with
 * 1 and 2 threads. */
START_TEST(test_slow_cube3_pdb_huge_solve_agrees_with_small_deeper)
{
    tl_check_agrees(PZ_METRIC_HTM, "pdb-huge", "idastar", "pdb-small", 44, 12,
                    12, 3);
}
END_TEST

/* In QTM pdb-huge reads pdb-large's QTM tables (there is no QTM
 * separation table): it must still solve, as short as bibfs. */
START_TEST(test_slow_cube3_pdb_huge_qtm_agrees_with_bibfs)
{
    tl_check_agrees(PZ_METRIC_QTM, "pdb-huge", "bibfs", "none", 45, 6, 8, 2);
}
END_TEST

static Suite *
slow_cube3_pdb_sep_suite(void)
{
    Suite *s = suite_create("slow_cube3_pdb_sep");
    TCase *tc = tcase_create("sep");

    tcase_set_timeout(tc, 3600);
    tcase_add_test(tc, test_slow_cube3_pdb_sep_offset_matches_exact);
    tcase_add_test(tc, test_slow_cube3_pdb_huge_admissible_htm_to_depth_5);
    tcase_add_test(tc, test_slow_cube3_pdb_huge_at_least_small);
    tcase_add_test(tc, test_slow_cube3_pdb_huge_solve_agrees_with_bibfs);
    tcase_add_test(tc, test_slow_cube3_pdb_huge_solve_agrees_with_small_deeper);
    tcase_add_test(tc, test_slow_cube3_pdb_huge_qtm_agrees_with_bibfs);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(slow_cube3_pdb_sep_suite());
    pz_state_t probe;
    int failed;

    memset(&probe, 0, sizeof(probe));
    for (int i = 0; i < 8; i++) {
        probe.b[i] = (uint8_t)(3 * i);
    }
    for (int i = 0; i < 12; i++) {
        probe.b[8 + i] = (uint8_t)(2 * i);
    }
    if (cube3_pdb_table(CUBE3_PDB_CORNERS, false, NULL) != PZ_OK ||
        cube3_pdb_table(CUBE3_PDB_SLICE, false, NULL) != PZ_OK ||
        cube3_pdb_table(CUBE3_PDB_SEP, false, NULL) != PZ_OK ||
        cube3_pdb_offset_bound(CUBE3_PDB_SEP, &probe) < 0 ||
        cube3_pdb_table(CUBE3_PDB_CORNERS, true, NULL) != PZ_OK ||
        cube3_pdb_table(CUBE3_PDB_SORTED, true, NULL) != PZ_OK) {
        fprintf(stderr, "cannot build the pattern databases\n");
        return EXIT_FAILURE;
    }
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
