/* SPDX-License-Identifier: MIT */
/* test_cube3.c - the 3x3x3 puzzle against published counts and vectors. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "puzzles/cube3/cube3.h"
#include "puzzles/cubeface.h"
#include "solve.h"
#include "testlib.h"

/*
 * Golden facts, written out here independently of the module: the
 * published depth distributions (HTM to depth 5, QTM to depth 6), the
 * twelve move vectors of the [6][3][3] array's labels (10*f + 3*r + c + 1)
 * and four solve cases, and facts of the cube that can be written down by
 * hand (the superflip and checkerboard facelet strings, the facelets
 * after R). Breadth-first searches keep the 20-byte states in an
 * open-addressing hash set; hot loops count failures and assert once.
 */

#define SOLVED "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"

/* Every edge flipped in place: each edge sticker shows the colour of the
 * other face it touches (written out by hand from the facelet layout). */
#define SUPERFLIP \
    "UBULURUFU"   \
    "RURFRBRDR"   \
    "FUFLFRFDF"   \
    "DFDLDRDBD"   \
    "LULBLFLDL"   \
    "BUBRBLBDB"

/* U2 D2 F2 B2 L2 R2 (pons asinorum): corners and centres at home, every
 * edge sticker shows the opposite face's colour. */
#define CHECKERBOARD \
    "UDUDUDUDU"      \
    "RLRLRLRLR"      \
    "FBFBFBFBF"      \
    "DUDUDUDUD"      \
    "LRLRLRLRL"      \
    "BFBFBFBFB"

/* HTM move ids (cube3.h). */
enum {
    M_U = 0,
    M_U2,
    M_UI,
    M_R,
    M_R2,
    M_RI,
    M_F,
    M_F2,
    M_FI,
    M_D,
    M_D2,
    M_DI,
    M_L,
    M_L2,
    M_LI,
    M_B,
    M_B2,
    M_BI
};

/* The [6][3][3] array is labelled 10*f + 3*r + c + 1 (faces U L F R D
 * B); ref_start lists the label at each Kociemba facelet of the solved
 * cube, each vector the labels after one move. */
typedef struct ref_vector {
    const char *name;
    int htm_id;
    int after[54];
} ref_vector_t;

static const int ref_start[54] = { 1,  2,  3,  4,  5,  6,  7,  8,  9,  31, 32,
                                   33, 34, 35, 36, 37, 38, 39, 21, 22, 23, 24,
                                   25, 26, 27, 28, 29, 41, 42, 43, 44, 45, 46,
                                   47, 48, 49, 11, 12, 13, 14, 15, 16, 17, 18,
                                   19, 59, 58, 57, 56, 55, 54, 53, 52, 51 };

static const ref_vector_t ref_vectors[12] = {
    { "L", 12, { 51, 2,  3,  54, 5,  6,  57, 8,  9,  31, 32, 33, 34, 35,
                 36, 37, 38, 39, 1,  22, 23, 4,  25, 26, 7,  28, 29, 21,
                 42, 43, 24, 45, 46, 27, 48, 49, 17, 14, 11, 18, 15, 12,
                 19, 16, 13, 59, 58, 47, 56, 55, 44, 53, 52, 41 } },
    { "L'", 14, { 21, 2,  3,  24, 5,  6,  27, 8,  9,  31, 32, 33, 34, 35,
                  36, 37, 38, 39, 41, 22, 23, 44, 25, 26, 47, 28, 29, 51,
                  42, 43, 54, 45, 46, 57, 48, 49, 13, 16, 19, 12, 15, 18,
                  11, 14, 17, 59, 58, 7,  56, 55, 4,  53, 52, 1 } },
    { "R", 3, { 1,  2,  23, 4,  5,  26, 7,  8,  29, 37, 34, 31, 38, 35,
                32, 39, 36, 33, 21, 22, 43, 24, 25, 46, 27, 28, 49, 41,
                42, 53, 44, 45, 56, 47, 48, 59, 11, 12, 13, 14, 15, 16,
                17, 18, 19, 9,  58, 57, 6,  55, 54, 3,  52, 51 } },
    { "R'", 5, { 1,  2,  53, 4,  5,  56, 7,  8,  59, 33, 36, 39, 32, 35,
                 38, 31, 34, 37, 21, 22, 3,  24, 25, 6,  27, 28, 9,  41,
                 42, 23, 44, 45, 26, 47, 48, 29, 11, 12, 13, 14, 15, 16,
                 17, 18, 19, 49, 58, 57, 46, 55, 54, 43, 52, 51 } },
    { "F", 6, { 1,  2,  3,  4,  5,  6,  19, 16, 13, 7,  32, 33, 8,  35,
                36, 9,  38, 39, 27, 24, 21, 28, 25, 22, 29, 26, 23, 37,
                34, 31, 44, 45, 46, 47, 48, 49, 11, 12, 41, 14, 15, 42,
                17, 18, 43, 59, 58, 57, 56, 55, 54, 53, 52, 51 } },
    { "F'", 8, { 1,  2,  3,  4,  5,  6,  31, 34, 37, 43, 32, 33, 42, 35,
                 36, 41, 38, 39, 23, 26, 29, 22, 25, 28, 21, 24, 27, 13,
                 16, 19, 44, 45, 46, 47, 48, 49, 11, 12, 9,  14, 15, 8,
                 17, 18, 7,  59, 58, 57, 56, 55, 54, 53, 52, 51 } },
    { "B", 15, { 33, 36, 39, 4,  5,  6,  7,  8,  9,  31, 32, 49, 34, 35,
                 48, 37, 38, 47, 21, 22, 23, 24, 25, 26, 27, 28, 29, 41,
                 42, 43, 44, 45, 46, 11, 14, 17, 3,  12, 13, 2,  15, 16,
                 1,  18, 19, 53, 56, 59, 52, 55, 58, 51, 54, 57 } },
    { "B'", 17, { 17, 14, 11, 4,  5,  6,  7,  8,  9,  31, 32, 1,  34, 35,
                  2,  37, 38, 3,  21, 22, 23, 24, 25, 26, 27, 28, 29, 41,
                  42, 43, 44, 45, 46, 39, 36, 33, 47, 12, 13, 48, 15, 16,
                  49, 18, 19, 57, 54, 51, 58, 55, 52, 59, 56, 53 } },
    { "U", 0, { 7,  4,  1,  8,  5,  2,  9,  6,  3,  59, 58, 57, 34, 35,
                36, 37, 38, 39, 31, 32, 33, 24, 25, 26, 27, 28, 29, 41,
                42, 43, 44, 45, 46, 47, 48, 49, 21, 22, 23, 14, 15, 16,
                17, 18, 19, 11, 12, 13, 56, 55, 54, 53, 52, 51 } },
    { "U'", 2, { 3,  6,  9,  2,  5,  8,  1,  4,  7,  21, 22, 23, 34, 35,
                 36, 37, 38, 39, 11, 12, 13, 24, 25, 26, 27, 28, 29, 41,
                 42, 43, 44, 45, 46, 47, 48, 49, 59, 58, 57, 14, 15, 16,
                 17, 18, 19, 31, 32, 33, 56, 55, 54, 53, 52, 51 } },
    { "D", 9, { 1,  2,  3,  4,  5,  6,  7,  8,  9,  31, 32, 33, 34, 35,
                36, 27, 28, 29, 21, 22, 23, 24, 25, 26, 17, 18, 19, 47,
                44, 41, 48, 45, 42, 49, 46, 43, 11, 12, 13, 14, 15, 16,
                53, 52, 51, 59, 58, 57, 56, 55, 54, 37, 38, 39 } },
    { "D'", 11, { 1,  2,  3,  4,  5,  6,  7,  8,  9,  31, 32, 33, 34, 35,
                  36, 53, 52, 51, 21, 22, 23, 24, 25, 26, 37, 38, 39, 43,
                  46, 49, 42, 45, 48, 41, 44, 47, 11, 12, 13, 14, 15, 16,
                  27, 28, 29, 59, 58, 57, 56, 55, 54, 17, 18, 19 } },
};

