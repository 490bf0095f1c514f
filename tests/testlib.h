/* SPDX-License-Identifier: MIT */
/* testlib.h - puzzles, states and solves for the solver tests, asserted. */
#ifndef PZ_TESTS_TESTLIB_H
#define PZ_TESTS_TESTLIB_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <check.h>

#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "solve.h"

/* Every function is static inline so each test file uses what it needs. */

/* Creates puzzle name (or an alias) with rows, cols and metric (zero:
 * the default of the name); fails the test with the diagnostic when it
 * cannot. */
static inline pz_puzzle_t *
tl_make(const char *name, int rows, int cols, int metric)
{
    pz_params_t prm = { rows, cols, metric };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_msg(puzzle_create(name, &prm, &p, &d) == PZ_OK, "%s: %s", name,
                  d.detail);
    ck_assert_ptr_nonnull(p);
    return p;
}

/* Parses text as a state of p (d cleared first, may be NULL); returns the
 * code. */
static inline int
tl_parse_text(const pz_puzzle_t *p,
              const char *text,
              pz_state_t *out,
              pz_diag_t *d)
{
    pz_input_t in = { text, NULL, 0, 1, { 0, 0, 0 } };

    pz_diag_clear(d);
    return puzzle_parse_state(p, &in, out, d);
}

/* Parses the flat list v[0..n) as a state of p (d cleared first, may be
 * NULL); returns the code. */
static inline int
tl_parse_ints(const pz_puzzle_t *p,
              const int *v,
              size_t n,
              pz_state_t *out,
              pz_diag_t *d)
{
    pz_input_t in = { NULL, v, n, 1, { (int)n, 0, 0 } };

    pz_diag_clear(d);
    return puzzle_parse_state(p, &in, out, d);
}

/* The state text stands for; fails the test when it is refused. */
static inline pz_state_t
tl_parsed(const pz_puzzle_t *p, const char *text)
{
    pz_state_t s;
    pz_diag_t d;

    ck_assert_msg(tl_parse_text(p, text, &s, &d) == PZ_OK, "'%s': %s", text,
                  d.detail);
    return s;
}

/* The state the scramble text makes of p's goal; fails the test when it is
 * refused. */
static inline pz_state_t
tl_scrambled(const pz_puzzle_t *p, const char *text)
{
    pz_state_t s;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_msg(puzzle_parse_scramble(p, text, &s, &d) == PZ_OK,
                  "scramble '%s': %s", text, d.detail);
    return s;
}

/* A state n random moves (no redundant pair) from start. */
static inline void
tl_scramble(const pz_puzzle_t *p,
            const pz_state_t *start,
            int n,
            pz_rng_t *rng,
            pz_state_t *out)
{
    uint8_t mv[PZ_SOLUTION_MAX];

    ck_assert_int_eq(puzzle_random_moves(p, start, n, pz_rng_next, rng, mv),
                     PZ_OK);
    ck_assert_int_eq(puzzle_replay(p, start, mv, n, out), PZ_OK);
}

/* A uniformly random state of p (which must offer random_state). */
static inline pz_state_t
tl_random_state(const pz_puzzle_t *p, pz_rng_t *rng)
{
    pz_state_t s;

    ck_assert(puzzle_has_random_state(p));
    ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, rng, &s), PZ_OK);
    return s;
}

/* Heuristic name of p for goal; fails the test when it cannot be made. */
static inline pz_heuristic_t *
tl_heuristic(const pz_puzzle_t *p, const char *name, const pz_state_t *goal)
{
    pz_heuristic_t *h = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_msg(heuristic_create(p, name, goal, &h, &d) == PZ_OK, "%s: %s",
                  name, d.detail);
    return h;
}

/* As tl_heuristic, for a heuristic that must say it is admissible. */
static inline pz_heuristic_t *
tl_admissible(const pz_puzzle_t *p, const char *name, const pz_state_t *goal)
{
    pz_heuristic_t *h = tl_heuristic(p, name, goal);

    ck_assert_msg(heuristic_admissible(h), "%s is not admissible", name);
    return h;
}

/* A solve spec for p from start to goal (NULL: p's goal) on one thread,
 * with limits no test means to reach: ten minutes and 512 MiB. */
static inline solve_spec_t
tl_spec(const pz_puzzle_t *p, const pz_state_t *start, const pz_state_t *goal)
{
    solve_spec_t spec;

    memset(&spec, 0, sizeof(spec));
    spec.puzzle = p;
    spec.start = *start;
    if (goal != NULL) {
        spec.goal = *goal;
    } else {
        puzzle_goal(p, &spec.goal);
    }
    spec.limits.time_ms = 600000;
    spec.limits.memory_bytes = (size_t)512 << 20;
    spec.threads = 1;
    return spec;
}

/* Runs engine (one of the puzzle's own solvers or a generic engine) with
 * heuristic and weight on spec into *run, as a job would (solve_execute),
 * and returns run->rc. The run may end in any status. */
static inline int
tl_run(const solve_spec_t *spec,
       const char *engine,
       const char *heuristic,
       double weight,
       const atomic_bool *cancel,
       solve_run_t *run)
{
    const engine_ops_t *e = engine_find_for(spec->puzzle, engine);

    ck_assert_msg(e != NULL, "no engine '%s' for %s", engine, spec->puzzle->id);
    solve_run_init(run, e, heuristic, weight);
    return solve_execute(spec, run, cancel);
}

/* Runs engine with heuristic and weight on spec, fails the test unless it
 * solves it with moves that replay from the start to the goal, and
 * returns the solution (and the run's statistics in *view, if not NULL). */
static inline pz_solution_t
tl_solve_spec(const solve_spec_t *spec,
              const char *engine,
              const char *heuristic,
              double weight,
              pz_stats_view_t *view)
{
    solve_run_t run;
    pz_state_t end;

    ck_assert_int_eq(tl_run(spec, engine, heuristic, weight, NULL, &run),
                     PZ_OK);
    ck_assert_msg(run.solution.status == PZ_STATUS_SOLVED, "%s: %s", engine,
                  pz_status_name(run.solution.status));
    ck_assert_int_eq(puzzle_replay(spec->puzzle, &spec->start,
                                   run.solution.moves, run.solution.length,
                                   &end),
                     PZ_OK);
    ck_assert_msg(puzzle_is_goal(spec->puzzle, &end, &spec->goal),
                  "%s: the solution does not reach the goal", engine);
    if (view != NULL) {
        stats_read(&run.stats, view);
    }
    return run.solution;
}

/* Solves start to goal (NULL: p's goal) with engine and heuristic on
 * threads threads, as tl_solve_spec. */
static inline pz_solution_t
tl_solve(const pz_puzzle_t *p,
         const pz_state_t *start,
         const pz_state_t *goal,
         const char *engine,
         const char *heuristic,
         int threads,
         pz_stats_view_t *view)
{
    solve_spec_t spec = tl_spec(p, start, goal);

    spec.threads = threads;
    return tl_solve_spec(&spec, engine, heuristic, 1.0, view);
}

/* Solves start to goal (NULL: p's goal) with engine, heuristic and weight
 * (wastar's; the optimal flag needs 1) on one thread, as tl_solve_spec. */
static inline pz_solution_t
tl_solve_weighted(const pz_puzzle_t *p,
                  const pz_state_t *start,
                  const pz_state_t *goal,
                  const char *engine,
                  const char *heuristic,
                  double weight)
{
    solve_spec_t spec = tl_spec(p, start, goal);

    return tl_solve_spec(&spec, engine, heuristic, weight, NULL);
}

#endif
