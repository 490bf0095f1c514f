/* SPDX-License-Identifier: MIT */
/* test_engines.c - the search engines on small puzzles with known answers. */

/*
 * The engines are tested on toy puzzles defined here, so the tests do not
 * depend on the real puzzle files: a pancake stack (flip a prefix; optimal
 * lengths from a brute-force BFS over all n! stacks, checked against the
 * published pancake number), a grid walk with walls (illegal moves and an
 * unreachable pocket; BFS distances), and a 3-D torus walk whose moves
 * commute, with a redundancy rule that prunes out-of-order moves (optimal
 * length from a closed formula). Every solution is also replayed by
 * engine_run itself.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>

#include "budget.h"
#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "search.h"
#include "testlib.h"

/* ---------------------------------------------------------------- toys -- */

/* Fills p as puzzle_create would: move masks from inverse and redundant. */
static void
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

static int
pk_n(const pz_puzzle_t *p)
{
    return ((const pancake_t *)p->priv)->n;
}

static void
pk_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    for (int i = 0; i < pk_n(p); i++) {
        out->b[i] = (uint8_t)i;
    }
}

static bool
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

static int
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
static int
pk_gap_at(const pz_state_t *s, int n, int i)
{
    int a = s->b[i];
    int b = i + 1 < n ? s->b[i + 1] : n;

    return abs(a - b) != 1;
}

/* Gap heuristic (goal: identity): a flip changes one adjacency, so it
 * removes at most one gap; admissible and consistent. */
static int
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

static int
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
static int
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

static int
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

static void
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

static bool
grid_open(int x, int y)
{
    return x >= 0 && y >= 0 && x < GRID_W && y < GRID_H &&
           grid_map[y][x] != '#';
}

static void
grid_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    (void)p;
    out->b[0] = 0;
    out->b[1] = 0;
}

static const int grid_dx[4] = { 0, 0, -1, 1 };
static const int grid_dy[4] = { -1, 1, 0, 0 };

static bool
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

static int
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
static int
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
static int
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

static void
torus_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    (void)p;
    memset(out->b, 0, 3);
}

static bool
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

static bool
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
static int
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
static int
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
static int
run_job(const job_t *j, pz_solution_t *sol, pz_stats_view_t *view)
{
    const engine_ops_t *e = engine_find(j->engine);
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
static void
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
static int
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
static pancake_t pk16_cfg = { 16 };

/* A heuristic object bound to p with ctx (borrowed). */
static pz_heuristic_t
heur_bind(const heuristic_ops_t *ops, const pz_puzzle_t *p, const void *ctx)
{
    pz_heuristic_t h = { ops, p, (void *)ctx };

    return h;
}

/* --------------------------------------------------- optimality tests -- */

START_TEST(test_engines_bfs_pancake_number)
{
    pz_puzzle_t p;
    uint8_t *dist;
    int max = 0;

    /* The reference BFS itself: the 8-pancake number is 9 (OEIS A058986). */
    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    dist = pk_bfs(&p);
    for (uint32_t r = 0; r < factorial(8); r++) {
        max = dist[r] > max ? dist[r] : max;
    }
    ck_assert_int_eq(max, 9);
    free(dist);
}
END_TEST

START_TEST(test_engines_solve_pancake_matches_bfs)
{
    static const char *const engines[] = { "astar", "bibfs", "idastar" };
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 8);
    for (int c = 0; c < 40; c++) {
        pz_state_t s;
        int want;

        pk_random(&p, &rng, &s);
        want = dist[pk_rank(&s, 8)];
        for (int e = 0; e < 3; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal };

            expect_optimal(&j, want, c);
        }
    }
    free(dist);
}
END_TEST

START_TEST(test_engines_solve_pancake_blind_matches_bfs)
{
    static const char *const engines[] = { "astar", "bibfs" };
    pz_puzzle_t p;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    /* h = 0: A* degenerates to uniform-cost search; still optimal. */
    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 88);
    for (int c = 0; c < 10; c++) {
        pz_state_t s;

        pk_random(&p, &rng, &s);
        for (int e = 0; e < 2; e++) {
            job_t j = {
                .engine = engines[e], .puzzle = &p, .start = &s, .goal = &goal
            };

            expect_optimal(&j, dist[pk_rank(&s, 8)], c);
        }
    }
    free(dist);
}
END_TEST

