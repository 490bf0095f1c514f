/* SPDX-License-Identifier: MIT */
/* prune.c - breadth-first builds of the two-phase pruning tables. */
#include <stdlib.h>
#include <string.h>

#include "twophase_internal.h"

/*
 * Design: both big tables are a symmetry class (a row) times a raw
 * coordinate (a column): phase 1 is flip x slice class x twist, phase 2
 * corner class x U/D edge permutation. Entry (r, c) stands for the cube
 * whose first coordinate is row r's representative and whose second is c,
 * and its value is that cube's distance, so no entry needs special care
 * for classes with self-symmetries: each is an ordinary breadth-first
 * distance, reached through ordinary edges.
 *
 * A move takes the representative of row r to the class of row r' and a
 * symmetry s that depends on r and the move only, never on the column, so
 * one move sends the whole row into one row r' through a fixed column
 * permutation (the column coordinate moved, then conjugated by s). The
 * builder therefore works a row at a time: a 2 KB (phase 1) or 40 KB
 * (phase 2) row and the 18 or 10 rows it reaches stay in cache, where a
 * state-at-a-time breadth-first search would miss memory on nearly every
 * step. Early layers are expanded forwards from the entries at depth d;
 * once those are many, the remaining empty entries look backwards for a
 * neighbour at depth d, which ends at the first hit.
 *
 * The build uses one byte per entry; the result is packed to 4 bits.
 */

#define EMPTY 0xff

/* One row-by-column breadth-first build. */
typedef struct bfs {
    size_t nrows;           /* symmetry classes */
    size_t rowlen;          /* raw column coordinate count */
    int nmoves;             /* moves of the phase */
    const uint32_t *dest;   /* [nrows][nmoves]: class << 4 | sym reached */
    const uint16_t *colmap; /* [nmoves][16][rowlen]: column reached */
} bfs_t;

/* Fills table (bytes, nrows * rowlen) with distances from entry 0.
 * Returns PZ_OK, PZ_ENOMEM, or PZ_EINTERNAL when some entry stays
 * unreached (all are reachable in both phases). */
static int
bfs_rows(const bfs_t *b, uint8_t *table)
{
    uint64_t total = (uint64_t)b->nrows * b->rowlen;
    uint32_t *mask = calloc(b->nrows, sizeof(*mask)); /* depths in row */
    uint16_t *list = malloc(b->rowlen * sizeof(*list));
    uint64_t filled = 1;
    uint64_t at_depth = 1;
    int rc = PZ_OK;

    if (mask == NULL || list == NULL) {
        rc = PZ_ENOMEM;
        goto out;
    }
    memset(table, EMPTY, total);
    table[0] = 0;
    mask[0] = 1;
    for (int d = 0; filled < total && d < 30; d++) {
        uint64_t next = 0;
        bool forward = at_depth * 9 < total - filled;

        for (size_t r = 0; r < b->nrows; r++) {
            uint8_t *row = table + r * b->rowlen;
            const uint32_t *dest = b->dest + r * (size_t)b->nmoves;

            if (forward) {
                size_t n = 0;

                if (!(mask[r] >> d & 1u)) {
                    continue;
                }
                for (size_t c = 0; c < b->rowlen; c++) {
                    if (row[c] == d) {
                        list[n++] = (uint16_t)c;
                    }
                }
                for (int m = 0; m < b->nmoves; m++) {
                    size_t dr = dest[m] >> 4;
                    const uint16_t *map =
                        b->colmap +
                        ((size_t)m * 16 + (dest[m] & 15)) * b->rowlen;
                    uint8_t *drow = table + dr * b->rowlen;

                    for (size_t i = 0; i < n; i++) {
                        if (drow[map[list[i]]] == EMPTY) {
                            drow[map[list[i]]] = (uint8_t)(d + 1);
                            next++;
                            mask[dr] |= 1u << (d + 1);
                        }
                    }
                }
            } else {
                const uint8_t *drow[TWOPHASE_NMOVES];
                const uint16_t *map[TWOPHASE_NMOVES];

                for (int m = 0; m < b->nmoves; m++) {
                    drow[m] = table + (dest[m] >> 4) * b->rowlen;
                    map[m] = b->colmap +
                             ((size_t)m * 16 + (dest[m] & 15)) * b->rowlen;
                }
                for (size_t c = 0; c < b->rowlen; c++) {
                    if (row[c] != EMPTY) {
                        continue;
                    }
                    for (int m = 0; m < b->nmoves; m++) {
                        if (drow[m][map[m][c]] == d) {
                            row[c] = (uint8_t)(d + 1);
                            next++;
                            mask[r] |= 1u << (d + 1);
                            break;
                        }
                    }
                }
            }
        }
        if (next == 0) {
            break;
        }
        filled += next;
        at_depth = next;
    }
    if (filled != total) {
        rc = PZ_EINTERNAL;
    }
out:
    free(list);
    free(mask);
    return rc;
}

/* Packs bytes into 4-bit entries, saturating at 15. Returns owned memory
 * (free) or NULL. */
