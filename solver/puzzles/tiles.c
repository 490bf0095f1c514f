/* SPDX-License-Identifier: MIT */
/* tiles.c - PLACEHOLDER until the real puzzle lands; rejects every use. */
#include "puzzle_internal.h"

static int
init(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d)
{
    (void)p;
    (void)params;
    return pz_diag_set(d, PZ_EUNSUPPORTED, "tiles is not built yet");
}

const puzzle_ops_t puzzle__tiles = {
    .name = "tiles",
    .init = init,
};
