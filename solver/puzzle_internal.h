/* SPDX-License-Identifier: MIT */
/* puzzle_internal.h - the puzzle files' registry entries (solver/ only). */
#ifndef PZ_SOLVER_PUZZLE_INTERNAL_H
#define PZ_SOLVER_PUZZLE_INTERNAL_H

#include "puzzle.h"

extern const puzzle_ops_t puzzle__tiles;     /* puzzles/tiles/ */
extern const puzzle_ops_t puzzle__cube2;     /* puzzles/cube2/ */
extern const puzzle_ops_t puzzle__cube3;     /* puzzles/cube3/ */
extern const puzzle_ops_t puzzle__pyraminx;  /* puzzles/pyraminx/ */
extern const puzzle_ops_t puzzle__mpyraminx; /* puzzles/mpyraminx/ */
extern const puzzle_ops_t puzzle__skewb;     /* puzzles/skewb/ */

#endif
