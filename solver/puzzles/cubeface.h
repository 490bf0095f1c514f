/* SPDX-License-Identifier: MIT */
/* cubeface.h - sticker geometry of an N-layer cube, shared by cube puzzles. */
#ifndef PZ_SOLVER_CUBEFACE_H
#define PZ_SOLVER_CUBEFACE_H

#include <stdint.h>

#include "puzzle.h"

/*
 * Facelets are numbered in the Kociemba order: faces U R F D L B, each
 * n*n stickers read row by row as seen from outside (U with the B edge as
 * row 0, D with the F edge as row 0, the side faces with U on top), so
 * facelet (face, row, col) is face*n*n + row*n + col.
 */
enum cubeface_face {
    CUBEFACE_U = 0,
    CUBEFACE_R,
    CUBEFACE_F,
    CUBEFACE_D,
    CUBEFACE_L,
    CUBEFACE_B,
};

/* Largest number of layers the helper supports. */
#define CUBEFACE_MAX_N 7

/* Facelets of an n-layer cube: 6*n*n. */
static inline int
cubeface_count(int n)
{
    return 6 * n * n;
}

/*
 * Fills perm (cubeface_count(n) entries) with the sticker permutation of
 * turning some layers of face (enum cubeface_face) clockwise as seen
 * looking at that face, quarters times (1, 2 or 3; others are taken mod 4).
 * Bit k of layers selects the k-th layer counted from that face (bit 0: the
 * face itself; all n bits: a whole-cube rotation). The permutation reads
 * new[i] = old[perm[i]]. Returns 0, or -1 when n is outside 1..CUBEFACE_MAX_N
 * or face is out of range. Thread: any.
 */
int cubeface_turn(int n, int face, unsigned layers, int quarters, int *perm);

/*
 * The net pictures draw (puzzle_draw_t): U on top, then L F R B in a row,
 * D under F, each face seen from outside with its facelets where the
 * facelet order reads them, faces side units wide with a gap of
 * side / 10 between them.
 */

/* The usual colour (0xRRGGBB) of face: U white, R red, F green, D yellow,
 * L orange, B blue. */
uint32_t cubeface_colour(int face);

/* The top left corner of face in a net of faces side units wide. */
void cubeface_net_origin(double side, int face, double *x, double *y);

/* Sets the extent of pic to that of a net of faces side units wide. */
void cubeface_net_extent(double side, puzzle_picture_t *pic);

/*
 * Draws the net of an n-layer cube (1..CUBEFACE_MAX_N) into pic, one
 * square a unit wide per facelet in facelet order, facelet f in the
 * colour of face colour[f] (0..5). Returns PZ_OK, or PZ_EINTERNAL when pic
 * has no room or a colour is out of range. Thread: any.
 */
int cubeface_draw_net(int n, const int *colour, puzzle_picture_t *pic);

#endif
