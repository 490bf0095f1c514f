/* SPDX-License-Identifier: MIT */
/* jobs.h - the job table: ids, admission, the bounded queue, waiters and
 * retention, all under one lock. */
#ifndef PZ_SERVER_JOBS_H
#define PZ_SERVER_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jsonout.h"
#include "request.h"
#include "search.h"

typedef struct jobs jobs_t;
typedef struct job job_t;
struct jobs_backend;

/* Length of a job id: 128 random bits in lower-case hex. */
#define JOBS_ID_LEN 32

/* Asks for table name to be loaded (build: or built) for a preparing
 * job; called without the table's lock. */
typedef void (*jobs_prepare_fn)(void *arg, const char *name, bool build);

/* Sizes and times the table works with. */
typedef struct jobs_config {
    int queue;               /* queued and preparing jobs at most, >= 1 */
    size_t memory_cap;       /* bytes: queued+running budgets at most */
    int64_t retention_ms;    /* ended jobs are kept this long */
    int max_jobs;            /* ended jobs kept at most */
    jobs_prepare_fn prepare; /* NULL: no job ever prepares */
    void *prepare_arg;
    int workers;                /* solver threads (a backend feeds them) */
    const api_policy_t *policy; /* parses requests a backend hands over */
} jobs_config_t;

/*
 * A connection (or anything else) waiting for a job to end. The owner
 * embeds it and fills resume, arg and deadline_ms; the table links it.
 * resume is called exactly once, under the table lock, when the job ends,
 * the deadline passes or the server drains; it must not call back into the
 * table.
 */
typedef struct job_waiter {
    void (*resume)(void *arg);
    void *arg;
    int64_t deadline_ms;     /* monotonic ms (jobs_now_ms) */
    job_t *job;              /* the job waited for; set by jobs_wait */
    bool waiting;            /* linked and not yet resumed */
    struct job_waiter *prev; /* table's waiter list */
    struct job_waiter *next;
} job_waiter_t;

/* Figures for /metrics and /readyz. */
typedef struct jobs_stats {
    size_t queued;                    /* jobs in the queue */
    size_t preparing;                 /* jobs waiting for tables */
    size_t queue_cap;                 /* its capacity */
    size_t running;                   /* jobs on a solver thread */
    size_t kept;                      /* jobs in the table, any state */
    size_t memory_in_use;             /* bytes of queued+running budgets */
    size_t memory_cap;                /* the admission cap */
    bool draining;                    /* shutting down: nothing is admitted */
    uint64_t ended[PZ_STATUS_COUNT_]; /* jobs that ended, by status */
    uint64_t nodes_expanded;          /* all jobs so far, live ones included */
    const char *backend;              /* "memory" or the backend's name */
    bool backend_ready;               /* its store can be reached */
    uint64_t backend_round_trips;     /* to its store, by this process */
} jobs_stats_t;

/* Monotonic clock in ms. Thread: any. */
int64_t jobs_now_ms(void);

/* Creates an empty table. Returns PZ_OK with owned *out (jobs_destroy) or
 * PZ_ENOMEM. Thread: main. */
int jobs_create(const jobs_config_t *cfg, jobs_t **out);

/* Frees the table and every job in it. No worker may be running and no
 * waiter registered. NULL is fine. Thread: main. */
void jobs_destroy(jobs_t *jobs);

/* jobs_submit's flags. */
enum {
    /* A request that answers in microseconds with what is in memory
     * (solve_instant on every run: a walk down a complete table a solver
     * thread has already used) runs at once on the calling thread: no
     * hand-off to a solver thread, no suspend and resume. */
    JOBS_RUN_HERE = 1,
};

/*
 * Makes a job of req (parsed and validated by the api layer) and admits
 * it: into the queue, or, when its request is preparing (tables not in
 * memory), into the preparing state: its tables are asked for (the
 * prepare hook) and it joins the queue once they are all in memory
 * (jobs_tables_changed); with JOBS_RUN_HERE and an instant request it has
 * run and ended when this returns. The job takes req over: req is empty
 * on return whatever the outcome. Returns PZ_OK with *out the caller's
 * reference (jobs_release), or PZ_ENOMEM, PZ_EIO (no randomness),
 * PZ_EDRAINING, PZ_EQUEUE_FULL, PZ_ERESULTS_FULL or PZ_EMEMORY_CAP with
 * *out NULL. Thread: any.
 */
int jobs_submit(jobs_t *jobs, api_solve_request_t *req, int flags, job_t **out);

/*
 * Looks again at the tables of every preparing job: a job whose tables
 * are all in memory joins the queue; one whose table can no longer come
 * (its build failed, or it is missing and may not be built for it) ends
 * failed with the table's code. The tables module's state hook calls it.
 * Thread: any (not under a tables lock).
 */
void jobs_tables_changed(jobs_t *jobs);

/* The job with id, with a new reference for the caller, or NULL.
 * Thread: any. */
job_t *jobs_find(jobs_t *jobs, const char *id);

/* Like jobs_find with the reason: PZ_OK with *out, PZ_EJOB_NOT_FOUND, or
 * PZ_EBACKEND (the job store cannot be reached). Thread: any. */
