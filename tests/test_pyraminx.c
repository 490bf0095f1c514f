/* SPDX-License-Identifier: MIT */
/* test_pyraminx.c - the Pyraminx against published counts and physical facts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "heuristic.h"
#include "puzzle.h"
#include "testlib.h"

/*
 * Golden facts: the published depth distributions (tipless, 8 vertex
 * moves, 933,120 positions, and with tips, 16 moves), and what a physical
 * Pyraminx shows after one turn (derived in the comments of the format
 * tests). The tipless BFS indexes states with the puzzle's own rank; that
 * it is a perfect index is checked on the way (every index round-trips and
 * every generated state survives unrank(rank(s)) unchanged), so a rank that
 * merged states would fail there and in the counts.
 *
 * Facelet string: faces F L R D, 9 stickers each, in the order drawn in
 * docs/pyraminx.md. Move ids: U U' L L' R R' B B' u u' l l' r r' b b'.
 */

#define NTIPLESS 933120u
#define SOLVED   "FFFFFFFFFLLLLLLLLLRRRRRRRRRDDDDDDDDD"

enum {
    M_U = 0,
    M_UI,
    M_L,
    M_LI,
    M_R,
    M_RI,
    M_B,
    M_BI,
    M_TU,
    M_TUI,
    M_TL,
    M_TLI,
    M_TR,
    M_TRI,
    M_TB,
    M_TBI
};

/* Facelet indices used by the validation tests (face * 9 + position). */
enum {
    F1 = 0,  /* tip U */
    F2 = 1,  /* edge UL */
    F3 = 2,  /* axial U */
    F4 = 3,  /* edge UR */
    F9 = 8,  /* tip R */
    L4 = 12, /* axial U */
    L5 = 13, /* tip U */
    L8 = 16, /* edge UL */
    R1 = 18, /* tip U */
    R2 = 19, /* axial U */
    R6 = 23, /* edge UR */
    R8 = 25, /* edge RB */
    D1 = 27, /* tip L */
    D3 = 29, /* edge LR */
};

static void
format(const pz_puzzle_t *p, const pz_state_t *s, char buf[37])
{
    ck_assert_int_eq(puzzle_format_state(p, s, buf, 37), 36);
}

/* Tips that need a tip turn: relative tip bytes 10..13 non-zero. This is
 * the documented encoding; that every such tip costs exactly one move is
 * what the distribution's convolution with (1 + 2x)^4 says. */
static int
tip_moves(const pz_state_t *s)
{
    int n = 0;

    for (int i = 10; i < 14; i++) {
        n += s->b[i] != 0;
    }
    return n;
}

/* n uniformly random moves (any of the 16 each time). The shared
 * puzzle_random_moves follows the pruning rules, under which nothing may
 * follow b or b' (tip turns come last, in vertex order), so it cannot draw
 * long pyraminx walks. */
static void
random_walk(pz_rng_t *rng, int n, uint8_t *moves)
{
    for (int i = 0; i < n; i++) {
        moves[i] = (uint8_t)pz_rand_below(pz_rng_next, rng, 16);
    }
}

/* --- Distance table of the tipless puzzle (unchecked fixture) ----------- */

static uint8_t *dist;
static uint64_t counts[32];
static int deepest;
static long bad_states; /* generated states that failed the rank checks */

static void
tables_setup(void)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    uint32_t *queue = malloc(NTIPLESS * sizeof(*queue));
    size_t head = 0;
    size_t tail = 0;
    pz_state_t goal;

    dist = malloc(NTIPLESS);
    memset(dist, 255, NTIPLESS);
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

        puzzle_unrank(p, r, &s);
        /* Vertex moves only (ids 0..7). Plain checks: Check assertions in
         * a hot loop cost a pipe write each. */
        for (int m = 0; m < 8; m++) {
            pz_state_t t;
            pz_state_t back;
            uint64_t tr;

            puzzle_apply(p, &s, m, &t);
            tr = puzzle_rank(p, &t);
            if (tr >= NTIPLESS) {
                bad_states++;
                continue;
            }
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
tables_teardown(void)
{
    free(dist);
    dist = NULL;
}

/* Optimal distance of s to the solved state. */
static int
distance(const pz_puzzle_t *p, const pz_state_t *s)
{
    return dist[puzzle_rank(p, s)] + tip_moves(s);
}

/* --- init ---------------------------------------------------------------- */

START_TEST(test_pyraminx_init_default_is_moves)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);

    ck_assert_int_eq(p->nmoves, 16);
    ck_assert_int_eq(p->metric, PZ_METRIC_MOVES);
    ck_assert_str_eq(p->metric_name, "moves");
    ck_assert_uint_le(p->state_size, 16);
    ck_assert_str_eq(p->ops->default_heuristic, "pieces");
    ck_assert(puzzle_rank_partial(p));
    ck_assert_uint_eq(puzzle_rank_count(p), NTIPLESS);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_init_cube_metrics_rejected)
{
    for (int metric = PZ_METRIC_HTM; metric <= PZ_METRIC_QTM; metric++) {
        pz_params_t prm = { 0, 0, metric };
        pz_puzzle_t *p = NULL;
        pz_diag_t d;

        pz_diag_clear(&d);
        ck_assert_int_eq(puzzle_create("pyraminx", &prm, &p, &d), PZ_EMETRIC);
        ck_assert_ptr_null(p);
    }
}
END_TEST

