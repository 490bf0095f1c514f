/* SPDX-License-Identifier: MIT */
/* test_server_solve.c - `puzzled serve` over libcurl: solves and jobs, and
 * openapi.yaml against the code's tables. */

/*
 * Design: the solve and jobs TCases each run the real binary on a loopback
 * port (http_testlib.h: the last test of each sends SIGTERM and asserts
 * that the daemon exited with status 0). Every job is checked against
 * openapi.yaml, and every solution is replayed with the solver library on
 * the input parsed independently, then compared with known optimal
 * lengths (a 2x2x2 case of 5 quarter turns, and the two 31-move 8-puzzle
 * positions of the published 8-puzzle distribution).
 */
#include <curl/curl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "api_json.h"
#include "http_testlib.h"
#include "pz_error.h"
#include "request.h"
#include "search.h"
#include "srv_testlib.h"

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

    ht_long_job_body(body, sizeof(body), 2000, 16, 0);
    t0 = now_ms();
    id = ht_submit(g_srv.port, body, &status, NULL);
    ck_assert_int_eq(status, 202);
    j = ht_get_job(g_srv.port, id, 0, NULL);
    ck_assert(!ht_job_terminal(j));
    cJSON_Delete(j);
    j = ht_get_job(g_srv.port, id, 10000, &r);
    /* It answered when the job ended (2 s), well before 10 s. */
    ck_assert_str_eq(ht_jstr(j, "status"), "timeout");
    ck_assert_msg(now_ms() - t0 >= 1900, "answered after %lld ms",
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

static Suite *
server_solve_suite(void)
{
    Suite *s = suite_create("server_solve");
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

    return s;
}

int
main(void)
{
    SRunner *sr;
    int failed;

    /* The daemon is killed with us if we die; nothing else to inherit. */
    signal(SIGPIPE, SIG_IGN);
    if (!srv_prepare_tables("server-solve")) {
        return EXIT_FAILURE;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    sr = srunner_create(server_solve_suite());
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
