/* SPDX-License-Identifier: MIT */
/* pdb.c - the "pdb" heuristics of the 3x3x3: shared tables, lookups, cache. */

/*
 * Design: h is the maximum of four pattern distances, each a lower bound
 * of the cube's distance: the corners, and the slice pattern (E-slice
 * edges, every flip, every twist) seen along the U-D, R-L and F-B axes
 * (the cube conjugated by a rotation that takes that axis to U-D). A
 * maximum of admissible, consistent estimates is admissible and
 * consistent. For a goal other than solved the state is first relabelled
 * by the goal's inverse (g^-1 * s is solved exactly when s is the goal,
 * and moves act on the right, so distances are kept).
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
 * two searches never share it.
 *
 * Inverse lookups (h(s^-1), the inverse having the same distance) are not
 * used. The corners form a group whose distance is the same for a
 * position and its inverse, so that lookup would only repeat itself. The
 * slice patterns are cosets of a subgroup that is not normal: the
 * inverse's pattern is new information, but a move multiplies the
 * inverse on the left, which can change its pattern distance by more
 * than one, so residues mod 3 cannot be decoded along the path.
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

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cube3.h"
#include "pdb_internal.h"

enum {
    NLOOK = 4,       /* corners, slice on three axes */
    SHADOW_MAX = 64, /* path nodes kept per thread */
};

/* --- Process-wide tables ---------------------------------------------- */

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pdb_base_t *g_base;                       /* under g_lock */
static pdb_slice_t g_slice[2];                   /* unsorted, sorted */
static bool g_slice_ready[2];                    /* under g_lock */
static pdb_table_t g_table[CUBE3_PDB_NKINDS][2]; /* [kind][qtm] */
static atomic_bool g_ready[CUBE3_PDB_NKINDS][2];
static int g_rc[CUBE3_PDB_NKINDS][2]; /* build failures */
static atomic_size_t g_bytes;         /* all of the above */
static atomic_uint_fast64_t g_next_id;

/* Builds what table kind/qtm needs; call with g_lock held. */
static int
build_locked(int kind, bool qtm)
{
    int s = kind == CUBE3_PDB_SORTED;
    int rc;

    if (g_base == NULL) {
        pdb_base_t *pb = malloc(sizeof(*pb));

        if (pb == NULL) {
            return PZ_ENOMEM;
        }
        rc = cube3_pdb__sym_init(&pb->sy);
        if (rc == PZ_OK) {
            rc = cube3_pdb__coord_init(&pb->co, &pb->sy);
        }
        if (rc != PZ_OK) {
            free(pb);
            return rc;
        }
        g_base = pb;
        atomic_fetch_add(&g_bytes, sizeof(*pb));
    }
    if (kind != CUBE3_PDB_CORNERS && !g_slice_ready[s]) {
        rc = cube3_pdb__slice_init(&g_slice[s], &g_base->co, &g_base->sy,
                                   s != 0);
        if (rc != PZ_OK) {
            return rc;
        }
        g_slice_ready[s] = true;
        atomic_fetch_add(&g_bytes, (size_t)g_slice[s].nraw *
                                       (sizeof(*g_slice[s].move) + 7));
    }
    rc = cube3_pdb__table_build(&g_table[kind][qtm], kind, qtm, g_base,
                                kind == CUBE3_PDB_CORNERS ? NULL : &g_slice[s]);
    if (rc != PZ_OK) {
        cube3_pdb__table_free(&g_table[kind][qtm]);
        return rc;
    }
    atomic_fetch_add(&g_bytes, g_table[kind][qtm].bytes);
    return PZ_OK;
}

/* The built table kind/qtm, building it on first use. */
static int
get_table(int kind, bool qtm, const pdb_table_t **out)
{
    int rc = PZ_OK;

    *out = NULL;
    if (kind < 0 || kind >= CUBE3_PDB_NKINDS) {
        return PZ_EINVAL;
    }
    if (!atomic_load_explicit(&g_ready[kind][qtm], memory_order_acquire)) {
        pthread_mutex_lock(&g_lock);
        if (!atomic_load_explicit(&g_ready[kind][qtm], memory_order_relaxed)) {
            rc = g_rc[kind][qtm];
            if (rc == PZ_OK) {
                rc = build_locked(kind, qtm);
            }
            if (rc == PZ_OK) {
                atomic_store_explicit(&g_ready[kind][qtm], true,
                                      memory_order_release);
            } else if (rc != PZ_ENOMEM) {
                /* A bug, not a passing shortage: do not retry. */
                g_rc[kind][qtm] = rc;
            }
        }
        pthread_mutex_unlock(&g_lock);
        if (rc != PZ_OK) {
            return rc;
        }
    }
    *out = &g_table[kind][qtm];
    return PZ_OK;
}

