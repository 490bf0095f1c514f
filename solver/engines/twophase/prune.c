/* SPDX-License-Identifier: MIT */
/* prune.c - breadth-first builds of the two-phase pruning tables. */
/* madvise and MADV_HUGEPAGE are outside POSIX; ask for them. */
#define _DEFAULT_SOURCE 1

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "twophase_internal.h"

/*
 * Design: both big tables are a symmetry class (a row) times a raw
 * coordinate (a column): phase 1 is flip x slice class x twist, phase 2
 * corner class x U/D edge permutation. Entry (r, c) stands for the cube
 * whose first coordinate is row r's representative and whose second is c,
 * and its value is that cube's distance. When symmetries fix the
 * representative, several columns of its row stand for cubes that are
 * conjugates of each other ("twins"), all equally far.
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
 * The build keeps the distance mod 3 in 2 bits (Kociemba's encoding; 3
 * marks an entry not reached yet), which packs four entries per byte. A
 * move changes a distance by at most one, so a search that knows a cube's
 * distance learns each neighbour's from its code: phase 1 keeps this 35 MB
 * table. Phase 2 starts from thousands of cubes per solve whose distance
 * would each have to be walked out of such a table, so its build also
 * writes the plain distance (4 bits, at most 15, 56 MB) and keeps that.
 */

/* Huge pages: a search reads the tables at random, and with 4 KB pages
 * nearly every read would also miss the TLB. */
#define HUGE_PAGE ((size_t)2 << 20)

