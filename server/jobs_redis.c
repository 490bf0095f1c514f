/* SPDX-License-Identifier: MIT */
/*
 * jobs_redis.c - the Redis job backend (jobs_redis.h; the design, keys
 * and guarantees are in docs/scale-out.md).
 *
 * Every change of a record that more than one replica may make at once
 * is one Lua script, so it is atomic in Redis: admission and enqueue
 * (SUBMIT), taking a queued or reclaimed entry (START), the end written
 * once per id (END), cancel (CANCEL) and live statistics that never
 * overwrite an end (PROGRESS). This file holds the scripts, the helpers
 * around a command and the ops a request thread calls (with connections
 * from a pool); the replica's threads are in jobs_redis_threads.c.
 * Size: five scripts and the ops that run them, each op's arguments beside
 * the reading of its script's reply.
 */
#include "jobs_redis.h"

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
#include "redis.h"
#include "rng.h"
#include "search.h"

static const char SUBMIT_LUA[] =
    "local c = redis.call('HMGET', KEYS[2], 'queued', 'running', 'memory')\n"
    "local q = tonumber(c[1] or '0')\n"
    "local m = tonumber(c[3] or '0')\n"
    "if q >= tonumber(ARGV[6]) then\n"
    "  return {'queue_full', q, c[2] or '0', c[3] or '0'} end\n"
    "if m + tonumber(ARGV[5]) > tonumber(ARGV[7]) then\n"
    "  return {'memory_cap', q, c[2] or '0', c[3] or '0'} end\n"
    "redis.call('HSET', KEYS[1], 'id', ARGV[1], 'state', 'queued',\n"
    "  'status', ARGV[8], 'json', ARGV[3], 'request', ARGV[2],\n"
    "  'created', ARGV[4], 'budget', ARGV[5], 'attempts', '0')\n"
    "redis.call('HINCRBY', KEYS[2], 'queued', 1)\n"
    "redis.call('HINCRBY', KEYS[2], 'memory', ARGV[5])\n"
    "redis.call('ZADD', KEYS[4], ARGV[4], ARGV[1])\n"
    "redis.call('XADD', KEYS[3], '*', 'id', ARGV[1])\n"
    "return {'ok', q + 1, c[2] or '0', tostring(m + tonumber(ARGV[5]))}\n";

static const char START_LUA[] =
    "local f = redis.call('HMGET', KEYS[1], 'state', 'cancel', 'attempts',\n"
    "  'request', 'created')\n"
    "local st = f[1]\n"
    "if (not st) or st == 'ended' then\n"
    "  redis.call('XACK', KEYS[3], ARGV[4], ARGV[5])\n"
    "  redis.call('XDEL', KEYS[3], ARGV[5])\n"
    "  return {'skip'} end\n"
    "if f[2] == '1' then return {'cancelled', f[4], f[5]} end\n"
    "local n = tonumber(f[3] or '0')\n"
    "if n >= tonumber(ARGV[3]) then return {'lost', f[4], f[5]} end\n"
    "if st == 'queued' then\n"
    "  redis.call('HINCRBY', KEYS[2], 'queued', -1)\n"
    "  redis.call('HINCRBY', KEYS[2], 'running', 1) end\n"
    "redis.call('HSET', KEYS[1], 'state', 'running', 'attempts', n + 1,\n"
    "  'replica', ARGV[1], 'started', ARGV[2])\n"
    "local c = redis.call('HMGET', KEYS[2], 'queued', 'running', 'memory')\n"
    "return {'run', f[4], f[5], c[1] or '0', c[2] or '0', c[3] or '0'}\n";

/* Shared by END and CANCEL: ends record KEYS[1] that was in state st
 * with budget b. */
