/* SPDX-License-Identifier: MIT */
/* cube3.h - the 3x3x3 cubie model: pieces, moves, products and coordinates. */
#ifndef PZ_SOLVER_CUBE3_H
#define PZ_SOLVER_CUBE3_H

#include <stdbool.h>
#include <stdint.h>

#include "pz_error.h"
#include "state.h"

/*
 * A cube with fixed centres is a permutation and orientation of 8 corners
 * and 12 edges. Positions and pieces share one numbering (Kociemba's):
 * a piece is at home when it sits at the position of the same number.
 *
 * Orientation: a corner's twist is the index (0, 1, 2), within its
 * position's sticker triple (cube3_corner_facelet, U/D sticker first, then
 * clockwise seen from outside), of the sticker that shows the piece's U or
 * D colour. An edge's flip is 0 when the position's first sticker
 * (cube3_edge_facelet: the U/D one, or F/B for the middle layer) shows the
 * piece's first colour, else 1.
 *
 * Products follow the "replaced by" convention: (a * b) is a followed by
 * b, with (a*b).cp[i] = a.cp[b.cp[i]] and (a*b).co[i] = a.co[b.cp[i]] +
 * b.co[i] (mod 3); the same for edges mod 2. Applying move m to a cube c
 * is c * cube3_move_cubie(m).
 *
 * The 20-byte puzzle state (pz_state_t, state_size 20): byte i (0..7) is
 * cp[i] * 3 + co[i], byte 8 + i (i = 0..11) is ep[i] * 2 + eo[i]; every
 * byte past 20 is zero.
 */

enum {
    CUBE3_NCORNERS = 8,
    CUBE3_NEDGES = 12,
    CUBE3_NFACELETS = 54,
    CUBE3_STATE_BYTES = 20,
    CUBE3_NMOVES = 18, /* HTM move ids, see cube3_move_cubie */
};

/* Corner positions and pieces. */
enum cube3_corner {
    CUBE3_URF = 0,
    CUBE3_UFL,
    CUBE3_ULB,
    CUBE3_UBR,
    CUBE3_DFR,
    CUBE3_DLF,
    CUBE3_DBL,
    CUBE3_DRB,
};

/* Edge positions and pieces. */
enum cube3_edge {
    CUBE3_UR = 0,
    CUBE3_UF,
    CUBE3_UL,
    CUBE3_UB,
    CUBE3_DR,
    CUBE3_DF,
    CUBE3_DL,
    CUBE3_DB,
    CUBE3_FR,
    CUBE3_FL,
    CUBE3_BL,
    CUBE3_BR,
};

/* A cube at the cubie level. A valid cube has cp and ep permutations of
 * equal parity, twists summing to 0 mod 3 and flips to 0 mod 2. */
typedef struct cube3_cubie {
    uint8_t cp[CUBE3_NCORNERS]; /* corner piece at position i */
    uint8_t co[CUBE3_NCORNERS]; /* its twist, 0..2 */
    uint8_t ep[CUBE3_NEDGES];   /* edge piece at position i */
    uint8_t eo[CUBE3_NEDGES];   /* its flip, 0..1 */
} cube3_cubie_t;

/*
 * Facelets (0..53) are numbered as in the Kociemba string: faces U R F D L
 * B, 9 each, read row by row as seen from outside (cubeface.h). Sticker k
 * of corner position i is cube3_corner_facelet[i][k]; of edge position i,
 * cube3_edge_facelet[i][k]. Face of a facelet: facelet / 9 (0 U, 1 R, 2 F,
 * 3 D, 4 L, 5 B).
 */
extern const uint8_t cube3_corner_facelet[CUBE3_NCORNERS][3];
extern const uint8_t cube3_edge_facelet[CUBE3_NEDGES][2];

/* Names of positions as people say them ("UFR", "DBL", "FR"). */
extern const char *const cube3_corner_name[CUBE3_NCORNERS];
extern const char *const cube3_edge_name[CUBE3_NEDGES];

/* Sets c to the solved cube. */
void cube3_cubie_solved(cube3_cubie_t *c);

/* True when a and b are the same cube. */
bool cube3_cubie_equal(const cube3_cubie_t *a, const cube3_cubie_t *b);

/* out = a * b (a followed by b). out may alias a or b. Thread: any. */
void cube3_cubie_multiply(const cube3_cubie_t *a,
                          const cube3_cubie_t *b,
                          cube3_cubie_t *out);

