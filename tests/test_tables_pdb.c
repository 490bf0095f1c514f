/* SPDX-License-Identifier: MIT */
/* test_tables_pdb.c - the tiles pattern databases: small boards against
 * independent searches, and builds (the 15- and 24-puzzle's are
 * test_slow_tables_pdb.c's). */

/*
 * Golden facts: breadth-first searches written here, independently of
 * solver/tables/ and solver/puzzles/tiles/: a BFS over the 8-puzzle with
 * its own Lehmer-code index (tables_testlib.h), and a 0-1 BFS over each
 * pattern of the 3x3 board (pattern tiles and the blank; moving a pattern
 * tile costs 1, any other tile 0). Every test uses a temporary table
 * directory: one
 * shared by the tests that only read tables (made in main), and a fresh
 * one for each test that builds its own.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine.h"
#include "puzzles/tiles/tiles_pdb.h"
#include "puzzles/tiles/tiles_pdb_internal.h"
#include "solve.h"
#include "tables.h"
#include "tables_testlib.h"
#include "testlib.h"
#include "tmpdir_testlib.h"

/* --- pattern distances on the 3x3 board, by a 0-1 BFS ------------------- */

#define PAT_SIZE 4

/* Index of (positions of PAT_SIZE tiles, blank cell) in base 9. */
static int
pat_index(const int *pos, int blank)
{
    int idx = blank;

    for (int j = 0; j < PAT_SIZE; j++) {
        idx = idx * N9 + pos[j];
    }
    return idx;
}

#define PAT_STATES (N9 * N9 * N9 * N9 * N9)
#define PAT_PLACES (N9 * N9 * N9 * N9)

/*
 * Pattern distances for the tiles tiles[0..4) of the 3x3 board with goal
 * cells home[] and the blank's goal cell zg: a 0-1 BFS over (tile cells,
 * blank cell) where the blank swaps with a neighbour at cost 1 if it holds
 * a pattern tile and 0 otherwise; out[placement] is the least distance
 * over the blank cells (placement in base 9 without the blank).
 */
static void
pattern_bfs(const int *home, int zg, uint8_t *out)
{
    uint8_t *dist = malloc(PAT_STATES);
    int *dq = malloc(sizeof(int) * 2 * PAT_STATES);
    int head = PAT_STATES;
    int tail = PAT_STATES;

    ck_assert_ptr_nonnull(dist);
    ck_assert_ptr_nonnull(dq);
    memset(dist, UNSEEN8, PAT_STATES);
    memset(out, UNSEEN8, PAT_PLACES);
    dist[pat_index(home, zg)] = 0;
    dq[tail++] = pat_index(home, zg);
    while (head < tail) {
        int cur = dq[head++];
        int pos[PAT_SIZE];
        int v = cur;
        int blank;
        int nb[4];

        for (int j = PAT_SIZE - 1; j >= 0; j--) {
            pos[j] = v % N9;
            v /= N9;
        }
        blank = v;
        neighbours9(blank, nb);
        for (int k = 0; k < 4; k++) {
            int q = nb[k];
            int moved = -1;
            int cost;
            int idx;

            if (q < 0) {
                continue;
            }
            for (int j = 0; j < PAT_SIZE; j++) {
                if (pos[j] == q) {
                    moved = j;
                }
            }
            cost = moved >= 0;
            if (moved >= 0) {
                pos[moved] = blank;
            }
            idx = pat_index(pos, q);
            if (moved >= 0) {
                pos[moved] = q;
            }
            if (dist[idx] == UNSEEN8 || dist[idx] > dist[cur] + cost) {
                dist[idx] = (uint8_t)(dist[cur] + cost);
                if (cost == 0) {
                    dq[--head] = idx;
                } else {
                    dq[tail++] = idx;
                }
            }
        }
    }
    for (int i = 0; i < PAT_STATES; i++) {
        int place = i % PAT_PLACES;

        if (dist[i] < out[place]) {
            out[place] = dist[i];
        }
    }
    free(dist);
    free(dq);
}

