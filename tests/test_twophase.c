/* SPDX-License-Identifier: MIT */
/* test_twophase.c - the two-phase 3x3x3 engine and its cube3 additions.
 *
 * Size: one program per puzzle family is the rule for these tests; the
 * engine, its tables and its cube additions are one family. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>

#include "engine.h"
#include "perm.h"
#include "puzzle.h"
#include "puzzles/cube3/cube3.h"
#include "puzzles/cube3/twophase/twophase.h"
#include "puzzles/cube3/twophase/twophase_internal.h"
#include "solve.h"
#include "tables.h"
#include "testlib.h"

/*
 * Independent facts: God's number 20 HTM, the superflip 20 HTM, and "in
 * QTM every solution has the parity of the permutation" (a quarter turn
 * is an odd permutation of the corners); C(12, 4) = 495 slice positions; a
 * symmetry of the cube conjugates a face turn into a face turn; the
 * number of raw phase-1 coordinates (twist, flip, slice) at distance 0..4
 * from G1, 1 4 50 592 7156, published by Kociemba with his two-phase
 * algorithm; and optimal lengths of short scrambles from bidirectional
 * BFS.
 *
 * The tables are loaded (or built) once by an unchecked fixture in the
 * parent process; every forked test inherits them. Hot loops count
 * failures and assert once.
 */

#define SUPERFLIP \
    "UBULURUFU"   \
    "RURFRBRDR"   \
    "FUFLFRFDF"   \
    "DFDLDRDBD"   \
    "LULBLFLDL"   \
    "BUBRBLBDB"

static void
tables_fixture(void)
{
    /* Unchecked fixture: a failure here shows in every solve test. The
     * tables (about 600 MB) live in the user's table directory
     * ($PUZZLED_TABLES or the cache), as for the CLI and the daemon: the
     * first run builds and saves them (about 8 s of CPU in Release, about
     * 30 s with sanitizers), later runs load them in about a second. */
    (void)twophase_tables_init();
}

/* A solve request for p from start to the solved cube. */
static solve_spec_t
spec_for(const pz_puzzle_t *p, const pz_state_t *start, int target)
{
    solve_spec_t spec = { 0 };

    spec.puzzle = p;
    spec.start = *start;
    puzzle_goal(p, &spec.goal);
    spec.target_length = target;
    spec.threads = 1;
    spec.limits.memory_bytes = (size_t)64 << 20;
    spec.limits.time_ms = 20000;
    return spec;
}

/* Parity of the permutation of a state: corners and edges agree on any
 * valid cube, so the corners say it. */
static int
state_parity(const pz_state_t *s)
{
    cube3_cubie_t c;

    ck_assert_int_eq(cube3_cubie_from_state(s, &c), PZ_OK);
    return cube3_corner_parity(&c);
}

/* ------------------------------------------------------- symmetries -- */

