/* SPDX-License-Identifier: MIT */
/* test_contract.c - every registered puzzle against the contract of puzzle.h.
 * Size: one contract, checked op by op for every puzzle in one loop. */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "testlib.h"

/*
 * The instances checked: every registry entry with its default parameters
 * (a puzzle added to the registry is covered as it is), and the sizes and
 * metrics below. Every check is a loop test over them, seeded, so that a
 * failure names the instance and repeats.
 */
typedef struct instance {
    const char *name;
    int rows;
    int cols;
    int metric;
} instance_t;

static const instance_t extra[] = {
    { "tiles", 3, 3, 0 },
    { "tiles", 4, 4, 0 },
    { "tiles", 2, 5, 0 },
    { "tiles", 5, 5, 0 },
    { "tiles", 2, 7, 0 },
    { "tiles", 8, 8, 0 },
    { "2x2x2", 0, 0, PZ_METRIC_HTM },
    { "2x2x2", 0, 0, PZ_METRIC_QTM },
    { "3x3x3", 0, 0, PZ_METRIC_HTM },
    { "3x3x3", 0, 0, PZ_METRIC_QTM },
};

#define NEXTRA     ((int)(sizeof(extra) / sizeof(extra[0])))
#define INST_MAX   64
#define SAMPLES    200 /* sampled states per instance and check */
#define WALK_MAX   40  /* longest random move sequence */
#define TEXT_MAX   4096
#define LABEL_SIZE 64

static instance_t instances[INST_MAX];
static int ninstances;

static void
collect_instances(void)
{
    const puzzle_ops_t *const *reg = puzzle_registry();

    ninstances = 0;
    for (int i = 0; reg[i] != NULL && ninstances < INST_MAX; i++) {
        instance_t in = { reg[i]->name, 0, 0, 0 };

        instances[ninstances++] = in;
    }
    for (int i = 0; i < NEXTRA && ninstances < INST_MAX; i++) {
        instances[ninstances++] = extra[i];
    }
}

/* Creates instance i and names it in label ("tiles 2x5 moves"). */
static pz_puzzle_t *
open_instance(int i, char label[LABEL_SIZE])
{
    const instance_t *in = &instances[i];
    pz_puzzle_t *p = tl_make(in->name, in->rows, in->cols, in->metric);

    if (p->size[0] != '\0') {
        snprintf(label, LABEL_SIZE, "%s %s %s", p->id, p->size, p->metric_name);
    } else {
        snprintf(label, LABEL_SIZE, "%s %s", p->id, p->metric_name);
    }
    return p;
}

/*
 * Failures counted in the hot loops, the first one described: a Check
 * assertion reports to the runner even when it passes, so the loops test
 * plainly and each test asserts once at the end.
 */
typedef struct tally {
    long bad;
    char first[256];
} tally_t;

__attribute__((format(printf, 2, 3))) static void
note(tally_t *t, const char *fmt, ...)
{
    va_list ap;

    if (t->bad++ == 0) {
        va_start(ap, fmt);
        vsnprintf(t->first, sizeof(t->first), fmt, ap);
        va_end(ap);
    }
}

#define expect(t, cond, ...)        \
    do {                            \
        if (!(cond)) {              \
            note((t), __VA_ARGS__); \
        }                           \
    } while (0)

static void
assert_clean(const tally_t *t, const char *label)
{
    ck_assert_msg(t->bad == 0, "%s: %ld failure(s); the first: %s", label,
                  t->bad, t->first);
}

/* True when every byte of s past p's state_size is zero. */
static bool
tail_zero(const pz_puzzle_t *p, const pz_state_t *s)
{
    for (size_t i = p->state_size; i < PZ_STATE_MAX; i++) {
        if (s->b[i] != 0) {
            return false;
        }
    }
    return true;
}

/* True when a and b are the same state, tails included. */
static bool
same(const pz_state_t *a, const pz_state_t *b)
{
    return memcmp(a->b, b->b, PZ_STATE_MAX) == 0;
}

/* n uniformly drawn legal moves from start, redundant pairs and inverses
 * included, into moves; the end state into *out. */
static void
walk(const pz_puzzle_t *p,
     const pz_state_t *start,
     int n,
     pz_rng_t *rng,
     uint8_t *moves,
     pz_state_t *out)
{
    pz_state_t s = *start;

    for (int i = 0; i < n; i++) {
        pz_state_t t;
        int m;

        do {
            m = (int)pz_rand_below(pz_rng_next, rng, (uint64_t)p->nmoves);
        } while (!puzzle_apply(p, &s, m, &t));
        moves[i] = (uint8_t)m;
        s = t;
    }
    *out = s;
}

