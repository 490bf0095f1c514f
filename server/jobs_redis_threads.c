/* SPDX-License-Identifier: MIT */
/*
 * jobs_redis_threads.c - the Redis backend's threads and their life cycle
 * (docs/scale-out.md): the feeder reads the queue (XREADGROUP) while a
 * solver thread is free and starts what it read; the subscriber hears
 * ends and cancels (pub/sub); the keeper writes live statistics and
 * renews leases every 200 ms, reclaims the entries of lost replicas
 * (XAUTOCLAIM), watches for a Redis that lost its data, and reconnects.
 * Size: three threads and their start and stop; the keeper's periodic
 * work is one pipeline whose replies are read in the order sent.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "job.h"
#include "jobs_redis_internal.h"
#include "log.h"
#include "rng.h"
#include "search.h"

/* --- taking entries: feeder and reclaim --- */

/* What START answered for the entry of job id (sent at sent): runs the
 * job here, ends it (its replicas lost, or cancelled) or skips it. */
static void
on_started(rb_t *rb,
           redisContext *c,
           const char *entry,
           const char *id,
           const redisReply *r,
           int64_t sent)
{
    const char *what = rb__elem_str(r, 0);
    const char *request = rb__elem_str(r, 1);
    int64_t created =
        rb__elem_str(r, 2) != NULL ? strtoll(rb__elem_str(r, 2), NULL, 10) : 0;

    if (what != NULL && request != NULL && strcmp(what, "run") == 0) {
        /* The deployment's figures as of this start. */
        rb__set_figures(rb, r, 3, sent);
        jobs__adopt(rb->jobs, id, created, request, entry);
    } else if (what != NULL && request != NULL) {
        bool lost = strcmp(what, "lost") == 0;
        int status;
        char *json =
            jobs__render_unrun(rb->jobs, id, created, request,
                               lost ? PZ_STATUS_FAILED : PZ_STATUS_CANCELLED,
                               lost ? PZ_EWORKER_LOST : PZ_OK, &status);
        redisReply *er = NULL;

        if (json != NULL) {
            if (lost) {
                log_line_t ev;

                log_line_begin(&ev, LOG_WARN, "job lost its replicas");
                log_line_str(&ev, "job_id", id);
                log_line_num(&ev, "attempts", rb->attempts);
                log_line_end(&ev);
            }
            rb__end_on(rb, c, id, created, entry, status, json, &er);
            freeReplyObject(er);
        }
        free(json);
    } else if (r->type == REDIS_REPLY_ERROR) {
        rb__log_refused("start", r->str);
    }
}

/*
 * The stream entries of a XREADGROUP/XAUTOCLAIM entry list: one START
 * each, all in one pipeline, then each job run, ended or skipped. Returns
 * false when the connection failed.
 */
