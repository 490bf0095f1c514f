/* SPDX-License-Identifier: MIT */
/* tiles_pdb.c - additive disjoint pattern databases for the sliding tiles.
 * Size: one database: build, lookups and dual lookups share the board,
 * the ranks and the tables. */

/*
 * Design. The tiles except the blank are split into disjoint patterns
 * (4x4: the 7 tiles homed in the blank's half of the board and the 8 of
 * the other half; 5x5: four blocks of 6; boards of up to 12 cells: two
 * halves in reading order). For each pattern a table gives, for every
 * placement of its tiles, the fewest moves of pattern tiles that bring
 * them home when the other tiles are indistinct and moves of those cost
 * nothing. Every move moves one tile, which belongs to one pattern, so
 * the sum over the patterns of a partition never overestimates: the
 * heuristic is admissible, and consistent (a move changes one term by at
 * most one). On square boards the partition reflected about the main
 * diagonal gives a second sum over other groupings of the same tiles;
 * the larger sum is used (Korf and Felner 2002). Every move takes the
 * blank to a square of the other colour of a chessboard, so a distance
 * has the parity of the blank's Manhattan distance to its goal cell; an
 * estimate of the other parity is raised by one.
 *
 * A table depends only on the pattern's home cells and on where the blank
 * may start (the connected free region holding the blank's goal cell), so
 * the goal enters only through those cells: custom goals work, and goals
 * sharing home cells share tables. Board symmetries (the rotations and
 * reflections that keep the board's shape) map a pattern onto an
 * equivalent one; each pattern is looked up in the table of the least
 * image, so the 15-puzzle's two usual goals (blank first or last) and
 * both partitions use one 8-tile and one 7-tile table, and the
 * 24-puzzle's eight lookups use two 6-tile tables.
 *
 * Building is a breadth-first search over (placement, blank cell) pairs,
 * 2 bits each: unseen, in the frontier of an even or odd layer, or done.
 * Moves of non-pattern tiles are free, so a state is really a placement
 * with the whole free region the blank can reach. A new state enters the
 * next layer by the blank's cell alone; when the layer is expanded, a
 * placement's entries in it are taken together, the union of their
 * regions is marked done and the moves out of it are generated. A
 * placement's table entry is the layer it is first reached in. Layers
 * are found by scanning the blocks of the bit array that a small bitmap
 * marks (no queues); placements are ranked as partial permutations in
 * mixed radix, and the scan order lets the placement of all but the last
 * tile be unranked once per run of consecutive indices.
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, MADV_HUGEPAGE */

#include "tiles_pdb.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "perm.h"
#include "tiles_lookup.h"

#define SYMS_MAX 8 /* symmetries of a square board */
#define UNSEEN   0xFF

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

static void
board_init(board_t *b, int rows, int cols)
{
    b->rows = rows;
    b->cols = cols;
    b->n = rows * cols;
    b->full = b->n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << b->n) - 1;
    b->not_first = b->full;
    b->not_last = b->full;
    for (int i = 0; i < b->n; i++) {
        int r = i / cols;
        int c = i % cols;
        uint64_t m = 0;

        if (c == 0) {
            b->not_first &= ~(UINT64_C(1) << i);
        }
        if (c == cols - 1) {
            b->not_last &= ~(UINT64_C(1) << i);
        }
        if (r > 0) {
            m |= UINT64_C(1) << (i - cols);
        }
        if (r + 1 < rows) {
            m |= UINT64_C(1) << (i + cols);
        }
        if (c > 0) {
            m |= UINT64_C(1) << (i - 1);
        }
        if (c + 1 < cols) {
            m |= UINT64_C(1) << (i + 1);
        }
        b->nbr[i] = m;
    }
}

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

/* Maps of the board's symmetries (cell -> image), identity first. */
static int
symmetries(int rows, int cols, uint8_t maps[SYMS_MAX][CELLS_MAX])
{
    int n = 0;

    for (int t = 0; t < 8; t++) {
        bool swap = (t & 4) != 0;

        if (swap && rows != cols) {
            continue;
        }
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                int r2 = (t & 1) ? rows - 1 - r : r;
                int c2 = (t & 2) ? cols - 1 - c : c;

                maps[n][r * cols + c] =
                    (uint8_t)(swap ? c2 * cols + r2 : r2 * cols + c2);
            }
        }
        n++;
    }
    return n;
}

static uint64_t
map_mask(const uint8_t *map, uint64_t mask)
{
    uint64_t out = 0;

    while (mask != 0) {
        out |= UINT64_C(1) << map[__builtin_ctzll(mask)];
        mask &= mask - 1;
    }
    return out;
}

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

/* Placements of k tiles on n cells: n! / (n - k)!. */
static uint64_t
place_count(int k, int n)
{
    uint64_t c = 1;

    for (int j = 0; j < k; j++) {
        c *= (uint64_t)(n - j);
    }
    return c;
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

/* ------------------------------------------------------------------------ */
/* Partitions */

/* The 24-puzzle's partition with the blank's goal at cell 0. */
static const uint8_t layout5[4][6] = {
    { 1, 2, 5, 6, 7, 12 },
    { 3, 4, 8, 9, 13, 14 },
    { 10, 11, 15, 16, 20, 21 },
    { 17, 18, 19, 22, 23, 24 },
};

/* One partition of the tiles for a rows x cols goal with the blank at z,
 * in the board's own frame; false when the size has none. */
static bool
rule(int rows, int cols, int z, partition_t *out)
{
    int n = rows * cols;
    uint64_t zbit = UINT64_C(1) << z;

    memset(out, 0, sizeof(*out));
    if (rows == 4 && cols == 4) {
        /* Two rows each: the blank's half without it, and the other. */
        uint64_t half = z < 8 ? 0x00FFu : 0xFF00u;

        out->npat = 2;
        out->pat[0] = half & ~zbit;
        out->pat[1] = 0xFFFFu & ~half;
        return true;
    }
    if (rows == 5 && cols == 5) {
        uint8_t maps[SYMS_MAX][CELLS_MAX];
        int nsym = symmetries(5, 5, maps);
        int g = 0;

        /* A corner blank takes the image of the layout that puts the
         * blank there; elsewhere the blank's cell and cell 0 swap. */
        for (int s = 0; s < nsym; s++) {
            if (maps[s][0] == z) {
                g = s;
                break;
            }
        }
        out->npat = 4;
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 6; j++) {
                out->pat[i] |= UINT64_C(1) << maps[g][layout5[i][j]];
            }
            if (maps[g][0] != z && (out->pat[i] & zbit)) {
                out->pat[i] = (out->pat[i] & ~zbit) | 1u;
            }
        }
        return true;
    }
    if (n <= 12) {
        int half = (n - 1) / 2;
        int k = 0;

        out->npat = 2;
        for (int i = 0; i < n; i++) {
            if (i != z) {
                out->pat[k++ < half ? 0 : 1] |= UINT64_C(1) << i;
            }
        }
        return true;
    }
    return false;
}

/* The partitions "pdb" uses: the rule's, and on square boards its
 * reflection about the main diagonal. Returns their count, 0 for an
 * unsupported size. */
static int
partitions(int rows, int cols, int z, partition_t out[2])
{
    uint8_t maps[SYMS_MAX][CELLS_MAX];
    int t = -1;
    int nsym;

    if (!rule(rows, cols, z, &out[0])) {
        return 0;
    }
    if (rows != cols) {
        return 1;
    }
    /* The transpose swaps row and column: find it among the maps. */
    nsym = symmetries(rows, cols, maps);
    for (int s = 0; s < nsym; s++) {
        if (maps[s][0] == 0 && maps[s][1] == cols) {
            t = s;
            break;
        }
    }
    if (t < 0 || !rule(rows, cols, maps[t][z], &out[1])) {
        return 1;
    }
    for (int i = 0; i < out[1].npat; i++) {
        out[1].pat[i] = map_mask(maps[t], out[1].pat[i]);
    }
    return 2;
}

