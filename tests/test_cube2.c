/* SPDX-License-Identifier: MIT */
/* test_cube2.c - the 2x2x2 puzzle against published counts and vectors. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "heuristic.h"
#include "puzzle.h"
#include "puzzles/cubeface.h"
#include "testlib.h"

/*
 * Golden facts, written out here independently of the module: the
 * published depth distributions of the 2x2x2 (HTM and QTM), and the move
 * permutations, facelet mapping and an example of the 24-integer layout
 * (blocks U R D L B F, see cube2_parse_state) and of the 3x3x3 labels.
 * The breadth-first searches index states perfectly (7! corner
 * permutations times 3^6 twists) through the documented 8-byte encoding:
 * byte i = piece * 3 + twist of position i, DBL (6) fixed.
 */

#define NSTATES 3674160u
#define SOLVED  "UUUURRRRFFFFDDDDLLLLBBBB"

/* HTM move ids: U U2 U' R R2 R' F F2 F'. */
enum {
    M_U = 0,
    M_U2,
    M_UI,
    M_R,
    M_R2,
    M_RI,
    M_F,
    M_F2,
    M_FI
};

/* Movable positions and pieces (all but DBL = 6) as 0..6. */
static const int movable[7] = { 0, 1, 2, 3, 4, 5, 7 };

static int
piece_slot(int piece)
{
    return piece < 6 ? piece : piece == 7 ? 6 : -1;
}

/* Perfect index of s, or -1 when s breaks the documented encoding. */
static long
state_index(const pz_state_t *s)
{
    int perm[7];
    long rank = 0;
    long tw = 0;
    int sum = 0;
    unsigned used = 0;
    static const uint8_t zero_tail[PZ_STATE_MAX - 8];

    if (s->b[6] != 18) {
        return -1;
    }
    for (int i = 0; i < 7; i++) {
        int code = s->b[movable[i]];

        if (code >= 24 || piece_slot(code / 3) < 0) {
            return -1;
        }
        perm[i] = piece_slot(code / 3);
        sum += code % 3;
        if (i < 6) {
            tw = tw * 3 + code % 3;
        }
    }
    if (sum % 3 != 0) {
        return -1;
    }
    for (int i = 0; i < 7; i++) {
        /* Lehmer digit: unused pieces smaller than this one. */
        int smaller = 0;

        for (int j = 0; j < perm[i]; j++) {
            smaller += !(used >> j & 1);
        }

        if (used >> perm[i] & 1) {
            return -1;
        }
        used |= 1u << perm[i];
        rank = rank * (7 - i) + smaller;
    }
    if (memcmp(s->b + 8, zero_tail, sizeof(zero_tail)) != 0) {
        return -1;
    }
    return rank * 729 + tw;
}

/* The state of perfect index idx. */
static void
index_state(long idx, pz_state_t *s)
{
    long rank = idx / 729;
    long tw = idx % 729;
    int digits[7];
    int used[7] = { 0 };
    int twists[7];
    int sum = 0;

    for (int i = 6; i >= 0; i--) {
        digits[i] = (int)(rank % (7 - i));
        rank /= 7 - i;
    }
    for (int i = 5; i >= 0; i--) {
        twists[i] = (int)(tw % 3);
        tw /= 3;
        sum += twists[i];
    }
    twists[6] = (3 - sum % 3) % 3;
    memset(s->b, 0, sizeof(s->b));
    for (int i = 0; i < 7; i++) {
        int k = digits[i];
        int piece = 0;

        while (used[piece] || k > 0) {
            k -= !used[piece];
            piece++;
        }
        used[piece] = 1;
        s->b[movable[i]] = (uint8_t)(movable[piece] * 3 + twists[i]);
    }
    s->b[6] = 18;
}

/*
 * Breadth-first search from start up to max_depth, filling dist (NSTATES
 * bytes, 255 = not reached) and counts[d]. Returns the deepest layer found,
 * or -1 if a generated state broke the encoding.
 */
static int
bfs(const pz_puzzle_t *p,
    const pz_state_t *start,
    int max_depth,
    uint8_t *dist,
    uint64_t counts[32])
{
    uint64_t *queue = malloc(NSTATES * sizeof(*queue));
    size_t head = 0;
    size_t tail = 0;
    int deepest = 0;
    long idx = state_index(start);

    ck_assert_ptr_nonnull(queue);
    memset(dist, 255, NSTATES);
    memset(counts, 0, 32 * sizeof(counts[0]));
    if (idx < 0) {
        free(queue);
        return -1;
    }
    dist[idx] = 0;
    counts[0] = 1;
    memcpy(&queue[tail++], start->b, 8);
    size_t layer_end = tail; /* queue[..layer_end) is at depth <= ds */
    int ds = 0;

    while (head < tail) {
        pz_state_t s;

        if (head == layer_end) {
            ds++;
            layer_end = tail;
        }
        if (ds >= max_depth) {
            break;
        }
        memset(&s, 0, sizeof(s));
        memcpy(s.b, &queue[head++], 8);
        for (int m = 0; m < p->nmoves; m++) {
            pz_state_t t;
            long ti;

            /* Plain checks in hot loops: every Check assertion, even a
             * passing one, reports its location to the runner. */
            ti = puzzle_apply(p, &s, m, &t) ? state_index(&t) : -1;
            if (ti < 0) {
                free(queue);
                return -1;
            }
            if (dist[ti] == 255) {
                dist[ti] = (uint8_t)(ds + 1);
                counts[ds + 1]++;
                deepest = ds + 1;
                memcpy(&queue[tail++], t.b, 8);
            }
        }
    }
    free(queue);
    return deepest;
}

/* Distance tables from the solved cube, built once per TCase (unchecked
 * fixture) and inherited by the forked tests. */
