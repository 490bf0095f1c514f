/* SPDX-License-Identifier: MIT */
/* test_tables.c - table files, complete tables, the table engine, "exact"
 * and the tiles pattern databases (small boards only). */

/*
 * Golden facts: the published depth distributions (copied below), and
 * breadth-first searches written here, independently of solver/tables/: a
 * BFS over the 8-puzzle with its own Lehmer-code index, and a 0-1 BFS over
 * each pattern of the 3x3 board (pattern tiles and the blank; moving a
 * pattern tile costs 1, any other tile 0). Bidirectional BFS gives the
 * optimal lengths of random 2x2x2 and pyraminx states. Every test uses a
 * temporary table directory: one shared by the tests that only read tables
 * (made in main), and a fresh one for each test that damages files.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "complete.h"
#include "engine.h"
#include "puzzles/tiles/tiles_pdb.h"
#include "solve.h"
#include "tables.h"
#include "testlib.h"
#include "tmpdir_testlib.h"

/* --- published depth counts ---------------------------------------------- */

static const uint64_t ref_8puzzle[] = {
    1,     2,     4,     8,     16,    20,   39,   62,   116,   152,   286,
    396,   748,   1024,  1893,  2512,  4485, 5638, 9529, 10878, 16993, 17110,
    23952, 20224, 24047, 15578, 14560, 6274, 3910, 760,  221,   2,
};
static const uint64_t ref_cube2_htm[] = {
    1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
};
static const uint64_t ref_cube2_qtm[] = {
    1,      6,      27,     120,     534,    2256,  8969, 33058,
    114149, 360508, 930588, 1350852, 782536, 90280, 276,
};
static const uint64_t ref_pyraminx_tipless[] = {
    1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32,
};

#define NREF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* --- temporary directories ---------------------------------------------- */

static char shared_dir[64];

/* Makes a fresh directory and points the tables at it. */
static void
use_fresh_dir(char *buf, size_t len)
{
    tmpdir_make(buf, len, "pz-tables");
    ck_assert_int_eq(tables_set_dir(buf), PZ_OK);
}

/* Number of files in dir whose name ends with suffix. */
static int
count_files(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t ls = strlen(suffix);
    int n = 0;

    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);

        n += l >= ls && strcmp(e->d_name + l - ls, suffix) == 0;
    }
    closedir(d);
    return n;
}

static void
table_path(const char *dir, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s.pzt", dir, name);
}

/* --- helpers ------------------------------------------------------------ */

static void
check_counts(pz_puzzle_t *p, const uint64_t *ref, int nref)
{
    uint64_t counts[64];
    int n = complete_counts(p, counts, 64);
    int bad = 0;

    ck_assert_int_eq(n, nref);
    for (int i = 0; i < n; i++) {
        if (counts[i] != ref[i]) {
            fprintf(stderr, "depth %d: %llu, published %llu\n", i,
                    (unsigned long long)counts[i], (unsigned long long)ref[i]);
            bad++;
        }
    }
    ck_assert_int_eq(bad, 0);
}

/* Solves start -> goal with engine/heuristic; fills *sol. */
static int
run(const pz_puzzle_t *p,
    const pz_state_t *start,
    const pz_state_t *goal,
    const char *engine,
    const char *heuristic,
    size_t memory,
    pz_solution_t *sol)
{
    solve_spec_t spec = tl_spec(p, start, goal);
    solve_run_t r;
    int rc;

    spec.limits.memory_bytes = memory;
    spec.limits.time_ms = 60000;
    rc = tl_run(&spec, engine, heuristic, 1.0, NULL, &r);
    *sol = r.solution;
    return rc;
}

/* The table engine and bidirectional BFS agree on n random states of p
 * (random goals too when custom_goal); the table's answers are replayed
 * by engine_run and flagged optimal. */
static void
check_table_engine(pz_puzzle_t *p, int n, bool custom_goal, uint64_t seed)
{
    pz_rng_t rng;
    int bad = 0;

    pz_rng_seed(&rng, seed);
    for (int i = 0; i < n; i++) {
        pz_state_t start;
        pz_state_t goal;
        pz_solution_t a;
        pz_solution_t b;

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &start),
                         PZ_OK);
        if (custom_goal) {
            ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &goal),
                             PZ_OK);
        } else {
            puzzle_goal(p, &goal);
        }
        if (puzzle_check_pair(p, &start, &goal, NULL) != PZ_OK) {
            i--;
            continue;
        }
        ck_assert_int_eq(run(p, &start, &goal, "table", "none", 64u << 20, &a),
                         PZ_OK);
        ck_assert_int_eq(run(p, &start, &goal, "bibfs", "none", 1u << 30, &b),
                         PZ_OK);
        ck_assert_int_eq(b.status, PZ_STATUS_SOLVED);
        if (a.status != PZ_STATUS_SOLVED || !a.optimal ||
            a.length != b.length) {
            fprintf(stderr, "state %d: table %s length %d, bibfs %d\n", i,
                    pz_status_name(a.status), a.length, b.length);
            bad++;
        }
    }
    ck_assert_int_eq(bad, 0);
}

