/* SPDX-License-Identifier: MIT */
/* test_server_play.c - `puzzled serve` over libcurl: random-state
 * scrambles (GET /v1/scramble) and job event streams
 * (GET /v1/jobs/{id}/events). */

/*
 * Design: one shared daemon (http_testlib.h) with the tables of the small
 * puzzles, the skewb and the Master Pyraminx phase solver; a random-state
 * 3x3x3 needs the two-phase tables (600 MiB), and is left to the response
 * validation and the browser tests, whose daemons build them at start. A
 * scramble is checked by an independent route: the daemon's solve request
 * applies the scramble to the goal and must report the state the scramble reply
 * gave. An event stream is read to its end with curl; its events are checked as
 * Jobs.
 */
#include <curl/curl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "http_testlib.h"
#include "srv_testlib.h"

/* ======================================================================= */
/* scrambles */

/* GETs /v1/scramble?query and returns the reply's tree (owned), asserted
 * 200 and conforming to the schema Scramble. */
static cJSON *
get_scramble(const char *query)
{
    static const char *const known[] = {
        "puzzle", "size",  "event",        "metric", "scramble",
        "length", "state", "random_state", "seed",   NULL,
    };
    static const char *const req[] = {
        "puzzle", "event",        "metric", "scramble", "length",
        "state",  "random_state", "seed",   NULL,
    };
    char path[256];
    http_resp_t r;
    const char *why;
    cJSON *j;

    snprintf(path, sizeof(path), "/v1/scramble?%s", query);
    http_get(g_srv.port, path, &r);
    ck_assert_msg(r.status == 200, "%s: %ld %.*s", query, r.status, (int)r.len,
                  r.body);
    ck_assert_msg(strncmp(r.content_type, "application/json", 16) == 0,
                  "Content-Type '%s'", r.content_type);
    j = cJSON_ParseWithLength(r.body, r.len);
    ck_assert_ptr_nonnull(j);
    why = ht_check_members(j, "scramble", known, req);
    ck_assert_msg(why == NULL, "%s", why);
    ck_assert(ht_is_int(cJSON_GetObjectItemCaseSensitive(j, "length")));
    ck_assert(ht_is_int(cJSON_GetObjectItemCaseSensitive(j, "seed")));
    ck_assert(
        cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(j, "random_state")));
    http_resp_free(&r);
    return j;
}

/* The number of space-separated moves in text. */
static int
count_moves(const char *text)
{
    int n = 0;

    for (const char *t = text; *t != '\0';) {
        t += strspn(t, " ");
        if (*t != '\0') {
            n++;
            t += strcspn(t, " ");
        }
    }
    return n;
}

/* Asserts that the scramble of s makes the state s reports: the solve
 * route applies it to the goal independently. */
static void
assert_scramble_makes_state(const cJSON *s)
{
    cJSON *body = cJSON_CreateObject();
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(s, "size");
    char *text;
    http_resp_t r;
    cJSON *job;

    cJSON_AddStringToObject(body, "puzzle", ht_jstr(s, "puzzle"));
    if (size != NULL) {
        cJSON_AddStringToObject(body, "size", size->valuestring);
    }
    cJSON_AddStringToObject(body, "metric", ht_jstr(s, "metric"));
    cJSON_AddStringToObject(body, "scramble", ht_jstr(s, "scramble"));
    /* Only the state matters: one node of a search that needs no table
     * keeps the solve short whatever tables the daemon has. */
    cJSON_AddStringToObject(body, "engine", "idastar");
    cJSON_AddStringToObject(body, "tables", "fallback");
    cJSON_AddNumberToObject(body, "max_nodes", 1);
    cJSON_AddNumberToObject(body, "wait_ms", 10000);
    text = cJSON_PrintUnformatted(body);
    http_post(g_srv.port, "/v1/solve", text, &r);
    ck_assert_msg(r.status == 200, "solve of the scramble: %ld %.*s", r.status,
                  (int)r.len, r.body);
    job = ht_job_of(&r);
    ck_assert_str_eq(ht_jstr(job, "state"), ht_jstr(s, "state"));
    cJSON_Delete(job);
    http_resp_free(&r);
    free(text);
    cJSON_Delete(body);
}

