/* SPDX-License-Identifier: MIT */
/* engines_testlib.h - the toy puzzles and the engine runner shared by the
 * engine tests (test_engines.c, test_engines_weighted.c,
 * test_engines_limits.c). */
#ifndef PZ_TESTS_ENGINES_TESTLIB_H
#define PZ_TESTS_ENGINES_TESTLIB_H

/*
 * The engines are tested on toy puzzles defined here, so the tests do not
 * depend on the real puzzle files: a pancake stack (flip a prefix; optimal
 * lengths from a brute-force BFS over all n! stacks, checked against the
 * published pancake number), a grid walk with walls (illegal moves and an
 * unreachable pocket; BFS distances), and a 3-D torus walk whose moves
 * commute, with a redundancy rule that prunes out-of-order moves (optimal
 * length from a closed formula). Every solution is also replayed by
 * engine_run itself. Functions are static inline so each test file uses
 * what it needs.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "budget.h"
#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "search.h"
#include "testlib.h"

/* ---------------------------------------------------------------- toys -- */

/* Fills p as puzzle_create would: move masks from inverse and redundant. */
static inline void
toy_setup(pz_puzzle_t *p,
          const puzzle_ops_t *ops,
          size_t state_size,
          int nmoves,
          void *priv)
{
    uint64_t all = (UINT64_C(1) << nmoves) - 1;

    memset(p, 0, sizeof(*p));
    p->ops = ops;
    snprintf(p->id, sizeof(p->id), "%s", ops->name);
    p->metric_name = "moves";
    p->state_size = state_size;
    p->nmoves = nmoves;
    p->priv = priv;
    for (int prev = 0; prev < nmoves; prev++) {
        uint64_t mask = all & ~(UINT64_C(1) << ops->inverse(p, prev));

        for (int next = 0; ops->redundant != NULL && next < nmoves; next++) {
            if (ops->redundant(p, prev, next)) {
                mask &= ~(UINT64_C(1) << next);
            }
        }
        p->allowed_after[prev] = mask;
    }
    p->allowed_after[nmoves] = all;
}

static const char *const move_names[] = {
    "m0", "m1", "m2",  "m3",  "m4",  "m5",  "m6",  "m7",
    "m8", "m9", "m10", "m11", "m12", "m13", "m14", "m15",
};

static const char *
toy_move_name(const pz_puzzle_t *p, int move)
{
    (void)p;
    return move_names[move];
}

/* Pancakes: state b[0..n) is a permutation of 0..n-1 (top first); move k
 * flips the top k + 2 pancakes. Every move is its own inverse. */
typedef struct pancake {
    int n;
} pancake_t;

static inline int
pk_n(const pz_puzzle_t *p)
{
    return ((const pancake_t *)p->priv)->n;
}

static inline void
pk_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    for (int i = 0; i < pk_n(p); i++) {
        out->b[i] = (uint8_t)i;
    }
}

static inline bool
pk_apply(const pz_puzzle_t *p, const pz_state_t *s, int move, pz_state_t *out)
{
    int len = move + 2;

    (void)p;
    if (out != s) {
        *out = *s;
    }
    for (int i = 0; i < len / 2; i++) {
        uint8_t t = out->b[i];

        out->b[i] = out->b[len - 1 - i];
        out->b[len - 1 - i] = t;
    }
    return true;
}

static inline int
pk_inverse(const pz_puzzle_t *p, int move)
{
    (void)p;
    return move;
}

static const puzzle_ops_t pancake_ops = {
    .name = "pancake",
    .goal = pk_goal,
    .apply = pk_apply,
    .inverse = pk_inverse,
    .move_name = toy_move_name,
};

/* 1 when the pancakes at positions i and i + 1 (the plate, value n, below
 * the last) are not neighbours in size. */
static inline int
pk_gap_at(const pz_state_t *s, int n, int i)
{
    int a = s->b[i];
    int b = i + 1 < n ? s->b[i + 1] : n;

    return abs(a - b) != 1;
}

/* Gap heuristic (goal: identity): a flip changes one adjacency, so it
 * removes at most one gap; admissible and consistent. */
