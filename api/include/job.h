/* SPDX-License-Identifier: MIT */
/* job.h - the job representation shared by the HTTP API and `solve --json`. */
#ifndef PZ_API_JOB_H
#define PZ_API_JOB_H

#include <stdint.h>

#include "jsonout.h"
#include "request.h"

/* What the renderer needs to know about a job besides its request. */
typedef struct api_job_info {
    const char *id;      /* job id, or NULL (the CLI has none) */
    int64_t created_ms;  /* Unix time in ms; 0 = unknown */
    int64_t started_ms;  /* 0 = not started */
    int64_t finished_ms; /* 0 = not finished */
    int runs_started;    /* runs whose engine has begun */
    int runs_done;       /* runs whose results may be read (acquire) */
    bool preparing;      /* waiting for its tables (req->tables) */
    bool in_batch;       /* an item of a batch: written with "item" */
    int item;            /* with in_batch: its index in the batch */
    const api_solve_request_t *req; /* borrowed */
} api_job_info_t;

/*
 * The overall status of a job: preparing while it waits for its tables,
 * queued before any run started, running
 * while one is, and once all ended: solved if any run solved, else the
 * status of the first run. Thread: any.
 */
int api_job_status(const api_job_info_t *job);

/*
 * The run whose result the job reports at top level: the shortest solved
 * run among the finished ones, else the run in progress, else run 0.
 */
int api_job_best_run(const api_job_info_t *job);

/*
 * Writes the job object (see openapi.yaml, schema Job) to w as the value
 * of key (NULL: an array element or the whole text): id, status,
 * timestamps, puzzle, engine and heuristic, limits, solution and live
 * statistics, plus a "runs" array when the request compared engines. Node
 * counts are printed as exact integers. Returns the status it wrote (a
 * pz_status_t), so a caller can pick the HTTP status that agrees with the
 * body. Thread: any; reads the live statistics without locks.
 */
int api_job_write(jsonout_t *w, const char *key, const api_job_info_t *job);

/* The job object alone as compact JSON text (owned, free) and its length,
 * or NULL when out of memory. Thread: any. */
char *api_job_text(const api_job_info_t *job, size_t *len);

/* Formats Unix ms as RFC 3339 UTC ("2026-11-21T07:05:03.123Z"); 30 bytes
 * are enough. The date part is cached per thread for the current second.
 * Thread: any. */
/* Unix time in ms. */
int64_t api_wall_ms(void);
void api_format_time(int64_t ms, char *buf, size_t len);

#endif
