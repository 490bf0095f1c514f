/* SPDX-License-Identifier: MIT */
/* test_mpyraminx.c - the Master Pyraminx against published counts and its
 * documented layout. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "heuristic.h"
#include "puzzle.h"
#include "testlib.h"

/*
 * Golden facts: independent depth counts (a breadth-first search outside
 * this project with the 32-move set), and the geometry of a side-4 triangle
 * (row r of a face holds 2r + 1 stickers). Sticker positions come from the
 * documented facelet order (docs/master-pyraminx.md): faces F L R D, 16
 * stickers each, rows read from the face's top vertex, sticker k of row r
 * at 16 * face + r * r + k. Faces as (top, bottom-left, bottom-right)
 * vertex: F = U L R, L = U B L, R = U R B, D = B R L.
 */

#define SOLVED \
    "FFFFFFFFFFFFFFFFLLLLLLLLLLLLLLLLRRRRRRRRRRRRRRRRDDDDDDDDDDDDDDDD"

enum {
    F_F = 0,
    F_L,
    F_R,
    F_D
};

/* Index of sticker k of row r on face f. */
static int
at(int f, int r, int k)
{
    return 16 * f + r * r + k;
}

/* Move ids: vertex (U L R B) * 8 + kind (tip, 2nd, 3rd, 3-layer block) * 2
 * + (0 clockwise, 1 anticlockwise). */
static int
mv(int vertex, int kind, int anti)
{
    return vertex * 8 + kind * 2 + anti;
}

static void
format(const pz_puzzle_t *p, const pz_state_t *s, char buf[65])
{
    ck_assert_int_eq(puzzle_format_state(p, s, buf, 65), 64);
}

/* Solved text with stickers a and b exchanged. */
static void
swapped(char text[65], int a, int b)
{
    char t;

    memcpy(text, SOLVED, 65);
    t = text[a];
    text[a] = text[b];
    text[b] = t;
}

/* Parses text, expecting code rc; returns the detail for more checks. */
static void
expect_code(const pz_puzzle_t *p, const char *text, int rc, pz_diag_t *d)
{
    pz_state_t s;
    int got = tl_parse_text(p, text, &s, d);

    ck_assert_msg(got == rc, "got %s (%s), want %s", pz_strerror(got),
                  d->detail, pz_strerror(rc));
}

/* --- A set of 16-byte states for breadth-first searches -------------- */

typedef struct entry {
    uint64_t w[2];
    uint64_t mask; /* pruned search: moves allowed from this state */
} entry_t;

typedef struct set {
    entry_t *e;
    size_t cap; /* power of two */
} set_t;

/* Finds s, inserting it when absent; *fresh tells which. The goal-free
 * key 0 marks an empty slot (no state packs to all zero: the goal has
 * every colour). */
static entry_t *
set_find(set_t *t, const pz_state_t *s, int *fresh)
{
    uint64_t w[2];
    size_t h;

    memcpy(w, s->b, 16);
    h = state_hash_bytes(s->b, 16) & (t->cap - 1);
    while (t->e[h].w[0] != 0 || t->e[h].w[1] != 0) {
        if (t->e[h].w[0] == w[0] && t->e[h].w[1] == w[1]) {
            *fresh = 0;
            return &t->e[h];
        }
        h = (h + 1) & (t->cap - 1);
    }
    t->e[h].w[0] = w[0];
    t->e[h].w[1] = w[1];
    *fresh = 1;
    return &t->e[h];
}

/* Results of one breadth-first search from solved. */
typedef struct bfs_result {
    uint64_t counts[8];
    uint64_t seed_max_over; /* states where seed-max > depth */
    uint64_t pieces_over;   /* states where pieces > depth */
    uint64_t seed_over;     /* states where seed > depth */
    int seed_worst_depth;   /* a depth where seed overestimated, or -1 */
    int seed_worst_h;
} bfs_result_t;

/* The mask field holds the moves allowed from a state in its low 32 bits
 * and the depth it was found at from bit 56. */
#define DEPTH_SHIFT 56
#define MOVE_BITS   UINT64_C(0xffffffff)

/*
 * Counts states by depth up to max_depth. With pruned set, only moves in
 * the state's mask are expanded, the mask being the union of
 * allowed_after over every move that reached it at its own depth (a state
 * can be reached by several last moves). Checks both heuristics on every
 * state found. Plain checks only: Check assertions in hot loops are slow.
 */
