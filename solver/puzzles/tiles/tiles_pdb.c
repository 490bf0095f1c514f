/* SPDX-License-Identifier: MIT */
/* tiles_pdb.c - additive disjoint pattern databases for the sliding tiles:
 * the partitions, the symmetries that share tables, the tables' names. */

/*
 * Design. The tiles except the blank are split into disjoint patterns
 * (4x4: the 7 tiles homed in the blank's half of the board and the 8 of
 * the other half; 5x5: four blocks of 6; boards of up to 12 cells: two
 * halves in reading order). For each pattern a table gives, for every
 * placement of its tiles, the fewest moves of pattern tiles that bring
 * them home when the other tiles are indistinct and moves of those cost
 * nothing. Every move moves one tile, which belongs to one pattern, so
 * the sum over the patterns of a partition never overestimates: the
 * heuristic is admissible (not consistent: a table's value is the least
 * over the regions the blank may be in, and a move can change it by more
 * than one). Tables hold 4-bit entries relative to the Manhattan
 * distance (tiles_pdb_internal.h, tiles_pdb_pack.c). On square boards the
 * partition reflected about the main diagonal gives a second sum over other
 * groupings of the same tiles; the larger sum is used (Korf and Felner 2002).
 * Every move takes the blank to a square of the other colour of a chessboard,
 * so a distance has the parity of the blank's Manhattan distance to its goal
 * cell; an estimate of the other parity is raised by one.
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
 * The builder is in tiles_pdb_build.c (its packing in tiles_pdb_pack.c),
 * the lookups (regular and dual) in tiles_pdb_lookup.c.
 */
#include "tiles_pdb.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "tiles_pdb_internal.h"

#define SYMS_MAX 8 /* symmetries of a square board */

void
tiles_pdb__board_init(board_t *b, int rows, int cols)
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
int
tiles_pdb__partitions(int rows, int cols, int z, partition_t out[2])
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

void
tiles_pdb__canonical(const board_t *b, uint64_t pat, int z, canon_t *out)
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
bool
tiles_pdb__def(const board_t *b, const canon_t *c, tables_def_t *def)
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
    def->bits = 4; /* tiles_pdb_internal.h: the excess over the Manhattan
                      distance */
    def->entries = place_count(k, b->n);
    /* Every node reads entries at random: 4 KiB pages would miss the TLB
     * on nearly every probe of a table of more than a few megabytes. */
    def->huge = def->entries >= ((uint64_t)4 << 20);
    def->build = tiles_pdb__build;
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
    int nparts = tiles_pdb__partitions(b->rows, b->cols, blank, parts);

    if (nparts == 0) {
        return PZ_EUNSUPPORTED;
    }
    for (int p = 0; p < nparts; p++) {
        for (int i = 0; i < parts[p].npat; i++) {
            canon_t c;
            tables_def_t d;
            bool dup = false;

            tiles_pdb__canonical(b, parts[p].pat[i], blank, &c);
            if (!tiles_pdb__def(b, &c, &d)) {
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

    tiles_pdb__board_init(&b, rows, cols);
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
    tiles_pdb__board_init(&b, rows, cols);
    for (int bc = 0; bc < b.n && n >= 0; bc++) {
        n = add_defs(&b, bc, "-dual", out, n, max);
    }
    return n;
}
