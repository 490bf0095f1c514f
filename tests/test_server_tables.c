/* SPDX-License-Identifier: MIT */
/* test_server_tables.c - `puzzled serve` and its tables over libcurl: a
 * fresh server preparing them, builds on demand and at shutdown, files
 * changed under it, memory limits, fallbacks. */

/*
 * Design: the tables tests start and stop a private daemon, most on a
 * table directory of their own; the tables-shared TCase runs one daemon
 * on the complete tables (http_testlib.h).
 */
#include <curl/curl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "http_testlib.h"
#include "srv_testlib.h"
#include "tmpdir_testlib.h"

/* ======================================================================= */
/* tables: prepared, built on demand, missing, changed under the server */

/* The state of table name in GET /v1/tables ("" when not listed). */
static void
table_state(int port, const char *name, char *out, size_t cap)
{
    http_resp_t r;
    cJSON *j;
    const cJSON *list;

    out[0] = '\0';
    http_get(port, "/v1/tables", &r);
    ck_assert_int_eq(r.status, 200);
    j = cJSON_ParseWithLength(r.body, r.len);
    ck_assert_ptr_nonnull(j);
    list = cJSON_GetObjectItemCaseSensitive(j, "tables");
    ck_assert(cJSON_IsArray(list));
    for (const cJSON *t = list->child; t != NULL; t = t->next) {
        const char *why = ht_check_table(t);

        ck_assert_msg(why == NULL, "%s", why);
        if (strcmp(ht_jstr(t, "name"), name) == 0) {
            snprintf(out, cap, "%s", ht_jstr(t, "state"));
        }
    }
    cJSON_Delete(j);
    http_resp_free(&r);
}

/* Waits (long polls) until job id ends; returns it (owned). */
static cJSON *
wait_job(int port, const char *id, int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    cJSON *j = ht_get_job(port, id, 0, NULL);

    while (!ht_job_terminal(j) && now_ms() < deadline) {
        cJSON_Delete(j);
        j = ht_get_job(port, id, 5000, NULL);
    }
    return j;
}

/*
 * A fresh server on an empty table directory, default configuration: it
 * is "warming" while it builds its start-up tables; a request that needs
 * the 5.2 GB pdb-large databases is refused at once (table_missing, with
 * the command that builds them) and starts no build, twice; the first
 * 3x3x3 request is "preparing" (with the two-phase table and its
 * progress), a DELETE ends a preparing job as cancelled at once and it
 * stays cancelled; "fail" asks are refused while the table builds; then
 * the first request is solved within its default limits (time_ms counts
 * from the search's start) and the server is ready.
 */
