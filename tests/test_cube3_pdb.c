/* SPDX-License-Identifier: MIT */
/* test_cube3_pdb.c - 3x3x3 pattern databases: symmetries, tables, heuristic. */
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
 * The quick suite uses "pdb-small" in HTM (the corner table and the
 * unsorted slice table, a few seconds to build); main() builds them
 * before the tests fork, so every test shares them. The sorted table,
 * QTM and the superflip are in test_slow_cube3_pdb.c.
 *
 * Independent facts: the published depth counts (1 18 243 3240 43239
 * 574908 in HTM), exact distances from our own breadth-first searches
 * over the real cube, optimal lengths from bibfs, and properties that
 * pin a pattern distance down: it is 0 exactly at the solved pattern,
 * a move changes it by at most one, and walking down it reaches the
 * solved pattern in that many moves (so the walk's length is a real
 * path length and, with consistency, the distance).
 */

enum {
    NSAMPLES = 200,
};

static bool
valid_bytes(const uint8_t *b)
{
    pz_state_t s;
    cube3_cubie_t c;

    state_clear(&s);
    memcpy(s.b, b, 20);
    return cube3_cubie_from_state(&s, &c) == PZ_OK &&
           cube3_cubie_check(&c, NULL) == PZ_OK;
}

/* --- symmetries ---------------------------------------------------------- */