static uint8_t *
pack_nibbles(const uint8_t *bytes, size_t n)
{
    uint8_t *out = calloc((n + 1) / 2, 1);

    if (out == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned v = bytes[i] > 15 ? 15u : bytes[i];

        out[i >> 1] |= (uint8_t)(v << ((i & 1) << 2));
    }
    return out;
}

/* Runs b into a byte table and packs it into *out. */
static int
build_packed(const bfs_t *b, uint8_t **out)
{
    size_t n = b->nrows * b->rowlen;
    uint8_t *bytes = malloc(n);
    int rc;

    *out = NULL;
    if (bytes == NULL) {
        return PZ_ENOMEM;
    }
    rc = bfs_rows(b, bytes);
    if (rc == PZ_OK) {
        *out = pack_nibbles(bytes, n);
        if (*out == NULL) {
            rc = PZ_ENOMEM;
        }
    }
    free(bytes);
    return rc;
}

int
twophase__build_prune1(twophase_tables_t *t)
{
    size_t nrows = TWOPHASE_NFLIPSLICE_CLASSES;
    uint32_t *dest = malloc(nrows * TWOPHASE_NMOVES * sizeof(*dest));
    uint16_t *colmap =
        malloc((size_t)TWOPHASE_NMOVES * 16 * CUBE3_NTWIST * sizeof(*colmap));
    bfs_t b = { nrows, CUBE3_NTWIST, TWOPHASE_NMOVES, dest, colmap };
    int rc = PZ_ENOMEM;

    if (dest == NULL || colmap == NULL) {
        goto out;
    }
    for (size_t r = 0; r < nrows; r++) {
        uint32_t fs = t->flipslice_rep[r];
        int slice = (int)(fs / CUBE3_NFLIP);
        int flip = (int)(fs % CUBE3_NFLIP);

        for (int m = 0; m < TWOPHASE_NMOVES; m++) {
            dest[r * TWOPHASE_NMOVES + (size_t)m] =
                t->flipslice_sym[t->slice_move[slice][m] * CUBE3_NFLIP +
                                 t->flip_move[flip][m]];
        }
    }
    for (int m = 0; m < TWOPHASE_NMOVES; m++) {
        for (int s = 0; s < 16; s++) {
            uint16_t *map =
                colmap + ((size_t)m * 16 + (size_t)s) * CUBE3_NTWIST;

            for (int c = 0; c < CUBE3_NTWIST; c++) {
                map[c] = t->twist_conj[t->twist_move[c][m]][s];
            }
        }
    }
    rc = build_packed(&b, &t->prune1);
out:
    free(colmap);
    free(dest);
    return rc;
}

int
twophase__build_prune2(twophase_tables_t *t)
{
    size_t nrows = TWOPHASE_NCORNER_CLASSES;
    uint32_t *dest = malloc(nrows * TWOPHASE_NMOVES2 * sizeof(*dest));
    uint16_t *colmap = malloc((size_t)TWOPHASE_NMOVES2 * 16 *
                              CUBE3_NUD_EDGE_PERM * sizeof(*colmap));
    bfs_t b = { nrows, CUBE3_NUD_EDGE_PERM, TWOPHASE_NMOVES2, dest, colmap };
    int rc = PZ_ENOMEM;

    if (dest == NULL || colmap == NULL) {
        goto out;
    }
    for (size_t r = 0; r < nrows; r++) {
        for (int k = 0; k < TWOPHASE_NMOVES2; k++) {
            dest[r * TWOPHASE_NMOVES2 + (size_t)k] =
                t->corner_sym[t->corner_move[t->corner_rep[r]][k]];
        }
    }
    for (int k = 0; k < TWOPHASE_NMOVES2; k++) {
        for (int s = 0; s < 16; s++) {
            uint16_t *map =
                colmap + ((size_t)k * 16 + (size_t)s) * CUBE3_NUD_EDGE_PERM;

            for (int c = 0; c < CUBE3_NUD_EDGE_PERM; c++) {
                map[c] = t->ud_conj[s][t->ud_move[c][k]];
            }
        }
    }
    rc = build_packed(&b, &t->prune2);
out:
    free(colmap);
    free(dest);
    return rc;
}

void
twophase__build_corner_slice(twophase_tables_t *t)
{
    uint8_t *d = t->corner_slice_prune;
    size_t n = sizeof(t->corner_slice_prune);
    size_t filled = 1;

    /* Small enough (under a megabyte) for plain forward layers. */
    memset(d, EMPTY, n);
    d[0] = 0;
    for (int depth = 0; filled < n; depth++) {
        size_t before = filled;

        for (size_t i = 0; i < n; i++) {
            if (d[i] != depth) {
                continue;
            }
            for (int k = 0; k < TWOPHASE_NMOVES2; k++) {
                size_t j = (size_t)t->corner_move[i / CUBE3_NSLICE_PERM][k] *
                               CUBE3_NSLICE_PERM +
                           t->slice_perm_move[i % CUBE3_NSLICE_PERM][k];

                if (d[j] == EMPTY) {
                    d[j] = (uint8_t)(depth + 1);
                    filled++;
                }
            }
        }
        if (filled == before) {
            break;
        }
    }
}
