/* SPDX-License-Identifier: MIT */
/* test_cli.c - the puzzled binary's solve and scramble commands: output,
 * JSON, exit codes (0 solved, 2 invalid input, 3 limit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "api_json.h"
#include "tmpdir_testlib.h"

/* Runs `puzzled ARGS` (stderr discarded); returns the exit code and the
 * first cap-1 bytes of stdout in out. */
static int
run(const char *args, char *out, size_t cap)
{
    char cmd[2048];
    FILE *f;
    size_t n;
    int status;

    snprintf(cmd, sizeof(cmd), "%s %s 2>/dev/null", PZ_BINARY, args);
    f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    status = pclose(f);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

START_TEST(test_cli_solve_prints_optimal_solution)
{
    static char out[8192];

    ck_assert_int_eq(run("solve --puzzle 8-puzzle --state '0 6 1 / 4 5 8 / "
                         "3 7 2'",
                         out, sizeof(out)),
                     0);
    ck_assert_ptr_nonnull(strstr(out, "length    22 moves (optimal)"));
}
END_TEST

START_TEST(test_cli_solve_json_is_the_job_object)
{
    static char out[65536];
    cJSON *j;
    const cJSON *sol;

    ck_assert_int_eq(run("solve --puzzle 2x2x2 --metric qtm --state "
                         "'[2,5,5,0,1,1,4,2,2,2,3,4,3,5,0,0,4,4,1,0,3,1,3,5]' "
                         "--engine bibfs --json",
                         out, sizeof(out)),
                     0);
    j = cJSON_Parse(out);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(j, "status")->valuestring,
                     "solved");
    sol = cJSON_GetObjectItemCaseSensitive(j, "solution");
    /* This position (R U' R' F' then U) is 5 quarter turns from solved. */
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(sol, "length")->valueint,
                     5);
    ck_assert_int_eq(
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(sol, "moves")), 5);
    ck_assert(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j, "stats")));
    /* An ended job, as the API gives it: with its times. */
    ck_assert(
        cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "created_at")));
    ck_assert(
        cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "started_at")));
    ck_assert(
        cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "finished_at")));
    cJSON_Delete(j);
}
END_TEST

START_TEST(test_cli_solve_invalid_input_exits_2_with_problem)
{
    static char out[8192];
    cJSON *j;

    ck_assert_int_eq(
        run("solve --puzzle 2x2x2 --scramble 'R Q' --json", out, sizeof(out)),
        2);
    j = cJSON_Parse(out);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(j, "code")->valuestring,
                     "bad_move");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(j, "field")->valuestring,
                     "/scramble");
    cJSON_Delete(j);
    ck_assert_int_eq(run("solve --puzzle 8-puzzle --state '1 2 3 4 5 6 8 7 0'",
                         out, sizeof(out)),
                     2);
    ck_assert_int_eq(run("solve --puzzle 8-puzzle --bogus 1", out, sizeof(out)),
                     2);
    ck_assert_int_eq(run("solve --puzzle 8-puzzle --scramble U --time-ms x",
                         out, sizeof(out)),
                     2);
}
END_TEST

START_TEST(test_cli_solve_limit_exits_3)
{
    static char out[65536];
    cJSON *j;

    /* Korf's instance 1 (57 moves) cannot be solved in 50 expansions. */
    ck_assert_int_eq(run("solve --puzzle 15-puzzle --state "
                         "'14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3' "
                         "--goal '0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15' "
                         "--engine astar --max-nodes 50 --json",
                         out, sizeof(out)),
                     3);
    j = cJSON_Parse(out);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(j, "status")->valuestring,
                     "node_limit");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "solution")));
    cJSON_Delete(j);
}
END_TEST

START_TEST(test_cli_solve_compare_reports_every_engine)
{
    static char out[65536];
    cJSON *j;
    const cJSON *runs;

    ck_assert_int_eq(run("solve --puzzle 8-puzzle --state '0 6 1 / 4 5 8 / "
                         "3 7 2' --engines astar,bibfs,idastar --json",
                         out, sizeof(out)),
                     0);
    j = cJSON_Parse(out);
    ck_assert_ptr_nonnull(j);
    runs = cJSON_GetObjectItemCaseSensitive(j, "runs");
    ck_assert_int_eq(cJSON_GetArraySize(runs), 3);
    for (const cJSON *r = runs->child; r != NULL; r = r->next) {
        const cJSON *sol = cJSON_GetObjectItemCaseSensitive(r, "solution");

        ck_assert_int_eq(
            cJSON_GetObjectItemCaseSensitive(sol, "length")->valueint, 22);
    }
    cJSON_Delete(j);
}
END_TEST