/* Placement (base 9) of the tiles tiles[] on board b. */
static int
placement(const uint8_t *b, const int *tiles)
{
    int pos[PAT_SIZE];

    for (int j = 0; j < PAT_SIZE; j++) {
        for (int c = 0; c < N9; c++) {
            if (b[c] == tiles[j]) {
                pos[j] = c;
            }
        }
    }
    return pat_index(pos, 0) % PAT_PLACES;
}

/* --- pattern databases on the 3x3 board --------------------------------- */

/* The documented partition of the 3x3 board with the blank's goal in the
 * last cell: the non-blank cells in reading order, halved (tiles 1-4 and
 * 5-8), and its reflection about the main diagonal (tiles homed on cells
 * 0 1 3 6, i.e. 1 2 4 7, and the others 3 5 6 8). */
static const int part_tiles[4][PAT_SIZE] = {
    { 1, 2, 3, 4 },
    { 5, 6, 7, 8 },
    { 1, 2, 4, 7 },
    { 3, 5, 6, 8 },
};

START_TEST(test_tables_pdb_equals_pattern_bfs_on_3x3)
{
    static const uint8_t goal9[N9] = { 1, 2, 3, 4, 5, 6, 7, 8, 0 };
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);
    uint8_t *dist = bfs9(goal9);
    uint8_t *pat[4];
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    long over = 0;
    long differ = 0;
    long sum_h = 0;
    long sum_d = 0;

    for (int k = 0; k < 4; k++) {
        int home[PAT_SIZE];

        for (int j = 0; j < PAT_SIZE; j++) {
            home[j] = part_tiles[k][j] - 1;
        }
        pat[k] = malloc(PAT_PLACES);
        ck_assert_ptr_nonnull(pat[k]);
        pattern_bfs(home, 8, pat[k]);
    }
    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &h, NULL), PZ_OK);
    for (int i = 0; i < FACT9; i++) {
        uint8_t b[N9];
        pz_state_t s;
        int hv;
        int want;
        int sums[2];

        if (dist[i] == UNSEEN8) {
            continue;
        }
        unlehmer9(i, b);
        board_to_state(b, &s);
        hv = heuristic_eval(h, &s);
        for (int k = 0; k < 2; k++) {
            sums[k] = pat[2 * k][placement(b, part_tiles[2 * k])] +
                      pat[2 * k + 1][placement(b, part_tiles[2 * k + 1])];
        }
        want = sums[0] > sums[1] ? sums[0] : sums[1];
        differ += hv != want;
        over += hv > dist[i];
        sum_h += hv;
        sum_d += dist[i];
    }
    /* Additive: the sums of disjoint pattern distances, the larger of the
     * two partitions; admissible: never above the true distance. */
    ck_assert_int_eq(differ, 0);
    ck_assert_int_eq(over, 0);
    ck_assert(sum_h > sum_d * 3 / 4);
    heuristic_destroy(h);
    for (int k = 0; k < 4; k++) {
        free(pat[k]);
    }
    free(dist);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_pdb_admissible_for_a_blank_first_goal)
{
    static const uint8_t goal9[N9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);
    uint8_t *dist = bfs9(goal9);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    long over = 0;

    board_to_state(goal9, &goal);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &h, NULL), PZ_OK);
    for (int i = 0; i < FACT9; i++) {
        uint8_t b[N9];
        pz_state_t s;

        if (dist[i] == UNSEEN8) {
            continue;
        }
        unlehmer9(i, b);
        board_to_state(b, &s);
        over += heuristic_eval(h, &s) > dist[i];
        if (dist[i] == 0) {
            ck_assert_int_eq(heuristic_eval(h, &s), 0);
        }
    }
    ck_assert_int_eq(over, 0);
    heuristic_destroy(h);
    free(dist);
    puzzle_destroy(p);
}
END_TEST

/* Whether h's children op (every move, no limit) gives any child of s
 * (h value hs) another estimate than evaluating the child does. */