static uint8_t *dist_htm;
static uint8_t *dist_qtm;
static uint64_t counts_htm[32];
static uint64_t counts_qtm[32];
static int deepest_htm;
static int deepest_qtm;

static void
tables_setup(void)
{
    pz_puzzle_t *h = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_puzzle_t *q = tl_make("2x2x2", 0, 0, PZ_METRIC_QTM);
    pz_state_t goal;

    dist_htm = malloc(NSTATES);
    dist_qtm = malloc(NSTATES);
    puzzle_goal(h, &goal);
    deepest_htm = bfs(h, &goal, 99, dist_htm, counts_htm);
    deepest_qtm = bfs(q, &goal, 99, dist_qtm, counts_qtm);
    puzzle_destroy(h);
    puzzle_destroy(q);
}

static void
tables_teardown(void)
{
    free(dist_htm);
    free(dist_qtm);
    dist_htm = NULL;
    dist_qtm = NULL;
}

/* --- init -------------------------------------------------------------- */

START_TEST(test_cube2_init_default_is_htm)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_DEFAULT);

    ck_assert_int_eq(p->nmoves, 9);
    ck_assert_str_eq(p->metric_name, "htm");
    ck_assert_int_eq(p->metric, PZ_METRIC_HTM);
    ck_assert_uint_le(p->state_size, 8);
    ck_assert_str_eq(p->ops->default_heuristic, "seed");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_init_qtm_has_six_moves)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_QTM);

    ck_assert_int_eq(p->nmoves, 6);
    ck_assert_str_eq(p->metric_name, "qtm");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_init_aliases_resolve)
{
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    ck_assert_int_eq(puzzle_create("pocket", NULL, &p, &d), PZ_OK);
    ck_assert_str_eq(p->id, "2x2x2");
    puzzle_destroy(p);
    ck_assert_int_eq(puzzle_create("cube2", NULL, &p, &d), PZ_OK);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_init_size_rejected)
{
    pz_params_t prm = { 3, 3, 0 };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_create("2x2x2", &prm, &p, &d), PZ_ESIZE);
    ck_assert_ptr_null(p);
    ck_assert_str_eq(d.detail, "the 2x2x2 has no size parameter");
}
END_TEST

START_TEST(test_cube2_init_moves_metric_rejected)
{
    pz_params_t prm = { 0, 0, PZ_METRIC_MOVES };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_create("2x2x2", &prm, &p, &d), PZ_EMETRIC);
    ck_assert_ptr_null(p);
}
END_TEST

/* --- breadth-first search against the published distributions -------- */

START_TEST(test_cube2_apply_bfs_htm_distribution)
{
    static const uint64_t expect[] = {
        1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
    };
    uint64_t total = 0;

    ck_assert_int_eq(deepest_htm, 11);
    for (int i = 0; i <= 11; i++) {
        ck_assert_uint_eq(counts_htm[i], expect[i]);
        total += counts_htm[i];
    }
    ck_assert_uint_eq(total, NSTATES);
}
END_TEST

START_TEST(test_cube2_apply_bfs_qtm_distribution)
{
    static const uint64_t expect[] = {
        1,      6,      27,     120,     534,    2256,  8969, 33058,
        114149, 360508, 930588, 1350852, 782536, 90280, 276,
    };
    uint64_t total = 0;

    ck_assert_int_eq(deepest_qtm, 14);
    for (int i = 0; i <= 14; i++) {
        ck_assert_uint_eq(counts_qtm[i], expect[i]);
        total += counts_qtm[i];
    }
    ck_assert_uint_eq(total, NSTATES);
}
END_TEST

/* The scramble "R U' R' F'" then "U" gives this array, and an optimal
 * solution is 5 quarter turns. */
static const int example_array[24] = {
    2, 5, 5, 0, 1, 1, 4, 2, 2, 2, 3, 4, 3, 5, 0, 0, 4, 4, 1, 0, 3, 1, 3, 5,
};

START_TEST(test_cube2_parse_state_example_is_five_quarter_turns)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_QTM);
    pz_state_t s;
    pz_diag_t d;

    ck_assert_int_eq(tl_parse_ints(p, example_array, 24, &s, &d), PZ_OK);
    ck_assert_int_eq(dist_qtm[state_index(&s)], 5);
    puzzle_destroy(p);
}
END_TEST

/* --- seed heuristic ---------------------------------------------------- */

/* Checks h <= dist over every state; returns the largest h seen. */
static int
check_admissible_all(const pz_puzzle_t *p, const uint8_t *dist)
{
    pz_state_t goal;
    pz_heuristic_t *h;
    int hmax = 0;
    long bad = -1;

    puzzle_goal(p, &goal);
    h = tl_admissible(p, "seed", &goal);
    for (long i = 0; i < (long)NSTATES && bad < 0; i++) {
        pz_state_t s;
        int v;

        index_state(i, &s);
        v = heuristic_eval(h, &s);
        bad = v > dist[i] ? i : -1;
        hmax = v > hmax ? v : hmax;
    }
    heuristic_destroy(h);
    ck_assert_msg(bad < 0, "h > distance %d at index %ld",
                  bad < 0 ? 0 : dist[bad], bad);
    return hmax;
}

