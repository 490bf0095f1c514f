/* SPDX-License-Identifier: MIT */
/* table.c - optimal answers by walking down a complete distance table. */

/*
 * Design: the puzzle's complete table (tables/complete.c) gives the exact
 * distance of every state, so from the start some move always reaches a
 * state one move closer; taking one such move per step gives an optimal
 * solution in (length x moves) table probes, microseconds. The shared
 * table lives outside the job's budget (it is loaded once per process);
 * only a private table for a goal the shared one cannot serve is drawn
 * from the budget. Nothing here needs polling: the walk is bounded by the
 * answer's length.
 */
#include <string.h>

#include "complete.h"
#include "engine_internal.h"
#include "tables.h"

/*
 * Every optimal solution: a depth-first walk from s (dist d, reached by
 * move prev) down the moves that lower the distance by one, with the
 * engines' move pruning (canonical sequences), collecting each that
 * reaches the goal. False once the collector wants no more.
 */
static bool
walk_all(const complete_dist_t *td,
         const search_ctx_t *ctx,
         const pz_state_t *s,
         int d,
         int prev,
         uint8_t *moves,
         int at,
         uint64_t *probes)
{
    const pz_puzzle_t *p = ctx->puzzle;
    uint64_t todo = puzzle_allowed_after(p, prev);

    if (d == 0) {
        bool kept = solutions_add(ctx->solutions, moves, at);

        return ctx->solutions->all_optimal ||
               (kept && ctx->solutions->kept < ctx->solutions->want);
    }
    while (todo != 0) {
        int m = __builtin_ctzll(todo);
        pz_state_t c;

        todo &= todo - 1;
        if (!puzzle_apply(p, s, m, &c)) {
            continue;
        }
        (*probes)++;
        if (complete_dist_lookup(td, &c) != d - 1) {
            continue;
        }
        moves[at] = (uint8_t)m;
        if (!walk_all(td, ctx, &c, d - 1, m, moves, at + 1, probes)) {
            return false;
        }
    }
    return true;
}

/* Several solutions (ctx->solutions): every optimal one, by walk_all.
 * Only the optimal length: a request for the N shortest gets those of
 * the optimal length, marked complete when there are no more. */
static int
solve_all(const complete_dist_t *td,
          const search_ctx_t *ctx,
          pz_solution_t *out,
          uint64_t *probes)
{
    pz_solutions_t *sols = ctx->solutions;
    uint8_t moves[PZ_SOLUTION_MAX];
    int d = complete_dist_lookup(td, &ctx->start);

    solutions_reset(sols);
    if (d < 0 || d >= PZ_SOLUTION_MAX) {
        return PZ_EINTERNAL;
    }
    sols->complete = walk_all(td, ctx, &ctx->start, d, -1, moves, 0, probes);
    if (sols->kept == 0) {
        return PZ_EINTERNAL;
    }
    out->length = sols->length[0];
    memcpy(out->moves, solutions_moves(sols, 0), (size_t)out->length);
    return out->length;
}

static int
solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    complete_dist_t td;
    uint64_t probes = 0;
    int len;
    int rc;

    rc = complete_dist_init(&td, ctx->puzzle, &ctx->goal, ctx->budget);
    if (rc == PZ_ENOMEM) {
        /* Only a private table is charged: the budget refused it. */
        out->status = PZ_STATUS_MEMORY_LIMIT;
        return PZ_OK;
    }
    if (rc != PZ_OK) {
        out->status = PZ_STATUS_FAILED;
        return rc == PZ_EUNSUPPORTED ? PZ_EUNSUPPORTED : PZ_EINTERNAL;
    }
    len = ctx->solutions != NULL && !td.partial
              ? solve_all(&td, ctx, out, &probes)
              : complete_dist_solve(&td, &ctx->start, out->moves, &probes);
    complete_dist_cleanup(&td, ctx->budget);
    if (len < 0) {
        out->status = PZ_STATUS_FAILED;
        return PZ_EINTERNAL;
    }
    if (ctx->stats != NULL) {
        atomic_store(&ctx->stats->nodes_expanded, (uint64_t)len);
        atomic_store(&ctx->stats->nodes_generated, probes);
        atomic_store(&ctx->stats->depth_bound, len);
    }
    if (ctx->limits.max_depth > 0 && len > ctx->limits.max_depth) {
        out->status = PZ_STATUS_DEPTH_LIMIT;
        return PZ_OK;
    }
    out->status = PZ_STATUS_SOLVED;
    out->length = len;
    return PZ_OK;
}

const engine_ops_t engine__table = {
    .name = "table",
    .summary = "walks down a complete distance table (the puzzles and "
               "sizes GET /v1/tables lists): optimal in microseconds; the "
               "table is one of the server's start-up tables",
    .optimal = true,
    .uses_heuristic = false,
    .several = true,
    .solve = solve,
    .supports = complete_possible,
    .tables = complete_needs,
    .instant = complete_in_memory,
};
