/* SPDX-License-Identifier: MIT */
/* scramble.h - scrambles for GET /v1/scramble: random moves, or a random
 * state made into moves by solving it. */
#ifndef PZ_API_SCRAMBLE_H
#define PZ_API_SCRAMBLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jsonout.h"
#include "request.h"

/* The query parameters of a scramble request, as sent (NULL: absent). */
typedef struct api_scramble_query {
    const char *puzzle; /* id or alias, WCA event ids included */
    const char *size;   /* tiles: "4x4" */
    const char *metric;
    const char *moves; /* a random-move scramble of this many moves */
    const char *seed;  /* decimal, up to 2^53 */
} api_scramble_query_t;

/*
 * A scramble being made. A random-move scramble is done at once; a
 * random-state scramble draws the state and leaves a solve request in
 * `request` for the caller to run as a job, whose end api_scramble_finish
 * turns into the moves.
 */
typedef struct api_scramble {
    pz_puzzle_t *puzzle;
    uint64_t seed;
    bool random_state;
    bool done;        /* moves[0..length) is the scramble */
    pz_state_t state; /* the state the scramble makes */
    int length;
    uint8_t moves[PZ_SOLUTION_MAX];
    char *request; /* random state: the solve request (JSON) to run */
    size_t request_len;
} api_scramble_t;

/* Time a random-state scramble's solve may take at most. */
#define API_SCRAMBLE_TIME_MS 10000

/*
 * Checks q and starts the scramble into *out: seed is used when q has
 * none. PZ_OK, or a code with d filled (d->field the parameter's name).
 * Call api_scramble_cleanup either way. Thread: any.
 */
int api_scramble_prepare(const api_scramble_query_t *q,
                         const api_policy_t *pol,
                         uint64_t seed,
                         api_scramble_t *out,
                         pz_diag_t *d);

/*
 * Turns the ended job of s->request, as GET /v1/jobs/{id} renders it
 * (job_json), into the scramble: the inverse of its solution, checked to
 * make s->state from the goal. PZ_OK, or PZ_EINTERNAL with d filled when
 * the job found no solution. Thread: any.
 */
int api_scramble_finish(api_scramble_t *s,
                        const char *job_json,
                        size_t len,
                        pz_diag_t *d);

/* Writes the scramble reply (openapi.yaml, Scramble) of a done s. */
void api_scramble_write(jsonout_t *w, const api_scramble_t *s);

/* Frees what s holds; safe twice. */
void api_scramble_cleanup(api_scramble_t *s);

#endif
