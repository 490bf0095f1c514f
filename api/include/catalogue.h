/* SPDX-License-Identifier: MIT */
/* catalogue.h - the GET /v1/puzzles body: puzzles, engines and limits. */
#ifndef PZ_API_CATALOGUE_H
#define PZ_API_CATALOGUE_H

#include <cjson/cJSON.h>

#include "request.h"

/*
 * Builds the catalogue from the registries: every puzzle with its alias
 * names, notation, state forms, metrics, heuristics (name, summary,
 * admissible) and example requests (fixed-seed random scrambles, so the
 * body is the same on every start); every alias with its puzzle and size;
 * every engine, plus "auto"; and the limits of pol.
 * Returns an owned root (cJSON_Delete) or NULL when out of memory.
 * Thread: any.
 */
cJSON *api_catalogue(const api_policy_t *pol);

#endif