START_TEST(test_server_play_scramble_random_state)
{
    static const struct {
        const char *query;
        const char *puzzle;
        const char *event;
    } cases[] = {
        { "puzzle=222&seed=11", "2x2x2", "222" },
        { "puzzle=pyram&seed=13", "pyraminx", "pyram" },
        { "puzzle=skewb&seed=14", "skewb", "skewb" },
        { "puzzle=mpyram&seed=15", "master-pyraminx", "mpyram" },
        { "puzzle=15-puzzle&seed=16", "tiles", "15-puzzle" },
        { "puzzle=tiles&size=3x4&seed=17", "tiles", "tiles" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cJSON *s = get_scramble(cases[i].query);

        ck_assert_str_eq(ht_jstr(s, "puzzle"), cases[i].puzzle);
        ck_assert_str_eq(ht_jstr(s, "event"), cases[i].event);
        ck_assert(
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "random_state")));
        ck_assert_int_eq(
            count_moves(ht_jstr(s, "scramble")),
            (int)cJSON_GetObjectItemCaseSensitive(s, "length")->valuedouble);
        assert_scramble_makes_state(s);
        cJSON_Delete(s);
    }
}
END_TEST

START_TEST(test_server_play_scramble_seed_draws_the_same_state)
{
    cJSON *a = get_scramble("puzzle=mpyram&seed=4242");
    cJSON *b = get_scramble("puzzle=mpyram&seed=4242");
    cJSON *c = get_scramble("puzzle=mpyram&seed=4243");

    ck_assert_str_eq(ht_jstr(a, "state"), ht_jstr(b, "state"));
    ck_assert_str_ne(ht_jstr(a, "state"), ht_jstr(c, "state"));
    ck_assert_int_eq(
        (int)cJSON_GetObjectItemCaseSensitive(a, "seed")->valuedouble, 4242);
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_Delete(c);
}
END_TEST

START_TEST(test_server_play_scramble_pyraminx_tips_last)
{
    for (int seed = 1; seed <= 8; seed++) {
        char query[64];
        bool tips = false;
        cJSON *s;
        const char *t;

        snprintf(query, sizeof(query), "puzzle=pyram&seed=%d", seed);
        s = get_scramble(query);
        t = ht_jstr(s, "scramble");
        /* Tips are the lowercase moves: none may come before a vertex
         * turn. */
        for (; *t != '\0'; t++) {
            if (t == ht_jstr(s, "scramble") || t[-1] == ' ') {
                bool tip = *t >= 'a' && *t <= 'z';

                ck_assert_msg(!tips || tip, "a turn after a tip: %s",
                              ht_jstr(s, "scramble"));
                tips = tips || tip;
            }
        }
        assert_scramble_makes_state(s);
        cJSON_Delete(s);
    }
}
END_TEST

START_TEST(test_server_play_scramble_random_moves)
{
    cJSON *s = get_scramble("puzzle=3x3x3&moves=30&seed=9");

    ck_assert(
        cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(s, "random_state")));
    ck_assert_int_eq(count_moves(ht_jstr(s, "scramble")), 30);
    assert_scramble_makes_state(s);
    cJSON_Delete(s);
    s = get_scramble("puzzle=8-puzzle&moves=0");
    ck_assert_str_eq(ht_jstr(s, "scramble"), "");
    ck_assert_str_eq(ht_jstr(s, "state"), "1 2 3 / 4 5 6 / 7 8 0");
    cJSON_Delete(s);
}
END_TEST

START_TEST(test_server_play_scramble_bad_query)
{
    static const struct {
        const char *query;
        const char *code;
        const char *field;
    } cases[] = {
        { "", "missing_field", "/puzzle" },
        { "puzzle=444", "unknown_puzzle", "/puzzle" },
        { "puzzle=333&seed=x", "out_of_range", "/seed" },
        { "puzzle=333&seed=9007199254740993", "out_of_range", "/seed" },
        { "puzzle=333&moves=1001", "out_of_range", "/moves" },
        { "puzzle=333&moves=-1", "out_of_range", "/moves" },
        { "puzzle=tiles&size=9x9", "bad_size", "/size" },
        { "puzzle=333&metric=xtm", "unknown_metric", "/metric" },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char path[128];
        char field[64];
        http_resp_t r;

        snprintf(path, sizeof(path), "/v1/scramble?%s", cases[i].query);
        http_get(g_srv.port, path, &r);
        ASSERT_PROBLEM(&r, 400, cases[i].code);
        ht_problem_member(&r, "field", field, sizeof(field));
        ck_assert_str_eq(field, cases[i].field);
        http_resp_free(&r);
    }
}
END_TEST