#define END_RECORD_LUA                                                        \
    "local function finish(st, b, status, json, now, ttl, ch, id, created)\n" \
    "  if st == 'queued' or st == 'running' then\n"                           \
    "    redis.call('HINCRBY', KEYS[2], st, -1)\n"                            \
    "    redis.call('HINCRBY', KEYS[2], 'memory', -tonumber(b or '0'))\n"     \
    "    local c = redis.call('HMGET', KEYS[2], 'queued', 'running',\n"       \
    "      'memory')\n"                                                       \
    "    if tonumber(c[1] or '0') < 0 then\n"                                 \
    "      redis.call('HSET', KEYS[2], 'queued', 0) end\n"                    \
    "    if tonumber(c[2] or '0') < 0 then\n"                                 \
    "      redis.call('HSET', KEYS[2], 'running', 0) end\n"                   \
    "    if tonumber(c[3] or '0') < 0 then\n"                                 \
    "      redis.call('HSET', KEYS[2], 'memory', 0) end\n"                    \
    "  end\n"                                                                 \
    "  if not st then redis.call('ZADD', KEYS[4], created, id) end\n"         \
    "  redis.call('HSET', KEYS[1], 'id', id, 'state', 'ended',\n"             \
    "    'status', status, 'json', json, 'ended', now, 'created', created)\n" \
    "  redis.call('HDEL', KEYS[1], 'request')\n"                              \
    "  redis.call('PEXPIRE', KEYS[1], ttl)\n"                                 \
    "  redis.call('PUBLISH', ch, id .. ' ' .. status .. ' ' .. json)\n"       \
    "end\n"

static const char END_LUA[] = END_RECORD_LUA
    "local f = redis.call('HMGET', KEYS[1], 'state', 'budget')\n"
    "if ARGV[6] ~= '' then\n"
    "  redis.call('XACK', KEYS[3], ARGV[5], ARGV[6])\n"
    "  redis.call('XDEL', KEYS[3], ARGV[6]) end\n"
    "if f[1] == 'ended' then return 0 end\n"
    "finish(f[1], f[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[7],\n"
    "  ARGV[8], ARGV[9])\n"
    "return 1\n";

static const char CANCEL_LUA[] = END_RECORD_LUA
    "local f = redis.call('HMGET', KEYS[1], 'state', 'json', 'budget',\n"
    "  'status', 'created')\n"
    "local st = f[1]\n"
    "if not st then return {'missing'} end\n"
    "if st == 'ended' then return {'ended', f[4], f[2]} end\n"
    "local waiting = st == 'queued' or f[4] == ARGV[8] or f[4] == ARGV[9]\n"
    "if waiting and ARGV[1] ~= '' then\n"
    "  redis.call('HSET', KEYS[1], 'cancel', '1')\n"
    "  finish(st, f[3], ARGV[7], ARGV[1], ARGV[2], ARGV[3], ARGV[4],\n"
    "    ARGV[6], f[5])\n"
    "  if st == 'running' then redis.call('PUBLISH', ARGV[5], ARGV[6]) end\n"
    "  return {'cancelled_now'} end\n"
    "redis.call('HSET', KEYS[1], 'cancel', '1')\n"
    "redis.call('PUBLISH', ARGV[5], ARGV[6])\n"
    "return {'running'}\n";

/* 1: written; 2: written, and the job is to be cancelled (the flag is
 * read as well as published: a message sent while this replica was
 * resubscribing is lost); 0: not running. */
static const char PROGRESS_LUA[] =
    "local f = redis.call('HMGET', KEYS[1], 'state', 'cancel')\n"
    "if f[1] == 'running' then\n"
    "  redis.call('HSET', KEYS[1], 'json', ARGV[1], 'status', ARGV[2])\n"
    "  if f[2] == '1' then return 2 end\n"
    "  return 1 end\n"
    "return 0\n";

static script_t SUBMIT = { SUBMIT_LUA, "", false };
script_t RB_START = { START_LUA, "", false };
static script_t END = { END_LUA, "", false };
static script_t CANCEL = { CANCEL_LUA, "", false };
script_t RB_PROGRESS = { PROGRESS_LUA, "", false };
static pthread_mutex_t script_lock = PTHREAD_MUTEX_INITIALIZER;

void
rb__job_key(const rb_t *rb, const char *id, char *out, size_t size)
{
    snprintf(out, size, "%.63s:job:%.32s", rb->prefix, id);
}

void
rb__sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

    nanosleep(&ts, NULL);
}

/* Marks the store unreachable (logged once per outage). */
void
rb__set_down(rb_t *rb, const char *why)
{
    if (atomic_exchange(&rb->ready, false)) {
        log_line_t ev;

        log_line_begin(&ev, LOG_WARN, "job store unreachable");
        log_line_str(&ev, "redis", rb->redacted);
        log_line_str(&ev, "detail", why);
        log_line_end(&ev);
    }
}

