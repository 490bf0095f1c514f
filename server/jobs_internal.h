/* SPDX-License-Identifier: MIT */
/* jobs_internal.h - what jobs.c (the table, admission, queue and waiters)
 * and jobs_run.c (preparing, running, sweeping and draining jobs) share:
 * the job and jobs structs and the helpers that work under jobs->lock. */
#ifndef PZ_SERVER_JOBS_INTERNAL_H
#define PZ_SERVER_JOBS_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job.h"
#include "jobs.h"
#include "jobs_backend.h"

struct job {
    char id[JOBS_ID_LEN + 1];
    api_solve_request_t req;      /* owned; runs[] written by the worker */
    atomic_bool cancel;           /* polled by the engines */
    atomic_bool cancel_requested; /* by DELETE or shutdown, before the end */
    atomic_bool deadline_hit;     /* the safety net set cancel */
    atomic_int state;             /* job_state_t; release on change */
    atomic_int runs_started;
    atomic_int runs_done;        /* release after each run's result */
    int64_t created_ms;          /* Unix ms */
    _Atomic int64_t started_ms;  /* Unix ms, 0 = not started */
    _Atomic int64_t finished_ms; /* Unix ms, 0 = not ended */
    /* Below: under jobs->lock. */
    int refs;
    int nwaiters;
    size_t budget;         /* bytes counted against the memory cap */
    int64_t deadline_mono; /* safety net, 0 = none */
    int64_t prepare_until; /* preparing: when it stops waiting (mono ms) */
    bool delivered;        /* its ended state was sent to a client */
    int64_t ended_mono;    /* when it ended */
    job_t *prev;           /* all jobs, creation order */
    job_t *next;
    job_t *qnext; /* queue, FIFO */
    job_t *qprev;
    job_t *hnext; /* hash chain */
    /* With a backend (jobs_backend.h). */
    bool remote;       /* a record's snapshot, not in this table */
    jobs_record_t rec; /* remote: the record (under jobs->lock); here: its end
                          as stored */
    bool adopted;      /* given by the backend to run here */
    bool abandon;      /* shutting down: left for another replica */
    bool here;         /* ran on the connection's thread; stored by it */
    bool end_storing;  /* ended; its end's first store not yet done */
    bool end_pending;  /* ended; its end not yet in the backend */
    char entry[48];    /* adopted: the backend's queue entry */
};

/* Ends of records this process heard of lately: a wait that begins just
 * after its job ended elsewhere finds the end here. */
#define JOBS_RECENT 256

typedef struct jobs_recent {
    char id[JOBS_ID_LEN + 1];
    int status;
    char *json; /* owned */
} jobs_recent_t;

struct jobs {
    jobs_config_t cfg;
    pthread_mutex_t lock;
    pthread_cond_t work; /* a job was queued, or stop */
    pthread_cond_t idle; /* a running job ended */
    job_t **hash;
    size_t nbuckets; /* power of two */
    job_t *first;    /* oldest */
    job_t *last;     /* newest */
    job_t *qhead;
    job_t *qtail;
    job_waiter_t *waiters;
    size_t count; /* jobs in the table */
    size_t nqueued;
    size_t npreparing;
    size_t nrunning;
    int nspread; /* threads running jobs use beyond one each (spread) */
    size_t nended;
    size_t nundelivered; /* ended jobs whose result nobody has fetched */
    size_t memory_in_use;
    atomic_bool draining; /* written under the lock, read anywhere */
    bool stopping;
    uint64_t ended_by_status[PZ_STATUS_COUNT_];
    uint64_t nodes_ended; /* nodes expanded by jobs that ended */
    /* Puzzle instances whose shared complete table is loaded: written
     * under the lock, published by the count (acquire/release). */
    jobs_backend_t *backend; /* NULL: the memory backend */
    jobs_recent_t recent[JOBS_RECENT];
    size_t recent_next;
    pthread_mutex_t spare_lock; /* guards the two below */
    job_t *spare;               /* freed jobs for reuse, linked by next */
    int nspare;
};

