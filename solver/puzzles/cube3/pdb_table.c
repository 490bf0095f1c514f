/* SPDX-License-Identifier: MIT */
/* pdb_table.c - 2-bit 3x3x3 pattern databases: indexing, BFS, exact values. */

/*
 * Design: a table is rows of 2187 entries, one per corner twist, so that
 * the twist, the innermost coordinate, changes within a row and a move
 * maps a whole source row into one target row (a few hundred bytes): the
 * breadth-first search stays in cache while it works through a row.
 * Corners: row = corner permutation (40320 rows, 88,179,840 entries).
 * Slice patterns: row = symmetry class of the E-slice coordinate * 2048 +
 * flip, the flip and twist taken in the class representative's frame.
 *
 * Each entry is 2 bits: the pattern's distance mod 3, or 3 while the
 * search has not reached it. A table may stop at a clamp distance C: its
 * entries still 3 then mean "C or more", read as C, which is still a
 * lower bound and still decodes along a path (a child at 3 is C; a child
 * below C of a parent at C or more is C - 1). Distances mod 3 are enough for a
 * search that knows one exact value: a move changes a pattern's distance by -1,
 * 0 or +1, which the residues tell apart. The heuristic keeps exact values
 * along its search path (pdb.c); cube3_pdb__exact recovers one from
 * scratch by walking down to the solved pattern.
 *
 * The search is level by level. A level either scans forward (every entry
 * at the current residue tries its moves and claims unreached targets)
 * or, once few entries are left, backward (every unreached entry looks
 * for a neighbour at the current residue and stops at the first). Entries
 * at the current residue from three levels earlier are scanned again
 * forward; their neighbours are all reached, so they only cost time.
 *
 * Symmetry reduction: a slice class whose representative some symmetries
 * fix holds several entries for one pattern (the fixed symmetries' images
 * of the flip and twist). Whenever an entry is set, its images are set to
 * the same value, so every entry of a pattern is correct no matter which
 * symmetry a lookup uses to reach the representative.
 */
/* madvise(MADV_HUGEPAGE) is a Linux extension. */
#define _DEFAULT_SOURCE 1

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "pdb_internal.h"

/* Where a move takes a row. */
typedef struct target {
    uint64_t row;                    /* target row */
    const uint16_t *tw;              /* twist conjugation into it */
    int norbit;                      /* further images to set */
    uint64_t orow[PDB_NUDSYM];       /* their rows */
    const uint16_t *otw[PDB_NUDSYM]; /* their twist conjugations */
} target_t;

/* The moves of a table's metric, as HTM ids. */
static int
metric_moves(bool qtm, int *moves)
{
    int n = 0;

    for (int m = 0; m < PDB_NHTM; m++) {
        if (!qtm || m % 3 != 1) {
            moves[n++] = m;
        }
    }
    return n;
}

static void
set_code(uint8_t *data, uint64_t i, int code)
{
    int sh = (int)(i & 3) << 1;

    data[i >> 2] = (uint8_t)((data[i >> 2] & ~(3 << sh)) | (code << sh));
}

/* The images of entry row/twist under the stabiliser of its class (not
 * the identity). Fills out->orow / otw / norbit. */
static void
orbit(const pdb_base_t *pb, const pdb_slice_t *sl, uint64_t row, target_t *out)
{
    uint64_t c = row / PDB_NFLIP;
    int f = (int)(row % PDB_NFLIP);
    unsigned stab = sl->stab[c] & ~1u;
    int rep = sl->rep[c];
    int comb = rep / sl->div;

    out->norbit = 0;
    while (stab != 0) {
        int k = __builtin_ctz(stab);
        int f2 = pb->co.flip_perm[k][f] ^ pb->co.flip_mask[k][comb];

        stab &= stab - 1;
        out->orow[out->norbit] = c * PDB_NFLIP + (uint64_t)f2;
        out->otw[out->norbit] = pb->co.twist_conj[k];
        out->norbit++;
    }
}

/* Asks for the cache lines of rows tg[0..nm) (and their images), which
 * the scans then hit in random order: their misses overlap instead of
 * coming one after another. */
static void
prefetch_rows(const uint8_t *data, const target_t *tg, int nm)
{
    for (int i = 0; i < nm; i++) {
        uint64_t first = tg[i].row * PDB_NTWIST / 4;
        uint64_t last = (tg[i].row * PDB_NTWIST + PDB_NTWIST - 1) / 4;

        for (uint64_t b = first & ~UINT64_C(63); b <= last; b += 64) {
            __builtin_prefetch(data + b, 1);
        }
    }
}

