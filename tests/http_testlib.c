/* SPDX-License-Identifier: MIT */
/* http_testlib.c - the shared support of the HTTP tests (http_testlib.h). */

/*
 * Responses are checked against openapi.yaml by a hand-written validator of
 * the Job, Table and Problem schemas (members, types, invariants), and
 * every solution is replayed with the solver library on the input parsed
 * independently here.
 *
 * Size: the support every HTTP test program shares, in one place; the
 * validator alone is over 600 lines.
 */
#include "http_testlib.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "api_json.h"
#include "puzzle.h"
#include "pz_error.h"
#include "redis_testlib.h"
#include "request.h"
#include "search.h"
#include "srv_testlib.h"

/* The table directory of srv_testlib.h: one for the whole program. */
char g_tables[512];
char g_redis_url[96];

static redis_srv_t suite_redis;
static pid_t suite_redis_owner;

static void
stop_suite_redis(void)
{
    /* Check's forked test processes exit through here too. */
    if (getpid() == suite_redis_owner) {
        redis_srv_cleanup(&suite_redis);
    }
}

bool
srv_start_suite_redis(void)
{
    if (!redis_srv_start(&suite_redis, false)) {
        return false;
    }
    suite_redis_owner = getpid();
    atexit(stop_suite_redis);
    snprintf(g_redis_url, sizeof(g_redis_url), "%s", suite_redis.url);
    return true;
}

/* --- HTTP through libcurl --- */

size_t
ht_on_body(char *data, size_t size, size_t n, void *user)
{
    http_resp_t *r = user;
    size_t add = size * n;
    char *nb = realloc(r->body, r->len + add + 1);

    if (nb == NULL) {
        return 0;
    }
    r->body = nb;
    memcpy(r->body + r->len, data, add);
    r->len += add;
    r->body[r->len] = '\0';
    return add;
}

static void
copy_header(char *dst, size_t cap, const char *v, size_t n)
{
    while (n > 0 && (v[n - 1] == '\r' || v[n - 1] == '\n' || v[n - 1] == ' ')) {
        n--;
    }
    while (n > 0 && *v == ' ') {
        v++;
        n--;
    }
    if (n >= cap) {
        n = cap - 1;
    }
    memcpy(dst, v, n);
    dst[n] = '\0';
}

size_t
ht_on_header(char *data, size_t size, size_t n, void *user)
{
    http_resp_t *r = user;
    size_t len = size * n;
    static const struct {
        const char *name;
        size_t off;
        size_t cap;
    } wanted[] = {
        { "content-type:", offsetof(http_resp_t, content_type), 128 },
        { "location:", offsetof(http_resp_t, location), 256 },
        { "retry-after:", offsetof(http_resp_t, retry_after), 32 },
        { "x-request-id:", offsetof(http_resp_t, request_id), 128 },
        { "allow:", offsetof(http_resp_t, allow), 128 },
    };

    /* A new status line (after 100 Continue) starts a new header set. */
    if (len >= 5 && strncmp(data, "HTTP/", 5) == 0) {
        for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
            ((char *)r + wanted[i].off)[0] = '\0';
        }
        return len;
    }
    for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
        size_t nl = strlen(wanted[i].name);

        if (len > nl && strncasecmp(data, wanted[i].name, nl) == 0) {
            copy_header((char *)r + wanted[i].off, wanted[i].cap, data + nl,
                        len - nl);
        }
    }
    return len;
}

typedef struct chunk_src {
    const char *p;
    size_t left;
} chunk_src_t;

static size_t
on_read(char *buf, size_t size, size_t n, void *user)
{
    chunk_src_t *src = user;
    size_t take = size * n < src->left ? size * n : src->left;

    /* Hand out at most 16 bytes per call so the body really is chunked. */
    if (take > 16) {
        take = 16;
    }
    memcpy(buf, src->p, take);
    src->p += take;
    src->left -= take;
    return take;
}

void
http_resp_free(http_resp_t *r)
{
    free(r->body);
    memset(r, 0, sizeof(*r));
}

/*
 * Performs rq on 127.0.0.1:port. h is a handle to reuse (keep-alive), or
 * NULL for a one-off one. Fills r (free with http_resp_free). Returns the
 * curl result.
 */
CURLcode
http_send(CURL *h, int port, const http_req_t *rq, http_resp_t *r)
{
    CURL *own = NULL;
    struct curl_slist *hdrs = NULL;
    char url[512];
    char line[256];
    chunk_src_t src = { NULL, 0 };
    int64_t t0 = now_ms();
    size_t blen = 0;

    memset(r, 0, sizeof(*r));
    if (h == NULL) {
        h = own = curl_easy_init();
    } else {
        curl_easy_reset(h);
    }
    if (h == NULL) {
        r->rc = CURLE_FAILED_INIT;
        return r->rc;
    }
    snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", port, rq->path);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS,
                     rq->timeout_ms > 0 ? rq->timeout_ms : HTTP_TIMEOUT_MS);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, ht_on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, ht_on_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, r);
    hdrs = curl_slist_append(hdrs, "Expect:");
    if (rq->request_id != NULL) {
        snprintf(line, sizeof(line), "X-Request-Id: %s", rq->request_id);
        hdrs = curl_slist_append(hdrs, line);
    }
    if (rq->body != NULL) {
        blen = rq->body_len != 0 ? rq->body_len : strlen(rq->body);
        snprintf(line, sizeof(line), "Content-Type: %s",
                 rq->content_type != NULL ? rq->content_type
                                          : "application/json");
        hdrs = curl_slist_append(hdrs, line);
        if (rq->chunked) {
            src.p = rq->body;
            src.left = blen;
            hdrs = curl_slist_append(hdrs, "Transfer-Encoding: chunked");
            curl_easy_setopt(h, CURLOPT_POST, 1L);
            curl_easy_setopt(h, CURLOPT_READFUNCTION, on_read);
            curl_easy_setopt(h, CURLOPT_READDATA, &src);
        } else {
            curl_easy_setopt(h, CURLOPT_POSTFIELDS, rq->body);
            curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)blen);
        }
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, rq->method);
    } else if (strcmp(rq->method, "GET") == 0) {
        curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    } else {
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, rq->method);
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
    r->rc = curl_easy_perform(h);
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->status);
    r->elapsed_ms = now_ms() - t0;
    /* The header list must outlive the transfer, not the handle. */
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
    curl_slist_free_all(hdrs);
    if (own != NULL) {
        curl_easy_cleanup(own);
    }
    if (r->body == NULL) {
        r->body = calloc(1, 1);
    }
    return r->rc;
}

