/* SPDX-License-Identifier: MIT */
/* cube3.c - PLACEHOLDER: the 3x3x3 is being built; every use is refused. */
#include "puzzle_internal.h"

static int
init(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d)
{
    (void)p;
    (void)params;
    return pz_diag_set(d, PZ_EUNSUPPORTED, "the 3x3x3 is not available yet");
}

const puzzle_ops_t puzzle__cube3 = {
    .name = "3x3x3",
    .summary = "not available yet",
    .init = init,
};