/* Where a pattern's table is: the least image of (cells, start region)
 * under the board's symmetries, and the map into that frame. */
typedef struct canon {
    uint64_t mask;          /* pattern cells in the table's frame */
    int blank;              /* least cell of the blank's start region */
    uint8_t map[CELLS_MAX]; /* board cell -> table frame cell */
} canon_t;

static void
canonical(const board_t *b, uint64_t pat, int z, canon_t *out)
{
    uint8_t maps[SYMS_MAX][CELLS_MAX];
    int nsym = symmetries(b->rows, b->cols, maps);
    bool have = false;

    for (int s = 0; s < nsym; s++) {
        uint64_t m = map_mask(maps[s], pat);
        uint64_t reg = region(b, b->full & ~m, maps[s][z]);
        int zr = __builtin_ctzll(reg);

        if (!have || m < out->mask || (m == out->mask && zr < out->blank)) {
            have = true;
            out->mask = m;
            out->blank = zr;
            memcpy(out->map, maps[s], sizeof(out->map));
        }
    }
}

static int pdb_build(const tables_def_t *def,
                     uint8_t *data,
                     int bits,
                     int *max_value,
                     tables_build_t *bd);

/* A pattern database's board, pattern cells and blank cell (what its
 * build needs), kept for the life of the process: written under
 * sources_lock and published by the count. */
typedef struct source {
    int rows;
    int cols;
    uint64_t mask;
    int blank;
} source_t;

#define SOURCES_MAX 256

static source_t sources[SOURCES_MAX];
static atomic_int nsources;
static pthread_mutex_t sources_lock = PTHREAD_MUTEX_INITIALIZER;

