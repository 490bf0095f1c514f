/* SPDX-License-Identifier: MIT */
/* catalogue.h - the GET /v1/puzzles body: puzzles, engines and limits. */
#ifndef PZ_API_CATALOGUE_H
#define PZ_API_CATALOGUE_H

#include <stddef.h>

#include "request.h"

/*
 * The catalogue, built from the registries: every puzzle with its alias
 * names, notation, state forms, metrics, heuristics (name, summary,
 * admissible) and example requests (fixed-seed random scrambles, so the
 * body is the same on every start); every alias with its puzzle and size;
 * every engine and puzzle solver, plus "auto"; and the limits of pol.
 * Returns compact JSON text (owned, free) and its length, or NULL when out
 * of memory. Thread: any.
 */
char *api_catalogue_text(const api_policy_t *pol, size_t *len);

#endif
