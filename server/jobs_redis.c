/* SPDX-License-Identifier: MIT */
/*
 * jobs_redis.c - the Redis job backend (jobs_redis.h; the design, keys
 * and guarantees are in docs/scale-out.md).
 *
 * Every change of a record that more than one replica may make at once
 * is one Lua script, so it is atomic in Redis: admission and enqueue
 * (SUBMIT), taking a queued or reclaimed entry (START), the end written
 * once per id (END), cancel (CANCEL) and live statistics that never
 * overwrite an end (PROGRESS). Three threads per replica: the feeder reads
 * the queue (XREADGROUP) while a solver thread is free, the subscriber
 * hears ends and cancels (pub/sub), and the keeper renews leases, writes
 * live statistics every 250 ms, reclaims entries of lost replicas
 * (XAUTOCLAIM), watches for a Redis that lost its data, and reconnects.
 * Request threads take connections from a pool.
 * Size: one backend, its scripts and its three threads; the scripts'
 * argument lists and the replies they are read from sit side by side.
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

#include "log.h"
#include "redis.h"
#include "rng.h"
#include "search.h"

#define RB_GROUP       "solvers"
#define RB_TICK_MS     200  /* live statistics and lease renewal */
#define RB_BLOCK_MS    1000 /* a feeder's XREADGROUP waits this long */
#define RB_BACKOFF_MAX 2000 /* reconnect backoff, ms */
#define RB_RENEW_MAX   256  /* adopted jobs renewed per tick */
#define RB_KEY_MAX     160

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

static const char PROGRESS_LUA[] =
    "if redis.call('HGET', KEYS[1], 'state') == 'running' then\n"
    "  redis.call('HSET', KEYS[1], 'json', ARGV[1], 'status', ARGV[2])\n"
    "  return 1 end\n"
    "return 0\n";

/* A script and its SHA1 once Redis told it (SCRIPT LOAD): calls send
 * EVALSHA, not the text. */
typedef struct script {
    const char *body;
    char sha[48];
    atomic_bool loaded;
} script_t;

static script_t SUBMIT = { SUBMIT_LUA, "", false };
static script_t START = { START_LUA, "", false };
static script_t END = { END_LUA, "", false };
static script_t CANCEL = { CANCEL_LUA, "", false };
static script_t PROGRESS = { PROGRESS_LUA, "", false };
static pthread_mutex_t script_lock = PTHREAD_MUTEX_INITIALIZER;

/* A job this replica submitted that was queued when last looked at: if
 * Redis loses its data, this replica ends it backend_lost. */
typedef struct tracked {
    char id[JOBS_ID_LEN + 1];
    int64_t created_ms;
    char *request;
} tracked_t;

typedef struct rb {
    jobs_backend_t base;
    jobs_t *jobs;
    redis_target_t target;
    redis_pool_t pool;
    char redacted[300];
    char prefix[64];
    char k_queue[RB_KEY_MAX];
    char k_jobs[RB_KEY_MAX];
    char k_counters[RB_KEY_MAX];
    char k_epoch[RB_KEY_MAX];
    char ch_ended[RB_KEY_MAX];
    char ch_cancel[RB_KEY_MAX];
    char consumer[64];
    int lease_ms;
    int attempts;
    int queue;
    size_t memory_cap;
    int64_t retention_ms;
    atomic_bool ready;    /* the keeper's last tick reached Redis */
    atomic_bool quiesced; /* shutting down: take no more jobs */
    atomic_bool stopping; /* threads exit */
    bool started;
    pthread_t feeder;
    pthread_t subscriber;
    pthread_t keeper;
    pthread_mutex_t lock;  /* guards below */
    pthread_cond_t wake;   /* stopping, or a tick is due */
    pthread_cond_t ticked; /* the keeper's first attempt is over */
    bool attempted;
    int feeder_fd; /* sockets blocked in reads, shut down at stop */
    int subscriber_fd;
    tracked_t *tracked;
    size_t ntracked;
    size_t cap_tracked;
    /* The deployment's figures as the keeper last read them. */
    _Atomic size_t queued;
    _Atomic size_t running;
    _Atomic size_t memory;
    _Atomic size_t kept;        /* records in the listing */
    _Atomic int64_t figures_at; /* when the command they come from left */
    char epoch[40];             /* keeper only */
} rb_t;

static void
job_key(const rb_t *rb, const char *id, char *out, size_t size)
{
    snprintf(out, size, "%.63s:job:%.32s", rb->prefix, id);
}

static void
sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

    nanosleep(&ts, NULL);
}

