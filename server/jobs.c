/* SPDX-License-Identifier: MIT */
/* jobs.c - the job table, admission, bounded queue and waiters; the runs,
 * the retention sweep and shutdown are in jobs_run.c.
 *
 * One mutex guards everything here and in jobs_run.c: the id hash, the list
 * of all jobs in creation order (newest last), the queue, the waiter list
 * and the counters. Critical sections are short (no JSON, no search), so one
 * lock is simpler than several and cheap next to an HTTP round trip. What is
 * read without the lock is published with atomics: a job's state (release
 * when it ends), the number of runs started and done (release after each
 * run's result is written) and the engines' live statistics. Jobs are
 * reference counted: the table holds one reference, and every connection,
 * listing or worker that uses a job holds its own, so eviction never frees a
 * job someone is rendering.
 */
#include "jobs.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch.h"
#include "complete.h"
#include "job.h"
#include "jobs_internal.h"
#include "log.h"
#include "rng.h"

/* How often the sweep runs when no waiter deadline is nearer. */

/* Freed jobs kept for reuse (about 10 KiB each). None under
 * AddressSanitizer, which should see every job's use after free. */
#if defined(__SANITIZE_ADDRESS__)
#define JOBS_SPARE_MAX 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JOBS_SPARE_MAX 0
#endif
#endif
#ifndef JOBS_SPARE_MAX
#define JOBS_SPARE_MAX 64
#endif

int64_t
jobs_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
jobs_create(const jobs_config_t *cfg, jobs_t **out)
{
    jobs_t *jobs = calloc(1, sizeof(*jobs));
    size_t want = (size_t)cfg->max_jobs + (size_t)cfg->queue;

    *out = NULL;
    if (jobs == NULL) {
        return PZ_ENOMEM;
    }
    jobs->cfg = *cfg;
    jobs->nbuckets = 256;
    while (jobs->nbuckets < want && jobs->nbuckets < ((size_t)1 << 20)) {
        jobs->nbuckets <<= 1;
    }
    jobs->hash = calloc(jobs->nbuckets, sizeof(*jobs->hash));
    if (jobs->hash == NULL) {
        free(jobs);
        return PZ_ENOMEM;
    }
    pthread_mutex_init(&jobs->lock, NULL);
    pthread_mutex_init(&jobs->spare_lock, NULL);
    pthread_cond_init(&jobs->work, NULL);
    pthread_cond_init(&jobs->idle, NULL);
    *out = jobs;
    return PZ_OK;
}

/* Frees job, or keeps its memory for the next jobs_new: a job is about
 * 10 KiB (eight runs with their solution buffers), and allocating one per
 * request made glibc consolidate its small free chunks every time. */
void
jobs__job_free(jobs_t *jobs, job_t *job)
{
    api_solve_cleanup(&job->req);
    jobs_record_cleanup(&job->rec);
    pthread_mutex_lock(&jobs->spare_lock);
    if (jobs->nspare < JOBS_SPARE_MAX) {
        job->next = jobs->spare;
        jobs->spare = job;
        jobs->nspare++;
        job = NULL;
    }
    pthread_mutex_unlock(&jobs->spare_lock);
    free(job);
}

/* A zeroed job, from the spare list or the heap, or NULL. */
job_t *
jobs__job_alloc(jobs_t *jobs)
{
    job_t *job;

    pthread_mutex_lock(&jobs->spare_lock);
    job = jobs->spare;
    if (job != NULL) {
        jobs->spare = job->next;
        jobs->nspare--;
    }
    pthread_mutex_unlock(&jobs->spare_lock);
    if (job == NULL) {
        return calloc(1, sizeof(*job));
    }
    /* Everything but the request, which is most of the job's 10 KiB and
     * which api_solve_parse clears before it fills it (the only way a job
     * gets one); until then its owned pointers must read as empty for
     * api_solve_cleanup, and they do: jobs__job_free's cleanup reset them. */
    memset(job, 0, offsetof(job_t, req));
    memset((char *)job + offsetof(job_t, req) + sizeof(job->req), 0,
           sizeof(*job) - offsetof(job_t, req) - sizeof(job->req));
    return job;
}

