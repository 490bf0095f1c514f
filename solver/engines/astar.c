/* SPDX-License-Identifier: MIT */
/* astar.c - PLACEHOLDER until the real engine lands. */
#include "engine_internal.h"

static int
solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    (void)ctx;
    out->status = PZ_STATUS_FAILED;
    return PZ_EUNSUPPORTED;
}

const engine_ops_t engine__astar = {
    .name = "astar",
    .solve = solve,
};

const engine_ops_t engine__wastar = {
    .name = "wastar",
    .solve = solve,
};