static bool
start_entries(rb_t *rb, redisContext *c, const redisReply *list)
{
    const char *entries[RB_BATCH];
    const char *ids[RB_BATCH];
    char keys[RB_BATCH][RB_KEY_MAX];
    redisReply *replies[RB_BATCH];
    char now[24], max[12];
    size_t n = 0;
    int64_t sent;
    bool ok = true;

    for (size_t i = 0; list != NULL && i < list->elements && n < RB_BATCH;
         i++) {
        const redisReply *e = list->element[i];
        const redisReply *fields;

        if (e->type != REDIS_REPLY_ARRAY || e->elements < 2 ||
            e->element[0]->type != REDIS_REPLY_STRING) {
            continue; /* an entry deleted since it was queued */
        }
        fields = e->element[1];
        for (size_t f = 0; fields->type == REDIS_REPLY_ARRAY &&
                           f + 1 < fields->elements && n < RB_BATCH;
             f += 2) {
            if (fields->element[f]->type == REDIS_REPLY_STRING &&
                strcmp(fields->element[f]->str, "id") == 0 &&
                fields->element[f + 1]->type == REDIS_REPLY_STRING) {
                entries[n] = e->element[0]->str;
                ids[n] = fields->element[f + 1]->str;
                n++;
            }
        }
    }
    if (n == 0) {
        return true;
    }
    /* Loaded before the pipeline: its replies are read in order. */
    if (!atomic_load_explicit(&RB_START.loaded, memory_order_acquire)) {
        rb__load_script(c, &RB_START);
    }
    snprintf(now, sizeof(now), "%lld", (long long)api_wall_ms());
    snprintf(max, sizeof(max), "%d", rb->attempts);
    sent = rb__mono_us();
    for (size_t i = 0; ok && i < n; i++) {
        const char *argv[] = {
            "EVALSHA",   RB_START.sha, "3", keys[i], rb->k_counters,
            rb->k_queue, rb->consumer, now, max,     RB_GROUP,
            entries[i]
        };

        rb__job_key(rb, ids[i], keys[i], sizeof(keys[i]));
        ok = redis_pipe_add(c, 11, argv, NULL);
    }
    for (size_t i = 0; i < n; i++) {
        replies[i] = ok ? redis_pipe_read(c, i == 0) : NULL;
        ok = ok && replies[i] != NULL;
    }
    for (size_t i = 0; ok && i < n; i++) {
        if (redis_reply_is_error(replies[i], "NOSCRIPT")) {
            /* A restarted Redis forgot it: EVAL, which caches it again. */
            const char *args[] = { rb->consumer, now, max, RB_GROUP,
                                   entries[i] };
            const char *k[] = { keys[i], rb->k_counters, rb->k_queue };

            freeReplyObject(replies[i]);
            replies[i] = rb__eval(c, &RB_START, 3, k, 5, args);
            if (replies[i] == NULL) {
                ok = false;
                break;
            }
        }
        on_started(rb, c, entries[i], ids[i], replies[i], sent);
    }
    for (size_t i = 0; i < n; i++) {
        freeReplyObject(replies[i]);
    }
    return ok;
}

/* Creates the consumer group (and the stream) if missing. */
static bool
ensure_group(rb_t *rb, redisContext *c)
{
    const char *argv[] = { "XGROUP", "CREATE", rb->k_queue,
                           RB_GROUP, "0",      "MKSTREAM" };
    redisReply *r = redis_cmd(c, 6, argv, NULL);
    bool ok = r != NULL && (r->type != REDIS_REPLY_ERROR ||
                            redis_reply_is_error(r, "BUSYGROUP"));

    freeReplyObject(r);
    return ok;
}

/* Remembers (or forgets, -1) the socket a thread blocks on, so stop can
 * shut it down. */
static void
set_fd(rb_t *rb, int *slot, int fd)
{
    pthread_mutex_lock(&rb->lock);
    *slot = fd;
    pthread_mutex_unlock(&rb->lock);
}

static void *
feeder_main(void *arg)
{
    rb_t *rb = arg;
    redisContext *c = NULL;
    int backoff = 100;

    while (!atomic_load(&rb->stopping)) {
        size_t free_threads;
        redisReply *r;
        char why[256];
        char count[8];
        /* As many entries as solver threads are free: a replica never
         * takes more than it can start, so the others get the rest. */
        const char *argv[] = { "XREADGROUP", "GROUP", RB_GROUP,
                               rb->consumer, "COUNT", count,
                               "BLOCK",      "1000",  "STREAMS",
                               rb->k_queue,  ">" };

        if (atomic_load(&rb->quiesced)) {
            rb__sleep_ms(50);
            continue;
        }
        /* Woken by the end of a job here, not by a timer. */
        free_threads = jobs__await_capacity(rb->jobs, 200);
        if (free_threads == 0) {
            continue;
        }
        snprintf(count, sizeof(count), "%zu",
                 free_threads < RB_BATCH ? free_threads : RB_BATCH);
        if (c == NULL) {
            c = redis_connect(&rb->target, RB_BLOCK_MS, why, sizeof(why));
            if (c == NULL) {
                rb__sleep_ms(backoff);
                backoff =
                    backoff * 2 > RB_BACKOFF_MAX ? RB_BACKOFF_MAX : backoff * 2;
                continue;
            }
            set_fd(rb, &rb->feeder_fd, c->fd);
            if (atomic_load(&rb->stopping)) {
                break;
            }
            backoff = 100;
        }
        r = redis_cmd(c, 11, argv, NULL);
        if (r == NULL) {
            set_fd(rb, &rb->feeder_fd, -1);
            redisFree(c);
            c = NULL;
            continue;
        }
        if (redis_reply_is_error(r, "NOGROUP")) {
            ensure_group(rb, c);
        } else if (r->type == REDIS_REPLY_ARRAY && r->elements > 0 &&
                   r->element[0]->type == REDIS_REPLY_ARRAY &&
                   r->element[0]->elements == 2) {
            if (!start_entries(rb, c, r->element[0]->element[1])) {
                set_fd(rb, &rb->feeder_fd, -1);
                redisFree(c);
                c = NULL;
            }
        }
        freeReplyObject(r);
    }
    set_fd(rb, &rb->feeder_fd, -1);
    redisFree(c);
    return NULL;
}