/* Fills tg[i] for move moves[i] from row. */
static void
row_targets(const pdb_table_t *t,
            const pdb_base_t *pb,
            uint64_t row,
            const int *moves,
            int nm,
            target_t *tg)
{
    const pdb_coord_t *co = &pb->co;

    if (t->kind == CUBE3_PDB_CORNERS) {
        for (int i = 0; i < nm; i++) {
            tg[i].row = co->cperm_move[row][moves[i]];
            tg[i].tw = co->twist_conj[0];
            tg[i].norbit = 0;
        }
        return;
    }
    const pdb_slice_t *sl = t->slice;
    uint64_t c = row / PDB_NFLIP;
    int f = (int)(row % PDB_NFLIP);
    int raw = sl->rep[c];

    for (int i = 0; i < nm; i++) {
        int m = moves[i];
        int raw2 = sl->move[raw][m];
        int k = sl->sym[raw2];
        int comb2 = raw2 / sl->div;
        int f2 = co->flip_move[f][m];
        int f3 = co->flip_perm[k][f2] ^ co->flip_mask[k][comb2];

        tg[i].row = (uint64_t)sl->cls[raw2] * PDB_NFLIP + (uint64_t)f3;
        tg[i].tw = co->twist_conj[k];
        orbit(pb, sl, tg[i].row, &tg[i]);
    }
}

uint64_t
cube3_pdb__index(const pdb_table_t *t, const pdb_base_t *pb, const uint8_t *b)
{
    const pdb_coord_t *co = &pb->co;

    if (t->kind == CUBE3_PDB_CORNERS) {
        return (uint64_t)cube3_pdb__cperm(b) * PDB_NTWIST +
               (uint64_t)cube3_pdb__twist(b);
    }
    return cube3_pdb__slice_index(t, pb, cube3_pdb__raw(co, t->slice->kind, b),
                                  cube3_pdb__flip(b), cube3_pdb__twist(b));
}

/* Bit 2i of the result is set when entry i of word w equals code. */
static uint64_t
match(uint64_t w, int code)
{
    static const uint64_t rep[4] = {
        UINT64_C(0),
        UINT64_C(0x5555555555555555),
        UINT64_C(0xAAAAAAAAAAAAAAAA),
        UINT64_C(0xFFFFFFFFFFFFFFFF),
    };
    uint64_t x = w ^ rep[code];

    return ~(x | x >> 1) & UINT64_C(0x5555555555555555);
}

/* Sets entry j (unreached) and its images to code. Returns how many
 * entries it set. */
static uint64_t
claim(uint8_t *data, const target_t *tg, uint64_t j, int tw, int code)
{
    uint64_t n = 1;

    set_code(data, j, code);
    for (int o = 0; o < tg->norbit; o++) {
        uint64_t k = tg->orow[o] * PDB_NTWIST + tg->otw[o][tw];
        int sh = (int)(k & 3) << 1;

        if ((data[k >> 2] >> sh & 3) == 3) {
            set_code(data, k, code);
            n++;
        }
    }
    return n;
}

/* One scan of a level: the rows whose entries it works on, each with
 * the twists of those entries. */
typedef struct scan {
    pdb_table_t *t;
    const pdb_base_t *pb;
    const int *moves;
    int nm;
    int cur;        /* residue of the level being expanded */
    uint64_t found; /* entries set so far */
    uint64_t row;   /* row of the twists collected */
    int n;          /* twists collected */
    uint16_t tw[PDB_NTWIST];
    target_t tg[PDB_MAXMOVES];
    target_t self; /* images of the row itself (backward) */
} scan_t;

/* Forward: every collected entry (at the level's residue) claims its
 * unreached neighbours. Moves outer, entries inner: one target row at a
 * time is hot. */