/* Shorthands: one-off GET / POST JSON / DELETE. */
CURLcode
http_get(int port, const char *path, http_resp_t *r)
{
    http_req_t rq = { .method = "GET", .path = path };

    return http_send(NULL, port, &rq, r);
}

CURLcode
http_post(int port, const char *path, const char *json, http_resp_t *r)
{
    http_req_t rq = { .method = "POST", .path = path, .body = json };

    return http_send(NULL, port, &rq, r);
}

CURLcode
http_delete(int port, const char *path, http_resp_t *r)
{
    http_req_t rq = { .method = "DELETE", .path = path };

    return http_send(NULL, port, &rq, r);
}

/* --- response validation against openapi.yaml --- */

/* Thread-local so the concurrency test's threads can validate too. */
static _Thread_local char vmsg[512];

static const char *vfail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Formats a validation failure into vmsg and returns it. */
static const char *
vfail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(vmsg, sizeof(vmsg), fmt, ap);
    va_end(ap);
    return vmsg;
}

bool
ht_is_int(const cJSON *v)
{
    return cJSON_IsNumber(v) &&
           v->valuedouble == (double)(int64_t)v->valuedouble;
}

static bool
in_list(const char *s, const char *const *list)
{
    for (int i = 0; list[i] != NULL; i++) {
        if (strcmp(s, list[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* Every member of o is in known, every one of required is present. */
const char *
ht_check_members(const cJSON *o,
                 const char *what,
                 const char *const *known,
                 const char *const *required)
{
    if (!cJSON_IsObject(o)) {
        return vfail("%s is not an object", what);
    }
    for (const cJSON *c = o->child; c != NULL; c = c->next) {
        if (c->string == NULL || !in_list(c->string, known)) {
            return vfail("%s has a member the schema does not know: %s", what,
                         c->string);
        }
    }
    for (int i = 0; required[i] != NULL; i++) {
        if (cJSON_GetObjectItemCaseSensitive(o, required[i]) == NULL) {
            return vfail("%s lacks the required member %s", what, required[i]);
        }
    }
    return NULL;
}

static bool
valid_status(const char *s)
{
    for (int i = 0; i < PZ_STATUS_COUNT_; i++) {
        if (strcmp(s, pz_status_name(i)) == 0) {
            return true;
        }
    }
    return false;
}

/* The status named s, or -1. */
static int
status_of(const char *s)
{
    for (int i = 0; i < PZ_STATUS_COUNT_; i++) {
        if (strcmp(s, pz_status_name(i)) == 0) {
            return i;
        }
    }
    return -1;
}

/* The error-code table's index of code, or 0 (PZ_OK) when unknown. */
static int
code_rc(const char *code)
{
    for (int rc = PZ_ERR_FIRST_ + 1; rc < PZ_ERR_LAST_; rc++) {
        if (strcmp(pz_strerror(rc), code) == 0) {
            return rc;
        }
    }
    return PZ_OK;
}

static bool
valid_timestamp(const cJSON *v)
{
    int y, mo, d, h, mi, s, ms;
    char z = 0;

    if (cJSON_IsNull(v)) {
        return true;
    }
    return cJSON_IsString(v) && strlen(v->valuestring) == 24 &&
           sscanf(v->valuestring, "%4d-%2d-%2dT%2d:%2d:%2d.%3d%c", &y, &mo, &d,
                  &h, &mi, &s, &ms, &z) == 8 &&
           z == 'Z' && mo >= 1 && mo <= 12 && d >= 1 && d <= 31;
}

static const char *
check_stats(const cJSON *o)
{
    static const char *const u64s[] = {
        "nodes_expanded",    "nodes_generated",  "duplicates",
        "open_size",         "frontier_forward", "frontier_backward",
        "peak_memory_bytes", "nodes_per_second", NULL,
    };
    static const char *const small[] = { "depth_bound", "iterations",
                                         "heuristic_at_start", "best_length",
                                         NULL };
    static const char *const all[] = {
        "nodes_expanded",     "nodes_generated",
        "duplicates",         "open_size",
        "frontier_forward",   "frontier_backward",
        "peak_memory_bytes",  "nodes_per_second",
        "depth_bound",        "iterations",
        "heuristic_at_start", "best_length",
        "elapsed_ms",         NULL,
    };
    static const char *const known[] = {
        "nodes_expanded",     "nodes_generated",
        "duplicates",         "open_size",
        "frontier_forward",   "frontier_backward",
        "peak_memory_bytes",  "nodes_per_second",
        "depth_bound",        "iterations",
        "heuristic_at_start", "best_length",
        "elapsed_ms",         "lower_bound",
        "suboptimality",      NULL,
    };
    const char *why = ht_check_members(o, "stats", known, all);
    const cJSON *e;

    if (why != NULL) {
        return why;
    }
    for (int i = 0; u64s[i] != NULL; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, u64s[i]);

        if (!ht_is_int(v) || v->valuedouble < 0) {
            return vfail("stats.%s is not a non-negative integer", u64s[i]);
        }
    }
    for (int i = 0; small[i] != NULL; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, small[i]);

        if (!ht_is_int(v) || v->valuedouble < -1) {
            return vfail("stats.%s is not an integer >= -1", small[i]);
        }
    }
    e = cJSON_GetObjectItemCaseSensitive(o, "elapsed_ms");
    if (!cJSON_IsNumber(e) || e->valuedouble < 0) {
        return vfail("stats.elapsed_ms is not a number >= 0");
    }
    e = cJSON_GetObjectItemCaseSensitive(o, "lower_bound");
    if (e != NULL && (!ht_is_int(e) || e->valuedouble < -1)) {
        return vfail("stats.lower_bound is not an integer >= -1");
    }
    e = cJSON_GetObjectItemCaseSensitive(o, "suboptimality");
    if (e != NULL && (!cJSON_IsNumber(e) || e->valuedouble < 1)) {
        return vfail("stats.suboptimality is not a number >= 1");
    }
    return NULL;
}

static const char *
check_solution(const cJSON *o, const char *metric)
{
    static const char *const known[] = { "moves",  "tiles",   "text", "length",
                                         "metric", "optimal", NULL };
    static const char *const req[] = { "moves",  "text",    "length",
                                       "metric", "optimal", NULL };
    const char *why = ht_check_members(o, "solution", known, req);
    const cJSON *moves = cJSON_GetObjectItemCaseSensitive(o, "moves");
    const cJSON *tiles = cJSON_GetObjectItemCaseSensitive(o, "tiles");
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(o, "text");
    const cJSON *length = cJSON_GetObjectItemCaseSensitive(o, "length");
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "metric");
    char joined[PZ_SOLUTION_MAX * 8];
    size_t used = 0;

    if (why != NULL) {
        return why;
    }
    if (!cJSON_IsArray(moves) || !cJSON_IsString(text) || !ht_is_int(length) ||
        !cJSON_IsString(m) ||
        !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(o, "optimal"))) {
        return vfail("solution members have the wrong types");
    }
    if ((int)length->valuedouble != cJSON_GetArraySize(moves)) {
        return vfail("solution.length differs from the number of moves");
    }
    if (tiles != NULL &&
        (!cJSON_IsArray(tiles) ||
         cJSON_GetArraySize(tiles) != cJSON_GetArraySize(moves))) {
        return vfail("solution.tiles does not match the moves");
    }
    if (metric != NULL && strcmp(m->valuestring, metric) != 0) {
        return vfail("solution.metric %s differs from the job's %s",
                     m->valuestring, metric);
    }
    joined[0] = '\0';
    for (const cJSON *c = moves->child; c != NULL; c = c->next) {
        if (!cJSON_IsString(c)) {
            return vfail("a move is not a string");
        }
        used += (size_t)snprintf(joined + used, sizeof(joined) - used, "%s%s",
                                 used > 0 ? " " : "", c->valuestring);
        if (used >= sizeof(joined)) {
            return vfail("the moves are too long");
        }
    }
    if (strcmp(joined, text->valuestring) != 0) {
        return vfail("solution.text '%s' is not the moves joined: '%s'",
                     text->valuestring, joined);
    }
    return NULL;
}

static const char *
check_run_error(const cJSON *o)
{
    static const char *const m[] = { "code", "detail", NULL };
    const char *why = ht_check_members(o, "error", m, m);
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(o, "code");

    if (why != NULL) {
        return why;
    }
    if (!cJSON_IsString(code) || code_rc(code->valuestring) == PZ_OK) {
        return vfail("error.code is not a known code");
    }
    return NULL;
}

/* Members shared by a Job and a Run: engine, heuristic, weight, solution,
 * optimal, error, stats. status is the run's (or job's) status. */
static const char *
check_run_part(const cJSON *o, const char *status, const char *metric)
{
    const cJSON *sol = cJSON_GetObjectItemCaseSensitive(o, "solution");
    const cJSON *opt = cJSON_GetObjectItemCaseSensitive(o, "optimal");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "weight");
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(o, "error");
    const cJSON *best = cJSON_GetObjectItemCaseSensitive(o, "best_so_far");
    const char *why = NULL;

    if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "engine")) ||
        !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "heuristic"))) {
        return vfail("engine and heuristic must be strings");
    }
    if (w != NULL && (!cJSON_IsNumber(w) || w->valuedouble < 1)) {
        return vfail("weight must be a number >= 1");
    }
    if (opt != NULL && !cJSON_IsBool(opt)) {
        return vfail("optimal must be a boolean");
    }
    if (strcmp(status, "solved") == 0) {
        if (cJSON_IsNull(sol) || opt == NULL) {
            return vfail("status solved without a solution and optimal");
        }
        if ((why = check_solution(sol, metric)) != NULL) {
            return why;
        }
        if (cJSON_IsTrue(opt) !=
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sol, "optimal"))) {
            return vfail("optimal differs from solution.optimal");
        }
    } else if (!cJSON_IsNull(sol) || opt != NULL) {
        return vfail("status %s with a solution or optimal member", status);
    }
    if (err != NULL && (why = check_run_error(err)) != NULL) {
        return why;
    }
    if (best != NULL) {
        static const char *const bm[] = { "moves", "text", "length", NULL };
        const cJSON *moves = cJSON_GetObjectItemCaseSensitive(best, "moves");
        const cJSON *len = cJSON_GetObjectItemCaseSensitive(best, "length");

        if (status_of(status) < 0 || pz_status_terminal(status_of(status)) ||
            (why = ht_check_members(best, "best_so_far", bm, bm)) != NULL ||
            !cJSON_IsArray(moves) || !ht_is_int(len) ||
            cJSON_GetArraySize(moves) != (int)len->valuedouble ||
            !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(best, "text"))) {
            return why != NULL ? why
                               : vfail("best_so_far is not BestSoFar of a "
                                       "run in progress");
        }
    }
    return check_stats(cJSON_GetObjectItemCaseSensitive(o, "stats"));
}

