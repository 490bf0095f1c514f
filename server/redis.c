/* SPDX-License-Identifier: MIT */
/* redis.c - redis:// URLs, connections with timeouts, the connection
 * pool and the round-trip count (redis.h). */
#include "redis.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

_Atomic uint64_t redis_round_trips;

/* Parses a whole decimal number in lo..hi. */
static bool
parse_num(const char *s, size_t n, long lo, long hi, int *out)
{
    long v = 0;

    if (n == 0 || n > 9) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
        v = v * 10 + (s[i] - '0');
    }
    if (v < lo || v > hi) {
        return false;
    }
    *out = (int)v;
    return true;
}

bool
redis_url_parse(const char *text, redis_url_t *u)
{
    const char *p;
    const char *at;
    const char *slash;
    const char *colon;
    const char *host_end;
    size_t n;

    memset(u, 0, sizeof(*u));
    u->port = 6379;
    if (text == NULL || strncmp(text, "redis://", 8) != 0) {
        return false;
    }
    p = text + 8;
    slash = strchr(p, '/');
    at = strchr(p, '@');
    if (at != NULL && (slash == NULL || at < slash)) {
        /* [user]:password@ - only the password is used (Redis 6 ACL
         * users other than "default" are not supported). */
        colon = memchr(p, ':', (size_t)(at - p));
        if (colon == NULL) {
            return false;
        }
        n = (size_t)(at - colon - 1);
        if (n >= sizeof(u->password)) {
            return false;
        }
        memcpy(u->password, colon + 1, n);
        u->password[n] = '\0';
        p = at + 1;
    }
    host_end = slash != NULL ? slash : p + strlen(p);
    colon = memchr(p, ':', (size_t)(host_end - p));
    n = (size_t)((colon != NULL ? colon : host_end) - p);
    if (n == 0 || n >= sizeof(u->host)) {
        return false;
    }
    memcpy(u->host, p, n);
    u->host[n] = '\0';
    if (colon != NULL && !parse_num(colon + 1, (size_t)(host_end - colon - 1),
                                    1, 65535, &u->port)) {
        return false;
    }
    if (slash != NULL && slash[1] != '\0' &&
        !parse_num(slash + 1, strlen(slash + 1), 0, 1000000, &u->db)) {
        return false;
    }
    return true;
}

void
redis_url_redacted(const redis_url_t *u, char *out, size_t size)
{
    snprintf(out, size, "redis://%s%s:%d/%d", u->password[0] ? "***@" : "",
             u->host, u->port, u->db);
}

static struct timeval
tv_of(int ms)
{
    struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };

    return tv;
}

bool
redis_resolve(redis_target_t *t, char *why, size_t why_size)
{
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM };
    struct addrinfo *res = NULL;
    char addr[64] = "";
    int rc = getaddrinfo(t->url.host, NULL, &hints, &res);

    if (rc != 0 || res == NULL) {
        snprintf(why, why_size, "cannot resolve %s: %s", t->url.host,
                 rc != 0 ? gai_strerror(rc) : "no address");
        return false;
    }
    if (res->ai_family == AF_INET6) {
        inet_ntop(AF_INET6,
                  &((const struct sockaddr_in6 *)res->ai_addr)->sin6_addr, addr,
                  sizeof(addr));
    } else {
        inet_ntop(AF_INET,
                  &((const struct sockaddr_in *)res->ai_addr)->sin_addr, addr,
                  sizeof(addr));
    }
    freeaddrinfo(res);
    pthread_mutex_lock(&t->lock);
    snprintf(t->addr, sizeof(t->addr), "%s", addr);
    pthread_mutex_unlock(&t->lock);
    return addr[0] != '\0';
}

/* Sends the set-up command name arg on c; false with why filled (the
 * server's words, never arg: it may be the password). */
static bool
setup_cmd(redisContext *c,
          const char *name,
          const char *arg,
          char *why,
          size_t why_size)
{
    const char *argv[] = { name, arg };
    redisReply *r = redis_cmd(c, 2, argv, NULL);
    bool ok = r != NULL && r->type != REDIS_REPLY_ERROR;

    if (!ok) {
        snprintf(why, why_size, "%s refused: %s", name,
                 r != NULL ? r->str : c->errstr);
    }
    freeReplyObject(r);
    return ok;
}