/* Array index of a label: 9 * face + 3 * row + col. */
static int
label_pos(int label)
{
    return label - 1 - (label - 1) / 10;
}

/* Reference array face (0..5, U L F R D B) a label belongs to. */
static int
label_face(int label)
{
    return (label - 1) / 10;
}

/* Parses 54 ints given as a [6][3][3] array. */
static int
parse_array(const pz_puzzle_t *p,
            const int *v,
            size_t n,
            pz_state_t *out,
            pz_diag_t *d)
{
    pz_input_t in = { NULL, v, n, 3, { 6, 3, 3 } };

    pz_diag_clear(d);
    return puzzle_parse_state(p, &in, out, d);
}

static void
assert_same(const pz_puzzle_t *p, const char *a, const char *b)
{
    pz_state_t x = tl_scrambled(p, a);
    pz_state_t y = tl_scrambled(p, b);

    ck_assert_msg(puzzle_equal(p, &x, &y), "'%s' != '%s'", a, b);
}

/* The reference array (colour = reference face index) of the cube the
 * labels after[] describe: the label found at Kociemba facelet k came
 * from array position label_pos(label); it now sits at the array position
 * that holds ref_start[k] on the solved cube. */
static void
array_from_labels(const int after[54], int arr[54])
{
    for (int k = 0; k < 54; k++) {
        arr[label_pos(ref_start[k])] = label_face(after[k]);
    }
}

/* The Kociemba facelet string of the same cube. */
static void
text_from_labels(const int after[54], char text[55])
{
    static const char ref_face_letter[] = "ULFRDB";

    for (int k = 0; k < 54; k++) {
        text[k] = ref_face_letter[label_face(after[k])];
    }
    text[54] = '\0';
}

/* The reference move v as a permutation of array positions: new[i] =
 * old[perm[i]]. */
static void
ref_perm(const ref_vector_t *v, int perm[54])
{
    for (int k = 0; k < 54; k++) {
        perm[label_pos(ref_start[k])] = label_pos(v->after[k]);
    }
}

/* --- init -------------------------------------------------------------- */

START_TEST(test_cube3_init_default_is_htm)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_DEFAULT);

    ck_assert_int_eq(p->nmoves, 18);
    ck_assert_str_eq(p->metric_name, "htm");
    ck_assert_int_eq(p->metric, PZ_METRIC_HTM);
    ck_assert_uint_eq(p->state_size, 20);
    ck_assert_str_eq(p->ops->default_heuristic, "misplaced");
    ck_assert_str_eq(p->id, "3x3x3");
    ck_assert_ptr_nonnull(p->ops->summary);
    ck_assert_ptr_nonnull(p->ops->io->notation);
    ck_assert_ptr_nonnull(p->ops->io->state_forms);
    ck_assert_uint_eq(puzzle_rank_count(p), 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_init_qtm_has_twelve_moves)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_QTM);

    ck_assert_int_eq(p->nmoves, 12);
    ck_assert_str_eq(p->metric_name, "qtm");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_init_aliases_resolve)
{
    static const char *const names[] = { "rubik", "cube3", "3x3", "3X3X3" };

    for (int i = 0; i < 4; i++) {
        pz_puzzle_t *p = NULL;
        pz_diag_t d;

        ck_assert_int_eq(puzzle_create(names[i], NULL, &p, &d), PZ_OK);
        ck_assert_str_eq(p->ops->name, "3x3x3");
        puzzle_destroy(p);
    }
}
END_TEST

START_TEST(test_cube3_init_size_rejected)
{
    pz_params_t prm = { 3, 3, 0 };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_create("3x3x3", &prm, &p, &d), PZ_ESIZE);
    ck_assert_ptr_null(p);
    ck_assert_str_eq(d.detail, "the 3x3x3 has no size parameter");
}
END_TEST

START_TEST(test_cube3_init_moves_metric_rejected)
{
    pz_params_t prm = { 0, 0, PZ_METRIC_MOVES };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_create("3x3x3", &prm, &p, &d), PZ_EMETRIC);
    ck_assert_ptr_null(p);
}
END_TEST

/* --- breadth-first search against the published distributions -------- */

/* What a breadth-first search found. */
typedef struct bfs_result {
    uint64_t counts[16]; /* new states at each depth */
    long invalid;        /* states that are not legal cubes */
    long h_over;         /* states with h > depth (h given) */
    int h_max;           /* largest h seen */
} bfs_result_t;

/*
 * Breadth-first search from start to depth (<= 15) over all moves of p,
 * with the states in an open-addressing hash set (slots hold node index +
 * 1). cap bounds the number of states. When h is given, checks h <= depth
 * for every state found. Returns 0, or -1 when cap was too small.
 */
static int
bfs(const pz_puzzle_t *p,
    const pz_state_t *start,
    int depth,
    size_t cap,
    const pz_heuristic_t *h,
    bfs_result_t *r)
{
    size_t nslots = 1;
    uint8_t(*node)[20];
    uint32_t *slot;
    size_t n = 0;
    size_t layer_start = 0;
    int rc = 0;

    memset(r, 0, sizeof(*r));
    while (nslots < 2 * cap) {
        nslots <<= 1;
    }
    node = malloc(cap * sizeof(*node));
    slot = calloc(nslots, sizeof(*slot));
    ck_assert_ptr_nonnull(node);
    ck_assert_ptr_nonnull(slot);
    memcpy(node[n], start->b, 20);
    slot[puzzle_hash(p, start) & (nslots - 1)] = (uint32_t)++n;
    r->counts[0] = 1;
    for (int dd = 0; dd < depth && rc == 0; dd++) {
        size_t layer_end = n;

        for (size_t i = layer_start; i < layer_end && rc == 0; i++) {
            pz_state_t s;

            state_clear(&s);
            memcpy(s.b, node[i], 20);
            for (int m = 0; m < p->nmoves; m++) {
                pz_state_t t;
                cube3_cubie_t c;
                size_t k;

                puzzle_apply(p, &s, m, &t);
                k = puzzle_hash(p, &t) & (nslots - 1);
                while (slot[k] != 0 &&
                       memcmp(node[slot[k] - 1], t.b, 20) != 0) {
                    k = (k + 1) & (nslots - 1);
                }
                if (slot[k] != 0) {
                    continue;
                }
                if (n == cap) {
                    rc = -1;
                    break;
                }
                memcpy(node[n], t.b, 20);
                slot[k] = (uint32_t)++n;
                r->counts[dd + 1]++;
                r->invalid += cube3_cubie_from_state(&t, &c) != PZ_OK ||
                              cube3_cubie_check(&c, NULL) != PZ_OK ||
                              t.b[20] != 0 || t.b[PZ_STATE_MAX - 1] != 0;
                if (h != NULL) {
                    int v = heuristic_eval(h, &t);

                    r->h_over += v > dd + 1;
                    r->h_max = v > r->h_max ? v : r->h_max;
                }
            }
        }
        layer_start = layer_end;
    }
    free(node);
    free(slot);
    return rc;
}