START_TEST(test_twophase_sym_move_conjugates_moves_to_moves)
{
    int bad = 0;

    for (int s = 0; s < CUBE3_NSYM; s++) {
        for (int m = 0; m < CUBE3_NMOVES; m++) {
            int k = cube3_sym_move(s, m);

            bad += k < 0;
            /* Half turns stay half turns. */
            bad += k >= 0 && (k % 3 == 1) != (m % 3 == 1);
            /* The first 16 keep the U-D axis. */
            bad += s < CUBE3_NSYM_UD && k >= 0 &&
                   (m / 3 % 3 == 0) != (k / 3 % 3 == 0);
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_twophase_sym_inverse_and_distinct)
{
    int bad = 0;
    cube3_cubie_t id;

    cube3_cubie_solved(&id);
    for (int s = 0; s < CUBE3_NSYM; s++) {
        cube3_cubie_t a;
        cube3_cubie_t b;
        int inv = cube3_sym_inverse(s);

        cube3_sym_cubie(s, &a);
        ck_assert_int_ge(inv, 0);
        cube3_sym_cubie(inv, &b);
        cube3_cubie_multiply_any(&a, &b, &b);
        bad += !cube3_cubie_equal(&b, &id);
        for (int t = s + 1; t < CUBE3_NSYM; t++) {
            cube3_sym_cubie(t, &b);
            bad += cube3_cubie_equal(&a, &b);
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_twophase_sym_conjugate_of_product)
{
    /* S (a b) S^-1 = (S a S^-1)(S b S^-1) for random cubes. */
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    int bad = 0;

    pz_rng_seed(&rng, 7);
    for (int i = 0; i < 50; i++) {
        pz_state_t x = tl_random_state(p, &rng);
        pz_state_t y = tl_random_state(p, &rng);
        cube3_cubie_t a;
        cube3_cubie_t b;
        cube3_cubie_t ab;

        cube3_cubie_from_state(&x, &a);
        cube3_cubie_from_state(&y, &b);
        cube3_cubie_multiply(&a, &b, &ab);
        for (int s = 0; s < CUBE3_NSYM; s++) {
            cube3_cubie_t sa;
            cube3_cubie_t sb;
            cube3_cubie_t sab;

            cube3_cubie_conjugate(&a, s, &sa);
            cube3_cubie_conjugate(&b, s, &sb);
            cube3_cubie_conjugate(&ab, s, &sab);
            cube3_cubie_multiply(&sa, &sb, &sa);
            bad += !cube3_cubie_equal(&sa, &sab);
            bad += cube3_cubie_check(&sab, NULL) != PZ_OK;
        }
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

/* ------------------------------------------------------ coordinates -- */

START_TEST(test_twophase_coord_slice_is_a_bijection)
{
    static bool seen[CUBE3_NSLICE];
    cube3_cubie_t c;
    int bad = 0;

    cube3_cubie_solved(&c);
    ck_assert_int_eq(cube3_slice(&c), 0);
    for (int r = 0; r < CUBE3_NSLICE; r++) {
        int in_slice = 0;

        cube3_cubie_solved(&c);
        cube3_set_slice(&c, r);
        for (int i = 0; i < CUBE3_NEDGES; i++) {
            in_slice += c.ep[i] >= CUBE3_FR;
        }
        bad += in_slice != 4 || cube3_slice(&c) != r || seen[r];
        seen[r] = true;
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_twophase_coord_permutations_round_trip)
{
    cube3_cubie_t c;
    int bad = 0;

    for (int r = 0; r < CUBE3_NUD_EDGE_PERM; r += 7) {
        cube3_cubie_solved(&c);
        cube3_set_ud_edge_perm(&c, r);
        bad += cube3_ud_edge_perm(&c) != r;
    }
    for (int r = 0; r < CUBE3_NSLICE_PERM; r++) {
        cube3_cubie_solved(&c);
        cube3_set_slice_perm(&c, r);
        bad += cube3_slice_perm(&c) != r || cube3_slice(&c) != 0;
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* ----------------------------------------------------------- tables -- */

START_TEST(test_twophase_tables_build_reports_size)
{
    ck_assert_int_eq(twophase_tables_init(), PZ_OK);
    ck_assert_uint_gt(twophase_table_bytes(), (size_t)50 << 20);
    ck_assert_uint_le(twophase_table_bytes(), (size_t)700 << 20);
    ck_assert(twophase_table_build_ms() > 0);
}
END_TEST

START_TEST(test_twophase_tables_init_leaves_a_sound_file)
{
    /* Built or loaded, the tables are saved in the table directory, and
     * the file passes the tables module's header and checksum checks. */
    char why[256];

    ck_assert_int_eq(twophase_tables_init(), PZ_OK);
    ck_assert_int_eq(tables_verify(TWOPHASE_BLOB_NAME, why, sizeof(why)),
                     PZ_OK);
}
END_TEST

START_TEST(test_twophase_table_defs_lists_one_startup_table)
{
    tables_blob_def_t def[2];

    ck_assert_int_eq(twophase_table_defs(def, 2), 1);
    ck_assert_str_eq(def[0].name, TWOPHASE_BLOB_NAME);
    ck_assert(def[0].startup);
    ck_assert_uint_eq(def[0].bytes, TWOPHASE_BLOB_BYTES);
    ck_assert_uint_le(def[0].bytes, (uint64_t)700 << 20);
}
END_TEST

START_TEST(test_twophase_tables_near_counts_match_published)
{
    static const int published[TWOPHASE_NEAR_DEPTH + 1] = { 1, 4, 50, 592,
                                                            7156 };
    const twophase_tables_t *t = twophase__tables();
    int count[TWOPHASE_NEAR_DEPTH + 1] = { 0 };

    ck_assert_ptr_nonnull(t);
    for (uint32_t i = 0; i < TWOPHASE_NEAR_SLOTS; i++) {
        if (t->near_key[i] != UINT32_MAX) {
            count[t->near_dist[i]]++;
        }
    }
    for (int d = 0; d <= TWOPHASE_NEAR_DEPTH; d++) {
        ck_assert_int_eq(count[d], published[d]);
    }
}
END_TEST

START_TEST(test_twophase_tables_phase1_consistent)
{
    /* The walked-out distance is 0 exactly in G1, changes by at most one
     * per move, and agrees with the change each entry's word records for
     * every move; and it never exceeds the length of a scramble that made
     * the cube. */
    const twophase_tables_t *t = twophase__tables();
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    pz_state_t goal;
    int bad = 0;

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 11);
    for (int i = 0; i < 300; i++) {
        int len = i % 14;
        uint8_t moves[16];
        pz_state_t s;
        cube3_cubie_t c;
        int tw;
        int fl;
        int sl;
        int d;
        uint32_t cs;
        uint32_t dec;
        uint32_t same;

        puzzle_random_moves(p, &goal, len, pz_rng_next, &rng, moves);
        puzzle_replay(p, &goal, moves, len, &s);
        cube3_cubie_from_state(&s, &c);
        tw = cube3_twist(&c);
        fl = cube3_flip(&c);
        sl = cube3_slice(&c);
        d = twophase__depth1(t, tw, fl, sl);
        bad += d < 0 || d > len || (d == 0) != ((tw | fl | sl) == 0);
        cs = t->flipslice_sym[sl * CUBE3_NFLIP + fl];
        twophase__decode1(twophase__phase1(t)[twophase__index1(t, tw, fl, sl)],
                          &dec, &same);
        for (int m = 0; m < CUBE3_NMOVES; m++) {
            int tw2 = t->twist_move[tw][m];
            int fl2 = t->flip_move[fl][m];
            int sl2 = t->slice_move[sl][m];
            int d2 = twophase__depth1(t, tw2, fl2, sl2);
            int mr = t->sym_move[cs & 15][m];
            int delta = dec >> mr & 1u ? -1 : same >> mr & 1u ? 0 : 1;

            bad += d2 < d - 1 || d2 > d + 1 || d + delta != d2;
        }
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

/* The ordered positions of pieces first..first + 3 of perm[0..n),
 * ranked as the engine ranks them. */
static int
tuple_of(const uint8_t *perm, int n, int first)
{
    uint8_t p[4];

    for (int i = 0; i < n; i++) {
        if (perm[i] >= first && perm[i] < first + 4) {
            p[perm[i] - first] = (uint8_t)i;
        }
    }
    return (int)perm_partial_rank(p, n, 4);
}

START_TEST(test_twophase_tables_tuples_follow_the_cube)
{
    /* Tuples moved by the tables stay those of the cube moved by cubie
     * products; in G1 their merges are its corner, U/D edge and slice
     * permutations, and the class-reduced corner x slice distance equals
     * the plain one. */
    static const uint8_t first[5] = { 0, 4, 8, 0, 4 };
    const twophase_tables_t *t = twophase__tables();
    pz_rng_t rng;
    int bad = 0;

    pz_rng_seed(&rng, 13);
    for (int i = 0; i < 400; i++) {
        bool g1 = i % 2 == 1;
        cube3_cubie_t c;
        int tup[5];

        cube3_cubie_solved(&c);
        for (int k = 0; k < 5; k++) {
            tup[k] = tuple_of(k < 2 ? c.cp : c.ep, k < 2 ? 8 : 12, first[k]);
        }
        for (int j = 0; j < 12; j++) {
            int m = g1 ? twophase__move2[pz_rng_next(&rng) % 10]
                       : (int)(pz_rng_next(&rng) % CUBE3_NMOVES);

            cube3_cubie_move(&c, m);
            tup[0] = t->corner4_move[tup[0]][m];
            tup[1] = t->corner4_move[tup[1]][m];
            for (int k = 2; k < 5; k++) {
                tup[k] = t->edge4_move[tup[k]][m];
            }
        }
        for (int k = 0; k < 5; k++) {
            bad += tup[k] !=
                   tuple_of(k < 2 ? c.cp : c.ep, k < 2 ? 8 : 12, first[k]);
        }
        if (g1) {
            int cp = t->corner_merge[tup[0]][t->corner4_order[tup[1]]];
            int sp = t->edge4_sperm[tup[2]];
            int ud = t->ud_merge[t->edge4_ud[tup[3]]][t->edge4_order[tup[4]]];
            uint16_t cs = t->corner_sym[cp];

            bad += cp != cube3_corner_perm(&c) || sp != cube3_slice_perm(&c) ||
                   ud != cube3_ud_edge_perm(&c);
            bad += t->corner_slice_sym[(cs >> 4) * 24 +
                                       t->sperm_conj[cs & 15][sp]] !=
                   t->corner_slice_prune[cp * 24 + sp];
        } else {
            bad += t->edge4_sperm[tup[2]] != UINT8_MAX && cube3_slice(&c) != 0;
        }
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_twophase_tables_phase2_bounds_admissible)
{
    /* Cubes made by k phase-2 moves are at most k away in phase 2. */
    const twophase_tables_t *t = twophase__tables();
    pz_rng_t rng;
    int bad = 0;

    pz_rng_seed(&rng, 12);
    for (int i = 0; i < 2000; i++) {
        int len = i % 19;
        cube3_cubie_t c;

        cube3_cubie_solved(&c);
        for (int k = 0; k < len; k++) {
            cube3_cubie_move(&c, twophase__move2[pz_rng_next(&rng) % 10]);
        }
        bad +=
            twophase__dist2(t, false, cube3_corner_perm(&c),
                            cube3_ud_edge_perm(&c), cube3_slice_perm(&c)) > len;
    }
    ck_assert_int_eq(bad, 0);
}
END_TEST

/* ------------------------------------------------------------ solve -- */

START_TEST(test_twophase_solve_solved_cube_is_empty)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    solve_spec_t spec;
    solve_run_t run;

    puzzle_goal(p, &goal);
    spec = spec_for(p, &goal, 20);
    ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run), PZ_OK);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
    ck_assert_int_eq(run.solution.length, 0);
    ck_assert(!run.solution.optimal);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_random_states_within_20)
{
    /* God's number is 20: with target 20 every answer must reach it. */
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    int unsolved = 0;
    int too_long = 0;
    int longest = 0;

    pz_rng_seed(&rng, 20261121);
    for (int i = 0; i < 100; i++) {
        pz_state_t s = tl_random_state(p, &rng);
        solve_spec_t spec = spec_for(p, &s, 20);
        solve_run_t run;

        ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run),
                         PZ_OK);
        unsolved += run.solution.status != PZ_STATUS_SOLVED;
        too_long += run.solution.length > 20;
        if (run.solution.length > longest) {
            longest = run.solution.length;
        }
    }
    ck_assert_int_eq(unsolved, 0);
    ck_assert_msg(too_long == 0, "%d answers longer than 20 (longest %d)",
                  too_long, longest);
    puzzle_destroy(p);
}
END_TEST

/* Several solutions: the N best two-phase found on its way down to the
 * target, shortest first, each a different answer that engine_run
 * replayed; none is claimed optimal or complete. */
START_TEST(test_twophase_solve_lists_the_best_it_found)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    int lists = 0;

    pz_rng_seed(&rng, 77);
    for (int i = 0; i < 6; i++) {
        pz_state_t s = tl_random_state(p, &rng);
        solve_spec_t spec = spec_for(p, &s, 18);
        pz_solutions_t sols;
        solve_run_t run;

        ck_assert_int_eq(solutions_init(&sols, 3, false), PZ_OK);
        spec.limits.time_ms = 2000;
        solve_run_init(&run, engine_find_for(p, "twophase"), "none", 1.0);
        run.solutions = &sols;
        ck_assert_int_eq(solve_execute(&spec, &run, NULL), PZ_OK);
        ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
        ck_assert(!run.solution.optimal && !sols.complete);
        ck_assert_int_ge(sols.kept, 1);
        ck_assert_int_le(sols.kept, 3);
        ck_assert_int_eq(sols.length[0], run.solution.length);
        for (int k = 1; k < sols.kept; k++) {
            ck_assert_int_gt(sols.length[k], sols.length[k - 1]);
        }
        lists += sols.kept > 1;
        solutions_free(&sols);
    }
    ck_assert_int_gt(lists, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_superflip_not_below_20)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_input_t in = { .text = SUPERFLIP };
    pz_state_t s;
    pz_diag_t d;
    solve_spec_t spec;
    solve_run_t run;

    ck_assert_int_eq(puzzle_parse_state(p, &in, &s, &d), PZ_OK);
    /* Target 22: the superflip's exact 20 takes the two-phase search
     * seconds (its symmetry makes all six orientations alike). */
    spec = spec_for(p, &s, 22);
    ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run), PZ_OK);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
    /* Optimal is 20: nothing shorter can come out. */
    ck_assert_int_ge(run.solution.length, 20);
    ck_assert_int_le(run.solution.length, 22);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_superflip_target_20_exact)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_input_t in = { .text = SUPERFLIP };
    pz_state_t s;
    pz_diag_t d;

    ck_assert_int_eq(puzzle_parse_state(p, &in, &s, &d), PZ_OK);
    for (int threads = 1; threads <= 2; threads++) {
        solve_spec_t spec = spec_for(p, &s, 20);
        solve_run_t run;

        /* Its six orientations and its pre-moved roots are symmetry
         * conjugates of a few: searched once each, the exact 20 comes
         * within 20 million nodes (60 million when all were searched). */
        spec.threads = threads;
        spec.limits.max_nodes = 20000000;
        spec.limits.time_ms = 50000;
        ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run),
                         PZ_OK);
        ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
        /* Optimal is 20 (and God's number): exactly 20. */
        ck_assert_int_eq(run.solution.length, 20);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_short_scrambles_not_below_optimum)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    pz_state_t goal;
    int bad = 0;

    pz_rng_seed(&rng, 6);
    puzzle_goal(p, &goal);
    for (int len = 1; len <= 6; len++) {
        for (int k = 0; k < 4; k++) {
            uint8_t moves[8];
            pz_state_t s;
            solve_spec_t spec;
            solve_run_t opt;
            solve_run_t run;

            puzzle_random_moves(p, &goal, len, pz_rng_next, &rng, moves);
            puzzle_replay(p, &goal, moves, len, &s);
            spec = spec_for(p, &s, 0);
            spec.limits.time_ms = 5000; /* a safety net */
            solve_run_init(&opt, engine_find("bibfs"), "none", 1.0);
            ck_assert_int_eq(solve_execute(&spec, &opt, NULL), PZ_OK);
            ck_assert_int_eq(opt.solution.status, PZ_STATUS_SOLVED);
            ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run),
                             PZ_OK);
            bad += run.solution.status != PZ_STATUS_SOLVED ||
                   run.solution.length < opt.solution.length ||
                   run.solution.length > len;
        }
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