void
jobs_destroy(jobs_t *jobs)
{
    job_t *job;

    if (jobs == NULL) {
        return;
    }
    if (jobs->backend != NULL) {
        jobs__backend(jobs)->destroy(jobs->backend);
        jobs->backend = NULL;
    }
    for (size_t i = 0; i < JOBS_RECENT; i++) {
        free(jobs->recent[i].json);
    }
    job = jobs->first;
    while (job != NULL) {
        job_t *next = job->next;

        /* Only the table's reference can remain once every connection and
         * worker is gone. */
        if (--job->refs == 0) {
            jobs__job_free(jobs, job);
        }
        job = next;
    }
    while (jobs->spare != NULL) {
        job = jobs->spare;
        jobs->spare = job->next;
        free(job);
    }
    pthread_cond_destroy(&jobs->idle);
    pthread_cond_destroy(&jobs->work);
    pthread_mutex_destroy(&jobs->lock);
    pthread_mutex_destroy(&jobs->spare_lock);
    free(jobs->hash);
    free(jobs);
}

/* A job with a fresh random id and an empty request, not yet in the
 * table; PZ_OK with *out holding the caller's reference, PZ_ENOMEM or
 * PZ_EIO (no randomness). */
static int
new_job(jobs_t *jobs, job_t **out)
{
    char id[JOBS_ID_LEN + 1];
    job_t *job;
    int rc;

    *out = NULL;
    rc = rng_hex(id, JOBS_ID_LEN / 2);
    if (rc != PZ_OK) {
        return rc;
    }
    job = jobs__job_alloc(jobs);
    if (job == NULL) {
        return PZ_ENOMEM;
    }
    memcpy(job->id, id, sizeof(id));
    job->created_ms = api_wall_ms();
    job->refs = 1;
    atomic_init(&job->state, JOB_NEW);
    *out = job;
    return PZ_OK;
}

size_t
jobs__bucket_of(const jobs_t *jobs, const char *id)
{
    /* The ids are random, so their first hex digits hash well enough. */
    uint64_t h = 1469598103934665603u;

    for (const char *p = id; *p != '\0'; p++) {
        h = (h ^ (unsigned char)*p) * 1099511628211u;
    }
    return (size_t)h & (jobs->nbuckets - 1);
}

void
jobs__queue_remove(jobs_t *jobs, job_t *job)
{
    if (job->qprev != NULL) {
        job->qprev->qnext = job->qnext;
    } else {
        jobs->qhead = job->qnext;
    }
    if (job->qnext != NULL) {
        job->qnext->qprev = job->qprev;
    } else {
        jobs->qtail = job->qprev;
    }
    job->qnext = job->qprev = NULL;
    jobs->nqueued--;
}

/* Admission: the checks every new job passes, then the job joins the
 * table (id hash and creation list) with its budget counted. Under the
 * lock. Returns PZ_OK, PZ_EDRAINING, PZ_EQUEUE_FULL or PZ_EMEMORY_CAP. */
static int
admit_locked(jobs_t *jobs, job_t *job)
{
    size_t budget = job->req.spec.limits.memory_bytes;
    size_t b;

    if (atomic_load(&jobs->draining)) {
        return PZ_EDRAINING;
    }
    /* An adopted job was admitted by the deployment (the backend's caps). */
    if (!job->adopted) {
        if (jobs->nqueued + jobs->npreparing >= (size_t)jobs->cfg.queue) {
            return PZ_EQUEUE_FULL;
        }
        /* Results still to be collected fill the table: keep them, take
         * no new work (a result is never dropped before its retention). */
        if (jobs->backend == NULL &&
            jobs->nundelivered >= (size_t)jobs->cfg.max_jobs) {
            return PZ_ERESULTS_FULL;
        }
        if (budget > jobs->cfg.memory_cap ||
            jobs->memory_in_use > jobs->cfg.memory_cap - budget) {
            return PZ_EMEMORY_CAP;
        }
    }
    jobs->memory_in_use += budget;
    job->budget = budget;
    job->refs++; /* the table's reference */
    b = jobs__bucket_of(jobs, job->id);
    job->hnext = jobs->hash[b];
    jobs->hash[b] = job;
    job->prev = jobs->last;
    job->next = NULL;
    if (jobs->last != NULL) {
        jobs->last->next = job;
    } else {
        jobs->first = job;
    }
    jobs->last = job;
    jobs->count++;
    return PZ_OK;
}