/* The source of (b, c), added if new; NULL when there are too many. */
static const source_t *
source_of(const board_t *b, const canon_t *c)
{
    source_t *s = NULL;
    int n;

    pthread_mutex_lock(&sources_lock);
    n = atomic_load(&nsources);
    for (int i = 0; i < n && s == NULL; i++) {
        if (sources[i].rows == b->rows && sources[i].cols == b->cols &&
            sources[i].mask == c->mask && sources[i].blank == c->blank) {
            s = &sources[i];
        }
    }
    if (s == NULL && n < SOURCES_MAX) {
        s = &sources[n];
        s->rows = b->rows;
        s->cols = b->cols;
        s->mask = c->mask;
        s->blank = c->blank;
        atomic_store_explicit(&nsources, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&sources_lock);
    return s;
}

/* The definition of the table of pattern c on board b; false when no
 * source is left for it. */
static bool
pdb_def(const board_t *b, const canon_t *c, tables_def_t *def)
{
    int k = perm_bits(c->mask);
    const source_t *src = source_of(b, c);

    if (src == NULL) {
        return false;
    }
    memset(def, 0, sizeof(*def));
    snprintf(def->name, sizeof(def->name), "tiles-%dx%d-pdb%d-%llx-z%d",
             b->rows, b->cols, k, (unsigned long long)c->mask, c->blank);
    if (b->rows == 4 && b->cols == 4) {
        snprintf(def->group, sizeof(def->group), "15-puzzle");
    } else if (b->rows == 5 && b->cols == 5) {
        snprintf(def->group, sizeof(def->group), "24-puzzle");
    } else {
        snprintf(def->group, sizeof(def->group), "tiles-%dx%d", b->rows,
                 b->cols);
    }
    snprintf(def->puzzle, sizeof(def->puzzle), "tiles %dx%d, %d tiles", b->rows,
             b->cols, k);
    def->kind = TABLES_KIND_PATTERN;
    def->bits = 8;
    def->entries = place_count(k, b->n);
    /* Every node reads entries at random: 4 KiB pages would miss the TLB
     * on nearly every probe of a table of more than a few megabytes. */
    def->huge = def->entries >= ((uint64_t)4 << 20);
    def->build = pdb_build;
    def->arg = (void *)(uintptr_t)src; /* the build only reads it */
    return true;
}

/* Appends to out[0..n) the tables of the partitions of a goal with the
 * blank at cell blank that are not there yet, their group names ending
 * in suffix; returns the new count, or PZ_EUNSUPPORTED. */
static int
add_defs(const board_t *b,
         int blank,
         const char *suffix,
         tables_def_t *out,
         int n,
         int max)
{
    partition_t parts[2];
    int nparts = partitions(b->rows, b->cols, blank, parts);

    if (nparts == 0) {
        return PZ_EUNSUPPORTED;
    }
    for (int p = 0; p < nparts; p++) {
        for (int i = 0; i < parts[p].npat; i++) {
            canon_t c;
            tables_def_t d;
            bool dup = false;

            canonical(b, parts[p].pat[i], blank, &c);
            if (!pdb_def(b, &c, &d)) {
                continue;
            }
            /* The group name fits: "-dual" after at most "tiles-5x5". */
            strncat(d.group, suffix, sizeof(d.group) - strlen(d.group) - 1);
            for (int j = 0; j < n; j++) {
                dup = dup || strcmp(out[j].name, d.name) == 0;
            }
            if (!dup && n < max) {
                out[n++] = d;
            }
        }
    }
    return n;
}

int
tiles_pdb_defs(int rows, int cols, int blank, tables_def_t *out, int max)
{
    board_t b;

    board_init(&b, rows, cols);
    return add_defs(&b, blank, "", out, 0, max);
}

int
tiles_pdb_dual_defs(int rows, int cols, tables_def_t *out, int max)
{
    board_t b;
    int n = 0;

    if (rows * cols > DUAL_CELLS) {
        return PZ_EUNSUPPORTED;
    }
    board_init(&b, rows, cols);
    for (int bc = 0; bc < b.n && n >= 0; bc++) {
        n = add_defs(&b, bc, "-dual", out, n, max);
    }
    return n;
}

/* ------------------------------------------------------------------------ */
/* Building */

/* Children are collected in batches with their bit-array words
 * prefetched, then checked: the checks are random accesses into an array
 * of up to a gigabyte, and this keeps many of them in flight. */
#define BATCH 512
/* Boards up to this many cells get a table of the first region of every
 * free-cell mask (2^n 16-bit masks: 128 KiB at 16 cells). */
#define REGION_CELLS_MAX 16
#define CHILD_MAX        (PAT_MAX * 4) /* children of one expansion */
/* A bit of a front bitmap stands for a block of 2^BLOCK_SHIFT words of
 * the bit array (512 bytes), so the bitmaps stay in the cache. */
#define BLOCK_SHIFT 6
/* Pieces of a layer's scan handed out to the workers. */
#define CHUNKS_PER_WORKER 64
#define WORKERS_MAX       64
#define HUGE_ALIGN        ((size_t)2 << 20)

/* A state reached from the current layer, to be checked. */
typedef struct child {
    uint64_t entry; /* placement << unit_shift | the blank's free rank */
} child_t;

/*
 * What all workers of a build share. Each placement owns one aligned unit
 * of 16, 32 or 64 bits in the bit array, 2 bits per free cell (in cell
 * order), so a placement's codes never straddle two words and a whole
 * region is marked by one (atomic, when threaded) update of one word.
 */
typedef struct build {
    board_t b;
    int k;                    /* pattern tiles */
    int nf;                   /* free cells: n - k */
    int unit_shift;           /* log2 of the entries per unit */
    uint64_t count;           /* placements */
    uint64_t nwords;          /* words of the bit array */
    uint64_t *codes;          /* the units */
    uint8_t *data;            /* the table */
    uint64_t weight[PAT_MAX]; /* place value of each digit of a rank */
    uint8_t pop8[256];        /* bits set in each byte value */
    uint16_t *first;          /* [m]: the region of the lowest cell of
                                 free-cell mask m (boards of up to 16
                                 cells, else NULL) */
    uint64_t *front[2];       /* bit i: block i holds entries of the layer
                                 of that parity, so scans skip others */
    uint64_t nfront;          /* words of each front bitmap */
    int layer;                /* depth being expanded */
    int cur;                  /* its code, 1 or 2 */
    int next_code;            /* code of the next layer, 2 or 1 */
    bool threaded;            /* several workers: atomic updates */
    uint64_t nchunks;         /* pieces of this layer's scan */
    uint64_t next_chunk;      /* next piece to take (atomic) */
} build_t;

/*
 * The numbers the inner loops depend on. The functions taking one are
 * inlined into scan_words, which is instantiated for the 15- and
 * 24-puzzle tables with constants, so that the compiler unrolls and
 * folds with them, and once with the build's values for other boards.
 */
typedef struct geom {
    int cols; /* board columns */
    int n;    /* board cells */
    int k;    /* pattern tiles */
} geom_t;

/* One worker: its decoding cache, its batch and its counts. */
typedef struct worker {
    build_t *sh;
    uint64_t seen;              /* placements first expanded by it */
    uint64_t found;             /* entries it added to the next layer */
    uint64_t expanded;          /* placements it expanded in this layer */
    uint32_t prefix;            /* placement / (n - k + 1) decoded below */
    uint8_t digit[PAT_MAX];     /* the prefix's digits */
    uint64_t used[PAT_MAX + 1]; /* used[j]: cells of tiles 0..j-1 */
    /* By cell, for the cells of the placement's tiles (other cells hold
     * stale values that are never read; tweight[63], read as "no tile",
     * stays 0 since boards have at most 32 cells): */
    uint64_t earlier[CELLS_MAX];  /* cells of the tiles before its tile */
    uint64_t tweight[CELLS_MAX];  /* its tile's weight */
    uint8_t fbelow[CELLS_MAX];    /* the cells below it that the prefix's
                                     tiles leave free */
    uint8_t last_free[CELLS_MAX]; /* cells the prefix leaves, in order */
    int nbatch;
    child_t batch[BATCH];
} worker_t;

/*
 * Zeroed anonymous memory for the bit array, of bytes rounded up to
 * 2 MiB, 2 MiB aligned and advised for transparent huge pages: its words
 * are read at random, and with 4 KiB pages nearly every read would also
 * miss the TLB (and the first touch of each page would fault). NULL when
 * out of memory; free with codes_free.
 */
static uint64_t *
codes_alloc(size_t bytes)
{
    size_t n = (bytes + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
    uint8_t *base = mmap(NULL, n + HUGE_ALIGN, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    size_t head;

    if (base == MAP_FAILED) {
        return NULL;
    }
    /* Keep the aligned window of n bytes. */
    head =
        (HUGE_ALIGN - ((uintptr_t)base & (HUGE_ALIGN - 1))) & (HUGE_ALIGN - 1);
    if (head > 0) {
        munmap(base, head);
    }
    munmap(base + head + n, HUGE_ALIGN - head);
#ifdef MADV_HUGEPAGE
    (void)madvise(base + head, n, MADV_HUGEPAGE);
#endif
    return (uint64_t *)(void *)(base + head);
}

static void
codes_free(uint64_t *codes, size_t bytes)
{
    if (codes != NULL) {
        munmap(codes, (bytes + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1));
    }
}

static inline uint64_t
load_word(const build_t *sh, const uint64_t *p)
{
    return sh->threaded ? __atomic_load_n(p, __ATOMIC_RELAXED) : *p;
}

static inline void
or_word(const build_t *sh, uint64_t *p, uint64_t bits)
{
    if (sh->threaded) {
        __atomic_fetch_or(p, bits, __ATOMIC_RELAXED);
    } else {
        *p |= bits;
    }
}

/*
 * Decodes placement c: w->used[k - 1] gets the cells of all but the last
 * tile, w->last_free the cells they leave; returns the last tile's digit
 * (its index in w->last_free). All but the last tile form a prefix,
 * c / (n - k + 1), shared by runs of consecutive placements; a worker
 * visits placements in increasing order, so the prefix usually moves on
 * by a step or two, which an odometer over the digits follows without
 * divisions. A longer jump decodes the prefix from scratch. Placement
 * counts stay below 2^32, so the divisions are 32-bit ones.
 */
static inline __attribute__((always_inline)) int
unrank_placement(worker_t *w, uint64_t c, geom_t g)
{
    const uint32_t radix = (uint32_t)(g.n - g.k + 1);
    const uint32_t pk = (uint32_t)c / radix;

    if (pk != w->prefix) {
        int low = g.k - 1; /* lowest level whose digit changed */
        uint64_t pre;
        int nfree = 0;
        int ntiles = 0;

        if (w->prefix != UINT32_MAX && pk > w->prefix && pk - w->prefix <= 8) {
            while (w->prefix < pk) {
                int j = g.k - 2;

                while (j >= 0 && ++w->digit[j] == g.n - j) {
                    w->digit[j--] = 0;
                }
                low = j < low ? j : low;
                w->prefix++;
            }
        } else {
            uint32_t v = pk;

            for (int j = g.k - 2; j >= 0; j--) {
                w->digit[j] = (uint8_t)(v % (uint32_t)(g.n - j));
                v /= (uint32_t)(g.n - j);
            }
            low = 0;
            w->prefix = pk;
        }
        /* Tile j takes the digit[j]-th cell the earlier tiles leave. */
        for (int j = low < 0 ? 0 : low; j < g.k - 1; j++) {
            int p = select_bit(w->sh->b.full & ~w->used[j], w->digit[j]);

            w->earlier[p] = w->used[j];
            w->tweight[p] = w->sh->weight[j];
            w->used[j + 1] = w->used[j] | UINT64_C(1) << p;
        }
        pre = w->used[g.k - 1];
        for (uint64_t m = w->sh->b.full & ~pre; m != 0; m &= m - 1) {
            w->last_free[nfree++] = (uint8_t)__builtin_ctzll(m);
        }
        /* The i-th tile cell up has i tile cells below it. */
        for (uint64_t m = pre; m != 0; m &= m - 1) {
            int p = __builtin_ctzll(m);

            w->fbelow[p] = (uint8_t)(p - ntiles++);
        }
    }
    return (int)((uint32_t)c - pk * radix);
}

/* The cells of free reachable from cell start: through the table of
 * first regions when there is one (peeling regions off in the order of
 * their lowest cells), else by a flood fill. */
static inline __attribute__((always_inline)) uint64_t
build_region(const build_t *sh, uint64_t free, int start, geom_t g)
{
    uint64_t r = UINT64_C(1) << start;

    if (sh->first != NULL) {
        for (;;) {
            r = sh->first[free];
            if (r >> start & 1) {
                return r;
            }
            free ^= r;
        }
    }
    for (;;) {
        uint64_t e = r | ((r << 1) & sh->b.not_first) |
                     ((r >> 1) & sh->b.not_last) | (r << g.cols) |
                     (r >> g.cols);

        e &= free;
        if (e == r) {
            return r;
        }
        r = e;
    }
}

/*
 * Checks the batched children and adds the new ones to the next layer.
 * The unmarked ones are first gathered without a branch on the codes
 * (which the processor could not predict, and whose mispredictions would
 * cancel the loads in flight). A new entry's cell alone gets the next
 * layer's code; the rest of its region is marked when it is expanded.
 * Until then another parent may add another cell of the same region (the
 * expansion takes the union), or a cell of a region of the current layer
 * that its worker has not expanded yet (that expansion marks it done, so
 * it never reaches the next layer); a child twice in the batch may be
 * added twice. None of this changes the layers, and since codes only
 * gain bits, concurrent updates need no more than an atomic or.
 */
static void
flush(worker_t *w)
{
    const build_t *sh = w->sh;
    uint64_t *codes = sh->codes;
    uint64_t *front = sh->front[sh->next_code - 1];
    const uint64_t next = (uint64_t)sh->next_code;
    int nnew = 0;

    for (int i = 0; i < w->nbatch; i++) {
        uint64_t e = w->batch[i].entry;
        uint64_t word = load_word(sh, &codes[e >> 5]);

        w->batch[nnew].entry = e;
        nnew += (word >> ((e & 31) << 1) & 3) == 0;
    }
    for (int i = 0; i < nnew; i++) {
        uint64_t e = w->batch[i].entry;
        uint64_t block = (e >> 5) >> BLOCK_SHIFT;
        uint64_t *fw = &front[block >> 6];

        or_word(sh, &codes[e >> 5], next << ((e & 31) << 1));
        /* Most blocks already hold an entry of the next layer: test
         * before the (atomic) update. */
        if (!(load_word(sh, fw) >> (block & 63) & 1)) {
            or_word(sh, fw, UINT64_C(1) << (block & 63));
        }
    }
    w->found += (uint64_t)nnew;
    w->nbatch = 0;
}

/* What expand's move loops share. */
typedef struct moves {
    const worker_t *w;
    const uint64_t *codes; /* the bit array, for prefetching */
    const uint8_t *pop8;   /* bits set in each byte value */
    uint64_t c;            /* the placement */
    uint64_t tiles;        /* its tiles' cells */
    unsigned lastcell;     /* the last tile's cell */
    child_t *out;          /* where the children go */
} moves_t;

/*
 * Batches the children that move a tile one step, vertically or not, and
 * returns their count: bit p of m moves the tile at p to q = p - d, bit
 * 32 + p moves it to q = p + d, where d is cols (vertical) or 1. One
 * loop takes both directions, so there are fewer loop exits for the
 * processor to mispredict. A child's rank comes from the parent's:
 * moving tile j from p to q changes digit j by the distance moved less
 * the earlier tiles passed over, and each later tile passed over gains
 * (q above it) or loses (q below it) one in its digit. Only a vertical
 * move passes over cells. x comes by value so that its fields stay in
 * registers while the children are stored.
 */
static inline __attribute__((always_inline)) int
moves(moves_t x, uint64_t m, bool vertical, geom_t g)
{
    const worker_t *w = x.w;
    const int shift = g.n - g.k <= 8 ? 3 : g.n - g.k <= 16 ? 4 : 5;
    const int d = vertical ? g.cols : 1;
    const uint64_t run = (UINT64_C(1) << (g.cols - 1)) - 1;
    int n = 0;

    while (m != 0) {
        const unsigned b = (unsigned)__builtin_ctzll(m);
        const unsigned p = b & 31;
        const uint64_t fwd = b >> 5; /* q > p */
        uint64_t step = w->tweight[p];
        uint64_t entry;

        m &= m - 1;
        if (vertical) {
            /* The move passes over the cols - 1 cells between p and q:
             * the earlier tiles there make digit j move less, the later
             * ones change their own digits by one. The first two later
             * tiles are added without a branch (tweight[63] is 0); a
             * third is rare. */
            unsigned lo = (fwd ? p : p - (unsigned)d) + 1;
            uint64_t pre = w->earlier[p];
            uint64_t later = (run << lo) & x.tiles & ~pre;
            const uint64_t none = UINT64_C(1) << 63;

            step *= (uint64_t)(g.cols - x.pop8[(pre >> lo) & run]);
            step += w->tweight[__builtin_ctzll(later | none)];
            later &= later - 1;
            step += w->tweight[__builtin_ctzll(later | none)];
            later &= later - 1;
            while (later != 0) {
                step += w->tweight[__builtin_ctzll(later)];
                later &= later - 1;
            }
        }
        /* The blank's rank: the free cells below p, less q. */
        entry = (fwd ? x.c + step : x.c - step) << shift |
                (w->fbelow[p] - (uint64_t)(x.lastcell < p) - (fwd ^ 1));
        __builtin_prefetch(&x.codes[entry >> 5], 1, 0);
        x.out[n].entry = entry;
        n++;
    }
    return n;
}

/*
 * Expands placement c, whose entries marked in reps (2 bits each, the
 * low one set) are in the current layer: records the placement's depth
 * on its first expansion, marks the regions of those entries done and
 * batches the children of their union (moves of pattern tiles into the
 * regions; the children of different regions are different placements,
 * so the union loses nothing).
 */
static inline __attribute__((always_inline)) void
expand(worker_t *w, uint64_t c, uint64_t reps, geom_t g)
{
    const build_t *sh = w->sh;
    const int nf = g.n - g.k;
    const int shift = nf <= 8 ? 3 : nf <= 16 ? 4 : 5;
    const int last = unrank_placement(w, c, g);
    const int lastcell = w->last_free[last];
    const uint64_t tiles = w->used[g.k - 1] | UINT64_C(1) << lastcell;
    const uint64_t fr = sh->b.full & ~tiles;
    const uint8_t depth = sh->data[c];
    uint64_t reg = 0;
    uint64_t marks = 0;
    moves_t x;

    /* The placement's depth is that of its first state expanded; c lies
     * in this worker's piece of the scan, so no other worker writes it. */
    sh->data[c] = depth == UNSEEN ? (uint8_t)sh->layer : depth;
    w->seen += depth == UNSEEN;
    w->expanded++;
    w->earlier[lastcell] = w->used[g.k - 1];
    w->tweight[lastcell] = 1;
    w->fbelow[lastcell] = (uint8_t)last;
    /* The free cells are w->last_free without the last tile's cell.
     * Several entries may share a region (see flush). */
    while (reps != 0) {
        int r = __builtin_ctzll(reps) >> 1;
        int cell = w->last_free[r + (r >= last)];

        reps &= reps - 1;
        if (!(reg >> cell & 1)) {
            reg |= build_region(sh, fr, cell, g);
        }
    }
    /* Done: 3 over every cell of the regions. */
    if (reg == fr) {
        marks = nf == 32 ? ~UINT64_C(0) : (UINT64_C(1) << (2 * nf)) - 1;
    } else {
        for (int r = nf - 1; r >= 0; r--) {
            marks = marks << 2 | (reg >> w->last_free[r + (r >= last)] & 1);
        }
        marks *= 3;
    }
    or_word(sh, &sh->codes[(c << shift) >> 5],
            marks << (((c << shift) & 31) << 1));
    x.w = w;
    x.codes = sh->codes;
    x.pop8 = sh->pop8;
    x.c = c;
    x.tiles = tiles;
    x.lastcell = (unsigned)lastcell;
    x.out = w->batch + w->nbatch;
    x.out +=
        moves(x, ((reg << g.cols) & tiles) | ((reg >> g.cols) & tiles) << 32,
              true, g);
    x.out += moves(x,
                   ((reg << 1) & sh->b.not_first & tiles) |
                       ((reg >> 1) & sh->b.not_last & tiles) << 32,
                   false, g);
    w->nbatch = (int)(x.out - w->batch);
    if (w->nbatch > BATCH - CHILD_MAX) {
        flush(w);
    }
}

/* Expands the entries of the current layer in words lo..hi of the bit
 * array. */
static inline __attribute__((always_inline)) void
scan_words(worker_t *w, uint64_t lo, uint64_t hi, geom_t g)
{
    const build_t *sh = w->sh;
    const uint64_t lo_bits = UINT64_C(0x5555555555555555);
    const int nf = g.n - g.k;
    const int shift = nf <= 8 ? 3 : nf <= 16 ? 4 : 5;
    const int ubits = 2 << shift; /* bits of a unit */
    const uint64_t umask =
        ubits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << ubits) - 1;
    const bool odd = sh->cur == 2;

    uint64_t match[UINT64_C(1) << BLOCK_SHIFT];
    uint8_t at[UINT64_C(1) << BLOCK_SHIFT];
    int nmatch = 0;

    /* First the words holding entries of the layer, gathered without a
     * branch per word: in sparse layers most words of a block hold none,
     * and this keeps their loop short. The codes this worker scans are
     * its own in this layer: others only add next-layer marks to unmarked
     * cells. */
    for (uint64_t i = lo; i < hi; i++) {
        uint64_t word = load_word(sh, &sh->codes[i]);
        uint64_t l = word & lo_bits;
        uint64_t h = (word >> 1) & lo_bits;

        match[nmatch] = odd ? h & ~l : l & ~h;
        at[nmatch] = (uint8_t)(i - lo);
        nmatch += match[nmatch] != 0;
    }
    for (int t = 0; t < nmatch; t++) {
        uint64_t m = match[t];
        uint64_t i = lo + at[t];

        while (m != 0) {
            int u = __builtin_ctzll(m) >> (shift + 1);
            uint64_t reps = (m >> (u * ubits)) & umask;

            m &= ~(umask << (u * ubits));
            expand(w, ((i * 32) >> shift) + (uint64_t)u, reps, g);
        }
    }
}

/* scan_words with the numbers of the common tables as constants. */
static void
scan_block(worker_t *w, uint64_t lo, uint64_t hi)
{
    const build_t *sh = w->sh;

    if (sh->b.cols == 4 && sh->b.n == 16 && sh->k == 7) {
        scan_words(w, lo, hi, (geom_t){ 4, 16, 7 });
    } else if (sh->b.cols == 4 && sh->b.n == 16 && sh->k == 8) {
        scan_words(w, lo, hi, (geom_t){ 4, 16, 8 });
    } else if (sh->b.cols == 5 && sh->b.n == 25 && sh->k == 6) {
        scan_words(w, lo, hi, (geom_t){ 5, 25, 6 });
    } else {
        scan_words(w, lo, hi, (geom_t){ sh->b.cols, sh->b.n, sh->k });
    }
}

/* A worker's share of one layer: pieces of the scan taken in turn. */
static void
layer_task(void *arg, int index)
{
    worker_t *w = (worker_t *)arg + index;
    build_t *sh = w->sh;
    uint64_t *front = sh->front[sh->cur - 1];
    uint64_t per = (sh->nfront + sh->nchunks - 1) / sh->nchunks;

    for (;;) {
        uint64_t chunk =
            __atomic_fetch_add(&sh->next_chunk, 1, __ATOMIC_RELAXED);
        uint64_t end;

        if (chunk >= sh->nchunks) {
            break;
        }
        end = (chunk + 1) * per < sh->nfront ? (chunk + 1) * per : sh->nfront;
        for (uint64_t f = chunk * per; f < end; f++) {
            /* This front word is this worker's. */
            uint64_t bits = front[f];

            front[f] = 0;
            while (bits != 0) {
                uint64_t blk = f * 64 + (uint64_t)__builtin_ctzll(bits);
                uint64_t lo = blk << BLOCK_SHIFT;
                uint64_t hi = lo + (UINT64_C(1) << BLOCK_SHIFT);

                bits &= bits - 1;
                scan_block(w, lo, hi < sh->nwords ? hi : sh->nwords);
            }
        }
    }
    flush(w);
}

static int
pdb_build(const tables_def_t *def,
          uint8_t *data,
          int bits,
          int *max_value,
          tables_build_t *bd)
{
    const source_t *r = def->arg;

    (void)bits; /* always 8: a pattern's distances pass 15 */
    build_t *sh = calloc(1, sizeof(*sh));
    int nworkers = tables_build_workers(bd);
    worker_t *workers = NULL;
    uint64_t nblocks;
    uint64_t goal = 0;
    uint64_t free0;
    uint64_t seen = 0;
    int d = 0;
    int rc;

    if (sh == NULL) {
        return PZ_ENOMEM;
    }
    board_init(&sh->b, r->rows, r->cols);
    sh->k = perm_bits(r->mask);
    sh->nf = sh->b.n - sh->k;
    sh->count = def->entries;
    sh->data = data;
    /* Boards of up to 32 cells: moves packs two directions' cells in one
     * word. */
    if (sh->k < 1 || sh->k > PAT_MAX || sh->nf < 2 || sh->nf > 32 ||
        sh->b.cols > 9 || sh->b.n > 32 || sh->count >= UINT32_MAX) {
        free(sh);
        return PZ_EINVAL;
    }
    sh->unit_shift = sh->nf <= 8 ? 3 : sh->nf <= 16 ? 4 : 5;
    sh->weight[sh->k - 1] = 1;
    for (int j = sh->k - 2; j >= 0; j--) {
        sh->weight[j] = sh->weight[j + 1] * (uint64_t)(sh->b.n - j - 1);
    }
    for (int v = 0; v < 256; v++) {
        sh->pop8[v] = (uint8_t)perm_bits((uint64_t)v);
    }
    sh->nwords = ((sh->count << sh->unit_shift) + 31) / 32;
    nblocks = (sh->nwords + (UINT64_C(1) << BLOCK_SHIFT) - 1) >> BLOCK_SHIFT;
    sh->nfront = (nblocks + 63) / 64;
    /* Small tables are not worth the threads. */
    nworkers = sh->nwords < 4096        ? 1
               : nworkers > WORKERS_MAX ? WORKERS_MAX
                                        : nworkers;
    sh->threaded = nworkers > 1;
    workers = calloc((size_t)nworkers, sizeof(*workers));
    sh->codes = codes_alloc((size_t)sh->nwords * sizeof(uint64_t));
    sh->front[0] = calloc((size_t)sh->nfront, sizeof(uint64_t));
    sh->front[1] = calloc((size_t)sh->nfront, sizeof(uint64_t));
    if (sh->b.n <= REGION_CELLS_MAX) {
        sh->first = calloc((size_t)1 << sh->b.n, sizeof(uint16_t));
    }
    if (workers == NULL || sh->codes == NULL || sh->front[0] == NULL ||
        sh->front[1] == NULL ||
        (sh->b.n <= REGION_CELLS_MAX && sh->first == NULL)) {
        rc = PZ_ENOMEM;
        goto out;
    }
    for (int i = 0; i < nworkers; i++) {
        workers[i].sh = sh;
        workers[i].prefix = UINT32_MAX;
    }
    if (sh->first != NULL) {
        for (uint64_t m = 1; m >> sh->b.n == 0; m++) {
            sh->first[m] = (uint16_t)region(&sh->b, m, __builtin_ctzll(m));
        }
    }
    memset(data, UNSEEN, (size_t)sh->count);

    /* The goal: pattern tile j on the j-th home cell, the blank's region
     * in layer 0. */
    {
        uint8_t pos[PAT_MAX];
        uint64_t m = r->mask;

        for (int j = 0; j < sh->k; j++) {
            pos[j] = (uint8_t)__builtin_ctzll(m);
            m &= m - 1;
        }
        goal = place_rank(pos, sh->k, sh->b.n);
    }
    sh->next_code = 1;
    free0 = sh->b.full & ~r->mask;
    workers[0].batch[0].entry =
        goal << sh->unit_shift |
        (uint64_t)perm_bits(free0 & ((UINT64_C(1) << r->blank) - 1));
    workers[0].nbatch = 1;
    flush(&workers[0]);

    for (;;) {
        uint64_t found = 0;
        uint64_t expanded = 0;

        if (d + 1 >= UNSEEN) {
            rc = PZ_ERANGE;
            goto out;
        }
        sh->layer = d;
        sh->cur = (d & 1) + 1;
        sh->next_code = 3 - sh->cur;
        sh->nchunks = (uint64_t)nworkers * CHUNKS_PER_WORKER;
        sh->next_chunk = 0;
        for (int i = 0; i < nworkers; i++) {
            workers[i].found = 0;
            workers[i].expanded = 0;
        }
        tables_build_run(bd, layer_task, workers, nworkers);
        seen = 0;
        for (int i = 0; i < nworkers; i++) {
            found += workers[i].found;
            expanded += workers[i].expanded;
            seen += workers[i].seen;
        }
        tables_build_progress(bd, seen, sh->count);
        if (expanded == 0) {
            /* Layer d held only cells of regions of layer d - 1, which
             * their expansions marked done (see flush). */
            d--;
            break;
        }
        if (found == 0) {
            break;
        }
        if (tables_build_cancelled(bd)) {
            rc = PZ_ECANCELLED;
            goto out;
        }
        d++;
    }
    /* Every placement is reachable (at least two cells are free), so a
     * placement left unseen would be a bug. */
    rc = seen == sh->count ? PZ_OK : PZ_EINTERNAL;
    *max_value = d;
out:
    free(workers);
    codes_free(sh->codes, (size_t)sh->nwords * sizeof(uint64_t));
    free(sh->front[0]);
    free(sh->front[1]);
    free(sh->first);
    free(sh);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The heuristic */

bool
tiles_pdb_supported(const pz_puzzle_t *p)
{
    int n = p->params.rows * p->params.cols;

    return p->params.rows > 0 &&
           (n <= 12 || (p->params.rows == 4 && p->params.cols == 4) ||
            (p->params.rows == 5 && p->params.cols == 5));
}

/* The goal's blank cell, or -1 when goal is not a board of p. */
static int
goal_blank(const pz_puzzle_t *p, const pz_state_t *goal)
{
    int n = p->params.rows * p->params.cols;

    return goal == NULL ? n - 1 : goal->b[n] < n ? goal->b[n] : -1;
}

/* Binds lk to the table of the pattern on cells mask whose blank ends in
 * the region of cell z, getting the table (built if allowed). Slots are
 * ordered by the home cells' ranks in the table's frame; lk->tile is
 * left for the caller. */
static int
bind_lookup(const board_t *b, uint64_t mask, int z, lookup_t *lk)
{
    tables_def_t def;
    tables_view_t t;
    canon_t c;
    int rc;

    canonical(b, mask, z, &c);
    if (!pdb_def(b, &c, &def)) {
        return PZ_ENOMEM;
    }
    rc = tables_get(&def, &t, NULL);
    if (rc != PZ_OK) {
        return rc;
    }
    lk->data = t.data;
    lk->k = perm_bits(c.mask);
    memcpy(lk->map, c.map, sizeof(lk->map));
    lk->w[lk->k - 1] = 1;
    for (int i = lk->k - 2; i >= 0; i--) {
        lk->w[i] = lk->w[i + 1] * (uint64_t)(b->n - i - 1);
    }
    for (uint64_t m = mask; m != 0; m &= m - 1) {
        int cell = __builtin_ctzll(m);
        int hc = c.map[cell];

        lk->cell[perm_bits(c.mask & ((UINT64_C(1) << hc) - 1))] = (uint8_t)cell;
    }
    return PZ_OK;
}

/* Binds the lookups of the partitions for a goal with the blank at z,
 * each tile numbered by home[]. */
static int
bind_parts(pdb_ctx_t *h,
           const board_t *b,
           const partition_t *parts,
           const pz_state_t *goal)
{
    for (int pi = 0; pi < h->nparts; pi++) {
        part_t *pt = &h->part[pi];

        pt->npat = parts[pi].npat;
        memset(pt->owner, -1, sizeof(pt->owner));
        for (int i = 0; i < pt->npat; i++) {
            lookup_t *lk = &pt->pat[i];
            int rc = bind_lookup(b, parts[pi].pat[i], h->z, lk);

            if (rc != PZ_OK) {
                return rc;
            }
            for (int t = 0; t < lk->k; t++) {
                int v = goal->b[lk->cell[t]];

                lk->tile[t] = (uint8_t)v;
                pt->owner[v] = (int8_t)i;
                pt->slot[v] = (uint8_t)t;
            }
        }
    }
    return PZ_OK;
}

/* The goal's numbering (tile -> home cell) and blank cell in h, checked;
 * then the board and the partitions. */
static int
init_goal(const pz_puzzle_t *p,
          const pz_state_t *goal,
          pdb_ctx_t *h,
          board_t *b,
          partition_t parts[2])
{
    int n = p->params.rows * p->params.cols;
    int z;

    if (!tiles_pdb_supported(p)) {
        return PZ_EUNSUPPORTED;
    }
    z = goal_blank(p, goal);
    if (z < 0 || goal->b[z] != 0) {
        return PZ_EINVAL;
    }
    for (int i = 0; i < n; i++) {
        if (goal->b[i] >= n) {
            return PZ_EINVAL;
        }
        h->home[goal->b[i]] = (uint8_t)i;
    }
    board_init(b, p->params.rows, p->params.cols);
    h->n = n;
    h->z = z;
    /* Every move takes the blank to a cell of the other colour of a
     * chessboard: a distance has the parity of the blank's. */
    for (int i = 0; i < n; i++) {
        h->odd[i] =
            (uint8_t)((i / b->cols + i % b->cols + z / b->cols + z % b->cols) &
                      1);
    }
    h->nparts = partitions(p->params.rows, p->params.cols, z, parts);
    return PZ_OK;
}

static int
pdb_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    pdb_ctx_t *h = ctx;
    partition_t parts[2];
    board_t b;
    int rc = init_goal(p, goal, h, &b, parts);

    return rc != PZ_OK ? rc : bind_parts(h, &b, parts, goal);
}

/* Appends the name of the table of the pattern on cells mask whose blank
 * ends in the region of cell z to names[0..n) unless it is there (names
 * past max are counted, not written); returns the new count. */
static int
list_table(const board_t *b,
           uint64_t mask,
           int z,
           const char **names,
           int n,
           int max)
{
    tables_def_t def;
    const char *name = NULL;
    canon_t c;

    canonical(b, mask, z, &c);
    if (pdb_def(b, &c, &def)) {
        name = tables_register(&def);
    }
    if (name == NULL) {
        return n;
    }
    for (int j = 0; j < n && j < max; j++) {
        if (strcmp(names[j], name) == 0) {
            return n;
        }
    }
    if (n < max) {
        names[n] = name;
    }
    return n + 1;
}

static int
pdb_tables(const pz_puzzle_t *p,
           const pz_state_t *goal,
           const char **names,
           int max)
{
    partition_t parts[2];
    board_t b;
    int nparts;
    int n = 0;
    int z;

    if (!tiles_pdb_supported(p)) {
        return 0;
    }
    z = goal_blank(p, goal);
    if (z < 0) {
        return 0;
    }
    board_init(&b, p->params.rows, p->params.cols);
    nparts = partitions(p->params.rows, p->params.cols, z, parts);
    for (int pi = 0; pi < nparts; pi++) {
        for (int i = 0; i < parts[pi].npat; i++) {
            n = list_table(&b, parts[pi].pat[i], z, names, n, max);
        }
    }
    return n;
}

/* Index of lookup lk when tile moved sits on cell to and every other tile
 * where cell[] says. */
static inline uint64_t
moved_index(const lookup_t *lk, const uint8_t *cell, int n, int moved, int to)
{
    uint64_t used = 0;
    uint64_t x = 0;

    for (int t = 0; t < lk->k; t++) {
        int v = lk->tile[t];
        int c = lk->map[v == moved ? to : cell[v]];

        x = x * (uint64_t)(n - t) +
            (uint64_t)(c -
                       __builtin_popcountll(used & ((UINT64_C(1) << c) - 1)));
        used |= UINT64_C(1) << c;
    }
    return x;
}

/* pdb_eval's rank: place_rank with the processor's population count
 * where the build can ask for it (a library call otherwise). Not under
 * ThreadSanitizer: the clone resolver runs before its runtime starts. */
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__) && \
    !defined(__SANITIZE_THREAD__)
#define EVAL_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define EVAL_CLONES
#endif

/*
 * The larger partition sum. All indices are computed first and the table
 * entries read after, so the (mostly cache-missing) reads of the eight
 * lookups of the 24-puzzle overlap instead of following each other.
 */
EVAL_CLONES static int
pdb_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const pdb_ctx_t *h = ctx;
    uint8_t cell[CELLS_MAX]; /* tile -> its cell */
    uint64_t idx[2][PATS_MAX];
    int best = 0;

    (void)p;
    for (int i = 0; i < h->n; i++) {
        cell[s->b[i]] = (uint8_t)i;
    }
    for (int pi = 0; pi < h->nparts; pi++) {
        const part_t *pt = &h->part[pi];

        for (int j = 0; j < pt->npat; j++) {
            idx[pi][j] = moved_index(&pt->pat[j], cell, h->n, -1, 0);
        }
    }
    for (int pi = 0; pi < h->nparts; pi++) {
        const part_t *pt = &h->part[pi];
        int sum = 0;

        for (int j = 0; j < pt->npat; j++) {
            sum += pt->pat[j].data[idx[pi][j]];
        }
        if (sum > best) {
            best = sum;
        }
    }
    return best + ((best ^ h->odd[s->b[h->n]]) & 1);
}

