/* SPDX-License-Identifier: MIT */
/* jobs_remote.c - the job table's side of a backend (jobs_backend.h):
 * jobs adopted from the deployment's queue, ends heard from other
 * replicas, renderings of records that never ran, and the snapshots the
 * backend reads, looked up again for a stream (jobs_refresh). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jobs_internal.h"
#include "log.h"

void
jobs_record_cleanup(jobs_record_t *rec)
{
    if (rec == NULL) {
        return;
    }
    free(rec->json);
    free(rec->request);
    rec->json = NULL;
    rec->request = NULL;
}

void
jobs_attach_backend(jobs_t *jobs, jobs_backend_t *b)
{
    jobs->backend = b;
}

int
jobs_start_backend(jobs_t *jobs)
{
    return jobs->backend != NULL
               ? jobs__backend(jobs)->start(jobs->backend, jobs)
               : PZ_OK;
}

char *
jobs__render(const job_t *job, int *status)
{
    jsonout_t w;
    size_t len;
    int st;

    jsonout_init(&w);
    st = jobs_write(&w, NULL, job);
    if (status != NULL) {
        *status = st;
    }
    return jsonout_finish(&w, &len);
}

/* Replaces rec's rendering with a copy of json. */
static void
record_set_end(jobs_record_t *rec, int status, const char *json)
{
    char *copy = strdup(json);

    if (copy == NULL) {
        return;
    }
    free(rec->json);
    rec->json = copy;
    rec->status = status;
    rec->state = JOB_ENDED;
}

bool
jobs__recent_locked(jobs_t *jobs, job_t *job)
{
    for (size_t i = 0; i < JOBS_RECENT; i++) {
        const jobs_recent_t *r = &jobs->recent[i];

        if (r->json != NULL && strcmp(r->id, job->id) == 0) {
            record_set_end(&job->rec, r->status, r->json);
            atomic_store_explicit(&job->state, JOB_ENDED, memory_order_release);
            return true;
        }
    }
    return false;
}

void
jobs__record_ended(jobs_t *jobs, const char *id, int status, const char *json)
{
    jobs_recent_t *r;
    char *copy = strdup(json);

    if (copy == NULL) {
        return;
    }
    pthread_mutex_lock(&jobs->lock);
    r = &jobs->recent[jobs->recent_next];
    jobs->recent_next = (jobs->recent_next + 1) % JOBS_RECENT;
    free(r->json);
    snprintf(r->id, sizeof(r->id), "%s", id);
    r->status = status;
    r->json = copy;
    for (job_waiter_t *w = jobs->waiters, *next; w != NULL; w = next) {
        next = w->next;
        if (w->job->remote && strcmp(w->job->id, id) == 0) {
            record_set_end(&w->job->rec, status, json);
            atomic_store_explicit(&w->job->state, JOB_ENDED,
                                  memory_order_release);
            jobs__waiter_resume(jobs, w);
        }
    }
    pthread_mutex_unlock(&jobs->lock);
}

job_t *
jobs__find_pending_end(jobs_t *jobs, const char *id)
{
    job_t *job;

    pthread_mutex_lock(&jobs->lock);
    job = jobs__find_locked(jobs, id);
    if (job != NULL && jobs__end_unstored(job)) {
        job->refs++;
    } else {
        job = NULL;
    }
    pthread_mutex_unlock(&jobs->lock);
    return job;
}

bool
jobs__adopted_here(jobs_t *jobs, const char *id)
{
    job_t *job = jobs__find_local(jobs, id);
    bool here = false;

    if (job != NULL) {
        /* Running or waiting here, or ended with its end still to store. */
        pthread_mutex_lock(&jobs->lock);
        here = job->adopted && (atomic_load(&job->state) != JOB_ENDED ||
                                jobs__end_unstored(job));
        pthread_mutex_unlock(&jobs->lock);
    }

    jobs_release(jobs, job);
    return here;
}

void
jobs__cancel_local(jobs_t *jobs, const char *id)
{
    job_t *job = jobs__find_local(jobs, id);
    bool ended;

    if (job != NULL) {
        jobs_cancel(jobs, job, &ended);
        jobs_release(jobs, job);
    }
}