static void
flush_forward(scan_t *sc)
{
    uint8_t *data = sc->t->data;
    int next = (sc->cur + 1) % 3;

    row_targets(sc->t, sc->pb, sc->row, sc->moves, sc->nm, sc->tg);
    prefetch_rows(data, sc->tg, sc->nm);
    for (int m = 0; m < sc->nm; m++) {
        const target_t *tg = &sc->tg[m];
        const uint16_t *conj = tg->tw;
        const uint16_t *tm = sc->pb->co.twist_by_move[sc->moves[m]];
        uint64_t base = tg->row * PDB_NTWIST;

        for (int k = 0; k < sc->n; k++) {
            int tw2 = conj[tm[sc->tw[k]]];
            uint64_t j = base + (uint64_t)tw2;
            int sh = (int)(j & 3) << 1;
            uint8_t byte = data[j >> 2];

            if ((byte >> sh & 3) != 3) {
                continue;
            }
            if (tg->norbit == 0) {
                /* From 3 (binary 11) to next: clear the other bits. */
                data[j >> 2] = (uint8_t)(byte ^ ((3 ^ next) << sh));
                sc->found++;
            } else {
                sc->found += claim(data, tg, j, tw2, next);
            }
        }
    }
    sc->n = 0;
}

/* Backward: every collected entry (unreached) looks for a neighbour at
 * the level's residue; those found leave the list. */
static void
flush_backward(scan_t *sc)
{
    uint8_t *data = sc->t->data;
    int next = (sc->cur + 1) % 3;
    uint64_t self_base = sc->row * PDB_NTWIST;

    row_targets(sc->t, sc->pb, sc->row, sc->moves, sc->nm, sc->tg);
    prefetch_rows(data, sc->tg, sc->nm);
    sc->self.norbit = 0;
    if (sc->t->kind != CUBE3_PDB_CORNERS) {
        orbit(sc->pb, sc->t->slice, sc->row, &sc->self);
    }
    for (int m = 0; m < sc->nm && sc->n > 0; m++) {
        const uint16_t *conj = sc->tg[m].tw;
        const uint16_t *tm = sc->pb->co.twist_by_move[sc->moves[m]];
        uint64_t base = sc->tg[m].row * PDB_NTWIST;

        for (int k = 0; k < sc->n;) {
            int tw = sc->tw[k];
            uint64_t i = self_base + (uint64_t)tw;
            uint64_t j = base + conj[tm[tw]];

            /* An image of an entry set before is no longer unreached. */
            if (sc->self.norbit > 0 &&
                (data[i >> 2] >> ((i & 3) << 1) & 3) != 3) {
                sc->tw[k] = sc->tw[--sc->n];
                continue;
            }
            if ((data[j >> 2] >> ((j & 3) << 1) & 3) == sc->cur) {
                sc->found += claim(data, &sc->self, i, tw, next);
                sc->tw[k] = sc->tw[--sc->n];
                continue;
            }
            k++;
        }
    }
    sc->n = 0;
}

/* Runs one level: collects, row by row, the entries with code (the
 * level's residue forward, 3 backward) and flushes each row. */
static uint64_t
scan_level(pdb_table_t *t,
           const pdb_base_t *pb,
           int cur,
           bool back,
           const int *moves,
           int nm)
{
    scan_t *sc = malloc(sizeof(*sc));
    uint64_t words = (t->entries + 31) / 32;
    uint64_t row_start = 0;
    int code = back ? 3 : cur;
    uint64_t found;

    if (sc == NULL) {
        return 0;
    }
    sc->t = t;
    sc->pb = pb;
    sc->moves = moves;
    sc->nm = nm;
    sc->cur = cur;
    sc->found = 0;
    sc->row = 0;
    sc->n = 0;
    for (uint64_t w = 0; w < words; w++) {
        uint64_t word;
        uint64_t bits;

        memcpy(&word, t->data + 8 * w, 8);
        bits = match(word, code);
        while (bits != 0) {
            uint64_t i = 32 * w + (uint64_t)(__builtin_ctzll(bits) >> 1);

            bits &= bits - 1;
            if (i >= t->entries) {
                break;
            }
            /* Entries come in order: step the row instead of dividing. */
            if (i >= row_start + PDB_NTWIST) {
                if (sc->n > 0) {
                    if (back) {
                        flush_backward(sc);
                    } else {
                        flush_forward(sc);
                    }
                }
                while (i >= row_start + PDB_NTWIST) {
                    row_start += PDB_NTWIST;
                    sc->row++;
                }
            }
            sc->tw[sc->n++] = (uint16_t)(i - row_start);
        }
    }
    if (sc->n > 0) {
        if (back) {
            flush_backward(sc);
        } else {
            flush_forward(sc);
        }
    }
    found = sc->found;
    free(sc);
    return found;
}

/*
 * Table memory: aligned to 2 MiB and marked for transparent huge pages
 * where the system has them. Lookups land anywhere in up to a gigabyte;
 * with 4 KiB pages nearly every one would also miss the TLB.
 */