static const char *
check_limits(const cJSON *o)
{
    static const char *const m[] = { "time_ms",   "memory_mb",     "max_nodes",
                                     "max_depth", "target_length", NULL };
    const char *why = ht_check_members(o, "limits", m, m);

    if (why != NULL) {
        return why;
    }
    for (int i = 0; m[i] != NULL; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, m[i]);

        if (!ht_is_int(v) || v->valuedouble < 0) {
            return vfail("limits.%s is not a non-negative integer", m[i]);
        }
    }
    return NULL;
}

/* Validates t as the schema Table of openapi.yaml; NULL when it
 * conforms. */
const char *
ht_check_table(const cJSON *t)
{
    static const char *const known[] = { "name",  "group",    "puzzle",
                                         "state", "bytes",    "startup",
                                         "file",  "progress", "seconds",
                                         "error", NULL };
    static const char *const req[] = { "name",  "group",   "puzzle", "state",
                                       "bytes", "startup", "file",   NULL };
    static const char *const states[] = { "missing", "stored",   "queued",
                                          "loading", "building", "ready",
                                          "failed",  NULL };
    const cJSON *state = cJSON_GetObjectItemCaseSensitive(t, "state");
    const cJSON *pr = cJSON_GetObjectItemCaseSensitive(t, "progress");
    const char *why = ht_check_members(t, "table", known, req);

    if (why != NULL) {
        return why;
    }
    if (!cJSON_IsString(state) || !in_list(state->valuestring, states)) {
        return vfail("table.state is not a table state");
    }
    if (!ht_is_int(cJSON_GetObjectItemCaseSensitive(t, "bytes")) ||
        !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(t, "startup")) ||
        !cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(t, "file"))) {
        return vfail("table.bytes, startup or file has the wrong type");
    }
    if (pr != NULL) {
        static const char *const pk[] = { "done",     "total",
                                          "fraction", "per_second",
                                          "seconds",  "eta_seconds",
                                          NULL };

        if ((why = ht_check_members(pr, "table.progress", pk, pk)) != NULL) {
            return why;
        }
        if (!ht_is_int(cJSON_GetObjectItemCaseSensitive(pr, "done")) ||
            !ht_is_int(cJSON_GetObjectItemCaseSensitive(pr, "total"))) {
            return vfail("table.progress counts are not integers");
        }
    }
    return NULL;
}