/* --- subscriber --- */

/* After (re)subscribing: ends published while no subscription was up
 * are read from the records of the jobs waited on. */
static void
catch_up(rb_t *rb)
{
    char ids[64][JOBS_ID_LEN + 1];
    size_t n = jobs__waited_ids(rb->jobs, ids, 64);
    redisContext *c;

    if (n == 0 || (c = redis_pool_get(&rb->pool)) == NULL) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        jobs_record_t rec;
        redisReply *r =
            rb__read_record(rb, c, ids[i]) ? redis_pipe_read(c, true) : NULL;

        if (r == NULL) {
            break;
        }
        if (rb__record_of(ids[i], r, &rec) && rec.state == JOB_ENDED) {
            jobs__record_ended(rb->jobs, ids[i], rec.status, rec.json);
        }
        jobs_record_cleanup(&rec);
        freeReplyObject(r);
    }
    redis_pool_put(&rb->pool, c, c->err == 0);
}

/* One pub/sub message: an end ("id status json") or a cancel ("id"). */
static void
on_message(rb_t *rb, const char *channel, const char *payload)
{
    if (strcmp(channel, rb->ch_ended) == 0) {
        char id[JOBS_ID_LEN + 1];
        const char *sp = strchr(payload, ' ');
        const char *json;

        if (sp == NULL || sp - payload != JOBS_ID_LEN) {
            return;
        }
        memcpy(id, payload, JOBS_ID_LEN);
        id[JOBS_ID_LEN] = '\0';
        json = strchr(sp + 1, ' ');
        if (json != NULL) {
            jobs__record_ended(rb->jobs, id, atoi(sp + 1), json + 1);
        }
    } else if (strcmp(channel, rb->ch_cancel) == 0 &&
               strlen(payload) == JOBS_ID_LEN) {
        jobs__cancel_local(rb->jobs, payload);
    }
}

static void *
subscriber_main(void *arg)
{
    rb_t *rb = arg;
    int backoff = 100;

    while (!atomic_load(&rb->stopping)) {
        char why[256];
        const char *argv[] = { "SUBSCRIBE", rb->ch_ended, rb->ch_cancel };
        redisContext *c = redis_connect(&rb->target, -1, why, sizeof(why));
        void *reply = NULL;

        if (c == NULL) {
            rb__sleep_ms(backoff);
            backoff =
                backoff * 2 > RB_BACKOFF_MAX ? RB_BACKOFF_MAX : backoff * 2;
            continue;
        }
        set_fd(rb, &rb->subscriber_fd, c->fd);
        if (atomic_load(&rb->stopping) ||
            redisAppendCommandArgv(c, 3, argv, NULL) != REDIS_OK) {
            set_fd(rb, &rb->subscriber_fd, -1);
            redisFree(c);
            break;
        }
        backoff = 100;
        while (redisGetReply(c, &reply) == REDIS_OK) {
            redisReply *r = reply;

            if (r->type == REDIS_REPLY_ARRAY && r->elements == 3 &&
                r->element[0]->type == REDIS_REPLY_STRING) {
                if (strcmp(r->element[0]->str, "message") == 0 &&
                    r->element[1]->type == REDIS_REPLY_STRING &&
                    r->element[2]->type == REDIS_REPLY_STRING) {
                    on_message(rb, r->element[1]->str, r->element[2]->str);
                } else if (strcmp(r->element[0]->str, "subscribe") == 0 &&
                           r->element[2]->type == REDIS_REPLY_INTEGER &&
                           r->element[2]->integer == 2) {
                    catch_up(rb);
                }
            }
            freeReplyObject(r);
        }
        set_fd(rb, &rb->subscriber_fd, -1);
        redisFree(c);
    }
    return NULL;
}

