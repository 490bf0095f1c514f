/* SPDX-License-Identifier: MIT */
/* twophase.h - the two-phase 3x3x3 engine's process-wide tables. */
#ifndef PZ_SOLVER_TWOPHASE_H
#define PZ_SOLVER_TWOPHASE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine.h"
#include "tables.h"

/* The engine, one of the 3x3x3's solvers ("twophase"). */
extern const engine_ops_t cube3_twophase_engine;

/*
 * The engine's
 * move and pruning tables (about 100 MiB) are one module table of
 * solver/tables ("3x3x3-twophase"): the first time any thread needs them
 * they are read from the table directory, or built (about 8 s of CPU) and
 * saved there, and kept, read-only and shared, until the process ends;
 * they are never charged to a job's budget.
 */

/*
 * Loads (or builds) the tables now unless they are there (the daemon
 * loads them at startup through twophase_table_defs). Blocks while
 * another thread loads them. Returns PZ_OK, PZ_ENOMEM, PZ_EIO or
 * PZ_EINTERNAL (a table failed its consistency check). Thread: any.
 */
int twophase_tables_init(void);

/* Bytes of the tables, 0 until they are loaded. Thread: any. */
size_t twophase_table_bytes(void);

/* Wall-clock milliseconds that loading (or building) the tables took in
 * this process, 0 until it is done. Thread: any. */
double twophase_table_build_ms(void);

/* True when this process built the tables rather than loading a saved
 * copy. Thread: any. */
bool twophase_tables_were_built(void);

/* The module tables of the engine, for the 3x3x3's named_tables:
 * writes at most max definitions to out, returns how many there are (1).
 */
int twophase_table_defs(tables_blob_def_t *out, int max);

#endif
