/* SPDX-License-Identifier: MIT */
/* symmetry.c - the 48 symmetries of the cube as cubies, and conjugation. */
#include <stddef.h>

#include "cube3.h"

/*
 * Design: four generators, written down from the geometry (which piece
 * each position receives and where its reference sticker lands), make the
 * whole group as products; nothing is cached, so the model keeps needing
 * no initialisation. Callers that conjugate often (the two-phase engine's
 * table builder) compute the 48 cubies once themselves. test_twophase
 * checks that every symmetry maps every move onto a move, which a wrong
 * generator or a wrong reflection rule would break.
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

void
cube3_sym_cubie(int s, cube3_cubie_t *out)
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

int
cube3_sym_inverse(int s)
{
    cube3_cubie_t a;
    cube3_cubie_t id;

    cube3_sym_cubie(s, &a);
    cube3_cubie_solved(&id);
    for (int t = 0; t < CUBE3_NSYM; t++) {
        cube3_cubie_t b;

        cube3_sym_cubie(t, &b);
        cube3_cubie_multiply_any(&a, &b, &b);
        if (cube3_cubie_equal(&b, &id)) {
            return t;
        }
    }
    return -1; /* not reached: the symmetries form a group */
}

void
cube3_cubie_conjugate(const cube3_cubie_t *c, int s, cube3_cubie_t *out)
{
    cube3_cubie_t sym;
    cube3_cubie_t inv;

    cube3_sym_cubie(s, &sym);
    cube3_sym_cubie(cube3_sym_inverse(s), &inv);
    cube3_cubie_multiply_any(&sym, c, out);
    cube3_cubie_multiply_any(out, &inv, out);
}

int
cube3_sym_move(int s, int move)
{
    cube3_cubie_t m;

    if (move < 0 || move >= CUBE3_NMOVES) {
        return -1;
    }
    cube3_cubie_conjugate(cube3_move_cubie(move), s, &m);
    for (int k = 0; k < CUBE3_NMOVES; k++) {
        if (cube3_cubie_equal(&m, cube3_move_cubie(k))) {
            return k;
        }
    }
    return -1; /* not reached for a valid symmetry */
}
