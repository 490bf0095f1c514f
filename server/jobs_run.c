/* SPDX-License-Identifier: MIT */
/* jobs_run.c - what the other threads do with the jobs: the table threads
 * move preparing jobs on, the solver threads run them, the loop thread
 * sweeps, and shutdown drains. Under the one lock of jobs.c. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "jobs_internal.h"
#include "log.h"
#include "tables.h"

/* --- preparing jobs --- */

/* What a preparing job can do about its tables. */
enum {
    TABLES_WAIT = 0, /* some table is on its way */
    TABLES_GO,       /* all are in memory */
    TABLES_FAIL,     /* one can no longer come */
};

/* Looks at the tables of job (a preparing job the caller holds a
 * reference to; its request does not change) without the jobs lock, and
 * asks again for a table nobody is preparing. *rc gets the failure. */
static int
tables_outlook(jobs_t *jobs, const job_t *job, int *rc)
{
    const api_solve_request_t *req = &job->req;
    int outlook = TABLES_GO;

    for (int i = 0; i < req->ntables; i++) {
        tables_status_t st;

        if (tables_status(req->tables[i], &st) != PZ_OK) {
            *rc = PZ_EINTERNAL;
            return TABLES_FAIL;
        }
        switch (st.state) {
        case TABLES_READY:
            break;
        case TABLES_QUEUED:
        case TABLES_LOADING:
        case TABLES_BUILDING:
            outlook = TABLES_WAIT;
            break;
        case TABLES_STORED:
            /* A file nobody loads (it appeared since): load it. */
            jobs->cfg.prepare(jobs->cfg.prepare_arg, req->tables[i],
                              req->tables_build[i]);
            outlook = TABLES_WAIT;
            break;
        case TABLES_MISSING:
            if (!req->tables_build[i]) {
                *rc = PZ_ETABLE_MISSING;
                return TABLES_FAIL;
            }
            jobs->cfg.prepare(jobs->cfg.prepare_arg, req->tables[i], true);
            outlook = TABLES_WAIT;
            break;
        default:
            *rc = st.rc != PZ_OK ? st.rc : PZ_EINTERNAL;
            return TABLES_FAIL;
        }
    }
    return outlook;
}

void
jobs_tables_changed(jobs_t *jobs)
{
    job_t **list;
    size_t n = 0;
    size_t cap;

    /* Snapshot the preparing jobs (into an array: the hook may run on
     * two table threads at once): their tables are looked at without the
     * lock (a table's state may mean reading its file's header). */
    pthread_mutex_lock(&jobs->lock);
    cap = jobs->npreparing;
    list = cap > 0 ? malloc(cap * sizeof(*list)) : NULL;
    for (job_t *job = jobs->first; list != NULL && job != NULL && n < cap;
         job = job->next) {
        if (atomic_load(&job->state) == JOB_PREPARING) {
            job->refs++;
            list[n++] = job;
        }
    }
    pthread_mutex_unlock(&jobs->lock);
    for (size_t i = 0; i < n; i++) {
        job_t *job = list[i];
        int rc = PZ_OK;
        int outlook = tables_outlook(jobs, job, &rc);
        bool ended = false;

        pthread_mutex_lock(&jobs->lock);
        if (atomic_load(&job->state) == JOB_PREPARING) {
            if (outlook == TABLES_GO) {
                jobs->npreparing--;
                jobs__enqueue_locked(jobs, job);
            } else if (outlook == TABLES_FAIL) {
                jobs__end_unprepared_locked(jobs, job, PZ_STATUS_FAILED, rc);
                ended = true;
            }
        }
        pthread_mutex_unlock(&jobs->lock);
        if (ended) {
            jobs__job_ended(jobs, job);
        }
        jobs_release(jobs, job);
    }
    free(list);
}

/* --- solver threads --- */

/* Slack on top of a job's summed time limits before the safety net
 * cancels it: engines check their own deadline every few thousand
 * expansions, so this only fires for an engine that stopped polling. */
#define JOBS_DEADLINE_SLACK_MS 2000

/* Marks job running with a reference for its runner, and sets its
 * safety deadline. Under the lock. */