static bool
children_differ(const pz_puzzle_t *p,
                const pz_heuristic_t *h,
                const pz_state_t *s,
                int hs)
{
    uint64_t todo = (UINT64_C(1) << p->nmoves) - 1;
    int16_t out[PZ_MOVES_MAX];

    ck_assert(heuristic_has_children(h));
    heuristic_children(h, s, hs, todo, 1000, out);
    for (int m = 0; m < p->nmoves; m++) {
        pz_state_t c;

        if (puzzle_apply(p, s, m, &c) && out[m] != heuristic_eval(h, &c)) {
            return true;
        }
    }
    return false;
}

/* The dual lookups on every solvable 8-puzzle state, for goals with the
 * blank in a corner, on an edge and in the centre: never above the
 * breadth-first distance, never below "pdb", and above it on many
 * states (so the dual boards carry information the regular lookups do
 * not); the children ops of both give what evaluating each child
 * gives. */
START_TEST(test_tables_pdb_dual_admissible_on_3x3)
{
    static const uint8_t goals[3][N9] = {
        { 1, 2, 3, 4, 5, 6, 7, 8, 0 },
        { 1, 0, 2, 3, 4, 5, 6, 7, 8 },
        { 1, 2, 3, 4, 0, 5, 6, 7, 8 },
    };
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);

    for (int g = 0; g < 3; g++) {
        uint8_t *dist = bfs9(goals[g]);
        pz_heuristic_t *dual = NULL;
        pz_heuristic_t *pdb = NULL;
        pz_state_t goal;
        long over = 0;
        long below = 0;
        long raised = 0;
        long states = 0;
        long kids_wrong = 0;

        board_to_state(goals[g], &goal);
        ck_assert_int_eq(heuristic_create(p, "pdb-dual", &goal, &dual, NULL),
                         PZ_OK);
        ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &pdb, NULL), PZ_OK);
        for (int i = 0; i < FACT9; i++) {
            uint8_t b[N9];
            pz_state_t s;
            int hd;
            int hp;

            if (dist[i] == UNSEEN8) {
                continue;
            }
            unlehmer9(i, b);
            board_to_state(b, &s);
            hd = heuristic_eval(dual, &s);
            hp = heuristic_eval(pdb, &s);
            states++;
            kids_wrong += children_differ(p, pdb, &s, hp);
            kids_wrong += children_differ(p, dual, &s, hd);
            over += hd > dist[i];
            below += hd < hp;
            raised += hd > hp;
        }
        ck_assert_int_eq(states, FACT9 / 2);
        ck_assert_msg(over == 0, "goal %d: %ld states overestimated", g, over);
        ck_assert_int_eq(below, 0);
        ck_assert_int_eq(kids_wrong, 0);
        fprintf(stderr, "goal %d: %ld of %ld raised\n", g, raised, states);
        ck_assert_msg(raised > states / 40, "goal %d: %ld raised", g, raised);
        heuristic_destroy(dual);
        heuristic_destroy(pdb);
        free(dist);
    }
    puzzle_destroy(p);
}
END_TEST

/* Dual search on random 8-puzzle states for the three goals: every
 * answer optimal (the breadth-first distance; engine_run replays it, so
 * a path put together wrongly from the two sides fails), on one thread
 * and on two; and its node count differs from IDA*'s with the same
 * estimates, so it does jump. */