START_TEST(test_cube3_pdb_sym_conj_is_automorphism)
{
    const pdb_sym_t *sy = &tl_pdb_base()->sy;
    pz_rng_t rng;
    long bad = 0;

    pz_rng_seed(&rng, 1);
    for (int i = 0; i < NSAMPLES; i++) {
        uint8_t c[20];

        tl_random_bytes(&rng, c);
        for (int s = 0; s < PDB_NSYM; s++) {
            uint8_t x[20];
            uint8_t y[20];
            uint8_t z[20];

            cube3_pdb__map(&sy->conj[s], c, x);
            bad += !valid_bytes(x);
            cube3_pdb__map(&sy->conj[sy->inv[s]], x, y);
            bad += memcmp(y, c, 20) != 0;
            for (int m = 0; m < PDB_NHTM; m++) {
                cube3_pdb__map(&sy->moves[m], c, y);
                cube3_pdb__map(&sy->conj[s], y, z);
                cube3_pdb__map(&sy->moves[sy->move[s][m]], x, y);
                bad += memcmp(y, z, 20) != 0;
            }
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_cube3_pdb_sym_48_distinct_16_keep_ud)
{
    const pdb_sym_t *sy = &tl_pdb_base()->sy;
    int ud = 0;

    /* Distinct actions on the moves: no two symmetries are the same. */
    for (int s = 0; s < PDB_NSYM; s++) {
        for (int t = s + 1; t < PDB_NSYM; t++) {
            ck_assert(memcmp(sy->move[s], sy->move[t], PDB_NHTM) != 0);
        }
        ud += sy->move[s][0] / 3 == 0 || sy->move[s][0] / 3 == 3;
    }
    ck_assert_int_eq(ud, 16);
    /* The axis rotations take R and F turns to U or D turns. */
    ck_assert(sy->move[sy->axis[1]][3] / 3 % 3 == 0);
    ck_assert(sy->move[sy->axis[2]][6] / 3 % 3 == 0);
}
END_TEST

/* --- tables -------------------------------------------------------------- */

START_TEST(test_cube3_pdb_table_corners_cover_every_corner_state)
{
    cube3_pdb_info_t info;
    uint64_t sum = 0;

    ck_assert_int_eq(cube3_pdb_table(CUBE3_PDB_CORNERS, false, &info), PZ_OK);
    ck_assert_uint_eq(info.entries, UINT64_C(40320) * 2187);
    ck_assert_uint_eq(info.bytes, (info.entries + 31) / 32 * 8);
    for (int d = 0; d <= info.max_depth; d++) {
        sum += info.counts[d];
    }
    ck_assert_uint_eq(sum, info.entries);
    /* One solved state, and the 18 moves move the corners 18 ways. */
    ck_assert_uint_eq(info.counts[0], 1);
    ck_assert_uint_eq(info.counts[1], 18);
}
END_TEST

START_TEST(test_cube3_pdb_table_slice_reaches_every_entry)
{
    cube3_pdb_info_t info;
    uint64_t sum = 0;

    ck_assert_int_eq(cube3_pdb_table(CUBE3_PDB_SLICE, false, &info), PZ_OK);
    ck_assert_uint_eq(info.entries % (UINT64_C(2048) * 2187), 0);
    for (int d = 0; d <= info.max_depth; d++) {
        sum += info.counts[d];
    }
    ck_assert_uint_eq(sum, info.entries);
    ck_assert_uint_eq(info.counts[0], 1);
    /* The pattern is that of Kociemba's phase 1, which has depth 12. */
    ck_assert_int_eq(info.max_depth, 12);
}
END_TEST

START_TEST(test_cube3_pdb_table_unknown_kind_rejected)
{
    ck_assert_int_eq(cube3_pdb_table(CUBE3_PDB_NKINDS, false, NULL), PZ_EINVAL);
    ck_assert_int_eq(cube3_pdb_table(-1, false, NULL), PZ_EINVAL);
}
END_TEST

/* Distance of the pattern of b in kind (exact walk). */
static int
dist(int kind, const uint8_t *b)
{
    pz_state_t s;

    state_clear(&s);
    memcpy(s.b, b, 20);
    return cube3_pdb_distance(kind, false, &s);
}

/* For random states: 0 only when solved, every move changes the distance
 * by at most one, and the 16 U-D symmetries keep it. */
static void
check_pattern(int kind)
{
    const pdb_base_t *pb = tl_pdb_base();
    pz_rng_t rng;
    long bad = 0;
    uint8_t solved[20];

    tl_solved_bytes(solved);
    ck_assert_int_eq(dist(kind, solved), 0);
    pz_rng_seed(&rng, 2);
    for (int i = 0; i < NSAMPLES / 4; i++) {
        uint8_t c[20];
        int d;

        tl_random_bytes(&rng, c);
        d = dist(kind, c);
        bad += d <= 0;
        for (int m = 0; m < PDB_NHTM; m++) {
            uint8_t x[20];
            int e;

            cube3_pdb__map(&pb->sy.moves[m], c, x);
            e = dist(kind, x);
            bad += e < d - 1 || e > d + 1;
        }
        for (int k = 0; k < PDB_NUDSYM && kind != CUBE3_PDB_CORNERS; k++) {
            uint8_t x[20];

            cube3_pdb__map(&pb->sy.conj[pb->sy.ud[k]], c, x);
            bad += dist(kind, x) != d;
        }
    }
    ck_assert_int_eq(bad, 0);
}

START_TEST(test_cube3_pdb_distance_corners_consistent)
{
    check_pattern(CUBE3_PDB_CORNERS);
}
END_TEST

START_TEST(test_cube3_pdb_distance_slice_consistent_and_symmetric)
{
    check_pattern(CUBE3_PDB_SLICE);
}
END_TEST

START_TEST(test_cube3_pdb_distance_within_pattern_bounds)
{
    /* Corner patterns of positions 1 and 2 moves away are that far. */
    const pdb_base_t *pb = tl_pdb_base();
    uint8_t solved[20];
    long bad = 0;

    tl_solved_bytes(solved);
    for (int m = 0; m < PDB_NHTM; m++) {
        uint8_t x[20];

        cube3_pdb__map(&pb->sy.moves[m], solved, x);
        bad += dist(CUBE3_PDB_CORNERS, x) != 1;
        /* U and D turns keep the slice pattern solved; others do not. */
        bad += dist(CUBE3_PDB_SLICE, x) !=
               (m / 3 == 0 || m / 3 == 3 || m % 3 == 1 ? 0 : 1);
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/*
 * A slice pattern seen along an axis is the same for m * x as for x when
 * that axis's frame sees move m as a U or D turn: m relabels pieces
 * (E-slice edges stay E-slice edges, U-layer corners U-layer corners)
 * and changes no twist or flip. The search reads the inverse's bound on
 * a child's own axis from its parent on the strength of this.
 */
START_TEST(test_cube3_pdb_distance_axis_kept_by_left_turns)
{
    const pdb_base_t *pb = tl_pdb_base();
    pz_rng_t rng;
    long bad = 0;
    int kept = 0;

    pz_rng_seed(&rng, 5);
    for (int i = 0; i < NSAMPLES / 4; i++) {
        pz_state_t s;
        cube3_cubie_t x;

        state_clear(&s);
        tl_random_bytes(&rng, s.b);
        ck_assert_int_eq(cube3_cubie_from_state(&s, &x), PZ_OK);
        for (int m = 0; m < PDB_NHTM; m++) {
            pz_state_t t;
            cube3_cubie_t y;

            cube3_cubie_multiply(cube3_move_cubie(m), &x, &y);
            cube3_cubie_to_state(&y, &t);
            for (int a = 0; a < 3; a++) {
                const pdb_bytemap_t *cm = &pb->sy.conj[pb->sy.axis[a]];
                uint8_t u[20];
                uint8_t v[20];

                if (pb->sy.move[pb->sy.axis[a]][m] / 3 % 3 != 0) {
                    continue;
                }
                kept += i == 0;
                cube3_pdb__map(cm, s.b, u);
                cube3_pdb__map(cm, t.b, v);
                bad += dist(CUBE3_PDB_SLICE, u) != dist(CUBE3_PDB_SLICE, v);
            }
        }
    }
    ck_assert_int_eq(bad, 0);
    /* Each of the 18 moves is a U or D turn along exactly one axis. */
    ck_assert_int_eq(kept, PDB_NHTM);
}
END_TEST

/* --- heuristic ----------------------------------------------------------- */

START_TEST(test_cube3_pdb_admissible_htm_to_depth_5)
{
    /* The tables see as far as the search: some state at depth 5 is
     * recognised as 5. */
    ck_assert_int_eq(tl_check_admissible_htm_depth_5("pdb-small", true), 5);
}
END_TEST

START_TEST(test_cube3_pdb_admissible_custom_goal)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t solved;
    pz_state_t goal;
    pz_heuristic_t *h;
    pz_rng_t rng;
    tl_bfs_t r;

    puzzle_goal(p, &solved);
    pz_rng_seed(&rng, 3);
    tl_scramble(p, &solved, 12, &rng, &goal);
    h = tl_admissible(p, "pdb-small", &goal);
    ck_assert_int_eq(heuristic_eval(h, &goal), 0);
    ck_assert_int_gt(heuristic_eval(h, &solved), 0);
    tl_bfs_run(p, &goal, 4, 60000, &r);
    ck_assert(!r.overflow);
    tl_check_h(p, h, &goal, 4, &r);
    ck_assert_int_eq(r.h_over, 0);
    ck_assert_int_eq(r.h_jump, 0);
    ck_assert_int_eq(r.h_max, 4);
    tl_bfs_free(&r);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* Along random walks: update (decoded from the parent) equals eval of a
 * fresh instance (computed from scratch), and consecutive values differ
 * by at most one. */
START_TEST(test_cube3_pdb_update_matches_eval)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_heuristic_t *walk;
    pz_heuristic_t *fresh;
    pz_rng_t rng;
    pz_state_t path[41];
    int hv[41];
    long bad = 0;

    puzzle_goal(p, &goal);
    walk = tl_admissible(p, "pdb-small", &goal);
    fresh = tl_admissible(p, "pdb-small", &goal);
    pz_rng_seed(&rng, 4);
    for (int round = 0; round < 5; round++) {
        path[0] = goal;
        hv[0] = heuristic_eval(walk, &path[0]);
        for (int i = 1; i <= 40; i++) {
            int m = (int)pz_rand_below(pz_rng_next, &rng, 18);

            puzzle_apply(p, &path[i - 1], m, &path[i]);
            hv[i] =
                heuristic_update(walk, &path[i - 1], hv[i - 1], m, &path[i]);
            bad += hv[i] > hv[i - 1] + 1 || hv[i] < hv[i - 1] - 1;
        }
        for (int i = 0; i <= 40; i++) {
            bad += heuristic_eval(fresh, &path[i]) != hv[i];
        }
    }
    ck_assert_int_eq(bad, 0);
    heuristic_destroy(walk);
    heuristic_destroy(fresh);
    puzzle_destroy(p);
}
END_TEST

/* The estimate bounds by the corner distance and the slice distance along
 * each axis; the corners of a cube and of its inverse are equally far
 * (the corners form a group), which is why no inverse lookup is made. */
START_TEST(test_cube3_pdb_includes_corners_and_axes)
{
    const pdb_base_t *pb = tl_pdb_base();
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_heuristic_t *h;
    pz_rng_t rng;
    long bad = 0;
    int axis_best[3] = { 0, 0, 0 };

    puzzle_goal(p, &goal);
    h = tl_admissible(p, "pdb-small", &goal);
    pz_rng_seed(&rng, 5);
    for (int i = 0; i < NSAMPLES / 4; i++) {
        pz_state_t s;
        pz_state_t inv;
        int v;
        int cs;
        int sd[3];

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &s), PZ_OK);
        tl_inverse(&s, &inv);
        v = heuristic_eval(h, &s);
        cs = cube3_pdb_distance(CUBE3_PDB_CORNERS, false, &s);
        bad += cs != cube3_pdb_distance(CUBE3_PDB_CORNERS, false, &inv);
        bad += v < cs;
        for (int a = 0; a < 3; a++) {
            pz_state_t x;

            state_clear(&x);
            cube3_pdb__map(&pb->sy.conj[pb->sy.axis[a]], s.b, x.b);
            sd[a] = cube3_pdb_distance(CUBE3_PDB_SLICE, false, &x);
            bad += v < sd[a];
        }
        /* Count the axes that alone give the largest slice bound. */
        for (int a = 0; a < 3; a++) {
            axis_best[a] += sd[a] > sd[(a + 1) % 3] && sd[a] > sd[(a + 2) % 3];
        }
    }
    ck_assert_int_eq(bad, 0);
    /* Each axis is sometimes the best: the three lookups differ. */
    for (int a = 0; a < 3; a++) {
        ck_assert_int_gt(axis_best[a], 0);
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/*
 * The largest estimate that max_estimate reports bounds every estimate, and
 * is the largest of the tables' depths: at least the corners' 11 (Korf's
 * corner database) and at most 20, God's number in HTM (each table's
 * deepest entry is some cube's estimate, which admissibility caps).
 */
START_TEST(test_cube3_pdb_max_estimate_bounds_estimates)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_heuristic_t *h;
    pz_rng_t rng;
    int max;
    int seen = 0;

    puzzle_goal(p, &goal);
    h = tl_admissible(p, "pdb-small", &goal);
    max = heuristic_max(h);
    ck_assert_int_ge(max, 11);
    ck_assert_int_le(max, 20);
    pz_rng_seed(&rng, 8);
    for (int i = 0; i < NSAMPLES / 4; i++) {
        pz_state_t s;
        int v;

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &s), PZ_OK);
        v = heuristic_eval(h, &s);
        ck_assert_int_le(v, max);
        seen = v > seen ? v : seen;
    }
    ck_assert_int_ge(seen, 8);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_pdb_invalid_goal_rejected)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_heuristic_t *h = NULL;
    pz_diag_t d;

    puzzle_goal(p, &goal);
    goal.b[0] = 1; /* the URF corner twisted in place */
    pz_diag_clear(&d);
    ck_assert_int_ne(heuristic_create(p, "pdb-small", &goal, &h, &d), PZ_OK);
    ck_assert_ptr_null(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_pdb_memory_reported)
{
    cube3_pdb_info_t a;
    cube3_pdb_info_t b;

    ck_assert_int_eq(cube3_pdb_table(CUBE3_PDB_CORNERS, false, &a), PZ_OK);
    ck_assert_int_eq(cube3_pdb_table(CUBE3_PDB_SLICE, false, &b), PZ_OK);
    /* The tables are the tables module's; the helper tables this one's. */
    ck_assert_uint_ge(tables_memory_bytes(), a.bytes + b.bytes);
    ck_assert_uint_gt(cube3_pdb_memory_bytes(), 0);
}
END_TEST

