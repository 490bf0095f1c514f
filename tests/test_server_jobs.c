/* SPDX-License-Identifier: MIT */
/* test_server_jobs.c - the job table alone: admission, running, waiters,
 * cancellation, retention and eviction, draining. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "jobs.h"
#include "jobs_backend.h"
#include "jobs_internal.h"
#include "jsonout.h"
#include "log.h"
#include "request.h"

#define MIB ((size_t)1 << 20)

/* A parsed request for body under the built-in policy (tables inline). */
static void
parse(const char *body, api_solve_request_t *req)
{
    api_policy_t pol;
    pz_diag_t d;
    int rc;

    api_policy_default(&pol);
    rc = api_solve_parse_text(body, strlen(body), &pol, req, &d);
    ck_assert_msg(rc == PZ_OK, "%s: %s", body, d.detail);
}

/* A table with room for queue jobs, memory_cap bytes of budgets and
 * max_jobs ended jobs kept for retention_ms. */
static jobs_t *
make_table(int queue, size_t memory_cap, int max_jobs, int64_t retention_ms)
{
    jobs_config_t cfg;
    jobs_t *jobs = NULL;

    memset(&cfg, 0, sizeof(cfg));
    cfg.queue = queue;
    cfg.memory_cap = memory_cap;
    cfg.max_jobs = max_jobs;
    cfg.retention_ms = retention_ms;
    ck_assert_int_eq(jobs_create(&cfg, &jobs), PZ_OK);
    return jobs;
}

/* Submits a 2x2x2 job asking for memory_mb of budget; returns the code
 * and the job in *out (NULL on refusal). */
static int
submit(jobs_t *jobs, int memory_mb, int flags, job_t **out)
{
    api_solve_request_t req;
    char body[160];
    int rc;

    snprintf(body, sizeof(body),
             "{\"puzzle\":\"2x2x2\",\"scramble\":\"R U F'\","
             "\"engine\":\"bibfs\",\"memory_mb\":%d}",
             memory_mb);
    parse(body, &req);
    rc = jobs_submit(jobs, &req, flags, out);
    /* The job took the request over, whatever the outcome. */
    ck_assert_ptr_null(req.puzzle);
    ck_assert_int_eq(req.nruns, 0);
    ck_assert_int_eq(rc == PZ_OK, *out != NULL);
    return rc;
}

/* Submits a 3x3x3 request whose proven optimum "auto" hands to IDA*,
 * parsed under a policy of 3 optimal threads, the CPUs (the job spreads). */
static job_t *
submit_spread(jobs_t *jobs)
{
    api_solve_request_t req;
    api_policy_t pol;
    pz_diag_t d;
    job_t *job = NULL;
    static const char body[] = "{\"puzzle\":\"3x3x3\",\"scramble\":"
                               "\"R U F D L B R2 U2 F' L D B2\","
                               "\"optimal\":true,\"memory_mb\":8}";

    api_policy_default(&pol);
    pol.optimal_threads = 3;
    ck_assert_int_eq(api_solve_parse_text(body, strlen(body), &pol, &req, &d),
                     PZ_OK);
    ck_assert(req.spread);
    ck_assert_int_eq(jobs_submit(jobs, &req, 0, &job), PZ_OK);
    return job;
}

/* The text jobs_write gives for job. */
static char *
job_text(const job_t *job)
{
    jsonout_t w;
    char *text;
    size_t len;

    jsonout_init(&w);
    jsonout_begin(&w, NULL, '{');
    jobs_write(&w, "job", job);
    jsonout_end(&w, '}');
    text = jsonout_finish(&w, &len);
    ck_assert_ptr_nonnull(text);
    return text;
}

/* Checks that job's text holds each of the n strings in has. */
static void
assert_text_has(const job_t *job, const char *const *has, int n)
{
    char *text = job_text(job);

    for (int i = 0; i < n; i++) {
        ck_assert_msg(strstr(text, has[i]) != NULL, "no %s in %s", has[i],
                      text);
    }
    free(text);
}

/* The "threads" of job's run as its JSON reports them, or 0 without. */
static int
job_threads(const job_t *job)
{
    char *text = job_text(job);
    const char *at = strstr(text, "\"threads\":");
    int threads = 0;

    if (at != NULL) {
        threads = atoi(at + strlen("\"threads\":"));
    }
    free(text);
    return threads;
}

