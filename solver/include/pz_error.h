/* SPDX-License-Identifier: MIT */
/* pz_error.h - the one table of error codes shared by every layer. */
#ifndef PZ_SOLVER_PZ_ERROR_H
#define PZ_SOLVER_PZ_ERROR_H

#include <stddef.h>

/*
 * Every fallible function returns PZ_OK (0) or one of these negative codes.
 * XX(NAME, HTTP status, stable machine-readable code, short title).
 * The HTTP status and the code string are part of the public API contract
 * (openapi.yaml lists them); never renumber or rename an existing entry.
 */
#define PZ_ERR_MAP(XX)                                                       \
    XX(EINVAL, 400, "invalid_argument", "Invalid argument")                  \
    XX(ENOMEM, 500, "out_of_memory", "Out of memory")                        \
    XX(EINTERNAL, 500, "internal_error", "Internal error")                   \
    XX(EIO, 500, "io_error", "Input/output error")                           \
    XX(EJSON, 400, "invalid_json", "Body is not valid JSON")                 \
    XX(EUNKNOWN_FIELD, 400, "unknown_field", "Unknown member")               \
    XX(ETYPE, 400, "bad_type", "Member has the wrong type")                  \
    XX(EMISSING, 400, "missing_field", "Required member missing")            \
    XX(ERANGE, 400, "out_of_range", "Value out of range")                    \
    XX(ECONFLICT, 400, "conflicting_fields", "Conflicting members")          \
    XX(EPUZZLE, 400, "unknown_puzzle", "Unknown puzzle")                     \
    XX(EENGINE, 400, "unknown_engine", "Unknown engine")                     \
    XX(EHEURISTIC, 400, "unknown_heuristic", "Unknown heuristic")            \
    XX(EMETRIC, 400, "unknown_metric", "Unknown metric")                     \
    XX(ESIZE, 400, "bad_size", "Bad puzzle size")                            \
    XX(EMOVE, 422, "bad_move", "Bad move in scramble")                       \
    XX(ESTATE_LENGTH, 422, "bad_state_length", "State has the wrong length") \
    XX(ESTATE_SYMBOL, 422, "bad_state_symbol", "State has a bad symbol")     \
    XX(ECOLOUR_COUNT, 422, "bad_colour_count", "Wrong number of a colour")   \
    XX(ECENTRES, 422, "bad_centres", "Centres are not six distinct colours") \
    XX(ECORNER, 422, "bad_corner", "Not a real corner piece")                \
    XX(EEDGE, 422, "bad_edge", "Not a real edge piece")                      \
    XX(EDUPLICATE, 422, "duplicate_piece", "A piece appears twice")          \
    XX(ETWIST, 422, "twisted_corner", "Corner twist does not sum to zero")   \
    XX(EFLIP, 422, "flipped_edge", "Edge flip does not sum to zero")         \
    XX(EPARITY, 422, "parity", "Permutation parity is odd")                  \
    XX(ETILES, 422, "bad_tiles", "Tiles are not a permutation")              \
    XX(EUNSOLVABLE, 422, "tiles_unsolvable", "Tiles cannot reach the goal")  \
    XX(EUNSUPPORTED, 422, "engine_unsupported",                              \
       "Engine or heuristic does not support this puzzle")                   \
    XX(ELIMIT, 422, "limit_too_large", "Limit above the server maximum")     \
    XX(EQUEUE_FULL, 429, "queue_full", "Job queue is full")                  \
    XX(EMEMORY_CAP, 429, "memory_cap", "Server memory cap reached")          \
    XX(ETABLES_MEMORY, 507, "tables_memory",                                 \
       "Tables need more memory than the server allows")                     \
    XX(EJOB_NOT_FOUND, 404, "job_not_found", "No such job")                  \
    XX(ENOT_FOUND, 404, "not_found", "No such resource")                     \
    XX(EMETHOD, 405, "method_not_allowed", "Method not allowed")             \
    XX(ELENGTH, 411, "length_required", "Content-Length required")           \
    XX(ETOO_LARGE, 413, "body_too_large", "Request body too large")          \
    XX(EMEDIA, 415, "unsupported_media_type", "Body must be JSON")           \
    XX(EDRAINING, 503, "draining", "Server is shutting down")                \
    XX(ECANCELLED, 500, "cancelled", "Cancelled")                            \
    XX(ETABLE_MISSING, 503, "table_missing",                                 \
       "A table this request needs is not built")                            \
    XX(ETABLE_NOT_READY, 503, "table_not_ready",                             \
       "A table this request needs is not loaded yet")                       \
    XX(ERESULTS_FULL, 429, "results_full",                                   \
       "Too many results wait to be collected")                              \
    XX(EOVERLOADED, 503, "overloaded", "Server is at its connection limit")  \
    XX(EURI_TOO_LONG, 414, "uri_too_long", "Request target too long")        \
    XX(EHEADERS_TOO_LARGE, 431, "headers_too_large",                         \
       "Request headers too large")                                          \
    XX(EBACKEND, 503, "backend_unavailable", "The job store is unreachable") \
    XX(EWORKER_LOST, 500, "worker_lost",                                     \
       "The replica running the job was lost")                               \
    XX(EBACKEND_LOST, 500, "backend_lost", "The job store lost the job")     \
    XX(EUNREACHABLE, 422, "unreachable_with_moves",                          \
       "The moves allowed cannot reach the goal")