int
cube3_pdb_table(int kind, bool qtm, cube3_pdb_info_t *out)
{
    const pdb_table_t *t;
    int rc = get_table(kind, qtm, &t);

    if (rc != PZ_OK || out == NULL) {
        return rc;
    }
    memset(out, 0, sizeof(*out));
    out->entries = t->entries;
    out->bytes = t->bytes;
    out->max_depth = t->maxdepth;
    memcpy(out->counts, t->counts, sizeof(out->counts));
    out->build_seconds = t->build_seconds;
    return PZ_OK;
}

int
cube3_pdb_distance(int kind, bool qtm, const pz_state_t *s)
{
    const pdb_table_t *t;
    int rc = get_table(kind, qtm, &t);
    int d;

    if (rc != PZ_OK) {
        return rc;
    }
    d = cube3_pdb__exact(t, g_base, s->b);
    return d < 0 ? PZ_EINTERNAL : d;
}

size_t
cube3_pdb_memory_bytes(void)
{
    return atomic_load(&g_bytes);
}

/* --- The heuristic ------------------------------------------------------ */

typedef struct pdb_ctx {
    const pdb_base_t *pb;
    const pdb_table_t *corners;
    const pdb_table_t *slice;
    uint64_t id;    /* unique per init: keys the shadow */
    bool qtm;       /* raise estimates to the right parity */
    bool relabel;   /* goal is not the solved cube */
    uint8_t lc[24]; /* corner byte -> byte of goal^-1 * s */
    uint8_t le[24]; /* edge byte -> byte of goal^-1 * s */
} pdb_ctx_t;

/* One node of the search path with its exact pattern distances. */
typedef struct shadow_node {
    uint8_t s[20];    /* the state as the engine has it */
    uint8_t v[NLOOK]; /* exact distances */
} shadow_node_t;

/* The calling thread's view of the path of its current search. */
typedef struct shadow {
    uint64_t id; /* ctx it belongs to; 0: none */
    int top;     /* nodes in stack */
    bool has_last;
    shadow_node_t last;              /* the last child evaluated */
    shadow_node_t stack[SHADOW_MAX]; /* the path, root first */
} shadow_t;

static _Thread_local shadow_t t_shadow;

static size_t
pdb_ctx_size(const pz_puzzle_t *p)
{
    (void)p;
    return sizeof(pdb_ctx_t);
}

static int
init_common(const pz_puzzle_t *p,
            const pz_state_t *goal,
            void *vctx,
            int slice_kind)
{
    pdb_ctx_t *c = vctx;
    bool qtm = p->metric == PZ_METRIC_QTM;
    cube3_cubie_t g;
    cube3_cubie_t ginv;
    int rc;

    if (p->state_size != CUBE3_STATE_BYTES ||
        cube3_cubie_from_state(goal, &g) != PZ_OK ||
        cube3_cubie_check(&g, NULL) != PZ_OK) {
        return PZ_EINVAL;
    }
    rc = get_table(CUBE3_PDB_CORNERS, qtm, &c->corners);
    if (rc == PZ_OK) {
        rc = get_table(slice_kind, qtm, &c->slice);
    }
    if (rc != PZ_OK) {
        return rc;
    }
    c->pb = g_base;
    c->qtm = qtm;
    c->id = atomic_fetch_add(&g_next_id, 1) + 1;
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
    return PZ_OK;
}

static int
pdb_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    return init_common(p, goal, ctx, CUBE3_PDB_SORTED);
}

static int
pdb_small_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    return init_common(p, goal, ctx, CUBE3_PDB_SLICE);
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

/* The patterns' states of x: where lookup k reads. */
static void
pattern_states(const pdb_ctx_t *c, const uint8_t *x, uint8_t st[NLOOK][20])
{
    const pdb_sym_t *sy = &c->pb->sy;

    memcpy(st[0], x, 20);
    memcpy(st[1], x, 20);
    cube3_pdb__map(&sy->conj[sy->axis[1]], x, st[2]);
    cube3_pdb__map(&sy->conj[sy->axis[2]], x, st[3]);
}

static const pdb_table_t *
table_of(const pdb_ctx_t *c, int k)
{
    return k == 0 ? c->corners : c->slice;
}

/* Exact values of x from scratch. */
static void
values_slow(const pdb_ctx_t *c, const uint8_t *x, uint8_t *v)
{
    uint8_t st[NLOOK][20];

    pattern_states(c, x, st);
    for (int k = 0; k < NLOOK; k++) {
        int d = cube3_pdb__exact(table_of(c, k), c->pb, st[k]);

        /* A failed walk is a bug; 0 keeps the estimate admissible. */
        v[k] = (uint8_t)(d < 0 ? 0 : d);
    }
}