/* Sampled state k: for even k a uniformly random state when p offers them;
 * otherwise a random walk of up to WALK_MAX moves from the goal. */
static void
sample(const pz_puzzle_t *p, int k, pz_rng_t *rng, pz_state_t *out)
{
    uint8_t moves[WALK_MAX];
    pz_state_t goal;

    if (k % 2 == 0 && puzzle_has_random_state(p)) {
        *out = tl_random_state(p, rng);
        return;
    }
    puzzle_goal(p, &goal);
    walk(p, &goal, (int)pz_rand_below(pz_rng_next, rng, WALK_MAX + 1), rng,
         moves, out);
}

/* --- moves ------------------------------------------------------------- */

/* The counts and tables an engine relies on: sizes in range, an
 * involutive inverse, distinct names, masks as puzzle_create documents
 * them. */
START_TEST(test_contract_moves_shape)
{
    char label[LABEL_SIZE];
    pz_puzzle_t *p = open_instance(_i, label);
    uint64_t all =
        p->nmoves >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << p->nmoves) - 1;
    const puzzle_ops_t *o = p->ops;
    pz_state_t goal;
    tally_t t = { 0 };

    ck_assert_msg(p->nmoves >= 1 && p->nmoves <= PZ_MOVES_MAX, "%s: %d moves",
                  label, p->nmoves);
    ck_assert_msg(p->state_size >= 1 && p->state_size <= PZ_STATE_MAX,
                  "%s: state size %zu", label, p->state_size);
    ck_assert_msg(o->goal != NULL && o->apply != NULL && o->inverse != NULL &&
                      o->move_name != NULL && o->init != NULL,
                  "%s: a required operation is missing", label);
    ck_assert_msg(o->io == NULL || (o->io->parse_state != NULL &&
                                    o->io->apply_scramble != NULL &&
                                    o->io->format_state != NULL),
                  "%s: an I/O operation is missing", label);
    ck_assert_ptr_nonnull(p->metric_name);
    puzzle_goal(p, &goal);
    ck_assert_msg(tail_zero(p, &goal), "%s: goal past state_size", label);
    ck_assert_uint_eq(puzzle_allowed_after(p, -1), all);
    ck_assert_uint_eq(puzzle_allowed_after(p, p->nmoves), all);
    for (int m = 0; m < p->nmoves; m++) {
        int inv = puzzle_inverse(p, m);
        const char *name = puzzle_move_name(p, m);
        uint64_t want = all;

        expect(&t, inv >= 0 && inv < p->nmoves, "inverse of %d is %d", m, inv);
        if (inv < 0 || inv >= p->nmoves) {
            continue;
        }
        expect(&t, puzzle_inverse(p, inv) == m, "inverse(inverse(%d)) = %d", m,
               puzzle_inverse(p, inv));
        expect(&t, name != NULL && name[0] != '\0', "move %d has no name", m);
        for (int k = 0; name != NULL && k < m; k++) {
            expect(&t, strcmp(puzzle_move_name(p, k), name) != 0,
                   "moves %d and %d are both '%s'", k, m, name);
        }
        for (size_t c = 0; name != NULL && name[c] != '\0'; c++) {
            expect(&t, !isspace((unsigned char)name[c]),
                   "move name '%s' has white space", name);
        }
        want &= ~(UINT64_C(1) << inv);
        for (int n = 0; o->redundant != NULL && n < p->nmoves; n++) {
            if (o->redundant(p, m, n)) {
                want &= ~(UINT64_C(1) << n);
            }
        }
        expect(&t, puzzle_allowed_after(p, m) == want,
               "allowed_after[%d] is %#llx, the rules give %#llx", m,
               (unsigned long long)puzzle_allowed_after(p, m),
               (unsigned long long)want);
    }
    assert_clean(&t, label);
    puzzle_destroy(p);
}
END_TEST

/* From many states: a move applied in place gives what it gives into
 * another buffer, changes the state, leaves the tail zero, and its inverse
 * is legal there and undoes it. */
