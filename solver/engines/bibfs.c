/* SPDX-License-Identifier: MIT */
/* bibfs.c - bidirectional breadth-first search over any invertible puzzle. */

/*
 * Design: one nodeset per side, the forward side rooted at the start and
 * the backward side at the goal. Each step expands one whole layer of the
 * side whose frontier is smaller; nodes are appended in BFS order, so a
 * frontier is the index range [lo, count). Backward, a predecessor of s by
 * move m is apply(s, inverse(m)) and the node records m itself, so every
 * recorded move reads forward: from a backward node, playing its move
 * reaches its parent, one step nearer the goal.
 *
 * Why the first meeting is optimal: before a layer is expanded, side F
 * holds every state within dF moves of the start and side B every state
 * within dB moves of the goal, and the two sets are disjoint (every state
 * was checked against the other side when it was added; the roots differ).
 * A path of length L <= dF + dB would put its state at position
 * min(L, dF) in both sets, so none exists. Expanding F's layer dF makes
 * states at distance dF + 1; one found in B at depth k gives a path of
 * length dF + 1 + k <= dF + 1 + dB, and since no path of length dF + dB or
 * less exists, it is exactly dF + dB + 1: the optimum. The same holds with
 * the roles swapped.
 *
 * Move pruning: forward, a node reached by m tries only
 * puzzle_allowed_after(m); backward, a node whose recorded move is m tries
 * only moves m' with m allowed after m' (the forward reading m' then m).
 * Layers stay complete for the reason given in astar.c.
 */
#include <stdint.h>
#include <string.h>

#include "engine_internal.h"
#include "nodeset.h"

typedef struct side {
    nodeset_t set;
    uint32_t lo; /* first index of the current frontier layer */
    int depth;   /* depth of the frontier layer */
} side_t;

typedef struct bibfs {
    const search_ctx_t *ctx;
    const pz_puzzle_t *p;
    side_t fwd;
    side_t bwd;
    /* back_allowed[m]: moves m' that may precede m (bit m' set when m is
     * in puzzle_allowed_after(m')); index nmoves is the root (all). */
    uint64_t back_allowed[PZ_MOVES_MAX + 1];
    int inverse[PZ_MOVES_MAX];
    search_meter_t meter;
} bibfs_t;

/* Where the two searches met: a forward node, the move joining it to a
 * backward node, and that backward node. */
typedef struct meeting {
    uint32_t fwd;
    int move;
    uint32_t bwd;
} meeting_t;

static void
prepare_masks(bibfs_t *b)
{
    const pz_puzzle_t *p = b->p;

    for (int m = 0; m < p->nmoves; m++) {
        uint64_t mask = 0;

        for (int prev = 0; prev < p->nmoves; prev++) {
            if (puzzle_allowed_after(p, prev) >> m & 1) {
                mask |= UINT64_C(1) << prev;
            }
        }
        b->back_allowed[m] = mask;
        b->inverse[m] = puzzle_inverse(p, m);
    }
    b->back_allowed[p->nmoves] = puzzle_allowed_after(p, -1);
}

/* Writes the path of a meeting into out. */
static void
build_path(const bibfs_t *b, const meeting_t *mt, pz_solution_t *out)
{
    int nf = nodeset_node(&b->fwd.set, mt->fwd)->g;
    uint32_t i = mt->fwd;
    int len = nf;

    for (int k = nf - 1; k >= 0; k--) {
        const nodeset_node_t *n = nodeset_node(&b->fwd.set, i);

        out->moves[k] = n->move;
        i = n->parent;
    }
    out->moves[len++] = (uint8_t)mt->move;
    for (i = mt->bwd; i != 0;) {
        const nodeset_node_t *n = nodeset_node(&b->bwd.set, i);

        out->moves[len++] = n->move;
        i = n->parent;
    }
    out->length = len;
}

/* Publishes frontier sizes and the bound. */
static void
publish(const bibfs_t *b)
{
    pz_stats_t *st = b->ctx->stats;
    uint64_t ff = b->fwd.set.count - b->fwd.lo;
    uint64_t fb = b->bwd.set.count - b->bwd.lo;

    if (st == NULL) {
        return;
    }
    atomic_store_explicit(&st->frontier_fwd, ff, memory_order_relaxed);
    atomic_store_explicit(&st->frontier_bwd, fb, memory_order_relaxed);
    atomic_store_explicit(&st->open_size, ff + fb, memory_order_relaxed);
    atomic_store_explicit(&st->depth_bound, b->fwd.depth + b->bwd.depth,
                          memory_order_relaxed);
}

