/* SPDX-License-Identifier: MIT */
/* skewb_rank.c - the Skewb's perfect index, goal relabelling, heuristics. */
#include <string.h>

#include "complete.h"
#include "heuristic.h"
#include "perm.h"
#include "skewb_internal.h"

/*
 * The index takes the parts of a position that skewb_internal.h names as
 * free, as mixed-radix digits: the even permutation of the centres (360),
 * the even permutation of tetrad B (12), the cyclic permutation of A's
 * free corners (3), the twists of UBL and DFL (9) and those of UFL, UBR
 * and DFR (27). The twists of DBR and DBL follow from the permutations,
 * so every index is one position and every position one index:
 * 0..3,149,279.
 */

enum {
    NB_TWISTS = 27, /* UFL UBR DFR */
    NA_TWISTS = 9,  /* UBL DFL */
};

uint64_t
skewb_rank_count(const pz_puzzle_t *p)
{
    (void)p;
    return SKEWB_NRANKS;
}

uint64_t
skewb_rank(const pz_puzzle_t *p, const pz_state_t *s)
{
    uint64_t r = perm_even_rank(s->b, SKEWB_NFACES);
    int at = 0;
    int bt = 0;

    (void)p;
    for (int k = 0; k < 2; k++) {
        at = at * 3 + s->b[SKEWB_CORNER0 + skewb_tetrad_a[k]] % 3;
    }
    for (int k = 0; k < 3; k++) {
        bt = bt * 3 + s->b[SKEWB_CORNER0 + skewb_tetrad_b[k]] % 3;
    }
    r = r * 12 + (uint64_t)skewb_rank_b(s);
    r = r * 3 + (uint64_t)skewb_rank_a(s);
    r = r * NA_TWISTS + (uint64_t)at;
    return r * NB_TWISTS + (uint64_t)bt;
}

void
skewb_unrank(const pz_puzzle_t *p, uint64_t index, pz_state_t *out)
{
    const skewb_model_t *m = p->priv;
    int bt = (int)(index % NB_TWISTS);
    int at = (int)(index / NB_TWISTS % NA_TWISTS);
    int ra = (int)(index / (NB_TWISTS * NA_TWISTS) % 3);
    int rb = (int)(index / (NB_TWISTS * NA_TWISTS * 3) % 12);
    uint64_t rc = index / (NB_TWISTS * NA_TWISTS * 3 * 12);
    uint8_t a[3];
    uint8_t b[4];
    int twist[SKEWB_NCORNERS] = { 0 };
    int sum;

    memset(out->b, 0, sizeof(out->b));
    perm_even_unrank(rc, SKEWB_NFACES, out->b);
    perm_even_unrank((uint64_t)ra, 3, a);
    perm_even_unrank((uint64_t)rb, 4, b);
    sum = 0;
    for (int k = 1; k >= 0; k--) {
        twist[skewb_tetrad_a[k]] = at % 3;
        sum += at % 3;
        at /= 3;
    }
    twist[skewb_tetrad_a[2]] = (m->a_twist[rb] + 6 - sum) % 3;
    sum = 0;
    for (int k = 2; k >= 0; k--) {
        twist[skewb_tetrad_b[k]] = bt % 3;
        sum += bt % 3;
        bt /= 3;
    }
    twist[skewb_tetrad_b[3]] = (m->b_twist[ra] + 9 - sum) % 3;
    /* Slot v of a tetrad is the piece at home in its v-th position. */
    for (int k = 0; k < 3; k++) {
        int i = skewb_tetrad_a[k];

        out->b[SKEWB_CORNER0 + i] =
            (uint8_t)(skewb_tetrad_a[a[k]] * 3 + twist[i]);
    }
    for (int k = 0; k < 4; k++) {
        int i = skewb_tetrad_b[k];

        out->b[SKEWB_CORNER0 + i] =
            (uint8_t)(skewb_tetrad_b[b[k]] * 3 + twist[i]);
    }
    out->b[SKEWB_CORNER0 + SKEWB_UFR] = 0;
}

