/* SPDX-License-Identifier: MIT */
/* loop.h - the libuv loop thread: timers, wake-ups and signals. */
#ifndef PZ_SERVER_LOOP_H
#define PZ_SERVER_LOOP_H

#include <stdint.h>

#include "jobs.h"

typedef struct loop loop_t;

/*
 * Starts the loop thread. It sweeps jobs (waiter deadlines, job deadlines,
 * retention) whenever the next deadline is due and at least every 100 ms,
 * and calls on_signal(arg) on the loop thread for each SIGTERM or SIGINT
 * (signo passed). jobs is borrowed. Returns PZ_OK with owned *out
 * (loop_stop) or PZ_EINTERNAL. Thread: main.
 */
int loop_start(jobs_t *jobs,
               void (*on_signal)(void *arg, int signo),
               void *arg,
               loop_t **out);

/* Makes the loop sweep now and re-arm its timer for a new, possibly
 * nearer deadline (a waiter was registered). Thread: any. */
void loop_wake(loop_t *loop);

/* Wakes the loop only if its timer would fire after deadline_ms (a new
 * waiter's deadline, monotonic ms); otherwise the armed timer reaches the
 * waiter in time. Thread: any. */
void loop_wake_before(loop_t *loop, int64_t deadline_ms);

/* Stops the loop thread, closes every handle and frees the loop. NULL is
 * fine. Thread: main. */
void loop_stop(loop_t *loop);

#endif
