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
#include "complete.h"
#include "engine_internal.h"
#include "tables.h"

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
    len = complete_dist_solve(&td, &ctx->start, out->moves, &probes);
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
    .solve = solve,
    .supports = complete_possible,
    .tables = complete_needs,
    .instant = complete_in_memory,
};
