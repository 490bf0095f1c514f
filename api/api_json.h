/* SPDX-License-Identifier: MIT */
/* api_json.h - the api layer's cJSON side: trees in and out (api/ only;
 * the other layers see JSON as text). */
#ifndef PZ_API_API_JSON_H
#define PZ_API_API_JSON_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "catalogue.h"
#include "jsonout.h"
#include "problem.h"
#include "request.h"

/*
 * Validates body (an object) against the solve request schema and fills
 * req: unknown members, types and ranges, the puzzle and its size, the
 * state (scramble or state form) and goal with every puzzle check, the
 * engines and heuristic, and the limits against pol. On failure returns the
 * PZ_E* code with d filled (detail, JSON pointer in d->field) and req left
 * empty (nothing to clean up). On success the caller owns req and frees it
 * with api_solve_cleanup. Thread: any.
 */
int api_solve_parse(const cJSON *body,
                    const api_policy_t *pol,
                    api_solve_request_t *req,
                    pz_diag_t *d);

/*
 * Parses untrusted bytes as one JSON value: length-bounded, strict about
 * trailing garbage, depth-limited. Returns an owned root (cJSON_Delete) in
 * *out, or PZ_EJSON / PZ_ETOO_LARGE with d->position at the error.
 * Thread: any.
 */
int api_json_parse(const char *buf, size_t len, cJSON **out, pz_diag_t *d);

/* api_json_parse with a limit of max bytes instead of API_BODY_MAX. */
int api_json_parse_max(const char *buf,
                       size_t len,
                       size_t max,
                       cJSON **out,
                       pz_diag_t *d);

/*
 * Converts a JSON state (a string, or an array of integers nested up to 3
 * deep) into *in. Integers go to ints (caller-provided, cap entries).
 * PZ_ETYPE or PZ_ESTATE_LENGTH with d on failure. Thread: any.
 */
int api_state_input(const cJSON *v,
                    int *ints,
                    size_t cap,
                    pz_input_t *in,
                    pz_diag_t *d);

/* The catalogue as a tree (see api_catalogue_text). Returns an owned root
 * (cJSON_Delete) or NULL when out of memory. Thread: any. */
cJSON *api_catalogue(const api_policy_t *pol);

/* The problem object as a tree (see api_problem_text). Returns an owned
 * root (cJSON_Delete) or NULL on allocation failure. Thread: any. */
cJSON *api_problem(int rc, const pz_diag_t *d);

/* Adds an unsigned 64-bit integer member printed exactly (cJSON prints
 * numbers as doubles, which lose precision past 2^53). name must outlive
 * the tree (a string literal): it is not copied. */
cJSON *api_add_u64(cJSON *obj, const char *name, uint64_t v);

/* A whole cJSON tree as the value (raw items printed as they are). */
void jsonout_tree(jsonout_t *w, const char *key, const cJSON *item);

/*
 * Prints item as cJSON_PrintUnformatted would, byte for byte (the reply
 * bodies and the OpenAPI checks depend on that text). Returns an owned
 * NUL-terminated buffer (free) and its length in *len, or NULL when out of
 * memory or for a tree cJSON would not print either (a raw item without
 * text, an invalid type). Thread: any.
 */
char *jsonout_print(const cJSON *item, size_t *len);

#endif