/* Validates j as the schema BatchJob of openapi.yaml: its members, and
 * each item as a Job; NULL when it conforms. */
static const char *
ht_check_batch(const cJSON *j)
{
    static const char *const known[] = {
        "id",           "kind",
        "status",       "created_at",
        "started_at",   "finished_at",
        "puzzle",       "size",
        "metric",       "requested_engine",
        "items_total",  "items_done",
        "items_solved", "tables",
        "items",        NULL,
    };
    static const char *const req[] = {
        "id",          "kind",       "status",
        "created_at",  "started_at", "finished_at",
        "puzzle",      "metric",     "requested_engine",
        "items_total", "items_done", "items_solved",
        "items",       NULL,
    };
    const char *why = ht_check_members(j, "batch job", known, req);
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(j, "items");

    if (why != NULL) {
        return why;
    }
    if (!cJSON_IsArray(items) ||
        cJSON_GetArraySize(items) !=
            cJSON_GetObjectItemCaseSensitive(j, "items_done")->valueint) {
        return "batch job: 'items' does not hold items_done results";
    }
    for (const cJSON *it = items->child; it != NULL; it = it->next) {
        const char *st = ht_jstr(it, "status");

        /* An item is a job, or the placeholder of one that never ran. */
        if (cJSON_GetObjectItemCaseSensitive(it, "puzzle") != NULL) {
            /* An item is a Job without an id of its own. */
            cJSON *one = cJSON_Duplicate(it, true);

            cJSON_AddStringToObject(one, "id", "item");
            why = ht_check_job(one);
            cJSON_Delete(one);
            if (why != NULL) {
                return why;
            }
        } else if (strcmp(st, "cancelled") != 0 && strcmp(st, "failed") != 0) {
            return "batch job: an item is neither a job nor cancelled";
        }
    }
    return NULL;
}

/* o's "threads": absent before the job started, else a count >= 1. */
static const char *
check_threads(const cJSON *o, const cJSON *started)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "threads");

    if (t == NULL) {
        return NULL;
    }
    if (!cJSON_IsNumber(t) || t->valuedouble < 1 ||
        t->valuedouble != (double)(int)t->valuedouble) {
        return vfail("threads is not an integer >= 1");
    }
    if (!cJSON_IsString(started)) {
        return vfail("threads before the job started");
    }
    return NULL;
}

/* Validates j as the schema Job of openapi.yaml (or BatchJob when its
 * kind is "batch"); NULL when it conforms. */