static void
bfs(const pz_puzzle_t *p, int max_depth, int pruned, bfs_result_t *r)
{
    set_t t = { NULL, (size_t)1 << 23 };
    pz_state_t goal;
    pz_state_t *cur;
    pz_state_t *next;
    entry_t **cur_e;
    entry_t **next_e;
    size_t ncur = 1;
    size_t layer_cap = 250000;
    pz_heuristic_t *hmax = NULL;
    pz_heuristic_t *hsum = NULL;
    pz_heuristic_t *hpieces = NULL;
    pz_diag_t d;
    int fresh;

    memset(r, 0, sizeof(*r));
    r->seed_worst_depth = -1;
    t.e = calloc(t.cap, sizeof(entry_t));
    cur = malloc(layer_cap * sizeof(*cur));
    next = malloc(layer_cap * sizeof(*next));
    cur_e = malloc(layer_cap * sizeof(*cur_e));
    next_e = malloc(layer_cap * sizeof(*next_e));
    ck_assert(t.e != NULL && cur != NULL && next != NULL && cur_e != NULL &&
              next_e != NULL);
    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "seed-max", &goal, &hmax, &d), 0);
    ck_assert_int_eq(heuristic_create(p, "seed", &goal, &hsum, &d), 0);
    ck_assert_int_eq(heuristic_create(p, "pieces", &goal, &hpieces, &d), 0);
    cur[0] = goal;
    cur_e[0] = set_find(&t, &goal, &fresh);
    cur_e[0]->mask = puzzle_allowed_after(p, -1);
    r->counts[0] = 1;
    for (uint64_t depth = 1; depth <= (uint64_t)max_depth; depth++) {
        size_t nnext = 0;

        for (size_t i = 0; i < ncur; i++) {
            uint64_t mask = pruned ? cur_e[i]->mask & MOVE_BITS : MOVE_BITS;

            for (int m = 0; m < p->nmoves; m++) {
                pz_state_t s;
                entry_t *e;

                if (!(mask >> m & 1)) {
                    continue;
                }
                puzzle_apply(p, &cur[i], m, &s);
                e = set_find(&t, &s, &fresh);
                if (!fresh) {
                    /* Found before: at this depth, another last move. */
                    if (e->mask >> DEPTH_SHIFT == depth) {
                        e->mask |= puzzle_allowed_after(p, m);
                    }
                    continue;
                }
                e->mask = depth << DEPTH_SHIFT | puzzle_allowed_after(p, m);
                r->counts[depth]++;
                /* The pruned search finds the same states: the plain one
                 * checks the heuristics on them. */
                if (!pruned) {
                    int hs = heuristic_eval(hsum, &s);

                    r->seed_max_over += heuristic_eval(hmax, &s) > (int)depth;
                    r->pieces_over += heuristic_eval(hpieces, &s) > (int)depth;
                    if (hs > (int)depth) {
                        r->seed_over++;
                        r->seed_worst_depth = (int)depth;
                        r->seed_worst_h = hs;
                    }
                }
                if (depth < (uint64_t)max_depth && nnext < layer_cap) {
                    next[nnext] = s;
                    next_e[nnext++] = e;
                }
            }
        }
        {
            pz_state_t *ts = cur;
            entry_t **te = cur_e;

            cur = next;
            next = ts;
            cur_e = next_e;
            next_e = te;
        }
        ncur = nnext;
    }
    heuristic_destroy(hmax);
    heuristic_destroy(hsum);
    heuristic_destroy(hpieces);
    free(t.e);
    free(cur);
    free(next);
    free(cur_e);
    free(next_e);
}

/* Master Pyraminx: positions at depth 0..6 with this move set, from an
 * independent breadth-first search. */
static const uint64_t published[] = {
    1, 32, 648, 11536, 198736, 3384496, 57225352,
};

/* One plain and one pruned search, shared by the tests of a TCase. */
static bfs_result_t plain;
static bfs_result_t pruned;

static void
bfs_setup(void)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);

    bfs(p, 5, 0, &plain);
    bfs(p, 5, 1, &pruned);
    puzzle_destroy(p);
}

/* --- init ------------------------------------------------------------ */

START_TEST(test_mpyraminx_init_shape)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);

    ck_assert_int_eq(p->nmoves, 32);
    ck_assert_uint_eq(p->state_size, 16);
    ck_assert_str_eq(p->metric_name, "moves");
    ck_assert_str_eq(p->id, "master-pyraminx");
    ck_assert_str_eq(p->ops->default_heuristic, "pieces");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_init_alias_resolves)
{
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    ck_assert_int_eq(puzzle_create("mpyraminx", NULL, &p, &d), PZ_OK);
    ck_assert_str_eq(p->id, "master-pyraminx");
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_init_size_and_metric_rejected)
{
    pz_params_t size = { 3, 3, 0 };
    pz_params_t htm = { 0, 0, PZ_METRIC_HTM };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(puzzle_create("master-pyraminx", &size, &p, &d), PZ_ESIZE);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(puzzle_create("master-pyraminx", &htm, &p, &d),
                     PZ_EMETRIC);
    ck_assert_ptr_null(p);
}
END_TEST

/* --- apply ----------------------------------------------------------- */

START_TEST(test_mpyraminx_apply_bfs_matches_published_counts)
{
    for (int depth = 0; depth <= 5; depth++) {
        ck_assert_msg(plain.counts[depth] == published[depth],
                      "depth %d: %llu states, published %llu", depth,
                      (unsigned long long)plain.counts[depth],
                      (unsigned long long)published[depth]);
    }
}
END_TEST

