/* SPDX-License-Identifier: MIT */
/* trinet.h - the triangle net the pyraminx puzzles draw their states in. */
#ifndef PZ_SOLVER_TRINET_H
#define PZ_SOLVER_TRINET_H

#include <stdint.h>

#include "puzzle.h"

/*
 * The net of a tetrahedron held with face F towards you and vertex U on
 * top (the WCA's scramble pictures): F in the middle pointing up, L and R
 * folded out to its left and right, D folded down under F, each face seen
 * from outside. Every face is a triangle of side n units made of n * n
 * small triangles (n = 3 for the Pyraminx, 4 for the Master Pyraminx),
 * drawn slightly shrunk so that the faces stand apart. The back vertex B
 * appears three times: at the top left, the top right and the bottom.
 */
enum trinet_vertex {
    TRINET_U = 0,
    TRINET_L,
    TRINET_R,
    TRINET_B_LEFT,   /* B as a corner of face L */
    TRINET_B_RIGHT,  /* B as a corner of face R */
    TRINET_B_BOTTOM, /* B as a corner of face D */
};

/* The usual colour (0xRRGGBB) of face 0..3 (F L R D): F green, L red,
 * R blue, D yellow. */
uint32_t trinet_colour(int face);

/* Sets the extent of pic to that of the net of faces n units wide. */
void trinet_extent(int n, puzzle_picture_t *pic);

/*
 * Appends to pic the small triangle of a face whose corners in the net are
 * corner[0] (the vertex rows are counted from), corner[1] and corner[2]
 * (enum trinet_vertex): row 0..n-1 counted from corner[0], and j
 * 0..2 * row along the row from the corner[1] side; even j are the
 * triangles with a corner towards corner[0]. Returns PZ_OK, or
 * PZ_EINTERNAL when pic is full or row or j is out of range. Thread: any.
 */
int trinet_add(puzzle_picture_t *pic,
               int n,
               const int corner[3],
               int row,
               int j,
               uint32_t rgb);

#endif