START_TEST(test_cube3_apply_bfs_htm_to_depth_5)
{
    static const uint64_t expect[] = { 1, 18, 243, 3240, 43239, 574908 };
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    bfs_result_t r;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(bfs(p, &goal, 5, 700000, NULL, &r), 0);
    for (int i = 0; i <= 5; i++) {
        ck_assert_uint_eq(r.counts[i], expect[i]);
    }
    ck_assert_int_eq(r.invalid, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_apply_bfs_qtm_to_depth_6)
{
    static const uint64_t expect[] = {
        1, 12, 114, 1068, 10011, 93840, 878880,
    };
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_QTM);
    pz_state_t goal;
    bfs_result_t r;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(bfs(p, &goal, 6, 1000000, NULL, &r), 0);
    for (int i = 0; i <= 6; i++) {
        ck_assert_uint_eq(r.counts[i], expect[i]);
    }
    ck_assert_int_eq(r.invalid, 0);
    puzzle_destroy(p);
}
END_TEST

/* --- misplaced heuristic ------------------------------------------------ */

static pz_heuristic_t *
make_misplaced(const pz_puzzle_t *p, const pz_state_t *goal)
{
    pz_heuristic_t *h = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(heuristic_create(p, "misplaced", goal, &h, &d), PZ_OK);
    ck_assert(heuristic_admissible(h));
    return h;
}

/* h <= distance for every state within depth of goal (exact BFS
 * distances). Returns the largest h seen. */
static int
check_admissible_near(int metric, const pz_state_t *goal_or_null, int depth)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, metric);
    pz_state_t goal;
    pz_heuristic_t *h;
    bfs_result_t r;

    if (goal_or_null != NULL) {
        goal = *goal_or_null;
    } else {
        puzzle_goal(p, &goal);
    }
    h = make_misplaced(p, &goal);
    ck_assert_int_eq(heuristic_eval(h, &goal), 0);
    ck_assert_int_eq(bfs(p, &goal, depth, 1000000, h, &r), 0);
    ck_assert_int_eq(r.h_over, 0);
    heuristic_destroy(h);
    puzzle_destroy(p);
    return r.h_max;
}

START_TEST(test_cube3_misplaced_admissible_htm_near_solved)
{
    /* Reaching 3 (more than 8 edges wrong) takes at least 3 moves. */
    ck_assert_int_eq(check_admissible_near(PZ_METRIC_HTM, NULL, 4), 3);
}
END_TEST

START_TEST(test_cube3_misplaced_admissible_qtm_near_solved)
{
    ck_assert_int_eq(check_admissible_near(PZ_METRIC_QTM, NULL, 5), 3);
}
END_TEST

START_TEST(test_cube3_misplaced_admissible_custom_goal)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    pz_state_t goal;

    pz_rng_seed(&rng, 17);
    ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &goal), PZ_OK);
    puzzle_destroy(p);
    check_admissible_near(PZ_METRIC_HTM, &goal, 4);
    check_admissible_near(PZ_METRIC_QTM, &goal, 4);
}
END_TEST

START_TEST(test_cube3_misplaced_one_move_is_one)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_heuristic_t *h;

    puzzle_goal(p, &goal);
    h = make_misplaced(p, &goal);
    for (int m = 0; m < p->nmoves; m++) {
        pz_state_t s;

        puzzle_apply(p, &goal, m, &s);
        /* A turn moves exactly 4 corners and 4 edges off their places. */
        ck_assert_int_eq(heuristic_eval(h, &s), 1);
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_misplaced_superflip_counts_flips)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_state_t s = tl_parsed(p, SUPERFLIP);
    pz_heuristic_t *h;

    puzzle_goal(p, &goal);
    h = make_misplaced(p, &goal);
    /* All 12 edges in place but flipped: ceil(12 / 4). */
    ck_assert_int_eq(heuristic_eval(h, &s), 3);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* --- the cubie model (cube3.h) ---------------------------------------- */

/* A random legal cube through the puzzle's random_state. */
static cube3_cubie_t
random_cubie(const pz_puzzle_t *p, pz_rng_t *rng)
{
    pz_state_t s;
    cube3_cubie_t c;

    ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, rng, &s), PZ_OK);
    ck_assert_int_eq(cube3_cubie_from_state(&s, &c), PZ_OK);
    return c;
}

START_TEST(test_cube3_cubie_moves_match_sticker_geometry)
{
    cube3_cubie_t solved;
    int home[54];

    cube3_cubie_solved(&solved);
    cube3_cubie_to_picture(&solved, home);
    for (int f = 0; f < 54; f++) {
        /* The solved picture shows each facelet's own face. */
        ck_assert_int_eq(home[f], f / 9);
    }
    for (int m = 0; m < CUBE3_NMOVES; m++) {
        int perm[54];
        int pic[54];

        ck_assert_int_eq(cubeface_turn(3, m / 3, 1u, m % 3 + 1, perm), 0);
        cube3_cubie_to_picture(cube3_move_cubie(m), pic);
        for (int i = 0; i < 54; i++) {
            ck_assert_msg(pic[i] == home[perm[i]], "move %d facelet %d", m, i);
        }
        ck_assert_int_eq(cube3_cubie_check(cube3_move_cubie(m), NULL), PZ_OK);
    }
    ck_assert_ptr_null(cube3_move_cubie(-1));
    ck_assert_ptr_null(cube3_move_cubie(18));
}
END_TEST

