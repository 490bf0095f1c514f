/* SPDX-License-Identifier: MIT */
/* test_server_conns.c - `puzzled serve` and its connections: many clients
 * at once over libcurl, and the connection policy (http_conns.h) over raw
 * sockets: probes at the limit, slow clients, a storm. */

/*
 * Design: the concurrency TCase runs one real daemon on a loopback port
 * (http_testlib.h: its last test sends SIGTERM and asserts that the daemon
 * exited with status 0), and every answer its clients get is checked and
 * replayed. The conns tests start and stop a private daemon with their own
 * connection flags, hold connections open over raw sockets, and watch the
 * daemon through its /metrics samples.
 */
#include <curl/curl.h>
#include <pthread.h>
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
/* conns: the connection policy */

/* Samples of /metrics: connections reading a body, connections closed. */
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
    /* A body can be evicted once a second old, and times out at 4 s: a
     * wide window for the new client on a loaded machine. */
    static const char *const flags[] = { "--connection-limit", "4",
                                         "--client-timeout-s", "4", NULL };
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

/* ======================================================================= */

static Suite *
server_conns_suite(void)
{
    Suite *s = suite_create("server_conns");
    TCase *tc;

    tc = ht_shared_tcase("concurrency", 60);
    tcase_add_test(tc,
                   test_server_http_concurrency_parallel_clients_all_correct);
    tcase_add_test(tc, ht_serve_sigterm_exits_zero());
    suite_add_tcase(s, tc);

    tc = tcase_create("conns");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_server_http_conns_probes_answered_at_limit);
    tcase_add_test(tc, test_server_http_conns_slow_clients_closed);
    tcase_add_test(tc, test_server_http_conns_storm_every_connection_answered);
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
    if (!srv_prepare_tables("server-conns")) {
        return EXIT_FAILURE;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    sr = srunner_create(server_conns_suite());
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