/* --- optimal solves ------------------------------------------------------ */

START_TEST(test_cube3_pdb_solve_every_state_to_depth_3)
{
    static const uint64_t expect[] = { 1, 18, 243, 3240 };
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    tl_bfs_t r;
    uint64_t found[4] = { 0, 0, 0, 0 };
    long wrong = 0;

    puzzle_goal(p, &goal);
    tl_bfs_run(p, &goal, 3, 4000, &r);
    ck_assert(!r.overflow);
    for (size_t i = 0; i < r.n; i++) {
        pz_state_t s;
        pz_solution_t sol;

        state_clear(&s);
        memcpy(s.b, r.node[i], 20);
        sol = tl_solve(p, &s, &goal, "idastar", "pdb-small", 1, NULL);
        wrong += sol.length != r.depth[i];
        if (sol.length < 4) {
            found[sol.length]++;
        }
    }
    ck_assert_int_eq(wrong, 0);
    for (int d = 0; d <= 3; d++) {
        ck_assert_uint_eq(found[d], expect[d]);
    }
    tl_bfs_free(&r);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_pdb_solve_agrees_with_bibfs)
{
    tl_check_agrees(PZ_METRIC_HTM, "pdb-small", "bibfs", "none", 6, 6, 7, 2);
}
END_TEST

