/* SPDX-License-Identifier: MIT */
/* heuristic.c - heuristic lookup and lifecycle; the generic "none". */
#include "heuristic.h"

#include <stdlib.h>
#include <strings.h>

static int
none_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    (void)p;
    (void)goal;
    (void)ctx;
    return PZ_OK;
}

static int
none_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    (void)p;
    (void)ctx;
    (void)s;
    return 0;
}

const heuristic_ops_t heuristic_none = {
    .name = "none",
    .summary = "h = 0: blind search",
    .admissible = true,
    .init = none_init,
    .eval = none_eval,
    .update = NULL,
};

const heuristic_ops_t *
heuristic_find(const pz_puzzle_t *p, const char *name)
{
    const heuristic_ops_t *const *list = puzzle_heuristics(p);

    if (name == NULL) {
        return NULL;
    }
    if (strcasecmp(name, "none") == 0) {
        return &heuristic_none;
    }
    if (strcasecmp(name, "mask-pdb") == 0 && p->mask != NULL) {
        return &heuristic_mask_pdb;
    }
    for (int i = 0; list != NULL && list[i] != NULL; i++) {
        if (strcasecmp(list[i]->name, name) == 0) {
            return list[i];
        }
    }
    return NULL;
}

int
heuristic_create(const pz_puzzle_t *p,
                 const char *name,
                 const pz_state_t *goal,
                 pz_heuristic_t **out,
                 pz_diag_t *d)
{
    const heuristic_ops_t *ops = heuristic_find(p, name);
    pz_heuristic_t *h;
    size_t size;
    int rc;

    *out = NULL;
    if (ops == NULL) {
        return pz_diag_set(d, PZ_EHEURISTIC,
                           "heuristic '%s' is not available for %s",
                           name != NULL ? name : "", p->id);
    }
    h = calloc(1, sizeof(*h));
    if (h == NULL) {
        return pz_diag_set(d, PZ_ENOMEM, "out of memory");
    }
    h->ops = ops;
    h->puzzle = p;
    size = ops->ctx_size != NULL ? ops->ctx_size(p) : ops->ctx_bytes;
    if (size > 0) {
        h->ctx = calloc(1, size);
        if (h->ctx == NULL) {
            rc = pz_diag_set(d, PZ_ENOMEM, "out of memory");
            goto fail;
        }
    }
    rc = ops->init(p, goal, h->ctx);
    if (rc != PZ_OK) {
        pz_diag_set(d, rc, "heuristic '%s' could not be prepared", ops->name);
        goto fail;
    }
    *out = h;
    return PZ_OK;
fail:
    heuristic_destroy(h);
    return rc;
}

void
heuristic_destroy(pz_heuristic_t *h)
{
    if (h == NULL) {
        return;
    }
    free(h->ctx);
    free(h);
}
