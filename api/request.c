/* SPDX-License-Identifier: MIT */
/* request.c - validation of solve requests; every rejection names its field. */
#include "request.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "batch.h"
#include "complete.h"
#include "request_internal.h"

/* Most integers a state array may hold (an 8x8 board has 64). */
#define API_STATE_INTS_MAX 256

void
api_policy_default(api_policy_t *pol)
{
    pol->default_time_ms = 10000;
    pol->max_time_ms = 300000;
    pol->default_memory_bytes = (size_t)256 << 20;
    pol->max_memory_bytes = (size_t)4 << 30;
    pol->default_max_nodes = 0;
    pol->max_max_nodes = 0;
    pol->default_wait_ms = 2000;
    pol->max_wait_ms = 60000;
    pol->threads = 1;
    pol->optimal_threads = 0;
    pol->table_builds = API_TABLE_BUILDS_INLINE;
    pol->default_tables_wait_ms = 300000;
    pol->max_tables_wait_ms = 3600000;
    pol->max_batch = API_BATCH_ITEMS_DEFAULT;
}

/* --- puzzle parameters --- */

/* Fills d for a size that is not ROWSxCOLS and returns PZ_ESIZE. */
static int
bad_size(pz_diag_t *d)
{
    pz_diag_set(d, PZ_ESIZE, "size is written ROWSxCOLS, for example \"4x4\"");
    pz_diag_field(d, "/size");
    return PZ_ESIZE;
}

/* Checks the rows and columns of prm are positive. */
static int
size_positive(const pz_params_t *prm, pz_diag_t *d)
{
    if (prm->rows <= 0 || prm->cols <= 0) {
        pz_diag_set(d, PZ_ESIZE, "size must be positive, for example \"4x4\"");
        pz_diag_field(d, "/size");
        return PZ_ESIZE;
    }
    return PZ_OK;
}

int
request__parse_size_text(const char *t, pz_params_t *prm, pz_diag_t *d)
{
    long dim[2];

    /* Digits, 'x', digits, and nothing else; each side at most three
     * digits without a leading zero, so no value overflows (sscanf's %d
     * wraps silently). */
    for (int k = 0; k < 2; k++) {
        int digits = 0;
        bool zero = *t == '0';

        dim[k] = 0;
        while (*t >= '0' && *t <= '9' && digits < 4) {
            dim[k] = dim[k] * 10 + (*t++ - '0');
            digits++;
        }
        if (digits == 0 || digits > 3 || zero || (k == 0 && *t++ != 'x')) {
            return bad_size(d);
        }
    }
    if (*t != '\0') {
        return bad_size(d);
    }
    prm->rows = (int)dim[0];
    prm->cols = (int)dim[1];
    return size_positive(prm, d);
}

static int
parse_size(const cJSON *body, pz_params_t *prm, pz_diag_t *d)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, "size");

    if (v == NULL || cJSON_IsNull(v)) {
        return PZ_OK;
    }
    if (cJSON_IsString(v)) {
        return request__parse_size_text(v->valuestring, prm, d);
    }
    if (!cJSON_IsNumber(v) || floor(v->valuedouble) != v->valuedouble ||
        v->valuedouble < 0 || v->valuedouble > 100) {
        return bad_size(d);
    }
    prm->rows = prm->cols = (int)v->valuedouble;
    return size_positive(prm, d);
}

static int
parse_metric(const char *s, pz_params_t *prm, pz_diag_t *d)
{
    if (s == NULL) {
        return PZ_OK;
    }
    if (strcmp(s, "htm") == 0) {
        prm->metric = PZ_METRIC_HTM;
    } else if (strcmp(s, "qtm") == 0) {
        prm->metric = PZ_METRIC_QTM;
    } else if (strcmp(s, "moves") == 0) {
        prm->metric = PZ_METRIC_MOVES;
    } else {
        pz_diag_set(d, PZ_EMETRIC,
                    "unknown metric '%.40s'; use htm, qtm or moves", s);
        pz_diag_field(d, "/metric");
        return PZ_EMETRIC;
    }
    return PZ_OK;
}