START_TEST(test_server_http_tables_fresh_server_prepares_first_3x3x3)
{
    static const char big[] =
        "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\",\"engine\":\"idastar\","
        "\"heuristic\":\"pdb-large\",\"memory_mb\":64}";
    char tables[64];
    const char *flags[] = { "--tables", tables, NULL };
    char state[32];
    http_resp_t r;
    srv_t s;
    cJSON *j;
    const cJSON *tl;
    char *first;
    char *other;
    long st;
    int64_t t0;

    tmpdir_make(tables, sizeof(tables), "pz-http-fresh");
    ck_assert(srv_start(&s, flags) == 0);
    http_get(s.port, "/readyz", &r);
    ck_assert_int_eq(r.status, 503);
    ck_assert_ptr_nonnull(strstr(r.body, "\"reason\":\"warming\""));
    http_resp_free(&r);

    for (int k = 0; k < 2; k++) {
        http_post(s.port, "/v1/solve", big, &r);
        ASSERT_PROBLEM(&r, 503, "table_missing");
        ck_assert_ptr_nonnull(strstr(r.body, "puzzled tables build 3x3x3"));
        ck_assert_str_eq(r.retry_after, "60");
        http_resp_free(&r);
        table_state(s.port, "3x3x3-pdb-csplit-htm", state, sizeof(state));
        ck_assert_str_eq(state, "missing");
    }

    first = ht_submit(s.port,
                      "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U R' U'\","
                      "\"wait_ms\":0}",
                      &st, &r);
    ck_assert_int_eq(st, 202);
    j = ht_job_of(&r);
    ck_assert_str_eq(ht_jstr(j, "status"), "preparing");
    tl = cJSON_GetObjectItemCaseSensitive(j, "tables");
    ck_assert(cJSON_IsArray(tl) && cJSON_GetArraySize(tl) == 1);
    ck_assert_str_eq(ht_jstr(tl->child, "name"), "3x3x3-twophase");
    cJSON_Delete(j);
    http_resp_free(&r);

    /* While the table builds: "fail" is refused with a retry time. */
    http_post(s.port, "/v1/solve",
              "{\"puzzle\":\"3x3x3\",\"scramble\":\"F\",\"tables\":\"fail\"}",
              &r);
    ASSERT_PROBLEM(&r, 503, "table_not_ready");
    ck_assert_str_eq(r.retry_after, "5");
    http_resp_free(&r);

    /* Cancel ends a preparing job at once: its answer says so, and the
     * next GET sees it ended. */
    other = ht_submit(
        s.port, "{\"puzzle\":\"3x3x3\",\"scramble\":\"F R\",\"wait_ms\":0}",
        &st, NULL);
    ck_assert_int_eq(st, 202);
    t0 = now_ms();
    ht_cancel_job(s.port, other);
    j = ht_get_job(s.port, other, 0, NULL);
    ck_assert_str_eq(ht_jstr(j, "status"), "cancelled");
    fprintf(stderr, "preparing job cancelled within %lld ms\n",
            (long long)(now_ms() - t0));
    cJSON_Delete(j);

    j = wait_job(s.port, first, 240000);
    ck_assert_str_eq(ht_jstr(j, "status"), "solved");
    ck_assert_int_le(
        cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(j, "solution"), "length")
            ->valueint,
        20);
    ck_assert_double_lt(
        cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(j, "stats"), "elapsed_ms")
            ->valuedouble,
        10000);
    cJSON_Delete(j);
    /* The cancelled job never runs once the table is there. */
    j = ht_get_job(s.port, other, 0, NULL);
    ck_assert_str_eq(ht_jstr(j, "status"), "cancelled");
    cJSON_Delete(j);
    http_get(s.port, "/readyz", &r);
    ck_assert_int_eq(r.status, 200);
    http_resp_free(&r);
    table_state(s.port, "3x3x3-twophase", state, sizeof(state));
    ck_assert_str_eq(state, "ready");
    free(first);
    free(other);
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
    tmpdir_remove(tables);
}
END_TEST

/* Replaces the file at path by n bytes of garbage (n 0: truncates it). */
static void
clobber(const char *path, size_t n)
{
    FILE *f = fopen(path, "wb");

    ck_assert_ptr_nonnull(f);
    for (size_t i = 0; i < n; i++) {
        fputc((int)(i * 131 % 251), f);
    }
    fclose(f);
}

/* The 2x2x2 and 8-puzzle tables' files truncated, replaced by garbage and
 * deleted under a running server: it keeps serving them, right (its
 * tables are copies, checked when read), never crashing (a mapping of a
 * truncated file would fault with SIGBUS). */
START_TEST(test_server_http_tables_files_changed_under_server)
{
    static const char *const bodies[] = {
        "{\"puzzle\":\"2x2x2\",\"scramble\":\"R U2 F' R2 U F\"}",
        "{\"puzzle\":\"8-puzzle\",\"state\":[8,6,7,2,5,4,3,0,1]}",
    };
    static const char *const files[] = { "2x2x2-htm.pzt", "tiles-3x3.pzt" };
    char tables[64];
    char cmd[700];
    char path[160];
    const char *flags[] = { "--tables", tables, "--table-builds", "never",
                            NULL };
    srv_t s;
    cJSON *j;
    http_resp_t r;
    long st;
    char *id;

    tmpdir_make(tables, sizeof(tables), "pz-http-files");
    snprintf(cmd, sizeof(cmd), "cp %s/*.pzt %s/", g_tables, tables);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert(srv_start(&s, flags) == 0);
    for (int step = 0; step < 4; step++) {
        for (int k = 0; k < 2; k++) {
            snprintf(path, sizeof(path), "%s/%s", tables, files[k]);
            if (step == 1) {
                FILE *f = fopen(path, "r+b");

                /* Truncated in place: the same inode, shorter. */
                ck_assert_ptr_nonnull(f);
                ck_assert_int_eq(ftruncate(fileno(f), 4096 + 100), 0);
                fclose(f);
            } else if (step == 2) {
                clobber(path, 3 << 20);
            } else if (step == 3) {
                ck_assert_int_eq(unlink(path), 0);
            }
            id = ht_submit(s.port, bodies[k], &st, &r);
            ck_assert_msg(st == 200, "step %d: %ld %.300s", step, st, r.body);
            j = ht_job_of(&r);
            ck_assert_str_eq(ht_jstr(j, "status"), "solved");
            ck_assert_str_eq(ht_jstr(j, "engine"), "table");
            ck_assert_int_eq(
                cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(j, "solution"), "length")
                    ->valueint,
                k == 0 ? 6 : 31);
            cJSON_Delete(j);
            http_resp_free(&r);
            free(id);
        }
    }
    ck_assert_int_eq(srv_status(&s), -1); /* still running */
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
    tmpdir_remove(tables);
}
END_TEST