START_TEST(test_cube2_seed_admissible_htm_every_state)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);

    /* 24 stickers wrong at most: ceil(24 / 8) = 3, and it is reached. */
    ck_assert_int_eq(check_admissible_all(p, dist_htm), 3);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_seed_admissible_qtm_every_state)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_QTM);

    ck_assert_int_eq(check_admissible_all(p, dist_qtm), 3);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_seed_one_move_is_one)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_heuristic_t *h;

    puzzle_goal(p, &goal);
    h = tl_admissible(p, "seed", &goal);
    ck_assert_int_eq(heuristic_eval(h, &goal), 0);
    for (int m = 0; m < p->nmoves; m++) {
        pz_state_t s;

        puzzle_apply(p, &goal, m, &s);
        /* A turn from solved moves exactly 8 stickers off their colour. */
        ck_assert_int_eq(heuristic_eval(h, &s), 1);
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* Custom goal: with divisor 12, h <= 2 everywhere, so checking every state
 * within 3 moves of the goal (exact BFS distances) covers all cases; h <= 2
 * itself is checked on a sample. */
static void
check_custom_goal(int metric, uint64_t seed)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, metric);
    pz_rng_t rng;
    pz_state_t goal;
    pz_heuristic_t *h;
    uint8_t *dist = malloc(NSTATES);
    uint64_t counts[32];
    int checked = 0;
    int hmax = 0;
    int bad = 0;

    pz_rng_seed(&rng, seed);
    ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &goal), PZ_OK);
    h = tl_admissible(p, "seed", &goal);
    ck_assert_int_eq(bfs(p, &goal, 3, dist, counts), 3);
    for (long i = 0; i < (long)NSTATES; i++) {
        pz_state_t s;
        int v;

        if (dist[i] == 255) {
            continue;
        }
        index_state(i, &s);
        v = heuristic_eval(h, &s);
        bad += v > dist[i];
        checked++;
    }
    /* Farther states only need h <= 2: sample them. */
    for (int i = 0; i < 100000; i++) {
        pz_state_t s;
        int v;

        puzzle_random_state(p, pz_rng_next, &rng, &s);
        v = heuristic_eval(h, &s);
        hmax = v > hmax ? v : hmax;
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_le(hmax, 2);
    ck_assert_int_gt(checked, 100);
    free(dist);
    heuristic_destroy(h);
    puzzle_destroy(p);
}

START_TEST(test_cube2_seed_admissible_custom_goal_htm)
{
    check_custom_goal(PZ_METRIC_HTM, 11);
}
END_TEST

START_TEST(test_cube2_seed_admissible_custom_goal_qtm)
{
    check_custom_goal(PZ_METRIC_QTM, 13);
}
END_TEST

/* --- moves on the integer layout ---------------------------------------- */

/* 2x2x2 moves on the 24-int array: new[i] = old[MOVE[i]]. */
static const int ref_move[6][24] = {
    { 0,  21, 2,  23, 6,  4, 7,  5, 19, 9,  17, 11,
      12, 13, 14, 15, 16, 1, 18, 3, 20, 10, 22, 8 }, /* R */
    { 0,  1,  14, 15, 4,  5,  2,  3,  8,  9,  6,  7,
      12, 13, 10, 11, 16, 17, 18, 19, 22, 20, 23, 21 }, /* F */
    { 2,  0,  3,  1,  18, 5,  19, 7,  8, 9, 10, 11,
      12, 20, 14, 21, 16, 17, 15, 13, 6, 4, 22, 23 }, /* U */
    { 0,  17, 2,  19, 5,  7,  4,  6, 23, 9, 21, 11,
      12, 13, 14, 15, 16, 10, 18, 8, 20, 1, 22, 3 }, /* R' */
    { 0,  1,  6, 7, 4,  5,  10, 11, 8,  9,  14, 15,
      12, 13, 2, 3, 16, 17, 18, 19, 21, 23, 20, 22 }, /* F' */
    { 1,  3,  0,  2,  21, 5,  20, 7, 8,  9,  10, 11,
      12, 19, 14, 18, 16, 17, 4,  6, 13, 15, 22, 23 }, /* U' */
};
static const int ref_htm_id[6] = { M_R, M_F, M_U, M_RI, M_FI, M_UI };

START_TEST(test_cube2_apply_matches_reference_moves)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;

    pz_rng_seed(&rng, 7);
    for (int trial = 0; trial < 300; trial++) {
        /* Solved in the reference layout: block c has colour c. */
        int arr[24];
        pz_state_t mine;
        pz_state_t theirs;
        pz_diag_t d;
        int len = trial < 6 ? 1 : 1 + (int)pz_rand_below(pz_rng_next, &rng, 25);

        for (int i = 0; i < 24; i++) {
            arr[i] = i / 4;
        }
        puzzle_goal(p, &mine);
        for (int k = 0; k < len; k++) {
            int m =
                trial < 6 ? trial : (int)pz_rand_below(pz_rng_next, &rng, 6);
            int old[24];

            memcpy(old, arr, sizeof(old));
            for (int i = 0; i < 24; i++) {
                arr[i] = old[ref_move[m][i]];
            }
            puzzle_apply(p, &mine, ref_htm_id[m], &mine);
        }
        ck_assert_int_eq(tl_parse_ints(p, arr, 24, &theirs, &d), PZ_OK);
        ck_assert_msg(puzzle_equal(p, &mine, &theirs), "trial %d", trial);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_apply_half_turn_is_two_quarters)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;

    puzzle_goal(p, &goal);
    for (int f = 0; f < 3; f++) {
        pz_state_t a;
        pz_state_t b;

        puzzle_apply(p, &goal, 3 * f, &a);
        puzzle_apply(p, &a, 3 * f, &a);
        puzzle_apply(p, &goal, 3 * f + 1, &b);
        ck_assert(puzzle_equal(p, &a, &b));
        puzzle_apply(p, &goal, 3 * f + 2, &b);
        puzzle_apply(p, &b, 3 * f + 2, &b);
        ck_assert(puzzle_equal(p, &a, &b));
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_inverse_undoes_each_move)
{
    for (int metric = PZ_METRIC_HTM; metric <= PZ_METRIC_QTM; metric++) {
        pz_puzzle_t *p = tl_make("2x2x2", 0, 0, metric);
        pz_state_t s = tl_scrambled(p, "R U2 F' U R'");

        for (int m = 0; m < p->nmoves; m++) {
            pz_state_t t;
            int inv = puzzle_inverse(p, m);
            char want[4];

            puzzle_apply(p, &s, m, &t);
            ck_assert(!puzzle_equal(p, &s, &t));
            puzzle_apply(p, &t, inv, &t);
            ck_assert(puzzle_equal(p, &s, &t));
            /* The inverse's name is X' for X, X for X', X2 for X2. */
            snprintf(want, sizeof(want), "%s", puzzle_move_name(p, m));
            if (want[1] == '\'') {
                want[1] = '\0';
            } else if (want[1] == '\0') {
                want[1] = '\'';
                want[2] = '\0';
            }
            ck_assert_str_eq(puzzle_move_name(p, inv), want);
        }
        puzzle_destroy(p);
    }
}
END_TEST