START_TEST(test_engines_solve_pancake_hardest_matches_bfs)
{
    static const char *const engines[] = { "astar", "bibfs", "idastar" };
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_state_t s;
    uint8_t *dist;
    uint32_t r = 0;

    /* A stack at the pancake number, the deepest the space has. */
    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    while (dist[r] != 9) {
        r++;
    }
    /* Unrank r (factorial number system). */
    {
        int used[8] = { 0 };
        uint32_t rest = r;

        state_clear(&s);
        for (int i = 0; i < 8; i++) {
            uint32_t f = factorial(7 - i);
            int k = (int)(rest / f);

            rest %= f;
            for (int v = 0; v < 8; v++) {
                if (!used[v] && k-- == 0) {
                    s.b[i] = (uint8_t)v;
                    used[v] = 1;
                    break;
                }
            }
        }
    }
    ck_assert_uint_eq(pk_rank(&s, 8), r);
    for (int e = 0; e < 3; e++) {
        job_t j = { .engine = engines[e],
                    .puzzle = &p,
                    .heuristic = &gap,
                    .start = &s,
                    .goal = &goal };

        expect_optimal(&j, 9, 0);
    }
    free(dist);
}
END_TEST

START_TEST(test_engines_solve_inconsistent_heuristic_optimal)
{
    static const char *const engines[] = { "astar", "idastar" };
    pz_puzzle_t p;
    pz_heuristic_t patchy;
    patchy_t ctx;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    dist = pk_bfs(&p);
    ctx.dist = dist;
    patchy = heur_bind(&patchy_ops, &p, &ctx);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 3);
    for (int c = 0; c < 25; c++) {
        pz_state_t s;

        pk_random(&p, &rng, &s);
        for (int e = 0; e < 2; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = &p,
                        .heuristic = &patchy,
                        .start = &s,
                        .goal = &goal };

            expect_optimal(&j, dist[pk_rank(&s, 8)], c);
        }
    }
    free(dist);
}
END_TEST

START_TEST(test_engines_solve_grid_matches_bfs)
{
    static const char *const engines[] = { "astar", "bibfs", "idastar" };
    pz_puzzle_t p;
    int cases = 0;

    /* Every pair of open cells in the top-left component (stepping to keep
     * the test short), with illegal moves at every wall. */
    toy_setup(&p, &grid_ops, 2, 4, NULL);
    for (int a = 0; a < GRID_W * GRID_H; a += 2) {
        for (int b = 1; b < GRID_W * GRID_H; b += 5) {
            int want =
                grid_distance(a % GRID_W, a / GRID_W, b % GRID_W, b / GRID_W);
            pz_state_t s;
            pz_state_t g;
            pz_heuristic_t h;

            if (want < 0 || !grid_open(a % GRID_W, a / GRID_W)) {
                continue;
            }
            state_clear(&s);
            state_clear(&g);
            s.b[0] = (uint8_t)(a % GRID_W);
            s.b[1] = (uint8_t)(a / GRID_W);
            g.b[0] = (uint8_t)(b % GRID_W);
            g.b[1] = (uint8_t)(b / GRID_W);
            h = heur_bind(&grid_manhattan_ops, &p, &g);
            for (int e = 0; e < 3; e++) {
                job_t j = { .engine = engines[e],
                            .puzzle = &p,
                            .heuristic = &h,
                            .start = &s,
                            .goal = &g };

                expect_optimal(&j, want, cases);
            }
            cases++;
        }
    }
    ck_assert_int_gt(cases, 50);
}
END_TEST

START_TEST(test_engines_solve_grid_unreachable_is_proven)
{
    static const char *const engines[] = { "astar", "wastar", "bibfs" };
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t g;

    /* (8, 8) is walled in: no search can reach it from (0, 0). */
    toy_setup(&p, &grid_ops, 2, 4, NULL);
    ck_assert_int_lt(grid_distance(0, 0, 8, 8), 0);
    state_clear(&s);
    state_clear(&g);
    g.b[0] = 8;
    g.b[1] = 8;
    for (int e = 0; e < 3; e++) {
        pz_heuristic_t h = heur_bind(&grid_manhattan_ops, &p, &g);
        job_t j = { .engine = engines[e],
                    .puzzle = &p,
                    .heuristic = &h,
                    .start = &s,
                    .goal = &g,
                    .weight = 2.0 };
        pz_stats_view_t view;

        ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_UNREACHABLE);
    }
}
END_TEST

START_TEST(test_engines_solve_torus_pruned_matches_formula)
{
    static const char *const engines[] = { "astar", "bibfs", "idastar" };
    pz_puzzle_t p;
    pz_rng_t rng;

    toy_setup(&p, &torus_ops, 3, 6, NULL);
    /* The rule must actually prune: -x is not allowed after +y. */
    ck_assert(!(puzzle_allowed_after(&p, 2) & 2));
    pz_rng_seed(&rng, 5);
    for (int c = 0; c < 60; c++) {
        pz_state_t s;
        pz_state_t g;
        pz_heuristic_t exact;

        state_clear(&s);
        state_clear(&g);
        for (int axis = 0; axis < 3; axis++) {
            s.b[axis] = (uint8_t)pz_rand_below(pz_rng_next, &rng,
                                               (uint64_t)torus_size[axis]);
            g.b[axis] = (uint8_t)pz_rand_below(pz_rng_next, &rng,
                                               (uint64_t)torus_size[axis]);
        }
        exact = heur_bind(&torus_exact_ops, &p, &g);
        for (int e = 0; e < 3; e++) {
            job_t blind = {
                .engine = engines[e], .puzzle = &p, .start = &s, .goal = &g
            };
            job_t informed = blind;

            informed.heuristic = &exact;
            expect_optimal(&blind, torus_distance(&s, &g), c);
            expect_optimal(&informed, torus_distance(&s, &g), c);
        }
    }
}
END_TEST

