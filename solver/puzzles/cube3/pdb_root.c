/* SPDX-License-Identifier: MIT */
/* pdb_root.c - first and second moves of a 3x3x3 search, up to symmetry. */

/*
 * When a symmetry S of the cube (a rotation or reflection, conjugating
 * c into S c S^-1) fixes both the start and the goal, it maps every
 * solution m1 m2 ... mk onto the solution S(m1) S(m2) ... S(mk) of the
 * same length. A search therefore needs only one first move from each
 * class of moves that such symmetries map onto each other: the superflip,
 * fixed by all 48, needs 2 of the 18 (a quarter turn and a half turn).
 * The symmetries preserve the metric (a reflection turns a clockwise
 * quarter turn into an anticlockwise one), so this holds in HTM and QTM.
 * Second moves are reduced by the symmetries that also fix the first
 * move, within the limits the search's move order sets (see
 * cube3_pdb_root_next_moves).
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

/* The symmetries other than the identity that fix both start and goal,
 * with the HTM move each maps every HTM move onto. */
typedef struct root_syms {
    int n;
    uint8_t move[CUBE3_NSYM][CUBE3_NMOVES];
} root_syms_t;

/* Fills rs; false when the states are not cubes. */
static bool
root_syms(const pz_puzzle_t *p,
          const pz_state_t *start,
          const pz_state_t *goal,
          root_syms_t *rs)
{
    cube3_cubie_t s;
    cube3_cubie_t g;

    rs->n = 0;
    if (p->state_size != CUBE3_STATE_BYTES ||
        cube3_cubie_from_state(start, &s) != PZ_OK ||
        cube3_cubie_from_state(goal, &g) != PZ_OK) {
        return false;
    }
    for (int k = 1; k < CUBE3_NSYM; k++) {
        cube3_cubie_t sc;
        cube3_cubie_t gc;

        cube3_cubie_conjugate(&s, k, &sc);
        cube3_cubie_conjugate(&g, k, &gc);
        if (!cube3_cubie_equal(&sc, &s) || !cube3_cubie_equal(&gc, &g)) {
            continue;
        }
        for (int m = 0; m < CUBE3_NMOVES; m++) {
            rs->move[rs->n][m] = (uint8_t)cube3_sym_move(k, m);
        }
        rs->n++;
    }
    return true;
}

/* Puzzle move m seen through fixing symmetry i (-1: not a move of the
 * metric). */
static int
sym_move(const pz_puzzle_t *p, const root_syms_t *rs, int i, int m)
{
    return from_htm(p, rs->move[i][to_htm(p, m)]);
}

uint64_t
cube3_pdb_root_moves(const pz_puzzle_t *p,
                     const pz_state_t *start,
                     const pz_state_t *goal)
{
    uint64_t all = p->allowed_after[p->nmoves];
    uint64_t keep = all;
    root_syms_t rs;

    (void)root_syms(p, start, goal, &rs);
    /* Keep a move only when no fixing symmetry maps it onto a smaller
     * move id: one per class, the smallest. */
    for (int m = 0; m < p->nmoves; m++) {
        for (int i = 0; i < rs.n && (keep >> m & 1u); i++) {
            int img = sym_move(p, &rs, i, m);

            if (img >= 0 && img < m && (all >> img & 1u)) {
                keep &= ~(UINT64_C(1) << m);
            }
        }
    }
    return keep != 0 ? keep : all;
}

/*
 * Second moves. The symmetries that fix start, goal and the first move m1
 * map a solution m1 m2 m3 ... onto m1 S(m2) S(m3) ..., a solution of the
 * same length, but not always in the order the search tries moves in
 * (after a D turn it never tries a U turn: U D is the order kept of two
 * commuting opposite turns). Rewriting it in that order moves the turns
 * of each run of one axis's turns so that those of U, R or F come first
 * (in a shortest solution a run holds at most two faces' turns, and a
 * face's turns within it are alike). When S(m2) is a turn of U, R or F,
 * the face kept first, nothing moves it from second place: its run
 * starts with its face's turns, and m1's own axis is mapped onto itself
 * with its faces kept, since S fixes m1. So of each class of second moves
 * holding such turns only the smallest of those is needed; a class with
 * none keeps all its moves.
 */
void
cube3_pdb_root_next_moves(const pz_puzzle_t *p,
                          const pz_state_t *start,
                          const pz_state_t *goal,
                          uint64_t *next)
{
    root_syms_t rs;

    (void)root_syms(p, start, goal, &rs);
    for (int first = 0; first < p->nmoves; first++) {
        uint64_t all = p->allowed_after[first];
        uint64_t keep = all;
        int stab[CUBE3_NSYM];
        int nstab = 0;

        for (int i = 0; i < rs.n; i++) {
            if (sym_move(p, &rs, i, first) == first) {
                stab[nstab++] = i;
            }
        }
        for (int m = 0; m < p->nmoves; m++) {
            int rep = to_htm(p, m) / 3 < 3 ? m : -1;

            if (!(all >> m & 1u)) {
                continue;
            }
            for (int i = 0; i < nstab; i++) {
                int img = sym_move(p, &rs, stab[i], m);

                if (img >= 0 && (all >> img & 1u) && to_htm(p, img) / 3 < 3 &&
                    (rep < 0 || img < rep)) {
                    rep = img;
                }
            }
            if (rep >= 0 && rep != m) {
                keep &= ~(UINT64_C(1) << m);
            }
        }
        next[first] = keep != 0 ? keep : all;
    }
}