/*
 * A pattern's rank at a node with what its children's ranks are derived
 * from. The rank is a mixed-radix number whose digit at slot t is the
 * tile's frame cell less the cells of the tiles ahead of it below that
 * cell. A move takes one tile from cell a to a neighbouring cell b: its
 * own digit is recomputed, and a later tile's digit changes by one only
 * when its cell lies strictly between a and b, which a move along a
 * frame row never leaves room for and a move across one does for at
 * most a row's width of cells.
 */
typedef struct rank {
    uint64_t x;                /* the rank */
    uint64_t all;              /* the pattern's frame cells */
    uint64_t ahead[PAT_MAX];   /* frame cells of the slots before each */
    uint8_t digit[PAT_MAX];    /* each slot's digit */
    int8_t slot_at[CELLS_MAX]; /* frame cell -> slot (cells in all only) */
} rank_t;

/* lk's rank with each tile where cell[] says. */
static inline __attribute__((always_inline)) void
rank_of(const lookup_t *lk, const uint8_t *cell, rank_t *r)
{
    uint64_t used = 0;
    uint64_t x = 0;

    for (int t = 0; t < lk->k; t++) {
        int c = lk->map[cell[lk->tile[t]]];
        int d = c - __builtin_popcountll(used & ((UINT64_C(1) << c) - 1));

        x += (uint64_t)d * lk->w[t];
        r->ahead[t] = used;
        r->digit[t] = (uint8_t)d;
        r->slot_at[c] = (int8_t)t;
        used |= UINT64_C(1) << c;
    }
    r->x = x;
    r->all = used;
}