START_TEST(test_cube2_move_name_standard_notation)
{
    static const char *htm[] = { "U",  "U2", "U'", "R", "R2",
                                 "R'", "F",  "F2", "F'" };
    static const char *qtm[] = { "U", "U'", "R", "R'", "F", "F'" };
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_puzzle_t *q = tl_make("2x2x2", 0, 0, PZ_METRIC_QTM);

    for (int m = 0; m < 9; m++) {
        ck_assert_str_eq(puzzle_move_name(p, m), htm[m]);
    }
    for (int m = 0; m < 6; m++) {
        ck_assert_str_eq(puzzle_move_name(q, m), qtm[m]);
    }
    puzzle_destroy(p);
    puzzle_destroy(q);
}
END_TEST

START_TEST(test_cube2_redundant_same_face_only_in_htm)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);

    for (int a = 0; a < 9; a++) {
        for (int b = 0; b < 9; b++) {
            int allowed = (int)(puzzle_allowed_after(p, a) >> b & 1);

            ck_assert_int_eq(allowed, a / 3 != b / 3);
        }
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_redundant_qtm_keeps_half_turns)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_QTM);

    /* U U is a half turn: needed in QTM. U U' cancels. U' U' = U U. */
    ck_assert(puzzle_allowed_after(p, 0) >> 0 & 1);
    ck_assert(!(puzzle_allowed_after(p, 0) >> 1 & 1));
    ck_assert(!(puzzle_allowed_after(p, 1) >> 1 & 1));
    ck_assert(puzzle_allowed_after(p, 0) >> 2 & 1);
    puzzle_destroy(p);
}
END_TEST

/* 3x3x3 vectors: label at each Kociemba facelet, before and after one
 * move; cubeface must give new[i] = old[perm[i]]. */
static const int k3_start[54] = {
    1,  2,  3,  4,  5,  6,  7,  8,  9,  31, 32, 33, 34, 35, 36, 37, 38, 39,
    21, 22, 23, 24, 25, 26, 27, 28, 29, 41, 42, 43, 44, 45, 46, 47, 48, 49,
    11, 12, 13, 14, 15, 16, 17, 18, 19, 59, 58, 57, 56, 55, 54, 53, 52, 51,
};

typedef struct k3_vector {
    int face;      /* enum cubeface_face */
    int quarters;  /* 1 or 3 */
    int after[54]; /* labels after the move */
} k3_vector_t;

