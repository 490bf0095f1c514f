/* SPDX-License-Identifier: MIT */
/* cube2.c - PLACEHOLDER until the real puzzle lands; rejects every use. */
#include "puzzle_internal.h"

static int
init(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d)
{
    (void)p;
    (void)params;
    return pz_diag_set(d, PZ_EUNSUPPORTED, "2x2x2 is not built yet");
}

const puzzle_ops_t puzzle__cube2 = {
    .name = "2x2x2",
    .init = init,
};
