/* SPDX-License-Identifier: MIT */
/* mpyraminx_heur.c - Master Pyraminx piece-count heuristics (seed, seed-max,
 * pieces). */
#include <stdint.h>

#include "mpyraminx_internal.h"

/*
 * Both heuristics count, per piece kind, the slots whose stickers differ
 * from the goal (a piece out of place or turned), and divide by the most
 * slots of that kind one move changes: 1 tip, 1 axial, 3 centres, 3
 * midges, 6 wings (computed from the move tables at init).
 *
 * "seed" is the reference C++ program's: the quotients summed. It is not
 * admissible: one 3Uw turn moves a tip, an axial, 3 centres, 3 midges and
 * 6 wings, so h = 5 one move from the goal.
 *
 * "seed-max" takes the largest quotient, each rounded up. A move changes
 * at most max_moved slots of a kind, so each quotient drops by at most 1
 * per move and is 0 at the goal: admissible, for any goal.
 */
typedef struct seed_ctx {
    /* Sticker i's two bits set when it belongs to a slot (2 bits per
     * sticker, as in the state, split in two 64-bit halves). */
    uint64_t mask[NPKINDS][MAX_SLOTS][2];
    int nslots[NPKINDS];
    int max_moved[NPKINDS];
    int lcm; /* of max_moved: the sum's common denominator */
    uint64_t goal[2];
    /* Tip (0) and axial (1) stickers at each vertex, sorted by face, and
     * the goal's colours there. */
    uint8_t vstk[NVERT][2][3];
    uint8_t vgoal[NVERT][2][3];
} seed_ctx_t;

/* The 16 state bytes as two words, sticker i at bits 2 * (i % 32) of word
 * i / 32 whatever the byte order. */
static void
load_words(const uint8_t *b, uint64_t w[2])
{
    for (int h = 0; h < 2; h++) {
        w[h] = 0;
        for (int j = 7; j >= 0; j--) {
            w[h] = w[h] << 8 | b[8 * h + j];
        }
    }
}

static int
seed_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    const mpyr_priv_t *pv = p->priv;
    seed_ctx_t *c = ctx;

    load_words(goal->b, c->goal);
    c->lcm = 1;
    for (int kind = 0; kind < NPKINDS; kind++) {
        const pkind_t *k = &pv->kind[kind];
        int a = c->lcm;
        int b = k->max_moved;

        while (b != 0) {
            int t = a % b;

            a = b;
            b = t;
        }
        c->lcm = c->lcm / a * k->max_moved;
        c->nslots[kind] = k->nslots;
        c->max_moved[kind] = k->max_moved;
        for (int s = 0; s < k->nslots; s++) {
            for (int j = 0; j < k->nstk; j++) {
                int st = k->slot[s].stk[j];

                c->mask[kind][s][st / 32] |= UINT64_C(3) << (2 * (st % 32));
            }
        }
    }
    /* Tip and axial slots are in vertex order U L R B. */
    for (int v = 0; v < NVERT; v++) {
        for (int j = 0; j < 3; j++) {
            int tip = pv->kind[P_TIP].slot[v].stk[j];
            int axial = pv->kind[P_AXIAL].slot[v].stk[j];

            c->vstk[v][0][j] = (uint8_t)tip;
            c->vstk[v][1][j] = (uint8_t)axial;
            c->vgoal[v][0][j] = (uint8_t)get_colour(goal, tip);
            c->vgoal[v][1][j] = (uint8_t)get_colour(goal, axial);
        }
    }
    return PZ_OK;
}

/* Slots of each kind whose stickers differ from the goal. */
static void
count_wrong(const seed_ctx_t *c, const pz_state_t *s, int wrong[NPKINDS])
{
    uint64_t w[2];

    load_words(s->b, w);
    w[0] ^= c->goal[0];
    w[1] ^= c->goal[1];
    for (int kind = 0; kind < NPKINDS; kind++) {
        int n = 0;

        for (int i = 0; i < c->nslots[kind]; i++) {
            n += ((w[0] & c->mask[kind][i][0]) |
                  (w[1] & c->mask[kind][i][1])) != 0;
        }
        wrong[kind] = n;
    }
}

static int
seed_sum_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const seed_ctx_t *c = ctx;
    int wrong[NPKINDS];
    int num = 0;

    (void)p;
    count_wrong(c, s, wrong);
    for (int kind = 0; kind < NPKINDS; kind++) {
        num += wrong[kind] * (c->lcm / c->max_moved[kind]);
    }
    /* The sum of the quotients, rounded up. */
    return (num + c->lcm - 1) / c->lcm;
}

static int
seed_max_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const seed_ctx_t *c = ctx;
    int wrong[NPKINDS];
    int h = 0;

    (void)p;
    count_wrong(c, s, wrong);
    for (int kind = 0; kind < NPKINDS; kind++) {
        int q = (wrong[kind] + c->max_moved[kind] - 1) / c->max_moved[kind];

        h = q > h ? q : h;
    }
    return h;
}

/*
 * "pieces": seed-max, or the moves the tips and axials need if that is
 * more. Only turns of vertex v touch its tip and axial, and only by twists
 * of the same size: u twists the tip, 2U the axial, 3Uw both alike, 3U
 * neither. So with tip twist t and axial twist a (mod 3, against the
 * goal), vertex v needs no move when t = a = 0, one when t = 0, a = 0 or
 * t = a, and two otherwise; a move serves one vertex, so the sum over
 * vertices is a lower bound too (exact for tips and axials alone), and the
 * larger of two admissible bounds is admissible.
 */
static int
pieces_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const seed_ctx_t *c = ctx;
    int h = seed_max_eval(p, ctx, s);
    int need = 0;

    for (int v = 0; v < NVERT; v++) {
        int tw[2];

        for (int k = 0; k < 2; k++) {
            int col = get_colour(s, c->vstk[v][k][0]);

            tw[k] = 0;
            while (tw[k] < 2 && c->vgoal[v][k][tw[k]] != col) {
                tw[k]++;
            }
        }
        need += tw[0] == 0 && tw[1] == 0                     ? 0
                : tw[0] == 0 || tw[1] == 0 || tw[0] == tw[1] ? 1
                                                             : 2;
    }
    return need > h ? need : h;
}

const heuristic_ops_t mpyraminx__seed_heuristic = {
    .name = "seed",
    .summary = "the reference program's: out-of-place pieces of each kind / "
               "most one turn moves, summed (not admissible)",
    .admissible = false,
    .ctx_bytes = sizeof(seed_ctx_t),
    .init = seed_init,
    .eval = seed_sum_eval,
    .update = NULL,
};

const heuristic_ops_t mpyraminx__seed_max_heuristic = {
    .name = "seed-max",
    .summary = "out-of-place pieces of each kind / most one turn moves, "
               "rounded up; the largest over kinds (admissible)",
    .admissible = true,
    .ctx_bytes = sizeof(seed_ctx_t),
    .init = seed_init,
    .eval = seed_max_eval,
    .update = NULL,
};

const heuristic_ops_t mpyraminx__pieces_heuristic = {
    .name = "pieces",
    .summary = "seed-max, or the turns the tips and axials need per vertex "
               "(summed) if more (admissible)",
    .admissible = true,
    .ctx_bytes = sizeof(seed_ctx_t),
    .init = seed_init,
    .eval = pieces_eval,
    .update = NULL,
};
