/* SPDX-License-Identifier: MIT */
/* table_threads.h - the daemon's table threads: loads and builds, queued. */
#ifndef PZ_SERVER_TABLE_THREADS_H
#define PZ_SERVER_TABLE_THREADS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Installs (tables_set_runner) a runner that splits each step of a long
 * table build over workers threads (0: one per online CPU, at most 64).
 * solver/ starts no threads of its own, so the program lends them.
 * Thread: main, before tables are built.
 */
void table_threads_install(int workers);

/*
 * Starts the daemon's table threads: the only threads that load or build
 * tables (tables_thread_prepares), taking requests from one queue in
 * order; a build splits its steps over the runner. Returns PZ_OK or
 * PZ_ENOMEM (no thread could start). Thread: main.
 */
int table_threads_start(int nthreads);

/*
 * Queues the known table name to be loaded from its file or, when build
 * is true, loaded or else built. A table already queued is not queued
 * again (a build request upgrades a queued load). Its state reads
 * "queued" until a thread takes it. Thread: any.
 */
void table_threads_prepare(const char *name, bool build);

/*
 * Queues the warm start: the startup tables (complete tables, the
 * two-phase tables) first, built when build_startup is true and loaded
 * otherwise, then every other table whose file exists, loaded.
 * Thread: main.
 */
void table_threads_warm(bool build_startup);

/* True while a startup table is queued, loading or building (/readyz
 * says "warming"). Thread: any. */
bool table_threads_warming(void);

/*
 * Cancels the builds under way (they end within one step), drops what is
 * queued and waits up to timeout_ms for the threads to end. Returns true
 * when they all ended (and were joined); false leaves a thread inside a
 * step that has not looked at its cancel flag yet. Thread: main.
 */
bool table_threads_stop(int64_t timeout_ms);

#endif
