/* SPDX-License-Identifier: MIT */
/* test_cli.c - the puzzled binary's solve and scramble commands: output,
 * JSON, exit codes (0 solved, 2 invalid input, 3 limit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <check.h>
#include <cjson/cJSON.h>

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
    /* layouts.md: this position is 5 quarter turns from solved. */
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(sol, "length")->valueint,
                     5);
    ck_assert_int_eq(
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(sol, "moves")), 5);
    ck_assert(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j, "stats")));
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
    suite_add_tcase(s, tc);
    tc = tcase_create("scramble");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_cli_scramble_is_deterministic_and_solvable);
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
