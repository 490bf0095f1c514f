/* SPDX-License-Identifier: MIT */
/* tiles_internal.h - what tiles.c (the puzzle) and tiles_io.c (its states
 * and scrambles as text) share. */
#ifndef PZ_SOLVER_TILES_INTERNAL_H
#define PZ_SOLVER_TILES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puzzle_internal.h"

#define TILES_MIN   2  /* smallest side */
#define TILES_MAX   8  /* largest side */
#define CELLS_MAX   64 /* TILES_MAX squared */
#define NO_KEY      0xFF
#define MOVE_U      0 /* the tile below the blank slides up */
#define MOVE_D      1 /* the tile above the blank slides down */
#define MOVE_L      2 /* the tile right of the blank slides left */
#define MOVE_R      3 /* the tile left of the blank slides right */
#define TILES_MOVES 4

/* Per-instance tables, in p->priv. */
typedef struct tiles_priv {
    int rows;
    int cols;
    int cells;                           /* rows * cols, <= CELLS_MAX */
    int8_t from[TILES_MOVES][CELLS_MAX]; /* [move][blank]: sliding tile's
                                           cell, or -1 when off the board */
} tiles_priv_t;

/* The Manhattan distance between cells a and b of a board of cols
 * columns. */
static inline int
tiles__cell_distance(int a, int b, int cols)
{
    int dr = a / cols - b / cols;
    int dc = a % cols - b % cols;

    return (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
}

/* A quick answer for any board whose goal has the blank in a corner
 * (tiles_quick.c; puzzle_solving_t quick_solve). */
int tiles__quick_solve(const pz_puzzle_t *p,
                       const pz_state_t *start,
                       const pz_state_t *goal,
                       uint8_t *moves,
                       int max);

/* Longest duplicate string tiles__fsm_generate looks for (a string of
 * moves and its length are held in 32 bits). */
#define TILES_FSM_DEPTH_MAX 14

/* An automaton of duplicate move strings, as tiles__fsm_generate makes
 * it (puzzle_fsm_t). */
typedef struct tiles_fsm {
    int nstates;
    int depth;
    int duplicates;
    int32_t *next; /* [q * TILES_MOVES + m]: next state, or -1: pruned */
} tiles_fsm_t;

/* Finds the duplicate strings of up to depth (2..TILES_FSM_DEPTH_MAX)
 * moves, the same for every board, and their automaton into *out (free
 * with tiles__fsm_free). PZ_OK, PZ_EINVAL or PZ_ENOMEM (out empty).
 * About 1.5 s at depth 13, the build's (tiles_fsm.c); depth 14's
 * automaton has more states than puzzle_fsm_t holds. */
int tiles__fsm_generate(int depth, tiles_fsm_t *out);
void tiles__fsm_free(tiles_fsm_t *f);

/* The automaton the puzzle uses, generated at build time
 * (solver/gen/tiles_fsm_gen.c). */
extern const puzzle_fsm_t tiles__fsm_table;

/* Move names by move id. */
extern const char *const tiles__move_names[TILES_MOVES];

/* Applies move to s into out (may be s); false when no tile can slide
 * that way. The puzzle's apply. */
bool tiles__apply(const pz_puzzle_t *p,
                  const pz_state_t *s,
                  int move,
                  pz_state_t *out);

/* The puzzle's I/O: parse_state, format_state and apply_scramble
 * (puzzle_io_t). */
int tiles__parse_state(const pz_puzzle_t *p,
                       const pz_input_t *in,
                       pz_state_t *out,
                       pz_diag_t *d);
int tiles__format_state(const pz_puzzle_t *p,
                        const pz_state_t *s,
                        char *buf,
                        size_t len);
int tiles__apply_scramble(const pz_puzzle_t *p,
                          const char *text,
                          pz_state_t *state,
                          pz_diag_t *d);

/* The board as a grid of squares, a unit each, the tiles labelled with
 * their numbers and the blank an empty outline (puzzle_draw_t). */
int tiles__picture(const pz_puzzle_t *p,
                   const pz_state_t *s,
                   puzzle_picture_t *out);

#endif