void
rb__set_up(rb_t *rb)
{
    if (!atomic_exchange(&rb->ready, true)) {
        log_line_t ev;

        log_line_begin(&ev, LOG_INFO, "job store reachable");
        log_line_str(&ev, "redis", rb->redacted);
        log_line_end(&ev);
    }
}

/* Logs an error reply of a script (a bug, or a Redis that is not 7). */
void
rb__log_refused(const char *what, const char *err)
{
    log_line_t ev;

    log_line_begin(&ev, LOG_ERROR, "job store refused a command");
    log_line_str(&ev, "command", what);
    log_line_str(&ev, "detail", err);
    log_line_end(&ev);
}

/* A pool connection for a request thread, or NULL (store down). */
redisContext *
rb__take(rb_t *rb)
{
    redisContext *c;

    if (!atomic_load(&rb->ready)) {
        return NULL;
    }
    c = redis_pool_get(&rb->pool);
    if (c == NULL) {
        rb__set_down(rb, "cannot connect");
    }
    return c;
}

/* Gives c back after reply r (NULL: the connection failed). */
void
rb__give(rb_t *rb, redisContext *c, const redisReply *r)
{
    if (r == NULL) {
        rb__set_down(rb, c->errstr[0] ? c->errstr : "connection lost");
    }
    redis_pool_put(&rb->pool, c, r != NULL);
}

/* Asks Redis for the SHA1 of s (once per process). */
void
rb__load_script(redisContext *c, script_t *s)
{
    const char *argv[] = { "SCRIPT", "LOAD", s->body };
    redisReply *r = redis_cmd(c, 3, argv, NULL);

    if (r != NULL && r->type == REDIS_REPLY_STRING && r->len < 48) {
        pthread_mutex_lock(&script_lock);
        memcpy(s->sha, r->str, r->len + 1);
        atomic_store_explicit(&s->loaded, true, memory_order_release);
        pthread_mutex_unlock(&script_lock);
    }
    freeReplyObject(r);
}

/* Runs script s with nkeys keys then the args (lengths strlen): EVALSHA,
 * or EVAL when Redis does not have it (a restart emptied its cache). */
redisReply *
rb__eval(redisContext *c,
         script_t *s,
         int nkeys,
         const char **keys,
         int nargs,
         const char **args)
{
    const char *argv[24];
    char nk[8];
    int argc = 0;
    redisReply *r;

    if (!atomic_load_explicit(&s->loaded, memory_order_acquire)) {
        rb__load_script(c, s);
    }
    snprintf(nk, sizeof(nk), "%d", nkeys);
    argv[argc++] = "EVALSHA";
    argv[argc++] =
        atomic_load_explicit(&s->loaded, memory_order_acquire) ? s->sha : "0";
    argv[argc++] = nk;
    for (int i = 0; i < nkeys; i++) {
        argv[argc++] = keys[i];
    }
    for (int i = 0; i < nargs; i++) {
        argv[argc++] = args[i];
    }
    r = redis_cmd(c, argc, argv, NULL);
    if (redis_reply_is_error(r, "NOSCRIPT")) {
        freeReplyObject(r);
        argv[0] = "EVAL";
        argv[1] = s->body;
        r = redis_cmd(c, argc, argv, NULL);
    }
    return r;
}

/* Element i of array r as a string, or NULL. */
const char *
rb__elem_str(const redisReply *r, size_t i)
{
    if (r == NULL || r->type != REDIS_REPLY_ARRAY || i >= r->elements ||
        r->element[i]->type != REDIS_REPLY_STRING) {
        return NULL;
    }
    return r->element[i]->str;
}

static char *
dup_or_null(const char *s)
{
    return s != NULL ? strdup(s) : NULL;
}

/* A figure of a reply: integer, or a string of digits. */
static size_t
figure(const redisReply *r, size_t i)
{
    const redisReply *e;

    if (r == NULL || r->type != REDIS_REPLY_ARRAY || i >= r->elements) {
        return 0;
    }
    e = r->element[i];
    if (e->type == REDIS_REPLY_INTEGER) {
        return e->integer > 0 ? (size_t)e->integer : 0;
    }
    return e->type == REDIS_REPLY_STRING ? (size_t)strtoull(e->str, NULL, 10)
                                         : 0;
}