static uint8_t *
alloc_table(size_t bytes)
{
    void *p = NULL;
    size_t align = (size_t)2 << 20;
    size_t whole = (bytes + align - 1) / align * align;

    if (posix_memalign(&p, align, whole) != 0) {
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    /* Only advice: without huge pages the table works the same. */
    (void)madvise(p, whole, MADV_HUGEPAGE);
#endif
    return p;
}

static double
now_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Symmetry classes of the slice kinds (checked when built): Kociemba
 * publishes 45 and 788 for the first two. */
uint64_t
cube3_pdb__table_rows(int kind)
{
    switch (kind) {
    case CUBE3_PDB_CORNERS:
        return PDB_NCPERM;
    case CUBE3_PDB_SLICE:
        return (uint64_t)45 * PDB_NFLIP;
    case CUBE3_PDB_SORTED:
        return (uint64_t)788 * PDB_NFLIP;
    case CUBE3_PDB_CSPLIT:
        return (uint64_t)2329 * PDB_NFLIP;
    default:
        return 0;
    }
}

/* The solved cube's 20 bytes. */
static void
solved_bytes(uint8_t *b)
{
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(3 * i);
    }
    for (int i = 0; i < 12; i++) {
        b[8 + i] = (uint8_t)(2 * i);
    }
}

/* What a saved table keeps besides its entries, after them. */
typedef struct trailer {
    uint64_t magic;
    uint64_t entries;
    uint32_t kind;
    uint32_t qtm;
    int32_t clamp;
    int32_t maxdepth;
    uint64_t counts[32];
    double build_seconds;
} trailer_t;

enum {
    TRAILER_BYTES = 4096
};

#define TRAILER_MAGIC UINT64_C(0x3362647033656275) /* "ube3pdb3" */

static uint64_t
data_bytes(uint64_t entries)
{
    /* Whole 8-byte words, so the scans may read them. */
    return (entries + 31) / 32 * 8;
}

uint64_t
cube3_pdb__blob_bytes(int kind)
{
    return data_bytes(cube3_pdb__table_rows(kind) * PDB_NTWIST) + TRAILER_BYTES;
}

int
cube3_pdb__table_attach(pdb_table_t *t,
                        int kind,
                        bool qtm,
                        const pdb_base_t *pb,
                        const pdb_slice_t *sl,
                        const uint8_t *blob)
{
    trailer_t tr;
    uint8_t solved[20];
    uint64_t entries = cube3_pdb__table_rows(kind) * PDB_NTWIST;

    memcpy(&tr, blob + data_bytes(entries), sizeof(tr));
    if (tr.magic != TRAILER_MAGIC || tr.entries != entries ||
        tr.kind != (uint32_t)kind || tr.qtm != (uint32_t)qtm ||
        tr.maxdepth < 0 || tr.maxdepth > 31) {
        return PZ_EINTERNAL;
    }
    memset(t, 0, sizeof(*t));
    t->kind = kind;
    t->qtm = qtm;
    t->slice = kind == CUBE3_PDB_CORNERS ? NULL : sl;
    t->nrows = cube3_pdb__table_rows(kind);
    t->entries = entries;
    t->bytes = (size_t)data_bytes(entries);
    /* Read-only from here on: the heuristic never writes a table. */
    t->data = (uint8_t *)(uintptr_t)blob;
    t->owned = false;
    t->loaded = true;
    t->clamp = tr.clamp;
    t->maxdepth = tr.maxdepth;
    memcpy(t->counts, tr.counts, sizeof(t->counts));
    t->build_seconds = tr.build_seconds;
    solved_bytes(solved);
    t->solved = cube3_pdb__index(t, pb, solved);
    return PZ_OK;
}

