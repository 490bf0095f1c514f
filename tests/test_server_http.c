/* SPDX-License-Identifier: MIT */
/* test_server_http.c - HTTP integration tests of `puzzled serve` over libcurl.
 */

/*
 * Design: every TCase runs the real binary on a loopback port
 * (srv_testlib.h: the daemon is started by a monitor process, so that the
 * last test of a TCase, which runs in a forked Check child, can send
 * SIGTERM and still assert that the daemon exited with status 0). Tests
 * that need their own flags (admission, retention, shutdown) start and
 * stop a private daemon inside the test.
 *
 * Responses are checked against openapi.yaml (the validator of
 * http_testlib.h, and the job-list schema here), and every solution is
 * replayed with the solver library on the input parsed independently, then
 * compared with known optimal lengths (a 2x2x2 case of 5 quarter turns,
 * and the two 31-move 8-puzzle positions of the published 8-puzzle
 * distribution).
 */
#include <curl/curl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "api_json.h"
#include "http_testlib.h"
#include "puzzle.h"
#include "pz_error.h"
#include "request.h"
#include "search.h"
#include "srv_testlib.h"
#include "tmpdir_testlib.h"

/* ======================================================================= */
/* contract: openapi.yaml agrees with the code's tables */

/* Collects the items of components.schemas.<schema>.<key> (an enum's
 * "- item" lines or a properties map's "name:" lines) from openapi.yaml. */
static int
yaml_items(const char *text,
           const char *schema,
           const char *key,
           char items[][48],
           int cap)
{
    char head[96];
    char sub[64];
    const char *p;
    int n = 0;

    snprintf(head, sizeof(head), "\n    %s:\n", schema);
    snprintf(sub, sizeof(sub), "\n      %s:", key);
    p = strstr(text, "\ncomponents:\n");
    p = p != NULL ? strstr(p, "\n  schemas:\n") : NULL;
    p = p != NULL ? strstr(p, head) : NULL;
    if (p == NULL) {
        return -1;
    }
    p += strlen(head) - 1;
    /* The key must belong to this schema: before the next 4-space key. */
    for (const char *q = p; *q != '\0';) {
        const char *eol = strchr(q + 1, '\n');

        if (strncmp(q, sub, strlen(sub)) == 0) {
            p = eol;
            break;
        }
        if (eol == NULL || (strncmp(eol, "\n    ", 5) == 0 && eol[5] != ' ')) {
            return -1;
        }
        q = eol;
    }
    while (p != NULL && strncmp(p, "\n        ", 9) == 0 && n < cap) {
        const char *s = p + 9;
        const char *eol = strchr(s, '\n');
        size_t len;

        if (*s == ' ') { /* deeper: a property's own keys */
            p = eol;
            continue;
        }
        if (*s == '-') {
            s += 2;
            len = strcspn(s, "\n");
        } else {
            len = strcspn(s, ":\n");
        }
        if (len >= 48) {
            return -1;
        }
        memcpy(items[n], s, len);
        items[n][len] = '\0';
        n++;
        p = eol;
    }
    return n;
}

START_TEST(test_server_http_contract_error_codes_match_spec)
{
    char *text = ht_load_spec();
    char items[80][48];
    int n = yaml_items(text, "ErrorCode", "enum", items, 80);
    int expected = PZ_ERR_LAST_ - PZ_ERR_FIRST_ - 1;

    ck_assert_int_eq(n, expected);
    for (int rc = PZ_ERR_FIRST_ + 1; rc < PZ_ERR_LAST_; rc++) {
        bool found = false;

        for (int i = 0; i < n; i++) {
            found = found || strcmp(items[i], pz_strerror(rc)) == 0;
        }
        ck_assert_msg(found, "code %s missing from openapi.yaml ErrorCode",
                      pz_strerror(rc));
    }
    free(text);
}

END_TEST

START_TEST(test_server_http_contract_statuses_match_spec)
{
    char *text = ht_load_spec();
    char items[16][48];
    int n = yaml_items(text, "Status", "enum", items, 16);

    ck_assert_int_eq(n, PZ_STATUS_COUNT_);
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(items[i], pz_status_name(i));
    }
    free(text);
}

END_TEST

START_TEST(test_server_http_contract_request_members_match_spec)
{
    char *text = ht_load_spec();
    char items[32][48];
    int n = yaml_items(text, "SolveRequest", "properties", items, 32);
    api_policy_t pol;
    api_solve_request_t req;
    pz_diag_t d;
    cJSON *body = cJSON_Parse("{\"no_such_member\":1}");
    char *list;
    int listed = 0;

    api_policy_default(&pol);
    ck_assert_int_eq(api_solve_parse(body, &pol, &req, &d), PZ_EUNKNOWN_FIELD);
    /* The parser names every member it accepts after "accepts ". */
    list = strstr(d.detail, "accepts ");
    ck_assert_ptr_nonnull(list);
    list += strlen("accepts ");
    for (char *tok = strtok(list, ", "); tok != NULL;
         tok = strtok(NULL, ", ")) {
        bool found = false;

        for (int i = 0; i < n; i++) {
            found = found || strcmp(items[i], tok) == 0;
        }
        ck_assert_msg(found, "member %s missing from SolveRequest", tok);
        listed++;
    }
    ck_assert_int_eq(listed, n);
    cJSON_Delete(body);
    free(text);
}

END_TEST

/* ======================================================================= */
/* solve: synchronous answers, replayed here */

START_TEST(test_server_http_solve_cube2_scramble_optimal_qtm)
{
    http_resp_t r;
    cJSON *j;
    int len;
    const char *why;

    http_post(g_srv.port, "/v1/solve",
              "{\"puzzle\":\"2x2x2\",\"metric\":\"qtm\",\"scramble\":"
              "\"" CUBE2_SCRAMBLE "\"}",
              &r);
    ck_assert_msg(r.status == 200, "status %ld: %.500s", r.status, r.body);
    j = ht_job_of(&r);
    ck_assert_str_eq(ht_jstr(j, "status"), "solved");
    ck_assert_str_eq(ht_jstr(j, "puzzle"), "2x2x2");
    ck_assert_str_eq(ht_jstr(j, "metric"), "qtm");
    ck_assert_str_eq(ht_jstr(j, "scramble"), CUBE2_SCRAMBLE);
    why = ht_replay_check("2x2x2", "qtm", CUBE2_SCRAMBLE, NULL, j, &len);
    ck_assert_msg(why == NULL, "%s", why);
    ck_assert_int_eq(len, CUBE2_OPTIMAL_QTM);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "optimal")));
    cJSON_Delete(j);
    http_resp_free(&r);
}

END_TEST

static double
solved_jobs(int port)
{
    http_resp_t r;
    double v;

    http_get(port, "/metrics", &r);
    ck_assert_int_eq(r.status, 200);
    v = ht_metric_value(r.body, "puzzled_jobs_total{status=\"solved\"}");
    http_resp_free(&r);
    return v;
}

/* Table jobs after the first may be answered on the connection's thread
 * (docs/http-performance.md): each must still be a job of its own, kept,
 * counted and correct, exactly as one a solver thread ran. */
START_TEST(test_server_http_solve_table_repeats_are_full_jobs)
{
    static const char body[] = "{\"puzzle\":\"2x2x2\",\"metric\":\"qtm\","
                               "\"scramble\":\"" CUBE2_SCRAMBLE "\"}";
    char ids[3][64];
    double before = solved_jobs(g_srv.port);

    for (int i = 0; i < 3; i++) {
        http_resp_t r;
        cJSON *j;
        cJSON *again;
        const cJSON *sol;
        const char *why;
        int len;

        http_post(g_srv.port, "/v1/solve", body, &r);
        ck_assert_msg(r.status == 200, "status %ld: %.500s", r.status, r.body);
        ck_assert_msg(r.request_id[0] != '\0', "no X-Request-Id");
        j = ht_job_of(&r);
        http_resp_free(&r);
        ck_assert_str_eq(ht_jstr(j, "status"), "solved");
        ck_assert_str_eq(ht_jstr(j, "engine"), "table");
        ck_assert_msg(ht_jstr(j, "started_at")[0] != '\0' &&
                          ht_jstr(j, "finished_at")[0] != '\0',
                      "a solved job has its start and end times");
        why = ht_replay_check("2x2x2", "qtm", CUBE2_SCRAMBLE, NULL, j, &len);
        ck_assert_msg(why == NULL, "%s", why);
        ck_assert_int_eq(len, CUBE2_OPTIMAL_QTM);
        snprintf(ids[i], sizeof(ids[i]), "%s", ht_jstr(j, "id"));
        for (int k = 0; k < i; k++) {
            ck_assert_str_ne(ids[k], ids[i]);
        }
        /* Kept in the table like any job, with the same answer. */
        again = ht_get_job(g_srv.port, ids[i], 0, NULL);
        ck_assert_str_eq(ht_jstr(again, "status"), "solved");
        sol = cJSON_GetObjectItemCaseSensitive(j, "solution");
        ck_assert_str_eq(
            ht_jstr(cJSON_GetObjectItemCaseSensitive(again, "solution"),
                    "text"),
            ht_jstr(sol, "text"));
        cJSON_Delete(again);
        cJSON_Delete(j);
    }
    ck_assert_msg(solved_jobs(g_srv.port) == before + 3,
                  "puzzled_jobs_total{status=\"solved\"} went from %g to %g",
                  before, solved_jobs(g_srv.port));
}

END_TEST

START_TEST(test_server_http_solve_cube2_array_same_position)
{
    http_resp_t r1;
    http_resp_t r2;
    cJSON *a;
    cJSON *b;
    int len;
    const char *why;

    http_post(g_srv.port, "/v1/solve",
              "{\"puzzle\":\"pocket\",\"metric\":\"qtm\",\"state\":" CUBE2_ARRAY
              "}",
              &r1);
    ck_assert_msg(r1.status == 200, "status %ld: %.500s", r1.status, r1.body);
    a = ht_job_of(&r1);
    ck_assert_str_eq(ht_jstr(a, "puzzle"), "2x2x2");
    why = ht_replay_check("2x2x2", "qtm", NULL, CUBE2_ARRAY, a, &len);
    ck_assert_msg(why == NULL, "%s", why);
    ck_assert_int_eq(len, CUBE2_OPTIMAL_QTM);
    /* The array is the scrambled cube: same state text. */
    http_post(g_srv.port, "/v1/solve",
              "{\"puzzle\":\"2x2x2\",\"metric\":\"qtm\",\"scramble\":"
              "\"" CUBE2_SCRAMBLE "\"}",
              &r2);
    b = ht_job_of(&r2);
    ck_assert_str_eq(ht_jstr(a, "state"), ht_jstr(b, "state"));
    cJSON_Delete(a);
    cJSON_Delete(b);
    http_resp_free(&r1);
    http_resp_free(&r2);
}