/* out = c^-1, so c * out = out * c = solved. out may alias c. */
void cube3_cubie_inverse(const cube3_cubie_t *c, cube3_cubie_t *out);

/*
 * The cube that HTM move id move (0..17) makes from the solved cube. Ids
 * are face * 3 + k, faces U R F D L B (0..5), k 0 = clockwise quarter turn,
 * 1 = half turn, 2 = anticlockwise quarter turn: U U2 U' R R2 R' F F2 F'
 * D D2 D' L L2 L' B B2 B'. Returns a static cube; NULL when move is out of
 * range. Thread: any.
 */
const cube3_cubie_t *cube3_move_cubie(int move);

/* c = c * cube3_move_cubie(move); move must be 0..17. */
void cube3_cubie_move(cube3_cubie_t *c, int move);

/* Writes c as the 20-byte state (and zeroes the rest of out). */
void cube3_cubie_to_state(const cube3_cubie_t *c, pz_state_t *out);

/* Reads the 20-byte state. Returns PZ_OK, or PZ_EINVAL when a byte is out
 * of range (the cube itself is not validated: see cube3_cubie_check). */
int cube3_cubie_from_state(const pz_state_t *s, cube3_cubie_t *out);

/* Parity of the corner and of the edge permutation: 0 even, 1 odd. */
int cube3_corner_parity(const cube3_cubie_t *c);
int cube3_edge_parity(const cube3_cubie_t *c);

/*
 * Checks that c is a cube reachable by turns: both arrays permutations
 * (PZ_EDUPLICATE), twists (PZ_ETWIST), flips (PZ_EFLIP), permutation
 * parities equal (PZ_EPARITY). Returns PZ_OK or the first failure, with a
 * sentence in d (d may be NULL). Thread: any.
 */
int cube3_cubie_check(const cube3_cubie_t *c, pz_diag_t *d);

/* --- Coordinates (for table-driven engines) --------------------------- */

/* Corner orientation: the twists of positions 0..6 in base 3, 0..2186. */
int cube3_twist(const cube3_cubie_t *c);
/* Sets co from twist (0..2186); position 7 makes the sum 0 mod 3. */
void cube3_set_twist(cube3_cubie_t *c, int twist);

/* Edge orientation: the flips of positions 0..10 in base 2, 0..2047. */
int cube3_flip(const cube3_cubie_t *c);
/* Sets eo from flip (0..2047); position 11 makes the sum even. */
void cube3_set_flip(cube3_cubie_t *c, int flip);

/* Corner permutation rank (lexicographic), 0..40319; 0 is solved. */
int cube3_corner_perm(const cube3_cubie_t *c);
/* Sets cp from its rank (0..40319). */
void cube3_set_corner_perm(cube3_cubie_t *c, int rank);

/* Edge permutation rank (lexicographic), 0..479001599; 0 is solved. */
int32_t cube3_edge_perm(const cube3_cubie_t *c);
/* Sets ep from its rank (0..479001599). */
void cube3_set_edge_perm(cube3_cubie_t *c, int32_t rank);

/* --- Two-phase coordinates ------------------------------------------- */

/*
 * Kociemba's subgroup G1 = <U, D, R2, L2, F2, B2> is the set of cubes with
 * twist 0, flip 0 and the four middle-layer edges (FR FL BL BR) in the
 * middle layer. Inside G1 a cube is described by its corner permutation,
 * the permutation of the eight U and D edges and that of the four slice
 * edges.
 */
enum {
    CUBE3_NTWIST = 2187,         /* 3^7 */
    CUBE3_NFLIP = 2048,          /* 2^11 */
    CUBE3_NSLICE = 495,          /* C(12, 4) */
    CUBE3_NCORNER_PERM = 40320,  /* 8! */
    CUBE3_NUD_EDGE_PERM = 40320, /* 8! */
    CUBE3_NSLICE_PERM = 24,      /* 4! */
};

/* Which four positions hold the slice edges FR FL BL BR (their order is
 * ignored), 0..494; 0 exactly when they are all in the middle layer. */
int cube3_slice(const cube3_cubie_t *c);
/* Sets ep so that the slice edges occupy the positions of slice (0..494),
 * in increasing piece order, and the U and D edges 0..7 the other
 * positions, in increasing order. eo is left alone. */