/* ======================================================================= */
/* event streams */

typedef struct stream {
    int njob;       /* "job" events */
    int nend;       /* "end" events */
    bool after_end; /* an event came after "end" */
    double first;   /* nodes_expanded of the first and last "job" */
    double last;
    char status[32]; /* the "end" event's job status */
} stream_t;

/* Reads the events of r's body into *st, each data line checked as a
 * Job. */
static void
read_stream(const http_resp_t *r, stream_t *st)
{
    const char *p = r->body;

    memset(st, 0, sizeof(*st));
    while (p != NULL && *p != '\0') {
        const char *end = strstr(p, "\n\n");
        char name[16] = "";
        const char *data;
        cJSON *j;
        const char *why;

        ck_assert_msg(end != NULL, "an unterminated event: %s", p);
        ck_assert_msg(sscanf(p, "event: %15[a-z]\n", name) == 1,
                      "an event without a name: %.60s", p);
        data = strstr(p, "\ndata: ");
        ck_assert_msg(data != NULL && data < end, "an event without data");
        j = cJSON_ParseWithLength(data + 7, (size_t)(end - data - 7));
        ck_assert_msg(j != NULL, "event data is not JSON");
        why = ht_check_job(j);
        ck_assert_msg(why == NULL, "event data is no Job: %s", why);
        st->after_end = st->after_end || st->nend > 0;
        if (strcmp(name, "job") == 0) {
            double n = cJSON_GetObjectItemCaseSensitive(
                           cJSON_GetObjectItemCaseSensitive(j, "stats"),
                           "nodes_expanded")
                           ->valuedouble;

            ck_assert_msg(!ht_job_terminal(j), "a job event of an ended job");
            if (st->njob == 0) {
                st->first = n;
            }
            st->last = n;
            st->njob++;
        } else {
            ck_assert_str_eq(name, "end");
            ck_assert_msg(ht_job_terminal(j), "an end event of a live job");
            snprintf(st->status, sizeof(st->status), "%s",
                     ht_jstr(j, "status"));
            st->nend++;
        }
        cJSON_Delete(j);
        p = end + 2;
    }
}

static void
get_events(const char *id, http_resp_t *r)
{
    char path[128];

    snprintf(path, sizeof(path), "/v1/jobs/%s/events", id);
    ck_assert_int_eq(http_get(g_srv.port, path, r), CURLE_OK);
    ck_assert_int_eq(r->status, 200);
    ck_assert_msg(strncmp(r->content_type, "text/event-stream", 17) == 0,
                  "Content-Type '%s'", r->content_type);
}

START_TEST(test_server_play_events_follow_a_job_to_its_end)
{
    char body[512];
    stream_t st;
    http_resp_t r;
    long status;
    char *id;

    /* A blind search that cannot finish in its 3 s: it runs out its
     * time, and the stream shows it counting meanwhile (the stream may
     * begin a second late on a loaded machine). */
    ht_long_job_body(body, sizeof(body), 3000, 64, 0);
    id = ht_submit(g_srv.port, body, &status, NULL);
    ck_assert_int_eq(status, 202);
    get_events(id, &r);
    read_stream(&r, &st);
    ck_assert_int_eq(st.nend, 1);
    ck_assert(!st.after_end);
    ck_assert_str_eq(st.status, "timeout");
    /* Events come every 200 ms while it runs: two seconds of it show at
     * least two, with the count moving. */
    ck_assert_int_ge(st.njob, 2);
    ck_assert_msg(st.last > st.first, "nodes_expanded stayed at %g", st.first);
    http_resp_free(&r);
    /* The end was delivered: the job is fetched. */
    free(id);
}
END_TEST