END_TEST

static void
solve_eight_hard(const char *state)
{
    char body[256];
    http_resp_t r;
    cJSON *j;
    const cJSON *sol;
    int len;
    const char *why;

    snprintf(body, sizeof(body), "{\"puzzle\":\"8-puzzle\",\"state\":%s}",
             state);
    http_post(g_srv.port, "/v1/solve", body, &r);
    ck_assert_msg(r.status == 200, "status %ld: %.500s", r.status, r.body);
    j = ht_job_of(&r);
    ck_assert_str_eq(ht_jstr(j, "status"), "solved");
    ck_assert_str_eq(ht_jstr(j, "puzzle"), "tiles");
    ck_assert_str_eq(ht_jstr(j, "size"), "3x3");
    why = ht_replay_check("8-puzzle", NULL, NULL, state, j, &len);
    ck_assert_msg(why == NULL, "%s", why);
    ck_assert_int_eq(len, EIGHT_HARD_OPTIMAL);
    sol = cJSON_GetObjectItemCaseSensitive(j, "solution");
    /* Tiles answers name the tile each move slides. */
    ck_assert_int_eq(
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(sol, "tiles")),
        EIGHT_HARD_OPTIMAL);
    cJSON_Delete(j);
    http_resp_free(&r);
}

START_TEST(test_server_http_solve_eight_hardest_a_31)
{
    solve_eight_hard(EIGHT_HARD_A);
}

END_TEST

START_TEST(test_server_http_solve_eight_hardest_b_31)
{
    solve_eight_hard(EIGHT_HARD_B);
}

END_TEST

START_TEST(test_server_http_solve_unversioned_alias_answers)
{
    http_resp_t r;
    cJSON *j;
    int len;
    const char *why;

    http_post(g_srv.port, "/solve",
              "{\"puzzle\":\"tiles\",\"state\":\"1 2 3 / 4 5 6 / 0 7 8\"}", &r);
    ck_assert_msg(r.status == 200, "status %ld: %.500s", r.status, r.body);
    j = ht_job_of(&r);
    why = ht_replay_check("8-puzzle", NULL, NULL, "\"1 2 3 4 5 6 0 7 8\"", j,
                          &len);
    ck_assert_msg(why == NULL, "%s", why);
    ck_assert_int_eq(len, 2);
    cJSON_Delete(j);
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_solve_solved_input_zero_moves)
{
    http_resp_t r;
    cJSON *j;
    const cJSON *sol;

    http_post(g_srv.port, "/v1/solve",
              "{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3,4,5,6,7,8,0]}", &r);
    ck_assert_msg(r.status == 200, "status %ld: %.500s", r.status, r.body);
    j = ht_job_of(&r);
    sol = cJSON_GetObjectItemCaseSensitive(j, "solution");
    ck_assert_str_eq(ht_jstr(j, "status"), "solved");
    ck_assert_int_eq(
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(sol, "moves")), 0);
    cJSON_Delete(j);
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_solve_compare_engines_rows_agree)
{
    http_resp_t r;
    cJSON *j;
    const cJSON *runs;
    int len;
    const char *why;

    http_post(g_srv.port, "/v1/solve",
              "{\"puzzle\":\"8-puzzle\",\"state\":" EIGHT_HARD_A
              ",\"engines\":[\"astar\",\"bibfs\",\"idastar\"]}",
              &r);
    ck_assert_msg(r.status == 200, "status %ld: %.500s", r.status, r.body);
    j = ht_job_of(&r);
    runs = cJSON_GetObjectItemCaseSensitive(j, "runs");
    ck_assert_int_eq(cJSON_GetArraySize(runs), 3);
    for (const cJSON *run = runs->child; run != NULL; run = run->next) {
        why = ht_replay_check("8-puzzle", NULL, NULL, EIGHT_HARD_A, run, &len);
        ck_assert_msg(why == NULL, "%s: %s", ht_jstr(run, "engine"), why);
        ck_assert_int_eq(len, EIGHT_HARD_OPTIMAL);
    }
    cJSON_Delete(j);
    http_resp_free(&r);
}

END_TEST

/* ======================================================================= */
/* jobs: 202, polling, long-polling, cancelling, listing */

START_TEST(test_server_http_jobs_wait_zero_gives_202_location)
{
    char body[512];
    char path[160];
    http_resp_t r;
    cJSON *j;
    int64_t deadline;

    ht_long_job_body(body, sizeof(body), 300, 16, 0);
    http_post(g_srv.port, "/v1/solve", body, &r);
    ck_assert_msg(r.status == 202, "status %ld: %.500s", r.status, r.body);
    j = ht_job_of(&r);
    ck_assert(!ht_job_terminal(j));
    snprintf(path, sizeof(path), "/v1/jobs/%s", ht_jstr(j, "id"));
    ck_assert_str_eq(r.location, path);
    cJSON_Delete(j);
    http_resp_free(&r);
    /* Poll the Location until the 300 ms budget has run out. */
    deadline = now_ms() + 30000;
    for (;;) {
        http_get(g_srv.port, path, &r);
        ck_assert_int_eq(r.status, 200);
        j = ht_job_of(&r);
        http_resp_free(&r);
        if (ht_job_terminal(j) || now_ms() > deadline) {
            break;
        }
        cJSON_Delete(j);
        sleep_ms(50);
    }
    ck_assert_str_eq(ht_jstr(j, "status"), "timeout");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "solution")));
    cJSON_Delete(j);
}

END_TEST

START_TEST(test_server_http_jobs_long_poll_waits_for_end)
{
    char body[512];
    http_resp_t r;
    cJSON *j;
    char *id;
    long status;
    int64_t t0;

    ht_long_job_body(body, sizeof(body), 800, 16, 0);
    t0 = now_ms();
    id = ht_submit(g_srv.port, body, &status, NULL);
    ck_assert_int_eq(status, 202);
    j = ht_get_job(g_srv.port, id, 0, NULL);
    ck_assert(!ht_job_terminal(j));
    cJSON_Delete(j);
    j = ht_get_job(g_srv.port, id, 10000, &r);
    /* It answered when the job ended (800 ms), well before 10 s. */
    ck_assert_str_eq(ht_jstr(j, "status"), "timeout");
    ck_assert_msg(now_ms() - t0 >= 700, "answered after %lld ms",
                  (long long)(now_ms() - t0));
    ck_assert_msg(r.elapsed_ms < 5000, "long-poll took %lld ms",
                  (long long)r.elapsed_ms);
    cJSON_Delete(j);
    http_resp_free(&r);
    free(id);
}

END_TEST

START_TEST(test_server_http_jobs_long_poll_times_out_with_job)
{
    char body[512];
    http_resp_t r;
    cJSON *j;
    char *id;
    long status;

    ht_long_job_body(body, sizeof(body), 30000, 16, 0);
    id = ht_submit(g_srv.port, body, &status, NULL);
    ck_assert_int_eq(status, 202);
    /* The job outlives the wait: 200 with the job still going. */
    j = ht_get_job(g_srv.port, id, 300, &r);
    ck_assert(!ht_job_terminal(j));
    ck_assert_msg(r.elapsed_ms >= 250 && r.elapsed_ms < 5000,
                  "long-poll of 300 ms took %lld ms", (long long)r.elapsed_ms);
    ht_cancel_job(g_srv.port, id);
    cJSON_Delete(j);
    http_resp_free(&r);
    free(id);
}

END_TEST

START_TEST(test_server_http_jobs_delete_cancels_running_job)
{
    char body[512];
    char path[160];
    http_resp_t r;
    cJSON *j;
    char *id;
    long status;
    int64_t deadline = now_ms() + 30000;
    int64_t t0;

    ht_long_job_body(body, sizeof(body), 60000, 16, 0);
    id = ht_submit(g_srv.port, body, &status, NULL);
    ck_assert_int_eq(status, 202);
    /* Wait until an engine is searching, so the cancel reaches a worker. */
    for (;;) {
        j = ht_get_job(g_srv.port, id, 0, NULL);
        if (strcmp(ht_jstr(j, "status"), "running") == 0 ||
            now_ms() > deadline) {
            break;
        }
        cJSON_Delete(j);
        sleep_ms(20);
    }
    ck_assert_str_eq(ht_jstr(j, "status"), "running");
    cJSON_Delete(j);
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    t0 = now_ms();
    http_delete(g_srv.port, path, &r);
    ck_assert_msg(r.status == 202, "DELETE: %ld %.300s", r.status, r.body);
    j = ht_job_of(&r);
    ck_assert_str_eq(ht_jstr(j, "id"), id);
    cJSON_Delete(j);
    http_resp_free(&r);
    j = ht_get_job(g_srv.port, id, 5000, NULL);
    ck_assert_str_eq(ht_jstr(j, "status"), "cancelled");
    /* The design promises 50 ms; 1 s allows for a loaded machine. */
    ck_assert_msg(now_ms() - t0 < 5000, "cancelled after %lld ms",
                  (long long)(now_ms() - t0));
    cJSON_Delete(j);
    free(id);
}

END_TEST

START_TEST(test_server_http_jobs_delete_ended_job_gives_200)
{
    char path[160];
    http_resp_t r;
    cJSON *j;
    char *id;
    long status;

    id = ht_submit(g_srv.port,
                   "{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3,4,5,6,0,7,8]}",
                   &status, NULL);
    ck_assert_int_eq(status, 200);
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    http_delete(g_srv.port, path, &r);
    ck_assert_msg(r.status == 200, "DELETE: %ld %.300s", r.status, r.body);
    j = ht_job_of(&r);
    ck_assert_str_eq(ht_jstr(j, "status"), "solved");
    cJSON_Delete(j);
    http_resp_free(&r);
    free(id);
}