START_TEST(test_engines_solve_start_is_goal_zero_moves)
{
    static const char *const engines[] = { "astar", "wastar", "bibfs",
                                           "idastar" };
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t s;
    pz_rng_t rng;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    pz_rng_seed(&rng, 11);
    pk_random(&p, &rng, &s);
    for (int e = 0; e < 4; e++) {
        /* A goal other than the identity too: h is not 0 there, yet the
         * engines must see that nothing needs doing. */
        pz_state_t id;
        job_t j = { .engine = engines[e],
                    .puzzle = &p,
                    .heuristic = &gap,
                    .start = &s,
                    .goal = &s,
                    .weight = 2.0 };
        pz_solution_t sol;
        pz_stats_view_t view;

        ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert_int_eq(sol.length, 0);
        puzzle_goal(&p, &id);
        j.start = &id;
        j.goal = &id;
        ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert_int_eq(sol.length, 0);
    }
}
END_TEST

/* ----------------------------------------------------- weighted tests -- */

START_TEST(test_engines_wastar_within_weight_bound)
{
    static const double weights[] = { 1.5, 2.0, 3.0, 5.0 };
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 21);
    for (int c = 0; c < 40; c++) {
        pz_state_t s;
        int opt;

        pk_random(&p, &rng, &s);
        opt = dist[pk_rank(&s, 8)];
        for (int w = 0; w < 4; w++) {
            job_t j = { .engine = "wastar",
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal,
                        .weight = weights[w] };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert_msg(sol.length >= opt &&
                              sol.length <= weights[w] * opt + 1e-9,
                          "case %d w %.1f: length %d, optimum %d", c,
                          weights[w], sol.length, opt);
            ck_assert(!sol.optimal);
        }
    }
    free(dist);
}
END_TEST

/* Anytime weighted A* without limits runs on until it proves its best
 * optimal: the breadth-first optimum, marked optimal, with the lower
 * bound at it. */
START_TEST(test_engines_anytime_ends_proven_optimal)
{
    static const double weights[] = { 1.0, 2.0, 3.0, 5.0 };
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 23);
    for (int c = 0; c < 30; c++) {
        pz_state_t s;
        int opt;

        pk_random(&p, &rng, &s);
        opt = dist[pk_rank(&s, 8)];
        for (int w = 0; w < 4; w++) {
            job_t j = { .engine = "anytime",
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal,
                        .weight = weights[w] };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert_msg(sol.length == opt && sol.optimal,
                          "case %d w %.1f: length %d optimal %d, optimum %d", c,
                          weights[w], sol.length, sol.optimal, opt);
            ck_assert_int_eq(view.lower_bound, opt);
            ck_assert_int_eq(view.best_length, opt);
        }
    }
    free(dist);
}
END_TEST

/* Cut short by a node limit, the anytime engine answers with its best so
 * far, not marked optimal, with a lower bound at most the optimum; before
 * its first answer the limit is the status. A target length ends it at
 * the first answer short enough. */
START_TEST(test_engines_anytime_limits_and_target)
{
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;
    int cut_short = 0;
    int before_first = 0;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 24);
    for (int c = 0; c < 30; c++) {
        pz_state_t s;
        int opt;

        pk_random(&p, &rng, &s);
        opt = dist[pk_rank(&s, 8)];
        for (uint64_t nodes = 1; nodes <= 64; nodes *= 2) {
            job_t j = { .engine = "anytime",
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal,
                        .weight = 5.0 };
            pz_solution_t sol;
            pz_stats_view_t view;

            j.limits.max_nodes = nodes;
            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            if (sol.status != PZ_STATUS_SOLVED) {
                ck_assert_int_eq(sol.status, PZ_STATUS_NODE_LIMIT);
                ck_assert_int_eq(view.best_length, -1);
                before_first++;
                continue;
            }
            ck_assert(sol.length >= opt);
            ck_assert(view.lower_bound >= 0 && view.lower_bound <= opt);
            if (sol.length > opt) {
                ck_assert(!sol.optimal);
                cut_short++;
            }
        }
        {
            job_t j = { .engine = "anytime",
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal,
                        .weight = 5.0,
                        .target = 2 * opt };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert(sol.length >= opt && sol.length <= 2 * opt);
        }
    }
    ck_assert_int_gt(cut_short, 0);
    ck_assert_int_gt(before_first, 0);
    free(dist);
}
END_TEST

