/* SPDX-License-Identifier: MIT */
/* test_cube3_pdb_sep.c - the 3x3x3 separation pattern and its reduction. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

#include "cube3_pdb_testlib.h"
#include "puzzles/cube3/pdb_internal.h"
#include "tables.h"

/*
 * The separation pattern (pdb_sep.c) with flips is 7.2 GB, built only
 * by the slow suite; here its coordinates and reduction are checked, and
 * the same code without flips (CUBE3_PDB_SEP0, 112 M entries, built in
 * main() before the tests fork) stands for the table.
 *
 * Facts that could fail: the two index paths (maps, and conjugating the
 * bytes) agree; the 48 symmetries' orbits partition the raw values;
 * symmetric states, and states that differ by flipping a whole slice,
 * share an entry, and states that differ otherwise do not; the table's
 * distances are 0 only when solved, move by at most one per move, and
 * are kept by every symmetry and by half turns applied on the left.
 */

enum {
    NSAMPLES = 200,
};

/* The reduction with flips, made once per test process. */
static const pdb_sep_t *
sep8(void)
{
    static pdb_sep_t sp;

    if (sp.cs == NULL) {
        ck_assert_int_eq(
            cube3_pdb__sep_init(&sp, &tl_pdb_base()->co, &tl_pdb_base()->sy, 8),
            PZ_OK);
    }
    return &sp;
}

static int
dist(const uint8_t *b)
{
    pz_state_t s;

    state_clear(&s);
    memcpy(s.b, b, 20);
    return cube3_pdb_distance(CUBE3_PDB_SEP0, false, &s);
}

/* m * x (m applied on the left: x's pieces renamed). */
static void
left_multiply(int m, const uint8_t *x, uint8_t *out)
{
    pz_state_t s;
    pz_state_t t;
    cube3_cubie_t c;
    cube3_cubie_t y;

    state_clear(&s);
    memcpy(s.b, x, 20);
    ck_assert_int_eq(cube3_cubie_from_state(&s, &c), PZ_OK);
    cube3_cubie_multiply(cube3_move_cubie(m), &c, &y);
    cube3_cubie_to_state(&y, &t);
    memcpy(out, t.b, 20);
}

START_TEST(test_cube3_pdb_sep_orbits_partition_raw_values)
{
    const pdb_sep_t *sp = sep8();
    uint64_t total = 0;

    ck_assert_int_eq(sp->nclass, PDB_SEP_CLASSES);
    for (int c = 0; c < sp->nclass; c++) {
        int fixed = __builtin_popcountll(sp->stab[c]);

        ck_assert_int_eq(sp->stab[c] & 1u, 1u); /* the identity */
        ck_assert_int_eq(PDB_NSYM % fixed, 0);
        total += (uint64_t)(PDB_NSYM / fixed);
        ck_assert_uint_eq(cube3_pdb__sep_class(sp, sp->rep[c]), (uint32_t)c);
    }
    ck_assert_uint_eq(total, PDB_NSEPRAW);
    ck_assert_uint_eq(cube3_pdb__table_rows(CUBE3_PDB_SEP) * PDB_NTWIST,
                      UINT64_C(28664326656));
}
END_TEST

