/* SPDX-License-Identifier: MIT */
/* pdb.c - the "pdb" heuristics of the 3x3x3: shared tables, lookups, cache.
 * Size: one heuristic: the lane search reuses its static lookup stages. */

/*
 * Design: h is the maximum of four pattern distances, each a lower bound
 * of the cube's distance: the corners, and a slice pattern (E-slice
 * edges' places, with their order for "pdb" or the U-layer corners'
 * places for "pdb-large", every flip, every twist) seen along the U-D,
 * R-L and F-B axes (the cube conjugated by a rotation that takes that
 * axis to U-D). For a goal other than solved the state is first
 * relabelled by the goal's inverse (g^-1 * s is solved exactly when s is
 * the goal, and moves act on the right, so distances are kept).
 *
 * The tables store distances mod 3 (pdb_table.c). Each of the four
 * patterns changes its distance by at most one per move, so a child's
 * exact values follow from its parent's and the residues. The parent's
 * values come from a small thread-local shadow of the search path: IDA*
 * always asks for the children of the node it last descended into, which
 * is either the last child this thread evaluated or a node on its path.
 * Anything else (a new search, a task handed to another thread, an A*
 * open list) recomputes the parent's values by walking down each table,
 * a few hundred probes. The shadow is keyed by the heuristic instance, so
 * two searches never share it. Path nodes also keep their raw
 * coordinates, so a child's come from small move tables (a move seen
 * along another axis is the conjugated move), never from its 20 bytes.
 * A node's children are decoded together in stages, one lookup per
 * stage (children()), so the engine's one-at-a-time requests do not each
 * wait for their own cache misses; with the engine's limit
 * (update_limit), a child already over it skips the remaining stages,
 * and is marked incomplete so it is never used as a parent. Only values
 * matter for correctness: the shadow is matched by the full state, and
 * anything not found is recomputed.
 *
 * Inverse lookups (h(s^-1), the inverse having the same distance), in
 * "pdb-large" only: the corners' would repeat the position's own (the
 * corners form a group), but the slice patterns of the inverse are new
 * information. A move multiplies the inverse on the left, which can
 * change its pattern distance by more than one, so residues mod 3 cannot
 * be decoded along the path: these lookups read a base-offset copy of
 * the table (codes 1..3 are distances base + code, 0 says nothing), and
 * only for children the other lookups do not cut. They make h
 * admissible but not consistent, which IDA* does not need.
 *
 * QTM: a quarter turn is an odd permutation of the corners, so every
 * solution's length has the parity of the corner permutation, which is
 * also the parity of the exact corner-pattern distance. An estimate of
 * the other parity is raised by one; then every f = g + h of a search has
 * the start's parity and IDA*'s bound advances by two.
 *
 * Tables are process-wide, built on first use under a lock and immutable
 * afterwards, never charged to a job's budget (cube3_pdb_memory_bytes
 * reports them).
 */
#include "pdb.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cube3.h"
#include "engines/idastar.h"
#include "pdb_internal.h"
#include "search.h"
#include "tables.h"

enum {
    NLOOK = 4,       /* corners, slice on three axes */
    SHADOW_MAX = 64, /* path nodes kept per thread */
    ALL_LOOKUPS = (1 << NLOOK) - 1,
};

/* --- Helper tables ------------------------------------------------------- */

/* The symmetry and coordinate tables, and each slice kind's reduction:
 * small (milliseconds, a few MB), made once per process on first use and
 * read-only afterwards. The tables proper are the tables module's. */
static pthread_once_t g_base_once = PTHREAD_ONCE_INIT;
static pdb_base_t *g_base;
static int g_base_rc;
static pthread_once_t g_slice_once[CUBE3_PDB_NKINDS] = {
    PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
    PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT,
};
static pdb_slice_t g_slice[CUBE3_PDB_NKINDS]; /* by kind */
static int g_slice_rc[CUBE3_PDB_NKINDS];
static pdb_sep_t g_sep[2];    /* CUBE3_PDB_SEP, CUBE3_PDB_SEP0 */
static atomic_size_t g_bytes; /* of the above */
static atomic_uint_fast64_t g_next_id;

static void
make_base(void)
{
    pdb_base_t *pb = malloc(sizeof(*pb));

    g_base_rc = PZ_ENOMEM;
    if (pb == NULL) {
        return;
    }
    g_base_rc = cube3_pdb__sym_init(&pb->sy);
    if (g_base_rc == PZ_OK) {
        g_base_rc = cube3_pdb__coord_init(&pb->co, &pb->sy);
    }
    if (g_base_rc != PZ_OK) {
        free(pb);
        return;
    }
    g_base = pb;
    atomic_fetch_add(&g_bytes, sizeof(*pb));
}

static void
make_slice(int kind)
{
    g_slice_rc[kind] =
        cube3_pdb__slice_init(&g_slice[kind], &g_base->co, &g_base->sy, kind);
    if (g_slice_rc[kind] == PZ_OK) {
        atomic_fetch_add(&g_bytes, (size_t)g_slice[kind].nraw *
                                       (sizeof(*g_slice[kind].move) + 9));
    }
}

/* The separation kinds' reduction (with and without flips). */
static void
make_sep(int kind)
{
    int i = kind - CUBE3_PDB_SEP;
    pdb_sep_t *sp = &g_sep[i];

    g_slice_rc[kind] = cube3_pdb__sep_init(sp, &g_base->co, &g_base->sy,
                                           kind == CUBE3_PDB_SEP ? 8 : 0);
    if (g_slice_rc[kind] == PZ_OK && sp->nclass != PDB_SEP_CLASSES) {
        cube3_pdb__sep_free(sp);
        g_slice_rc[kind] = PZ_EINTERNAL;
    }
    if (g_slice_rc[kind] == PZ_OK) {
        atomic_fetch_add(
            &g_bytes,
            cube3_pdb__huge_size((size_t)PDB_NSEPRAW * sizeof(*sp->cs)) +
                (size_t)sp->nclass * (sizeof(*sp->rep) + sizeof(*sp->stab)) +
                (size_t)PDB_NESEP * (sizeof(*sp->emove) + sizeof(*sp->econj) +
                                     sizeof(*sp->omove) + sizeof(*sp->oconj)) +
                PDB_NSYM * sizeof(*sp->twconj));
    }
}

static void
make_sep_sep(void)
{
    make_sep(CUBE3_PDB_SEP);
}

static void
make_sep_sep0(void)
{
    make_sep(CUBE3_PDB_SEP0);
}

static void
make_slice_slice(void)
{
    make_slice(CUBE3_PDB_SLICE);
}

static void
make_slice_sorted(void)
{
    make_slice(CUBE3_PDB_SORTED);
}

static void
make_slice_csplit(void)
{
    make_slice(CUBE3_PDB_CSPLIT);
}

/* Makes the helper tables table kind needs. */
static int
ensure_base(int kind)
{
    static void (*const slice_fn[CUBE3_PDB_NKINDS])(void) = {
        NULL,         make_slice_slice, make_slice_sorted, make_slice_csplit,
        make_sep_sep, make_sep_sep0,
    };

    pthread_once(&g_base_once, make_base);
    if (g_base_rc != PZ_OK || kind == CUBE3_PDB_CORNERS) {
        return g_base_rc;
    }
    pthread_once(&g_slice_once[kind], slice_fn[kind]);
    return g_slice_rc[kind];
}

/* --- Table files ---------------------------------------------------------- */

static int get_table(int kind, bool qtm, pdb_table_t *out);
static void fill_offset_def(int kind, tables_blob_def_t *def);

typedef struct blob_arg {
    int kind;
    bool qtm;
} blob_arg_t;

static const blob_arg_t g_args[CUBE3_PDB_NKINDS][2] = {
    { { CUBE3_PDB_CORNERS, false }, { CUBE3_PDB_CORNERS, true } },
    { { CUBE3_PDB_SLICE, false }, { CUBE3_PDB_SLICE, true } },
    { { CUBE3_PDB_SORTED, false }, { CUBE3_PDB_SORTED, true } },
    { { CUBE3_PDB_CSPLIT, false }, { CUBE3_PDB_CSPLIT, true } },
    { { CUBE3_PDB_SEP, false }, { CUBE3_PDB_SEP, true } },
    { { CUBE3_PDB_SEP0, false }, { CUBE3_PDB_SEP0, true } },
};

static const char *const g_names[CUBE3_PDB_NKINDS][2] = {
    { "3x3x3-pdb-corners-htm", "3x3x3-pdb-corners-qtm" },
    { "3x3x3-pdb-slice-htm", "3x3x3-pdb-slice-qtm" },
    { "3x3x3-pdb-sorted-htm", "3x3x3-pdb-sorted-qtm" },
    { "3x3x3-pdb-csplit-htm", "3x3x3-pdb-csplit-qtm" },
    { "3x3x3-pdb-sep-htm", "3x3x3-pdb-sep-qtm" },
    { "3x3x3-pdb-sep0-htm", "3x3x3-pdb-sep0-qtm" },
};

/* The tables with a base-offset copy: csplit (pdb-large's inverse
 * lookups) and separation (pdb-huge's every lookup of it). */
typedef struct offset_arg {
    int kind;
    const char *name;
} offset_arg_t;

static const offset_arg_t g_offsets[2] = {
    { CUBE3_PDB_CSPLIT, "3x3x3-pdb-csplit-htm-offset" },
    { CUBE3_PDB_SEP, "3x3x3-pdb-sep-htm-offset" },
};

/* What table kind/qtm is built from (ensure_base(kind) done). */
static void
table_src(int kind, bool qtm, pdb_table_src_t *src)
{
    src->kind = kind;
    src->qtm = qtm;
    src->pb = g_base;
    src->sl = NULL;
    src->sep = NULL;
    if (kind == CUBE3_PDB_SEP || kind == CUBE3_PDB_SEP0) {
        src->sep = &g_sep[kind - CUBE3_PDB_SEP];
    } else if (kind != CUBE3_PDB_CORNERS) {
        src->sl = &g_slice[kind];
    }
}

/* Fills the table file's bytes (the tables module's build callback), on
 * the build's threads. */
static int
blob_build(void *arg, uint8_t *data, uint64_t bytes, tables_build_t *b)
{
    const blob_arg_t *a = arg;
    pdb_table_src_t src;
    pdb_table_t t;
    int rc;

    if (bytes != cube3_pdb__blob_bytes(a->kind)) {
        return PZ_EINVAL;
    }
    rc = ensure_base(a->kind);
    if (rc != PZ_OK) {
        return rc;
    }
    table_src(a->kind, a->qtm, &src);
    return cube3_pdb__table_build(&t, &src, data, b);
}

