/* SPDX-License-Identifier: MIT */
/* pdb.c - additive disjoint pattern databases for the sliding tiles. */

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
 * the larger sum is used (Korf and Felner 2002).
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
 * with the whole free region the blank can reach: on discovery every cell
 * of that region is marked done and one representative enters the next
 * layer. A placement's table entry is the layer it is first reached in.
 * Layers are found by scanning the bit array (no queues); placements are
 * ranked as partial permutations in mixed radix, and the scan order lets
 * the placement of all but the last tile be unranked once per run of
 * consecutive indices.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables_internal.h"

#define CELLS_MAX 64
#define PATS_MAX  4 /* patterns per partition */
#define PAT_MAX   8 /* tiles per pattern */
#define SYMS_MAX  8 /* symmetries of a square board */
#define UNSEEN    0xFF

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
              (uint64_t)(pos[j] - tables__popcount(used & below));
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

static int pdb_build(const table_recipe_t *r, uint8_t *data, int *max_value);

static void
pdb_recipe(const board_t *b, const canon_t *c, table_recipe_t *r)
{
    int k = tables__popcount(c->mask);

    memset(r, 0, sizeof(*r));
    snprintf(r->name, sizeof(r->name), "tiles-%dx%d-pdb%d-%llx-z%d", b->rows,
             b->cols, k, (unsigned long long)c->mask, c->blank);
    snprintf(r->group, sizeof(r->group), "tiles-%dx%d", b->rows, b->cols);
    snprintf(r->puzzle, sizeof(r->puzzle), "tiles %dx%d, %d tiles", b->rows,
             b->cols, k);
    r->kind = TABLES_KIND_PDB;
    r->bits = 8;
    r->entries = place_count(k, b->n);
    r->build = pdb_build;
    r->rows = b->rows;
    r->cols = b->cols;
    r->mask = c->mask;
    r->blank = c->blank;
}

int
tables__pdb_recipes(int rows, int cols, int blank, table_recipe_t *out, int max)
{
    partition_t parts[2];
    board_t b;
    int nparts;
    int n = 0;

    board_init(&b, rows, cols);
    nparts = partitions(rows, cols, blank, parts);
    if (nparts == 0) {
        return PZ_EUNSUPPORTED;
    }
    for (int p = 0; p < nparts; p++) {
        for (int i = 0; i < parts[p].npat; i++) {
            canon_t c;
            table_recipe_t r;
            bool dup = false;

            canonical(&b, parts[p].pat[i], blank, &c);
            pdb_recipe(&b, &c, &r);
            for (int j = 0; j < n; j++) {
                dup = dup || strcmp(out[j].name, r.name) == 0;
            }
            if (!dup && n < max) {
                out[n++] = r;
            }
        }
    }
    return n;
}

/* ------------------------------------------------------------------------ */
/* Building */

/* Children are collected in batches with their bit-array words
 * prefetched, then checked: the checks are random accesses into an array
 * of up to a gigabyte, and this keeps many of them in flight. */
#define BATCH     2048
#define CHILD_MAX (PAT_MAX * 4) /* children of one expansion */

/* A state reached from the current layer, to be checked. */
typedef struct child {
    uint64_t entry; /* placement << unit_shift | the blank's free rank */
    uint64_t free;  /* the placement's free cells */
    int blank;      /* the blank's cell */
} child_t;

/* The build's working set. Each placement owns one aligned unit of 16, 32
 * or 64 bits in the bit array, 2 bits per free cell (in cell order), so
 * a placement's codes never straddle two words. */
