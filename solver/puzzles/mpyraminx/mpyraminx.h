/* SPDX-License-Identifier: MIT */
/* mpyraminx.h - the Master Pyraminx's pattern databases, for the table
 * catalogue, tests and benchmarks. */
#ifndef PZ_SOLVER_MPYRAMINX_H
#define PZ_SOLVER_MPYRAMINX_H

#include <stdint.h>

#include "engine.h"
#include "search.h"
#include "tables.h"

/* The pattern databases, as mpyraminx_pdb_build numbers them. */
enum {
    MPYRAMINX_PDB_WINGS = 0, /* the 12 wings: 239,500,800 entries */
    MPYRAMINX_PDB_TAM = 1,   /* tips, axials, midges: 75,582,720 */
    MPYRAMINX_PDB_ACM = 2,   /* axials, centres, midges: 11,197,440 */
    MPYRAMINX_PDB_WC = 3,    /* wings, centres: 2,874,009,600 */
    MPYRAMINX_PDB_TACM = 4,  /* tips, axials, centres, midges: 906,992,640 */
    MPYRAMINX_PDB_COUNT = 5,
};

/* Table provider for the puzzle's named_tables: writes at most max
 * definitions to out and returns how many there are. Thread: any. */
int mpyraminx_table_defs(tables_blob_def_t *out, int max);

/* The name of the table the phase solver reads (the axials, centres and
 * midges database) in names[0] when max > 0; returns 1. Thread: any. */
int mpyraminx_acm_table(const char **names, int max);

/* Bytes of table (4 bits per entry), 0 for an unknown table. */
uint64_t mpyraminx_pdb_bytes(int table);

/*
 * Builds table into data (mpyraminx_pdb_bytes(table) bytes, borrowed),
 * without the table cache: for tests and benchmarks. counts (may be NULL,
 * else 16 entries) gets the number of entries at each stored distance.
 * Returns PZ_OK, PZ_EINVAL (wrong size) or PZ_ENOMEM. Thread: any.
 */
int
mpyraminx_pdb_build(int table, uint8_t *data, uint64_t bytes, uint64_t *counts);

/*
 * The fast method (mpyraminx_phases.c): tips, axials, centres and midges
 * by the axials-centres-midges table, then the wings by 3-cycle macros.
 * Not optimal; any legal start and goal. An engine's solve: sets
 * out->status (and the moves when solved), publishes ctx->stats, honours
 * the deadline, cancel and node limit, and replays its answer. Returns
 * PZ_OK, or PZ_EINTERNAL when ctx is not a master-pyraminx search or the
 * answer fails its replay. Thread: any (the macro table and the table
 * are built once per process).
 */
int mpyraminx_phases_solve(const search_ctx_t *ctx, pz_solution_t *out);

/* mpyraminx_phases_solve as one of the puzzle's solvers ("twophase"). */
extern const engine_ops_t mpyraminx_phases_engine;

/*
 * Writes to moves (at least 10 bytes) the macro that carries the wing in
 * slot a to slot b, b to c and c to a (slots 0..11, all different) and
 * moves nothing else; returns its length or PZ_EINVAL. Thread: any.
 */
int mpyraminx_phases_macro(int a, int b, int c, uint8_t *moves);

#endif
