/* SPDX-License-Identifier: MIT */
/* prune.c - breadth-first builds of the two-phase pruning tables. */
/* madvise and MADV_HUGEPAGE are outside POSIX; ask for them. */
#define _DEFAULT_SOURCE 1

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tables/bfs.h"
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
 * permutation (the column coordinate moved, then conjugated by s): the
 * shape the breadth-first builder of tables/bfs.h works on, a row at a
 * time, with the rows shared out to the build's threads. A 547-byte
 * (phase 1) or 20 KB (phase 2) row and the 18 or 10 rows it reaches stay
 * in cache, where a state-at-a-time search would miss memory on nearly
 * every step.
 *
 * Phase 1 is searched with the distance mod 3 in 2 bits (Kociemba's
 * encoding, 35 MB): a move changes a distance by at most one, so the
 * codes of an entry and of its neighbour tell whether the move brings the
 * cube closer, and what the search keeps is one word per entry saying so
 * for all 18 moves (words_rows). Phase 2 starts from thousands of cubes
 * per solve whose distances would each have to be walked out of such a
 * table, so it is searched and kept as the plain distance, 4 bits, 15 for
 * 15 or more (56 MB).
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

/* Byte-table sentinel of the small corner x slice table. */
#define EMPTY8 0xff

/* What the breadth-first builder needs to know of one of the two
 * tables: the moves of a row and the twins of its entries. */
typedef struct rows {
    const twophase_tables_t *t;
    int nmoves;             /* moves of the phase */
    size_t rowlen;          /* raw column coordinate count */
    const uint16_t *colmap; /* [nmoves][16][rowlen]: column reached */
    const uint16_t *stab;   /* [nrows]: symmetries fixing the row's rep */
    const uint16_t *conj;   /* [16][rowlen]: column conjugated by s */
} rows_t;

/* Phase 1: move m takes the representative of class r to the class and
 * symmetry in flipslice_class_move. */
static void
moves1(void *arg, uint64_t row, tables_bfs_edge_t *out, void *scratch)
{
    const rows_t *rs = arg;

    (void)scratch;
    for (int m = 0; m < TWOPHASE_NMOVES; m++) {
        uint32_t dest = rs->t->flipslice_class_move[row][m];

        out[m].row = dest >> 4;
        out[m].map = rs->colmap + ((size_t)m * 16 + (dest & 15)) * rs->rowlen;
        out[m].then = NULL;
    }
}

/* Phase 2: the corner class reached from the representative's corner
 * permutation. */
static void
moves2(void *arg, uint64_t row, tables_bfs_edge_t *out, void *scratch)
{
    const rows_t *rs = arg;
    const twophase_tables_t *t = rs->t;

    (void)scratch;
    for (int k = 0; k < TWOPHASE_NMOVES2; k++) {
        uint16_t dest = t->corner_sym[t->corner_move[t->corner_rep[row]][k]];

        out[k].row = dest >> 4;
        out[k].map = rs->colmap + ((size_t)k * 16 + (dest & 15)) * rs->rowlen;
        out[k].then = NULL;
    }
}

/*
 * The entries of row r equivalent to column c: its conjugates by the
 * symmetries that fix the row's representative. A forward step reaches
 * only one of such twins, the one the move's symmetry happens to give,
 * while all are that far away.
 */
static int
twins(void *arg, uint64_t row, tables_bfs_edge_t *out, void *scratch)
{
    const rows_t *rs = arg;
    unsigned stab = rs->stab[row] & ~1u;
    int n = 0;

    (void)scratch;
    while (stab != 0) {
        int s = __builtin_ctz(stab);

        stab &= stab - 1;
        out[n].row = row;
        out[n].map = rs->conj + (size_t)s * rs->rowlen;
        out[n].then = NULL;
        n++;
    }
    return n;
}

/* The common part of both phases' specs. */
static void
spec_init(tables_bfs_spec_t *sp, rows_t *rs, uint64_t nrows)
{
    static const uint64_t goal = 0; /* the solved cube: row 0, column 0 */

    memset(sp, 0, sizeof(*sp));
    sp->nrows = nrows;
    sp->rowlen = (uint32_t)rs->rowlen;
    sp->nmoves = rs->nmoves;
    sp->twins = twins;
    sp->max_twins = 15;
    sp->arg = rs;
    sp->code = TABLES_BFS_MOD3;
    sp->goals = &goal;
    sp->ngoals = 1;
}

/* Bytes of a row unpacked by unpack2. */
#define ROWBUF (CUBE3_NTWIST + 8)

