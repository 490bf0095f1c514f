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
 * The search is the breadth-first builder of tables/bfs.h, whose shape
 * this is: a move takes every entry of a row into one target row, the
 * twist through a map (the twist moved, then conjugated by the symmetry
 * that takes the target's slice coordinate to its class representative),
 * so the rows are shared out to the build's threads and a row's targets
 * stay in cache while it is worked through.
 *
 * Symmetry reduction: a slice class whose representative some symmetries
 * fix holds several entries for one pattern (the fixed symmetries' images
 * of the flip and twist, in other rows of the class). These are the
 * builder's twins: whenever an entry is set, its images are set to the
 * same value, so every entry of a pattern is correct no matter which
 * symmetry a lookup uses to reach the representative.
 */
/* madvise(MADV_HUGEPAGE) is a Linux extension. */
#define _DEFAULT_SOURCE 1

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "pdb_internal.h"
#include "tables/bfs.h"

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

/* What the breadth-first builder and the offset walk need of a table:
 * its moves. */
typedef struct rows {
    const pdb_table_t *t;
    const pdb_coord_t *co;
    int moves[PDB_MAXMOVES]; /* HTM ids of the metric's moves */
    int nm;
} rows_t;

static void
rows_init(rows_t *rs, const pdb_table_t *t, const pdb_base_t *pb)
{
    rs->t = t;
    rs->co = &pb->co;
    rs->nm = metric_moves(t->qtm, rs->moves);
}

/* What the moves of a slice row take from its class alone, kept in the
 * builder's scratch (zeroed at first): the rows come class by class. */
typedef struct class_moves {
    uint64_t key;                /* class + 1; 0: nothing yet */
    uint64_t base[PDB_MAXMOVES]; /* target class * PDB_NFLIP */
    uint16_t mask[PDB_MAXMOVES]; /* flip mask of the target's comb */
    uint8_t k[PDB_MAXMOVES];     /* symmetry to the target's rep */
} class_moves_t;

/* Fills cm for class c. */
static void
class_moves(const rows_t *rs, uint64_t c, class_moves_t *cm)
{
    const pdb_slice_t *sl = rs->t->slice;
    uint32_t raw = sl->rep[c];

    cm->key = c + 1;
    for (int i = 0; i < rs->nm; i++) {
        uint32_t raw2 = sl->move[raw][rs->moves[i]];
        int k = sl->sym[raw2];

        cm->base[i] = (uint64_t)sl->cls[raw2] * PDB_NFLIP;
        cm->mask[i] = rs->co->flip_mask[k][raw2 / (uint32_t)sl->div];
        cm->k[i] = (uint8_t)k;
    }
}

/* Where each move takes row (the builder's moves callback): the twist
 * moved, then conjugated by the symmetry that takes the target's slice
 * coordinate to its representative (two 4 KB maps of 150 KB in all,
 * which stay in cache, where their 288 products would not). scratch:
 * a class_moves_t, or NULL. */
static void
row_moves(void *arg, uint64_t row, tables_bfs_edge_t *out, void *scratch)
{
    const rows_t *rs = arg;
    const pdb_coord_t *co = rs->co;
    class_moves_t local;
    class_moves_t *cm = scratch != NULL ? scratch : &local;
    uint64_t c = row / PDB_NFLIP;
    int f = (int)(row % PDB_NFLIP);

    if (rs->t->sep != NULL) {
        cube3_pdb__sep_row_moves(rs->t->sep, rs->co, rs->moves, rs->nm, row,
                                 out, scratch);
        return;
    }
    if (rs->t->kind == CUBE3_PDB_CORNERS) {
        for (int i = 0; i < rs->nm; i++) {
            out[i].row = co->cperm_move[row][rs->moves[i]];
            out[i].map = co->twist_by_move[rs->moves[i]];
            out[i].then = NULL;
        }
        return;
    }
    if (scratch == NULL || cm->key != c + 1) {
        class_moves(rs, c, cm);
    }
    for (int i = 0; i < rs->nm; i++) {
        int m = rs->moves[i];
        int k = cm->k[i];
        int f3 = co->flip_perm[k][co->flip_move[f][m]] ^ cm->mask[i];

        out[i].row = cm->base[i] + (uint64_t)f3;
        out[i].map = co->twist_by_move[m];
        out[i].then = k != 0 ? co->twist_conj[k] : NULL;
    }
}

/* The images of the entries of row under the symmetries (other than the
 * identity) that fix its class's representative (the builder's twins
 * callback). */
static int
row_twins(void *arg, uint64_t row, tables_bfs_edge_t *out, void *scratch)
{
    const rows_t *rs = arg;
    const pdb_coord_t *co = rs->co;
    const pdb_slice_t *sl = rs->t->slice;
    uint64_t c = row / PDB_NFLIP;
    int f = (int)(row % PDB_NFLIP);
    unsigned stab;
    int comb;
    int n = 0;

    (void)scratch;
    if (rs->t->sep != NULL) {
        return cube3_pdb__sep_row_twins(rs->t->sep, row, out);
    }
    if (sl == NULL) {
        return 0;
    }
    stab = sl->stab[c] & ~1u;
    comb = (int)sl->rep[c] / sl->div;
    while (stab != 0) {
        int k = __builtin_ctz(stab);

        stab &= stab - 1;
        out[n].row = c * PDB_NFLIP +
                     (uint64_t)(co->flip_perm[k][f] ^ co->flip_mask[k][comb]);
        out[n].map = co->twist_conj[k];
        out[n].then = NULL;
        n++;
    }
    return n;
}

uint64_t
cube3_pdb__index(const pdb_table_t *t, const pdb_base_t *pb, const uint8_t *b)
{
    const pdb_coord_t *co = &pb->co;

    if (t->kind == CUBE3_PDB_CORNERS) {
        return (uint64_t)cube3_pdb__cperm(b) * PDB_NTWIST +
               (uint64_t)cube3_pdb__twist(b);
    }
    if (t->sep != NULL) {
        return cube3_pdb__sep_index(t->sep, co, b);
    }
    return cube3_pdb__slice_index(t, pb, cube3_pdb__raw(co, t->slice->kind, b),
                                  cube3_pdb__flip(b), cube3_pdb__twist(b));
}

/*
 * Table memory: aligned to 2 MiB and marked for transparent huge pages
 * where the system has them. Lookups land anywhere in up to a gigabyte;
 * with 4 KiB pages nearly every one would also miss the TLB.
 */
size_t
cube3_pdb__huge_size(size_t bytes)
{
    size_t align = (size_t)2 << 20;

    return (bytes + align - 1) / align * align;
}

void *
cube3_pdb__alloc_huge(size_t bytes)
{
    void *p = NULL;
    size_t whole = cube3_pdb__huge_size(bytes);

    if (posix_memalign(&p, (size_t)2 << 20, whole) != 0) {
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
    case CUBE3_PDB_SEP:
        return (uint64_t)PDB_SEP_CLASSES << 8;
    case CUBE3_PDB_SEP0:
        return PDB_SEP_CLASSES;
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
                        const pdb_table_src_t *src,
                        const uint8_t *blob)
{
    int kind = src->kind;
    bool qtm = src->qtm;
    const pdb_base_t *pb = src->pb;
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
    t->slice = src->sl;
    t->sep = src->sep;
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

/* Runs the breadth-first search of t (described, data allocated) on b. */
static int
search(pdb_table_t *t, const pdb_base_t *pb, tables_build_t *b)
{
    tables_bfs_spec_t sp;
    tables_bfs_result_t *res = malloc(sizeof(*res));
    rows_t rs;
    int rc;

    if (res == NULL) {
        return PZ_ENOMEM;
    }
    rows_init(&rs, t, pb);
    memset(&sp, 0, sizeof(sp));
    sp.nrows = t->nrows;
    sp.rowlen = PDB_NTWIST;
    sp.nmoves = rs.nm;
    sp.moves = row_moves;
    sp.moves_scratch = sizeof(class_moves_t) > cube3_pdb__sep_scratch_bytes()
                           ? sizeof(class_moves_t)
                           : cube3_pdb__sep_scratch_bytes();
    sp.twins = t->slice != NULL || t->sep != NULL ? row_twins : NULL;
    sp.max_twins = t->sep != NULL ? PDB_NSYM - 1 : PDB_NUDSYM - 1;
    sp.arg = &rs;
    sp.code = TABLES_BFS_MOD3;
    sp.data = t->data;
    sp.goals = &t->solved;
    sp.ngoals = 1;
    sp.clamp = t->clamp;
    rc = tables_bfs_run(&sp, b, res);
    if (rc == PZ_OK && res->reached != t->entries) {
        rc = PZ_EINTERNAL; /* every pattern is reachable */
    }
    if (rc == PZ_OK && res->max_depth > 31) {
        rc = PZ_EINTERNAL;
    }
    if (rc == PZ_OK) {
        t->maxdepth = res->max_depth;
        memcpy(t->counts, res->counts, sizeof(t->counts));
    }
    free(res);
    return rc;
}

int
cube3_pdb__table_build(pdb_table_t *t,
                       const pdb_table_src_t *src,
                       uint8_t *blob,
                       tables_build_t *b)
{
    int kind = src->kind;
    double start = now_seconds();
    uint8_t solved[20];
    uint64_t used;
    int rc;

    memset(t, 0, sizeof(*t));
    t->kind = kind;
    t->qtm = src->qtm;
    /* The sorted HTM table stops after distance 10: finding the 1.45
     * billion entries at 11 would take as long as everything before, and
     * only 0.34 % of the entries lie beyond 11. */
    t->clamp = kind == CUBE3_PDB_SORTED && !src->qtm   ? 11
               : kind == CUBE3_PDB_CSPLIT && !src->qtm ? 12
               : kind == CUBE3_PDB_SEP                 ? PDB_SEP_CLAMP
                                                       : 0;
    t->slice = src->sl;
    t->sep = src->sep;
    t->nrows = kind == CUBE3_PDB_CORNERS ? PDB_NCPERM
               : src->sep != NULL
                   ? (uint64_t)src->sep->nclass << src->sep->obits
                   : (uint64_t)src->sl->nclass * PDB_NFLIP;
    if (t->nrows != cube3_pdb__table_rows(kind)) {
        return PZ_EINTERNAL;
    }
    t->entries = t->nrows * PDB_NTWIST;
    t->bytes = (size_t)data_bytes(t->entries);
    t->owned = blob == NULL;
    t->data = blob != NULL ? blob : cube3_pdb__alloc_huge(t->bytes);
    if (t->data == NULL) {
        return PZ_ENOMEM;
    }
    /* The builder sets its bytes; the rest of the last word is padding,
     * unreached entries as well. */
    used = tables_bfs_bytes(TABLES_BFS_MOD3, t->entries);
    memset(t->data + used, 0xFF, t->bytes - (size_t)used);
    solved_bytes(solved);
    t->solved = cube3_pdb__index(t, src->pb, solved);
    rc = search(t, src->pb, b);
    t->build_seconds = now_seconds() - start;
    if (rc != PZ_OK) {
        return rc;
    }
    if (blob != NULL) {
        trailer_t tr;

        memset(&tr, 0, sizeof(tr));
        tr.magic = TRAILER_MAGIC;
        tr.entries = t->entries;
        tr.kind = (uint32_t)kind;
        tr.qtm = t->qtm;
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

/* Where push_neighbours puts the entries it finds: in a list, or, with
 * list NULL, straight into a 2-bit table, as code 0. */
typedef struct sink {
    list_t *list;
    uint8_t *zero;
} sink_t;

/* Puts entry j into out. false: out of memory. */
static bool
sink_put(sink_t *out, uint64_t j)
{
    if (out->list != NULL) {
        return list_push(out->list, j);
    }
    out->zero[j >> 2] &= (uint8_t) ~(3u << ((j & 3) << 1));
    return true;
}

/* Puts the neighbours of entry i whose code is want (with their twins)
 * into out. false: out of memory. */
static bool
push_neighbours(const rows_t *rs, uint64_t i, int want, sink_t *out)
{
    tables_bfs_edge_t edge[PDB_MAXMOVES];
    tables_bfs_edge_t twin[PDB_NSYM];
    int tw = (int)(i % PDB_NTWIST);

    row_moves((void *)(uintptr_t)rs, i / PDB_NTWIST, edge, NULL);
    for (int m = 0; m < rs->nm; m++) {
        const uint16_t *then = edge[m].then;
        int tw2 = ((const uint16_t *)edge[m].map)[tw];
        uint64_t j;
        int n;

        tw2 = then != NULL ? then[tw2] : tw2;
        j = edge[m].row * PDB_NTWIST + (uint64_t)tw2;
        if (cube3_pdb__code(rs->t, j) != want) {
            continue;
        }
        if (!sink_put(out, j)) {
            return false;
        }
        n = row_twins((void *)(uintptr_t)rs, edge[m].row, twin, NULL);
        for (int o = 0; o < n; o++) {
            const uint16_t *map = twin[o].map;

            if (!sink_put(out, twin[o].row * PDB_NTWIST + map[tw2])) {
                return false;
            }
        }
    }
    return true;
}

/* The offset copy's first pass: bytes of the table through a table of
 * codes, a block of bytes per row. */
typedef struct recode {
    const uint8_t *in;
    uint8_t *out;
    size_t bytes;
    uint8_t lut[256];
} recode_t;

#define RECODE_BLOCK ((size_t)1 << 20)

static void
recode_rows(void *arg, int worker, uint64_t first, uint64_t end)
{
    const recode_t *rc = arg;
    size_t lo = (size_t)first * RECODE_BLOCK;
    size_t hi = (size_t)end * RECODE_BLOCK;

    (void)worker;
    if (hi > rc->bytes) {
        hi = rc->bytes;
    }
    for (size_t i = lo; i < hi; i++) {
        rc->out[i] = rc->lut[rc->in[i]];
    }
}

int
cube3_pdb__table_offset(const pdb_table_t *t,
                        const pdb_base_t *pb,
                        uint8_t *out,
                        tables_build_t *b)
{
    int base = cube3_pdb__offset_base(t);
    int top; /* the farthest level the walk below sets */
    recode_t re;
    tables_bfs_pass_t pass;
    int code_of[4];
    rows_t rs;
    list_t cur = { NULL, 0, 0 };
    list_t next = { NULL, 0, 0 };
    int rc;

    if (base < 1 || base + 3 > t->clamp || t->kind == CUBE3_PDB_CORNERS) {
        return PZ_EINVAL;
    }
    /* Residues of base, base + 1 and base + 2, and unreached (clamp or
     * more): first as if nothing were below base. When base + 3 is
     * reached, its residue is base's and reads 3; base's own level is
     * then left to the walk. */
    code_of[base % 3] = base + 3 < t->clamp ? 3 : 0;
    code_of[(base + 1) % 3] = 1;
    code_of[(base + 2) % 3] = 2;
    code_of[3] = 3;
    for (int v = 0; v < 256; v++) {
        int r = 0;

        for (int k = 0; k < 4; k++) {
            r |= code_of[v >> (2 * k) & 3] << (2 * k);
        }
        re.lut[v] = (uint8_t)r;
    }
    re.in = t->data;
    re.out = out;
    re.bytes = t->bytes;
    memset(&pass, 0, sizeof(pass));
    pass.nrows = (t->bytes + RECODE_BLOCK - 1) / RECODE_BLOCK;
    pass.chunk = 1;
    pass.fn = recode_rows;
    pass.arg = &re;
    pass.progress_unit = RECODE_BLOCK;
    pass.progress_total = t->bytes;
    rc = tables_bfs_rows(&pass, b);
    if (rc != PZ_OK) {
        return rc;
    }
    rows_init(&rs, t, pb);
    /* Entries up to base whose residue does not read 0: walk the levels
     * from the solved pattern. A neighbour of level d whose residue is
     * that of d + 1 is at d + 1 exactly (d - 1 and d have other
     * residues). */
    top = code_of[base % 3] != 0 ? base : base - 1;
    if (!list_push(&cur, t->solved)) {
        rc = PZ_ENOMEM;
    }
    /* The solved pattern itself (with its twins) when its residue does
     * not already read 0. */
    if (rc == PZ_OK && code_of[0] != 0) {
        tables_bfs_edge_t twin[PDB_NSYM];
        sink_t sink = { NULL, out };
        int tw = (int)(t->solved % PDB_NTWIST);
        int n = row_twins(&rs, t->solved / PDB_NTWIST, twin, NULL);

        sink_put(&sink, t->solved);
        for (int o = 0; o < n; o++) {
            const uint16_t *map = twin[o].map;

            sink_put(&sink, twin[o].row * PDB_NTWIST + map[tw]);
        }
    }
    for (int d = 0; d < top && rc == PZ_OK; d++) {
        int want = (d + 1) % 3;
        bool last = d + 1 == top;
        sink_t sink = { last ? NULL : &next, out };

        if (b != NULL && tables_build_cancelled(b)) {
            rc = PZ_ECANCELLED;
            break;
        }
        /* The last level's entries go straight into out: only the levels
         * still to expand need a list without repeats (the last, the
         * biggest by far, would take most of the sorting). */
        next.n = 0;
        for (size_t k = 0; k < cur.n && rc == PZ_OK; k++) {
            if (!push_neighbours(&rs, cur.v[k], want, &sink)) {
                rc = PZ_ENOMEM;
            }
        }
        if (last) {
            break;
        }
        list_unique(&next);
        if (code_of[want] != 0) {
            sink.list = NULL;
            for (size_t k = 0; k < next.n; k++) {
                sink_put(&sink, next.v[k]);
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
