/* SPDX-License-Identifier: MIT */
/* skewb_internal.h - the Skewb's shared model (solver/puzzles/skewb/ only). */
#ifndef PZ_SOLVER_SKEWB_INTERNAL_H
#define PZ_SOLVER_SKEWB_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "puzzle.h"

/*
 * The fixed-corner Skewb (WCA Regulations, article 12, Skewb notation;
 * cubing.js's "fixed-corner" Skewb notation): the moves R U L B turn the
 * corners DBR, UBL, DFL and DBL by 120 degrees clockwise as seen looking
 * at that corner; the UFR corner is in neither half of any of them and
 * never moves, which fixes the puzzle's orientation.
 *
 * Facelets (0..29): faces U R F D L B (the order of the 3x3x3 facelet
 * string), 5 stickers each, read row by row as seen from outside with
 * the 3x3x3's conventions (U with the B edge on top, D with the F edge on
 * top, the side faces with U on top): top left, top right, centre,
 * bottom left, bottom right. Face f's stickers are 5f..5f+4; they are the
 * 3x3x3 stickers 1, 3, 5, 7, 9 of that face.
 *
 * A state is 14 bytes. Byte f (0..5) is the centre at face f, named by
 * its home face. Byte 6 + i is piece * 3 + twist of the corner at
 * position i; positions and pieces are numbered in the 3x3x3's Kociemba
 * order (UFR UFL UBL UBR DFR DFL DBL DBR), and the twist is the index,
 * in the position's sticker triple (U/D sticker first, then clockwise seen
 * from outside), of the sticker that shows the piece's U or D colour.
 * Byte 6 (UFR) is always 0.
 *
 * The corners form two tetrads that never mix: A = UFR UBL DFL DBR
 * (UFR fixed) and B = UFL UBR DFR DBL. R, U and L turn a corner of A in
 * place and cycle three of B; B turns DBL in place and cycles UBL, DFL
 * and DBR. Reachable states are exactly those with: an even permutation
 * of the centres (6!/2 = 360), an even permutation of tetrad B (12), a
 * cyclic permutation of A's three free corners (3), and two twist sums
 * fixed by the permutations: A's by B's permutation, B's by A's (each
 * R, U or L adds 1 to A's twist sum mod 3 and a 3-cycle to B, each B adds
 * 1 to B's sum and a 3-cycle to A). That leaves 3^2 twists in A and 3^3
 * in B: 360 * 12 * 3 * 9 * 27 = 3,149,280 positions, the published count
 * (Jaap's Puzzle Page, Skewb). The tables that map a permutation to its
 * twist sum are read off the moves at start (skewb_model_t).
 */

enum {
    SKEWB_NFACES = 6,
    SKEWB_NCORNERS = 8,
    SKEWB_NFACELETS = 30,
    SKEWB_STATE_BYTES = 14,
    SKEWB_CORNER0 = 6, /* byte of corner position 0 */
    SKEWB_NMOVES = 8,  /* R R' U U' L L' B B' */
    SKEWB_NCODES = SKEWB_NCORNERS * 3,
    SKEWB_NRANKS = 3149280,
};

/* Corner positions and pieces. */
enum skewb_corner {
    SKEWB_UFR = 0,
    SKEWB_UFL,
    SKEWB_UBL,
    SKEWB_UBR,
    SKEWB_DFR,
    SKEWB_DFL,
    SKEWB_DBL,
    SKEWB_DBR,
};

/* How symbols of a sticker picture are shown in messages. */
typedef enum skewb_sym_kind {
    SKEWB_SYM_CHAR, /* text input: the character */
    SKEWB_SYM_INT,  /* integer input: the number */
    SKEWB_SYM_FACE, /* internal colour 0..5: the face letter */
} skewb_sym_kind_t;

/* The model, built once per process and read-only afterwards. */
typedef struct skewb_model {
    /* Sticker triple of each corner position: U/D sticker first, then
     * clockwise seen from outside. */
    uint8_t corner_facelet[SKEWB_NCORNERS][3];
    /* The centre sticker of each face. */
    uint8_t centre_facelet[SKEWB_NFACES];
    /* Sticker permutation of each move: new[i] = old[perm[m][i]]. */
    uint8_t perm[SKEWB_NMOVES][SKEWB_NFACELETS];
    /* out.b[i] = step[m][i][s.b[src[m][i]]]: the piece that comes from
     * src, its twist advanced by the move. */
    uint8_t src[SKEWB_NMOVES][SKEWB_STATE_BYTES];
    uint8_t step[SKEWB_NMOVES][SKEWB_STATE_BYTES][SKEWB_NCODES];
    /* Twist sum (mod 3) of tetrad A's corners that goes with each even
     * permutation of tetrad B (by its rank, 0..11), and of tetrad B's
     * corners with each cyclic permutation of A (rank 0..2). */
    uint8_t a_twist[12];
    uint8_t b_twist[3];
} skewb_model_t;

/* Positions of the tetrads: A without the fixed UFR, and B. */
extern const uint8_t skewb_tetrad_a[3];
extern const uint8_t skewb_tetrad_b[4];

/* Position names as people say them ("UFR"), and face letters. */
extern const char *const skewb_corner_name[SKEWB_NCORNERS];
extern const char skewb_face_letter[SKEWB_NFACES];

/* The model, or NULL when its construction failed (a bug). Thread: any. */
const skewb_model_t *skewb_model(void);

/* Slot (0..3 in B, 0..2 in A) of a corner within its tetrad; the two
 * tetrads are told apart by skewb_in_tetrad_a. */
int skewb_tetrad_slot(int corner);
int skewb_in_tetrad_a(int corner);

/* Rank (0..11) of the permutation of tetrad B in s and rank (0..2) of the
 * permutation of A's free corners; s must be valid. Thread: any. */
int skewb_rank_b(const pz_state_t *s);
int skewb_rank_a(const pz_state_t *s);

/*
 * Reads a picture of 30 symbols in facelet order into *out and validates
 * it fully: colours, centres, each corner, duplicates, tetrads and
 * permutations, twist sums (codes in pz_error.h, d filled). The fixed
 * corner UFR names the colours of U, R and F. model may be in
 * construction: only corner_facelet, centre_facelet and, unless
 * check_twist is false, a_twist and b_twist are read. Thread: any.
 */
int skewb_picture_to_state(const skewb_model_t *model,
                           const int sym[SKEWB_NFACELETS],
                           skewb_sym_kind_t kind,
                           bool check_twist,
                           pz_state_t *out,
                           pz_diag_t *d);

/* Writes the picture of s, each sticker's colour its home face 0..5. */
void skewb_state_to_picture(const skewb_model_t *model,
                            const pz_state_t *s,
                            int pic[SKEWB_NFACELETS]);

/* The solved state (bytes past the state zero). */
void skewb_solved(pz_state_t *out);

/* Perfect index of the positions, its inverse, and the goal relabelling
 * that lets the shared table serve any goal (puzzle_ops_t). */
uint64_t skewb_rank_count(const pz_puzzle_t *p);
uint64_t skewb_rank(const pz_puzzle_t *p, const pz_state_t *s);
void skewb_unrank(const pz_puzzle_t *p, uint64_t index, pz_state_t *out);
bool skewb_relabel(const pz_puzzle_t *p,
                   const pz_state_t *goal,
                   const pz_state_t *s,
                   pz_state_t *out);

/* The heuristics the puzzle offers, NULL-terminated. */
extern const heuristic_ops_t *const skewb_heuristics[];

#endif