/* Phase-1 words: the 2-bit table, and the maps of its moves. */
typedef struct words {
    twophase_tables_t *t;
    const uint8_t *table;   /* 2-bit distances mod 3 */
    const uint16_t *colmap; /* as rows_t */
    uint8_t *own;           /* [workers][ROWBUF]: codes of the row */
    uint8_t *nb;            /* [workers][3][ROWBUF]: target rows' codes */
    uint32_t *acc;          /* [workers][NTWIST]: words being summed */
    /* [g][nb0 << 6 | nb1 << 4 | nb2 << 2 | own]: the terms of moves 3g,
     * 3g + 1 and 3g + 2 for those codes of their neighbours. */
    uint32_t add[TWOPHASE_NMOVES / 3][256];
} words_t;

/* Progress units of the two tables: the phase-1 search, its words (as
 * many again), the phase-2 search. */
#define PROGRESS_TOTAL \
    ((uint64_t)TWOPHASE_NPRUNE1 * 2 + (uint64_t)TWOPHASE_NPRUNE2)

/* Bytes of 4 codes of a 2-bit table each as 4 bytes (little-endian). */
static uint32_t unpack_lut[256];

static void
unpack_lut_init(void)
{
    for (unsigned v = 0; v < 256; v++) {
        unpack_lut[v] = (v & 3u) | (v >> 2 & 3u) << 8 | (v >> 4 & 3u) << 16 |
                        (v >> 6 & 3u) << 24;
    }
}

/* The codes of entries i .. i + n of a 2-bit table, one byte each, from
 * entry i & ~3 on: entry i + k is out[(i & 3) + k]. out holds n + 7. */
static void
unpack2(const uint8_t *table, size_t i, size_t n, uint8_t *out)
{
    const uint8_t *p = table + (i >> 2);
    size_t nbytes = ((i & 3) + n + 3) / 4;

    for (size_t k = 0; k < nbytes; k++) {
        memcpy(out + 4 * k, &unpack_lut[p[k]], 4);
    }
}

/*
 * Writes the phase-1 word of every entry of rows [first, end) from the
 * 2-bit table: for entry (r, c) and move m, the change of distance to the
 * neighbour, read from the neighbour's code (a move changes the distance
 * by at most one, so the codes tell which way). A move sends row r into
 * one row through a column map, so the rows stay in cache; each target
 * row is unpacked to a byte per entry first, and the word of an entry is
 * summed in a small buffer and written once.
 */
static void
words_rows(void *arg, int worker, uint64_t first, uint64_t end)
{
    words_t *wd = arg;
    twophase_tables_t *t = wd->t;
    uint32_t *out = twophase__phase1_mut(t);
    uint8_t *own = wd->own + (size_t)worker * ROWBUF;
    uint8_t *nb = wd->nb + (size_t)worker * 3 * ROWBUF;
    uint32_t *acc = wd->acc + (size_t)worker * CUBE3_NTWIST;

    for (uint64_t r = first; r < end; r++) {
        size_t base = (size_t)r * CUBE3_NTWIST;
        const uint8_t *o;

        unpack2(wd->table, base, CUBE3_NTWIST, own);
        o = own + (base & 3);
        memset(acc, 0, CUBE3_NTWIST * sizeof(*acc));
        for (int g = 0; g < TWOPHASE_NMOVES / 3; g++) {
            const uint16_t *map[3];
            const uint8_t *q[3];
            const uint32_t *add = wd->add[g];

            for (int i = 0; i < 3; i++) {
                uint32_t dest = t->flipslice_class_move[r][3 * g + i];
                size_t tbase = (size_t)(dest >> 4) * CUBE3_NTWIST;
                uint8_t *buf = nb + (size_t)i * ROWBUF;

                map[i] = wd->colmap + ((size_t)(3 * g + i) * 16 + (dest & 15)) *
                                          CUBE3_NTWIST;
                unpack2(wd->table, tbase, CUBE3_NTWIST, buf);
                q[i] = buf + (tbase & 3);
            }
            for (size_t c = 0; c < CUBE3_NTWIST; c++) {
                unsigned x = (unsigned)q[0][map[0][c]] << 6 |
                             (unsigned)q[1][map[1][c]] << 4 |
                             (unsigned)q[2][map[2][c]] << 2 | o[c];

                acc[c] += add[x];
            }
        }
        memcpy(out + base, acc, CUBE3_NTWIST * sizeof(*acc));
    }
}

