/* SPDX-License-Identifier: MIT */
/* test_api_request.c - solve request validation and job rendering, without
 * sockets: every rejection has its code and JSON pointer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "api_json.h"
#include "api_request_testlib.h"
#include "job.h"
#include "problem.h"
#include "request.h"

START_TEST(test_api_json_parse_rejects_trailing_garbage)
{
    cJSON *v = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(api_json_parse("{\"a\":1} xyz", 11, &v, &d), PZ_EJSON);
    ck_assert_ptr_null(v);
    ck_assert_int_ge(d.position, 0);
}
END_TEST

START_TEST(test_api_json_parse_rejects_deep_nesting)
{
    char buf[64];
    cJSON *v = NULL;
    pz_diag_t d;

    memset(buf, '[', 20);
    memset(buf + 20, ']', 20);
    buf[40] = '\0';
    ck_assert_int_eq(api_json_parse(buf, 40, &v, &d), PZ_EJSON);
    ck_assert_ptr_null(v);
}
END_TEST

START_TEST(test_api_json_parse_rejects_empty_and_nul)
{
    cJSON *v = NULL;
    pz_diag_t d;

    ck_assert_int_eq(api_json_parse("", 0, &v, &d), PZ_EJSON);
    ck_assert_int_eq(api_json_parse("{}\0{}", 5, &v, &d), PZ_EJSON);
    ck_assert_ptr_null(v);
}
END_TEST

START_TEST(test_api_json_parse_rejects_oversized_body)
{
    size_t n = API_BODY_MAX + 1;
    char *buf = malloc(n);
    cJSON *v = NULL;
    pz_diag_t d;

    memset(buf, ' ', n);
    ck_assert_int_eq(api_json_parse(buf, n, &v, &d), PZ_ETOO_LARGE);
    free(buf);
}
END_TEST

START_TEST(test_api_solve_parse_rejects_bad_members)
{
    expect_reject("[1,2]", PZ_ETYPE, NULL);
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"colour\":1}",
                  PZ_EUNKNOWN_FIELD, "/colour");
    expect_reject("{\"Puzzle\":\"2x2x2\",\"scramble\":\"R\"}",
                  PZ_EUNKNOWN_FIELD, "/Puzzle");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"a/b~c\":1}",
                  PZ_EUNKNOWN_FIELD, "/a~1b~0c");
    expect_reject("{\"scramble\":\"R\"}", PZ_EMISSING, "/puzzle");
    expect_reject("{\"puzzle\":7,\"scramble\":\"R\"}", PZ_ETYPE, "/puzzle");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"puzzle\":\"x\"}",
                  PZ_ECONFLICT, "/puzzle");
    expect_reject("{\"puzzle\":\"2x2x2\"}", PZ_EMISSING, "/scramble");
    expect_reject("{\"puzzle\":\"8-puzzle\",\"scramble\":\"U\","
                  "\"state\":[1,2,3,4,5,6,7,8,0]}",
                  PZ_ECONFLICT, "/state");
}
END_TEST

START_TEST(test_api_solve_parse_rejects_bad_choices)
{
    expect_reject("{\"puzzle\":\"megaminx\",\"scramble\":\"R\"}", PZ_EPUZZLE,
                  "/puzzle");
    expect_reject(
        "{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"engine\":\"dfs\"}",
        PZ_EENGINE, "/engine");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\","
                  "\"engines\":[\"astar\",\"dfs\"]}",
                  PZ_EENGINE, "/engines/1");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\","
                  "\"engine\":\"astar\",\"heuristic\":\"manhattan\"}",
                  PZ_EHEURISTIC, "/heuristic");
    expect_reject(
        "{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"metric\":\"ftm\"}",
        PZ_EMETRIC, "/metric");
    expect_reject("{\"puzzle\":\"tiles\",\"size\":\"9x9\",\"scramble\":\"U\"}",
                  PZ_ESIZE, "/size");
    expect_reject("{\"puzzle\":\"tiles\",\"size\":\"4by4\",\"scramble\":\"U\"}",
                  PZ_ESIZE, "/size");
}
END_TEST

START_TEST(test_api_solve_parse_rejects_bad_limits)
{
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"time_ms\":0}",
                  PZ_ERANGE, "/time_ms");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"time_ms\":1.5}",
                  PZ_ETYPE, "/time_ms");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\","
                  "\"time_ms\":600000}",
                  PZ_ELIMIT, "/time_ms");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\","
                  "\"memory_mb\":100000}",
                  PZ_ELIMIT, "/memory_mb");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"weight\":0.5}",
                  PZ_ERANGE, "/weight");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"optimal\":1}",
                  PZ_ETYPE, "/optimal");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"wait_ms\":-1}",
                  PZ_ERANGE, "/wait_ms");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"max_nodes\":-1}",
                  PZ_ERANGE, "/max_nodes");
    /* A wrong type is bad_type, a number past the range out_of_range. */
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"weight\":\"2\"}",
                  PZ_ETYPE, "/weight");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"time_ms\":1e400}",
                  PZ_ERANGE, "/time_ms");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\","
                  "\"max_depth\":-1e400}",
                  PZ_ERANGE, "/max_depth");
}
END_TEST