/* A well-known 20-move superflip: every edge flipped in place, corners
 * solved. */
static const char superflip[] =
    "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2";

static int
popcount64(uint64_t x)
{
    int n = 0;

    for (; x != 0; x &= x - 1) {
        n++;
    }
    return n;
}

START_TEST(test_cube3_pdb_root_moves_superflip_one_per_class)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_puzzle_t *q = tl_make("3x3x3", 0, 0, PZ_METRIC_QTM);
    pz_state_t goal;
    pz_state_t s;
    int bad = 0;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(puzzle_parse_scramble(p, superflip, &s, NULL), PZ_OK);
    /* It is the superflip: corners home, every edge home and flipped. */
    for (int i = 0; i < 8; i++) {
        bad += s.b[i] != 3 * i;
    }
    for (int i = 0; i < 12; i++) {
        bad += s.b[8 + i] != 2 * i + 1;
    }
    ck_assert_int_eq(bad, 0);
    /* All 48 symmetries fix it: the 18 moves fall into two classes
     * (quarter and half turns), the 12 quarter turns into one. */
    ck_assert_int_eq(popcount64(cube3_pdb_root_moves(p, &s, &goal)), 2);
    ck_assert_int_eq(popcount64(cube3_pdb_root_moves(q, &s, &goal)), 1);
    puzzle_destroy(p);
    puzzle_destroy(q);
}
END_TEST

