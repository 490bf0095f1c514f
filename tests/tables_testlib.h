/* SPDX-License-Identifier: MIT */
/* tables_testlib.h - helpers shared by the table tests (test_tables.c,
 * test_tables_pdb.c): temporary table directories, a solve, and an
 * independent breadth-first search over the 8-puzzle. */
#ifndef PZ_TESTS_TABLES_TESTLIB_H
#define PZ_TESTS_TABLES_TESTLIB_H

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "solve.h"
#include "tables.h"
#include "testlib.h"
#include "tmpdir_testlib.h"

/* Every function is static inline so each test file uses what it needs. */

/* --- temporary directories ---------------------------------------------- */

/* Makes a fresh directory and points the tables at it. */
static inline void
use_fresh_dir(char *buf, size_t len)
{
    tmpdir_make(buf, len, "pz-tables");
    ck_assert_int_eq(tables_set_dir(buf), PZ_OK);
}

/* Number of files in dir whose name ends with suffix. */
static inline int
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

static inline void
table_path(const char *dir, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s.pzt", dir, name);
}

static inline int
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

/* --- an independent BFS over the 3x3 board ------------------------------ */

#define N9      9
#define FACT9   362880
#define UNSEEN8 0xFF

/* Lehmer code of a permutation of 0..8 (written apart from tiles.c). */
static inline int
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

static inline void
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
static inline void
neighbours9(int c, int out[4])
{
    out[0] = c >= 3 ? c - 3 : -1;
    out[1] = c < 6 ? c + 3 : -1;
    out[2] = c % 3 > 0 ? c - 1 : -1;
    out[3] = c % 3 < 2 ? c + 1 : -1;
}

/* BFS distances (by lehmer9) of every 8-puzzle board from goal. */
static inline uint8_t *
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

static inline void
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

/* --- a table test program's main ---------------------------------------- */

/*
 * Runs suite s with the named tables registered and one temporary table
 * directory for the tests that only read tables: each test runs in its
 * own process, and the first to need a table builds it there for the
 * others. Returns main's exit status.
 */
static inline int
tables_test_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    char shared_dir[64];
    int failed;

    /* The named tables, as the program registers them. */
    solve_register_tables();
    snprintf(shared_dir, sizeof(shared_dir), "/tmp/pz-tables-XXXXXX");
    if (mkdtemp(shared_dir) == NULL || tables_set_dir(shared_dir) != PZ_OK) {
        fprintf(stderr, "cannot make a temporary table directory\n");
        srunner_free(sr);
        return EXIT_FAILURE;
    }
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    tmpdir_remove(shared_dir);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