void *
twophase__table_alloc(size_t size)
{
    void *p = NULL;
    size_t rounded = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;

    if (posix_memalign(&p, HUGE_PAGE, rounded) != 0) {
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    /* Advice only: without transparent huge pages it changes nothing. */
    (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
}

/* The 2-bit code of an entry not reached yet. */
#define EMPTY 3u

/* Byte-table sentinel of the small corner x slice table. */
#define EMPTY8 0xff

/* One row-by-column breadth-first build. */
typedef struct bfs {
    size_t nrows;           /* symmetry classes */
    size_t rowlen;          /* raw column coordinate count */
    int nmoves;             /* moves of the phase */
    const uint32_t *dest;   /* [nrows][nmoves]: class << 4 | sym reached */
    const uint16_t *colmap; /* [nmoves][16][rowlen]: column reached */
    const uint16_t *stab;   /* [nrows]: symmetries fixing the row's rep */
    const uint16_t *conj;   /* column c conjugated by s: */
    size_t conj_s;          /*   conj[s * conj_s + c * conj_c] */
    size_t conj_c;
    uint8_t *exact; /* NULL, or 4-bit distances (max 15) to fill */
} bfs_t;

static inline unsigned
get2(const uint8_t *table, size_t i)
{
    return table[i >> 2] >> ((i & 3) << 1) & 3u;
}

/* Sets an EMPTY entry (both bits set) to v by clearing bits. */
static inline void
set2(uint8_t *table, size_t i, unsigned v)
{
    table[i >> 2] &= (uint8_t) ~((EMPTY ^ v) << ((i & 3) << 1));
}

/* Marks empty entry j of table as reached at depth, in both encodings. */
static inline void
reach(const bfs_t *b, uint8_t *table, size_t j, int depth)
{
    set2(table, j, (unsigned)depth % 3);
    if (b->exact != NULL) {
        unsigned v = depth > 15 ? 15u : (unsigned)depth;

        b->exact[j >> 1] |= (uint8_t)(v << ((j & 1) << 2));
    }
}

/*
 * Sets the entries of row r equivalent to column c (conjugates by the
 * symmetries that fix the row's representative) to code, where empty;
 * returns how many were set. A forward step reaches only one of such
 * twins, the one the move's symmetry happens to give, while all are that
 * far away; the backward steps find each twin themselves.
 */
static uint64_t
set_twins(const bfs_t *b, uint8_t *table, size_t r, size_t c, int depth)
{
    uint64_t n = 0;

    for (size_t s = 1; s < 16; s++) {
        size_t j;

        if (!(b->stab[r] >> s & 1u)) {
            continue;
        }
        j = r * b->rowlen + b->conj[s * b->conj_s + c * b->conj_c];
        if (get2(table, j) == EMPTY) {
            reach(b, table, j, depth);
            n++;
        }
    }
    return n;
}

/*
 * Fills table (2 bits per entry, nrows * rowlen entries) with distances
 * mod 3 from entry 0. The code 3 marks entries not reached yet, so a pass
 * for depth d must tell depth d from d - 3, d - 6, ... where both read d
 * mod 3. Going backwards that cannot happen: an entry still empty is at
 * least d + 1 away, so its reached neighbours are exactly d away. Going
 * forwards the older entries are expanded again, which only costs time:
 * their neighbours are all reached already. Returns PZ_OK, PZ_ENOMEM, or
 * PZ_EINTERNAL when some entry stays unreached (all are reachable in both
 * phases).
 */
static int
bfs_rows(const bfs_t *b, uint8_t *table)
{
    uint64_t total = (uint64_t)b->nrows * b->rowlen;
    uint32_t *mask = calloc(b->nrows, sizeof(*mask)); /* depths in row */
    uint32_t *list = malloc(b->rowlen * sizeof(*list));
    uint64_t filled = 1;
    uint64_t at_depth = 1;
    int rc = PZ_OK;

    if (mask == NULL || list == NULL) {
        rc = PZ_ENOMEM;
        goto out;
    }
    memset(table, 0xff, (total + 3) / 4);
    set2(table, 0, 0);
    mask[0] = 1;
    for (int d = 0; filled < total && d < 30; d++) {
        unsigned dm = (unsigned)d % 3;
        uint64_t next = 0;
        bool forward = at_depth * 9 < total - filled;

        for (size_t r = 0; r < b->nrows; r++) {
            size_t base = r * b->rowlen;
            const uint32_t *dest = b->dest + r * (size_t)b->nmoves;

            if (forward) {
                size_t n = 0;

                if (!(mask[r] >> d & 1u)) {
                    continue;
                }
                for (size_t c = 0; c < b->rowlen; c++) {
                    if (get2(table, base + c) == dm) {
                        list[n++] = (uint32_t)c;
                    }
                }
                for (int m = 0; m < b->nmoves; m++) {
                    size_t dr = dest[m] >> 4;
                    const uint16_t *map =
                        b->colmap +
                        ((size_t)m * 16 + (dest[m] & 15)) * b->rowlen;
                    size_t dbase = dr * b->rowlen;

                    for (size_t i = 0; i < n; i++) {
                        size_t j = dbase + map[list[i]];

                        if (get2(table, j) == EMPTY) {
                            reach(b, table, j, d + 1);
                            next++;
                            mask[dr] |= 1u << (d + 1);
                            if (b->stab[dr] != 1) {
                                next += set_twins(b, table, dr, map[list[i]],
                                                  d + 1);
                            }
                        }
                    }
                }
            } else {
                size_t dbase[TWOPHASE_NMOVES];
                const uint16_t *map[TWOPHASE_NMOVES];

                for (int m = 0; m < b->nmoves; m++) {
                    dbase[m] = (dest[m] >> 4) * b->rowlen;
                    map[m] = b->colmap +
                             ((size_t)m * 16 + (dest[m] & 15)) * b->rowlen;
                }
                for (size_t c = 0; c < b->rowlen; c++) {
                    if (get2(table, base + c) != EMPTY) {
                        continue;
                    }
                    for (int m = 0; m < b->nmoves; m++) {
                        if (get2(table, dbase[m] + map[m][c]) == dm) {
                            reach(b, table, base + c, d + 1);
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

/*
 * Writes the phase-1 word of every entry from the 2-bit table: for entry
 * (r, c) and move m, the change of distance to the neighbour, read from
 * the neighbour's code (a move changes the distance by at most one, so
 * the codes tell which way). Row by row, as in the build: a move sends
 * row r into one row through a column map, so the rows stay in cache.
 */
static void
build_phase1_words(twophase_tables_t *t,
                   const uint8_t *table,
                   const uint16_t *colmap)
{
    /* nb - own mod 3: 0 as far (1), 1 farther (2), 2 closer (0). */
    static const uint8_t trit[3] = { 1, 2, 0 };
    uint32_t *out = twophase__phase1_mut(t);
    uint32_t pow3[TWOPHASE_NMOVES];

    pow3[0] = 1;
    for (int m = 1; m < TWOPHASE_NMOVES; m++) {
        pow3[m] = pow3[m - 1] * 3;
    }
    for (size_t r = 0; r < TWOPHASE_NFLIPSLICE_CLASSES; r++) {
        size_t base = r * CUBE3_NTWIST;

        for (int m = 0; m < TWOPHASE_NMOVES; m++) {
            uint32_t dest = t->flipslice_class_move[r][m];
            const uint16_t *map =
                colmap + ((size_t)m * 16 + (dest & 15)) * CUBE3_NTWIST;
            size_t dbase = (size_t)(dest >> 4) * CUBE3_NTWIST;

            for (size_t c = 0; c < CUBE3_NTWIST; c++) {
                unsigned own = get2(table, base + c);
                unsigned nb = get2(table, dbase + map[c]);

                out[base + c] += trit[(nb + 3u - own) % 3u] * pow3[m];
            }
        }
    }
    for (uint32_t v = 0; v < TWOPHASE_TRIT9; v++) {
        uint32_t x = v;
        uint32_t mask = 0;

        for (int k = 0; k < 9; k++) {
            if (x % 3 == 0) {
                mask |= 1u << k;
            } else if (x % 3 == 1) {
                mask |= 1u << (16 + k);
            }
            x /= 3;
        }
        t->trit_masks[v] = mask;
    }
}

int
twophase__build_prune1(twophase_tables_t *t)
{
    size_t nrows = TWOPHASE_NFLIPSLICE_CLASSES;
    const uint32_t *dest = &t->flipslice_class_move[0][0];
    uint16_t *colmap =
        malloc((size_t)TWOPHASE_NMOVES * 16 * CUBE3_NTWIST * sizeof(*colmap));
    uint8_t *table = twophase__table_alloc(((size_t)TWOPHASE_NPRUNE1 + 3) / 4);
    bfs_t b = {
        nrows,
        CUBE3_NTWIST,
        TWOPHASE_NMOVES,
        dest,
        colmap,
        t->flipslice_stab,
        &t->twist_conj[0][0],
        1,
        CUBE3_NSYM_UD,
        NULL,
    };
    int rc = PZ_ENOMEM;

    if (colmap == NULL || table == NULL) {
        goto out;
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
    /* The 2-bit distances are scaffolding for the per-entry words. */
    rc = bfs_rows(&b, table);
    if (rc == PZ_OK) {
        build_phase1_words(t, table, colmap);
    }
out:
    free(table);
    free(colmap);
    return rc;
}

int
twophase__build_prune2(twophase_tables_t *t)
{
    size_t nrows = TWOPHASE_NCORNER_CLASSES;
    uint32_t *dest = malloc(nrows * TWOPHASE_NMOVES2 * sizeof(*dest));
    uint16_t *colmap = malloc((size_t)TWOPHASE_NMOVES2 * 16 *
                              CUBE3_NUD_EDGE_PERM * sizeof(*colmap));
    uint8_t *scratch = NULL;
    bfs_t b = {
        nrows,          CUBE3_NUD_EDGE_PERM, TWOPHASE_NMOVES2,    dest, colmap,
        t->corner_stab, &t->ud_conj[0][0],   CUBE3_NUD_EDGE_PERM, 1,    NULL,
    };
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
    /* The 2-bit table is only scaffolding here: the search keeps the
     * plain distances, written into the block's phase-2 area (zeroed). */
    scratch = twophase__table_alloc(((size_t)TWOPHASE_NPRUNE2 + 3) / 4);
    if (scratch == NULL) {
        goto out;
    }
    b.exact = twophase__prune2_mut(t);
    rc = bfs_rows(&b, scratch);
out:
    free(scratch);
    free(colmap);
    free(dest);
    return rc;
}

/* Distances in G1 of (perm, slice perm) pairs, perm moved by
 * move[perm][k], where phase-2 move k costs cost[k]: layers in order of
 * distance, each relaxing its neighbours (costs are 1 or 2, so a layer is
 * final before it is expanded). */
static void
build_with_slice(uint8_t *d,
                 const uint16_t *move,
                 const uint8_t *smove,
                 const int *cost)
{
    size_t n = (size_t)CUBE3_NCORNER_PERM * CUBE3_NSLICE_PERM;
    size_t done = 0;

    memset(d, EMPTY8, n);
    d[0] = 0;
    for (int depth = 0; done < n && depth < EMPTY8 - 2; depth++) {
        for (size_t i = 0; i < n; i++) {
            if (d[i] != depth) {
                continue;
            }
            done++;
            for (int k = 0; k < TWOPHASE_NMOVES2; k++) {
                size_t p = i / CUBE3_NSLICE_PERM * TWOPHASE_NMOVES2;
                size_t q = i % CUBE3_NSLICE_PERM * TWOPHASE_NMOVES2;
                size_t j = (size_t)move[p + (size_t)k] * CUBE3_NSLICE_PERM +
                           smove[q + (size_t)k];

                if (d[j] > depth + cost[k]) {
                    d[j] = (uint8_t)(depth + cost[k]);
                }
            }
        }
    }
}

void
twophase__build_corner_slice(twophase_tables_t *t)
{
    int htm[TWOPHASE_NMOVES2];
    int qtm[TWOPHASE_NMOVES2];
    const uint16_t *corner = &t->corner_move[0][0];
    const uint16_t *ud = &t->ud_move[0][0];
    const uint8_t *sperm = &t->slice_perm_move[0][0];

    for (int k = 0; k < TWOPHASE_NMOVES2; k++) {
        htm[k] = 1;
        qtm[k] = twophase__move2[k] % 3 == 1 ? 2 : 1;
    }
    build_with_slice(t->corner_slice_prune, corner, sperm, htm);
    build_with_slice(t->corner_slice_qtm, corner, sperm, qtm);
    build_with_slice(t->edge_slice_qtm, ud, sperm, qtm);
}