/* Submits a spreading job, starts it and checks its threads. */
static job_t *
start_spread(jobs_t *jobs, int threads)
{
    job_t *job = submit_spread(jobs);

    ck_assert_int_eq(job_threads(job), 0); /* queued: not decided yet */
    ck_assert_ptr_eq(jobs_next(jobs), job);
    ck_assert_int_eq(job_threads(job), threads);
    return job;
}

/* Ends a started job without searching: cancelled, then run. */
static void
end_started(jobs_t *jobs, job_t *job)
{
    bool ended;

    ck_assert_int_eq(jobs_cancel(jobs, job, &ended), PZ_OK);
    jobs_run(jobs, job);
    ck_assert(jobs_ended(job));
    jobs_release(jobs, job);
}

/* Takes the next job as a solver thread would and runs it. */
static void
run_next(jobs_t *jobs, const job_t *expect)
{
    job_t *job = jobs_next(jobs);

    ck_assert_ptr_eq(job, expect);
    jobs_run(jobs, job); /* drops the worker's reference */
}

START_TEST(test_jobs_queue_limit_refuses_and_keeps_nothing)
{
    jobs_t *jobs = make_table(2, 1024 * MIB, 100, 60000);
    job_t *a;
    job_t *b;
    job_t *c;
    jobs_stats_t st;

    ck_assert_int_eq(submit(jobs, 8, 0, &a), PZ_OK);
    ck_assert_int_eq(submit(jobs, 8, 0, &b), PZ_OK);
    ck_assert_int_eq(submit(jobs, 8, 0, &c), PZ_EQUEUE_FULL);
    jobs_get_stats(jobs, &st);
    ck_assert_uint_eq(st.queued, 2);
    ck_assert_uint_eq(st.kept, 2);
    ck_assert_uint_eq(st.memory_in_use, 16 * MIB);
    ck_assert_str_ne(jobs_id(a), jobs_id(b));
    ck_assert_uint_eq(strlen(jobs_id(a)), JOBS_ID_LEN);
    /* A refused job is nowhere: the table still finds only the two. */
    run_next(jobs, a);
    ck_assert(jobs_ended(a));
    ck_assert_int_eq(jobs_status(a), PZ_STATUS_SOLVED);
    jobs_get_stats(jobs, &st);
    ck_assert_uint_eq(st.queued, 1);
    ck_assert_uint_eq(st.memory_in_use, 8 * MIB);
    ck_assert_uint_eq(st.ended[PZ_STATUS_SOLVED], 1);
    jobs_release(jobs, a);
    jobs_release(jobs, b);
    jobs_destroy(jobs);
}
END_TEST

START_TEST(test_jobs_memory_cap_counts_queued_budgets)
{
    jobs_t *jobs = make_table(10, 100 * MIB, 100, 60000);
    job_t *a;
    job_t *b;
    job_t *c;

    ck_assert_int_eq(submit(jobs, 64, 0, &a), PZ_OK);
    ck_assert_int_eq(submit(jobs, 64, 0, &b), PZ_EMEMORY_CAP);
    ck_assert_int_eq(submit(jobs, 32, 0, &c), PZ_OK);
    /* The budget comes back when the job ends. */
    run_next(jobs, a);
    ck_assert_int_eq(submit(jobs, 64, 0, &b), PZ_OK);
    jobs_release(jobs, a);
    jobs_release(jobs, b);
    jobs_release(jobs, c);
    jobs_destroy(jobs);
}
END_TEST

