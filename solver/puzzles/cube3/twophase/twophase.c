/* SPDX-License-Identifier: MIT */
/* twophase.c - Kociemba's two-phase engine for the 3x3x3: entry and tables. */
#include "twophase.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"
#include "twophase_internal.h"

/*
 * Design: the engine solves x = goal^-1 * start, the cube whose solution
 * takes start to goal, so any goal works with tables made for the solved
 * cube. x is searched in six orientations: conjugated by the rotation
 * ROT_URF3^a (a = 0, 1, 2: each face axis in turn plays the U-D axis of
 * phase 1) and inverted or not (a solution of x^-1, reversed and
 * inverted, solves x). Each orientation has its own phase-1 distance, and
 * near-optimal solutions are usually much easier to find in one of them.
 * With one thread the orientations take turns a few expansions at a time;
 * with ctx->threads > 1 up to six threads share them round robin, with one
 * shared best length that prunes everyone's search.
 *
 * The search is anytime: every solution shorter than the best so far is
 * kept and published (stats->best_length); it returns when the best is at
 * most ctx->target_length (if not 0), when no shorter solution can come
 * from any phase-1 length left, or at a limit, where a found solution
 * still makes the status solved. A cancelled search reports cancelled.
 *
 * QTM: the tables and moves stay those of the half-turn metric; a half
 * turn costs 2 in every length and bound, and is written out as two
 * quarter turns of the puzzle instance.
 */

/* Longest phase 2 tried after each phase-1 path (metric units). In HTM 20
 * is no real cap: caps of 12 and 16 measured the same. In QTM the first
 * answers come from the half-turn seeding pass, and 17 measured best
 * against 14, 21 and 26 (an answer within 10 ms for the most cubes). */
#define PHASE2_CAP_HTM 20
#define PHASE2_CAP_QTM 17

static pthread_once_t trit_once = PTHREAD_ONCE_INIT;
static atomic_size_t tables_bytes;
static atomic_uint_fast64_t tables_load_us;
static atomic_bool tables_built;

static void
build_axes(twophase_tables_t *t)
{
    for (int a = 0; a < 3; a++) {
        int inv = cube3_sym_inverse(16 * a);

        cube3_sym_cubie(16 * a, &t->axis[a]);
        cube3_sym_cubie(inv, &t->axis_inv[a]);
        for (int m = 0; m < TWOPHASE_NMOVES; m++) {
            t->axis_move_back[a][m] = (uint8_t)cube3_sym_move(inv, m);
        }
    }
}

/* PZ_ECANCELLED once build b (may be NULL) is cancelled, else PZ_OK:
 * checked between the steps that do not check it themselves (each a
 * fraction of a second). */
static int
check_cancel(const tables_build_t *b)
{
    return b != NULL && tables_build_cancelled(b) ? PZ_ECANCELLED : PZ_OK;
}

int
twophase__build_all(twophase_tables_t *t, tables_build_t *b)
{
    int rc;

    twophase__build_moves(t);
    build_axes(t);
    rc = twophase__build_syms(t);
    if (rc == PZ_OK) {
        rc = twophase__build_near(t);
    }
    if (rc == PZ_OK) {
        rc = check_cancel(b);
    }
    /* The two big tables, on b's workers, report the progress. */
    if (rc == PZ_OK) {
        rc = twophase__build_prune1(t, b);
    }
    if (rc == PZ_OK) {
        rc = twophase__build_prune2(t, b);
    }
    if (rc == PZ_OK) {
        twophase__build_corner_slice(t);
        twophase__build_tuples(t);
        rc = check_cancel(b);
    }
    return rc;
}

/* The blob's build function: data is zeroed and 2 MiB aligned. */
static int
build_blob(void *arg, uint8_t *data, uint64_t bytes, tables_build_t *b)
{
    (void)arg;
    if (bytes != TWOPHASE_BLOB_BYTES) {
        return PZ_EINVAL;
    }
    return twophase__build_all((twophase_tables_t *)(void *)data, b);
}