START_TEST(test_cube3_pdb_sep_index_paths_agree)
{
    const pdb_sep_t *sp = sep8();
    const pdb_base_t *pb = tl_pdb_base();
    uint64_t entries = cube3_pdb__table_rows(CUBE3_PDB_SEP) * PDB_NTWIST;
    pz_rng_t rng;
    long bad = 0;

    pz_rng_seed(&rng, 11);
    for (int i = 0; i < 20 * NSAMPLES; i++) {
        uint8_t b[20];
        uint8_t x[20];
        uint64_t a;

        tl_random_bytes(&rng, b);
        /* Near solved too: few moves from the solved cube. */
        if (i % 2 == 1) {
            tl_solved_bytes(b);
            for (int j = 0; j < i % 7; j++) {
                cube3_pdb__map(&pb->sy.moves[pz_rng_next(&rng) % PDB_NHTM], b,
                               x);
                memcpy(b, x, 20);
            }
        }
        a = cube3_pdb__sep_index(sp, &pb->co, b);
        bad += a != cube3_pdb__sep_index_conj(sp, pb, b);
        bad += a >= entries;
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* Every symmetry's image of a state lies in the same class, and in the
 * same entry unless symmetries fix the class's representative. */
START_TEST(test_cube3_pdb_sep_symmetric_states_share_class)
{
    const pdb_sep_t *sp = sep8();
    const pdb_base_t *pb = tl_pdb_base();
    pz_rng_t rng;
    long bad = 0;

    pz_rng_seed(&rng, 12);
    for (int i = 0; i < NSAMPLES; i++) {
        uint8_t b[20];
        uint64_t a;

        tl_random_bytes(&rng, b);
        a = cube3_pdb__sep_index(sp, &pb->co, b);
        for (int k = 0; k < PDB_NSYM; k++) {
            uint8_t x[20];
            uint64_t e;

            cube3_pdb__map(&pb->sy.conj[k], b, x);
            e = cube3_pdb__sep_index(sp, &pb->co, x);
            bad += e / PDB_NTWIST >> 8 != a / PDB_NTWIST >> 8;
            bad += sp->stab[a / PDB_NTWIST >> 8] == 1 && e != a;
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_cube3_pdb_sep_whole_slice_flip_unseen)
{
    const pdb_sep_t *sp = sep8();
    const pdb_base_t *pb = tl_pdb_base();
    pz_rng_t rng;
    long bad = 0;

    pz_rng_seed(&rng, 13);
    for (int i = 0; i < NSAMPLES; i++) {
        uint8_t b[20];
        uint64_t a;

        tl_random_bytes(&rng, b);
        a = cube3_pdb__sep_index(sp, &pb->co, b);
        for (int slice = 0; slice < 3; slice++) {
            uint8_t all[20];
            uint8_t two[20];
            int n = 0;

            memcpy(all, b, 20);
            memcpy(two, b, 20);
            for (int j = 0; j < 12; j++) {
                int piece = b[8 + j] >> 1;
                int s = piece >= 8 ? 0 : (piece & 1) ? 1 : 2;

                if (s == slice) {
                    all[8 + j] ^= 1;
                    if (n++ < 2) {
                        two[8 + j] ^= 1;
                    }
                }
            }
            bad += cube3_pdb__sep_index(sp, &pb->co, all) != a;
            /* Two edges of one slice flipped: another pattern (another
             * class or flips), unless a symmetry fixes the class. */
            bad += sp->stab[a / PDB_NTWIST >> 8] == 1 &&
                   cube3_pdb__sep_index(sp, &pb->co, two) == a;
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/*
 * A half turn applied on the left renames pieces within their tetrads
 * and slices and changes no orientation, so the pattern of m * x is
 * x's: the search reads a child's inverse bound from its parent on the
 * strength of this. Quarter turns do change it.
 */
START_TEST(test_cube3_pdb_sep_half_turns_on_left_keep_pattern)
{
    const pdb_sep_t *sp = sep8();
    const pdb_base_t *pb = tl_pdb_base();
    pz_rng_t rng;
    long bad = 0;
    long quarter_changed = 0;

    pz_rng_seed(&rng, 14);
    for (int i = 0; i < NSAMPLES; i++) {
        uint8_t b[20];
        uint64_t a;

        tl_random_bytes(&rng, b);
        a = cube3_pdb__sep_index(sp, &pb->co, b);
        for (int m = 0; m < PDB_NHTM; m++) {
            uint8_t y[20];
            uint64_t e;

            left_multiply(m, b, y);
            e = cube3_pdb__sep_index(sp, &pb->co, y);
            if (m % 3 == 1) {
                bad += e != a;
            } else {
                quarter_changed += e != a;
            }
        }
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_gt(quarter_changed, NSAMPLES);
}
END_TEST

START_TEST(test_cube3_pdb_sep_table_consistent_and_symmetric)
{
    const pdb_base_t *pb = tl_pdb_base();
    cube3_pdb_info_t info;
    pz_rng_t rng;
    uint8_t solved[20];
    uint64_t sum = 0;
    long bad = 0;

    ck_assert_int_eq(cube3_pdb_table(CUBE3_PDB_SEP0, false, &info), PZ_OK);
    ck_assert_uint_eq(info.entries, (uint64_t)PDB_SEP_CLASSES * PDB_NTWIST);
    for (int d = 0; d <= info.max_depth; d++) {
        sum += info.counts[d];
    }
    ck_assert_uint_eq(sum, info.entries);
    tl_solved_bytes(solved);
    ck_assert_int_eq(dist(solved), 0);
    pz_rng_seed(&rng, 15);
    for (int i = 0; i < NSAMPLES / 4; i++) {
        uint8_t c[20];
        int d;

        tl_random_bytes(&rng, c);
        d = dist(c);
        bad += d <= 0 || d > info.max_depth;
        for (int m = 0; m < PDB_NHTM; m++) {
            uint8_t x[20];
            int e;

            cube3_pdb__map(&pb->sy.moves[m], c, x);
            e = dist(x);
            bad += e < d - 1 || e > d + 1;
            left_multiply(m, c, x);
            bad += m % 3 == 1 && dist(x) != d;
        }
        for (int k = 0; k < PDB_NSYM; k++) {
            uint8_t x[20];

            cube3_pdb__map(&pb->sy.conj[k], c, x);
            bad += dist(x) != d;
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* Within 4 moves of solved, every distance is at most the depth (BFS
 * over the real cube); U2 and the like keep the pattern solved. */
START_TEST(test_cube3_pdb_sep_table_admissible_to_depth_4)
{
    static const uint64_t expect[] = { 1, 18, 243, 3240, 43239 };
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    tl_bfs_t r;
    long over = 0;
    long zero = 0;

    puzzle_goal(p, &goal);
    tl_bfs_run(p, &goal, 4, 60000, &r);
    ck_assert(!r.overflow);
    for (int d = 0; d <= 4; d++) {
        ck_assert_uint_eq(r.counts[d], expect[d]);
    }
    for (size_t i = 0; i < r.n; i++) {
        int d = dist(r.node[i]);

        over += d > r.depth[i];
        zero += d == 0;
    }
    ck_assert_int_eq(over, 0);
    /* Solved, then the half-turn group's states within 4 moves keep it
     * solved: more than just the solved cube. */
    ck_assert_int_gt(zero, 18);
    tl_bfs_free(&r);
    puzzle_destroy(p);
}
END_TEST

/* auto passes over pdb-huge near the superflip (which its pattern does
 * not see), and only there. */
START_TEST(test_cube3_pdb_sep_optimal_suits_not_near_superflip)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_puzzle_t *q = tl_make("3x3x3", 0, 0, PZ_METRIC_QTM);
    pz_state_t goal;
    pz_state_t flip;
    pz_rng_t rng;
    int suited = 0;

    puzzle_goal(p, &goal);
    flip =
        tl_scrambled(p, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2");
    ck_assert(cube3_pdb_optimal_suits(p, "pdb-huge", &goal, &goal));
    ck_assert(!cube3_pdb_optimal_suits(p, "pdb-huge", &flip, &goal));
    ck_assert(cube3_pdb_optimal_suits(p, "pdb-large", &flip, &goal));
    ck_assert(cube3_pdb_optimal_suits(q, "pdb-huge", &flip, &goal));
    /* Relative to the goal: the superflip as a goal, the solved start. */
    ck_assert(!cube3_pdb_optimal_suits(p, "pdb-huge", &goal, &flip));
    ck_assert(cube3_pdb_optimal_suits(p, "pdb-huge", &flip, &flip));
    pz_rng_seed(&rng, 16);
    for (int i = 0; i < NSAMPLES; i++) {
        pz_state_t s;
        pz_state_t t;

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &s), PZ_OK);
        suited += cube3_pdb_optimal_suits(p, "pdb-huge", &s, &goal);
        /* Two moves from the superflip: still its neighbourhood. */
        tl_scramble(p, &flip, 2, &rng, &t);
        ck_assert(!cube3_pdb_optimal_suits(p, "pdb-huge", &t, &goal));
    }
    ck_assert_int_eq(suited, NSAMPLES);
    puzzle_destroy(p);
    puzzle_destroy(q);
}
END_TEST

static Suite *
cube3_pdb_sep_suite(void)
{
    Suite *s = suite_create("cube3_pdb_sep");
    TCase *tc = tcase_create("sep");

    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_cube3_pdb_sep_orbits_partition_raw_values);
    tcase_add_test(tc, test_cube3_pdb_sep_index_paths_agree);
    tcase_add_test(tc, test_cube3_pdb_sep_symmetric_states_share_class);
    tcase_add_test(tc, test_cube3_pdb_sep_whole_slice_flip_unseen);
    tcase_add_test(tc, test_cube3_pdb_sep_half_turns_on_left_keep_pattern);
    tcase_add_test(tc, test_cube3_pdb_sep_table_consistent_and_symmetric);
    tcase_add_test(tc, test_cube3_pdb_sep_table_admissible_to_depth_4);
    tcase_add_test(tc, test_cube3_pdb_sep_optimal_suits_not_near_superflip);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(cube3_pdb_sep_suite());
    char dir[64];
    char path[160];
    int failed;

    /* The table without flips, built once before the tests fork through
     * a table directory of our own, removed at the end. */
    snprintf(dir, sizeof(dir), "/tmp/test-cube3-sep-XXXXXX");
    if (mkdtemp(dir) == NULL || tables_set_dir(dir) != PZ_OK) {
        fprintf(stderr, "cannot make a table directory\n");
        return EXIT_FAILURE;
    }
    if (cube3_pdb_table(CUBE3_PDB_SEP0, false, NULL) != PZ_OK) {
        fprintf(stderr, "cannot build the separation table\n");
        return EXIT_FAILURE;
    }
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    tables_unload_all();
    snprintf(path, sizeof(path), "%s/3x3x3-pdb-sep0-htm.pzt", dir);
    unlink(path);
    rmdir(dir);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
