/* SPDX-License-Identifier: MIT */
/* solve.h - one engine run of a job: heuristic, budget and checked search. */
#ifndef PZ_SOLVER_SOLVE_H
#define PZ_SOLVER_SOLVE_H

#include <stdatomic.h>

#include "engine.h"
#include "tables.h"

/* What every run of a job shares: the puzzle, the two states, the limits. */
typedef struct solve_spec {
    const pz_puzzle_t *puzzle; /* borrowed */
    pz_state_t start;
    pz_state_t goal;
    pz_limits_t limits;
    int target_length; /* anytime engines; 0 = none */
    int known_length;  /* a solution known already (search_ctx_t known) */
    uint8_t known[PZ_KNOWN_MAX];
    int threads;               /* engines that split; >= 1 */
    bool inverse_pruning_only; /* search_ctx_t's */
    uint32_t frontier_nodes;   /* search_ctx_t's */
} solve_spec_t;

/* One engine's row of a job: its choice, live statistics and result. */
typedef struct solve_run {
    const engine_ops_t *engine; /* static registry entry */
    const char *heuristic;      /* static name: heuristic_ops_t.name */
    double weight;              /* 1 except for wastar */
    pz_stats_t stats;           /* live while running */
    pz_solution_t solution;     /* valid once stats.end_ns != 0 */
    int rc;                     /* PZ_OK, or the internal error */
    pz_solutions_t *solutions;  /* NULL, or several solutions (owned by
                                   the caller; the engine must say
                                   several) */
} solve_run_t;

/* Prepares run for engine e with heuristic (a name valid for the puzzle)
 * and weight. Thread: any. */
void solve_run_init(solve_run_t *run,
                    const engine_ops_t *e,
                    const char *heuristic,
                    double weight);

/* Most shared tables one run needs. */
#define SOLVE_TABLES_MAX 8

/* True when run answers spec in microseconds now (engine_ops_t instant):
 * everything it reads is in memory. Thread: any. */
bool solve_instant(const solve_spec_t *spec, const solve_run_t *run);

/*
 * The shared tables run needs for spec (the engine's, then its
 * heuristic's), by the names the tables module knows: a daemon gets them
 * ready on its table threads before the run starts. Writes at most max
 * names (valid for the life of the process) and returns how many there
 * are. Thread: any.
 */
int solve_tables(const solve_spec_t *spec,
                 const solve_run_t *run,
                 const char **names,
                 int max);

/*
 * Runs one engine: creates the heuristic for spec->goal, a budget of
 * spec->limits.memory_bytes, the search context, and calls engine_run.
 * Everything drawn from the budget must be back when the engine returns;
 * a leak is reported as PZ_EINTERNAL. Returns run->rc. Thread: worker.
 */
int solve_execute(const solve_spec_t *spec,
                  solve_run_t *run,
                  const atomic_bool *cancel);

/* Most named tables (solve_named_tables). */
#define SOLVE_NAMED_MAX 64

/*
 * The named tables of this build, in a stable order (the complete tables
 * of the 8-puzzle, the 2x2x2 in both metrics and the pyraminx; the 15-
 * and 24-puzzle pattern databases; the 3x3x3 pattern databases and
 * two-phase tables; the Master Pyraminx databases): what `puzzled tables
 * list` shows and the daemon prepares. Writes at most max and returns the
 * count. Thread: any.
 */
int solve_named_tables(tables_def_t *out, int max);

/* Installs solve_named_tables as the tables module's provider of named
 * tables (tables_set_named). Thread: main, before tables are listed. */
void solve_register_tables(void);

#endif
