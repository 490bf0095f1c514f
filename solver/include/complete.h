/* SPDX-License-Identifier: MIT */
/* complete.h - complete distance tables of puzzles that rank their states:
 * the table engine's walk down, the "exact" heuristic, the counts. */
#ifndef PZ_SOLVER_COMPLETE_H
#define PZ_SOLVER_COMPLETE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget.h"
#include "heuristic.h"
#include "puzzle.h"
#include "tables.h"

/*
 * A puzzle that ranks its states (puzzle_ops_t rank_count, rank, unrank;
 * at most 2^26 ranks) gets a complete table: the distance of every rank
 * from its default goal, one shared table (tables module) per puzzle
 * instance ("2x2x2-htm", "tiles-3x3"), built by the tables module's
 * breadth-first builder.
 */

/* The complete table of p (default goal) as a table definition, for the
 * tables module. Returns PZ_OK or PZ_EUNSUPPORTED (p ranks no states, or
 * too many). Thread: any. */
int complete_def(const pz_puzzle_t *p, tables_def_t *def);

/* For a puzzle's named_tables: writes the complete table of puzzle name
 * with params prm to out[0] under group (what `puzzled tables build
 * GROUP` selects). Returns 1, or 0 when max is 0 or that instance has no
 * complete table. Thread: any. */
int complete_named(const char *group,
                   const char *name,
                   const pz_params_t *prm,
                   tables_def_t *out,
                   int max);

/*
 * True when p has a complete table that can serve goal (NULL: the
 * default goal) from the shared cache: p ranks its states, the rank space
 * is small enough, and goal is the default goal or relabels to it. Does
 * not load anything. Thread: any.
 */
bool complete_shared(const pz_puzzle_t *p, const pz_state_t *goal);

/* True when the shared complete table that serves p and goal is in
 * memory, got by an earlier search of this process (it stays until the
 * process ends): a search with it costs microseconds. Thread: any. */
bool complete_in_memory(const pz_puzzle_t *p, const pz_state_t *goal);

/* The shared complete table that serves p and goal (none when goal needs
 * a private table): heuristic_ops_t's tables op of "exact" and the table
 * engine's. Thread: any. */
int complete_needs(const pz_puzzle_t *p,
                   const pz_state_t *goal,
                   const char **names,
                   int max);

/* True when p has rank ops and a small enough rank space for a complete
 * table (for any goal, shared or private). Thread: any. */
bool complete_possible(const pz_puzzle_t *p);

/*
 * Distances of every rank of p from its default goal: counts[d] for d in
 * 0..max (ranks never reached are not counted). Loads or builds the
 * table. Writes at most ncounts values and returns the number of depths
 * (max + 1), or PZ_EUNSUPPORTED / PZ_ENOMEM / PZ_EIO. Thread: any.
 */
int complete_counts(const pz_puzzle_t *p, uint64_t *counts, int ncounts);

/*
 * An exact distance oracle for one puzzle and goal: the shared table
 * (relabelling the goal away when needed) or, when the goal cannot use
 * it, a private table built for that goal. Plain value; init/cleanup.
 */
typedef struct complete_dist {
    const pz_puzzle_t *puzzle; /* borrowed */
    const uint8_t *table;      /* shared table's entries, or NULL */
    uint8_t *own;              /* private entries, or NULL */
    size_t own_bytes;          /* size of own */
    bool own_charged;          /* own came from the budget */
    int bits;                  /* bits per entry: 4 or 8 */
    bool relabel;              /* states pass through ops->relabel */
    bool partial;              /* the rank ignores part of the state */
    pz_state_t goal;           /* the goal given to init */
    pz_state_t target;         /* the goal in the table's terms */
} complete_dist_t;

/*
 * Prepares td for distances of p's states to goal. A private table, when
 * one is needed, is drawn from budget (may be NULL: uncharged). Returns
 * PZ_OK, PZ_EUNSUPPORTED (no complete table for p), PZ_ENOMEM (also when
 * the budget refuses) or PZ_EIO. Thread: any.
 */
int complete_dist_init(complete_dist_t *td,
                       const pz_puzzle_t *p,
                       const pz_state_t *goal,
                       pz_budget_t *budget);

/* Returns td's private memory to budget; td may be zeroed. */
void complete_dist_cleanup(complete_dist_t *td, pz_budget_t *budget);

/*
 * Writes to moves an optimal move sequence from s to td's goal and
 * returns its length, or PZ_EINTERNAL when the table is inconsistent with
 * the puzzle. *probes (may be NULL) gets the number of states looked at.
 * moves must hold PZ_SOLUTION_MAX entries. Thread: any.
 */
int complete_dist_solve(const complete_dist_t *td,
                        const pz_state_t *s,
                        uint8_t *moves,
                        uint64_t *probes);

/* The table's distance of the rank of s (s in the caller's terms; for a
 * partial rank it ignores the unranked parts). Thread: any. */
int complete_dist_lookup(const complete_dist_t *td, const pz_state_t *s);

/* "exact": the true distance from a complete table; for puzzles whose
 * rank is partial, the table distance plus the moves that finish the
 * unranked parts. Listed by puzzles with rank ops. */
extern const heuristic_ops_t complete_heuristic_exact;

#endif