/* What a request's default target asks of a short scramble (api/request.c:
 * the scramble's length, up to 12 moves): an answer no longer than it,
 * which exists (the scramble's inverse) and comes without a time limit. */
START_TEST(test_twophase_solve_scramble_length_target_is_met)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    pz_state_t goal;

    pz_rng_seed(&rng, 12);
    puzzle_goal(p, &goal);
    for (int len = 7; len <= 12; len++) {
        for (int k = 0; k < 3; k++) {
            uint8_t moves[12];
            pz_state_t s;
            solve_spec_t spec;
            solve_run_t run;

            puzzle_random_moves(p, &goal, len, pz_rng_next, &rng, moves);
            puzzle_replay(p, &goal, moves, len, &s);
            spec = spec_for(p, &s, len);
            spec.limits.time_ms = 0;
            ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run),
                             PZ_OK);
            ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
            ck_assert_msg(run.solution.length <= len, "%d moves for %d",
                          run.solution.length, len);
        }
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_qtm_answers_have_permutation_parity)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_QTM);
    pz_rng_t rng;
    int bad = 0;

    pz_rng_seed(&rng, 26);
    for (int i = 0; i < 6; i++) {
        pz_state_t s = tl_random_state(p, &rng);
        solve_spec_t spec = spec_for(p, &s, 28);
        solve_run_t run;

        ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run),
                         PZ_OK);
        bad += run.solution.status != PZ_STATUS_SOLVED ||
               run.solution.length > 28 ||
               (run.solution.length & 1) != state_parity(&s);
        for (int k = 0; k < run.solution.length; k++) {
            bad += run.solution.moves[k] >= 12;
        }
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_target_30_returns_quickly)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    double worst = 0;
    int bad = 0;

    pz_rng_seed(&rng, 30);
    for (int i = 0; i < 20; i++) {
        pz_state_t s = tl_random_state(p, &rng);
        solve_spec_t spec = spec_for(p, &s, 30);
        solve_run_t run;
        pz_stats_view_t v;

        ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run),
                         PZ_OK);
        stats_read(&run.stats, &v);
        bad +=
            run.solution.status != PZ_STATUS_SOLVED || run.solution.length > 30;
        if (v.elapsed_ms > worst) {
            worst = v.elapsed_ms;
        }
    }
    ck_assert_int_eq(bad, 0);
    /* A first two-phase answer takes well under a millisecond (bench/
     * measures it); the bound only catches a search that does not stop at
     * its first answer, with room for a loaded machine. */
    ck_assert_msg(worst < 5000, "slowest %.1f ms", worst);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_time_limit_keeps_best)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    pz_state_t s;
    solve_spec_t spec;
    solve_run_t run;
    pz_stats_view_t v;

    pz_rng_seed(&rng, 100);
    s = tl_random_state(p, &rng);
    spec = spec_for(p, &s, 0);
    spec.limits.time_ms = 100;
    ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run), PZ_OK);
    stats_read(&run.stats, &v);
    /* Target 0: improve until the time is up, then answer the best. */
    ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
    ck_assert_int_le(run.solution.length, 20);
    ck_assert_int_eq(v.best_length, run.solution.length);
    ck_assert(v.elapsed_ms >= 99);
    ck_assert_msg(v.elapsed_ms < 3000, "took %.1f ms", v.elapsed_ms);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_target_out_of_reach_still_answers)
{
    /* No answer of 3 moves exists for these 5-move scrambles (bibfs
     * says how short they are); the engine first looks only within the
     * target, then for any answer, and still answers. */
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    pz_state_t goal;
    int bad = 0;

    pz_rng_seed(&rng, 7);
    puzzle_goal(p, &goal);
    for (int k = 0; k < 4; k++) {
        uint8_t moves[8];
        pz_state_t s;
        solve_spec_t spec;
        solve_run_t opt;
        solve_run_t run;

        puzzle_random_moves(p, &goal, 5, pz_rng_next, &rng, moves);
        puzzle_replay(p, &goal, moves, 5, &s);
        spec = spec_for(p, &s, 0);
        spec.limits.time_ms = 5000; /* a safety net */
        solve_run_init(&opt, engine_find("bibfs"), "none", 1.0);
        ck_assert_int_eq(solve_execute(&spec, &opt, NULL), PZ_OK);
        if (opt.solution.status != PZ_STATUS_SOLVED ||
            opt.solution.length <= 3) {
            continue; /* the scramble undid itself */
        }
        spec = spec_for(p, &s, 3);
        ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run),
                         PZ_OK);
        bad += run.solution.status != PZ_STATUS_SOLVED ||
               run.solution.length < opt.solution.length ||
               run.solution.length > 5;
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_time_limit_answers_beyond_target)
{
    /* Fewer than 2.6e11 of the 4.3e19 positions are within 10 moves (the
     * published HTM distribution), so this random cube has no 10-move
     * answer: with a time limit the engine answers the best it found
     * instead. */
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    pz_state_t s;
    solve_spec_t spec;
    solve_run_t run;

    pz_rng_seed(&rng, 102);
    s = tl_random_state(p, &rng);
    spec = spec_for(p, &s, 10);
    spec.limits.time_ms = 1000; /* a first answer takes well under 1 ms */
    ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run), PZ_OK);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
    ck_assert_int_gt(run.solution.length, 10);
    ck_assert_int_le(run.solution.length, 22);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_cancel_before_start)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    pz_state_t s;
    solve_spec_t spec;
    solve_run_t run;
    atomic_bool cancel = true;

    pz_rng_seed(&rng, 101);
    s = tl_random_state(p, &rng);
    spec = spec_for(p, &s, 20);
    ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, &cancel, &run),
                     PZ_OK);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_CANCELLED);
    ck_assert_int_eq(run.solution.length, -1);
    puzzle_destroy(p);
}
END_TEST