/* lk's rank (at r) after the tile of slot t moves from frame cell a to
 * the empty frame cell b. */
static inline __attribute__((always_inline)) uint64_t
rank_moved(const lookup_t *lk, const rank_t *r, int t, int a, int b)
{
    uint64_t ahead = r->ahead[t];
    int d = b - __builtin_popcountll(ahead & ((UINT64_C(1) << b) - 1));
    uint64_t x = r->x + (uint64_t)(int64_t)(d - r->digit[t]) * lk->w[t];
    int lo = a < b ? a : b;
    int hi = a ^ b ^ lo;
    uint64_t between = r->all & ~ahead & ((UINT64_C(1) << hi) - 1) &
                       ~((UINT64_C(2) << lo) - 1);
    uint64_t shift = 0;

    for (; between != 0; between &= between - 1) {
        shift += lk->w[r->slot_at[__builtin_ctzll(between)]];
    }
    return a < b ? x + shift : x - shift;
}

/* A child for the children op: the cell the blank moves to, the tile that
 * slides out of it, and the child's table indices, by partition. */
typedef struct kid {
    int move;
    int tile;
    int blank; /* the child's blank cell (where the tile was) */
    uint64_t idx[2];
} kid_t;

/*
 * The children op: a move slides one tile, which belongs to one pattern
 * of each partition, so a child's sum is its parent's with that
 * pattern's entry replaced and its rank derived from the parent's
 * (rank_moved). The parent's entries are read once (they were read when
 * it was a child, so they are cached), each child's new index is
 * computed, and then all the children's entries are read together, their
 * cache misses overlapping.
 */
