/* SPDX-License-Identifier: MIT */
/* heuristic.h - distance estimates for informed search, per puzzle. */
#ifndef PZ_SOLVER_HEURISTIC_H
#define PZ_SOLVER_HEURISTIC_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "budget.h"
#include "puzzle.h"

/*
 * A heuristic estimates the number of moves from a state to the goal it was
 * created for. Each puzzle lists the heuristics it offers (puzzle_ops_t's
 * heuristics); "none" (h = 0) is available for every puzzle.
 */

struct search_ctx;
struct pz_heuristic;

struct heuristic_ops {
    const char *name;    /* "manhattan", "seed", ... */
    const char *summary; /* one line for the catalogue */
    bool admissible;     /* never overestimates (in the puzzle's metric) */
    /* Bytes of context init needs (goal-dependent tables), zeroed by
     * heuristic_create; 0: none. */
    size_t ctx_bytes;
    /* Optional, for a context whose size depends on p: its bytes, used
     * instead of ctx_bytes. */
    size_t (*ctx_size)(const pz_puzzle_t *p);
    /* Prepares ctx (ctx_size bytes, zeroed) for distances to goal. */
    int (*init)(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx);
    /* Estimate for s. Hot path. */
    int (*eval)(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s);
    /* Optional incremental form: the estimate of child, reached from parent
     * (whose estimate is h_parent) by move. NULL: engines call eval. */
    int (*update)(const pz_puzzle_t *p,
                  const void *ctx,
                  const pz_state_t *parent,
                  int h_parent,
                  int move,
                  const pz_state_t *child);
    /* Optional: update for a caller that only needs the exact estimate
     * when it is at most limit (IDA*: the bound less the child's depth).
     * Above limit it may return any admissible estimate above limit, and
     * skip lookups. NULL: engines call update. */
    int (*update_limit)(const pz_puzzle_t *p,
                        const void *ctx,
                        const pz_state_t *parent,
                        int h_parent,
                        int move,
                        const pz_state_t *child,
                        int limit);
    /* Optional: update_limit for every child of parent at once, the
     * children reached by the moves whose bits are set in todo, into
     * out[move] (moves the puzzle refuses from parent are skipped). Lets
     * a heuristic share the parent's work among the children and issue
     * all their table reads before it waits on any. NULL: engines call
     * update_limit per child. */
    void (*children)(const pz_puzzle_t *p,
                     const void *ctx,
                     const pz_state_t *parent,
                     int h_parent,
                     uint64_t todo,
                     int limit,
                     int16_t *out);
    /* Optional: an estimate no state exceeds with this context (the
     * largest entry of its tables, say), so that an engine can skip the
     * lookups of nodes that no estimate could cut. NULL: none known. */
    int (*max_estimate)(const pz_puzzle_t *p, const void *ctx);
    /* Optional: the shared tables init will need for p and goal, by the
     * names the tables module knows them (tables_status), so that a
     * daemon can have them ready before a search starts. Writes at most
     * max names (static strings, or the tables module's registered
     * copies) in the order init gets them, and returns how many there
     * are. NULL: none. */
    int (*tables)(const pz_puzzle_t *p,
                  const pz_state_t *goal,
                  const char **names,
                  int max);
    /* Optional: whether instance p has this heuristic (a puzzle may list
     * one that only some sizes have); unavailable then says which have it.
     * NULL: every instance of a puzzle that lists it. */
    bool (*supports)(const pz_puzzle_t *p);
    const char *unavailable;
    /* Optional: builds what eval reads, drawing from the search's budget
     * under its limits (engine_run calls it before the search starts).
     * Returns PZ_STATUS_RUNNING when ready, a terminal status (a limit
     * reached), or a negative error. */
    int (*prepare)(const struct pz_heuristic *h, const struct search_ctx *ctx);
    /* With prepare: gives back what it drew from the budget. */
    void (*release)(const struct pz_heuristic *h, pz_budget_t *budget);
};