int
cube3_pdb__table_build(pdb_table_t *t,
                       int kind,
                       bool qtm,
                       const pdb_base_t *pb,
                       const pdb_slice_t *sl,
                       uint8_t *blob)
{
    int moves[PDB_MAXMOVES];
    int nm = metric_moves(qtm, moves);
    double start = now_seconds();
    uint64_t reached;
    uint8_t solved[20];
    target_t self;

    memset(t, 0, sizeof(*t));
    t->kind = kind;
    t->qtm = qtm;
    /* The sorted HTM table stops after distance 10: finding the 1.45
     * billion entries at 11 would take as long as everything before, and
     * only 0.34 % of the entries lie beyond 11. */
    t->clamp = kind == CUBE3_PDB_SORTED && !qtm   ? 11
               : kind == CUBE3_PDB_CSPLIT && !qtm ? 12
                                                  : 0;
    t->slice = kind == CUBE3_PDB_CORNERS ? NULL : sl;
    t->nrows = kind == CUBE3_PDB_CORNERS ? PDB_NCPERM
                                         : (uint64_t)sl->nclass * PDB_NFLIP;
    if (t->nrows != cube3_pdb__table_rows(kind)) {
        return PZ_EINTERNAL;
    }
    t->entries = t->nrows * PDB_NTWIST;
    t->bytes = (size_t)data_bytes(t->entries);
    t->owned = blob == NULL;
    t->data = blob != NULL ? blob : alloc_table(t->bytes);
    if (t->data == NULL) {
        return PZ_ENOMEM;
    }
    memset(t->data, 0xFF, t->bytes);
    solved_bytes(solved);
    t->solved = cube3_pdb__index(t, pb, solved);
    self.norbit = 0;
    if (kind != CUBE3_PDB_CORNERS) {
        orbit(pb, sl, t->solved / PDB_NTWIST, &self);
    }
    reached =
        claim(t->data, &self, t->solved, (int)(t->solved % PDB_NTWIST), 0);
    t->counts[0] = reached;
    for (int d = 0; reached < t->entries && d < 31; d++) {
        uint64_t scanned = 0;

        if (t->clamp != 0 && d + 1 >= t->clamp) {
            /* Every entry still unreached is clamp or farther. */
            t->counts[t->clamp] = t->entries - reached;
            t->maxdepth = t->clamp;
            reached = t->entries;
            break;
        }
        uint64_t left = t->entries - reached;
        uint64_t found;

        for (int e = d; e >= 0; e -= 3) {
            scanned += t->counts[e];
        }
        /* A backward probe usually stops after a few moves; a forward
         * scan tries them all. */
        double level_start = now_seconds();

        if (left * 4 < scanned * (uint64_t)nm) {
            found = scan_level(t, pb, d % 3, true, moves, nm);
            t->level_backward[d + 1] = true;
        } else {
            found = scan_level(t, pb, d % 3, false, moves, nm);
        }
        t->level_seconds[d + 1] = now_seconds() - level_start;
        if (found == 0) {
            break;
        }
        t->counts[d + 1] = found;
        t->maxdepth = d + 1;
        reached += found;
    }
    t->build_seconds = now_seconds() - start;
    if (reached != t->entries) {
        return PZ_EINTERNAL;
    }
    if (blob != NULL) {
        trailer_t tr;

        memset(&tr, 0, sizeof(tr));
        tr.magic = TRAILER_MAGIC;
        tr.entries = t->entries;
        tr.kind = (uint32_t)kind;
        tr.qtm = qtm;
        tr.clamp = t->clamp;
        tr.maxdepth = t->maxdepth;
        memcpy(tr.counts, t->counts, sizeof(tr.counts));
        tr.build_seconds = t->build_seconds;
        memcpy(blob + t->bytes, &tr, sizeof(tr));
    }
    return PZ_OK;
}

void
cube3_pdb__table_free(pdb_table_t *t)
{
    if (t == NULL) {
        return;
    }
    if (t->owned) {
        free(t->data);
    }
    memset(t, 0, sizeof(*t));
}

int
cube3_pdb__exact(const pdb_table_t *t, const pdb_base_t *pb, const uint8_t *b)
{
    int moves[PDB_MAXMOVES];
    int nm = metric_moves(t->qtm, moves);
    uint8_t cur[20];
    uint64_t idx = cube3_pdb__index(t, pb, b);
    int code = cube3_pdb__code(t, idx);
    int d = 0;

    memcpy(cur, b, 20);
    if (code == 3 && t->clamp != 0) {
        return t->clamp;
    }
    while (idx != t->solved) {
        int want = (code + 2) % 3;
        bool stepped = false;

        if (code == 3 || d > 40) {
            return -1;
        }
        for (int m = 0; m < nm && !stepped; m++) {
            uint8_t nb[20];
            uint64_t j;

            cube3_pdb__map(&pb->sy.moves[moves[m]], cur, nb);
            j = cube3_pdb__index(t, pb, nb);
            if (cube3_pdb__code(t, j) == want) {
                memcpy(cur, nb, 20);
                idx = j;
                code = want;
                stepped = true;
            }
        }
        if (!stepped) {
            return -1;
        }
        d++;
    }
    return d;
}