/*
 * Renames each piece after the place it has in goal: a centre after its
 * face there, a corner after its position, its twist measured from the
 * twist it has there (piece j with twist t becomes piece where[j] with
 * twist t - twist_in_goal[j]). A move carries pieces from places to
 * places and adds a corner twist that depends only on the two positions,
 * so it commutes with the renaming, and goal becomes solved. goal must
 * be a valid state (parsed); UFR is home in every one.
 */
bool
skewb_relabel(const pz_puzzle_t *p,
              const pz_state_t *goal,
              const pz_state_t *s,
              pz_state_t *out)
{
    uint8_t centre_where[SKEWB_NFACES];
    uint8_t where[SKEWB_NCORNERS];
    uint8_t gtwist[SKEWB_NCORNERS];
    uint8_t in[SKEWB_STATE_BYTES];

    (void)p;
    memcpy(in, s->b, SKEWB_STATE_BYTES);
    for (int f = 0; f < SKEWB_NFACES; f++) {
        if (goal->b[f] >= SKEWB_NFACES) {
            return false;
        }
        centre_where[goal->b[f]] = (uint8_t)f;
    }
    for (int i = 0; i < SKEWB_NCORNERS; i++) {
        int j = goal->b[SKEWB_CORNER0 + i] / 3;

        if (j >= SKEWB_NCORNERS) {
            return false;
        }
        where[j] = (uint8_t)i;
        gtwist[j] = (uint8_t)(goal->b[SKEWB_CORNER0 + i] % 3);
    }
    memset(out->b, 0, sizeof(out->b));
    for (int f = 0; f < SKEWB_NFACES; f++) {
        out->b[f] = centre_where[in[f]];
    }
    for (int i = 0; i < SKEWB_NCORNERS; i++) {
        int j = in[SKEWB_CORNER0 + i] / 3;
        int t = in[SKEWB_CORNER0 + i] % 3;

        out->b[SKEWB_CORNER0 + i] =
            (uint8_t)(where[j] * 3 + (t + 3 - gtwist[j]) % 3);
    }
    return true;
}

/* --- The "pieces" heuristic ---------------------------------------------- */

typedef struct goal_ctx {
    pz_state_t goal;
} goal_ctx_t;

static int
goal_ctx_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    goal_ctx_t *c = ctx;

    (void)p;
    c->goal = *goal;
    return PZ_OK;
}

/* ceil(n / k) */
static int
up(int n, int k)
{
    return (n + k - 1) / k;
}

/*
 * "pieces": with C centres, A corners of tetrad A and B corners of tetrad
 * B not as in the goal (place, or twist), h = max(ceil(C / 3),
 * ceil(A / 3), ceil(B / 3), ceil((A + B) / 4)). A move changes 3 centres
 * and 4 corners, 3 of one tetrad and 1 of the other, so it lowers each
 * count by at most the divisor under it and each term by at most 1,
 * hence the maximum by at most 1. The goal scores 0, so h never exceeds
 * the moves left: admissible, and consistent.
 */
static int
pieces_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const goal_ctx_t *c = ctx;
    int centres = 0;
    int a = 0;
    int b = 0;
    int h;

    (void)p;
    for (int f = 0; f < SKEWB_NFACES; f++) {
        centres += s->b[f] != c->goal.b[f];
    }
    for (int i = 0; i < SKEWB_NCORNERS; i++) {
        int wrong =
            s->b[SKEWB_CORNER0 + i] != c->goal.b[SKEWB_CORNER0 + i] ? 1 : 0;

        if (skewb_in_tetrad_a(i)) {
            a += wrong;
        } else {
            b += wrong;
        }
    }
    h = up(centres, 3);
    h = up(a, 3) > h ? up(a, 3) : h;
    h = up(b, 3) > h ? up(b, 3) : h;
    return up(a + b, 4) > h ? up(a + b, 4) : h;
}

static const heuristic_ops_t pieces_heuristic = {
    .name = "pieces",
    .summary = "max(ceil(centres wrong / 3), ceil(corners wrong per tetrad "
               "/ 3), ceil(corners wrong / 4)); admissible",
    .admissible = true,
    .ctx_bytes = sizeof(goal_ctx_t),
    .init = goal_ctx_init,
    .eval = pieces_eval,
    .update = NULL,
};

const heuristic_ops_t *const skewb_heuristics[] = {
    &pieces_heuristic,
    &complete_heuristic_exact,
    NULL,
};
