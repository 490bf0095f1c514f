/* SPDX-License-Identifier: MIT */
/* test_server_errors.c - `puzzled serve` over libcurl: every error status
 * the contract names, and CORS. */

/*
 * Design: one real daemon per TCase on a loopback port (http_testlib.h:
 * its last test sends SIGTERM and asserts that the daemon exited with
 * status 0); the cors TCase's daemon has an allow-list of origins. Every
 * error is checked as problem+json against openapi.yaml and pz_error.h.
 */
#include <curl/curl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "http_testlib.h"
#include "srv_testlib.h"

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

static Suite *
server_errors_suite(void)
{
    Suite *s = suite_create("server_errors");
    TCase *tc;

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

    tc = tcase_create("cors");
    tcase_add_unchecked_fixture(tc, setup_cors, ht_teardown_default);
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_server_http_cors_allowed_origin_gets_header);
    tcase_add_test(tc, test_server_http_cors_other_origin_gets_none);
    tcase_add_test(tc, test_server_http_cors_preflight_204);
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
    if (!srv_prepare_tables("server-errors")) {
        return EXIT_FAILURE;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    sr = srunner_create(server_errors_suite());
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
