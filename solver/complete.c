/* SPDX-License-Identifier: MIT */
/* complete.c - complete distance tables: definition, walk down, "exact". */

/*
 * Design. A puzzle that ranks its states (puzzle_ranking_t count, rank,
 * unrank) gets a table with the distance of every rank from the default
 * goal, 4 bits per entry (8 when a distance passes 14, as for the
 * 8-puzzle), 15 (255) for ranks never reached. It is built by
 * breadth-first search over the rank indices, one layer per pass: a
 * forward pass expands the ranks at depth d, and once fewer ranks are
 * left unseen than the layer holds, a backward pass instead gives depth
 * d + 1 to every unseen rank with a neighbour at depth d (moves are
 * invertible, so the graph is undirected). The backward passes make the
 * last, biggest layers cheap.
 *
 * An optimal solution walks down: from distance d, some move reaches
 * distance d - 1; take the first one found and repeat. A goal other than
 * the default uses the shared table through the puzzle's relabel op when
 * it has one (pieces renamed after their places in the goal, which
 * commutes with the moves); otherwise a private table is built for that
 * goal and charged to the job.
 *
 * A partial rank (the pyraminx ranks everything but its tips) leaves a
 * remainder once the walk reaches distance 0: the parts that moves keeping
 * the rank (the tip turns) fix independently. A small iterative-deepening
 * search over exactly those moves finishes the solution; as the puzzle
 * documents those parts as independent of the rest, the sum is optimal.
 */
#include "complete.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "search.h"
#include "tables/bfs.h"

/* Rank spaces larger than this get no complete table (about 64 M
 * entries: 32 MiB at 4 bits, a few seconds to build). */
#define COMPLETE_MAX (UINT64_C(1) << 26)

/* Deepest remainder search for a partial rank (the pyraminx needs 4). */
#define REMAINDER_MAX 8

bool
complete_possible(const pz_puzzle_t *p)
{
    uint64_t n = puzzle_rank_count(p);

    return n > 0 && n <= COMPLETE_MAX;
}

/* The puzzle whose ranks a complete table's search walks: every rank is
 * a row of one entry, and a move takes it to the child's rank. */
typedef struct ranks {
    const pz_puzzle_t *p;
} ranks_t;

/* Column 0 of a one-entry row goes to column 0 of its target. */
static const uint16_t same_column = 0;

static void
rank_moves(void *arg, uint64_t row, tables_bfs_edge_t *out, void *scratch)
{
    const ranks_t *rk = arg;
    const pz_puzzle_t *p = rk->p;
    pz_state_t s;

    (void)scratch;
    state_clear(&s);
    puzzle_unrank(p, row, &s);
    for (int m = 0; m < p->nmoves; m++) {
        pz_state_t c;

        out[m].map = &same_column;
        out[m].row =
            puzzle_apply(p, &s, m, &c) ? puzzle_rank(p, &c) : TABLES_BFS_NO_ROW;
    }
}

/* Breadth-first search from goal over the ranks of p into data (entries
 * of bits each, 15 or 255 for a rank never reached) with the tables
 * module's builder. b is the build to report progress to and to cancel
 * by (NULL: a private table, built for one job on its own thread).
 * PZ_ERANGE when a distance does not fit bits. */
static int
bfs(const pz_puzzle_t *p,
    const pz_state_t *goal,
    uint8_t *data,
    int bits,
    tables_build_t *b,
    int *max_out)
{
    ranks_t rk = { p };
    uint64_t start = puzzle_rank(p, goal);
    tables_bfs_spec_t spec = { 0 };
    tables_bfs_result_t res;
    int rc;

    spec.nrows = puzzle_rank_count(p);
    spec.rowlen = 1;
    spec.nmoves = p->nmoves;
    spec.moves = rank_moves;
    spec.arg = &rk;
    spec.code = bits == 8 ? TABLES_BFS_EXACT8 : TABLES_BFS_EXACT4;
    spec.data = data;
    spec.goals = &start;
    spec.ngoals = 1;
    rc = tables_bfs_run(&spec, b, &res);
    if (rc == PZ_OK) {
        *max_out = res.max_depth;
    }
    return rc;
}