START_TEST(test_tables_dida_optimal_on_3x3)
{
    static const uint8_t goals[3][N9] = {
        { 1, 2, 3, 4, 5, 6, 7, 8, 0 },
        { 1, 0, 2, 3, 4, 5, 6, 7, 8 },
        { 1, 2, 3, 4, 0, 5, 6, 7, 8 },
    };
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);
    pz_rng_t rng;
    int bad = 0;
    uint64_t sum[2] = { 0, 0 }; /* on one thread: dida, idastar */

    pz_rng_seed(&rng, 57);
    for (int g = 0; g < 3; g++) {
        uint8_t *dist = bfs9(goals[g]);
        pz_state_t goal;
        int n = 0;

        board_to_state(goals[g], &goal);
        while (n < 150) {
            int i = (int)(pz_rng_next(&rng) % FACT9);
            uint8_t b[N9];
            pz_state_t s;
            solve_spec_t spec;
            solve_run_t a;
            solve_run_t r;
            pz_stats_view_t va;
            pz_stats_view_t vr;

            if (dist[i] == UNSEEN8) {
                continue;
            }
            n++;
            unlehmer9(i, b);
            board_to_state(b, &s);
            spec = tl_spec(p, &s, &goal);
            spec.threads = 1 + n % 2;
            ck_assert_int_eq(tl_run(&spec, "dida", "pdb-dual", 1.0, NULL, &a),
                             PZ_OK);
            spec.threads = 1;
            ck_assert_int_eq(
                tl_run(&spec, "idastar", "pdb-dual", 1.0, NULL, &r), PZ_OK);
            bad += a.solution.status != PZ_STATUS_SOLVED ||
                   !a.solution.optimal || a.solution.length != dist[i];
            stats_read(&a.stats, &va);
            stats_read(&r.stats, &vr);
            if (n % 2 == 0) {
                sum[0] += va.nodes_generated;
                sum[1] += vr.nodes_generated;
            }
        }
        free(dist);
    }
    ck_assert_int_eq(bad, 0);
    /* Without jumps the two searches would differ by a handful of nodes
     * (dida's roots are the start's children); the jumps change the
     * count by more than 5 % (about 18 % more here). */
    ck_assert_msg(sum[0] > sum[1] + sum[1] / 20 ||
                      sum[0] < sum[1] - sum[1] / 20,
                  "dida %llu, idastar %llu nodes", (unsigned long long)sum[0],
                  (unsigned long long)sum[1]);
    puzzle_destroy(p);
}
END_TEST

/* aida with dual lookups, an estimate that is not consistent (A* takes
 * nodes again when a shorter path to them appears): every answer of the
 * breadth-first length, with A*'s frontier capped at 30 and 3,000 nodes
 * and uncapped, on one thread and on two. */
START_TEST(test_tables_aida_optimal_with_dual_lookups_on_3x3)
{
    static const uint8_t goal_board[N9] = { 1, 2, 3, 4, 0, 5, 6, 7, 8 };
    static const uint32_t caps[] = { 30, 3000, 0 };
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);
    uint8_t *dist = bfs9(goal_board);
    pz_state_t goal;
    pz_rng_t rng;
    int bad = 0;
    int n = 0;

    pz_rng_seed(&rng, 58);
    board_to_state(goal_board, &goal);
    while (n < 150) {
        int i = (int)(pz_rng_next(&rng) % FACT9);
        uint8_t b[N9];
        pz_state_t s;
        solve_spec_t spec;
        solve_run_t a;

        if (dist[i] == UNSEEN8) {
            continue;
        }
        unlehmer9(i, b);
        board_to_state(b, &s);
        spec = tl_spec(p, &s, &goal);
        spec.threads = 1 + n % 2;
        spec.frontier_nodes = caps[n % 3];
        ck_assert_int_eq(tl_run(&spec, "aida", "pdb-dual", 1.0, NULL, &a),
                         PZ_OK);
        bad += a.solution.status != PZ_STATUS_SOLVED || !a.solution.optimal ||
               a.solution.length != dist[i];
        n++;
    }
    ck_assert_int_eq(bad, 0);
    free(dist);
    puzzle_destroy(p);
}
END_TEST

/* Dual search takes its frames from the job's memory budget: small
 * budgets end the search as a memory limit (never an error, everything
 * returned), larger ones solve it. */
