/* SPDX-License-Identifier: MIT */
/* pool.h - the solver threads that run queued jobs. */
#ifndef PZ_SERVER_POOL_H
#define PZ_SERVER_POOL_H

#include "jobs.h"

typedef struct pool pool_t;

/*
 * Starts nthreads solver threads taking jobs from jobs (borrowed; must
 * outlive the pool). Returns PZ_OK with owned *out (pool_stop), or
 * PZ_ENOMEM / PZ_EINTERNAL with nothing started. Thread: main.
 */
int pool_start(jobs_t *jobs, int nthreads, pool_t **out);

/* Stops taking jobs, waits for every thread to finish its current job and
 * frees the pool. Cancel running jobs first for a quick stop. NULL is
 * fine. Thread: main. */
void pool_stop(pool_t *pool);

#endif