const char *
ht_check_job(const cJSON *j)
{
    if (strcmp(ht_jstr(j, "kind"), "batch") == 0) {
        return ht_check_batch(j);
    }
    static const char *const known[] = {
        "id",
        "status",
        "created_at",
        "started_at",
        "finished_at",
        "puzzle",
        "size",
        "metric",
        "scramble",
        "state",
        "goal",
        "limits",
        "requested_engine",
        "requested_optimal",
        "engine",
        "heuristic",
        "weight",
        "threads",
        "solution",
        "optimal",
        "best_so_far",
        "error",
        "stats",
        "runs",
        "tables",
        "warnings",
        "moves",
        "care",
        "solutions",
        "item",
        NULL,
    };
    static const char *const req[] = {
        "id",          "status",    "created_at",       "started_at",
        "finished_at", "puzzle",    "metric",           "state",
        "goal",        "limits",    "requested_engine", "requested_optimal",
        "engine",      "heuristic", "solution",         "stats",
        NULL,
    };
    static const char *const strings[] = {
        "id", "puzzle", "metric", "state", "goal", "requested_engine", NULL
    };
    static const char *const metrics[] = { "htm", "qtm", "moves", NULL };
    const char *why = ht_check_members(j, "job", known, req);
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(j, "status");
    const cJSON *size = cJSON_GetObjectItemCaseSensitive(j, "size");
    const cJSON *scramble = cJSON_GetObjectItemCaseSensitive(j, "scramble");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(j, "runs");
    const cJSON *tables = cJSON_GetObjectItemCaseSensitive(j, "tables");
    const cJSON *warnings = cJSON_GetObjectItemCaseSensitive(j, "warnings");
    const cJSON *started = cJSON_GetObjectItemCaseSensitive(j, "started_at");
    const cJSON *finished = cJSON_GetObjectItemCaseSensitive(j, "finished_at");
    const char *metric;
    int r = 0;
    int c = 0;
    char extra = 0;

    if (why != NULL || (why = check_threads(j, started)) != NULL) {
        return why;
    }
    for (int i = 0; strings[i] != NULL; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, strings[i]);

        if (!cJSON_IsString(v) ||
            (strcmp(strings[i], "id") == 0 &&
             (v->valuestring[0] == '\0' || strlen(v->valuestring) > 64))) {
            return vfail("job.%s is not a valid string", strings[i]);
        }
    }
    if (!cJSON_IsString(status) || !valid_status(status->valuestring)) {
        return vfail("job.status is not a status name");
    }
    metric = cJSON_GetObjectItemCaseSensitive(j, "metric")->valuestring;
    if (!in_list(metric, metrics)) {
        return vfail("job.metric '%s' is not htm, qtm or moves", metric);
    }
    if (size != NULL &&
        (!cJSON_IsString(size) ||
         sscanf(size->valuestring, "%dx%d%c", &r, &c, &extra) != 2)) {
        return vfail("job.size is not ROWSxCOLS");
    }
    if (scramble != NULL && !cJSON_IsString(scramble)) {
        return vfail("job.scramble is not a string");
    }
    if (!cJSON_IsBool(
            cJSON_GetObjectItemCaseSensitive(j, "requested_optimal"))) {
        return vfail("job.requested_optimal is not a boolean");
    }
    if (!valid_timestamp(cJSON_GetObjectItemCaseSensitive(j, "created_at")) ||
        cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(j, "created_at")) ||
        !valid_timestamp(started) || !valid_timestamp(finished)) {
        return vfail("job timestamps are not RFC 3339 UTC with ms");
    }
    if (strcmp(status->valuestring, "queued") == 0 ||
        strcmp(status->valuestring, "preparing") == 0 ||
        strcmp(status->valuestring, "running") == 0) {
        if (!cJSON_IsNull(finished)) {
            return vfail("job.status %s with finished_at set",
                         status->valuestring);
        }
        if ((strcmp(status->valuestring, "running") == 0) ==
            cJSON_IsNull(started)) {
            return vfail("job.status %s disagrees with started_at",
                         status->valuestring);
        }
    } else if (cJSON_IsNull(finished)) {
        return vfail("job.status %s (final) without finished_at",
                     status->valuestring);
    }
    if ((why = check_limits(cJSON_GetObjectItemCaseSensitive(j, "limits"))) !=
        NULL) {
        return why;
    }
    if ((why = check_run_part(j, status->valuestring, metric)) != NULL) {
        return why;
    }
    if (tables != NULL) {
        if (!cJSON_IsArray(tables) ||
            strcmp(status->valuestring, "preparing") != 0) {
            return vfail("job.tables on a job that is not preparing");
        }
        for (const cJSON *t = tables->child; t != NULL; t = t->next) {
            if ((why = ht_check_table(t)) != NULL) {
                return why;
            }
        }
    }
    if (warnings != NULL) {
        static const char *const wk[] = { "code", "table", "detail", NULL };
        static const char *const wr[] = { "code", "detail", NULL };
        static const char *const codes[] = { "table_missing", "table_fallback",
                                             NULL };

        if (!cJSON_IsArray(warnings) || cJSON_GetArraySize(warnings) < 1) {
            return vfail("job.warnings is not a non-empty array");
        }
        for (const cJSON *w = warnings->child; w != NULL; w = w->next) {
            if ((why = ht_check_members(w, "warning", wk, wr)) != NULL) {
                return why;
            }
            if (!in_list(ht_jstr(w, "code"), codes)) {
                return vfail("warning.code '%s' is unknown",
                             ht_jstr(w, "code"));
            }
        }
    }
    if (runs != NULL) {
        static const char *const rk[] = {
            "status",  "engine",   "heuristic", "weight",
            "threads", "solution", "optimal",   "best_so_far",
            "error",   "stats",    NULL,
        };
        static const char *const rr[] = { "status",   "engine", "heuristic",
                                          "solution", "stats",  NULL };

        if (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) < 1 ||
            cJSON_GetArraySize(runs) > API_ENGINES_MAX) {
            return vfail("job.runs is not an array of 1..8 runs");
        }
        for (const cJSON *run = runs->child; run != NULL; run = run->next) {
            const cJSON *st = cJSON_GetObjectItemCaseSensitive(run, "status");

            if ((why = ht_check_members(run, "run", rk, rr)) != NULL ||
                (why = check_threads(run, started)) != NULL) {
                return why;
            }
            if (!cJSON_IsString(st) || !valid_status(st->valuestring)) {
                return vfail("run.status is not a status name");
            }
            if ((why = check_run_part(run, st->valuestring, metric)) != NULL) {
                return why;
            }
        }
    }
    return NULL;
}