size_t
jobs__waited_ids(jobs_t *jobs, char (*ids)[JOBS_ID_LEN + 1], size_t max)
{
    size_t n = 0;

    pthread_mutex_lock(&jobs->lock);
    for (job_waiter_t *w = jobs->waiters; w != NULL && n < max; w = w->next) {
        if (w->job->remote) {
            memcpy(ids[n++], w->job->id, JOBS_ID_LEN + 1);
        }
    }
    pthread_mutex_unlock(&jobs->lock);
    return n;
}

size_t
jobs__adopted(jobs_t *jobs, job_t **out, size_t max)
{
    size_t n = 0;

    pthread_mutex_lock(&jobs->lock);
    for (job_t *job = jobs->first; job != NULL && n < max; job = job->next) {
        if (job->adopted && !job->abandon &&
            atomic_load(&job->state) != JOB_ENDED) {
            job->refs++;
            out[n++] = job;
        }
    }
    pthread_mutex_unlock(&jobs->lock);
    return n;
}

const char *
jobs__entry(const job_t *job)
{
    return job->entry;
}

const char *
jobs__request_text(const job_t *job)
{
    return job->req.text != NULL ? job->req.text : "";
}

int64_t
jobs__created_ms(const job_t *job)
{
    return job->created_ms;
}

size_t
jobs__budget(const job_t *job)
{
    return job->req.spec.limits.memory_bytes;
}

size_t
jobs__await_capacity(jobs_t *jobs, int timeout_ms)
{
    size_t workers = (size_t)(jobs->cfg.workers > 0 ? jobs->cfg.workers : 1);
    size_t busy;
    struct timespec until;

    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    until.tv_sec += timeout_ms / 1000 + until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&jobs->lock);
    for (;;) {
        busy = jobs->nqueued + jobs->npreparing + jobs->nrunning;
        if (busy < workers ||
            pthread_cond_timedwait(&jobs->idle, &jobs->lock, &until) != 0) {
            break;
        }
    }
    busy = jobs->nqueued + jobs->npreparing + jobs->nrunning;
    pthread_mutex_unlock(&jobs->lock);
    return busy < workers ? workers - busy : 0;
}

/* A job (not in the table) of the request text, or NULL with *rc. */
static job_t *
parse_job(jobs_t *jobs,
          const char *id,
          int64_t created_ms,
          const char *request,
          int *rc,
          pz_diag_t *d)
{
    job_t *job = jobs__job_alloc(jobs);

    if (job == NULL) {
        *rc = PZ_ENOMEM;
        return NULL;
    }
    *rc = api_solve_parse_text(request, strlen(request), jobs->cfg.policy,
                               &job->req, d);
    if (*rc != PZ_OK) {
        jobs__job_free(jobs, job);
        return NULL;
    }
    snprintf(job->id, sizeof(job->id), "%s", id);
    job->created_ms = created_ms;
    job->refs = 1;
    atomic_init(&job->state, JOB_NEW);
    return job;
}

char *
jobs__render_unrun(jobs_t *jobs,
                   const char *id,
                   int64_t created_ms,
                   const char *request,
                   int status,
                   int rc,
                   int *status_out)
{
    pz_diag_t d;
    int prc;
    job_t *job = parse_job(jobs, id, created_ms, request, &prc, &d);
    char *json;

    if (job == NULL) {
        return NULL;
    }
    for (int i = 0; i < job->req.nruns; i++) {
        job->req.runs[i].rc = rc;
    }
    jobs__skip_runs(job, 0, status);
    atomic_store(&job->cancel_requested, status == PZ_STATUS_CANCELLED);
    atomic_store(&job->finished_ms, api_wall_ms());
    atomic_store(&job->state, JOB_ENDED);
    json = jobs__render(job, status_out);
    jobs__job_free(jobs, job);
    return json;
}

/* The end of a record whose request does not parse here (replicas that
 * disagree on their settings): an ended job with the parse error. */