/* A side-4 face has rows of 1, 3, 5 and 7 stickers; the layers nearest a
 * vertex show one row on each of its three faces, and from solved every
 * carried sticker lands on another face. */
START_TEST(test_mpyraminx_apply_moves_one_row_per_face)
{
    static const int carried[4] = { 3, 9, 15, 3 * (1 + 3 + 5) };
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t goal;

    puzzle_goal(p, &goal);
    for (int m = 0; m < 32; m++) {
        pz_state_t s;
        char a[65];
        char b[65];
        int changed = 0;

        ck_assert(puzzle_apply(p, &goal, m, &s));
        format(p, &goal, a);
        format(p, &s, b);
        for (int i = 0; i < 64; i++) {
            changed += a[i] != b[i];
        }
        ck_assert_msg(changed == carried[m / 2 % 4], "move %s changed %d",
                      puzzle_move_name(p, m), changed);
    }
    puzzle_destroy(p);
}
END_TEST

/* u is clockwise seen from above, as U on a cube: the front face's top
 * sticker goes to the left face, the right face's to the front. */
START_TEST(test_mpyraminx_apply_u_turns_clockwise_from_above)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "u");
    char buf[65];

    format(p, &s, buf);
    ck_assert_int_eq(buf[at(F_L, 0, 0)], 'F');
    ck_assert_int_eq(buf[at(F_F, 0, 0)], 'R');
    ck_assert_int_eq(buf[at(F_R, 0, 0)], 'L');
    ck_assert_int_eq(buf[at(F_D, 0, 0)], 'D');
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_apply_three_turns_are_identity)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t start = tl_scrambled(p, "2U 3L' b 3Rw 2B'");
    int bad = 0;

    for (int m = 0; m < 32; m++) {
        pz_state_t s = start;

        for (int k = 0; k < 3; k++) {
            puzzle_apply(p, &s, m, &s);
        }
        bad += !puzzle_equal(p, &s, &start);
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

/* --- inverse and redundant ------------------------------------------- */

/* Pruning must not lose states: the pruned search finds the same number
 * at every depth. */
START_TEST(test_mpyraminx_redundant_pruned_bfs_same_counts)
{
    for (int depth = 0; depth <= 5; depth++) {
        ck_assert_msg(pruned.counts[depth] == published[depth],
                      "depth %d: pruned search found %llu, published %llu",
                      depth, (unsigned long long)pruned.counts[depth],
                      (unsigned long long)published[depth]);
    }
}
END_TEST

/* Every pruned pair is either the same layer twice or a commuting pair,
 * and of a commuting pair only one order is pruned. */
START_TEST(test_mpyraminx_redundant_only_provable_pairs)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t start = tl_scrambled(p, "3Uw 2R' l 3B 2L 3R");
    int bad = 0;
    int pruned_pairs = 0;

    for (int a = 0; a < 32; a++) {
        for (int b = 0; b < 32; b++) {
            pz_state_t ab;
            pz_state_t ba;
            int red = puzzle_redundant(p, a, b);

            if (!red || a / 2 == b / 2) {
                continue;
            }
            pruned_pairs++;
            puzzle_apply(p, &start, a, &ab);
            puzzle_apply(p, &ab, b, &ab);
            puzzle_apply(p, &start, b, &ba);
            puzzle_apply(p, &ba, a, &ba);
            bad += !puzzle_equal(p, &ab, &ba);
            bad += puzzle_redundant(p, b, a);
        }
    }
    ck_assert_int_eq(bad, 0);
    /* At least the layers of one vertex (4 kinds: 6 pairs x 4 directions
     * x 4 vertices) and tips against everything are pruned one way. */
    ck_assert_int_ge(pruned_pairs, 96);
    /* Same vertex, same layer, same direction twice: one move (u u = u'). */
    ck_assert(puzzle_redundant(p, mv(0, 0, 0), mv(0, 0, 0)));
    ck_assert(puzzle_redundant(p, mv(2, 3, 1), mv(2, 3, 1)));
    puzzle_destroy(p);
}
END_TEST

/* --- move_name and apply_scramble ------------------------------------ */

START_TEST(test_mpyraminx_move_name_documented_notation)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);

    ck_assert_str_eq(puzzle_move_name(p, mv(0, 0, 0)), "u");
    ck_assert_str_eq(puzzle_move_name(p, mv(0, 0, 1)), "u'");
    ck_assert_str_eq(puzzle_move_name(p, mv(1, 1, 0)), "2L");
    ck_assert_str_eq(puzzle_move_name(p, mv(2, 2, 1)), "3R'");
    ck_assert_str_eq(puzzle_move_name(p, mv(3, 3, 0)), "3Bw");
    ck_assert_str_eq(puzzle_move_name(p, 32), "?");
    puzzle_destroy(p);
}
END_TEST

/* Extra forms: U is two layers (as on the Pyraminx), nU the n-th layer,
 * nUw the top n layers, 4U the base (the top three the other way, the
 * orientation being fixed), 2 doubles a turn, and the typographic
 * apostrophe is a prime. */
