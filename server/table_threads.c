/* SPDX-License-Identifier: MIT */
/* table_threads.c - the daemon's table threads and the build runner.
 *
 * Tables are the server's, not a request's: a request that needs a table
 * not in memory asks for it here and waits (its job is "preparing"), and
 * the table threads load or build it, one table at a time per thread, each
 * table once however many jobs wait for it (the tables module keeps a
 * second thread that asks for the same table waiting for the first). A
 * build splits each of its steps over the runner's threads, so one build
 * uses every core.
 */
#include "table_threads.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "search.h"
#include "tables.h"

#define WORKERS_MAX 64
#define THREADS_MAX 4
#define QUEUE_MAX   256

/* One part of a step, run on its own thread. */
typedef struct part {
    tables_task_fn fn;
    void *arg;
    int index;
} part_t;

static void *
part_main(void *p)
{
    part_t *part = p;

    part->fn(part->arg, part->index);
    return NULL;
}

/* Runs parts 1..n-1 on new threads and part 0 here; a part whose thread
 * cannot start runs here too, so the step always completes. */
static void
run(void *ctx, int n, tables_task_fn fn, void *arg)
{
    pthread_t tid[WORKERS_MAX];
    part_t parts[WORKERS_MAX];
    int started[WORKERS_MAX] = { 0 };

    (void)ctx;
    if (n > WORKERS_MAX) {
        n = WORKERS_MAX;
    }
    for (int i = 1; i < n; i++) {
        parts[i].fn = fn;
        parts[i].arg = arg;
        parts[i].index = i;
        started[i] = pthread_create(&tid[i], NULL, part_main, &parts[i]) == 0;
    }
    fn(arg, 0);
    for (int i = 1; i < n; i++) {
        if (started[i]) {
            pthread_join(tid[i], NULL);
        } else {
            fn(arg, i);
        }
    }
}

void
table_threads_install(int workers)
{
    if (workers <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);

        workers = cpus > 0 ? (int)cpus : 1;
    }
    if (workers > WORKERS_MAX) {
        workers = WORKERS_MAX;
    }
    tables_set_runner(run, NULL, workers);
}

/* --- The queue ------------------------------------------------------- */

typedef struct request {
    char name[TABLES_NAME_MAX];
    bool build;
} request_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t gone = PTHREAD_COND_INITIALIZER;
static request_t queue[QUEUE_MAX]; /* FIFO ring, under lock */
static int qhead;
static int qlen;
static bool stopping;
static int nthreads_running; /* threads not yet ended */
static pthread_t threads[THREADS_MAX];
static int nthreads;

/* Logs what preparing name gave. */
static void
log_result(const char *name, int rc, uint64_t start_ns)
{
    tables_status_t st;
    log_line_t ev;

    if (rc == PZ_ECANCELLED) {
        return;
    }
    log_line_begin(&ev,
                   rc == PZ_OK || rc == PZ_ENOT_FOUND ? LOG_INFO : LOG_WARN,
                   rc == PZ_OK ? "table ready" : "table not ready");
    log_line_str(&ev, "table", name);
    log_line_num(&ev, "ms", (double)(pz_now_ns() - start_ns) / 1e6);
    if (rc == PZ_OK) {
        log_line_num(&ev, "memory_bytes", (double)tables_memory_bytes());
    } else {
        log_line_str(&ev, "code", pz_strerror(rc));
        if (tables_status(name, &st) == PZ_OK && st.why[0] != '\0') {
            log_line_str(&ev, "reason", st.why);
        }
    }
    log_line_end(&ev);
}