/*
 * With --table-builds on-demand a request may start a build: two jobs
 * that need the same (small) pattern databases wait as preparing for one
 * build of each table and are both solved.
 */
START_TEST(test_server_http_tables_on_demand_build_shared)
{
    static const char body[] =
        "{\"puzzle\":\"tiles\",\"size\":\"3x4\",\"engine\":\"idastar\","
        "\"heuristic\":\"pdb\",\"state\":[4,1,2,3,5,6,10,7,8,9,0,11],"
        "\"wait_ms\":0}";
    char tables[64];
    const char *flags[] = { "--tables", tables, "--table-builds", "on-demand",
                            NULL };
    char path[160];
    char *log;
    char *ids[2];
    const char *at;
    int builds = 0;
    srv_t s;
    long st;

    tmpdir_make(tables, sizeof(tables), "pz-http-demand");
    ck_assert(srv_start(&s, flags) == 0);
    for (int k = 0; k < 2; k++) {
        ids[k] = ht_submit(s.port, body, &st, NULL);
        ck_assert_ptr_nonnull(ids[k]);
    }
    for (int k = 0; k < 2; k++) {
        cJSON *j = wait_job(s.port, ids[k], 120000);

        ck_assert_str_eq(ht_jstr(j, "status"), "solved");
        ck_assert_str_eq(ht_jstr(j, "heuristic"), "pdb");
        cJSON_Delete(j);
        free(ids[k]);
    }
    snprintf(path, sizeof(path), "%s/server.log", s.dir);
    log = read_file(path, NULL);
    ck_assert_ptr_nonnull(log);
    for (at = log; at != NULL && *at != '\0';) {
        const char *eol = strchr(at, '\n');
        const char *b = strstr(at, "building it");

        if (eol == NULL) {
            break;
        }
        if (b != NULL && b < eol &&
            strstr(at, "\"table\":\"tiles-3x4-pdb") != NULL &&
            strstr(at, "\"table\":\"tiles-3x4-pdb") < eol) {
            builds++;
        }
        at = eol + 1;
    }
    /* The 3x4 board has two patterns, each built once. */
    ck_assert_int_eq(builds, 2);
    free(log);
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
    tmpdir_remove(tables);
}
END_TEST

/* SIGTERM while the two-phase tables build: the daemon exits 0 within
 * seconds (the build is cancelled) and leaves no table file. */
START_TEST(test_server_http_tables_shutdown_during_build)
{
    char tables[64];
    const char *flags[] = { "--grace-ms", "300", "--tables", tables, NULL };
    char state[32] = "";
    char path[160];
    srv_t s;
    int64_t t0;
    int64_t deadline;

    tmpdir_make(tables, sizeof(tables), "pz-http-stop");
    ck_assert(srv_start(&s, flags) == 0);
    deadline = now_ms() + 60000;
    while (now_ms() < deadline) {
        table_state(s.port, "3x3x3-twophase", state, sizeof(state));
        if (strcmp(state, "building") == 0) {
            break;
        }
        sleep_ms(20);
    }
    ck_assert_str_eq(state, "building");
    t0 = now_ms();
    ck_assert_int_eq(srv_stop(&s), 0);
    ck_assert_msg(now_ms() - t0 < 6000, "shutdown took %lld ms",
                  (long long)(now_ms() - t0));
    snprintf(path, sizeof(path), "%s/3x3x3-twophase.pzt", tables);
    ck_assert_int_ne(access(path, F_OK), 0);
    srv_cleanup(&s);
    tmpdir_remove(tables);
}
END_TEST