static int
build_phase1_words(twophase_tables_t *t,
                   const uint8_t *table,
                   const uint16_t *colmap,
                   tables_build_t *b)
{
    /* nb - own mod 3: 0 as far (1), 1 farther (2), 2 closer (0). */
    static const uint8_t trit[3] = { 1, 2, 0 };
    int n = tables_bfs_workers(b);
    words_t wd;
    tables_bfs_pass_t pass;
    uint32_t pow3[TWOPHASE_NMOVES];
    int rc = PZ_ENOMEM;

    memset(&wd, 0, sizeof(wd));
    pow3[0] = 1;
    for (int m = 1; m < TWOPHASE_NMOVES; m++) {
        pow3[m] = pow3[m - 1] * 3;
    }
    wd.t = t;
    wd.table = table;
    wd.colmap = colmap;
    wd.own = malloc((size_t)n * ROWBUF);
    wd.nb = malloc((size_t)n * 3 * ROWBUF);
    wd.acc = malloc((size_t)n * CUBE3_NTWIST * sizeof(*wd.acc));
    if (wd.own == NULL || wd.nb == NULL || wd.acc == NULL) {
        goto out;
    }
    unpack_lut_init();
    for (int g = 0; g < TWOPHASE_NMOVES / 3; g++) {
        for (unsigned x = 0; x < 256; x++) {
            unsigned own = x & 3u;
            uint32_t sum = 0;

            for (int i = 0; i < 3; i++) {
                unsigned nbc = x >> (6 - 2 * i) & 3u;

                /* Code 3 (unseen) does not occur in a finished table. */
                sum += trit[(nbc + 3u - own) % 3u] * pow3[3 * g + i];
            }
            wd.add[g][x] = own < 3 ? sum : 0;
        }
    }
    pass.nrows = TWOPHASE_NFLIPSLICE_CLASSES;
    pass.chunk = 64;
    pass.fn = words_rows;
    pass.arg = &wd;
    pass.progress_base = TWOPHASE_NPRUNE1;
    pass.progress_unit = CUBE3_NTWIST;
    pass.progress_total = PROGRESS_TOTAL;
    rc = tables_bfs_rows(&pass, b);
    if (rc != PZ_OK) {
        goto out;
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
out:
    free(wd.acc);
    free(wd.nb);
    free(wd.own);
    return rc;
}

int
twophase__build_prune1(twophase_tables_t *t, tables_build_t *b)
{
    uint16_t *colmap =
        malloc((size_t)TWOPHASE_NMOVES * 16 * CUBE3_NTWIST * sizeof(*colmap));
    uint16_t *conj = malloc((size_t)16 * CUBE3_NTWIST * sizeof(*conj));
    uint8_t *table = twophase__table_alloc(
        tables_bfs_bytes(TABLES_BFS_MOD3, TWOPHASE_NPRUNE1));
    rows_t rs = {
        t, TWOPHASE_NMOVES, CUBE3_NTWIST, colmap, t->flipslice_stab, conj,
    };
    tables_bfs_spec_t sp;
    tables_bfs_result_t res;
    int rc = PZ_ENOMEM;

    if (colmap == NULL || conj == NULL || table == NULL) {
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
    for (int s = 0; s < 16; s++) {
        for (int c = 0; c < CUBE3_NTWIST; c++) {
            conj[(size_t)s * CUBE3_NTWIST + (size_t)c] = t->twist_conj[c][s];
        }
    }
    spec_init(&sp, &rs, TWOPHASE_NFLIPSLICE_CLASSES);
    sp.moves = moves1;
    sp.data = table;
    sp.progress_total = PROGRESS_TOTAL;
    /* The 2-bit distances are scaffolding for the per-entry words. */
    rc = tables_bfs_run(&sp, b, &res);
    if (rc == PZ_OK && res.reached != TWOPHASE_NPRUNE1) {
        rc = PZ_EINTERNAL; /* every entry is reachable */
    }
    if (rc == PZ_OK) {
        rc = build_phase1_words(t, table, colmap, b);
    }
out:
    free(table);
    free(conj);
    free(colmap);
    return rc;
}

int
twophase__build_prune2(twophase_tables_t *t, tables_build_t *b)
{
    uint16_t *colmap = malloc((size_t)TWOPHASE_NMOVES2 * 16 *
                              CUBE3_NUD_EDGE_PERM * sizeof(*colmap));
    rows_t rs = {
        t,      TWOPHASE_NMOVES2, CUBE3_NUD_EDGE_PERM,
        colmap, t->corner_stab,   &t->ud_conj[0][0],
    };
    tables_bfs_spec_t sp;
    tables_bfs_result_t res;
    int rc = PZ_ENOMEM;

    if (colmap == NULL) {
        goto out;
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
    /* Phase 2 keeps the plain distances, 4 bits each, 15 for 15 or
     * more: the builder's unseen code once it stops before 15. */
    spec_init(&sp, &rs, TWOPHASE_NCORNER_CLASSES);
    sp.moves = moves2;
    sp.code = TABLES_BFS_EXACT4;
    sp.data = twophase__prune2_mut(t);
    sp.clamp = 15;
    sp.progress_base = (uint64_t)TWOPHASE_NPRUNE1 * 2;
    sp.progress_total = PROGRESS_TOTAL;
    rc = tables_bfs_run(&sp, b, &res);
    if (rc == PZ_OK && res.reached != TWOPHASE_NPRUNE2) {
        rc = PZ_EINTERNAL;
    }
out:
    free(colmap);
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