/* The anytime engine shortens each answer: on 15-puzzles a walk of 300
 * moves from the goal, the first answer (the quick answer, shortened
 * before the search; the target makes it the result) is never longer
 * than the quick answer, shorter on half or more, replays onto the goal, and
 * has no stretch of the last length the shortening tried (16 moves, from
 * every eighth move) that bidirectional BFS can shorten. */
START_TEST(test_engines_anytime_shortens_its_answers)
{
    pz_puzzle_t *p = tl_make("tiles", 4, 4, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    pz_rng_t rng;
    int shorter = 0;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "manhattan", &goal, &h, NULL), PZ_OK);
    pz_rng_seed(&rng, 5);
    for (int c = 0; c < 8; c++) {
        static uint8_t quick[PZ_SOLUTION_MAX];
        job_t j = { .engine = "anytime",
                    .puzzle = p,
                    .heuristic = h,
                    .goal = &goal,
                    .weight = 3.0,
                    .target = PZ_SOLUTION_MAX };
        pz_state_t s;
        pz_state_t at;
        pz_solution_t sol;
        pz_stats_view_t view;
        int qlen;

        tl_scramble(p, &goal, 300, &rng, &s);
        qlen = puzzle_quick_solve(p, &s, &goal, quick, PZ_SOLUTION_MAX);
        ck_assert_int_gt(qlen, 0);
        j.start = &s;
        ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert_int_le(sol.length, qlen);
        shorter += sol.length < qlen;
        ck_assert_int_eq(puzzle_replay(p, &s, sol.moves, sol.length, &at),
                         PZ_OK);
        ck_assert(puzzle_is_goal(p, &at, &goal));
        for (int i = 0; i + 2 <= sol.length; i += 8) {
            int e = i + 16 < sol.length ? i + 16 : sol.length;
            job_t b = { .engine = "bibfs", .puzzle = p, .goal = &at };
            pz_state_t from;
            pz_state_t to;
            pz_solution_t part;

            puzzle_replay(p, &s, sol.moves, i, &from);
            puzzle_replay(p, &s, sol.moves, e, &to);
            b.start = &from;
            b.goal = &to;
            b.limits.max_depth = e - i - 1;
            ck_assert_int_eq(run_job(&b, &part, &view), PZ_OK);
            ck_assert_msg(part.status == PZ_STATUS_DEPTH_LIMIT,
                          "case %d: moves %d..%d shorten to %d", c, i, e,
                          part.length);
        }
    }
    ck_assert_int_ge(shorter, 4);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* Restarts: on 15-puzzles a walk of 60 moves from the goal, the anytime
 * engine with weight 5 and no limit restarts with lower weights until
 * its open list runs out, and then its answer is the optimum (IDA* with
 * Manhattan distance), marked optimal, with the lower bound equal; with
 * a node limit its lower bound is never above the optimum. */
START_TEST(test_engines_anytime_restarts_end_at_the_optimum)
{
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    pz_rng_t rng;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "manhattan", &goal, &h, NULL), PZ_OK);
    pz_rng_seed(&rng, 9);
    for (int c = 0; c < 6; c++) {
        job_t j = { .puzzle = p, .heuristic = h, .goal = &goal };
        pz_state_t s;
        pz_solution_t opt;
        pz_solution_t sol;
        pz_stats_view_t view;

        tl_scramble(p, &goal, 60, &rng, &s);
        j.start = &s;
        j.engine = "idastar";
        ck_assert_int_eq(run_job(&j, &opt, &view), PZ_OK);
        ck_assert(opt.optimal);
        j.engine = "anytime";
        j.weight = 5.0;
        ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert_msg(sol.length == opt.length && sol.optimal,
                      "case %d: %d moves (optimal %d), marked %d", c,
                      sol.length, opt.length, sol.optimal);
        ck_assert_int_eq(view.lower_bound, opt.length);
        /* Stopped after any number of expansions, before or after a
         * restart, the bound published is never above the optimum. */
        j.weight = 1.2; /* the bound rises above h before an answer */
        for (uint64_t n = 1; c == 0 && n <= 1000; n += 3) {
            j.limits.max_nodes = n;
            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_msg(view.lower_bound <= opt.length,
                          "case %d, %llu nodes: bound %d, optimum %d", c,
                          (unsigned long long)n, view.lower_bound, opt.length);
        }
        j.limits.max_nodes = 0;
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_engines_wastar_weight_one_is_optimal)
{
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    /* Weight 1 is plain A*: optimal answers; engine_run still does not
     * claim optimality for an engine registered as non-optimal. */
    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 22);
    for (int c = 0; c < 20; c++) {
        pz_state_t s;
        job_t j = { .engine = "wastar",
                    .puzzle = &p,
                    .heuristic = &gap,
                    .start = &s,
                    .goal = &goal,
                    .weight = 1.0 };
        pz_solution_t sol;
        pz_stats_view_t view;

        pk_random(&p, &rng, &s);
        ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
        ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
        ck_assert_int_eq(sol.length, dist[pk_rank(&s, 8)]);
        ck_assert(!sol.optimal);
    }
    free(dist);
}
END_TEST