static const k3_vector_t k3_vectors[] = {
    { CUBEFACE_L, 1, { 51, 2,  3,  54, 5,  6,  57, 8,  9,  31, 32, 33, 34, 35,
                       36, 37, 38, 39, 1,  22, 23, 4,  25, 26, 7,  28, 29, 21,
                       42, 43, 24, 45, 46, 27, 48, 49, 17, 14, 11, 18, 15, 12,
                       19, 16, 13, 59, 58, 47, 56, 55, 44, 53, 52, 41 } },
    { CUBEFACE_L, 3, { 21, 2,  3,  24, 5,  6,  27, 8,  9,  31, 32, 33, 34, 35,
                       36, 37, 38, 39, 41, 22, 23, 44, 25, 26, 47, 28, 29, 51,
                       42, 43, 54, 45, 46, 57, 48, 49, 13, 16, 19, 12, 15, 18,
                       11, 14, 17, 59, 58, 7,  56, 55, 4,  53, 52, 1 } },
    { CUBEFACE_R, 1, { 1,  2,  23, 4,  5,  26, 7,  8,  29, 37, 34, 31, 38, 35,
                       32, 39, 36, 33, 21, 22, 43, 24, 25, 46, 27, 28, 49, 41,
                       42, 53, 44, 45, 56, 47, 48, 59, 11, 12, 13, 14, 15, 16,
                       17, 18, 19, 9,  58, 57, 6,  55, 54, 3,  52, 51 } },
    { CUBEFACE_R, 3, { 1,  2,  53, 4,  5,  56, 7,  8,  59, 33, 36, 39, 32, 35,
                       38, 31, 34, 37, 21, 22, 3,  24, 25, 6,  27, 28, 9,  41,
                       42, 23, 44, 45, 26, 47, 48, 29, 11, 12, 13, 14, 15, 16,
                       17, 18, 19, 49, 58, 57, 46, 55, 54, 43, 52, 51 } },
    { CUBEFACE_F, 1, { 1,  2,  3,  4,  5,  6,  19, 16, 13, 7,  32, 33, 8,  35,
                       36, 9,  38, 39, 27, 24, 21, 28, 25, 22, 29, 26, 23, 37,
                       34, 31, 44, 45, 46, 47, 48, 49, 11, 12, 41, 14, 15, 42,
                       17, 18, 43, 59, 58, 57, 56, 55, 54, 53, 52, 51 } },
    { CUBEFACE_F, 3, { 1,  2,  3,  4,  5,  6,  31, 34, 37, 43, 32, 33, 42, 35,
                       36, 41, 38, 39, 23, 26, 29, 22, 25, 28, 21, 24, 27, 13,
                       16, 19, 44, 45, 46, 47, 48, 49, 11, 12, 9,  14, 15, 8,
                       17, 18, 7,  59, 58, 57, 56, 55, 54, 53, 52, 51 } },
    { CUBEFACE_B, 1, { 33, 36, 39, 4,  5,  6,  7,  8,  9,  31, 32, 49, 34, 35,
                       48, 37, 38, 47, 21, 22, 23, 24, 25, 26, 27, 28, 29, 41,
                       42, 43, 44, 45, 46, 11, 14, 17, 3,  12, 13, 2,  15, 16,
                       1,  18, 19, 53, 56, 59, 52, 55, 58, 51, 54, 57 } },
    { CUBEFACE_B, 3, { 17, 14, 11, 4,  5,  6,  7,  8,  9,  31, 32, 1,  34, 35,
                       2,  37, 38, 3,  21, 22, 23, 24, 25, 26, 27, 28, 29, 41,
                       42, 43, 44, 45, 46, 39, 36, 33, 47, 12, 13, 48, 15, 16,
                       49, 18, 19, 57, 54, 51, 58, 55, 52, 59, 56, 53 } },
    { CUBEFACE_U, 1, { 7,  4,  1,  8,  5,  2,  9,  6,  3,  59, 58, 57, 34, 35,
                       36, 37, 38, 39, 31, 32, 33, 24, 25, 26, 27, 28, 29, 41,
                       42, 43, 44, 45, 46, 47, 48, 49, 21, 22, 23, 14, 15, 16,
                       17, 18, 19, 11, 12, 13, 56, 55, 54, 53, 52, 51 } },
    { CUBEFACE_U, 3, { 3,  6,  9,  2,  5,  8,  1,  4,  7,  21, 22, 23, 34, 35,
                       36, 37, 38, 39, 11, 12, 13, 24, 25, 26, 27, 28, 29, 41,
                       42, 43, 44, 45, 46, 47, 48, 49, 59, 58, 57, 14, 15, 16,
                       17, 18, 19, 31, 32, 33, 56, 55, 54, 53, 52, 51 } },
    { CUBEFACE_D, 1, { 1,  2,  3,  4,  5,  6,  7,  8,  9,  31, 32, 33, 34, 35,
                       36, 27, 28, 29, 21, 22, 23, 24, 25, 26, 17, 18, 19, 47,
                       44, 41, 48, 45, 42, 49, 46, 43, 11, 12, 13, 14, 15, 16,
                       53, 52, 51, 59, 58, 57, 56, 55, 54, 37, 38, 39 } },
    { CUBEFACE_D, 3, { 1,  2,  3,  4,  5,  6,  7,  8,  9,  31, 32, 33, 34, 35,
                       36, 53, 52, 51, 21, 22, 23, 24, 25, 26, 37, 38, 39, 43,
                       46, 49, 42, 45, 48, 41, 44, 47, 11, 12, 13, 14, 15, 16,
                       27, 28, 29, 59, 58, 57, 56, 55, 54, 17, 18, 19 } },
};

START_TEST(test_cube2_cubeface_matches_3x3_vectors)
{
    for (size_t v = 0; v < sizeof(k3_vectors) / sizeof(k3_vectors[0]); v++) {
        int perm[54];

        ck_assert_int_eq(cubeface_turn(3, k3_vectors[v].face, 1u,
                                       k3_vectors[v].quarters, perm),
                         0);
        for (int i = 0; i < 54; i++) {
            ck_assert_msg(k3_start[perm[i]] == k3_vectors[v].after[i],
                          "vector %zu facelet %d", v, i);
        }
    }
}
END_TEST

START_TEST(test_cube2_cubeface_bad_arguments_fail)
{
    int perm[54];

    ck_assert_int_eq(cubeface_turn(0, 0, 1u, 1, perm), -1);
    ck_assert_int_eq(cubeface_turn(3, 6, 1u, 1, perm), -1);
}
END_TEST

/* --- parse_state ------------------------------------------------------- */

START_TEST(test_cube2_parse_state_solved_text_is_goal)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_state_t goal;
    pz_diag_t d;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(tl_parse_text(p, SOLVED, &s, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &s, &goal));
    /* Any six characters, whitespace ignored. */
    ck_assert_int_eq(tl_parse_text(p, "wwww rrrr gggg yyyy\noooo bbbb", &s, &d),
                     PZ_OK);
    ck_assert(puzzle_equal(p, &s, &goal));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_parse_state_solved_ints_any_numbers)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_state_t goal;
    pz_diag_t d;
    int arr[24];

    puzzle_goal(p, &goal);
    for (int i = 0; i < 24; i++) {
        arr[i] = 100 - 7 * (i / 4);
    }
    ck_assert_int_eq(tl_parse_ints(p, arr, 24, &s, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &s, &goal));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_parse_state_example_matches_scramble)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_state_t want = tl_scrambled(p, "R U' R' F'");
    pz_diag_t d;

    ck_assert_int_eq(puzzle_apply_scramble(p, "U", &want, &d), PZ_OK);
    ck_assert_int_eq(tl_parse_ints(p, example_array, 24, &s, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &s, &want));
    puzzle_destroy(p);
}
END_TEST

/* The integer layout's mapping: facelet[k] = array[SRC[k]]. Every
 * labelled array, read through SRC, must format back identically. */