/* Marks the store unreachable (logged once per outage). */
static void
set_down(rb_t *rb, const char *why)
{
    if (atomic_exchange(&rb->ready, false)) {
        log_line_t ev;

        log_line_begin(&ev, LOG_WARN, "job store unreachable");
        log_line_str(&ev, "redis", rb->redacted);
        log_line_str(&ev, "detail", why);
        log_line_end(&ev);
    }
}

static void
set_up(rb_t *rb)
{
    if (!atomic_exchange(&rb->ready, true)) {
        log_line_t ev;

        log_line_begin(&ev, LOG_INFO, "job store reachable");
        log_line_str(&ev, "redis", rb->redacted);
        log_line_end(&ev);
    }
}

/* Logs an error reply of a script (a bug, or a Redis that is not 7). */
static void
log_refused(const char *what, const char *err)
{
    log_line_t ev;

    log_line_begin(&ev, LOG_ERROR, "job store refused a command");
    log_line_str(&ev, "command", what);
    log_line_str(&ev, "detail", err);
    log_line_end(&ev);
}

/* A pool connection for a request thread, or NULL (store down). */
static redisContext *
take(rb_t *rb)
{
    redisContext *c;

    if (!atomic_load(&rb->ready)) {
        return NULL;
    }
    c = redis_pool_get(&rb->pool);
    if (c == NULL) {
        set_down(rb, "cannot connect");
    }
    return c;
}

/* Gives c back after reply r (NULL: the connection failed). */
static void
give(rb_t *rb, redisContext *c, const redisReply *r)
{
    if (r == NULL) {
        set_down(rb, c->errstr[0] ? c->errstr : "connection lost");
    }
    redis_pool_put(&rb->pool, c, r != NULL);
}

/* Asks Redis for the SHA1 of s (once per process). */
static void
load_script(redisContext *c, script_t *s)
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
static redisReply *
eval(redisContext *c,
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
        load_script(c, s);
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
static const char *
elem_str(const redisReply *r, size_t i)
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
static int64_t
mono_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Keeps the deployment's queued, running and memory figures, elements
 * from..from+2 of r, read by a command sent at sent (mono_us): figures
 * of a command sent before the last ones kept are older, and dropped. */
static void
set_figures(rb_t *rb, const redisReply *r, size_t from, int64_t sent)
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
static void
untrack(rb_t *rb, const char *id)
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
    redisContext *c = take(rb);
    redisReply *r;
    const char *what;
    int64_t sent;
    int rc;

    if (c == NULL) {
        return PZ_EBACKEND;
    }
    job_key(rb, jobs_id(job), key, sizeof(key));
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
    sent = mono_us();
    r = eval(c, &SUBMIT, 4, keys, 8, args);
    what = elem_str(r, 0);
    rc = what == NULL                      ? PZ_EBACKEND
         : strcmp(what, "ok") == 0         ? PZ_OK
         : strcmp(what, "queue_full") == 0 ? PZ_EQUEUE_FULL
         : strcmp(what, "memory_cap") == 0 ? PZ_EMEMORY_CAP
                                           : PZ_EBACKEND;
    if (what != NULL) {
        /* The deployment's figures as of this submit. */
        set_figures(rb, r, 1, sent);
    }
    if (r != NULL && r->type == REDIS_REPLY_ERROR) {
        log_refused("submit", r->str);
    }
    give(rb, c, r);
    freeReplyObject(r);
    if (rc == PZ_OK) {
        track(rb, jobs_id(job), jobs__created_ms(job), jobs__request_text(job));
    }
    return rc;
}

/* END on connection c. Returns true when the end is stored (now or
 * before). */