void cube3_set_slice(cube3_cubie_t *c, int slice);

/* Inside G1 only: rank of the order of the slice edges in positions 8..11,
 * 0..23; 0 is solved. */
int cube3_slice_perm(const cube3_cubie_t *c);
/* Sets ep[8..11] from the rank (0..23); the rest of ep is left alone. */
void cube3_set_slice_perm(cube3_cubie_t *c, int rank);

/* Inside G1 only: rank of the U and D edges in positions 0..7, 0..40319;
 * 0 is solved. */
int cube3_ud_edge_perm(const cube3_cubie_t *c);
/* Sets ep[0..7] from the rank (0..40319); the rest of ep is left alone. */
void cube3_set_ud_edge_perm(cube3_cubie_t *c, int rank);

/* --- Symmetries (symmetry.c) ------------------------------------------ */

/*
 * The 48 symmetries of the cube (24 rotations, each with or without a
 * reflection) as cubies, index s = 16 * a + 8 * b + 2 * c + d for the
 * product ROT_URF3^a * ROT_F2^b * ROT_U4^c * MIRR_LR2^d (a < 3, b < 2,
 * c < 4, d < 2):
 * - ROT_URF3: 120 degrees around the URF-DBL diagonal, U to R to F;
 * - ROT_F2: 180 degrees around the F-B axis;
 * - ROT_U4: 90 degrees around the U-D axis, as the U turn;
 * - MIRR_LR2: the reflection that swaps L and R.
 * The first 16 (a = 0) keep the U-D axis and map G1 onto itself.
 *
 * A reflected cubie has corner orientations 3..5: code 3 + t means piece
 * sticker k sits at slot (t - k) mod 3 of the position (slots clockwise,
 * U/D first), where a plain code t means slot (k + t) mod 3. Products of
 * such cubies need cube3_cubie_multiply_any.
 */
enum {
    CUBE3_NSYM = 48,
    CUBE3_NSYM_UD = 16, /* symmetries 0..15 keep the U-D axis */
};

/* Writes symmetry s (0..47) as a cubie. Thread: any. */
void cube3_sym_cubie(int s, cube3_cubie_t *out);

/* The index of the inverse of symmetry s (0..47). */
int cube3_sym_inverse(int s);

/* out = a * b for cubies that may be reflected (corner codes 3..5); equal
 * to cube3_cubie_multiply for plain ones. out may alias a or b. */
void cube3_cubie_multiply_any(const cube3_cubie_t *a,
                              const cube3_cubie_t *b,
                              cube3_cubie_t *out);

/* out = S_s * c * S_s^-1 for symmetry s (0..47). A plain cube gives a
 * plain cube. out may alias c. */
void cube3_cubie_conjugate(const cube3_cubie_t *c, int s, cube3_cubie_t *out);

/* The HTM move id of S_s * M * S_s^-1 for HTM move id move; a reflection
 * turns clockwise moves into anticlockwise ones. Thread: any. */
int cube3_sym_move(int s, int move);

/* --- Stickers ---------------------------------------------------------- */

/* Writes the sticker picture of c: pic[f] is the home face (0..5, U R F D
 * L B) of the sticker at facelet f; centres show their own face. */
void cube3_cubie_to_picture(const cube3_cubie_t *c, int pic[CUBE3_NFACELETS]);

/* How the symbols of a picture are shown in messages. */
typedef enum cube3_sym_kind {
    CUBE3_SYM_CHAR, /* text input: the character */
    CUBE3_SYM_INT,  /* integer input: the number */
    CUBE3_SYM_FACE, /* home faces 0..5: the face letter */
} cube3_sym_kind_t;

/*
 * Reads a picture of 54 symbols in facelet order (any six distinct values;
 * the centres say which face each belongs to) into *out and validates it
 * fully. Returns PZ_OK or, with a sentence in d: PZ_ECOLOUR_COUNT (not six
 * colours nine times each), PZ_ECENTRES (two centres alike), PZ_ECORNER /
 * PZ_EEDGE (stickers that no piece has), PZ_EDUPLICATE, PZ_ETWIST,
 * PZ_EFLIP, PZ_EPARITY. kind only affects messages. Thread: any.
 */
int cube3_picture_to_cubie(const int sym[CUBE3_NFACELETS],
                           cube3_sym_kind_t kind,
                           cube3_cubie_t *out,
                           pz_diag_t *d);

#endif