void
jobs__start_locked(jobs_t *jobs, job_t *job)
{
    uint64_t total_ms = 0;

    job->refs++; /* the runner's reference */
    jobs->nrunning++;
    if (job->req.spread && job->req.batch == NULL) {
        /* spec.threads is the policy's optimal_threads, the CPUs. Every
         * running job holds one (this one included), a spread job its
         * further threads, a queued job the one it is about to take; the
         * CPUs left go to this job. */
        int busy = (int)jobs->nrunning + jobs->nspread + (int)jobs->nqueued;
        int extra = job->req.spec.threads - busy;

        extra = extra < 0 ? 0 : extra;
        job->req.spec.threads = 1 + extra;
        jobs->nspread += extra;
    }
    atomic_store(&job->started_ms, api_wall_ms());
    for (int i = 0; i < job->req.nruns; i++) {
        if (job->req.spec.limits.time_ms == 0) {
            total_ms = 0;
            break;
        }
        total_ms += job->req.spec.limits.time_ms;
    }
    total_ms *= job->req.batch != NULL ? (uint64_t)job->req.batch->n : 1;
    job->deadline_mono = total_ms == 0 ? 0
                                       : jobs_now_ms() + (int64_t)total_ms +
                                             JOBS_DEADLINE_SLACK_MS;
    atomic_store_explicit(&job->state, JOB_RUNNING, memory_order_release);
}

job_t *
jobs_next(jobs_t *jobs)
{
    job_t *job;

    pthread_mutex_lock(&jobs->lock);
    while (!jobs->stopping && jobs->qhead == NULL) {
        pthread_cond_wait(&jobs->work, &jobs->lock);
    }
    if (jobs->stopping) {
        pthread_mutex_unlock(&jobs->lock);
        return NULL;
    }
    job = jobs->qhead;
    jobs__queue_remove(jobs, job);
    jobs__start_locked(jobs, job);
    pthread_mutex_unlock(&jobs->lock);
    return job;
}

static void
log_job_start(const job_t *job)
{
    log_line_t ev;

    if (!log_line_begin(&ev, LOG_INFO, "job start")) {
        return;
    }
    log_line_str(&ev, "job_id", job->id);
    log_line_str(&ev, "puzzle", job->req.puzzle->id);
    log_line_str(&ev, "engine", job->req.runs[0].engine->name);
    log_line_str(&ev, "heuristic", job->req.runs[0].heuristic);
    log_line_num(&ev, "runs", job->req.nruns);
    log_line_num(&ev, "threads", job->req.spec.threads);
    log_line_u64(&ev, "time_ms", job->req.spec.limits.time_ms);
    log_line_u64(&ev, "memory_mb", job->req.spec.limits.memory_bytes >> 20);
    log_line_end(&ev);
}

static job_t *evict_locked(jobs_t *jobs, job_t *job);

/*
 * Evicts the oldest ended jobs nobody waits for while more than max_jobs
 * have ended, as the sweep would within its interval. Doing it when a job
 * ends keeps the table at its size: under load the sweep alone would free
 * a hundred milliseconds' worth of jobs at once, which glibc then returns
 * to the kernel and faults back in for the next jobs. Under the lock;
 * returns the jobs whose last reference went (linked by hnext) for the
 * caller to free after unlocking.
 */
static job_t *
evict_over_count_locked(jobs_t *jobs)
{
    job_t *dead = NULL;

    for (job_t *job = jobs->first, *next;
         job != NULL && jobs->nended > (size_t)jobs->cfg.max_jobs; job = next) {
        next = job->next;
        /* A result nobody has fetched stays for its retention time; an
         * end the backend does not have yet stays until it does. */
        if (atomic_load(&job->state) == JOB_ENDED && job->nwaiters == 0 &&
            job->delivered && !jobs__end_unstored(job)) {
            job_t *gone = evict_locked(jobs, job);

            if (gone != NULL) {
                gone->hnext = dead;
                dead = gone;
            }
        }
    }
    return dead;
}

