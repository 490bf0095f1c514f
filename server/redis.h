/* SPDX-License-Identifier: MIT */
/* redis.h - connections to the Redis that holds a deployment's jobs: the
 * redis:// URL, connecting with the configured timeouts (AUTH, SELECT), a
 * pool of connections for the threads that talk to it, and a count of the
 * round trips made. */
#ifndef PZ_SERVER_REDIS_H
#define PZ_SERVER_REDIS_H

#include <hiredis/hiredis.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* A parsed redis://[:password@]host[:port][/db] URL. */
typedef struct redis_url {
    char host[256];
    int port;           /* default 6379 */
    char password[256]; /* "" = no AUTH */
    int db;             /* SELECT when > 0 */
} redis_url_t;

/* Parses text into u. Returns false (u unspecified) when it is not a
 * redis:// URL of that form. */
bool redis_url_parse(const char *text, redis_url_t *u);

/* Writes u without its password (redis://host:port/db) into out. */
void redis_url_redacted(const redis_url_t *u, char *out, size_t size);

/* Where and how to connect. */
typedef struct redis_target {
    redis_url_t url;
    int timeout_ms;       /* connect and command timeout */
    pthread_mutex_t lock; /* guards addr */
    char addr[64];        /* url.host resolved (numeric), "" not yet */
} redis_target_t;

/* Resolves t's host into t->addr. Name resolution has no timeout of its
 * own, so only a thread that may wait for it calls this; connections go
 * to the resolved address. False (why filled) when the name does not
 * resolve. Thread: any. */
bool redis_resolve(redis_target_t *t, char *why, size_t why_size);

/*
 * A new connection to t's resolved address (AUTH and SELECT done), with
 * extra_ms added to its command timeout (a blocking read waits that much
 * longer; < 0: no timeout), or NULL with why filled (no password in it; not
 * resolved yet is a failure). Thread: any.
 */
redisContext *
redis_connect(redis_target_t *t, int extra_ms, char *why, size_t why_size);

/* Connections for any thread, taken and given back. */
typedef struct redis_pool {
    redis_target_t *target;
    pthread_mutex_t lock;
    redisContext *idle[32];
    int nidle;
} redis_pool_t;

void redis_pool_init(redis_pool_t *p, redis_target_t *t);
void redis_pool_cleanup(redis_pool_t *p);

/* An idle connection or a new one; NULL when Redis cannot be reached. */
redisContext *redis_pool_get(redis_pool_t *p);

/* Gives c back; a connection that failed (ok false, or c->err) is closed
 * instead. */
void redis_pool_put(redis_pool_t *p, redisContext *c, bool ok);

/* Round trips made by every connection of the process (each reply read
 * is one; a pipeline of n commands counts n-1 fewer). */
extern _Atomic uint64_t redis_round_trips;

/*
 * Sends argc arguments (lengths in len, NULL: strlen) and reads the
 * reply; counts one round trip. Returns the reply (freeReplyObject) or
 * NULL when the connection failed (c->err set). Thread: c's user.
 */
redisReply *
redis_cmd(redisContext *c, int argc, const char **argv, const size_t *len);

/* Appends a command to c's pipeline (redis_pipe_read reads the replies). */
bool
redis_pipe_add(redisContext *c, int argc, const char **argv, const size_t *len);

/* Reads the next reply of the pipeline (the first read counts as the
 * round trip); NULL when the connection failed. */
redisReply *redis_pipe_read(redisContext *c, bool first);

/* True when r is an error reply that starts with prefix ("NOGROUP"). */
bool redis_reply_is_error(const redisReply *r, const char *prefix);

#endif
