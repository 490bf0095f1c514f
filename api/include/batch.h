/* SPDX-License-Identifier: MIT */
/* batch.h - many solves in one job: POST /v1/solve/batch. */
#ifndef PZ_API_BATCH_H
#define PZ_API_BATCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "request.h"

/* Largest batch body (a solve request's body is at most API_BODY_MAX). */
#define API_BATCH_BODY_MAX (1024 * 1024)

/* Items a batch holds without --max-batch. */
#define API_BATCH_ITEMS_DEFAULT 1000

/*
 * A batch: the members every item shares and one scramble or state per
 * item. Every item is a whole solve request (the shared members with the
 * item's), checked when the batch is parsed and run in order by one job;
 * each result is the item's own job JSON, or its problem. Owned by the
 * request (api_solve_request_t batch), which item 0 fills.
 */
typedef struct api_batch {
    api_policy_t policy; /* the server's, to parse each item again */
    char *shared;        /* the body's members but "items", as an object */
    int n;               /* items */
    char **items;        /* item i's members, as an object's text */
    char **results;      /* item i's result once done (owned) */
    int *status;         /* item i's status, or -1 for a problem */
    atomic_int done;     /* items with a result (release) */
    int solved;          /* items solved so far */
    uint64_t nodes;      /* nodes expanded by all items so far */
} api_batch_t;

/*
 * Parses a batch body (root has "items") against pol: every item is
 * checked as a solve request; a problem names its item (field
 * /items/i/...). On success req is item 0's request, with req->batch set
 * (api_solve_cleanup frees it). Thread: any.
 */
struct cJSON;
int api_batch_parse(const struct cJSON *root,
                    const api_policy_t *pol,
                    api_solve_request_t *req,
                    pz_diag_t *d);

/* Runs every item of req's batch in order on the calling thread, each
 * with its own limits; after cancel, the rest end cancelled. Sets
 * runs[0]'s status to solved, or cancelled when it was. Thread: worker. */
void api_batch_run(api_solve_request_t *req, const atomic_bool *cancel);

/* Largest job JSON text a stored batch snapshot is read back from. */
#define API_JOB_JSON_MAX (64 * 1024 * 1024)

/* The results of a batch job's items from item from on, read from its
 * JSON text (the job as rendered, or a stored snapshot), one JSON text
 * per line ("\n" after each); *next gets the index after the last. Owned
 * text (*len bytes), or NULL when json does not parse or memory runs
 * out. Thread: any. */
char *api_batch_lines_json(const char *json, int from, int *next, size_t *len);

/* Frees a batch (api_solve_cleanup calls it). */
void api__batch_free(api_batch_t *b);

#endif