/* A puzzle instance with a complete table: what its build instantiates,
 * and its definition (so a solve finds the table without formatting its
 * name). Entries are written under sources_lock and published by the
 * count; they never change afterwards. */
typedef struct source {
    const puzzle_ops_t *ops;
    char id[24];
    pz_params_t params;
    tables_def_t def;   /* def.arg points back here */
    atomic_bool in_use; /* a search got the table: it stays in memory */
} source_t;

#define SOURCES_MAX 32

static source_t sources[SOURCES_MAX];
static atomic_int nsources;
static pthread_mutex_t sources_lock = PTHREAD_MUTEX_INITIALIZER;

static int
complete_build(const tables_def_t *def,
               uint8_t *data,
               int bits,
               int *max_value,
               tables_build_t *b)
{
    const source_t *src = def->arg;
    pz_puzzle_t *p = NULL;
    pz_state_t goal;
    int rc;

    rc = puzzle_create(src->id, &src->params, &p, NULL);
    if (rc != PZ_OK) {
        return rc;
    }
    puzzle_goal(p, &goal);
    rc = bfs(p, &goal, data, bits, b, max_value);
    puzzle_destroy(p);
    return rc;
}

/* Fills def (not its arg) for p. */
static void
fill_def(const pz_puzzle_t *p, tables_def_t *def)
{
    int n;

    memset(def, 0, sizeof(*def));
    if (p->size[0] != '\0') {
        n = snprintf(def->name, sizeof(def->name), "%s-%s", p->id, p->size);
        snprintf(def->puzzle, sizeof(def->puzzle), "%.15s %.15s", p->id,
                 p->size);
    } else {
        n = snprintf(def->name, sizeof(def->name), "%s", p->id);
        snprintf(def->puzzle, sizeof(def->puzzle), "%.15s %.15s", p->id,
                 p->metric_name != NULL ? p->metric_name : "");
    }
    /* The metric is part of the name unless the puzzle has one kind of
     * move only. */
    if (p->metric_name != NULL && strcmp(p->metric_name, "moves") != 0) {
        snprintf(def->name + n, sizeof(def->name) - (size_t)n, "-%s",
                 p->metric_name);
    }
    snprintf(def->group, sizeof(def->group), "%s", p->id);
    def->kind = TABLES_KIND_COMPLETE;
    def->bits = puzzle_distance_bits(p);
    def->widen = true;
    def->entries = puzzle_rank_count(p);
    /* The daemon builds the small puzzles' tables at start. */
    def->startup = true;
    def->build = complete_build;
}

static bool
same_instance(const source_t *s, const pz_puzzle_t *p)
{
    return s->ops == p->ops && s->params.rows == p->params.rows &&
           s->params.cols == p->params.cols && s->params.metric == p->metric;
}

/* The source of p, added if new; NULL when p has no complete table or
 * there are too many instances. */