/* --- an independent BFS over the 3x3 board ------------------------------ */

#define N9       9
#define FACT9    362880
#define UNSEEN8  0xFF
#define PAT_SIZE 4

/* Lehmer code of a permutation of 0..8 (written apart from tiles.c). */
static int
lehmer9(const uint8_t *b)
{
    int idx = 0;

    for (int i = 0; i < N9; i++) {
        int smaller = 0;

        for (int j = i + 1; j < N9; j++) {
            smaller += b[j] < b[i];
        }
        idx = idx * (N9 - i) + smaller;
    }
    return idx;
}

static void
unlehmer9(int idx, uint8_t *b)
{
    int digit[N9];
    bool used[N9] = { false };

    for (int i = N9 - 1; i >= 0; i--) {
        digit[i] = idx % (N9 - i);
        idx /= N9 - i;
    }
    for (int i = 0; i < N9; i++) {
        int v = 0;

        for (int k = digit[i];; v++) {
            if (used[v]) {
                continue;
            }
            if (k-- == 0) {
                break;
            }
        }
        used[v] = true;
        b[i] = (uint8_t)v;
    }
}

/* Cells next to c on the 3x3 board: -1 for none. */
static void
neighbours9(int c, int out[4])
{
    out[0] = c >= 3 ? c - 3 : -1;
    out[1] = c < 6 ? c + 3 : -1;
    out[2] = c % 3 > 0 ? c - 1 : -1;
    out[3] = c % 3 < 2 ? c + 1 : -1;
}

/* BFS distances (by lehmer9) of every 8-puzzle board from goal. */
static uint8_t *
bfs9(const uint8_t *goal)
{
    uint8_t *dist = malloc(FACT9);
    int *queue = malloc(sizeof(int) * FACT9);
    int head = 0;
    int tail = 0;

    ck_assert_ptr_nonnull(dist);
    ck_assert_ptr_nonnull(queue);
    memset(dist, UNSEEN8, FACT9);
    dist[lehmer9(goal)] = 0;
    queue[tail++] = lehmer9(goal);
    while (head < tail) {
        int cur = queue[head++];
        uint8_t b[N9];
        int z = 0;
        int nb[4];

        unlehmer9(cur, b);
        while (b[z] != 0) {
            z++;
        }
        neighbours9(z, nb);
        for (int k = 0; k < 4; k++) {
            int idx;

            if (nb[k] < 0) {
                continue;
            }
            b[z] = b[nb[k]];
            b[nb[k]] = 0;
            idx = lehmer9(b);
            if (dist[idx] == UNSEEN8) {
                dist[idx] = (uint8_t)(dist[cur] + 1);
                queue[tail++] = idx;
            }
            b[nb[k]] = b[z];
            b[z] = 0;
        }
    }
    free(queue);
    return dist;
}

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

static void
board_to_state(const uint8_t *b, pz_state_t *s)
{
    state_clear(s);
    for (int i = 0; i < N9; i++) {
        s->b[i] = b[i];
        if (b[i] == 0) {
            s->b[N9] = (uint8_t)i;
        }
    }
}

/* --- complete tables: distributions ------------------------------------- */

START_TEST(test_complete_counts_8puzzle_matches_depths)
{
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);

    check_counts(p, ref_8puzzle, NREF(ref_8puzzle));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_complete_counts_2x2x2_htm_matches_depths)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);

    check_counts(p, ref_cube2_htm, NREF(ref_cube2_htm));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_complete_counts_2x2x2_qtm_matches_depths)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_QTM);

    check_counts(p, ref_cube2_qtm, NREF(ref_cube2_qtm));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_complete_counts_pyraminx_tipless_matches_depths)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);

    check_counts(p, ref_pyraminx_tipless, NREF(ref_pyraminx_tipless));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_complete_counts_4x4_unsupported)
{
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    uint64_t counts[8];

    ck_assert(!complete_possible(p));
    ck_assert_int_eq(complete_counts(p, counts, 8), PZ_EUNSUPPORTED);
    puzzle_destroy(p);
}
END_TEST

/* --- the table engine --------------------------------------------------- */

