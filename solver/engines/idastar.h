/* SPDX-License-Identifier: MIT */
/* idastar.h - the IDA* driver, for a puzzle's own solver that searches
 * the subtrees of each iteration its own way (solver/ only). */
#ifndef PZ_SOLVER_IDASTAR_H
#define PZ_SOLVER_IDASTAR_H

#include <stdbool.h>
#include <stdint.h>

#include "budget.h"
#include "engine.h"

/*
 * The subtrees of one IDA* iteration that a solver's depth-first search
 * (idastar_dfs_fn) takes: take deals out their roots, searched within
 * bound as the engine's own depth-first search would (same pruning by
 * puzzle_allowed_after, same counts, same order of moves).
 */
typedef struct idastar_job {
    const pz_state_t *goal; /* compared with every node whose h is 0 */
    int bound;              /* cut every node with depth + h above it */
    /* Takes the next root: its state, its depth (>= 1) and the moves from
     * the start that reach it (moves[0..depth)); false when none is left.
     * The root counts as expanded already. */
    bool (*take)(void *arg, pz_state_t *root, int *depth, uint8_t *moves);
    size_t task; /* set by take: the index of the root it returned (read
                    it before the next take) */
    /* Optional: reports the expansions below root task when its subtree
     * is done, by depth (by_depth[k]: k + 1 levels below the root, for k
     * < n); a search that does orders the next iteration's roots by them
     * (the deepest levels first) and lets the split deepen for that. */
    void (*done)(void *arg, size_t task, const uint64_t *by_depth, int n);
    /* Called when *expanded reaches *next_poll; PZ_STATUS_RUNNING to go
     * on, else the status that ends the search. */
    int (*poll)(void *arg);
    void *arg;
    uint64_t *expanded;        /* nodes whose children were made */
    uint64_t *generated;       /* children made */
    const uint64_t *next_poll; /* see poll */
    int next;       /* in: INT_MAX; out: smallest depth + h above bound cut */
    int length;     /* out when solved: solution length */
    uint8_t *moves; /* out when solved: the solution (room for
                       PZ_SOLUTION_MAX moves) */
    /* The job's memory budget (may be NULL: uncharged): the search takes
     * its scratch from it (budget_alloc) and returns it before it
     * returns; PZ_ENOMEM when the budget refuses. */
    pz_budget_t *budget;
} idastar_job_t;

/*
 * A depth-first search of job's subtrees with heuristic h, one thread's
 * share of an iteration (a solver that searches several subtrees at once
 * so that one's table misses overlap another's work). Returns
 * PZ_STATUS_RUNNING when every root is done (job->next set),
 * PZ_STATUS_SOLVED (job->length and moves set), the status job->poll
 * returned, or a negative PZ_E* code.
 */
typedef int (*idastar_dfs_fn)(const pz_heuristic_t *h, idastar_job_t *job);

/*
 * Runs IDA* on ctx as the "idastar" engine does (iterations, threads,
 * limits, statistics), handing the subtrees of every iteration to
 * own_dfs when the heuristic is admissible, also on one thread: each
 * iteration is split at the first depth that gives at least
 * tasks_per_thread subtrees per thread (1 on one thread: the start's
 * children, for a search that gains nothing from more roots and would
 * lose the pathmax between them); when own_dfs reports its roots'
 * expansions (job->done), at the first depth that gives one subtree per
 * about a thousand expansions expected, up to a cap, and never
 * shallower than the last split. own_dfs NULL: the engine's own search.
 * Returns as engine_ops_t solve. Thread: worker.
 */
int idastar_solve_split(const search_ctx_t *ctx,
                        pz_solution_t *out,
                        idastar_dfs_fn own_dfs,
                        int tasks_per_thread);

/* With a solver's own search that keeps several subtrees under way per
 * thread, more and smaller tasks keep it busy to the end of an
 * iteration. */
#define IDASTAR_TASKS_OWN 64

/* idastar_solve_split with IDASTAR_TASKS_OWN tasks per thread. */
static inline int
idastar_solve_with(const search_ctx_t *ctx,
                   pz_solution_t *out,
                   idastar_dfs_fn own_dfs)
{
    return idastar_solve_split(ctx, out, own_dfs, IDASTAR_TASKS_OWN);
}

#endif