static void
fill_def(int kind, bool qtm, tables_blob_def_t *def)
{
    memset(def, 0, sizeof(*def));
    def->name = g_names[kind][qtm];
    def->group = kind == CUBE3_PDB_SEP ? "3x3x3-huge" : "3x3x3";
    def->puzzle = qtm ? "3x3x3 qtm" : "3x3x3 htm";
    def->bytes = cube3_pdb__blob_bytes(kind);
    def->version = 1;
    def->startup = false;
    def->huge = true;
    def->build = blob_build;
    /* The tables module only passes arg back to blob_build. */
    def->arg = (void *)(uintptr_t)&g_args[kind][qtm];
}

int
cube3_pdb_table_defs(tables_blob_def_t *out, int max)
{
    /* The tables 'puzzled tables build 3x3x3' and '... 3x3x3-huge' make:
     * every one the heuristics read (the QTM csplit table is never read,
     * see slice_table_of), the separation table and its copy in a group
     * of their own (14.3 GB of files; building them holds both). */
    static const blob_arg_t listed[] = {
        { CUBE3_PDB_CORNERS, false }, { CUBE3_PDB_SLICE, false },
        { CUBE3_PDB_SORTED, false },  { CUBE3_PDB_CSPLIT, false },
        { CUBE3_PDB_CORNERS, true },  { CUBE3_PDB_SLICE, true },
        { CUBE3_PDB_SORTED, true },   { CUBE3_PDB_SEP, false },
    };
    int n = (int)(sizeof(listed) / sizeof(listed[0]));

    for (int i = 0; i < n && i < max; i++) {
        fill_def(listed[i].kind, listed[i].qtm, &out[i]);
    }
    for (int i = 0; i < 2 && n + i < max; i++) {
        fill_offset_def(g_offsets[i].kind, &out[n + i]);
    }
    return n + 2;
}

/* Table kind/qtm from the tables module (loaded or built there, or
 * PZ_ETABLE_MISSING on a daemon's solver thread before it is ready),
 * described in *out. */
static int
get_table(int kind, bool qtm, pdb_table_t *out)
{
    pdb_table_src_t src;
    tables_blob_def_t def;
    const uint8_t *data = NULL;
    int rc;

    if (kind < 0 || kind >= CUBE3_PDB_NKINDS) {
        return PZ_EINVAL;
    }
    rc = ensure_base(kind);
    if (rc != PZ_OK) {
        return rc;
    }
    fill_def(kind, qtm, &def);
    rc = tables_blob_get(&def, &data, NULL);
    if (rc != PZ_OK) {
        return rc;
    }
    table_src(kind, qtm, &src);
    return cube3_pdb__table_attach(out, &src, data);
}

/* --- Base-offset copies (lookups with no path to decode along) ---------- */

/* Fills the offset table file's bytes from its table (from the tables
 * module: loaded or built first when needed). The separation copy also
 * gets its table's trailer, so it is read without its table. */
static int
offset_build(void *arg, uint8_t *data, uint64_t bytes, tables_build_t *b)
{
    const offset_arg_t *a = arg;
    pdb_table_t t;
    int rc;

    if (bytes != cube3_pdb__blob_bytes(a->kind)) {
        return PZ_EINVAL;
    }
    rc = get_table(a->kind, false, &t);
    if (rc != PZ_OK) {
        return rc;
    }
    rc = cube3_pdb__table_offset(&t, g_base, data, b);
    if (rc == PZ_OK && a->kind == CUBE3_PDB_SEP) {
        memcpy(data + t.bytes, t.data + t.bytes, (size_t)bytes - t.bytes);
    }
    return rc;
}

static void
fill_offset_def(int kind, tables_blob_def_t *def)
{
    const offset_arg_t *a = &g_offsets[kind == CUBE3_PDB_SEP];

    memset(def, 0, sizeof(*def));
    def->name = a->name;
    def->group = kind == CUBE3_PDB_SEP ? "3x3x3-huge" : "3x3x3";
    def->puzzle = "3x3x3 htm";
    def->bytes = cube3_pdb__blob_bytes(kind);
    /* The layout of the codes: the separation copy's are of base 9
     * (cube3_pdb__offset_base), layout version 2. */
    def->version = kind == CUBE3_PDB_SEP ? 2 : 1;
    def->huge = true;
    def->build = offset_build;
    def->arg = (void *)(uintptr_t)a;
}

/* The offset copy of the HTM table kind (csplit or separation),
 * described in *out. The csplit copy takes its description from the
 * csplit table (which pdb-large reads too); the separation copy carries
 * its own, and its table is not loaded. */
static int
get_offset(int kind, pdb_table_t *out)
{
    tables_blob_def_t def;
    const uint8_t *data = NULL;
    int rc;

    if (kind == CUBE3_PDB_SEP) {
        pdb_table_src_t src;

        rc = ensure_base(kind);
        if (rc != PZ_OK) {
            return rc;
        }
        fill_offset_def(kind, &def);
        rc = tables_blob_get(&def, &data, NULL);
        if (rc != PZ_OK) {
            return rc;
        }
        table_src(kind, false, &src);
        return cube3_pdb__table_attach(out, &src, data);
    }
    rc = get_table(CUBE3_PDB_CSPLIT, false, out);
    if (rc != PZ_OK) {
        return rc;
    }
    fill_offset_def(kind, &def);
    rc = tables_blob_get(&def, &data, NULL);
    if (rc == PZ_OK) {
        out->data = (uint8_t *)(uintptr_t)data; /* read-only */
    }
    return rc;
}

/* Describes t in *out (may be NULL). */
static void
fill_info(const pdb_table_t *t, cube3_pdb_info_t *out)
{
    if (out == NULL) {
        return;
    }
    memset(out, 0, sizeof(*out));
    out->entries = t->entries;
    out->bytes = t->bytes;
    out->max_depth = t->maxdepth;
    out->clamp = t->clamp;
    memcpy(out->counts, t->counts, sizeof(out->counts));
    out->build_seconds = t->build_seconds;
    out->loaded = t->loaded;
}

int
cube3_pdb_table(int kind, bool qtm, cube3_pdb_info_t *out)
{
    pdb_table_t t;
    int rc = get_table(kind, qtm, &t);

    if (rc == PZ_OK) {
        fill_info(&t, out);
    }
    return rc;
}

int
cube3_pdb_distance(int kind, bool qtm, const pz_state_t *s)
{
    pdb_table_t t;
    int rc = get_table(kind, qtm, &t);
    int d;

    if (rc != PZ_OK) {
        return rc;
    }
    d = cube3_pdb__exact(&t, g_base, s->b);
    return d < 0 ? PZ_EINTERNAL : d;
}

int
cube3_pdb_offset_bound(int kind, const pz_state_t *s)
{
    pdb_table_t t;
    int rc = get_offset(kind, &t);
    int code;

    if (rc != PZ_OK) {
        return rc;
    }
    code = cube3_pdb__code(&t, cube3_pdb__index(&t, g_base, s->b));
    return code == 0 ? 0 : cube3_pdb__offset_base(&t) + code;
}

bool
cube3_pdb_optimal_suits(const pz_puzzle_t *p,
                        const char *heuristic,
                        const pz_state_t *start,
                        const pz_state_t *goal)
{
    cube3_cubie_t s;
    cube3_cubie_t g;
    cube3_cubie_t gi;
    cube3_cubie_t x;
    int flipped = 0;
    int oriented = 0;

    if (strcmp(heuristic, "pdb-huge") != 0 || p->metric == PZ_METRIC_QTM ||
        cube3_cubie_from_state(start, &s) != PZ_OK ||
        cube3_cubie_from_state(goal, &g) != PZ_OK) {
        return true;
    }
    /* x = goal^-1 * start: solved exactly when start is the goal. */
    cube3_cubie_inverse(&g, &gi);
    cube3_cubie_multiply(&gi, &s, &x);
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        if (x.ep[i] == i) {
            flipped += x.eo[i] != 0;
            oriented += x.eo[i] == 0;
        }
    }
    return flipped < oriented + 4;
}

size_t
cube3_pdb_memory_bytes(void)
{
    return atomic_load(&g_bytes);
}

/* --- The heuristic ------------------------------------------------------ */

typedef struct pdb_ctx {
    const pdb_base_t *pb;
    const pdb_table_t *corners; /* points to tab[0] */
    const pdb_table_t *slice;   /* points to tab[1] */
    pdb_table_t tab[3];         /* corners, slice, inverse offset copy */
    uint64_t id;                /* unique per init: keys the shadow */
    bool qtm;                   /* raise estimates to the right parity */
    bool relabel;               /* goal is not the solved cube */
    uint8_t htm[PDB_MAXMOVES];  /* HTM id of each of the puzzle's moves */
    uint8_t lc[24];             /* corner byte -> byte of goal^-1 * s */
    uint8_t le[24];             /* edge byte -> byte of goal^-1 * s */
    const pdb_table_t *inv;     /* offset table for the inverse, or NULL */
    int inv_base;               /* its base value */
    /* The lookups of the offset table, "axes": csplit's three axes of
     * the inverse, or the separation table's inverse (0) and forward (1)
     * lookups. For each move, the axis a child's bound is its parent's
     * on (free, or -1), and the others in the order they are probed. */
    bool sep;
    int naxes;
    int8_t free_axis[PDB_MAXMOVES];
    uint8_t nprobe[PDB_MAXMOVES];
    uint8_t probe[PDB_MAXMOVES][2];
    /* Left multiplication by the inverse of each puzzle move, byte by
     * byte: (m^-1 * x) has byte lm[m][x[i]] at position i (corner bytes
     * use 0..23 of the corner half, edge bytes of the edge half). */
    uint8_t lmc[PDB_MAXMOVES][24];
    uint8_t lme[PDB_MAXMOVES][24];
    /* The HTM move each puzzle move is along each axis's frame. */
    uint8_t amove[3][PDB_MAXMOVES];
    /* The axis whose frame sees each puzzle move as a U or D turn: the
     * inverse's pattern along that axis is the same for the child as for
     * its parent (see lane_expand). */
    uint8_t maxis[PDB_MAXMOVES];
    /* csplit kind: its raw coordinate comb * 70 + U-corner places moves
     * as two independent small tables (a few KB instead of 2.5 MB). */
    bool split;
    /* The inverse's pattern coordinates along axis a straight from its
     * bytes: the byte at position psrc[a][j] is seen as v at position j of
     * the axis's frame; pc/pe[a][j][v] hold its part of the twist (low 16
     * bits) and U-corner place bit (bit 16 + j), or of the flip (low 11
     * bits) and E-slice place bit (bit 16 + j), so a sum of 20 table
     * entries gives all of them (no field carries into another). */
    uint8_t psrc[3][20];
    uint32_t pc[3][8][24];
    uint32_t pe[3][12][24];
    uint16_t comb_move[PDB_NCOMB][PDB_NHTM];
    uint8_t ucorner_move[PDB_NCSPLIT][PDB_NHTM];
} pdb_ctx_t;