typedef struct bg_solve {
    solve_spec_t spec;
    solve_run_t run;
    atomic_bool cancel;
} bg_solve_t;

static void *
bg_main(void *arg)
{
    bg_solve_t *bg = arg;

    solve_execute(&bg->spec, &bg->run, &bg->cancel);
    return NULL;
}

static void
sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

    nanosleep(&ts, NULL);
}

START_TEST(test_twophase_solve_cancel_while_running_publishes_best)
{
    /* Target 0 and no time limit: only the cancel ends it. The best
     * length is published while it runs. */
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    bg_solve_t *bg = calloc(1, sizeof(*bg));
    pz_rng_t rng;
    pthread_t tid;
    pz_stats_view_t v;
    int live_best = -1;

    pz_rng_seed(&rng, 102);
    bg->spec = spec_for(p, &(pz_state_t){ 0 }, 0);
    bg->spec.start = tl_random_state(p, &rng);
    bg->spec.limits.time_ms = 0;
    atomic_init(&bg->cancel, false);
    solve_run_init(&bg->run, engine_find_for(p, "twophase"), "none", 1.0);
    ck_assert_int_eq(pthread_create(&tid, NULL, bg_main, bg), 0);
    /* Until the search has a first answer (30 s at most). */
    for (int i = 0; i < 6000 && live_best < 0; i++) {
        sleep_ms(5);
        stats_read(&bg->run.stats, &v);
        if (atomic_load(&bg->run.stats.end_ns) == 0) {
            live_best = v.best_length;
        }
    }
    sleep_ms(50);
    atomic_store(&bg->cancel, true);
    pthread_join(tid, NULL);
    ck_assert_int_gt(live_best, 0);
    ck_assert_int_le(live_best, 30);
    ck_assert_int_eq(bg->run.solution.status, PZ_STATUS_CANCELLED);
    free(bg);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_node_limit)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    pz_state_t s;
    solve_spec_t spec;
    solve_run_t run;
    pz_stats_view_t v;

    pz_rng_seed(&rng, 103);
    s = tl_random_state(p, &rng);
    spec = spec_for(p, &s, 20);
    spec.limits.max_nodes = 5;
    ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run), PZ_OK);
    stats_read(&run.stats, &v);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_NODE_LIMIT);
    ck_assert_uint_le(v.nodes_expanded, 5);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_max_depth_exhausts)
{
    /* Positions within 11 moves are fewer than 4e12 of 4.3e19 (the
     * published HTM distribution), so a random cube has no answer of
     * length 10. */
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    pz_state_t s;
    solve_spec_t spec;
    solve_run_t run;

    pz_rng_seed(&rng, 104);
    s = tl_random_state(p, &rng);
    spec = spec_for(p, &s, 0);
    spec.limits.max_depth = 10;
    ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run), PZ_OK);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_DEPTH_LIMIT);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_any_goal)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    int bad = 0;

    pz_rng_seed(&rng, 105);
    for (int i = 0; i < 10; i++) {
        pz_state_t s = tl_random_state(p, &rng);
        solve_spec_t spec = spec_for(p, &s, 20);
        solve_run_t run;

        spec.goal = tl_random_state(p, &rng);
        /* engine_run replays the answer from start and compares it with
         * this goal. */
        ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run),
                         PZ_OK);
        bad +=
            run.solution.status != PZ_STATUS_SOLVED || run.solution.length > 20;
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_threads)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    int bad = 0;

    pz_rng_seed(&rng, 106);
    for (int i = 0; i < 20; i++) {
        pz_state_t s = tl_random_state(p, &rng);
        solve_spec_t spec = spec_for(p, &s, 20);
        solve_run_t run;
        pz_stats_view_t v;

        spec.threads = 1 + i % 6;
        ck_assert_int_eq(tl_run(&spec, "twophase", "none", 1.0, NULL, &run),
                         PZ_OK);
        stats_read(&run.stats, &v);
        bad += run.solution.status != PZ_STATUS_SOLVED ||
               run.solution.length > 20 ||
               v.best_length != run.solution.length || v.nodes_expanded == 0;
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_twophase_solve_other_puzzle_unsupported)
{
    pz_params_t prm = { 0, 0, 0 };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    ck_assert_int_eq(puzzle_create("2x2x2", &prm, &p, &d), PZ_OK);
    /* The 3x3x3's own solver: not a generic engine, not the 2x2x2's. */
    ck_assert_ptr_null(engine_find("twophase"));
    ck_assert_ptr_null(engine_find_for(p, "twophase"));
    ck_assert(engine_known("twophase"));
    ck_assert(!engine_known("threephase"));
    puzzle_destroy(p);
}
END_TEST

