/* SPDX-License-Identifier: MIT */
/* twophase.c - PLACEHOLDER: the two-phase 3x3x3 engine is being built. */
#include "engine_internal.h"

static int
solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    (void)ctx;
    out->status = PZ_STATUS_FAILED;
    return PZ_EUNSUPPORTED;
}

const engine_ops_t engine__twophase = {
    .name = "twophase",
    .summary = "not available yet",
    .solve = solve,
};
