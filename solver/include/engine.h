/* SPDX-License-Identifier: MIT */
/* engine.h - the search engine interface, registry and the checked runner. */
#ifndef PZ_SOLVER_ENGINE_H
#define PZ_SOLVER_ENGINE_H

#include <stdbool.h>

#include "heuristic.h"
#include "puzzle.h"
#include "search.h"

/* One search algorithm, generic over puzzle_ops_t (one file under
 * solver/engines/ and one line in the registry in engine.c). */
typedef struct engine_ops {
    const char *name;    /* registry key: "astar", "bibfs", ... */
    const char *summary; /* one line for the catalogue */
    bool optimal;        /* shortest answers given an admissible h */
    bool uses_heuristic; /* false: the heuristic is ignored */
    bool subsets;        /* searches a restricted puzzle (puzzle_restrict)
                            with the moves it allows */
    bool several;        /* collects several solutions (search_ctx_t
                            solutions) */
    bool threads;        /* splits one search over search_ctx_t threads */
    /* The one heuristic the engine searches with (a request naming none
     * gets it, one naming another is refused), or NULL: any. */
    const char *heuristic;
    /*
     * Runs the search. Sets out->status to a terminal status and, when it
     * is solved, out->length and out->moves. Returns PZ_OK whenever a
     * status was reached (limits included), or PZ_EINTERNAL/PZ_EUNSUPPORTED
     * for a search it cannot run. Frees everything it drew from the budget
     * before returning. Thread: worker.
     */
    int (*solve)(const search_ctx_t *ctx, pz_solution_t *out);
    /* Optional: whether the engine can search p at all (NULL: every
     * puzzle). A request for an engine that cannot is refused before it
     * is queued (engine_unsupported). */
    bool (*supports)(const pz_puzzle_t *p);
    /* Optional: true when solve would answer p and goal in microseconds
     * now, everything it reads being in memory already (a caller may run
     * it on a thread that must not block). NULL: never. */
    bool (*instant)(const pz_puzzle_t *p, const pz_state_t *goal);
    /* Optional: the shared tables solve will need for p and goal, besides
     * the heuristic's (see heuristic_ops_t's tables). NULL: none. */
    int (*tables)(const pz_puzzle_t *p,
                  const pz_state_t *goal,
                  const char **names,
                  int max);
} engine_ops_t;

/* The generic engine named name (case-insensitive), or NULL. "auto" is
 * not an engine: resolve it with engine_auto. Thread: any. */
const engine_ops_t *engine_find(const char *name);

/* The engine named name for p: one of p's own solvers (puzzle_ops_t
 * solvers), else a generic engine, else NULL. Thread: any. */
const engine_ops_t *engine_find_for(const pz_puzzle_t *p, const char *name);

/* True when name is a generic engine or some puzzle's solver, so that a
 * request can tell "no such engine" from "not for this puzzle".
 * Thread: any. */
bool engine_known(const char *name);

/* NULL-terminated registry of the generic engines. Thread: any. */
const engine_ops_t *const *engine_registry(void);

/* The choice "auto" makes for a puzzle. */
typedef struct engine_choice {
    const engine_ops_t *engine;
    const char *heuristic; /* heuristic name for heuristic_create */
    double weight;         /* for wastar */
    const char *missing;   /* a table whose absence made the choice weaker
                              (its name), or NULL */
} engine_choice_t;

/*
 * Picks the engine and heuristic "auto" means for p and goal (NULL: the
 * default goal): the fastest that is optimal when optimal is true, else
 * the fastest that answers well. The goal matters because shared tables
 * serve some goals only. Thread: any (may look at the table directory).
 */
void engine_auto(const pz_puzzle_t *p,
                 const pz_state_t *goal,
                 bool optimal,
                 engine_choice_t *out);

/* The same for a known start (NULL: any), which the puzzle may weigh in
 * the choice of tables (puzzle_solving_t.optimal_suits). */
void engine_auto_from(const pz_puzzle_t *p,
                      const pz_state_t *start,
                      const pz_state_t *goal,
                      bool optimal,
                      engine_choice_t *out);

/*
 * Runs e on ctx and checks the answer: fills the start and end times and
 * h(start) in ctx->stats, derives ctx->deadline_ns from the time limit when
 * it is 0, runs the engine, replays a solution on ctx->start and compares
 * the end with ctx->goal (a mismatch makes the status failed and returns
 * PZ_EINTERNAL: a bug, never a client error), and sets out->optimal when
 * the engine is optimal, the heuristic admissible and the weight 1.
 * Thread: worker.
 */
int engine_run(const engine_ops_t *e, search_ctx_t *ctx, pz_solution_t *out);

#endif