typedef struct build {
    board_t b;
    int k;                    /* pattern tiles */
    int nf;                   /* free cells: n - k */
    int unit_shift;           /* log2 of the entries per unit */
    uint64_t count;           /* placements */
    uint64_t *codes;          /* the units */
    uint8_t *data;            /* the table */
    uint64_t seen;            /* placements expanded so far */
    uint64_t found;           /* states found in this layer */
    int next_code;            /* code of the next layer */
    int layer;                /* depth being expanded */
    uint64_t weight[PAT_MAX]; /* place value of each digit of a rank */
    uint64_t prefix;          /* placement / (n - k + 1) cached below */
    uint8_t pos[PAT_MAX];
    uint8_t last_free[CELLS_MAX]; /* cells the cached prefix leaves */
    uint8_t ord[CELLS_MAX];       /* cell -> tile of the expansion, or 0xFF */
    uint64_t cell_weight[CELLS_MAX]; /* cell -> weight of its tile, or 0 */
    uint8_t rank[CELLS_MAX];         /* cell -> free cells below it */
    /* Moves from each cell: the destination (or -1) and the cells passed
     * over on the way in index order (a vertical move's row between). */
    int8_t dest[CELLS_MAX][4];
    uint8_t npass[CELLS_MAX][4];
    uint8_t pass[CELLS_MAX][4][PAT_MAX];
    int nbatch;
    child_t batch[BATCH];
} build_t;

static inline int
code_get(const build_t *w, uint64_t e)
{
    return (int)(w->codes[e >> 5] >> ((e & 31) << 1)) & 3;
}

static inline void
code_set(build_t *w, uint64_t e, int v)
{
    uint64_t *word = &w->codes[e >> 5];
    int sh = (int)((e & 31) << 1);

    *word = (*word & ~(UINT64_C(3) << sh)) | ((uint64_t)v << sh);
}

/* Fills w->pos for placement c, reusing the cached prefix. */
static void
unrank_placement(build_t *w, uint64_t c)
{
    int n = w->b.n;
    int k = w->k;
    int radix = n - k + 1;
    uint64_t pk = c / (uint64_t)radix;

    if (pk != w->prefix) {
        uint8_t digit[PAT_MAX];
        uint64_t v = pk;
        uint64_t used = 0;
        uint64_t rest;
        int i = 0;

        for (int j = k - 2; j >= 0; j--) {
            digit[j] = (uint8_t)(v % (uint64_t)(n - j));
            v /= (uint64_t)(n - j);
        }
        for (int j = 0; j < k - 1; j++) {
            int p = select_bit(w->b.full & ~used, digit[j]);

            w->pos[j] = (uint8_t)p;
            used |= UINT64_C(1) << p;
        }
        rest = w->b.full & ~used;
        while (rest != 0) {
            w->last_free[i++] = (uint8_t)__builtin_ctzll(rest);
            rest &= rest - 1;
        }
        w->prefix = pk;
    }
    w->pos[k - 1] = w->last_free[c % (uint64_t)radix];
}

/* Marks the region of placement ci with the blank at cell p (free cells
 * fc, p's rank among them rp): every cell done, p in the next layer. */
static void
discover(build_t *w, uint64_t ci, uint64_t fc, int p, int rp)
{
    uint64_t reg = region(&w->b, fc, p);
    uint64_t base = ci << w->unit_shift;

    w->found++;
    if (reg == fc) {
        /* One region (the usual case): all entries done but p's, in one
         * store to the placement's unit. */
        uint64_t ones =
            w->nf == 32 ? ~UINT64_C(0) : (UINT64_C(1) << (2 * w->nf)) - 1;
        uint64_t val = ones ^ ((uint64_t)(3 ^ w->next_code) << (2 * rp));
        int sh = (int)((base & 31) << 1);
        uint64_t *word = &w->codes[base >> 5];

        *word = (*word & ~(ones << sh)) | (val << sh);
        return;
    }
    /* Several regions: walk the free cells in order, counting ranks. */
    for (int r = 0; fc != 0; r++) {
        int x = __builtin_ctzll(fc);

        if (reg >> x & 1) {
            code_set(w, base + (uint64_t)r, x == p ? w->next_code : 3);
        }
        fc &= fc - 1;
    }
}

/* Checks the batched children: the new ones join the next layer. */
static void
flush(build_t *w)
{
    uint64_t rmask = (UINT64_C(1) << w->unit_shift) - 1;

    for (int i = 0; i < w->nbatch; i++) {
        const child_t *ch = &w->batch[i];

        if (code_get(w, ch->entry) == 0) {
            discover(w, ch->entry >> w->unit_shift, ch->free, ch->blank,
                     (int)(ch->entry & rmask));
        }
    }
    w->nbatch = 0;
}