/* Monotonic clock in microseconds. */
int64_t
rb__mono_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Keeps the deployment's queued, running and memory figures, elements
 * from..from+2 of r, read by a command sent at sent (mono_us): figures
 * of a command sent before the last ones kept are older, and dropped. */
void
rb__set_figures(rb_t *rb, const redisReply *r, size_t from, int64_t sent)
{
    int64_t seen = atomic_load(&rb->figures_at);

    do {
        if (sent < seen) {
            return;
        }
    } while (!atomic_compare_exchange_weak(&rb->figures_at, &seen, sent));
    atomic_store(&rb->queued, figure(r, from));
    atomic_store(&rb->running, figure(r, from + 1));
    atomic_store(&rb->memory, figure(r, from + 2));
}

/* --- tracking submitted jobs --- */

static void
track(rb_t *rb, const char *id, int64_t created_ms, const char *request)
{
    char *copy = strdup(request);

    if (copy == NULL) {
        return;
    }
    pthread_mutex_lock(&rb->lock);
    if (rb->ntracked == rb->cap_tracked) {
        size_t cap = rb->cap_tracked ? rb->cap_tracked * 2 : 64;
        tracked_t *grown = realloc(rb->tracked, cap * sizeof(*grown));

        if (grown == NULL) {
            pthread_mutex_unlock(&rb->lock);
            free(copy);
            return;
        }
        rb->tracked = grown;
        rb->cap_tracked = cap;
    }
    snprintf(rb->tracked[rb->ntracked].id, JOBS_ID_LEN + 1, "%s", id);
    rb->tracked[rb->ntracked].created_ms = created_ms;
    rb->tracked[rb->ntracked].request = copy;
    rb->ntracked++;
    pthread_mutex_unlock(&rb->lock);
}

/* Drops the entry of id, if tracked. */
void
rb__untrack(rb_t *rb, const char *id)
{
    pthread_mutex_lock(&rb->lock);
    for (size_t i = 0; i < rb->ntracked; i++) {
        if (strcmp(rb->tracked[i].id, id) == 0) {
            free(rb->tracked[i].request);
            rb->tracked[i] = rb->tracked[--rb->ntracked];
            break;
        }
    }
    pthread_mutex_unlock(&rb->lock);
}

/* --- ops --- */

static int
rb_submit(jobs_backend_t *b, const job_t *job, const char *json)
{
    rb_t *rb = (rb_t *)b;
    char key[RB_KEY_MAX];
    char created[24], budget[24], qcap[24], mcap[24], status[8];
    const char *keys[4];
    const char *args[8];
    redisContext *c = rb__take(rb);
    redisReply *r;
    const char *what;
    int64_t sent;
    int rc;

    if (c == NULL) {
        return PZ_EBACKEND;
    }
    rb__job_key(rb, jobs_id(job), key, sizeof(key));
    snprintf(created, sizeof(created), "%lld",
             (long long)jobs__created_ms(job));
    snprintf(budget, sizeof(budget), "%zu", jobs__budget(job));
    snprintf(qcap, sizeof(qcap), "%d", rb->queue);
    snprintf(mcap, sizeof(mcap), "%zu", rb->memory_cap);
    snprintf(status, sizeof(status), "%d", jobs_status(job));
    keys[0] = key;
    keys[1] = rb->k_counters;
    keys[2] = rb->k_queue;
    keys[3] = rb->k_jobs;
    args[0] = jobs_id(job);
    args[1] = jobs__request_text(job);
    args[2] = json;
    args[3] = created;
    args[4] = budget;
    args[5] = qcap;
    args[6] = mcap;
    args[7] = status;
    sent = rb__mono_us();
    r = rb__eval(c, &SUBMIT, 4, keys, 8, args);
    what = rb__elem_str(r, 0);
    rc = what == NULL                      ? PZ_EBACKEND
         : strcmp(what, "ok") == 0         ? PZ_OK
         : strcmp(what, "queue_full") == 0 ? PZ_EQUEUE_FULL
         : strcmp(what, "memory_cap") == 0 ? PZ_EMEMORY_CAP
                                           : PZ_EBACKEND;
    if (what != NULL) {
        /* The deployment's figures as of this submit. */
        rb__set_figures(rb, r, 1, sent);
    }
    if (r != NULL && r->type == REDIS_REPLY_ERROR) {
        rb__log_refused("submit", r->str);
    }
    rb__give(rb, c, r);
    freeReplyObject(r);
    if (rc == PZ_OK) {
        track(rb, jobs_id(job), jobs__created_ms(job), jobs__request_text(job));
    }
    return rc;
}