static Suite *
twophase_suite(void)
{
    Suite *s = suite_create("twophase");
    TCase *tc_sym = tcase_create("sym");
    TCase *tc_coord = tcase_create("coord");
    TCase *tc_tables = tcase_create("tables");
    TCase *tc_solve = tcase_create("solve");

    tcase_add_test(tc_sym, test_twophase_sym_move_conjugates_moves_to_moves);
    tcase_add_test(tc_sym, test_twophase_sym_inverse_and_distinct);
    tcase_add_test(tc_sym, test_twophase_sym_conjugate_of_product);
    suite_add_tcase(s, tc_sym);

    tcase_add_test(tc_coord, test_twophase_coord_slice_is_a_bijection);
    tcase_add_test(tc_coord, test_twophase_coord_permutations_round_trip);
    suite_add_tcase(s, tc_coord);

    /* The table build runs once, in the parent process. */
    tcase_add_unchecked_fixture(tc_tables, tables_fixture, NULL);
    tcase_set_timeout(tc_tables, 60);
    tcase_add_test(tc_tables, test_twophase_tables_build_reports_size);
    tcase_add_test(tc_tables, test_twophase_tables_init_leaves_a_sound_file);
    tcase_add_test(tc_tables, test_twophase_table_defs_lists_one_startup_table);
    tcase_add_test(tc_tables, test_twophase_tables_near_counts_match_published);
    tcase_add_test(tc_tables, test_twophase_tables_phase1_consistent);
    tcase_add_test(tc_tables, test_twophase_tables_tuples_follow_the_cube);
    tcase_add_test(tc_tables, test_twophase_tables_phase2_bounds_admissible);
    suite_add_tcase(s, tc_tables);

    tcase_add_unchecked_fixture(tc_solve, tables_fixture, NULL);
    tcase_set_timeout(tc_solve, 60);
    tcase_add_test(tc_solve, test_twophase_solve_solved_cube_is_empty);
    tcase_add_test(tc_solve, test_twophase_solve_random_states_within_20);
    tcase_add_test(tc_solve, test_twophase_solve_lists_the_best_it_found);
    tcase_add_test(tc_solve, test_twophase_solve_superflip_not_below_20);
    tcase_add_test(tc_solve, test_twophase_solve_superflip_target_20_exact);
    tcase_add_test(tc_solve,
                   test_twophase_solve_short_scrambles_not_below_optimum);
    tcase_add_test(tc_solve, test_twophase_solve_scramble_length_target_is_met);
    tcase_add_test(tc_solve,
                   test_twophase_solve_qtm_answers_have_permutation_parity);
    tcase_add_test(tc_solve, test_twophase_solve_target_30_returns_quickly);
    tcase_add_test(tc_solve, test_twophase_solve_time_limit_keeps_best);
    tcase_add_test(tc_solve,
                   test_twophase_solve_target_out_of_reach_still_answers);
    tcase_add_test(tc_solve,
                   test_twophase_solve_time_limit_answers_beyond_target);
    tcase_add_test(tc_solve, test_twophase_solve_cancel_before_start);
    tcase_add_test(tc_solve,
                   test_twophase_solve_cancel_while_running_publishes_best);
    tcase_add_test(tc_solve, test_twophase_solve_node_limit);
    tcase_add_test(tc_solve, test_twophase_solve_max_depth_exhausts);
    tcase_add_test(tc_solve, test_twophase_solve_any_goal);
    tcase_add_test(tc_solve, test_twophase_solve_threads);
    tcase_add_test(tc_solve, test_twophase_solve_other_puzzle_unsupported);
    suite_add_tcase(s, tc_solve);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(twophase_suite());

    /* The named tables, as the program registers them. */
    solve_register_tables();
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