START_TEST(test_tables_dida_small_budgets_end_cleanly)
{
    static const uint8_t board[N9] = { 8, 6, 7, 2, 5, 4, 3, 0, 1 };
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);
    pz_state_t s;
    pz_state_t goal;
    int limited = 0;
    int solved = 0;

    board_to_state(board, &s);
    puzzle_goal(p, &goal);
    for (size_t bytes = 256; bytes <= (size_t)1 << 20; bytes *= 2) {
        solve_spec_t spec = tl_spec(p, &s, &goal);
        solve_run_t r;

        spec.limits.memory_bytes = bytes;
        ck_assert_int_eq(tl_run(&spec, "dida", "pdb-dual", 1.0, NULL, &r),
                         PZ_OK);
        if (r.solution.status == PZ_STATUS_SOLVED) {
            /* One of the two hardest 8-puzzle boards. */
            ck_assert_int_eq(r.solution.length, 31);
            solved++;
        } else {
            ck_assert_int_eq(r.solution.status, PZ_STATUS_MEMORY_LIMIT);
            ck_assert_msg(solved == 0, "refused %zu bytes after solving",
                          bytes);
            limited++;
        }
    }
    ck_assert_int_gt(limited, 0);
    ck_assert_int_gt(solved, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_pdb_idastar_optimal_on_2x4)
{
    pz_puzzle_t *p = tl_make("tiles", 2, 4, 0);
    pz_rng_t rng;
    pz_state_t goal;
    int bad = 0;

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 31);
    for (int i = 0; i < 20; i++) {
        pz_state_t s;
        pz_solution_t a;
        pz_solution_t b;

        puzzle_random_state(p, pz_rng_next, &rng, &s);
        ck_assert_int_eq(run(p, &s, &goal, "bibfs", "none", 1u << 28, &b),
                         PZ_OK);
        /* The dual lookups too, with pathmax and the children op, and
         * dual search. */
        for (int k = 0; k < 3; k++) {
            ck_assert_int_eq(run(p, &s, &goal, k == 2 ? "dida" : "idastar",
                                 k == 0 ? "pdb" : "pdb-dual", 1u << 20, &a),
                             PZ_OK);
            bad += a.status != PZ_STATUS_SOLVED || !a.optimal ||
                   a.length != b.length;
        }
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

/* A runner that gives each part of a build step its own thread. */
static void *
part_main(void *arg)
{
    void **a = arg;
    tables_task_fn fn = *(tables_task_fn *)a[0];

    fn(a[1], (int)(intptr_t)a[2]);
    return NULL;
}

static void
thread_runner(void *ctx, int n, tables_task_fn fn, void *arg)
{
    pthread_t t[8];
    void *args[8][3];

    (void)ctx;
    ck_assert_int_le(n, 8);
    for (int i = 0; i < n; i++) {
        args[i][0] = &fn;
        args[i][1] = arg;
        args[i][2] = (void *)(intptr_t)i;
        ck_assert_int_eq(pthread_create(&t[i], NULL, part_main, args[i]), 0);
    }
    for (int i = 0; i < n; i++) {
        pthread_join(t[i], NULL);
    }
}

/* Reads the whole file at path (owned). */
static uint8_t *
slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;

    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)*len);
    ck_assert_ptr_nonnull(buf);
    ck_assert_int_eq(fread(buf, 1, (size_t)*len, f), (size_t)*len);
    fclose(f);
    return buf;
}

START_TEST(test_tables_pdb_threaded_build_matches_sequential)
{
    static const char *const names[] = { "tiles-3x4-pdb5-1f-z5",
                                         "tiles-3x4-pdb6-7e-z0" };
    char dir[2][64];
    pz_puzzle_t *p = tl_make("tiles", 3, 4, 0);
    pz_state_t goal;

    puzzle_goal(p, &goal);
    for (int k = 0; k < 2; k++) {
        pz_heuristic_t *h = NULL;

        /* First with three threads sharing each layer, then alone. */
        tables_set_runner(k == 0 ? thread_runner : NULL, NULL, 3);
        use_fresh_dir(dir[k], sizeof(dir[k]));
        ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &h, NULL), PZ_OK);
        heuristic_destroy(h);
        tables_unload_all();
    }
    for (int i = 0; i < 2; i++) {
        char pa[256];
        char pb[256];
        long la;
        long lb;
        uint8_t *a;
        uint8_t *b;

        table_path(dir[0], names[i], pa, sizeof(pa));
        table_path(dir[1], names[i], pb, sizeof(pb));
        a = slurp(pa, &la);
        b = slurp(pb, &lb);
        ck_assert_int_eq(la, lb);
        ck_assert_msg(memcmp(a, b, (size_t)la) == 0, "%s differs", names[i]);
        free(a);
        free(b);
    }
    tmpdir_remove(dir[0]);
    tmpdir_remove(dir[1]);
    puzzle_destroy(p);
}
END_TEST