END_TEST

START_TEST(test_server_http_jobs_unknown_id_404)
{
    http_resp_t r;

    http_get(g_srv.port, "/v1/jobs/no-such-job-0000", &r);
    ASSERT_PROBLEM(&r, 404, "job_not_found");
    http_resp_free(&r);
    http_delete(g_srv.port, "/v1/jobs/no-such-job-0000", &r);
    ASSERT_PROBLEM(&r, 404, "job_not_found");
    http_resp_free(&r);
}

END_TEST

/* Validates a job-list page and returns it (owned). */
static cJSON *
list_page(int port, const char *path)
{
    static const char *const m[] = { "jobs",   "total", "limit",
                                     "offset", "next",  NULL };
    http_resp_t r;
    cJSON *l;
    const cJSON *next;
    const char *why;

    http_get(port, path, &r);
    ck_assert_msg(r.status == 200, "GET %s: %ld %.300s", path, r.status,
                  r.body);
    l = cJSON_ParseWithLength(r.body, r.len);
    why = ht_check_members(l, "job list", m, m);
    ck_assert_msg(why == NULL, "%s", why);
    ck_assert(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(l, "jobs")));
    ck_assert(ht_is_int(cJSON_GetObjectItemCaseSensitive(l, "total")));
    ck_assert(ht_is_int(cJSON_GetObjectItemCaseSensitive(l, "limit")));
    ck_assert(ht_is_int(cJSON_GetObjectItemCaseSensitive(l, "offset")));
    next = cJSON_GetObjectItemCaseSensitive(l, "next");
    ck_assert(cJSON_IsNull(next) || cJSON_IsString(next));
    for (const cJSON *j = cJSON_GetObjectItemCaseSensitive(l, "jobs")->child;
         j != NULL; j = j->next) {
        why = ht_check_job(j);
        ck_assert_msg(why == NULL, "listed job: %s", why);
    }
    http_resp_free(&r);
    return l;
}

START_TEST(test_server_http_jobs_list_newest_first_paginated)
{
    static const char *const bodies[3] = {
        "{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3,4,5,6,0,7,8]}",
        "{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3,4,5,6,7,0,8]}",
        "{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3,4,0,6,7,5,8]}",
    };
    char *ids[3];
    cJSON *page;
    const cJSON *jobs;
    const cJSON *next;
    long status;

    for (int i = 0; i < 3; i++) {
        ids[i] = ht_submit(g_srv.port, bodies[i], &status, NULL);
        ck_assert_int_eq(status, 200);
        sleep_ms(5); /* distinct creation times */
    }
    page = list_page(g_srv.port, "/v1/jobs?limit=2");
    jobs = cJSON_GetObjectItemCaseSensitive(page, "jobs");
    ck_assert_int_eq(cJSON_GetArraySize(jobs), 2);
    ck_assert_int_ge(
        (int)cJSON_GetObjectItemCaseSensitive(page, "total")->valuedouble, 3);
    ck_assert_int_eq(
        (int)cJSON_GetObjectItemCaseSensitive(page, "limit")->valuedouble, 2);
    ck_assert_int_eq(
        (int)cJSON_GetObjectItemCaseSensitive(page, "offset")->valuedouble, 0);
    ck_assert_str_eq(ht_jstr(cJSON_GetArrayItem(jobs, 0), "id"), ids[2]);
    ck_assert_str_eq(ht_jstr(cJSON_GetArrayItem(jobs, 1), "id"), ids[1]);
    next = cJSON_GetObjectItemCaseSensitive(page, "next");
    ck_assert_msg(cJSON_IsString(next), "next is not a URL");
    {
        char path[256];
        cJSON *page2;

        snprintf(path, sizeof(path), "%s", next->valuestring);
        page2 = list_page(g_srv.port, path);
        jobs = cJSON_GetObjectItemCaseSensitive(page2, "jobs");
        ck_assert_int_ge(cJSON_GetArraySize(jobs), 1);
        ck_assert_str_eq(ht_jstr(cJSON_GetArrayItem(jobs, 0), "id"), ids[0]);
        cJSON_Delete(page2);
    }
    cJSON_Delete(page);
    for (int i = 0; i < 3; i++) {
        free(ids[i]);
    }
    /* Counts are exact JSON integers however large (no 9.007e+15). */
    {
        http_resp_t r;

        http_get(g_srv.port, "/v1/jobs?offset=9007199254740992", &r);
        ck_assert_int_eq(r.status, 200);
        ck_assert_msg(strstr(r.body, "\"offset\":9007199254740992") != NULL,
                      "%.300s", r.body);
        http_resp_free(&r);
    }
}

END_TEST

/* ======================================================================= */
/* errors: every status the contract names */

static void
post_expect(const char *body, long status, const char *code, const char *field)
{
    http_resp_t r;
    char got[128];

    http_post(g_srv.port, "/v1/solve", body, &r);
    ASSERT_PROBLEM(&r, status, code);
    if (field != NULL) {
        ht_problem_member(&r, "field", got, sizeof(got));
        ck_assert_str_eq(got, field);
    }
    http_resp_free(&r);
}

START_TEST(test_server_http_errors_invalid_json_400_with_position)
{
    http_resp_t r;
    char pos[32];

    http_post(g_srv.port, "/v1/solve", "{\"puzzle\": \"2x2x2\",", &r);
    ASSERT_PROBLEM(&r, 400, "invalid_json");
    ht_problem_member(&r, "position", pos, sizeof(pos));
    ck_assert_msg(pos[0] != '\0', "invalid_json without a position");
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_errors_unknown_member_400_with_field)
{
    post_expect("{\"puzzle\":\"8-puzzle\",\"scramble\":\"D\",\"colour\":1}",
                400, "unknown_field", "/colour");
}

END_TEST

START_TEST(test_server_http_errors_wrong_type_400_with_field)
{
    post_expect("{\"puzzle\":\"8-puzzle\",\"scramble\":\"D\","
                "\"time_ms\":\"fast\"}",
                400, "bad_type", "/time_ms");
}

END_TEST

START_TEST(test_server_http_errors_missing_puzzle_400)
{
    post_expect("{\"scramble\":\"D\"}", 400, "missing_field", "/puzzle");
}

END_TEST

START_TEST(test_server_http_errors_unknown_puzzle_400)
{
    post_expect("{\"puzzle\":\"megaminx\",\"scramble\":\"R\"}", 400,
                "unknown_puzzle", "/puzzle");
}

END_TEST

START_TEST(test_server_http_errors_scramble_and_state_400)
{
    post_expect("{\"puzzle\":\"8-puzzle\",\"scramble\":\"D\","
                "\"state\":[1,2,3,4,5,6,7,8,0]}",
                400, "conflicting_fields", "/state");
}

END_TEST

START_TEST(test_server_http_errors_bad_move_422_with_position)
{
    http_resp_t r;
    char got[64];

    http_post(g_srv.port, "/v1/solve",
              "{\"puzzle\":\"2x2x2\",\"scramble\":\"R U Q F\"}", &r);
    ASSERT_PROBLEM(&r, 422, "bad_move");
    ht_problem_member(&r, "field", got, sizeof(got));
    ck_assert_str_eq(got, "/scramble");
    ht_problem_member(&r, "position", got, sizeof(got));
    ck_assert_str_eq(got, "4");
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_errors_colour_count_422)
{
    /* Colour 0 on five stickers and colour 5 on three. */
    post_expect("{\"puzzle\":\"2x2x2\",\"state\":"
                "[0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,0]}",
                422, "bad_colour_count", "/state");
}

END_TEST

START_TEST(test_server_http_errors_tiles_unsolvable_422)
{
    /* One swap of two tiles: odd permutation, unreachable. */
    post_expect("{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3,4,5,6,8,7,0]}", 422,
                "tiles_unsolvable", "/state");
}

END_TEST

START_TEST(test_server_http_errors_limit_too_large_422)
{
    post_expect("{\"puzzle\":\"8-puzzle\",\"scramble\":\"D\","
                "\"time_ms\":999999999}",
                422, "limit_too_large", "/time_ms");
}

END_TEST

START_TEST(test_server_http_errors_unknown_path_404)
{
    http_resp_t r;

    http_get(g_srv.port, "/v2/nothing-here", &r);
    ASSERT_PROBLEM(&r, 404, "not_found");
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_errors_wrong_method_405_allow)
{
    http_req_t put = { .method = "PUT", .path = "/v1/solve", .body = "{}" };
    http_req_t del = { .method = "DELETE", .path = "/healthz" };
    http_resp_t r;

    http_send(NULL, g_srv.port, &put, &r);
    ASSERT_PROBLEM(&r, 405, "method_not_allowed");
    ck_assert_msg(strstr(r.allow, "POST") != NULL, "Allow: '%s'", r.allow);
    http_resp_free(&r);
    http_send(NULL, g_srv.port, &del, &r);
    ASSERT_PROBLEM(&r, 405, "method_not_allowed");
    ck_assert_msg(strstr(r.allow, "GET") != NULL, "Allow: '%s'", r.allow);
    http_resp_free(&r);
}

END_TEST

/* A chunked body is read like any other (some clients and proxies send
 * nothing else); past the body limit it gets 413. */
START_TEST(test_server_http_errors_chunked_body_accepted)
{
    http_req_t rq = { .method = "POST",
                      .path = "/v1/solve",
                      .body = "{\"puzzle\":\"8-puzzle\",\"scramble\":\"D\"}",
                      .chunked = true };
    size_t n = 70000;
    char *big = malloc(n + 1);
    http_resp_t r;
    cJSON *j;

    http_send(NULL, g_srv.port, &rq, &r);
    ck_assert_int_eq(r.status, 200);
    j = ht_job_of(&r);
    ck_assert_str_eq(ht_jstr(j, "status"), "solved");
    cJSON_Delete(j);
    http_resp_free(&r);
    ck_assert_ptr_nonnull(big);
    memset(big, ' ', n);
    big[0] = '{';
    big[n - 1] = '}';
    big[n] = '\0';
    rq.body = big;
    rq.body_len = n;
    http_send(NULL, g_srv.port, &rq, &r);
    ASSERT_PROBLEM(&r, 413, "body_too_large");
    http_resp_free(&r);
    free(big);
}