START_TEST(test_contract_apply_in_place_and_inverse)
{
    char label[LABEL_SIZE];
    pz_puzzle_t *p = open_instance(_i, label);
    pz_rng_t rng;
    tally_t t = { 0 };
    int legal = 0;

    pz_rng_seed(&rng, 0xc0417ac7u + (uint64_t)_i);
    for (int k = 0; k < SAMPLES; k++) {
        pz_state_t s;

        sample(p, k, &rng, &s);
        expect(&t, tail_zero(p, &s), "sampled state past state_size");
        for (int m = 0; m < p->nmoves; m++) {
            pz_state_t a;
            pz_state_t b = s;
            pz_state_t back;
            bool ok_a;
            bool ok_b;

            memset(&a, 0xa5, sizeof(a));
            ok_a = puzzle_apply(p, &s, m, &a);
            ok_b = puzzle_apply(p, &b, m, &b);
            expect(&t, ok_a == ok_b, "move %s: legal %d apart, %d in place",
                   puzzle_move_name(p, m), ok_a, ok_b);
            if (!ok_a || !ok_b) {
                continue;
            }
            legal++;
            /* Past state_size a is still 0xa5 unless apply zeroed it; only
             * the meaningful bytes are compared, and b's tail. */
            expect(&t, puzzle_equal(p, &a, &b),
                   "move %s: in place differs from apart",
                   puzzle_move_name(p, m));
            expect(&t, tail_zero(p, &b), "move %s writes past state_size",
                   puzzle_move_name(p, m));
            expect(&t, !puzzle_equal(p, &s, &b), "move %s changes nothing",
                   puzzle_move_name(p, m));
            expect(&t, puzzle_apply(p, &b, puzzle_inverse(p, m), &back),
                   "the inverse of %s is illegal after it",
                   puzzle_move_name(p, m));
            expect(&t, same(&back, &s), "%s then %s is not the identity",
                   puzzle_move_name(p, m),
                   puzzle_move_name(p, puzzle_inverse(p, m)));
        }
    }
    assert_clean(&t, label);
    ck_assert_msg(legal >= SAMPLES, "%s: only %d legal moves", label, legal);
    puzzle_destroy(p);
}
END_TEST

/* Every pair a b that allowed_after prunes can be replaced: s a b is s, or
 * s c for one move c, or s c e for a pair that is allowed. Otherwise a
 * pruned search would miss states. */
START_TEST(test_contract_redundant_pairs_replaceable)
{
    char label[LABEL_SIZE];
    pz_puzzle_t *p = open_instance(_i, label);
    pz_state_t *near = malloc(sizeof(*near) * (size_t)(p->nmoves + 1) *
                              (size_t)(p->nmoves + 1));
    pz_rng_t rng;
    tally_t t = { 0 };
    long pruned = 0;

    ck_assert_ptr_nonnull(near);
    pz_rng_seed(&rng, 0x9e3779b9u + (uint64_t)_i);
    for (int k = 0; k < 16; k++) {
        pz_state_t s;
        int nnear = 0;

        sample(p, k, &rng, &s);
        /* Everything a pruned search reaches in at most two moves. */
        near[nnear++] = s;
        for (int c = 0; c < p->nmoves; c++) {
            pz_state_t sc;

            if (!puzzle_apply(p, &s, c, &sc)) {
                continue;
            }
            near[nnear++] = sc;
            for (int e = 0; e < p->nmoves; e++) {
                if ((puzzle_allowed_after(p, c) >> e & 1) &&
                    puzzle_apply(p, &sc, e, &near[nnear])) {
                    nnear++;
                }
            }
        }
        for (int a = 0; a < p->nmoves; a++) {
            pz_state_t sa;

            if (!puzzle_apply(p, &s, a, &sa)) {
                continue;
            }
            for (int b = 0; b < p->nmoves; b++) {
                pz_state_t sab;
                bool found = false;

                if ((puzzle_allowed_after(p, a) >> b & 1) ||
                    !puzzle_apply(p, &sa, b, &sab)) {
                    continue;
                }
                pruned++;
                for (int j = 0; j < nnear && !found; j++) {
                    found = puzzle_equal(p, &near[j], &sab);
                }
                expect(&t, found,
                       "%s %s is pruned but no allowed sequence of at most "
                       "two moves does the same",
                       puzzle_move_name(p, a), puzzle_move_name(p, b));
            }
        }
    }
    assert_clean(&t, label);
    /* At least each move's inverse is pruned after it. */
    ck_assert_int_gt(pruned, 0);
    free(near);
    puzzle_destroy(p);
}
END_TEST