START_TEST(test_tables_engine_table_matches_bibfs_2x2x2_htm)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);

    check_table_engine(p, 12, false, 11);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_engine_table_matches_bibfs_2x2x2_qtm)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_QTM);

    check_table_engine(p, 12, false, 12);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_engine_table_matches_bibfs_8puzzle)
{
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);

    check_table_engine(p, 25, false, 13);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_engine_table_matches_bibfs_pyraminx_with_tips)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);

    check_table_engine(p, 12, false, 14);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_engine_table_custom_goal_2x2x2_relabelled)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, PZ_METRIC_HTM);
    pz_rng_t rng;
    pz_state_t goal;

    /* Any goal of the 2x2x2 relabels to the solved cube: shared table. */
    pz_rng_seed(&rng, 5);
    puzzle_random_state(p, pz_rng_next, &rng, &goal);
    ck_assert(complete_shared(p, &goal));
    check_table_engine(p, 10, true, 15);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_engine_table_custom_goal_8puzzle_private_table)
{
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);
    static const int blank_first[N9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
    pz_input_t in = { .ints = blank_first, .nints = N9, .ndims = 1 };
    pz_state_t goal;

    /* The blank's goal cell differs: a private table, from the budget. */
    ck_assert_int_eq(puzzle_parse_state(p, &in, &goal, NULL), PZ_OK);
    ck_assert(!complete_shared(p, &goal));
    check_table_engine(p, 6, true, 16);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_engine_table_private_table_over_budget_is_memory_limit)
{
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);
    static const int blank_first[N9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
    static const int start_ints[N9] = { 1, 0, 2, 3, 4, 5, 6, 7, 8 };
    pz_input_t in = { .ints = blank_first, .nints = N9, .ndims = 1 };
    pz_state_t goal;
    pz_state_t start;
    pz_solution_t sol;

    ck_assert_int_eq(puzzle_parse_state(p, &in, &goal, NULL), PZ_OK);
    in.ints = start_ints;
    ck_assert_int_eq(puzzle_parse_state(p, &in, &start, NULL), PZ_OK);
    ck_assert_int_eq(run(p, &start, &goal, "table", "none", 4096, &sol), PZ_OK);
    ck_assert_int_eq(sol.status, PZ_STATUS_MEMORY_LIMIT);
    ck_assert_int_eq(run(p, &start, &goal, "table", "none", 1u << 20, &sol),
                     PZ_OK);
    ck_assert_int_eq(sol.status, PZ_STATUS_SOLVED);
    ck_assert_int_eq(sol.length, 1);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_engine_table_unsupported_puzzle_fails)
{
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    pz_state_t goal;
    pz_state_t start;
    pz_solution_t sol;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(puzzle_parse_scramble(p, "R", &start, NULL), PZ_OK);
    ck_assert_int_eq(run(p, &start, &goal, "table", "none", 1u << 20, &sol),
                     PZ_EUNSUPPORTED);
    ck_assert_int_eq(sol.status, PZ_STATUS_FAILED);
    puzzle_destroy(p);
}
END_TEST

/* --- "exact" ------------------------------------------------------------ */

START_TEST(test_tables_exact_equals_bfs_on_every_8puzzle_board)
{
    static const uint8_t goal9[N9] = { 1, 2, 3, 4, 5, 6, 7, 8, 0 };
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);
    uint8_t *dist = bfs9(goal9);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    long n = 0;
    long bad = 0;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "exact", &goal, &h, NULL), PZ_OK);
    for (int i = 0; i < FACT9; i++) {
        uint8_t b[N9];
        pz_state_t s;

        if (dist[i] == UNSEEN8) {
            continue;
        }
        unlehmer9(i, b);
        board_to_state(b, &s);
        bad += heuristic_eval(h, &s) != dist[i];
        n++;
    }
    ck_assert_int_eq(n, FACT9 / 2);
    ck_assert_int_eq(bad, 0);
    heuristic_destroy(h);
    free(dist);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_exact_equals_bfs_for_a_blank_first_goal)
{
    static const uint8_t goal9[N9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
    pz_puzzle_t *p = tl_make("8-puzzle", 0, 0, 0);
    uint8_t *dist = bfs9(goal9);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    long bad = 0;

    board_to_state(goal9, &goal);
    ck_assert_int_eq(heuristic_create(p, "exact", &goal, &h, NULL), PZ_OK);
    for (int i = 0; i < FACT9; i += 7) {
        uint8_t b[N9];
        pz_state_t s;

        if (dist[i] == UNSEEN8) {
            continue;
        }
        unlehmer9(i, b);
        board_to_state(b, &s);
        bad += heuristic_eval(h, &s) != dist[i];
    }
    ck_assert_int_eq(bad, 0);
    heuristic_destroy(h);
    free(dist);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_exact_equals_bibfs_on_pyraminx_with_tips)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    pz_rng_t rng;
    int bad = 0;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "exact", &goal, &h, NULL) == PZ_OK ||
                         heuristic_find(p, "exact") == NULL,
                     1);
    if (h == NULL) {
        /* The pyraminx module does not list "exact" (yet): check the
         * oracle directly. */
        complete_dist_t td;
        uint8_t moves[PZ_SOLUTION_MAX];

        ck_assert_int_eq(complete_dist_init(&td, p, &goal, NULL), PZ_OK);
        pz_rng_seed(&rng, 21);
        for (int i = 0; i < 15; i++) {
            pz_state_t s;
            pz_solution_t b;

            puzzle_random_state(p, pz_rng_next, &rng, &s);
            run(p, &s, &goal, "bibfs", "none", 1u << 30, &b);
            bad += complete_dist_solve(&td, &s, moves, NULL) != b.length;
        }
        complete_dist_cleanup(&td, NULL);
    } else {
        pz_rng_seed(&rng, 21);
        for (int i = 0; i < 15; i++) {
            pz_state_t s;
            pz_solution_t b;

            puzzle_random_state(p, pz_rng_next, &rng, &s);
            run(p, &s, &goal, "bibfs", "none", 1u << 30, &b);
            bad += heuristic_eval(h, &s) != b.length;
        }
    }
    ck_assert_int_eq(bad, 0);
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_exact_on_15puzzle_is_refused)
{
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;

    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "exact", &goal, &h, NULL),
                     PZ_EUNSUPPORTED);
    ck_assert_ptr_null(h);
    puzzle_destroy(p);
}
END_TEST

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

