/* SPDX-License-Identifier: MIT */
/* request_internal.h - what the parts of solve request validation share:
 * request.c (the request, its puzzle, engines and limits),
 * request_members.c (members with type checks), request_tables.c (the
 * shared tables a request needs) and request_short.c (the defaults a short
 * scramble implies). */
#ifndef PZ_API_REQUEST_INTERNAL_H
#define PZ_API_REQUEST_INTERNAL_H

#include <stdint.h>

#include "api_json.h"
#include "request.h"

/*
 * Rejects the first member of body that the solve request does not know
 * (PZ_EUNKNOWN_FIELD) or that appears twice (PZ_ECONFLICT), with d filled
 * and d->field its JSON pointer. PZ_OK when there is none.
 */
int request__check_members(const cJSON *body, pz_diag_t *d);

/* Reads a size written ROWSxCOLS ("4x4") into prm. PZ_OK, or PZ_ESIZE
 * with d filled (field /size). */
int request__parse_size_text(const char *t, pz_params_t *prm, pz_diag_t *d);

/* For the sliding tiles without a size: a state text of N*N numbers sets
 * an NxN size in prm (nothing when prm has a size or text is NULL). */
void request__infer_tiles_text(const char *text, pz_params_t *prm);

/* Creates the puzzle name with prm (puzzle_create); a puzzle with one kind
 * of move ignores a metric it does not know. PZ_OK, or the code of
 * puzzle_create with d filled (field /puzzle, /metric or /size). */
int request__create_puzzle(const char *name,
                           const pz_params_t *prm,
                           pz_puzzle_t **out,
                           pz_diag_t *d);

/* The string member of body into *out, NULL when absent or null; else
 * PZ_ETYPE with d filled (field /member). */
int request__get_string(const cJSON *body,
                        const char *member,
                        const char **out,
                        pz_diag_t *d);

/* The boolean member of body into *out (0 or 1; untouched when absent or
 * null); else PZ_ETYPE with d filled (field /member). */
int request__get_bool(const cJSON *body,
                      const char *member,
                      int *out,
                      pz_diag_t *d);

/* The integer member of body in lo..hi into *out (untouched when absent or
 * null); else PZ_ETYPE or PZ_ERANGE with d filled (field /member). */
int request__get_int(const cJSON *body,
                     const char *member,
                     double lo,
                     double hi,
                     int64_t *out,
                     pz_diag_t *d);

/* Fills d for a member above this server's maximum max (unit printed
 * after it, e.g. " ms") and returns PZ_ELIMIT. */
int request__too_large(pz_diag_t *d,
                       const char *member,
                       uint64_t max,
                       const char *unit);

/* Warns (table_missing) that "auto" chose heuristic because table is not
 * built; nothing when req has all the warnings it can hold. */
void request__warn_missing(api_solve_request_t *req,
                           const char *table,
                           const char *heuristic);

/* Reads the members "tables" and "tables_wait_ms" into req against pol.
 * PZ_OK, or PZ_ETYPE, PZ_ERANGE, PZ_EINVAL or PZ_ELIMIT with d filled. */
int request__parse_tables_mode(const cJSON *body,
                               const api_policy_t *pol,
                               api_solve_request_t *req,
                               pz_diag_t *d);

/*
 * Decides, for a daemon, what the request does about the shared tables
 * its runs need (see api_policy_t's table_builds and the request's
 * "tables" member): run at once, prepare them first (req->preparing and
 * req->tables), fall back, or refuse with the reason in d. Call after
 * the runs are parsed.
 */
int request__plan_tables(const api_policy_t *pol,
                         api_solve_request_t *req,
                         pz_diag_t *d);

/* A scramble of up to this many plain moves is short: its inverse bounds
 * the optimum, and the default search uses that bound. Two-phase meets
 * such a target in under 10 ms (6 random-move scrambles of 8, 10 and 12
 * moves: 0.0-8.8 ms); at 15 and 16 moves it can take 0.7 s
 * (docs/twophase.md). */
#define REQUEST_SHORT_SCRAMBLE 12

/* Gives req's runs the inverse of a scramble of plain moves from the
 * default goal as a known solution (solve_spec_t known). */
void request__known_solution(api_solve_request_t *req);

/*
 * The number of moves of req's scramble when every token of it is one of
 * the puzzle's moves and it was played from the default goal (its inverse
 * is then a solution that long), else 0 (request_short.c).
 */
int request__scramble_moves(const api_solve_request_t *req);

/* Sets req's target_length when body has none: a short scramble's length
 * or God's number for two-phase runs (request_short.c). */
void request__default_target(const cJSON *body, api_solve_request_t *req);

/* What req leaves to defaults once parsed: its target length
 * (request__default_target) and, for a proven optimum that auto hands to
 * IDA* (one run), every thread the policy gives such a search
 * (pol->optimal_threads, when above the request's threads). */
void request__defaults(const api_policy_t *pol,
                       const cJSON *body,
                       api_solve_request_t *req);

/* Adjusts "auto"'s choice for a masked goal, a move subset or several
 * solutions (request_moves.c). */
void request__auto_restricted(const api_solve_request_t *req,
                              engine_choice_t *choice);

/* Reads the member "care" (a preset name, or a list of piece and preset
 * names) and masks req's puzzle, start and goal (puzzle_mask_care),
 * keeping the unmasked states in start_full and goal_full. PZ_OK, or
 * PZ_ETYPE, PZ_EINVAL or PZ_EUNSUPPORTED with d filled (field /care). */
int
request__parse_care(const cJSON *body, api_solve_request_t *req, pz_diag_t *d);

/*
 * Reads the member "moves" (a list of move or face names) and restricts
 * req's puzzle to them (puzzle_restrict), then rejects a start that is
 * cheaply proven out of their reach (puzzle_subset_reachable). Needs the
 * start and goal. PZ_OK, or PZ_ETYPE, PZ_EMOVE or PZ_EUNREACHABLE with d
 * filled (field /moves or /moves/i).
 */
int
request__parse_moves(const cJSON *body, api_solve_request_t *req, pz_diag_t *d);

/* Reads "solutions", "all_optimal" and "max_solutions" into req. PZ_OK,
 * or PZ_ETYPE, PZ_ERANGE or PZ_ECONFLICT with d filled. */
int request__parse_solutions(const cJSON *body,
                             api_solve_request_t *req,
                             pz_diag_t *d);

/* Once the engines are chosen: refuses several solutions from an engine
 * that cannot list them (PZ_EUNSUPPORTED) or from a comparison
 * (PZ_ECONFLICT), else gives runs[0] the storage. PZ_OK or the code with
 * d filled. */
int request__plan_solutions(api_solve_request_t *req, pz_diag_t *d);

#endif