START_TEST(test_api_solve_parse_rejects_bad_states)
{
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R Q\"}", PZ_EMOVE,
                  "/scramble");
    expect_reject("{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3]}",
                  PZ_ESTATE_LENGTH, "/state");
    expect_reject("{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3,4,5,6,7,7,0]}",
                  PZ_ETILES, "/state");
    expect_reject("{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3,4,5,6,8,7,0]}",
                  PZ_EUNSOLVABLE, "/state");
    expect_reject("{\"puzzle\":\"8-puzzle\",\"state\":[1,2,[3],4,5,6,8,7,0]}",
                  PZ_ETYPE, "/state");
    expect_reject("{\"puzzle\":\"8-puzzle\",\"state\":{\"a\":1}}", PZ_ETYPE,
                  "/state");
    expect_reject("{\"puzzle\":\"8-puzzle\",\"state\":[1,2,3,4,5,6,7,8,0],"
                  "\"goal\":[1,2,3,4,5,6,8,7,0]}",
                  PZ_EUNSOLVABLE, "/goal");
    expect_reject("{\"puzzle\":\"2x2x2\",\"state\":\"UUUU\"}", PZ_ESTATE_LENGTH,
                  "/state");
}
END_TEST

START_TEST(test_api_solve_parse_infers_tiles_size)
{
    api_solve_request_t req;
    pz_diag_t d;

    ck_assert_int_eq(parse_text("{\"puzzle\":\"tiles\",\"state\":"
                                "[[1,2,3,4],[5,6,7,8],[9,10,11,12],"
                                "[13,14,0,15]]}",
                                &req, &d),
                     PZ_OK);
    ck_assert_int_eq(req.puzzle->params.rows, 4);
    ck_assert_int_eq(req.puzzle->params.cols, 4);
    api_solve_cleanup(&req);
    ck_assert_int_eq(parse_text("{\"puzzle\":\"tiles\",\"state\":"
                                "\"1 2 3 4 5 0 7 8 6\"}",
                                &req, &d),
                     PZ_OK);
    ck_assert_int_eq(req.puzzle->params.rows, 3);
    api_solve_cleanup(&req);
}
END_TEST

START_TEST(test_api_solve_parse_applies_defaults)
{
    api_solve_request_t req;
    pz_diag_t d;

    ck_assert_int_eq(
        parse_text("{\"puzzle\":\"15-puzzle\",\"scramble\":\"D R\"}", &req, &d),
        PZ_OK);
    ck_assert_int_eq(req.nruns, 1);
    ck_assert_str_eq(req.requested[0], "auto");
    ck_assert(req.optimal);
    ck_assert(req.runs[0].engine->optimal);
    ck_assert_uint_eq(req.spec.limits.time_ms, 10000);
    ck_assert_int_eq(req.wait_ms, 2000);
    api_solve_cleanup(&req);
}
END_TEST

/* Strings that would end early as C strings are refused, wherever they
 * are: a value, a member name. */
START_TEST(test_api_solve_parse_rejects_escaped_nul)
{
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\\u0000 x\"}",
                  PZ_EINVAL, NULL);
    expect_reject("{\"puzzle\":\"2x2x2\\u0000zz\",\"scramble\":\"R\"}",
                  PZ_EINVAL, NULL);
    expect_reject("{\"puzzle\\u0000x\":\"2x2x2\",\"scramble\":\"R\"}",
                  PZ_EINVAL, NULL);
    /* An escaped backslash followed by u0000 is no escape of U+0000. */
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"\\\\u0000\"}", PZ_EMOVE,
                  "/scramble");
}
END_TEST

