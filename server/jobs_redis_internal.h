/* SPDX-License-Identifier: MIT */
/* jobs_redis_internal.h - what the Redis backend's two files share: its
 * state, its scripts and the helpers around a command. jobs_redis.c holds
 * the scripts, the helpers and the ops a request thread calls;
 * jobs_redis_threads.c the replica's three threads (feeder, subscriber,
 * keeper) and their life cycle. */
#ifndef PZ_SERVER_JOBS_REDIS_INTERNAL_H
#define PZ_SERVER_JOBS_REDIS_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jobs_redis.h"
#include "redis.h"

#define RB_GROUP       "solvers"
#define RB_TICK_MS     200  /* live statistics and lease renewal */
#define RB_BLOCK_MS    1000 /* a feeder's XREADGROUP waits this long */
#define RB_BACKOFF_MAX 2000 /* reconnect backoff, ms */
#define RB_RENEW_MAX   256  /* adopted jobs renewed per tick */
#define RB_KEY_MAX     160

/* A script and its SHA1 once Redis told it (SCRIPT LOAD): calls send
 * EVALSHA, not the text. */
typedef struct script {
    const char *body;
    char sha[48];
    atomic_bool loaded;
} script_t;

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

/* Entries taken at once at most (XREADGROUP COUNT, XAUTOCLAIM COUNT). */
#define RB_BATCH      16
#define RB_BATCH_TEXT "16"

/* The scripts the threads run themselves (jobs_redis.c). */
extern script_t RB_START;
extern script_t RB_PROGRESS;

/* The key of job id's record into out. */
void rb__job_key(const rb_t *rb, const char *id, char *out, size_t size);

void rb__sleep_ms(int ms);

/* Monotonic clock in microseconds. */
int64_t rb__mono_us(void);

/* Marks the store unreachable (logged once per outage), or reachable. */
void rb__set_down(rb_t *rb, const char *why);
void rb__set_up(rb_t *rb);

/* Logs an error reply of a script. */
void rb__log_refused(const char *what, const char *err);

/* A pool connection for a request thread, or NULL (store down); given
 * back after reply r (NULL: the connection failed). */
redisContext *rb__take(rb_t *rb);
void rb__give(rb_t *rb, redisContext *c, const redisReply *r);

/* Asks Redis for the SHA1 of s (once per process). */
void rb__load_script(redisContext *c, script_t *s);

/* Runs script s (EVALSHA, or EVAL when Redis forgot it). */
redisReply *rb__eval(redisContext *c,
                     script_t *s,
                     int nkeys,
                     const char **keys,
                     int nargs,
                     const char **args);

/* Element i of array r as a string, or NULL. */
const char *rb__elem_str(const redisReply *r, size_t i);

/* Keeps the deployment's figures, elements from..from+2 of r, read by a
 * command sent at sent (rb__mono_us); older ones are dropped. */
void rb__set_figures(rb_t *rb, const redisReply *r, size_t from, int64_t sent);

/* Forgets the submitted job id (it left the queued state). */
void rb__untrack(rb_t *rb, const char *id);

/* Runs END for job id on c; true when the end is stored (now or
 * before). *rp gets the reply (free it). */
bool rb__end_on(rb_t *rb,
                redisContext *c,
                const char *id,
                int64_t created_ms,
                const char *entry,
                int status,
                const char *json,
                redisReply **rp);

/* Appends the read of id's record to c's pipeline; rb__record_of turns
 * its reply into rec (false: no such record). */
bool rb__read_record(const rb_t *rb, redisContext *c, const char *id);
bool rb__record_of(const char *id, const redisReply *r, jobs_record_t *rec);

/* The life cycle (jobs_redis_threads.c). */
int rb__start(jobs_backend_t *b, jobs_t *t);
void rb__quiesce(jobs_backend_t *b);
void rb__destroy(jobs_backend_t *b);

#endif