/*
 * Expands the frontier layer of side me (forward when forward is true)
 * and checks each new state against side other. Returns RUNNING to go on,
 * SOLVED with *mt filled, another terminal status, or PZ_ENOMEM.
 */
static int
expand_layer(bibfs_t *b, bool forward, meeting_t *mt)
{
    side_t *me = forward ? &b->fwd : &b->bwd;
    side_t *other = forward ? &b->bwd : &b->fwd;
    const pz_puzzle_t *p = b->p;
    uint32_t hi = me->set.count;
    int g = me->depth + 1;
    pz_state_t s;
    pz_state_t child;

    state_clear(&s);
    state_clear(&child);
    for (uint32_t i = me->lo; i < hi; i++) {
        const nodeset_node_t *n = nodeset_node(&me->set, i);
        int prev = n->parent == NODESET_NONE ? p->nmoves : n->move;
        uint64_t allowed =
            forward ? p->allowed_after[prev] : b->back_allowed[prev];
        int status = search_tick(b->ctx, &b->meter);

        if (status != PZ_STATUS_RUNNING) {
            return status;
        }
        if ((b->meter.expanded & (PZ_POLL_INTERVAL - 1)) == 0) {
            publish(b);
        }
        nodeset_load(&me->set, i, &s);
        for (; allowed != 0; allowed &= allowed - 1) {
            int m = __builtin_ctzll(allowed);
            uint64_t hash;
            uint32_t found;
            nodeset_result_t r;
            nodeset_node_t *c;
            int rc;

            if (!puzzle_apply(p, &s, forward ? m : b->inverse[m], &child)) {
                continue;
            }
            b->meter.generated++;
            hash = nodeset_hash(&me->set, &child);
            found = nodeset_find(&other->set, &child, hash);
            if (found != NODESET_NONE) {
                mt->move = m;
                mt->fwd = forward ? i : found;
                mt->bwd = forward ? found : i;
                return PZ_STATUS_SOLVED;
            }
            rc = nodeset_add(&me->set, &child, hash, &r);
            if (rc != PZ_OK) {
                return rc;
            }
            if (!r.added) {
                b->meter.duplicates++;
                continue;
            }
            c = nodeset_node(&me->set, r.index);
            c->parent = i;
            c->move = (uint8_t)m;
            c->g = (uint16_t)g;
        }
    }
    me->lo = hi;
    me->depth = g;
    return PZ_STATUS_RUNNING;
}

static int
add_root(side_t *side, const search_ctx_t *ctx, const pz_state_t *root)
{
    nodeset_result_t r;
    int rc = nodeset_init(&side->set, ctx->puzzle, ctx->budget);

    if (rc != PZ_OK) {
        return rc;
    }
    return nodeset_add(&side->set, root, nodeset_hash(&side->set, root), &r);
}

/*
 * Every optimal solution, once the sides met with an optimum of len
 * moves: forward holds every state within fwd.depth of the start and
 * backward every state within bwd.depth of the goal, at their exact
 * distances (node g), and len = fwd.depth + bwd.depth + 1. A state at
 * position k of an optimal path is at distance k from the start and
 * len - k from the goal, so a walk from the start over the allowed moves
 * that keeps to those distances (forward up to fwd.depth, backward after)
 * meets exactly the optimal paths. Returns RUNNING to go on, SOLVED when
 * the collector wants no more, or a limit's status.
 */
static int
walk_optimal(bibfs_t *b,
             const pz_state_t *s,
             int k,
             int prev,
             int len,
             uint8_t *moves)
{
    pz_solutions_t *sols = b->ctx->solutions;
    uint64_t todo = puzzle_allowed_after(b->p, prev);
    int status;

    if (k == len) {
        bool kept = solutions_add(sols, moves, len);

        return sols->all_optimal || (kept && sols->kept < sols->want)
                   ? PZ_STATUS_RUNNING
                   : PZ_STATUS_SOLVED;
    }
    if ((status = search_tick(b->ctx, &b->meter)) != PZ_STATUS_RUNNING) {
        return status;
    }
    while (todo != 0) {
        int m = __builtin_ctzll(todo);
        bool ahead = k + 1 <= b->fwd.depth;
        const side_t *side = ahead ? &b->fwd : &b->bwd;
        pz_state_t c;
        uint32_t i;

        todo &= todo - 1;
        if (!puzzle_apply(b->p, s, m, &c)) {
            continue;
        }
        i = nodeset_find(&side->set, &c, nodeset_hash(&side->set, &c));
        if (i == NODESET_NONE ||
            nodeset_node(&side->set, i)->g != (ahead ? k + 1 : len - k - 1)) {
            continue;
        }
        moves[k] = (uint8_t)m;
        status = walk_optimal(b, &c, k + 1, m, len, moves);
        if (status != PZ_STATUS_RUNNING) {
            return status;
        }
    }
    return PZ_STATUS_RUNNING;
}