/* Bodies that are not UTF-8 are refused; an error's detail stays UTF-8
 * however long what it quotes. */
START_TEST(test_api_json_parse_requires_utf8)
{
    static const char *const bad[] = {
        "{\"puzzle\":\"\xff\"}",             /* not a lead byte */
        "{\"puzzle\":\"\xc3\"}",             /* a sequence cut short */
        "{\"puzzle\":\"\xc0\xaf\"}",         /* overlong */
        "{\"puzzle\":\"\xed\xa0\x80\"}",     /* a surrogate */
        "{\"puzzle\":\"\xf4\x90\x80\x80\"}", /* past U+10FFFF */
    };
    char body[1024];
    api_solve_request_t req;
    pz_diag_t d;
    size_t n;
    cJSON *v;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_int_eq(api_json_parse(bad[i], strlen(bad[i]), &v, &d),
                         PZ_EJSON);
        ck_assert_ptr_null(v);
        ck_assert_int_ge(d.position, 11);
    }
    /* 200 two-byte characters: the quoted name passes the detail's size
     * and is cut between characters. */
    n = (size_t)snprintf(body, sizeof(body), "{\"puzzle\":\"");
    for (int i = 0; i < 200; i++) {
        n += (size_t)snprintf(body + n, sizeof(body) - n, "\xc3\xa9");
    }
    snprintf(body + n, sizeof(body) - n, "\",\"scramble\":\"R\"}");
    ck_assert_int_eq(parse_text(body, &req, &d), PZ_EPUZZLE);
    ck_assert_uint_eq(pz_utf8_valid(d.detail, strlen(d.detail)),
                      strlen(d.detail));
    ck_assert_uint_gt(strlen(d.detail), 200);
}
END_TEST

START_TEST(test_api_utf8_clean_replaces_and_cuts)
{
    char a[] = "ok \xff and \xc3\xa9 \xe2\x82";
    char b[] = "\xed\xa0\x80x";

    pz_utf8_clean(a);
    ck_assert_str_eq(a, "ok ? and \xc3\xa9 ");
    pz_utf8_clean(b);
    ck_assert_str_eq(b, "???x");
}
END_TEST

/* openapi.yaml: puzzles other than the tiles ignore size, puzzles with one
 * kind of move ignore the metric; a cube refuses a metric it lacks, and a
 * bad size of a one-metric puzzle is still reported. */
START_TEST(test_api_solve_parse_ignores_size_and_metric_it_lacks)
{
    static const char *const fine[] = {
        "{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"size\":\"9x9\"}",
        "{\"puzzle\":\"3x3x3\",\"scramble\":\"R\",\"size\":true}",
        "{\"puzzle\":\"8-puzzle\",\"scramble\":\"D\",\"metric\":\"qtm\"}",
        "{\"puzzle\":\"pyraminx\",\"scramble\":\"U\",\"metric\":\"htm\"}",
    };
    api_solve_request_t req;
    pz_diag_t d;

    for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
        ck_assert_msg(parse_text(fine[i], &req, &d) == PZ_OK, "%s: %s", fine[i],
                      d.detail);
        if (i == 2) {
            ck_assert_str_eq(req.puzzle->metric_name, "moves");
        }
        api_solve_cleanup(&req);
    }
    expect_reject(
        "{\"puzzle\":\"2x2x2\",\"scramble\":\"R\",\"metric\":\"moves\"}",
        PZ_EMETRIC, "/metric");
    expect_reject("{\"puzzle\":\"tiles\",\"size\":\"9x9\",\"metric\":\"qtm\","
                  "\"scramble\":\"D\"}",
                  PZ_ESIZE, "/size");
}
END_TEST

/* A size is digits x digits, each small: no wrap-around to a small board. */
START_TEST(test_api_solve_parse_rejects_size_overflow)
{
    expect_reject("{\"puzzle\":\"tiles\",\"size\":\"4294967299x3\","
                  "\"scramble\":\"D\"}",
                  PZ_ESIZE, "/size");
    expect_reject("{\"puzzle\":\"tiles\",\"size\":\"3x3 \",\"scramble\":\"D\"}",
                  PZ_ESIZE, "/size");
    expect_reject("{\"puzzle\":\"tiles\",\"size\":\"-3x3\",\"scramble\":\"D\"}",
                  PZ_ESIZE, "/size");
    expect_reject("{\"puzzle\":\"tiles\",\"size\":\"03x3\",\"scramble\":\"D\"}",
                  PZ_ESIZE, "/size");
    expect_reject("{\"puzzle\":\"tiles\",\"size\":\"3x\",\"scramble\":\"D\"}",
                  PZ_ESIZE, "/size");
}
END_TEST