END_TEST

/* Framing two parties could read two ways is refused and the connection
 * closed: no Host on HTTP/1.1, two different lengths; a POST with no
 * length at all gets 411. */
START_TEST(test_server_http_errors_framing_refused)
{
    static const char body[] = "{\"puzzle\":\"2x2x2\",\"scramble\":\"R\"}";
    char req[512];
    char buf[8192];
    int n;

    snprintf(req, sizeof(req), "GET /healthz HTTP/1.1\r\n\r\n");
    raw_exchange(g_srv.port, req, strlen(req), buf, sizeof(buf));
    ck_assert_msg(strncmp(buf, "HTTP/1.1 400", 12) == 0, "%.200s", buf);
    ck_assert_ptr_nonnull(strstr(buf, "\"code\":\"invalid_argument\""));
    ck_assert_ptr_nonnull(strstr(buf, "Host"));
    n = snprintf(req, sizeof(req),
                 "POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Type: "
                 "application/json\r\nContent-Length: %zu\r\nContent-Length: "
                 "%zu\r\n\r\n%s",
                 strlen(body), strlen(body) + 1, body);
    raw_exchange(g_srv.port, req, (size_t)n, buf, sizeof(buf));
    ck_assert_msg(strncmp(buf, "HTTP/1.1 400", 12) == 0, "%.200s", buf);
    ck_assert_ptr_nonnull(strstr(buf, "Content-Length is given twice"));
    ck_assert_ptr_nonnull(strstr(buf, "Connection: close"));
    /* The same length twice is one length. */
    n = snprintf(req, sizeof(req),
                 "POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Type: "
                 "application/json\r\nContent-Length: %zu\r\nContent-Length: "
                 "%zu\r\nConnection: close\r\n\r\n%s",
                 strlen(body), strlen(body), body);
    raw_exchange(g_srv.port, req, (size_t)n, buf, sizeof(buf));
    ck_assert_msg(strncmp(buf, "HTTP/1.1 200", 12) == 0, "%.200s", buf);
    snprintf(req, sizeof(req),
             "POST /v1/solve HTTP/1.1\r\nHost: x\r\nContent-Type: "
             "application/json\r\nConnection: close\r\n\r\n");
    raw_exchange(g_srv.port, req, strlen(req), buf, sizeof(buf));
    ck_assert_msg(strncmp(buf, "HTTP/1.1 411", 12) == 0, "%.200s", buf);
}

END_TEST

/* "%00" in a path is not decoded to a NUL that would end the job id
 * early: the job is not found. */
START_TEST(test_server_http_errors_nul_in_path_404)
{
    char path[200];
    http_resp_t r;
    long st;
    char *id = ht_submit(
        g_srv.port, "{\"puzzle\":\"2x2x2\",\"scramble\":\"R\"}", &st, NULL);

    ck_assert_ptr_nonnull(id);
    snprintf(path, sizeof(path), "/v1/jobs/%s%%00junk", id);
    http_get(g_srv.port, path, &r);
    ASSERT_PROBLEM(&r, 404, "job_not_found");
    http_resp_free(&r);
    snprintf(path, sizeof(path), "/v1/jobs/%s?wait_ms=1%%00", id);
    http_get(g_srv.port, path, &r);
    ck_assert_int_eq(r.status, 400);
    http_resp_free(&r);
    free(id);
}

END_TEST

START_TEST(test_server_http_errors_large_body_413)
{
    static const char prefix[] = "{\"puzzle\":\"8-puzzle\",\"scramble\":\"";
    size_t n = 70000;
    char *body = malloc(n + 1);
    http_req_t rq = { .method = "POST", .path = "/v1/solve" };
    http_resp_t r;

    /* Valid JSON, just too long: a string of spaces inside the scramble. */
    memset(body, ' ', n);
    memcpy(body, prefix, strlen(prefix));
    memcpy(body + n - 2, "\"}", 2);
    body[n] = '\0';
    rq.body = body;
    rq.body_len = n;
    http_send(NULL, g_srv.port, &rq, &r);
    ASSERT_PROBLEM(&r, 413, "body_too_large");
    http_resp_free(&r);
    free(body);
}

END_TEST

START_TEST(test_server_http_errors_text_body_415)
{
    http_req_t rq = { .method = "POST",
                      .path = "/v1/solve",
                      .body = "{\"puzzle\":\"8-puzzle\",\"scramble\":\"D\"}",
                      .content_type = "text/plain" };
    http_resp_t r;

    http_send(NULL, g_srv.port, &rq, &r);
    ASSERT_PROBLEM(&r, 415, "unsupported_media_type");
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_errors_json_charset_accepted)
{
    http_req_t rq = { .method = "POST",
                      .path = "/v1/solve",
                      .body = "{\"puzzle\":\"8-puzzle\",\"state\":"
                              "[1,2,3,4,5,6,0,7,8]}",
                      .content_type = "application/json; charset=utf-8" };
    http_resp_t r;
    cJSON *j;

    http_send(NULL, g_srv.port, &rq, &r);
    ck_assert_msg(r.status == 200, "status %ld: %.300s", r.status, r.body);
    j = ht_job_of(&r);
    ck_assert_str_eq(ht_jstr(j, "status"), "solved");
    cJSON_Delete(j);
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_errors_empty_body_400)
{
    http_req_t rq = {
        .method = "POST", .path = "/v1/solve", .body = "", .body_len = 0
    };
    http_resp_t r;

    http_send(NULL, g_srv.port, &rq, &r);
    ASSERT_PROBLEM(&r, 400, "invalid_json");
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_errors_duplicate_member_400)
{
    post_expect("{\"puzzle\":\"8-puzzle\",\"scramble\":\"D\","
                "\"scramble\":\"R\"}",
                400, "conflicting_fields", "/scramble");
}

END_TEST

START_TEST(test_server_http_errors_request_id_echoed)
{
    http_req_t rq = { .method = "GET",
                      .path = "/healthz",
                      .request_id = "test.id-42_ok" };
    http_resp_t r;

    http_send(NULL, g_srv.port, &rq, &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.request_id, "test.id-42_ok");
    http_resp_free(&r);
    /* Errors carry it too. */
    rq.path = "/nowhere";
    http_send(NULL, g_srv.port, &rq, &r);
    ck_assert_int_eq(r.status, 404);
    ck_assert_str_eq(r.request_id, "test.id-42_ok");
    http_resp_free(&r);
}

END_TEST

static bool
valid_request_id(const char *s)
{
    size_t n = strlen(s);

    return n >= 1 && n <= 64 &&
           strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                     "0123456789._-") == n;
}

START_TEST(test_server_http_errors_request_id_bad_replaced)
{
    char longid[80];
    http_req_t rq = { .method = "GET", .path = "/healthz" };
    http_resp_t r;

    memset(longid, 'a', 65);
    longid[65] = '\0';
    rq.request_id = longid;
    http_send(NULL, g_srv.port, &rq, &r);
    ck_assert_msg(valid_request_id(r.request_id) &&
                      strcmp(r.request_id, longid) != 0,
                  "X-Request-Id '%s'", r.request_id);
    http_resp_free(&r);
    rq.request_id = "bad id{}";
    http_send(NULL, g_srv.port, &rq, &r);
    ck_assert_msg(valid_request_id(r.request_id), "X-Request-Id '%s'",
                  r.request_id);
    http_resp_free(&r);
    /* None sent: one is generated. */
    rq.request_id = NULL;
    http_send(NULL, g_srv.port, &rq, &r);
    ck_assert_msg(valid_request_id(r.request_id), "X-Request-Id '%s'",
                  r.request_id);
    http_resp_free(&r);
}

END_TEST

static bool
contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);

    for (; *hay != '\0'; hay++) {
        if (strncasecmp(hay, needle, n) == 0) {
            return true;
        }
    }
    return false;
}

START_TEST(test_server_http_errors_cors_off_by_default)
{
    CURL *h = curl_easy_init();
    struct curl_slist *hdrs = curl_slist_append(NULL, "Origin: http://x.test");
    char url[128];
    http_resp_t r;

    /* A plain GET with an Origin header: no Access-Control-* in reply. */
    memset(&r, 0, sizeof(r));
    snprintf(url, sizeof(url), "http://127.0.0.1:%d/healthz", g_srv.port);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(h, CURLOPT_HEADER, 1L);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, ht_on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)HTTP_TIMEOUT_MS);
    ck_assert_int_eq(curl_easy_perform(h), CURLE_OK);
    ck_assert_ptr_nonnull(r.body);
    ck_assert_msg(!contains_ci(r.body, "access-control-"),
                  "CORS headers without --cors-origin:\n%s", r.body);
    curl_slist_free_all(hdrs);
    curl_easy_cleanup(h);
    http_resp_free(&r);
}

END_TEST

/* ======================================================================= */
/* ops: health, readiness, metrics, catalogue, the document */