START_TEST(test_jobs_final_only_with_its_end_time)
{
    /* The worker writes its last run's result a moment before it ends the
     * job and stamps finished_ms. A read in between sees a running job,
     * never a final status without its end time. */
    jobs_t *jobs = make_table(4, 1024 * MIB, 100, 60000);
    job_t *a;
    job_t *b;
    bool ended = false;

    ck_assert_int_eq(submit(jobs, 8, 0, &a), PZ_OK);
    ck_assert_ptr_eq(jobs_next(jobs), a);
    a->req.runs[0].solution.status = PZ_STATUS_SOLVED;
    atomic_store(&a->runs_started, a->req.nruns);
    atomic_store(&a->runs_done, a->req.nruns);
    ck_assert_int_eq(jobs_status(a), PZ_STATUS_RUNNING);
    assert_text_has(
        a, (const char *[]){ "\"status\":\"running\"", "\"finished_at\":null" },
        2);
    /* Ended: final, with its end time. */
    atomic_store(&a->runs_started, 0);
    atomic_store(&a->runs_done, 0);
    jobs_run(jobs, a); /* drops the worker's reference */
    ck_assert_int_eq(jobs_status(a), PZ_STATUS_SOLVED);
    assert_text_has(
        a, (const char *[]){ "\"status\":\"solved\"", "\"finished_at\":\"" },
        2);
    jobs_release(jobs, a);
    /* A queued job being cancelled: its runs are marked skipped (with
     * the cancel flag set) a moment before it ends. In between it is
     * still queued, neither running without a start nor final. */
    ck_assert_int_eq(submit(jobs, 8, 0, &b), PZ_OK);
    atomic_store(&b->cancel_requested, true);
    jobs__skip_runs(b, 0, PZ_STATUS_CANCELLED);
    ck_assert_int_eq(jobs_status(b), PZ_STATUS_QUEUED);
    assert_text_has(b,
                    (const char *[]){ "\"status\":\"queued\"",
                                      "\"started_at\":null",
                                      "\"finished_at\":null" },
                    3);
    ck_assert_int_eq(jobs_cancel(jobs, b, &ended), PZ_OK);
    ck_assert(jobs_ended(b));
    ck_assert_int_eq(jobs_status(b), PZ_STATUS_CANCELLED);
    assert_text_has(b, (const char *[]){ "\"finished_at\":\"" }, 1);
    jobs_release(jobs, b);
    jobs_destroy(jobs);
}
END_TEST

START_TEST(test_jobs_find_returns_the_same_job)
{
    jobs_t *jobs = make_table(4, 1024 * MIB, 100, 60000);
    job_t *a;
    job_t *found;
    char other[JOBS_ID_LEN + 1];

    ck_assert_int_eq(submit(jobs, 8, 0, &a), PZ_OK);
    found = jobs_find(jobs, jobs_id(a));
    ck_assert_ptr_eq(found, a);
    jobs_release(jobs, found);
    memcpy(other, jobs_id(a), sizeof(other));
    other[0] = other[0] == 'a' ? 'b' : 'a';
    ck_assert_ptr_null(jobs_find(jobs, other));
    ck_assert_ptr_null(jobs_find(jobs, "short"));
    jobs_release(jobs, a);
    jobs_destroy(jobs);
}
END_TEST

START_TEST(test_jobs_cancel_queued_ends_at_once)
{
    jobs_t *jobs = make_table(4, 1024 * MIB, 100, 60000);
    job_t *a;
    jobs_stats_t st;
    bool ended;

    ck_assert_int_eq(submit(jobs, 8, 0, &a), PZ_OK);
    ck_assert_int_eq(jobs_cancel(jobs, a, &ended), PZ_OK);
    ck_assert(!ended);
    ck_assert(jobs_ended(a));
    ck_assert_int_eq(jobs_status(a), PZ_STATUS_CANCELLED);
    /* Already ended: nothing changes. */
    ck_assert_int_eq(jobs_cancel(jobs, a, &ended), PZ_OK);
    ck_assert(ended);
    jobs_get_stats(jobs, &st);
    ck_assert_uint_eq(st.queued, 0);
    ck_assert_uint_eq(st.memory_in_use, 0);
    ck_assert_uint_eq(st.ended[PZ_STATUS_CANCELLED], 1);
    jobs_release(jobs, a);
    jobs_destroy(jobs);
}
END_TEST

/* A waiter's bookkeeping for the resume and suspend callbacks. */
typedef struct wait_log {
    int suspended;
    int resumed;
} wait_log_t;

static void
on_suspend(void *arg)
{
    ((wait_log_t *)arg)->suspended++;
}

static void
on_resume(void *arg)
{
    ((wait_log_t *)arg)->resumed++;
}

