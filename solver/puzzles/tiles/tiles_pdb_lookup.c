/* SPDX-License-Identifier: MIT */
/* tiles_pdb_lookup.c - the tiles' pattern database heuristics: "pdb"
 * (the regular lookups) and "pdb-dual" (and the dual board's). */
#include <string.h>

#include "tiles_pdb.h"
#include "tiles_pdb_internal.h"

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

    tiles_pdb__canonical(b, mask, z, &c);
    if (!tiles_pdb__def(b, &c, &def)) {
        return PZ_ENOMEM;
    }
    rc = tables_get(&def, &t, NULL);
    if (rc != PZ_OK) {
        return rc;
    }
    if (t.bits != 4) {
        return PZ_EINTERNAL;
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
    tiles_pdb__board_init(b, p->params.rows, p->params.cols);
    h->n = n;
    h->z = z;
    /* Every move takes the blank to a cell of the other colour of a
     * chessboard: a distance has the parity of the blank's. */
    for (int i = 0; i < n; i++) {
        h->odd[i] =
            (uint8_t)((i / b->cols + i % b->cols + z / b->cols + z % b->cols) &
                      1);
        for (int c = 0; c < n; c++) {
            h->md[i][c] =
                (uint8_t)(i == z ? 0 : tiles__cell_distance(i, c, b->cols));
        }
    }
    h->nparts = tiles_pdb__partitions(p->params.rows, p->params.cols, z, parts);
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

    tiles_pdb__canonical(b, mask, z, &c);
    if (tiles_pdb__def(b, &c, &def)) {
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
    tiles_pdb__board_init(&b, p->params.rows, p->params.cols);
    nparts = tiles_pdb__partitions(p->params.rows, p->params.cols, z, parts);
    for (int pi = 0; pi < nparts; pi++) {
        for (int i = 0; i < parts[pi].npat; i++) {
            n = list_table(&b, parts[pi].pat[i], z, names, n, max);
        }
    }
    return n;
}

/* The ranks (lookup_rank) with the processor's population count
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
    uint8_t pos[CELLS_MAX]; /* home cell -> the cell its tile is on */
    probe_t pr;
    int best;

    (void)p;
    for (int i = 0; i < h->n; i++) {
        pos[h->home[s->b[i]]] = (uint8_t)i;
    }
    pdb_index(h, pos, &pr);
    pr.md = pdb_md(h, pos);
    best = pdb_sum(h, &pr);
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
    int md;    /* the child's Manhattan distance */
    uint64_t idx[2];
} kid_t;

/*
 * The children op: a move slides one tile, which belongs to one pattern
 * of each partition, so a child's sum is its parent's with that
 * pattern's entry replaced and its rank derived from the parent's
 * (rank_moved), and its Manhattan distance its parent's with that
 * tile's term replaced. The parent's entries are read once (they were read when
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
    int md = 0;
    int nk = 0;

    for (int i = 0; i < h->n; i++) {
        cell[s->b[i]] = (uint8_t)i;
        md += h->md[h->home[s->b[i]]][i];
    }
    for (int pi = 0; pi < h->nparts; pi++) {
        for (int j = 0; j < h->part[pi].npat; j++) {
            const lookup_t *lk = &h->part[pi].pat[j];

            rank_of(lk, cell, &rk[pi][j]);
            val[pi][j] = pdb_entry(lk->data, rk[pi][j].x);
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
        k->md = md + h->md[h->home[k->tile]][bz] -
                h->md[h->home[k->tile]][k->blank];
        for (int pi = 0; pi < h->nparts; pi++) {
            const part_t *pt = &h->part[pi];
            int j = pt->owner[k->tile];
            const lookup_t *lk = &pt->pat[j];

            k->idx[pi] = rank_moved(lk, &rk[pi][j], pt->slot[k->tile],
                                    lk->map[k->blank], lk->map[bz]);
            __builtin_prefetch(&lk->data[k->idx[pi] >> 1]);
        }
        nk++;
    }
    for (int i = 0; i < nk; i++) {
        const kid_t *k = &kid[i];
        int best = 0;

        for (int pi = 0; pi < h->nparts; pi++) {
            const part_t *pt = &h->part[pi];
            int j = pt->owner[k->tile];
            int v =
                sum[pi] - val[pi][j] + pdb_entry(pt->pat[j].data, k->idx[pi]);

            best = v > best ? v : best;
        }
        best = k->md + 2 * best;
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
    tiles_pdb__board_init(&b, p->params.rows, p->params.cols);
    for (int bc = 0; bc < b.n; bc++) {
        int nparts = tiles_pdb__partitions(b.rows, b.cols, bc, parts);

        for (int pi = 0; pi < nparts; pi++) {
            for (int i = 0; i < parts[pi].npat; i++) {
                n = list_table(&b, parts[pi].pat[i], bc, names, n, max);
            }
        }
    }
    return n;
}

/* The lookups of the dual board of s into pr, each entry prefetched,
 * with md, s's Manhattan distance, or if negative the dual's own;
 * returns the databases they index. A lookup's tiles are numbered by
 * their home cells c in its goal (lk->cell), and the dual board holds
 * number c on the home of s's tile on cell c. */
EVAL_CLONES static const pdb_ctx_t *
dual_index(const dual_ctx_t *h, const pz_state_t *s, int md, probe_t *pr)
{
    const pdb_ctx_t *r = &h->reg;
    const pdb_ctx_t *g = &h->goal[s->b[r->n]];
    uint8_t pos[DUAL_CELLS];

    for (int c = 0; c < r->n; c++) {
        pos[c] = r->home[s->b[c]];
    }
    pdb_index(g, pos, pr);
    pr->md = md >= 0 ? md : pdb_md(g, pos);
    return g;
}

/* The dual estimate of s. */
static int
dual_eval_only(const dual_ctx_t *h, const pz_state_t *s)
{
    probe_t pr;
    const pdb_ctx_t *g = dual_index(h, s, -1, &pr);
    int best = pdb_sum(g, &pr);

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
    probe_t pr[PZ_MOVES_MAX];
    const pdb_ctx_t *g[PZ_MOVES_MAX];

    (void)h_parent;
    for (int i = 0; i < nk; i++) {
        if (hs[i] <= limit) {
            pz_state_t c;

            puzzle_apply(p, parent, kid[i].move, &c);
            g[i] = dual_index(h, &c, kid[i].md, &pr[i]);
        }
    }
    for (int i = 0; i < nk; i++) {
        int v = hs[i];

        if (v <= limit) {
            int dual = pdb_sum(g[i], &pr[i]);

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
