/* SPDX-License-Identifier: MIT */
/* serve.c - `puzzled serve`: startup, the wait for a signal, and shutdown.
 *
 * Threads: MHD's polling threads answer requests; the solver pool runs
 * jobs; the libuv loop thread owns timers and signals; this (main) thread
 * only starts everything, sleeps until a stop is requested, and then runs
 * the shutdown steps in order: stop accepting, stop admitting and answer
 * every waiting connection, cancel queued jobs, give running jobs the
 * grace period and then cancel them, let connections drain (bounded),
 * stop the daemon, join the workers, close the loop, free everything.
 */
#include "serve.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalogue.h"
#include "config.h"
#include "http.h"
#include "jobs.h"
#include "jobs_redis.h"
#include "log.h"
#include "loop.h"
#include "metrics.h"
#include "openapi.h"
#include "pool.h"
#include "table_threads.h"
#include "tables.h"
#include "version.h"
#include "web.h"

/* How long shutdown waits for open connections after answering them. */
#define SERVE_DRAIN_MS 3000

/* How long cancelled jobs get to notice their flag. */
#define SERVE_CANCEL_WAIT_MS 2000

/* Threads that load and build tables. */
#define SERVE_TABLE_THREADS 2

/* How long shutdown waits for a table build to notice its cancel flag. */
#define SERVE_TABLES_STOP_MS 2000

static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stop_cond = PTHREAD_COND_INITIALIZER;
static bool stop_requested;
static int stop_signo;

static void
request_stop(int signo)
{
    bool again;

    pthread_mutex_lock(&stop_lock);
    again = stop_requested;
    if (!again) {
        stop_requested = true;
        stop_signo = signo;
        pthread_cond_signal(&stop_cond);
    }
    pthread_mutex_unlock(&stop_lock);
    if (again) {
        log_msg(LOG_WARN, "already shutting down");
    }
}

void
serve_stop(void)
{
    request_stop(0);
}

/* Called on the loop thread for SIGTERM and SIGINT. */
static void
on_signal(void *arg, int signo)
{
    (void)arg;
    request_stop(signo);
}

