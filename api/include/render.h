/* SPDX-License-Identifier: MIT */
/* render.h - pictures of puzzle states as SVG documents (GET /v1/render). */
#ifndef PZ_API_RENDER_H
#define PZ_API_RENDER_H

#include <stddef.h>

#include "puzzle.h"

/* Width of a picture in pixels: the default and the range allowed. */
#define API_RENDER_PX_DEFAULT 240
#define API_RENDER_PX_MIN     32
#define API_RENDER_PX_MAX     2048

/* A picture request as the HTTP layer received it: the decoded query
 * parameters, each NULL when absent. All borrowed. */
typedef struct api_render_query {
    const char *puzzle;   /* puzzle id or alias ("3x3x3", "15-puzzle") */
    const char *size;     /* tiles only: ROWSxCOLS ("4x4") */
    const char *state;    /* a state in the puzzle's text form */
    const char *scramble; /* moves applied to the solved state */
    const char *px;       /* width in pixels, decimal */
} api_render_query_t;

/* A validated picture request. */
typedef struct api_render_request {
    pz_puzzle_t *puzzle; /* owned: api_render_cleanup */
    pz_state_t state;    /* the state to draw, valid for puzzle */
    int px;              /* width in pixels, API_RENDER_PX_MIN..MAX */
} api_render_request_t;

/*
 * Validates q into req: the puzzle (PZ_EPUZZLE, PZ_ESIZE), then the state
 * from `state` (parsed and checked as a solve request's state: the 422
 * codes of pz_error.h) or `scramble` (applied to the solved state:
 * PZ_EMOVE with d->position), or the solved state when neither is given
 * (both: PZ_ECONFLICT); `px` (PZ_ERANGE outside API_RENDER_PX_MIN..MAX
 * or not a decimal integer); PZ_EUNSUPPORTED for a puzzle that draws
 * nothing. On failure d holds a sentence and the parameter as a pointer
 * ("/state") in d->field, and req is empty; on success the caller owns
 * req and frees it with api_render_cleanup. Thread: any.
 */
int api_render_parse(const api_render_query_t *q,
                     api_render_request_t *req,
                     pz_diag_t *d);

/* Frees what req owns; req may be NULL or already cleaned. */
void api_render_cleanup(api_render_request_t *req);

/*
 * Writes a standalone SVG document of state s of p (borrowed), px pixels
 * wide (API_RENDER_PX_MIN..MAX) and as high as the picture's proportions
 * make it: a title naming the puzzle, a description giving the state's
 * text form, the puzzle's shapes as polygons with a thin dark outline and
 * their labels as text. Every text in it is escaped for XML. Returns
 * PZ_OK with the document in *out (owned, free) and its length in *len,
 * or PZ_EUNSUPPORTED (p draws nothing), PZ_EINVAL (px out of range),
 * PZ_EINTERNAL or PZ_ENOMEM with *out NULL. Thread: any.
 */
int api_render_svg(const pz_puzzle_t *p,
                   const pz_state_t *s,
                   int px,
                   char **out,
                   size_t *len);

#endif