START_TEST(test_api_job_render_reports_solution_and_exact_counts)
{
    api_solve_request_t req;
    api_job_info_t info = { 0 };
    pz_diag_t d;
    cJSON *o;
    char *text;
    size_t len;

    ck_assert_int_eq(parse_text("{\"puzzle\":\"8-puzzle\",\"scramble\":"
                                "\"D R\",\"engine\":\"astar\"}",
                                &req, &d),
                     PZ_OK);
    ck_assert_int_eq(solve_execute(&req.spec, &req.runs[0], NULL), PZ_OK);
    /* A count above 2^53 must print exactly, not as a rounded double. */
    atomic_store(&req.runs[0].stats.nodes_generated,
                 UINT64_C(9007199254740993));
    info.req = &req;
    info.runs_started = info.runs_done = 1;
    info.id = "abc";
    text = api_job_text(&info, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(len, strlen(text));
    o = cJSON_Parse(text);
    ck_assert_ptr_nonnull(o);
    ck_assert_ptr_nonnull(strstr(text, "\"nodes_generated\":9007199254740993"));
    ck_assert_ptr_nonnull(strstr(text, "\"status\":\"solved\""));
    ck_assert_ptr_nonnull(strstr(text, "\"moves\":[\"L\",\"U\"]"));
    ck_assert_int_eq(
        cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(o, "solution"), "length")
            ->valueint,
        2);
    free(text);
    cJSON_Delete(o);
    api_solve_cleanup(&req);
}
END_TEST

/* The written text is what cJSON prints for the same members: parsing it
 * and printing it again gives it back byte for byte (numbers, escapes, key
 * order), here for a comparison of two engines with per-move details, an
 * unsolved run and an escaped scramble. */
START_TEST(test_api_job_text_is_canonical_json)
{
    api_solve_request_t req;
    api_job_info_t info = { 0 };
    pz_diag_t d;
    cJSON *o;
    char *text;
    char *again;
    size_t len;

    ck_assert_int_eq(
        parse_text("{\"puzzle\":\"8-puzzle\",\"scramble\":\"D R\\tU\","
                   "\"engines\":[\"astar\",\"wastar\"],\"weight\":1.5}",
                   &req, &d),
        PZ_OK);
    ck_assert_int_eq(solve_execute(&req.spec, &req.runs[0], NULL), PZ_OK);
    info.req = &req;
    info.runs_started = 2;
    info.runs_done = 1;
    info.created_ms = INT64_C(1795000000123);
    info.started_ms = INT64_C(1795000000124);
    text = api_job_text(&info, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "\"runs\":[{\"status\":\"solved\""));
    ck_assert_ptr_nonnull(strstr(text, "\"tiles\":["));
    ck_assert_ptr_nonnull(strstr(text, "\"weight\":1.5"));
    ck_assert_ptr_nonnull(strstr(text, "\"finished_at\":null"));
    o = cJSON_Parse(text);
    ck_assert_ptr_nonnull(o);
    again = cJSON_PrintUnformatted(o);
    ck_assert_str_eq(again, text);
    cJSON_free(again);
    cJSON_Delete(o);
    free(text);
    api_solve_cleanup(&req);
}
END_TEST

START_TEST(test_api_job_status_follows_runs)
{
    api_solve_request_t req;
    api_job_info_t info = { 0 };
    pz_diag_t d;

    ck_assert_int_eq(parse_text("{\"puzzle\":\"8-puzzle\",\"scramble\":"
                                "\"D R\",\"engines\":[\"astar\",\"bibfs\"]}",
                                &req, &d),
                     PZ_OK);
    info.req = &req;
    ck_assert_int_eq(api_job_status(&info), PZ_STATUS_QUEUED);
    info.runs_started = 1;
    ck_assert_int_eq(api_job_status(&info), PZ_STATUS_RUNNING);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(solve_execute(&req.spec, &req.runs[i], NULL), PZ_OK);
    }
    info.runs_done = 1;
    ck_assert_int_eq(api_job_status(&info), PZ_STATUS_RUNNING);
    info.runs_started = info.runs_done = 2;
    ck_assert_int_eq(api_job_status(&info), PZ_STATUS_SOLVED);
    api_solve_cleanup(&req);
}
END_TEST

