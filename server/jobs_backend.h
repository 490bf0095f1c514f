/* SPDX-License-Identifier: MIT */
/*
 * jobs_backend.h - where a deployment's jobs live. The job table
 * (jobs.h) is what the HTTP layer and the solver pool call; it always
 * runs jobs on this process's solver threads. Without a backend it is the
 * memory backend: records, queue, admission and waits are its own. With
 * one (jobs_attach_backend), the backend holds the records, the queue and
 * the admission of the whole deployment: the table asks it for what any
 * replica submitted, hands it the jobs that end here, and runs the jobs
 * the backend gives it (jobs__adopt). The Redis backend is jobs_redis.c;
 * its design is in docs/scale-out.md.
 */
#ifndef PZ_SERVER_JOBS_BACKEND_H
#define PZ_SERVER_JOBS_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jobs.h"

typedef struct jobs_backend jobs_backend_t;

/* Where a job is in its life. */
typedef enum job_state {
    JOB_NEW = 0,   /* made, not yet admitted */
    JOB_PREPARING, /* waiting for its tables, not in the queue */
    JOB_QUEUED,
    JOB_RUNNING,
    JOB_ENDED,
} job_state_t;

/* A job as the backend's record shows it (find, list, submit). */
typedef struct jobs_record {
    char id[JOBS_ID_LEN + 1];
    int state;          /* job_state_t: JOB_QUEUED, JOB_RUNNING or JOB_ENDED */
    int status;         /* pz_status_t as rendered */
    char *json;         /* owned: the job as the API shows it */
    char *request;      /* owned: the request text while queued, or NULL */
    int64_t created_ms; /* Unix ms */
} jobs_record_t;

/* What a backend does. Every op may be called from any thread. Ops that
 * return int give PZ_OK or PZ_EBACKEND (the store cannot be reached)
 * unless they say more. */
typedef struct jobs_backend_ops {
    const char *name;
    /* Starts the backend's threads once the table is ready (t is the
     * table it feeds). */
    int (*start)(jobs_backend_t *b, jobs_t *t);
    /* Stops taking jobs for this process (shutdown begins). */
    void (*quiesce)(jobs_backend_t *b);
    /* Joins its threads and frees it. */
    void (*destroy)(jobs_backend_t *b);
    /* Records job (rendered as json, state queued) and queues it for the
     * deployment's solvers, with the deployment's admission: PZ_OK,
     * PZ_EQUEUE_FULL, PZ_EMEMORY_CAP or PZ_EBACKEND. */
    int (*submit)(jobs_backend_t *b, const job_t *job, const char *json);
    /* Stores the end of job id that ran (or was ended) here; entry is
     * its queue entry ("" none), json its final rendering. Returns false when
     * it could not be stored yet (the table hands it back later). */
    bool (*ended)(jobs_backend_t *b,
                  const char *id,
                  int64_t created_ms,
                  const char *entry,
                  int status,
                  const char *json);
    /* The record of id: PZ_OK with *rec filled, PZ_EJOB_NOT_FOUND or
     * PZ_EBACKEND. */
    int (*find)(jobs_backend_t *b, const char *id, jobs_record_t *rec);
    /* Up to limit records, newest first, skipping offset; *n of them
     * stored in out, *total the deployment's count. */
    int (*list)(jobs_backend_t *b,
                size_t offset,
                size_t limit,
                jobs_record_t *out,
                size_t *n,
                size_t *total);
    /* Cancels the job of rec. cancelled_json is its rendering as a
     * cancelled job when rec has not begun (queued, or taken by a
     * replica and still queued or preparing there; NULL otherwise). Returns
     * PZ_OK with *ended true and rec updated when it had already ended, *ended
     * false when it was cancelled (ended from the queue, or its replica
     * told to stop it). */
    int (*cancel)(jobs_backend_t *b,
                  jobs_record_t *rec,
                  const char *cancelled_json,
                  bool *ended);
    /* Deployment figures into st (queued, running, memory), and whether
     * the store is reachable. */
    void (*stats)(jobs_backend_t *b, jobs_stats_t *st);
    /* Stores the end of a job of budget bytes that ran at once on this
     * replica's connection thread (never queued), with the deployment's
     * admission in the same step: PZ_OK, PZ_EQUEUE_FULL, PZ_EMEMORY_CAP
     * (nothing stored: the caller answers with the refusal) or
     * PZ_EBACKEND. */
    int (*ended_here)(jobs_backend_t *b,
                      const char *id,
                      int64_t created_ms,
                      size_t budget,
                      int status,
                      const char *json);
} jobs_backend_ops_t;

struct jobs_backend {
    const jobs_backend_ops_t *ops;
};

/* Frees what rec owns. */
void jobs_record_cleanup(jobs_record_t *rec);

/* --- what a backend calls in the table (jobs.c) --- */

/*
 * Makes a job of the request text of a record (id, created_ms) and runs
 * it here, without the local admission caps (the deployment admitted it).
 * entry is the backend's handle of its queue entry (copied). A request
 * that no longer parses here ends at once with its code. Returns PZ_OK
 * or PZ_ENOMEM.
 */
int jobs__adopt(jobs_t *jobs,
                const char *id,
                int64_t created_ms,
                const char *request,
                const char *entry);

/* Ends a record that will not run (cancelled while queued, its replicas
 * lost, the store lost it): renders it from its request text with status
 * for every run and rc as each run's error, into an owned text, or NULL
 * (request no longer parses). */
char *jobs__render_unrun(jobs_t *jobs,
                         const char *id,
                         int64_t created_ms,
                         const char *request,
                         int status,
                         int rc,
                         int *status_out);

/* A record ended (any replica): wakes this process's waiters on id with
 * json, and remembers it for a wait that is about to begin. */
void
jobs__record_ended(jobs_t *jobs, const char *id, int status, const char *json);

/* True when job id runs here (or waits here to run). */
bool jobs__adopted_here(jobs_t *jobs, const char *id);

/* A replica asked for id to be cancelled: cancels it if it runs here. */
void jobs__cancel_local(jobs_t *jobs, const char *id);

/* Ids of records this process's waiters wait on (at most max, written
 * to ids[i], JOBS_ID_LEN+1 bytes each). */
size_t jobs__waited_ids(jobs_t *jobs, char (*ids)[JOBS_ID_LEN + 1], size_t max);

/* A snapshot of the backend jobs this process runs or keeps queued (not
 * ended, not given up): each with a reference (release each), at most
 * max. */
size_t jobs__adopted(jobs_t *jobs, job_t **out, size_t max);

/* The queue entry of an adopted job ("" none). */
const char *jobs__entry(const job_t *job);

/* The request text of a job, its creation time (Unix ms) and the memory
 * budget the deployment's admission counts. */
const char *jobs__request_text(const job_t *job);
int64_t jobs__created_ms(const job_t *job);
size_t jobs__budget(const job_t *job);

/* Renders job as the API shows it into an owned text, or NULL; *status
 * gets the status written. */
char *jobs__render(const job_t *job, int *status);

/* Waits up to timeout_ms for a solver thread here to be free (no job
 * ending wakes it in vain: each end is signalled); returns how many are
 * free (0 after the timeout). */
size_t jobs__await_capacity(jobs_t *jobs, int timeout_ms);

/* Retries the stores of ended jobs the backend could not take (call
 * when the store is back). */
void jobs__flush_ended(jobs_t *jobs);

#endif
