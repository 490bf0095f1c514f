/* SPDX-License-Identifier: MIT */
/* scramble.c - scrambles for GET /v1/scramble.
 *
 * A random-state scramble is made as competition scramblers make theirs:
 * a uniformly random legal state, solved (not necessarily optimally), and
 * the solution inverted. The solving runs as an ordinary job under the
 * server's limits; this file writes its request and reads its end. */
#include "scramble.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_json.h"

/* Random-move scrambles take at most this many moves. */
#define SCRAMBLE_MOVES_MAX 1000

/* Largest seed: integers up to 2^53 survive a JSON number. */
#define SCRAMBLE_SEED_MAX (UINT64_C(1) << 53)

/* Parses a whole decimal integer in 0..max into *out. */
static bool
parse_uint(const char *s, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;

    if (*s == '\0' || strlen(s) > 20) {
        return false;
    }
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9') {
            return false;
        }
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > max) {
            return false;
        }
    }
    *out = v;
    return true;
}

static int
bad_param(pz_diag_t *d, const char *name, const char *detail)
{
    char field[16];

    pz_diag_set(d, PZ_ERANGE, "query parameter %s must be %s", name, detail);
    snprintf(field, sizeof(field), "/%s", name);
    pz_diag_field(d, field);
    return PZ_ERANGE;
}

/* The solve request for s->state: not necessarily optimal, within the
 * server's time maximum. */
static int
write_request(const api_policy_t *pol, api_scramble_t *s, pz_diag_t *d)
{
    const pz_puzzle_t *p = s->puzzle;
    uint64_t time_ms = API_SCRAMBLE_TIME_MS;
    char state[1024];
    jsonout_t w;

    if (puzzle_format_state(p, &s->state, state, sizeof(state)) < 0) {
        return pz_diag_set(d, PZ_EINTERNAL, "could not write the state");
    }
    if (pol->max_time_ms > 0 && time_ms > pol->max_time_ms) {
        time_ms = pol->max_time_ms;
    }
    jsonout_init(&w);
    jsonout_begin(&w, NULL, '{');
    jsonout_string(&w, "puzzle", p->id);
    if (p->size[0] != '\0') {
        jsonout_string(&w, "size", p->size);
    }
    jsonout_string(&w, "metric", p->metric_name);
    jsonout_string(&w, "state", state);
    jsonout_bool(&w, "optimal", false);
    jsonout_u64(&w, "time_ms", time_ms);
    jsonout_u64(&w, "wait_ms", 0);
    jsonout_end(&w, '}');
    s->request = jsonout_finish(&w, &s->request_len);
    if (s->request == NULL) {
        return pz_diag_set(d, PZ_ENOMEM, "out of memory");
    }
    return PZ_OK;
}

int
api_scramble_prepare(const api_scramble_query_t *q,
                     const api_policy_t *pol,
                     uint64_t seed,
                     api_scramble_t *out,
                     pz_diag_t *d)
{
    uint64_t nmoves = 0;
    pz_rng_t rng;
    int rc;

    memset(out, 0, sizeof(*out));
    pz_diag_clear(d);
    out->seed = seed % (SCRAMBLE_SEED_MAX + 1);
    if (q->seed != NULL &&
        !parse_uint(q->seed, SCRAMBLE_SEED_MAX, &out->seed)) {
        return bad_param(d, "seed", "an integer from 0 to 2^53");
    }
    if (q->moves != NULL &&
        !parse_uint(q->moves, SCRAMBLE_MOVES_MAX, &nmoves)) {
        return bad_param(d, "moves", "an integer from 0 to 1000");
    }
    rc = api_puzzle_from_query(q->puzzle, q->size, q->metric, NULL,
                               &out->puzzle, d);
    if (rc != PZ_OK) {
        return rc;
    }
    pz_rng_seed(&rng, out->seed);
    out->random_state =
        q->moves == NULL && puzzle_has_random_state(out->puzzle);
    if (!out->random_state) {
        if (q->moves == NULL) {
            nmoves = 25;
        }
        puzzle_goal(out->puzzle, &out->state);
        out->length = (int)nmoves;
        if (puzzle_random_moves(out->puzzle, &out->state, out->length,
                                pz_rng_next, &rng, out->moves) != PZ_OK ||
            puzzle_replay(out->puzzle, &out->state, out->moves, out->length,
                          &out->state) != PZ_OK) {
            return pz_diag_set(d, PZ_EINTERNAL, "could not draw the moves");
        }
        out->done = true;
        return PZ_OK;
    }
    if (puzzle_random_state(out->puzzle, pz_rng_next, &rng, &out->state) !=
        PZ_OK) {
        return pz_diag_set(d, PZ_EINTERNAL, "could not draw a random state");
    }
    return write_request(pol, out, d);
}