START_TEST(test_pyraminx_init_size_rejected)
{
    pz_params_t prm = { 3, 3, 0 };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_create("pyraminx", &prm, &p, &d), PZ_ESIZE);
    ck_assert_ptr_null(p);
}
END_TEST

/* --- breadth-first searches against the published distributions ------- */

START_TEST(test_pyraminx_apply_bfs_tipless_distribution)
{
    static const uint64_t expect[] = {
        1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32,
    };
    uint64_t total = 0;

    ck_assert_int_eq(bad_states, 0);
    ck_assert_int_eq(deepest, 11);
    for (int i = 0; i <= 11; i++) {
        ck_assert_uint_eq(counts[i], expect[i]);
        total += counts[i];
    }
    ck_assert_uint_eq(total, NTIPLESS);
}
END_TEST

START_TEST(test_pyraminx_rank_round_trip_every_index)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    long bad = 0;
    static const uint8_t zero[PZ_STATE_MAX];

    for (uint32_t i = 0; i < NTIPLESS; i++) {
        pz_state_t s;

        memset(&s, 0xAA, sizeof(s));
        puzzle_unrank(p, i, &s);
        /* The representative has its tips aligned and a zero tail. */
        bad += puzzle_rank(p, &s) != i || tip_moves(&s) != 0 ||
               memcmp(s.b + p->state_size, zero,
                      PZ_STATE_MAX - p->state_size) != 0;
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_rank_ignores_tips)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "R U L' B");
    pz_state_t t = s;

    puzzle_apply(p, &t, M_TU, &t);
    puzzle_apply(p, &t, M_TBI, &t);
    ck_assert(!puzzle_equal(p, &s, &t));
    ck_assert_uint_eq(puzzle_rank(p, &s), puzzle_rank(p, &t));
    puzzle_destroy(p);
}
END_TEST

/* Open-addressing set of 14-byte states for the with-tips search. */
typedef struct stset {
    uint8_t (*keys)[16];
    uint8_t *used;
    size_t cap;
} stset_t;

static bool
stset_add(stset_t *h, const pz_state_t *s)
{
    size_t i = (size_t)state_hash_bytes(s->b, 14) & (h->cap - 1);

    while (h->used[i]) {
        if (memcmp(h->keys[i], s->b, 16) == 0) {
            return false;
        }
        i = (i + 1) & (h->cap - 1);
    }
    h->used[i] = 1;
    memcpy(h->keys[i], s->b, 16);
    return true;
}

START_TEST(test_pyraminx_apply_bfs_with_tips_to_depth_6)
{
    static const uint64_t expect[] = { 1, 16, 136, 896, 5456, 32296, 182432 };
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    stset_t set = { NULL, NULL, (size_t)1 << 19 };
    pz_state_t *layer = malloc(200000 * sizeof(*layer));
    pz_state_t *next = malloc(200000 * sizeof(*next));
    size_t n = 1;

    set.keys = calloc(set.cap, sizeof(*set.keys));
    set.used = calloc(set.cap, 1);
    puzzle_goal(p, &layer[0]);
    stset_add(&set, &layer[0]);
    for (int depth = 1; depth <= 6; depth++) {
        size_t m = 0;

        for (size_t i = 0; i < n; i++) {
            for (int mv = 0; mv < 16; mv++) {
                pz_state_t t;

                puzzle_apply(p, &layer[i], mv, &t);
                if (stset_add(&set, &t) && m < 200000) {
                    next[m++] = t;
                }
            }
        }
        ck_assert_uint_eq(m, expect[depth]);
        memcpy(layer, next, m * sizeof(*layer));
        n = m;
    }
    free(set.keys);
    free(set.used);
    free(layer);
    free(next);
    puzzle_destroy(p);
}
END_TEST

