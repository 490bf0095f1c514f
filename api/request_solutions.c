/* SPDX-License-Identifier: MIT */
/* request_solutions.c - the solve request's members for several answers:
 * "solutions" (the N shortest), "all_optimal" and "max_solutions" (every
 * optimal one, counted, up to a cap kept). request.c calls it before the
 * engines are chosen and again once they are. */
#include <stdio.h>
#include <stdlib.h>

#include "request_internal.h"

int
request__parse_solutions(const cJSON *body,
                         api_solve_request_t *req,
                         pz_diag_t *d)
{
    int64_t want = 0;
    int64_t cap = 0;
    int all = 0;
    int rc;

    if ((rc = request__get_int(body, "solutions", 1, PZ_SOLUTIONS_MAX, &want,
                               d)) != PZ_OK ||
        (rc = request__get_bool(body, "all_optimal", &all, d)) != PZ_OK ||
        (rc = request__get_int(body, "max_solutions", 1, PZ_SOLUTIONS_MAX, &cap,
                               d)) != PZ_OK) {
        return rc;
    }
    if (all && want != 0) {
        pz_diag_set(d, PZ_ECONFLICT,
                    "give 'solutions' (the N shortest) or 'all_optimal', "
                    "not both");
        pz_diag_field(d, "/solutions");
        return PZ_ECONFLICT;
    }
    if (cap != 0 && !all) {
        pz_diag_set(d, PZ_ECONFLICT,
                    "'max_solutions' caps 'all_optimal'; for the N shortest "
                    "give 'solutions'");
        pz_diag_field(d, "/max_solutions");
        return PZ_ECONFLICT;
    }
    req->all_optimal = all != 0;
    req->want_solutions =
        all ? (int)(cap != 0 ? cap : API_MAX_SOLUTIONS_DEFAULT) : (int)want;
    if (!all && want <= 1) {
        req->want_solutions = 0; /* one answer, the ordinary way */
    }
    return PZ_OK;
}

int
request__plan_solutions(api_solve_request_t *req, pz_diag_t *d)
{
    solve_run_t *run = &req->runs[0];
    const heuristic_ops_t *h;
    int rc;

    if (req->want_solutions == 0) {
        return PZ_OK;
    }
    if (req->compare) {
        pz_diag_set(d, PZ_ECONFLICT,
                    "several solutions come from one engine; give 'engine', "
                    "not 'engines'");
        pz_diag_field(d, "/engines");
        return PZ_ECONFLICT;
    }
    h = heuristic_find(req->puzzle, run->heuristic);
    /* The table walk lists solutions where the table ranks whole states
     * (not the pyraminx's, whose tips it leaves out). */
    if (!run->engine->several || (h != NULL && !h->admissible) ||
        (req->all_optimal && !run->engine->optimal) ||
        (!run->engine->uses_heuristic && puzzle_rank_partial(req->puzzle))) {
        pz_diag_set(d, PZ_EUNSUPPORTED,
                    "engine '%s' with heuristic '%s' cannot list several "
                    "solutions; idastar with an admissible heuristic can",
                    run->engine->name, run->heuristic);
        pz_diag_field(d,
                      req->requested[0] != NULL && req->requested[0][0] == 'a'
                          ? "/solutions"
                          : "/engine");
        return PZ_EUNSUPPORTED;
    }
    req->solutions = malloc(sizeof(*req->solutions));
    if (req->solutions == NULL) {
        return pz_diag_set(d, PZ_ENOMEM, "out of memory");
    }
    rc = solutions_init(req->solutions, req->want_solutions, req->all_optimal);
    if (rc != PZ_OK) {
        free(req->solutions);
        req->solutions = NULL;
        return pz_diag_set(d, rc, "out of memory");
    }
    run->solutions = req->solutions;
    return PZ_OK;
}