static bool
end_on(rb_t *rb,
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

    job_key(rb, id, key, sizeof(key));
    snprintf(st, sizeof(st), "%d", status);
    snprintf(now, sizeof(now), "%lld", (long long)jobs__wall_ms());
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
    r = eval(c, &END, 4, keys, 9, args);
    ok = r != NULL && r->type == REDIS_REPLY_INTEGER;
    if (r != NULL && r->type == REDIS_REPLY_ERROR) {
        log_refused("end", r->str);
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
    redisContext *c = take(rb);
    redisReply *r = NULL;
    bool ok;

    if (c == NULL) {
        return false;
    }
    ok = end_on(rb, c, id, created_ms, entry, status, json, &r);
    give(rb, c, r);
    freeReplyObject(r);
    if (ok) {
        untrack(rb, id);
    }
    return ok;
}

/* Fills rec from an HMGET state status json request created reply. */
static bool
record_of(const char *id, const redisReply *r, jobs_record_t *rec)
{
    const char *state = elem_str(r, 0);
    const char *status = elem_str(r, 1);
    const char *json = elem_str(r, 2);
    const char *created = elem_str(r, 4);

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
    rec->request = dup_or_null(elem_str(r, 3));
    if (rec->json == NULL) {
        jobs_record_cleanup(rec);
        return false;
    }
    return true;
}

/* Appends the read of id's record to c's pipeline (record_of reads its
 * reply). */
static bool
read_record(const rb_t *rb, redisContext *c, const char *id)
{
    char key[RB_KEY_MAX];
    const char *argv[] = { "HMGET", key,       "state",  "status",
                           "json",  "request", "created" };

    job_key(rb, id, key, sizeof(key));
    return redis_pipe_add(c, 7, argv, NULL);
}

static int
rb_find(jobs_backend_t *b, const char *id, jobs_record_t *rec)
{
    rb_t *rb = (rb_t *)b;
    redisContext *c = take(rb);
    redisReply *r;
    int rc;

    if (c == NULL) {
        return PZ_EBACKEND;
    }
    r = read_record(rb, c, id) ? redis_pipe_read(c, true) : NULL;
    rc = r == NULL               ? PZ_EBACKEND
         : record_of(id, r, rec) ? PZ_OK
                                 : PZ_EJOB_NOT_FOUND;
    give(rb, c, r);
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
    redisContext *c = take(rb);
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
        give(rb, c, NULL);
        freeReplyObject(rc_card);
        freeReplyObject(ids);
        return PZ_EBACKEND;
    }
    *total =
        rc_card->type == REDIS_REPLY_INTEGER ? (size_t)rc_card->integer : 0;
    for (size_t i = 0; ok && i < ids->elements; i++) {
        ok = read_record(rb, c, ids->element[i]->str);
    }
    for (size_t i = 0; ok && i < ids->elements; i++) {
        redisReply *r = redis_pipe_read(c, i == 0);

        if (r == NULL) {
            ok = false;
            break;
        }
        if (record_of(ids->element[i]->str, r, &out[*n])) {
            (*n)++;
        }
        freeReplyObject(r);
    }
    give(rb, c, ok ? ids : NULL);
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
    redisContext *c = take(rb);
    redisReply *r;
    const char *what;
    int rc = PZ_OK;

    *ended = false;
    if (c == NULL) {
        return PZ_EBACKEND;
    }
    job_key(rb, rec->id, key, sizeof(key));
    snprintf(now, sizeof(now), "%lld", (long long)jobs__wall_ms());
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
    r = eval(c, &CANCEL, 4, keys, 9, args);
    what = elem_str(r, 0);
    if (what == NULL) {
        rc = PZ_EBACKEND;
    } else if (strcmp(what, "missing") == 0) {
        /* Gone past its retention since it was read: nothing to stop. */
        *ended = true;
    } else if (strcmp(what, "ended") == 0) {
        const char *json = elem_str(r, 2);
        char *copy = json != NULL ? strdup(json) : NULL;

        if (copy != NULL) {
            free(rec->json);
            rec->json = copy;
            rec->status = atoi(elem_str(r, 1) != NULL ? elem_str(r, 1) : "0");
        }
        rec->state = JOB_ENDED;
        *ended = true;
    }
    give(rb, c, r);
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
    redisContext *c = take(rb);

    /* Read now: /readyz and /metrics answer with the deployment's
     * figures of this moment (one round trip). */
    if (c != NULL) {
        redisReply *r = NULL;
        redisReply *n = NULL;

        int64_t sent = mono_us();

        if (redis_pipe_add(c, 5, counters, NULL) &&
            redis_pipe_add(c, 2, card, NULL)) {
            r = redis_pipe_read(c, true);
            n = r != NULL ? redis_pipe_read(c, false) : NULL;
        }
        if (r != NULL && r->type == REDIS_REPLY_ARRAY) {
            set_figures(rb, r, 0, sent);
        }
        if (n != NULL && n->type == REDIS_REPLY_INTEGER) {
            atomic_store(&rb->kept, n->integer > 0 ? (size_t)n->integer : 0);
        }
        give(rb, c, n);
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
    const char *what = elem_str(r, 0);
    const char *request = elem_str(r, 1);
    int64_t created =
        elem_str(r, 2) != NULL ? strtoll(elem_str(r, 2), NULL, 10) : 0;

    if (what != NULL && request != NULL && strcmp(what, "run") == 0) {
        /* The deployment's figures as of this start. */
        set_figures(rb, r, 3, sent);
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
            end_on(rb, c, id, created, entry, status, json, &er);
            freeReplyObject(er);
        }
        free(json);
    } else if (r->type == REDIS_REPLY_ERROR) {
        log_refused("start", r->str);
    }
}

