/* SPDX-License-Identifier: MIT */
/* request_moves.c - the solve request's members that change the puzzle
 * searched: "care" (a goal that cares about some pieces only) and
 * "moves" (a subset of the moves), and what "auto" picks for such a
 * restricted request. request.c calls them once the start and goal are
 * known, "care" first. */
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

int
request__parse_care(const cJSON *body, api_solve_request_t *req, pz_diag_t *d)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, "care");
    const char *names[64];
    char ptr[32];
    int n = 0;
    int rc;

    if (v == NULL || cJSON_IsNull(v)) {
        return PZ_OK;
    }
    if (cJSON_IsString(v)) {
        names[n++] = v->valuestring;
    } else if (cJSON_IsArray(v) && cJSON_GetArraySize(v) > 0 &&
               cJSON_GetArraySize(v) <= 64) {
        for (const cJSON *c = v->child; c != NULL; c = c->next, n++) {
            snprintf(ptr, sizeof(ptr), "/care/%d", n);
            if (!cJSON_IsString(c) || c->valuestring == NULL) {
                pz_diag_set(d, PZ_ETYPE, "each of 'care' must be a string");
                pz_diag_field(d, ptr);
                return PZ_ETYPE;
            }
            names[n] = c->valuestring;
        }
    } else {
        pz_diag_set(d, PZ_ETYPE,
                    "'care' must be a preset such as \"cross\" or a list of "
                    "1 to 64 piece names, for example [\"DF\", \"DR\"]");
        pz_diag_field(d, "/care");
        return PZ_ETYPE;
    }
    rc = puzzle_mask_care(req->puzzle, names, n, d);
    if (rc != PZ_OK) {
        pz_diag_field(d, "/care");
        return rc;
    }
    req->start_full = req->spec.start;
    req->goal_full = req->spec.goal;
    puzzle_mask_state(req->puzzle, &req->spec.start);
    puzzle_mask_state(req->puzzle, &req->spec.goal);
    return PZ_OK;
}

/*
 * What "auto" becomes for a restricted request: a masked goal runs IDA*
 * on the pattern databases it builds; a move subset needs an engine that
 * keeps to it (the optimal choice, else IDA* with the default
 * heuristic); several solutions come from IDA* (with the exact
 * distances where the choice was the table walk).
 */
void
request__auto_restricted(const api_solve_request_t *req,
                         engine_choice_t *choice_out)
{
    engine_choice_t choice = *choice_out;

    /* A masked goal: IDA* on the pattern databases it builds. */
    if (req->puzzle->mask != NULL) {
        choice.engine = engine_find_for(req->puzzle, "idastar");
        choice.heuristic = "mask-pdb";
        choice.weight = 1.0;
        choice.missing = NULL;
    }
    /* A move subset needs an engine that keeps to it: the optimal
     * choice, else IDA* with the puzzle's default heuristic. */
    if (req->puzzle->subset != 0 && !choice.engine->subsets) {
        engine_auto_from(req->puzzle, &req->spec.start, &req->spec.goal, true,
                         &choice);
        if (!choice.engine->subsets) {
            choice.engine = engine_find_for(req->puzzle, "idastar");
            choice.heuristic = puzzle_default_heuristic(req->puzzle);
            choice.weight = 1.0;
            choice.missing = NULL;
        }
    }
    /* Several solutions: IDA*, with the exact distances where a
     * complete table has them. The table walk and bidirectional BFS list
     * every optimal one, but not the longer ones the N shortest may need;
     * two-phase lists the N best it found (not for all_optimal). */
    if (req->want_solutions != 0 &&
        (!choice.engine->several ||
         (req->all_optimal && !choice.engine->optimal) ||
         (!req->all_optimal && choice.engine->optimal &&
          !choice.engine->uses_heuristic))) {
        const heuristic_ops_t *x = heuristic_find(req->puzzle, "exact");

        if (!choice.engine->uses_heuristic) {
            choice.heuristic = puzzle_default_heuristic(req->puzzle);
        }
        if (choice.engine == engine_find("table") && x != NULL &&
            (x->supports == NULL || x->supports(req->puzzle))) {
            choice.heuristic = x->name;
        }
        choice.engine = engine_find_for(req->puzzle, "idastar");
        choice.weight = 1.0;
    }
    *choice_out = choice;
}
