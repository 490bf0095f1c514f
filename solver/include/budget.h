/* SPDX-License-Identifier: MIT */
/* budget.h - per-job memory budget every search allocation is drawn from. */
#ifndef PZ_SOLVER_BUDGET_H
#define PZ_SOLVER_BUDGET_H

#include <stdatomic.h>
#include <stddef.h>

/*
 * A budget is a byte limit and a running total. Engines allocate their open
 * lists, closed tables, node pools and frontiers through it, in large blocks
 * (never per node); when a block would pass the limit the allocation fails
 * and the engine ends with status memory_limit. A block is charged what it
 * really takes (malloc's header, whole pages for a large block, the old
 * and the new copy while a block grows), so the process's memory stays
 * within the budget. Thread-safe: an engine that splits its search over
 * threads draws from one budget.
 */
typedef struct pz_budget {
    size_t limit;           /* bytes; 0 means no limit */
    atomic_size_t used;     /* bytes currently allocated */
    atomic_size_t peak;     /* highest value used has reached */
    atomic_size_t refusals; /* allocations refused for the limit */
} pz_budget_t;

/* Initialises b with a limit in bytes (0 = unlimited). Thread: any. */
void budget_init(pz_budget_t *b, size_t limit);

/*
 * Allocates size bytes charged to b (b may be NULL: uncharged). Returns NULL
 * when the charge would pass the limit or malloc fails; nothing is charged
 * then. Returns owned memory: free it with budget_free(b, p, size) using the
 * same size. Thread: any.
 */
void *budget_alloc(pz_budget_t *b, size_t size);

/* Like budget_alloc but zero-filled. */
void *budget_calloc(pz_budget_t *b, size_t size);

/*
 * Resizes p (from budget_alloc, old_size bytes) to new_size bytes. On
 * failure returns NULL and p is untouched and still owned by the caller.
 */
void *budget_realloc(pz_budget_t *b, void *p, size_t old_size, size_t new_size);

/* Frees p (NULL is fine) and returns size bytes to b. Thread: any. */
void budget_free(pz_budget_t *b, void *p, size_t size);

/* Bytes still available (SIZE_MAX when unlimited). Thread: any. */
size_t budget_available(const pz_budget_t *b);

#endif