/* Raw coordinates of the four patterns of a state (relative to solved):
 * the corners, and the slice pattern in the frame of each axis. */
typedef struct coords {
    uint16_t cperm;    /* corner permutation */
    uint16_t ctwist;   /* corner twist */
    uint32_t raw[3];   /* raw slice coordinate, per axis */
    uint16_t flip[3];  /* per axis */
    uint16_t twist[3]; /* per axis */
} coords_t;

/* A state with its exact pattern distances and coordinates. */
typedef struct shadow_state {
    uint8_t s[20];    /* the state as the engine has it */
    uint8_t xi[20];   /* the inverse of the relabelled state */
    bool has_xi;      /* xi and iv are set */
    bool complete;    /* every v[k] is known (else some are 0) */
    uint8_t iv;       /* bound from the inverse's lookups (0: none) */
    uint8_t v[NLOOK]; /* exact distances */
    int move;         /* the puzzle move that reached it, or -1 */
    coords_t c;       /* its coordinates */
} shadow_state_t;

/* A node of the search path, with its children once asked for. */
typedef struct shadow_node {
    shadow_state_t st;
    uint32_t done;                   /* bit m: child m below is known */
    uint32_t idone;                  /* bit m: its inverse too */
    uint32_t ipart;                  /* bit m: civ[m] is the first axis's
                                        only (it was above the limit) */
    int climit;                      /* limit of the last children() */
    uint8_t known[PDB_MAXMOVES];     /* bit k: cv[m][k] is known */
    uint8_t pmax[PDB_MAXMOVES];      /* largest known cv[m][k] */
    uint8_t cv[PDB_MAXMOVES][NLOOK]; /* children's distances */
    uint8_t civ[PDB_MAXMOVES];       /* children's inverse bounds */
    uint8_t cxi[PDB_MAXMOVES][20];   /* children's inverses */
    coords_t cc[PDB_MAXMOVES];       /* children's coordinates */
} shadow_node_t;

/* The calling thread's view of the path of its current search. */
typedef struct shadow {
    uint64_t id; /* ctx it belongs to; 0: none */
    int top;     /* nodes in stack */
    bool has_last;
    shadow_state_t last;             /* the last child evaluated */
    shadow_node_t stack[SHADOW_MAX]; /* the path, root first */
} shadow_t;

static _Thread_local shadow_t t_shadow;

/* The slice table kind heuristic name reads in the metric, or -1.
 * "pdb-large" reads the sorted table in QTM: the QTM csplit table would be
 * built unclamped (far longer than the HTM one) and has no base-offset
 * copy, and the HTM csplit table read as a lower bound in QTM was weaker
 * than the QTM sorted one (a 14-move scramble: h0 11 against 13, 4.4
 * times the nodes). */
static int
slice_table_of(const char *heuristic, bool qtm)
{
    if (strcmp(heuristic, "pdb-large") == 0) {
        return qtm ? CUBE3_PDB_SORTED : CUBE3_PDB_CSPLIT;
    }
    /* pdb-huge: the separation table is HTM only; its small forward
     * tables decode along the path (in QTM, pdb-large's). */
    if (strcmp(heuristic, "pdb-huge") == 0) {
        return qtm ? CUBE3_PDB_SORTED : CUBE3_PDB_SLICE;
    }
    return strcmp(heuristic, "pdb-small") == 0 ? CUBE3_PDB_SLICE
           : strcmp(heuristic, "pdb") == 0     ? CUBE3_PDB_SORTED
                                               : -1;
}

static int
init_common(const pz_puzzle_t *p,
            const pz_state_t *goal,
            void *vctx,
            const char *name,
            bool inverse)
{
    pdb_ctx_t *c = vctx;
    bool qtm = p->metric == PZ_METRIC_QTM;
    int slice_kind = slice_table_of(name, qtm);
    cube3_cubie_t g;
    cube3_cubie_t ginv;
    int rc;

    if (p->state_size != CUBE3_STATE_BYTES || p->nmoves > PDB_MAXMOVES ||
        cube3_cubie_from_state(goal, &g) != PZ_OK ||
        cube3_cubie_check(&g, NULL) != PZ_OK) {
        return PZ_EINVAL;
    }
    rc = get_table(CUBE3_PDB_CORNERS, qtm, &c->tab[0]);
    if (rc == PZ_OK) {
        rc = get_table(slice_kind, qtm, &c->tab[1]);
    }
    c->corners = &c->tab[0];
    c->slice = &c->tab[1];
    if (rc != PZ_OK) {
        return rc;
    }
    c->pb = g_base;
    c->qtm = qtm;
    for (int m = 0; m < p->nmoves; m++) {
        int hm = qtm ? m / 2 * 3 + (m & 1) * 2 : m;

        for (int a = 0; a < 3; a++) {
            c->amove[a][m] = g_base->sy.move[g_base->sy.axis[a]][hm];
            if (c->amove[a][m] / 3 % 3 == 0) {
                c->maxis[m] = (uint8_t)a;
            }
        }
    }
    for (int a = 0; a < 3; a++) {
        const pdb_bytemap_t *cm = &g_base->sy.conj[g_base->sy.axis[a]];
        int w = 1;

        for (int j = 7; j >= 0; j--) {
            c->psrc[a][j] = (uint8_t)(a == 0 ? j : cm->csrc[j]);
            for (int v = 0; v < 24; v++) {
                int b = a == 0 ? v : cm->cmap[j][v];

                c->pc[a][j][v] = (j < 7 ? (uint32_t)(b % 3 * w) : 0) |
                                 (uint32_t)(b < 12) << (16 + j);
            }
            w *= j < 7 ? 3 : 1;
        }
        for (int j = 0; j < 12; j++) {
            c->psrc[a][8 + j] = (uint8_t)(a == 0 ? j : cm->esrc[j]);
            for (int v = 0; v < 24; v++) {
                int b = a == 0 ? v : cm->emap[j][v];

                c->pe[a][j][v] = (j < 11 ? (uint32_t)(b & 1) << (10 - j) : 0) |
                                 (uint32_t)(b >= 16) << (16 + j);
            }
        }
    }
    c->split = slice_kind == CUBE3_PDB_CSPLIT;
    if (c->split) {
        const pdb_slice_t *sl = c->slice->slice;

        for (int m = 0; m < PDB_NHTM; m++) {
            for (int v = 0; v < PDB_NCOMB; v++) {
                c->comb_move[v][m] =
                    (uint16_t)(sl->move[v * PDB_NCSPLIT][m] / PDB_NCSPLIT);
            }
            for (int v = 0; v < PDB_NCSPLIT; v++) {
                c->ucorner_move[v][m] = (uint8_t)(sl->move[v][m] % PDB_NCSPLIT);
            }
        }
    }
    c->id = atomic_fetch_add(&g_next_id, 1) + 1;
    /* QTM ids are face * 2 + {0 clockwise, 1 anticlockwise} (cube3.c). */
    for (int m = 0; m < p->nmoves; m++) {
        c->htm[m] = (uint8_t)(qtm ? m / 2 * 3 + (m & 1) * 2 : m);
    }
    cube3_cubie_inverse(&g, &ginv);
    c->relabel = false;
    for (int i = 0; i < 8; i++) {
        c->relabel |= g.cp[i] != i || g.co[i] != 0;
    }
    for (int i = 0; i < 12; i++) {
        c->relabel |= g.ep[i] != i || g.eo[i] != 0;
    }
    /* (g^-1 * s) at position i: piece g^-1.cp[p] with twist g^-1.co[p] +
     * o, where s has piece p with twist o there (cube3.h's product). */
    for (int v = 0; v < 24; v++) {
        int pc = v / 3;
        int pe = v / 2;

        c->lc[v] = (uint8_t)(ginv.cp[pc] * 3 + (ginv.co[pc] + v % 3) % 3);
        c->le[v] = (uint8_t)(ginv.ep[pe] * 2 + (ginv.eo[pe] ^ (v & 1)));
    }
    c->inv = NULL;
    /* The separation table is HTM only: in QTM pdb-huge reads what
     * pdb-large reads there. */
    c->sep = strcmp(name, "pdb-huge") == 0 && !qtm;
    c->naxes = c->sep ? 2 : 3;
    for (int m = 0; m < p->nmoves; m++) {
        int a = c->maxis[m];

        if (!c->sep) {
            c->free_axis[m] = (int8_t)a;
            c->nprobe[m] = 2;
            c->probe[m][0] = (uint8_t)((a + 1) % 3);
            c->probe[m][1] = (uint8_t)((a + 2) % 3);
        } else if (c->htm[m] % 3 == 1) {
            /* A half turn renames pieces within their tetrads and
             * slices and changes no orientation: the inverse's pattern
             * is its parent's. */
            c->free_axis[m] = 0;
            c->nprobe[m] = 1;
            c->probe[m][0] = 1;
        } else {
            c->free_axis[m] = -1;
            c->nprobe[m] = 2;
            c->probe[m][0] = 0;
            c->probe[m][1] = 1;
        }
    }
    if (inverse && !qtm) {
        rc = get_offset(c->sep ? CUBE3_PDB_SEP : CUBE3_PDB_CSPLIT, &c->tab[2]);
        if (rc != PZ_OK) {
            return rc;
        }
        c->inv = &c->tab[2];
        c->inv_base = cube3_pdb__offset_base(c->inv);
        for (int m = 0; m < p->nmoves; m++) {
            cube3_cubie_t mi;

            cube3_cubie_inverse(cube3_move_cubie(c->htm[m]), &mi);
            for (int v = 0; v < 24; v++) {
                int pc = v / 3;
                int pe = v / 2;

                c->lmc[m][v] =
                    (uint8_t)(mi.cp[pc] * 3 + (mi.co[pc] + v % 3) % 3);
                c->lme[m][v] = (uint8_t)(mi.ep[pe] * 2 + (mi.eo[pe] ^ (v & 1)));
            }
        }
    }
    return PZ_OK;
}