static void
blob_def(tables_blob_def_t *def)
{
    memset(def, 0, sizeof(*def));
    def->name = TWOPHASE_BLOB_NAME;
    def->group = "3x3x3";
    def->puzzle = "3x3x3 htm two-phase";
    def->bytes = TWOPHASE_BLOB_BYTES;
    def->version = TWOPHASE_BLOB_VERSION;
    /* Small enough (about 100 MiB) to have ready before the first job. */
    def->startup = true;
    /* The search reads the pruning tables at random. */
    def->huge = true;
    def->build = build_blob;
    def->arg = NULL;
}

int
twophase_table_defs(tables_blob_def_t *out, int max)
{
    if (max > 0) {
        blob_def(&out[0]);
    }
    return 1;
}

uint64_t twophase__trit6[729];

static void
build_trits(void)
{
    for (uint32_t v = 0; v < 729; v++) {
        uint32_t x = v;
        uint64_t mask = 0;

        for (int k = 0; k < 6; k++) {
            if (x % 3 == 0) {
                mask |= (uint64_t)1 << k;
            } else if (x % 3 == 1) {
                mask |= (uint64_t)1 << (32 + k);
            }
            x /= 3;
        }
        twophase__trit6[v] = mask;
    }
}

/* The tables from the tables module, the one cache of them (loaded or
 * built there, or refused: PZ_ETABLE_MISSING on a daemon's solver thread
 * before they are ready, PZ_ETABLES_MEMORY). Once they are in memory this
 * is a lookup by name. */
static int
get_tables(const twophase_tables_t **out)
{
    uint64_t start = pz_now_ns();
    tables_blob_def_t def;
    const uint8_t *data = NULL;
    bool built = false;
    int rc;

    pthread_once(&trit_once, build_trits);
    blob_def(&def);
    rc = tables_blob_get(&def, &data, &built);
    *out = (const twophase_tables_t *)(const void *)data;
    if (rc == PZ_OK && atomic_load(&tables_bytes) == 0) {
        atomic_store(&tables_built, built);
        atomic_store(&tables_load_us, (pz_now_ns() - start) / 1000);
        atomic_store(&tables_bytes, (size_t)TWOPHASE_BLOB_BYTES);
    }
    return rc;
}

const twophase_tables_t *
twophase__tables(void)
{
    const twophase_tables_t *t = NULL;

    return get_tables(&t) == PZ_OK ? t : NULL;
}

int
twophase_tables_init(void)
{
    const twophase_tables_t *t = NULL;

    return get_tables(&t);
}

size_t
twophase_table_bytes(void)
{
    return atomic_load(&tables_bytes);
}

double
twophase_table_build_ms(void)
{
    return (double)atomic_load(&tables_load_us) / 1e3;
}

bool
twophase_tables_were_built(void)
{
    return atomic_load(&tables_built);
}

void
twophase__oriented(const twophase_shared_t *sh, int o, cube3_cubie_t *out)
{
    int a = o % 3;

    if (o >= 3) {
        cube3_cubie_inverse(&sh->cube, out);
    } else {
        *out = sh->cube;
    }
    if (a != 0) {
        cube3_cubie_multiply(&sh->t->axis[a], out, out);
        cube3_cubie_multiply(out, &sh->t->axis_inv[a], out);
    }
}

/* Writes the best solution in the puzzle's move ids into out (room for
 * twice its moves): HTM ids as they are, or for QTM each half turn as two
 * clockwise quarter turns. Returns the length. */
static int
puzzle_moves(const twophase_shared_t *sh, uint8_t *out)
{
    int len = 0;

    for (int i = 0; i < sh->nmoves; i++) {
        int m = sh->moves[i];
        int face = m / 3;

        if (!sh->qtm) {
            out[len++] = (uint8_t)m;
        } else if (m % 3 == 1) {
            out[len++] = (uint8_t)(2 * face);
            out[len++] = (uint8_t)(2 * face);
        } else {
            out[len++] = (uint8_t)(2 * face + m % 3 / 2);
        }
    }
    return len;
}

