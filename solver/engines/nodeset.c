/* SPDX-License-Identifier: MIT */
/* nodeset.c - chunked node pool and open-addressing state index. */

/*
 * Design: nodes are appended to chunks of 2^k nodes, so growth allocates a
 * new chunk and never copies nodes (a multi-gigabyte pool cannot afford a
 * realloc). The index is a linear-probing table of 64-bit slots holding the
 * upper 32 bits of the state's hash as a tag and the node index plus one;
 * comparing tags first means a probe touches a node only when the hashes
 * very probably match. The table doubles at 70% load and is rebuilt from
 * the stored states, which keeps the slot position independent of the tag.
 * Chunk size shrinks for small budgets so a 64 KiB budget still gets a few
 * chunks instead of failing on the first one.
 */
#include "nodeset.h"

#include <stdlib.h>

#define TABLE_INITIAL   1024
#define CHUNK_SHIFT_MAX 16
#define CHUNK_SHIFT_MIN 8
#define CHUNKS_INITIAL  16

/* The largest node count: NONE is reserved and index + 1 must fit in 32
 * bits of a table slot. */
#define COUNT_MAX (UINT32_MAX - 1)

int
nodeset_init(nodeset_t *ns, const pz_puzzle_t *p, pz_budget_t *budget)
{
    size_t limit = budget != NULL ? budget->limit : 0;

    memset(ns, 0, sizeof(*ns));
    ns->budget = budget;
    ns->state_size = p->state_size;
    ns->state_bytes = (p->state_size + 7) & ~(size_t)7;
    ns->node_bytes = sizeof(nodeset_node_t) + ns->state_bytes;
    /* A chunk may take at most a sixteenth of a limited budget, so small
     * budgets fail late (after real work) rather than on the first node. */
    ns->chunk_shift = CHUNK_SHIFT_MAX;
    while (limit != 0 && ns->chunk_shift > CHUNK_SHIFT_MIN &&
           (ns->node_bytes << ns->chunk_shift) > limit / 16) {
        ns->chunk_shift--;
    }
    ns->table = budget_calloc(budget, TABLE_INITIAL * sizeof(uint64_t));
    if (ns->table == NULL) {
        return PZ_ENOMEM;
    }
    ns->table_cap = TABLE_INITIAL;
    return PZ_OK;
}

void
nodeset_cleanup(nodeset_t *ns)
{
    size_t chunk_size;

    if (ns == NULL) {
        return;
    }
    chunk_size = ns->node_bytes << ns->chunk_shift;
    for (size_t i = 0; i < ns->nchunks; i++) {
        budget_free(ns->budget, ns->chunks[i], chunk_size);
    }
    budget_free(ns->budget, ns->chunks, ns->chunks_cap * sizeof(uint8_t *));
    budget_free(ns->budget, ns->table, ns->table_cap * sizeof(uint64_t));
    ns->chunks = NULL;
    ns->table = NULL;
    ns->nchunks = 0;
    ns->chunks_cap = 0;
    ns->table_cap = 0;
    ns->count = 0;
}

uint32_t
nodeset_find(const nodeset_t *ns, const pz_state_t *s, uint64_t hash)
{
    size_t mask = ns->table_cap - 1;
    uint32_t tag = (uint32_t)(hash >> 32);

    for (size_t pos = hash & mask;; pos = (pos + 1) & mask) {
        uint64_t slot = ns->table[pos];
        uint32_t index;

        if (slot == 0) {
            return NODESET_NONE;
        }
        if ((uint32_t)(slot >> 32) != tag) {
            continue;
        }
        index = (uint32_t)slot - 1;
        if (memcmp(nodeset_state_bytes(ns, index), s->b, ns->state_size) == 0) {
            return index;
        }
    }
}

/* Doubles the table and reinserts every node from its stored state. */
static int
grow_table(nodeset_t *ns)
{
    size_t cap = ns->table_cap * 2;
    size_t mask = cap - 1;
    uint64_t *table = budget_calloc(ns->budget, cap * sizeof(uint64_t));

    if (table == NULL) {
        return PZ_ENOMEM;
    }
    for (uint32_t i = 0; i < ns->count; i++) {
        uint64_t hash =
            state_hash_bytes(nodeset_state_bytes(ns, i), ns->state_size);
        size_t pos = hash & mask;

        while (table[pos] != 0) {
            pos = (pos + 1) & mask;
        }
        table[pos] = (hash >> 32) << 32 | ((uint64_t)i + 1);
    }
    budget_free(ns->budget, ns->table, ns->table_cap * sizeof(uint64_t));
    ns->table = table;
    ns->table_cap = cap;
    return PZ_OK;
}

/* Makes room for node index ns->count, adding a chunk when needed. */
static int
reserve_node(nodeset_t *ns)
{
    size_t chunk_size = ns->node_bytes << ns->chunk_shift;
    uint8_t *chunk;

    if (ns->count == COUNT_MAX) {
        return PZ_ENOMEM;
    }
    if (((size_t)ns->count >> ns->chunk_shift) < ns->nchunks) {
        return PZ_OK;
    }
    if (ns->nchunks == ns->chunks_cap) {
        size_t cap = ns->chunks_cap != 0 ? ns->chunks_cap * 2 : CHUNKS_INITIAL;
        uint8_t **chunks = budget_realloc(ns->budget, ns->chunks,
                                          ns->chunks_cap * sizeof(uint8_t *),
                                          cap * sizeof(uint8_t *));

        if (chunks == NULL) {
            return PZ_ENOMEM;
        }
        ns->chunks = chunks;
        ns->chunks_cap = cap;
    }
    chunk = budget_alloc(ns->budget, chunk_size);
    if (chunk == NULL) {
        return PZ_ENOMEM;
    }
    ns->chunks[ns->nchunks++] = chunk;
    return PZ_OK;
}

int
nodeset_add(nodeset_t *ns,
            const pz_state_t *s,
            uint64_t hash,
            nodeset_result_t *out)
{
    uint32_t tag = (uint32_t)(hash >> 32);
    size_t mask = ns->table_cap - 1;
    size_t pos = hash & mask;
    nodeset_node_t *node;
    int rc;

    for (;; pos = (pos + 1) & mask) {
        uint64_t slot = ns->table[pos];

        if (slot == 0) {
            break;
        }
        if ((uint32_t)(slot >> 32) == tag &&
            memcmp(nodeset_state_bytes(ns, (uint32_t)slot - 1), s->b,
                   ns->state_size) == 0) {
            out->index = (uint32_t)slot - 1;
            out->added = false;
            return PZ_OK;
        }
    }
    /* Keep the load under 70% so probe runs stay short. */
    if (((size_t)ns->count + 1) * 10 > ns->table_cap * 7) {
        rc = grow_table(ns);
        if (rc != PZ_OK) {
            return rc;
        }
        mask = ns->table_cap - 1;
        pos = hash & mask;
        while (ns->table[pos] != 0) {
            pos = (pos + 1) & mask;
        }
    }
    rc = reserve_node(ns);
    if (rc != PZ_OK) {
        return rc;
    }
    node = nodeset_node(ns, ns->count);
    memset(node, 0, sizeof(*node));
    node->parent = NODESET_NONE;
    memcpy(node + 1, s->b, ns->state_bytes);
    ns->table[pos] = (uint64_t)tag << 32 | ((uint64_t)ns->count + 1);
    out->index = ns->count++;
    out->added = true;
    return PZ_OK;
}