int
cube3_pdb_heuristic_table(const char *heuristic,
                          bool qtm,
                          cube3_pdb_info_t *out)
{
    int kind = slice_table_of(heuristic, qtm);
    pdb_table_t t;
    int rc;

    if (kind < 0 || strcmp(heuristic, "pdb-huge") != 0 || qtm) {
        return kind < 0 ? PZ_EINVAL : cube3_pdb_table(kind, qtm, out);
    }
    /* pdb-huge: the separation table's offset copy, which it reads (its
     * mod-3 table is only built from). */
    rc = get_offset(CUBE3_PDB_SEP, &t);
    if (rc == PZ_OK) {
        fill_info(&t, out);
    }
    return rc;
}

static int
pdb_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    return init_common(p, goal, ctx, "pdb", false);
}

static int
pdb_large_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    /* The inverse's lookups read the base-offset copy (HTM only). */
    return init_common(p, goal, ctx, "pdb-large", true);
}

static int
pdb_huge_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    /* The separation table's lookups read its base-offset copy. */
    return init_common(p, goal, ctx, "pdb-huge", true);
}

static int
pdb_small_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    return init_common(p, goal, ctx, "pdb-small", false);
}

/* The tables init_common reads for heuristic name, in its order. */
static int
tables_of(const pz_puzzle_t *p, const char *name, const char **names, int max)
{
    bool qtm = p->metric == PZ_METRIC_QTM;
    const char *want[3];
    int n = 0;

    want[n++] = g_names[CUBE3_PDB_CORNERS][qtm];
    want[n++] = g_names[slice_table_of(name, qtm)][qtm];
    if (strcmp(name, "pdb-large") == 0 && !qtm) {
        want[n++] = g_offsets[0].name;
    }
    if (strcmp(name, "pdb-huge") == 0 && !qtm) {
        want[n++] = g_offsets[1].name;
    }
    for (int i = 0; i < n && i < max; i++) {
        names[i] = want[i];
    }
    return n;
}

static int
pdb_tables(const pz_puzzle_t *p,
           const pz_state_t *goal,
           const char **names,
           int max)
{
    (void)goal;
    return tables_of(p, "pdb", names, max);
}

static int
pdb_small_tables(const pz_puzzle_t *p,
                 const pz_state_t *goal,
                 const char **names,
                 int max)
{
    (void)goal;
    return tables_of(p, "pdb-small", names, max);
}

static int
pdb_large_tables(const pz_puzzle_t *p,
                 const pz_state_t *goal,
                 const char **names,
                 int max)
{
    (void)goal;
    return tables_of(p, "pdb-large", names, max);
}

static int
pdb_huge_tables(const pz_puzzle_t *p,
                const pz_state_t *goal,
                const char **names,
                int max)
{
    (void)goal;
    return tables_of(p, "pdb-huge", names, max);
}

/* x = the state relative to the solved goal. */
static void
relabel(const pdb_ctx_t *c, const uint8_t *s, uint8_t *x)
{
    if (!c->relabel) {
        memcpy(x, s, 20);
        return;
    }
    for (int i = 0; i < 8; i++) {
        x[i] = c->lc[s[i]];
    }
    for (int i = 8; i < 20; i++) {
        x[i] = c->le[s[i]];
    }
}

/* The state lookup k reads (x itself, or x seen along another axis). */
static void
pattern_state(const pdb_ctx_t *c, int k, const uint8_t *x, uint8_t *st)
{
    const pdb_sym_t *sy = &c->pb->sy;

    if (k < 2) {
        memcpy(st, x, 20);
    } else {
        cube3_pdb__map(&sy->conj[sy->axis[k - 1]], x, st);
    }
}

static const pdb_table_t *
table_of(const pdb_ctx_t *c, int k)
{
    return k == 0 ? c->corners : c->slice;
}

/* Coordinates of x from its bytes. */
static void
coords_of(const pdb_ctx_t *c, const uint8_t *x, coords_t *out)
{
    const pdb_coord_t *co = &c->pb->co;
    int kind = c->slice->slice->kind;

    out->cperm = (uint16_t)cube3_pdb__cperm(x);
    out->ctwist = (uint16_t)cube3_pdb__twist(x);
    for (int a = 0; a < 3; a++) {
        uint8_t st[20];

        pattern_state(c, a + 1, x, st);
        out->raw[a] = (uint32_t)cube3_pdb__raw(co, kind, st);
        out->flip[a] = (uint16_t)cube3_pdb__flip(st);
        out->twist[a] = (uint16_t)cube3_pdb__twist(st);
    }
}

/* The coordinates lookup k (0 corners, 1..3 the slice axes) reads, after
 * puzzle move m from in: conjugation by an axis rotation turns m into
 * the move the rotated cube sees. Only what lookup k needs, since most
 * children are cut by their first lookup. */
static void
coords_move(const pdb_ctx_t *c, const coords_t *in, int m, int k, coords_t *out)
{
    const pdb_coord_t *co = &c->pb->co;

    if (k == 0) {
        int hm = c->htm[m];

        out->cperm = co->cperm_move[in->cperm][hm];
        out->ctwist = co->twist_move[in->ctwist][hm];
    } else {
        int a = k - 1;
        int ma = c->amove[a][m];
        uint32_t raw = in->raw[a];

        if (c->split) {
            raw = (uint32_t)c->comb_move[raw / PDB_NCSPLIT][ma] * PDB_NCSPLIT +
                  c->ucorner_move[raw % PDB_NCSPLIT][ma];
        } else {
            raw = c->slice->slice->move[raw][ma];
        }
        out->raw[a] = raw;
        out->flip[a] = co->flip_move[in->flip[a]][ma];
        out->twist[a] = co->twist_move[in->twist[a]][ma];
    }
}

/* xi = x^-1: where x has piece p with twist o at position i, x^-1 has
 * piece i with twist -o at position p (the same for edges and flips). */
static void
inverse_bytes(const uint8_t *x, uint8_t *xi)
{
    for (int i = 0; i < 8; i++) {
        xi[x[i] / 3] = (uint8_t)(i * 3 + (3 - x[i] % 3) % 3);
    }
    for (int i = 0; i < 12; i++) {
        xi[8 + x[8 + i] / 2] = (uint8_t)(i * 2 + (x[8 + i] & 1));
    }
}

/* Offset-table index of the inverse's pattern along axis a (xi: its
 * bytes), from the fused tables psrc, pc and pe; or of the separation
 * pattern of the inverse (a = 0) or of the state itself (a = 1). */
static uint64_t
inverse_index(const pdb_ctx_t *c, const uint8_t *xi, int a)
{
    const pdb_coord_t *co = &c->pb->co;
    uint32_t cs = 0;
    uint32_t es = 0;
    int raw;

    if (c->sep) {
        uint8_t x[20];

        if (a == 0) {
            return cube3_pdb__sep_index_conj(c->inv->sep, c->pb, xi);
        }
        inverse_bytes(xi, x);
        return cube3_pdb__sep_index_conj(c->inv->sep, c->pb, x);
    }

    for (int j = 0; j < 8; j++) {
        cs += c->pc[a][j][xi[c->psrc[a][j]]];
    }
    for (int j = 0; j < 12; j++) {
        es += c->pe[a][j][xi[8 + c->psrc[a][8 + j]]];
    }
    raw = co->comb_rank[es >> 16] * PDB_NCSPLIT + co->csplit_rank[cs >> 16];
    return cube3_pdb__slice_index(c->inv, c->pb, raw, (int)(es & 0x7FF),
                                  (int)(cs & 0xFFFF));
}

/* The bound offset code gives: base + code, or 0 for "base or less"
 * (the other lookups cover those). */
static int
inverse_code_value(const pdb_ctx_t *c, int code)
{
    return code == 0 ? 0 : c->inv_base + code;
}

/* The bound of the offset table's lookups. */
static int
inverse_value(const pdb_ctx_t *c, const uint8_t *xi)
{
    uint64_t idx[3];
    int best = 0;

    for (int a = 0; a < c->naxes; a++) {
        idx[a] = inverse_index(c, xi, a);
    }
    for (int a = 0; a < c->naxes; a++) {
        __builtin_prefetch(&c->inv->data[idx[a] >> 2]);
    }
    for (int a = 0; a < c->naxes; a++) {
        int v = inverse_code_value(c, cube3_pdb__code(c->inv, idx[a]));

        best = v > best ? v : best;
    }
    return best;
}

/* Exact values and coordinates of x from scratch. */
static void
values_slow(const pdb_ctx_t *c, const uint8_t *x, shadow_state_t *n)
{
    for (int k = 0; k < NLOOK; k++) {
        uint8_t st[20];
        int d;

        pattern_state(c, k, x, st);
        d = cube3_pdb__exact(table_of(c, k), c->pb, st);
        /* A failed walk is a bug; 0 keeps the estimate admissible. */
        n->v[k] = (uint8_t)(d < 0 ? 0 : d);
    }
    coords_of(c, x, &n->c);
    n->complete = true;
    n->iv = 0;
    n->has_xi = c->inv != NULL;
    if (c->inv != NULL) {
        inverse_bytes(x, n->xi);
        n->iv = (uint8_t)inverse_value(c, n->xi);
    }
}

/* Table index of lookup k (0 corners, 1..3 the slice axes) of x. */
static uint64_t
index_of(const pdb_ctx_t *c, const coords_t *x, int k)
{
    if (k == 0) {
        return (uint64_t)x->cperm * PDB_NTWIST + x->ctwist;
    }
    return cube3_pdb__slice_index(c->slice, c->pb, x->raw[k - 1],
                                  x->flip[k - 1], x->twist[k - 1]);
}

/* Decodes entry code of lookup k of a child whose parent has exact value
 * vp: residues 0, 1, 2 above the parent's are the same, one more, one less
 * (a move changes a pattern distance by at most one). Clamped tables: an
 * unreached child is at the clamp; a reached child of a parent at the
 * clamp is one below. */