/*
 * After the superflip's first move the symmetries fixing that move (the
 * four turns about the U-D axis, for U; with the four mirrors through
 * that axis, for U2) exchange the second moves in classes; each class
 * holding U, R or F turns keeps its smallest such move (R for the side
 * quarter turns, R2 for the side half turns), the others keep all. HTM
 * after U: R R2 R' and D D2 D' (6 of 15); after U2: R R2 and D D2 D' (5:
 * the mirrors also exchange R with R' and D with D'); QTM after U: U R R'
 * D D' (5 of 11).
 */
START_TEST(test_cube3_pdb_root_next_moves_superflip)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_puzzle_t *q = tl_make("3x3x3", 0, 0, PZ_METRIC_QTM);
    pz_state_t goal;
    pz_state_t s;
    uint64_t next[PDB_MAXMOVES];

    puzzle_goal(p, &goal);
    ck_assert_int_eq(puzzle_parse_scramble(p, superflip, &s, NULL), PZ_OK);
    /* HTM ids face * 3 + {0 quarter, 1 half, 2 anti}, faces U R F D L B. */
    cube3_pdb_root_next_moves(p, &s, &goal, next);
    ck_assert_uint_eq(next[0], UINT64_C(7) << 3 | UINT64_C(7) << 9);
    ck_assert_uint_eq(next[1], UINT64_C(3) << 3 | UINT64_C(7) << 9);
    /* QTM ids face * 2 + {0 clockwise, 1 anticlockwise}. */
    cube3_pdb_root_next_moves(q, &s, &goal, next);
    ck_assert_uint_eq(next[0],
                      UINT64_C(1) | UINT64_C(3) << 2 | UINT64_C(3) << 6);
    puzzle_destroy(p);
    puzzle_destroy(q);
}
END_TEST

