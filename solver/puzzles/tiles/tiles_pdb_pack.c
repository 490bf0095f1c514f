/* SPDX-License-Identifier: MIT */
/* tiles_pdb_pack.c - a built pattern database's distances packed into
 * the 4-bit entries the lookups read (tiles_pdb_internal.h). */
#include <stdlib.h>
#include <string.h>

#include "tiles_pdb_internal.h"

/* What packing a built table into 4-bit entries shares. */
typedef struct pack {
    const uint8_t *depth;           /* the distances, a byte each */
    uint8_t *out;                   /* the 4-bit entries (zeroed) */
    int n;                          /* board cells */
    int k;                          /* pattern tiles */
    uint64_t weight[PAT_MAX];       /* place value of each digit */
    uint8_t hd[PAT_MAX][CELLS_MAX]; /* [slot][cell]: Manhattan distance
                                       from the slot's home cell */
    int max[CELLS_MAX];             /* [first cell]: largest entry */
    uint64_t odd[CELLS_MAX];        /* [first cell]: distances below or
                                       of another parity than the
                                       Manhattan distance (a bug) */
    int next;                       /* next first cell to take (atomic) */
} pack_t;

/* Packs the placements whose slots 0..j-1 are on the cells of used (rank
 * prefix x, Manhattan distance md so far) for first cell f. */
static void
pack_from(pack_t *pk, int f, int j, uint64_t used, int md, uint64_t x)
{
    uint64_t digit = 0;

    for (int cell = 0; cell < pk->n; cell++) {
        uint64_t y;
        int m;

        if (used >> cell & 1) {
            continue;
        }
        y = x + digit++ * pk->weight[j];
        m = md + pk->hd[j][cell];
        if (j + 1 < pk->k) {
            pack_from(pk, f, j + 1, used | UINT64_C(1) << cell, m, y);
        } else {
            int diff = pk->depth[y] - m;
            int e = diff >> 1;

            pk->odd[f] += (uint64_t)(diff < 0 || (diff & 1));
            e = e < 0 ? 0 : e > 15 ? 15 : e;
            pk->max[f] = e > pk->max[f] ? e : pk->max[f];
            pk->out[y >> 1] |= (uint8_t)(e << ((y & 1) << 2));
        }
    }
}

/* A worker's share: the placements of the first cells it takes. */
static void
pack_task(void *arg, int index)
{
    pack_t *pk = arg;

    (void)index;
    for (;;) {
        int f = __atomic_fetch_add(&pk->next, 1, __ATOMIC_RELAXED);

        if (f >= pk->n) {
            break;
        }
        pack_from(pk, f, 1, UINT64_C(1) << f, pk->hd[0][f],
                  (uint64_t)f * pk->weight[0]);
    }
}

/*
 * Writes depth's distances (a byte per placement of r's tiles, ranked as
 * place_rank ranks them) into out as 4-bit entries: half the excess
 * of each distance over its tiles' Manhattan distance (every move of a
 * pattern tile changes that by one, so the excess is even), capped at
 * 15, which keeps every lookup admissible. Sets *max_value to the
 * largest entry; PZ_EINTERNAL when a distance is below or of another
 * parity than its Manhattan distance.
 */
int
tiles_pdb__pack(const source_t *r,
                const uint8_t *depth,
                uint8_t *out,
                int *max_value,
                tables_build_t *bd)
{
    pack_t *pk = calloc(1, sizeof(*pk));
    uint64_t m = r->mask;
    uint64_t odd = 0;

    if (pk == NULL) {
        return PZ_ENOMEM;
    }
    pk->depth = depth;
    pk->out = out;
    pk->n = r->rows * r->cols;
    pk->k = perm_bits(r->mask);
    pk->weight[pk->k - 1] = 1;
    for (int j = pk->k - 2; j >= 0; j--) {
        pk->weight[j] = pk->weight[j + 1] * (uint64_t)(pk->n - j - 1);
    }
    for (int j = 0; j < pk->k; j++) {
        int home = __builtin_ctzll(m);

        m &= m - 1;
        for (int c = 0; c < pk->n; c++) {
            pk->hd[j][c] = (uint8_t)tiles__cell_distance(c, home, r->cols);
        }
    }
    /* The placements of one first cell are weight[0] entries from a
     * multiple of it: whole bytes when it is even (three tiles or more),
     * so the workers can share the first cells; else (or without a
     * build, as in tests) one does all. */
    if (pk->k == 1) {
        pack_from(pk, 0, 0, 0, 0, 0);
    } else if (bd != NULL && pk->weight[0] % 2 == 0) {
        tables_build_run(bd, pack_task, pk, tables_build_workers(bd));
    } else {
        pack_task(pk, 0);
    }
    *max_value = 0;
    for (int i = 0; i < pk->n; i++) {
        odd += pk->odd[i];
        *max_value = pk->max[i] > *max_value ? pk->max[i] : *max_value;
    }
    free(pk);
    return odd == 0 ? PZ_OK : PZ_EINTERNAL;
}
