/* SPDX-License-Identifier: MIT */
/* request_short.c - what a short scramble implies for a solve request's
 * defaults: its inverse bounds the answer, so the default search can aim
 * at that bound (request.c calls these). */
#include <string.h>

#include "request_internal.h"

/*
 * The number of moves of req's scramble when every token of it is one of
 * the puzzle's moves and it was played from the default goal: then the
 * scramble's inverse is a solution of that length. 0 otherwise (no
 * scramble, another goal, or tokens such as wide turns, slices or
 * rotations that are not one move of the puzzle's metric). The first max
 * move ids go to moves (may be NULL when max is 0).
 */
static int
plain_moves(const api_solve_request_t *req, uint8_t *moves, int max)
{
    const char *t = req->scramble;
    pz_state_t goal;
    int n = 0;

    if (t == NULL) {
        return 0;
    }
    puzzle_goal(req->puzzle, &goal);
    if (!puzzle_equal(req->puzzle, &goal, &req->spec.goal)) {
        return 0;
    }
    while (*t != '\0') {
        char token[16];
        size_t len;
        int m;

        t += strspn(t, " \t\r\n");
        len = strcspn(t, " \t\r\n");
        if (len == 0) {
            break;
        }
        if (len >= sizeof(token)) {
            return 0;
        }
        memcpy(token, t, len);
        token[len] = '\0';
        if ((m = puzzle_move_index(req->puzzle, token)) < 0) {
            return 0;
        }
        if (n < max) {
            moves[n] = (uint8_t)m;
        }
        n++;
        t += len;
    }
    return n;
}

int
request__scramble_moves(const api_solve_request_t *req)
{
    return plain_moves(req, NULL, 0);
}

/*
 * The two-phase engine is anytime: target_length 0 lets it improve until
 * the time budget ends. Without the member it stops at God's number, 20
 * in HTM (26 in QTM, where 20 is out of reach for most cubes): a good
 * answer in about a millisecond instead of the whole budget. A scramble
 * of at most REQUEST_SHORT_SCRAMBLE plain moves is the target instead: its
 * inverse solves the cube in that many moves, so an answer at most that
 * long exists, and two-phase finds one in milliseconds.
 */
void
request__default_target(const cJSON *body, api_solve_request_t *req)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, "target_length");
    int target;
    int n;

    if (v != NULL && !cJSON_IsNull(v)) {
        return;
    }
    for (int i = 0; i < req->nruns; i++) {
        if (strcmp(req->runs[i].engine->name, "twophase") == 0) {
            target = req->puzzle->metric == PZ_METRIC_QTM ? 26 : 20;
            n = request__scramble_moves(req);
            req->spec.target_length =
                n > 0 && n <= REQUEST_SHORT_SCRAMBLE ? n : target;
            return;
        }
    }
}

/*
 * A scramble of plain moves played from the default goal has a known
 * solution, its inverse: the runs get it (solve_spec_t known), and an
 * engine whose answer is longer answers with it instead. So a short
 * scramble never gets a longer answer, whatever the engine.
 */
void
request__known_solution(api_solve_request_t *req)
{
    uint8_t moves[PZ_KNOWN_MAX];
    int n = plain_moves(req, moves, PZ_KNOWN_MAX);

    req->spec.known_length = 0;
    if (n <= 0 || n > PZ_KNOWN_MAX) {
        return;
    }
    for (int i = 0; i < n; i++) {
        req->spec.known[i] =
            (uint8_t)puzzle_inverse(req->puzzle, moves[n - 1 - i]);
    }
    req->spec.known_length = n;
}

void
request__defaults(const api_policy_t *pol,
                  const cJSON *body,
                  api_solve_request_t *req)
{
    request__default_target(body, req);
    /* Not when collecting several solutions: IDA* does that on one thread. */
    if (pol->optimal_threads > req->spec.threads && req->optimal &&
        req->want_solutions == 0 && !req->all_optimal && req->nruns == 1 &&
        strcmp(req->requested[0], "auto") == 0 &&
        req->runs[0].engine->threads) {
        req->spec.threads = pol->optimal_threads;
        req->spread = true;
    }
}