START_TEST(test_jobs_waiter_resumed_once_when_the_job_ends)
{
    jobs_t *jobs = make_table(4, 1024 * MIB, 100, 60000);
    wait_log_t log = { 0, 0 };
    job_waiter_t w;
    job_t *a;

    ck_assert_int_eq(submit(jobs, 8, 0, &a), PZ_OK);
    memset(&w, 0, sizeof(w));
    w.resume = on_resume;
    w.arg = &log;
    w.deadline_ms = jobs_now_ms() + 600000;
    ck_assert(jobs_wait(jobs, a, &w, on_suspend));
    ck_assert_int_eq(log.suspended, 1);
    ck_assert_int_eq(log.resumed, 0);
    run_next(jobs, a);
    ck_assert_int_eq(log.resumed, 1);
    ck_assert(!w.waiting);
    /* An ended job is not waited for. */
    ck_assert(!jobs_wait(jobs, a, &w, on_suspend));
    ck_assert_int_eq(log.suspended, 1);
    ck_assert_int_eq(log.resumed, 1);
    jobs_release(jobs, a);
    jobs_destroy(jobs);
}
END_TEST

START_TEST(test_jobs_waiter_resumed_at_its_deadline)
{
    jobs_t *jobs = make_table(4, 1024 * MIB, 100, 60000);
    wait_log_t log = { 0, 0 };
    job_waiter_t w;
    int64_t now = jobs_now_ms();
    job_t *a;

    ck_assert_int_eq(submit(jobs, 8, 0, &a), PZ_OK);
    memset(&w, 0, sizeof(w));
    w.resume = on_resume;
    w.arg = &log;
    w.deadline_ms = now + 1000;
    ck_assert(jobs_wait(jobs, a, &w, on_suspend));
    (void)jobs_sweep(jobs, now + 999, false);
    ck_assert_int_eq(log.resumed, 0);
    (void)jobs_sweep(jobs, now + 1000, false);
    ck_assert_int_eq(log.resumed, 1);
    ck_assert(!jobs_ended(a));
    /* The job itself goes on and ends without waking anyone again. */
    run_next(jobs, a);
    ck_assert_int_eq(log.resumed, 1);
    jobs_release(jobs, a);
    jobs_destroy(jobs);
}
END_TEST

START_TEST(test_jobs_retention_evicts_ended_jobs)
{
    jobs_t *jobs = make_table(4, 1024 * MIB, 100, 5000);
    char id[JOBS_ID_LEN + 1];
    job_t *a;
    job_t *found;
    int64_t ended;

    ck_assert_int_eq(submit(jobs, 8, 0, &a), PZ_OK);
    memcpy(id, jobs_id(a), sizeof(id));
    run_next(jobs, a);
    ended = jobs_now_ms();
    jobs_release(jobs, a);
    (void)jobs_sweep(jobs, ended + 1000, true);
    found = jobs_find(jobs, id);
    ck_assert_ptr_nonnull(found);
    jobs_release(jobs, found);
    (void)jobs_sweep(jobs, ended + 5000 + 1000, true);
    ck_assert_ptr_null(jobs_find(jobs, id));
    jobs_destroy(jobs);
}
END_TEST

START_TEST(test_jobs_undelivered_results_refuse_new_jobs)
{
    jobs_t *jobs = make_table(8, 1024 * MIB, 2, 600000);
    job_t *a;
    job_t *b;
    job_t *c;
    job_t *found;
    char id_a[JOBS_ID_LEN + 1];

    ck_assert_int_eq(submit(jobs, 8, 0, &a), PZ_OK);
    ck_assert_int_eq(submit(jobs, 8, 0, &b), PZ_OK);
    run_next(jobs, a);
    run_next(jobs, b);
    /* Two results nobody fetched fill the table: no result is dropped,
     * new work is refused. */
    ck_assert_int_eq(submit(jobs, 8, 0, &c), PZ_ERESULTS_FULL);
    memcpy(id_a, jobs_id(a), sizeof(id_a));
    /* Once a result is delivered, the next job evicts it. */
    jobs_delivered(jobs, a);
    jobs_release(jobs, a);
    ck_assert_int_eq(submit(jobs, 8, 0, &c), PZ_OK);
    run_next(jobs, c);
    found = jobs_find(jobs, id_a);
    ck_assert_ptr_null(found);
    found = jobs_find(jobs, jobs_id(b));
    ck_assert_ptr_eq(found, b);
    jobs_release(jobs, found);
    jobs_release(jobs, b);
    jobs_release(jobs, c);
    jobs_destroy(jobs);
}
END_TEST