START_TEST(test_api_problem_carries_code_and_field)
{
    pz_diag_t d;
    cJSON *p;

    pz_diag_clear(&d);
    pz_diag_set(&d, PZ_EMOVE, "unknown move 'Q'");
    pz_diag_field(&d, "/scramble");
    d.position = 2;
    p = api_problem(PZ_EMOVE, &d);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(p, "code")->valuestring,
                     "bad_move");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(p, "status")->valueint,
                     422);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(p, "field")->valuestring,
                     "/scramble");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(p, "position")->valueint,
                     2);
    cJSON_Delete(p);
}
END_TEST

/* What cJSON accepts but RFC 8259 does not is refused: control characters
 * in strings or as whitespace, leading zeros, a fraction or an exponent
 * without digits. The JSON forms next to them are fine. */
START_TEST(test_api_json_parse_is_strict)
{
    static const struct {
        const char *text;
        int pos;
    } bad[] = {
        { "{\"a\":\"x\ny\"}", 7 }, { "{\"a\":\"\t\"}", 6 },
        { "{\"\x01\":1}", 2 },     { "{\"a\":\x0b 1}", 5 },
        { "{\x0c\"a\":1}", 1 },    { "{\"a\":05}", 5 },
        { "{\"a\":-01}", 5 },      { "{\"a\":1.}", 5 },
        { "{\"a\":1.e5}", 5 },     { "{\"a\":1e}", 5 },
        { "{\"a\":1E+}", 5 },      { "{\"a\":-}", 5 },
        { "[1,2,3,4.5.6]", 7 },
    };
    static const char *const good[] = {
        "{\"a\":0}",       "{\"a\":-0}",     "{\"a\":0.5e-3}",
        "{\"a\":10E+2}",   "[1,-2,30,4.25]", " \t\r\n{\"a\" : \"\x7f\"}\n",
        "{\"a\":\"\\n\"}",
    };
    pz_diag_t d;
    cJSON *v;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(api_json_parse(bad[i].text, strlen(bad[i].text), &v,
                                     &d) == PZ_EJSON,
                      "accepted %s", bad[i].text);
        ck_assert_ptr_null(v);
        ck_assert_int_eq(d.position, bad[i].pos);
    }
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        ck_assert_msg(api_json_parse(good[i], strlen(good[i]), &v, &d) == PZ_OK,
                      "refused %s: %s", good[i], d.detail);
        cJSON_Delete(v);
    }
}
END_TEST

static Suite *
api_request_suite(void)
{
    Suite *s = suite_create("api_request");
    TCase *tc = tcase_create("json");

    tcase_add_test(tc, test_api_json_parse_rejects_trailing_garbage);
    tcase_add_test(tc, test_api_json_parse_rejects_deep_nesting);
    tcase_add_test(tc, test_api_json_parse_rejects_empty_and_nul);
    tcase_add_test(tc, test_api_json_parse_rejects_oversized_body);
    tcase_add_test(tc, test_api_json_parse_is_strict);
    suite_add_tcase(s, tc);
    tc = tcase_create("solve_parse");
    tcase_add_test(tc, test_api_solve_parse_rejects_bad_members);
    tcase_add_test(tc, test_api_solve_parse_rejects_bad_choices);
    tcase_add_test(tc, test_api_solve_parse_rejects_bad_limits);
    tcase_add_test(tc, test_api_solve_parse_rejects_bad_states);
    tcase_add_test(tc, test_api_solve_parse_infers_tiles_size);
    tcase_add_test(tc, test_api_solve_parse_applies_defaults);
    suite_add_tcase(s, tc);
    tc = tcase_create("render");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_api_job_render_reports_solution_and_exact_counts);
    tcase_add_test(tc, test_api_job_text_is_canonical_json);
    tcase_add_test(tc, test_api_job_status_follows_runs);
    tcase_add_test(tc, test_api_problem_carries_code_and_field);
    tcase_add_test(tc, test_api_solve_parse_rejects_escaped_nul);
    tcase_add_test(tc, test_api_json_parse_requires_utf8);
    tcase_add_test(tc, test_api_utf8_clean_replaces_and_cuts);
    tcase_add_test(tc, test_api_solve_parse_rejects_size_overflow);
    tcase_add_test(tc, test_api_solve_parse_ignores_size_and_metric_it_lacks);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(api_request_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
