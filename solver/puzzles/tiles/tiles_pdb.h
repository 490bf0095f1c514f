/* SPDX-License-Identifier: MIT */
/* tiles_pdb.h - additive pattern databases for the sliding tiles. */
#ifndef PZ_SOLVER_TILES_PDB_H
#define PZ_SOLVER_TILES_PDB_H

#include <stdbool.h>

#include "heuristic.h"
#include "puzzle.h"
#include "tables.h"

/* "pdb": additive disjoint pattern databases for tiles (4x4: 7-8, 5x5:
 * 6-6-6-6, boards of up to 12 cells: two halves), each partition with
 * its reflection about the main diagonal on square boards, the larger
 * sum winning. Listed by tiles. */
extern const heuristic_ops_t tiles_pdb_heuristic;

/* "pdb-dual": the largest of "pdb"'s sums and those of the dual board,
 * read with the partitions of the goal whose blank is on the state's
 * blank cell (tiles_pdb_lookup.c); more tables. Listed by tiles. */
extern const heuristic_ops_t tiles_pdb_dual_heuristic;

/* "dida": dual search with "pdb-dual" (tiles_dida.c), one of the
 * tiles' own solvers. */
extern const struct engine_ops tiles_dida_engine;

/* True when "pdb" supports p's board size. Thread: any. */
bool tiles_pdb_supported(const pz_puzzle_t *p);

/*
 * The distinct tables "pdb" needs on a rows x cols board whose goal has
 * the blank at cell blank, as table definitions (groups "15-puzzle",
 * "24-puzzle" or "tiles-RxC"). Writes at most max and returns the count,
 * or PZ_EUNSUPPORTED for a board without a partition. Thread: any.
 */
int tiles_pdb_defs(int rows, int cols, int blank, tables_def_t *out, int max);

/*
 * The distinct tables "pdb-dual" reads on a rows x cols board, those of
 * the goals with the blank on every cell (groups "15-puzzle-dual",
 * "24-puzzle-dual" or "tiles-RxC-dual"), regular ones included. Writes
 * at most max and returns the count, or PZ_EUNSUPPORTED. Thread: any.
 */
int tiles_pdb_dual_defs(int rows, int cols, tables_def_t *out, int max);

#endif