START_TEST(test_mpyraminx_apply_scramble_layer_forms)
{
    static const char *const same[][2] = {
        { "U", "u 2U" },   { "2Uw", "u 2U" },
        { "Uw", "3Uw" },   { "3Uw", "u 2U 3U" },
        { "1U", "u" },     { "1Lw'", "l'" },
        { "4U", "3Uw'" },  { "4B'", "3Bw" },
        { "4Rw", "" },     { "R2", "R'" },
        { "b2'", "b" },    { "L\xe2\x80\x99", "L'" },
        { "UL'", "U L'" }, { "  u\t 2R  ", "u 2R" },
    };
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);

    for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
        pz_state_t a = tl_scrambled(p, same[i][0]);
        pz_state_t b = tl_scrambled(p, same[i][1]);

        ck_assert_msg(puzzle_equal(p, &a, &b), "'%s' != '%s'", same[i][0],
                      same[i][1]);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_apply_scramble_bad_token_position)
{
    static const struct {
        const char *text;
        int position;
    } bad[] = {
        { "u 2U X", 5 }, { "2u", 0 }, { "5U", 0 },  { "u Uww", 2 },
        { "F", 0 },      { "3", 0 },  { "U3'", 1 }, { "2U 3Uw R''", 7 },
    };
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        pz_state_t s;
        pz_diag_t d;

        pz_diag_clear(&d);
        ck_assert_msg(puzzle_parse_scramble(p, bad[i].text, &s, &d) == PZ_EMOVE,
                      "'%s' accepted", bad[i].text);
        ck_assert_msg(d.position == bad[i].position, "'%s': position %d",
                      bad[i].text, d.position);
        ck_assert_ptr_nonnull(strstr(d.detail, "unknown move"));
    }
    puzzle_destroy(p);
}
END_TEST

/* --- parse_state ----------------------------------------------------- */

START_TEST(test_mpyraminx_parse_state_solved_any_symbols)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t goal;
    pz_state_t s;
    pz_diag_t d;
    char text[80];
    int ints[64];

    puzzle_goal(p, &goal);
    ck_assert_int_eq(tl_parse_text(p, SOLVED, &s, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &s, &goal));
    /* Four other symbols, whitespace between faces. */
    snprintf(text, sizeof(text), "%.16s %.16s\n%.16s %.16s", "gggggggggggggggg",
             "rrrrrrrrrrrrrrrr", "bbbbbbbbbbbbbbbb", "yyyyyyyyyyyyyyyy");
    ck_assert_int_eq(tl_parse_text(p, text, &s, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &s, &goal));
    for (int i = 0; i < 64; i++) {
        ints[i] = 40 - 13 * (i / 16);
    }
    ck_assert_int_eq(tl_parse_ints(p, ints, 64, &s, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &s, &goal));
    puzzle_destroy(p);
}
END_TEST

/* A picture of the solved puzzle held another way round is solved: the
 * fixed pieces name the colours. Here the colours are permuted. */
START_TEST(test_mpyraminx_parse_state_relabelled_scramble_same_state)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t want = tl_scrambled(p, "3U 2L' b 3Rw' 2B 3L");
    pz_state_t got;
    pz_diag_t d;
    char text[65];

    format(p, &want, text);
    for (int i = 0; i < 64; i++) {
        text[i] = text[i] == 'F'   ? '1'
                  : text[i] == 'L' ? '2'
                  : text[i] == 'R' ? '3'
                                   : '4';
    }
    ck_assert_int_eq(tl_parse_text(p, text, &got, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &got, &want));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_parse_state_length_errors)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t s;
    pz_diag_t d;
    int ints[65] = { 0 };

    ck_assert_int_eq(tl_parse_text(p, SOLVED "F", &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_ptr_nonnull(strstr(d.detail, "65 stickers"));
    ck_assert_int_eq(tl_parse_text(p, "FFF", &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_int_eq(tl_parse_ints(p, ints, 65, &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_int_eq(tl_parse_ints(p, ints, 63, &s, &d), PZ_ESTATE_LENGTH);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_parse_state_symbol_error)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_diag_t d;
    char text[66];

    memcpy(text, SOLVED, 65);
    text[10] = '\x01';
    expect_code(p, text, PZ_ESTATE_SYMBOL, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "character 10"));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_parse_state_colour_count_errors)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_diag_t d;
    char text[65];

    memcpy(text, SOLVED, 65);
    text[20] = 'F'; /* 17 F, 15 L */
    expect_code(p, text, PZ_ECOLOUR_COUNT, &d);
    ck_assert_str_eq(d.detail, "colour 'F' appears 17 times; each of the 4 "
                               "colours must appear 16 times");
    text[20] = 'X';
    expect_code(p, text, PZ_ECOLOUR_COUNT, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "5 colours ('X' appears 1"));
    puzzle_destroy(p);
}
END_TEST

/* Tip U = F1 L1 R1, axial U = F3 L3 R3 (row 1, middle). */
START_TEST(test_mpyraminx_parse_state_axial_errors)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_diag_t d;
    char text[65];

    /* Axial U shows L, L, R: the L centre's sticker swapped in. */
    swapped(text, at(F_F, 1, 1), at(F_L, 2, 2));
    expect_code(p, text, PZ_ECORNER, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "axial at vertex U"));
    /* Axial U shows D, L, R: it and axial B both lack F. */
    swapped(text, at(F_F, 1, 1), at(F_D, 2, 2));
    expect_code(p, text, PZ_ECORNER, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "both lack colour 'F'"));
    /* Two stickers of axial U exchanged: mirror order. */
    swapped(text, at(F_F, 1, 1), at(F_L, 1, 1));
    expect_code(p, text, PZ_ECORNER, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "axial at vertex U"));
    ck_assert_ptr_nonnull(strstr(d.detail, "mirror"));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_parse_state_tip_errors)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_diag_t d;
    char text[65];

    swapped(text, at(F_F, 0, 0), at(F_L, 0, 0));
    expect_code(p, text, PZ_ECORNER, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "tip at vertex U"));
    ck_assert_ptr_nonnull(strstr(d.detail, "mirror"));
    /* Tip U shows D, which no face at U has. */
    swapped(text, at(F_F, 0, 0), at(F_D, 2, 2));
    expect_code(p, text, PZ_ECORNER, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "tip at vertex U"));
    ck_assert_ptr_nonnull(strstr(d.detail, "axials say"));
    /* Tip U shows F, F, R. */
    swapped(text, at(F_L, 0, 0), at(F_F, 2, 2));
    expect_code(p, text, PZ_ECORNER, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "tip at vertex U"));
    puzzle_destroy(p);
}
END_TEST