START_TEST(test_cube3_cubie_multiply_matches_apply)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;

    pz_rng_seed(&rng, 3);
    for (int trial = 0; trial < 200; trial++) {
        cube3_cubie_t c = random_cubie(p, &rng);
        int m = (int)pz_rand_below(pz_rng_next, &rng, 18);
        pz_state_t s;
        pz_state_t t;
        pz_state_t u;
        cube3_cubie_t prod;

        cube3_cubie_to_state(&c, &s);
        puzzle_apply(p, &s, m, &t);
        cube3_cubie_multiply(&c, cube3_move_cubie(m), &prod);
        cube3_cubie_to_state(&prod, &u);
        ck_assert(puzzle_equal(p, &t, &u));
        cube3_cubie_move(&c, m);
        ck_assert(cube3_cubie_equal(&c, &prod));
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_cubie_inverse_cancels)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    cube3_cubie_t solved;

    cube3_cubie_solved(&solved);
    pz_rng_seed(&rng, 4);
    for (int trial = 0; trial < 200; trial++) {
        cube3_cubie_t a = random_cubie(p, &rng);
        cube3_cubie_t b = random_cubie(p, &rng);
        cube3_cubie_t ai;
        cube3_cubie_t bi;
        cube3_cubie_t x;
        cube3_cubie_t y;

        cube3_cubie_inverse(&a, &ai);
        cube3_cubie_multiply(&a, &ai, &x);
        ck_assert(cube3_cubie_equal(&x, &solved));
        cube3_cubie_multiply(&ai, &a, &x);
        ck_assert(cube3_cubie_equal(&x, &solved));
        /* (a b)^-1 = b^-1 a^-1, computed in place. */
        cube3_cubie_inverse(&b, &bi);
        cube3_cubie_multiply(&a, &b, &x);
        cube3_cubie_inverse(&x, &x);
        cube3_cubie_multiply(&bi, &ai, &y);
        ck_assert(cube3_cubie_equal(&x, &y));
    }
    /* The inverse of each move is the move of the inverse id. */
    for (int m = 0; m < 18; m++) {
        cube3_cubie_t inv;

        cube3_cubie_inverse(cube3_move_cubie(m), &inv);
        ck_assert(
            cube3_cubie_equal(&inv, cube3_move_cubie(m / 3 * 3 + 2 - m % 3)));
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_cubie_coordinates_round_trip)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    cube3_cubie_t c;
    int bad = 0;

    cube3_cubie_solved(&c);
    ck_assert_int_eq(cube3_twist(&c), 0);
    ck_assert_int_eq(cube3_flip(&c), 0);
    ck_assert_int_eq(cube3_corner_perm(&c), 0);
    ck_assert_int_eq(cube3_edge_perm(&c), 0);
    /* The largest ranks are the reversed permutations. */
    cube3_set_corner_perm(&c, 40319);
    cube3_set_edge_perm(&c, 479001599);
    ck_assert_int_eq(c.cp[0], 7);
    ck_assert_int_eq(c.cp[7], 0);
    ck_assert_int_eq(c.ep[0], 11);
    ck_assert_int_eq(c.ep[11], 0);
    for (int t = 0; t < 2187; t++) {
        cube3_set_twist(&c, t);
        bad += cube3_twist(&c) != t;
    }
    for (int f = 0; f < 2048; f++) {
        cube3_set_flip(&c, f);
        bad += cube3_flip(&c) != f;
    }
    for (int r = 0; r < 40320; r++) {
        cube3_set_corner_perm(&c, r);
        bad += cube3_corner_perm(&c) != r;
    }
    ck_assert_int_eq(bad, 0);
    pz_rng_seed(&rng, 8);
    for (int trial = 0; trial < 500; trial++) {
        cube3_cubie_t a = random_cubie(p, &rng);
        cube3_cubie_t b;

        cube3_cubie_solved(&b);
        cube3_set_twist(&b, cube3_twist(&a));
        cube3_set_flip(&b, cube3_flip(&a));
        cube3_set_corner_perm(&b, cube3_corner_perm(&a));
        cube3_set_edge_perm(&b, cube3_edge_perm(&a));
        ck_assert(cube3_cubie_equal(&a, &b));
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_cubie_check_codes)
{
    cube3_cubie_t c;
    pz_state_t s;

    cube3_cubie_solved(&c);
    ck_assert_int_eq(cube3_cubie_check(&c, NULL), PZ_OK);
    c.co[0] = 1;
    ck_assert_int_eq(cube3_cubie_check(&c, NULL), PZ_ETWIST);
    cube3_cubie_solved(&c);
    c.eo[3] = 1;
    ck_assert_int_eq(cube3_cubie_check(&c, NULL), PZ_EFLIP);
    cube3_cubie_solved(&c);
    c.cp[0] = 1;
    c.cp[1] = 0;
    ck_assert_int_eq(cube3_corner_parity(&c), 1);
    ck_assert_int_eq(cube3_cubie_check(&c, NULL), PZ_EPARITY);
    c.ep[0] = 1;
    c.ep[1] = 0;
    ck_assert_int_eq(cube3_cubie_check(&c, NULL), PZ_OK);
    c.ep[0] = 0;
    ck_assert_int_eq(cube3_cubie_check(&c, NULL), PZ_EDUPLICATE);
    state_clear(&s);
    s.b[0] = 24;
    ck_assert_int_eq(cube3_cubie_from_state(&s, &c), PZ_EINVAL);
    state_clear(&s);
    s.b[8] = 24;
    ck_assert_int_eq(cube3_cubie_from_state(&s, &c), PZ_EINVAL);
}
END_TEST

/* --- apply against the move vectors ----------------------------------- */

