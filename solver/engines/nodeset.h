/* SPDX-License-Identifier: MIT */
/* nodeset.h - a budgeted pool of search nodes with a hash index by state. */
#ifndef PZ_SOLVER_ENGINES_NODESET_H
#define PZ_SOLVER_ENGINES_NODESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "budget.h"
#include "puzzle.h"

/*
 * The graph engines (astar, wastar, bibfs) keep every state they have seen
 * in a nodeset. Nodes live in fixed-size chunks drawn from the search
 * budget, so a node never moves and its index (uint32) stays valid for the
 * whole search; appending in generation order makes a BFS layer a
 * contiguous index range. An open-addressing table maps states to indices.
 * Private to solver/engines/.
 */

/* Index meaning "no node" (the parent of a root). */
#define NODESET_NONE UINT32_MAX

/* The fixed header of every node; the state bytes follow it, padded to a
 * multiple of 8 so state_hash_bytes can read whole words. */
typedef struct nodeset_node {
    uint32_t parent; /* index of the node it was reached from, or NONE */
    uint32_t key;    /* engine-defined priority key (A*: bucket of f) */
    uint16_t g;      /* moves from the root of its search */
    uint16_t h;      /* heuristic estimate, clamped to UINT16_MAX */
    uint8_t move;    /* move that reached it (meaning set by the engine) */
    uint8_t flags;   /* engine-defined bits */
    uint8_t pad[2];  /* keeps the header 16 bytes */
} nodeset_node_t;

typedef struct nodeset {
    pz_budget_t *budget;  /* borrowed; every block is charged to it */
    size_t state_size;    /* meaningful bytes of a state */
    size_t state_bytes;   /* state_size rounded up to 8 */
    size_t node_bytes;    /* header plus state_bytes */
    unsigned chunk_shift; /* nodes per chunk = 1 << chunk_shift */
    uint8_t **chunks;     /* chunk pointers, nchunks used */
    size_t nchunks;       /* chunks allocated */
    size_t chunks_cap;    /* capacity of the chunks array */
    uint32_t count;       /* nodes stored; indices are 0..count-1 */
    uint64_t *table;      /* 0 = empty, else tag << 32 | (index + 1) */
    size_t table_cap;     /* slots, a power of two */
} nodeset_t;

/*
 * Prepares ns for states of p, charging memory to budget (borrowed, may be
 * NULL). Allocates only the small first table. Returns PZ_OK or PZ_ENOMEM
 * (budget exhausted); ns is ready for nodeset_cleanup either way.
 */
int nodeset_init(nodeset_t *ns, const pz_puzzle_t *p, pz_budget_t *budget);

/* Returns every block of ns to its budget. ns may be NULL. */
void nodeset_cleanup(nodeset_t *ns);

/* The node with index i (< ns->count). */
static inline nodeset_node_t *
nodeset_node(const nodeset_t *ns, uint32_t i)
{
    size_t mask = ((size_t)1 << ns->chunk_shift) - 1;

    return (nodeset_node_t *)(ns->chunks[i >> ns->chunk_shift] +
                              (i & mask) * ns->node_bytes);
}

/* The stored state bytes of node i (state_bytes long, zero-padded). */
static inline const uint8_t *
nodeset_state_bytes(const nodeset_t *ns, uint32_t i)
{
    return (const uint8_t *)(nodeset_node(ns, i) + 1);
}

/* Copies the state of node i into out, whose bytes past state_bytes must
 * already be zero (true for a state that was cleared once). */
static inline void
nodeset_load(const nodeset_t *ns, uint32_t i, pz_state_t *out)
{
    memcpy(out->b, nodeset_state_bytes(ns, i), ns->state_bytes);
}

/* Hash of s as the set computes it (puzzle_hash of the same bytes). */
static inline uint64_t
nodeset_hash(const nodeset_t *ns, const pz_state_t *s)
{
    return state_hash_bytes(s->b, ns->state_size);
}

/* Index of the node holding s (hash = nodeset_hash(ns, s)), or NONE. */
uint32_t nodeset_find(const nodeset_t *ns, const pz_state_t *s, uint64_t hash);

/* Where nodeset_add puts its results. */
typedef struct nodeset_result {
    uint32_t index; /* the node holding the state */
    bool added;     /* true: new node, header zeroed except the state */
} nodeset_result_t;

/*
 * Finds s (hash = nodeset_hash(ns, s)) or appends it as a new node with a
 * zeroed header and parent NONE. Returns PZ_OK, or PZ_ENOMEM when the
 * budget cannot hold another chunk or a bigger table (s is then absent and
 * the set is unchanged).
 */
int nodeset_add(nodeset_t *ns,
                const pz_state_t *s,
                uint64_t hash,
                nodeset_result_t *out);

#endif