static int
decode(const pdb_table_t *t, int code, int vp)
{
    int diff = (code - vp % 3 + 3) % 3;

    if (code == 3) {
        return t->clamp;
    }
    if (t->clamp != 0 && vp >= t->clamp) {
        return t->clamp - 1;
    }
    return diff == 0 ? vp : diff == 1 ? vp + 1 : vp > 0 ? vp - 1 : 0;
}

/* Records value v of lookup k of a child: its values cv, the lookups it
 * has (bit k of *known) and their maximum *pmax. The shadow path and the
 * lanes keep these in their own structures. */
static void
record_value(uint8_t *cv, uint8_t *known, uint8_t *pmax, int k, int v)
{
    cv[k] = (uint8_t)v;
    *known |= (uint8_t)(1u << k);
    if (v > *pmax) {
        *pmax = (uint8_t)v;
    }
}

static void
set_child_value(shadow_node_t *n, int m, int k, int v)
{
    record_value(n->cv[m], &n->known[m], &n->pmax[m], k, v);
}

/* Table index of lookup k of the child by move m of a node with
 * coordinates pc, computing into *cc the child's coordinates it needs. */
static uint64_t
move_index(const pdb_ctx_t *c, const coords_t *pc, int m, int k, coords_t *cc)
{
    coords_move(c, pc, m, k, cc);
    return index_of(c, cc, k);
}

/* The stages of a node with exact values v whose children must stay
 * within limit: the lookups that can cut one (v[k] >= limit; in QTM the
 * corners always, whose exact value sets every estimate's parity), the
 * parent's highest value first and the small corner table first on
 * ties. Returns how many, written to order. */
static int
stage_order(const pdb_ctx_t *c, const uint8_t *v, int limit, int *order)
{
    int n = 0;

    for (int k = 0; k < NLOOK; k++) {
        if (v[k] >= limit || (k == 0 && c->qtm)) {
            int j = n++;

            while (j > 0 && (v[order[j - 1]] < v[k] ||
                             (v[order[j - 1]] == v[k] && k == 0))) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = k;
        }
    }
    return n;
}

/*
 * Fills in the children of n for the moves in want (puzzle move ids):
 * the lookups that can cut them under limit, in stages, one lookup of
 * every child still under limit per stage, with a prefetch of all of a
 * stage's entries before any is read. The engine asks for children one
 * at a time; doing a node's children together lets their cache misses
 * overlap, and a child over limit after some lookups is cut whatever
 * the others say, so they are skipped (until a later call with a higher
 * limit needs them).
 *
 * A child's pattern distance is at most its parent's plus one, so a
 * lookup whose parent value is below limit cannot cut any child: its
 * stage is skipped, and only the children that pass read it
 * (finish_child). The stages go from the parent's highest value down,
 * since a child is most often cut by the pattern its parent is farthest
 * on. Each lookup computes only the coordinates it reads.
 */
static void
children(const pdb_ctx_t *c, shadow_node_t *n, uint32_t want, int limit)
{
    uint64_t idx[PDB_MAXMOVES];
    uint32_t todo = want & ~n->done;
    int order[NLOOK];
    int nstage;

    for (uint32_t b = todo; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);

        n->known[m] = 0;
        n->pmax[m] = 0;
        memset(n->cv[m], 0, NLOOK);
    }
    n->done |= todo;
    n->climit = limit;
    nstage = stage_order(c, n->st.v, limit, order);
    for (int st = 0; st < nstage; st++) {
        int k = order[st];
        const pdb_table_t *t = table_of(c, k);
        uint32_t stage = 0;

        for (uint32_t b = want; b != 0; b &= b - 1) {
            int m = __builtin_ctz(b);

            if (!(n->known[m] >> k & 1u) && n->pmax[m] <= limit) {
                stage |= 1u << m;
                idx[m] = move_index(c, &n->st.c, m, k, &n->cc[m]);
            }
        }
        /* The prefetches in a loop of their own: on this machine a
         * prefetch that misses the TLB holds up retirement, so the fewer
         * instructions between them, the more misses are under way. */
        for (uint32_t b = stage; b != 0; b &= b - 1) {
            int m = __builtin_ctz(b);

            __builtin_prefetch(&t->data[idx[m] >> 2]);
        }
        for (uint32_t b = stage; b != 0; b &= b - 1) {
            int m = __builtin_ctz(b);

            set_child_value(n, m, k,
                            decode(t, cube3_pdb__code(t, idx[m]), n->st.v[k]));
        }
    }
}

/*
 * The rest of child m of n, which passed the stages under limit (or was
 * asked for with no limit): the lookups that could not cut it and, with
 * the inverse table, the inverse's: (x m)^-1 = m^-1 x^-1, a left
 * multiplication that renames pieces byte by byte (pdb-huge: the
 * separation table's inverse lookup, then its forward one, as two
 * "axes"). The first axis is prefetched with the others; the rest only
 * when the first does not cut the child (it mostly does deep in the tree), and
 * then the child's inverse bound stays partial (above limit, admissible).
 */
static void
finish_child(const pdb_ctx_t *c, shadow_node_t *n, int m, int limit)
{
    uint64_t idx[NLOOK];
    uint64_t iidx[3] = { 0, 0, 0 }; /* set where inv reads them */
    bool inv = c->inv != NULL && (!(n->idone >> m & 1u) ||
                                  ((n->ipart >> m & 1u) && n->civ[m] <= limit));

    for (int k = 0; k < NLOOK; k++) {
        if (!(n->known[m] >> k & 1u)) {
            idx[k] = move_index(c, &n->st.c, m, k, &n->cc[m]);
        }
    }
    for (int k = 0; k < NLOOK; k++) {
        if (!(n->known[m] >> k & 1u)) {
            __builtin_prefetch(&table_of(c, k)->data[idx[k] >> 2]);
        }
    }
    if (inv) {
        if (!n->st.has_xi) {
            uint8_t x[20];

            relabel(c, n->st.s, x);
            inverse_bytes(x, n->st.xi);
            n->st.has_xi = true;
        }
        for (int i = 0; i < 8; i++) {
            n->cxi[m][i] = c->lmc[m][n->st.xi[i]];
        }
        for (int i = 8; i < 20; i++) {
            n->cxi[m][i] = c->lme[m][n->st.xi[i]];
        }
        iidx[0] = inverse_index(c, n->cxi[m], 0);
        __builtin_prefetch(&c->inv->data[iidx[0] >> 2]);
    }
    for (int k = 0; k < NLOOK; k++) {
        if (!(n->known[m] >> k & 1u)) {
            const pdb_table_t *t = table_of(c, k);

            set_child_value(n, m, k,
                            decode(t, cube3_pdb__code(t, idx[k]), n->st.v[k]));
        }
    }
    if (inv) {
        int iv = inverse_code_value(c, cube3_pdb__code(c->inv, iidx[0]));

        n->idone |= 1u << m;
        n->ipart &= ~(1u << m);
        if (iv > limit) {
            n->ipart |= 1u << m;
        } else {
            for (int a = 1; a < c->naxes; a++) {
                iidx[a] = inverse_index(c, n->cxi[m], a);
            }
            for (int a = 1; a < c->naxes; a++) {
                __builtin_prefetch(&c->inv->data[iidx[a] >> 2]);
            }
            for (int a = 1; a < c->naxes; a++) {
                int v = inverse_code_value(c, cube3_pdb__code(c->inv, iidx[a]));

                iv = v > iv ? v : iv;
            }
        }
        n->civ[m] = (uint8_t)iv;
    }
}

/* The estimate from values v (known: bit k set when v[k] was looked up;
 * the others are 0) and the inverse's bound iv. */
static int
combine_known(const pdb_ctx_t *c, const uint8_t *v, unsigned known, int iv)
{
    int h = iv;

    for (int k = 0; k < NLOOK; k++) {
        h = v[k] > h ? v[k] : h;
    }
    /* v[0], an exact corner distance, has the parity of every QTM
     * solution; a child cut before its corner lookup has no parity to
     * raise to (raising to 0's would overestimate, which the engine's
     * pathmax would carry to its parent). */
    if (c->qtm && (known & 1u) && ((h ^ v[0]) & 1)) {
        h++;
    }
    return h;
}

/* The estimate from complete values v. */
static int
combine(const pdb_ctx_t *c, const uint8_t *v, int iv)
{
    return combine_known(c, v, ALL_LOOKUPS, iv);
}

/* The shadow of this thread, reset when it belongs to another search. */
static shadow_t *
shadow_for(const pdb_ctx_t *c)
{
    shadow_t *sh = &t_shadow;

    if (sh->id != c->id) {
        sh->id = c->id;
        sh->top = 0;
        sh->has_last = false;
    }
    return sh;
}

/* Makes st the only node of the path. */
static shadow_node_t *
reset_path(shadow_t *sh, const shadow_state_t *st)
{
    sh->stack[0].st = *st;
    sh->stack[0].done = 0;
    sh->stack[0].idone = 0;
    sh->stack[0].ipart = 0;
    sh->top = 1;
    return &sh->stack[0];
}

/* The node of state s (engine form): from the path, the last child, or
 * from scratch; s becomes the top of the path. */
static shadow_node_t *
parent_node(const pdb_ctx_t *c, shadow_t *sh, const uint8_t *s)
{
    shadow_state_t st;
    uint8_t x[20];

    if (sh->top > 0 && memcmp(sh->stack[sh->top - 1].st.s, s, 20) == 0) {
        return &sh->stack[sh->top - 1];
    }
    if (sh->has_last && sh->last.complete && memcmp(sh->last.s, s, 20) == 0) {
        shadow_node_t *n;

        if (sh->top == SHADOW_MAX) {
            /* Keep the newer half; deeper paths only cost recomputing. */
            memmove(sh->stack, sh->stack + SHADOW_MAX / 2,
                    (SHADOW_MAX / 2) * sizeof(shadow_node_t));
            sh->top = SHADOW_MAX / 2;
        }
        n = &sh->stack[sh->top++];
        n->st = sh->last;
        n->done = 0;
        n->idone = 0;
        n->ipart = 0;
        sh->has_last = false;
        return n;
    }
    for (int i = sh->top - 2; i >= 0; i--) {
        if (memcmp(sh->stack[i].st.s, s, 20) == 0) {
            sh->top = i + 1;
            return &sh->stack[i];
        }
    }
    memcpy(st.s, s, 20);
    st.move = -1;
    relabel(c, s, x);
    values_slow(c, x, &st);
    return reset_path(sh, &st);
}