START_TEST(test_cube3_apply_reference_vectors_array_form)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    /* Any six distinct integers: the centres say which face is which. */
    static const int colour[6] = { 7, 100, -3, 42, 5, 9 };

    puzzle_goal(p, &goal);
    for (int v = 0; v < 12; v++) {
        int arr[54];
        int other[54];
        pz_state_t mine;
        pz_state_t theirs;
        pz_diag_t d;

        array_from_labels(ref_vectors[v].after, arr);
        puzzle_apply(p, &goal, ref_vectors[v].htm_id, &mine);
        ck_assert_msg(parse_array(p, arr, 54, &theirs, &d) == PZ_OK, "%s: %s",
                      ref_vectors[v].name, d.detail);
        ck_assert_msg(puzzle_equal(p, &mine, &theirs), "%s",
                      ref_vectors[v].name);
        for (int i = 0; i < 54; i++) {
            other[i] = colour[arr[i]];
        }
        ck_assert_int_eq(parse_array(p, other, 54, &theirs, &d), PZ_OK);
        ck_assert(puzzle_equal(p, &mine, &theirs));
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_apply_reference_vectors_facelet_form)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    char start[55];

    puzzle_goal(p, &goal);
    text_from_labels(ref_start, start);
    ck_assert_str_eq(start, SOLVED);
    for (int v = 0; v < 12; v++) {
        char text[55];
        char fmt[55];
        pz_state_t mine;
        pz_state_t theirs;

        text_from_labels(ref_vectors[v].after, text);
        puzzle_apply(p, &goal, ref_vectors[v].htm_id, &mine);
        theirs = tl_parsed(p, text);
        ck_assert_msg(puzzle_equal(p, &mine, &theirs), "%s",
                      ref_vectors[v].name);
        ck_assert_int_eq(puzzle_format_state(p, &mine, fmt, sizeof(fmt)), 54);
        ck_assert_str_eq(fmt, text);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_apply_random_sequences_match_reference)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    int perm[12][54];

    for (int v = 0; v < 12; v++) {
        ref_perm(&ref_vectors[v], perm[v]);
    }
    pz_rng_seed(&rng, 7);
    for (int trial = 0; trial < 300; trial++) {
        int arr[54];
        pz_state_t mine;
        pz_state_t theirs;
        pz_diag_t d;
        int len = 1 + (int)pz_rand_below(pz_rng_next, &rng, 30);

        for (int i = 0; i < 54; i++) {
            arr[i] = i / 9;
        }
        puzzle_goal(p, &mine);
        for (int k = 0; k < len; k++) {
            int v = (int)pz_rand_below(pz_rng_next, &rng, 12);
            int old[54];

            memcpy(old, arr, sizeof(old));
            for (int i = 0; i < 54; i++) {
                arr[i] = old[perm[v][i]];
            }
            puzzle_apply(p, &mine, ref_vectors[v].htm_id, &mine);
        }
        ck_assert_int_eq(parse_array(p, arr, 54, &theirs, &d), PZ_OK);
        ck_assert_msg(puzzle_equal(p, &mine, &theirs), "trial %d", trial);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_apply_half_turn_is_two_quarters)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;

    puzzle_goal(p, &goal);
    for (int f = 0; f < 6; f++) {
        pz_state_t a;
        pz_state_t b;

        puzzle_apply(p, &goal, 3 * f, &a);
        ck_assert(!puzzle_equal(p, &a, &goal));
        puzzle_apply(p, &a, 3 * f, &a);
        puzzle_apply(p, &goal, 3 * f + 1, &b);
        ck_assert(puzzle_equal(p, &a, &b));
        puzzle_apply(p, &goal, 3 * f + 2, &b);
        puzzle_apply(p, &b, 3 * f + 2, &b);
        ck_assert(puzzle_equal(p, &a, &b));
        puzzle_apply(p, &a, 3 * f + 1, &a);
        ck_assert(puzzle_equal(p, &a, &goal));
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_apply_sexy_move_has_order_six)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_state_t s;
    static const uint8_t sexy[4] = { M_R, M_U, M_RI, M_UI };

    /* R U R' U' repeated six times is the identity, and not before. */
    puzzle_goal(p, &goal);
    s = goal;
    for (int k = 1; k <= 6; k++) {
        ck_assert_int_eq(puzzle_replay(p, &s, sexy, 4, &s), PZ_OK);
        ck_assert_int_eq(puzzle_equal(p, &s, &goal), k == 6);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_inverse_undoes_each_move)
{
    for (int metric = PZ_METRIC_HTM; metric <= PZ_METRIC_QTM; metric++) {
        pz_puzzle_t *p = tl_make("3x3x3", 0, 0, metric);
        pz_state_t s = tl_scrambled(p, "R U2 F' U R' D L2 B");

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

START_TEST(test_cube3_move_name_standard_notation)
{
    static const char *htm[] = {
        "U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'",
        "D", "D2", "D'", "L", "L2", "L'", "B", "B2", "B'",
    };
    static const char *qtm[] = { "U", "U'", "R", "R'", "F", "F'",
                                 "D", "D'", "L", "L'", "B", "B'" };
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_puzzle_t *q = tl_make("3x3x3", 0, 0, PZ_METRIC_QTM);

    for (int m = 0; m < 18; m++) {
        ck_assert_str_eq(puzzle_move_name(p, m), htm[m]);
        /* Each name parses back to the same move. */
        {
            pz_state_t goal;
            pz_state_t a;
            pz_state_t b = tl_scrambled(p, htm[m]);

            puzzle_goal(p, &goal);
            puzzle_apply(p, &goal, m, &a);
            ck_assert(puzzle_equal(p, &a, &b));
        }
    }
    for (int m = 0; m < 12; m++) {
        ck_assert_str_eq(puzzle_move_name(q, m), qtm[m]);
    }
    ck_assert_str_eq(puzzle_move_name(p, 18), "?");
    puzzle_destroy(p);
    puzzle_destroy(q);
}
END_TEST

/* Face letter of a move name. */
static char
face_of(const pz_puzzle_t *p, int m)
{
    return puzzle_move_name(p, m)[0];
}

/* True when a and b are opposite face letters. */
static int
opposite_faces(char a, char b)
{
    static const char *const pairs[] = { "UD", "RL", "FB" };

    for (int i = 0; i < 3; i++) {
        if ((a == pairs[i][0] && b == pairs[i][1]) ||
            (a == pairs[i][1] && b == pairs[i][0])) {
            return 1;
        }
    }
    return 0;
}

START_TEST(test_cube3_redundant_htm_same_face_and_opposite_order)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);

    for (int a = 0; a < 18; a++) {
        for (int b = 0; b < 18; b++) {
            int allowed = (int)(puzzle_allowed_after(p, a) >> b & 1);
            char fa = face_of(p, a);
            char fb = face_of(p, b);
            /* D, L, B may not be followed by U, R, F. */
            int want = fa != fb &&
                       !(opposite_faces(fa, fb) && strchr("DLB", fa) != NULL);

            ck_assert_msg(allowed == want, "%s then %s", puzzle_move_name(p, a),
                          puzzle_move_name(p, b));
        }
    }
    ck_assert_uint_eq(puzzle_allowed_after(p, -1), (UINT64_C(1) << 18) - 1);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_redundant_qtm_keeps_half_turns)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_QTM);

    for (int a = 0; a < 12; a++) {
        for (int b = 0; b < 12; b++) {
            int allowed = (int)(puzzle_allowed_after(p, a) >> b & 1);
            const char *na = puzzle_move_name(p, a);
            const char *nb = puzzle_move_name(p, b);
            int want;

            if (na[0] == nb[0]) {
                /* U U is the half turn and stays; U U' cancels; U' U'
                 * equals U U. */
                want = na[1] == '\0' && nb[1] == '\0';
            } else {
                want = !(opposite_faces(na[0], nb[0]) &&
                         strchr("DLB", na[0]) != NULL);
            }
            ck_assert_msg(allowed == want, "%s then %s", na, nb);
        }
    }
    puzzle_destroy(p);
}
END_TEST

/* --- parse_state -------------------------------------------------------- */

