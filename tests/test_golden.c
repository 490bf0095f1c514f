/* SPDX-License-Identifier: MIT */
/* test_golden.c - every optimal engine finds exactly the known optimal
 * length of each case in tests/cases/<puzzle>/NNN_<desc>.json.
 *
 * A case holds a solve request, the optimal length from an independent
 * source (published tables, Korf's instances, the reference notebooks) and
 * the engines to run. Weighted A* must stay within weight x optimal. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "api_json.h"
#include "request.h"

#define CASES_DIR PZ_SOURCE_DIR "/tests/cases"

static char *
read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (f == NULL) {
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        } else if (buf != NULL) {
            buf[n] = '\0';
            *len = (size_t)n;
        }
    }
    fclose(f);
    return buf;
}

/* Runs one engine on the case's request and returns the run's result. */
static void
run_engine(const char *path,
           const cJSON *request,
           const char *engine,
           int expected)
{
    cJSON *body = cJSON_Duplicate(request, 1);
    api_solve_request_t req;
    api_policy_t pol;
    pz_diag_t d;
    const pz_solution_t *sol;
    int rc;

    api_policy_default(&pol);
    /* The cases check lengths, not speed: no deadline, however loaded the
     * machine (the test's own timeout still ends a hang). */
    pol.default_time_ms = 0;
    pol.max_time_ms = 0;
    pol.max_memory_bytes = 0;
    pol.default_memory_bytes = (size_t)1 << 30;
    cJSON_DeleteItemFromObjectCaseSensitive(body, "engine");
    cJSON_AddStringToObject(body, "engine", engine);
    rc = api_solve_parse(body, &pol, &req, &d);
    cJSON_Delete(body);
    ck_assert_msg(rc == PZ_OK, "%s: request rejected: %s", path, d.detail);
    rc = solve_execute(&req.spec, &req.runs[0], NULL);
    sol = &req.runs[0].solution;
    ck_assert_msg(rc == PZ_OK && sol->status == PZ_STATUS_SOLVED,
                  "%s: %s ended %s (rc %s)", path, engine,
                  pz_status_name(sol->status), pz_strerror(rc));
    if (req.runs[0].engine->optimal && req.runs[0].weight == 1.0) {
        ck_assert_msg(sol->length == expected && sol->optimal,
                      "%s: %s found %d moves, optimal is %d", path, engine,
                      sol->length, expected);
    } else {
        ck_assert_msg(sol->length >= expected &&
                          sol->length <= req.runs[0].weight * expected,
                      "%s: %s found %d moves, bound is %g x %d", path, engine,
                      sol->length, req.runs[0].weight, expected);
    }
    api_solve_cleanup(&req);
}

static int
run_case(const char *path)
{
    size_t len = 0;
    char *text = read_file(path, &len);
    cJSON *root;
    const cJSON *engines;
    const cJSON *request;
    const cJSON *expected;
    int n = 0;

    ck_assert_msg(text != NULL, "cannot read %s", path);
    root = cJSON_ParseWithLength(text, len);
    ck_assert_msg(root != NULL, "%s is not JSON", path);
    request = cJSON_GetObjectItemCaseSensitive(root, "request");
    expected = cJSON_GetObjectItemCaseSensitive(root, "optimal_length");
    engines = cJSON_GetObjectItemCaseSensitive(root, "engines");
    ck_assert_msg(
        cJSON_IsObject(request) && cJSON_IsNumber(expected) &&
            cJSON_IsArray(engines) &&
            cJSON_IsString(cJSON_GetObjectItemCaseSensitive(root, "source")),
        "%s lacks request, optimal_length, engines or source", path);
    for (const cJSON *e = engines->child; e != NULL; e = e->next, n++) {
        run_engine(path, request, e->valuestring, expected->valueint);
    }
    cJSON_Delete(root);
    free(text);
    return n;
}

static int
name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every case of one puzzle directory in name order. */
static void
run_dir(const char *puzzle)
{
    char dir[512];
    char *names[256];
    int count = 0;
    int runs = 0;
    DIR *dp;
    struct dirent *de;

    snprintf(dir, sizeof(dir), "%s/%s", CASES_DIR, puzzle);
    dp = opendir(dir);
    ck_assert_msg(dp != NULL, "no case directory %s", dir);
    while ((de = readdir(dp)) != NULL && count < 256) {
        size_t n = strlen(de->d_name);

        if (n > 5 && strcmp(de->d_name + n - 5, ".json") == 0) {
            names[count++] = strdup(de->d_name);
        }
    }
    closedir(dp);
    qsort(names, (size_t)count, sizeof(names[0]), name_cmp);
    ck_assert_int_gt(count, 0);
    for (int i = 0; i < count; i++) {
        char path[1024];

        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        runs += run_case(path);
        free(names[i]);
    }
    ck_assert_int_ge(runs, count);
}

/* Every registered puzzle has its cases (tests/cases/<name>/), and they
 * all match. */
START_TEST(test_golden_cases_match_known_optima)
{
    run_dir(puzzle_registry()[_i]->name);
}
END_TEST

/* Every case folder belongs to a registered puzzle. */
START_TEST(test_golden_case_folders_are_puzzles)
{
    DIR *dp = opendir(CASES_DIR);
    struct dirent *de;
    int folders = 0;

    ck_assert_ptr_nonnull(dp);
    while ((de = readdir(dp)) != NULL) {
        if (de->d_name[0] == '.') {
            continue;
        }
        ck_assert_msg(puzzle_find(de->d_name) != NULL &&
                          strcmp(puzzle_find(de->d_name)->name, de->d_name) ==
                              0,
                      "tests/cases/%s is no registered puzzle", de->d_name);
        folders++;
    }
    closedir(dp);
    ck_assert_int_gt(folders, 0);
}
END_TEST

static int
registry_size(void)
{
    int n = 0;

    while (puzzle_registry()[n] != NULL) {
        n++;
    }
    return n;
}

static Suite *
golden_suite(void)
{
    Suite *s = suite_create("golden");
    TCase *tc = tcase_create("cases");

    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_golden_cases_match_known_optima, 0,
                        registry_size());
    tcase_add_test(tc, test_golden_case_folders_are_puzzles);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(golden_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