/* --- keeper --- */

/* Live statistics and lease renewal of the jobs adopted here, the
 * deployment's figures and the epoch, in one pipeline. Returns false
 * when the connection failed; *epoch_lost is set when Redis no longer
 * has the epoch this replica knew (it lost its data). */
static bool
tick(rb_t *rb, redisContext *c, bool *epoch_lost)
{
    job_t *jobs[RB_RENEW_MAX];
    size_t n = jobs__adopted(rb->jobs, jobs, RB_RENEW_MAX);
    char ids[RB_RENEW_MAX][JOBS_ID_LEN + 1]; /* of reply 2 + i */
    const char *claim[RB_RENEW_MAX + 7];
    int nclaim = 0;
    size_t sent = 0;
    bool ok = true;
    const char *get_epoch[] = { "GET", rb->k_epoch };
    const char *counters[] = { "HMGET", rb->k_counters, "queued", "running",
                               "memory" };
    redisReply *r;
    int64_t sent_at;
    size_t nprogress;

    /* Before the pipeline: its replies are read in order. */
    if (!atomic_load_explicit(&RB_PROGRESS.loaded, memory_order_acquire)) {
        rb__load_script(c, &RB_PROGRESS);
    }
    *epoch_lost = false;
    sent_at = rb__mono_us();
    ok = redis_pipe_add(c, 2, get_epoch, NULL) &&
         redis_pipe_add(c, 5, counters, NULL);
    sent = 2;
    claim[nclaim++] = "XCLAIM";
    claim[nclaim++] = rb->k_queue;
    claim[nclaim++] = RB_GROUP;
    claim[nclaim++] = rb->consumer;
    claim[nclaim++] = "0";
    for (size_t i = 0; ok && i < n; i++) {
        int status;
        char *json = jobs__render(jobs[i], &status);
        char key[RB_KEY_MAX];
        char st[8];
        const char *argv[6] = {
            "EVALSHA", RB_PROGRESS.sha, "1", key, json, st
        };

        if (jobs__entry(jobs[i])[0] != '\0') {
            claim[nclaim++] = jobs__entry(jobs[i]);
        }
        if (json == NULL) {
            continue;
        }
        rb__job_key(rb, jobs_id(jobs[i]), key, sizeof(key));
        snprintf(st, sizeof(st), "%d", status);
        ok = redis_pipe_add(c, 6, argv, NULL);
        snprintf(ids[sent - 2], sizeof(ids[0]), "%s", jobs_id(jobs[i]));
        sent++;
        free(json);
    }
    nprogress = sent - 2;
    if (ok && nclaim > 5) {
        claim[nclaim++] = "JUSTID";
        ok = redis_pipe_add(c, nclaim, claim, NULL);
        sent++;
    }
    for (size_t i = 0; i < n; i++) {
        jobs_release(rb->jobs, jobs[i]);
    }
    for (size_t i = 0; ok && i < sent; i++) {
        r = redis_pipe_read(c, i == 0);
        if (r == NULL) {
            return false;
        }
        if (redis_reply_is_error(r, "NOSCRIPT")) {
            /* Redis restarted and forgot it: the next tick loads it. */
            atomic_store(&RB_PROGRESS.loaded, false);
        }
        if (i == 0) {
            const char *e = r->type == REDIS_REPLY_STRING ? r->str : NULL;

            if (e == NULL || strcmp(e, rb->epoch) != 0) {
                /* Missing: Redis restarted without our data; another
                 * value: another replica noticed first and set it. */
                *epoch_lost = rb->epoch[0] != '\0';
                snprintf(rb->epoch, sizeof(rb->epoch), "%s",
                         e != NULL ? e : "");
            }
        } else if (i == 1) {
            rb__set_figures(rb, r, 0, sent_at);
        } else if (i < nprogress + 2 && r->type == REDIS_REPLY_INTEGER &&
                   r->integer == 2) {
            jobs__cancel_local(rb->jobs, ids[i - 2]);
        }
        freeReplyObject(r);
    }
    return ok;
}

/* Sets the epoch when Redis has none (a new or emptied Redis); the next
 * tick reads whichever replica's value won. */
