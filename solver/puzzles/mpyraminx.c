/* SPDX-License-Identifier: MIT */
/* mpyraminx.c - PLACEHOLDER: the master-pyraminx is being built; every use is
 * refused. */
#include "puzzle_internal.h"

static int
init(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d)
{
    (void)p;
    (void)params;
    return pz_diag_set(d, PZ_EUNSUPPORTED,
                       "the master-pyraminx is not available yet");
}

const puzzle_ops_t puzzle__mpyraminx = {
    .name = "master-pyraminx",
    .summary = "not available yet",
    .init = init,
};