/* --- heuristics ------------------------------------------------------------
 */

START_TEST(test_pyraminx_pieces_admissible_every_state)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t goal;
    pz_heuristic_t *h;
    pz_rng_t rng;
    long bad = 0;
    int hmax = 0;

    puzzle_goal(p, &goal);
    h = tl_heuristic(p, "pieces", &goal);
    ck_assert(heuristic_admissible(h));
    pz_rng_seed(&rng, 21);
    for (uint32_t i = 0; i < NTIPLESS; i++) {
        pz_state_t s;
        int v;

        /* Every tipless state, with random tips: the exact distance is the
         * tipless distance plus one move per misaligned tip. */
        puzzle_unrank(p, i, &s);
        for (int t = 10; t < 14; t++) {
            s.b[t] = (uint8_t)pz_rand_below(pz_rng_next, &rng, 3);
        }
        v = heuristic_eval(h, &s);
        bad += v > dist[i] + tip_moves(&s);
        hmax = v > hmax ? v : hmax;
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_ge(hmax, 6);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_pieces_one_move_is_one)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t goal;
    pz_heuristic_t *h;

    puzzle_goal(p, &goal);
    h = tl_heuristic(p, "pieces", &goal);
    ck_assert_int_eq(heuristic_eval(h, &goal), 0);
    for (int m = 0; m < 16; m++) {
        pz_state_t s;

        puzzle_apply(p, &goal, m, &s);
        ck_assert_int_eq(heuristic_eval(h, &s), 1);
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_pieces_admissible_custom_goal)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_rng_t rng;
    pz_state_t goal;
    pz_heuristic_t *h;
    long bad = 0;

    /* Distances to a custom goal g: d(s, g) = d(g^-1 s, solved) is not
     * available directly, but any path of length n from g bounds the
     * distance of its end by n, and h must stay <= that bound. */
    pz_rng_seed(&rng, 8);
    puzzle_random_state(p, pz_rng_next, &rng, &goal);
    h = tl_heuristic(p, "pieces", &goal);
    for (int i = 0; i < 20000; i++) {
        pz_state_t s = goal;
        int n = (int)pz_rand_below(pz_rng_next, &rng, 9);

        for (int k = 0; k < n; k++) {
            puzzle_apply(p, &s, (int)pz_rand_below(pz_rng_next, &rng, 16), &s);
        }
        bad += heuristic_eval(h, &s) > n;
    }
    ck_assert_int_eq(bad, 0);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_seed_inadmissible_counterexample)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t goal;
    pz_state_t s;
    pz_heuristic_t *h;

    puzzle_goal(p, &goal);
    h = tl_heuristic(p, "seed", &goal);
    ck_assert(!heuristic_admissible(h));
    /* U from solved: one move away (8 states at depth 1), yet
     * it moves 3 edges (ceil(3/3) = 1), twists the U centre (1) and the U
     * tip (1): seed says 3. */
    s = tl_scrambled(p, "U");
    ck_assert_int_eq(dist[puzzle_rank(p, &s)], 1);
    ck_assert_int_eq(heuristic_eval(h, &s), 3);
    ck_assert_int_eq(heuristic_eval(h, &goal), 0);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* --- engines ------------------------------------------------------------- */

