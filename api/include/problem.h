/* SPDX-License-Identifier: MIT */
/* problem.h - RFC 9457 problem details for every error reply. */
#ifndef PZ_API_PROBLEM_H
#define PZ_API_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>

#include "pz_error.h"

/*
 * The problem object for d (or for rc with a generic detail when d is
 * NULL or empty): type, title, status, detail, code, and field/position
 * when known. Returns JSON text (owned, free), compact or indented
 * (pretty), and its length, or NULL on allocation failure. Thread: any.
 */
char *api_problem_text(int rc, const pz_diag_t *d, bool pretty, size_t *len);

#endif