START_TEST(test_server_play_events_of_an_ended_job)
{
    stream_t st;
    http_resp_t r;
    long status;
    char *id = ht_submit(g_srv.port,
                         "{\"puzzle\":\"8-puzzle\",\"scramble\":\"D R\","
                         "\"wait_ms\":10000}",
                         &status, NULL);

    ck_assert_int_eq(status, 200);
    get_events(id, &r);
    read_stream(&r, &st);
    ck_assert_int_eq(st.njob, 0);
    ck_assert_int_eq(st.nend, 1);
    ck_assert_str_eq(st.status, "solved");
    http_resp_free(&r);
    /* Streams have a metrics label of their own, apart from the polls. */
    ck_assert_double_ge(ht_metric_now(g_srv.port,
                                      "puzzled_http_requests_total{route=\"/v1/"
                                      "jobs/{id}/events\",method=\"GET\",code="
                                      "\"200\"}"),
                        1);
    free(id);
}
END_TEST

START_TEST(test_server_play_events_of_a_cancelled_job)
{
    char body[512];
    char path[128];
    stream_t st;
    http_resp_t r;
    long status;
    char *id;
    int fd;
    char buf[4096] = "";
    size_t got = 0;

    ht_long_job_body(body, sizeof(body), 60000, 64, 0);
    id = ht_submit(g_srv.port, body, &status, NULL);
    ck_assert_int_eq(status, 202);
    /* A raw client reads the first event, then the job is cancelled: the
     * stream ends with "end" at once, not at the job's time limit. */
    fd = ht_conn_open(g_srv.port);
    snprintf(path, sizeof(path),
             "GET /v1/jobs/%s/events HTTP/1.1\r\nHost: t\r\n\r\n", id);
    ht_conn_send(fd, path);
    while (strstr(buf, "event: job") == NULL && got < sizeof(buf) - 1) {
        ssize_t n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);

        ck_assert_int_gt(n, 0);
        got += (size_t)n;
        buf[got] = '\0';
    }
    ht_cancel_job(g_srv.port, id);
    while (strstr(buf, "event: end") == NULL && got < sizeof(buf) - 1) {
        ssize_t n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);

        ck_assert_int_gt(n, 0);
        got += (size_t)n;
        buf[got] = '\0';
    }
    ck_assert_ptr_nonnull(strstr(buf, "\"status\":\"cancelled\""));
    close(fd);
    get_events(id, &r);
    read_stream(&r, &st);
    ck_assert_int_eq(st.nend, 1);
    ck_assert_str_eq(st.status, "cancelled");
    http_resp_free(&r);
    free(id);
}
END_TEST

START_TEST(test_server_play_events_client_gone)
{
    char body[512];
    char req[160];
    long status;
    char *id;
    int fd;
    char buf[2048];
    ssize_t n;

    ht_long_job_body(body, sizeof(body), 60000, 64, 0);
    id = ht_submit(g_srv.port, body, &status, NULL);
    ck_assert_int_eq(status, 202);
    fd = ht_conn_open(g_srv.port);
    snprintf(req, sizeof(req),
             "GET /v1/jobs/%s/events HTTP/1.1\r\nHost: t\r\n\r\n", id);
    ht_conn_send(fd, req);
    n = recv(fd, buf, sizeof(buf) - 1, 0);
    ck_assert_int_gt(n, 0);
    close(fd);
    /* The daemon notices at its next event and lets the connection go:
     * only the metrics request itself stays busy. */
    for (int64_t until = now_ms() + 20000;; sleep_ms(50)) {
        double busy = ht_metric_now(g_srv.port,
                                    "puzzled_http_connections{state=\"busy\"}");

        if (busy <= 1) {
            break;
        }
        ck_assert_msg(now_ms() < until, "the stream's connection stayed");
    }
    ht_cancel_job(g_srv.port, id);
    free(id);
}
END_TEST