/* Reads the whole file at path into an owned NUL-terminated buffer. */
static char *
read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0;
    size_t n = 0;

    if (f == NULL) {
        return NULL;
    }
    for (;;) {
        size_t got;

        if (cap - n < 4096) {
            char *grown = realloc(buf, cap + 65536);

            if (grown == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = grown;
            cap += 65536;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) {
            break;
        }
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Writes the port to path through a temporary file and a rename, so a
 * reader never sees a partial number. */
static bool
write_port_file(const char *path, int port)
{
    char tmp[4096];
    FILE *f;

    if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
        return false;
    }
    f = fopen(tmp, "w");
    if (f == NULL) {
        return false;
    }
    if (fprintf(f, "%d\n", port) < 0 || fclose(f) != 0) {
        remove(tmp);
        return false;
    }
    return rename(tmp, path) == 0;
}

static void
log_listening(const config_t *cfg, int port)
{
    log_line_t ev;

    log_line_begin(&ev, LOG_INFO, "listening");
    log_line_str(&ev, "bind", cfg->bind);
    log_line_num(&ev, "port", port);
    log_line_str(&ev, "version", pz_version());
    log_line_num(&ev, "workers", cfg->workers);
    log_line_num(&ev, "queue", cfg->queue);
    log_line_num(&ev, "memory_cap_mb", (double)(cfg->memory_cap >> 20));
    log_line_num(&ev, "tables_memory_mb", (double)(cfg->tables_memory >> 20));
    log_line_num(&ev, "max_memory_mb",
                 (double)(cfg->policy.max_memory_bytes >> 20));
    log_line_num(&ev, "max_time_ms", (double)cfg->policy.max_time_ms);
    log_line_num(&ev, "cors_origins", cfg->ncors);
    if (cfg->tables != NULL) {
        log_line_str(&ev, "tables", cfg->tables);
    }
    log_line_end(&ev);
}

/* False while a start-up table (the complete tables, a solver's tables)
 * is queued, loading or building: /readyz says "warming". */
static bool
tables_ready(void *arg)
{
    (void)arg;
    return !table_threads_warming();
}

/* The tables module's messages (why a table is rebuilt) as log events. */
static void
on_tables_log(void *arg, int level, const char *table, const char *msg)
{
    log_line_t ev;

    log_line_begin(&ev,
                   level == TABLES_LOG_ERROR  ? LOG_ERROR
                   : level == TABLES_LOG_WARN ? LOG_WARN
                                              : LOG_INFO,
                   "tables");
    (void)arg;
    log_line_str(&ev, "table", table);
    log_line_str(&ev, "detail", msg);
    log_line_end(&ev);
}

/* The tables module's state hook: a table became ready (or failed), so
 * preparing jobs may go on. */
static void
on_table_state(void *arg, const char *table, int state)
{
    (void)table;
    if (state == TABLES_READY || state == TABLES_FAILED ||
        state == TABLES_MISSING) {
        jobs_tables_changed(arg);
    }
}

/* The jobs module's prepare hook. */
static void
on_prepare(void *arg, const char *name, bool build)
{
    (void)arg;
    table_threads_prepare(name, build);
}

/* Keeps the jobs in the Redis of --redis. False (after a message) when
 * the URL or prefix is bad. */
static bool
attach_redis(const config_t *cfg, jobs_t *jobs)
{
    jobs_redis_config_t rcfg;
    jobs_backend_t *b = NULL;
    char why[256];

    rcfg.url = cfg->redis;
    rcfg.prefix = cfg->redis_prefix;
    rcfg.timeout_ms = cfg->redis_timeout_ms;
    rcfg.lease_ms = cfg->redis_lease_ms;
    rcfg.attempts = cfg->redis_attempts;
    rcfg.queue = cfg->queue;
    rcfg.memory_cap = cfg->memory_cap;
    rcfg.retention_ms = cfg->retention_ms;
    if (jobs_redis_create(&rcfg, &b, why, sizeof(why)) != PZ_OK) {
        fprintf(stderr, "puzzled serve: --redis: %s\n", why);
        return false;
    }
    jobs_attach_backend(jobs, b);
    return true;
}

/* Blocks until request_stop. */
static int
wait_for_stop(void)
{
    int signo;

    pthread_mutex_lock(&stop_lock);
    while (!stop_requested) {
        pthread_cond_wait(&stop_cond, &stop_lock);
    }
    signo = stop_signo;
    pthread_mutex_unlock(&stop_lock);
    return signo;
}

/* Refuses new work, waits the grace period for running jobs, cancels the
 * rest and answers open connections. Returns false when a job still runs
 * after its cancellation (an engine that stopped polling: a bug). */
static bool
shutdown_service(const config_t *cfg, jobs_t *jobs, http_t *http)
{
    bool idle;

    /* New solves get 503 from here and every reply "Connection: close";
     * then new connections are refused, so a client refused at connect
     * knows the drain has begun. */
    jobs_drain(jobs);
    http_quiesce(http);
    idle = jobs_wait_idle(jobs, cfg->grace_ms);
    if (!idle) {
        log_msg(LOG_INFO, "grace period over: cancelling running jobs");
        jobs_cancel_running(jobs);
        idle = jobs_wait_idle(jobs, SERVE_CANCEL_WAIT_MS);
    }
    if (!http_drain(http, SERVE_DRAIN_MS)) {
        log_msg(LOG_WARN, "closing connections that stayed open");
    }
    return idle;
}

/*
 * Loads the playground's files: --web DIR must load; without it the
 * directory beside the binary, when there is one. No page is no error:
 * / then says how to build it. False stops the start.
 */
static bool
load_web(const config_t *cfg, web_t **out)
{
    char dir[PATH_MAX];
    const char *from = cfg->web;
    log_line_t ev;
    size_t files;
    size_t bytes;
    int rc;

    *out = NULL;
    if (from == NULL) {
        if (!web_default_dir(dir, sizeof(dir))) {
            log_msg(LOG_INFO, "no playground page to serve (--web)");
            return true;
        }
        from = dir;
    }
    rc = web_load(from, out);
    if (rc != PZ_OK) {
        int e = errno;

        log_line_begin(&ev, LOG_ERROR, "cannot load the playground page");
        log_line_str(&ev, "dir", from);
        log_line_str(&ev, "error",
                     rc == PZ_EIO ? strerror(e) : pz_errtitle(rc));
        log_line_end(&ev);
        return false;
    }
    web_size(*out, &files, &bytes);
    log_line_begin(&ev, LOG_INFO, "playground page");
    log_line_str(&ev, "dir", from);
    log_line_num(&ev, "files", (double)files);
    log_line_num(&ev, "bytes", (double)bytes);
    log_line_end(&ev);
    return true;
}

int
serve_main(int argc, char **argv)
{
    config_t cfg;
    char *openapi_owned = NULL;
    const char *openapi = (const char *)openapi_yaml_data;
    size_t openapi_len = openapi_yaml_size;
    char *catalogue = NULL;
    size_t catalogue_len = 0;
    web_t *web = NULL;
    metrics_t *metrics = NULL;
    jobs_t *jobs = NULL;
    loop_t *loop = NULL;
    pool_t *pool = NULL;
    http_t *http = NULL;
    jobs_config_t jcfg;
    http_deps_t deps;
    bool tables_started = false;
    bool tables_stopped;
    bool idle;
    int port = 0;
    int exit_code = 1;
    int rc;

    rc = config_parse(argc, argv, &cfg, stdout, stderr);
    if (rc != 0) {
        config_cleanup(&cfg);
        return rc == 1 ? 0 : 2;
    }
    log_set_level(cfg.log_level);
    if (tables_set_dir(cfg.tables) != PZ_OK) {
        fprintf(stderr, "puzzled serve: --tables: path too long\n");
        config_cleanup(&cfg);
        return 2;
    }
    tables_set_log(on_tables_log, NULL);
    tables_set_memory_limit(cfg.tables_memory);
    /* Solver threads never load or build a table: a job whose tables
     * are not in memory prepares first, on the table threads. */
    tables_set_inline(false);
    pthread_mutex_lock(&stop_lock);
    stop_requested = false;
    stop_signo = 0;
    pthread_mutex_unlock(&stop_lock);
    /* MHD sends with MSG_NOSIGNAL; this is insurance for anything else. */
    signal(SIGPIPE, SIG_IGN);
    if (cfg.openapi != NULL) {
        openapi_owned = read_file(cfg.openapi, &openapi_len);
        if (openapi_owned == NULL) {
            fprintf(stderr, "puzzled serve: cannot read --openapi file %s\n",
                    cfg.openapi);
            exit_code = 2;
            goto out;
        }
        openapi = openapi_owned;
    }
    if (!load_web(&cfg, &web)) {
        exit_code = 2;
        goto out;
    }
    catalogue = api_catalogue_text(&cfg.policy, &catalogue_len);
    if (catalogue == NULL) {
        log_msg(LOG_ERROR, "out of memory building the catalogue");
        goto out;
    }
    jcfg.queue = cfg.queue;
    jcfg.memory_cap = cfg.memory_cap;
    jcfg.retention_ms = cfg.retention_ms;
    jcfg.max_jobs = cfg.max_jobs;
    jcfg.prepare = on_prepare;
    jcfg.prepare_arg = NULL;
    jcfg.workers = cfg.workers;
    jcfg.policy = &cfg.policy;
    if (metrics_create(&metrics) != PZ_OK ||
        jobs_create(&jcfg, &jobs) != PZ_OK) {
        log_msg(LOG_ERROR, "out of memory at startup");
        goto out;
    }
    if (cfg.redis != NULL && !attach_redis(&cfg, jobs)) {
        exit_code = 2;
        goto out;
    }
    /* The loop first: it installs the signal handlers before any other
     * thread exists that a SIGTERM could otherwise kill us through. */
    if (loop_start(jobs, on_signal, NULL, &loop) != PZ_OK ||
        pool_start(jobs, cfg.workers, &pool) != PZ_OK) {
        log_msg(LOG_ERROR, "could not start the service threads");
        goto out;
    }
    tables_set_state_hook(on_table_state, jobs);
    tables_started = table_threads_start(SERVE_TABLE_THREADS) == PZ_OK;
    if (!tables_started) {
        log_msg(LOG_ERROR, "could not start the table threads");
        goto out;
    }
    /* Loads what exists and builds the startup tables (unless builds are
     * off): the service answers meanwhile, /readyz says "warming". */
    table_threads_warm(cfg.policy.table_builds != API_TABLE_BUILDS_NEVER);
    if (jobs_start_backend(jobs) != PZ_OK) {
        log_msg(LOG_ERROR, "could not start the job store threads");
        goto out;
    }
    deps.cfg = &cfg;
    deps.jobs = jobs;
    deps.loop = loop;
    deps.metrics = metrics;
    deps.catalogue = catalogue;
    deps.catalogue_len = catalogue_len;
    deps.tables_ready = tables_ready;
    deps.tables_ready_arg = NULL;
    deps.openapi = openapi;
    deps.openapi_len = openapi_len;
    deps.web = web;
    errno = 0;
    rc = http_start(&deps, &http, &port);
    if (rc != PZ_OK) {
        int e = errno;
        log_line_t ev;

        log_line_begin(&ev, LOG_ERROR,
                       rc == PZ_EINVAL ? "bad bind address"
                                       : "could not listen");
        if (rc == PZ_EIO && e != 0) {
            log_line_str(&ev, "error", strerror(e));
        }
        log_line_str(&ev, "bind", cfg.bind);
        log_line_num(&ev, "port", cfg.port);
        log_line_end(&ev);
        exit_code = rc == PZ_EINVAL ? 2 : 1;
        goto out;
    }
    if (cfg.port_file != NULL && !write_port_file(cfg.port_file, port)) {
        log_line_t ev;

        log_line_begin(&ev, LOG_ERROR, "could not write the port file");
        log_line_str(&ev, "path", cfg.port_file);
        log_line_end(&ev);
        goto out;
    }
    log_listening(&cfg, port);
    /* Request and job lines wait up to one loop tick (100 ms) in a
     * buffer: one write per few hundred lines under load. */
    log_set_buffered(true);
    {
        int signo = wait_for_stop();
        log_line_t ev;

        log_set_buffered(false);
        log_line_begin(&ev, LOG_INFO, "shutting down");
        log_line_str(&ev, "signal",
                     signo == SIGTERM  ? "SIGTERM"
                     : signo == SIGINT ? "SIGINT"
                                       : "none");
        log_line_num(&ev, "grace_ms", cfg.grace_ms);
        log_line_end(&ev);
    }
    idle = shutdown_service(&cfg, jobs, http);
    tables_stopped = table_threads_stop(SERVE_TABLES_STOP_MS);
    tables_started = false;
    if (!idle || !tables_stopped) {
        /* A job that stopped polling, or a table build inside a step
         * that has not looked at its cancel flag yet. Waiting would
         * outlast a supervisor's patience (docker stop allows 10 s, then
         * kills), so exit without it: a table is written only once
         * built, so nothing half-made stays behind, and the next process
         * builds it again. */
        http_stop(http);
        log_msg(LOG_WARN, idle ? "exiting while a table is being built; the "
                                 "table is not saved"
                               : "exiting while a job still runs");
        log_msg(LOG_INFO, "stopped");
        fflush(NULL);
        _exit(0);
    }
    exit_code = 0;
out:
    if (jobs != NULL && exit_code != 0) {
        /* Startup failed after the pool started: nothing was admitted,
         * but make sure no worker waits forever. */
        jobs_drain(jobs);
    }
    http_stop(http);
    if (tables_started && !table_threads_stop(SERVE_TABLES_STOP_MS)) {
        log_msg(LOG_WARN, "exiting while a table is being built");
        fflush(NULL);
        _exit(exit_code);
    }
    tables_set_state_hook(NULL, NULL);
    pool_stop(pool);
    loop_stop(loop);
    jobs_destroy(jobs);
    metrics_destroy(metrics);
    free(catalogue);
    free(openapi_owned);
    web_free(web);
    if (exit_code == 0) {
        log_msg(LOG_INFO, "stopped");
    }
    config_cleanup(&cfg);
    return exit_code;
}
