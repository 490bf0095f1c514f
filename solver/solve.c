/* SPDX-License-Identifier: MIT */
/* solve.c - runs one engine of a job under its limits and checks it. */
#include "solve.h"

#include <stdio.h>

#include "complete.h"
#include "engines/twophase/twophase.h"
#include "puzzles/cube3/pdb.h"
#include "puzzles/mpyraminx.h"
#include "puzzles/tiles_pdb.h"

void
solve_run_init(solve_run_t *run,
               const engine_ops_t *e,
               const char *heuristic,
               double weight)
{
    run->engine = e;
    run->heuristic = heuristic != NULL ? heuristic : "none";
    run->weight = weight >= 1.0 ? weight : 1.0;
    stats_init(&run->stats);
    solution_clear(&run->solution);
    run->rc = PZ_OK;
}

int
solve_tables(const solve_spec_t *spec,
             const solve_run_t *run,
             const char **names,
             int max)
{
    const heuristic_ops_t *h = NULL;
    int n = 0;
    int k;

    if (run->engine->tables != NULL) {
        n = run->engine->tables(spec->puzzle, &spec->goal, names, max);
    }
    if (run->engine->uses_heuristic) {
        h = heuristic_find(spec->puzzle, run->heuristic);
    }
    if (h != NULL && h->tables != NULL) {
        k = h->tables(spec->puzzle, &spec->goal, names + (n < max ? n : max),
                      n < max ? max - n : 0);
        n += k > 0 ? k : 0;
    }
    return n;
}

int
solve_execute(const solve_spec_t *spec,
              solve_run_t *run,
              const atomic_bool *cancel)
{
    pz_heuristic_t *h = NULL;
    pz_budget_t budget;
    search_ctx_t ctx = { 0 };
    pz_diag_t d;
    int rc;

    budget_init(&budget, spec->limits.memory_bytes);
    rc = heuristic_create(spec->puzzle, run->heuristic, &spec->goal, &h, &d);
    if (rc != PZ_OK) {
        run->solution.status = PZ_STATUS_FAILED;
        goto out;
    }
    ctx.puzzle = spec->puzzle;
    ctx.heuristic = h;
    ctx.start = spec->start;
    ctx.goal = spec->goal;
    ctx.weight = run->weight;
    ctx.target_length = spec->target_length;
    ctx.threads = spec->threads;
    ctx.limits = spec->limits;
    ctx.budget = &budget;
    ctx.stats = &run->stats;
    ctx.cancel = cancel;
    rc = engine_run(run->engine, &ctx, &run->solution);
    if (rc == PZ_OK && atomic_load(&budget.used) != 0) {
        /* The engine kept search memory past its return: a bug. */
        run->solution.status = PZ_STATUS_FAILED;
        rc = PZ_EINTERNAL;
    }
out:
    if (atomic_load(&run->stats.end_ns) == 0) {
        atomic_store(&run->stats.end_ns, pz_now_ns());
    }
    heuristic_destroy(h);
    run->rc = rc;
    return rc;
}

/* --- The named tables ---------------------------------------------------- */

/* Adds the complete table of puzzle name (params) to out. */
static void
add_complete(const char *group,
             const char *name,
             const pz_params_t *prm,
             tables_def_t *out,
             int *n,
             int max)
{
    pz_puzzle_t *p = NULL;

    if (*n < max && puzzle_create(name, prm, &p, NULL) == PZ_OK &&
        complete_def(p, &out[*n]) == PZ_OK) {
        snprintf(out[*n].group, sizeof(out[*n].group), "%s", group);
        (*n)++;
    }
    puzzle_destroy(p);
}

/* Adds the module tables a provider lists. */
static void
add_blobs(int (*provider)(tables_blob_def_t *, int),
          tables_def_t *out,
          int *n,
          int max)
{
    tables_blob_def_t defs[SOLVE_NAMED_MAX];
    int k = provider(defs, SOLVE_NAMED_MAX);

    for (int i = 0; i < k && i < SOLVE_NAMED_MAX && *n < max; i++) {
        if (tables_def_of_blob(&defs[i], &out[*n])) {
            (*n)++;
        }
    }
}

int
solve_named_tables(tables_def_t *out, int max)
{
    static const pz_params_t board3 = { 3, 3, 0 };
    static const pz_params_t htm = { 0, 0, PZ_METRIC_HTM };
    static const pz_params_t qtm = { 0, 0, PZ_METRIC_QTM };
    static const pz_params_t plain = { 0, 0, 0 };
    int n = 0;
    int k;

    add_complete("8-puzzle", "tiles", &board3, out, &n, max);
    add_complete("2x2x2", "2x2x2", &htm, out, &n, max);
    add_complete("2x2x2", "2x2x2", &qtm, out, &n, max);
    add_complete("pyraminx", "pyraminx", &plain, out, &n, max);
    add_complete("skewb", "skewb", &plain, out, &n, max);
    k = tiles_pdb_defs(4, 4, 15, out + n, max - n);
    n += k > 0 ? k : 0;
    k = tiles_pdb_defs(5, 5, 24, out + n, max - n);
    n += k > 0 ? k : 0;
    add_blobs(cube3_pdb_table_defs, out, &n, max);
    add_blobs(twophase_table_defs, out, &n, max);
    add_blobs(mpyraminx_table_defs, out, &n, max);
    return n;
}

void
solve_register_tables(void)
{
    tables_set_named(solve_named_tables);
}