START_TEST(test_jobs_list_newest_first)
{
    jobs_t *jobs = make_table(8, 1024 * MIB, 100, 60000);
    job_t *mine[3];
    job_t *got[8];
    size_t total = 0;
    size_t n;

    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(submit(jobs, 8, 0, &mine[i]), PZ_OK);
    }
    ck_assert_int_eq(jobs_list(jobs, 0, 8, got, &n, &total), PZ_OK);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(total, 3);
    for (size_t i = 0; i < n; i++) {
        ck_assert_ptr_eq(got[i], mine[2 - i]);
        jobs_release(jobs, got[i]);
    }
    ck_assert_int_eq(jobs_list(jobs, 1, 1, got, &n, &total), PZ_OK);
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_eq(got[0], mine[1]);
    jobs_release(jobs, got[0]);
    for (int i = 0; i < 3; i++) {
        jobs_release(jobs, mine[i]);
    }
    jobs_destroy(jobs);
}
END_TEST

START_TEST(test_jobs_drain_cancels_queued_and_refuses_new)
{
    jobs_t *jobs = make_table(4, 1024 * MIB, 100, 60000);
    wait_log_t log = { 0, 0 };
    job_waiter_t w;
    job_t *a;
    job_t *b;

    ck_assert_int_eq(submit(jobs, 8, 0, &a), PZ_OK);
    memset(&w, 0, sizeof(w));
    w.resume = on_resume;
    w.arg = &log;
    w.deadline_ms = jobs_now_ms() + 600000;
    ck_assert(jobs_wait(jobs, a, &w, on_suspend));
    jobs_drain(jobs);
    ck_assert(jobs_draining(jobs));
    ck_assert_int_eq(log.resumed, 1);
    ck_assert(jobs_ended(a));
    ck_assert_int_eq(jobs_status(a), PZ_STATUS_CANCELLED);
    ck_assert_int_eq(submit(jobs, 8, 0, &b), PZ_EDRAINING);
    jobs_stop(jobs);
    ck_assert_ptr_null(jobs_next(jobs));
    ck_assert(jobs_wait_idle(jobs, 0));
    jobs_release(jobs, a);
    jobs_destroy(jobs);
}
END_TEST

START_TEST(test_jobs_run_here_only_for_instant_requests)
{
    jobs_t *jobs = make_table(4, 1024 * MIB, 100, 60000);
    jobs_stats_t st;
    job_t *a;

    /* bibfs is not instant: asked to run here, the job is queued. */
    ck_assert_int_eq(submit(jobs, 8, JOBS_RUN_HERE, &a), PZ_OK);
    ck_assert(!jobs_ended(a));
    jobs_get_stats(jobs, &st);
    ck_assert_uint_eq(st.queued, 1);
    run_next(jobs, a);
    jobs_release(jobs, a);
    jobs_destroy(jobs);
}
END_TEST

/* A spreading job takes the CPUs (its optimal threads) no other job holds
 * when it starts; running and queued jobs hold one each, a spread job its
 * threads until it ends. Other jobs keep one thread. The solver threads
 * (workers) do not limit it. */
START_TEST(test_jobs_spread_takes_the_free_cpus)
{
    jobs_t *jobs = make_table(8, 1024 * MIB, 100, 60000); /* no workers */
    job_t *a;
    job_t *b;
    job_t *c;

    /* Idle: all three CPUs. */
    a = start_spread(jobs, 3);
    /* Every CPU is taken: the next one gets its own thread only. */
    b = start_spread(jobs, 1);
    end_started(jobs, a);
    end_started(jobs, b);

    /* A job queued behind it keeps a CPU for itself. */
    a = submit_spread(jobs);
    ck_assert_int_eq(submit(jobs, 8, 0, &b), PZ_OK);
    ck_assert_ptr_eq(jobs_next(jobs), a);
    ck_assert_int_eq(job_threads(a), 2);
    ck_assert_ptr_eq(jobs_next(jobs), b);
    ck_assert_int_eq(job_threads(b), 1);
    /* a's extra thread and b's: nothing left for c. */
    c = start_spread(jobs, 1);
    end_started(jobs, a);
    end_started(jobs, b);
    end_started(jobs, c);

    /* Every thread given back: all three again. */
    a = start_spread(jobs, 3);
    end_started(jobs, a);
    jobs_destroy(jobs);
}
END_TEST

/* --- A backend whose store can be down --- */

/* Stores ends only while up; finds only what it stored (a store that
 * came back empty). */