START_TEST(test_cube3_parse_state_solved_text_is_goal)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_state_t s;

    puzzle_goal(p, &goal);
    s = tl_parsed(p, SOLVED);
    ck_assert(puzzle_equal(p, &s, &goal));
    /* Any six symbols, spaces between faces allowed. */
    s = tl_parsed(p, "WWWWWWWWW RRRRRRRRR GGGGGGGGG YYYYYYYYY OOOOOOOOO "
                     "BBBBBBBBB");
    ck_assert(puzzle_equal(p, &s, &goal));
    ck_assert(memcmp(s.b, goal.b, sizeof(s.b)) == 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_symbols_follow_centres)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t a = tl_scrambled(p, "R U F' L2 D B");
    pz_state_t b;
    char text[55];
    char renamed[55];

    ck_assert_int_eq(puzzle_format_state(p, &a, text, sizeof(text)), 54);
    for (int i = 0; i < 54; i++) {
        renamed[i] = "wrgyob"[strchr("URFDLB", text[i]) - "URFDLB"];
    }
    renamed[54] = '\0';
    b = tl_parsed(p, renamed);
    ck_assert(puzzle_equal(p, &a, &b));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_b_face_turned_in_array)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s = tl_scrambled(p, "B");
    pz_state_t t;
    pz_diag_t d;
    char text[55];
    int arr[54];

    /* array[5][r][c] = K_B[2-r][2-c] (B turned a half turn); other faces
     * as read. */
    ck_assert_int_eq(puzzle_format_state(p, &s, text, sizeof(text)), 54);
    for (int k = 0; k < 54; k++) {
        static const int ref_face[6] = { 0, 3, 2, 4, 1, 5 };
        int f = k / 9;
        int r = k % 9 / 3;
        int c = k % 3;
        int colour = (int)(strchr("ULFRDB", text[k]) - "ULFRDB");

        if (f == 5) {
            r = 2 - r;
            c = 2 - c;
        }
        arr[9 * ref_face[f] + 3 * r + c] = colour;
    }
    ck_assert_int_eq(parse_array(p, arr, 54, &t, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &s, &t));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_length_errors)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    int arr[55] = { 0 };
    pz_input_t flat = { NULL, arr, 54, 2, { 9, 6, 0 } };

    ck_assert_int_eq(tl_parse_text(p, SOLVED "U", &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_ptr_nonnull(strstr(d.detail, "55 stickers"));
    ck_assert_int_eq(tl_parse_text(p, "UUU", &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_int_eq(parse_array(p, arr, 53, &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_ptr_nonnull(strstr(d.detail, "53 numbers"));
    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_parse_state(p, &flat, &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_ptr_nonnull(strstr(d.detail, "shape"));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_symbol_error)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[55];

    memcpy(text, SOLVED, 55);
    text[10] = '\x01';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ESTATE_SYMBOL);
    ck_assert_ptr_nonnull(strstr(d.detail, "character 10"));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_colour_count_errors)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[55];

    memcpy(text, SOLVED, 55);
    text[10] = 'U';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ECOLOUR_COUNT);
    ck_assert_str_eq(d.detail, "colour 'U' appears 10 times; each of the 6 "
                               "colours must appear 9 times");
    memcpy(text, SOLVED, 55);
    text[10] = 'X';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ECOLOUR_COUNT);
    ck_assert_ptr_nonnull(strstr(d.detail, "7 colours ('X' appears 1 time)"));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_centres_error)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[55];

    /* The U centre and an F edge sticker swapped: counts stay 9 each. */
    memcpy(text, SOLVED, 55);
    text[4] = 'F';
    text[19] = 'U';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ECENTRES);
    ck_assert_ptr_nonnull(strstr(d.detail, "centres of U and F both show 'F'"));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_corner_errors)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[55];

    /* UFR reads U (U9), U (F3), F (R1); U1 becomes R to keep the counts. */
    memcpy(text, SOLVED, 55);
    text[20] = 'U';
    text[9] = 'F';
    text[0] = 'R';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ECORNER);
    ck_assert_str_eq(d.detail,
                     "corner at UFR has colours U, U, F: a sticker is misread");
    /* U9 <-> L3: UFR shows L (U9), F, R. */
    memcpy(text, SOLVED, 55);
    text[8] = 'L';
    text[38] = 'U';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ECORNER);
    ck_assert_str_eq(d.detail, "corner at UFR has colours L, F, R, two of "
                               "which belong to opposite faces: a sticker is "
                               "misread");
    /* R1 <-> F3: UFR reads U F R clockwise, a mirror image. */
    memcpy(text, SOLVED, 55);
    text[9] = 'F';
    text[20] = 'R';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ECORNER);
    ck_assert_ptr_nonnull(strstr(d.detail, "mirror order"));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_edge_errors)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[55];

    /* F2 (of UF) shows U; U2 (of UB) shows F. */
    memcpy(text, SOLVED, 55);
    text[19] = 'U';
    text[1] = 'F';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_EEDGE);
    ck_assert_str_eq(d.detail,
                     "edge at UF has colours U, U: a sticker is misread");
    /* F2 <-> D2: UF shows U, D. */
    memcpy(text, SOLVED, 55);
    text[19] = 'D';
    text[28] = 'F';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_EEDGE);
    ck_assert_str_eq(d.detail, "edge at UF has colours U, D, which belong to "
                               "opposite faces: a sticker is misread");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_duplicate_pieces)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[55];

    /* UFL shows the URF piece (U7 U, F1 R, L3 F) and DRB the DBL piece
     * (D9 D, R9 B, B7 L): every colour still appears 9 times. */
    memcpy(text, SOLVED, 55);
    text[18] = 'R';
    text[38] = 'F';
    text[17] = 'B';
    text[51] = 'L';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_EDUPLICATE);
    ck_assert_ptr_nonnull(strstr(d.detail, "at UFR and UFL"));
    /* UF shows the UR piece (F2 R) and DR the DF piece (R8 F). */
    memcpy(text, SOLVED, 55);
    text[19] = 'R';
    text[16] = 'F';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_EDUPLICATE);
    ck_assert_str_eq(d.detail, "the edge with colours U, R appears twice, at "
                               "UR and UF: a sticker is misread");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_invariant_errors)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    char text[55];

    /* UFR turned in place: U9 shows F, R1 shows U, F3 shows R. */
    memcpy(text, SOLVED, 55);
    text[8] = 'F';
    text[9] = 'U';
    text[20] = 'R';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_ETWIST);
    ck_assert_str_eq(d.detail, "the corners' twists do not add up: one "
                               "corner is twisted in place");
    /* UF flipped in place. */
    memcpy(text, SOLVED, 55);
    text[7] = 'F';
    text[19] = 'U';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_EFLIP);
    ck_assert_ptr_nonnull(strstr(d.detail, "one edge is flipped in place"));
    /* UF and UR swapped: U8 U, F2 R, U6 U, R2 F. */
    memcpy(text, SOLVED, 55);
    text[19] = 'R';
    text[10] = 'F';
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_EPARITY);
    ck_assert_str_eq(d.detail, "corner and edge permutation parities differ: "
                               "two pieces are swapped");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_int_detail_shows_numbers)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    pz_diag_t d;
    int arr[54];

    for (int i = 0; i < 54; i++) {
        arr[i] = 10 * (i / 9);
    }
    arr[9] = 0; /* an L sticker shows U's colour */
    ck_assert_int_eq(parse_array(p, arr, 54, &s, &d), PZ_ECOLOUR_COUNT);
    ck_assert_str_eq(d.detail, "colour '0' appears 10 times; each of the 6 "
                               "colours must appear 9 times");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_parse_state_random_states_round_trip)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    long bad = 0;
    int seen[12][12] = { { 0 } };
    const int draws = 12000;

    pz_rng_seed(&rng, 5);
    for (int i = 0; i < draws; i++) {
        pz_state_t s;
        pz_state_t t;
        pz_diag_t d;
        cube3_cubie_t c;
        char buf[55];

        puzzle_random_state(p, pz_rng_next, &rng, &s);
        bad += cube3_cubie_from_state(&s, &c) != PZ_OK ||
               cube3_cubie_check(&c, NULL) != PZ_OK;
        bad += puzzle_format_state(p, &s, buf, sizeof(buf)) != 54;
        bad +=
            tl_parse_text(p, buf, &t, &d) != PZ_OK || !puzzle_equal(p, &s, &t);
        for (int k = 0; k < 12; k++) {
            seen[k][c.ep[k]]++;
        }
    }
    ck_assert_int_eq(bad, 0);
    /* Each edge lands at each position about 1/12 of the time (1000
     * expected; 6 standard deviations is about 180). */
    for (int k = 0; k < 12; k++) {
        for (int j = 0; j < 12; j++) {
            ck_assert_msg(seen[k][j] > 820 && seen[k][j] < 1180, "count %d",
                          seen[k][j]);
        }
    }
    puzzle_destroy(p);
}
END_TEST

/* --- apply_scramble ---------------------------------------------------- */

START_TEST(test_cube3_apply_scramble_superflip)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_state_t s =
        tl_scrambled(p, "R L U2 F U' D F2 R2 B2 L U2 F' B' U R2 D F2 "
                        "U R2 U");
    pz_state_t t = tl_parsed(p, SUPERFLIP);
    cube3_cubie_t c;

    puzzle_goal(p, &goal);
    ck_assert(puzzle_equal(p, &s, &t));
    ck_assert(!puzzle_equal(p, &s, &goal));
    /* Every edge at home, flipped; corners untouched. */
    ck_assert_int_eq(cube3_cubie_from_state(&s, &c), PZ_OK);
    for (int i = 0; i < 12; i++) {
        ck_assert_int_eq(c.ep[i], i);
        ck_assert_int_eq(c.eo[i], 1);
    }
    for (int i = 0; i < 8; i++) {
        ck_assert_int_eq(s.b[i], goal.b[i]);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_apply_scramble_rotations_alone_are_solved)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);

    assert_same(p, "x y z", "");
    assert_same(p, "x", "");
    assert_same(p, "y'", "");
    assert_same(p, "z2", "");
    assert_same(p, "x2 y' z2 x' y", "");
    puzzle_destroy(p);
}
END_TEST

/*
 * Slices and wide moves turn centres; read back with the centres naming
 * the colours, the cube is the one where the outer layers turned the
 * other way: M (as L) leaves R L' relative to the middle, Rw (R and the
 * middle) leaves L.
 */