/* Sets a square size of prm from a state of n numbers (N*N gives NxN). */
static void
square_size(size_t n, pz_params_t *prm)
{
    for (int k = 2; k <= 8; k++) {
        if ((size_t)(k * k) == n) {
            prm->rows = prm->cols = k;
        }
    }
}

void
request__infer_tiles_text(const char *text, pz_params_t *prm)
{
    size_t n = 0;

    if (prm->rows != 0 || text == NULL) {
        return;
    }
    while (*text != '\0') {
        while (*text != '\0' && strchr("0123456789", *text) == NULL) {
            text++;
        }
        if (*text == '\0') {
            break;
        }
        n++;
        while (*text != '\0' && strchr("0123456789", *text) != NULL) {
            text++;
        }
    }
    square_size(n, prm);
}

/* For "tiles" without a size, the shape of the state decides: a 2-D array
 * gives rows and columns, a flat list of N*N numbers gives NxN. */
static void
infer_tiles_size(const cJSON *state, pz_params_t *prm)
{
    int ints[API_STATE_INTS_MAX];
    pz_input_t in;

    if (prm->rows != 0 || state == NULL) {
        return;
    }
    if (api_state_input(state, ints, API_STATE_INTS_MAX, &in, NULL) != PZ_OK) {
        return;
    }
    if (in.text != NULL) {
        request__infer_tiles_text(in.text, prm);
    } else if (in.ndims == 2) {
        prm->rows = in.shape[0];
        prm->cols = in.shape[1];
    } else {
        square_size(in.nints, prm);
    }
}

static int
parse_state_member(const api_solve_request_t *req,
                   const cJSON *v,
                   const char *member,
                   pz_state_t *out,
                   pz_diag_t *d)
{
    int ints[API_STATE_INTS_MAX];
    pz_input_t in;
    char ptr[32];
    int rc;

    snprintf(ptr, sizeof(ptr), "/%s", member);
    rc = api_state_input(v, ints, API_STATE_INTS_MAX, &in, d);
    if (rc == PZ_OK) {
        rc = puzzle_parse_state(req->puzzle, &in, out, d);
    }
    if (rc != PZ_OK) {
        pz_diag_field(d, ptr);
    }
    return rc;
}

/* --- engines --- */

static bool
optimal_by_default(const pz_puzzle_t *p)
{
    const puzzle_solving_t *sol = puzzle_solving(p);

    return sol->optimal_by_default != NULL ? sol->optimal_by_default(p)
                                           : complete_possible(p);
}

/*
 * True when the puzzle p has the heuristic name; else false with d filled
 * (unknown_heuristic, field /heuristic). The table heuristics exist for
 * some boards only: the others are refused here rather than fail the job.
 */
static bool
heuristic_available(const pz_puzzle_t *p, const char *name, pz_diag_t *d)
{
    const heuristic_ops_t *h = heuristic_find(p, name);

    if (h == NULL) {
        pz_diag_set(d, PZ_EHEURISTIC,
                    "heuristic '%.40s' is not available for %s", name, p->id);
        pz_diag_field(d, "/heuristic");
        return false;
    }
    if (h->supports != NULL && !h->supports(p)) {
        pz_diag_set(d, PZ_EHEURISTIC,
                    "heuristic '%s' is not available for this %s: %s", h->name,
                    p->id, h->unavailable);
        pz_diag_field(d, "/heuristic");
        return false;
    }
    return true;
}

