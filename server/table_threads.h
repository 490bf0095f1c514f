/* SPDX-License-Identifier: MIT */
/* table_threads.h - threads for the table builds of solver/tables. */
#ifndef PZ_SERVER_TABLE_THREADS_H
#define PZ_SERVER_TABLE_THREADS_H

/*
 * Installs (tables_set_runner) a runner that splits each step of a long
 * table build over workers threads (0: one per online CPU, at most 64).
 * solver/ starts no threads of its own, so the program lends them.
 * Thread: main, before tables are built.
 */
void table_threads_install(int workers);

#endif