START_TEST(test_pyraminx_engines_agree_on_scrambles)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_rng_t rng;
    pz_state_t goal;

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 3);
    for (int trial = 0; trial < 12; trial++) {
        uint8_t moves[12];
        int n = 1 + trial % 9;
        pz_state_t s;
        int want;
        int wa;

        random_walk(&rng, n, moves);
        puzzle_replay(p, &goal, moves, n, &s);
        want = distance(p, &s);
        ck_assert_int_le(want, n);
        ck_assert_int_eq(
            tl_solve(p, &s, NULL, "astar", "pieces", 1, NULL).length, want);
        ck_assert_int_eq(tl_solve(p, &s, NULL, "bibfs", "none", 1, NULL).length,
                         want);
        ck_assert_int_eq(
            tl_solve(p, &s, NULL, "idastar", "pieces", 1, NULL).length, want);
        wa = tl_solve_weighted(p, &s, NULL, "wastar", "pieces", 1.5).length;
        ck_assert_int_ge(wa, want);
        ck_assert_int_le(wa * 2, want * 3);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_engines_random_states_optimal)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_rng_t rng;

    /* Uniform random states are mostly 8-12 vertex moves plus tips. */
    pz_rng_seed(&rng, 4);
    for (int trial = 0; trial < 3; trial++) {
        pz_state_t s;
        int want;

        puzzle_random_state(p, pz_rng_next, &rng, &s);
        want = distance(p, &s);
        ck_assert_int_eq(tl_solve(p, &s, NULL, "bibfs", "none", 1, NULL).length,
                         want);
        ck_assert_int_eq(
            tl_solve(p, &s, NULL, "astar", "pieces", 1, NULL).length, want);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_engines_solution_lists_tips_last)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "u R b' L l");
    pz_solution_t sol = tl_solve(p, &s, NULL, "idastar", "pieces", 1, NULL);
    char text[64];

    ck_assert_int_eq(sol.length, 5);
    ck_assert_int_ge(puzzle_format_moves(p, sol.moves, 5, text, sizeof(text)),
                     0);
    /* L' R' then the tips in vertex order, lower case. */
    ck_assert_str_eq(text, "L' R' u' l' b");
    puzzle_destroy(p);
}
END_TEST

/* --- apply, inverse, redundant ------------------------------------------- */

START_TEST(test_pyraminx_apply_three_turns_are_identity)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "R U' B l L r'");

    for (int m = 0; m < 16; m++) {
        pz_state_t t = s;

        puzzle_apply(p, &t, m, &t);
        ck_assert(!puzzle_equal(p, &s, &t));
        puzzle_apply(p, &t, m, &t);
        ck_assert(!puzzle_equal(p, &s, &t));
        puzzle_apply(p, &t, m, &t);
        ck_assert(puzzle_equal(p, &s, &t));
        puzzle_apply(p, &t, puzzle_inverse(p, m), &t);
        puzzle_apply(p, &t, m, &t);
        ck_assert(puzzle_equal(p, &s, &t));
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_apply_tip_turns_commute_with_all)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "B' L R' U b");

    for (int tip = 8; tip < 16; tip++) {
        for (int m = 0; m < 16; m++) {
            pz_state_t a;
            pz_state_t b;

            puzzle_apply(p, &s, tip, &a);
            puzzle_apply(p, &a, m, &a);
            puzzle_apply(p, &s, m, &b);
            puzzle_apply(p, &b, tip, &b);
            ck_assert(puzzle_equal(p, &a, &b));
        }
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_redundant_tips_last_in_order)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);

    for (int a = 0; a < 16; a++) {
        for (int b = 0; b < 16; b++) {
            bool allowed = puzzle_allowed_after(p, a) >> b & 1;
            bool want;

            if (a < 8) {
                /* After a vertex turn: anything but the same vertex. */
                want = b >= 8 || b / 2 != a / 2;
            } else {
                /* After a tip turn: only tips of later vertices. */
                want = b >= 8 && b / 2 > a / 2;
            }
            ck_assert_msg(allowed == want, "%s then %s", puzzle_move_name(p, a),
                          puzzle_move_name(p, b));
        }
    }
    ck_assert_uint_eq(puzzle_allowed_after(p, -1), 0xffffu);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_move_name_wca_notation)
{
    static const char *names[] = {
        "U", "U'", "L", "L'", "R", "R'", "B", "B'",
        "u", "u'", "l", "l'", "r", "r'", "b", "b'",
    };
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);

    for (int m = 0; m < 16; m++) {
        ck_assert_str_eq(puzzle_move_name(p, m), names[m]);
        ck_assert_int_eq(puzzle_inverse(p, puzzle_inverse(p, m)), m);
        ck_assert_int_ne(puzzle_inverse(p, m), m);
    }
    ck_assert_str_eq(puzzle_move_name(p, 16), "?");
    puzzle_destroy(p);
}
END_TEST

/* --- format_state: what a physical puzzle shows --------------------------- */