static int
add_run(api_solve_request_t *req,
        const char *name,
        const char *heuristic,
        double weight,
        const char *ptr,
        pz_diag_t *d)
{
    const engine_ops_t *e;
    const heuristic_ops_t *h = NULL;
    engine_choice_t choice;
    int i = req->nruns;

    if (i >= API_ENGINES_MAX) {
        pz_diag_set(d, PZ_ERANGE, "at most %d engines per request",
                    API_ENGINES_MAX);
        pz_diag_field(d, "/engines");
        return PZ_ERANGE;
    }
    if (strcmp(name, "auto") == 0) {
        engine_auto_from(req->puzzle, &req->spec.start, &req->spec.goal,
                         req->optimal, &choice);
        request__auto_restricted(req, &choice);
        /* A short scramble bounds the optimum: where auto would trade
         * length for speed with a weighted search, A* with the same
         * admissible heuristic proves an answer at most that long in
         * about as little time. */
        if (weight == 0 && choice.weight > 1.0) {
            int n = request__scramble_moves(req);
            const engine_ops_t *a = engine_find_for(req->puzzle, "astar");

            if (n > 0 && n <= REQUEST_SHORT_SCRAMBLE && a != NULL) {
                choice.engine = a;
                choice.weight = 1.0;
            }
        }
        if (choice.missing != NULL && heuristic == NULL) {
            request__warn_missing(req, choice.missing, choice.heuristic);
        }
        e = choice.engine;
        if (heuristic == NULL) {
            heuristic = choice.heuristic;
        }
        if (weight == 0) {
            weight = choice.weight;
        }
        req->requested[i] = "auto";
    } else {
        e = engine_find_for(req->puzzle, name);
        if (e == NULL && engine_known(name)) {
            pz_diag_set(d, PZ_EUNSUPPORTED,
                        "engine '%.40s' cannot solve %s; GET /v1/puzzles "
                        "lists the engines",
                        name, req->puzzle->id);
            pz_diag_field(d, ptr);
            return PZ_EUNSUPPORTED;
        }
        if (e == NULL) {
            pz_diag_set(d, PZ_EENGINE,
                        "unknown engine '%.40s'; GET /v1/puzzles lists the "
                        "engines",
                        name);
            pz_diag_field(d, ptr);
            return PZ_EENGINE;
        }
        req->requested[i] = e->name;
    }
    if (req->puzzle->mask != NULL && req->puzzle->mask->free_blank &&
        strcmp(e->name, "bibfs") == 0) {
        pz_diag_set(d, PZ_EUNSUPPORTED,
                    "bibfs searches back from one goal state; with the "
                    "blank free the goal is many (name tile 0 in 'care' to "
                    "fix its cell, or use idastar or astar)");
        pz_diag_field(d, ptr);
        return PZ_EUNSUPPORTED;
    }
    if ((req->puzzle->subset != 0 || req->puzzle->mask != NULL) &&
        !e->subsets) {
        pz_diag_set(d, PZ_EUNSUPPORTED,
                    "engine '%s' cannot keep to a move subset or a goal "
                    "that cares about some pieces; astar, wastar, bibfs, "
                    "idastar and aida can",
                    e->name);
        pz_diag_field(d, ptr);
        return PZ_EUNSUPPORTED;
    }
    if (e->supports != NULL && !e->supports(req->puzzle)) {
        pz_diag_set(d, PZ_EUNSUPPORTED,
                    "engine '%s' cannot solve %s; GET /v1/puzzles lists the "
                    "engines",
                    e->name, req->puzzle->id);
        pz_diag_field(d, ptr);
        return PZ_EUNSUPPORTED;
    }
    /* A heuristic named for an engine that uses none must still be one
     * the puzzle has. */
    if (heuristic != NULL && !e->uses_heuristic &&
        !heuristic_available(req->puzzle, heuristic, d)) {
        return PZ_EHEURISTIC;
    }
    if (e->heuristic != NULL && heuristic != NULL &&
        strcasecmp(heuristic, e->heuristic) != 0) {
        pz_diag_set(d, PZ_EHEURISTIC,
                    "engine '%s' searches with the heuristic '%s' only; "
                    "name that one or none",
                    e->name, e->heuristic);
        pz_diag_field(d, "/heuristic");
        return PZ_EHEURISTIC;
    }
    if (heuristic == NULL) {
        heuristic = e->heuristic != NULL ? e->heuristic
                    : req->puzzle->mask != NULL
                        ? "mask-pdb"
                        : puzzle_default_heuristic(req->puzzle);
    }
    /* The puzzle's own heuristics read whole states, not masked ones. */
    if (req->puzzle->mask != NULL && e->uses_heuristic &&
        strcasecmp(heuristic, "mask-pdb") != 0 &&
        strcasecmp(heuristic, "none") != 0) {
        pz_diag_set(d, PZ_EHEURISTIC,
                    "a goal that cares about some pieces takes the "
                    "heuristic 'mask-pdb' or 'none', not '%.40s'",
                    heuristic);
        pz_diag_field(d, "/heuristic");
        return PZ_EHEURISTIC;
    }
    if (e->uses_heuristic) {
        if (!heuristic_available(req->puzzle, heuristic, d)) {
            return PZ_EHEURISTIC;
        }
        h = heuristic_find(req->puzzle, heuristic);
    } else {
        h = &heuristic_none;
    }
    if (weight == 0) {
        weight = strcmp(e->name, "wastar") == 0    ? 1.5
                 : strcmp(e->name, "anytime") == 0 ? 3.0
                                                   : 1.0;
    }
    solve_run_init(&req->runs[i], e, h->name, weight);
    req->nruns++;
    return PZ_OK;
}