static bool
claim_epoch(rb_t *rb, redisContext *c)
{
    char token[33];
    const char *argv[] = { "SET", rb->k_epoch, token, "NX" };
    redisReply *r;

    if (rng_hex(token, 16) != PZ_OK) {
        return false;
    }
    r = redis_cmd(c, 4, argv, NULL);
    freeReplyObject(r);
    return r != NULL;
}

/* Redis lost its data: every job this replica submitted that was still
 * queued ends backend_lost (jobs running here write their ends as
 * usual). */
static void
on_data_lost(rb_t *rb, redisContext *c)
{
    tracked_t *lost;
    size_t n;
    log_line_t ev;

    pthread_mutex_lock(&rb->lock);
    lost = rb->tracked;
    n = rb->ntracked;
    rb->tracked = NULL;
    rb->ntracked = rb->cap_tracked = 0;
    pthread_mutex_unlock(&rb->lock);
    log_line_begin(&ev, LOG_WARN, "job store lost its data");
    log_line_str(&ev, "redis", rb->redacted);
    log_line_num(&ev, "jobs_lost", (double)n);
    log_line_end(&ev);
    for (size_t i = 0; i < n; i++) {
        int status;
        /* One that runs here writes its own end. */
        char *json =
            jobs__adopted_here(rb->jobs, lost[i].id)
                ? NULL
                : jobs__render_unrun(rb->jobs, lost[i].id, lost[i].created_ms,
                                     lost[i].request, PZ_STATUS_FAILED,
                                     PZ_EBACKEND_LOST, &status);
        redisReply *r = NULL;

        if (json != NULL) {
            rb__end_on(rb, c, lost[i].id, lost[i].created_ms, "", status, json,
                       &r);
            freeReplyObject(r);
        }
        free(json);
        free(lost[i].request);
    }
    free(lost);
    ensure_group(rb, c);
}

/* Forgets tracked jobs that left the queued state (or were never
 * found), one pipeline. */
static bool
check_tracked(rb_t *rb, redisContext *c)
{
    char(*ids)[JOBS_ID_LEN + 1];
    size_t n;
    bool ok = true;

    pthread_mutex_lock(&rb->lock);
    n = rb->ntracked;
    ids = n > 0 ? malloc(n * sizeof(*ids)) : NULL;
    for (size_t i = 0; ids != NULL && i < n; i++) {
        memcpy(ids[i], rb->tracked[i].id, JOBS_ID_LEN + 1);
    }
    pthread_mutex_unlock(&rb->lock);
    if (ids == NULL) {
        return true;
    }
    for (size_t i = 0; ok && i < n; i++) {
        char key[RB_KEY_MAX];
        const char *argv[] = { "HGET", key, "state" };

        rb__job_key(rb, ids[i], key, sizeof(key));
        ok = redis_pipe_add(c, 3, argv, NULL);
    }
    for (size_t i = 0; ok && i < n; i++) {
        redisReply *r = redis_pipe_read(c, i == 0);

        if (r == NULL) {
            ok = false;
            break;
        }
        if (r->type != REDIS_REPLY_STRING || strcmp(r->str, "queued") != 0) {
            rb__untrack(rb, ids[i]);
        }
        freeReplyObject(r);
    }
    free(ids);
    return ok;
}

/* Takes over entries whose replica has not renewed them for a lease. */
static bool
reclaim(rb_t *rb, redisContext *c)
{
    char lease[16];
    const char *argv[] = { "XAUTOCLAIM", rb->k_queue, RB_GROUP, rb->consumer,
                           lease,        "0-0",       "COUNT",  RB_BATCH_TEXT };
    redisReply *r;
    bool ok;

    snprintf(lease, sizeof(lease), "%d", rb->lease_ms);
    r = redis_cmd(c, 8, argv, NULL);
    if (r == NULL) {
        return false;
    }
    ok = true;
    if (redis_reply_is_error(r, "NOGROUP")) {
        ok = ensure_group(rb, c);
    } else if (r->type == REDIS_REPLY_ARRAY && r->elements >= 2 &&
               r->element[1]->type == REDIS_REPLY_ARRAY &&
               r->element[1]->elements > 0) {
        log_line_t ev;

        log_line_begin(&ev, LOG_WARN, "taking over jobs of a lost replica");
        log_line_num(&ev, "entries", (double)r->element[1]->elements);
        log_line_end(&ev);
        ok = start_entries(rb, c, r->element[1]);
    }
    freeReplyObject(r);
    return ok;
}