int
api_scramble_finish(api_scramble_t *s,
                    const char *job_json,
                    size_t len,
                    pz_diag_t *d)
{
    const pz_puzzle_t *p = s->puzzle;
    uint8_t sol[PZ_SOLUTION_MAX];
    const cJSON *moves;
    const cJSON *m;
    cJSON *root = NULL;
    pz_state_t goal;
    pz_state_t made;
    int n = 0;

    pz_diag_clear(d);
    if (api_json_parse(job_json, len, &root, d) != PZ_OK) {
        return pz_diag_set(d, PZ_EINTERNAL, "the scramble's job is unreadable");
    }
    moves = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(root, "solution"), "moves");
    if (!cJSON_IsArray(moves)) {
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "status");

        pz_diag_set(d, PZ_EINTERNAL,
                    "the random state was not solved in time (its job "
                    "ended %s); try again",
                    cJSON_IsString(st) ? st->valuestring : "without answer");
        cJSON_Delete(root);
        return PZ_EINTERNAL;
    }
    cJSON_ArrayForEach(m, moves)
    {
        int i = cJSON_IsString(m) ? puzzle_move_index(p, m->valuestring) : -1;

        if (i < 0 || n >= PZ_SOLUTION_MAX) {
            cJSON_Delete(root);
            return pz_diag_set(d, PZ_EINTERNAL,
                               "the scramble's solution is unreadable");
        }
        sol[n++] = (uint8_t)i;
    }
    cJSON_Delete(root);
    puzzle_scramble_of_solution(p, sol, n, s->moves);
    s->length = n;
    /* The scramble must make the drawn state, whatever the job said. */
    puzzle_goal(p, &goal);
    if (puzzle_replay(p, &goal, s->moves, n, &made) != PZ_OK ||
        !puzzle_equal(p, &made, &s->state)) {
        return pz_diag_set(d, PZ_EINTERNAL,
                           "the scramble does not make the drawn state");
    }
    s->done = true;
    return PZ_OK;
}

void
api_scramble_write(jsonout_t *w, const api_scramble_t *s)
{
    const pz_puzzle_t *p = s->puzzle;
    char text[PZ_SOLUTION_MAX * 8];
    char state[1024];

    if (puzzle_format_moves(p, s->moves, s->length, text, sizeof(text)) < 0) {
        text[0] = '\0';
    }
    if (puzzle_format_state(p, &s->state, state, sizeof(state)) < 0) {
        state[0] = '\0';
    }
    jsonout_begin(w, NULL, '{');
    jsonout_string(w, "puzzle", p->id);
    if (p->size[0] != '\0') {
        jsonout_string(w, "size", p->size);
    }
    jsonout_string(w, "event", puzzle_event_id(p));
    jsonout_string(w, "metric", p->metric_name);
    jsonout_string(w, "scramble", text);
    jsonout_u64(w, "length", (uint64_t)s->length);
    jsonout_string(w, "state", state);
    jsonout_bool(w, "random_state", s->random_state);
    jsonout_u64(w, "seed", s->seed);
    jsonout_end(w, '}');
}

void
api_scramble_cleanup(api_scramble_t *s)
{
    puzzle_destroy(s->puzzle);
    free(s->request);
    s->puzzle = NULL;
    s->request = NULL;
}