/* The largest estimate of c: its tables' largest distances (a clamped
 * table's clamp), the offset copy's largest code, and one more in QTM,
 * whose estimates may be raised to the corners' parity. */
static int
pdb_max_estimate(const pz_puzzle_t *p, const void *ctx)
{
    const pdb_ctx_t *c = ctx;
    int m = c->corners->maxdepth > c->slice->maxdepth ? c->corners->maxdepth
                                                      : c->slice->maxdepth;

    (void)p;
    if (c->inv != NULL && c->inv_base + 3 > m) {
        m = c->inv_base + 3;
    }
    return c->qtm ? m + 1 : m;
}

static int
pdb_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const pdb_ctx_t *c = ctx;
    shadow_t *sh = shadow_for(c);
    uint8_t x[20];

    (void)p;
    /* A state whose inverse was skipped (update_limit) is redone. */
    if (sh->has_last && sh->last.complete &&
        memcmp(sh->last.s, s->b, 20) == 0 &&
        (sh->last.has_xi || c->inv == NULL)) {
        return combine(c, sh->last.v, sh->last.iv);
    }
    for (int i = sh->top - 1; i >= 0; i--) {
        if (memcmp(sh->stack[i].st.s, s->b, 20) == 0 &&
            (sh->stack[i].st.has_xi || c->inv == NULL)) {
            return combine(c, sh->stack[i].st.v, sh->stack[i].st.iv);
        }
    }
    relabel(c, s->b, x);
    memcpy(sh->last.s, s->b, 20);
    sh->last.move = -1;
    values_slow(c, x, &sh->last);
    sh->has_last = true;
    return combine(c, sh->last.v, sh->last.iv);
}

static int
pdb_update_limit(const pz_puzzle_t *p,
                 const void *ctx,
                 const pz_state_t *parent,
                 int h_parent,
                 int move,
                 const pz_state_t *child,
                 int limit)
{
    const pdb_ctx_t *c = ctx;
    shadow_t *sh = shadow_for(c);
    shadow_node_t *n;
    shadow_state_t *last = &sh->last;
    int h;

    (void)h_parent;
    if (move < 0 || move >= p->nmoves) {
        return pdb_eval(p, ctx, child);
    }
    n = parent_node(c, sh, parent->b);
    if (!(n->done >> move & 1u) ||
        (n->known[move] != ALL_LOOKUPS && limit != n->climit)) {
        /* The moves a pruned search tries after the one that led here
         * (all of them at the root), and this one in any case. */
        uint64_t want = n->st.move >= 0 ? p->allowed_after[n->st.move]
                                        : p->allowed_after[p->nmoves];

        children(c, n, (uint32_t)want | 1u << move, limit);
    }
    if (n->pmax[move] <= limit &&
        (n->known[move] != ALL_LOOKUPS ||
         (c->inv != NULL &&
          (!(n->idone >> move & 1u) ||
           ((n->ipart >> move & 1u) && n->civ[move] <= limit))))) {
        finish_child(c, n, move, limit);
    }
    memcpy(last->s, child->b, 20);
    memcpy(last->v, n->cv[move], NLOOK);
    last->c = n->cc[move];
    last->move = move;
    last->complete = n->known[move] == ALL_LOOKUPS;
    last->iv = 0;
    last->has_xi = false;
    sh->has_last = true;
    h = combine_known(c, last->v, n->known[move], 0);
    if (!last->complete) {
        /* Cut by the lookups done: their maximum is above limit. */
        return h;
    }
    /* The inverse's lookups were done for a child the others do not
     * cut (finish_child); a partial bound is above limit. */
    if (c->inv != NULL && (n->idone >> move & 1u)) {
        memcpy(last->xi, n->cxi[move], 20);
        last->iv = n->civ[move];
        last->has_xi = !(n->ipart >> move & 1u);
        h = combine(c, last->v, n->civ[move]);
    }
    return h;
}

static int
pdb_update(const pz_puzzle_t *p,
           const void *ctx,
           const pz_state_t *parent,
           int h_parent,
           int move,
           const pz_state_t *child)
{
    return pdb_update_limit(p, ctx, parent, h_parent, move, child, INT_MAX);
}

/* --- IDA*'s search, several subtrees at once (heuristic_ops search) --- */

/*
 * A random probe into the tables takes about 300 ns on the development
 * machine (a virtual machine: TLB misses walk two levels of page tables)
 * while the probes of independent nodes overlap (about 35 ns each when
 * many are under way). One depth-first search waits for its probes in
 * rounds: a node's children's first lookups, the others for those left,
 * the inverse's. So each thread runs LANES searches of subtrees (tasks
 * of the engine) side by side: a lane runs until it has prefetched the
 * probes of its next round and then gives way to the next lane, which by
 * then finds its own probes in the cache. Each lane is the engine's DFS
 * (same pruning, order, counts and cut values) with the lookups of
 * children() and finish_child() cut into those rounds.
 */

enum {
    LANES = 8,
    LANE_DEPTH = 48, /* frames of a lane: a subtree as deep as the bound
                        (God's number is 20 in HTM, 26 in QTM) */
};

/* A node of a lane's path, with its children once evaluated. */
typedef struct lane_frame {
    pz_state_t s;                    /* engine form */
    coords_t c;                      /* relative to solved */
    uint8_t v[NLOOK];                /* exact pattern distances */
    uint8_t xi[20];                  /* inverse of the relabelled state */
    uint8_t iva[3];                  /* the inverse's bound on each axis */
    int move;                        /* the move that reached it */
    uint32_t next;                   /* children still to visit */
    uint8_t ch[PDB_MAXMOVES];        /* their estimates */
    coords_t cc[PDB_MAXMOVES];       /* children's coordinates */
    uint8_t cv[PDB_MAXMOVES][NLOOK]; /* children's values */
    uint8_t cxi[PDB_MAXMOVES][20];   /* children's inverses */
    uint8_t civa[PDB_MAXMOVES][3];   /* their bounds by axis */
} lane_frame_t;

typedef enum lane_phase {
    LANE_TAKE,   /* needs a root */
    LANE_EXPAND, /* the top frame's children are next */
    LANE_STAGE,  /* a stage's probes are prefetched */
    LANE_FINISH, /* the survivors' remaining probes are prefetched */
    LANE_INV,    /* the inverse's second and third probes are */
    LANE_VISIT,  /* the top frame's next child is visited */
    LANE_DONE,   /* no roots left */
} lane_phase_t;

typedef struct lane {
    lane_phase_t phase;
    int root;  /* depth of the subtree root */
    int d;     /* depth of the top frame */
    int limit; /* bound - d - 1 while expanding */
    uint32_t want;
    uint32_t stage;
    uint32_t inv2;
    int order[NLOOK];
    int nstage;
    int st;
    uint8_t known[PDB_MAXMOVES];
    uint8_t pmax[PDB_MAXMOVES];
    uint8_t civ[PDB_MAXMOVES];
    uint64_t idx[PDB_MAXMOVES][NLOOK];
    uint64_t iidx[PDB_MAXMOVES][2]; /* the inverse's two probes */
    uint32_t sraw[PDB_MAXMOVES][2]; /* separation: their raw values */
    uint8_t fwd[PDB_MAXMOVES][20];  /* and the children (not inverted) */
    uint8_t moves[PZ_SOLUTION_MAX]; /* from the start */
    size_t task;                    /* the engine's index of its root */
    uint64_t nodes[LANE_DEPTH];     /* expansions below it, by depth */
    lane_frame_t f[LANE_DEPTH];     /* f[d - root] */
} lane_t;

/* A child of lane l's top frame with estimate h: cut (its f noted in
 * job->next for the next bound) when over the limit, else one of the
 * frame's children to visit. Returns whether it was kept. */
static bool
lane_keep(lane_t *l, lane_frame_t *f, idastar_job_t *job, int m, int h)
{
    if (h > l->limit) {
        job->next = l->d + 1 + h < job->next ? l->d + 1 + h : job->next;
        return false;
    }
    if (f != NULL) {
        f->ch[m] = (uint8_t)h;
        f->next |= 1u << m;
    }
    return true;
}

/* Starts the expansion of lane l's top frame: the stages to run. */
static void
lane_expand(const pz_puzzle_t *p,
            const pdb_ctx_t *c,
            lane_t *l,
            idastar_job_t *job)
{
    lane_frame_t *f = &l->f[l->d - l->root];

    l->limit = job->bound - l->d - 1;
    l->want = (uint32_t)p->allowed_after[f->move];
    *job->generated += (uint64_t)__builtin_popcount(l->want);
    /* A child (x m)^-1 = m^-1 x^-1 is the parent's inverse with its
     * pieces renamed by m^-1. Along the axis whose frame sees m as a U or
     * D turn, that renaming keeps every part of the pattern (E-slice
     * pieces stay E-slice pieces, U-layer corners U-layer corners, and U
     * and D turns change no twist or flip), so the child's inverse bound
     * there is the parent's, known without a probe: a child it cuts
     * needs no lookup at all. */
    if (c->inv != NULL) {
        for (uint32_t b = l->want; b != 0; b &= b - 1) {
            int m = __builtin_ctz(b);
            int v = c->free_axis[m] >= 0 ? f->iva[c->free_axis[m]] : 0;

            if (!lane_keep(l, NULL, job, m, v)) {
                l->want &= ~(1u << m);
            }
        }
    }
    memset(l->known, 0, sizeof(l->known));
    memset(l->pmax, 0, sizeof(l->pmax));
    memset(f->cv, 0, sizeof(f->cv));
    /* The separation table's probes come first (lane_sep_issue). */
    l->nstage = c->sep ? 0 : stage_order(c, f->v, l->limit, l->order);
    l->st = 0;
}

/* Records value v of lookup k for child m in lane l. */
static void
lane_set(lane_t *l, lane_frame_t *f, int m, int k, int v)
{
    record_value(f->cv[m], &l->known[m], &l->pmax[m], k, v);
}

/* Prefetches stage l->st's probes; false when no child needs one. */
static bool
lane_stage_issue(const pdb_ctx_t *c, lane_t *l)
{
    lane_frame_t *f = &l->f[l->d - l->root];
    int k = l->order[l->st];
    const pdb_table_t *t = table_of(c, k);

    l->stage = 0;
    for (uint32_t b = l->want; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);

        if (!(l->known[m] >> k & 1u) && l->pmax[m] <= l->limit) {
            l->stage |= 1u << m;
            l->idx[m][k] = move_index(c, &f->c, m, k, &f->cc[m]);
        }
    }
    for (uint32_t b = l->stage; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);

        __builtin_prefetch(&t->data[l->idx[m][k] >> 2]);
    }
    return l->stage != 0;
}