/* Validates a problem+json reply with the expected HTTP status and code
 * (code NULL: any code of that status). NULL when it conforms. */
const char *
ht_check_problem(const http_resp_t *r, long status, const char *code)
{
    cJSON *p = cJSON_ParseWithLength(r->body, r->len);
    const cJSON *type, *title, *st, *detail, *cd, *field, *pos;
    char want_type[96];
    const char *why = NULL;
    int rc;

    if (r->status != status) {
        snprintf(vmsg, sizeof(vmsg), "HTTP status %ld, expected %ld: %.300s",
                 r->status, status, r->body);
        cJSON_Delete(p);
        return vmsg;
    }
    if (strncmp(r->content_type, "application/problem+json", 24) != 0) {
        why = vfail("content type '%s' is not application/problem+json",
                    r->content_type);
        goto out;
    }
    if (!cJSON_IsObject(p)) {
        why = vfail("the problem body is not a JSON object: %.300s", r->body);
        goto out;
    }
    type = cJSON_GetObjectItemCaseSensitive(p, "type");
    title = cJSON_GetObjectItemCaseSensitive(p, "title");
    st = cJSON_GetObjectItemCaseSensitive(p, "status");
    detail = cJSON_GetObjectItemCaseSensitive(p, "detail");
    cd = cJSON_GetObjectItemCaseSensitive(p, "code");
    field = cJSON_GetObjectItemCaseSensitive(p, "field");
    pos = cJSON_GetObjectItemCaseSensitive(p, "position");
    if (!cJSON_IsString(type) || !cJSON_IsString(title) || !ht_is_int(st) ||
        !cJSON_IsString(detail) || detail->valuestring[0] == '\0' ||
        !cJSON_IsString(cd)) {
        why = vfail("the problem lacks type/title/status/detail/code: %.300s",
                    r->body);
        goto out;
    }
    rc = code_rc(cd->valuestring);
    if (rc == PZ_OK) {
        why = vfail("code '%s' is not in pz_error.h", cd->valuestring);
        goto out;
    }
    if (code != NULL && strcmp(cd->valuestring, code) != 0) {
        why = vfail("code '%s', expected '%s'", cd->valuestring, code);
        goto out;
    }
    snprintf(want_type, sizeof(want_type), "/problems/%s", cd->valuestring);
    if (strcmp(type->valuestring, want_type) != 0) {
        why = vfail("type '%s', expected '%s'", type->valuestring, want_type);
        goto out;
    }
    if ((long)st->valuedouble != status || pz_http_status(rc) != status) {
        why = vfail("the status member or the code's status differs from the "
                    "HTTP status (code %s)",
                    cd->valuestring);
        goto out;
    }
    if (strcmp(title->valuestring, pz_errtitle(rc)) != 0) {
        why = vfail("title '%s' is not the code's title '%s'",
                    title->valuestring, pz_errtitle(rc));
        goto out;
    }
    if (field != NULL &&
        (!cJSON_IsString(field) || field->valuestring[0] != '/')) {
        why = vfail("field is not a JSON pointer");
        goto out;
    }
    if (pos != NULL && (!ht_is_int(pos) || pos->valuedouble < 0)) {
        why = vfail("position is not a non-negative integer");
        goto out;
    }
out:
    cJSON_Delete(p);
    return why;
}

/* The problem member name of r as a string ("" when absent). */
void
ht_problem_member(const http_resp_t *r, const char *name, char *out, size_t cap)
{
    cJSON *p = cJSON_ParseWithLength(r->body, r->len);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(p, name);

    out[0] = '\0';
    if (cJSON_IsString(v)) {
        snprintf(out, cap, "%s", v->valuestring);
    } else if (cJSON_IsNumber(v)) {
        snprintf(out, cap, "%.0f", v->valuedouble);
    }
    cJSON_Delete(p);
}

/* Parses r as a Job, asserts it conforms, returns the owned tree. */
cJSON *
ht_job_of(const http_resp_t *r)
{
    cJSON *j;
    const char *why;

    ck_assert_msg(r->rc == CURLE_OK, "transfer failed: %s",
                  curl_easy_strerror(r->rc));
    ck_assert_msg(strncmp(r->content_type, "application/json", 16) == 0,
                  "content type '%s'", r->content_type);
    j = cJSON_ParseWithLength(r->body, r->len);
    ck_assert_msg(j != NULL, "not JSON: %.300s", r->body);
    why = ht_check_job(j);
    ck_assert_msg(why == NULL, "job does not match openapi.yaml: %s\n%.2000s",
                  why, r->body);
    return j;
}

const char *
ht_jstr(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

    return cJSON_IsString(v) ? v->valuestring : "";
}