static int
inverse_move(int m)
{
    return m / 3 * 3 + 2 - m % 3;
}

void
twophase__record(twophase_worker_t *w, const uint8_t *moves, int n, int length)
{
    twophase_shared_t *sh = w->sh;
    int o = w->cur->o;
    int a = o % 3;

    /* The search counted with its own costs; the answer is measured in
     * the puzzle's metric (they differ in the QTM seeding pass). */
    length = 0;
    for (int i = 0; i < n; i++) {
        length += sh->real_cost[moves[i]];
    }
    pthread_mutex_lock(&sh->lock);
    if (sh->seeding) {
        int zero = 0;

        atomic_compare_exchange_strong(&sh->stop, &zero, TWOPHASE_SEEDED);
    }
    if (length < atomic_load(&sh->best)) {
        /* Back to the frame of x: undo the axis change move by move, then
         * for an inverse orientation reverse and invert the sequence. */
        for (int i = 0; i < n; i++) {
            int m = sh->t->axis_move_back[a][moves[i]];

            if (o >= 3) {
                sh->moves[n - 1 - i] = (uint8_t)inverse_move(m);
            } else {
                sh->moves[i] = (uint8_t)m;
            }
        }
        sh->nmoves = n;
        sh->found = 1;
        atomic_store(&sh->best, length);
        if (sh->ctx->stats != NULL || sh->ctx->solutions != NULL) {
            uint8_t best[4 * TWOPHASE_DEPTH_MAX];
            int nbest = puzzle_moves(sh, best);

            if (sh->ctx->stats != NULL) {
                atomic_store(&sh->ctx->stats->best_length, length);
                stats_publish_best(sh->ctx->stats, best, nbest);
            }
            /* Several solutions: the last ones it improved through. */
            if (sh->ctx->solutions != NULL) {
                solutions_push_latest(sh->ctx->solutions, best, nbest);
            }
        }
        if (sh->target > 0 && length <= sh->target) {
            int zero = 0;

            atomic_compare_exchange_strong(&sh->stop, &zero, PZ_STATUS_SOLVED);
        }
    }
    pthread_mutex_unlock(&sh->lock);
}

static void *
worker_main(void *arg)
{
    twophase__run_worker(arg);
    return NULL;
}

/* Runs n workers, the calling thread being the first. */
static void
run_workers(twophase_worker_t *w, int n)
{
    pthread_t tid[TWOPHASE_NORIENT];
    bool started[TWOPHASE_NORIENT] = { false };

    for (int i = 1; i < n; i++) {
        started[i] = pthread_create(&tid[i], NULL, worker_main, &w[i]) == 0;
    }
    twophase__run_worker(&w[0]);
    for (int i = 1; i < n; i++) {
        if (started[i]) {
            pthread_join(tid[i], NULL);
        } else {
            /* No thread: its orientations run here, after the others. */
            twophase__run_worker(&w[i]);
        }
    }
}

/* Publishes the final node counts of every worker. */
static void
publish_totals(const search_ctx_t *ctx, const twophase_worker_t *w, int n)
{
    uint64_t expanded = 0;
    uint64_t generated = 0;

    for (int i = 0; i < n; i++) {
        expanded += w[i].meter.expanded;
        generated += w[i].meter.generated;
    }
    if (ctx->stats != NULL) {
        atomic_store(&ctx->stats->nodes_expanded, expanded);
        atomic_store(&ctx->stats->nodes_generated, generated);
    }
}

static void
write_solution(const twophase_shared_t *sh, pz_solution_t *out)
{
    int len = puzzle_moves(sh, out->moves);

    out->length = len;
}

/* The 8 positions (0..19, edges from 8) move m changes, as (position,
 * position its piece comes from) pairs: see TWOPHASE_NPERM. */
