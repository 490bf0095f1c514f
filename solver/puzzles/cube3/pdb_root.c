/* SPDX-License-Identifier: MIT */
/* pdb_root.c - first moves of an optimal 3x3x3 search, up to symmetry. */

/*
 * When a symmetry S of the cube (a rotation or reflection, conjugating
 * c into S c S^-1) fixes both the start and the goal, it maps every
 * solution m1 m2 ... mk onto the solution S(m1) S(m2) ... S(mk) of the
 * same length. A search therefore needs only one first move from each
 * class of moves that such symmetries map onto each other: the superflip,
 * fixed by all 48, needs 2 of the 18 (a quarter turn and a half turn).
 * The symmetries preserve the metric (a reflection turns a clockwise
 * quarter turn into an anticlockwise one), so this holds in HTM and QTM.
 */
#include "cube3.h"
#include "pdb.h"
#include "puzzle.h"

/* The HTM id of puzzle move m (QTM ids are face * 2 + {0 cw, 1 ccw}). */
static int
to_htm(const pz_puzzle_t *p, int m)
{
    return p->metric == PZ_METRIC_QTM ? m / 2 * 3 + (m & 1) * 2 : m;
}

static int
from_htm(const pz_puzzle_t *p, int h)
{
    if (p->metric != PZ_METRIC_QTM) {
        return h;
    }
    return h % 3 == 1 ? -1 : h / 3 * 2 + (h % 3 == 2);
}

uint64_t
cube3_pdb_root_moves(const pz_puzzle_t *p,
                     const pz_state_t *start,
                     const pz_state_t *goal)
{
    uint64_t all = p->allowed_after[p->nmoves];
    uint64_t keep = all;
    cube3_cubie_t s;
    cube3_cubie_t g;
    int fixing[CUBE3_NSYM];
    int nfix = 0;

    if (p->state_size != CUBE3_STATE_BYTES ||
        cube3_cubie_from_state(start, &s) != PZ_OK ||
        cube3_cubie_from_state(goal, &g) != PZ_OK) {
        return all;
    }
    for (int k = 1; k < CUBE3_NSYM; k++) {
        cube3_cubie_t sc;
        cube3_cubie_t gc;

        cube3_cubie_conjugate(&s, k, &sc);
        cube3_cubie_conjugate(&g, k, &gc);
        if (cube3_cubie_equal(&sc, &s) && cube3_cubie_equal(&gc, &g)) {
            fixing[nfix++] = k;
        }
    }
    /* Keep a move only when no fixing symmetry maps it onto a smaller
     * move id: one per class, the smallest. */
    for (int m = 0; m < p->nmoves; m++) {
        for (int i = 0; i < nfix && (keep >> m & 1u); i++) {
            int img = from_htm(p, cube3_sym_move(fixing[i], to_htm(p, m)));

            if (img >= 0 && img < m && (all >> img & 1u)) {
                keep &= ~(UINT64_C(1) << m);
            }
        }
    }
    return keep != 0 ? keep : all;
}