bool
ht_job_terminal(const cJSON *j)
{
    const char *s = ht_jstr(j, "status");

    return strcmp(s, "queued") != 0 && strcmp(s, "preparing") != 0 &&
           strcmp(s, "running") != 0;
}

/* --- replaying answers with the solver library --- */

/*
 * Parses the request's input here, independently of the server, replays
 * the solution text from the job with the puzzle's own scramble parser and
 * checks that it lands on the goal. Returns NULL or a message; *len_out
 * gets the solution length.
 */
const char *
ht_replay_check(const char *puzzle,
                const char *metric,
                const char *scramble,
                const char *state_json,
                const cJSON *job,
                int *len_out)
{
    pz_params_t prm = { 0, 0, PZ_METRIC_DEFAULT };
    pz_puzzle_t *p = NULL;
    pz_state_t start;
    pz_state_t goal;
    pz_state_t end;
    pz_diag_t d;
    const cJSON *sol = cJSON_GetObjectItemCaseSensitive(job, "solution");
    const char *why = NULL;

    *len_out = -1;
    pz_diag_clear(&d);
    if (metric != NULL) {
        prm.metric = strcmp(metric, "qtm") == 0 ? PZ_METRIC_QTM : PZ_METRIC_HTM;
    }
    if (!cJSON_IsObject(sol)) {
        return vfail("the job has no solution (status %s)",
                     ht_jstr(job, "status"));
    }
    if (puzzle_create(puzzle, &prm, &p, &d) != PZ_OK) {
        return vfail("puzzle_create(%s): %s", puzzle, d.detail);
    }
    if (scramble != NULL) {
        if (puzzle_parse_scramble(p, scramble, &start, &d) != PZ_OK) {
            why = vfail("the scramble does not parse here: %s", d.detail);
            goto out;
        }
    } else {
        cJSON *sj = cJSON_Parse(state_json);
        int ints[256];
        pz_input_t in;
        int rc = api_state_input(sj, ints, 256, &in, &d);

        if (rc == PZ_OK) {
            rc = puzzle_parse_state(p, &in, &start, &d);
        }
        cJSON_Delete(sj);
        if (rc != PZ_OK) {
            why = vfail("the state does not parse here: %s", d.detail);
            goto out;
        }
    }
    puzzle_goal(p, &goal);
    end = start;
    if (puzzle_apply_scramble(p, ht_jstr(sol, "text"), &end, &d) != PZ_OK) {
        why = vfail("the solution '%s' does not parse: %s",
                    ht_jstr(sol, "text"), d.detail);
        goto out;
    }
    if (!puzzle_equal(p, &end, &goal)) {
        why = vfail("the solution '%s' does not reach the goal",
                    ht_jstr(sol, "text"));
        goto out;
    }
    *len_out =
        (int)cJSON_GetObjectItemCaseSensitive(sol, "length")->valuedouble;
out:
    puzzle_destroy(p);
    return why;
}

/* --- request bodies used by several tests --- */

/* A job that searches until its time runs out or it is cancelled: Korf's
 * 15-puzzle instance 1 (optimal 57) with IDA* and no heuristic, which needs
 * no memory and cannot finish in a test's lifetime. */
void
ht_long_job_body(char *buf, size_t len, int time_ms, int memory_mb, int wait_ms)
{
    snprintf(buf, len,
             "{\"puzzle\":\"15-puzzle\","
             "\"state\":[14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3],"
             "\"goal\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],"
             "\"engine\":\"idastar\",\"heuristic\":\"none\","
             "\"time_ms\":%d,\"memory_mb\":%d,\"wait_ms\":%d}",
             time_ms, memory_mb, wait_ms);
}

/* POSTs body and returns the job id (owned) from a 200/202 reply; status
 * in *status. NULL when the reply has no job. */
char *
ht_submit(int port, const char *body, long *status, http_resp_t *keep)
{
    http_resp_t r;
    cJSON *j;
    char *id = NULL;

    http_post(port, "/v1/solve", body, &r);
    *status = r.status;
    if (r.status == 200 || r.status == 202) {
        j = ht_job_of(&r);
        id = strdup(ht_jstr(j, "id"));
        cJSON_Delete(j);
    }
    if (keep != NULL) {
        *keep = r;
    } else {
        http_resp_free(&r);
    }
    return id;
}

/* GET /v1/jobs/{id}?wait_ms=w; returns the validated job (owned). */
cJSON *
ht_get_job(int port, const char *id, int wait_ms, http_resp_t *keep)
{
    char path[160];
    http_resp_t r;
    cJSON *j;

    snprintf(path, sizeof(path), "/v1/jobs/%s?wait_ms=%d", id, wait_ms);
    http_get(port, path, &r);
    ck_assert_msg(r.status == 200, "GET %s: %ld %.300s", path, r.status,
                  r.body);
    j = ht_job_of(&r);
    if (keep != NULL) {
        *keep = r;
    } else {
        http_resp_free(&r);
    }
    return j;
}

void
ht_cancel_job(int port, const char *id)
{
    char path[160];
    http_resp_t r;

    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    http_delete(port, path, &r);
    http_resp_free(&r);
}

/* --- the daemon's metrics, readiness and raw connections --- */

/* The value of the sample line that starts with name (a full series
 * name with its labels) in a Prometheus exposition, or -1. */
double
ht_metric_value(const char *text, const char *name)
{
    size_t n = strlen(name);

    for (const char *p = text; p != NULL && *p != '\0';) {
        if (strncmp(p, name, n) == 0 && p[n] == ' ') {
            return strtod(p + n + 1, NULL);
        }
        p = strchr(p, '\n');
        p = p != NULL ? p + 1 : NULL;
    }
    return -1;
}