static int
parse_engines(const cJSON *body, api_solve_request_t *req, pz_diag_t *d)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(body, "engines");
    const char *engine = NULL;
    const char *heuristic = NULL;
    double weight = 0;
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(body, "weight");
    int rc;

    if ((rc = request__get_string(body, "engine", &engine, d)) != PZ_OK ||
        (rc = request__get_string(body, "heuristic", &heuristic, d)) != PZ_OK) {
        return rc;
    }
    if (w != NULL && !cJSON_IsNull(w)) {
        if (!cJSON_IsNumber(w)) {
            pz_diag_set(d, PZ_ETYPE, "'weight' must be a number");
            pz_diag_field(d, "/weight");
            return PZ_ETYPE;
        }
        if (!isfinite(w->valuedouble) || w->valuedouble < 1.0 ||
            w->valuedouble > 100.0) {
            pz_diag_set(d, PZ_ERANGE,
                        "'weight' must be a number from 1 to "
                        "100");
            pz_diag_field(d, "/weight");
            return PZ_ERANGE;
        }
        weight = w->valuedouble;
    }
    if (list != NULL && !cJSON_IsNull(list)) {
        int i = 0;

        if (engine != NULL) {
            pz_diag_set(d, PZ_ECONFLICT,
                        "give either 'engine' or 'engines', not both");
            pz_diag_field(d, "/engines");
            return PZ_ECONFLICT;
        }
        if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0) {
            pz_diag_set(d, PZ_ETYPE,
                        "'engines' must be a non-empty array of names");
            pz_diag_field(d, "/engines");
            return PZ_ETYPE;
        }
        req->compare = true;
        for (const cJSON *c = list->child; c != NULL; c = c->next, i++) {
            char ptr[32];

            snprintf(ptr, sizeof(ptr), "/engines/%d", i);
            if (!cJSON_IsString(c)) {
                pz_diag_set(d, PZ_ETYPE, "engine names are strings");
                pz_diag_field(d, ptr);
                return PZ_ETYPE;
            }
            rc = add_run(req, c->valuestring, heuristic, weight, ptr, d);
            if (rc != PZ_OK) {
                return rc;
            }
        }
        return PZ_OK;
    }
    return add_run(req, engine != NULL ? engine : "auto", heuristic, weight,
                   "/engine", d);
}

/* --- limits --- */

