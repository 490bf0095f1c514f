/* SPDX-License-Identifier: MIT */
/* http_testlib.h - the shared support of the HTTP tests (test_server_*.c
 * that talk to a real daemon): a libcurl client, a validator of responses
 * against openapi.yaml, replays of answers with the solver library, request
 * bodies, raw connections, waits on the daemon, and the shared daemon of a
 * TCase. Built once (http_testlib.c) as a static library. */
#ifndef PZ_TESTS_HTTP_TESTLIB_H
#define PZ_TESTS_HTTP_TESTLIB_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "srv_testlib.h"

/* Generous bounds: the machine is shared and sanitizer builds are slow. */
#define HTTP_TIMEOUT_MS 20000

/* --- HTTP through libcurl --- */

typedef struct http_req {
    const char *method;       /* GET, POST, DELETE, ... */
    const char *path;         /* "/v1/solve" */
    const char *body;         /* NULL: no body */
    size_t body_len;          /* 0: strlen(body) */
    const char *content_type; /* NULL: application/json when a body */
    const char *request_id;   /* X-Request-Id to send, or NULL */
    bool chunked;             /* send the body chunked (no length) */
    long timeout_ms;          /* 0: HTTP_TIMEOUT_MS */
} http_req_t;

typedef struct http_resp {
    CURLcode rc; /* transfer result */
    long status; /* HTTP status, 0 when none */
    char *body;  /* owned, NUL-terminated */
    size_t len;
    char content_type[128];
    char location[256];
    char retry_after[32];
    char request_id[128];
    char allow[128];
    int64_t elapsed_ms;
} http_resp_t;

/* curl write callback: appends the bytes to the http_resp_t user's body. */
size_t ht_on_body(char *data, size_t size, size_t n, void *user);

/* curl header callback: keeps the headers http_resp_t names in user. */
size_t ht_on_header(char *data, size_t size, size_t n, void *user);

/* Frees r's body and zeroes r. */
void http_resp_free(http_resp_t *r);

/* Performs rq on 127.0.0.1:port (h reused, or NULL) into r; curl result. */
CURLcode http_send(CURL *h, int port, const http_req_t *rq, http_resp_t *r);

/* One-off GET of path into r; the curl result. */
CURLcode http_get(int port, const char *path, http_resp_t *r);

/* One-off POST of the JSON text json to path into r; the curl result. */
CURLcode
http_post(int port, const char *path, const char *json, http_resp_t *r);

/* One-off DELETE of path into r; the curl result. */
CURLcode http_delete(int port, const char *path, http_resp_t *r);

/* --- response validation against openapi.yaml --- */

/* True when v is a JSON number with an integer value. */
bool ht_is_int(const cJSON *v);

/* NULL when object o has members in known only, all of required; else why. */
const char *ht_check_members(const cJSON *o,
                             const char *what,
                             const char *const *known,
                             const char *const *required);

/* NULL when t conforms to the schema Table; else why not. */
const char *ht_check_table(const cJSON *t);

/* NULL when j conforms to the schema Job; else why not. */
const char *ht_check_job(const cJSON *j);

/* NULL when r is the problem reply of status and code (NULL: any); else why. */
const char *
ht_check_problem(const http_resp_t *r, long status, const char *code);

/* Copies the member name of r's problem body into out ("" when absent). */
void ht_problem_member(const http_resp_t *r,
                       const char *name,
                       char *out,
                       size_t cap);

/* Asserts that r is the problem reply of status st and code. */
#define ASSERT_PROBLEM(r, st, code)                             \
    do {                                                        \
        const char *why_ = ht_check_problem((r), (st), (code)); \
        ck_assert_msg(why_ == NULL, "%s", why_);                \
    } while (0)

/* Asserts that r is a conforming JSON Job; returns its tree (owned). */
cJSON *ht_job_of(const http_resp_t *r);

/* The string member name of o, or "" when it is not a string. */
const char *ht_jstr(const cJSON *o, const char *name);