/* A new loopback connection to port, reads time out after 10 s. */
int
ht_conn_open(int port)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    struct timeval tv = { 10, 0 };
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    ck_assert_int_ge(fd, 0);
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    return fd;
}

void
ht_conn_send(int fd, const char *text)
{
    size_t len = strlen(text);

    ck_assert_int_eq(send(fd, text, len, MSG_NOSIGNAL), (ssize_t)len);
}

/* Reads one reply from fd into r (status, content type, retry-after,
 * body by Content-Length). False when the connection ends first. */
bool
ht_conn_reply(int fd, http_resp_t *r)
{
    char buf[65536];
    size_t n = 0;
    const char *end = NULL;
    const char *v;
    size_t clen = 0;

    memset(r, 0, sizeof(*r));
    for (;;) {
        ssize_t got;

        if (end != NULL && n >= (size_t)(end + 4 - buf) + clen) {
            break;
        }
        got = recv(fd, buf + n, sizeof(buf) - 1 - n, 0);
        if (got <= 0) {
            return false;
        }
        n += (size_t)got;
        buf[n] = '\0';
        if (end == NULL && (end = strstr(buf, "\r\n\r\n")) != NULL) {
            v = strstr(buf, "\r\nContent-Length:");
            clen = v != NULL && v < end ? strtoul(v + 17, NULL, 10) : 0;
        }
    }
    r->status = strtol(buf + 9, NULL, 10);
    if ((v = strstr(buf, "\r\nContent-Type: ")) != NULL && v < end) {
        sscanf(v + 16, "%127[^\r]", r->content_type);
    }
    if ((v = strstr(buf, "\r\nRetry-After: ")) != NULL && v < end) {
        sscanf(v + 15, "%31[^\r]", r->retry_after);
    }
    r->len = clen;
    r->body = strndup(end + 4, clen);
    return true;
}

/* Waits up to timeout_ms for the server to close fd (end of stream or
 * reset); false when it is still open. Reads and drops what comes. */
bool
ht_conn_closed_by_server(int fd, int timeout_ms)
{
    int64_t until = now_ms() + timeout_ms;
    char buf[4096];

    for (int64_t now; (now = now_ms()) < until;) {
        struct pollfd p = { fd, POLLIN, 0 };
        ssize_t got;

        if (poll(&p, 1, (int)(until - now)) <= 0) {
            continue;
        }
        got = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
        if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
            return true;
        }
    }
    return false;
}

/* A sample of /metrics, fetched now. */
double
ht_metric_now(int port, const char *name)
{
    http_resp_t r;
    double v;

    http_get(port, "/metrics", &r);
    ck_assert_int_eq(r.status, 200);
    v = ht_metric_value(r.body, name);
    http_resp_free(&r);
    return v;
}

/* Waits until the sample name reaches at least want. */
void
ht_await_metric(int port, const char *name, double want)
{
    double v = -1;

    for (int64_t until = now_ms() + 20000; now_ms() < until; sleep_ms(20)) {
        if ((v = ht_metric_now(port, name)) >= want) {
            return;
        }
    }
    ck_abort_msg("%s stayed at %g, expected %g", name, v, want);
}

/* Waits until GET /readyz answers 200 (the start-up tables are loaded in
 * the background). */
void
ht_await_ready(int port)
{
    http_resp_t r;

    for (int64_t until = now_ms() + 60000; now_ms() < until; sleep_ms(20)) {
        http_get(port, "/readyz", &r);
        if (r.status == 200) {
            http_resp_free(&r);
            return;
        }
        http_resp_free(&r);
    }
    ck_abort_msg("/readyz did not answer 200 within 60 s");
}

/* Waits until a connection to port is refused (the listening socket is
 * closed); false at the timeout. */
bool
ht_await_refused(int port, int timeout_ms)
{
    struct sockaddr_in a = { .sin_family = AF_INET };

    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int64_t until = now_ms() + timeout_ms; now_ms() < until;
         sleep_ms(10)) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        int rc = connect(fd, (struct sockaddr *)&a, sizeof(a));
        int e = errno;

        close(fd);
        if (rc != 0 && e == ECONNREFUSED) {
            return true;
        }
    }
    return false;
}

char *
ht_load_spec(void)
{
    char *text = read_file(PZ_SOURCE_DIR "/openapi.yaml", NULL);

    ck_assert_msg(text != NULL, "cannot read openapi.yaml");
    return text;
}

/* --- the shared daemon of a TCase --- */

srv_t g_srv;

void
ht_setup_default(void)
{
    ck_assert_msg(srv_start(&g_srv, NULL) == 0, "the daemon did not start");
}

void
ht_teardown_default(void)
{
    srv_cleanup(&g_srv);
}

TCase *
ht_shared_tcase(const char *name, int timeout)
{
    TCase *tc = tcase_create(name);

    tcase_add_unchecked_fixture(tc, ht_setup_default, ht_teardown_default);
    tcase_set_timeout(tc, timeout);
    return tc;
}

/* The last test of each TCase with the shared daemon. */
START_TEST(test_server_http_serve_sigterm_exits_zero)
{
    http_resp_t r;

    /* Still serving after the TCase's tests, then a clean exit. */
    http_get(g_srv.port, "/healthz", &r);
    ck_assert_int_eq(r.status, 200);
    http_resp_free(&r);
    ck_assert_int_eq(srv_stop(&g_srv), 0);
}
END_TEST

const TTest *
ht_serve_sigterm_exits_zero(void)
{
    return test_server_http_serve_sigterm_exits_zero;
}