/* --- states as text ---------------------------------------------------- */

/* format_state then puzzle_parse_state (text) gives the state back, tail
 * included; the length is exact and a buffer one byte short is refused.
 * On failure returns a description in t. */
static void
check_text_round_trip(const pz_puzzle_t *p, const pz_state_t *s, tally_t *t)
{
    char buf[TEXT_MAX];
    char small[TEXT_MAX];
    pz_state_t back;
    pz_diag_t d;
    int n = puzzle_format_state(p, s, buf, sizeof(buf));
    int rc;

    expect(t, n > 0 && (size_t)n == strlen(buf), "format_state returned %d", n);
    if (n <= 0) {
        return;
    }
    expect(t, puzzle_format_state(p, s, small, (size_t)n) == PZ_EINVAL,
           "format_state wrote %d characters into %d bytes", n, n);
    expect(t, puzzle_format_state(p, s, small, (size_t)n + 1) == n,
           "format_state needs more than %d bytes for %d characters", n + 1, n);
    rc = tl_parse_text(p, buf, &back, &d);
    expect(t, rc == PZ_OK, "'%s' does not parse: %s", buf, d.detail);
    expect(t, rc != PZ_OK || same(&back, s), "'%s' parses to another state",
           buf);
}

START_TEST(test_contract_format_parse_round_trip)
{
    char label[LABEL_SIZE];
    pz_puzzle_t *p = open_instance(_i, label);
    pz_state_t goal;
    pz_rng_t rng;
    tally_t t = { 0 };

    puzzle_goal(p, &goal);
    check_text_round_trip(p, &goal, &t);
    expect(&t, puzzle_check_pair(p, &goal, &goal, NULL) == PZ_OK,
           "the goal cannot reach itself");
    pz_rng_seed(&rng, 0x70a7u + (uint64_t)_i);
    for (int k = 0; k < SAMPLES; k++) {
        pz_state_t s;
        pz_diag_t d;
        int rc;

        sample(p, k, &rng, &s);
        check_text_round_trip(p, &s, &t);
        pz_diag_clear(&d);
        rc = puzzle_check_pair(p, &s, &goal, &d);
        expect(&t, rc == PZ_OK, "sample %d cannot reach the goal: %s", k,
               d.detail);
    }
    assert_clean(&t, label);
    puzzle_destroy(p);
}
END_TEST

/* --- scrambles --------------------------------------------------------- */

/* The names of a move sequence (puzzle_format_moves), read back as a
 * scramble, give what puzzle_replay gives; the inverses in reverse order
 * bring it back. Pruned sequences and plain random walks both. */
START_TEST(test_contract_scramble_matches_replay)
{
    char label[LABEL_SIZE];
    pz_puzzle_t *p = open_instance(_i, label);
    pz_state_t goal;
    pz_rng_t rng;
    tally_t t = { 0 };

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 0x5c7au + (uint64_t)_i);
    for (int k = 0; k < 2 * SAMPLES; k++) {
        uint8_t moves[WALK_MAX];
        uint8_t back[WALK_MAX];
        char text[TEXT_MAX];
        int n = (int)pz_rand_below(pz_rng_next, &rng, WALK_MAX + 1);
        pz_state_t replayed;
        pz_state_t read;
        pz_state_t undone;
        pz_diag_t d;
        int rc;

        if (k % 2 == 0) {
            ck_assert_int_eq(
                puzzle_random_moves(p, &goal, n, pz_rng_next, &rng, moves),
                PZ_OK);
        } else {
            walk(p, &goal, n, &rng, moves, &replayed);
        }
        ck_assert_int_eq(puzzle_replay(p, &goal, moves, n, &replayed), PZ_OK);
        ck_assert_int_ge(puzzle_format_moves(p, moves, n, text, sizeof(text)),
                         0);
        pz_diag_clear(&d);
        rc = puzzle_parse_scramble(p, text, &read, &d);
        expect(&t, rc == PZ_OK, "'%s' is refused: %s", text, d.detail);
        expect(&t, rc != PZ_OK || same(&read, &replayed),
               "'%s' read differs from its replay", text);
        for (int i = 0; i < n; i++) {
            back[i] = (uint8_t)puzzle_inverse(p, moves[n - 1 - i]);
        }
        expect(&t, puzzle_replay(p, &replayed, back, n, &undone) == PZ_OK,
               "the inverse of '%s' is illegal", text);
        expect(&t, same(&undone, &goal), "the inverse of '%s' misses the goal",
               text);
    }
    assert_clean(&t, label);
    puzzle_destroy(p);
}
END_TEST