/* Several solutions after the meeting that found out: every optimal one
 * (the N shortest are those of the optimal length here). out becomes the
 * first listed. */
static int
collect_optimal(bibfs_t *b, pz_solution_t *out)
{
    pz_solutions_t *sols = b->ctx->solutions;
    uint8_t moves[PZ_SOLUTION_MAX];
    int status;

    solutions_reset(sols);
    status = walk_optimal(b, &b->ctx->start, 0, -1, out->length, moves);
    if (status == PZ_STATUS_RUNNING || status == PZ_STATUS_SOLVED) {
        sols->complete = status == PZ_STATUS_RUNNING;
    } else {
        sols->stopped = status;
    }
    if (sols->kept > 0) {
        out->length = sols->length[0];
        memcpy(out->moves, solutions_moves(sols, 0), (size_t)out->length);
    }
    return PZ_STATUS_SOLVED;
}

/* The search proper; the caller frees. Returns a terminal status or a
 * negative error code. */
static int
run(bibfs_t *b, pz_solution_t *out)
{
    const search_ctx_t *ctx = b->ctx;
    int max_depth =
        ctx->limits.max_depth > 0 && ctx->limits.max_depth < PZ_SOLUTION_MAX
            ? ctx->limits.max_depth
            : PZ_SOLUTION_MAX;
    meeting_t mt = { 0, 0, 0 };
    int rc;

    if (puzzle_equal(b->p, &ctx->start, &ctx->goal)) {
        out->length = 0;
        if (ctx->solutions != NULL) {
            solutions_reset(ctx->solutions);
            solutions_add(ctx->solutions, out->moves, 0);
            ctx->solutions->complete = true;
        }
        return PZ_STATUS_SOLVED;
    }
    rc = add_root(&b->fwd, ctx, &ctx->start);
    if (rc != PZ_OK) {
        return rc;
    }
    rc = add_root(&b->bwd, ctx, &ctx->goal);
    if (rc != PZ_OK) {
        return rc;
    }
    for (;;) {
        uint32_t ff = b->fwd.set.count - b->fwd.lo;
        uint32_t fb = b->bwd.set.count - b->bwd.lo;
        int status;

        publish(b);
        /* An empty frontier means its side's component is exhausted
         * without meeting the other: the goal is unreachable. */
        if (ff == 0 || fb == 0) {
            return PZ_STATUS_UNREACHABLE;
        }
        if (b->fwd.depth + b->bwd.depth + 1 > max_depth) {
            return PZ_STATUS_DEPTH_LIMIT;
        }
        status = expand_layer(b, ff <= fb, &mt);
        if (status == PZ_STATUS_SOLVED) {
            build_path(b, &mt, out);
            return ctx->solutions != NULL ? collect_optimal(b, out) : status;
        }
        if (status != PZ_STATUS_RUNNING) {
            return status;
        }
    }
}

static int
solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    bibfs_t b;
    int status;

    memset(&b, 0, sizeof(b));
    b.ctx = ctx;
    b.p = ctx->puzzle;
    prepare_masks(&b);
    search_meter_init(ctx, &b.meter);
    status = run(&b, out);
    if (status == PZ_ENOMEM) {
        status = PZ_STATUS_MEMORY_LIMIT;
    }
    (void)search_poll(ctx, &b.meter);
    publish(&b);
    nodeset_cleanup(&b.fwd.set);
    nodeset_cleanup(&b.bwd.set);
    if (status < 0) {
        out->status = PZ_STATUS_FAILED;
        return status;
    }
    out->status = status;
    return PZ_OK;
}

const engine_ops_t engine__bibfs = {
    .name = "bibfs",
    .summary = "bidirectional breadth-first search, one whole layer of the "
               "smaller frontier at a time; optimal, ignores the heuristic",
    .optimal = true,
    .uses_heuristic = false,
    .subsets = true,
    .several = true,
    .solve = solve,
};
