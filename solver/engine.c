/* SPDX-License-Identifier: MIT */
/* engine.c - engine registry, the "auto" choice and the checked runner. */
#include "engine.h"

#include <string.h>
#include <strings.h>

#include "complete.h"
#include "engine_internal.h"
#include "heuristic.h"
#include "tables.h"

static const engine_ops_t *const registry[] = {
    &engine__astar,   &engine__wastar, &engine__anytime, &engine__bibfs,
    &engine__idastar, &engine__aida,   &engine__table,   NULL,
};

const engine_ops_t *const *
engine_registry(void)
{
    return registry;
}

const engine_ops_t *
engine_find(const char *name)
{
    if (name == NULL) {
        return NULL;
    }
    for (int i = 0; registry[i] != NULL; i++) {
        if (strcasecmp(registry[i]->name, name) == 0) {
            return registry[i];
        }
    }
    return NULL;
}

const engine_ops_t *
engine_find_for(const pz_puzzle_t *p, const char *name)
{
    const engine_ops_t *const *own =
        p != NULL ? puzzle_solving(p)->solvers : NULL;

    if (name == NULL) {
        return NULL;
    }
    for (int i = 0; own != NULL && own[i] != NULL; i++) {
        if (strcasecmp(own[i]->name, name) == 0) {
            return own[i];
        }
    }
    return engine_find(name);
}

bool
engine_known(const char *name)
{
    const puzzle_ops_t *const *reg = puzzle_registry();

    if (engine_find(name) != NULL) {
        return true;
    }
    for (int i = 0; name != NULL && reg[i] != NULL; i++) {
        const engine_ops_t *const *own =
            reg[i]->solving != NULL ? reg[i]->solving->solvers : NULL;

        for (int k = 0; own != NULL && own[k] != NULL; k++) {
            if (strcasecmp(own[k]->name, name) == 0) {
                return true;
            }
        }
    }
    return false;
}

/* True when every table of heuristic name for goal is built (in memory
 * or in a file) and those not in memory fit under the tables' memory
 * cap. */
static bool
tables_present(const pz_puzzle_t *p, const char *name, const pz_state_t *goal)
{
    const heuristic_ops_t *h = heuristic_find(p, name);
    const char *names[8];
    uint64_t need = 0;
    size_t limit = tables_memory_limit();
    pz_state_t solved;
    int n;

    if (h == NULL || h->tables == NULL) {
        return false;
    }
    if (goal == NULL) {
        puzzle_goal(p, &solved);
        goal = &solved;
    }
    n = h->tables(p, goal, names, 8);
    if (n <= 0 || n > 8 || !tables_available(names, n, NULL)) {
        return false;
    }
    for (int i = 0; i < n; i++) {
        tables_status_t st;

        if (tables_status(names[i], &st) == PZ_OK && st.state != TABLES_READY) {
            need += st.bytes;
        }
    }
    return limit == 0 || need == 0 ||
           (tables_memory_bytes() <= limit &&
            need <= limit - tables_memory_bytes());
}

void
engine_auto(const pz_puzzle_t *p,
            const pz_state_t *goal,
            bool optimal,
            engine_choice_t *out)
{
    engine_auto_from(p, NULL, goal, optimal, out);
}

void
engine_auto_from(const pz_puzzle_t *p,
                 const pz_state_t *start,
                 const pz_state_t *goal,
                 bool optimal,
                 engine_choice_t *out)
{
    const puzzle_solving_t *sol = puzzle_solving(p);

    out->weight = 1.0;
    out->missing = NULL;
    /* A complete table answers optimally in microseconds: use it
     * whenever it serves this goal. */
    if (complete_shared(p, goal)) {
        out->engine = &engine__table;
        out->heuristic = "none";
        return;
    }
    if (sol->auto_choice != NULL && sol->auto_choice(p, goal, optimal, out)) {
        return;
    }
    /* Puzzles far too large for a breadth-first search beyond short
     * scrambles name their own choice: a fast engine for any position,
     * and the heuristic (pattern databases, built ahead of time with
     * `puzzled tables build`) that lets IDA* prove an optimum. */
    if (optimal && sol->optimal_heuristic != NULL) {
        out->engine = engine_find_for(p, "idastar");
        out->heuristic = sol->optimal_heuristic;
        for (int i = 0; sol->optimal_heuristics != NULL &&
                        sol->optimal_heuristics[i] != NULL;
             i++) {
            const char *name = sol->optimal_heuristics[i];

            if (tables_present(p, name, goal) &&
                (start == NULL || sol->optimal_suits == NULL ||
                 sol->optimal_suits(p, name, start, goal))) {
                out->heuristic = name;
                break;
            }
        }
        return;
    }
    if (!optimal && sol->fast_engine != NULL &&
        engine_find_for(p, sol->fast_engine) != NULL) {
        out->engine = engine_find_for(p, sol->fast_engine);
        out->heuristic = "none";
        return;
    }
    /* The rest: bidirectional BFS is optimal and, for spaces of a few
     * million states, faster than any heuristic search here. */
    out->engine = &engine__bibfs;
    out->heuristic = "none";
}

