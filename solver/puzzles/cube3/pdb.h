/* SPDX-License-Identifier: MIT */
/* pdb.h - pattern-database heuristics for optimal 3x3x3 search. */
#ifndef PZ_SOLVER_CUBE3_PDB_H
#define PZ_SOLVER_CUBE3_PDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "heuristic.h"

/*
 * Three heuristics for the 3x3x3 (any goal), all admissible, each the
 * maximum of several lookups in shared 2-bit tables, saved in the table
 * directory on first use and mapped by later processes:
 *
 * - "pdb-small": the corner table (8! * 3^7 = 88,179,840 entries, 22 MB)
 *   and the "slice" table (the E-slice edges' places, all edge flips and
 *   corner twists, reduced by the 16 symmetries of the U-D axis:
 *   201,553,920 entries, 50 MB) looked up along the three axes.
 * - "pdb": the same with the "sorted slice" table (the E-slice edges'
 *   places and order: 3,529,433,088 entries, 882 MB; in HTM distances of
 *   11 or more are stored as 11).
 * - "pdb-large" (in QTM the same as "pdb"):
 *   the "csplit" table (E-slice edges' places and U-layer corners'
 *   places: 10,431,535,104 entries, 2.6 GB, 12 or more stored as 12)
 *   along the three axes, and the same pattern of the inverse position
 *   along the three axes from a base-offset copy (another 2.6 GB).
 *
 * "pdb" and "pdb-small" are consistent; "pdb-large" is not (the inverse's
 * lookups). docs/3x3x3-optimal.md gives sizes, build times and figures.
 */

/* The kinds of table. */
enum cube3_pdb_kind {
    CUBE3_PDB_CORNERS = 0, /* corner permutation x twist */
    CUBE3_PDB_SLICE,       /* E-slice places x flip x twist, reduced */
    CUBE3_PDB_SORTED,      /* E-slice places and order x flip x twist */
    CUBE3_PDB_CSPLIT,      /* E-slice places x U-corner places x flip x
                              twist, reduced */
    CUBE3_PDB_SEP,         /* corner tetrads x edge slices x flips up to
                              slices x twist, reduced by all 48 */
    CUBE3_PDB_SEP0,        /* the same without flips (tests) */
    CUBE3_PDB_NKINDS,
};

extern const heuristic_ops_t cube3_pdb_heuristic;

/* The 3x3x3's "idastar": the generic engine, except that with one of the
 * pattern-database heuristics each thread searches its subtrees in
 * interleaved lanes so that table misses overlap. */
extern const engine_ops_t cube3_idastar_engine;
extern const heuristic_ops_t cube3_pdb_small_heuristic;
extern const heuristic_ops_t cube3_pdb_large_heuristic;
extern const heuristic_ops_t cube3_pdb_huge_heuristic;

/* Facts about one table. */
typedef struct cube3_pdb_info {
    uint64_t entries;     /* table entries (patterns up to symmetry) */
    size_t bytes;         /* memory they take */
    int max_depth;        /* largest distance in the table */
    int clamp;            /* 0, or: counts[clamp] and every stored
                             distance of clamp mean "clamp or more" */
    uint64_t counts[32];  /* entries at each distance 0..max_depth */
    double build_seconds; /* time the build took (when loaded: the build
                             that wrote the file) */
    bool loaded;          /* read from the table directory, not built */
} cube3_pdb_info_t;

/*
 * Makes sure the table kind (enum cube3_pdb_kind) of the metric (qtm or
 * htm) is built and describes it in *out (may be NULL). Builds it on the
 * first call in the process, which takes from a second (corners) to
 * minutes (sorted slice); later calls return at once. Returns PZ_OK,
 * PZ_EINVAL (unknown kind), PZ_ENOMEM or PZ_EINTERNAL. Thread: any.
 */
int cube3_pdb_table(int kind, bool qtm, cube3_pdb_info_t *out);

/*
 * The same for the slice table heuristic name ("pdb-small", "pdb" or
 * "pdb-large") reads in the metric (in QTM "pdb-large" and "pdb-huge"
 * read the sorted table), or for "pdb-huge" in HTM the separation
 * table's base-offset copy (its counts are the separation table's).
 * PZ_EINVAL for another name.
 */
int cube3_pdb_heuristic_table(const char *heuristic,
                              bool qtm,
                              cube3_pdb_info_t *out);

/*
 * The exact pattern distance of state s (a 20-byte cube3 state, relative
 * to the solved cube) in table kind of the metric, found by walking down
 * the table; the table is built if needed. Returns the distance, or a
 * negative PZ_E* code. For tests and tools. Thread: any.
 */
int cube3_pdb_distance(int kind, bool qtm, const pz_state_t *s);

/*
 * The tables are saved in the table directory (solver/tables) as
 * "3x3x3-pdb-<kind>-<htm|qtm>" and mapped by later processes. Writes at
 * most max definitions of the listed ones to out and returns how many
 * there are (the provider solve_named_tables calls). Thread: any.
 */
struct tables_blob_def;
int cube3_pdb_table_defs(struct tables_blob_def *out, int max);

/*
 * The first moves a search from start to goal must try: all moves at
 * the root, less those that a symmetry fixing both start and goal maps
 * onto a smaller kept move (their subtrees mirror a kept one's). Never
 * empty. The puzzle's root_moves op. Thread: any.
 */
uint64_t cube3_pdb_root_moves(const pz_puzzle_t *p,
                              const pz_state_t *start,
                              const pz_state_t *goal);

/*
 * The second moves a search from start to goal must try after each first
 * move: next[m] (for m < p->nmoves) is allowed_after[m], less the moves
 * that a symmetry fixing start, goal and m maps onto a smaller kept move
 * (pdb_root.c says which are safe to drop). Never empty. The puzzle's
 * root_next_moves op. Thread: any.
 */
void cube3_pdb_root_next_moves(const pz_puzzle_t *p,
                               const pz_state_t *start,
                               const pz_state_t *goal,
                               uint64_t *next);

/*
 * What the base-offset copy of HTM table kind (CUBE3_PDB_CSPLIT: the
 * inverse lookups of "pdb-large"; CUBE3_PDB_SEP: "pdb-huge"'s) says
 * about state s: with base the table's clamp - 3, its pattern distance
 * when that is base + 1 or base + 2, the clamp for the clamp or more, 0
 * for base or less. Builds or loads the tables if needed. Returns the
 * value or a negative PZ_E* code. For tests. Thread: any.
 */
int cube3_pdb_offset_bound(int kind, const pz_state_t *s);

/*
 * Whether heuristic (a name of the 3x3x3's optimal_heuristics) suits a
 * search from start to goal: false for "pdb-huge" in HTM when at least
 * four more edges sit in their goal place flipped than unflipped. Such a
 * start is nearer the superflip (every edge flipped) times the goal than
 * the goal itself, and the separation pattern does not see the
 * superflip: its bounds there are those of much nearer states. The
 * puzzle's optimal_suits op. Thread: any.
 */
bool cube3_pdb_optimal_suits(const pz_puzzle_t *p,
                             const char *heuristic,
                             const pz_state_t *start,
                             const pz_state_t *goal);

/* Bytes of the helper tables made in this process (symmetries,
 * coordinates, slice reductions); the tables themselves are the tables
 * module's (tables_memory_bytes). Shared by all searches and charged to
 * no job. Thread: any. */
size_t cube3_pdb_memory_bytes(void);

#endif