START_TEST(test_engines_solve_inadmissible_not_marked_optimal)
{
    static const char *const engines[] = { "astar", "idastar" };
    pz_puzzle_t p;
    pz_heuristic_t gap3;
    pz_state_t goal;
    pz_rng_t rng;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap3 = heur_bind(&gap3_ops, &p, NULL);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 23);
    for (int c = 0; c < 10; c++) {
        pz_state_t s;

        pk_random(&p, &rng, &s);
        for (int e = 0; e < 2; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = &p,
                        .heuristic = &gap3,
                        .start = &s,
                        .goal = &goal };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert(!sol.optimal);
        }
    }
}
END_TEST

/* -------------------------------------------------------- limit tests -- */

/* A 16-pancake stack no engine solves blind within the small limits. */
static void
hard_case(pz_puzzle_t *p, pz_state_t *s, pz_state_t *goal)
{
    pz_rng_t rng;

    toy_setup(p, &pancake_ops, 16, 15, &pk16_cfg);
    pz_rng_seed(&rng, 16);
    pk_random(p, &rng, s);
    puzzle_goal(p, goal);
}

static const char *const all_engines[] = { "astar", "wastar", "bibfs",
                                           "idastar" };

START_TEST(test_engines_limits_memory_budget)
{
    static const char *const engines[] = { "astar", "wastar", "bibfs" };
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;

    hard_case(&p, &s, &goal);
    for (int e = 0; e < 3; e++) {
        job_t j = { .engine = engines[e],
                    .puzzle = &p,
                    .start = &s,
                    .goal = &goal,
                    .weight = 2.0 };
        pz_stats_view_t view;

        j.limits.memory_bytes = 64 * 1024;
        /* run_status -> run_job asserts the budget is back to 0. */
        ck_assert_str_eq(pz_status_name(run_status(&j, &view)), "memory_limit");
        ck_assert_uint_le(view.peak_memory, 64 * 1024);
    }
    {
        /* The process goes on: a normal budget solves the next search. */
        pz_puzzle_t p8;
        pz_heuristic_t gap;
        pz_state_t s8;
        pz_state_t g8;
        pz_rng_t rng;

        toy_setup(&p8, &pancake_ops, 8, 7, &pk8_cfg);
        gap = heur_bind(&gap_ops, &p8, NULL);
        pz_rng_seed(&rng, 1);
        pk_random(&p8, &rng, &s8);
        puzzle_goal(&p8, &g8);
        for (int e = 0; e < 3; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = &p8,
                        .heuristic = &gap,
                        .start = &s8,
                        .goal = &g8 };
            pz_stats_view_t view;

            j.limits.memory_bytes = 64u << 20;
            ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_SOLVED);
        }
    }
}
END_TEST

START_TEST(test_engines_limits_memory_idastar_tiny_budget)
{
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;
    job_t j = { .engine = "idastar", .puzzle = &p, .start = &s, .goal = &goal };
    pz_stats_view_t view;

    /* IDA* needs only a path of frames; 512 bytes cannot hold even that. */
    hard_case(&p, &s, &goal);
    j.limits.memory_bytes = 512;
    ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_MEMORY_LIMIT);
}
END_TEST

START_TEST(test_engines_limits_node_limit)
{
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;

    hard_case(&p, &s, &goal);
    for (int e = 0; e < 4; e++) {
        job_t j = { .engine = all_engines[e],
                    .puzzle = &p,
                    .start = &s,
                    .goal = &goal,
                    .weight = 2.0 };
        pz_stats_view_t view;

        j.limits.max_nodes = 1000;
        ck_assert_msg(run_status(&j, &view) == PZ_STATUS_NODE_LIMIT, "%s",
                      all_engines[e]);
        ck_assert_uint_ge(view.nodes_expanded, 900);
        ck_assert_uint_le(view.nodes_expanded, 1000 + 16);
    }
}
END_TEST

START_TEST(test_engines_limits_time_limit)
{
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;

    hard_case(&p, &s, &goal);
    for (int e = 0; e < 4; e++) {
        job_t j = { .engine = all_engines[e],
                    .puzzle = &p,
                    .start = &s,
                    .goal = &goal,
                    .weight = 2.0 };
        pz_stats_view_t view;

        j.limits.time_ms = 50;
        j.limits.memory_bytes = 512u << 20;
        ck_assert_msg(run_status(&j, &view) == PZ_STATUS_TIMEOUT, "%s",
                      all_engines[e]);
        /* Generous: sanitizer builds and a busy machine poll late; the
         * bound only tells a stop at the limit from no stop. */
        ck_assert_msg(view.elapsed_ms >= 49 && view.elapsed_ms <= 3000,
                      "%s: %.1f ms", all_engines[e], view.elapsed_ms);
    }
}
END_TEST