START_TEST(test_server_http_ops_healthz_ok)
{
    http_resp_t r;
    cJSON *j;

    http_get(g_srv.port, "/healthz", &r);
    ck_assert_int_eq(r.status, 200);
    j = cJSON_ParseWithLength(r.body, r.len);
    ck_assert_str_eq(ht_jstr(j, "status"), "ok");
    cJSON_Delete(j);
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_ops_head_has_no_body)
{
    CURL *h = curl_easy_init();
    char url[128];
    http_resp_t r;

    /* HEAD needs CURLOPT_NOBODY, or curl waits for a body. */
    memset(&r, 0, sizeof(r));
    snprintf(url, sizeof(url), "http://127.0.0.1:%d/healthz", g_srv.port);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, ht_on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, ht_on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &r);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)HTTP_TIMEOUT_MS);
    ck_assert_int_eq(curl_easy_perform(h), CURLE_OK);
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r.status);
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_eq(r.len, 0);
    ck_assert_msg(strncmp(r.content_type, "application/json", 16) == 0,
                  "Content-Type '%s'", r.content_type);
    curl_easy_cleanup(h);
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_ops_readyz_ready)
{
    http_resp_t r;
    cJSON *j;
    int64_t deadline = now_ms() + 30000;

    /* Tables may still load just after start: ready within 10 s. */
    for (;;) {
        http_get(g_srv.port, "/readyz", &r);
        if (r.status == 200 || now_ms() > deadline) {
            break;
        }
        ck_assert_int_eq(r.status, 503);
        http_resp_free(&r);
        sleep_ms(100);
    }
    ck_assert_int_eq(r.status, 200);
    j = cJSON_ParseWithLength(r.body, r.len);
    ck_assert_str_eq(ht_jstr(j, "status"), "ready");
    cJSON_Delete(j);
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_ops_metrics_exposition)
{
    http_resp_t r;
    char path[160];
    char cmd[256];
    FILE *f;
    long st;
    char *id;

    id = ht_submit(g_srv.port,
                   "{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3,4,5,6,0,7,8]}",
                   &st, NULL);
    free(id);
    http_get(g_srv.port, "/metrics", &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_msg(strncmp(r.content_type, "text/plain", 10) == 0 &&
                      strstr(r.content_type, "version=0.0.4") != NULL,
                  "Content-Type '%s'", r.content_type);
    ck_assert_msg(r.len > 0 && r.body[r.len - 1] == '\n',
                  "the exposition must end with a newline");
    ck_assert_ptr_nonnull(strstr(r.body, "# TYPE "));
    if (system("command -v promtool >/dev/null 2>&1") != 0) {
        fprintf(stderr, "note: promtool not found; /metrics checked for "
                        "format basics only\n");
        http_resp_free(&r);
        return;
    }
    snprintf(path, sizeof(path), "%s/metrics.txt", g_srv.dir);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fwrite(r.body, 1, r.len, f);
    fclose(f);
    snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 1>&2", path);
    ck_assert_msg(system(cmd) == 0, "promtool check metrics failed:\n%s",
                  r.body);
    unlink(path);
    http_resp_free(&r);
}

END_TEST

static bool
array_has_member(const cJSON *arr, const char *member, const char *value)
{
    for (const cJSON *c = arr != NULL ? arr->child : NULL; c != NULL;
         c = c->next) {
        if (strcmp(ht_jstr(c, member), value) == 0) {
            return true;
        }
    }
    return false;
}

START_TEST(test_server_http_ops_catalogue_lists_puzzles_engines)
{
    http_resp_t r;
    cJSON *c;
    const cJSON *puzzles;
    const cJSON *engines;

    http_get(g_srv.port, "/v1/puzzles", &r);
    ck_assert_int_eq(r.status, 200);
    c = cJSON_ParseWithLength(r.body, r.len);
    ck_assert_msg(cJSON_IsObject(c), "not a JSON object: %.300s", r.body);
    puzzles = cJSON_GetObjectItemCaseSensitive(c, "puzzles");
    engines = cJSON_GetObjectItemCaseSensitive(c, "engines");
    ck_assert(cJSON_IsArray(puzzles));
    ck_assert(cJSON_IsArray(engines));
    ck_assert(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(c, "limits")));
    ck_assert(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(c, "aliases")));
    for (const cJSON *p = puzzles->child; p != NULL; p = p->next) {
        static const char *const strs[] = {
            "id",          "summary",        "notation",
            "state_forms", "default_metric", "default_heuristic",
            NULL
        };
        static const char *const arrays[] = { "metrics", "aliases",
                                              "heuristics", "examples", NULL };

        for (int i = 0; strs[i] != NULL; i++) {
            ck_assert_msg(
                cJSON_IsString(cJSON_GetObjectItemCaseSensitive(p, strs[i])),
                "puzzle %s: %s is not a string", ht_jstr(p, "id"), strs[i]);
        }
        for (int i = 0; arrays[i] != NULL; i++) {
            ck_assert_msg(
                cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(p, arrays[i])),
                "puzzle %s: %s is not an array", ht_jstr(p, "id"), arrays[i]);
        }
        ck_assert(ht_is_int(cJSON_GetObjectItemCaseSensitive(p, "moves")));
    }
    for (const cJSON *e = engines->child; e != NULL; e = e->next) {
        ck_assert(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "name")));
        ck_assert(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(e, "optimal")));
        ck_assert(cJSON_IsBool(
            cJSON_GetObjectItemCaseSensitive(e, "uses_heuristic")));
    }
    for (const cJSON *l = cJSON_GetObjectItemCaseSensitive(c, "limits")->child;
         l != NULL; l = l->next) {
        ck_assert_msg(ht_is_int(l) && l->valuedouble >= 0,
                      "limits.%s is not a non-negative integer", l->string);
    }
    /* Every puzzle this build can instantiate, and every engine, is
     * listed; a registered puzzle whose module is not built is not. */
    for (const puzzle_ops_t *const *p = puzzle_registry(); *p != NULL; p++) {
        pz_puzzle_t *inst = NULL;
        bool usable = puzzle_create((*p)->name, NULL, &inst, NULL) == PZ_OK;

        puzzle_destroy(inst);
        ck_assert_msg(array_has_member(puzzles, "id", (*p)->name) == usable,
                      "puzzle %s: listed %d, usable %d", (*p)->name, !usable,
                      usable);
    }
    for (const engine_ops_t *const *e = engine_registry(); *e != NULL; e++) {
        ck_assert_msg(array_has_member(engines, "name", (*e)->name),
                      "engine %s not in the catalogue", (*e)->name);
    }
    cJSON_Delete(c);
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_ops_openapi_served)
{
    http_resp_t r;
    char *file = ht_load_spec();

    http_get(g_srv.port, "/openapi.yaml", &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_msg(strstr(r.content_type, "yaml") != NULL, "Content-Type '%s'",
                  r.content_type);
    /* The server ships the document of the tree it was built from. */
    ck_assert_str_eq(r.body, file);
    free(file);
    http_resp_free(&r);
}

END_TEST

/* ======================================================================= */
/* admission: 429 when the queue or the memory cap is full */

START_TEST(test_server_http_admission_queue_full_429)
{
    static const char *const flags[] = { "--workers", "1", "--queue", "1",
                                         NULL };
    srv_t s;
    char body[512];
    char *ids[6] = { NULL };
    http_resp_t r;
    int n = 0;
    bool refused = false;

    ck_assert(srv_start(&s, flags) == 0);
    ht_long_job_body(body, sizeof(body), 60000, 16, 0);
    /* One running, one queued; at the latest the fourth is refused. */
    while (n < 4 && !refused) {
        long st;

        ids[n] = ht_submit(s.port, body, &st, &r);
        if (st == 429) {
            ASSERT_PROBLEM(&r, 429, "queue_full");
            ck_assert_msg(atoi(r.retry_after) >= 1, "Retry-After '%s'",
                          r.retry_after);
            refused = true;
        } else {
            ck_assert_int_eq(st, 202);
        }
        http_resp_free(&r);
        n++;
    }
    ck_assert_msg(refused, "4 long jobs admitted with --workers 1 --queue 1");
    ck_assert_int_ge(n, 2);
    for (int i = 0; i < n; i++) {
        if (ids[i] != NULL) {
            ht_cancel_job(s.port, ids[i]);
            free(ids[i]);
        }
    }
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
}

END_TEST

/* A table job that could be answered on the connection's thread is
 * still refused while the queue is full: admission is the same. */
START_TEST(test_server_http_admission_table_job_queue_full_429)
{
    static const char *const flags[] = { "--workers", "1", "--queue", "1",
                                         NULL };
    static const char cube2[] = "{\"puzzle\":\"2x2x2\",\"metric\":\"qtm\","
                                "\"scramble\":\"" CUBE2_SCRAMBLE "\"}";
    srv_t s;
    char body[512];
    char *ids[2] = { NULL, NULL };
    http_resp_t r;
    long st;
    char *id;

    ck_assert(srv_start(&s, flags) == 0);
    /* Twice: the second may already run on the connection's thread. */
    for (int i = 0; i < 2; i++) {
        id = ht_submit(s.port, cube2, &st, NULL);
        ck_assert_int_eq(st, 200);
        free(id);
    }
    ht_long_job_body(body, sizeof(body), 60000, 16, 0);
    ids[0] = ht_submit(s.port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    /* The first long job leaves the queue for the worker; the second
     * then fills the queue. */
    for (int64_t until = now_ms() + 30000; now_ms() < until;) {
        cJSON *j = ht_get_job(s.port, ids[0], 0, NULL);
        bool running = strcmp(ht_jstr(j, "status"), "running") == 0;

        cJSON_Delete(j);
        if (running) {
            break;
        }
        sleep_ms(10);
    }
    ids[1] = ht_submit(s.port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    id = ht_submit(s.port, cube2, &st, &r);
    ck_assert_msg(st == 429, "a table job with a full queue got %ld", st);
    ASSERT_PROBLEM(&r, 429, "queue_full");
    http_resp_free(&r);
    free(id);
    for (int i = 0; i < 2; i++) {
        ht_cancel_job(s.port, ids[i]);
        free(ids[i]);
    }
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
}

END_TEST

/* A result nobody has fetched is kept for its retention time: when the
 * uncollected results fill --max-jobs, new jobs are refused (429
 * results_full) instead of an accepted job's result being dropped; once
 * one is fetched, there is room again. */
START_TEST(test_server_http_admission_results_kept_until_fetched)
{
    static const char *const flags[] = { "--max-jobs", "3", NULL };
    static const char body[] =
        "{\"puzzle\":\"2x2x2\",\"scramble\":\"R U\",\"wait_ms\":0}";
    char *ids[3];
    http_resp_t r;
    srv_t s;
    cJSON *j;
    long st;

    ck_assert(srv_start(&s, flags) == 0);
    /* A job that ends before its POST reply is written is delivered by
     * that reply (200 solved); only 202 replies leave a result to fetch. */
    for (int k = 0, tries = 0; k < 3; tries++) {
        ck_assert_int_lt(tries, 100);
        ids[k] = ht_submit(s.port, body, &st, NULL);
        ck_assert_ptr_nonnull(ids[k]);
        if (st == 202) {
            k++;
        } else {
            ck_assert_int_eq(st, 200);
            free(ids[k]);
        }
    }
    /* Wait until all three ended, reading them with listings only
     * (a listing delivers nothing). */
    for (int64_t deadline = now_ms() + 20000; now_ms() < deadline;) {
        http_get(s.port, "/v1/jobs?limit=10", &r);
        if (strstr(r.body, "\"queued\"") == NULL &&
            strstr(r.body, "\"running\"") == NULL &&
            strstr(r.body, "\"preparing\"") == NULL) {
            http_resp_free(&r);
            break;
        }
        http_resp_free(&r);
        sleep_ms(20);
    }
    http_post(s.port, "/v1/solve", body, &r);
    ASSERT_PROBLEM(&r, 429, "results_full");
    http_resp_free(&r);
    /* Every accepted result is still there; fetching one frees a place. */
    for (int k = 0; k < 3; k++) {
        j = ht_get_job(s.port, ids[k], 0, NULL);
        ck_assert_str_eq(ht_jstr(j, "status"), "solved");
        cJSON_Delete(j);
    }
    free(ht_submit(s.port, body, &st, NULL));
    ck_assert_msg(st == 202 || st == 200, "a job after a fetch got %ld", st);
    for (int k = 0; k < 3; k++) {
        free(ids[k]);
    }
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
}

END_TEST

START_TEST(test_server_http_admission_readyz_follows_queue)
{
    static const char *const flags[] = { "--workers", "1", "--queue", "1",
                                         NULL };
    srv_t s;
    char body[512];
    char *ids[2];
    http_resp_t r;
    cJSON *j;
    int64_t deadline;
    long st;

    ck_assert(srv_start(&s, flags) == 0);
    ht_await_ready(s.port);
    ht_long_job_body(body, sizeof(body), 60000, 16, 0);
    /* One job runs and one waits: no queue place is left. */
    ids[0] = ht_submit(s.port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    /* Wait until it runs, so the second one takes the queue place. */
    deadline = now_ms() + 30000;
    for (;;) {
        bool running;

        j = ht_get_job(s.port, ids[0], 0, NULL);
        running = strcmp(ht_jstr(j, "status"), "running") == 0;
        cJSON_Delete(j);
        if (running || now_ms() > deadline) {
            break;
        }
        sleep_ms(20);
    }
    ids[1] = ht_submit(s.port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    http_get(s.port, "/readyz", &r);
    ck_assert_int_eq(r.status, 503);
    j = cJSON_ParseWithLength(r.body, r.len);
    ck_assert_str_eq(ht_jstr(j, "status"), "not_ready");
    ck_assert_str_eq(ht_jstr(j, "reason"), "queue_full");
    cJSON_Delete(j);
    http_resp_free(&r);
    /* Cancelling frees the places: ready again. */
    ht_cancel_job(s.port, ids[1]);
    ht_cancel_job(s.port, ids[0]);
    deadline = now_ms() + 30000;
    for (;;) {
        http_get(s.port, "/readyz", &r);
        if (r.status == 200 || now_ms() > deadline) {
            break;
        }
        http_resp_free(&r);
        sleep_ms(20);
    }
    ck_assert_int_eq(r.status, 200);
    http_resp_free(&r);
    free(ids[0]);
    free(ids[1]);
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
}

END_TEST

START_TEST(test_server_http_admission_memory_cap_429)
{
    static const char *const flags[] = {
        "--workers",           "1",  "--queue", "8", "--memory-cap-mb", "100",
        "--default-memory-mb", "16", NULL
    };
    srv_t s;
    char body[512];
    char *first;
    char *second;
    http_resp_t r;
    long st;

    ck_assert(srv_start(&s, flags) == 0);
    ht_long_job_body(body, sizeof(body), 60000, 60, 0);
    first = ht_submit(s.port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    /* 60 + 60 MiB would pass the 100 MiB cap. */
    second = ht_submit(s.port, body, &st, &r);
    ck_assert_ptr_null(second);
    ASSERT_PROBLEM(&r, 429, "memory_cap");
    ck_assert_msg(atoi(r.retry_after) >= 1, "Retry-After '%s'", r.retry_after);
    http_resp_free(&r);
    /* A job that fits is still admitted. */
    ht_long_job_body(body, sizeof(body), 60000, 30, 0);
    second = ht_submit(s.port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    ht_cancel_job(s.port, first);
    ht_cancel_job(s.port, second);
    free(first);
    free(second);
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
}

END_TEST

/* ======================================================================= */
/* retention: ended jobs are evicted */

START_TEST(test_server_http_retention_job_evicted_404)
{
    static const char *const flags[] = { "--retention-s", "1", NULL };
    srv_t s;
    char path[160];
    http_resp_t r;
    char *id;
    long st;
    int64_t t0;
    int64_t deadline;

    ck_assert(srv_start(&s, flags) == 0);
    /* The job ends after t0, so it may go no earlier than t0 + 1 s. */
    t0 = now_ms();
    id = ht_submit(s.port,
                   "{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3,4,5,6,0,7,8]}",
                   &st, NULL);
    ck_assert_int_eq(st, 200);
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    deadline = t0 + 6000;
    for (;;) {
        http_get(s.port, path, &r);
        if (r.status != 200 || now_ms() > deadline) {
            break;
        }
        http_resp_free(&r);
        sleep_ms(100);
    }
    ASSERT_PROBLEM(&r, 404, "job_not_found");
    /* Kept for its retention time, not dropped at once. */
    ck_assert_msg(now_ms() - t0 >= 1000, "evicted after %lld ms",
                  (long long)(now_ms() - t0));
    http_resp_free(&r);
    free(id);
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
}

END_TEST

/* ======================================================================= */
/* concurrency: many clients at once */

#define CONC_THREADS  4
#define CONC_REQUESTS 50

typedef struct conc_arg {
    int port;
    int index;
    int ok;
    char why[256];
} conc_arg_t;

static void *
conc_client(void *p)
{
    conc_arg_t *a = p;
    CURL *h = curl_easy_init();

    for (int i = 0; i < CONC_REQUESTS && h != NULL; i++) {
        bool cube = (i + a->index) % 2 == 0;
        http_req_t rq = { .method = "POST", .path = "/v1/solve" };
        http_resp_t r;
        cJSON *j = NULL;
        const char *why;
        int len = -1;

        rq.body = cube ? "{\"puzzle\":\"2x2x2\",\"metric\":\"qtm\","
                         "\"scramble\":\"" CUBE2_SCRAMBLE "\"}"
                       : "{\"puzzle\":\"8-puzzle\",\"state\":" EIGHT_HARD_B "}";
        http_send(h, a->port, &rq, &r);
        if (r.status != 200) {
            snprintf(a->why, sizeof(a->why),
                     "request %d: status %ld (%s) %.100s", i, r.status,
                     curl_easy_strerror(r.rc), r.body);
            http_resp_free(&r);
            break;
        }
        j = cJSON_ParseWithLength(r.body, r.len);
        why = j == NULL ? "not JSON" : ht_check_job(j);
        if (why == NULL) {
            why = cube ? ht_replay_check("2x2x2", "qtm", CUBE2_SCRAMBLE, NULL,
                                         j, &len)
                       : ht_replay_check("8-puzzle", NULL, NULL, EIGHT_HARD_B,
                                         j, &len);
        }
        if (why == NULL &&
            len != (cube ? CUBE2_OPTIMAL_QTM : EIGHT_HARD_OPTIMAL)) {
            why = "not the optimal length";
        }
        cJSON_Delete(j);
        http_resp_free(&r);
        if (why != NULL) {
            snprintf(a->why, sizeof(a->why), "request %d: %s", i, why);
            break;
        }
        a->ok++;
    }
    curl_easy_cleanup(h);
    return NULL;
}

START_TEST(test_server_http_concurrency_parallel_clients_all_correct)
{
    pthread_t t[CONC_THREADS];
    conc_arg_t args[CONC_THREADS];
    int total = 0;

    for (int i = 0; i < CONC_THREADS; i++) {
        memset(&args[i], 0, sizeof(args[i]));
        args[i].port = g_srv.port;
        args[i].index = i;
        ck_assert_int_eq(pthread_create(&t[i], NULL, conc_client, &args[i]), 0);
    }
    for (int i = 0; i < CONC_THREADS; i++) {
        pthread_join(t[i], NULL);
    }
    for (int i = 0; i < CONC_THREADS; i++) {
        ck_assert_msg(args[i].ok == CONC_REQUESTS, "client %d: %d ok; %s", i,
                      args[i].ok, args[i].why);
        total += args[i].ok;
    }
    ck_assert_int_eq(total, CONC_THREADS * CONC_REQUESTS);
}

END_TEST

/* ======================================================================= */
/* cors: an allow-list of origins */

#define CORS_ORIGIN "http://app.example.test"

static void
setup_cors(void)
{
    static const char *const flags[] = { "--cors-origin", CORS_ORIGIN, NULL };

    ck_assert_msg(srv_start(&g_srv, flags) == 0, "the daemon did not start");
}

/* Performs method on path with an Origin header (and preflight headers
 * for OPTIONS); returns the raw response headers in r->body. */
static void
cors_request(const char *method,
             const char *path,
             const char *origin,
             http_resp_t *r)
{
    CURL *h = curl_easy_init();
    struct curl_slist *hdrs = NULL;
    char line[160];
    char url[160];

    memset(r, 0, sizeof(*r));
    snprintf(line, sizeof(line), "Origin: %s", origin);
    hdrs = curl_slist_append(hdrs, line);
    if (strcmp(method, "OPTIONS") == 0) {
        hdrs = curl_slist_append(hdrs, "Access-Control-Request-Method: POST");
        hdrs = curl_slist_append(
            hdrs, "Access-Control-Request-Headers: content-type");
    }
    snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", g_srv.port, path);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, ht_on_body);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, r);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, ht_on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)HTTP_TIMEOUT_MS);
    r->rc = curl_easy_perform(h);
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->status);
    curl_slist_free_all(hdrs);
    curl_easy_cleanup(h);
    if (r->body == NULL) {
        r->body = calloc(1, 1);
    }
}

START_TEST(test_server_http_cors_allowed_origin_gets_header)
{
    http_resp_t r;

    cors_request("GET", "/healthz", CORS_ORIGIN, &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_msg(
        contains_ci(r.body, "access-control-allow-origin: " CORS_ORIGIN),
        "no Access-Control-Allow-Origin:\n%s", r.body);
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_cors_other_origin_gets_none)
{
    http_resp_t r;

    cors_request("GET", "/healthz", "http://evil.example.test", &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_msg(!contains_ci(r.body, "access-control-"),
                  "CORS headers for an origin not on the list:\n%s", r.body);
    http_resp_free(&r);
}

END_TEST

START_TEST(test_server_http_cors_preflight_204)
{
    http_resp_t r;

    cors_request("OPTIONS", "/v1/solve", CORS_ORIGIN, &r);
    ck_assert_int_eq(r.status, 204);
    ck_assert_msg(
        contains_ci(r.body, "access-control-allow-origin: " CORS_ORIGIN),
        "preflight without Allow-Origin:\n%s", r.body);
    ck_assert_msg(contains_ci(r.body, "access-control-allow-methods:") &&
                      contains_ci(r.body, "POST"),
                  "preflight without Allow-Methods POST:\n%s", r.body);
    http_resp_free(&r);
}

END_TEST

/* ======================================================================= */
/* shutdown: SIGTERM answers waiting clients and exits 0 */

typedef struct waiter {
    int port;
    const char *path;
    const char *body; /* NULL: GET */
    http_resp_t resp;
} waiter_t;

static void *
waiter_main(void *p)
{
    waiter_t *w = p;
    http_req_t rq = { .method = w->body != NULL ? "POST" : "GET",
                      .path = w->path,
                      .body = w->body };

    http_send(NULL, w->port, &rq, &w->resp);
    return NULL;
}

/* A waiting client's answer during shutdown: a JSON job that has ended,
 * or a 503 draining problem. */
static void
assert_shutdown_answer(const http_resp_t *r)
{
    ck_assert_msg(r->rc == CURLE_OK, "no answer: %s",
                  curl_easy_strerror(r->rc));
    if (r->status == 503) {
        ASSERT_PROBLEM(r, 503, "draining");
        return;
    }
    ck_assert_msg(r->status == 200 || r->status == 202, "status %ld %.300s",
                  r->status, r->body);
    cJSON_Delete(ht_job_of(r));
}

START_TEST(test_server_http_shutdown_answers_suspended_requests)
{
    static const char *const flags[] = { "--grace-ms", "300", NULL };
    srv_t s;
    char body[512];
    char path[160];
    pthread_t tp;
    pthread_t tg;
    waiter_t post;
    waiter_t poll;
    char *id;
    long st;
    int64_t t0;

    ck_assert(srv_start(&s, flags) == 0);
    /* One job for a long-poll, one POST that waits itself. */
    ht_long_job_body(body, sizeof(body), 60000, 16, 0);
    id = ht_submit(s.port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    snprintf(path, sizeof(path), "/v1/jobs/%s?wait_ms=30000", id);
    memset(&poll, 0, sizeof(poll));
    poll.port = s.port;
    poll.path = path;
    ht_long_job_body(body, sizeof(body), 60000, 16, 30000);
    memset(&post, 0, sizeof(post));
    post.port = s.port;
    post.path = "/v1/solve";
    post.body = body;
    ck_assert_int_eq(pthread_create(&tg, NULL, waiter_main, &poll), 0);
    ck_assert_int_eq(pthread_create(&tp, NULL, waiter_main, &post), 0);
    /* Both requests are in the server (and this /metrics request). */
    ht_await_metric(s.port, BUSY_CONNS, 3);
    t0 = now_ms();
    ck_assert_int_eq(srv_stop(&s), 0);
    pthread_join(tg, NULL);
    pthread_join(tp, NULL);
    ck_assert_msg(now_ms() - t0 < 10000, "shutdown took %lld ms",
                  (long long)(now_ms() - t0));
    assert_shutdown_answer(&poll.resp);
    assert_shutdown_answer(&post.resp);
    http_resp_free(&poll.resp);
    http_resp_free(&post.resp);
    free(id);
    srv_cleanup(&s);
}

END_TEST

START_TEST(test_server_http_shutdown_draining_refuses_new_jobs)
{
    static const char *const flags[] = { "--grace-ms", "3000", NULL };
    srv_t s;
    CURL *h = curl_easy_init();
    http_req_t health = { .method = "GET", .path = "/healthz" };
    http_req_t solve = { .method = "POST",
                         .path = "/v1/solve",
                         .body = "{\"puzzle\":\"8-puzzle\",\"state\":"
                                 "[1,2,3,4,5,6,0,7,8]}" };
    char body[512];
    http_resp_t r;
    char *id;
    long st;

    ck_assert(srv_start(&s, flags) == 0);
    /* A running job keeps the server draining for the grace period. */
    ht_long_job_body(body, sizeof(body), 60000, 16, 0);
    id = ht_submit(s.port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    /* Open a keep-alive connection, then ask for work on it while
     * draining. The listening socket itself may be closed by then. */
    http_send(h, s.port, &health, &r);
    ck_assert_int_eq(r.status, 200);
    http_resp_free(&r);
    kill(s.pid, SIGTERM);
    /* The server drains before it closes its listening socket. */
    ck_assert(ht_await_refused(s.port, 20000));
    http_send(h, s.port, &solve, &r);
    if (r.rc == CURLE_OK && r.status != 0) {
        ASSERT_PROBLEM(&r, 503, "draining");
    } else {
        fprintf(stderr,
                "note: no answer while draining (%s): the server "
                "closed the connection, which the contract allows\n",
                curl_easy_strerror(r.rc));
    }
    http_resp_free(&r);
    curl_easy_cleanup(h);
    /* Signal 0: wait for the exit without a second SIGTERM. */
    ck_assert_int_eq(srv_signal_wait(&s, 0, STOP_TIMEOUT_MS), 0);
    free(id);
    srv_cleanup(&s);
}

END_TEST

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

#define BODY_CONNS "puzzled_http_connections{state=\"body\"}"

#define CLOSED(reason) \
    "puzzled_http_connections_closed_total{reason=\"" reason "\"}"

/* Every place taken by requests that wait for a job: health probes are
 * still answered (reserved places), and other requests get 503
 * overloaded from the acceptor instead of waiting in the backlog. */
START_TEST(test_server_http_conns_probes_answered_at_limit)
{
    static const char *const flags[] = { "--connection-limit", "4", "--workers",
                                         "1", NULL };
    char body[512];
    char req[256];
    int fds[4];
    http_resp_t r;
    char *id;
    long st;
    srv_t s;
    int fd;

    ck_assert(srv_start(&s, flags) == 0);
    ht_await_ready(s.port);
    ht_long_job_body(body, sizeof(body), 60000, 64, 0);
    id = ht_submit(s.port, body, &st, NULL);
    ck_assert_ptr_nonnull(id);
    snprintf(req, sizeof(req),
             "GET /v1/jobs/%s?wait_ms=60000 HTTP/1.1\r\nHost: t\r\n\r\n", id);
    for (int i = 0; i < 4; i++) {
        fds[i] = ht_conn_open(s.port);
        ht_conn_send(fds[i], req);
    }
    /* The four waits and this /metrics request itself. */
    ht_await_metric(s.port, BUSY_CONNS, 5);
    for (int i = 0; i < 3; i++) {
        http_get(s.port, "/healthz", &r);
        ck_assert_int_eq(r.status, 200);
        http_resp_free(&r);
        http_get(s.port, "/readyz", &r);
        ck_assert_int_eq(r.status, 200);
        http_resp_free(&r);
    }
    fd = ht_conn_open(s.port);
    ht_conn_send(fd, "GET /v1/puzzles HTTP/1.1\r\nHost: t\r\n\r\n");
    ck_assert(ht_conn_reply(fd, &r));
    ASSERT_PROBLEM(&r, 503, "overloaded");
    ck_assert_str_eq(r.retry_after, "1");
    http_resp_free(&r);
    ck_assert(ht_conn_closed_by_server(fd, 5000));
    close(fd);
    ck_assert_double_ge(ht_metric_now(s.port, CLOSED("refused")), 1);
    /* Shutting down answers the waits with the job as it is. */
    ck_assert_int_eq(srv_stop(&s), 0);
    for (int i = 0; i < 4; i++) {
        ck_assert(ht_conn_reply(fds[i], &r));
        ck_assert_int_eq(r.status, 200);
        http_resp_free(&r);
        close(fds[i]);
    }
    free(id);
    srv_cleanup(&s);
}

END_TEST

/* Bodies trickled in by clients that never finish: a new client is
 * served by closing the oldest of them, and the others are closed at the
 * client timeout; a request head trickled a byte at a time is closed at
 * the same deadline although bytes keep coming. */
START_TEST(test_server_http_conns_slow_clients_closed)
{
    static const char *const flags[] = { "--connection-limit", "4",
                                         "--client-timeout-s", "2", NULL };
    static const char head[] = "POST /v1/solve HTTP/1.1\r\nHost: t\r\n"
                               "Content-Type: application/json\r\n"
                               "Content-Length: 200\r\n\r\n{";
    int fds[4];
    int closed = 0;
    http_resp_t r;
    srv_t s;
    int fd;

    ck_assert(srv_start(&s, flags) == 0);
    for (int i = 0; i < 4; i++) {
        fds[i] = ht_conn_open(s.port);
        ht_conn_send(fds[i], head);
    }
    ht_await_metric(s.port, BODY_CONNS, 4);
    http_post(s.port, "/v1/solve",
              "{\"puzzle\":\"2x2x2\",\"scramble\":\"R U\"}", &r);
    ck_assert_int_eq(r.status, 200);
    http_resp_free(&r);
    ck_assert_double_ge(ht_metric_now(s.port, CLOSED("body_evicted")), 1);
    /* The rest end at the client timeout. */
    for (int i = 0; i < 4; i++) {
        closed += ht_conn_closed_by_server(fds[i], 20000);
        close(fds[i]);
    }
    ck_assert_int_eq(closed, 4);
    /* A request head one byte every 200 ms: closed by the deadline,
     * not kept alive by the trickle. */
    fd = ht_conn_open(s.port);
    {
        static const char slow[] = "GET /healthz HTTP/1.1\r\nX-Pad: "
                                   "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                                   "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
        bool cut = false;

        for (size_t i = 0; i < sizeof(slow) - 1 && !cut; i++) {
            cut = send(fd, slow + i, 1, MSG_NOSIGNAL) != 1 ||
                  ht_conn_closed_by_server(fd, 200);
        }
        ck_assert_msg(cut, "a trickled request head was kept open");
    }
    close(fd);
    ck_assert_double_ge(ht_metric_now(s.port, CLOSED("timeout")), 1);
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
}

END_TEST

/* Three times the limit at once: every connection is answered (200, or
 * 503 overloaded from the acceptor), none waits for a timeout. */
START_TEST(test_server_http_conns_storm_every_connection_answered)
{
    static const char *const flags[] = { "--connection-limit", "8", NULL };

    enum {
        N = 8 * 3 + 16
    };

    int fds[N];
    int ok = 0;
    int overloaded = 0;
    http_resp_t r;
    srv_t s;

    ck_assert(srv_start(&s, flags) == 0);
    for (int i = 0; i < N; i++) {
        fds[i] = ht_conn_open(s.port);
        ht_conn_send(fds[i], "GET /v1/puzzles HTTP/1.1\r\nHost: t\r\n\r\n");
    }
    for (int i = 0; i < N; i++) {
        ck_assert_msg(ht_conn_reply(fds[i], &r), "connection %d unanswered", i);
        if (r.status == 200) {
            ok++;
        } else {
            ASSERT_PROBLEM(&r, 503, "overloaded");
            overloaded++;
        }
        http_resp_free(&r);
        close(fds[i]);
    }
    ck_assert_int_ge(ok, 8);
    ck_assert_int_eq(ok + overloaded, N);
    http_get(s.port, "/healthz", &r);
    ck_assert_int_eq(r.status, 200);
    http_resp_free(&r);
    ck_assert_int_eq(srv_stop(&s), 0);
    srv_cleanup(&s);
}

END_TEST

/* A request target or head past the server's limits gets 414 or 431 in
 * problem+json, and the connection is closed. */
START_TEST(test_server_http_errors_long_target_and_head)
{
    size_t n = 9000;
    char *req = malloc(n + 20000 + 200);
    char *reply = malloc(65536);
    http_resp_t r;
    int fd;

    ck_assert_ptr_nonnull(req);
    ck_assert_ptr_nonnull(reply);
    strcpy(req, "GET /healthz?x=");
    memset(req + strlen(req), 'a', n);
    strcpy(req + 15 + n, " HTTP/1.1\r\nHost: t\r\n\r\n");
    fd = ht_conn_open(g_srv.port);
    ht_conn_send(fd, req);
    ck_assert(ht_conn_reply(fd, &r));
    ASSERT_PROBLEM(&r, 414, "uri_too_long");
    http_resp_free(&r);
    ck_assert(ht_conn_closed_by_server(fd, 5000));
    close(fd);
    strcpy(req, "GET /healthz HTTP/1.1\r\nHost: t\r\n");
    for (int i = 0; i < 20; i++) {
        char line[1100];

        snprintf(line, sizeof(line), "X-Pad-%d: %01000d\r\n", i, 0);
        strcat(req, line);
    }
    strcat(req, "\r\n");
    fd = ht_conn_open(g_srv.port);
    ht_conn_send(fd, req);
    ck_assert(ht_conn_reply(fd, &r));
    ASSERT_PROBLEM(&r, 431, "headers_too_large");
    http_resp_free(&r);
    close(fd);
    free(req);
    free(reply);
}

END_TEST

/* ======================================================================= */

static Suite *
server_http_suite(void)
{
    Suite *s = suite_create("server_http");
    TCase *tc;

    tc = tcase_create("contract");
    tcase_add_test(tc, test_server_http_contract_error_codes_match_spec);
    tcase_add_test(tc, test_server_http_contract_statuses_match_spec);
    tcase_add_test(tc, test_server_http_contract_request_members_match_spec);
    suite_add_tcase(s, tc);

    tc = ht_shared_tcase("solve", 30);
    tcase_add_test(tc, test_server_http_solve_cube2_scramble_optimal_qtm);
    tcase_add_test(tc, test_server_http_solve_cube2_array_same_position);
    tcase_add_test(tc, test_server_http_solve_table_repeats_are_full_jobs);
    tcase_add_test(tc, test_server_http_solve_eight_hardest_a_31);
    tcase_add_test(tc, test_server_http_solve_eight_hardest_b_31);
    tcase_add_test(tc, test_server_http_solve_unversioned_alias_answers);
    tcase_add_test(tc, test_server_http_solve_solved_input_zero_moves);
    tcase_add_test(tc, test_server_http_solve_compare_engines_rows_agree);
    tcase_add_test(tc, ht_serve_sigterm_exits_zero());
    suite_add_tcase(s, tc);

    tc = ht_shared_tcase("jobs", 30);
    tcase_add_test(tc, test_server_http_jobs_wait_zero_gives_202_location);
    tcase_add_test(tc, test_server_http_jobs_long_poll_waits_for_end);
    tcase_add_test(tc, test_server_http_jobs_long_poll_times_out_with_job);
    tcase_add_test(tc, test_server_http_jobs_delete_cancels_running_job);
    tcase_add_test(tc, test_server_http_jobs_delete_ended_job_gives_200);
    tcase_add_test(tc, test_server_http_jobs_unknown_id_404);
    tcase_add_test(tc, test_server_http_jobs_list_newest_first_paginated);
    tcase_add_test(tc, ht_serve_sigterm_exits_zero());
    suite_add_tcase(s, tc);

    tc = ht_shared_tcase("errors", 20);
    tcase_add_test(tc, test_server_http_errors_invalid_json_400_with_position);
    tcase_add_test(tc, test_server_http_errors_unknown_member_400_with_field);
    tcase_add_test(tc, test_server_http_errors_wrong_type_400_with_field);
    tcase_add_test(tc, test_server_http_errors_missing_puzzle_400);
    tcase_add_test(tc, test_server_http_errors_unknown_puzzle_400);
    tcase_add_test(tc, test_server_http_errors_scramble_and_state_400);
    tcase_add_test(tc, test_server_http_errors_bad_move_422_with_position);
    tcase_add_test(tc, test_server_http_errors_colour_count_422);
    tcase_add_test(tc, test_server_http_errors_tiles_unsolvable_422);
    tcase_add_test(tc, test_server_http_errors_limit_too_large_422);
    tcase_add_test(tc, test_server_http_errors_unknown_path_404);
    tcase_add_test(tc, test_server_http_errors_wrong_method_405_allow);
    tcase_add_test(tc, test_server_http_errors_chunked_body_accepted);
    tcase_add_test(tc, test_server_http_errors_long_target_and_head);
    tcase_add_test(tc, test_server_http_errors_framing_refused);
    tcase_add_test(tc, test_server_http_errors_nul_in_path_404);
    tcase_add_test(tc, test_server_http_errors_large_body_413);
    tcase_add_test(tc, test_server_http_errors_text_body_415);
    tcase_add_test(tc, test_server_http_errors_json_charset_accepted);
    tcase_add_test(tc, test_server_http_errors_empty_body_400);
    tcase_add_test(tc, test_server_http_errors_duplicate_member_400);
    tcase_add_test(tc, test_server_http_errors_request_id_echoed);
    tcase_add_test(tc, test_server_http_errors_request_id_bad_replaced);
    tcase_add_test(tc, test_server_http_errors_cors_off_by_default);
    tcase_add_test(tc, ht_serve_sigterm_exits_zero());
    suite_add_tcase(s, tc);

    tc = ht_shared_tcase("ops", 20);
    tcase_add_test(tc, test_server_http_ops_healthz_ok);
    tcase_add_test(tc, test_server_http_ops_head_has_no_body);
    tcase_add_test(tc, test_server_http_ops_readyz_ready);
    tcase_add_test(tc, test_server_http_ops_metrics_exposition);
    tcase_add_test(tc, test_server_http_ops_catalogue_lists_puzzles_engines);
    tcase_add_test(tc, test_server_http_ops_openapi_served);
    tcase_add_test(tc, ht_serve_sigterm_exits_zero());
    suite_add_tcase(s, tc);

    tc = ht_shared_tcase("concurrency", 60);
    tcase_add_test(tc,
                   test_server_http_concurrency_parallel_clients_all_correct);
    tcase_add_test(tc, ht_serve_sigterm_exits_zero());
    suite_add_tcase(s, tc);

    tc = tcase_create("admission");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_server_http_admission_queue_full_429);
    tcase_add_test(tc, test_server_http_admission_readyz_follows_queue);
    tcase_add_test(tc, test_server_http_admission_results_kept_until_fetched);
    tcase_add_test(tc, test_server_http_admission_table_job_queue_full_429);
    tcase_add_test(tc, test_server_http_admission_memory_cap_429);
    suite_add_tcase(s, tc);

    tc = tcase_create("cors");
    tcase_add_unchecked_fixture(tc, setup_cors, ht_teardown_default);
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_server_http_cors_allowed_origin_gets_header);
    tcase_add_test(tc, test_server_http_cors_other_origin_gets_none);
    tcase_add_test(tc, test_server_http_cors_preflight_204);
    tcase_add_test(tc, ht_serve_sigterm_exits_zero());
    suite_add_tcase(s, tc);

    tc = tcase_create("retention");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_server_http_retention_job_evicted_404);
    suite_add_tcase(s, tc);

    tc = tcase_create("conns");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_server_http_conns_probes_answered_at_limit);
    tcase_add_test(tc, test_server_http_conns_slow_clients_closed);
    tcase_add_test(tc, test_server_http_conns_storm_every_connection_answered);
    suite_add_tcase(s, tc);

    tc = tcase_create("shutdown");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_server_http_shutdown_answers_suspended_requests);
    tcase_add_test(tc, test_server_http_shutdown_draining_refuses_new_jobs);
    suite_add_tcase(s, tc);
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
    if (!srv_prepare_tables("server-http")) {
        return EXIT_FAILURE;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    sr = srunner_create(server_http_suite());
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