static void *
thread_main(void *arg)
{
    (void)arg;
    tables_thread_prepares(true);
    pthread_mutex_lock(&lock);
    for (;;) {
        request_t r;
        uint64_t start;
        int rc;

        while (!stopping && qlen == 0) {
            pthread_cond_wait(&work, &lock);
        }
        if (stopping) {
            break;
        }
        r = queue[qhead];
        qhead = (qhead + 1) % QUEUE_MAX;
        qlen--;
        pthread_mutex_unlock(&lock);
        start = pz_now_ns();
        rc = r.build ? tables_ensure(r.name, NULL)
                     : tables_load_existing(r.name);
        tables_set_queued(r.name, false);
        log_result(r.name, rc, start);
        pthread_mutex_lock(&lock);
    }
    nthreads_running--;
    pthread_cond_broadcast(&gone);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int
table_threads_start(int n)
{
    pthread_mutex_lock(&lock);
    stopping = false;
    qhead = 0;
    qlen = 0;
    nthreads = 0;
    nthreads_running = 0;
    pthread_mutex_unlock(&lock);
    tables_cancel_builds(false);
    if (n > THREADS_MAX) {
        n = THREADS_MAX;
    }
    for (int i = 0; i < n; i++) {
        if (pthread_create(&threads[nthreads], NULL, thread_main, NULL) != 0) {
            break;
        }
        pthread_mutex_lock(&lock);
        nthreads++;
        nthreads_running++;
        pthread_mutex_unlock(&lock);
    }
    return nthreads > 0 ? PZ_OK : PZ_ENOMEM;
}

void
table_threads_prepare(const char *name, bool build)
{
    bool queued = false;

    pthread_mutex_lock(&lock);
    for (int i = 0; i < qlen; i++) {
        request_t *r = &queue[(qhead + i) % QUEUE_MAX];

        if (strcmp(r->name, name) == 0) {
            r->build = r->build || build;
            queued = true;
            break;
        }
    }
    if (!queued && !stopping && qlen < QUEUE_MAX) {
        request_t *r = &queue[(qhead + qlen) % QUEUE_MAX];

        snprintf(r->name, sizeof(r->name), "%s", name);
        r->build = build;
        qlen++;
        queued = true;
        pthread_cond_signal(&work);
    }
    pthread_mutex_unlock(&lock);
    if (queued) {
        (void)tables_set_queued(name, true);
    }
}

void
table_threads_warm(bool build_startup)
{
    int n = tables_status_list(NULL, 0);
    tables_status_t *all = calloc(n > 0 ? (size_t)n : 1, sizeof(*all));

    if (all == NULL) {
        return;
    }
    n = tables_status_list(all, n) < n ? tables_status_list(all, n) : n;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n; i++) {
            const tables_status_t *st = &all[i];

            if (st->state == TABLES_READY || (pass == 0) != st->startup) {
                continue;
            }
            if (st->startup && (build_startup || st->file)) {
                table_threads_prepare(st->name, build_startup);
            } else if (!st->startup && st->file) {
                table_threads_prepare(st->name, false);
            }
        }
    }
    free(all);
}

bool
table_threads_warming(void)
{
    tables_status_t all[TABLES_LIST_MAX];
    int n = tables_status_list(all, TABLES_LIST_MAX);

    for (int i = 0; i < n && i < TABLES_LIST_MAX; i++) {
        if (all[i].startup &&
            (all[i].state == TABLES_QUEUED || all[i].state == TABLES_LOADING ||
             all[i].state == TABLES_BUILDING)) {
            return true;
        }
    }
    return false;
}

bool
table_threads_stop(int64_t timeout_ms)
{
    struct timespec until;
    bool all_gone;

    tables_cancel_builds(true);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)(timeout_ms / 1000);
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&lock);
    stopping = true;
    for (int i = 0; i < qlen; i++) {
        (void)tables_set_queued(queue[(qhead + i) % QUEUE_MAX].name, false);
    }
    qlen = 0;
    pthread_cond_broadcast(&work);
    while (nthreads_running > 0) {
        if (pthread_cond_timedwait(&gone, &lock, &until) == ETIMEDOUT) {
            break;
        }
    }
    all_gone = nthreads_running == 0;
    pthread_mutex_unlock(&lock);
    if (all_gone) {
        for (int i = 0; i < nthreads; i++) {
            pthread_join(threads[i], NULL);
        }
        nthreads = 0;
    }
    return all_gone;
}