static void
end_unparsed(jobs_t *jobs,
             const char *id,
             int64_t created_ms,
             const char *entry,
             int rc,
             const pz_diag_t *d)
{
    jsonout_t w;
    size_t len;
    char *json;

    jsonout_init(&w);
    jsonout_begin(&w, NULL, '{');
    jsonout_string(&w, "id", id);
    jsonout_string(&w, "status", pz_status_name(PZ_STATUS_FAILED));
    jsonout_begin(&w, "error", '{');
    jsonout_string(&w, "code", pz_strerror(rc));
    jsonout_string(&w, "detail", d->detail);
    jsonout_end(&w, '}');
    jsonout_end(&w, '}');
    json = jsonout_finish(&w, &len);
    if (json != NULL) {
        jobs__backend(jobs)->ended(jobs->backend, id, created_ms, entry,
                                   PZ_STATUS_FAILED, json);
    }
    free(json);
}

int
jobs__adopt(jobs_t *jobs,
            const char *id,
            int64_t created_ms,
            const char *request,
            const char *entry)
{
    pz_diag_t d;
    int rc;
    job_t *job;

    pz_diag_clear(&d);
    job = parse_job(jobs, id, created_ms, request, &rc, &d);
    if (job == NULL) {
        log_line_t ev;

        if (rc == PZ_ENOMEM) {
            return rc;
        }
        log_line_begin(&ev, LOG_ERROR, "job request does not parse here");
        log_line_str(&ev, "job_id", id);
        log_line_str(&ev, "code", pz_strerror(rc));
        log_line_str(&ev, "detail", d.detail);
        log_line_end(&ev);
        end_unparsed(jobs, id, created_ms, entry, rc, &d);
        return PZ_OK;
    }
    job->adopted = true;
    snprintf(job->entry, sizeof(job->entry), "%s", entry);
    rc = jobs__admit(jobs, job);
    if (rc != PZ_OK) {
        /* Draining: its lease runs out and another replica takes it. */
        jobs_release(jobs, job);
        return PZ_OK;
    }
    jobs_release(jobs, job);
    return PZ_OK;
}

/* Hands job to the backend: its record and the deployment's queue; job
 * becomes a snapshot of the record. */
int
jobs__submit_remote(jobs_t *jobs, job_t *job)
{
    char *json;
    int status;
    int rc;

    if (atomic_load(&jobs->draining)) {
        return PZ_EDRAINING;
    }
    /* Tables this replica lacks are likely missing on the others too:
     * the job shows as preparing until a replica has them. */
    atomic_store(&job->state, job->req.preparing ? JOB_PREPARING : JOB_QUEUED);
    json = jobs__render(job, &status);
    if (json == NULL) {
        return PZ_ENOMEM;
    }
    rc = jobs__backend(jobs)->submit(jobs->backend, job, json);
    if (rc != PZ_OK) {
        free(json);
        return rc;
    }
    memcpy(job->rec.id, job->id, sizeof(job->id));
    job->rec.state = JOB_QUEUED;
    job->rec.status = status;
    job->rec.json = json;
    job->rec.created_ms = job->created_ms;
    job->remote = true;
    api_solve_cleanup(&job->req);
    return PZ_OK;
}

/* A snapshot handle of rec (taken over), with the caller's reference, or
 * NULL (rec freed). */
job_t *
jobs__remote_job(jobs_t *jobs, jobs_record_t *rec)
{
    job_t *job = jobs__job_alloc(jobs);

    if (job == NULL) {
        jobs_record_cleanup(rec);
        return NULL;
    }
    memcpy(job->id, rec->id, sizeof(job->id));
    job->rec = *rec;
    memset(rec, 0, sizeof(*rec));
    job->remote = true;
    job->created_ms = job->rec.created_ms;
    job->refs = 1;
    atomic_init(&job->state, job->rec.state);
    return job;
}

/* Hands the end of job to the backend; false when it could not take it
 * yet (the end is retried by jobs__flush_ended). */