/* END on connection c. Returns true when the end is stored (now or
 * before). */
bool
rb__end_on(rb_t *rb,
           redisContext *c,
           const char *id,
           int64_t created_ms,
           const char *entry,
           int status,
           const char *json,
           redisReply **rp)
{
    char key[RB_KEY_MAX];
    char st[8], now[24], ttl[24], created[24];
    const char *keys[4];
    const char *args[9];
    redisReply *r;
    bool ok;

    rb__job_key(rb, id, key, sizeof(key));
    snprintf(st, sizeof(st), "%d", status);
    snprintf(now, sizeof(now), "%lld", (long long)api_wall_ms());
    snprintf(ttl, sizeof(ttl), "%lld",
             (long long)(rb->retention_ms > 0 ? rb->retention_ms : 1));
    snprintf(created, sizeof(created), "%lld", (long long)created_ms);
    keys[0] = key;
    keys[1] = rb->k_counters;
    keys[2] = rb->k_queue;
    keys[3] = rb->k_jobs;
    args[0] = st;
    args[1] = json;
    args[2] = now;
    args[3] = ttl;
    args[4] = RB_GROUP;
    args[5] = entry != NULL ? entry : "";
    args[6] = rb->ch_ended;
    args[7] = id;
    args[8] = created;
    r = rb__eval(c, &END, 4, keys, 9, args);
    ok = r != NULL && r->type == REDIS_REPLY_INTEGER;
    if (r != NULL && r->type == REDIS_REPLY_ERROR) {
        rb__log_refused("end", r->str);
    }
    *rp = r;
    return ok;
}

static bool
rb_ended(jobs_backend_t *b,
         const char *id,
         int64_t created_ms,
         const char *entry,
         int status,
         const char *json)
{
    rb_t *rb = (rb_t *)b;
    redisContext *c = rb__take(rb);
    redisReply *r = NULL;
    bool ok;

    if (c == NULL) {
        return false;
    }
    ok = rb__end_on(rb, c, id, created_ms, entry, status, json, &r);
    rb__give(rb, c, r);
    freeReplyObject(r);
    if (ok) {
        rb__untrack(rb, id);
    }
    return ok;
}

/* Fills rec from an HMGET state status json request created reply. */
bool
rb__record_of(const char *id, const redisReply *r, jobs_record_t *rec)
{
    const char *state = rb__elem_str(r, 0);
    const char *status = rb__elem_str(r, 1);
    const char *json = rb__elem_str(r, 2);
    const char *created = rb__elem_str(r, 4);

    memset(rec, 0, sizeof(*rec));
    if (state == NULL || json == NULL) {
        return false;
    }
    snprintf(rec->id, sizeof(rec->id), "%s", id);
    rec->state = strcmp(state, "ended") == 0     ? JOB_ENDED
                 : strcmp(state, "running") == 0 ? JOB_RUNNING
                                                 : JOB_QUEUED;
    rec->status = status != NULL ? atoi(status) : PZ_STATUS_QUEUED;
    rec->created_ms = created != NULL ? strtoll(created, NULL, 10) : 0;
    rec->json = strdup(json);
    rec->request = dup_or_null(rb__elem_str(r, 3));
    if (rec->json == NULL) {
        jobs_record_cleanup(rec);
        return false;
    }
    return true;
}

/* Appends the read of id's record to c's pipeline (record_of reads its
 * reply). */
bool
rb__read_record(const rb_t *rb, redisContext *c, const char *id)
{
    char key[RB_KEY_MAX];
    const char *argv[] = { "HMGET", key,       "state",  "status",
                           "json",  "request", "created" };

    rb__job_key(rb, id, key, sizeof(key));
    return redis_pipe_add(c, 7, argv, NULL);
}