START_TEST(test_cube3_apply_scramble_slices_and_wide_fold)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);

    assert_same(p, "M", "R L' x'");
    assert_same(p, "M", "R L'");
    assert_same(p, "M'", "R' L");
    assert_same(p, "M2", "R2 L2");
    assert_same(p, "E", "U D'");
    assert_same(p, "E", "U D' y'");
    assert_same(p, "S", "F' B");
    assert_same(p, "S", "F' B z");
    assert_same(p, "Rw", "L");
    assert_same(p, "r", "L");
    assert_same(p, "Rw'", "L'");
    assert_same(p, "Rw2", "L2");
    assert_same(p, "Lw", "R");
    assert_same(p, "Uw", "D");
    assert_same(p, "u'", "D'");
    assert_same(p, "Dw", "U");
    assert_same(p, "Fw", "B");
    assert_same(p, "Bw", "F");
    assert_same(p, "R r'", "M");
    assert_same(p, "r R'", "M'");
    assert_same(p, "U' u", "E'");
    assert_same(p, "F' f", "S");
    /* The checkerboard: M2 E2 S2 moves every centre twice. */
    assert_same(p, "M2 E2 S2", "U2 D2 F2 B2 L2 R2");
    {
        pz_state_t a = tl_scrambled(p, "M2 E2 S2");
        pz_state_t b = tl_parsed(p, CHECKERBOARD);

        ck_assert(puzzle_equal(p, &a, &b));
    }
    puzzle_destroy(p);
}
END_TEST

/*
 * A rotation after turns carries the turned layers to other places: after
 * "x" (as R) the U layer is at B, so "U x" reads as B; "x U x'" turns the
 * layer that x brought up (F) and puts it back. A rotation first only
 * changes how the cube is held: "x U" reads as U.
 */
START_TEST(test_cube3_apply_scramble_rotations_conjugate)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);

    assert_same(p, "x U", "U");
    assert_same(p, "U x", "B");
    assert_same(p, "x U x'", "F");
    assert_same(p, "y R y'", "B");
    assert_same(p, "z U z'", "L");
    assert_same(p, "z' U z", "R");
    assert_same(p, "y2 F y2", "B");
    assert_same(p, "x' U2 x", "B2");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_apply_scramble_suffixes)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);

    assert_same(p, "R2'", "R2");
    assert_same(p, "R U\xe2\x80\x99", "R U'");
    assert_same(p, "RUR'U'", "R U R' U'");
    assert_same(p, "  R\tU\n", "R U");
    assert_same(p, "R R R", "R'");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_apply_scramble_on_given_state)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s = tl_scrambled(p, "R U F M x");
    pz_state_t goal;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_apply_scramble(p, "x' M' F' U' R'", &s, &d), PZ_OK);
    puzzle_goal(p, &goal);
    ck_assert(puzzle_equal(p, &s, &goal));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_apply_scramble_bad_token_position)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
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
    ck_assert_int_eq(puzzle_parse_scramble(p, "R m", &s, &d), PZ_EMOVE);
    ck_assert_int_eq(d.position, 2);
    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_parse_scramble(p, "Rx2 Rww", &s, &d), PZ_EMOVE);
    ck_assert_int_eq(d.position, 4);
    puzzle_destroy(p);
}
END_TEST

/* --- format_state ------------------------------------------------------ */

START_TEST(test_cube3_format_state_goal_and_small_buffer)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    char buf[55];

    puzzle_goal(p, &goal);
    ck_assert_int_eq(puzzle_format_state(p, &goal, buf, sizeof(buf)), 54);
    ck_assert_str_eq(buf, SOLVED);
    ck_assert_int_eq(puzzle_format_state(p, &goal, buf, 54), PZ_EINVAL);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_cube3_format_state_after_r)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t s;
    char buf[55];

    /* R from solved, read off a real cube: the right columns of U, F, D
     * show F, D, B; the left column of B (as seen from behind) shows U. */
    puzzle_goal(p, &s);
    puzzle_apply(p, &s, M_R, &s);
    ck_assert_int_eq(puzzle_format_state(p, &s, buf, sizeof(buf)), 54);
    ck_assert_str_eq(buf, "UUFUUFUUF"
                          "RRRRRRRRR"
                          "FFDFFDFFD"
                          "DDBDDBDDB"
                          "LLLLLLLLL"
                          "UBBUBBUBB");
    puzzle_destroy(p);
}
END_TEST

/* --- engines ----------------------------------------------------------- */

/* The reference array after the reference moves named in seq. */
static void
reference_array(const char *const *seq, int n, int arr[54])
{
    for (int i = 0; i < 54; i++) {
        arr[i] = i / 9;
    }
    for (int k = 0; k < n; k++) {
        int perm[54];
        int old[54];
        int v = 0;

        while (strcmp(ref_vectors[v].name, seq[k]) != 0) {
            v++;
        }
        ref_perm(&ref_vectors[v], perm);
        memcpy(old, arr, sizeof(old));
        for (int i = 0; i < 54; i++) {
            arr[i] = old[perm[i]];
        }
    }
}

START_TEST(test_cube3_solve_reference_cases_exact_moves)
{
    static const struct {
        const char *scramble[4];
        int n;
        const char *answer;
    } cases[] = {
        { { "R'" }, 1, "R" },
        { { "L" }, 1, "L'" },
        { { "R'", "U" }, 2, "U' R" },
        { { "R'", "U", "L", "D" }, 4, "D' L' U' R" },
    };
    static const char *const engines[] = { "bibfs", "idastar", "astar" };
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);

    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        int arr[54];
        pz_state_t s;
        pz_diag_t d;

        reference_array(cases[c].scramble, cases[c].n, arr);
        ck_assert_int_eq(parse_array(p, arr, 54, &s, &d), PZ_OK);
        for (int e = 0; e < 3; e++) {
            pz_solution_t sol =
                tl_solve_weighted(p, &s, NULL, engines[e], "misplaced", 1);
            char text[64];

            ck_assert_int_ge(puzzle_format_moves(p, sol.moves, sol.length, text,
                                                 sizeof(text)),
                             0);
            ck_assert_msg(strcmp(text, cases[c].answer) == 0,
                          "%s: '%s', want '%s'", engines[e], text,
                          cases[c].answer);
            ck_assert(sol.optimal);
        }
    }
    puzzle_destroy(p);
}
END_TEST

/* Solves scrambles of 3..6 moves with every engine; answers are replayed
 * (also by engine_run) and the optimal ones must agree. */
static void
engines_agree(int metric, uint64_t seed, int min_len, int max_len)
{
    static const char *const engines[] = { "bibfs", "idastar", "astar",
                                           "wastar" };
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, metric);
    pz_rng_t rng;
    pz_state_t goal;

    pz_rng_seed(&rng, seed);
    puzzle_goal(p, &goal);
    for (int len = min_len; len <= max_len; len++) {
        uint8_t moves[16];
        pz_state_t s;
        int optimum = -1;

        ck_assert_int_eq(
            puzzle_random_moves(p, &goal, len, pz_rng_next, &rng, moves),
            PZ_OK);
        ck_assert_int_eq(puzzle_replay(p, &goal, moves, len, &s), PZ_OK);
        for (int e = 0; e < 4; e++) {
            double w = e == 3 ? 1.5 : 1.0;
            pz_solution_t sol =
                tl_solve_weighted(p, &s, NULL, engines[e], "misplaced", w);
            pz_state_t end;

            ck_assert_int_eq(puzzle_replay(p, &s, sol.moves, sol.length, &end),
                             PZ_OK);
            ck_assert(puzzle_equal(p, &end, &goal));
            ck_assert_int_le(sol.length, len);
            if (e < 3) {
                ck_assert(sol.optimal);
                if (optimum >= 0) {
                    ck_assert_msg(sol.length == optimum, "%s: %d, bibfs: %d",
                                  engines[e], sol.length, optimum);
                }
                optimum = sol.length;
            } else {
                ck_assert_int_le(sol.length, 1.5 * optimum);
            }
        }
    }
    puzzle_destroy(p);
}