START_TEST(test_cube2_parse_state_src_mapping)
{
    static const int src[24] = { 0,  1,  2, 3, 6,  4,  7,  5,  20, 21, 22, 23,
                                 11, 10, 9, 8, 13, 15, 12, 14, 19, 18, 17, 16 };
    static const char letters[] = "URDLBF"; /* colour c is block c */
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;

    pz_rng_seed(&rng, 99);
    for (int trial = 0; trial < 100; trial++) {
        pz_state_t s;
        pz_state_t t;
        pz_diag_t d;
        char text[25];
        int arr[24];

        for (int i = 0; i < 24; i++) {
            arr[i] = i / 4;
        }
        for (int k = 0; k < 12; k++) {
            int m = (int)pz_rand_below(pz_rng_next, &rng, 6);
            int old[24];

            memcpy(old, arr, sizeof(old));
            for (int i = 0; i < 24; i++) {
                arr[i] = old[ref_move[m][i]];
            }
        }
        for (int k = 0; k < 24; k++) {
            text[k] = letters[arr[src[k]]];
        }
        text[24] = '\0';
        ck_assert_int_eq(tl_parse_ints(p, arr, 24, &s, &d), PZ_OK);
        ck_assert_int_eq(tl_parse_text(p, text, &t, &d), PZ_OK);
        ck_assert(puzzle_equal(p, &s, &t));
        /* DLB never moves, so the letters are the faces: the facelet
         * string must come back unchanged. */
        ck_assert_int_eq(puzzle_format_state(p, &s, text, sizeof(text)), 24);
        for (int k = 0; k < 24; k++) {
            ck_assert_int_eq(text[k], letters[arr[src[k]]]);
        }
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_parse_state_short_text_is_length_error)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;

    ck_assert_int_eq(tl_parse_text(p, "UUUURRRRFFFFDDDDLLLLBBB", &s, &d),
                     PZ_ESTATE_LENGTH);
    ck_assert_ptr_nonnull(strstr(d.detail, "23"));
    puzzle_destroy(p);
}
END_TEST

/* A control character is refused where it stands (its offset in the
 * text, white space counted), before the length is looked at. */
START_TEST(test_cube2_parse_state_bad_symbol_gives_its_position)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;

    ck_assert_int_eq(tl_parse_text(p,
                                   "UUUU RRRR F\x01"
                                   "FF",
                                   &s, &d),
                     PZ_ESTATE_SYMBOL);
    ck_assert_ptr_nonnull(strstr(d.detail, "character 11"));
    ck_assert_int_eq(d.position, 11);
    ck_assert_int_eq(tl_parse_text(p, "UUUURRRRFFFFDDDDLLLLBBBB\x7f", &s, &d),
                     PZ_ESTATE_SYMBOL);
    ck_assert_int_eq(d.position, 24);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_parse_state_ints_length_error)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    int arr[25] = { 0 };

    ck_assert_int_eq(tl_parse_ints(p, arr, 25, &s, &d), PZ_ESTATE_LENGTH);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_parse_state_colour_count_error)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;

    ck_assert_int_eq(tl_parse_text(p, "WWWWWRRRGGGGYYYYOOOOBBBB", &s, &d),
                     PZ_ECOLOUR_COUNT);
    ck_assert_str_eq(d.detail, "colour 'W' appears 5 times; each of the 6 "
                               "colours must appear 4 times");
    ck_assert_int_eq(tl_parse_text(p, "XUUURRRRFFFFDDDDLLLLBBBB", &s, &d),
                     PZ_ECOLOUR_COUNT);
    ck_assert_ptr_nonnull(strstr(d.detail, "7 colours ('X'"));
    puzzle_destroy(p);
}
END_TEST

/* Solved text with facelets a and b exchanged. */
static void
swapped(char text[25], int a, int b)
{
    char t;

    memcpy(text, SOLVED, 25);
    t = text[a];
    text[a] = text[b];
    text[b] = t;
}

START_TEST(test_cube2_parse_state_repeated_colour_names_corner)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[25];

    swapped(text, 3, 5); /* U4 (of UFR) <-> R2 (of UBR) */
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ECORNER);
    ck_assert_str_eq(d.detail, "corner at UFR has colours R, F, R: a sticker "
                               "is misread");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_parse_state_opposite_colours_names_corner)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[25];

    swapped(text, 3, 19); /* U4 (of UFR) <-> L4 (of DFL) */
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ECORNER);
    ck_assert_ptr_nonnull(strstr(d.detail, "corner at UFR has colours L, F, "
                                           "R"));
    ck_assert_ptr_nonnull(strstr(d.detail, "opposite"));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_parse_state_mirrored_corner_rejected)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[25];

    swapped(text, 4, 9); /* R1 <-> F2: UFR reads U F R clockwise */
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ECORNER);
    ck_assert_ptr_nonnull(strstr(d.detail, "corner at UFR"));
    ck_assert_ptr_nonnull(strstr(d.detail, "mirror"));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_parse_state_duplicate_corner)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[25];

    /* UFL shows the UFR piece (U3 U, F1 R, L2 F) and DBR shows the DBL
     * piece (D4 D, R4 B, B3 L); every colour still appears 4 times. */
    memcpy(text, SOLVED, 25);
    text[8] = 'R';
    text[17] = 'F';
    text[7] = 'B';
    text[22] = 'L';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_EDUPLICATE);
    ck_assert_ptr_nonnull(strstr(d.detail, "at UFR and UFL"));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_parse_state_twisted_corner)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[25];

    /* UFR turned in place: U4 shows F, R1 shows U, F2 shows R. */
    memcpy(text, SOLVED, 25);
    text[3] = 'F';
    text[4] = 'U';
    text[9] = 'R';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ETWIST);
    ck_assert_str_eq(d.detail, "the corners' twists do not add up: one "
                               "corner is twisted in place");
    puzzle_destroy(p);
}
END_TEST

/* The picture of s turned as a whole by rotation (face, quarters). */
static void
rotated_text(const pz_puzzle_t *p,
             const pz_state_t *s,
             int face,
             int quarters,
             char out[25])
{
    char text[25];
    int perm[24];

    ck_assert_int_eq(puzzle_format_state(p, s, text, sizeof(text)), 24);
    cubeface_turn(2, face, 3u, quarters, perm);
    for (int i = 0; i < 24; i++) {
        out[i] = text[perm[i]];
    }
    out[24] = '\0';
}