static int
rb_find(jobs_backend_t *b, const char *id, jobs_record_t *rec)
{
    rb_t *rb = (rb_t *)b;
    redisContext *c = rb__take(rb);
    redisReply *r;
    int rc;

    if (c == NULL) {
        return PZ_EBACKEND;
    }
    r = rb__read_record(rb, c, id) ? redis_pipe_read(c, true) : NULL;
    rc = r == NULL                   ? PZ_EBACKEND
         : rb__record_of(id, r, rec) ? PZ_OK
                                     : PZ_EJOB_NOT_FOUND;
    rb__give(rb, c, r);
    freeReplyObject(r);
    return rc;
}

static int
rb_list(jobs_backend_t *b,
        size_t offset,
        size_t limit,
        jobs_record_t *out,
        size_t *n,
        size_t *total)
{
    rb_t *rb = (rb_t *)b;
    char from[24], to[24];
    const char *zcard[] = { "ZCARD", rb->k_jobs };
    const char *zrange[] = { "ZREVRANGE", rb->k_jobs, from, to };
    redisContext *c = rb__take(rb);
    redisReply *rc_card = NULL;
    redisReply *ids = NULL;
    bool ok;

    *n = 0;
    *total = 0;
    if (c == NULL) {
        return PZ_EBACKEND;
    }
    if (limit == 0) {
        limit = 1;
    }
    snprintf(from, sizeof(from), "%zu", offset);
    snprintf(to, sizeof(to), "%zu", offset + limit - 1);
    ok =
        redis_pipe_add(c, 2, zcard, NULL) && redis_pipe_add(c, 4, zrange, NULL);
    rc_card = ok ? redis_pipe_read(c, true) : NULL;
    ids = rc_card != NULL ? redis_pipe_read(c, false) : NULL;
    if (ids == NULL || ids->type != REDIS_REPLY_ARRAY) {
        rb__give(rb, c, NULL);
        freeReplyObject(rc_card);
        freeReplyObject(ids);
        return PZ_EBACKEND;
    }
    *total =
        rc_card->type == REDIS_REPLY_INTEGER ? (size_t)rc_card->integer : 0;
    for (size_t i = 0; ok && i < ids->elements; i++) {
        ok = rb__read_record(rb, c, ids->element[i]->str);
    }
    for (size_t i = 0; ok && i < ids->elements; i++) {
        redisReply *r = redis_pipe_read(c, i == 0);

        if (r == NULL) {
            ok = false;
            break;
        }
        if (rb__record_of(ids->element[i]->str, r, &out[*n])) {
            (*n)++;
        }
        freeReplyObject(r);
    }
    rb__give(rb, c, ok ? ids : NULL);
    freeReplyObject(rc_card);
    freeReplyObject(ids);
    if (!ok) {
        for (size_t i = 0; i < *n; i++) {
            jobs_record_cleanup(&out[i]);
        }
        *n = 0;
        return PZ_EBACKEND;
    }
    return PZ_OK;
}

static int
rb_cancel(jobs_backend_t *b,
          jobs_record_t *rec,
          const char *cancelled_json,
          bool *ended)
{
    rb_t *rb = (rb_t *)b;
    char key[RB_KEY_MAX];
    char now[24], ttl[24], st[8], queued[8], preparing[8];
    const char *keys[4];
    const char *args[9];
    redisContext *c = rb__take(rb);
    redisReply *r;
    const char *what;
    int rc = PZ_OK;

    *ended = false;
    if (c == NULL) {
        return PZ_EBACKEND;
    }
    rb__job_key(rb, rec->id, key, sizeof(key));
    snprintf(now, sizeof(now), "%lld", (long long)api_wall_ms());
    snprintf(ttl, sizeof(ttl), "%lld",
             (long long)(rb->retention_ms > 0 ? rb->retention_ms : 1));
    snprintf(st, sizeof(st), "%d", PZ_STATUS_CANCELLED);
    keys[0] = key;
    keys[1] = rb->k_counters;
    keys[2] = rb->k_queue;
    keys[3] = rb->k_jobs;
    args[0] = cancelled_json != NULL ? cancelled_json : "";
    args[1] = now;
    args[2] = ttl;
    args[3] = rb->ch_ended;
    args[4] = rb->ch_cancel;
    args[5] = rec->id;
    args[6] = st;
    /* A job taken by a replica that has not begun to solve it (still
     * queued there, or waiting for tables) ends here too. */
    snprintf(queued, sizeof(queued), "%d", PZ_STATUS_QUEUED);
    snprintf(preparing, sizeof(preparing), "%d", PZ_STATUS_PREPARING);
    args[7] = queued;
    args[8] = preparing;
    r = rb__eval(c, &CANCEL, 4, keys, 9, args);
    what = rb__elem_str(r, 0);
    if (what == NULL) {
        rc = PZ_EBACKEND;
    } else if (strcmp(what, "missing") == 0) {
        /* Gone past its retention since it was read: nothing to stop. */
        *ended = true;
    } else if (strcmp(what, "ended") == 0) {
        const char *json = rb__elem_str(r, 2);
        char *copy = json != NULL ? strdup(json) : NULL;

        if (copy != NULL) {
            free(rec->json);
            rec->json = copy;
            rec->status =
                atoi(rb__elem_str(r, 1) != NULL ? rb__elem_str(r, 1) : "0");
        }
        rec->state = JOB_ENDED;
        *ended = true;
    }
    rb__give(rb, c, r);
    freeReplyObject(r);
    return rc;
}

