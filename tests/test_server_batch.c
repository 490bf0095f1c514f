/* SPDX-License-Identifier: MIT */
/* test_server_batch.c - POST /v1/solve/batch over libcurl: one job of many
 * solves, its progress, its NDJSON results and its refusals. */

/*
 * Design: one shared daemon (http_testlib.h; run again against the Redis
 * job store). Items are 8-puzzle scrambles and states whose optimal
 * lengths the test knows independently: a scramble of k moves with no
 * move undone is at most k moves away, and the solution of each item is
 * replayed here by the solver library (ht_replay_check). The batch's
 * results must come in the items' order, each its own job.
 */
#include <curl/curl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "http_testlib.h"
#include "srv_testlib.h"

static const char *const scrambles[] = {
    "R D", "D R U L", "D D R R", "R D L D R U", "D R D R U L U",
};
#define NSCRAMBLES 5

/* The batch body of the scrambles, with extra shared members. */
static void
batch_body(char *buf, size_t len, const char *extra)
{
    int n = snprintf(buf, len, "{\"puzzle\":\"8-puzzle\",%s\"items\":[", extra);

    for (int i = 0; i < NSCRAMBLES; i++) {
        n += snprintf(buf + n, len - (size_t)n, "%s\"%s\"", i ? "," : "",
                      scrambles[i]);
    }
    snprintf(buf + n, len - (size_t)n,
             ",{\"state\":\"1 2 3 / 4 0 6 / 7 5 8\"}]}");
}

/* Item i of a result list: its own solved job, replayed on its input. */
static void
assert_item(const cJSON *item, int i)
{
    const char *why;
    int len = -1;

    ck_assert_str_eq(ht_jstr(item, "status"), "solved");
    if (i < NSCRAMBLES) {
        ck_assert_str_eq(ht_jstr(item, "scramble"), scrambles[i]);
        why = ht_replay_check("8-puzzle", NULL, scrambles[i], NULL, item, &len);
        ck_assert_msg(why == NULL, "item %d: %s", i, why);
        ck_assert_int_le(len, (int)(strlen(scrambles[i]) + 1) / 2);
    } else {
        why = ht_replay_check("8-puzzle", NULL, NULL,
                              "\"1 2 3 / 4 0 6 / 7 5 8\"", item, &len);
        ck_assert_msg(why == NULL, "item %d: %s", i, why);
        ck_assert_int_eq(len, 2);
    }
}

START_TEST(test_server_batch_solves_every_item_in_order)
{
    char body[1024];
    http_resp_t r;
    cJSON *j;
    const cJSON *items;
    int i = 0;

    batch_body(body, sizeof(body), "\"wait_ms\":20000,");
    ck_assert_int_eq(http_post(g_srv.port, "/v1/solve/batch", body, &r),
                     CURLE_OK);
    ck_assert_msg(r.status == 200, "%ld %.*s", r.status, (int)r.len, r.body);
    j = cJSON_ParseWithLength(r.body, r.len);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(ht_jstr(j, "kind"), "batch");
    ck_assert_str_eq(ht_jstr(j, "status"), "solved");
    ck_assert_int_eq(
        cJSON_GetObjectItemCaseSensitive(j, "items_total")->valueint,
        NSCRAMBLES + 1);
    ck_assert_int_eq(
        cJSON_GetObjectItemCaseSensitive(j, "items_done")->valueint,
        NSCRAMBLES + 1);
    ck_assert_int_eq(
        cJSON_GetObjectItemCaseSensitive(j, "items_solved")->valueint,
        NSCRAMBLES + 1);
    items = cJSON_GetObjectItemCaseSensitive(j, "items");
    ck_assert_int_eq(cJSON_GetArraySize(items), NSCRAMBLES + 1);
    for (const cJSON *it = items->child; it != NULL; it = it->next, i++) {
        assert_item(it, i);
    }
    cJSON_Delete(j);
    http_resp_free(&r);
}
END_TEST

START_TEST(test_server_batch_streams_ndjson)
{
    char body[1024];
    http_resp_t r = { 0 };
    struct curl_slist *hdr = NULL;
    char url[128];
    CURL *h = curl_easy_init();
    int i = 0;

    batch_body(body, sizeof(body), "");
    snprintf(url, sizeof(url), "http://127.0.0.1:%d/v1/solve/batch",
             g_srv.port);
    hdr = curl_slist_append(hdr, "Content-Type: application/json");
    hdr = curl_slist_append(hdr, "Accept: application/x-ndjson");
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, ht_on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, ht_on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &r);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)HTTP_TIMEOUT_MS);
    ck_assert_int_eq(curl_easy_perform(h), CURLE_OK);
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r.status);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.content_type, "application/x-ndjson");
    ck_assert(strncmp(r.location, "/v1/jobs/", 9) == 0);
    /* One job per line, in the items' order, each line whole. */
    for (char *line = r.body, *nl; line < r.body + r.len; line = nl + 1, i++) {
        cJSON *item;

        nl = memchr(line, '\n', (size_t)(r.body + r.len - line));
        ck_assert_ptr_nonnull(nl);
        item = cJSON_ParseWithLength(line, (size_t)(nl - line));
        ck_assert_ptr_nonnull(item);
        assert_item(item, i);
        cJSON_Delete(item);
    }
    ck_assert_int_eq(i, NSCRAMBLES + 1);
    curl_slist_free_all(hdr);
    curl_easy_cleanup(h);
    http_resp_free(&r);
}
END_TEST