/* Appends job to the queue. Under the lock. */
void
jobs__enqueue_locked(jobs_t *jobs, job_t *job)
{
    job->qprev = jobs->qtail;
    job->qnext = NULL;
    if (jobs->qtail != NULL) {
        jobs->qtail->qnext = job;
    } else {
        jobs->qhead = job;
    }
    jobs->qtail = job;
    jobs->nqueued++;
    atomic_store_explicit(&job->state, JOB_QUEUED, memory_order_release);
    pthread_cond_signal(&jobs->work);
}

/* Admits job into the table and the queue, or into the preparing state
 * (see jobs_submit). */
int
jobs__admit(jobs_t *jobs, job_t *job)
{
    const api_solve_request_t *req = &job->req;
    int rc;

    pthread_mutex_lock(&jobs->lock);
    rc = admit_locked(jobs, job);
    if (rc != PZ_OK) {
        pthread_mutex_unlock(&jobs->lock);
        return rc;
    }
    if (!req->preparing || jobs->cfg.prepare == NULL) {
        jobs__enqueue_locked(jobs, job);
        pthread_mutex_unlock(&jobs->lock);
        return PZ_OK;
    }
    jobs->npreparing++;
    job->prepare_until = jobs_now_ms() + req->tables_wait_ms;
    atomic_store_explicit(&job->state, JOB_PREPARING, memory_order_release);
    pthread_mutex_unlock(&jobs->lock);
    for (int i = 0; i < req->ntables; i++) {
        jobs->cfg.prepare(jobs->cfg.prepare_arg, req->tables[i],
                          req->tables_build[i]);
    }
    /* A table may have become ready since the request was planned. */
    jobs_tables_changed(jobs);
    return PZ_OK;
}

/* True when every run of req answers in microseconds with what is in
 * memory already (solve_instant), never a load or a build. */
static bool
instant(const api_solve_request_t *req)
{
    if (req->nruns < 1 || req->batch != NULL) {
        return false;
    }
    for (int i = 0; i < req->nruns; i++) {
        if (!solve_instant(&req->spec, &req->runs[i])) {
            return false;
        }
    }
    return true;
}

/* Admits job like admit but runs it at once on the calling thread, with
 * the same start and end bookkeeping as a solver thread. */
static int
run_here(jobs_t *jobs, job_t *job)
{
    int rc;

    pthread_mutex_lock(&jobs->lock);
    rc = admit_locked(jobs, job);
    if (rc == PZ_OK) {
        jobs__start_locked(jobs, job);
    }
    pthread_mutex_unlock(&jobs->lock);
    if (rc != PZ_OK) {
        return rc;
    }
    /* With a backend the deployment's admission comes with the store of
     * its end, one round trip: a refusal costs a run of microseconds. */
    job->here = jobs->backend != NULL;
    jobs_run(jobs, job);
    return job->here ? jobs__store_here(jobs, job) : PZ_OK;
}

int
jobs_submit(jobs_t *jobs, api_solve_request_t *req, int flags, job_t **out)
{
    job_t *job = NULL;
    int rc;

    *out = NULL;
    rc = new_job(jobs, &job);
    if (rc != PZ_OK) {
        api_solve_cleanup(req);
        return rc;
    }
    /* The job takes the request over; req is left empty. */
    memcpy(&job->req, req, sizeof(*req));
    memset(req, 0, sizeof(*req));
    rc = (flags & JOBS_RUN_HERE) != 0 && instant(&job->req)
             ? run_here(jobs, job)
         : jobs->backend != NULL ? jobs__submit_remote(jobs, job)
                                 : jobs__admit(jobs, job);
    if (rc != PZ_OK) {
        jobs_release(jobs, job);
        return rc;
    }
    *out = job;
    return PZ_OK;
}

job_t *
jobs_find(jobs_t *jobs, const char *id)
{
    job_t *job = NULL;

    jobs_lookup(jobs, id, &job);
    return job;
}