/* --- files: damage, rebuild, concurrency -------------------------------- */

/* Builds the 8-puzzle table into a fresh directory; returns its path. */
static void
fresh_8puzzle_table(char *dir, size_t dlen, char *path, size_t plen)
{
    bool built = false;

    use_fresh_dir(dir, dlen);
    ck_assert_int_eq(tables_ensure("tiles-3x3", &built), PZ_OK);
    ck_assert(built);
    table_path(dir, "tiles-3x3", path, plen);
    ck_assert_int_eq(tables_verify("tiles-3x3", NULL, 0), PZ_OK);
    tables_unload_all();
}

/* XORs the byte at offset of path with mask. */
static void
flip_byte(const char *path, long offset, int mask)
{
    FILE *f = fopen(path, "r+b");
    int c;

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, offset, SEEK_SET), 0);
    c = fgetc(f);
    ck_assert_int_ne(c, EOF);
    ck_assert_int_eq(fseek(f, offset, SEEK_SET), 0);
    fputc(c ^ mask, f);
    fclose(f);
}

START_TEST(test_tables_verify_flipped_data_byte_detected_and_rebuilt)
{
    char dir[64];
    char path[256];
    char why[512];
    bool built = false;
    pz_puzzle_t *p;

    fresh_8puzzle_table(dir, sizeof(dir), path, sizeof(path));
    flip_byte(path, 4096 + 100000, 0x10);
    ck_assert_int_eq(tables_verify("tiles-3x3", why, sizeof(why)), PZ_EIO);
    ck_assert_msg(strstr(why, "checksum") != NULL, "why: %s", why);
    /* Loads that check the entries (`tables build`, the daemon's copies)
     * find it too, and rebuild the table. */
    tables_set_loads(TABLES_LOADS_VERIFY);
    ck_assert_int_eq(tables_ensure("tiles-3x3", &built), PZ_OK);
    tables_set_loads(TABLES_LOADS_MAP);
    ck_assert(built);
    ck_assert_int_eq(tables_verify("tiles-3x3", NULL, 0), PZ_OK);
    p = tl_make("8-puzzle", 0, 0, 0);
    check_counts(p, ref_8puzzle, NREF(ref_8puzzle));
    puzzle_destroy(p);
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_verify_flipped_header_byte_detected_and_rebuilt)
{
    char dir[64];
    char path[256];
    char why[512];
    bool built = false;

    fresh_8puzzle_table(dir, sizeof(dir), path, sizeof(path));
    flip_byte(path, 40, 0x01); /* inside the entry count */
    ck_assert_int_eq(tables_verify("tiles-3x3", why, sizeof(why)), PZ_EIO);
    ck_assert_int_eq(tables_ensure("tiles-3x3", &built), PZ_OK);
    ck_assert(built);
    ck_assert_int_eq(tables_verify("tiles-3x3", NULL, 0), PZ_OK);
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_ensure_truncated_file_rebuilt)
{
    char dir[64];
    char path[256];
    char why[512];
    bool built = false;
    struct stat st;

    fresh_8puzzle_table(dir, sizeof(dir), path, sizeof(path));
    ck_assert_int_eq(truncate(path, 4096 + 1000), 0);
    ck_assert_int_eq(tables_verify("tiles-3x3", why, sizeof(why)), PZ_EIO);
    ck_assert_msg(strstr(why, "truncated") != NULL, "why: %s", why);
    ck_assert_int_eq(tables_ensure("tiles-3x3", &built), PZ_OK);
    ck_assert(built);
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_size, 4096 + 362880);
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_ensure_missing_file_built_then_loaded)
{
    char dir[64];
    bool built = true;

    use_fresh_dir(dir, sizeof(dir));
    ck_assert_int_eq(tables_verify("tiles-3x3", NULL, 0), PZ_ENOT_FOUND);
    ck_assert_int_eq(tables_ensure("tiles-3x3", &built), PZ_OK);
    ck_assert(built);
    ck_assert_uint_ge(tables_memory_bytes(), 362880);
    tables_unload_all();
    ck_assert_uint_eq(tables_memory_bytes(), 0);
    ck_assert_int_eq(tables_ensure("tiles-3x3", &built), PZ_OK);
    ck_assert(!built);
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_load_existing_never_builds)
{
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    ck_assert_int_eq(tables_load_existing("tiles-3x3"), PZ_ENOT_FOUND);
    ck_assert_uint_eq(tables_memory_bytes(), 0);
    ck_assert_int_eq(count_files(dir, ".pzt"), 0);
    ck_assert_int_eq(tables_ensure("tiles-3x3", NULL), PZ_OK);
    tables_unload_all();
    ck_assert_int_eq(tables_load_existing("tiles-3x3"), PZ_OK);
    ck_assert_uint_ge(tables_memory_bytes(), 362880);
    ck_assert_int_eq(tables_load_existing("no-such-table"), PZ_ENOT_FOUND);
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_ensure_unknown_name_not_found)
{
    ck_assert_int_eq(tables_ensure("no-such-table", NULL), PZ_ENOT_FOUND);
    ck_assert_int_eq(tables_verify("no-such-table", NULL, 0), PZ_ENOT_FOUND);
}
END_TEST