int jobs_lookup(jobs_t *jobs, const char *id, job_t **out);

/* Makes *job show the job as it is now: a snapshot of a job kept by a
 * backend is looked up again (the old reference is dropped then); a job
 * of this process is live already. PZ_OK, or jobs_lookup's code with *job
 * unchanged. Thread: any. */
int jobs_refresh(jobs_t *jobs, job_t **job);

/* Keeps the deployment's jobs in b (jobs_backend.h) from now on; the
 * table destroys it. Thread: main, before any job. */
void jobs_attach_backend(jobs_t *jobs, struct jobs_backend *b);

/* Starts the backend's threads (none: nothing to do). Returns PZ_OK or
 * PZ_ENOMEM. Thread: main, once the solver threads run. */
int jobs_start_backend(jobs_t *jobs);

/* Drops a reference; the last one frees the job. NULL is fine.
 * Thread: any. */
void jobs_release(jobs_t *jobs, job_t *job);

/*
 * Requests cancellation: a queued or preparing job ends as cancelled at
 * once, a running one within a poll interval of its engine (on whichever
 * replica runs it). Returns PZ_OK with *ended true when the job had
 * already ended (nothing changes; job shows its end), or PZ_EBACKEND.
 * Thread: any.
 */
int jobs_cancel(jobs_t *jobs, job_t *job, bool *ended);

/*
 * Up to limit jobs, newest first, skipping offset, each with a reference
 * for the caller (release each). Returns PZ_OK with how many were stored
 * in out in *n and the deployment's count in *total, or PZ_EBACKEND.
 * Thread: any.
 */
int jobs_list(jobs_t *jobs,
              size_t offset,
              size_t limit,
              job_t **out,
              size_t *n,
              size_t *total);

/*
 * Registers w to wait for job and calls suspend(arg) under the same lock,
 * so the resume can never come first. Returns false without suspending
 * when the job has already ended or the server is draining. Thread: any
 * (an MHD access handler, for MHD_suspend_connection).
 */
bool jobs_wait(jobs_t *jobs,
               job_t *job,
               job_waiter_t *w,
               void (*suspend)(void *arg));

/* Unlinks w if it is still waiting (without resuming it). Thread: any. */
void jobs_unwait(jobs_t *jobs, job_waiter_t *w);

/* True once job has ended (acquire: its results may then be read). */
bool jobs_ended(const job_t *job);

/* The job's id (JOBS_ID_LEN hex digits). */
const char *jobs_id(const job_t *job);

/* The job's overall status (pz_status_t), as rendered. Thread: any. */
int jobs_status(const job_t *job);

/* Writes the job as JSON (api_job_write) as the value of key (NULL: an
 * array element or the whole text) and returns the status it wrote.
 * Thread: any; the caller holds a reference. */
int jobs_write(jsonout_t *w, const char *key, const job_t *job);

/*
 * Records that job's final result reached its client (a reply with the
 * ended job). Ended jobs are kept for the retention time; past
 * --max-jobs, those whose result was delivered go first, and while the
 * undelivered ones alone fill it, new jobs are refused (results_full)
 * rather than a result nobody has collected dropped. Thread: any.
 */
void jobs_delivered(jobs_t *jobs, job_t *job);

/* --- solver threads --- */

/* Blocks until a job is queued and returns it, now running, with a
 * reference for the worker; NULL once jobs_stop was called.
 * Thread: worker. */
job_t *jobs_next(jobs_t *jobs);

/* Runs every engine of job, then ends it (waking its waiters) and drops
 * the worker's reference. Thread: worker. */
void jobs_run(jobs_t *jobs, job_t *job);

/* Makes jobs_next return NULL in every worker. Thread: any. */
void jobs_stop(jobs_t *jobs);

/* --- loop thread --- */

/*
 * Housekeeping at now (jobs_now_ms): resumes waiters whose deadline
 * passed and, when full is true, also walks every job to cancel running
 * jobs past their safety deadline, end preparing jobs past their
 * tables_wait_ms (timeout, code table_not_ready) and evict ended jobs past
 * the retention time or the count limit. The waiter pass is cheap and runs on
 * every new waiter; the full walk costs O(jobs kept) and runs on the periodic
 * timer. Returns the monotonic ms at which it wants to run again. Thread: loop.
 */
int64_t jobs_sweep(jobs_t *jobs, int64_t now, bool full);

/* Interval of the full sweep, in ms. */
#define JOBS_SWEEP_MS 100

/* --- shutdown --- */

/* Stops admitting, resumes every waiter and cancels every queued or
 * preparing job. Thread: main. */
void jobs_drain(jobs_t *jobs);

/* Cancels every running job. Thread: main. */
void jobs_cancel_running(jobs_t *jobs);

/* Waits up to timeout_ms for no job to be running. Returns true when
 * idle. Thread: main. */
bool jobs_wait_idle(jobs_t *jobs, int64_t timeout_ms);

/* True once jobs_drain was called. Thread: any (lock-free). */
bool jobs_draining(jobs_t *jobs);

/* Current figures. Thread: any. */
void jobs_get_stats(jobs_t *jobs, jobs_stats_t *out);

#endif
