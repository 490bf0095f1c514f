/* SPDX-License-Identifier: MIT */
/* budget.c - byte accounting for per-job search memory. */
#include "budget.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void
budget_init(pz_budget_t *b, size_t limit)
{
    b->limit = limit;
    atomic_init(&b->used, 0);
    atomic_init(&b->peak, 0);
    atomic_init(&b->refusals, 0);
}

/* Reserves size bytes; false (and nothing reserved) past the limit. */
static int
budget_charge(pz_budget_t *b, size_t size)
{
    size_t used;
    size_t next;
    size_t peak;

    if (b == NULL) {
        return 1;
    }
    used = atomic_load_explicit(&b->used, memory_order_relaxed);
    do {
        if (size > SIZE_MAX - used ||
            (b->limit != 0 && used + size > b->limit)) {
            atomic_fetch_add_explicit(&b->refusals, 1, memory_order_relaxed);
            return 0;
        }
        next = used + size;
    } while (!atomic_compare_exchange_weak_explicit(
        &b->used, &used, next, memory_order_relaxed, memory_order_relaxed));
    peak = atomic_load_explicit(&b->peak, memory_order_relaxed);
    while (next > peak && !atomic_compare_exchange_weak_explicit(
                              &b->peak, &peak, next, memory_order_relaxed,
                              memory_order_relaxed)) {
    }
    return 1;
}

/* Allocations from this size up get their own mapping from malloc (its
 * default mmap threshold), rounded to whole pages. */
#define MAPPED_MIN ((size_t)128 << 10)
#define PAGE       ((size_t)4096)

/* What an allocation of size bytes really takes: malloc's chunk header and
 * alignment, or whole pages for a mapped block. Charging this, not size,
 * keeps the process's memory within the budget. */
static size_t
charge_of(size_t size)
{
    if (size > SIZE_MAX - PAGE - 16) {
        return SIZE_MAX;
    }
    if (size >= MAPPED_MIN) {
        return (size + 16 + PAGE - 1) & ~(PAGE - 1);
    }
    return (size + 16 + 15) & ~(size_t)15;
}

static void
budget_uncharge(pz_budget_t *b, size_t size)
{
    if (b != NULL) {
        atomic_fetch_sub_explicit(&b->used, size, memory_order_relaxed);
    }
}

void *
budget_alloc(pz_budget_t *b, size_t size)
{
    void *p;

    if (size == 0 || !budget_charge(b, charge_of(size))) {
        return NULL;
    }
    p = malloc(size);
    if (p == NULL) {
        budget_uncharge(b, charge_of(size));
    }
    return p;
}

void *
budget_calloc(pz_budget_t *b, size_t size)
{
    void *p;

    if (size == 0 || !budget_charge(b, charge_of(size))) {
        return NULL;
    }
    p = calloc(1, size);
    if (p == NULL) {
        budget_uncharge(b, charge_of(size));
    }
    return p;
}

void *
budget_realloc(pz_budget_t *b, void *p, size_t old_size, size_t new_size)
{
    void *q;

    if (p == NULL) {
        return budget_alloc(b, new_size);
    }
    if (new_size <= old_size) {
        return p; /* shrinking is never needed by the engines; keep it */
    }
    /* A growing block may be copied: for a moment the old and the new one
     * both exist, and the budget holds both. */
    if (!budget_charge(b, charge_of(new_size))) {
        return NULL;
    }
    q = realloc(p, new_size);
    budget_uncharge(b, q == NULL ? charge_of(new_size) : charge_of(old_size));
    return q;
}

void
budget_free(pz_budget_t *b, void *p, size_t size)
{
    if (p == NULL) {
        return;
    }
    free(p);
    budget_uncharge(b, charge_of(size));
}

size_t
budget_available(const pz_budget_t *b)
{
    size_t used;

    if (b == NULL || b->limit == 0) {
        return SIZE_MAX;
    }
    used = atomic_load_explicit(&b->used, memory_order_relaxed);
    return used >= b->limit ? 0 : b->limit - used;
}
