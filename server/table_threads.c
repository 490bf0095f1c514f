/* SPDX-License-Identifier: MIT */
/* table_threads.c - a pthread runner for parallel table builds. */
#include "table_threads.h"

#include <pthread.h>
#include <unistd.h>

#include "tables/tables.h"

#define WORKERS_MAX 64

/* One part of a step, run on its own thread. */
typedef struct part {
    tables_task_fn fn;
    void *arg;
    int index;
} part_t;

static void *
part_main(void *p)
{
    part_t *part = p;

    part->fn(part->arg, part->index);
    return NULL;
}

/* Runs parts 1..n-1 on new threads and part 0 here; a part whose thread
 * cannot start runs here too, so the step always completes. */
static void
run(void *ctx, int n, tables_task_fn fn, void *arg)
{
    pthread_t tid[WORKERS_MAX];
    part_t parts[WORKERS_MAX];
    int started[WORKERS_MAX] = { 0 };

    (void)ctx;
    if (n > WORKERS_MAX) {
        n = WORKERS_MAX;
    }
    for (int i = 1; i < n; i++) {
        parts[i].fn = fn;
        parts[i].arg = arg;
        parts[i].index = i;
        started[i] = pthread_create(&tid[i], NULL, part_main, &parts[i]) == 0;
    }
    fn(arg, 0);
    for (int i = 1; i < n; i++) {
        if (started[i]) {
            pthread_join(tid[i], NULL);
        } else {
            fn(arg, i);
        }
    }
}

void
table_threads_install(int workers)
{
    if (workers <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);

        workers = cpus > 0 ? (int)cpus : 1;
    }
    if (workers > WORKERS_MAX) {
        workers = WORKERS_MAX;
    }
    tables_set_runner(run, NULL, workers);
}