START_TEST(test_cube2_parse_state_rotated_solved_is_goal)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_state_t s;
    pz_diag_t d;
    char text[25];

    puzzle_goal(p, &goal);
    for (int face = 0; face < 6; face++) {
        for (int q = 1; q <= 3; q++) {
            rotated_text(p, &goal, face, q, text);
            ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_OK);
            ck_assert(puzzle_equal(p, &s, &goal));
        }
    }
    puzzle_destroy(p);
}
END_TEST

/* A facelet string is read as held (the DLB corner names the colours), so
 * a rotated picture may give another state, but never another distance
 * from solved: relabelling colours does not change which moves solve it. */
START_TEST(test_cube2_parse_state_rotated_picture_keeps_distance)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;

    pz_rng_seed(&rng, 21);
    for (int trial = 0; trial < 500; trial++) {
        pz_state_t s;
        pz_state_t r;
        pz_diag_t d;
        char text[25];
        int face = (int)pz_rand_below(pz_rng_next, &rng, 6);
        int q = 1 + (int)pz_rand_below(pz_rng_next, &rng, 3);

        puzzle_random_state(p, pz_rng_next, &rng, &s);
        rotated_text(p, &s, face, q, text);
        ck_assert_int_eq(tl_parse_text(p, text, &r, &d), PZ_OK);
        ck_assert_int_eq(dist_htm[state_index(&r)], dist_htm[state_index(&s)]);
        ck_assert_int_eq(dist_qtm[state_index(&r)], dist_qtm[state_index(&s)]);
    }
    puzzle_destroy(p);
}
END_TEST

/* --- apply_scramble ---------------------------------------------------- */

static void
assert_same(const pz_puzzle_t *p, const char *a, const char *b)
{
    pz_state_t x = tl_scrambled(p, a);
    pz_state_t y = tl_scrambled(p, b);

    ck_assert_msg(puzzle_equal(p, &x, &y), "'%s' != '%s'", a, b);
}

START_TEST(test_cube2_apply_scramble_rotations_alone_are_solved)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);

    assert_same(p, "x y z", "");
    assert_same(p, "x2 y' z2 Uw Rw' f2 d", "");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_apply_scramble_folds_opposite_faces)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);

    assert_same(p, "L", "R x'");
    assert_same(p, "D", "U y'");
    assert_same(p, "B", "F z'");
    assert_same(p, "L2 D' B", "R2 x2 U' y F z'");
    /* L, D, B really do something. */
    {
        pz_state_t goal;
        pz_state_t l = tl_scrambled(p, "L");

        puzzle_goal(p, &goal);
        ck_assert(!puzzle_equal(p, &l, &goal));
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_apply_scramble_wide_moves_turn_whole_cube)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);

    assert_same(p, "Rw", "");
    assert_same(p, "x U", "F");
    assert_same(p, "F x", "F");
    assert_same(p, "y R", "F");
    assert_same(p, "y R", "B");
    assert_same(p, "x' U", "B");
    assert_same(p, "z R", "U");
    assert_same(p, "z' R2", "D2");
    assert_same(p, "Rw U", "F");
    assert_same(p, "r U", "F");
    assert_same(p, "R r'", "L");
    assert_same(p, "R2' U2' F'", "R2 U2 F'");
    assert_same(p, "R U\xe2\x80\x99", "R U'");
    assert_same(p, "RUR'U'", "R U R' U'");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_apply_scramble_on_given_state)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s = tl_scrambled(p, "R U F");
    pz_state_t goal;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_apply_scramble(p, "F' U' R'", &s, &d), PZ_OK);
    puzzle_goal(p, &goal);
    ck_assert(puzzle_equal(p, &s, &goal));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_apply_scramble_bad_token_position)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_parse_scramble(p, "R U2 Q F", &s, &d), PZ_EMOVE);
    ck_assert_int_eq(d.position, 5);
    ck_assert_ptr_nonnull(strstr(d.detail, "unknown move 'Q' at position 5"));
    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_parse_scramble(p, "R U3", &s, &d), PZ_EMOVE);
    ck_assert_int_eq(d.position, 2);
    ck_assert_ptr_nonnull(strstr(d.detail, "'U3'"));
    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_parse_scramble(p, "M", &s, &d), PZ_EMOVE);
    ck_assert_int_eq(d.position, 0);
    puzzle_destroy(p);
}
END_TEST

/* --- format_state and random_state ------------------------------------ */

START_TEST(test_cube2_format_state_goal_and_small_buffer)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    char buf[25];

    puzzle_goal(p, &goal);
    ck_assert_int_eq(puzzle_format_state(p, &goal, buf, sizeof(buf)), 24);
    ck_assert_str_eq(buf, SOLVED);
    ck_assert_int_eq(puzzle_format_state(p, &goal, buf, 24), PZ_EINVAL);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_format_state_one_move)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    char buf[25];

    /* R from solved, read off a physical cube: U2 U4 show F, F2 F4 show
     * D, B1 B3 show U, D2 D4 show B. */
    puzzle_goal(p, &s);
    puzzle_apply(p, &s, M_R, &s);
    ck_assert_int_eq(puzzle_format_state(p, &s, buf, sizeof(buf)), 24);
    ck_assert_str_eq(buf, "UFUFRRRRFDFDDBDBLLLLUBUB");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube2_random_state_round_trips)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    int seen[8][8] = { { 0 } };
    const int draws = 14000;

    pz_rng_seed(&rng, 5);
    for (int i = 0; i < draws; i++) {
        pz_state_t s;
        pz_state_t t;
        pz_diag_t d;
        char buf[25];

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &s), PZ_OK);
        ck_assert_int_ge(state_index(&s), 0);
        ck_assert_int_eq(puzzle_format_state(p, &s, buf, sizeof(buf)), 24);
        ck_assert_int_eq(tl_parse_text(p, buf, &t, &d), PZ_OK);
        ck_assert(puzzle_equal(p, &s, &t));
        for (int k = 0; k < 8; k++) {
            seen[k][s.b[k] / 3]++;
        }
    }
    /* Each movable piece lands on each movable position about 1/7 of the
     * time (2000 expected; 6 standard deviations is about 200). */
    for (int k = 0; k < 7; k++) {
        for (int j = 0; j < 7; j++) {
            int c = seen[movable[k]][movable[j]];

            ck_assert_msg(c > 1750 && c < 2250, "count %d", c);
        }
    }
    puzzle_destroy(p);
}
END_TEST