START_TEST(test_tables_ensure_two_processes_build_at_once)
{
    char dir[64];
    pid_t pid[2];

    use_fresh_dir(dir, sizeof(dir));
    /* Both start on an empty directory and build the same table. */
    for (int k = 0; k < 2; k++) {
        pid[k] = fork();
        ck_assert_int_ge(pid[k], 0);
        if (pid[k] == 0) {
            _exit(tables_ensure("pyraminx", NULL) == PZ_OK ? 0 : 1);
        }
    }
    for (int k = 0; k < 2; k++) {
        int st = 0;

        ck_assert_int_eq(waitpid(pid[k], &st, 0), pid[k]);
        ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    ck_assert_int_eq(tables_verify("pyraminx", NULL, 0), PZ_OK);
    ck_assert_int_eq(count_files(dir, ".tmp"), 0);
    ck_assert_int_eq(count_files(dir, ".pzt"), 1);
    tmpdir_remove(dir);
}
END_TEST

static void *
ensure_thread(void *arg)
{
    bool *built = arg;

    if (tables_ensure("tiles-3x3", built) != PZ_OK) {
        *built = true; /* counted as a second build: fails the test */
        built[1] = true;
    }
    return NULL;
}

START_TEST(test_tables_ensure_threads_build_once)
{
    char dir[64];
    pthread_t t[4];
    bool built[4][2] = { { false } };
    int nbuilt = 0;

    use_fresh_dir(dir, sizeof(dir));
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(pthread_create(&t[k], NULL, ensure_thread, built[k]),
                         0);
    }
    for (int k = 0; k < 4; k++) {
        pthread_join(t[k], NULL);
        nbuilt += built[k][0];
        ck_assert(!built[k][1]);
    }
    ck_assert_int_eq(nbuilt, 1);
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_list_reports_built_tables)
{
    char dir[64];
    tables_info_t info[32];
    int n;
    bool seen = false;

    use_fresh_dir(dir, sizeof(dir));
    ck_assert_int_eq(tables_ensure("tiles-3x3", NULL), PZ_OK);
    n = tables_list(info, 32);
    ck_assert_int_ge(n, 4);
    for (int i = 0; i < n && i < 32; i++) {
        if (strcmp(info[i].name, "tiles-3x3") == 0) {
            seen = true;
            ck_assert(info[i].built && info[i].loaded && info[i].startup);
            ck_assert_str_eq(info[i].group, "8-puzzle");
            ck_assert_uint_eq(info[i].bytes, 4096 + 362880);
        } else {
            ck_assert(!info[i].built);
        }
    }
    ck_assert(seen);
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_set_dir_rejects_long_path)
{
    char longdir[TABLES_PATH_MAX + 10];
    char buf[TABLES_PATH_MAX];

    memset(longdir, 'a', sizeof(longdir) - 1);
    longdir[sizeof(longdir) - 1] = '\0';
    ck_assert_int_eq(tables_set_dir(longdir), PZ_EINVAL);
    ck_assert_int_eq(tables_set_dir("/tmp/x"), PZ_OK);
    ck_assert_int_eq(tables_dir(buf, sizeof(buf)), 6);
    ck_assert_str_eq(buf, "/tmp/x");
    ck_assert_int_eq(tables_dir(buf, 3), PZ_EINVAL);
}
END_TEST

START_TEST(test_tables_set_dir_default_follows_environment)
{
    char buf[TABLES_PATH_MAX];

    setenv("PUZZLED_TABLES", "/srv/tables", 1);
    ck_assert_int_eq(tables_set_dir(NULL), PZ_OK);
    tables_dir(buf, sizeof(buf));
    ck_assert_str_eq(buf, "/srv/tables");
    unsetenv("PUZZLED_TABLES");
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    ck_assert_int_eq(tables_set_dir(NULL), PZ_OK);
    tables_dir(buf, sizeof(buf));
    ck_assert_str_eq(buf, "/xdg/puzzled");
}
END_TEST