/* Centre of a face: row 2, sticker 2. Two centres exchanged are an odd
 * permutation; a centre showing another face's colour twice is a
 * duplicate. */
START_TEST(test_mpyraminx_parse_state_centre_errors)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_diag_t d;
    char text[65];

    swapped(text, at(F_F, 2, 2), at(F_L, 2, 2));
    expect_code(p, text, PZ_EPARITY, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "centres"));
    /* Centre F gets the L sticker of midge U-L (L row 2, sticker 3). */
    swapped(text, at(F_F, 2, 2), at(F_L, 2, 3));
    expect_code(p, text, PZ_EDUPLICATE, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "centre"));
    puzzle_destroy(p);
}
END_TEST

/* Midge U-L = F row 2 sticker 1 and L row 2 sticker 3; midge U-R = F row
 * 2 sticker 3 and R row 2 sticker 1. */
START_TEST(test_mpyraminx_parse_state_midge_errors)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_diag_t d;
    char text[65];

    /* One midge flipped in place. */
    swapped(text, at(F_F, 2, 1), at(F_L, 2, 3));
    expect_code(p, text, PZ_EFLIP, &d);
    /* Midges U-L and U-R exchanged (a transposition). */
    swapped(text, at(F_L, 2, 3), at(F_R, 2, 1));
    expect_code(p, text, PZ_EPARITY, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "midges"));
    /* Midge U-L shows F twice (a wing's F sticker swapped in). */
    swapped(text, at(F_L, 2, 3), at(F_F, 1, 2));
    expect_code(p, text, PZ_EEDGE, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "midge at edge U-L"));
    /* Midge U-R shows F, L: the same midge as U-L. */
    swapped(text, at(F_R, 2, 1), at(F_L, 1, 2));
    expect_code(p, text, PZ_EDUPLICATE, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "midge"));
    puzzle_destroy(p);
}
END_TEST

/* Wings on edge U-L: by U = F row 1 sticker 0 and L row 1 sticker 2; by L
 * = F row 2 sticker 0 and L row 2 sticker 4. A wing cannot flip in place:
 * flipped, it looks like its twin on the same edge. */
START_TEST(test_mpyraminx_parse_state_wing_errors)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_diag_t d;
    char text[65];

    swapped(text, at(F_F, 1, 0), at(F_L, 1, 2));
    expect_code(p, text, PZ_EDUPLICATE, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "wing"));
    /* Both flipped: the twins exchanged, a transposition. */
    swapped(text, at(F_F, 1, 0), at(F_L, 1, 2));
    {
        char t = text[at(F_F, 2, 0)];

        text[at(F_F, 2, 0)] = text[at(F_L, 2, 4)];
        text[at(F_L, 2, 4)] = t;
    }
    expect_code(p, text, PZ_EPARITY, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "wings"));
    /* Wing U-L by U shows F twice. */
    swapped(text, at(F_L, 1, 2), at(F_F, 2, 0));
    expect_code(p, text, PZ_EEDGE, &d);
    ck_assert_ptr_nonnull(strstr(d.detail, "wing at edge U-L"));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_mpyraminx_parse_state_null_input)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t s;
    pz_diag_t d;
    pz_input_t in = { NULL, NULL, 0, 1, { 0, 0, 0 } };

    ck_assert_int_eq(puzzle_parse_state(p, &in, &s, &d), PZ_EINVAL);
    puzzle_destroy(p);
}
END_TEST