int
jobs_lookup(jobs_t *jobs, const char *id, job_t **out)
{
    *out = NULL;
    if (strlen(id) != JOBS_ID_LEN ||
        strspn(id, "0123456789abcdef") != JOBS_ID_LEN) {
        return PZ_EJOB_NOT_FOUND;
    }
    if (jobs->backend != NULL) {
        jobs_record_t rec;
        int rc = jobs__backend(jobs)->find(jobs->backend, id, &rec);

        if (rc == PZ_EJOB_NOT_FOUND) {
            /* Ended here while the store was away (or emptied), its end
             * not yet written back: the local job answers meanwhile. */
            *out = jobs__find_pending_end(jobs, id);
            return *out != NULL ? PZ_OK : rc;
        }
        if (rc != PZ_OK) {
            return rc;
        }
        *out = jobs__remote_job(jobs, &rec);
        return *out != NULL ? PZ_OK : PZ_ENOMEM;
    }
    *out = jobs__find_local(jobs, id);
    return *out != NULL ? PZ_OK : PZ_EJOB_NOT_FOUND;
}

job_t *
jobs__find_locked(jobs_t *jobs, const char *id)
{
    job_t *job = jobs->hash[jobs__bucket_of(jobs, id)];

    while (job != NULL && strcmp(job->id, id) != 0) {
        job = job->hnext;
    }
    return job;
}

job_t *
jobs__find_local(jobs_t *jobs, const char *id)
{
    job_t *job;

    pthread_mutex_lock(&jobs->lock);
    job = jobs__find_locked(jobs, id);
    if (job != NULL) {
        job->refs++;
    }
    pthread_mutex_unlock(&jobs->lock);
    return job;
}

void
jobs_release(jobs_t *jobs, job_t *job)
{
    int left;

    if (job == NULL) {
        return;
    }
    pthread_mutex_lock(&jobs->lock);
    left = --job->refs;
    pthread_mutex_unlock(&jobs->lock);
    if (left == 0) {
        jobs__job_free(jobs, job);
    }
}

/* Resumes and unlinks w. Under the lock. */
void
jobs__waiter_resume(jobs_t *jobs, job_waiter_t *w)
{
    if (w->prev != NULL) {
        w->prev->next = w->next;
    } else {
        jobs->waiters = w->next;
    }
    if (w->next != NULL) {
        w->next->prev = w->prev;
    }
    w->prev = w->next = NULL;
    w->waiting = false;
    w->job->nwaiters--;
    w->resume(w->arg);
}

static void
info_of(const job_t *job, api_job_info_t *info)
{
    memset(info, 0, sizeof(*info));
    info->id = job->id;
    info->created_ms = job->created_ms;
    /* Read in the reverse of the order the job's fields are written: an
     * end time read means every run's result and start is seen. */
    info->finished_ms = atomic_load(&job->finished_ms);
    info->runs_done =
        atomic_load_explicit(&job->runs_done, memory_order_acquire);
    info->runs_started =
        atomic_load_explicit(&job->runs_started, memory_order_acquire);
    info->started_ms = atomic_load(&job->started_ms);
    /* Until the job ends and stamps finished_ms (a moment after its last
     * run's result, or after a cancelled or failed job's runs are marked
     * skipped), it is not final: a job a worker took is running, one it
     * never took is still queued or preparing. */
    if (info->finished_ms == 0) {
        if (info->runs_done >= job->req.nruns) {
            info->runs_done = job->req.nruns - 1;
        }
        if (info->started_ms == 0) {
            info->runs_started = info->runs_done = 0;
        }
    }
    if (info->runs_started < info->runs_done) {
        info->runs_started = info->runs_done;
    }
    info->preparing = atomic_load(&job->state) == JOB_PREPARING;
    info->req = &job->req;
}

/* Ends job: counters, timestamps, waiters. Under the lock; the job's
 * results must all be written (runs_done == nruns). */