EVAL_CLONES static int
pdb_kids(const pz_puzzle_t *p,
         const pdb_ctx_t *h,
         const pz_state_t *s,
         uint64_t todo,
         kid_t *kid,
         int *out)
{
    uint8_t cell[CELLS_MAX];
    rank_t rk[2][PATS_MAX];
    int sum[2] = { 0, 0 };
    int val[2][PATS_MAX];
    int bz = s->b[h->n];
    int nk = 0;

    for (int i = 0; i < h->n; i++) {
        cell[s->b[i]] = (uint8_t)i;
    }
    for (int pi = 0; pi < h->nparts; pi++) {
        for (int j = 0; j < h->part[pi].npat; j++) {
            const lookup_t *lk = &h->part[pi].pat[j];

            rank_of(lk, cell, &rk[pi][j]);
            val[pi][j] = lk->data[rk[pi][j].x];
            sum[pi] += val[pi][j];
        }
    }
    for (; todo != 0; todo &= todo - 1) {
        int m = __builtin_ctzll(todo);
        pz_state_t c;
        kid_t *k = &kid[nk];

        if (!puzzle_apply(p, s, m, &c)) {
            continue;
        }
        k->move = m;
        k->blank = c.b[h->n];
        k->tile = s->b[k->blank];
        for (int pi = 0; pi < h->nparts; pi++) {
            const part_t *pt = &h->part[pi];
            int j = pt->owner[k->tile];
            const lookup_t *lk = &pt->pat[j];

            k->idx[pi] = rank_moved(lk, &rk[pi][j], pt->slot[k->tile],
                                    lk->map[k->blank], lk->map[bz]);
            __builtin_prefetch(&lk->data[k->idx[pi]]);
        }
        nk++;
    }
    for (int i = 0; i < nk; i++) {
        const kid_t *k = &kid[i];
        int best = 0;

        for (int pi = 0; pi < h->nparts; pi++) {
            const part_t *pt = &h->part[pi];
            int j = pt->owner[k->tile];
            int v = sum[pi] - val[pi][j] + pt->pat[j].data[k->idx[pi]];

            best = v > best ? v : best;
        }
        out[i] = best + ((best ^ h->odd[k->blank]) & 1);
    }
    return nk;
}

