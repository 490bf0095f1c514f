/* SPDX-License-Identifier: MIT */
/* pool.c - a dedicated pthread pool for solving.
 *
 * Searches run on their own threads rather than libuv's work queue: that
 * queue is shared with libuv's file and DNS work, which long searches would
 * starve, and uv_cancel cannot stop a running job anyway. Cancellation is
 * cooperative through each job's atomic flag.
 */
#include "pool.h"

#include <pthread.h>
#include <stdlib.h>

struct pool {
    jobs_t *jobs; /* borrowed */
    int nthreads; /* started */
    pthread_t *threads;
};

static void *
worker_main(void *arg)
{
    pool_t *pool = arg;
    job_t *job;

    while ((job = jobs_next(pool->jobs)) != NULL) {
        jobs_run(pool->jobs, job);
    }
    return NULL;
}

int
pool_start(jobs_t *jobs, int nthreads, pool_t **out)
{
    pool_t *pool = calloc(1, sizeof(*pool));
    pthread_attr_t attr;

    *out = NULL;
    if (pool == NULL) {
        return PZ_ENOMEM;
    }
    pool->jobs = jobs;
    pool->threads = calloc((size_t)nthreads, sizeof(*pool->threads));
    if (pool->threads == NULL) {
        free(pool);
        return PZ_ENOMEM;
    }
    /* IDA* recurses once per move of the bound; give searches a roomy
     * stack whatever the process default is. */
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)8 << 20);
    for (int i = 0; i < nthreads; i++) {
        if (pthread_create(&pool->threads[i], &attr, worker_main, pool) != 0) {
            pthread_attr_destroy(&attr);
            pool_stop(pool);
            return PZ_EINTERNAL;
        }
        pool->nthreads++;
    }
    pthread_attr_destroy(&attr);
    *out = pool;
    return PZ_OK;
}

void
pool_stop(pool_t *pool)
{
    if (pool == NULL) {
        return;
    }
    jobs_stop(pool->jobs);
    for (int i = 0; i < pool->nthreads; i++) {
        pthread_join(pool->threads[i], NULL);
    }
    free(pool->threads);
    free(pool);
}
