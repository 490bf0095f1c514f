/* SPDX-License-Identifier: MIT */
/* bfs_internal.h - what the breadth-first builder's files share. */
#ifndef PZ_SOLVER_TABLES_BFS_INTERNAL_H
#define PZ_SOLVER_TABLES_BFS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "bfs.h"

/* Chunk marks: got entries at an even or odd depth; no unseen entry. */
#define MARK_HOT0 1u
#define MARK_HOT1 2u
#define MARK_FULL 4u

/* A row made ready to work on: its entries of interest, where its moves
 * go, the target rows asked for. */
typedef struct bfs_slot {
    uint64_t row;
    uint32_t n;     /* entries collected in cols */
    uint32_t *cols; /* rowlen: their columns */
    void *mscratch; /* moves_scratch bytes for the moves callback */
    tables_bfs_edge_t edge[TABLES_BFS_MOVES_MAX];
} bfs_slot_t;

/* Scratch of one worker: two slots, so that the next row's target rows
 * are on their way from memory while this row's are worked on. */
typedef struct bfs_worker {
    bfs_slot_t slot[2];
    uint32_t *hits;          /* rowlen: columns selected from a slot */
    uint8_t *unpacked;       /* rowlen + 8: a MOD3 row, a byte each */
    tables_bfs_edge_t *twin; /* max_twins */
    int ntwin;               /* twins in twin */
    void *tscratch;          /* twins_scratch bytes */
} bfs_worker_t;

/* One search, or one pass over rows, under way. */
typedef struct bfs_search {
    const tables_bfs_spec_t *sp; /* NULL for a pass */
    tables_build_t *b;           /* may be NULL */
    uint64_t entries;            /* nrows * rowlen */
    uint64_t bytes;              /* of sp->data */
    uint64_t chunk_rows;         /* rows per chunk */
    int chunk_shift;             /* chunk_rows = 2^chunk_shift (searches) */
    uint64_t nchunks;
    uint8_t *marks;   /* per chunk, MARK_* */
    bfs_worker_t *w;  /* per worker */
    int nworkers;     /* >= 1 */
    uint64_t reached; /* entries set before this level */
    uint64_t total;   /* progress total */
    /* The level being run. */
    bool back;            /* backward */
    bool probe;           /* d + 1 does not fit: only look for entries */
    unsigned cur_code;    /* the code of depth d */
    unsigned next_code;   /* the code of depth d + 1 */
    unsigned next_exact4; /* 4-bit value of depth d + 1 (at most 15) */
    uint8_t cur_hot;      /* MARK_HOT* of depth d */
    uint8_t next_hot;     /* MARK_HOT* of depth d + 1 */
    uint64_t next_chunk;  /* claimed through __atomic_fetch_add */
    uint64_t found;       /* entries set in the level (atomic adds) */
    bool overflow;        /* probe: an entry would be set */
    bool stopped;         /* cancelled during the level or pass */
    const tables_bfs_pass_t *pass; /* a pass over rows, or NULL */
    uint64_t rows_done;            /* pass: rows finished (atomic adds) */
} bfs_search_t;

/* Table kinds as chunk_level's constant argument: code * 2 + wide. */
enum {
    KIND_MOD3 = TABLES_BFS_MOD3 * 2,
    KIND_MOD3_WIDE,
    KIND_EXACT4 = TABLES_BFS_EXACT4 * 2,
    KIND_EXACT4_WIDE,
    KIND_EXACT8 = TABLES_BFS_EXACT8 * 2,
    KIND_EXACT8_WIDE,
};

/* The value of an unseen entry in code. */
static inline unsigned
unseen_of(tables_bfs_code_t code)
{
    return (1u << (unsigned)code) - 1u;
}

/* Column c of map. */
static inline uint32_t
map_at(const void *map, bool wide, uint32_t c)
{
    return wide ? ((const uint32_t *)map)[c] : ((const uint16_t *)map)[c];
}

/* Where edge e takes column c (the branch goes the same way for a whole
 * row's entries). */
static inline uint32_t
edge_col(const tables_bfs_edge_t *e, bool wide, uint32_t c)
{
    c = map_at(e->map, wide, c);
    if (e->then != NULL) {
        c = map_at(e->then, wide, c);
    }
    return c;
}

