/* SPDX-License-Identifier: MIT */
/* tiles_pdb_internal.h - what the tiles' pattern database files share:
 * the board geometry and partitions (tiles_pdb.c), the builder
 * (tiles_pdb_build.c), and the bound databases of the lookups
 * (tiles_pdb_lookup.c) and of the dual search (tiles_dida.c). */
#ifndef PZ_SOLVER_TILES_PDB_INTERNAL_H
#define PZ_SOLVER_TILES_PDB_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "perm.h"
#include "tables.h"
#include "tiles_internal.h"

#define PATS_MAX   4  /* patterns per partition */
#define PAT_MAX    8  /* tiles per pattern */
#define DUAL_CELLS 25 /* cells of the largest board with databases */

/* A partition: disjoint sets of cells (the home cells of the tiles). */
typedef struct partition {
    int npat;
    uint64_t pat[PATS_MAX];
} partition_t;

/* Board geometry for flood fills. */
typedef struct board {
    int rows;
    int cols;
    int n;
    uint64_t full;      /* every cell */
    uint64_t not_first; /* cells not in the first column */
    uint64_t not_last;  /* cells not in the last column */
    uint64_t nbr[CELLS_MAX];
} board_t;

/* Where a pattern's table is: the least image of (cells, start region)
 * under the board's symmetries, and the map into that frame. */
typedef struct canon {
    uint64_t mask;          /* pattern cells in the table's frame */
    int blank;              /* least cell of the blank's start region */
    uint8_t map[CELLS_MAX]; /* board cell -> table frame cell */
} canon_t;

/* A pattern database's board, pattern cells and blank cell (what its
 * build needs), kept for the life of the process: written under
 * sources_lock and published by the count. */
typedef struct source {
    int rows;
    int cols;
    uint64_t mask;
    int blank;
} source_t;

/* Fills b for a rows x cols board. */
void tiles_pdb__board_init(board_t *b, int rows, int cols);

/* The partitions "pdb" uses for a goal with the blank at z (two on square
 * boards: the rule's and its reflection); returns how many, 0 for none. */
int tiles_pdb__partitions(int rows, int cols, int z, partition_t out[2]);

/* The table frame of the pattern on cells pat whose blank starts in the
 * region of cell z (tiles_pdb.c). */
void tiles_pdb__canonical(const board_t *b, uint64_t pat, int z, canon_t *out);

/* The table definition of pattern c on board b; false when no room is
 * left for its source. */
bool tiles_pdb__def(const board_t *b, const canon_t *c, tables_def_t *def);

/* tables_def_t build for a pattern database (tiles_pdb_build.c). */
int tiles_pdb__build(const tables_def_t *def,
                     uint8_t *data,
                     int bits,
                     int *max_value,
                     tables_build_t *bd);

/* The cells of free reachable from cell start through free cells. */
static inline uint64_t
region(const board_t *b, uint64_t free, int start)
{
    uint64_t r = UINT64_C(1) << start;

    for (;;) {
        uint64_t g = r | ((r << 1) & b->not_first) | ((r >> 1) & b->not_last) |
                     (r << b->cols) | (r >> b->cols);

        g &= free;
        if (g == r) {
            return r;
        }
        r = g;
    }
}

/* Packs depth's distances (a byte per placement of r's tiles) into out,
 * the table's 4-bit entries, zeroed (tiles_pdb_pack.c), on bd's threads
 * (bd may be NULL); sets *max_value to the largest entry. PZ_EINTERNAL
 * when a distance is below, or of the other parity than, its tiles'
 * Manhattan distance. */
int tiles_pdb__pack(const source_t *r,
                    const uint8_t *depth,
                    uint8_t *out,
                    int *max_value,
                    tables_build_t *bd);

/* Rank of the placement pos[0..k) of k tiles on n cells: mixed radix,
 * digit j is the rank of pos[j] among the cells pos[0..j) leave free. */
static inline uint64_t
place_rank(const uint8_t *pos, int k, int n)
{
    uint64_t used = 0;
    uint64_t idx = 0;

    for (int j = 0; j < k; j++) {
        uint64_t below = (UINT64_C(1) << pos[j]) - 1;

        idx = idx * (uint64_t)(n - j) +
              (uint64_t)(pos[j] - perm_bits(used & below));
        used |= UINT64_C(1) << pos[j];
    }
    return idx;
}

/* The cell of the i-th (0-based) set bit of m. */
static inline int
select_bit(uint64_t m, int i)
{
    while (i-- > 0) {
        m &= m - 1;
    }
    return __builtin_ctzll(m);
}

/*
 * Tables hold 4-bit entries, two to a byte (the even index in the low
 * nibble): half the excess of a placement's distance over its tiles'
 * Manhattan distance (tiles_pdb_build.c), so a pattern's distance is
 * that Manhattan distance plus twice its entry. The patterns of a
 * partition cover every tile, so a partition's sum is the board's
 * Manhattan distance plus twice the sum of its entries.
 */
static inline int
pdb_entry(const uint8_t *data, uint64_t x)
{
    return data[x >> 1] >> ((x & 1) << 2) & 15;
}

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
    /* [home cell][cell]: the Manhattan distance between them, 0 for the
     * blank's home z */
    uint8_t md[DUAL_CELLS][DUAL_CELLS];
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

/* A board's lookups into one goal's databases: the entries' indices,
 * by partition, and the Manhattan distance they add to (a board's dual
 * has the board's: the tile on cell c, homed on h, puts number c on
 * cell h). */
typedef struct probe {
    uint64_t idx[2][PATS_MAX];
    int md;
} probe_t;

/* The Manhattan distance of g's board with number c on cell pos[c]. */
static inline int
pdb_md(const pdb_ctx_t *g, const uint8_t *pos)
{
    int md = 0;

    for (int c = 0; c < g->n; c++) {
        md += g->md[c][pos[c]];
    }
    return md;
}

/* The indices of g's lookups, number c being on cell pos[c], into pr
 * (not its md); each entry is prefetched. */
static inline void
pdb_index(const pdb_ctx_t *g, const uint8_t *pos, probe_t *pr)
{
    for (int pi = 0; pi < g->nparts; pi++) {
        for (int j = 0; j < g->part[pi].npat; j++) {
            const lookup_t *lk = &g->part[pi].pat[j];

            pr->idx[pi][j] = lookup_rank(lk, pos);
            __builtin_prefetch(&lk->data[pr->idx[pi][j] >> 1]);
        }
    }
}

/* The larger partition sum of g at pr. */
static inline int
pdb_sum(const pdb_ctx_t *g, const probe_t *pr)
{
    int best = 0;

    for (int pi = 0; pi < g->nparts; pi++) {
        int sum = 0;

        for (int j = 0; j < g->part[pi].npat; j++) {
            sum += pdb_entry(g->part[pi].pat[j].data, pr->idx[pi][j]);
        }
        best = sum > best ? sum : best;
    }
    return pr->md + 2 * best;
}

#endif