static int
parse_limits(const cJSON *body,
             const api_policy_t *pol,
             api_solve_request_t *req,
             pz_diag_t *d)
{
    int64_t time_ms = (int64_t)pol->default_time_ms;
    int64_t memory_mb = (int64_t)(pol->default_memory_bytes >> 20);
    int64_t max_nodes = (int64_t)pol->default_max_nodes;
    int64_t max_depth = 0;
    int64_t wait_ms = pol->default_wait_ms;
    int64_t target = 0;
    int rc;

    if ((rc = request__get_int(body, "time_ms", 1, 1e12, &time_ms, d)) !=
            PZ_OK ||
        (rc = request__get_int(body, "memory_mb", 1, 1e9, &memory_mb, d)) !=
            PZ_OK ||
        (rc = request__get_int(body, "max_nodes", 0, 9e15, &max_nodes, d)) !=
            PZ_OK ||
        (rc = request__get_int(body, "max_depth", 0, PZ_SOLUTION_MAX,
                               &max_depth, d)) != PZ_OK ||
        (rc = request__get_int(body, "wait_ms", 0, 1e12, &wait_ms, d)) !=
            PZ_OK ||
        (rc = request__get_int(body, "target_length", 0, PZ_SOLUTION_MAX,
                               &target, d)) != PZ_OK) {
        return rc;
    }
    if (pol->max_time_ms != 0 && (uint64_t)time_ms > pol->max_time_ms) {
        return request__too_large(d, "time_ms", pol->max_time_ms, " ms");
    }
    if (pol->max_memory_bytes != 0 &&
        (uint64_t)memory_mb > (pol->max_memory_bytes >> 20)) {
        return request__too_large(d, "memory_mb", pol->max_memory_bytes >> 20,
                                  " MiB");
    }
    if (pol->max_max_nodes != 0 &&
        (max_nodes == 0 || (uint64_t)max_nodes > pol->max_max_nodes)) {
        return request__too_large(d, "max_nodes", pol->max_max_nodes, "");
    }
    if (pol->max_wait_ms != 0 && wait_ms > pol->max_wait_ms) {
        return request__too_large(d, "wait_ms", (uint64_t)pol->max_wait_ms,
                                  " ms");
    }
    req->spec.limits.time_ms = (uint64_t)time_ms;
    req->spec.limits.memory_bytes = (size_t)memory_mb << 20;
    req->spec.limits.max_nodes = (uint64_t)max_nodes;
    req->spec.limits.max_depth = (int)max_depth;
    req->spec.target_length = (int)target;
    req->spec.threads = pol->threads > 0 ? pol->threads : 1;
    req->wait_ms = wait_ms;
    return PZ_OK;
}

/* --- the request --- */

static int
parse_start(const cJSON *body, api_solve_request_t *req, pz_diag_t *d)
{
    const cJSON *state = cJSON_GetObjectItemCaseSensitive(body, "state");
    const cJSON *goal = cJSON_GetObjectItemCaseSensitive(body, "goal");
    const char *scramble = NULL;
    int rc;

    if ((rc = request__get_string(body, "scramble", &scramble, d)) != PZ_OK) {
        return rc;
    }
    if (state != NULL && cJSON_IsNull(state)) {
        state = NULL;
    }
    if (goal != NULL && cJSON_IsNull(goal)) {
        goal = NULL;
    }
    if (scramble != NULL && state != NULL) {
        pz_diag_set(d, PZ_ECONFLICT,
                    "give either 'scramble' or 'state', not both");
        pz_diag_field(d, "/state");
        return PZ_ECONFLICT;
    }
    if (scramble == NULL && state == NULL) {
        pz_diag_set(d, PZ_EMISSING,
                    "give the puzzle as 'scramble' (moves from solved) or "
                    "'state'");
        pz_diag_field(d, "/scramble");
        return PZ_EMISSING;
    }
    if (goal != NULL) {
        rc = parse_state_member(req, goal, "goal", &req->spec.goal, d);
        if (rc != PZ_OK) {
            return rc;
        }
        req->custom_goal = true;
    } else {
        puzzle_goal(req->puzzle, &req->spec.goal);
    }
    if (scramble != NULL) {
        /* A scramble is applied to the goal: "scramble from the target". */
        req->spec.start = req->spec.goal;
        rc = puzzle_apply_scramble(req->puzzle, scramble, &req->spec.start, d);
        if (rc != PZ_OK) {
            pz_diag_field(d, "/scramble");
            return rc;
        }
        req->scramble = strdup(scramble);
        if (req->scramble == NULL) {
            return pz_diag_set(d, PZ_ENOMEM, "out of memory");
        }
    } else {
        rc = parse_state_member(req, state, "state", &req->spec.start, d);
        if (rc != PZ_OK) {
            return rc;
        }
    }
    rc = puzzle_check_pair(req->puzzle, &req->spec.start, &req->spec.goal, d);
    if (rc != PZ_OK) {
        pz_diag_field(d, goal != NULL ? "/goal" : "/state");
    }
    return rc;
}