/* --- engine_auto -------------------------------------------------------- */

START_TEST(test_tables_engine_auto_picks_table_for_small_puzzles)
{
    static const int blank_first[N9] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };
    pz_input_t in = { .ints = blank_first, .nints = N9, .ndims = 1 };
    pz_puzzle_t *cube = tl_make("2x2x2", 0, 0, PZ_METRIC_QTM);
    pz_puzzle_t *eight = tl_make("8-puzzle", 0, 0, 0);
    engine_choice_t c;
    pz_state_t goal;

    engine_auto(cube, NULL, true, &c);
    ck_assert_str_eq(c.engine->name, "table");
    engine_auto(eight, NULL, true, &c);
    ck_assert_str_eq(c.engine->name, "table");
    ck_assert_int_eq(puzzle_parse_state(eight, &in, &goal, NULL), PZ_OK);
    engine_auto(eight, &goal, true, &c);
    ck_assert_str_eq(c.engine->name, "astar");
    puzzle_destroy(cube);
    puzzle_destroy(eight);
}
END_TEST

START_TEST(test_tables_engine_auto_15puzzle_without_pdb_files)
{
    char dir[64];
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    engine_choice_t c;

    use_fresh_dir(dir, sizeof(dir));
    engine_auto(p, NULL, true, &c);
    ck_assert_str_eq(c.engine->name, "idastar");
    ck_assert_str_eq(c.heuristic, "linear-conflict");
    puzzle_destroy(p);
    tmpdir_remove(dir);
}
END_TEST

/* The 3x3x3 and the Master Pyraminx name their own choice (puzzle ops
 * auto_fast_engine, auto_optimal_heuristic): IDA* with their pattern
 * databases for an optimum, the two-phase engine otherwise. With no
 * table built, the 3x3x3 names its 0.9 GB set (the strongest present
 * otherwise). */
START_TEST(test_tables_engine_auto_large_puzzles_use_their_choice)
{
    static const char *const large[] = { "3x3x3", "master-pyraminx" };
    engine_choice_t c;
    char dir[256];

    tmpdir_make(dir, sizeof(dir), "pz-auto-choice");
    ck_assert_int_eq(tables_set_dir(dir), PZ_OK);

    for (int i = 0; i < 2; i++) {
        pz_puzzle_t *p = tl_make(large[i], 0, 0, 0);

        engine_auto(p, NULL, true, &c);
        ck_assert_str_eq(c.engine->name, "idastar");
        ck_assert_str_eq(c.heuristic, "pdb");
        engine_auto(p, NULL, false, &c);
        ck_assert_str_eq(c.engine->name, "twophase");
        puzzle_destroy(p);
    }
    ck_assert_int_eq(tables_set_dir(NULL), PZ_OK);
    tmpdir_remove(dir);
}
END_TEST

/* --- slow: the 15- and 24-puzzle pattern databases ---------------------- */

/*
 * These build (or load) the big tables in the user's table directory
 * ($PUZZLED_TABLES or the cache), so they run only with PZ_SLOW_TESTS
 * (ctest -L slow): the 15-puzzle's take a few minutes and 600 MB once,
 * the 24-puzzle's longer.
 */

/* Reads Korf's instances (tiles and published optimal lengths). */
static int
read_korf(int tiles[][16], int *lengths, int max)
{
    FILE *f = fopen(PZ_SOURCE_DIR "/bench/data/korf100.txt", "r");
    char line[512];
    int n = 0;

    ck_assert_ptr_nonnull(f);
    while (n < max && fgets(line, sizeof(line), f) != NULL) {
        int *t = tiles[n];

        if (line[0] != '#' &&
            sscanf(line, "%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d",
                   &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], &t[6], &t[7],
                   &t[8], &t[9], &t[10], &t[11], &t[12], &t[13], &t[14], &t[15],
                   &lengths[n]) == 17) {
            n++;
        }
    }
    fclose(f);
    return n;
}