static void *
cancel_later(void *arg)
{
    struct timespec ts = { 0, 20 * 1000 * 1000 };

    nanosleep(&ts, NULL);
    atomic_store((atomic_bool *)arg, true);
    return NULL;
}

START_TEST(test_engines_limits_cancel_from_thread)
{
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;

    hard_case(&p, &s, &goal);
    for (int e = 0; e < 4; e++) {
        atomic_bool cancel;
        pthread_t t;
        job_t j = { .engine = all_engines[e],
                    .puzzle = &p,
                    .start = &s,
                    .goal = &goal,
                    .weight = 2.0,
                    .cancel = &cancel };
        pz_stats_view_t view;

        double t0;
        double waited;

        atomic_init(&cancel, false);
        j.limits.memory_bytes = 512u << 20;
        j.limits.time_ms = 5000; /* a safety net, never reached */
        t0 = (double)pz_now_ns() / 1e6;
        ck_assert_int_eq(pthread_create(&t, NULL, cancel_later, &cancel), 0);
        ck_assert_msg(run_status(&j, &view) == PZ_STATUS_CANCELLED, "%s",
                      all_engines[e]);
        waited = (double)pz_now_ns() / 1e6 - t0;
        ck_assert_int_eq(pthread_join(t, NULL), 0);
        /* Not before the cancel, which comes 20 ms after the thread
         * starts (the engine's own clock starts later, after its set-up,
         * so its elapsed time can be shorter on a busy machine); soon
         * after it. */
        ck_assert_msg(waited >= 19 && view.elapsed_ms <= 3000,
                      "%s: %.1f ms after the thread started, %.1f ms in the "
                      "engine",
                      all_engines[e], waited, view.elapsed_ms);
    }
}
END_TEST

START_TEST(test_engines_limits_depth_limit)
{
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 31);
    for (int c = 0; c < 8; c++) {
        pz_state_t s;
        int opt;

        pk_random(&p, &rng, &s);
        opt = dist[pk_rank(&s, 8)];
        for (int e = 0; e < 4; e++) {
            job_t j = { .engine = all_engines[e],
                        .puzzle = &p,
                        .heuristic = &gap,
                        .start = &s,
                        .goal = &goal,
                        .weight = 2.0 };
            pz_solution_t sol;
            pz_stats_view_t view;

            j.limits.max_depth = opt - 1;
            ck_assert_msg(run_status(&j, &view) == PZ_STATUS_DEPTH_LIMIT,
                          "%s case %d", all_engines[e], c);
            /* At the optimum itself every engine, even wastar, must
             * find the optimal answer. */
            j.limits.max_depth = opt;
            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert_int_eq(sol.length, opt);
        }
    }
    free(dist);
}
END_TEST

/* -------------------------------------------------------- stats tests -- */

START_TEST(test_engines_stats_published)
{
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_state_t s;
    pz_rng_t rng;
    uint8_t *dist;
    int opt;

    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 41);
    do {
        pk_random(&p, &rng, &s);
        opt = dist[pk_rank(&s, 8)];
    } while (opt < 7);
    for (int e = 0; e < 4; e++) {
        job_t j = { .engine = all_engines[e],
                    .puzzle = &p,
                    .heuristic = &gap,
                    .start = &s,
                    .goal = &goal };
        pz_stats_view_t view;

        ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_SOLVED);
        ck_assert_uint_gt(view.nodes_expanded, 0);
        ck_assert_uint_ge(view.nodes_generated, view.nodes_expanded);
        ck_assert_int_eq(view.heuristic_at_start, gap_eval(&p, NULL, &s));
        ck_assert_int_eq(view.best_length, opt);
        if (strcmp(all_engines[e], "idastar") == 0) {
            /* The last bound is the optimum; there was one iteration per
             * bound, starting from h(start). */
            ck_assert_int_eq(view.depth_bound, opt);
            ck_assert_int_ge(view.iterations, 1);
            ck_assert_int_le(view.iterations,
                             opt - view.heuristic_at_start + 1);
        }
        if (strcmp(all_engines[e], "bibfs") == 0) {
            ck_assert_uint_gt(view.frontier_fwd + view.frontier_bwd, 0);
            ck_assert_int_eq(view.depth_bound, opt - 1);
        }
    }
    free(dist);
}
END_TEST

/* ------------------------------------------------------ IDA* threads -- */

