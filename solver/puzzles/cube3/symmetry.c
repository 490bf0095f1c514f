/* SPDX-License-Identifier: MIT */
/* symmetry.c - the 48 symmetries of the cube as cubies, and conjugation. */
#include <pthread.h>
#include <stddef.h>

#include "cube3.h"

/*
 * Design: four generators, written down from the geometry (which piece
 * each position receives and where its reference sticker lands), make the
 * whole group as products. The 48 cubies, their inverses and the move
 * each maps every move onto are made once, on first use (pthread_once),
 * so conjugating costs two products wherever it is needed (the optimal
 * search's root symmetries, the two-phase engine's alike orientations
 * and its table builder). test_twophase checks that every symmetry maps
 * every move onto a move, which a wrong generator or a wrong reflection
 * rule would break.
 *
 * Reflections reverse the clockwise order of a corner's stickers, so a
 * reflected corner cannot be described by a twist alone. Code 3 + t means
 * piece sticker k sits at slot (t - k) mod 3, where a plain code t means
 * slot (k + t) mod 3. The product rule below follows from composing these
 * slot maps: position i of a * b receives the piece from position
 * b.cp[i] of a, and b's map at i is applied after a's map.
 */

/* ROT_URF3: position i receives the piece of the position that turns
 * onto it when U goes to R, R to F and F to U. */
static const cube3_cubie_t rot_urf3 = {
    { CUBE3_URF, CUBE3_DFR, CUBE3_DLF, CUBE3_UFL, CUBE3_UBR, CUBE3_DRB,
      CUBE3_DBL, CUBE3_ULB },
    { 1, 2, 1, 2, 2, 1, 2, 1 },
    { CUBE3_UF, CUBE3_FR, CUBE3_DF, CUBE3_FL, CUBE3_UB, CUBE3_BR, CUBE3_DB,
      CUBE3_BL, CUBE3_UR, CUBE3_DR, CUBE3_DL, CUBE3_UL },
    { 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1 },
};

/* ROT_F2: U and D swap, L and R swap, F and B stay. */
static const cube3_cubie_t rot_f2 = {
    { CUBE3_DLF, CUBE3_DFR, CUBE3_DRB, CUBE3_DBL, CUBE3_UFL, CUBE3_URF,
      CUBE3_UBR, CUBE3_ULB },
    { 0, 0, 0, 0, 0, 0, 0, 0 },
    { CUBE3_DL, CUBE3_DF, CUBE3_DR, CUBE3_DB, CUBE3_UL, CUBE3_UF, CUBE3_UR,
      CUBE3_UB, CUBE3_FL, CUBE3_FR, CUBE3_BR, CUBE3_BL },
    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
};

/* ROT_U4: the whole cube turned as U; the middle-layer edges move their
 * F/B sticker onto R/L, so they flip. */
static const cube3_cubie_t rot_u4 = {
    { CUBE3_UBR, CUBE3_URF, CUBE3_UFL, CUBE3_ULB, CUBE3_DRB, CUBE3_DFR,
      CUBE3_DLF, CUBE3_DBL },
    { 0, 0, 0, 0, 0, 0, 0, 0 },
    { CUBE3_UB, CUBE3_UR, CUBE3_UF, CUBE3_UL, CUBE3_DB, CUBE3_DR, CUBE3_DF,
      CUBE3_DL, CUBE3_BR, CUBE3_FR, CUBE3_FL, CUBE3_BL },
    { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1 },
};

/* MIRR_LR2: the reflection in the plane through the U, D, F and B
 * centres. U/D stickers stay on U/D (t = 0), reflected. */