/* What a progress hook saw of the build of one table. */
typedef struct progress_log {
    const char *table; /* the table watched */
    int calls;         /* reports about it */
    int cancel_at;     /* report at which all builds are cancelled, or 0 */
    uint64_t done;     /* its last done */
    uint64_t total;    /* its last total */
    bool backwards;    /* done ever decreased */
} progress_log_t;

static void
on_progress(void *arg, const char *table, uint64_t done, uint64_t total)
{
    progress_log_t *lg = arg;

    if (strcmp(table, lg->table) != 0) {
        return;
    }
    lg->backwards = lg->backwards || done < lg->done;
    lg->calls++;
    lg->done = done;
    lg->total = total;
    if (lg->calls == lg->cancel_at) {
        tables_cancel_builds(true);
    }
}

START_TEST(test_tables_pdb_build_reports_every_layer)
{
    /* 12!/6! placements, entries up to 26: 27 layers. */
    progress_log_t lg = { "tiles-3x4-pdb6-7e-z0", 0, 0, 0, 0, false };
    char dir[64];
    pz_puzzle_t *p = tl_make("tiles", 3, 4, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;

    use_fresh_dir(dir, sizeof(dir));
    puzzle_goal(p, &goal);
    tables_set_progress(on_progress, &lg);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &h, NULL), PZ_OK);
    tables_set_progress(NULL, NULL);
    ck_assert_int_ge(lg.calls, 27);
    ck_assert(!lg.backwards);
    ck_assert_uint_eq(lg.done, 665280);
    ck_assert_uint_eq(lg.total, 665280);
    heuristic_destroy(h);
    puzzle_destroy(p);
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_pdb_build_cancelled_after_the_layer)
{
    /* The first table the 3x4 heuristic builds; cancelled at the report
     * of its fifth layer. */
    progress_log_t lg = { "tiles-3x4-pdb5-1f-z5", 0, 5, 0, 0, false };
    char dir[64];
    pz_puzzle_t *p = tl_make("tiles", 3, 4, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    int rc;

    use_fresh_dir(dir, sizeof(dir));
    puzzle_goal(p, &goal);
    tables_set_progress(on_progress, &lg);
    rc = heuristic_create(p, "pdb", &goal, &h, NULL);
    tables_set_progress(NULL, NULL);
    tables_cancel_builds(false);
    ck_assert_int_eq(rc, PZ_ECANCELLED);
    ck_assert_ptr_null(h);
    ck_assert_int_eq(lg.calls, 5);
    ck_assert_int_eq(count_files(dir, ".pzt"), 0);
    ck_assert_int_eq(count_files(dir, ".tmp"), 0);
    puzzle_destroy(p);
    tmpdir_remove(dir);
}
END_TEST

/* The 4-bit packing on a 2x3 board, pattern cells 0, 2 and 4 (homes of
 * slots 0, 1, 2): every placement's entry is half its distance's excess
 * over the Manhattan distance, capped at 15; a distance below, or of the
 * other parity than, the Manhattan distance is refused. */
START_TEST(test_tables_pdb_pack_half_the_excess_capped)
{
    static const int home[3] = { 0, 2, 4 };
    const source_t src = { 2, 3, 0x15, 1 };
    uint8_t depth[120];
    uint8_t want[120];
    uint8_t mds[120];
    uint8_t out[60];
    int seen = 0;
    int max_value = -1;

    memset(depth, 0xEE, sizeof(depth));
    for (int a = 0; a < 6; a++) {
        for (int b = 0; b < 6; b++) {
            for (int c = 0; c < 6; c++) {
                const uint8_t pos[3] = { (uint8_t)a, (uint8_t)b, (uint8_t)c };
                uint64_t y;
                int md = 0;

                if (a == b || a == c || b == c) {
                    continue;
                }
                for (int j = 0; j < 3; j++) {
                    md += abs(pos[j] / 3 - home[j] / 3) +
                          abs(pos[j] % 3 - home[j] % 3);
                }
                y = place_rank(pos, 3, 6);
                ck_assert_uint_lt(y, 120);
                ck_assert_uint_eq(depth[y], 0xEE);
                /* Excesses 0..19 over the placements: some past the cap. */
                want[y] = (uint8_t)(seen % 20 > 15 ? 15 : seen % 20);
                mds[y] = (uint8_t)md;
                depth[y] = (uint8_t)(md + 2 * (seen % 20));
                seen++;
            }
        }
    }
    ck_assert_int_eq(seen, 120);
    memset(out, 0, sizeof(out));
    ck_assert_int_eq(tiles_pdb__pack(&src, depth, out, &max_value, NULL),
                     PZ_OK);
    ck_assert_int_eq(max_value, 15);
    for (uint64_t y = 0; y < 120; y++) {
        ck_assert_int_eq(pdb_entry(out, y), want[y]);
    }
    /* One odd excess, then one distance two below the Manhattan one. */
    depth[7]++;
    memset(out, 0, sizeof(out));
    ck_assert_int_eq(tiles_pdb__pack(&src, depth, out, &max_value, NULL),
                     PZ_EINTERNAL);
    depth[7]--;
    ck_assert_uint_ge(mds[119], 2);
    depth[119] = (uint8_t)(mds[119] - 2);
    memset(out, 0, sizeof(out));
    ck_assert_int_eq(tiles_pdb__pack(&src, depth, out, &max_value, NULL),
                     PZ_EINTERNAL);
}
END_TEST

START_TEST(test_tables_pdb_unsupported_size_refused)
{
    pz_puzzle_t *p = tl_make("tiles", 6, 6, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;

    ck_assert(!tiles_pdb_supported(p));
    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &h, NULL),
                     PZ_EUNSUPPORTED);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_pdb_needs_named_tables_missing_without_files)
{
    char dir[64];
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    const char *names[8];
    const char *missing = NULL;
    engine_choice_t choice;
    int n;

    use_fresh_dir(dir, sizeof(dir));
    ck_assert(tiles_pdb_supported(p));
    n = tiles_pdb_heuristic.tables(p, NULL, names, 8);
    /* The 7-8 partition and its reflection share two tables. */
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(names[0], "tiles-4x4-pdb7-f7-z3");
    ck_assert_str_eq(names[1], "tiles-4x4-pdb8-ff-z8");
    ck_assert(!tables_available(names, n, &missing));
    ck_assert_str_eq(missing, names[0]);
    /* auto falls back to linear conflict and names the missing table. */
    engine_auto(p, NULL, true, &choice);
    ck_assert_str_eq(choice.engine->name, "idastar");
    ck_assert_str_eq(choice.heuristic, "linear-conflict");
    ck_assert_ptr_nonnull(choice.missing);
    ck_assert_str_eq(choice.missing, names[0]);
    puzzle_destroy(p);
    tmpdir_remove(dir);
}
END_TEST

