/* SPDX-License-Identifier: MIT */
/* problem.h - RFC 9457 problem details for every error reply. */
#ifndef PZ_API_PROBLEM_H
#define PZ_API_PROBLEM_H

#include <cjson/cJSON.h>

#include "pz_error.h"

/*
 * Builds the problem object for d (or for rc with a generic detail when d
 * is NULL or empty): type, title, status, detail, code, and field/position
 * when known. Returns an owned root (cJSON_Delete) or NULL on allocation
 * failure. Thread: any.
 */
cJSON *api_problem(int rc, const pz_diag_t *d);

#endif