static void
pdb_children(const pz_puzzle_t *p,
             const void *ctx,
             const pz_state_t *parent,
             int h_parent,
             uint64_t todo,
             int limit,
             int16_t *out)
{
    kid_t kid[PZ_MOVES_MAX];
    int hs[PZ_MOVES_MAX];
    int nk = pdb_kids(p, ctx, parent, todo, kid, hs);

    (void)h_parent;
    (void)limit;
    for (int i = 0; i < nk; i++) {
        out[kid[i].move] = (int16_t)hs[i];
    }
}

const heuristic_ops_t tiles_pdb_heuristic = {
    .name = "pdb",
    .summary = "additive disjoint pattern databases (4x4: 7-8, 5x5: "
               "6-6-6-6, small boards: two halves) and their reflection "
               "about the diagonal, the larger sum (shared tables, see GET "
               "/v1/tables)",
    .admissible = true,
    .ctx_bytes = sizeof(pdb_ctx_t),
    .init = pdb_init,
    .eval = pdb_eval,
    .update = NULL,
    .children = pdb_children,
    .tables = pdb_tables,
    .supports = tiles_pdb_supported,
    .unavailable = "pattern databases exist for boards of up to 12 cells, "
                   "4x4 and 5x5",
};

/* ------------------------------------------------------------------------ */
/* Dual lookups */