static void
move_cycles(int m, uint8_t *out)
{
    const cube3_cubie_t *c = cube3_move_cubie(m);
    int k = 0;

    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        if (c->cp[i] != i && k < 16) {
            out[k++] = (uint8_t)i;
            out[k++] = c->cp[i];
        }
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        if (c->ep[i] != i && k < 16) {
            out[k++] = (uint8_t)(CUBE3_NCORNERS + i);
            out[k++] = (uint8_t)(CUBE3_NCORNERS + c->ep[i]);
        }
    }
}

static void
shared_init(twophase_shared_t *sh,
            const search_ctx_t *ctx,
            const twophase_tables_t *t,
            const cube3_cubie_t *x)
{
    int limit = ctx->limits.max_depth;

    sh->t = t;
    sh->ctx = ctx;
    sh->qtm = ctx->puzzle->metric == PZ_METRIC_QTM;
    for (int m = 0; m < TWOPHASE_NMOVES; m++) {
        sh->real_cost[m] = (uint8_t)(sh->qtm && m % 3 == 1 ? 2 : 1);
        sh->cost[m] = sh->real_cost[m];
        move_cycles(m, sh->move_cyc[m]);
    }
    sh->seeding = false;
    sh->qtm_bounds = sh->qtm;
    sh->target = ctx->target_length > 0 ? ctx->target_length : 0;
    sh->phase2_cap = sh->qtm ? PHASE2_CAP_QTM : PHASE2_CAP_HTM;
    sh->threaded = false;
    sh->cube = *x;
    /* Only solutions shorter than best are kept: max_depth + 1 makes the
     * limit a bound, and the solution buffer bounds the rest. */
    atomic_init(&sh->best, limit > 0 && limit < 2 * TWOPHASE_DEPTH_MAX
                               ? limit + 1
                               : 2 * TWOPHASE_DEPTH_MAX);
    atomic_init(&sh->stop, 0);
    atomic_init(&sh->expanded, 0);
    atomic_init(&sh->generated, 0);
    sh->found = 0;
    sh->nmoves = 0;
    /* With a target, answers longer than it only matter when the target
     * is out of reach in the time given, and looking for them costs long
     * phase-2 searches at the first phase-1 end points (about a third of
     * the median solve at target 20). So they are not looked for at
     * first; at half the time budget, with no answer yet, they are.
     * Without a time limit a longer answer is never needed. QTM keeps
     * its seeding pass, which needs the first answer of any length. */
    sh->loose = atomic_load(&sh->best);
    sh->relax_ns = 0;
    atomic_init(&sh->relaxed, false);
    sh->strict = !sh->qtm && sh->target > 0 && sh->target + 1 < sh->loose;
    if (sh->strict) {
        atomic_store(&sh->best, sh->target + 1);
        if (ctx->deadline_ns != 0) {
            uint64_t now = pz_now_ns();

            sh->relax_ns = ctx->deadline_ns > now
                               ? now + (ctx->deadline_ns - now) / 2
                               : now;
        }
    }
}