START_TEST(test_engines_idastar_threads_match_bfs)
{
    pz_puzzle_t p;
    pz_heuristic_t gap;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t *dist;

    /* Split searches must find the same optimal lengths. */
    toy_setup(&p, &pancake_ops, 8, 7, &pk8_cfg);
    gap = heur_bind(&gap_ops, &p, NULL);
    dist = pk_bfs(&p);
    puzzle_goal(&p, &goal);
    pz_rng_seed(&rng, 51);
    for (int c = 0; c < 30; c++) {
        pz_state_t s;
        job_t j = { .engine = "idastar",
                    .puzzle = &p,
                    .heuristic = &gap,
                    .start = &s,
                    .goal = &goal,
                    .threads = 2 + c % 3 };

        pk_random(&p, &rng, &s);
        expect_optimal(&j, dist[pk_rank(&s, 8)], c);
    }
    free(dist);
}
END_TEST

START_TEST(test_engines_idastar_threads_torus_and_grid)
{
    pz_puzzle_t torus;
    pz_puzzle_t grid;
    pz_rng_t rng;

    toy_setup(&torus, &torus_ops, 3, 6, NULL);
    toy_setup(&grid, &grid_ops, 2, 4, NULL);
    pz_rng_seed(&rng, 52);
    for (int c = 0; c < 30; c++) {
        pz_state_t s;
        pz_state_t g;
        job_t j = { .engine = "idastar",
                    .puzzle = &torus,
                    .start = &s,
                    .goal = &g,
                    .threads = 2 + c % 4 };

        state_clear(&s);
        state_clear(&g);
        for (int axis = 0; axis < 3; axis++) {
            s.b[axis] = (uint8_t)pz_rand_below(pz_rng_next, &rng,
                                               (uint64_t)torus_size[axis]);
        }
        expect_optimal(&j, torus_distance(&s, &g), c);
    }
    for (int c = 0; c < 20; c++) {
        pz_state_t s;
        pz_state_t g;
        pz_heuristic_t h;
        job_t j = { .engine = "idastar",
                    .puzzle = &grid,
                    .start = &s,
                    .goal = &g,
                    .heuristic = &h,
                    .threads = 2 };
        int want;

        state_clear(&s);
        state_clear(&g);
        do {
            s.b[0] = (uint8_t)pz_rand_below(pz_rng_next, &rng, GRID_W);
            s.b[1] = (uint8_t)pz_rand_below(pz_rng_next, &rng, GRID_H);
            want = grid_distance(s.b[0], s.b[1], 0, 0);
        } while (!grid_open(s.b[0], s.b[1]) || want < 0);
        h = heur_bind(&grid_manhattan_ops, &grid, &g);
        expect_optimal(&j, want, c);
    }
}
END_TEST

START_TEST(test_engines_idastar_threads_limits)
{
    pz_puzzle_t p;
    pz_state_t s;
    pz_state_t goal;
    job_t j = { .engine = "idastar",
                .puzzle = &p,
                .start = &s,
                .goal = &goal,
                .threads = 2 };
    pz_stats_view_t view;
    atomic_bool cancel;
    pthread_t t;

    hard_case(&p, &s, &goal);
    j.limits.max_nodes = 1000;
    ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_NODE_LIMIT);
    ck_assert_uint_ge(view.nodes_expanded, 1000);
    ck_assert_uint_le(view.nodes_expanded, 1000 + 16);

    j.limits.max_nodes = 0;
    j.limits.time_ms = 50;
    ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_TIMEOUT);
    ck_assert_msg(view.elapsed_ms >= 49 && view.elapsed_ms <= 3000, "%.1f ms",
                  view.elapsed_ms);

    j.limits.time_ms = 5000;
    j.cancel = &cancel;
    atomic_init(&cancel, false);
    ck_assert_int_eq(pthread_create(&t, NULL, cancel_later, &cancel), 0);
    ck_assert_int_eq(run_status(&j, &view), PZ_STATUS_CANCELLED);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    /* The engine's clock starts after its set-up, so only an upper
     * bound: soon after the cancel, long before the time limit. */
    ck_assert_msg(view.elapsed_ms <= 3000, "%.1f ms", view.elapsed_ms);
}
END_TEST

/* ------------------------------------------------------ real puzzles -- */

START_TEST(test_engines_solve_8puzzle_scrambles_agree)
{
    static const char *const engines[] = { "astar", "bibfs", "idastar" };
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);
    pz_heuristic_t *h;
    pz_state_t goal;
    pz_rng_t rng;

    /* God's number of the 8-puzzle is 31 (published): no optimal answer may
     * be longer. */
    puzzle_goal(p, &goal);
    h = tl_heuristic(p, "manhattan", &goal);
    pz_rng_seed(&rng, 9);
    for (int c = 0; c < 10; c++) {
        pz_state_t s;
        int len = -1;

        tl_scramble(p, &goal, 60, &rng, &s);
        for (int e = 0; e < 3; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = p,
                        .heuristic = h,
                        .start = &s,
                        .goal = &goal };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert(sol.optimal);
            ck_assert_int_le(sol.length, 31);
            if (len >= 0) {
                ck_assert_int_eq(sol.length, len);
            }
            len = sol.length;
        }
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* Solves n random scrambles of len moves of p with each engine, asserting
 * that they agree and stay within bound moves. Returns nothing: failures
 * abort the test. */