/* --- format_state and random_state ----------------------------------- */

START_TEST(test_mpyraminx_format_state_goal_and_small_buffer)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t goal;
    char buf[65];

    puzzle_goal(p, &goal);
    format(p, &goal, buf);
    ck_assert_str_eq(buf, SOLVED);
    ck_assert_int_eq(puzzle_format_state(p, &goal, buf, 64), PZ_EINVAL);
    puzzle_destroy(p);
}
END_TEST

/* Random states and long scrambles are legal: format, parse back, same
 * state. This also checks every claimed invariant (parity, flips) holds
 * on reachable states, and that random_state draws legal ones. */
START_TEST(test_mpyraminx_random_state_round_trips)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_rng_t rng;
    pz_state_t goal;
    int bad = 0;
    int distinct = 0;
    pz_state_t prev;

    pz_rng_seed(&rng, 11);
    puzzle_goal(p, &goal);
    state_clear(&prev);
    for (int trial = 0; trial < 400; trial++) {
        pz_state_t s;
        pz_state_t back;
        pz_diag_t d;
        char text[65];

        if (trial % 2 == 0) {
            ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &s),
                             PZ_OK);
        } else {
            uint8_t moves[60];

            puzzle_random_moves(p, &goal, 60, pz_rng_next, &rng, moves);
            puzzle_replay(p, &goal, moves, 60, &s);
        }
        format(p, &s, text);
        bad += tl_parse_text(p, text, &back, &d) != PZ_OK;
        bad += !puzzle_equal(p, &s, &back);
        distinct += !puzzle_equal(p, &s, &prev);
        prev = s;
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(distinct, 400);
    puzzle_destroy(p);
}
END_TEST

/* Random states are solved by reversing nothing in particular, but their
 * parts are spread out: each tip twist value shows up. */
START_TEST(test_mpyraminx_random_state_twists_vary)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_rng_t rng;
    int seen[3] = { 0, 0, 0 };

    pz_rng_seed(&rng, 5);
    for (int trial = 0; trial < 300; trial++) {
        pz_state_t s;
        char text[65];
        char c;

        puzzle_random_state(p, pz_rng_next, &rng, &s);
        format(p, &s, text);
        /* The tip U sticker on F shows F, L or R by its twist. */
        c = text[at(F_F, 0, 0)];
        seen[c == 'F' ? 0 : c == 'L' ? 1 : 2]++;
    }
    for (int i = 0; i < 3; i++) {
        ck_assert_int_gt(seen[i], 60);
    }
    puzzle_destroy(p);
}
END_TEST

/* --- heuristics ------------------------------------------------------ */

static int
eval_named(const pz_puzzle_t *p, const char *name, const pz_state_t *s)
{
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    pz_diag_t d;
    int v;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, name, &goal, &h, &d), PZ_OK);
    v = heuristic_eval(h, s);
    heuristic_destroy(h);
    return v;
}

/* One 3Uw turn moves a tip, an axial, 3 centres, 3 midges and 6 wings: the
 * sum over kinds says 5 for a position one move away. */
START_TEST(test_mpyraminx_seed_sum_overestimates_block_turn)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "3Uw");
    pz_state_t goal;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(eval_named(p, "seed", &s), 5);
    ck_assert_int_eq(eval_named(p, "seed-max", &s), 1);
    ck_assert_int_eq(eval_named(p, "seed", &goal), 0);
    ck_assert_int_eq(eval_named(p, "seed-max", &goal), 0);
    ck_assert(!heuristic_find(p, "seed")->admissible);
    ck_assert(heuristic_find(p, "seed-max")->admissible);
    ck_assert(heuristic_find(p, "pieces")->admissible);
    puzzle_destroy(p);
}
END_TEST

/* Over every state within 5 moves (3.6 million), seed-max and pieces
 * never exceed the distance, and seed does. */
START_TEST(test_mpyraminx_seed_max_admissible_to_depth_5)
{
    ck_assert_uint_eq(plain.seed_max_over, 0);
    ck_assert_uint_eq(plain.pieces_over, 0);
    ck_assert_uint_gt(plain.seed_over, 0);
    ck_assert_int_gt(plain.seed_worst_h, plain.seed_worst_depth);
}
END_TEST

/* The tip and axial bound: four twisted tips need four turns (one per
 * vertex); a tip and its axial twisted opposite ways need two turns of
 * that vertex; twisted alike, one 3Uw could do it as far as tips and
 * axials go (the third layer then needs another turn, which the bound
 * does not see). */
START_TEST(test_mpyraminx_pieces_counts_vertex_twists)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t a = tl_scrambled(p, "u l r b");
    pz_state_t b = tl_scrambled(p, "u 2U'");
    pz_state_t c = tl_scrambled(p, "u' 2U'");

    ck_assert_int_eq(eval_named(p, "pieces", &a), 4);
    ck_assert_int_eq(eval_named(p, "seed-max", &a), 4);
    ck_assert_int_eq(eval_named(p, "pieces", &b), 2);
    ck_assert_int_eq(eval_named(p, "seed-max", &b), 1);
    ck_assert_int_eq(eval_named(p, "pieces", &c), 1);
    puzzle_destroy(p);
}
END_TEST