/* --- Base-offset copy ------------------------------------------------------
 */

static int
cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a;
    uint64_t y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

/* A growing list of entry indices. */
typedef struct list {
    uint64_t *v;
    size_t n;
    size_t cap;
} list_t;

static bool
list_push(list_t *l, uint64_t x)
{
    if (l->n == l->cap) {
        size_t cap = l->cap != 0 ? l->cap * 2 : 1024;
        uint64_t *v = realloc(l->v, cap * sizeof(*v));

        if (v == NULL) {
            return false;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
    return true;
}

/* Sorts l and drops repeated indices. */
static void
list_unique(list_t *l)
{
    size_t k = 0;

    qsort(l->v, l->n, sizeof(*l->v), cmp_u64);
    for (size_t i = 0; i < l->n; i++) {
        if (k == 0 || l->v[k - 1] != l->v[i]) {
            l->v[k++] = l->v[i];
        }
    }
    l->n = k;
}

/* Pushes the neighbours of entry i whose code is want (with the images
 * of their symmetric classes). false: out of memory. */
static bool
push_neighbours(const pdb_table_t *t,
                const pdb_base_t *pb,
                uint64_t i,
                int want,
                const int *moves,
                int nm,
                list_t *out)
{
    target_t tg[PDB_MAXMOVES];
    uint64_t row = i / PDB_NTWIST;
    int tw = (int)(i % PDB_NTWIST);

    row_targets(t, pb, row, moves, nm, tg);
    for (int m = 0; m < nm; m++) {
        int tw2 = tg[m].tw[pb->co.twist_by_move[moves[m]][tw]];
        uint64_t j = tg[m].row * PDB_NTWIST + (uint64_t)tw2;

        if (cube3_pdb__code(t, j) != want) {
            continue;
        }
        if (!list_push(out, j)) {
            return false;
        }
        for (int o = 0; o < tg[m].norbit; o++) {
            if (!list_push(out,
                           tg[m].orow[o] * PDB_NTWIST + tg[m].otw[o][tw2])) {
                return false;
            }
        }
    }
    return true;
}

int
cube3_pdb__table_offset(const pdb_table_t *t,
                        const pdb_base_t *pb,
                        uint8_t *out)
{
    int base = t->clamp - 3;
    int moves[PDB_MAXMOVES];
    int nm = metric_moves(t->qtm, moves);
    uint8_t lut[256];
    int code_of[4];
    list_t cur = { NULL, 0, 0 };
    list_t next = { NULL, 0, 0 };
    int rc = PZ_OK;

    if (t->clamp < 4 || t->kind == CUBE3_PDB_CORNERS) {
        return PZ_EINVAL;
    }
    /* Residues of base, base + 1 and base + 2, and unreached (clamp or
     * more): first as if nothing were below base. */
    code_of[base % 3] = 0;
    code_of[(base + 1) % 3] = 1;
    code_of[(base + 2) % 3] = 2;
    code_of[3] = 3;
    for (int v = 0; v < 256; v++) {
        int r = 0;

        for (int k = 0; k < 4; k++) {
            r |= code_of[v >> (2 * k) & 3] << (2 * k);
        }
        lut[v] = (uint8_t)r;
    }
    for (size_t b = 0; b < t->bytes; b++) {
        out[b] = lut[t->data[b]];
    }
    /* Entries nearer than base with another residue than base's: walk
     * the levels from the solved pattern. A neighbour of level d whose
     * residue is that of d + 1 is at d + 1 exactly (d - 1 and d have
     * other residues). */
    if (!list_push(&cur, t->solved)) {
        return PZ_ENOMEM;
    }
    for (int d = 0; d + 1 < base && rc == PZ_OK; d++) {
        int want = (d + 1) % 3;

        next.n = 0;
        for (size_t k = 0; k < cur.n && rc == PZ_OK; k++) {
            if (!push_neighbours(t, pb, cur.v[k], want, moves, nm, &next)) {
                rc = PZ_ENOMEM;
            }
        }
        list_unique(&next);
        if (want != base % 3) {
            for (size_t k = 0; k < next.n; k++) {
                uint64_t j = next.v[k];
                int sh = (int)(j & 3) << 1;

                out[j >> 2] = (uint8_t)(out[j >> 2] & ~(3 << sh));
            }
        }
        list_t tmp = cur;

        cur = next;
        next = tmp;
    }
    free(cur.v);
    free(next.v);
    return rc;
}