START_TEST(test_tables_pdb_15puzzle_korf_instances_optimal)
{
    static int tiles[100][16];
    static int lengths[100];
    static const int blank_first[16] = { 0, 1, 2,  3,  4,  5,  6,  7,
                                         8, 9, 10, 11, 12, 13, 14, 15 };
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    int n = read_korf(tiles, lengths, 100);
    pz_state_t goal;
    int bad = 0;

    ck_assert_int_eq(tables_set_dir(NULL), PZ_OK);
    ck_assert_int_eq(n, 100);
    ck_assert_int_eq(tl_parse_ints(p, blank_first, 16, &goal, NULL), PZ_OK);
    /* All 100 (the published lengths are the facts; about a second). */
    for (int i = 0; i < n; i++) {
        pz_state_t s;
        pz_solution_t sol;

        ck_assert_int_eq(tl_parse_ints(p, tiles[i], 16, &s, NULL), PZ_OK);
        for (int k = 0; k < 3; k++) {
            const char *heur = k == 0 ? "pdb" : "pdb-dual";
            const char *engine = k == 2 ? "dida" : "idastar";

            ck_assert_int_eq(run(p, &s, &goal, engine, heur, 1u << 20, &sol),
                             PZ_OK);
            if (sol.status != PZ_STATUS_SOLVED || !sol.optimal ||
                sol.length != lengths[i]) {
                fprintf(stderr, "korf %d %s %s: %s length %d, published %d\n",
                        i + 1, engine, heur, pz_status_name(sol.status),
                        sol.length, lengths[i]);
                bad++;
            }
        }
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_pdb_15puzzle_admissible_and_above_manhattan)
{
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    pz_heuristic_t *pdb = NULL;
    pz_heuristic_t *md = NULL;
    pz_state_t goal;
    pz_rng_t rng;
    int below_md = 0;
    int over = 0;

    ck_assert_int_eq(tables_set_dir(NULL), PZ_OK);
    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &pdb, NULL), PZ_OK);
    ck_assert_int_eq(heuristic_create(p, "manhattan", &goal, &md, NULL), PZ_OK);
    ck_assert_int_eq(heuristic_eval(pdb, &goal), 0);
    pz_rng_seed(&rng, 41);
    /* Each pattern needs at least its tiles' Manhattan distances, so the
     * sum is at least Manhattan; walks bound the distance from above. */
    for (int i = 0; i < 20000; i++) {
        uint8_t moves[60];
        pz_state_t s;
        int len = 1 + (int)pz_rand_below(pz_rng_next, &rng, 59);

        puzzle_random_moves(p, &goal, len, pz_rng_next, &rng, moves);
        puzzle_replay(p, &goal, moves, len, &s);
        below_md += heuristic_eval(pdb, &s) < heuristic_eval(md, &s);
        over += heuristic_eval(pdb, &s) > len;
    }
    ck_assert_int_eq(below_md, 0);
    ck_assert_int_eq(over, 0);
    heuristic_destroy(pdb);
    heuristic_destroy(md);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_pdb_15puzzle_goals_share_tables)
{
    static const int blank_first[16] = { 0, 1, 2,  3,  4,  5,  6,  7,
                                         8, 9, 10, 11, 12, 13, 14, 15 };
    pz_puzzle_t *p = tl_make("15-puzzle", 0, 0, 0);
    pz_heuristic_t *h = NULL;
    pz_state_t goal;
    size_t before;

    ck_assert_int_eq(tables_set_dir(NULL), PZ_OK);
    puzzle_goal(p, &goal);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &h, NULL), PZ_OK);
    heuristic_destroy(h);
    before = tables_memory_bytes();
    /* The blank-first goal is the blank-last one turned half a turn. */
    ck_assert_int_eq(tl_parse_ints(p, blank_first, 16, &goal, NULL), PZ_OK);
    ck_assert_int_eq(heuristic_create(p, "pdb", &goal, &h, NULL), PZ_OK);
    ck_assert_uint_eq(tables_memory_bytes(), before);
    {
        const char *names[8];
        int n = tiles_pdb_heuristic.tables(p, &goal, names, 8);

        ck_assert_int_eq(n, 2);
        ck_assert(tables_available(names, n, NULL));
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_tables_pdb_24puzzle_short_walks_optimal)
{
    pz_puzzle_t *p = tl_make("24-puzzle", 0, 0, 0);
    pz_state_t goal;
    pz_rng_t rng;
    int bad = 0;

    ck_assert_int_eq(tables_set_dir(NULL), PZ_OK);
    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 51);
    /* Linear conflict IDA* proves these short distances quickly; pdb
     * must agree. */
    for (int i = 0; i < 10; i++) {
        uint8_t moves[40];
        pz_state_t s;
        pz_solution_t a;
        pz_solution_t b;

        puzzle_random_moves(p, &goal, 40, pz_rng_next, &rng, moves);
        puzzle_replay(p, &goal, moves, 40, &s);
        ck_assert_int_eq(run(p, &s, &goal, "idastar", "pdb", 1u << 20, &a),
                         PZ_OK);
        ck_assert_int_eq(
            run(p, &s, &goal, "idastar", "linear-conflict", 1u << 20, &b),
            PZ_OK);
        bad += a.status != PZ_STATUS_SOLVED || b.status != PZ_STATUS_SOLVED ||
               a.length != b.length;
    }
    ck_assert_int_eq(bad, 0);
    puzzle_destroy(p);
}
END_TEST