START_TEST(test_cli_scramble_is_deterministic_and_solvable)
{
    static char a[4096];
    static char b[4096];
    static char cmd[8192];
    static char out[8192];

    ck_assert_int_eq(run("scramble --puzzle 2x2x2 --seed 7", a, sizeof(a)), 0);
    ck_assert_int_eq(run("scramble --puzzle 2x2x2 --seed 7", b, sizeof(b)), 0);
    ck_assert_str_eq(a, b);
    ck_assert_int_gt(strlen(a), 1);
    a[strcspn(a, "\n")] = '\0';
    /* A random-state scramble is an optimal solution inverted, so solving
     * it back needs exactly as many moves (HTM, at most 11). */
    snprintf(cmd, sizeof(cmd), "solve --puzzle 2x2x2 --scramble \"%s\"", a);
    ck_assert_int_eq(run(cmd, out, sizeof(out)), 0);
    ck_assert_ptr_nonnull(strstr(out, "(optimal)"));
    ck_assert_int_eq(
        run("scramble --puzzle 15-puzzle --moves 30 --seed 3", a, sizeof(a)),
        0);
    ck_assert_int_eq(run("scramble --puzzle megaminx", a, sizeof(a)), 2);
}
END_TEST

/* Reads a whole small file into buf (cap bytes, NUL-terminated). */
static void
slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n;

    ck_assert_ptr_nonnull(f);
    n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* The node count of each state row of a `bench cube3 --columns A` output
 * (the fifth field), n rows, into nodes. */
static void
bench_nodes(const char *out, long *nodes, int n)
{
    const char *line = out;
    int got = 0;

    while (line != NULL && *line != '\0' && got < n) {
        int state;
        int len;
        double wall;
        double cpu;
        long count;

        if (sscanf(line, "%d %d %lf %lf %ld", &state, &len, &wall, &cpu,
                   &count) == 5) {
            ck_assert_int_eq(state, got + 1);
            ck_assert_int_le(len, 20);
            nodes[got++] = count;
        }
        line = strchr(line, '\n');
        line = line != NULL ? line + 1 : NULL;
    }
    ck_assert_int_eq(got, n);
}

/* `bench cube3 --states-out` writes the random states as facelet strings
 * and `--states-in` reads them back: the same cubes (the file written
 * again is identical) get the same one-thread search (node counts, which
 * are deterministic, agree). Uses the two-phase tables (loaded, or built
 * once into the table directory as test_twophase does). */
START_TEST(test_cli_bench_cube3_states_round_trip)
{
    static char out1[16384];
    static char out2[16384];
    static char f1[8192];
    static char f2[8192];
    char dir[64];
    char cmd[512];
    long n1[3];
    long n2[3];

    tmpdir_make(dir, sizeof(dir), "pz-cli-bench");
    snprintf(cmd, sizeof(cmd),
             "bench cube3 --count 3 --seed 7 --columns A --states-out "
             "%s/a.txt",
             dir);
    ck_assert_int_eq(run(cmd, out1, sizeof(out1)), 0);
    snprintf(cmd, sizeof(cmd),
             "bench cube3 --states-in %s/a.txt --columns A --states-out "
             "%s/b.txt",
             dir, dir);
    ck_assert_int_eq(run(cmd, out2, sizeof(out2)), 0);
    ck_assert_ptr_nonnull(strstr(out2, "3 states from"));
    slurp(strcat(strcpy(cmd, dir), "/a.txt"), f1, sizeof(f1));
    slurp(strcat(strcpy(cmd, dir), "/b.txt"), f2, sizeof(f2));
    ck_assert_uint_eq(strlen(f1), 3 * 55);
    ck_assert_str_eq(f1, f2);
    bench_nodes(out1, n1, 3);
    bench_nodes(out2, n2, 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_gt(n1[i], 0);
        ck_assert_int_eq(n1[i], n2[i]);
    }
    tmpdir_remove(dir);
}
END_TEST