START_TEST(test_cube3_pdb_root_moves_all_for_asymmetric_start)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_state_t s;
    uint64_t next[PDB_MAXMOVES];

    puzzle_goal(p, &goal);
    ck_assert_int_eq(puzzle_parse_scramble(p, "R U F' L2 D B", &s, NULL),
                     PZ_OK);
    ck_assert_int_eq(popcount64(cube3_pdb_root_moves(p, &s, &goal)), 18);
    cube3_pdb_root_next_moves(p, &s, &goal, next);
    for (int m = 0; m < 18; m++) {
        ck_assert_uint_eq(next[m], p->allowed_after[m]);
    }
    /* A symmetric start toward an asymmetric goal keeps every move. */
    ck_assert_int_eq(popcount64(cube3_pdb_root_moves(p, &goal, &s)), 18);
    cube3_pdb_root_next_moves(p, &goal, &s, next);
    for (int m = 0; m < 18; m++) {
        ck_assert_uint_eq(next[m], p->allowed_after[m]);
    }
    puzzle_destroy(p);
}
END_TEST

/* Symmetric starts use fewer first and second moves (root_moves,
 * root_next_moves); IDA* still finds answers as short as bibfs. QTM:
 * test_slow_cube3_pdb.c (its tables are loaded there once). */
START_TEST(test_cube3_pdb_solve_symmetric_starts_agree_with_bibfs)
{
    tl_check_symmetric_starts(PZ_METRIC_HTM, "pdb-small");
}
END_TEST

/*
 * QTM estimates are raised to the parity of the exact corner distance. A
 * child cut before its corner lookup has none to raise to: raising it as
 * if its corners were at 0 overestimated by one, the engine's pathmax
 * carried that to the parent, and IDA* cut the whole first iteration of
 * "D U' L' D'" (4 quarter turns: D L U D'). Every bound is searched once:
 * iterations = (length - h0) / 2 + 1.
 */
START_TEST(test_cube3_pdb_qtm_cut_children_keep_bounds)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_QTM);
    pz_state_t goal;
    pz_state_t s = tl_scrambled(p, "D U' L' D'");
    pz_rng_t rng;

    puzzle_goal(p, &goal);
    for (int threads = 1; threads <= 2; threads++) {
        pz_stats_view_t v;
        pz_solution_t a =
            tl_solve(p, &s, &goal, "idastar", "pdb-small", threads, &v);

        ck_assert_int_eq(a.length, 4);
        ck_assert(a.optimal);
        ck_assert_int_eq(v.iterations, 1);
    }
    pz_rng_seed(&rng, 13);
    for (int i = 0; i < 6; i++) {
        pz_stats_view_t v;
        pz_solution_t a;
        pz_solution_t b;

        tl_scramble(p, &goal, 9 + i % 2, &rng, &s);
        a = tl_solve(p, &s, &goal, "idastar", "pdb-small", 1 + i % 2, &v);
        b = tl_solve(p, &s, &goal, "bibfs", "none", 1, NULL);
        ck_assert_int_eq(a.length, b.length);
        ck_assert_int_eq(v.iterations,
                         (a.length - v.heuristic_at_start) / 2 + 1);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_pdb_solve_to_custom_goal)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t solved;
    pz_state_t goal;
    pz_state_t s;
    pz_rng_t rng;
    pz_solution_t a;
    pz_solution_t b;

    puzzle_goal(p, &solved);
    pz_rng_seed(&rng, 7);
    tl_scramble(p, &solved, 10, &rng, &goal);
    tl_scramble(p, &goal, 7, &rng, &s);
    a = tl_solve(p, &s, &goal, "idastar", "pdb-small", 2, NULL);
    b = tl_solve(p, &s, &goal, "bibfs", "none", 1, NULL);
    ck_assert_int_eq(a.length, b.length);
    puzzle_destroy(p);
}
END_TEST