/* Exact values of x from a neighbour's exact values vp. */
static void
values_from(const pdb_ctx_t *c, const uint8_t *vp, const uint8_t *x, uint8_t *v)
{
    uint8_t st[NLOOK][20];
    uint64_t idx[NLOOK];

    pattern_states(c, x, st);
    for (int k = 0; k < NLOOK; k++) {
        const pdb_table_t *t = table_of(c, k);

        idx[k] = cube3_pdb__index(t, c->pb, st[k]);
        __builtin_prefetch(&t->data[idx[k] >> 2]);
    }
    for (int k = 0; k < NLOOK; k++) {
        int code = cube3_pdb__code(table_of(c, k), idx[k]);
        int diff = (code - vp[k] % 3 + 3) % 3;

        v[k] = (uint8_t)(code == 3   ? 0
                         : diff == 0 ? vp[k]
                         : diff == 1 ? vp[k] + 1
                         : vp[k] > 0 ? vp[k] - 1
                                     : 0);
    }
}

static int
combine(const pdb_ctx_t *c, const uint8_t *v)
{
    int h = 0;

    for (int k = 0; k < NLOOK; k++) {
        h = v[k] > h ? v[k] : h;
    }
    /* v[0], an exact corner distance, has the parity of every QTM
     * solution. */
    if (c->qtm && ((h ^ v[0]) & 1)) {
        h++;
    }
    return h;
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

/* Exact values of state s (engine form): from the path, the last child,
 * or from scratch; s becomes the top of the path. */
static const uint8_t *
values_of_parent(const pdb_ctx_t *c, shadow_t *sh, const uint8_t *s)
{
    shadow_node_t *n;

    if (sh->top > 0 && memcmp(sh->stack[sh->top - 1].s, s, 20) == 0) {
        return sh->stack[sh->top - 1].v;
    }
    if (sh->has_last && memcmp(sh->last.s, s, 20) == 0) {
        if (sh->top == SHADOW_MAX) {
            /* Keep the newer half; deeper paths only cost recomputing. */
            memmove(sh->stack, sh->stack + SHADOW_MAX / 2,
                    (SHADOW_MAX / 2) * sizeof(shadow_node_t));
            sh->top = SHADOW_MAX / 2;
        }
        sh->stack[sh->top++] = sh->last;
        sh->has_last = false;
        return sh->stack[sh->top - 1].v;
    }
    for (int i = sh->top - 2; i >= 0; i--) {
        if (memcmp(sh->stack[i].s, s, 20) == 0) {
            sh->top = i + 1;
            return sh->stack[i].v;
        }
    }
    n = &sh->stack[0];
    memcpy(n->s, s, 20);
    {
        uint8_t x[20];

        relabel(c, s, x);
        values_slow(c, x, n->v);
    }
    sh->top = 1;
    return n->v;
}

static int
pdb_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const pdb_ctx_t *c = ctx;
    shadow_t *sh = shadow_for(c);
    uint8_t x[20];

    (void)p;
    if (sh->has_last && memcmp(sh->last.s, s->b, 20) == 0) {
        return combine(c, sh->last.v);
    }
    for (int i = sh->top - 1; i >= 0; i--) {
        if (memcmp(sh->stack[i].s, s->b, 20) == 0) {
            return combine(c, sh->stack[i].v);
        }
    }
    relabel(c, s->b, x);
    memcpy(sh->last.s, s->b, 20);
    values_slow(c, x, sh->last.v);
    sh->has_last = true;
    return combine(c, sh->last.v);
}

static int
pdb_update(const pz_puzzle_t *p,
           const void *ctx,
           const pz_state_t *parent,
           int h_parent,
           int move,
           const pz_state_t *child)
{
    const pdb_ctx_t *c = ctx;
    shadow_t *sh = shadow_for(c);
    const uint8_t *vp;
    uint8_t x[20];
    uint8_t v[NLOOK];

    (void)p;
    (void)h_parent;
    (void)move;
    vp = values_of_parent(c, sh, parent->b);
    relabel(c, child->b, x);
    values_from(c, vp, x, v);
    memcpy(sh->last.s, child->b, 20);
    memcpy(sh->last.v, v, NLOOK);
    sh->has_last = true;
    return combine(c, v);
}

const heuristic_ops_t cube3_pdb_heuristic = {
    .name = "pdb",
    .summary = "pattern databases (2-bit, built once per process, about "
               "0.9 GB): max of corners and of E-slice edges in order with "
               "all flips and twists on three axes",
    .admissible = true,
    .ctx_size = pdb_ctx_size,
    .init = pdb_init,
    .eval = pdb_eval,
    .update = pdb_update,
};

const heuristic_ops_t cube3_pdb_small_heuristic = {
    .name = "pdb-small",
    .summary = "smaller pattern databases (about 75 MB): max of corners "
               "and of E-slice edge places with all flips and twists on "
               "three axes",
    .admissible = true,
    .ctx_size = pdb_ctx_size,
    .init = pdb_small_init,
    .eval = pdb_eval,
    .update = pdb_update,
};