START_TEST(test_pyraminx_format_state_goal_and_small_buffer)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t goal;
    char buf[37];

    puzzle_goal(p, &goal);
    format(p, &goal, buf);
    ck_assert_str_eq(buf, SOLVED);
    ck_assert_int_eq(puzzle_format_state(p, &goal, buf, 36), PZ_EINVAL);
    puzzle_destroy(p);
}
END_TEST

/*
 * U, clockwise seen from above: as a cube's U, the front takes what was on
 * the right, the left takes the front's, the right takes the left's. The U
 * layer is F1-F4 on F, L3 L4 L5 L8 on L (its top right corner is U) and R1
 * R2 R3 R6 on R (top left corner U).
 */
START_TEST(test_pyraminx_format_state_u_turn)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "U");
    char buf[37];

    format(p, &s, buf);
    ck_assert_str_eq(buf, "RRRRFFFFF"
                          "LLFFFLLFL"
                          "LLLRRLRRR"
                          "DDDDDDDDD");
    puzzle_destroy(p);
}
END_TEST

/*
 * L, clockwise seen from the L vertex (front, left, low): from there the
 * left face is up and to the left, F up and to the right, D below, so
 * clockwise carries F to D, D to the left face and the left face to F.
 * The L layer is F2 F5 F6 F7, L6 L7 L8 L9 (bottom corner L) and D1 D2 D3
 * D6 (top left corner L).
 */
START_TEST(test_pyraminx_format_state_l_turn)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "L");
    char buf[37];

    format(p, &s, buf);
    ck_assert_str_eq(buf, "FLFFLLLFF"
                          "LLLLLDDDD"
                          "RRRRRRRRR"
                          "FFFDDFDDD");
    puzzle_destroy(p);
}
END_TEST

/*
 * R, clockwise seen from the R vertex (front, right, low): the mirror
 * image of L's view, so F is up and to the left, the right face up and to
 * the right, D below; clockwise carries F to the right face, the right
 * face to D and D to F. The R layer is F4 F7 F8 F9, R6 R7 R8 R9 (bottom
 * corner R) and D3 D4 D5 D8 (top right corner R).
 */
START_TEST(test_pyraminx_format_state_r_turn)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "R");
    char buf[37];

    format(p, &s, buf);
    ck_assert_str_eq(buf, "FFFDFFDDD"
                          "LLLLLLLLL"
                          "RRRRRFFFF"
                          "DDRRRDDRD");
    puzzle_destroy(p);
}
END_TEST

/*
 * B, clockwise seen from behind and below the back: the left face is on
 * the right of that view and the right face on the left (seen from
 * behind, left and right swap), D below; clockwise carries the left face
 * to D, D to the right face and the right face to the left face. The B
 * layer is L1 L2 L3 L6 (top left corner B), R3 R4 R5 R8 (top right corner
 * B) and D6 D7 D8 D9 (bottom corner B).
 */
START_TEST(test_pyraminx_format_state_b_turn)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "B");
    char buf[37];

    format(p, &s, buf);
    ck_assert_str_eq(buf, "FFFFFFFFF"
                          "RRRLLRLLL"
                          "RRDDDRRDR"
                          "DDDDDLLLL");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_format_state_tip_turn_moves_three_stickers)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "u");
    char buf[37];

    /* The U tip alone, the same way as U: F1 shows R, L5 shows F, R1
     * shows L. */
    format(p, &s, buf);
    ck_assert_str_eq(buf, "RFFFFFFFF"
                          "LLLLFLLLL"
                          "LRRRRRRRR"
                          "DDDDDDDDD");
    puzzle_destroy(p);
}
END_TEST

/* --- parse_state ---------------------------------------------------------- */