/* A heuristic bound to a puzzle and a goal. Read-only once created; may be
 * shared by threads searching the same goal. */
typedef struct pz_heuristic {
    const heuristic_ops_t *ops;
    const pz_puzzle_t *puzzle; /* borrowed; must outlive the heuristic */
    void *ctx;                 /* owned; ops->ctx_bytes (or ctx_size) bytes */
} pz_heuristic_t;

/* The generic h = 0 heuristic. */
extern const heuristic_ops_t heuristic_none;

/* The pattern databases of a masked goal (mask.c), for every puzzle that
 * declares its pieces. */
extern const heuristic_ops_t heuristic_mask_pdb;

/* The heuristic named name for p (case-insensitive), or NULL. "none" is
 * always found. Thread: any. */
const heuristic_ops_t *heuristic_find(const pz_puzzle_t *p, const char *name);

/*
 * Creates heuristic name for p and goal. Returns owned *out (free with
 * heuristic_destroy); PZ_EHEURISTIC (unknown for this puzzle), PZ_ENOMEM or
 * the init's error otherwise, with *out NULL. Thread: any.
 */
int heuristic_create(const pz_puzzle_t *p,
                     const char *name,
                     const pz_state_t *goal,
                     pz_heuristic_t **out,
                     pz_diag_t *d);

/* Frees h; NULL is fine. */
void heuristic_destroy(pz_heuristic_t *h);

/* h(s); 0 when h is NULL. */
static inline int
heuristic_eval(const pz_heuristic_t *h, const pz_state_t *s)
{
    return h == NULL ? 0 : h->ops->eval(h->puzzle, h->ctx, s);
}

/* h(child) given h(parent); uses the incremental form when there is one. */
static inline int
heuristic_update(const pz_heuristic_t *h,
                 const pz_state_t *parent,
                 int h_parent,
                 int move,
                 const pz_state_t *child)
{
    if (h == NULL) {
        return 0;
    }
    if (h->ops->update != NULL) {
        return h->ops->update(h->puzzle, h->ctx, parent, h_parent, move, child);
    }
    return h->ops->eval(h->puzzle, h->ctx, child);
}

/* h(child) given h(parent), exact when at most limit; above limit any
 * admissible estimate above limit (see update_limit). */
static inline int
heuristic_update_limit(const pz_heuristic_t *h,
                       const pz_state_t *parent,
                       int h_parent,
                       int move,
                       const pz_state_t *child,
                       int limit)
{
    if (h != NULL && h->ops->update_limit != NULL) {
        return h->ops->update_limit(h->puzzle, h->ctx, parent, h_parent, move,
                                    child, limit);
    }
    return heuristic_update(h, parent, h_parent, move, child);
}

/* Whether h computes all of a node's children at once (children op). */
static inline bool
heuristic_has_children(const pz_heuristic_t *h)
{
    return h != NULL && h->ops->children != NULL;
}

/* The children op: update_limit for every move in todo into out[move]. */
static inline void
heuristic_children(const pz_heuristic_t *h,
                   const pz_state_t *parent,
                   int h_parent,
                   uint64_t todo,
                   int limit,
                   int16_t *out)
{
    h->ops->children(h->puzzle, h->ctx, parent, h_parent, todo, limit, out);
}

/* An estimate h never exceeds (max_estimate), INT_MAX when unknown; 0 for
 * NULL (h = 0). */
static inline int
heuristic_max(const pz_heuristic_t *h)
{
    if (h == NULL) {
        return 0;
    }
    return h->ops->max_estimate != NULL
               ? h->ops->max_estimate(h->puzzle, h->ctx)
               : INT_MAX;
}

/* True when h never overestimates; NULL (h = 0) is admissible. */
static inline bool
heuristic_admissible(const pz_heuristic_t *h)
{
    return h == NULL || h->ops->admissible;
}

#endif