/* Each move's name, read as a scramble on a state, is that move: the same
 * state where the move is legal, PZ_EMOVE where it is not. */
START_TEST(test_contract_scramble_move_names)
{
    char label[LABEL_SIZE];
    pz_puzzle_t *p = open_instance(_i, label);
    pz_rng_t rng;
    tally_t t = { 0 };

    pz_rng_seed(&rng, 0x4e4du + (uint64_t)_i);
    for (int k = 0; k < 8; k++) {
        pz_state_t s;

        if (k == 0) {
            puzzle_goal(p, &s);
        } else {
            sample(p, k, &rng, &s);
        }
        for (int m = 0; m < p->nmoves; m++) {
            const char *name = puzzle_move_name(p, m);
            pz_state_t want;
            pz_state_t got = s;
            pz_diag_t d;
            bool legal = puzzle_apply(p, &s, m, &want);
            int rc;

            pz_diag_clear(&d);
            rc = puzzle_apply_scramble(p, name, &got, &d);
            if (legal) {
                expect(&t, rc == PZ_OK, "'%s' is refused: %s", name, d.detail);
                expect(&t, rc != PZ_OK || same(&got, &want),
                       "'%s' read is not move %d", name, m);
            } else {
                expect(&t, rc == PZ_EMOVE,
                       "'%s' where it is illegal gives %s, not bad_move", name,
                       pz_strerror(rc));
            }
        }
    }
    assert_clean(&t, label);
    puzzle_destroy(p);
}
END_TEST

/* Expects PZ_EMOVE with the position of the unknown token "?" in text. */
static void
expect_bad_token(const pz_puzzle_t *p,
                 const char *text,
                 int position,
                 tally_t *t)
{
    pz_state_t s;
    pz_diag_t d;
    int rc;

    pz_diag_clear(&d);
    rc = puzzle_parse_scramble(p, text, &s, &d);
    expect(t, rc == PZ_EMOVE, "'%s' gives %s, not bad_move", text,
           pz_strerror(rc));
    expect(t, rc != PZ_EMOVE || d.position == position,
           "'%s': position %d, the token is at %d", text, d.position, position);
    expect(t, rc != PZ_EMOVE || d.detail[0] != '\0', "'%s': no detail", text);
}

/* An unknown token is refused with PZ_EMOVE and its offset in d.position,
 * first, after legal moves, and before more. */
START_TEST(test_contract_scramble_unknown_token)
{
    char label[LABEL_SIZE];
    pz_puzzle_t *p = open_instance(_i, label);
    pz_state_t goal;
    pz_rng_t rng;
    tally_t t = { 0 };

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 0xbad7u + (uint64_t)_i);
    expect_bad_token(p, "?", 0, &t);
    expect_bad_token(p, "  ?", 2, &t);
    for (int n = 1; n <= 3; n++) {
        uint8_t moves[3];
        char pre[256];
        char text[600];
        int len;

        ck_assert_int_eq(
            puzzle_random_moves(p, &goal, n, pz_rng_next, &rng, moves), PZ_OK);
        len = puzzle_format_moves(p, moves, n, pre, sizeof(pre));
        ck_assert_int_gt(len, 0);
        snprintf(text, sizeof(text), "%s ?", pre);
        expect_bad_token(p, text, len + 1, &t);
        snprintf(text, sizeof(text), "%s ? %s", pre, pre);
        expect_bad_token(p, text, len + 1, &t);
    }
    assert_clean(&t, label);
    puzzle_destroy(p);
}
END_TEST

/* --- ranking and relabelling ------------------------------------------- */

/* Where p ranks states: ranks are in range, unrank(r) ranks to r, and
 * unrank(rank(s)) is s unless the rank is partial. */