static void
lane_stage_decode(const pdb_ctx_t *c, lane_t *l)
{
    lane_frame_t *f = &l->f[l->d - l->root];
    int k = l->order[l->st];
    const pdb_table_t *t = table_of(c, k);

    for (uint32_t b = l->stage; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);

        lane_set(l, f, m, k,
                 decode(t, cube3_pdb__code(t, l->idx[m][k]), f->v[k]));
    }
}

/* Prefetches the offset table's entries of probe k of the children in
 * mask, once all their indices are computed: back to back, as children()
 * does and for the same reason, so that their page walks overlap (a
 * separation index is over a hundred instructions). */
static inline void
inv_prefetch(const pdb_ctx_t *c, const lane_t *l, uint32_t mask, int k)
{
    for (uint32_t b = mask; b != 0; b &= b - 1) {
        __builtin_prefetch(&c->inv->data[l->iidx[__builtin_ctz(b)][k] >> 2]);
    }
}

/* Notes the cut children of the top frame in job->next; the survivors
 * get their remaining probes (and the inverse's first) prefetched.
 * Returns the survivors. */
static uint32_t
lane_finish_issue(const pdb_ctx_t *c, lane_t *l, idastar_job_t *job)
{
    lane_frame_t *f = &l->f[l->d - l->root];
    uint32_t surv = 0;

    for (uint32_t b = l->want; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);

        if (l->pmax[m] > l->limit) {
            int fc = l->d + 1 + combine_known(c, f->cv[m], l->known[m], 0);

            job->next = fc < job->next ? fc : job->next;
            continue;
        }
        surv |= 1u << m;
        for (int k = 0; k < NLOOK; k++) {
            if (!(l->known[m] >> k & 1u)) {
                l->idx[m][k] = move_index(c, &f->c, m, k, &f->cc[m]);
            }
        }
        if (c->inv != NULL) {
            for (int i = 0; i < 8; i++) {
                f->cxi[m][i] = c->lmc[m][f->xi[i]];
            }
            for (int i = 8; i < 20; i++) {
                f->cxi[m][i] = c->lme[m][f->xi[i]];
            }
            /* The move's own axis is the parent's (lane_expand); the
             * others are probed, the first now. */
            l->iidx[m][0] = inverse_index(c, f->cxi[m], c->probe[m][0]);
        }
    }
    for (uint32_t b = surv; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);

        for (int k = 0; k < NLOOK; k++) {
            if (!(l->known[m] >> k & 1u)) {
                __builtin_prefetch(&table_of(c, k)->data[l->idx[m][k] >> 2]);
            }
        }
        if (c->inv != NULL) {
            __builtin_prefetch(&c->inv->data[l->iidx[m][0] >> 2]);
        }
    }
    return surv;
}

/* Decodes the survivors' probes; those the inverse's first probe does
 * not cut get its other two prefetched (l->inv2). */
static void
lane_finish_decode(const pdb_ctx_t *c,
                   lane_t *l,
                   uint32_t surv,
                   idastar_job_t *job)
{
    lane_frame_t *f = &l->f[l->d - l->root];

    l->inv2 = 0;
    f->next = 0;
    for (uint32_t b = surv; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);
        int iv = 0;
        int h;

        for (int k = 0; k < NLOOK; k++) {
            if (!(l->known[m] >> k & 1u)) {
                const pdb_table_t *t = table_of(c, k);

                lane_set(l, f, m, k,
                         decode(t, cube3_pdb__code(t, l->idx[m][k]), f->v[k]));
            }
        }
        if (c->inv != NULL) {
            int a = c->free_axis[m];
            int fv = a >= 0 ? f->iva[a] : 0;
            int v =
                inverse_code_value(c, cube3_pdb__code(c->inv, l->iidx[m][0]));

            if (a >= 0) {
                f->civa[m][a] = (uint8_t)fv;
            }
            f->civa[m][c->probe[m][0]] = (uint8_t)v;
            iv = v > fv ? v : fv;
        }
        h = combine(c, f->cv[m], iv);
        if (!lane_keep(l, NULL, job, m, h)) {
            continue;
        }
        l->civ[m] = (uint8_t)iv;
        if (c->inv != NULL && c->nprobe[m] > 1) {
            l->inv2 |= 1u << m;
            l->iidx[m][1] = inverse_index(c, f->cxi[m], c->probe[m][1]);
        } else {
            lane_keep(l, f, job, m, h);
        }
    }
    inv_prefetch(c, l, l->inv2, 1);
}

static void
lane_inv_decode(const pdb_ctx_t *c, lane_t *l, idastar_job_t *job)
{
    lane_frame_t *f = &l->f[l->d - l->root];

    for (uint32_t b = l->inv2; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);
        int iv = l->civ[m];
        int v = inverse_code_value(c, cube3_pdb__code(c->inv, l->iidx[m][1]));

        f->civa[m][c->probe[m][1]] = (uint8_t)v;
        iv = v > iv ? v : iv;
        lane_keep(l, f, job, m, combine(c, f->cv[m], iv));
    }
}

/*
 * pdb-huge's rounds. Its offset table cuts most children, so it is read
 * first: round one probes each child's first separation lookup (the
 * forward pattern for a half turn, whose inverse bound is the parent's;
 * else the inverse's), round two the survivors' other one and their
 * four small lookups, whose exact values decode their own children. A
 * separation index needs the class entry of the raw coordinate (a 9.7 MB
 * array) before the table's address is known: both children's raw
 * values are computed and their class entries prefetched before any
 * index.
 */
static uint32_t
lane_sep_issue(const pdb_ctx_t *c, lane_t *l)
{
    lane_frame_t *f = &l->f[l->d - l->root];
    const pdb_sep_t *sp = c->inv->sep;
    const pdb_coord_t *co = &c->pb->co;

    for (uint32_t b = l->want; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);

        for (int i = 0; i < 8; i++) {
            f->cxi[m][i] = c->lmc[m][f->xi[i]];
        }
        for (int i = 8; i < 20; i++) {
            f->cxi[m][i] = c->lme[m][f->xi[i]];
        }
        if (c->probe[m][0] == 0) {
            l->sraw[m][0] = cube3_pdb__sep_raw(co, f->cxi[m]);
        } else {
            inverse_bytes(f->cxi[m], l->fwd[m]);
            l->sraw[m][0] = cube3_pdb__sep_raw(co, l->fwd[m]);
        }
        __builtin_prefetch(&sp->cs[l->sraw[m][0]]);
        f->civa[m][2] = 0; /* no third axis */
    }
    for (uint32_t b = l->want; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);

        l->iidx[m][0] = cube3_pdb__sep_index_at(
            sp, c->pb, c->probe[m][0] == 0 ? f->cxi[m] : l->fwd[m],
            l->sraw[m][0]);
    }
    inv_prefetch(c, l, l->want, 0);
    return l->want;
}

/* Decodes round one; the survivors get their small lookups and a
 * quarter turn's second probe prefetched. */
static void
lane_sep_decode(const pdb_ctx_t *c,
                lane_t *l,
                uint32_t surv,
                idastar_job_t *job)
{
    lane_frame_t *f = &l->f[l->d - l->root];
    const pdb_sep_t *sp = c->inv->sep;
    uint32_t second = 0;

    l->inv2 = 0;
    f->next = 0;
    for (uint32_t b = surv; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);
        int a = c->free_axis[m];
        int fv = a >= 0 ? f->iva[a] : 0;
        int v = inverse_code_value(c, cube3_pdb__code(c->inv, l->iidx[m][0]));
        int iv = v > fv ? v : fv;

        if (a >= 0) {
            f->civa[m][a] = (uint8_t)fv;
        }
        f->civa[m][c->probe[m][0]] = (uint8_t)v;
        if (!lane_keep(l, NULL, job, m, iv)) {
            continue;
        }
        l->civ[m] = (uint8_t)iv;
        l->inv2 |= 1u << m;
        if (c->nprobe[m] > 1) {
            second |= 1u << m;
            /* A quarter turn's second probe: its forward pattern. */
            inverse_bytes(f->cxi[m], l->fwd[m]);
            l->sraw[m][1] = cube3_pdb__sep_raw(&c->pb->co, l->fwd[m]);
            __builtin_prefetch(&sp->cs[l->sraw[m][1]]);
        }
        for (int k = 0; k < NLOOK; k++) {
            l->idx[m][k] = move_index(c, &f->c, m, k, &f->cc[m]);
            __builtin_prefetch(&table_of(c, k)->data[l->idx[m][k] >> 2]);
        }
    }
    for (uint32_t b = second; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);

        l->iidx[m][1] =
            cube3_pdb__sep_index_at(sp, c->pb, l->fwd[m], l->sraw[m][1]);
    }
    inv_prefetch(c, l, second, 1);
}

static void
lane_sep_decode2(const pdb_ctx_t *c, lane_t *l, idastar_job_t *job)
{
    lane_frame_t *f = &l->f[l->d - l->root];

    for (uint32_t b = l->inv2; b != 0; b &= b - 1) {
        int m = __builtin_ctz(b);
        int iv = l->civ[m];

        for (int k = 0; k < NLOOK; k++) {
            const pdb_table_t *t = table_of(c, k);

            lane_set(l, f, m, k,
                     decode(t, cube3_pdb__code(t, l->idx[m][k]), f->v[k]));
        }
        if (c->nprobe[m] > 1) {
            int v =
                inverse_code_value(c, cube3_pdb__code(c->inv, l->iidx[m][1]));

            f->civa[m][c->probe[m][1]] = (uint8_t)v;
            iv = v > iv ? v : iv;
        }
        lane_keep(l, f, job, m, combine(c, f->cv[m], iv));
    }
}

/* The start of the search (values found once per call of pdb_search). */
typedef struct lane_start {
    bool set;
    coords_t c;
    uint8_t v[NLOOK];
} lane_start_t;

/*
 * Sets lane l's root frame from the engine's task (state s at depth,
 * l->moves from the start). Its exact values are decoded along the moves
 * from the start's (a few probes per move), which are walked out of the
 * tables once: walking every root would take hundreds of probes each.
 */