static void
cube_scrambles_agree(pz_puzzle_t *p,
                     const char *const *engines,
                     int nengines,
                     int len,
                     int bound)
{
    pz_heuristic_t *h;
    pz_state_t goal;
    pz_rng_t rng;

    puzzle_goal(p, &goal);
    h = tl_heuristic(p, "seed", &goal);
    pz_rng_seed(&rng, (uint64_t)len);
    for (int c = 0; c < 4; c++) {
        pz_state_t s;
        int first = -1;

        tl_scramble(p, &goal, len, &rng, &s);
        for (int e = 0; e < nengines; e++) {
            job_t j = { .engine = engines[e],
                        .puzzle = p,
                        .heuristic = h,
                        .start = &s,
                        .goal = &goal };
            pz_solution_t sol;
            pz_stats_view_t view;

            ck_assert_int_eq(run_job(&j, &sol, &view), PZ_OK);
            ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
            ck_assert(sol.optimal);
            ck_assert_int_le(sol.length, bound);
            if (first >= 0) {
                ck_assert_msg(sol.length == first, "%s: %d, %s: %d", engines[0],
                              first, engines[e], sol.length);
            }
            first = sol.length;
        }
    }
    heuristic_destroy(h);
}

START_TEST(test_engines_solve_2x2x2_engines_agree)
{
    static const char *const all3[] = { "bibfs", "astar", "idastar" };
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, 0);

    /* The 2x2x2's pruning drops same-face pairs (HTM) and U' U' (QTM), so
     * the engines' pruned searches are checked against each other; God's
     * numbers (published: 11 HTM, 14 QTM) bound every optimal answer. */
    cube_scrambles_agree(p, all3, 3, 7, 7);
    cube_scrambles_agree(p, all3, 3, 30, 11);
    puzzle_destroy(p);
    p = tl_make("2x2x2", 0, 0, PZ_METRIC_QTM);
    cube_scrambles_agree(p, all3, 3, 8, 8);
    cube_scrambles_agree(p, all3, 1, 40, 14);
    puzzle_destroy(p);
}
END_TEST

static Suite *
engines_suite(void)
{
    Suite *s = suite_create("engines");
    TCase *tc;

    tc = tcase_create("solve");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_engines_bfs_pancake_number);
    tcase_add_test(tc, test_engines_solve_pancake_matches_bfs);
    tcase_add_test(tc, test_engines_solve_pancake_blind_matches_bfs);
    tcase_add_test(tc, test_engines_solve_pancake_hardest_matches_bfs);
    tcase_add_test(tc, test_engines_solve_inconsistent_heuristic_optimal);
    tcase_add_test(tc, test_engines_solve_grid_matches_bfs);
    tcase_add_test(tc, test_engines_solve_grid_unreachable_is_proven);
    tcase_add_test(tc, test_engines_solve_torus_pruned_matches_formula);
    tcase_add_test(tc, test_engines_solve_start_is_goal_zero_moves);
    tcase_add_test(tc, test_engines_solve_inadmissible_not_marked_optimal);
    tcase_add_test(tc, test_engines_solve_8puzzle_scrambles_agree);
    tcase_add_test(tc, test_engines_solve_2x2x2_engines_agree);
    suite_add_tcase(s, tc);

    tc = tcase_create("wastar");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_engines_wastar_within_weight_bound);
    tcase_add_test(tc, test_engines_wastar_weight_one_is_optimal);
    tcase_add_test(tc, test_engines_anytime_ends_proven_optimal);
    tcase_add_test(tc, test_engines_anytime_limits_and_target);
    tcase_add_test(tc, test_engines_anytime_shortens_its_answers);
    tcase_add_test(tc, test_engines_anytime_restarts_end_at_the_optimum);
    suite_add_tcase(s, tc);

    tc = tcase_create("limits");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_engines_limits_memory_budget);
    tcase_add_test(tc, test_engines_limits_memory_idastar_tiny_budget);
    tcase_add_test(tc, test_engines_limits_node_limit);
    tcase_add_test(tc, test_engines_limits_time_limit);
    tcase_add_test(tc, test_engines_limits_cancel_from_thread);
    tcase_add_test(tc, test_engines_limits_depth_limit);
    suite_add_tcase(s, tc);

    tc = tcase_create("threads");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_engines_idastar_threads_match_bfs);
    tcase_add_test(tc, test_engines_idastar_threads_torus_and_grid);
    tcase_add_test(tc, test_engines_idastar_threads_limits);
    suite_add_tcase(s, tc);

    tc = tcase_create("stats");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_engines_stats_published);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(engines_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
