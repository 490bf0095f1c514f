/* SPDX-License-Identifier: MIT */
/* tiles_lookup.h - the bound pattern databases of the tiles heuristics,
 * shared by their lookups (tiles_pdb.c) and the dual search
 * (tiles_dida.c). */
#ifndef PZ_SOLVER_TILES_LOOKUP_H
#define PZ_SOLVER_TILES_LOOKUP_H

#include <stdint.h>

#include "tiles_internal.h"

#define PATS_MAX   4  /* patterns per partition */
#define PAT_MAX    8  /* tiles per pattern */
#define DUAL_CELLS 25 /* cells of the largest board with databases */

/* One pattern's lookup: its table, and where its tiles go in the table's
 * frame. */
typedef struct lookup {
    const uint8_t *data;
    int k;
    uint8_t tile[PAT_MAX];  /* the pattern's tiles in the table's order */
    uint8_t cell[PAT_MAX];  /* their home cells, in the same order */
    uint8_t map[CELLS_MAX]; /* board cell -> table frame cell */
    uint64_t w[PAT_MAX];    /* weight of each slot's digit in the rank */
} lookup_t;

/* One partition: its patterns and, per tile, which pattern and slot. */
typedef struct part {
    int npat;
    lookup_t pat[PATS_MAX];
    int8_t owner[CELLS_MAX]; /* tile -> pattern, -1 for the blank */
    uint8_t slot[CELLS_MAX]; /* tile -> position in its pattern's order */
} part_t;

/* The databases of one goal: its partitions (the larger sum wins). */
typedef struct pdb_ctx {
    int n;
    int z; /* the goal's blank cell */
    int nparts;
    part_t part[2];
    uint8_t home[CELLS_MAX]; /* tile -> its goal cell */
    uint8_t odd[CELLS_MAX];  /* blank cell -> parity of every distance */
} pdb_ctx_t;

/* "pdb-dual": the regular databases and, per blank cell b, those of the
 * goal whose blank is on b, its tiles numbered by their home cells. */
typedef struct dual_ctx {
    pdb_ctx_t reg;
    /* blank cell b -> the databases of the goal with the blank on b */
    pdb_ctx_t goal[DUAL_CELLS];
} dual_ctx_t;

/* The rank of lk's tiles, number c of its goal being on board cell
 * pos[c] (numbers are the tiles' home cells in the lookup's goal). */
static inline uint64_t
lookup_rank(const lookup_t *lk, const uint8_t *pos)
{
    uint64_t used = 0;
    uint64_t x = 0;

    for (int t = 0; t < lk->k; t++) {
        int c = lk->map[pos[lk->cell[t]]];

        x += lk->w[t] * (uint64_t)(c - __builtin_popcountll(
                                           used & ((UINT64_C(1) << c) - 1)));
        used |= UINT64_C(1) << c;
    }
    return x;
}

/* The indices of g's lookups, number c being on cell pos[c], into idx;
 * each entry is prefetched. */
static inline void
pdb_index(const pdb_ctx_t *g, const uint8_t *pos, uint64_t idx[2][PATS_MAX])
{
    for (int pi = 0; pi < g->nparts; pi++) {
        for (int j = 0; j < g->part[pi].npat; j++) {
            const lookup_t *lk = &g->part[pi].pat[j];

            idx[pi][j] = lookup_rank(lk, pos);
            __builtin_prefetch(&lk->data[idx[pi][j]]);
        }
    }
}

/* The larger partition sum of g at the indices idx. */
static inline int
pdb_sum(const pdb_ctx_t *g, uint64_t idx[2][PATS_MAX])
{
    int best = 0;

    for (int pi = 0; pi < g->nparts; pi++) {
        int sum = 0;

        for (int j = 0; j < g->part[pi].npat; j++) {
            sum += g->part[pi].pat[j].data[idx[pi][j]];
        }
        best = sum > best ? sum : best;
    }
    return best;
}

#endif