static int
solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    const twophase_tables_t *t;
    twophase_shared_t sh;
    twophase_worker_t *w;
    cube3_cubie_t start;
    cube3_cubie_t goal;
    cube3_cubie_t x;
    int n = ctx->threads > TWOPHASE_NORIENT ? TWOPHASE_NORIENT
            : ctx->threads > 1              ? ctx->threads
                                            : 1;
    size_t wbytes = (size_t)n * sizeof(*w);
    search_ctx_t local;
    uint64_t waited;
    int stop;
    int rc;

    if (cube3_cubie_from_state(&ctx->start, &start) != PZ_OK ||
        cube3_cubie_from_state(&ctx->goal, &goal) != PZ_OK) {
        return PZ_EINTERNAL;
    }
    waited = pz_now_ns();
    /* PZ_ETABLES_MEMORY when the process may not hold them,
     * PZ_ETABLE_MISSING on a daemon's solver thread before they are
     * ready. */
    rc = get_tables(&t);
    if (rc != PZ_OK) {
        return rc;
    }
    /* A first job may have waited seconds for the shared table build;
     * that is not its search time, so its deadline moves by as much. */
    waited = pz_now_ns() - waited;
    local = *ctx;
    if (local.deadline_ns != 0 && waited > 1000000u) {
        local.deadline_ns += waited;
    }
    ctx = &local;
    if (ctx->cancel != NULL && atomic_load(ctx->cancel)) {
        out->status = PZ_STATUS_CANCELLED;
        return PZ_OK;
    }
    if (ctx->solutions != NULL) {
        solutions_reset(ctx->solutions);
    }
    w = budget_calloc(ctx->budget, wbytes);
    if (w == NULL) {
        out->status = PZ_STATUS_MEMORY_LIMIT;
        return PZ_OK;
    }
    /* start * moves = goal, so (goal^-1 * start) * moves = solved. */
    cube3_cubie_inverse(&goal, &goal);
    cube3_cubie_multiply(&goal, &start, &x);
    shared_init(&sh, ctx, t, &x);
    /* Orientations alike have one search; threads share out the others. */
    twophase__orient_distinct(&sh);
    if (n > sh.norient) {
        n = sh.norient;
    }
    sh.threaded = n > 1;
    pthread_mutex_init(&sh.lock, NULL);
    for (int i = 0; i < n; i++) {
        w[i].sh = &sh;
        w[i].first = i;
        w[i].step = n;
        search_meter_init(ctx, &w[i].meter);
        if (w[i].meter.next_poll > TWOPHASE_POLL) {
            w[i].meter.next_poll = TWOPHASE_POLL;
        }
    }
    if (sh.qtm) {
        /* QTM: the half-turn tables bound quarter-turn lengths loosely,
         * and a first answer can take long. A first pass that counts half
         * turns as one move finds one in well under a millisecond; its
         * quarter-turn length then bounds the real search. */
        memset(sh.cost, 1, sizeof(sh.cost));
        sh.seeding = true;
        sh.qtm_bounds = false;
        run_workers(w, n);
        sh.seeding = false;
        sh.qtm_bounds = true;
        memcpy(sh.cost, sh.real_cost, sizeof(sh.cost));
        if (atomic_load(&sh.stop) == TWOPHASE_SEEDED) {
            atomic_store(&sh.stop, 0);
        }
        if (sh.target > 0 && atomic_load(&sh.best) <= sh.target) {
            atomic_store(&sh.stop, PZ_STATUS_SOLVED);
        }
    }
    if (atomic_load(&sh.stop) == 0) {
        run_workers(w, n);
    }
    publish_totals(ctx, w, n);
    pthread_mutex_destroy(&sh.lock);
    budget_free(ctx->budget, w, wbytes);

    stop = atomic_load(&sh.stop);
    if (stop == PZ_STATUS_CANCELLED) {
        out->status = PZ_STATUS_CANCELLED;
    } else if (sh.found) {
        out->status = PZ_STATUS_SOLVED;
        write_solution(&sh, out);
        /* The answers it improved through, shortest first: the best it
         * found, not proven the shortest (complete stays false). */
        if (ctx->solutions != NULL) {
            solutions_reverse(ctx->solutions);
        }
    } else if (stop != 0 && stop != PZ_STATUS_SOLVED) {
        out->status = stop;
    } else {
        /* Every phase-1 length below the bound was searched. */
        out->status = PZ_STATUS_DEPTH_LIMIT;
    }
    return PZ_OK;
}

static int
twophase_tables(const pz_puzzle_t *p,
                const pz_state_t *goal,
                const char **names,
                int max)
{
    (void)p;
    (void)goal;
    if (max > 0) {
        names[0] = TWOPHASE_BLOB_NAME;
    }
    return 1;
}

const engine_ops_t cube3_twophase_engine = {
    .name = "twophase",
    .summary = "Kociemba's two-phase algorithm, near-optimal solutions in "
               "about a millisecond, improving while time allows, stops at "
               "target_length",
    .optimal = false,
    .uses_heuristic = false,
    .several = true,
    .threads = true,
    .solve = solve,
    .tables = twophase_tables,
};