START_TEST(test_pyraminx_parse_state_solved_is_goal)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t s;
    pz_state_t goal;
    pz_diag_t d;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(tl_parse_text(p, SOLVED, &s, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &s, &goal));
    /* Whitespace between faces is ignored. */
    ck_assert_int_eq(
        tl_parse_text(p, "FFFFFFFFF LLLLLLLLL\nRRRRRRRRR DDDDDDDDD", &s, &d),
        PZ_OK);
    ck_assert(puzzle_equal(p, &s, &goal));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_any_colour_scheme)
{
    static const int perms[24][4] = {
        { 0, 1, 2, 3 }, { 0, 1, 3, 2 }, { 0, 2, 1, 3 }, { 0, 2, 3, 1 },
        { 0, 3, 1, 2 }, { 0, 3, 2, 1 }, { 1, 0, 2, 3 }, { 1, 0, 3, 2 },
        { 1, 2, 0, 3 }, { 1, 2, 3, 0 }, { 1, 3, 0, 2 }, { 1, 3, 2, 0 },
        { 2, 0, 1, 3 }, { 2, 0, 3, 1 }, { 2, 1, 0, 3 }, { 2, 1, 3, 0 },
        { 2, 3, 0, 1 }, { 2, 3, 1, 0 }, { 3, 0, 1, 2 }, { 3, 0, 2, 1 },
        { 3, 1, 0, 2 }, { 3, 1, 2, 0 }, { 3, 2, 0, 1 }, { 3, 2, 1, 0 },
    };
    static const char colours[] = "YGBR";
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t want = tl_scrambled(p, "R U' b L");
    char buf[37];

    /* The same picture in any four colours on any faces is the same
     * state: the centres tell which colour is which face. */
    format(p, &want, buf);
    for (int k = 0; k < 24; k++) {
        char text[37];
        int ints[36];
        pz_state_t s;
        pz_diag_t d;

        for (int i = 0; i < 36; i++) {
            int f = (int)(strchr("FLRD", buf[i]) - "FLRD");

            text[i] = colours[perms[k][f]];
            ints[i] = 10 * perms[k][f] - 7;
        }
        text[36] = '\0';
        ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_OK);
        ck_assert(puzzle_equal(p, &s, &want));
        ck_assert_int_eq(tl_parse_ints(p, ints, 36, &s, &d), PZ_OK);
        ck_assert(puzzle_equal(p, &s, &want));
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_twists_are_free)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;
    pz_state_t s;
    pz_diag_t d;
    char c;

    /* Twist the U centre alone (F3 -> L4 -> R2): legal, as is any twist
     * of any tip or centre. */
    c = text[R2];
    text[R2] = text[L4];
    text[L4] = text[F3];
    text[F3] = c;
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_OK);
    /* The U tip now lags its centre by a twist: one tip turn is part of
     * any solution. */
    ck_assert_int_eq(tip_moves(&s), 1);
    puzzle_destroy(p);
}
END_TEST

/* Swaps two stickers of text. */
static void
swap(char *text, int a, int b)
{
    char c = text[a];

    text[a] = text[b];
    text[b] = c;
}

/* Parses text and expects code rc with a detail containing needle. */
static void
expect_error(const pz_puzzle_t *p, const char *text, int rc, const char *needle)
{
    pz_state_t s;
    pz_diag_t d;

    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), rc);
    ck_assert_int_eq(d.rc, rc);
    ck_assert_msg(strstr(d.detail, needle) != NULL, "detail '%s' lacks '%s'",
                  d.detail, needle);
}