/* The byte holding entry i and the shift of its bits there. */
static inline uint8_t *
entry_byte(const uint8_t *data, tables_bfs_code_t code, uint64_t i, int *sh)
{
    uint8_t *d = (uint8_t *)(uintptr_t)data;

    switch (code) {
    case TABLES_BFS_MOD3:
        *sh = (int)(i & 3) << 1;
        return d + (i >> 2);
    case TABLES_BFS_EXACT4:
        *sh = (int)(i & 1) << 2;
        return d + (i >> 1);
    default:
        *sh = 0;
        return d + i;
    }
}

/* Entry i, read so that a concurrent store to its byte is no race. */
static inline unsigned
load_entry(const uint8_t *data, tables_bfs_code_t code, uint64_t i)
{
    int sh;
    const uint8_t *p = entry_byte(data, code, i, &sh);

    return (unsigned)__atomic_load_n(p, __ATOMIC_RELAXED) >> sh &
           unseen_of(code);
}

/* Sets unseen entry i to v in a byte no other worker writes in this
 * level (others may read it). */
static inline void
set_own(uint8_t *data, tables_bfs_code_t code, uint64_t i, unsigned v)
{
    int sh;
    uint8_t *p = entry_byte(data, code, i, &sh);
    unsigned un = unseen_of(code);
    uint8_t old = __atomic_load_n(p, __ATOMIC_RELAXED);

    __atomic_store_n(p, (uint8_t)(old & ~((un ^ v) << sh)), __ATOMIC_RELAXED);
}

/*
 * Sets entry i to v if it is unseen, where other workers may write its
 * byte: the bits of unseen that v lacks are cleared in one atomic step,
 * and the old byte says whether the entry was unseen, that is whether
 * this call set it (within a level every worker writes the same v, so a
 * second claim changes nothing). The plain load first spares the atomic
 * step for entries already set.
 */
static inline bool
claim(uint8_t *data, tables_bfs_code_t code, uint64_t i, unsigned v)
{
    int sh;
    uint8_t *p = entry_byte(data, code, i, &sh);
    unsigned un = unseen_of(code);
    uint8_t old;

    if ((__atomic_load_n(p, __ATOMIC_RELAXED) >> sh & un) != un) {
        return false;
    }
    old = __atomic_fetch_and(p, (uint8_t) ~((un ^ v) << sh), __ATOMIC_RELAXED);
    return (old >> sh & un) == un;
}

/* Writes v into the zeroed 4-bit entry i of exact4: atomically when
 * other workers may write its byte (shared), else with a plain store. */
static inline void
set_exact4(uint8_t *exact4, uint64_t i, unsigned v, bool shared)
{
    uint8_t *p = exact4 + (i >> 1);
    uint8_t bits = (uint8_t)(v << ((i & 1) << 2));

    if (shared) {
        __atomic_fetch_or(p, bits, __ATOMIC_RELAXED);
    } else {
        __atomic_store_n(p,
                         (uint8_t)(__atomic_load_n(p, __ATOMIC_RELAXED) | bits),
                         __ATOMIC_RELAXED);
    }
}

/* Sets bits in the mark of chunk k (other workers may set others). */
static inline void
mark(bfs_search_t *s, uint64_t k, uint8_t bits)
{
    if ((__atomic_load_n(&s->marks[k], __ATOMIC_RELAXED) & bits) != bits) {
        __atomic_fetch_or(&s->marks[k], bits, __ATOMIC_RELAXED);
    }
}

/* Marks the chunk of row as holding entries of depth d + 1. */
static inline void
mark_hot(bfs_search_t *s, uint64_t row)
{
    mark(s, row >> s->chunk_shift, s->next_hot);
}

/* Sets the unseen twins (w->twin, w->ntwin) of the entry in column c of
 * their row, just set. Returns how many it set. */
static inline uint64_t
claim_twins(bfs_search_t *s, const bfs_worker_t *w, uint32_t c)
{
    const tables_bfs_spec_t *sp = s->sp;
    tables_bfs_code_t code = sp->code;
    uint64_t found = 0;

    for (int t = 0; t < w->ntwin; t++) {
        uint64_t j =
            w->twin[t].row * sp->rowlen + edge_col(&w->twin[t], sp->wide, c);

        if (claim(sp->data, code, j, s->next_code)) {
            if (sp->exact4 != NULL) {
                set_exact4(sp->exact4, j, s->next_exact4, true);
            }
            found++;
            mark_hot(s, w->twin[t].row);
        }
    }
    return found;
}

/* Runs the current level on chunk k as worker (bfs_level.c). Returns
 * how many entries it set. */
uint64_t tables_bfs__chunk(bfs_search_t *s, int worker, uint64_t k);

#endif