/*
 * Expands entry e (placement, blank rank) of the current layer: records
 * the placement's depth on its first expansion and batches its children
 * (moves of pattern tiles into the blank's region). A child's rank comes
 * from the parent's: moving tile j from p to q changes digit j by the
 * distance moved less the earlier tiles passed over, and each later tile
 * passed over gains (q above it) or loses (q below it) one in its digit.
 * Only a vertical move passes over cells.
 */
static void
expand(build_t *w, uint64_t e)
{
    uint64_t c = e >> w->unit_shift;
    int br = (int)(e & ((UINT64_C(1) << w->unit_shift) - 1));
    uint64_t occ = 0;
    uint64_t fr;
    uint64_t reg;

    if (w->data[c] == UNSEEN) {
        w->data[c] = (uint8_t)w->layer;
        w->seen++;
    }
    unrank_placement(w, c);
    for (int j = 0; j < w->k; j++) {
        occ |= UINT64_C(1) << w->pos[j];
        w->ord[w->pos[j]] = (uint8_t)j;
        w->cell_weight[w->pos[j]] = w->weight[j];
    }
    fr = w->b.full & ~occ;
    reg = region(&w->b, fr, select_bit(fr, br));
    for (int x = 0, r = 0; x < w->b.n; x++) {
        w->rank[x] = (uint8_t)r;
        r += (int)(fr >> x & 1);
    }
    for (int j = 0; j < w->k; j++) {
        int p = w->pos[j];

        for (int dir = 0; dir < 4; dir++) {
            int q = w->dest[p][dir];
            child_t *ch = &w->batch[w->nbatch];
            uint64_t later = 0;
            uint64_t step;
            int earlier = 0;

            if (q < 0) {
                continue;
            }
            for (int t = 0; t < w->npass[p][dir]; t++) {
                int x = w->pass[p][dir][t];

                earlier += w->ord[x] < j;
                later += w->cell_weight[x] & -(uint64_t)(w->ord[x] > j);
            }
            step =
                (uint64_t)((q > p ? q - p : p - q) - earlier) * w->weight[j] +
                later;
            ch->entry = (q > p ? c + step : c - step) << w->unit_shift |
                        (uint64_t)(w->rank[p] - (q < p));
            ch->free = fr ^ (UINT64_C(1) << q) ^ (UINT64_C(1) << p);
            ch->blank = p;
            __builtin_prefetch(&w->codes[ch->entry >> 5], 1, 0);
            w->nbatch += (int)(reg >> q & 1);
        }
    }
    for (int j = 0; j < w->k; j++) {
        w->ord[w->pos[j]] = 0xFF;
        w->cell_weight[w->pos[j]] = 0;
    }
    if (w->nbatch > BATCH - CHILD_MAX) {
        flush(w);
    }
}

/* Fills the move tables of w's board. */
static void
build_moves(build_t *w)
{
    int cols = w->b.cols;

    for (int p = 0; p < w->b.n; p++) {
        int r = p / cols;
        int c = p % cols;
        int dest[4] = { r > 0 ? p - cols : -1,
                        r + 1 < w->b.rows ? p + cols : -1, c > 0 ? p - 1 : -1,
                        c + 1 < cols ? p + 1 : -1 };

        for (int dir = 0; dir < 4; dir++) {
            int q = dest[dir];

            w->dest[p][dir] = (int8_t)q;
            w->npass[p][dir] = 0;
            for (int x = (p < q ? p : q) + 1; q >= 0 && x < (p < q ? q : p);
                 x++) {
                w->pass[p][dir][w->npass[p][dir]++] = (uint8_t)x;
            }
        }
    }
}