static inline int
gap_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    int n = pk_n(p);
    int h = 0;

    (void)ctx;
    for (int i = 0; i < n; i++) {
        h += pk_gap_at(s, n, i);
    }
    return h;
}

static inline int
gap_update(const pz_puzzle_t *p,
           const void *ctx,
           const pz_state_t *parent,
           int h_parent,
           int move,
           const pz_state_t *child)
{
    int n = pk_n(p);
    int i = move + 1;

    (void)ctx;
    return h_parent - pk_gap_at(parent, n, i) + pk_gap_at(child, n, i);
}

static const heuristic_ops_t gap_ops = {
    .name = "gap",
    .admissible = true,
    .eval = gap_eval,
    .update = gap_update,
};

/* Three times the gap count: overestimates, so not admissible. */
static inline int
gap3_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    return 3 * gap_eval(p, ctx, s);
}

static const heuristic_ops_t gap3_ops = {
    .name = "gap3",
    .admissible = false,
    .eval = gap3_eval,
};

/* Lexicographic rank of the permutation b[0..n). */
static uint32_t
pk_rank(const pz_state_t *s, int n)
{
    uint32_t r = 0;

    for (int i = 0; i < n; i++) {
        int smaller = 0;

        for (int j = i + 1; j < n; j++) {
            smaller += s->b[j] < s->b[i];
        }
        r = r * (uint32_t)(n - i) + (uint32_t)smaller;
    }
    return r;
}

static uint32_t
factorial(int n)
{
    return n <= 1 ? 1 : (uint32_t)n * factorial(n - 1);
}

/* Distance to the identity of every stack of p, indexed by pk_rank. Flips
 * are self-inverse, so a BFS from the identity gives distances to it.
 * Returns malloc'ed n! bytes. */
static uint8_t *
pk_bfs(const pz_puzzle_t *p)
{
    int n = pk_n(p);
    uint32_t total = factorial(n);
    uint8_t *dist = malloc(total);
    pz_state_t *queue = malloc(total * sizeof(pz_state_t));
    uint32_t head = 0;
    uint32_t tail = 0;

    ck_assert_ptr_nonnull(dist);
    ck_assert_ptr_nonnull(queue);
    memset(dist, 0xff, total);
    state_clear(&queue[0]);
    pk_goal(p, &queue[tail++]);
    dist[pk_rank(&queue[0], n)] = 0;
    while (head < tail) {
        pz_state_t s = queue[head++];
        int d = dist[pk_rank(&s, n)];

        for (int m = 0; m < n - 1; m++) {
            pz_state_t t;
            uint32_t r;

            pk_apply(p, &s, m, &t);
            r = pk_rank(&t, n);
            if (dist[r] == 0xff) {
                dist[r] = (uint8_t)(d + 1);
                queue[tail++] = t;
            }
        }
    }
    ck_assert_uint_eq(tail, total);
    free(queue);
    return dist;
}

/* Exact distance for a third of the stacks, 0 for the rest: admissible
 * but wildly inconsistent, which exercises A*'s reopening. */
typedef struct patchy {
    const uint8_t *dist;
} patchy_t;

static inline int
patchy_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const patchy_t *c = ctx;
    uint32_t r = pk_rank(s, pk_n(p));

    return r % 3 == 0 ? c->dist[r] : 0;
}

static const heuristic_ops_t patchy_ops = {
    .name = "patchy",
    .admissible = true,
    .eval = patchy_eval,
};

static inline void
pk_random(const pz_puzzle_t *p, pz_rng_t *rng, pz_state_t *out)
{
    int n = pk_n(p);

    state_clear(out);
    pk_goal(p, out);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)pz_rand_below(pz_rng_next, rng, (uint64_t)i + 1);
        uint8_t t = out->b[i];

        out->b[i] = out->b[j];
        out->b[j] = t;
    }
}

/* Grid walk: state (x, y) on a walled map; moves up, down, left, right.
 * A move into a wall or off the map is illegal. The pocket at the bottom
 * right is sealed off from the rest. */
#define GRID_W 9
#define GRID_H 9

static const char *const grid_map[GRID_H] = {
    ".........", //
    ".###.##..", //
    "...#...#.", //
    "##.#.#.#.", //
    "...#.#...", //
    ".###.####", //
    ".....#...", //
    "####.#.##", //
    ".......#.", //
};