typedef struct fake_store {
    jobs_backend_t base;
    bool up;
    int nstored;
    char id[4][JOBS_ID_LEN + 1];
    char *json[4];
    int status[4];
} fake_store_t;

static int
fake_start(jobs_backend_t *b, jobs_t *t)
{
    (void)b;
    (void)t;
    return PZ_OK;
}

static void
fake_quiesce(jobs_backend_t *b)
{
    (void)b;
}

static void
fake_destroy(jobs_backend_t *b)
{
    fake_store_t *f = (fake_store_t *)b;

    for (int i = 0; i < f->nstored; i++) {
        free(f->json[i]);
    }
    f->nstored = 0;
}

static int
fake_submit(jobs_backend_t *b, const job_t *job, const char *json)
{
    (void)b;
    (void)job;
    (void)json;
    return PZ_EBACKEND;
}

static bool
fake_ended(jobs_backend_t *b,
           const char *id,
           int64_t created_ms,
           const char *entry,
           int status,
           const char *json)
{
    fake_store_t *f = (fake_store_t *)b;

    (void)created_ms;
    (void)entry;
    if (!f->up || f->nstored == 4) {
        return false;
    }
    snprintf(f->id[f->nstored], sizeof(f->id[0]), "%s", id);
    f->json[f->nstored] = strdup(json);
    f->status[f->nstored] = status;
    f->nstored++;
    return true;
}

static int
fake_find(jobs_backend_t *b, const char *id, jobs_record_t *rec)
{
    fake_store_t *f = (fake_store_t *)b;

    for (int i = 0; i < f->nstored; i++) {
        if (strcmp(f->id[i], id) == 0) {
            memset(rec, 0, sizeof(*rec));
            snprintf(rec->id, sizeof(rec->id), "%s", id);
            rec->state = JOB_ENDED;
            rec->status = f->status[i];
            rec->json = strdup(f->json[i]);
            return PZ_OK;
        }
    }
    return PZ_EJOB_NOT_FOUND;
}

static int
fake_list(jobs_backend_t *b,
          size_t offset,
          size_t limit,
          jobs_record_t *out,
          size_t *n,
          size_t *total)
{
    (void)b;
    (void)offset;
    (void)limit;
    (void)out;
    *n = 0;
    *total = 0;
    return PZ_OK;
}

static int
fake_cancel(jobs_backend_t *b,
            jobs_record_t *rec,
            const char *cancelled_json,
            bool *ended)
{
    (void)b;
    (void)rec;
    (void)cancelled_json;
    *ended = false;
    return PZ_EBACKEND;
}

static void
fake_stats(jobs_backend_t *b, jobs_stats_t *st)
{
    st->backend = "fake";
    st->backend_ready = ((fake_store_t *)b)->up;
}

static int
fake_ended_here(jobs_backend_t *b,
                const char *id,
                int64_t created_ms,
                size_t budget,
                int status,
                const char *json)
{
    (void)b;
    (void)id;
    (void)created_ms;
    (void)budget;
    (void)status;
    (void)json;
    return PZ_EBACKEND;
}

static const jobs_backend_ops_t fake_ops = {
    .name = "fake",
    .start = fake_start,
    .quiesce = fake_quiesce,
    .destroy = fake_destroy,
    .submit = fake_submit,
    .ended = fake_ended,
    .find = fake_find,
    .list = fake_list,
    .cancel = fake_cancel,
    .stats = fake_stats,
    .ended_here = fake_ended_here,
};

/* Runs a 2x2x2 job the backend hands over as id. */
static void
adopt_and_run(jobs_t *jobs, const char *id)
{
    static const char req[] = "{\"puzzle\":\"2x2x2\",\"scramble\":\"R U "
                              "F\",\"engine\":\"bibfs\",\"memory_mb\":8}";

    job_t *job;

    ck_assert_int_eq(jobs__adopt(jobs, id, api_wall_ms(), req, ""), PZ_OK);
    job = jobs_next(jobs);
    ck_assert_ptr_nonnull(job);
    jobs_run(jobs, job); /* drops the worker's reference */
}