void
jobs_run(jobs_t *jobs, job_t *job)
{
    api_solve_request_t *req = &job->req;
    job_t *dead;
    int i;

    log_job_start(job);
    if (req->batch != NULL) {
        atomic_store_explicit(&job->runs_started, req->nruns,
                              memory_order_release);
        api_batch_run(req, &job->cancel);
        if (atomic_load(&job->deadline_hit) &&
            !atomic_load(&job->cancel_requested)) {
            for (int r = 0; r < req->nruns; r++) {
                req->runs[r].solution.status = PZ_STATUS_TIMEOUT;
            }
        }
        atomic_store_explicit(&job->runs_done, req->nruns,
                              memory_order_release);
    }
    for (i = req->batch != NULL ? req->nruns : 0; i < req->nruns; i++) {
        solve_run_t *run = &req->runs[i];

        if (atomic_load(&job->cancel)) {
            break;
        }
        atomic_store_explicit(&job->runs_started, i + 1, memory_order_release);
        solve_execute(&req->spec, run, &job->cancel);
        if (run->rc != PZ_OK) {
            log_line_t ev;

            log_line_begin(&ev, LOG_ERROR, "engine failed");
            log_line_str(&ev, "job_id", job->id);
            log_line_str(&ev, "engine", run->engine->name);
            log_line_str(&ev, "code", pz_strerror(run->rc));
            log_line_end(&ev);
        }
        /* The safety net cancels through the same flag as DELETE; report
         * what really happened. */
        if (run->solution.status == PZ_STATUS_CANCELLED &&
            atomic_load(&job->deadline_hit) &&
            !atomic_load(&job->cancel_requested)) {
            run->solution.status = PZ_STATUS_TIMEOUT;
        }
        atomic_store_explicit(&job->runs_done, i + 1, memory_order_release);
    }
    if (i < req->nruns) {
        jobs__skip_runs(job, i,
                        atomic_load(&job->cancel_requested)
                            ? PZ_STATUS_CANCELLED
                            : PZ_STATUS_TIMEOUT);
    }
    pthread_mutex_lock(&jobs->lock);
    jobs__end_locked(jobs, job, JOB_RUNNING);
    dead = evict_over_count_locked(jobs);
    pthread_mutex_unlock(&jobs->lock);
    jobs__job_ended(jobs, job);
    jobs_release(jobs, job);
    while (dead != NULL) {
        job_t *next = dead->hnext;

        jobs__job_free(jobs, dead);
        dead = next;
    }
}

void
jobs_stop(jobs_t *jobs)
{
    pthread_mutex_lock(&jobs->lock);
    jobs->stopping = true;
    pthread_cond_broadcast(&jobs->work);
    pthread_mutex_unlock(&jobs->lock);
}

/* --- loop thread --- */

/* Unlinks an ended job from the table and drops the table's reference.
 * Under the lock. Returns the job if that was the last reference (the
 * caller frees it after unlocking). */
static job_t *
evict_locked(jobs_t *jobs, job_t *job)
{
    job_t **pp = &jobs->hash[jobs__bucket_of(jobs, job->id)];

    while (*pp != job) {
        pp = &(*pp)->hnext;
    }
    *pp = job->hnext;
    if (job->prev != NULL) {
        job->prev->next = job->next;
    } else {
        jobs->first = job->next;
    }
    if (job->next != NULL) {
        job->next->prev = job->prev;
    } else {
        jobs->last = job->prev;
    }
    job->prev = job->next = job->hnext = NULL;
    jobs->count--;
    jobs->nended--;
    if (!job->delivered) {
        jobs->nundelivered--;
    }
    return --job->refs == 0 ? job : NULL;
}

int64_t
jobs_sweep(jobs_t *jobs, int64_t now, bool full)
{
    int64_t next = now + JOBS_SWEEP_MS;
    job_t *dead = NULL;
    job_t *timed_out = NULL;

    pthread_mutex_lock(&jobs->lock);
    for (job_waiter_t *w = jobs->waiters, *wn; w != NULL; w = wn) {
        wn = w->next;
        if (w->deadline_ms <= now) {
            jobs__waiter_resume(jobs, w);
        } else if (w->deadline_ms < next) {
            next = w->deadline_ms;
        }
    }
    for (job_t *job = full ? jobs->first : NULL, *jn; job != NULL; job = jn) {
        int state = atomic_load(&job->state);

        jn = job->next;
        if (state == JOB_PREPARING && job->prepare_until <= now) {
            jobs__end_unprepared_locked(jobs, job, PZ_STATUS_TIMEOUT,
                                        PZ_ETABLE_NOT_READY);
            job->refs++;
            job->qnext = timed_out;
            timed_out = job;
            continue;
        }
        if (state == JOB_RUNNING && job->deadline_mono != 0 &&
            job->deadline_mono <= now && !atomic_load(&job->cancel)) {
            atomic_store(&job->deadline_hit, true);
            atomic_store(&job->cancel, true);
            log_line_t ev;

            log_line_begin(&ev, LOG_WARN, "job past its deadline");
            log_line_str(&ev, "job_id", job->id);
            log_line_end(&ev);
        }
        /* Oldest first: evict past retention, or while over the count
         * a job whose result was delivered, but never a job a connection
         * is waiting on. */
        /* With a backend the record is the job: the local one goes once
         * its end is stored there. */
        if (state == JOB_ENDED && job->nwaiters == 0 &&
            (jobs->backend != NULL
                 ? !jobs__end_unstored(job)
                 : now - job->ended_mono >= jobs->cfg.retention_ms ||
                       (jobs->nended > (size_t)jobs->cfg.max_jobs &&
                        job->delivered))) {
            job_t *gone = evict_locked(jobs, job);

            if (gone != NULL) {
                gone->hnext = dead;
                dead = gone;
            }
        }
    }
    pthread_mutex_unlock(&jobs->lock);
    while (timed_out != NULL) {
        job_t *n = timed_out->qnext;

        timed_out->qnext = NULL;
        jobs__job_ended(jobs, timed_out);
        jobs_release(jobs, timed_out);
        timed_out = n;
    }
    while (dead != NULL) {
        job_t *n = dead->hnext;

        jobs__job_free(jobs, dead);
        dead = n;
    }
    return next;
}