START_TEST(test_server_batch_refusals)
{
    http_resp_t r;
    char field[64];
    char *big;
    size_t n = 0;

    /* A bad item is named; nothing is queued. */
    ck_assert_int_eq(http_post(g_srv.port, "/v1/solve/batch",
                               "{\"puzzle\":\"8-puzzle\",\"items\":[\"R D\","
                               "\"L\"]}",
                               &r),
                     CURLE_OK);
    ASSERT_PROBLEM(&r, 422, "bad_move");
    ht_problem_member(&r, "field", field, sizeof(field));
    ck_assert_str_eq(field, "/items/1/scramble");
    http_resp_free(&r);
    ck_assert_int_eq(http_post(g_srv.port, "/v1/solve/batch",
                               "{\"puzzle\":\"8-puzzle\",\"items\":[]}", &r),
                     CURLE_OK);
    ASSERT_PROBLEM(&r, 400, "bad_type");
    http_resp_free(&r);
    ck_assert_int_eq(http_post(g_srv.port, "/v1/solve/batch",
                               "{\"puzzle\":\"8-puzzle\",\"scramble\":\"R\"}",
                               &r),
                     CURLE_OK);
    ASSERT_PROBLEM(&r, 400, "missing_field");
    http_resp_free(&r);
    ck_assert_int_eq(http_post(g_srv.port, "/v1/solve",
                               "{\"puzzle\":\"8-puzzle\",\"items\":[\"R\"]}",
                               &r),
                     CURLE_OK);
    ASSERT_PROBLEM(&r, 400, "unknown_field");
    http_resp_free(&r);
    /* More items than the server takes (1,000 by default). */
    big = malloc(16 * 1024);
    ck_assert_ptr_nonnull(big);
    n += (size_t)sprintf(big, "{\"puzzle\":\"8-puzzle\",\"items\":[");
    for (int i = 0; i < 1001; i++) {
        n += (size_t)sprintf(big + n, "%s\"R\"", i ? "," : "");
    }
    sprintf(big + n, "]}");
    ck_assert_int_eq(http_post(g_srv.port, "/v1/solve/batch", big, &r),
                     CURLE_OK);
    ASSERT_PROBLEM(&r, 422, "limit_too_large");
    http_resp_free(&r);
    free(big);
}
END_TEST

/* A batch of long items runs, and stops at a cancel: the item under way
 * and those after it end cancelled, and each has its result. */
START_TEST(test_server_batch_progress_and_cancel)
{
    const char *body =
        "{\"puzzle\":\"15-puzzle\",\"wait_ms\":0,\"time_ms\":20000,"
        "\"goal\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],"
        "\"engine\":\"idastar\",\"heuristic\":\"none\",\"items\":["
        "{\"state\":[14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3]},"
        "{\"state\":[14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3]},"
        "{\"state\":[14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3]}]}";
    http_resp_t r;
    cJSON *j;
    char id[64];

    ck_assert_int_eq(http_post(g_srv.port, "/v1/solve/batch", body, &r),
                     CURLE_OK);
    ck_assert_msg(r.status == 202, "%ld %.*s", r.status, (int)r.len, r.body);
    j = cJSON_ParseWithLength(r.body, r.len);
    ck_assert_ptr_nonnull(j);
    snprintf(id, sizeof(id), "%s", ht_jstr(j, "id"));
    cJSON_Delete(j);
    http_resp_free(&r);
    /* Wait until it runs (queued, it would end without any result). */
    for (;;) {
        j = ht_get_job(g_srv.port, id, 0, NULL);
        if (strcmp(ht_jstr(j, "status"), "running") == 0) {
            cJSON_Delete(j);
            break;
        }
        ck_assert(!ht_job_terminal(j));
        cJSON_Delete(j);
        nanosleep(&(struct timespec){ 0, 20000000 }, NULL);
    }
    ht_cancel_job(g_srv.port, id);
    j = ht_get_job(g_srv.port, id, 20000, NULL);
    ck_assert_str_eq(ht_jstr(j, "kind"), "batch");
    ck_assert_str_eq(ht_jstr(j, "status"), "cancelled");
    ck_assert_int_eq(
        cJSON_GetObjectItemCaseSensitive(j, "items_done")->valueint, 3);
    for (int i = 0; i < 3; i++) {
        const cJSON *it =
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "items"), i);

        ck_assert_str_eq(ht_jstr(it, "status"), "cancelled");
    }
    cJSON_Delete(j);
}
END_TEST

static Suite *
server_batch_suite(void)
{
    Suite *s = suite_create("server_batch");
    TCase *tc = ht_shared_tcase("batch", 60);

    tcase_add_test(tc, test_server_batch_solves_every_item_in_order);
    tcase_add_test(tc, test_server_batch_streams_ndjson);
    tcase_add_test(tc, test_server_batch_refusals);
    tcase_add_test(tc, test_server_batch_progress_and_cancel);
    tcase_add_test(tc, ht_serve_sigterm_exits_zero());
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr;
    int failed;

    signal(SIGPIPE, SIG_IGN);
    if (!srv_prepare_tables("server-batch")) {
        return EXIT_FAILURE;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    sr = srunner_create(server_batch_suite());
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