void
jobs__end_locked(jobs_t *jobs, job_t *job, job_state_t was)
{
    api_job_info_t info;
    int status;
    uint64_t nodes = 0;

    atomic_store(&job->finished_ms, api_wall_ms());
    info_of(job, &info);
    status = api_job_status(&info);
    for (int i = 0; i < job->req.nruns; i++) {
        nodes += atomic_load_explicit(&job->req.runs[i].stats.nodes_expanded,
                                      memory_order_relaxed);
    }
    jobs->nodes_ended += nodes;
    if (status >= 0 && status < PZ_STATUS_COUNT_) {
        jobs->ended_by_status[status]++;
    }
    if (was == JOB_RUNNING) {
        jobs->nrunning--;
        if (job->req.spread && job->req.batch == NULL) {
            jobs->nspread -= job->req.spec.threads - 1;
        }
    } else if (was == JOB_PREPARING) {
        jobs->npreparing--;
    }
    /* Shutdown waits for no job running; a backend's feeder for a free
     * solver thread. */
    pthread_cond_broadcast(&jobs->idle);
    jobs->memory_in_use -= job->budget;
    job->budget = 0;
    job->ended_mono = jobs_now_ms();
    jobs->nended++;
    jobs->nundelivered++;
    /* Kept in the table until jobs__job_ended has tried the store. */
    job->end_storing = jobs->backend != NULL;
    atomic_store_explicit(&job->state, JOB_ENDED, memory_order_release);
    for (job_waiter_t *w = jobs->waiters, *next; w != NULL; w = next) {
        next = w->next;
        if (w->job == job) {
            jobs__waiter_resume(jobs, w);
        }
    }
}

static void log_job_end(const job_t *job);

void
jobs__job_ended(jobs_t *jobs, job_t *job)
{
    bool pending;

    log_job_end(job);
    if (jobs->backend == NULL) {
        return;
    }
    pending = !job->abandon && !job->here && !jobs__store_end(jobs, job);
    pthread_mutex_lock(&jobs->lock);
    job->end_pending = pending;
    job->end_storing = false;
    pthread_mutex_unlock(&jobs->lock);
}

static void
log_job_end(const job_t *job)
{
    log_line_t ev;
    api_job_info_t info;
    int best;

    if (!log_line_begin(&ev, LOG_INFO, "job end")) {
        return;
    }
    info_of(job, &info);
    best = api_job_best_run(&info);
    log_line_str(&ev, "job_id", job->id);
    log_line_str(&ev, "status", pz_status_name(api_job_status(&info)));
    log_line_str(&ev, "puzzle", job->req.puzzle->id);
    log_line_str(&ev, "engine", job->req.runs[best].engine->name);
    if (job->req.runs[best].solution.status == PZ_STATUS_SOLVED) {
        log_line_num(&ev, "length", job->req.runs[best].solution.length);
    }
    if (info.started_ms != 0) {
        log_line_num(&ev, "duration_ms",
                     (double)(info.finished_ms - info.started_ms));
    }
    log_line_u64(&ev, "nodes_expanded",
                 atomic_load(&job->req.runs[best].stats.nodes_expanded));
    log_line_end(&ev);
}

/* Marks runs from..nruns-1 as ended with status without running them. */
void
jobs__skip_runs(job_t *job, int from, int status)
{
    for (int i = from; i < job->req.nruns; i++) {
        job->req.runs[i].solution.status = status;
    }
    atomic_store_explicit(&job->runs_started, job->req.nruns,
                          memory_order_release);
    atomic_store_explicit(&job->runs_done, job->req.nruns,
                          memory_order_release);
}

/* Ends a preparing job without running it: status for every run, rc as
 * each run's error (PZ_OK: none). Under the lock. */
void
jobs__end_unprepared_locked(jobs_t *jobs, job_t *job, int status, int rc)
{
    for (int i = 0; i < job->req.nruns; i++) {
        job->req.runs[i].solution.status = status;
        job->req.runs[i].rc = rc;
    }
    jobs__skip_runs(job, 0, status);
    jobs__end_locked(jobs, job, JOB_PREPARING);
}