static int
pdb_build(const table_recipe_t *r, uint8_t *data, int *max_value)
{
    const uint64_t lo_bits = UINT64_C(0x5555555555555555);
    build_t *w = calloc(1, sizeof(*w));
    uint64_t nwords;
    uint64_t goal = 0;
    uint64_t free0;
    int d = 0;
    int rc;

    if (w == NULL) {
        return PZ_ENOMEM;
    }
    board_init(&w->b, r->rows, r->cols);
    w->k = tables__popcount(r->mask);
    w->nf = w->b.n - w->k;
    w->count = r->entries;
    w->data = data;
    w->prefix = UINT64_MAX;
    memset(w->ord, 0xFF, sizeof(w->ord));
    if (w->k < 1 || w->k > PAT_MAX || w->nf < 2 || w->nf > 32 ||
        w->b.cols > PAT_MAX + 1) {
        free(w);
        return PZ_EINVAL;
    }
    w->unit_shift = w->nf <= 8 ? 3 : w->nf <= 16 ? 4 : 5;
    build_moves(w);
    w->weight[w->k - 1] = 1;
    for (int j = w->k - 2; j >= 0; j--) {
        w->weight[j] = w->weight[j + 1] * (uint64_t)(w->b.n - j - 1);
    }
    nwords = ((w->count << w->unit_shift) + 31) / 32;
    w->codes = calloc((size_t)nwords, sizeof(uint64_t));
    if (w->codes == NULL) {
        free(w);
        return PZ_ENOMEM;
    }
    memset(data, UNSEEN, (size_t)w->count);

    /* The goal: pattern tile j on the j-th home cell, the blank's region
     * in layer 0. */
    {
        uint8_t pos[PAT_MAX];
        uint64_t m = r->mask;

        for (int j = 0; j < w->k; j++) {
            pos[j] = (uint8_t)__builtin_ctzll(m);
            m &= m - 1;
        }
        goal = place_rank(pos, w->k, w->b.n);
    }
    w->next_code = 1;
    free0 = w->b.full & ~r->mask;
    discover(w, goal, free0, r->blank,
             tables__popcount(free0 & ((UINT64_C(1) << r->blank) - 1)));

    for (;;) {
        int cur = (d & 1) + 1;

        w->found = 0;
        w->layer = d;
        w->next_code = 3 - cur;
        if (d + 1 >= UNSEEN) {
            free(w->codes);
            free(w);
            return PZ_ERANGE;
        }
        for (uint64_t i = 0; i < nwords; i++) {
            uint64_t word = w->codes[i];
            uint64_t lo = word & lo_bits;
            uint64_t hi = (word >> 1) & lo_bits;
            uint64_t match = cur == 1 ? lo & ~hi : hi & ~lo;

            while (match != 0) {
                uint64_t e = i * 32 + (uint64_t)(__builtin_ctzll(match) >> 1);

                match &= match - 1;
                code_set(w, e, 3);
                expand(w, e);
            }
        }
        flush(w);
        tables__progress(r->name, w->seen, w->count);
        if (w->found == 0) {
            break;
        }
        d++;
    }
    /* Every placement is reachable (at least two cells are free), so a
     * placement left unseen would be a bug. */
    rc = w->seen == w->count ? PZ_OK : PZ_EINTERNAL;
    *max_value = d;
    free(w->codes);
    free(w);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The heuristic */

/* One pattern's lookup: its table, and where its tiles go in the table's
 * frame. */
typedef struct lookup {
    const uint8_t *data;
    int k;
    uint8_t map[CELLS_MAX]; /* board cell -> table frame cell */
} lookup_t;

/* One partition: its patterns and, per tile, which pattern and slot. */
typedef struct part {
    int npat;
    lookup_t pat[PATS_MAX];
    int8_t owner[CELLS_MAX]; /* tile -> pattern, -1 for the blank */
    uint8_t slot[CELLS_MAX]; /* tile -> position in its pattern's order */
} part_t;

typedef struct pdb_ctx {
    int n;
    int nparts;
    part_t part[2];
} pdb_ctx_t;

bool
tables_pdb_supported(const pz_puzzle_t *p)
{
    int n = p->rows * p->cols;

    return p->rows > 0 && (n <= 12 || (p->rows == 4 && p->cols == 4) ||
                           (p->rows == 5 && p->cols == 5));
}

/* The goal's blank cell, or -1 when goal is not a board of p. */
static int
goal_blank(const pz_puzzle_t *p, const pz_state_t *goal)
{
    int n = p->rows * p->cols;

    return goal == NULL ? n - 1 : goal->b[n] < n ? goal->b[n] : -1;
}

bool
tables_pdb_ready(const pz_puzzle_t *p, const pz_state_t *goal)
{
    table_recipe_t r[2 * PATS_MAX];
    int z;
    int n;

    if (!tables_pdb_supported(p) || (z = goal_blank(p, goal)) < 0) {
        return false;
    }
    n = tables__pdb_recipes(p->rows, p->cols, z, r, 2 * PATS_MAX);
    for (int i = 0; i < n; i++) {
        if (tables__cached(r[i].name) == NULL && !tables__file_exists(&r[i])) {
            return false;
        }
    }
    return n > 0;
}

static size_t
pdb_ctx_size(const pz_puzzle_t *p)
{
    (void)p;
    return sizeof(pdb_ctx_t);
}

static int
pdb_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    pdb_ctx_t *h = ctx;
    partition_t parts[2];
    uint8_t home[CELLS_MAX];
    board_t b;
    int n = p->rows * p->cols;
    int z;

    if (!tables_pdb_supported(p)) {
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
        home[goal->b[i]] = (uint8_t)i;
    }
    board_init(&b, p->rows, p->cols);
    h->n = n;
    h->nparts = partitions(p->rows, p->cols, z, parts);
    for (int pi = 0; pi < h->nparts; pi++) {
        part_t *pt = &h->part[pi];

        pt->npat = parts[pi].npat;
        memset(pt->owner, -1, sizeof(pt->owner));
        for (int i = 0; i < pt->npat; i++) {
            lookup_t *lk = &pt->pat[i];
            table_recipe_t r;
            const table_t *t;
            canon_t c;
            int rc;

            canonical(&b, parts[pi].pat[i], z, &c);
            pdb_recipe(&b, &c, &r);
            rc = tables__get(&r, &t, NULL);
            if (rc != PZ_OK) {
                return rc;
            }
            lk->data = t->data;
            lk->k = tables__popcount(c.mask);
            memcpy(lk->map, c.map, sizeof(lk->map));
            /* Slot of a tile: the rank of its home cell, in the table's
             * frame, among the pattern's cells there. */
            for (int v = 1; v < n; v++) {
                uint64_t at = UINT64_C(1) << home[v];

                if (parts[pi].pat[i] & at) {
                    int hc = c.map[home[v]];

                    pt->owner[v] = (int8_t)i;
                    pt->slot[v] = (uint8_t)tables__popcount(
                        c.mask & ((UINT64_C(1) << hc) - 1));
                }
            }
        }
    }
    return PZ_OK;
}

static int
pdb_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const pdb_ctx_t *h = ctx;
    int best = 0;

    (void)p;
    for (int pi = 0; pi < h->nparts; pi++) {
        const part_t *pt = &h->part[pi];
        uint8_t pos[PATS_MAX][PAT_MAX];
        int sum = 0;

        for (int i = 0; i < h->n; i++) {
            int v = s->b[i];
            int o = pt->owner[v];

            if (o >= 0) {
                pos[o][pt->slot[v]] = pt->pat[o].map[i];
            }
        }
        for (int j = 0; j < pt->npat; j++) {
            const lookup_t *lk = &pt->pat[j];

            sum += lk->data[place_rank(pos[j], lk->k, h->n)];
        }
        if (sum > best) {
            best = sum;
        }
    }
    return best;
}

const heuristic_ops_t tables_heuristic_pdb = {
    .name = "pdb",
    .summary = "additive disjoint pattern databases (4x4: 7-8, 5x5: "
               "6-6-6-6, small boards: two halves) and their reflection "
               "about the diagonal, the larger sum; tables built on first "
               "use",
    .admissible = true,
    .ctx_size = pdb_ctx_size,
    .init = pdb_init,
    .eval = pdb_eval,
    .update = NULL,
};