START_TEST(test_contract_rank_round_trip)
{
    char label[LABEL_SIZE];
    pz_puzzle_t *p = open_instance(_i, label);
    const puzzle_ops_t *o = p->ops;
    pz_state_t goal;
    pz_rng_t rng;
    tally_t t = { 0 };
    uint64_t count;

    if (o->ranking == NULL || (count = puzzle_rank_count(p)) == 0) {
        puzzle_destroy(p);
        return;
    }
    ck_assert_msg(o->ranking->rank != NULL && o->ranking->unrank != NULL,
                  "%s: a ranking without rank or unrank", label);
    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 0x7a4bu + (uint64_t)_i);
    for (int k = 0; k <= 2 * SAMPLES; k++) {
        pz_state_t s;
        pz_state_t u;
        uint64_t r;

        if (k == 0) {
            s = goal;
        } else {
            sample(p, k, &rng, &s);
        }
        r = puzzle_rank(p, &s);
        expect(&t, r < count, "rank %llu of %llu", (unsigned long long)r,
               (unsigned long long)count);
        if (r >= count) {
            continue;
        }
        state_clear(&u);
        puzzle_unrank(p, r, &u);
        expect(&t, puzzle_rank(p, &u) == r, "unrank(%llu) ranks to %llu",
               (unsigned long long)r, (unsigned long long)puzzle_rank(p, &u));
        expect(&t, tail_zero(p, &u), "unrank(%llu) writes past state_size",
               (unsigned long long)r);
        expect(&t, puzzle_rank_partial(p) || same(&u, &s),
               "unrank(rank(s)) is not s (rank %llu)", (unsigned long long)r);
        /* And an index drawn at random. */
        r = pz_rand_below(pz_rng_next, &rng, count);
        state_clear(&u);
        puzzle_unrank(p, r, &u);
        expect(&t, puzzle_rank(p, &u) == r, "unrank(%llu) ranks to %llu",
               (unsigned long long)r, (unsigned long long)puzzle_rank(p, &u));
    }
    assert_clean(&t, label);
    puzzle_destroy(p);
}
END_TEST

/* Where p relabels: against the default goal the renaming is the identity;
 * against another goal that it accepts, that goal becomes the default one
 * and the renaming commutes with every move. */
START_TEST(test_contract_relabel)
{
    char label[LABEL_SIZE];
    pz_puzzle_t *p = open_instance(_i, label);
    pz_state_t goal;
    pz_rng_t rng;
    tally_t t = { 0 };

    if (!puzzle_can_relabel(p)) {
        puzzle_destroy(p);
        return;
    }
    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 0x4e1au + (uint64_t)_i);
    for (int k = 0; k < SAMPLES; k++) {
        pz_state_t s;
        pz_state_t out;
        pz_state_t g;

        if (k == 0) {
            s = goal;
        } else {
            sample(p, k, &rng, &s);
        }
        state_clear(&out);
        expect(&t, puzzle_relabel(p, &goal, &s, &out),
               "the default goal is refused");
        expect(&t, same(&out, &s),
               "against the default goal sample %d is renamed", k);
        /* Another goal: the sample itself. */
        g = s;
        state_clear(&out);
        if (!puzzle_relabel(p, &g, &g, &out)) {
            continue;
        }
        expect(&t, same(&out, &goal),
               "accepted goal %d does not become the default", k);
        for (int m = 0; m < p->nmoves; m++) {
            pz_state_t gm;
            pz_state_t want;

            if (!puzzle_apply(p, &g, m, &gm)) {
                continue;
            }
            state_clear(&out);
            puzzle_relabel(p, &g, &gm, &out);
            expect(&t, puzzle_apply(p, &goal, m, &want) && same(&out, &want),
                   "the renaming of goal %d and %s do not commute", k,
                   puzzle_move_name(p, m));
        }
    }
    assert_clean(&t, label);
    puzzle_destroy(p);
}
END_TEST

/* --- heuristics -------------------------------------------------------- */

/* The heuristics of p that need no shared tables and that p has, with
 * "none"; returns how many. */
static int
cheap_heuristics(const pz_puzzle_t *p, const heuristic_ops_t **out, int max)
{
    const heuristic_ops_t *const *list = puzzle_heuristics(p);
    int n = 0;

    out[n++] = &heuristic_none;
    for (int i = 0; list != NULL && list[i] != NULL && n < max; i++) {
        if (list[i]->tables == NULL &&
            (list[i]->supports == NULL || list[i]->supports(p))) {
            out[n++] = list[i];
        }
    }
    return n;
}

/* Checks each heuristic in hs (created for goal) on states near goal: 0
 * at the goal, never above the distance bibfs finds when admissible, and
 * update agreeing with eval on every move. */