static Suite *
cube2_suite(void)
{
    Suite *s = suite_create("cube2");
    TCase *tc_init = tcase_create("init");
    TCase *tc_bfs = tcase_create("bfs");
    TCase *tc_apply = tcase_create("apply");
    TCase *tc_parse = tcase_create("parse_state");
    TCase *tc_scramble = tcase_create("apply_scramble");
    TCase *tc_format = tcase_create("format_state");

    tcase_add_test(tc_init, test_cube2_init_default_is_htm);
    tcase_add_test(tc_init, test_cube2_init_qtm_has_six_moves);
    tcase_add_test(tc_init, test_cube2_init_aliases_resolve);
    tcase_add_test(tc_init, test_cube2_init_size_rejected);
    tcase_add_test(tc_init, test_cube2_init_moves_metric_rejected);
    suite_add_tcase(s, tc_init);

    tcase_add_unchecked_fixture(tc_bfs, tables_setup, tables_teardown);
    tcase_set_timeout(tc_bfs, 120);
    tcase_add_test(tc_bfs, test_cube2_apply_bfs_htm_distribution);
    tcase_add_test(tc_bfs, test_cube2_apply_bfs_qtm_distribution);
    tcase_add_test(tc_bfs,
                   test_cube2_parse_state_example_is_five_quarter_turns);
    tcase_add_test(tc_bfs,
                   test_cube2_parse_state_rotated_picture_keeps_distance);
    tcase_add_test(tc_bfs, test_cube2_seed_admissible_htm_every_state);
    tcase_add_test(tc_bfs, test_cube2_seed_admissible_qtm_every_state);
    tcase_add_test(tc_bfs, test_cube2_seed_one_move_is_one);
    tcase_add_test(tc_bfs, test_cube2_seed_admissible_custom_goal_htm);
    tcase_add_test(tc_bfs, test_cube2_seed_admissible_custom_goal_qtm);
    suite_add_tcase(s, tc_bfs);

    tcase_add_test(tc_apply, test_cube2_apply_matches_reference_moves);
    tcase_add_test(tc_apply, test_cube2_apply_half_turn_is_two_quarters);
    tcase_add_test(tc_apply, test_cube2_inverse_undoes_each_move);
    tcase_add_test(tc_apply, test_cube2_move_name_standard_notation);
    tcase_add_test(tc_apply, test_cube2_redundant_same_face_only_in_htm);
    tcase_add_test(tc_apply, test_cube2_redundant_qtm_keeps_half_turns);
    tcase_add_test(tc_apply, test_cube2_cubeface_matches_3x3_vectors);
    tcase_add_test(tc_apply, test_cube2_cubeface_bad_arguments_fail);
    suite_add_tcase(s, tc_apply);

    tcase_add_test(tc_parse, test_cube2_parse_state_solved_text_is_goal);
    tcase_add_test(tc_parse, test_cube2_parse_state_solved_ints_any_numbers);
    tcase_add_test(tc_parse, test_cube2_parse_state_example_matches_scramble);
    tcase_add_test(tc_parse, test_cube2_parse_state_src_mapping);
    tcase_add_test(tc_parse, test_cube2_parse_state_short_text_is_length_error);
    tcase_add_test(tc_parse,
                   test_cube2_parse_state_bad_symbol_gives_its_position);
    tcase_add_test(tc_parse, test_cube2_parse_state_ints_length_error);
    tcase_add_test(tc_parse, test_cube2_parse_state_colour_count_error);
    tcase_add_test(tc_parse,
                   test_cube2_parse_state_repeated_colour_names_corner);
    tcase_add_test(tc_parse,
                   test_cube2_parse_state_opposite_colours_names_corner);
    tcase_add_test(tc_parse, test_cube2_parse_state_mirrored_corner_rejected);
    tcase_add_test(tc_parse, test_cube2_parse_state_duplicate_corner);
    tcase_add_test(tc_parse, test_cube2_parse_state_twisted_corner);
    tcase_add_test(tc_parse, test_cube2_parse_state_rotated_solved_is_goal);
    suite_add_tcase(s, tc_parse);

    tcase_add_test(tc_scramble,
                   test_cube2_apply_scramble_rotations_alone_are_solved);
    tcase_add_test(tc_scramble, test_cube2_apply_scramble_folds_opposite_faces);
    tcase_add_test(tc_scramble,
                   test_cube2_apply_scramble_wide_moves_turn_whole_cube);
    tcase_add_test(tc_scramble, test_cube2_apply_scramble_on_given_state);
    tcase_add_test(tc_scramble, test_cube2_apply_scramble_bad_token_position);
    suite_add_tcase(s, tc_scramble);

    tcase_add_test(tc_format, test_cube2_format_state_goal_and_small_buffer);
    tcase_add_test(tc_format, test_cube2_format_state_one_move);
    tcase_add_test(tc_format, test_cube2_random_state_round_trips);
    suite_add_tcase(s, tc_format);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(cube2_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
