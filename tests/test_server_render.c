/* SPDX-License-Identifier: MIT */
/* test_server_render.c - GET /v1/render over libcurl: SVG pictures and the
 * problems of bad queries. */

/*
 * Design: one real daemon on a loopback port for the TCase
 * (http_testlib.h; its last test sends SIGTERM and asserts that the daemon
 * exited with status 0).
 */
#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "http_testlib.h"
#include "srv_testlib.h"

/* GETs /v1/render?query into r. */
static void
get_render(const char *query, http_resp_t *r)
{
    char path[1024];

    snprintf(path, sizeof(path), "/v1/render?%s", query);
    ck_assert_int_eq(http_get(g_srv.port, path, r), CURLE_OK);
}

static int
count(const char *hay, const char *needle)
{
    int n = 0;

    for (const char *p = strstr(hay, needle); p != NULL;
         p = strstr(p + 1, needle)) {
        n++;
    }
    return n;
}

START_TEST(test_server_render_svg_200)
{
    http_resp_t r;

    get_render("puzzle=3x3x3&scramble=R%20U%27&px=300", &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.content_type, "image/svg+xml; charset=utf-8");
    ck_assert(strncmp(r.body, "<?xml version=\"1.0\"", 19) == 0);
    ck_assert_ptr_nonnull(strstr(r.body, " width=\"300\" "));
    ck_assert_int_eq(count(r.body, "<polygon "), 54);
    ck_assert_ptr_nonnull(strstr(r.body, "</svg>\n"));
    http_resp_free(&r);
    /* A slash stands as it is in a query (the server leaves %2F
     * undecoded). */
    get_render("puzzle=tiles&state=1%202%203%20/%204%205%206%20/%207%200%208",
               &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_int_eq(count(r.body, "<text "), 8);
    http_resp_free(&r);
}
END_TEST

START_TEST(test_server_render_head_answers_headers)
{
    CURL *h = curl_easy_init();
    char url[128];
    http_resp_t r;

    /* HEAD needs CURLOPT_NOBODY, or curl waits for a body. */
    memset(&r, 0, sizeof(r));
    snprintf(url, sizeof(url), "http://127.0.0.1:%d/v1/render?puzzle=skewb",
             g_srv.port);
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
    ck_assert_str_eq(r.content_type, "image/svg+xml; charset=utf-8");
    curl_easy_cleanup(h);
    http_resp_free(&r);
}
END_TEST

START_TEST(test_server_render_bad_queries)
{
    static const struct {
        const char *query;
        long status;
        const char *code;
        const char *field;
    } cases[] = {
        { "puzzle=megaminx", 400, "unknown_puzzle", "/puzzle" },
        { "scramble=R", 400, "missing_field", "/puzzle" },
        { "puzzle=3x3x3&state=UUUU", 422, "bad_state_length", "/state" },
        { "puzzle=2x2x2&scramble=R%20U%20Q", 422, "bad_move", "/scramble" },
        { "puzzle=pyraminx&scramble=U&state=x", 422, "bad_state_length",
          "/state" },
        { "puzzle=8-puzzle&state=1%202%203%20/%204%205%206%20/%207%208%200"
          "&scramble=L",
          422, "bad_move", "/scramble" },
        { "puzzle=tiles&size=9x9", 400, "bad_size", "/size" },
        { "puzzle=3x3x3&px=31", 400, "out_of_range", "/px" },
        { "puzzle=3x3x3&px=2049", 400, "out_of_range", "/px" },
        { "puzzle=3x3x3&px=big", 400, "out_of_range", "/px" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        http_resp_t r;
        char field[64];

        get_render(cases[i].query, &r);
        ASSERT_PROBLEM(&r, cases[i].status, cases[i].code);
        ht_problem_member(&r, "field", field, sizeof(field));
        ck_assert_msg(strcmp(field, cases[i].field) == 0, "%s: field %s",
                      cases[i].query, field);
        http_resp_free(&r);
    }
}
END_TEST

START_TEST(test_server_render_bad_move_position)
{
    http_resp_t r;
    char pos[16];

    get_render("puzzle=2x2x2&scramble=R%20U%20Q", &r);
    ASSERT_PROBLEM(&r, 422, "bad_move");
    ht_problem_member(&r, "position", pos, sizeof(pos));
    ck_assert_str_eq(pos, "4");
    http_resp_free(&r);
}
END_TEST

START_TEST(test_server_render_post_not_allowed)
{
    http_resp_t r;

    ck_assert_int_eq(http_post(g_srv.port, "/v1/render?puzzle=3x3x3", "{}", &r),
                     CURLE_OK);
    ASSERT_PROBLEM(&r, 405, "method_not_allowed");
    ck_assert_str_eq(r.allow, "GET, HEAD, OPTIONS");
    http_resp_free(&r);
}
END_TEST

static Suite *
server_render_suite(void)
{
    Suite *s = suite_create("server_render");
    TCase *tc = ht_shared_tcase("render", 20);

    tcase_add_test(tc, test_server_render_svg_200);
    tcase_add_test(tc, test_server_render_head_answers_headers);
    tcase_add_test(tc, test_server_render_bad_queries);
    tcase_add_test(tc, test_server_render_bad_move_position);
    tcase_add_test(tc, test_server_render_post_not_allowed);
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
    if (!srv_prepare_tables("server-render")) {
        return EXIT_FAILURE;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    sr = srunner_create(server_render_suite());
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