START_TEST(test_server_play_events_end_at_shutdown)
{
    static const char *const flags[] = { "--grace-ms", "500", NULL };
    char body[512];
    char req[160];
    char buf[8192] = "";
    size_t got = 0;
    ssize_t n;
    long status;
    srv_t s;
    char *id;
    int fd;

    /* A private daemon: a stream open on a job that would run a minute
     * must not hold the shutdown; it ends, and the daemon exits 0. */
    ck_assert(srv_start(&s, flags) == 0);
    ht_long_job_body(body, sizeof(body), 60000, 16, 0);
    id = ht_submit(s.port, body, &status, NULL);
    ck_assert_int_eq(status, 202);
    fd = ht_conn_open(s.port);
    snprintf(req, sizeof(req),
             "GET /v1/jobs/%s/events HTTP/1.1\r\nHost: t\r\n\r\n", id);
    ht_conn_send(fd, req);
    while (strstr(buf, "event: job") == NULL && got < sizeof(buf) - 1) {
        n = recv(fd, buf + got, sizeof(buf) - 1 - got, 0);
        ck_assert_int_gt(n, 0);
        got += (size_t)n;
        buf[got] = '\0';
    }
    kill(s.pid, SIGTERM);
    /* The stream goes on to its end: the connection closes (a read of 0)
     * well before the client's 10 s receive timeout. */
    do {
        n = recv(fd, buf + got,
                 got < sizeof(buf) - 1 ? sizeof(buf) - 1 - got : 0, 0);
        if (n > 0) {
            got += (size_t)n;
            buf[got] = '\0';
        }
    } while (n > 0 && got < sizeof(buf) - 1);
    ck_assert_int_eq(n, 0);
    close(fd);
    ck_assert_int_eq(srv_signal_wait(&s, 0, STOP_TIMEOUT_MS), 0);
    free(id);
    srv_cleanup(&s);
}
END_TEST

START_TEST(test_server_play_events_unknown_job)
{
    http_resp_t r;

    http_get(g_srv.port, "/v1/jobs/0123456789abcdef0123456789abcdef/events",
             &r);
    ASSERT_PROBLEM(&r, 404, "job_not_found");
    http_resp_free(&r);
    http_get(g_srv.port, "/v1/jobs//events", &r);
    ck_assert_int_eq(r.status, 404);
    http_resp_free(&r);
    http_delete(g_srv.port, "/v1/jobs/0123/events", &r);
    ck_assert_int_eq(r.status, 405);
    http_resp_free(&r);
}
END_TEST

static Suite *
server_play_suite(void)
{
    Suite *s = suite_create("server_play");
    TCase *tc = ht_shared_tcase("play", 60);

    tcase_add_test(tc, test_server_play_scramble_random_state);
    tcase_add_test(tc, test_server_play_scramble_seed_draws_the_same_state);
    tcase_add_test(tc, test_server_play_scramble_pyraminx_tips_last);
    tcase_add_test(tc, test_server_play_scramble_random_moves);
    tcase_add_test(tc, test_server_play_scramble_bad_query);
    tcase_add_test(tc, test_server_play_events_follow_a_job_to_its_end);
    tcase_add_test(tc, test_server_play_events_of_an_ended_job);
    tcase_add_test(tc, test_server_play_events_of_a_cancelled_job);
    tcase_add_test(tc, test_server_play_events_client_gone);
    tcase_add_test(tc, test_server_play_events_unknown_job);
    tcase_add_test(tc, test_server_play_events_end_at_shutdown);
    tcase_add_test(tc, ht_serve_sigterm_exits_zero());
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr;
    char cmd[1024];
    int failed;

    signal(SIGPIPE, SIG_IGN);
    if (!srv_prepare_tables("server-solve")) {
        return EXIT_FAILURE;
    }
    /* Random-state scrambles of the skewb and the Master Pyraminx are
     * solved with their tables (the 3x3x3's are left out: see above). */
    snprintf(
        cmd, sizeof(cmd),
        "'%s' tables build skewb master-pyraminx-pdb-axials-centres-midges "
        "--dir '%s' >/dev/null",
        PZ_BINARY, g_tables);
    if (system(cmd) != 0) {
        fprintf(stderr, "could not build the tables: %s\n", cmd);
        return EXIT_FAILURE;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    sr = srunner_create(server_play_suite());
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