static Suite *
tables_suite(void)
{
    Suite *s = suite_create("tables");
    TCase *tc;

    tc = tcase_create("complete_counts");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_complete_counts_8puzzle_matches_depths);
    tcase_add_test(tc, test_complete_counts_2x2x2_htm_matches_depths);
    tcase_add_test(tc, test_complete_counts_2x2x2_qtm_matches_depths);
    tcase_add_test(tc, test_complete_counts_pyraminx_tipless_matches_depths);
    tcase_add_test(tc, test_complete_counts_4x4_unsupported);
    suite_add_tcase(s, tc);

    tc = tcase_create("engine_table");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_tables_engine_table_matches_bibfs_2x2x2_htm);
    tcase_add_test(tc, test_tables_engine_table_matches_bibfs_2x2x2_qtm);
    tcase_add_test(tc, test_tables_engine_table_matches_bibfs_8puzzle);
    tcase_add_test(tc,
                   test_tables_engine_table_matches_bibfs_pyraminx_with_tips);
    tcase_add_test(tc, test_tables_engine_table_custom_goal_2x2x2_relabelled);
    tcase_add_test(tc,
                   test_tables_engine_table_custom_goal_8puzzle_private_table);
    tcase_add_test(
        tc, test_tables_engine_table_private_table_over_budget_is_memory_limit);
    tcase_add_test(tc, test_tables_engine_table_unsupported_puzzle_fails);
    suite_add_tcase(s, tc);

    tc = tcase_create("exact");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_tables_exact_equals_bfs_on_every_8puzzle_board);
    tcase_add_test(tc, test_tables_exact_equals_bfs_for_a_blank_first_goal);
    tcase_add_test(tc, test_tables_exact_equals_bibfs_on_pyraminx_with_tips);
    tcase_add_test(tc, test_tables_exact_on_15puzzle_is_refused);
    suite_add_tcase(s, tc);

    tc = tcase_create("pdb");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_tables_pdb_equals_pattern_bfs_on_3x3);
    tcase_add_test(tc, test_tables_pdb_admissible_for_a_blank_first_goal);
    tcase_add_test(tc, test_tables_pdb_dual_admissible_on_3x3);
    tcase_add_test(tc, test_tables_dida_optimal_on_3x3);
    tcase_add_test(tc, test_tables_pdb_idastar_optimal_on_2x4);
    tcase_add_test(tc, test_tables_pdb_threaded_build_matches_sequential);
    tcase_add_test(tc, test_tables_pdb_build_reports_every_layer);
    tcase_add_test(tc, test_tables_pdb_build_cancelled_after_the_layer);
    tcase_add_test(tc, test_tables_pdb_unsupported_size_refused);
    tcase_add_test(tc,
                   test_tables_pdb_needs_named_tables_missing_without_files);
    suite_add_tcase(s, tc);

    tc = tcase_create("files");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc,
                   test_tables_verify_flipped_data_byte_detected_and_rebuilt);
    tcase_add_test(tc,
                   test_tables_verify_flipped_header_byte_detected_and_rebuilt);
    tcase_add_test(tc, test_tables_ensure_truncated_file_rebuilt);
    tcase_add_test(tc, test_tables_ensure_missing_file_built_then_loaded);
    tcase_add_test(tc, test_tables_load_existing_never_builds);
    tcase_add_test(tc, test_tables_ensure_unknown_name_not_found);
    tcase_add_test(tc, test_tables_ensure_two_processes_build_at_once);
    tcase_add_test(tc, test_tables_ensure_threads_build_once);
    tcase_add_test(tc, test_tables_list_reports_built_tables);
    tcase_add_test(tc, test_tables_set_dir_rejects_long_path);
    tcase_add_test(tc, test_tables_set_dir_default_follows_environment);
    suite_add_tcase(s, tc);

    tc = tcase_create("engine_auto");
    tcase_add_test(tc, test_tables_engine_auto_picks_table_for_small_puzzles);
    tcase_add_test(tc, test_tables_engine_auto_15puzzle_without_pdb_files);
    tcase_add_test(tc, test_tables_engine_auto_large_puzzles_use_their_choice);
    suite_add_tcase(s, tc);

    if (getenv("PZ_SLOW_TESTS") != NULL) {
        tc = tcase_create("slow_pdb");
        tcase_set_timeout(tc, 3000);
        tcase_add_test(tc, test_tables_pdb_15puzzle_korf_instances_optimal);
        tcase_add_test(tc,
                       test_tables_pdb_15puzzle_admissible_and_above_manhattan);
        tcase_add_test(tc, test_tables_pdb_15puzzle_goals_share_tables);
        tcase_add_test(tc, test_tables_pdb_24puzzle_short_walks_optimal);
        suite_add_tcase(s, tc);
    }
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(tables_suite());

    /* The named tables, as the program registers them. */
    solve_register_tables();
    int failed;

    /* One directory for the tests that only read tables: each test runs
     * in its own process, and the first to need a table builds it there
     * for the others. */
    snprintf(shared_dir, sizeof(shared_dir), "/tmp/pz-tables-XXXXXX");
    if (mkdtemp(shared_dir) == NULL || tables_set_dir(shared_dir) != PZ_OK) {
        fprintf(stderr, "cannot make a temporary table directory\n");
        return EXIT_FAILURE;
    }
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    tmpdir_remove(shared_dir);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