/* Drops listing entries whose records expired (oldest first). */
static bool
trim_listing(rb_t *rb, redisContext *c)
{
    const char *argv[] = { "ZRANGE", rb->k_jobs, "0", "255" };
    redisReply *ids = redis_cmd(c, 4, argv, NULL);
    bool ok = ids != NULL;

    for (size_t i = 0;
         ok && ids->type == REDIS_REPLY_ARRAY && i < ids->elements; i++) {
        char key[RB_KEY_MAX];
        const char *ex[] = { "EXISTS", key };
        redisReply *r;

        rb__job_key(rb, ids->element[i]->str, key, sizeof(key));
        r = redis_cmd(c, 2, ex, NULL);
        ok = r != NULL;
        if (ok && r->type == REDIS_REPLY_INTEGER && r->integer == 0) {
            const char *rem[] = { "ZREM", rb->k_jobs, ids->element[i]->str };
            redisReply *z = redis_cmd(c, 3, rem, NULL);

            ok = z != NULL;
            freeReplyObject(z);
        } else if (ok) {
            freeReplyObject(r);
            break; /* the oldest live one: newer ones live too */
        }
        freeReplyObject(r);
    }
    freeReplyObject(ids);
    return ok;
}

/* The keeper's first connection attempt is over (rb_start waits for it).
 * Under rb->lock. */
static void
first_attempt_done(rb_t *rb)
{
    if (!rb->attempted) {
        rb->attempted = true;
        pthread_cond_broadcast(&rb->ticked);
    }
}

static void *
keeper_main(void *arg)
{
    rb_t *rb = arg;
    redisContext *c = NULL;
    int backoff = 0; /* the first attempt at once */
    int64_t next_reclaim = 0;
    int64_t next_check = 0;
    int64_t next_trim = 0;
    int64_t last_tick = 0;

    pthread_mutex_lock(&rb->lock);
    while (!atomic_load(&rb->stopping)) {
        struct timespec until;
        char why[256];
        bool lost = false;
        bool ok;
        int64_t now;
        /* The tick's own work counts in its period: writes of live
         * statistics stay under 250 ms apart. */
        int wait_ms = c == NULL ? backoff
                      : jobs_now_ms() - last_tick >= RB_TICK_MS
                          ? 0
                          : (int)(RB_TICK_MS - (jobs_now_ms() - last_tick));

        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
        until.tv_sec += wait_ms / 1000 + until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&rb->wake, &rb->lock, &until);
        if (atomic_load(&rb->stopping)) {
            break;
        }
        pthread_mutex_unlock(&rb->lock);
        last_tick = jobs_now_ms();
        if (c == NULL) {
            /* Resolved again at each attempt (a restarted Redis container
             * may have a new address); only this thread waits for names. */
            c = redis_resolve(&rb->target, why, sizeof(why))
                    ? redis_connect(&rb->target, 0, why, sizeof(why))
                    : NULL;
            if (c == NULL) {
                rb__set_down(rb, why);
                backoff = backoff == 0                   ? 100
                          : backoff * 2 > RB_BACKOFF_MAX ? RB_BACKOFF_MAX
                                                         : backoff * 2;
                pthread_mutex_lock(&rb->lock);
                first_attempt_done(rb);
                continue;
            }
            backoff = 100;
            ok = ensure_group(rb, c);
        } else {
            ok = true;
        }
        ok = ok && tick(rb, c, &lost);
        if (ok && rb->epoch[0] == '\0') {
            ok = claim_epoch(rb, c);
        }
        if (ok && lost) {
            on_data_lost(rb, c);
        }
        now = jobs_now_ms();
        if (ok && now >= next_reclaim && !atomic_load(&rb->quiesced)) {
            ok = reclaim(rb, c);
            next_reclaim =
                now +
                (rb->lease_ms / 4 > RB_TICK_MS ? rb->lease_ms / 4 : RB_TICK_MS);
        }
        if (ok && now >= next_check) {
            ok = check_tracked(rb, c);
            next_check = now + 1000;
        }
        if (ok && now >= next_trim) {
            ok = trim_listing(rb, c);
            next_trim = now + 10000;
        }
        if (ok) {
            rb__set_up(rb);
            jobs__flush_ended(rb->jobs);
        } else {
            rb__set_down(rb, c->errstr[0] ? c->errstr : "command failed");
            redisFree(c);
            c = NULL;
        }
        pthread_mutex_lock(&rb->lock);
        first_attempt_done(rb);
    }
    pthread_mutex_unlock(&rb->lock);
    redisFree(c);
    return NULL;
}

