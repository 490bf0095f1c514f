/* SPDX-License-Identifier: MIT */
/* solve.c - runs one engine of a job under its limits and checks it. */
#include "solve.h"

#include <stdio.h>

#include "complete.h"

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
    run->solutions = NULL;
}

bool
solve_instant(const solve_spec_t *spec, const solve_run_t *run)
{
    return run->engine->instant != NULL &&
           run->engine->instant(spec->puzzle, &spec->goal);
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
    ctx.known_length = spec->known_length;
    memcpy(ctx.known, spec->known, sizeof(ctx.known));
    ctx.threads = spec->threads;
    ctx.inverse_pruning_only = spec->inverse_pruning_only;
    ctx.frontier_nodes = spec->frontier_nodes;
    ctx.limits = spec->limits;
    ctx.budget = &budget;
    ctx.stats = &run->stats;
    ctx.cancel = cancel;
    ctx.solutions = run->engine->several ? run->solutions : NULL;
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

int
solve_named_tables(tables_def_t *out, int max)
{
    const puzzle_ops_t *const *reg = puzzle_registry();
    int n = 0;

    for (int i = 0; reg[i] != NULL && n < max; i++) {
        const puzzle_solving_t *sol = reg[i]->solving;

        if (sol != NULL && sol->named_tables != NULL) {
            int k = sol->named_tables(out + n, max - n);

            n += k > 0 ? k : 0;
        }
    }
    return n;
}

void
solve_register_tables(void)
{
    tables_set_named(solve_named_tables);
}