/* Frees job (its last reference is gone), or keeps its memory for reuse.
 * Not under the lock. */
void jobs__job_free(jobs_t *jobs, job_t *job);

/* The id hash bucket of id. */
size_t jobs__bucket_of(const jobs_t *jobs, const char *id);

/* Takes job (queued) out of the queue. Under the lock. */
void jobs__queue_remove(jobs_t *jobs, job_t *job);

/* Marks job running with a reference for its runner, and sets its
 * safety deadline. Under the lock. */
void jobs__start_locked(jobs_t *jobs, job_t *job);

/* Appends job to the queue and wakes a solver thread. Under the lock. */
void jobs__enqueue_locked(jobs_t *jobs, job_t *job);

/* Resumes and unlinks w. Under the lock. */
void jobs__waiter_resume(jobs_t *jobs, job_waiter_t *w);

/* Ends job, which was in state was: counters, timestamps, waiters. Under
 * the lock; the job's results must all be written (runs_done == nruns). */
void jobs__end_locked(jobs_t *jobs, job_t *job, job_state_t was);

/* After job ended (not under the lock): logs its "job end" event and,
 * with a backend, stores its end there. */
void jobs__job_ended(jobs_t *jobs, job_t *job);

/* Admits job into the table and the queue, or into the preparing state
 * (see jobs_submit). Returns PZ_OK or admit_locked's codes. */
int jobs__admit(jobs_t *jobs, job_t *job);

/* With job a record's snapshot: when a recent end of its id is known,
 * updates job to it and returns true. Under the lock. */
bool jobs__recent_locked(jobs_t *jobs, job_t *job);

/* The ops of the table's backend (jobs->backend not NULL). */
#define jobs__backend(jobs) ((jobs)->backend->ops)

/* The backend halves of jobs_submit, jobs_lookup, jobs_cancel and
 * jobs_list (jobs_remote.c). */
int jobs__submit_remote(jobs_t *jobs, job_t *job);
job_t *jobs__remote_job(jobs_t *jobs, jobs_record_t *rec);
int jobs__cancel_remote(jobs_t *jobs, job_t *job, bool *ended);
int jobs__list_remote(jobs_t *jobs,
                      size_t offset,
                      size_t limit,
                      job_t **out,
                      size_t *n,
                      size_t *total);

/* Hands the end of job to the backend; false when it could not take it
 * yet (jobs__flush_ended retries). */
bool jobs__store_end(jobs_t *jobs, job_t *job);

/* Stores the end of job, run on the connection's thread, with the
 * deployment's admission (ended_here): PZ_OK or its refusal. */
int jobs__store_here(jobs_t *jobs, job_t *job);

/* The job of this process's table with id, with a reference for the
 * caller, or NULL. Not under the lock. */
job_t *jobs__find_local(jobs_t *jobs, const char *id);

/* The same without a reference, under the lock. */
job_t *jobs__find_locked(jobs_t *jobs, const char *id);

/* As jobs__find_local, but only a job that ended here with its end not
 * yet in the backend (jobs__end_unstored). Not under the lock. */
job_t *jobs__find_pending_end(jobs_t *jobs, const char *id);

/* A job ended here whose end the backend does not have yet: its first
 * store is under way, or it failed and waits for jobs__flush_ended.
 * Under the lock. */
static inline bool
jobs__end_unstored(const job_t *job)
{
    return job->end_storing || job->end_pending;
}

/* A zeroed job with an empty request, or NULL. Not under the lock. */
job_t *jobs__job_alloc(jobs_t *jobs);

/* Marks runs from..nruns-1 as ended with status without running them. */
void jobs__skip_runs(job_t *job, int from, int status);

/* Ends a preparing job without running it: status for every run, rc as
 * each run's error (PZ_OK: none). Under the lock. */
void jobs__end_unprepared_locked(jobs_t *jobs, job_t *job, int status, int rc);

#endif