/*
 * After puzzle_create refused the metric of prm: a puzzle with one kind of
 * move ignores the metric (openapi.yaml), so it is created without one
 * into *out (PZ_OK, d cleared); a puzzle with several (the cubes) keeps
 * the refusal. Returns PZ_EMETRIC, or another problem of prm with d.
 */
static int
ignore_metric(const char *name,
              const pz_params_t *prm,
              pz_puzzle_t **out,
              pz_diag_t *d)
{
    pz_params_t any = *prm;
    pz_diag_t why;
    int rc;

    any.metric = PZ_METRIC_DEFAULT;
    pz_diag_clear(&why);
    rc = puzzle_create(name, &any, out, &why);
    if (rc == PZ_OK && (*out)->metric == PZ_METRIC_MOVES) {
        pz_diag_clear(d);
        return PZ_OK;
    }
    puzzle_destroy(*out);
    *out = NULL;
    if (rc != PZ_OK && d != NULL) {
        *d = why;
        return rc;
    }
    return PZ_EMETRIC;
}

int
request__create_puzzle(const char *name,
                       const pz_params_t *prm,
                       pz_puzzle_t **out,
                       pz_diag_t *d)
{
    int rc = puzzle_create(name, prm, out, d);

    if (rc == PZ_EMETRIC) {
        rc = ignore_metric(name, prm, out, d);
    }
    if (rc != PZ_OK) {
        pz_diag_field(d, rc == PZ_EPUZZLE   ? "/puzzle"
                         : rc == PZ_EMETRIC ? "/metric"
                                            : "/size");
    }
    return rc;
}

int
api_puzzle_from_query(const char *name,
                      const char *size,
                      const char *metric,
                      const char *state,
                      pz_puzzle_t **out,
                      pz_diag_t *d)
{
    pz_params_t prm = { 0, 0, 0 };
    const puzzle_ops_t *ops = name != NULL ? puzzle_find(name) : NULL;
    int rc;

    *out = NULL;
    pz_diag_clear(d);
    if (name == NULL) {
        rc = pz_diag_set(d, PZ_EMISSING,
                         "query parameter 'puzzle' is required, for example "
                         "puzzle=333 or puzzle=15-puzzle");
        pz_diag_field(d, "/puzzle");
        return rc;
    }
    if ((rc = parse_metric(metric, &prm, d)) != PZ_OK) {
        pz_diag_field(d, "/metric");
        return rc;
    }
    if (ops != NULL && strcmp(ops->name, "tiles") == 0 && size != NULL &&
        (rc = request__parse_size_text(size, &prm, d)) != PZ_OK) {
        return rc;
    }
    if (strcasecmp(name, "tiles") == 0) {
        request__infer_tiles_text(state, &prm);
    }
    return request__create_puzzle(name, &prm, out, d);
}