static inline bool
grid_open(int x, int y)
{
    return x >= 0 && y >= 0 && x < GRID_W && y < GRID_H &&
           grid_map[y][x] != '#';
}

static inline void
grid_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    (void)p;
    out->b[0] = 0;
    out->b[1] = 0;
}

static const int grid_dx[4] = { 0, 0, -1, 1 };
static const int grid_dy[4] = { -1, 1, 0, 0 };

static inline bool
grid_apply(const pz_puzzle_t *p, const pz_state_t *s, int move, pz_state_t *out)
{
    int x = s->b[0] + grid_dx[move];
    int y = s->b[1] + grid_dy[move];

    (void)p;
    if (!grid_open(x, y)) {
        return false;
    }
    if (out != s) {
        *out = *s;
    }
    out->b[0] = (uint8_t)x;
    out->b[1] = (uint8_t)y;
    return true;
}

static inline int
pair_inverse(const pz_puzzle_t *p, int move)
{
    (void)p;
    return move ^ 1;
}

static const puzzle_ops_t grid_ops = {
    .name = "grid",
    .goal = grid_goal,
    .apply = grid_apply,
    .inverse = pair_inverse,
    .move_name = toy_move_name,
};

/* Manhattan distance to the goal cell in ctx: admissible, consistent. */
static inline int
grid_manhattan(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const pz_state_t *goal = ctx;

    (void)p;
    return abs(s->b[0] - goal->b[0]) + abs(s->b[1] - goal->b[1]);
}

static const heuristic_ops_t grid_manhattan_ops = {
    .name = "manhattan",
    .admissible = true,
    .eval = grid_manhattan,
};

/* BFS distance between two cells, -1 when unreachable. */
static inline int
grid_distance(int x0, int y0, int x1, int y1)
{
    int dist[GRID_H][GRID_W];
    int queue[GRID_W * GRID_H][2];
    int head = 0;
    int tail = 0;

    memset(dist, 0xff, sizeof(dist));
    dist[y0][x0] = 0;
    queue[tail][0] = x0;
    queue[tail++][1] = y0;
    while (head < tail) {
        int x = queue[head][0];
        int y = queue[head++][1];

        for (int m = 0; m < 4; m++) {
            int nx = x + grid_dx[m];
            int ny = y + grid_dy[m];

            if (grid_open(nx, ny) && dist[ny][nx] < 0) {
                dist[ny][nx] = dist[y][x] + 1;
                queue[tail][0] = nx;
                queue[tail++][1] = ny;
            }
        }
    }
    return dist[y1][x1];
}

/* Torus walk: (x, y, z) modulo (5, 7, 4); moves +x -x +y -y +z -z. All
 * moves commute, so a move on a lower axis after a higher one is
 * redundant; the pruned search must still be optimal. */
static const int torus_size[3] = { 5, 7, 4 };

static inline void
torus_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    (void)p;
    memset(out->b, 0, 3);
}

static inline bool
torus_apply(const pz_puzzle_t *p,
            const pz_state_t *s,
            int move,
            pz_state_t *out)
{
    int axis = move / 2;
    int n = torus_size[axis];

    (void)p;
    if (out != s) {
        *out = *s;
    }
    out->b[axis] = (uint8_t)((s->b[axis] + (move & 1 ? n - 1 : 1)) % n);
    return true;
}

static inline bool
torus_redundant(const pz_puzzle_t *p, int prev, int next)
{
    (void)p;
    return next / 2 < prev / 2;
}

static const puzzle_ops_t torus_ops = {
    .name = "torus",
    .goal = torus_goal,
    .apply = torus_apply,
    .inverse = pair_inverse,
    .redundant = torus_redundant,
    .move_name = toy_move_name,
};

/* Optimal length: per axis, the shorter way round. */
static inline int
torus_distance(const pz_state_t *a, const pz_state_t *b)
{
    int sum = 0;

    for (int axis = 0; axis < 3; axis++) {
        int n = torus_size[axis];
        int d = ((b->b[axis] - a->b[axis]) % n + n) % n;

        sum += d < n - d ? d : n - d;
    }
    return sum;
}

