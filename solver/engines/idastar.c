/* SPDX-License-Identifier: MIT */
/* idastar.c - iterative-deepening A* over any puzzle, memory O(depth). */

/*
 * Design: each iteration is a depth-first search that cuts every node with
 * f = g + h above the bound; the next bound is the smallest f that was
 * cut. With an admissible heuristic the first iteration that reaches the
 * goal returns an optimal path, since the bound never passes the optimum.
 * The DFS is iterative over an explicit stack of frames, one per depth,
 * each holding its state, its h and the moves still to try as a bit mask,
 * so a step costs one puzzle_apply into the next frame and one incremental
 * heuristic_update, with no recursion and no state copies. Move pruning
 * (puzzle_allowed_after the last move: no inverse, no redundant pair) is
 * the only duplicate detection; there is no transposition table. The goal
 * is tested when a child passes the bound, and only when its h is 0 (an
 * admissible h is 0 at the goal), so the full comparison is rare.
 *
 * Frames are drawn from the budget and grown when the bound grows: a path
 * never exceeds the bound (h >= 0), so bound + 2 frames always suffice.
 */
#include <limits.h>
#include <stdint.h>

#include "engine_internal.h"

/* One depth of the DFS stack. */
typedef struct frame {
    pz_state_t s;  /* the state at this depth */
    uint64_t todo; /* moves still to try from s */
    int h;         /* heuristic of s */
} frame_t;

typedef struct ida {
    const search_ctx_t *ctx;
    const pz_puzzle_t *p;
    const pz_heuristic_t *h;
    bool check_all;  /* compare with the goal even when h > 0 */
    frame_t *frames; /* from the budget */
    size_t nframes;  /* allocated */
    search_meter_t meter;
} ida_t;

/* Makes room for depths 0..bound + 1 (a node at depth bound still writes
 * its children one frame further). New frames are zeroed so the bytes past
 * state_size are zero whatever apply writes. PZ_ENOMEM when the budget is
 * spent. */
static int
reserve_frames(ida_t *a, int bound)
{
    size_t want = (size_t)bound + 2;
    size_t n = a->nframes != 0 ? a->nframes : 64;
    frame_t *frames;

    if (want <= a->nframes) {
        return PZ_OK;
    }
    while (n < want) {
        n *= 2;
    }
    frames = budget_realloc(a->ctx->budget, a->frames,
                            a->nframes * sizeof(frame_t), n * sizeof(frame_t));
    if (frames == NULL) {
        return PZ_ENOMEM;
    }
    memset(frames + a->nframes, 0, (n - a->nframes) * sizeof(frame_t));
    a->frames = frames;
    a->nframes = n;
    return PZ_OK;
}

/*
 * One depth-first pass with the given bound from frames[0] (state and h
 * already set). Returns SOLVED with out->moves and out->length filled,
 * RUNNING when the pass ended without the goal (*next_bound is then the
 * smallest f cut, INT_MAX if none), or the terminal status of a limit.
 */
static int
iterate(ida_t *a, int bound, int *next_bound, pz_solution_t *out)
{
    const pz_puzzle_t *p = a->p;
    const pz_heuristic_t *h = a->h;
    const pz_state_t *goal = &a->ctx->goal;
    frame_t *f = a->frames;
    uint64_t generated = a->meter.generated;
    int next = INT_MAX;
    int d = 0;

    f[0].todo = puzzle_allowed_after(p, -1);
    for (;;) {
        uint64_t todo = f[d].todo;
        int m;
        int hc;
        int fc;
        int status;

        if (todo == 0) {
            if (d == 0) {
                break;
            }
            d--;
            continue;
        }
        m = __builtin_ctzll(todo);
        f[d].todo = todo & (todo - 1);
        if (!puzzle_apply(p, &f[d].s, m, &f[d + 1].s)) {
            continue;
        }
        generated++;
        hc = heuristic_update(h, &f[d].s, f[d].h, m, &f[d + 1].s);
        fc = d + 1 + hc;
        if (fc > bound) {
            if (fc < next) {
                next = fc;
            }
            continue;
        }
        out->moves[d] = (uint8_t)m;
        if ((hc == 0 || a->check_all) && puzzle_equal(p, &f[d + 1].s, goal)) {
            out->length = d + 1;
            a->meter.generated = generated;
            return PZ_STATUS_SOLVED;
        }
        d++;
        f[d].h = hc;
        f[d].todo = puzzle_allowed_after(p, m);
        a->meter.generated = generated;
        status = search_tick(a->ctx, &a->meter);
        if (status != PZ_STATUS_RUNNING) {
            return status;
        }
    }
    a->meter.generated = generated;
    *next_bound = next;
    return PZ_STATUS_RUNNING;
}

/* The search proper; the caller frees. Returns a terminal status or a
 * negative error code. */
static int
run(ida_t *a, pz_solution_t *out)
{
    const search_ctx_t *ctx = a->ctx;
    pz_stats_t *st = ctx->stats;
    int max_depth =
        ctx->limits.max_depth > 0 && ctx->limits.max_depth < PZ_SOLUTION_MAX
            ? ctx->limits.max_depth
            : PZ_SOLUTION_MAX;
    int h0 = heuristic_eval(a->h, &ctx->start);
    int bound = h0;
    int rc;

    if (puzzle_equal(a->p, &ctx->start, &ctx->goal)) {
        out->length = 0;
        return PZ_STATUS_SOLVED;
    }
    for (int iteration = 1;; iteration++) {
        int next = INT_MAX;
        int status;

        if (bound > max_depth) {
            return PZ_STATUS_DEPTH_LIMIT;
        }
        rc = reserve_frames(a, bound);
        if (rc != PZ_OK) {
            return rc;
        }
        if (st != NULL) {
            atomic_store_explicit(&st->iterations, iteration,
                                  memory_order_relaxed);
            atomic_store_explicit(&st->depth_bound, bound,
                                  memory_order_relaxed);
        }
        a->frames[0].s = ctx->start;
        a->frames[0].h = h0;
        status = iterate(a, bound, &next, out);
        if (status != PZ_STATUS_RUNNING) {
            return status;
        }
        if (next == INT_MAX) {
            /* Nothing was cut: the whole reachable space was searched. */
            return PZ_STATUS_FAILED;
        }
        bound = next;
    }
}

static int
solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    ida_t a;
    int status;

    memset(&a, 0, sizeof(a));
    a.ctx = ctx;
    a.p = ctx->puzzle;
    a.h = ctx->heuristic;
    a.check_all = !heuristic_admissible(ctx->heuristic);
    search_meter_init(ctx, &a.meter);
    status = run(&a, out);
    if (status == PZ_ENOMEM) {
        status = PZ_STATUS_MEMORY_LIMIT;
    }
    (void)search_poll(ctx, &a.meter);
    budget_free(ctx->budget, a.frames, a.nframes * sizeof(frame_t));
    if (status < 0) {
        out->status = PZ_STATUS_FAILED;
        return status;
    }
    out->status = status;
    return PZ_OK;
}

const engine_ops_t engine__idastar = {
    .name = "idastar",
    .summary = "IDA* with move pruning and incremental heuristics; optimal "
               "with an admissible heuristic, memory proportional to depth",
    .optimal = true,
    .uses_heuristic = true,
    .solve = solve,
};