static void
lane_root(const pz_puzzle_t *p,
          const pdb_ctx_t *c,
          lane_t *l,
          const pz_state_t *s,
          int depth,
          lane_start_t *start)
{
    lane_frame_t *f = &l->f[0];
    uint8_t x[20];

    if (!start->set) {
        pz_state_t s0 = *s;
        shadow_state_t st;

        for (int i = depth - 1; i >= 0; i--) {
            (void)puzzle_apply(p, &s0, puzzle_inverse(p, l->moves[i]), &s0);
        }
        relabel(c, s0.b, x);
        values_slow(c, x, &st);
        start->c = st.c;
        memcpy(start->v, st.v, NLOOK);
        start->set = true;
    }
    f->c = start->c;
    memcpy(f->v, start->v, NLOOK);
    for (int i = 0; i < depth; i++) {
        coords_t next = f->c;
        uint64_t idx[NLOOK];

        for (int k = 0; k < NLOOK; k++) {
            coords_move(c, &f->c, l->moves[i], k, &next);
            idx[k] = index_of(c, &next, k);
            __builtin_prefetch(&table_of(c, k)->data[idx[k] >> 2]);
        }
        for (int k = 0; k < NLOOK; k++) {
            const pdb_table_t *t = table_of(c, k);

            f->v[k] = (uint8_t)decode(t, cube3_pdb__code(t, idx[k]), f->v[k]);
        }
        f->c = next;
    }
    relabel(c, s->b, x);
    inverse_bytes(x, f->xi);
    memset(f->iva, 0, sizeof(f->iva));
    if (c->inv != NULL) {
        for (int a = 0; a < c->naxes; a++) {
            f->iva[a] = (uint8_t)inverse_code_value(
                c, cube3_pdb__code(c->inv, inverse_index(c, f->xi, a)));
        }
    }
    f->s = *s;
    f->move = l->moves[depth - 1];
    l->root = depth;
    l->d = depth;
}

/*
 * Runs lane l until it has prefetched its next round of probes (returns
 * PZ_STATUS_RUNNING), runs out of roots (phase LANE_DONE), finds the goal
 * (SOLVED, job filled) or a poll ends the search (its status).
 */
static int
lane_step(const pz_puzzle_t *p,
          const pdb_ctx_t *c,
          lane_t *l,
          idastar_job_t *job,
          lane_start_t *start)
{
    for (;;) {
        lane_frame_t *f;

        switch (l->phase) {
        case LANE_DONE:
            return PZ_STATUS_RUNNING;
        case LANE_TAKE: {
            pz_state_t s;
            int depth;

            if (!job->take(job->arg, &s, &depth, l->moves)) {
                l->phase = LANE_DONE;
                return PZ_STATUS_RUNNING;
            }
            if (job->bound - depth + 2 > LANE_DEPTH ||
                job->bound >= PZ_SOLUTION_MAX) {
                return PZ_EINVAL;
            }
            lane_root(p, c, l, &s, depth, start);
            l->task = job->task;
            memset(l->nodes, 0, sizeof(l->nodes));
            l->phase = LANE_EXPAND;
            break;
        }
        case LANE_EXPAND:
            lane_expand(p, c, l, job);
            for (; l->st < l->nstage; l->st++) {
                if (lane_stage_issue(c, l)) {
                    l->phase = LANE_STAGE;
                    return PZ_STATUS_RUNNING;
                }
            }
            l->phase = LANE_FINISH;
            l->stage =
                c->sep ? lane_sep_issue(c, l) : lane_finish_issue(c, l, job);
            return PZ_STATUS_RUNNING;
        case LANE_STAGE:
            lane_stage_decode(c, l);
            for (l->st++; l->st < l->nstage; l->st++) {
                if (lane_stage_issue(c, l)) {
                    return PZ_STATUS_RUNNING;
                }
            }
            l->phase = LANE_FINISH;
            l->stage = lane_finish_issue(c, l, job);
            return PZ_STATUS_RUNNING;
        case LANE_FINISH:
            if (c->sep) {
                lane_sep_decode(c, l, l->stage, job);
            } else {
                lane_finish_decode(c, l, l->stage, job);
            }
            if (l->inv2 != 0) {
                l->phase = LANE_INV;
                return PZ_STATUS_RUNNING;
            }
            l->phase = LANE_VISIT;
            break;
        case LANE_INV:
            if (c->sep) {
                lane_sep_decode2(c, l, job);
            } else {
                lane_inv_decode(c, l, job);
            }
            l->phase = LANE_VISIT;
            break;
        case LANE_VISIT:
            /* Visit the top frame's next child, or go up. */
            f = &l->f[l->d - l->root];
            if (f->next == 0) {
                if (l->d == l->root) {
                    if (job->done != NULL) {
                        job->done(job->arg, l->task, l->nodes,
                                  job->bound - l->root);
                    }
                    l->phase = LANE_TAKE;
                } else {
                    l->d--;
                }
                break;
            }
            {
                int m = __builtin_ctz(f->next);
                lane_frame_t *g = f + 1;

                f->next &= f->next - 1;
                if (!puzzle_apply(p, &f->s, m, &g->s)) {
                    break;
                }
                l->moves[l->d] = (uint8_t)m;
                if (f->ch[m] == 0 && puzzle_equal(p, &g->s, job->goal)) {
                    job->length = l->d + 1;
                    memcpy(job->moves, l->moves, (size_t)job->length);
                    return PZ_STATUS_SOLVED;
                }
                g->c = f->cc[m];
                memcpy(g->v, f->cv[m], NLOOK);
                memcpy(g->xi, f->cxi[m], 20);
                memcpy(g->iva, f->civa[m], 3);
                g->move = m;
                l->d++;
                l->phase = LANE_EXPAND;
                l->nodes[l->d - l->root - 1]++;
                if (++*job->expanded >= *job->next_poll) {
                    int status = job->poll(job->arg);

                    if (status != PZ_STATUS_RUNNING) {
                        return status;
                    }
                }
            }
            break;
        }
    }
}

static int
pdb_search(const pz_heuristic_t *h, idastar_job_t *job)
{
    const pz_puzzle_t *p = h->puzzle;
    const pdb_ctx_t *c = h->ctx;
    int active = LANES;
    int status = PZ_STATUS_RUNNING;
    lane_start_t start;
    /* One block per call (an iteration's share of a thread), not thread
     * storage (every thread of a daemon would carry it), from the job's
     * budget. */
    lane_t *lanes = budget_alloc(job->budget, LANES * sizeof(lane_t));

    if (lanes == NULL) {
        return PZ_ENOMEM;
    }
    memset(&start, 0, sizeof(start));
    for (int i = 0; i < LANES; i++) {
        lanes[i].phase = LANE_TAKE;
    }
    while (active > 0 && status == PZ_STATUS_RUNNING) {
        active = 0;
        for (int i = 0; i < LANES && status == PZ_STATUS_RUNNING; i++) {
            lane_t *l = &lanes[i];

            if (l->phase == LANE_DONE) {
                continue;
            }
            status = lane_step(p, c, l, job, &start);
            active += l->phase != LANE_DONE;
        }
    }
    budget_free(job->budget, lanes, LANES * sizeof(lane_t));
    return status;
}

const heuristic_ops_t cube3_pdb_heuristic = {
    .name = "pdb",
    .summary = "pattern databases (2-bit, shared tables, about "
               "0.9 GB): max of corners and of E-slice edges in order with "
               "all flips and twists on three axes",
    .admissible = true,
    .ctx_bytes = sizeof(pdb_ctx_t),
    .init = pdb_init,
    .eval = pdb_eval,
    .update = pdb_update,
    .update_limit = pdb_update_limit,
    .max_estimate = pdb_max_estimate,
    .tables = pdb_tables,
};

const heuristic_ops_t cube3_pdb_small_heuristic = {
    .name = "pdb-small",
    .summary = "smaller pattern databases (about 75 MB): max of corners "
               "and of E-slice edge places with all flips and twists on "
               "three axes",
    .admissible = true,
    .ctx_bytes = sizeof(pdb_ctx_t),
    .init = pdb_small_init,
    .eval = pdb_eval,
    .update = pdb_update,
    .update_limit = pdb_update_limit,
    .max_estimate = pdb_max_estimate,
    .tables = pdb_small_tables,
};

const heuristic_ops_t cube3_pdb_large_heuristic = {
    .name = "pdb-large",
    .summary = "larger pattern databases (2-bit, about 2.5 GB): max of "
               "corners and of E-slice edge places with U-layer corner "
               "places, all flips and twists on three axes",
    .admissible = true,
    .ctx_bytes = sizeof(pdb_ctx_t),
    .init = pdb_large_init,
    .eval = pdb_eval,
    .update = pdb_update,
    .update_limit = pdb_update_limit,
    .max_estimate = pdb_max_estimate,
    .tables = pdb_large_tables,
};

const heuristic_ops_t cube3_pdb_huge_heuristic = {
    .name = "pdb-huge",
    .summary = "largest pattern database (2-bit, about 7.2 GB): corner "
               "tetrads and twists with edge slices and flips up to whole "
               "slices, reduced by all 48 symmetries, of the state and of "
               "its inverse, with the small tables' corners and E-slice "
               "places on three axes",
    .admissible = true,
    .ctx_bytes = sizeof(pdb_ctx_t),
    .init = pdb_huge_init,
    .eval = pdb_eval,
    .update = pdb_update,
    .update_limit = pdb_update_limit,
    .max_estimate = pdb_max_estimate,
    .tables = pdb_huge_tables,
};

/* IDA* with the pattern databases searching each thread's subtrees in
 * interleaved lanes (pdb_search); with any other heuristic, the generic
 * engine's own search. */
static int
idastar_solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    const heuristic_ops_t *h =
        ctx->heuristic != NULL ? ctx->heuristic->ops : NULL;
    bool pdb = h == &cube3_pdb_heuristic || h == &cube3_pdb_small_heuristic ||
               h == &cube3_pdb_large_heuristic ||
               h == &cube3_pdb_huge_heuristic;

    return idastar_solve_with(ctx, out, pdb ? pdb_search : NULL);
}

const engine_ops_t cube3_idastar_engine = {
    .name = "idastar",
    .summary = "with the pattern databases, each thread searches several "
               "subtrees in interleaved lanes so that table misses overlap",
    .optimal = true,
    .uses_heuristic = true,
    .subsets = true,
    .several = true,
    .threads = true,
    .solve = idastar_solve,
};