/* True when every move of sol is one that p allows (puzzle_restrict). */
static bool
within_subset(const pz_puzzle_t *p, const pz_solution_t *sol)
{
    for (int i = 0; i < sol->length && p->subset != 0; i++) {
        if (!(p->subset >> sol->moves[i] & 1)) {
            return false;
        }
    }
    return true;
}

/* Replays every kept solution of ctx->solutions: each reaches the goal
 * with allowed moves, none is shorter than the one before, and the first
 * is out's. */
static bool
solutions_replay(const search_ctx_t *ctx, const pz_solution_t *out)
{
    const pz_solutions_t *s = ctx->solutions;
    pz_solution_t one;
    pz_state_t end;

    if (s == NULL || s->kept == 0) {
        return true;
    }
    if (s->length[0] != out->length ||
        memcmp(solutions_moves(s, 0), out->moves, (size_t)out->length) != 0) {
        return false;
    }
    for (int i = 0; i < s->kept; i++) {
        one.length = s->length[i];
        memcpy(one.moves, solutions_moves(s, i), (size_t)one.length);
        if ((i > 0 && s->length[i] < s->length[i - 1]) ||
            puzzle_replay(ctx->puzzle, &ctx->start, one.moves, one.length,
                          &end) != PZ_OK ||
            !puzzle_is_goal(ctx->puzzle, &end, &ctx->goal) ||
            !within_subset(ctx->puzzle, &one)) {
            return false;
        }
    }
    return true;
}

int
engine_run(const engine_ops_t *e, search_ctx_t *ctx, pz_solution_t *out)
{
    pz_stats_t *st = ctx->stats;
    const heuristic_ops_t *hp =
        ctx->heuristic != NULL ? ctx->heuristic->ops : NULL;
    bool prepared_stop = false;
    uint64_t start = pz_now_ns();
    pz_state_t end;
    int rc;

    solution_clear(out);
    if (ctx->weight < 1.0) {
        ctx->weight = 1.0;
    }
    if (ctx->threads < 1) {
        ctx->threads = 1;
    }
    if (ctx->deadline_ns == 0 && ctx->limits.time_ms != 0) {
        ctx->deadline_ns = start + ctx->limits.time_ms * 1000000u;
    }
    if (st != NULL) {
        atomic_store(&st->start_ns, start);
    }
    /* A heuristic that builds its tables from the budget does it now,
     * under the search's limits. */
    rc = PZ_OK;
    if (hp != NULL && hp->prepare != NULL) {
        int status = hp->prepare(ctx->heuristic, ctx);

        if (status < 0) {
            rc = status;
        } else if (status != PZ_STATUS_RUNNING) {
            out->status = status;
            prepared_stop = true;
        }
    }
    if (st != NULL) {
        atomic_store(&st->heuristic_at_start,
                     heuristic_eval(ctx->heuristic, &ctx->start));
    }
    if (rc == PZ_OK && !prepared_stop) {
        rc = e->solve(ctx, out);
    }
    if (hp != NULL && hp->release != NULL) {
        hp->release(ctx->heuristic, ctx->budget);
    }
    /* A solution known before the search that is shorter than the
     * engine's answer is the answer (replayed below like any other). */
    if (rc == PZ_OK && out->status == PZ_STATUS_SOLVED &&
        ctx->known_length > 0 && ctx->known_length < out->length &&
        ctx->solutions == NULL && ctx->puzzle->subset == 0) {
        out->length = ctx->known_length;
        memcpy(out->moves, ctx->known, (size_t)ctx->known_length);
    }
    if (rc == PZ_OK && out->status == PZ_STATUS_SOLVED) {
        /* Every answer is replayed: an engine bug must never reach a
         * client as a wrong move list. */
        if (out->length < 0 || out->length > PZ_SOLUTION_MAX ||
            puzzle_replay(ctx->puzzle, &ctx->start, out->moves, out->length,
                          &end) != PZ_OK ||
            !puzzle_is_goal(ctx->puzzle, &end, &ctx->goal) ||
            !within_subset(ctx->puzzle, out) || !solutions_replay(ctx, out)) {
            out->status = PZ_STATUS_FAILED;
            out->length = -1;
            rc = PZ_EINTERNAL;
        } else {
            out->optimal =
                ((e->optimal && ctx->weight == 1.0) || out->proven) &&
                (!e->uses_heuristic || heuristic_admissible(ctx->heuristic));
        }
    } else if (rc != PZ_OK) {
        out->status = PZ_STATUS_FAILED;
        out->length = -1;
    }
    if (out->status != PZ_STATUS_SOLVED) {
        out->length = -1;
    }
    if (st != NULL) {
        if (ctx->budget != NULL) {
            atomic_store(&st->peak_memory, atomic_load(&ctx->budget->peak));
        }
        if (out->status == PZ_STATUS_SOLVED) {
            atomic_store(&st->best_length, out->length);
        }
        atomic_store(&st->end_ns, pz_now_ns());
    }
    return rc;
}
