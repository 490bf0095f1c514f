/* SPDX-License-Identifier: MIT */
/* twophase.h - the two-phase 3x3x3 engine's process-wide tables. */
#ifndef PZ_SOLVER_TWOPHASE_H
#define PZ_SOLVER_TWOPHASE_H

#include <stddef.h>

/*
 * The engine itself is engine__twophase in the registry ("twophase"). Its
 * move and pruning tables (about 135 MB) are built in memory the first
 * time any thread needs them and kept, read-only and shared, until the
 * process ends; they are never charged to a job's budget.
 */

/*
 * Builds the tables now unless they exist (a daemon may call this at
 * startup so the first job does not wait for the build). Blocks while
 * another thread builds them. Returns PZ_OK, PZ_ENOMEM or PZ_EINTERNAL
 * (a table failed its consistency check). Thread: any.
 */
int twophase_tables_init(void);

/* Bytes of the tables, 0 until they are built. Thread: any. */
size_t twophase_table_bytes(void);

/* Wall-clock milliseconds the build took, 0 until it is done. Thread:
 * any. */
double twophase_table_build_ms(void);

#endif