static void
check_heuristics(const pz_puzzle_t *p,
                 const pz_state_t *goal,
                 pz_heuristic_t *const *hs,
                 int nh,
                 int nstates,
                 pz_rng_t *rng,
                 tally_t *t)
{
    for (int i = 0; i < nh; i++) {
        expect(t, heuristic_eval(hs[i], goal) == 0, "%s is %d at the goal",
               hs[i]->ops->name, heuristic_eval(hs[i], goal));
    }
    for (int k = 0; k < nstates; k++) {
        int n = 1 + k % 6;
        pz_state_t s;
        int dist;

        tl_scramble(p, goal, n, rng, &s);
        dist = tl_solve(p, &s, goal, "bibfs", "none", 1, NULL).length;
        for (int i = 0; i < nh; i++) {
            const pz_heuristic_t *h = hs[i];
            int v = heuristic_eval(h, &s);

            expect(t, v >= 0, "%s is negative (%d)", h->ops->name, v);
            expect(t, !h->ops->admissible || v <= dist,
                   "%s says %d, the distance is %d", h->ops->name, v, dist);
            for (int m = 0; m < p->nmoves; m++) {
                pz_state_t c;
                int u;

                if (!puzzle_apply(p, &s, m, &c)) {
                    continue;
                }
                u = heuristic_update(h, &s, v, m, &c);
                expect(t, u == heuristic_eval(h, &c),
                       "%s after %s: update %d, eval %d", h->ops->name,
                       puzzle_move_name(p, m), u, heuristic_eval(h, &c));
            }
        }
    }
}

/* Every heuristic p lists that needs no shared tables, for the default
 * goal and for another one. */
START_TEST(test_contract_heuristics_near_goal)
{
    char label[LABEL_SIZE];
    pz_puzzle_t *p = open_instance(_i, label);
    const heuristic_ops_t *ops[32];
    pz_heuristic_t *hs[32];
    int nh = cheap_heuristics(p, ops, 32);
    pz_state_t goal;
    pz_rng_t rng;
    tally_t t = { 0 };

    pz_rng_seed(&rng, 0x4ea7u + (uint64_t)_i);
    puzzle_goal(p, &goal);
    for (int i = 0; i < nh; i++) {
        hs[i] = tl_heuristic(p, ops[i]->name, &goal);
    }
    check_heuristics(p, &goal, hs, nh, 60, &rng, &t);
    for (int i = 0; i < nh; i++) {
        heuristic_destroy(hs[i]);
    }
    if (puzzle_has_random_state(p)) {
        pz_state_t other = tl_random_state(p, &rng);

        for (int i = 0; i < nh; i++) {
            hs[i] = tl_heuristic(p, ops[i]->name, &other);
        }
        check_heuristics(p, &other, hs, nh, 12, &rng, &t);
        for (int i = 0; i < nh; i++) {
            heuristic_destroy(hs[i]);
        }
    }
    assert_clean(&t, label);
    puzzle_destroy(p);
}
END_TEST

/* --- the registry ------------------------------------------------------ */

/* What the registry entry names can be found: the puzzle by its name in
 * any case, the default heuristic, the heuristics auto uses, the puzzle's
 * own solvers; heuristic names are distinct and none is "none". */