static const cube3_cubie_t mirr_lr2 = {
    { CUBE3_UFL, CUBE3_URF, CUBE3_UBR, CUBE3_ULB, CUBE3_DLF, CUBE3_DFR,
      CUBE3_DRB, CUBE3_DBL },
    { 3, 3, 3, 3, 3, 3, 3, 3 },
    { CUBE3_UL, CUBE3_UF, CUBE3_UR, CUBE3_UB, CUBE3_DL, CUBE3_DF, CUBE3_DR,
      CUBE3_DB, CUBE3_FL, CUBE3_FR, CUBE3_BR, CUBE3_BL },
    { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
};

/* The corner code of slot map "a's code, then b's code". */
static uint8_t
corner_code(int a, int b)
{
    if (a < 3 && b < 3) {
        /* k -> k + a -> k + a + b */
        return (uint8_t)((a + b) % 3);
    }
    if (a < 3) {
        /* k -> k + a -> tb - k - a: reflected, t = tb - a */
        return (uint8_t)(3 + (b - 3 - a + 3) % 3);
    }
    if (b < 3) {
        /* k -> ta - k -> ta - k + b: reflected, t = ta + b */
        return (uint8_t)(3 + (a - 3 + b) % 3);
    }
    /* k -> ta - k -> tb - ta + k: plain, t = tb - ta */
    return (uint8_t)((b - a + 3) % 3);
}

void
cube3_cubie_multiply_any(const cube3_cubie_t *a,
                         const cube3_cubie_t *b,
                         cube3_cubie_t *out)
{
    cube3_cubie_t r;

    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        r.cp[i] = a->cp[b->cp[i]];
        r.co[i] = corner_code(a->co[b->cp[i]], b->co[i]);
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        r.ep[i] = a->ep[b->ep[i]];
        r.eo[i] = (uint8_t)((a->eo[b->ep[i]] + b->eo[i]) & 1);
    }
    *out = r;
}

/* Symmetry s as the product of its generators. */
static void
build_sym(int s, cube3_cubie_t *out)
{
    int a = s / 16;
    int b = s / 8 % 2;
    int c = s / 2 % 4;
    int d = s % 2;

    cube3_cubie_solved(out);
    for (int i = 0; i < a; i++) {
        cube3_cubie_multiply_any(out, &rot_urf3, out);
    }
    for (int i = 0; i < b; i++) {
        cube3_cubie_multiply_any(out, &rot_f2, out);
    }
    for (int i = 0; i < c; i++) {
        cube3_cubie_multiply_any(out, &rot_u4, out);
    }
    for (int i = 0; i < d; i++) {
        cube3_cubie_multiply_any(out, &mirr_lr2, out);
    }
}

static pthread_once_t syms_once = PTHREAD_ONCE_INIT;
static cube3_cubie_t sym_cubie[CUBE3_NSYM];
static uint8_t sym_inv[CUBE3_NSYM];
static uint8_t sym_move[CUBE3_NSYM][CUBE3_NMOVES];

static void
syms_init(void)
{
    cube3_cubie_t id;

    cube3_cubie_solved(&id);
    for (int s = 0; s < CUBE3_NSYM; s++) {
        build_sym(s, &sym_cubie[s]);
    }
    for (int s = 0; s < CUBE3_NSYM; s++) {
        for (int t = 0; t < CUBE3_NSYM; t++) {
            cube3_cubie_t x;

            cube3_cubie_multiply_any(&sym_cubie[s], &sym_cubie[t], &x);
            if (cube3_cubie_equal(&x, &id)) {
                sym_inv[s] = (uint8_t)t; /* one t: they form a group */
                break;
            }
        }
    }
    for (int s = 0; s < CUBE3_NSYM; s++) {
        for (int m = 0; m < CUBE3_NMOVES; m++) {
            cube3_cubie_t x;

            cube3_cubie_multiply_any(&sym_cubie[s], cube3_move_cubie(m), &x);
            cube3_cubie_multiply_any(&x, &sym_cubie[sym_inv[s]], &x);
            for (int k = 0; k < CUBE3_NMOVES; k++) {
                if (cube3_cubie_equal(&x, cube3_move_cubie(k))) {
                    sym_move[s][m] = (uint8_t)k; /* one k for a symmetry */
                    break;
                }
            }
        }
    }
}

void
cube3_sym_cubie(int s, cube3_cubie_t *out)
{
    pthread_once(&syms_once, syms_init);
    *out = sym_cubie[s];
}

int
cube3_sym_inverse(int s)
{
    pthread_once(&syms_once, syms_init);
    return sym_inv[s];
}

void
cube3_cubie_conjugate(const cube3_cubie_t *c, int s, cube3_cubie_t *out)
{
    pthread_once(&syms_once, syms_init);
    cube3_cubie_multiply_any(&sym_cubie[s], c, out);
    cube3_cubie_multiply_any(out, &sym_cubie[sym_inv[s]], out);
}

int
cube3_sym_move(int s, int move)
{
    if (move < 0 || move >= CUBE3_NMOVES) {
        return -1;
    }
    pthread_once(&syms_once, syms_init);
    return sym_move[s][move];
}