int
api_solve_parse(const cJSON *body,
                const api_policy_t *pol,
                api_solve_request_t *req,
                pz_diag_t *d)
{
    const char *name = NULL;
    const char *metric = NULL;
    const puzzle_ops_t *ops;
    pz_params_t prm = { 0, 0, 0 };
    int optimal = -1;
    int rc;

    memset(req, 0, sizeof(*req));
    pz_diag_clear(d);
    if (!cJSON_IsObject(body)) {
        return pz_diag_set(d, PZ_ETYPE, "the body must be a JSON object");
    }
    if ((rc = request__check_members(body, d)) != PZ_OK ||
        (rc = request__get_string(body, "puzzle", &name, d)) != PZ_OK ||
        (rc = request__get_string(body, "metric", &metric, d)) != PZ_OK ||
        (rc = request__get_bool(body, "optimal", &optimal, d)) != PZ_OK ||
        (rc = parse_metric(metric, &prm, d)) != PZ_OK) {
        goto fail;
    }
    if (name == NULL) {
        rc = pz_diag_set(d, PZ_EMISSING,
                         "'puzzle' is required, for example "
                         "\"2x2x2\" or \"15-puzzle\"");
        pz_diag_field(d, "/puzzle");
        goto fail;
    }
    /* The size is the sliding tiles' own; other puzzles ignore it
     * (openapi.yaml). */
    ops = puzzle_find(name);
    if (ops != NULL && strcmp(ops->name, "tiles") == 0 &&
        (rc = parse_size(body, &prm, d)) != PZ_OK) {
        goto fail;
    }
    if (strcasecmp(name, "tiles") == 0) {
        infer_tiles_size(cJSON_GetObjectItemCaseSensitive(body, "state"), &prm);
    }
    rc = request__create_puzzle(name, &prm, &req->puzzle, d);
    if (rc != PZ_OK) {
        goto fail;
    }
    req->spec.puzzle = req->puzzle;
    /* Without "optimal", ask for a proven optimum where one comes quickly:
     * where the puzzle says so, else where a complete table can be had.
     * Not where a random position takes minutes to prove. */
    req->optimal =
        optimal >= 0 ? optimal != 0 : optimal_by_default(req->puzzle);
    /* Start and goal before the engines: "auto" depends on the goal. */
    if ((rc = parse_limits(body, pol, req, d)) != PZ_OK ||
        (rc = request__parse_tables_mode(body, pol, req, d)) != PZ_OK ||
        (rc = parse_start(body, req, d)) != PZ_OK ||
        (rc = request__parse_care(body, req, d)) != PZ_OK ||
        (rc = request__parse_moves(body, req, d)) != PZ_OK ||
        (rc = request__parse_solutions(body, req, d)) != PZ_OK ||
        (rc = parse_engines(body, req, d)) != PZ_OK ||
        (rc = request__plan_solutions(req, d)) != PZ_OK ||
        (rc = request__plan_tables(pol, req, d)) != PZ_OK) {
        goto fail;
    }
    request__defaults(pol, body, req);
    request__known_solution(req);
    return PZ_OK;
fail:
    api_solve_cleanup(req);
    return rc;
}

void
api_solve_cleanup(api_solve_request_t *req)
{
    if (req == NULL) {
        return;
    }
    puzzle_destroy(req->puzzle);
    api__batch_free(req->batch);
    req->batch = NULL;
    solutions_free(req->solutions);
    free(req->solutions);
    req->solutions = NULL;
    free(req->scramble);
    free(req->text);
    /* Only what makes a second cleanup safe and the request visibly empty:
     * clearing all 10 KiB (eight runs with solution buffers) here as well
     * as in api_solve_parse cost a microsecond per HTTP request. */
    req->puzzle = NULL;
    req->spec.puzzle = NULL;
    req->scramble = NULL;
    req->text = NULL;
    req->text_len = 0;
    req->nruns = 0;
}

int
api_solve_parse_text(const char *buf,
                     size_t len,
                     const api_policy_t *pol,
                     api_solve_request_t *req,
                     pz_diag_t *d)
{
    cJSON *root = NULL;
    int rc = api_json_parse_max(buf, len, API_BATCH_BODY_MAX, &root, d);

    /* A batch (POST /v1/solve/batch) has "items"; a single request is at
     * most API_BODY_MAX bytes. */
    if (rc == PZ_OK && cJSON_IsObject(root) &&
        cJSON_GetObjectItemCaseSensitive(root, "items") != NULL) {
        pz_diag_clear(d);
        rc = api_batch_parse(root, pol, req, d);
    } else if (rc == PZ_OK && len > API_BODY_MAX) {
        memset(req, 0, sizeof(*req));
        rc = pz_diag_set(d, PZ_ETOO_LARGE,
                         "the body has %zu bytes; the limit is %d", len,
                         API_BODY_MAX);
    } else if (rc == PZ_OK) {
        rc = api_solve_parse(root, pol, req, d);
    }
    cJSON_Delete(root);
    /* The text itself goes with the request: a shared job store queues
     * it for whichever replica runs the job, which parses it again. */
    if (rc == PZ_OK) {
        req->text = malloc(len + 1);
        if (req->text == NULL) {
            api_solve_cleanup(req);
            return pz_diag_set(d, PZ_ENOMEM, "out of memory");
        }
        memcpy(req->text, buf, len);
        req->text[len] = '\0';
        req->text_len = len;
    }
    return rc;
}