static void
rb_stats(jobs_backend_t *b, jobs_stats_t *st)
{
    rb_t *rb = (rb_t *)b;
    const char *counters[] = { "HMGET", rb->k_counters, "queued", "running",
                               "memory" };
    const char *card[] = { "ZCARD", rb->k_jobs };
    redisContext *c = rb__take(rb);

    /* Read now: /readyz and /metrics answer with the deployment's
     * figures of this moment (one round trip). */
    if (c != NULL) {
        redisReply *r = NULL;
        redisReply *n = NULL;

        int64_t sent = rb__mono_us();

        if (redis_pipe_add(c, 5, counters, NULL) &&
            redis_pipe_add(c, 2, card, NULL)) {
            r = redis_pipe_read(c, true);
            n = r != NULL ? redis_pipe_read(c, false) : NULL;
        }
        if (r != NULL && r->type == REDIS_REPLY_ARRAY) {
            rb__set_figures(rb, r, 0, sent);
        }
        if (n != NULL && n->type == REDIS_REPLY_INTEGER) {
            atomic_store(&rb->kept, n->integer > 0 ? (size_t)n->integer : 0);
        }
        rb__give(rb, c, n);
        freeReplyObject(r);
        freeReplyObject(n);
    }
    st->backend = "redis";
    st->backend_ready = atomic_load(&rb->ready);
    st->backend_round_trips = atomic_load(&redis_round_trips);
    st->queued = atomic_load(&rb->queued);
    st->running = atomic_load(&rb->running);
    st->memory_in_use = atomic_load(&rb->memory);
    st->kept = atomic_load(&rb->kept);
    st->queue_cap = (size_t)rb->queue;
    st->memory_cap = rb->memory_cap;
}

static int
rb_ended_here(jobs_backend_t *b,
              const char *id,
              int64_t created_ms,
              size_t budget,
              int status,
              const char *json)
{
    rb_t *rb = (rb_t *)b;
    char key[RB_KEY_MAX];
    char st[8], now[24], ttl[24], created[24];
    const char *hset[] = { "HSET",  key,      "id",      id,     "state",
                           "ended", "status", st,        "json", json,
                           "ended", now,      "created", created };
    const char *expire[] = { "PEXPIRE", key, ttl };
    const char *zadd[] = { "ZADD", rb->k_jobs, created, id };
    redisContext *c;
    redisReply *r[3] = { NULL, NULL, NULL };
    bool ok;

    /* Admission on the deployment's figures as last read (every tick,
     * and from this replica's own submits and starts): the job never
     * takes a queue place, and its budget is held for microseconds. */
    if (atomic_load(&rb->queued) >= (size_t)rb->queue) {
        return PZ_EQUEUE_FULL;
    }
    if (budget > rb->memory_cap ||
        atomic_load(&rb->memory) > rb->memory_cap - budget) {
        return PZ_EMEMORY_CAP;
    }
    c = rb__take(rb);
    if (c == NULL) {
        return PZ_EBACKEND;
    }
    rb__job_key(rb, id, key, sizeof(key));
    snprintf(st, sizeof(st), "%d", status);
    snprintf(now, sizeof(now), "%lld", (long long)api_wall_ms());
    snprintf(ttl, sizeof(ttl), "%lld",
             (long long)(rb->retention_ms > 0 ? rb->retention_ms : 1));
    snprintf(created, sizeof(created), "%lld", (long long)created_ms);
    /* Three plain commands in one pipeline: nobody else can touch a
     * record that only this thread knows of yet. */
    ok = redis_pipe_add(c, 14, hset, NULL) &&
         redis_pipe_add(c, 3, expire, NULL) && redis_pipe_add(c, 4, zadd, NULL);
    for (int i = 0; ok && i < 3; i++) {
        r[i] = redis_pipe_read(c, i == 0);
        ok = r[i] != NULL && r[i]->type != REDIS_REPLY_ERROR;
    }
    rb__give(rb, c, ok ? r[2] : NULL);
    for (int i = 0; i < 3; i++) {
        freeReplyObject(r[i]);
    }
    return ok ? PZ_OK : PZ_EBACKEND;
}

