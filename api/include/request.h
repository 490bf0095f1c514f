/* SPDX-License-Identifier: MIT */
/* request.h - a solve request: JSON body to validated solver inputs. */
#ifndef PZ_API_REQUEST_H
#define PZ_API_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solve.h"

/* Most engines one request may compare. */
#define API_ENGINES_MAX 8

/* Largest request body the parser accepts (the server also enforces it on
 * the wire). 64 KiB holds any real state many times over. */
#define API_BODY_MAX (64 * 1024)

/*
 * Defaults and maxima the server applies to every request. A request that
 * asks for more than a maximum is rejected with limit_too_large; a member it
 * leaves out takes the default. Zero maxima mean "no maximum".
 */
typedef struct api_policy {
    uint64_t default_time_ms; /* search wall-clock budget */
    uint64_t max_time_ms;
    size_t default_memory_bytes; /* per-job search memory */
    size_t max_memory_bytes;
    uint64_t default_max_nodes; /* 0 = unlimited */
    uint64_t max_max_nodes;
    int64_t default_wait_ms; /* how long POST /solve waits */
    int64_t max_wait_ms;
    int threads;         /* threads an engine may split over */
    int optimal_threads; /* threads for a proven optimum that "auto"
                            hands to IDA* (one run), when above threads */
    int table_builds;    /* API_TABLE_BUILDS_*: who prepares tables */
    int64_t default_tables_wait_ms; /* how long a job may prepare */
    int64_t max_tables_wait_ms;
    int max_batch; /* items per batch (POST /v1/solve/batch) */
} api_policy_t;

/* Who gets a request's tables ready (api_policy_t's table_builds). */
enum {
    /* The caller's own thread loads or builds what the run needs when it
     * runs (the command line). */
    API_TABLE_BUILDS_INLINE = 0,
    /* A daemon that builds no table: it loads files that exist. */
    API_TABLE_BUILDS_NEVER,
    /* A daemon that builds its startup tables (the complete tables, the
     * two-phase tables) at start; a request may wait for those, and for
     * loads of files that exist, but starts no build. */
    API_TABLE_BUILDS_STARTUP,
    /* A daemon that builds any table a request needs (within its table
     * memory). */
    API_TABLE_BUILDS_ON_DEMAND,
};

/* What a request asks when a table it needs is not in memory (the
 * "tables" member). */
enum {
    API_TABLES_WAIT = 0, /* prepare it and wait (default) */
    API_TABLES_FALLBACK, /* run at once with a heuristic that needs none */
    API_TABLES_FAIL,     /* refuse the request */
};

/* Most tables one request waits for. */
#define API_TABLES_MAX 16

/* Most warnings one request carries. */
#define API_WARNINGS_MAX 4

/* Something a client should know about how its request was served. */
typedef struct api_warning {
    const char *code;  /* static: "table_missing", "table_fallback" */
    const char *table; /* the table concerned (process lifetime), or NULL */
    char detail[200];  /* a sentence, with the command that fixes it */
} api_warning_t;

/* The built-in policy: 10 s, 256 MiB, unlimited nodes, wait 2 s, and
 * maxima 300 s, 4 GiB, wait 60 s; tables prepared inline, a job may wait
 * 300 s for them (at most 3600 s). Thread: any. */
void api_policy_default(api_policy_t *pol);

/* How many optimal solutions "all_optimal" keeps without
 * "max_solutions" (at most PZ_SOLUTIONS_MAX). */
#define API_MAX_SOLUTIONS_DEFAULT 100

/* A validated solve request, ready to run. */
typedef struct api_solve_request {
    pz_puzzle_t *puzzle; /* owned; spec.puzzle points here */
    solve_spec_t spec;   /* start, goal, limits */
    bool custom_goal;    /* a goal member was given */
    bool optimal;        /* what the client asked (or the default) */
    bool compare;        /* "engines" was given: report every run */
    bool spread;         /* spec.threads came from the policy's
                            optimal_threads (the CPUs): a server gives the
                            job only those no other job holds when it
                            starts */
    int64_t wait_ms;     /* how long the HTTP request may wait */
    char *scramble;      /* owned copy of the scramble, or NULL */
    char *text;          /* owned copy of the body parsed, or NULL */
    size_t text_len;
    int want_solutions;        /* several solutions: how many to keep, or 0 */
    bool all_optimal;          /* every optimal solution, counted */
    pz_solutions_t *solutions; /* owned, for runs[0], or NULL */
    struct api_batch *batch;   /* owned: a batch's items and results
                                  (batch.h), or NULL */
    pz_state_t start_full;     /* with "care": the start and goal as */
    pz_state_t goal_full;      /* given, before masking */
    int tables_mode;           /* API_TABLES_*: the "tables" member */
    int64_t tables_wait_ms;    /* how long the job may prepare */
    bool preparing;            /* some table below is not in memory yet */
    int ntables;               /* shared tables the runs need */
    const char *tables[API_TABLES_MAX]; /* their names (process lifetime) */
    bool tables_build[API_TABLES_MAX];  /* may be built for this request */
    int nwarnings;
    api_warning_t warnings[API_WARNINGS_MAX];
    int nruns;                              /* 1..API_ENGINES_MAX */
    const char *requested[API_ENGINES_MAX]; /* "auto" or the engine name */
    solve_run_t runs[API_ENGINES_MAX];      /* one per engine, in order */
} api_solve_request_t;

/*
 * Parses buf (len bytes of untrusted JSON: length-bounded, strict about
 * trailing garbage, depth-limited) and validates it against the solve
 * request schema into req: unknown members, types and ranges, the puzzle
 * and its size, the state (scramble or state form) and goal with every
 * puzzle check, the engines and heuristic, and the limits against pol. On
 * failure returns the PZ_E* code (PZ_EJSON, PZ_ETOO_LARGE, ...) with d
 * filled (detail, JSON pointer in d->field or d->position) and req left
 * empty (nothing to clean up). On success the caller owns req and frees it
 * with api_solve_cleanup (or hands it on). Thread: any.
 */
int api_solve_parse_text(const char *buf,
                         size_t len,
                         const api_policy_t *pol,
                         api_solve_request_t *req,
                         pz_diag_t *d);

/* Frees what req owns and leaves it empty (no puzzle, no runs); req may be
 * NULL or already cleaned. Other members keep stale values. */
void api_solve_cleanup(api_solve_request_t *req);

/*
 * The puzzle instance that query parameters name: a puzzle id or alias,
 * the tiles' size ("4x4", NULL: the alias's or the default; "tiles"
 * without one takes it from a state text of N*N numbers, NULL for none)
 * and a metric (NULL: the default), checked as a solve request checks its
 * members, with d->field "/" and the parameter's name. PZ_OK with *out
 * (puzzle_destroy), else the code with d filled. Thread: any.
 */
int api_puzzle_from_query(const char *name,
                          const char *size,
                          const char *metric,
                          const char *state,
                          pz_puzzle_t **out,
                          pz_diag_t *d);

#endif