/* --- life cycle --- */

int
rb__start(jobs_backend_t *b, jobs_t *t)
{
    rb_t *rb = (rb_t *)b;
    struct timespec until;
    log_line_t ev;

    rb->jobs = t;
    if (pthread_create(&rb->keeper, NULL, keeper_main, rb) != 0) {
        return PZ_ENOMEM;
    }
    /* Up to the connect timeout for the keeper's first attempt, so a
     * replica whose Redis is up is ready at once; one whose Redis is
     * down, or whose name resolves slowly, starts anyway and says so. */
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += rb->target.timeout_ms / 1000;
    until.tv_nsec += (long)(rb->target.timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&rb->lock);
    while (!rb->attempted &&
           pthread_cond_timedwait(&rb->ticked, &rb->lock, &until) == 0) {
    }
    pthread_mutex_unlock(&rb->lock);
    log_line_begin(&ev, atomic_load(&rb->ready) ? LOG_INFO : LOG_WARN,
                   "job store");
    log_line_str(&ev, "backend", "redis");
    log_line_str(&ev, "redis", rb->redacted);
    log_line_str(&ev, "prefix", rb->prefix);
    log_line_str(&ev, "replica", rb->consumer);
    log_line_str(&ev, "state",
                 atomic_load(&rb->ready) ? "reachable" : "unreachable");
    log_line_end(&ev);
    if (pthread_create(&rb->subscriber, NULL, subscriber_main, rb) != 0) {
        atomic_store(&rb->stopping, true);
        pthread_cond_broadcast(&rb->wake);
        pthread_join(rb->keeper, NULL);
        return PZ_ENOMEM;
    }
    if (pthread_create(&rb->feeder, NULL, feeder_main, rb) != 0) {
        atomic_store(&rb->stopping, true);
        pthread_cond_broadcast(&rb->wake);
        pthread_mutex_lock(&rb->lock);
        if (rb->subscriber_fd >= 0) {
            shutdown(rb->subscriber_fd, SHUT_RDWR);
        }
        pthread_mutex_unlock(&rb->lock);
        pthread_join(rb->keeper, NULL);
        pthread_join(rb->subscriber, NULL);
        return PZ_ENOMEM;
    }
    rb->started = true;
    return PZ_OK;
}

void
rb__quiesce(jobs_backend_t *b)
{
    rb_t *rb = (rb_t *)b;

    atomic_store(&rb->quiesced, true);
}

void
rb__destroy(jobs_backend_t *b)
{
    rb_t *rb = (rb_t *)b;

    if (rb->started) {
        atomic_store(&rb->stopping, true);
        pthread_mutex_lock(&rb->lock);
        pthread_cond_broadcast(&rb->wake);
        /* Wakes the threads blocked in reads: their sockets' reads end. */
        if (rb->feeder_fd >= 0) {
            shutdown(rb->feeder_fd, SHUT_RDWR);
        }
        if (rb->subscriber_fd >= 0) {
            shutdown(rb->subscriber_fd, SHUT_RDWR);
        }
        pthread_mutex_unlock(&rb->lock);
        pthread_join(rb->feeder, NULL);
        pthread_join(rb->subscriber, NULL);
        pthread_join(rb->keeper, NULL);
    }
    for (size_t i = 0; i < rb->ntracked; i++) {
        free(rb->tracked[i].request);
    }
    free(rb->tracked);
    redis_pool_cleanup(&rb->pool);
    pthread_cond_destroy(&rb->ticked);
    pthread_cond_destroy(&rb->wake);
    pthread_mutex_destroy(&rb->target.lock);
    pthread_mutex_destroy(&rb->lock);
    free(rb);
}