/* Exact distance to the goal in ctx, as a heuristic. */
static inline int
torus_exact(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    (void)p;
    return torus_distance(s, ctx);
}

static const heuristic_ops_t torus_exact_ops = {
    .name = "exact",
    .admissible = true,
    .eval = torus_exact,
};

/* ------------------------------------------------------------- running -- */

/* One search request. Zero fields mean: weight 1, no limits, no cancel. */
typedef struct job {
    const char *engine;
    const engine_ops_t *ops; /* NULL: the registry's engine of that name */
    const pz_puzzle_t *puzzle;
    const pz_heuristic_t *heuristic; /* NULL: h = 0 */
    const pz_state_t *start;
    const pz_state_t *goal;
    double weight;
    pz_limits_t limits;
    const atomic_bool *cancel;
    int threads; /* 0: 1 */
    int target;  /* anytime: stop at <= target moves; 0: none */
} job_t;

/* Runs j through engine_run with a fresh budget and stats, checks that
 * the engine returned all its memory, and returns engine_run's code. */
static inline int
run_job(const job_t *j, pz_solution_t *sol, pz_stats_view_t *view)
{
    const engine_ops_t *e = j->ops != NULL ? j->ops : engine_find(j->engine);
    pz_budget_t budget;
    pz_stats_t stats;
    search_ctx_t ctx;
    int rc;

    ck_assert_ptr_nonnull(e);
    budget_init(&budget, j->limits.memory_bytes);
    stats_init(&stats);
    memset(&ctx, 0, sizeof(ctx));
    ctx.puzzle = j->puzzle;
    ctx.heuristic = j->heuristic;
    ctx.start = *j->start;
    ctx.goal = *j->goal;
    ctx.weight = j->weight != 0 ? j->weight : 1.0;
    ctx.threads = j->threads > 0 ? j->threads : 1;
    ctx.limits = j->limits;
    ctx.budget = &budget;
    ctx.stats = &stats;
    ctx.cancel = j->cancel;
    ctx.target_length = j->target;
    rc = engine_run(e, &ctx, sol);
    stats_read(&stats, view);
    ck_assert_msg(atomic_load(&budget.used) == 0, "%s kept %zu budget bytes",
                  j->engine, (size_t)atomic_load(&budget.used));
    return rc;
}

/* Runs j and asserts a proven-optimal answer of exactly want moves. */
static inline void
expect_optimal(const job_t *j, int want, int case_no)
{
    pz_solution_t sol;
    pz_stats_view_t view;
    int rc = run_job(j, &sol, &view);

    ck_assert_msg(rc == PZ_OK, "%s case %d: rc %d", j->engine, case_no, rc);
    ck_assert_msg(sol.status == PZ_STATUS_SOLVED, "%s case %d: status %s",
                  j->engine, case_no, pz_status_name(sol.status));
    ck_assert_msg(sol.length == want, "%s case %d: length %d, optimum %d",
                  j->engine, case_no, sol.length, want);
    ck_assert_msg(sol.optimal, "%s case %d: not marked optimal", j->engine,
                  case_no);
}

/* Runs j and returns the terminal status, asserting rc is PZ_OK. */
static inline int
run_status(const job_t *j, pz_stats_view_t *view)
{
    pz_solution_t sol;
    int rc = run_job(j, &sol, view);

    ck_assert_msg(rc == PZ_OK, "%s: rc %d", j->engine, rc);
    ck_assert_msg(pz_status_terminal(sol.status), "%s: status %d", j->engine,
                  sol.status);
    if (sol.status != PZ_STATUS_SOLVED) {
        ck_assert_int_eq(sol.length, -1);
    }
    return sol.status;
}

static pancake_t pk8_cfg = { 8 };

/* The general engines, for tests that run each. */
static const char *const all_engines[] = { "astar", "wastar", "bibfs",
                                           "idastar", "aida" };
#define N_ALL_ENGINES ((int)(sizeof(all_engines) / sizeof(all_engines[0])))

/* A heuristic object bound to p with ctx (borrowed). */
static inline pz_heuristic_t
heur_bind(const heuristic_ops_t *ops, const pz_puzzle_t *p, const void *ctx)
{
    pz_heuristic_t h = { ops, p, (void *)ctx };

    return h;
}

#endif