int
jobs_cancel(jobs_t *jobs, job_t *job, bool *ended)
{
    bool ended_now = false;
    int state;

    *ended = false;
    if (job->remote) {
        return jobs__cancel_remote(jobs, job, ended);
    }
    pthread_mutex_lock(&jobs->lock);
    state = atomic_load(&job->state);
    if (state == JOB_ENDED || state == JOB_NEW) {
        pthread_mutex_unlock(&jobs->lock);
        *ended = true;
        return PZ_OK;
    }
    atomic_store(&job->cancel_requested, true);
    atomic_store(&job->cancel, true);
    if (state == JOB_QUEUED) {
        jobs__queue_remove(jobs, job);
        jobs__skip_runs(job, 0, PZ_STATUS_CANCELLED);
        jobs__end_locked(jobs, job, JOB_QUEUED);
        ended_now = true;
    } else if (state == JOB_PREPARING) {
        /* Nothing of it runs: the table it waits for is the server's and
         * goes on loading or building for the jobs that need it. */
        jobs__end_unprepared_locked(jobs, job, PZ_STATUS_CANCELLED, PZ_OK);
        ended_now = true;
    }
    pthread_mutex_unlock(&jobs->lock);
    if (ended_now) {
        jobs__job_ended(jobs, job);
    }
    return PZ_OK;
}

int
jobs_list(jobs_t *jobs,
          size_t offset,
          size_t limit,
          job_t **out,
          size_t *np,
          size_t *total)
{
    size_t n = 0;
    size_t skipped = 0;

    if (jobs->backend != NULL) {
        return jobs__list_remote(jobs, offset, limit, out, np, total);
    }
    pthread_mutex_lock(&jobs->lock);
    *total = jobs->count;
    for (job_t *job = jobs->last; job != NULL && n < limit; job = job->prev) {
        if (skipped < offset) {
            skipped++;
            continue;
        }
        job->refs++;
        out[n++] = job;
    }
    pthread_mutex_unlock(&jobs->lock);
    *np = n;
    return PZ_OK;
}

bool
jobs_wait(jobs_t *jobs, job_t *job, job_waiter_t *w, void (*suspend)(void *arg))
{
    pthread_mutex_lock(&jobs->lock);
    if (job->remote && jobs__recent_locked(jobs, job)) {
        pthread_mutex_unlock(&jobs->lock);
        return false;
    }
    if (atomic_load(&jobs->draining) || atomic_load(&job->state) == JOB_ENDED ||
        atomic_load(&job->state) == JOB_NEW) {
        pthread_mutex_unlock(&jobs->lock);
        return false;
    }
    w->job = job;
    w->waiting = true;
    w->prev = NULL;
    w->next = jobs->waiters;
    if (jobs->waiters != NULL) {
        jobs->waiters->prev = w;
    }
    jobs->waiters = w;
    job->nwaiters++;
    suspend(w->arg);
    pthread_mutex_unlock(&jobs->lock);
    return true;
}

void
jobs_unwait(jobs_t *jobs, job_waiter_t *w)
{
    pthread_mutex_lock(&jobs->lock);
    if (w->waiting) {
        if (w->prev != NULL) {
            w->prev->next = w->next;
        } else {
            jobs->waiters = w->next;
        }
        if (w->next != NULL) {
            w->next->prev = w->prev;
        }
        w->prev = w->next = NULL;
        w->waiting = false;
        w->job->nwaiters--;
    }
    pthread_mutex_unlock(&jobs->lock);
}

bool
jobs_ended(const job_t *job)
{
    return atomic_load_explicit(&job->state, memory_order_acquire) == JOB_ENDED;
}

const char *
jobs_id(const job_t *job)
{
    return job->id;
}

int
jobs_status(const job_t *job)
{
    api_job_info_t info;

    if (job->remote) {
        return job->rec.status;
    }
    info_of(job, &info);
    return api_job_status(&info);
}

int
jobs_write(jsonout_t *w, const char *key, const job_t *job)
{
    api_job_info_t info;

    /* A record's snapshot, or an ended job already rendered. */
    if (job->remote || job->rec.json != NULL) {
        jsonout_raw(w, key, job->rec.json != NULL ? job->rec.json : "{}");
        return job->rec.status;
    }
    info_of(job, &info);
    return api_job_write(w, key, &info);
}

void
jobs_delivered(jobs_t *jobs, job_t *job)
{
    pthread_mutex_lock(&jobs->lock);
    if (atomic_load(&job->state) == JOB_ENDED && !job->delivered) {
        job->delivered = true;
        if (job->prev != NULL || job->next != NULL || jobs->first == job) {
            jobs->nundelivered--;
        }
    }
    pthread_mutex_unlock(&jobs->lock);
}