/* A bad states file is refused before any table is read: exit 2. */
START_TEST(test_cli_bench_cube3_bad_states_file_exits_2)
{
    static char out[4096];
    char dir[64];
    char path[128];
    char cmd[512];
    FILE *f;

    tmpdir_make(dir, sizeof(dir), "pz-cli-bench");
    snprintf(path, sizeof(path), "%s/bad.txt", dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    /* A valid cube (one R turn), then a sticker too many. */
    fputs("# comment\nUUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB\n"
          "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBBU\n",
          f);
    fclose(f);
    snprintf(cmd, sizeof(cmd), "bench cube3 --states-in %s", path);
    ck_assert_int_eq(run(cmd, out, sizeof(out)), 2);
    ck_assert_str_eq(out, "");
    snprintf(cmd, sizeof(cmd), "bench cube3 --states-in %s/none.txt", dir);
    ck_assert_int_eq(run(cmd, out, sizeof(out)), 2);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    snprintf(cmd, sizeof(cmd), "bench cube3 --states-in %s", path);
    ck_assert_int_eq(run(cmd, out, sizeof(out)), 2);
    tmpdir_remove(dir);
}
END_TEST

/* The JSON objects of the lines of out, in order; returns how many (at
 * most max), each line asserted to be one whole object. */
static int
ndjson(char *out, cJSON **items, int max)
{
    int n = 0;

    for (char *line = strtok(out, "\n"); line != NULL;
         line = strtok(NULL, "\n")) {
        ck_assert_int_lt(n, max);
        items[n] = cJSON_Parse(line);
        ck_assert_msg(cJSON_IsObject(items[n]), "not one JSON object: %s",
                      line);
        n++;
    }
    return n;
}

static int
solution_length(const cJSON *job)
{
    const cJSON *sol = cJSON_GetObjectItemCaseSensitive(job, "solution");

    ck_assert(cJSON_IsObject(sol));
    return cJSON_GetObjectItemCaseSensitive(sol, "length")->valueint;
}

START_TEST(test_cli_solve_batch_of_states_is_ndjson_in_order)
{
    static char out[65536];
    char path[] = "/tmp/pz-batch-XXXXXX";
    cJSON *items[8];
    char cmd[256];
    FILE *f;
    int fd = mkstemp(path);

    ck_assert_int_ge(fd, 0);
    f = fdopen(fd, "w");
    /* 22 moves (the single-solve test above), an unsolvable one (two
     * tiles swapped), a blank line, a comment, then one move. */
    fputs("0 6 1 / 4 5 8 / 3 7 2\n1 2 3 / 4 5 6 / 8 7 0\n\n# note\n"
          "  1 2 3 / 4 5 6 / 7 0 8  \n",
          f);
    fclose(f);
    snprintf(cmd, sizeof(cmd),
             "solve --puzzle 8-puzzle --batch %s --batch-states", path);
    /* The worst line decides: one was invalid input. */
    ck_assert_int_eq(run(cmd, out, sizeof(out)), 2);
    unlink(path);
    ck_assert_int_eq(ndjson(out, items, 8), 3);
    ck_assert_str_eq(
        cJSON_GetObjectItemCaseSensitive(items[0], "status")->valuestring,
        "solved");
    ck_assert_int_eq(solution_length(items[0]), 22);
    ck_assert_str_eq(
        cJSON_GetObjectItemCaseSensitive(items[1], "code")->valuestring,
        "tiles_unsolvable");
    ck_assert_int_eq(solution_length(items[2]), 1);
    for (int i = 0; i < 3; i++) {
        cJSON_Delete(items[i]);
    }
}
END_TEST

START_TEST(test_cli_solve_batch_of_scrambles_from_stdin)
{
    static char out[65536];
    char path[] = "/tmp/pz-batch-XXXXXX";
    cJSON *items[4];
    char cmd[256];
    FILE *f;
    int fd = mkstemp(path);

    ck_assert_int_ge(fd, 0);

    /* The shared options apply to every line: here bibfs in QTM, where
     * U2 is two moves. */
    ck_assert_int_eq(run("solve --puzzle 2x2x2 --metric qtm --engine bibfs "
                         "--batch - < /dev/null",
                         out, sizeof(out)),
                     0);
    ck_assert_str_eq(out, "");
    f = fdopen(fd, "w");
    fputs("R U\nU2\n", f);
    fclose(f);
    snprintf(cmd, sizeof(cmd),
             "solve --puzzle 2x2x2 --metric qtm --engine bibfs --batch - < %s",
             path);
    ck_assert_int_eq(run(cmd, out, sizeof(out)), 0);
    unlink(path);
    ck_assert_int_eq(ndjson(out, items, 4), 2);
    ck_assert_int_eq(solution_length(items[0]), 2);
    ck_assert_int_eq(solution_length(items[1]), 2);
    ck_assert_str_eq(
        cJSON_GetObjectItemCaseSensitive(items[1], "engine")->valuestring,
        "bibfs");
    cJSON_Delete(items[0]);
    cJSON_Delete(items[1]);
    /* A file that cannot be read, and a start beside the file. */
    ck_assert_int_eq(
        run("solve --puzzle 2x2x2 --batch /nonexistent/x", out, sizeof(out)),
        2);
    ck_assert_int_eq(run("solve --puzzle 2x2x2 --batch - --scramble R "
                         "< /dev/null",
                         out, sizeof(out)),
                     2);
}
END_TEST

static Suite *
cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("solve");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_cli_solve_prints_optimal_solution);
    tcase_add_test(tc, test_cli_solve_json_is_the_job_object);
    tcase_add_test(tc, test_cli_solve_invalid_input_exits_2_with_problem);
    tcase_add_test(tc, test_cli_solve_limit_exits_3);
    tcase_add_test(tc, test_cli_solve_compare_reports_every_engine);
    tcase_add_test(tc, test_cli_solve_batch_of_states_is_ndjson_in_order);
    tcase_add_test(tc, test_cli_solve_batch_of_scrambles_from_stdin);
    suite_add_tcase(s, tc);
    tc = tcase_create("scramble");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_cli_scramble_is_deterministic_and_solvable);
    suite_add_tcase(s, tc);
    tc = tcase_create("bench");
    /* The round trip may build the two-phase tables (2 minutes with the
     * sanitizers) when the table directory has none. */
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_cli_bench_cube3_states_round_trip);
    tcase_add_test(tc, test_cli_bench_cube3_bad_states_file_exits_2);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(cli_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
