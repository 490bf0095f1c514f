/* SPDX-License-Identifier: MIT */
/* request_moves.c - the solve request's "moves" member: a subset of the
 * puzzle's moves that the search may use (request.c calls it once the
 * start and goal are known). */
#include <stdio.h>

#include "request_internal.h"

int
request__parse_moves(const cJSON *body, api_solve_request_t *req, pz_diag_t *d)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(body, "moves");
    uint64_t moves = 0;
    char ptr[32];
    int i = 0;
    int rc;

    if (list == NULL || cJSON_IsNull(list)) {
        return PZ_OK;
    }
    if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0) {
        pz_diag_set(d, PZ_ETYPE,
                    "'moves' must be a non-empty array of move names, for "
                    "example [\"R\", \"U\"]");
        pz_diag_field(d, "/moves");
        return PZ_ETYPE;
    }
    for (const cJSON *m = list->child; m != NULL; m = m->next, i++) {
        snprintf(ptr, sizeof(ptr), "/moves/%d", i);
        if (!cJSON_IsString(m) || m->valuestring == NULL) {
            pz_diag_set(d, PZ_ETYPE, "each of 'moves' must be a string");
            pz_diag_field(d, ptr);
            return PZ_ETYPE;
        }
        rc = puzzle_moves_add(req->puzzle, m->valuestring, &moves, d);
        if (rc != PZ_OK) {
            pz_diag_field(d, ptr);
            return rc;
        }
    }
    if ((rc = puzzle_restrict(req->puzzle, moves, d)) != PZ_OK) {
        pz_diag_field(d, "/moves");
        return rc;
    }
    rc = puzzle_subset_reachable(req->puzzle, &req->spec.start, &req->spec.goal,
                                 d);
    if (rc != PZ_OK) {
        pz_diag_field(d, "/moves");
    }
    return rc;
}