/* Against a scrambled goal, a state k moves away gets h <= k. */
START_TEST(test_mpyraminx_seed_max_admissible_custom_goal)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_rng_t rng;
    pz_heuristic_t *h = NULL;
    pz_heuristic_t *hp = NULL;
    pz_state_t goal;
    pz_diag_t d;
    int bad = 0;

    pz_rng_seed(&rng, 3);
    puzzle_random_state(p, pz_rng_next, &rng, &goal);
    ck_assert_int_eq(heuristic_create(p, "seed-max", &goal, &h, &d), PZ_OK);
    ck_assert_int_eq(heuristic_create(p, "pieces", &goal, &hp, &d), PZ_OK);
    ck_assert_int_eq(heuristic_eval(h, &goal), 0);
    ck_assert_int_eq(heuristic_eval(hp, &goal), 0);
    for (int trial = 0; trial < 200; trial++) {
        uint8_t moves[8];
        pz_state_t s;
        int k = 1 + trial % 8;

        puzzle_random_moves(p, &goal, k, pz_rng_next, &rng, moves);
        puzzle_replay(p, &goal, moves, k, &s);
        bad += heuristic_eval(h, &s) > k;
        bad += heuristic_eval(hp, &s) > k;
    }
    ck_assert_int_eq(bad, 0);
    heuristic_destroy(h);
    heuristic_destroy(hp);
    puzzle_destroy(p);
}
END_TEST

/* --- engines --------------------------------------------------------- */

START_TEST(test_mpyraminx_engines_agree_on_short_scrambles)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_rng_t rng;
    pz_state_t goal;

    pz_rng_seed(&rng, 2024);
    puzzle_goal(p, &goal);
    for (int trial = 0; trial < 8; trial++) {
        int n = 1 + trial % 4;
        pz_state_t s;
        pz_solution_t a;
        pz_solution_t b;
        pz_solution_t i;
        pz_solution_t w;

        tl_scramble(p, &goal, n, &rng, &s);
        a = tl_solve(p, &s, NULL, "astar", "pieces", 1, NULL);
        ck_assert(a.optimal);
        b = tl_solve(p, &s, NULL, "bibfs", "none", 1, NULL);
        ck_assert(b.optimal);
        i = tl_solve(p, &s, NULL, "idastar", "pieces", 1, NULL);
        ck_assert(i.optimal);
        w = tl_solve_weighted(p, &s, NULL, "wastar", "seed-max", 1.5);
        ck_assert_msg(a.length == b.length && b.length == i.length &&
                          a.length >= 1 && a.length <= n,
                      "trial %d: astar %d bibfs %d idastar %d (scramble %d)",
                      trial, a.length, b.length, i.length, n);
        ck_assert(w.length >= a.length && w.length <= 1.5 * a.length);
    }
    puzzle_destroy(p);
}
END_TEST

/* The inadmissible sum still solves, but the answer is not claimed
 * optimal. */
START_TEST(test_mpyraminx_engines_seed_not_marked_optimal)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "3Uw 2L");
    pz_solution_t sol = tl_solve(p, &s, NULL, "astar", "seed", 1, NULL);

    ck_assert_int_eq(sol.length, 2);
    ck_assert(!sol.optimal);
    puzzle_destroy(p);
}
END_TEST

/* --- slow: depth 6 (57 million states, about 2 GB) -------------------- */

START_TEST(test_mpyraminx_apply_bfs_depth_6_slow)
{
    pz_puzzle_t *p = tl_make("master-pyraminx", 0, 0, 0);
    set_t t = { NULL, (size_t)1 << 27 };
    pz_state_t goal;
    pz_state_t *layer[2];
    size_t n[2] = { 1, 0 };
    size_t cap = 3500000;
    uint64_t counts[7] = { 1, 0, 0, 0, 0, 0, 0 };
    int fresh;

    t.e = calloc(t.cap, sizeof(entry_t));
    layer[0] = malloc(cap * sizeof(pz_state_t));
    layer[1] = malloc(cap * sizeof(pz_state_t));
    ck_assert(t.e != NULL && layer[0] != NULL && layer[1] != NULL);
    puzzle_goal(p, &goal);
    layer[0][0] = goal;
    set_find(&t, &goal, &fresh);
    for (int depth = 1; depth <= 6; depth++) {
        pz_state_t *cur = layer[(depth + 1) % 2];
        pz_state_t *next = layer[depth % 2];
        size_t ncur = n[(depth + 1) % 2];

        n[depth % 2] = 0;
        for (size_t i = 0; i < ncur; i++) {
            for (int m = 0; m < 32; m++) {
                pz_state_t s;

                puzzle_apply(p, &cur[i], m, &s);
                set_find(&t, &s, &fresh);
                if (fresh) {
                    counts[depth]++;
                    if (depth < 6 && n[depth % 2] < cap) {
                        next[n[depth % 2]++] = s;
                    }
                }
            }
        }
    }
    for (int depth = 0; depth <= 6; depth++) {
        ck_assert_uint_eq(counts[depth], published[depth]);
    }
    free(t.e);
    free(layer[0]);
    free(layer[1]);
    puzzle_destroy(p);
}
END_TEST