typedef enum pz_err {
    PZ_OK = 0,
    PZ_ERR_FIRST_ = -1000, /* codes count up from here; never 0 */
#define PZ_ERR_ENUM_(name, status, code, title) PZ_##name,
    PZ_ERR_MAP(PZ_ERR_ENUM_)
#undef PZ_ERR_ENUM_
    PZ_ERR_LAST_
} pz_err_t;

/* Machine-readable code of rc ("bad_move"); "ok" for PZ_OK, "internal_error"
 * for anything unknown. Returns a static string. Thread: any. */
const char *pz_strerror(int rc);

/* Human title of rc ("Bad move in scramble"). Static string. Thread: any. */
const char *pz_errtitle(int rc);

/* HTTP status that rc maps to (200 for PZ_OK, 500 for unknown codes).
 * Thread: any. */
int pz_http_status(int rc);

/*
 * Diagnostic attached to a failed validation: what went wrong, in a sentence
 * a person can act on, and where (a JSON pointer relative to the request
 * body, and a character offset for parse errors). Filled by the solver's
 * parsers; the api layer turns it into a problem+json body.
 */
typedef struct pz_diag {
    int rc;           /* negative PZ_E* code, PZ_OK when nothing failed */
    char detail[384]; /* sentence for a person, NUL-terminated */
    char field[64];   /* JSON pointer ("/state"), may be empty */
    int position;     /* 0-based offset in the offending text, or -1 */
} pz_diag_t;

/*
 * Length of the longest prefix of s[0..len) that is well-formed UTF-8
 * (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
 * Equals len when all of it is. Thread: any.
 */
size_t pz_utf8_valid(const char *s, size_t len);

/*
 * Makes the NUL-terminated s well-formed UTF-8 in place: each byte that
 * does not begin a well-formed sequence becomes '?', and a sequence cut
 * short by the end is dropped. Diagnostics pass through it, so a problem
 * body is always valid UTF-8 whatever a detail quotes or wherever a
 * fixed-size buffer cut it. Thread: any.
 */
void pz_utf8_clean(char *s);

/* Resets d to "no error". d may be NULL. Thread: any. */
void pz_diag_clear(pz_diag_t *d);

/* Records rc and a printf-style detail in d (d may be NULL) and returns rc,
 * so parsers can write `return pz_diag_set(d, PZ_EMOVE, "...", ...)`.
 * The field is left as it was. Thread: any. */
int pz_diag_set(pz_diag_t *d, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Sets the JSON pointer of d (d may be NULL). Thread: any. */
void pz_diag_field(pz_diag_t *d, const char *pointer);

#endif