/* Entries taken at once at most (XREADGROUP COUNT, XAUTOCLAIM COUNT). */
#define RB_BATCH      16
#define RB_BATCH_TEXT "16"

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
    if (!atomic_load_explicit(&START.loaded, memory_order_acquire)) {
        load_script(c, &START);
    }
    snprintf(now, sizeof(now), "%lld", (long long)jobs__wall_ms());
    snprintf(max, sizeof(max), "%d", rb->attempts);
    sent = mono_us();
    for (size_t i = 0; ok && i < n; i++) {
        const char *argv[] = {
            "EVALSHA",    START.sha, "3", keys[i],  rb->k_counters, rb->k_queue,
            rb->consumer, now,       max, RB_GROUP, entries[i]
        };

        job_key(rb, ids[i], keys[i], sizeof(keys[i]));
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
            replies[i] = eval(c, &START, 3, k, 5, args);
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
            sleep_ms(50);
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
                sleep_ms(backoff);
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
            read_record(rb, c, ids[i]) ? redis_pipe_read(c, true) : NULL;

        if (r == NULL) {
            break;
        }
        if (record_of(ids[i], r, &rec) && rec.state == JOB_ENDED) {
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
            sleep_ms(backoff);
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
    const char *claim[RB_RENEW_MAX + 7];
    int nclaim = 0;
    size_t sent = 0;
    bool ok = true;
    const char *get_epoch[] = { "GET", rb->k_epoch };
    const char *counters[] = { "HMGET", rb->k_counters, "queued", "running",
                               "memory" };
    redisReply *r;
    int64_t sent_at;

    /* Before the pipeline: its replies are read in order. */
    if (!atomic_load_explicit(&PROGRESS.loaded, memory_order_acquire)) {
        load_script(c, &PROGRESS);
    }
    *epoch_lost = false;
    sent_at = mono_us();
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
        const char *argv[6] = { "EVALSHA", PROGRESS.sha, "1", key, json, st };

        if (jobs__entry(jobs[i])[0] != '\0') {
            claim[nclaim++] = jobs__entry(jobs[i]);
        }
        if (json == NULL) {
            continue;
        }
        job_key(rb, jobs_id(jobs[i]), key, sizeof(key));
        snprintf(st, sizeof(st), "%d", status);
        ok = redis_pipe_add(c, 6, argv, NULL);
        sent++;
        free(json);
    }
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
            atomic_store(&PROGRESS.loaded, false);
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
            set_figures(rb, r, 0, sent_at);
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
            end_on(rb, c, lost[i].id, lost[i].created_ms, "", status, json, &r);
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

        job_key(rb, ids[i], key, sizeof(key));
        ok = redis_pipe_add(c, 3, argv, NULL);
    }
    for (size_t i = 0; ok && i < n; i++) {
        redisReply *r = redis_pipe_read(c, i == 0);

        if (r == NULL) {
            ok = false;
            break;
        }
        if (r->type != REDIS_REPLY_STRING || strcmp(r->str, "queued") != 0) {
            untrack(rb, ids[i]);
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

        job_key(rb, ids->element[i]->str, key, sizeof(key));
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
                set_down(rb, why);
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
            set_up(rb);
            jobs__flush_ended(rb->jobs);
        } else {
            set_down(rb, c->errstr[0] ? c->errstr : "command failed");
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

static int
rb_start(jobs_backend_t *b, jobs_t *t)
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

static void
rb_quiesce(jobs_backend_t *b)
{
    rb_t *rb = (rb_t *)b;

    atomic_store(&rb->quiesced, true);
}

static void
rb_destroy(jobs_backend_t *b)
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
    c = take(rb);
    if (c == NULL) {
        return PZ_EBACKEND;
    }
    job_key(rb, id, key, sizeof(key));
    snprintf(st, sizeof(st), "%d", status);
    snprintf(now, sizeof(now), "%lld", (long long)jobs__wall_ms());
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
    give(rb, c, ok ? r[2] : NULL);
    for (int i = 0; i < 3; i++) {
        freeReplyObject(r[i]);
    }
    return ok ? PZ_OK : PZ_EBACKEND;
}

static const jobs_backend_ops_t rb_ops = {
    .name = "redis",
    .start = rb_start,
    .quiesce = rb_quiesce,
    .destroy = rb_destroy,
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