START_TEST(test_contract_registry_names_resolve)
{
    char label[LABEL_SIZE];
    pz_puzzle_t *p = open_instance(_i, label);
    const puzzle_ops_t *o = p->ops;
    char upper[32];
    size_t k;

    for (k = 0; o->name[k] != '\0' && k + 1 < sizeof(upper); k++) {
        upper[k] = (char)toupper((unsigned char)o->name[k]);
    }
    upper[k] = '\0';
    ck_assert_ptr_eq(puzzle_find(o->name), o);
    ck_assert_ptr_eq(puzzle_find(upper), o);
    ck_assert_msg(o->summary != NULL &&
                      (o->io == NULL ||
                       (o->io->notation != NULL && o->io->state_forms != NULL)),
                  "%s: a catalogue line is missing", label);
    ck_assert_msg(o->default_heuristic != NULL &&
                      heuristic_find(p, o->default_heuristic) != NULL,
                  "%s: default heuristic '%s' unknown", label,
                  o->default_heuristic);
    if (puzzle_solving(p)->optimal_heuristic != NULL) {
        ck_assert_ptr_nonnull(
            heuristic_find(p, puzzle_solving(p)->optimal_heuristic));
    }
    for (int i = 0; puzzle_solving(p)->optimal_heuristics != NULL &&
                    puzzle_solving(p)->optimal_heuristics[i] != NULL;
         i++) {
        const char *name = puzzle_solving(p)->optimal_heuristics[i];
        const heuristic_ops_t *h = heuristic_find(p, name);

        /* auto proves optima with them once their tables are built. */
        ck_assert_msg(h != NULL && h->admissible && h->tables != NULL,
                      "%s: optimal heuristic '%s' unknown, inadmissible or "
                      "without tables",
                      label, name);
        ck_assert_ptr_nonnull(puzzle_solving(p)->optimal_heuristic);
    }
    if (puzzle_solving(p)->fast_engine != NULL) {
        ck_assert_ptr_nonnull(
            engine_find_for(p, puzzle_solving(p)->fast_engine));
    }
    for (int i = 0; o->heuristics != NULL && o->heuristics[i] != NULL; i++) {
        const heuristic_ops_t *h = o->heuristics[i];

        ck_assert_str_ne(h->name, "none");
        ck_assert_ptr_eq(heuristic_find(p, h->name), h);
        ck_assert_msg(h->init != NULL && h->eval != NULL,
                      "%s: heuristic %s lacks an operation", label, h->name);
    }
    for (int i = 0; puzzle_solving(p)->solvers != NULL &&
                    puzzle_solving(p)->solvers[i] != NULL;
         i++) {
        const engine_ops_t *e = puzzle_solving(p)->solvers[i];

        ck_assert_ptr_eq(engine_find_for(p, e->name), e);
        ck_assert(engine_known(e->name));
    }
    puzzle_destroy(p);
}
END_TEST

/* Every alias makes an instance of a registered puzzle, of the size it
 * names. */
START_TEST(test_contract_aliases_resolve)
{
    for (const puzzle_alias_t *a = puzzle_aliases(); a->alias != NULL; a++) {
        const puzzle_ops_t *target = puzzle_find(a->target);
        pz_puzzle_t *p;

        ck_assert_msg(target != NULL, "alias %s: no puzzle %s", a->alias,
                      a->target);
        ck_assert_ptr_eq(puzzle_find(a->alias), target);
        p = tl_make(a->alias, 0, 0, 0);
        ck_assert_ptr_eq(p->ops, target);
        if (a->rows > 0) {
            ck_assert_int_eq(p->params.rows, a->rows);
            ck_assert_int_eq(p->params.cols, a->cols);
        }
        puzzle_destroy(p);
    }
}
END_TEST

static Suite *
contract_suite(void)
{
    Suite *s = suite_create("contract");
    TCase *tc_moves = tcase_create("moves");
    TCase *tc_text = tcase_create("text");
    TCase *tc_rank = tcase_create("rank");
    TCase *tc_heur = tcase_create("heuristics");
    TCase *tc_reg = tcase_create("registry");

    collect_instances();
    tcase_set_timeout(tc_moves, 60);
    tcase_add_loop_test(tc_moves, test_contract_moves_shape, 0, ninstances);
    tcase_add_loop_test(tc_moves, test_contract_apply_in_place_and_inverse, 0,
                        ninstances);
    tcase_add_loop_test(tc_moves, test_contract_redundant_pairs_replaceable, 0,
                        ninstances);
    suite_add_tcase(s, tc_moves);

    tcase_set_timeout(tc_text, 60);
    tcase_add_loop_test(tc_text, test_contract_format_parse_round_trip, 0,
                        ninstances);
    tcase_add_loop_test(tc_text, test_contract_scramble_matches_replay, 0,
                        ninstances);
    tcase_add_loop_test(tc_text, test_contract_scramble_move_names, 0,
                        ninstances);
    tcase_add_loop_test(tc_text, test_contract_scramble_unknown_token, 0,
                        ninstances);
    suite_add_tcase(s, tc_text);

    tcase_set_timeout(tc_rank, 60);
    tcase_add_loop_test(tc_rank, test_contract_rank_round_trip, 0, ninstances);
    tcase_add_loop_test(tc_rank, test_contract_relabel, 0, ninstances);
    suite_add_tcase(s, tc_rank);

    tcase_set_timeout(tc_heur, 120);
    tcase_add_loop_test(tc_heur, test_contract_heuristics_near_goal, 0,
                        ninstances);
    suite_add_tcase(s, tc_heur);

    tcase_add_loop_test(tc_reg, test_contract_registry_names_resolve, 0,
                        ninstances);
    tcase_add_test(tc_reg, test_contract_aliases_resolve);
    suite_add_tcase(s, tc_reg);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(contract_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