/* --- shutdown --- */

void
jobs_drain(jobs_t *jobs)
{
    job_t *cancelled = NULL;

    if (jobs->backend != NULL) {
        jobs__backend(jobs)->quiesce(jobs->backend);
    }
    pthread_mutex_lock(&jobs->lock);
    atomic_store(&jobs->draining, true);
    while (jobs->waiters != NULL) {
        jobs__waiter_resume(jobs, jobs->waiters);
    }
    while (jobs->qhead != NULL) {
        job_t *job = jobs->qhead;

        jobs__queue_remove(jobs, job);
        /* A job of the deployment goes back to it: its lease runs out and
         * another replica takes it over. */
        job->abandon = job->adopted;
        atomic_store(&job->cancel_requested, true);
        atomic_store(&job->cancel, true);
        jobs__skip_runs(job, 0, PZ_STATUS_CANCELLED);
        jobs__end_locked(jobs, job, JOB_QUEUED);
        job->refs++;
        job->qnext = cancelled;
        cancelled = job;
    }
    for (job_t *job = jobs->first; job != NULL; job = job->next) {
        if (atomic_load(&job->state) != JOB_PREPARING) {
            continue;
        }
        job->abandon = job->adopted;
        atomic_store(&job->cancel_requested, true);
        atomic_store(&job->cancel, true);
        jobs__end_unprepared_locked(jobs, job, PZ_STATUS_CANCELLED, PZ_OK);
        job->refs++;
        job->qnext = cancelled;
        cancelled = job;
    }
    pthread_mutex_unlock(&jobs->lock);
    while (cancelled != NULL) {
        job_t *next = cancelled->qnext;

        cancelled->qnext = NULL;
        jobs__job_ended(jobs, cancelled);
        jobs_release(jobs, cancelled);
        cancelled = next;
    }
}

void
jobs_cancel_running(jobs_t *jobs)
{
    pthread_mutex_lock(&jobs->lock);
    for (job_t *job = jobs->first; job != NULL; job = job->next) {
        if (atomic_load(&job->state) == JOB_RUNNING) {
            job->abandon = job->adopted;
            atomic_store(&job->cancel_requested, true);
            atomic_store(&job->cancel, true);
        }
    }
    pthread_mutex_unlock(&jobs->lock);
}

bool
jobs_wait_idle(jobs_t *jobs, int64_t timeout_ms)
{
    struct timespec until;
    bool idle;

    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)(timeout_ms / 1000);
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&jobs->lock);
    while (jobs->nrunning > 0) {
        if (pthread_cond_timedwait(&jobs->idle, &jobs->lock, &until) ==
            ETIMEDOUT) {
            break;
        }
    }
    idle = jobs->nrunning == 0;
    pthread_mutex_unlock(&jobs->lock);
    return idle;
}

bool
jobs_draining(jobs_t *jobs)
{
    return atomic_load(&jobs->draining);
}

void
jobs_get_stats(jobs_t *jobs, jobs_stats_t *out)
{
    pthread_mutex_lock(&jobs->lock);
    out->queued = jobs->nqueued;
    out->preparing = jobs->npreparing;
    out->queue_cap = (size_t)jobs->cfg.queue;
    out->running = jobs->nrunning;
    out->kept = jobs->count;
    out->memory_in_use = jobs->memory_in_use;
    out->memory_cap = jobs->cfg.memory_cap;
    out->draining = atomic_load(&jobs->draining);
    memcpy(out->ended, jobs->ended_by_status, sizeof(out->ended));
    out->backend = "memory";
    out->backend_ready = true;
    out->backend_round_trips = 0;
    out->nodes_expanded = jobs->nodes_ended;
    for (job_t *job = jobs->first; job != NULL; job = job->next) {
        if (atomic_load(&job->state) != JOB_RUNNING) {
            continue;
        }
        for (int i = 0; i < job->req.nruns; i++) {
            out->nodes_expanded += atomic_load_explicit(
                &job->req.runs[i].stats.nodes_expanded, memory_order_relaxed);
        }
    }
    pthread_mutex_unlock(&jobs->lock);
    if (jobs->backend != NULL) {
        jobs__backend(jobs)->stats(jobs->backend, out);
    }
}