static Suite *
tables_pdb_suite(void)
{
    Suite *s = suite_create("tables_pdb");
    TCase *tc;

    tc = tcase_create("pdb");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_tables_pdb_equals_pattern_bfs_on_3x3);
    tcase_add_test(tc, test_tables_pdb_admissible_for_a_blank_first_goal);
    tcase_add_test(tc, test_tables_pdb_dual_admissible_on_3x3);
    tcase_add_test(tc, test_tables_dida_optimal_on_3x3);
    tcase_add_test(tc, test_tables_aida_optimal_with_dual_lookups_on_3x3);
    tcase_add_test(tc, test_tables_dida_small_budgets_end_cleanly);
    tcase_add_test(tc, test_tables_pdb_idastar_optimal_on_2x4);
    tcase_add_test(tc, test_tables_pdb_threaded_build_matches_sequential);
    tcase_add_test(tc, test_tables_pdb_build_reports_every_layer);
    tcase_add_test(tc, test_tables_pdb_build_cancelled_after_the_layer);
    tcase_add_test(tc, test_tables_pdb_unsupported_size_refused);
    tcase_add_test(tc, test_tables_pdb_pack_half_the_excess_capped);
    tcase_add_test(tc,
                   test_tables_pdb_needs_named_tables_missing_without_files);
    suite_add_tcase(s, tc);

    return s;
}

int
main(void)
{
    return tables_test_run(tables_pdb_suite());
}
