/* SPDX-License-Identifier: MIT */
/* test_tables.c - table files, complete tables, the table engine, "exact"
 * and auto's choice of tables. */

/*
 * Golden facts: the published depth distributions (copied below), and a
 * breadth-first search over the 8-puzzle written apart from solver/tables/
 * with its own Lehmer-code index (tables_testlib.h). Bidirectional BFS
 * gives the optimal lengths of random 2x2x2 and pyraminx states. Every
 * test uses a temporary table directory: one shared by the tests that only
 * read tables (made in main), and a fresh one for each test that damages
 * files.
 */
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
#include "solve.h"
#include "tables.h"
#include "tables_testlib.h"
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

    return s;
}

int
main(void)
{
    return tables_test_run(tables_suite());
}
