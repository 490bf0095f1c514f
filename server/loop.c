/* SPDX-License-Identifier: MIT */
/* loop.c - the libuv loop thread: one timer, two async handles, signals.
 *
 * Other threads never touch libuv handles except through uv_async_send,
 * the one libuv call that is safe from any thread. Sends coalesce, so the
 * callbacks never assume one call per send: the wake callback simply
 * sweeps everything that is due, which covers any number of requests.
 */
#include "loop.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>

#include <uv.h>

#include "log.h"

struct loop {
    jobs_t *jobs; /* borrowed */
    void (*on_signal)(void *arg, int signo);
    void *arg;
    uv_loop_t uv;
    uv_timer_t timer; /* next sweep */
    uv_async_t wake;  /* sweep now (a new waiter) */
    uv_async_t stop;  /* close everything */
    uv_signal_t sigterm;
    uv_signal_t sigint;
    pthread_t thread;
    int64_t last_full; /* monotonic ms of the last full sweep */
    /* Monotonic ms at which the timer fires next; INT64_MAX while a sweep
     * is computing it. Read by any thread (loop_wake_before). */
    atomic_int_fast64_t armed_ms;
};

static void sweep(loop_t *loop);

static void
on_timer(uv_timer_t *t)
{
    sweep(t->data);
}

static void
on_wake(uv_async_t *a)
{
    sweep(a->data);
}

/* Sweeps the table and re-arms the timer for the next due time. */
static void
sweep(loop_t *loop)
{
    int64_t now = jobs_now_ms();
    bool full = now - loop->last_full >= JOBS_SWEEP_MS;
    int64_t next;

    /* A waiter registered while the sweep runs may be missed by its scan:
     * make it wake the loop once more (see loop_wake_before). */
    atomic_store(&loop->armed_ms, INT64_MAX);
    next = jobs_sweep(loop->jobs, now, full);

    if (full) {
        loop->last_full = now;
    }
    /* The full walk is due again within one interval at the latest. */
    if (next > loop->last_full + JOBS_SWEEP_MS) {
        next = loop->last_full + JOBS_SWEEP_MS;
    }

    uv_timer_start(&loop->timer, on_timer,
                   next > now ? (uint64_t)(next - now) : 0, 0);
    atomic_store(&loop->armed_ms, next > now ? next : now);
    /* Buffered log lines wait at most one interval. */
    log_flush();
}

static void
on_signal(uv_signal_t *s, int signo)
{
    loop_t *loop = s->data;

    loop->on_signal(loop->arg, signo);
}

static void
close_one(uv_handle_t *h, void *arg)
{
    (void)arg;
    if (!uv_is_closing(h)) {
        uv_close(h, NULL);
    }
}

static void
on_stop(uv_async_t *a)
{
    uv_walk(a->loop, close_one, NULL);
}

static void *
loop_main(void *arg)
{
    loop_t *loop = arg;

    uv_run(&loop->uv, UV_RUN_DEFAULT);
    return NULL;
}

int
loop_start(jobs_t *jobs,
           void (*on_sig)(void *arg, int signo),
           void *arg,
           loop_t **out)
{
    loop_t *loop = calloc(1, sizeof(*loop));

    *out = NULL;
    if (loop == NULL) {
        return PZ_ENOMEM;
    }
    loop->jobs = jobs;
    atomic_init(&loop->armed_ms, INT64_MAX);
    loop->on_signal = on_sig;
    loop->arg = arg;
    if (uv_loop_init(&loop->uv) != 0) {
        free(loop);
        return PZ_EINTERNAL;
    }
    /* Handle initialisation cannot fail for timers; asyncs and signals
     * fail only without file descriptors, which makes startup fail. */
    uv_timer_init(&loop->uv, &loop->timer);
    loop->timer.data = loop;
    if (uv_async_init(&loop->uv, &loop->wake, on_wake) != 0 ||
        uv_async_init(&loop->uv, &loop->stop, on_stop) != 0 ||
        uv_signal_init(&loop->uv, &loop->sigterm) != 0 ||
        uv_signal_init(&loop->uv, &loop->sigint) != 0) {
        goto fail;
    }
    loop->wake.data = loop;
    loop->stop.data = loop;
    loop->sigterm.data = loop;
    loop->sigint.data = loop;
    if (uv_signal_start(&loop->sigterm, on_signal, SIGTERM) != 0 ||
        uv_signal_start(&loop->sigint, on_signal, SIGINT) != 0) {
        goto fail;
    }
    uv_timer_start(&loop->timer, on_timer, 0, 0);
    if (pthread_create(&loop->thread, NULL, loop_main, loop) != 0) {
        goto fail;
    }
    *out = loop;
    return PZ_OK;
fail:
    uv_walk(&loop->uv, close_one, NULL);
    uv_run(&loop->uv, UV_RUN_DEFAULT);
    uv_loop_close(&loop->uv);
    free(loop);
    return PZ_EINTERNAL;
}

void
loop_wake(loop_t *loop)
{
    uv_async_send(&loop->wake);
}

void
loop_wake_before(loop_t *loop, int64_t deadline_ms)
{
    /* Each wake costs a context switch on the loop thread; a deadline the
     * armed timer reaches first needs none. */
    if (deadline_ms < atomic_load(&loop->armed_ms)) {
        uv_async_send(&loop->wake);
    }
}

void
loop_stop(loop_t *loop)
{
    if (loop == NULL) {
        return;
    }
    uv_async_send(&loop->stop);
    pthread_join(loop->thread, NULL);
    if (uv_loop_close(&loop->uv) != 0) {
        log_msg(LOG_WARN, "event loop closed with handles open");
    }
    free(loop);
}