/* A server whose tables may take 64 MiB refuses a 3x3x3 two-phase
 * request (607 MiB of tables) at once with 507 tables_memory, before
 * anything is allocated, instead of building past a container's limit
 * and being killed; it goes on serving (a 2x2x2 job is solved). */
START_TEST(test_server_http_tables_over_memory_limit_refused)
{
    char tables[64];
    char cmd[700];
    const char *flags[] = { "--tables-memory-mb", "64", "--tables", tables,
                            NULL };
    http_resp_t r;
    srv_t s;
    cJSON *j;
    long st;
    char *id;

    tmpdir_make(tables, sizeof(tables), "pz-http-tables");
    snprintf(cmd, sizeof(cmd), "cp %s/*.pzt %s/", g_tables, tables);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert(srv_start(&s, flags) == 0);
    http_post(s.port, "/v1/solve",
              "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U F\","
              "\"engine\":\"twophase\"}",
              &r);
    ASSERT_PROBLEM(&r, 507, "tables_memory");
    http_resp_free(&r);
    id = ht_submit(s.port,
                   "{\"puzzle\":\"2x2x2\",\"scramble\":\"R U F\","
                   "\"wait_ms\":20000}",
                   &st, &r);
    ck_assert_ptr_nonnull(id);
    j = ht_job_of(&r);
    ck_assert_str_eq(ht_jstr(j, "status"), "solved");
    cJSON_Delete(j);
    http_resp_free(&r);
    free(id);
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
    tmpdir_remove(tables);
}
END_TEST

/* "fallback" and auto without the 15-puzzle databases: solved with linear
 * conflict, and the job says which table was missing and how to build
 * it. */
START_TEST(test_server_http_tables_fallback_and_auto_warn)
{
    static const char *const bodies[] = {
        "{\"puzzle\":\"15-puzzle\",\"state\":[1,2,3,4,5,6,7,8,9,10,11,12,13,"
        "14,0,15],\"heuristic\":\"pdb\",\"tables\":\"fallback\"}",
        "{\"puzzle\":\"15-puzzle\",\"state\":[1,2,3,4,5,6,7,8,9,10,11,12,13,"
        "0,14,15]}",
    };
    static const char *const codes[] = { "table_fallback", "table_missing" };

    for (int k = 0; k < 2; k++) {
        http_resp_t r;
        cJSON *j;
        const cJSON *w;
        long st;
        char *id = ht_submit(g_srv.port, bodies[k], &st, &r);

        ck_assert_int_eq(st, 200);
        j = ht_job_of(&r);
        ck_assert_str_eq(ht_jstr(j, "status"), "solved");
        ck_assert_str_eq(ht_jstr(j, "heuristic"), "linear-conflict");
        w = cJSON_GetObjectItemCaseSensitive(j, "warnings");
        ck_assert(cJSON_IsArray(w) && cJSON_GetArraySize(w) == 1);
        ck_assert_str_eq(ht_jstr(w->child, "code"), codes[k]);
        ck_assert_str_eq(ht_jstr(w->child, "table"), "tiles-4x4-pdb7-f7-z3");
        if (k == 1) {
            ck_assert_ptr_nonnull(strstr(ht_jstr(w->child, "detail"),
                                         "puzzled tables build 15-puzzle"));
        }
        cJSON_Delete(j);
        http_resp_free(&r);
        free(id);
    }
}
END_TEST

/* ======================================================================= */

static Suite *
server_tables_suite(void)
{
    Suite *s = suite_create("server_tables");
    TCase *tc;

    tc = tcase_create("tables");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc,
                   test_server_http_tables_fresh_server_prepares_first_3x3x3);
    tcase_add_test(tc, test_server_http_tables_files_changed_under_server);
    tcase_add_test(tc, test_server_http_tables_on_demand_build_shared);
    tcase_add_test(tc, test_server_http_tables_shutdown_during_build);
    tcase_add_test(tc, test_server_http_tables_over_memory_limit_refused);
    suite_add_tcase(s, tc);
    tc = ht_shared_tcase("tables-shared", 60);
    tcase_add_test(tc, test_server_http_tables_fallback_and_auto_warn);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr;
    int failed;

    /* The daemon is killed with us if we die; nothing else to inherit. */
    signal(SIGPIPE, SIG_IGN);
    if (!srv_prepare_tables("server-tables")) {
        return EXIT_FAILURE;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    sr = srunner_create(server_tables_suite());
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