/* True when job j has ended (not queued, preparing or running). */
bool ht_job_terminal(const cJSON *j);

/* --- replaying answers with the solver library --- */

/* NULL when job's solution solves the input parsed here (*len_out: length). */
const char *ht_replay_check(const char *puzzle,
                            const char *metric,
                            const char *scramble,
                            const char *state_json,
                            const cJSON *job,
                            int *len_out);

/* --- request bodies used by several tests --- */

/* The 2x2x2 after R U' R' F' then U, optimal 5 quarter turns; the same
 * cube as 24 colour numbers in the integer layout (blocks U R D L B F). */
#define CUBE2_SCRAMBLE    "R U' R' F' U"
#define CUBE2_ARRAY       "[2,5,5,0,1,1,4,2,2,2,3,4,3,5,0,0,4,4,1,0,3,1,3,5]"
#define CUBE2_OPTIMAL_QTM 5

/* The two 8-puzzle positions at distance 31 from 1..8 then blank (the
 * published depth-31 count is 2; confirmed by a breadth-first search). */
#define EIGHT_HARD_A       "[8,6,7,2,5,4,3,0,1]"
#define EIGHT_HARD_B       "[6,4,7,8,5,0,3,2,1]"
#define EIGHT_HARD_OPTIMAL 31

/* Writes into buf a job that runs until its time_ms or a cancel. */
void ht_long_job_body(char *buf,
                      size_t len,
                      int time_ms,
                      int memory_mb,
                      int wait_ms);

/* POSTs body; the job id (owned) or NULL, its status, the reply into keep. */
char *ht_submit(int port, const char *body, long *status, http_resp_t *keep);

/* Asserts GET /v1/jobs/{id}?wait_ms= answers a job; returns it (owned). */
cJSON *ht_get_job(int port, const char *id, int wait_ms, http_resp_t *keep);

/* DELETE /v1/jobs/{id}, reply dropped. */
void ht_cancel_job(int port, const char *id);

/* --- the daemon's metrics, readiness and raw connections --- */

/* The sample of the busy connections in /metrics. */
#define BUSY_CONNS "puzzled_http_connections{state=\"busy\"}"

/* The sample name (with its labels) of a Prometheus text, or -1. */
double ht_metric_value(const char *text, const char *name);

/* Asserts GET /metrics answers; returns its sample name, or -1. */
double ht_metric_now(int port, const char *name);

/* Waits (at most 20 s, else fails) until the sample name is >= want. */
void ht_await_metric(int port, const char *name, double want);

/* Waits (at most 60 s, else fails) until GET /readyz answers 200. */
void ht_await_ready(int port);

/* Waits until connecting to port is refused; false after timeout_ms. */
bool ht_await_refused(int port, int timeout_ms);

/* Asserts a new loopback connection to port; reads time out after 10 s. */
int ht_conn_open(int port);

/* Asserts that all of text is sent on fd. */
void ht_conn_send(int fd, const char *text);

/* Reads one reply from fd into r; false when the connection ends first. */
bool ht_conn_reply(int fd, http_resp_t *r);

/* Waits up to timeout_ms for the server to close fd; false when open. */
bool ht_conn_closed_by_server(int fd, int timeout_ms);

/* Asserts openapi.yaml of the source tree is read; returns it (owned). */
char *ht_load_spec(void);

/* --- the shared daemon of a TCase --- */

/* The daemon of the TCases of ht_shared_tcase (and of fixtures like it). */
extern srv_t g_srv;

/* Fixture: starts g_srv with the default flags. */
void ht_setup_default(void);

/* Fixture: stops what is left of g_srv. */
void ht_teardown_default(void);

/* A TCase on g_srv (the two fixtures above), timeout seconds per test. */
TCase *ht_shared_tcase(const char *name, int timeout);

/* The last test of a TCase on g_srv: still answering, it exits 0 on TERM. */
const TTest *ht_serve_sigterm_exits_zero(void);

#endif