START_TEST(test_pyraminx_parse_state_length_errors)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    int ints[36] = { 0 };
    pz_state_t s;
    pz_diag_t d;

    expect_error(p, "FFFFFFFFFLLLLLLLLLRRRRRRRRRDDDDDDDD", PZ_ESTATE_LENGTH,
                 "35 stickers");
    expect_error(p, SOLVED "D", PZ_ESTATE_LENGTH, "37 stickers");
    ck_assert_int_eq(tl_parse_ints(p, ints, 35, &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_int_eq(tl_parse_ints(p, NULL, 0, &s, &d), PZ_EINVAL);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_bad_symbol)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[40] = SOLVED;

    text[5] = '\x01';
    expect_error(p, text, PZ_ESTATE_SYMBOL, "character 5");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_colour_counts)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;

    text[0] = 'L';
    expect_error(p, text, PZ_ECOLOUR_COUNT, "'L' appears 10 times");
    text[0] = 'X';
    expect_error(p, text, PZ_ECOLOUR_COUNT, "5 colours");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_centre_repeated_colour)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;

    /* L4 (an L sticker of the U centre) trades with F1 (F): the centre
     * shows F twice. */
    swap(text, L4, F1);
    expect_error(p, text, PZ_ECORNER,
                 "centre at vertex U (F3, L4, R2 show "
                 "F, F, R)");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_centres_same_piece)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;

    /* The U centre's R sticker becomes D: it then lacks R, as the L
     * centre does. */
    swap(text, R2, D3);
    expect_error(p, text, PZ_EDUPLICATE, "vertices U and L both lack colour R");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_centre_mirrored)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;

    swap(text, F3, L4);
    expect_error(p, text, PZ_ECORNER,
                 "centre at vertex U (F3, L4, R2 show "
                 "L, F, R) has its colours in mirror");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_tip_foreign_colour)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;

    swap(text, F1, D1);
    expect_error(p, text, PZ_ECORNER,
                 "tip at vertex U (F1, L5, R1 show D, "
                 "L, R) has colour D");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_tip_mirrored)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;

    swap(text, F1, L5);
    expect_error(p, text, PZ_ECORNER,
                 "tip at vertex U (F1, L5, R1 show L, "
                 "F, R) has its colours in mirror");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_tip_repeated_colour)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;

    swap(text, L5, F9);
    expect_error(p, text, PZ_ECORNER,
                 "tip at vertex U (F1, L5, R1 show F, "
                 "F, R): a colour repeats");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_edge_repeated_colour)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;

    swap(text, L8, F4);
    expect_error(p, text, PZ_EEDGE, "vertices U and L (F2, L8 show F, F)");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_duplicate_edge)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;

    /* The UL edge shows F and R, as the UR edge does. */
    swap(text, L8, R8);
    expect_error(p, text, PZ_EDUPLICATE,
                 "edge at UR (F4, R6 show F, R) is "
                 "the same piece as the edge at UL");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_flipped_edge)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;

    swap(text, F2, L8);
    expect_error(p, text, PZ_EFLIP, "odd number of edges");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_edge_parity)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;

    /* UL and UR trade places (F2 and F4 are both F). */
    swap(text, L8, R6);
    expect_error(p, text, PZ_EPARITY, "odd permutation");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_parse_state_two_flips_accepted)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    char text[37] = SOLVED;
    pz_state_t s;
    pz_diag_t d;

    swap(text, F2, L8);
    swap(text, F4, R6);
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_OK);
    puzzle_destroy(p);
}
END_TEST

/* --- apply_scramble ----------------------------------------------------------
 */

START_TEST(test_pyraminx_apply_scramble_notation)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t a = tl_scrambled(p, "U U");
    pz_state_t b = tl_scrambled(p, "U'");
    pz_state_t c = tl_scrambled(p, "U2");
    pz_state_t e = tl_scrambled(p, "U\xe2\x80\x99");
    pz_state_t f = tl_scrambled(p, "RUL'");
    pz_state_t g = tl_scrambled(p, "R U L'");
    pz_state_t goal;

    ck_assert(puzzle_equal(p, &a, &b));
    ck_assert(puzzle_equal(p, &a, &c));
    ck_assert(puzzle_equal(p, &a, &e));
    ck_assert(puzzle_equal(p, &f, &g));
    puzzle_goal(p, &goal);
    a = tl_scrambled(p, "  ");
    ck_assert(puzzle_equal(p, &a, &goal));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_pyraminx_apply_scramble_bad_token_position)
{
    static const struct {
        const char *text;
        int position;
    } bad[] = {
        { "U R F", 4 }, { "U Rw", 2 },  { "x", 0 },
        { "U R3", 2 },  { "L'' R", 0 },
    };
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        pz_state_t s;
        pz_diag_t d;

        pz_diag_clear(&d);
        ck_assert_int_eq(puzzle_parse_scramble(p, bad[i].text, &s, &d),
                         PZ_EMOVE);
        ck_assert_int_eq(d.position, bad[i].position);
    }
    puzzle_destroy(p);
}
END_TEST

/* --- random_state ------------------------------------------------------------
 */

START_TEST(test_pyraminx_random_state_round_trips)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_rng_t rng;
    int seen[6][6] = { { 0 } };
    int twist[3] = { 0 };
    const int draws = 12000;

    pz_rng_seed(&rng, 5);
    for (int i = 0; i < draws; i++) {
        pz_state_t s;
        pz_state_t t;
        pz_diag_t d;
        char buf[37];

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &s), PZ_OK);
        format(p, &s, buf);
        ck_assert_int_eq(tl_parse_text(p, buf, &t, &d), PZ_OK);
        ck_assert(puzzle_equal(p, &s, &t));
        for (int e = 0; e < 6; e++) {
            seen[e][s.b[e] / 2]++;
        }
        twist[s.b[13]]++;
    }
    /* Each edge lands on each position 1/6 of the time (2000 expected,
     * 6 standard deviations about 245). */
    for (int e = 0; e < 6; e++) {
        for (int j = 0; j < 6; j++) {
            ck_assert_msg(seen[e][j] > 1750 && seen[e][j] < 2250, "count %d",
                          seen[e][j]);
        }
    }
    for (int k = 0; k < 3; k++) {
        ck_assert_int_gt(twist[k], 3700);
    }
    puzzle_destroy(p);
}
END_TEST

