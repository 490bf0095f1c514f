/* SPDX-License-Identifier: MIT */
/* pyraminx.c - PLACEHOLDER: the pyraminx is being built; every use is refused.
 */
#include "puzzle_internal.h"

static int
init(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d)
{
    (void)p;
    (void)params;
    return pz_diag_set(d, PZ_EUNSUPPORTED, "the pyraminx is not available yet");
}

const puzzle_ops_t puzzle__pyraminx = {
    .name = "pyraminx",
    .summary = "not available yet",
    .init = init,
};