bool
jobs__store_end(jobs_t *jobs, job_t *job)
{
    int status;
    char *json = jobs__render(job, &status);
    bool ok;

    if (json == NULL) {
        return false;
    }
    ok = jobs__backend(jobs)->ended(jobs->backend, job->id, job->created_ms,
                                    job->entry, status, json);
    free(json);
    return ok;
}

int
jobs__store_here(jobs_t *jobs, job_t *job)
{
    int status;
    char *json = jobs__render(job, &status);
    int rc;

    if (json == NULL) {
        return PZ_ENOMEM;
    }
    rc = jobs__backend(jobs)->ended_here(
        jobs->backend, job->id, job->created_ms,
        job->req.spec.limits.memory_bytes, status, json);
    /* An ended job's rendering never changes: the reply that follows
     * writes this one instead of rendering it again. Only the submitting
     * thread holds the job here (a backend's lookups go to the store). */
    job->rec.json = json;
    job->rec.status = status;
    return rc;
}

void
jobs__flush_ended(jobs_t *jobs)
{
    job_t *batch[64];
    size_t n = 0;

    /* A job stays pending until its end is in the store: a lookup that
     * finds no record there answers from the local job meanwhile. Only
     * this thread clears the flag, so no end is written twice at once. */
    pthread_mutex_lock(&jobs->lock);
    for (job_t *job = jobs->first; job != NULL && n < 64; job = job->next) {
        if (job->end_pending) {
            job->refs++;
            batch[n++] = job;
        }
    }
    pthread_mutex_unlock(&jobs->lock);
    for (size_t i = 0; i < n; i++) {
        if (jobs__store_end(jobs, batch[i])) {
            pthread_mutex_lock(&jobs->lock);
            batch[i]->end_pending = false;
            pthread_mutex_unlock(&jobs->lock);
        }
        jobs_release(jobs, batch[i]);
    }
}

/* jobs_cancel of a record's snapshot. */
int
jobs__cancel_remote(jobs_t *jobs, job_t *job, bool *ended)
{
    char *cancelled = NULL;
    int rc;

    if (job->rec.state == JOB_ENDED) {
        *ended = true;
        return PZ_OK;
    }
    /* Rendered as cancelled when it may end without its replica: queued,
     * or taken but not begun (the script decides). */
    if (job->rec.request != NULL &&
        (job->rec.state == JOB_QUEUED || job->rec.status == PZ_STATUS_QUEUED ||
         job->rec.status == PZ_STATUS_PREPARING)) {
        cancelled = jobs__render_unrun(jobs, job->id, job->rec.created_ms,
                                       job->rec.request, PZ_STATUS_CANCELLED,
                                       PZ_OK, NULL);
    }
    rc =
        jobs__backend(jobs)->cancel(jobs->backend, &job->rec, cancelled, ended);
    free(cancelled);
    if (rc == PZ_OK) {
        atomic_store(&job->state, job->rec.state);
    }
    return rc;
}

/* jobs_list from the backend. */
int
jobs__list_remote(jobs_t *jobs,
                  size_t offset,
                  size_t limit,
                  job_t **out,
                  size_t *n,
                  size_t *total)
{
    jobs_record_t *recs = calloc(limit > 0 ? limit : 1, sizeof(*recs));
    size_t got = 0;
    int rc;

    *n = 0;
    *total = 0;
    if (recs == NULL) {
        return PZ_ENOMEM;
    }
    rc = jobs__backend(jobs)->list(jobs->backend, offset, limit, recs, &got,
                                   total);
    for (size_t i = 0; i < got; i++) {
        job_t *job = jobs__remote_job(jobs, &recs[i]);

        if (job != NULL) {
            out[(*n)++] = job;
        }
    }
    free(recs);
    return rc;
}

int
jobs_refresh(jobs_t *jobs, job_t **job)
{
    job_t *fresh;
    int rc;

    if (!(*job)->remote || jobs_ended(*job)) {
        return PZ_OK;
    }
    rc = jobs_lookup(jobs, (*job)->id, &fresh);
    if (rc == PZ_OK) {
        jobs_release(jobs, *job);
        *job = fresh;
    }
    return rc;
}
