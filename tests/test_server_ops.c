/* SPDX-License-Identifier: MIT */
/* test_server_ops.c - `puzzled serve` over libcurl: health, readiness,
 * metrics and the catalogue; admission, retention and shutdown. */

/*
 * Design: the ops TCase runs one real daemon on a loopback port
 * (http_testlib.h: its last test sends SIGTERM and asserts that the daemon
 * exited with status 0). The admission, retention and shutdown tests need
 * their own flags: each starts and stops a private daemon.
 */
#include <curl/curl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "engine.h"
#include "http_testlib.h"
#include "puzzle.h"
#include "srv_testlib.h"

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
    if (g_redis_url[0] != '\0') {
        /* With Redis a record lives for its retention (a TTL) and
         * --max-jobs does not apply (docs/scale-out.md). */
        ck_assert_msg(r.status == 202 || r.status == 200,
                      "a job on Redis got %ld", r.status);
    } else {
        ASSERT_PROBLEM(&r, 429, "results_full");
    }
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

/* ======================================================================= */

static Suite *
server_ops_suite(void)
{
    Suite *s = suite_create("server_ops");
    TCase *tc;

    tc = ht_shared_tcase("ops", 20);
    tcase_add_test(tc, test_server_http_ops_healthz_ok);
    tcase_add_test(tc, test_server_http_ops_head_has_no_body);
    tcase_add_test(tc, test_server_http_ops_readyz_ready);
    tcase_add_test(tc, test_server_http_ops_metrics_exposition);
    tcase_add_test(tc, test_server_http_ops_catalogue_lists_puzzles_engines);
    tcase_add_test(tc, test_server_http_ops_openapi_served);
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

    tc = tcase_create("retention");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_server_http_retention_job_evicted_404);
    suite_add_tcase(s, tc);

    tc = tcase_create("shutdown");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_server_http_shutdown_answers_suspended_requests);
    tcase_add_test(tc, test_server_http_shutdown_draining_refuses_new_jobs);
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
    if (!srv_prepare_tables("server-ops")) {
        return EXIT_FAILURE;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    sr = srunner_create(server_ops_suite());
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