START_TEST(test_cube3_solve_engines_agree_htm)
{
    engines_agree(PZ_METRIC_HTM, 31, 3, 6);
    engines_agree(PZ_METRIC_HTM, 32, 3, 6);
}
END_TEST

START_TEST(test_cube3_solve_engines_agree_qtm)
{
    engines_agree(PZ_METRIC_QTM, 33, 3, 6);
}
END_TEST

START_TEST(test_cube3_solve_quarter_turn_is_two_in_qtm)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_QTM);
    pz_state_t s = tl_scrambled(p, "R2 U2");
    pz_solution_t sol = tl_solve_weighted(p, &s, NULL, "bibfs", "none", 1);

    /* A half turn is two quarter turns; R2 U2 needs four. */
    ck_assert_int_eq(sol.length, 4);
    sol = tl_solve_weighted(p, &s, NULL, "idastar", "misplaced", 1);
    ck_assert_int_eq(sol.length, 4);
    puzzle_destroy(p);
}
END_TEST

static Suite *
cube3_suite(void)
{
    Suite *s = suite_create("cube3");
    TCase *tc_init = tcase_create("init");
    TCase *tc_bfs = tcase_create("bfs");
    TCase *tc_cubie = tcase_create("cubie");
    TCase *tc_apply = tcase_create("apply");
    TCase *tc_parse = tcase_create("parse_state");
    TCase *tc_scramble = tcase_create("apply_scramble");
    TCase *tc_format = tcase_create("format_state");
    TCase *tc_solve = tcase_create("solve");

    tcase_add_test(tc_init, test_cube3_init_default_is_htm);
    tcase_add_test(tc_init, test_cube3_init_qtm_has_twelve_moves);
    tcase_add_test(tc_init, test_cube3_init_aliases_resolve);
    tcase_add_test(tc_init, test_cube3_init_size_rejected);
    tcase_add_test(tc_init, test_cube3_init_moves_metric_rejected);
    suite_add_tcase(s, tc_init);

    tcase_set_timeout(tc_bfs, 120);
    tcase_add_test(tc_bfs, test_cube3_apply_bfs_htm_to_depth_5);
    tcase_add_test(tc_bfs, test_cube3_apply_bfs_qtm_to_depth_6);
    tcase_add_test(tc_bfs, test_cube3_misplaced_admissible_htm_near_solved);
    tcase_add_test(tc_bfs, test_cube3_misplaced_admissible_qtm_near_solved);
    tcase_add_test(tc_bfs, test_cube3_misplaced_admissible_custom_goal);
    tcase_add_test(tc_bfs, test_cube3_misplaced_one_move_is_one);
    tcase_add_test(tc_bfs, test_cube3_misplaced_superflip_counts_flips);
    suite_add_tcase(s, tc_bfs);

    tcase_add_test(tc_cubie, test_cube3_cubie_moves_match_sticker_geometry);
    tcase_add_test(tc_cubie, test_cube3_cubie_multiply_matches_apply);
    tcase_add_test(tc_cubie, test_cube3_cubie_inverse_cancels);
    tcase_add_test(tc_cubie, test_cube3_cubie_coordinates_round_trip);
    tcase_add_test(tc_cubie, test_cube3_cubie_check_codes);
    suite_add_tcase(s, tc_cubie);

    tcase_add_test(tc_apply, test_cube3_apply_reference_vectors_array_form);
    tcase_add_test(tc_apply, test_cube3_apply_reference_vectors_facelet_form);
    tcase_add_test(tc_apply, test_cube3_apply_random_sequences_match_reference);
    tcase_add_test(tc_apply, test_cube3_apply_half_turn_is_two_quarters);
    tcase_add_test(tc_apply, test_cube3_apply_sexy_move_has_order_six);
    tcase_add_test(tc_apply, test_cube3_inverse_undoes_each_move);
    tcase_add_test(tc_apply, test_cube3_move_name_standard_notation);
    tcase_add_test(tc_apply,
                   test_cube3_redundant_htm_same_face_and_opposite_order);
    tcase_add_test(tc_apply, test_cube3_redundant_qtm_keeps_half_turns);
    suite_add_tcase(s, tc_apply);

    tcase_add_test(tc_parse, test_cube3_parse_state_solved_text_is_goal);
    tcase_add_test(tc_parse, test_cube3_parse_state_symbols_follow_centres);
    tcase_add_test(tc_parse, test_cube3_parse_state_b_face_turned_in_array);
    tcase_add_test(tc_parse, test_cube3_parse_state_length_errors);
    tcase_add_test(tc_parse, test_cube3_parse_state_symbol_error);
    tcase_add_test(tc_parse, test_cube3_parse_state_colour_count_errors);
    tcase_add_test(tc_parse, test_cube3_parse_state_centres_error);
    tcase_add_test(tc_parse, test_cube3_parse_state_corner_errors);
    tcase_add_test(tc_parse, test_cube3_parse_state_edge_errors);
    tcase_add_test(tc_parse, test_cube3_parse_state_duplicate_pieces);
    tcase_add_test(tc_parse, test_cube3_parse_state_invariant_errors);
    tcase_add_test(tc_parse, test_cube3_parse_state_int_detail_shows_numbers);
    tcase_add_test(tc_parse, test_cube3_parse_state_random_states_round_trip);
    suite_add_tcase(s, tc_parse);

    tcase_add_test(tc_scramble, test_cube3_apply_scramble_superflip);
    tcase_add_test(tc_scramble,
                   test_cube3_apply_scramble_rotations_alone_are_solved);
    tcase_add_test(tc_scramble, test_cube3_apply_scramble_slices_and_wide_fold);
    tcase_add_test(tc_scramble, test_cube3_apply_scramble_rotations_conjugate);
    tcase_add_test(tc_scramble, test_cube3_apply_scramble_suffixes);
    tcase_add_test(tc_scramble, test_cube3_apply_scramble_on_given_state);
    tcase_add_test(tc_scramble, test_cube3_apply_scramble_bad_token_position);
    suite_add_tcase(s, tc_scramble);

    tcase_add_test(tc_format, test_cube3_format_state_goal_and_small_buffer);
    tcase_add_test(tc_format, test_cube3_format_state_after_r);
    suite_add_tcase(s, tc_format);

    tcase_set_timeout(tc_solve, 60);
    tcase_add_test(tc_solve, test_cube3_solve_reference_cases_exact_moves);
    tcase_add_test(tc_solve, test_cube3_solve_engines_agree_htm);
    tcase_add_test(tc_solve, test_cube3_solve_engines_agree_qtm);
    tcase_add_test(tc_solve, test_cube3_solve_quarter_turn_is_two_in_qtm);
    suite_add_tcase(s, tc_solve);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(cube3_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