static source_t *
source_of(const pz_puzzle_t *p)
{
    int n = atomic_load_explicit(&nsources, memory_order_acquire);
    source_t *s = NULL;

    for (int i = 0; i < n; i++) {
        if (same_instance(&sources[i], p)) {
            return &sources[i];
        }
    }
    if (!complete_possible(p)) {
        return NULL;
    }
    pthread_mutex_lock(&sources_lock);
    n = atomic_load(&nsources);
    for (int i = 0; i < n; i++) {
        if (same_instance(&sources[i], p)) {
            s = &sources[i];
        }
    }
    if (s == NULL && n < SOURCES_MAX) {
        s = &sources[n];
        s->ops = p->ops;
        snprintf(s->id, sizeof(s->id), "%s", p->id);
        s->params = p->params;
        fill_def(p, &s->def);
        s->def.arg = s;
        atomic_store_explicit(&nsources, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&sources_lock);
    return s;
}

int
complete_def(const pz_puzzle_t *p, tables_def_t *def)
{
    const source_t *s = source_of(p);

    if (s == NULL) {
        return PZ_EUNSUPPORTED;
    }
    *def = s->def;
    return PZ_OK;
}

/* True when goal is p's default goal up to relabelling (or is NULL);
 * *relabel says whether states must be relabelled. */
static bool
goal_is_default(const pz_puzzle_t *p, const pz_state_t *goal, bool *relabel)
{
    pz_state_t g0;
    pz_state_t tmp;

    *relabel = false;
    if (goal == NULL) {
        return true;
    }
    puzzle_goal(p, &g0);
    if (puzzle_equal(p, goal, &g0)) {
        return true;
    }
    if (!puzzle_can_relabel(p)) {
        return false;
    }
    state_clear(&tmp);
    if (!puzzle_relabel(p, goal, goal, &tmp) || !puzzle_equal(p, &tmp, &g0)) {
        return false;
    }
    *relabel = true;
    return true;
}

int
complete_named(const char *group,
               const char *name,
               const pz_params_t *prm,
               tables_def_t *out,
               int max)
{
    pz_puzzle_t *p = NULL;
    int n = 0;

    if (max > 0 && puzzle_create(name, prm, &p, NULL) == PZ_OK &&
        complete_def(p, out) == PZ_OK) {
        snprintf(out->group, sizeof(out->group), "%s", group);
        n = 1;
    }
    puzzle_destroy(p);
    return n;
}

bool
complete_shared(const pz_puzzle_t *p, const pz_state_t *goal)
{
    bool relabel;

    return complete_possible(p) && goal_is_default(p, goal, &relabel);
}

/* The shared table of p. */
static int
shared_table(const pz_puzzle_t *p, tables_view_t *out)
{
    source_t *s = source_of(p);
    int rc;

    if (s == NULL) {
        return PZ_EUNSUPPORTED;
    }
    rc = tables_get(&s->def, out, NULL);
    if (rc == PZ_OK) {
        atomic_store_explicit(&s->in_use, true, memory_order_release);
    }
    return rc;
}

bool
complete_in_memory(const pz_puzzle_t *p, const pz_state_t *goal)
{
    const source_t *s;

    if (!complete_shared(p, goal) || (s = source_of(p)) == NULL) {
        return false;
    }
    return atomic_load_explicit(&s->in_use, memory_order_acquire);
}

int
complete_needs(const pz_puzzle_t *p,
               const pz_state_t *goal,
               const char **names,
               int max)
{
    const source_t *s;
    const char *name;

    if (!complete_shared(p, goal) || (s = source_of(p)) == NULL) {
        return 0;
    }
    name = tables_register(&s->def);
    if (name == NULL) {
        return 0;
    }
    if (max > 0) {
        names[0] = name;
    }
    return 1;
}

int
complete_counts(const pz_puzzle_t *p, uint64_t *counts, int ncounts)
{
    tables_view_t t;
    int unseen;
    int rc = shared_table(p, &t);

    if (rc != PZ_OK) {
        return rc;
    }
    unseen = (1 << t.bits) - 1;
    for (int d = 0; d < ncounts; d++) {
        counts[d] = 0;
    }
    for (uint64_t i = 0; i < t.entries; i++) {
        int v = tables_entry(t.data, t.bits, i);

        if (v != unseen && v < ncounts) {
            counts[v]++;
        }
    }
    return t.max_value + 1;
}

/* Prepares td; a private table goes into spare (spare_len bytes) when
 * given, else into memory from budget. */
static int
dist_init(complete_dist_t *td,
          const pz_puzzle_t *p,
          const pz_state_t *goal,
          pz_budget_t *budget,
          uint8_t *spare,
          size_t spare_len)
{
    bool relabel;
    int max;
    int rc;

    memset(td, 0, sizeof(*td));
    td->puzzle = p;
    td->partial = puzzle_rank_partial(p);
    td->goal = *goal;
    if (!complete_possible(p)) {
        return PZ_EUNSUPPORTED;
    }
    if (goal_is_default(p, goal, &relabel)) {
        tables_view_t t;

        rc = shared_table(p, &t);
        if (rc != PZ_OK) {
            return rc;
        }
        td->table = t.data;
        td->bits = t.bits;
        td->relabel = relabel;
        puzzle_goal(p, &td->target);
        return PZ_OK;
    }
    /* A goal the shared table cannot serve: a table of its own, one byte
     * per entry so no distance can overflow it. */
    td->bits = 8;
    td->own_bytes = tables_data_bytes(puzzle_rank_count(p), 8);
    if (spare != NULL) {
        if (spare_len < td->own_bytes) {
            return PZ_EINTERNAL;
        }
        td->own = spare;
    } else {
        td->own = budget_alloc(budget, td->own_bytes);
        if (td->own == NULL) {
            return PZ_ENOMEM;
        }
        td->own_charged = true;
    }
    td->target = *goal;
    rc = bfs(p, goal, td->own, 8, NULL, &max);
    if (rc != PZ_OK) {
        complete_dist_cleanup(td, budget);
    }
    return rc;
}

int
complete_dist_init(complete_dist_t *td,
                   const pz_puzzle_t *p,
                   const pz_state_t *goal,
                   pz_budget_t *budget)
{
    return dist_init(td, p, goal, budget, NULL, 0);
}

void
complete_dist_cleanup(complete_dist_t *td, pz_budget_t *budget)
{
    if (td->own != NULL && td->own_charged) {
        budget_free(budget, td->own, td->own_bytes);
    }
    td->own = NULL;
    td->own_charged = false;
    td->table = NULL;
}

/* Distance of the rank of s, s already in the table's terms. */
static inline int
raw_lookup(const complete_dist_t *td, const pz_state_t *s)
{
    const pz_puzzle_t *p = td->puzzle;
    const uint8_t *data = td->table != NULL ? td->table : td->own;

    return tables_entry(data, td->bits, puzzle_rank(p, s));
}

/* s in the table's terms. */
static void
to_table_terms(const complete_dist_t *td, const pz_state_t *s, pz_state_t *out)
{
    if (td->relabel) {
        state_clear(out);
        puzzle_relabel(td->puzzle, &td->goal, s, out);
    } else {
        *out = *s;
    }
}

int
complete_dist_lookup(const complete_dist_t *td, const pz_state_t *s)
{
    pz_state_t t;

    to_table_terms(td, s, &t);
    return raw_lookup(td, &t);
}

/* Depth-first search for the target within limit moves that keep the
 * rank (mask keep), pruned like the engines' searches (no inverse pair,
 * no redundant pair after prev: the pyraminx's tip turns in one order,
 * once each); appends to moves. */
static bool
finish(const complete_dist_t *td,
       const pz_state_t *s,
       uint64_t keep,
       int prev,
       int limit,
       uint8_t *moves,
       uint64_t *probes)
{
    const pz_puzzle_t *p = td->puzzle;
    uint64_t todo = keep & puzzle_allowed_after(p, prev);

    if (puzzle_equal(p, s, &td->target)) {
        return true;
    }
    if (limit == 0) {
        return false;
    }
    while (todo != 0) {
        int m = __builtin_ctzll(todo);
        pz_state_t c;

        todo &= todo - 1;
        if (!puzzle_apply(p, s, m, &c)) {
            continue;
        }
        (*probes)++;
        if (finish(td, &c, keep, m, limit - 1, moves + 1, probes)) {
            moves[0] = (uint8_t)m;
            return true;
        }
    }
    return false;
}

/* The moves that keep the rank of s: for a partial rank, the moves that
 * only touch the unranked parts (the pyraminx's tip turns). */
static uint64_t
keep_mask(const complete_dist_t *td, const pz_state_t *s)
{
    const pz_puzzle_t *p = td->puzzle;
    uint64_t r = puzzle_rank(p, s);
    uint64_t keep = 0;

    for (int m = 0; m < p->nmoves; m++) {
        pz_state_t c;

        if (puzzle_apply(p, s, m, &c) && puzzle_rank(p, &c) == r) {
            keep |= UINT64_C(1) << m;
        }
    }
    return keep;
}

/* Finishes a partial-rank walk at s (distance 0): the fewest moves that
 * keep the rank and reach the target. Returns their count or -1. */
static int
finish_remainder(const complete_dist_t *td,
                 const pz_state_t *s,
                 uint64_t keep,
                 uint8_t *moves,
                 uint64_t *probes)
{
    for (int limit = 0; limit <= REMAINDER_MAX; limit++) {
        if (finish(td, s, keep, -1, limit, moves, probes)) {
            return limit;
        }
    }
    return -1;
}

int
complete_dist_solve(const complete_dist_t *td,
                    const pz_state_t *start,
                    uint8_t *moves,
                    uint64_t *probes)
{
    const pz_puzzle_t *p = td->puzzle;
    const int unseen = (1 << td->bits) - 1;
    uint64_t keep = 0;
    uint64_t n = 0;
    pz_state_t s;
    int len = 0;
    int d;

    to_table_terms(td, start, &s);
    d = raw_lookup(td, &s);
    if (d == unseen || d >= PZ_SOLUTION_MAX) {
        return PZ_EINTERNAL;
    }
    /* Moves that keep the rank never lower the distance: the walk skips
     * them and the finishing search uses only them. */
    if (td->partial) {
        keep = keep_mask(td, &s);
    }
    while (d > 0) {
        bool found = false;

        for (int m = 0; m < p->nmoves && !found; m++) {
            pz_state_t c;

            if ((keep >> m & 1) || !puzzle_apply(p, &s, m, &c)) {
                continue;
            }
            n++;
            if (raw_lookup(td, &c) == d - 1) {
                moves[len++] = (uint8_t)m;
                s = c;
                d--;
                found = true;
            }
        }
        if (!found) {
            return PZ_EINTERNAL;
        }
    }
    if (td->partial && !puzzle_equal(p, &s, &td->target)) {
        int k;

        if (len + REMAINDER_MAX > PZ_SOLUTION_MAX) {
            return PZ_EINTERNAL;
        }
        k = finish_remainder(td, &s, keep, moves + len, &n);
        if (k < 0) {
            return PZ_EINTERNAL;
        }
        len += k;
    }
    if (probes != NULL) {
        *probes = n;
    }
    return len;
}

/* ------------------------------------------------------------------------ */
/* The "exact" heuristic */

/* The oracle, then room for a private table (used only for goals the
 * shared table cannot serve; calloc'd pages are not touched otherwise). */
typedef struct exact_ctx {
    complete_dist_t td;
    size_t spare_len;
    uint8_t spare[];
} exact_ctx_t;

static size_t
exact_ctx_size(const pz_puzzle_t *p)
{
    size_t spare =
        complete_possible(p) ? tables_data_bytes(puzzle_rank_count(p), 8) : 0;

    return sizeof(exact_ctx_t) + spare;
}

static int
exact_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    exact_ctx_t *c = ctx;

    c->spare_len = exact_ctx_size(p) - sizeof(exact_ctx_t);
    return dist_init(&c->td, p, goal, NULL, c->spare, c->spare_len);
}

static int
exact_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const exact_ctx_t *c = ctx;
    uint8_t moves[PZ_SOLUTION_MAX];
    int len;

    (void)p;
    if (!c->td.partial) {
        return complete_dist_lookup(&c->td, s);
    }
    /* The unranked parts need the finishing search: the exact value is
     * the length of the optimal solution. */
    len = complete_dist_solve(&c->td, s, moves, NULL);
    return len < 0 ? 0 : len;
}

const heuristic_ops_t complete_heuristic_exact = {
    .name = "exact",
    .summary = "the true distance, read from a complete distance table "
               "(a shared table, see GET /v1/tables)",
    .admissible = true,
    .ctx_size = exact_ctx_size,
    .init = exact_init,
    .eval = exact_eval,
    .update = NULL,
    .tables = complete_needs,
    .supports = complete_possible,
    .unavailable = "a complete table needs a puzzle that ranks its states, "
                   "at most 67,108,864 of them",
};