/* The status of id as a lookup finds it, or -1 when not found. */
static int
lookup_status(jobs_t *jobs, const char *id, bool deliver)
{
    job_t *job = NULL;
    int rc = jobs_lookup(jobs, id, &job);
    int st;

    if (rc == PZ_EJOB_NOT_FOUND) {
        return -1;
    }
    ck_assert_int_eq(rc, PZ_OK);
    st = jobs_status(job);
    if (deliver) {
        jobs_delivered(jobs, job);
    }
    jobs_release(jobs, job);
    return st;
}

START_TEST(test_jobs_backend_end_kept_until_stored)
{
    /* One ended job kept: the second end pushes the first out, unless
     * the store does not have it yet. */
    jobs_config_t cfg;
    api_policy_t pol;
    jobs_t *jobs = NULL;
    fake_store_t f = { .base = { .ops = &fake_ops } };
    static const char a[] = "0123456789abcdef0123456789abcdea";
    static const char b[] = "0123456789abcdef0123456789abcdeb";

    api_policy_default(&pol);
    memset(&cfg, 0, sizeof(cfg));
    cfg.queue = 8;
    cfg.memory_cap = 1024 * MIB;
    cfg.max_jobs = 1;
    cfg.retention_ms = 60000;
    cfg.policy = &pol; /* parses the requests the backend hands over */
    ck_assert_int_eq(jobs_create(&cfg, &jobs), PZ_OK);
    jobs_attach_backend(jobs, &f.base);
    adopt_and_run(jobs, a);
    /* The store came back empty: the replica answers for its job. */
    ck_assert_int_eq(lookup_status(jobs, a, true), PZ_STATUS_SOLVED);
    adopt_and_run(jobs, b);
    ck_assert_int_eq(lookup_status(jobs, a, false), PZ_STATUS_SOLVED);
    jobs_sweep(jobs, jobs_now_ms() + 3600000, true); /* past retention */
    ck_assert_int_eq(lookup_status(jobs, a, false), PZ_STATUS_SOLVED);
    ck_assert_int_eq(lookup_status(jobs, b, true), PZ_STATUS_SOLVED);
    ck_assert_int_eq(f.nstored, 0);
    /* Stored once the store is up again, then read from it. */
    f.up = true;
    jobs__flush_ended(jobs);
    ck_assert_int_eq(f.nstored, 2);
    jobs__flush_ended(jobs); /* nothing left to store */
    ck_assert_int_eq(f.nstored, 2);
    ck_assert_int_eq(lookup_status(jobs, a, false), PZ_STATUS_SOLVED);
    ck_assert_int_eq(lookup_status(jobs, b, false), PZ_STATUS_SOLVED);
    /* The table's copies go with the sweep; the store keeps the ends. */
    jobs_sweep(jobs, jobs_now_ms() + 3600000, true);
    f.nstored = 1; /* the store loses b */
    ck_assert_int_eq(lookup_status(jobs, a, false), PZ_STATUS_SOLVED);
    ck_assert_int_eq(lookup_status(jobs, b, false), -1);
    f.nstored = 2;
    jobs_destroy(jobs);
}
END_TEST

static Suite *
jobs_suite(void)
{
    Suite *s = suite_create("server_jobs");
    TCase *tc = tcase_create("table");

    tcase_add_test(tc, test_jobs_queue_limit_refuses_and_keeps_nothing);
    tcase_add_test(tc, test_jobs_memory_cap_counts_queued_budgets);
    tcase_add_test(tc, test_jobs_find_returns_the_same_job);
    tcase_add_test(tc, test_jobs_final_only_with_its_end_time);
    tcase_add_test(tc, test_jobs_cancel_queued_ends_at_once);
    tcase_add_test(tc, test_jobs_waiter_resumed_once_when_the_job_ends);
    tcase_add_test(tc, test_jobs_waiter_resumed_at_its_deadline);
    tcase_add_test(tc, test_jobs_retention_evicts_ended_jobs);
    tcase_add_test(tc, test_jobs_undelivered_results_refuse_new_jobs);
    tcase_add_test(tc, test_jobs_list_newest_first);
    tcase_add_test(tc, test_jobs_drain_cancels_queued_and_refuses_new);
    tcase_add_test(tc, test_jobs_run_here_only_for_instant_requests);
    tcase_add_test(tc, test_jobs_spread_takes_the_free_cpus);
    tcase_add_test(tc, test_jobs_backend_end_kept_until_stored);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(jobs_suite());
    int failed;

    log_set_level(LOG_WARN); /* no line per job */
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