static Suite *
cube3_pdb_suite(void)
{
    Suite *s = suite_create("cube3_pdb");
    TCase *tc_sym = tcase_create("sym");
    TCase *tc_table = tcase_create("table");
    TCase *tc_heur = tcase_create("heuristic");
    TCase *tc_solve = tcase_create("solve");

    tcase_add_test(tc_sym, test_cube3_pdb_sym_conj_is_automorphism);
    tcase_add_test(tc_sym, test_cube3_pdb_sym_48_distinct_16_keep_ud);
    suite_add_tcase(s, tc_sym);

    tcase_set_timeout(tc_table, 60);
    tcase_add_test(tc_table,
                   test_cube3_pdb_table_corners_cover_every_corner_state);
    tcase_add_test(tc_table, test_cube3_pdb_table_slice_reaches_every_entry);
    tcase_add_test(tc_table, test_cube3_pdb_table_unknown_kind_rejected);
    tcase_add_test(tc_table, test_cube3_pdb_distance_corners_consistent);
    tcase_add_test(tc_table,
                   test_cube3_pdb_distance_slice_consistent_and_symmetric);
    tcase_add_test(tc_table, test_cube3_pdb_distance_within_pattern_bounds);
    tcase_add_test(tc_table, test_cube3_pdb_distance_axis_kept_by_left_turns);
    suite_add_tcase(s, tc_table);

    tcase_set_timeout(tc_heur, 120);
    tcase_add_test(tc_heur, test_cube3_pdb_admissible_htm_to_depth_5);
    tcase_add_test(tc_heur, test_cube3_pdb_admissible_custom_goal);
    tcase_add_test(tc_heur, test_cube3_pdb_update_matches_eval);
    tcase_add_test(tc_heur, test_cube3_pdb_includes_corners_and_axes);
    tcase_add_test(tc_heur, test_cube3_pdb_max_estimate_bounds_estimates);
    tcase_add_test(tc_heur, test_cube3_pdb_invalid_goal_rejected);
    tcase_add_test(tc_heur, test_cube3_pdb_memory_reported);
    suite_add_tcase(s, tc_heur);

    tcase_set_timeout(tc_solve, 120);
    tcase_add_test(tc_solve, test_cube3_pdb_solve_every_state_to_depth_3);
    tcase_add_test(tc_solve, test_cube3_pdb_solve_agrees_with_bibfs);
    tcase_add_test(tc_solve, test_cube3_pdb_solve_to_custom_goal);
    tcase_add_test(tc_solve, test_cube3_pdb_qtm_cut_children_keep_bounds);
    tcase_add_test(tc_solve, test_cube3_pdb_root_moves_superflip_one_per_class);
    tcase_add_test(tc_solve, test_cube3_pdb_root_next_moves_superflip);
    tcase_add_test(tc_solve,
                   test_cube3_pdb_root_moves_all_for_asymmetric_start);
    tcase_add_test(tc_solve,
                   test_cube3_pdb_solve_symmetric_starts_agree_with_bibfs);
    suite_add_tcase(s, tc_solve);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(cube3_pdb_suite());
    char dir[64];
    tables_blob_def_t defs[16];
    int ndefs = cube3_pdb_table_defs(defs, 16);
    int failed;

    /* Build the shared tables once, before the tests fork, through the
     * table files of a directory of our own (so saving and mapping them
     * is tested too); removed at the end. */
    snprintf(dir, sizeof(dir), "/tmp/test-cube3-pdb-XXXXXX");
    if (mkdtemp(dir) == NULL || tables_set_dir(dir) != PZ_OK) {
        fprintf(stderr, "cannot make a table directory\n");
        return EXIT_FAILURE;
    }
    if (cube3_pdb_table(CUBE3_PDB_CORNERS, false, NULL) != PZ_OK ||
        cube3_pdb_table(CUBE3_PDB_SLICE, false, NULL) != PZ_OK) {
        fprintf(stderr, "cannot build the pattern databases\n");
        return EXIT_FAILURE;
    }
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    tables_unload_all();
    for (int i = 0; i < ndefs && i < 16; i++) {
        char path[160];

        snprintf(path, sizeof(path), "%s/%s.pzt", dir, defs[i].name);
        unlink(path);
    }
    rmdir(dir);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