static Suite *
mpyraminx_suite(void)
{
    Suite *s = suite_create("mpyraminx");
    TCase *tc_init = tcase_create("init");
    TCase *tc_bfs = tcase_create("bfs");
    TCase *tc_apply = tcase_create("apply");
    TCase *tc_scramble = tcase_create("apply_scramble");
    TCase *tc_parse = tcase_create("parse_state");
    TCase *tc_format = tcase_create("format_state");
    TCase *tc_heur = tcase_create("heuristics");
    TCase *tc_eng = tcase_create("engines");

    tcase_add_test(tc_init, test_mpyraminx_init_shape);
    tcase_add_test(tc_init, test_mpyraminx_init_alias_resolves);
    tcase_add_test(tc_init, test_mpyraminx_init_size_and_metric_rejected);
    suite_add_tcase(s, tc_init);

    /* One plain and one pruned search to depth 5, shared by these. */
    tcase_add_unchecked_fixture(tc_bfs, bfs_setup, NULL);
    tcase_set_timeout(tc_bfs, 120);
    tcase_add_test(tc_bfs, test_mpyraminx_apply_bfs_matches_published_counts);
    tcase_add_test(tc_bfs, test_mpyraminx_redundant_pruned_bfs_same_counts);
    tcase_add_test(tc_bfs, test_mpyraminx_seed_max_admissible_to_depth_5);
    suite_add_tcase(s, tc_bfs);

    tcase_add_test(tc_apply, test_mpyraminx_apply_moves_one_row_per_face);
    tcase_add_test(tc_apply, test_mpyraminx_apply_u_turns_clockwise_from_above);
    tcase_add_test(tc_apply, test_mpyraminx_apply_three_turns_are_identity);
    tcase_add_test(tc_apply, test_mpyraminx_redundant_only_provable_pairs);
    tcase_add_test(tc_apply, test_mpyraminx_move_name_documented_notation);
    suite_add_tcase(s, tc_apply);
    tcase_add_test(tc_scramble, test_mpyraminx_apply_scramble_layer_forms);
    tcase_add_test(tc_scramble,
                   test_mpyraminx_apply_scramble_bad_token_position);
    suite_add_tcase(s, tc_scramble);

    tcase_add_test(tc_parse, test_mpyraminx_parse_state_solved_any_symbols);
    tcase_add_test(tc_parse,
                   test_mpyraminx_parse_state_relabelled_scramble_same_state);
    tcase_add_test(tc_parse, test_mpyraminx_parse_state_length_errors);
    tcase_add_test(tc_parse, test_mpyraminx_parse_state_symbol_error);
    tcase_add_test(tc_parse, test_mpyraminx_parse_state_colour_count_errors);
    tcase_add_test(tc_parse, test_mpyraminx_parse_state_axial_errors);
    tcase_add_test(tc_parse, test_mpyraminx_parse_state_tip_errors);
    tcase_add_test(tc_parse, test_mpyraminx_parse_state_centre_errors);
    tcase_add_test(tc_parse, test_mpyraminx_parse_state_midge_errors);
    tcase_add_test(tc_parse, test_mpyraminx_parse_state_wing_errors);
    tcase_add_test(tc_parse, test_mpyraminx_parse_state_null_input);
    suite_add_tcase(s, tc_parse);

    tcase_add_test(tc_format,
                   test_mpyraminx_format_state_goal_and_small_buffer);
    tcase_add_test(tc_format, test_mpyraminx_random_state_round_trips);
    tcase_add_test(tc_format, test_mpyraminx_random_state_twists_vary);
    suite_add_tcase(s, tc_format);

    tcase_add_test(tc_heur, test_mpyraminx_seed_sum_overestimates_block_turn);
    tcase_add_test(tc_heur, test_mpyraminx_seed_max_admissible_custom_goal);
    tcase_add_test(tc_heur, test_mpyraminx_pieces_counts_vertex_twists);
    suite_add_tcase(s, tc_heur);

    tcase_set_timeout(tc_eng, 120);
    tcase_add_test(tc_eng, test_mpyraminx_engines_agree_on_short_scrambles);
    tcase_add_test(tc_eng, test_mpyraminx_engines_seed_not_marked_optimal);
    suite_add_tcase(s, tc_eng);

    /* 57 million states need about 2 GB and a minute: only on request. */
    if (getenv("PZ_SLOW_TESTS") != NULL) {
        TCase *tc_slow = tcase_create("slow");

        tcase_set_timeout(tc_slow, 1800);
        tcase_add_test(tc_slow, test_mpyraminx_apply_bfs_depth_6_slow);
        suite_add_tcase(s, tc_slow);
    }
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(mpyraminx_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