static const jobs_backend_ops_t rb_ops = {
    .name = "redis",
    .start = rb__start,
    .quiesce = rb__quiesce,
    .destroy = rb__destroy,
    .submit = rb_submit,
    .ended = rb_ended,
    .find = rb_find,
    .list = rb_list,
    .cancel = rb_cancel,
    .stats = rb_stats,
    .ended_here = rb_ended_here,
};

int
jobs_redis_create(const jobs_redis_config_t *cfg,
                  jobs_backend_t **out,
                  char *why,
                  size_t why_size)
{
    rb_t *rb;
    const char *prefix = cfg->prefix != NULL ? cfg->prefix : "puzzled";
    char host[64];
    char rnd[9];

    *out = NULL;
    if (strlen(prefix) == 0 || strlen(prefix) >= 64 ||
        strpbrk(prefix, " \t\r\n") != NULL) {
        snprintf(why, why_size,
                 "the Redis key prefix must be 1 to 63 characters without "
                 "spaces");
        return PZ_EINVAL;
    }
    rb = calloc(1, sizeof(*rb));
    if (rb == NULL) {
        return PZ_ENOMEM;
    }
    if (!redis_url_parse(cfg->url, &rb->target.url)) {
        free(rb);
        snprintf(why, why_size,
                 "not a Redis URL: redis://[:password@]host[:port][/db]");
        return PZ_EINVAL;
    }
    rb->base.ops = &rb_ops;
    rb->target.timeout_ms = cfg->timeout_ms;
    redis_url_redacted(&rb->target.url, rb->redacted, sizeof(rb->redacted));
    redis_pool_init(&rb->pool, &rb->target);
    snprintf(rb->prefix, sizeof(rb->prefix), "%s", prefix);
    snprintf(rb->k_queue, sizeof(rb->k_queue), "%s:queue", prefix);
    snprintf(rb->k_jobs, sizeof(rb->k_jobs), "%s:jobs", prefix);
    snprintf(rb->k_counters, sizeof(rb->k_counters), "%s:counters", prefix);
    snprintf(rb->k_epoch, sizeof(rb->k_epoch), "%s:epoch", prefix);
    snprintf(rb->ch_ended, sizeof(rb->ch_ended), "%s:ended", prefix);
    snprintf(rb->ch_cancel, sizeof(rb->ch_cancel), "%s:cancel", prefix);
    if (gethostname(host, sizeof(host)) != 0) {
        snprintf(host, sizeof(host), "replica");
    }
    host[sizeof(host) - 1] = '\0';
    if (rng_hex(rnd, 4) != PZ_OK) {
        snprintf(rnd, sizeof(rnd), "0");
    }
    snprintf(rb->consumer, sizeof(rb->consumer), "%.40s-%d-%s", host,
             (int)getpid(), rnd);
    rb->lease_ms = cfg->lease_ms;
    rb->attempts = cfg->attempts;
    rb->queue = cfg->queue;
    rb->memory_cap = cfg->memory_cap;
    rb->retention_ms = cfg->retention_ms;
    rb->feeder_fd = rb->subscriber_fd = -1;
    pthread_mutex_init(&rb->lock, NULL);
    pthread_mutex_init(&rb->target.lock, NULL);
    pthread_cond_init(&rb->wake, NULL);
    pthread_cond_init(&rb->ticked, NULL);
    *out = &rb->base;
    return PZ_OK;
}
