/* SPDX-License-Identifier: MIT */
/* idastar.c - PLACEHOLDER until the real engine lands. */
#include "engine_internal.h"

static int
solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    (void)ctx;
    out->status = PZ_STATUS_FAILED;
    return PZ_EUNSUPPORTED;
}

const engine_ops_t engine__idastar = {
    .name = "idastar",
    .solve = solve,
};