/*
 * Number every tile by its home cell (the blank by its goal cell z):
 * a state is then a permutation s of the cells (cell -> number) and the
 * goal is the identity. If the blank's path b = p0, p1, ..., pk = z
 * solves s, then s = t_k ... t_1, where t_i exchanges the contents of
 * p(i-1) and p(i), and the inverse permutation is solved by the same
 * exchanges in reverse order. Before t_i the inverse's partial product
 * t_1 ... t_i holds number b at cell p(i): every exchange moves number b
 * to a neighbouring cell. So the inverse, read as a board on which
 * number b is the blank (at cell z at the start, at cell b at the end),
 * is a position of the same puzzle exactly as far from the identity as
 * s is, and any admissible estimate of it is one of s.
 *
 * The dual board is estimated by the databases of a goal whose blank is
 * on cell b, the partitions that goal's own rule gives (the tables are
 * shared between goals wherever a board symmetry maps one pattern and
 * blank region onto another), with number z a tile like any other. One
 * such goal per blank cell; number c sits at cell s(c) of the dual
 * board, the home of the tile on cell c. The estimate is the largest of
 * the regular and the dual sums; the dual sums are read only for the
 * children the regular ones do not cut. Admissible, not consistent:
 * IDA* does not need consistency.
 */

static int
dual_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    dual_ctx_t *h = ctx;
    partition_t parts[2];
    board_t b;
    int rc = init_goal(p, goal, &h->reg, &b, parts);
    int n = b.n;
    int z = h->reg.z;

    if (rc != PZ_OK) {
        return rc;
    }
    if (n > DUAL_CELLS) {
        return PZ_EUNSUPPORTED;
    }
    rc = bind_parts(&h->reg, &b, parts, goal);
    for (int bc = 0; rc == PZ_OK && bc < n; bc++) {
        /* The goal with the blank on bc, number z taking the tile of
         * number bc. */
        pz_state_t g = *goal;

        for (int c = 0; c < n; c++) {
            g.b[c] = c == bc ? 0 : c == z ? goal->b[bc] : goal->b[c];
        }
        g.b[n] = (uint8_t)bc;
        rc = init_goal(p, &g, &h->goal[bc], &b, parts);
        if (rc == PZ_OK) {
            rc = bind_parts(&h->goal[bc], &b, parts, &g);
        }
    }
    return rc;
}

/* The tables of every blank cell's goal, deduplicated, appended to
 * names after the n already there. */
static int
dual_tables(const pz_puzzle_t *p,
            const pz_state_t *goal,
            const char **names,
            int max)
{
    partition_t parts[2];
    board_t b;
    int n = pdb_tables(p, goal, names, max);

    if (n <= 0 || p->params.rows * p->params.cols > DUAL_CELLS) {
        return n;
    }
    board_init(&b, p->params.rows, p->params.cols);
    for (int bc = 0; bc < b.n; bc++) {
        int nparts = partitions(b.rows, b.cols, bc, parts);

        for (int pi = 0; pi < nparts; pi++) {
            for (int i = 0; i < parts[pi].npat; i++) {
                n = list_table(&b, parts[pi].pat[i], bc, names, n, max);
            }
        }
    }
    return n;
}

/* The indices of the dual board of s into idx, each entry prefetched;
 * returns the databases they index. A lookup's tiles are numbered by
 * their home cells c in its goal (lk->cell), and the dual board holds
 * number c on the home of s's tile on cell c. */
EVAL_CLONES static const pdb_ctx_t *
dual_index(const dual_ctx_t *h, const pz_state_t *s, uint64_t idx[2][PATS_MAX])
{
    const pdb_ctx_t *r = &h->reg;
    const pdb_ctx_t *g = &h->goal[s->b[r->n]];
    uint8_t pos[DUAL_CELLS];

    for (int c = 0; c < r->n; c++) {
        pos[c] = r->home[s->b[c]];
    }
    pdb_index(g, pos, idx);
    return g;
}

/* The dual estimate of s. */
static int
dual_eval_only(const dual_ctx_t *h, const pz_state_t *s)
{
    uint64_t idx[2][PATS_MAX];
    const pdb_ctx_t *g = dual_index(h, s, idx);
    int best = pdb_sum(g, idx);

    /* The dual board's distance has the parity of s's. */
    return best + ((best ^ h->reg.odd[s->b[h->reg.n]]) & 1);
}

static int
dual_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const dual_ctx_t *h = ctx;
    int reg = pdb_eval(p, &h->reg, s);
    int dual = dual_eval_only(h, s);

    return dual > reg ? dual : reg;
}

static int
dual_update_limit(const pz_puzzle_t *p,
                  const void *ctx,
                  const pz_state_t *parent,
                  int h_parent,
                  int move,
                  const pz_state_t *child,
                  int limit)
{
    const dual_ctx_t *h = ctx;
    int reg = pdb_eval(p, &h->reg, child);
    int dual;

    (void)parent;
    (void)h_parent;
    (void)move;
    if (reg > limit) {
        return reg;
    }
    dual = dual_eval_only(h, child);
    return dual > reg ? dual : reg;
}

static int
dual_update(const pz_puzzle_t *p,
            const void *ctx,
            const pz_state_t *parent,
            int h_parent,
            int move,
            const pz_state_t *child)
{
    (void)parent;
    (void)h_parent;
    (void)move;
    return dual_eval(p, ctx, child);
}

/* The children op: the regular sums as "pdb"'s, then the dual sums of
 * the children they do not cut, all their entries prefetched before
 * any is read. */
static void
dual_children(const pz_puzzle_t *p,
              const void *ctx,
              const pz_state_t *parent,
              int h_parent,
              uint64_t todo,
              int limit,
              int16_t *out)
{
    const dual_ctx_t *h = ctx;
    kid_t kid[PZ_MOVES_MAX];
    int hs[PZ_MOVES_MAX];
    int nk = pdb_kids(p, &h->reg, parent, todo, kid, hs);
    uint64_t idx[PZ_MOVES_MAX][2][PATS_MAX];
    const pdb_ctx_t *g[PZ_MOVES_MAX];

    (void)h_parent;
    for (int i = 0; i < nk; i++) {
        if (hs[i] <= limit) {
            pz_state_t c;

            puzzle_apply(p, parent, kid[i].move, &c);
            g[i] = dual_index(h, &c, idx[i]);
        }
    }
    for (int i = 0; i < nk; i++) {
        int v = hs[i];

        if (v <= limit) {
            int dual = pdb_sum(g[i], idx[i]);

            dual += (dual ^ h->reg.odd[kid[i].blank]) & 1;
            v = dual > v ? dual : v;
        }
        out[kid[i].move] = (int16_t)v;
    }
}

const heuristic_ops_t tiles_pdb_dual_heuristic = {
    .name = "pdb-dual",
    .summary = "\"pdb\" and the dual board (the inverse permutation, on "
               "which the tile numbered by the blank's cell is the blank) "
               "read with the databases of the goal whose blank is there, "
               "the largest sum; more tables (see GET /v1/tables)",
    .admissible = true,
    .ctx_bytes = sizeof(dual_ctx_t),
    .init = dual_init,
    .eval = dual_eval,
    .update = dual_update,
    .update_limit = dual_update_limit,
    .children = dual_children,
    .tables = dual_tables,
    .supports = tiles_pdb_supported,
    .unavailable = "pattern databases exist for boards of up to 12 cells, "
                   "4x4 and 5x5",
};
