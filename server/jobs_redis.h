/* SPDX-License-Identifier: MIT */
/* jobs_redis.h - the Redis job backend: a deployment's records, queue,
 * admission, waits and cancels in one Redis shared by every replica
 * (docs/scale-out.md). */
#ifndef PZ_SERVER_JOBS_REDIS_H
#define PZ_SERVER_JOBS_REDIS_H

#include <stddef.h>
#include <stdint.h>

#include "jobs_backend.h"

typedef struct jobs_redis_config {
    const char *url;    /* redis://[:password@]host[:port][/db] */
    const char *prefix; /* key prefix, NULL: "puzzled" */
    int timeout_ms;     /* connect and command timeout */
    int lease_ms;       /* a job unrenewed this long is taken over */
    int attempts;       /* starts of a job at most */
    int queue;          /* the deployment's queued jobs at most */
    size_t memory_cap;  /* the deployment's queued+running budgets */
    int64_t retention_ms;
} jobs_redis_config_t;

/* A Redis backend for cfg (nothing connected yet: start does). Returns
 * PZ_OK with *out, PZ_EINVAL (bad URL or prefix; why says which) or
 * PZ_ENOMEM. Thread: main. */
int jobs_redis_create(const jobs_redis_config_t *cfg,
                      jobs_backend_t **out,
                      char *why,
                      size_t why_size);

#endif