static Suite *
pyraminx_suite(void)
{
    Suite *s = suite_create("pyraminx");
    TCase *tc_init = tcase_create("init");
    TCase *tc_bfs = tcase_create("bfs");
    TCase *tc_apply = tcase_create("apply");
    TCase *tc_format = tcase_create("format_state");
    TCase *tc_parse = tcase_create("parse_state");
    TCase *tc_scramble = tcase_create("apply_scramble");

    tcase_add_test(tc_init, test_pyraminx_init_default_is_moves);
    tcase_add_test(tc_init, test_pyraminx_init_cube_metrics_rejected);
    tcase_add_test(tc_init, test_pyraminx_init_size_rejected);
    suite_add_tcase(s, tc_init);

    tcase_add_unchecked_fixture(tc_bfs, tables_setup, tables_teardown);
    tcase_set_timeout(tc_bfs, 120);
    tcase_add_test(tc_bfs, test_pyraminx_apply_bfs_tipless_distribution);
    tcase_add_test(tc_bfs, test_pyraminx_rank_round_trip_every_index);
    tcase_add_test(tc_bfs, test_pyraminx_rank_ignores_tips);
    tcase_add_test(tc_bfs, test_pyraminx_apply_bfs_with_tips_to_depth_6);
    tcase_add_test(tc_bfs, test_pyraminx_pieces_admissible_every_state);
    tcase_add_test(tc_bfs, test_pyraminx_pieces_one_move_is_one);
    tcase_add_test(tc_bfs, test_pyraminx_pieces_admissible_custom_goal);
    tcase_add_test(tc_bfs, test_pyraminx_seed_inadmissible_counterexample);
    tcase_add_test(tc_bfs, test_pyraminx_engines_agree_on_scrambles);
    tcase_add_test(tc_bfs, test_pyraminx_engines_random_states_optimal);
    tcase_add_test(tc_bfs, test_pyraminx_engines_solution_lists_tips_last);
    suite_add_tcase(s, tc_bfs);

    tcase_add_test(tc_apply, test_pyraminx_apply_three_turns_are_identity);
    tcase_add_test(tc_apply, test_pyraminx_apply_tip_turns_commute_with_all);
    tcase_add_test(tc_apply, test_pyraminx_redundant_tips_last_in_order);
    tcase_add_test(tc_apply, test_pyraminx_move_name_wca_notation);
    suite_add_tcase(s, tc_apply);

    tcase_add_test(tc_format, test_pyraminx_format_state_goal_and_small_buffer);
    tcase_add_test(tc_format, test_pyraminx_format_state_u_turn);
    tcase_add_test(tc_format, test_pyraminx_format_state_l_turn);
    tcase_add_test(tc_format, test_pyraminx_format_state_r_turn);
    tcase_add_test(tc_format, test_pyraminx_format_state_b_turn);
    tcase_add_test(tc_format,
                   test_pyraminx_format_state_tip_turn_moves_three_stickers);
    tcase_add_test(tc_format, test_pyraminx_random_state_round_trips);
    suite_add_tcase(s, tc_format);

    tcase_add_test(tc_parse, test_pyraminx_parse_state_solved_is_goal);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_any_colour_scheme);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_twists_are_free);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_length_errors);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_bad_symbol);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_colour_counts);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_centre_repeated_colour);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_centres_same_piece);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_centre_mirrored);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_tip_foreign_colour);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_tip_mirrored);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_tip_repeated_colour);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_edge_repeated_colour);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_duplicate_edge);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_flipped_edge);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_edge_parity);
    tcase_add_test(tc_parse, test_pyraminx_parse_state_two_flips_accepted);
    suite_add_tcase(s, tc_parse);

    tcase_add_test(tc_scramble, test_pyraminx_apply_scramble_notation);
    tcase_add_test(tc_scramble,
                   test_pyraminx_apply_scramble_bad_token_position);
    suite_add_tcase(s, tc_scramble);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(pyraminx_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