redisContext *
redis_connect(redis_target_t *t, int extra_ms, char *why, size_t why_size)
{
    redisContext *c;
    char addr[64];

    pthread_mutex_lock(&t->lock);
    snprintf(addr, sizeof(addr), "%s", t->addr);
    pthread_mutex_unlock(&t->lock);
    if (addr[0] == '\0') {
        snprintf(why, why_size, "%s is not resolved yet", t->url.host);
        return NULL;
    }
    c = redisConnectWithTimeout(addr, t->url.port, tv_of(t->timeout_ms));
    if (c == NULL || c->err) {
        snprintf(why, why_size, "%s", c != NULL ? c->errstr : "out of memory");
        redisFree(c);
        return NULL;
    }
    /* extra_ms < 0: reads block until data comes or the socket is shut
     * down (a subscriber; keepalive finds a dead peer). */
    if (redisSetTimeout(c, extra_ms < 0
                               ? tv_of(0)
                               : tv_of(t->timeout_ms + extra_ms)) != REDIS_OK) {
        snprintf(why, why_size, "cannot set the command timeout");
        redisFree(c);
        return NULL;
    }
    redisEnableKeepAlive(c);
    if (t->url.password[0] != '\0' &&
        !setup_cmd(c, "AUTH", t->url.password, why, why_size)) {
        redisFree(c);
        return NULL;
    }
    if (t->url.db > 0) {
        char db[16];

        snprintf(db, sizeof(db), "%d", t->url.db);
        if (!setup_cmd(c, "SELECT", db, why, why_size)) {
            redisFree(c);
            return NULL;
        }
    }
    return c;
}

void
redis_pool_init(redis_pool_t *p, redis_target_t *t)
{
    memset(p, 0, sizeof(*p));
    p->target = t;
    pthread_mutex_init(&p->lock, NULL);
}

void
redis_pool_cleanup(redis_pool_t *p)
{
    for (int i = 0; i < p->nidle; i++) {
        redisFree(p->idle[i]);
    }
    p->nidle = 0;
    pthread_mutex_destroy(&p->lock);
}

redisContext *
redis_pool_get(redis_pool_t *p)
{
    redisContext *c = NULL;
    char why[256];

    pthread_mutex_lock(&p->lock);
    if (p->nidle > 0) {
        c = p->idle[--p->nidle];
    }
    pthread_mutex_unlock(&p->lock);
    if (c == NULL) {
        c = redis_connect(p->target, 0, why, sizeof(why));
    }
    return c;
}

void
redis_pool_put(redis_pool_t *p, redisContext *c, bool ok)
{
    if (c == NULL) {
        return;
    }
    if (ok && c->err == 0) {
        pthread_mutex_lock(&p->lock);
        if (p->nidle < (int)(sizeof(p->idle) / sizeof(p->idle[0]))) {
            p->idle[p->nidle++] = c;
            c = NULL;
        }
        pthread_mutex_unlock(&p->lock);
    }
    redisFree(c);
}

redisReply *
redis_cmd(redisContext *c, int argc, const char **argv, const size_t *len)
{
    atomic_fetch_add_explicit(&redis_round_trips, 1, memory_order_relaxed);
    return redisCommandArgv(c, argc, argv, len);
}

bool
redis_pipe_add(redisContext *c, int argc, const char **argv, const size_t *len)
{
    return redisAppendCommandArgv(c, argc, argv, len) == REDIS_OK;
}

redisReply *
redis_pipe_read(redisContext *c, bool first)
{
    void *r = NULL;

    if (first) {
        atomic_fetch_add_explicit(&redis_round_trips, 1, memory_order_relaxed);
    }
    if (redisGetReply(c, &r) != REDIS_OK) {
        return NULL;
    }
    return r;
}

bool
redis_reply_is_error(const redisReply *r, const char *prefix)
{
    return r != NULL && r->type == REDIS_REPLY_ERROR && r->str != NULL &&
           strncmp(r->str, prefix, strlen(prefix)) == 0;
}
