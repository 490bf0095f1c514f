/* SPDX-License-Identifier: MIT */
/* http.c - the libmicrohttpd daemon: routes, request phases, replies.
 *
 * MHD calls the access handler several times per request. The first call
 * (no context yet) sees only the headers: it routes the request and
 * rejects what can be rejected before any body is read (404, 405, OPTIONS,
 * and for POST /solve 503, 411, 413, 415), because MHD 0.9.75 cannot queue
 * a reply while an upload is in progress. Middle calls carry body chunks,
 * which are always consumed. The last call (no data) answers. A request
 * that waits for a job registers a waiter and suspends its connection
 * under the job table's lock; whoever ends the wait (the worker finishing
 * the job, the loop thread at the deadline, shutdown) resumes it under the
 * same lock, and MHD then calls the handler once more, which answers with
 * the job as it is now. MHD threads never block and never solve.
 */
#include "http.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "http_internal.h"
#include "jsonout.h"
#include "log.h"
#include "problem.h"
#include "rng.h"

/* Per-connection memory MHD may use for headers and buffers: room for a
 * request head past the limits below, so that this server, not MHD,
 * answers it. */
#define HTTP_CONN_MEMORY ((size_t)64 * 1024)

/* The longest request target and request head served (414, 431). */
#define HTTP_MAX_TARGET ((size_t)8 * 1024)
#define HTTP_MAX_HEAD   ((size_t)16 * 1024)

/* Connection places kept for the health routes at the limit, and the
 * time a new connection or a request body is given before the limit may
 * close it (http_conns.h). */
#define HTTP_CONN_RESERVE  16
#define HTTP_CONN_GRACE_MS 1000

static const http_route_t routes[] = {
    { HTTP_R_SOLVE, "/solve", HTTP_M_POST, "POST, OPTIONS" },
    { HTTP_R_V1_SOLVE, "/v1/solve", HTTP_M_POST, "POST, OPTIONS" },
    { HTTP_R_JOBS, "/v1/jobs", HTTP_M_GET | HTTP_M_HEAD, "GET, HEAD, OPTIONS" },
    { HTTP_R_JOB, "/v1/jobs/{id}", HTTP_M_GET | HTTP_M_HEAD | HTTP_M_DELETE,
      "GET, HEAD, DELETE, OPTIONS" },
    { HTTP_R_PUZZLES, "/v1/puzzles", HTTP_M_GET | HTTP_M_HEAD,
      "GET, HEAD, OPTIONS" },
    { HTTP_R_HEALTHZ, "/healthz", HTTP_M_GET | HTTP_M_HEAD,
      "GET, HEAD, OPTIONS" },
    { HTTP_R_READYZ, "/readyz", HTTP_M_GET | HTTP_M_HEAD,
      "GET, HEAD, OPTIONS" },
    { HTTP_R_METRICS, "/metrics", HTTP_M_GET | HTTP_M_HEAD,
      "GET, HEAD, OPTIONS" },
    { HTTP_R_OPENAPI, "/openapi.yaml", HTTP_M_GET | HTTP_M_HEAD,
      "GET, HEAD, OPTIONS" },
    { HTTP_R_TABLES, "/v1/tables", HTTP_M_GET | HTTP_M_HEAD,
      "GET, HEAD, OPTIONS" },
    { HTTP_R_NONE, NULL, 0, NULL },
};

/* --- small helpers --- */

static uint64_t
mono_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool
sane_request_id(const char *s)
{
    size_t n = 0;

    if (s == NULL) {
        return false;
    }
    for (; s[n] != '\0'; n++) {
        char ch = s[n];

        if (n >= 64 || !((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                         (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' ||
                         ch == '-')) {
            return false;
        }
    }
    return n > 0;
}

static void
new_request_id(char *out)
{
    static _Atomic uint64_t counter;

    /* Random when the kernel obliges, else a process-unique counter:
     * request ids correlate log lines, they guard nothing. */
    if (rng_hex(out, 8) != PZ_OK) {
        uint64_t r = ++counter ^ (uint64_t)getpid() << 40;

        snprintf(out, 17, "%016" PRIx64, r);
    }
}

/* Copies src into dst of size n, cut to fit, always terminated. */
static void
copy_text(char *dst, size_t n, const char *src)
{
    size_t len = strnlen(src, n - 1);

    memcpy(dst, src, len);
    dst[len] = '\0';
}

static unsigned
method_of(const char *m, const char **label)
{
    static const struct {
        const char *name;
        unsigned bit;
    } methods[] = {
        { "GET", HTTP_M_GET },         { "HEAD", HTTP_M_HEAD },
        { "POST", HTTP_M_POST },       { "DELETE", HTTP_M_DELETE },
        { "OPTIONS", HTTP_M_OPTIONS },
    };

    for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
        if (strcmp(m, methods[i].name) == 0) {
            *label = methods[i].name;
            return methods[i].bit;
        }
    }
    *label = "OTHER";
    return HTTP_M_OTHER;
}

/*
 * The path of a request target. A target in absolute form
 * ("http://host:port/path", which a server must accept: RFC 9112 section
 * 3.2.2) is routed by its path; MHD hands it over whole. Any other target
 * is its own path.
 */
static const char *
target_path(const char *url)
{
    const char *rest = NULL;
    const char *slash;

    if (strncasecmp(url, "http://", 7) == 0) {
        rest = url + 7;
    } else if (strncasecmp(url, "https://", 8) == 0) {
        rest = url + 8;
    }
    if (rest == NULL) {
        return url;
    }
    slash = strchr(rest, '/');
    return slash != NULL ? slash : "";
}

static const http_route_t *
route_of(const char *url)
{
    for (const http_route_t *r = routes; r->path != NULL; r++) {
        if (r->id == HTTP_R_JOB) {
            size_t n = strlen(HTTP_JOB_PREFIX);

            if (strncmp(url, HTTP_JOB_PREFIX, n) == 0 && url[n] != '\0' &&
                strchr(url + n, '/') == NULL) {
                return r;
            }
        } else if (strcmp(url, r->path) == 0) {
            return r;
        }
    }
    return NULL;
}

/* True for "application/json", any case, optionally with parameters. */
static bool
is_json_type(const char *ct)
{
    static const char want[] = "application/json";

    if (ct == NULL) {
        return false;
    }
    while (*ct == ' ' || *ct == '\t') {
        ct++;
    }
    if (strncasecmp(ct, want, sizeof(want) - 1) != 0) {
        return false;
    }
    ct += sizeof(want) - 1;
    while (*ct == ' ' || *ct == '\t') {
        ct++;
    }
    return *ct == '\0' || *ct == ';';
}

static const char *
header(const http_conn_t *c, const char *name)
{
    return MHD_lookup_connection_value(c->conn, MHD_HEADER_KIND, name);
}

/* Counts the headers called name and whether they all agree. */
typedef struct header_count {
    const char *name;
    int n;
    bool differ;
    const char *first;
} header_count_t;

static enum MHD_Result
count_header(void *cls,
             enum MHD_ValueKind kind,
             const char *key,
             const char *value)
{
    header_count_t *l = cls;

    (void)kind;
    if (key != NULL && strcasecmp(key, l->name) == 0) {
        if (l->n++ == 0) {
            l->first = value;
        } else if (value == NULL || l->first == NULL ||
                   strcmp(value, l->first) != 0) {
            l->differ = true;
        }
    }
    return MHD_YES;
}

/* Sets *cls (a bool) at a header name that is not an RFC 9110 token.
 * MHD keeps the blank of "Name : value" in the name, which RFC 9112
 * section 5.1 says to refuse. */
static enum MHD_Result
find_bad_name(void *cls,
              enum MHD_ValueKind kind,
              const char *key,
              const char *value)
{
    bool *bad = cls;

    (void)kind;
    (void)value;
    if (key == NULL || *key == '\0') {
        *bad = true;
        return MHD_NO;
    }
    for (const char *k = key; *k != '\0'; k++) {
        if (!isalnum((unsigned char)*k) &&
            strchr("!#$%&'*+-.^_`|~", *k) == NULL) {
            *bad = true;
            return MHD_NO;
        }
    }
    return MHD_YES;
}

/* True for a Host value of RFC 3986's host[:port] characters: letters,
 * digits, -._~%!$&'()*+,;= and the : [ ] of ports and IPv6 literals (an
 * empty one too). No spaces, slashes, @, controls or 8-bit bytes. */
static bool
valid_host(const char *v)
{
    for (; v != NULL && *v != '\0'; v++) {
        if (!isalnum((unsigned char)*v) &&
            strchr("-._~%!$&'()*+,;=:[]", *v) == NULL) {
            return false;
        }
    }
    return true;
}

/* MHD's unescape callback (http_internal.h): "%00" and "%2F" stay
 * undecoded. */
size_t
http__unescape(void *cls, struct MHD_Connection *conn, char *s)
{
    size_t r = 0;
    size_t w = 0;

    (void)cls;
    (void)conn;
    while (s[r] != '\0') {
        if (s[r] == '%' && isxdigit((unsigned char)s[r + 1]) &&
            isxdigit((unsigned char)s[r + 2])) {
            char hex[3] = { s[r + 1], s[r + 2], '\0' };
            long v = strtol(hex, NULL, 16);

            if (v != 0 && v != '/') {
                s[w++] = (char)v;
                r += 3;
                continue;
            }
        }
        s[w++] = s[r++];
    }
    s[w] = '\0';
    return w;
}

const char *
http__query(const http_conn_t *c, const char *name)
{
    return MHD_lookup_connection_value(c->conn, MHD_GET_ARGUMENT_KIND, name);
}

/* Parses a whole non-negative decimal integer, however long: one past
 * 2^53 reads as 2^53 (every caller caps or refuses far below). */
bool
http__parse_count(const char *s, int64_t *out)
{
    const int64_t max = INT64_C(1) << 53;
    int64_t v = 0;

    if (s == NULL || *s == '\0') {
        return false;
    }
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9') {
            return false;
        }
        v = v > (max - (*s - '0')) / 10 ? max : v * 10 + (*s - '0');
    }
    *out = v;
    return true;
}

static bool
draining(const http_conn_t *c)
{
    return jobs_draining(c->http->deps.jobs);
}

/* --- replies --- */

static void
add_header(struct MHD_Response *r, const char *name, const char *value)
{
    if (value != NULL) {
        MHD_add_response_header(r, name, value);
    }
}

/* Queues rep with the headers every reply carries. Takes ownership of an
 * owned body, also on failure. */
enum MHD_Result
http__send_reply(http_conn_t *c, const http_reply_t *rep)
{
    struct MHD_Response *r;
    enum MHD_Result ok;

    if (rep->body == NULL || rep->persistent) {
        r = MHD_create_response_from_buffer(rep->len, rep->body,
                                            MHD_RESPMEM_PERSISTENT);
    } else {
        /* MHD frees the printed body with the allocator that made it
         * (free for jsonout and open_memstream output). */
        r = MHD_create_response_from_buffer_with_free_callback(
            rep->len, rep->body, rep->free_fn);
    }
    if (r == NULL) {
        if (rep->body != NULL && !rep->persistent) {
            rep->free_fn(rep->body);
        }
        return MHD_NO;
    }
    add_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, rep->ctype);
    add_header(r, "X-Request-Id", c->request_id);
    add_header(r, MHD_HTTP_HEADER_LOCATION, rep->location);
    add_header(r, MHD_HTTP_HEADER_RETRY_AFTER, rep->retry_after);
    add_header(r, MHD_HTTP_HEADER_ALLOW, rep->allow);
    if (c->route == NULL || c->route->id != HTTP_R_OPENAPI) {
        add_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    }
    if (c->origin != NULL) {
        add_header(r, "Access-Control-Allow-Origin", c->origin);
        add_header(r, "Access-Control-Expose-Headers",
                   "Location, Retry-After, X-Request-Id");
    }
    if (c->http->deps.cfg->ncors > 0) {
        add_header(r, "Vary", "Origin");
    }
    if (draining(c) || c->close) {
        /* Let keep-alive clients go so the drain finishes; after framing
         * this server may have read otherwise than the client meant, the
         * connection cannot carry another request. */
        add_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
    }
    ok = MHD_queue_response(c->conn, (unsigned)rep->status, r);
    MHD_destroy_response(r);
    c->phase = HTTP_PH_ANSWERED;
    c->status = rep->status;
    return ok;
}

enum MHD_Result
http__send_static(http_conn_t *c,
                  int status,
                  const char *ctype,
                  const char *body)
{
    http_reply_t rep = { 0 };

    rep.status = status;
    rep.ctype = ctype;
    rep.body = (char *)body;
    rep.len = body != NULL ? strlen(body) : 0;
    rep.persistent = true;
    return http__send_reply(c, &rep);
}

/* Sends text (JSON, owned, NULL when it could not be made) with rep. */
static enum MHD_Result
send_text_rep(http_conn_t *c, char *text, size_t len, http_reply_t *rep)
{
    if (text == NULL) {
        c->code = "out_of_memory";
        return http__send_static(
            c, 500, HTTP_CTYPE_PROBLEM,
            "{\"type\":\"/problems/out_of_memory\",\"title\":"
            "\"Out of memory\",\"status\":500,\"code\":"
            "\"out_of_memory\"}");
    }
    rep->body = text;
    rep->len = len;
    rep->free_fn = free;
    if (rep->ctype == NULL) {
        rep->ctype = HTTP_CTYPE_JSON;
    }
    return http__send_reply(c, rep);
}

enum MHD_Result
http__send_text(http_conn_t *c, int status, jsonout_t *w)
{
    http_reply_t rep = { 0 };
    size_t len;
    char *text = jsonout_finish(w, &len);

    rep.status = status;
    return send_text_rep(c, text, len, &rep);
}

/* Sends the problem for rc and d (d may be NULL). */
enum MHD_Result
http__send_problem_d(http_conn_t *c,
                     int rc,
                     const pz_diag_t *d,
                     const char *retry_after,
                     const char *allow)
{
    http_reply_t rep = { 0 };
    size_t len = 0;
    char *text;

    if (d != NULL && d->rc != PZ_OK) {
        rc = d->rc;
    }
    rep.status = pz_http_status(rc);
    rep.ctype = HTTP_CTYPE_PROBLEM;
    rep.retry_after = retry_after;
    rep.allow = allow;
    c->code = pz_strerror(rc);
    text = api_problem_text(rc, d, false, &len);
    return send_text_rep(c, text, len, &rep);
}

enum MHD_Result
http__send_problem(http_conn_t *c, int rc, const char *fmt, ...)
{
    pz_diag_t d;
    va_list ap;

    pz_diag_clear(&d);
    d.rc = rc;
    va_start(ap, fmt);
    vsnprintf(d.detail, sizeof(d.detail), fmt, ap);
    va_end(ap);
    return http__send_problem_d(c, rc, &d, NULL, NULL);
}

/* Answers with the job as it is now: 200 when it has ended (or for a
 * poll), else 202 with its Location (POST /solve). */
enum MHD_Result
http__send_job(http_conn_t *c, int unfinished_status)
{
    http_reply_t rep = { 0 };
    char location[64];
    bool ended;
    jsonout_t w;
    size_t len;
    char *text;

    /* The status follows what the body says, read once: a job that ends
     * while it is rendered is either all 202 or all 200. */
    jsonout_init(&w);
    ended = pz_status_terminal(jobs_write(&w, NULL, c->job));
    text = jsonout_finish(&w, &len);
    rep.status = ended ? 200 : unfinished_status;
    if (rep.status == 202) {
        snprintf(location, sizeof(location), "/v1/jobs/%s", jobs_id(c->job));
        rep.location = location;
    }
    if (ended) {
        jobs_delivered(c->http->deps.jobs, c->job);
    }
    return send_text_rep(c, text, len, &rep);
}

/* --- waiting --- */

static void
suspend_conn(void *arg)
{
    http_conn_t *c = arg;

    MHD_suspend_connection(c->conn);
}

static void
resume_conn(void *arg)
{
    http_conn_t *c = arg;

    MHD_resume_connection(c->conn);
}

/* Suspends the connection until c->job ends or wait_ms pass. Returns
 * false (nothing suspended) when the job has ended or the server drains;
 * the caller answers at once then. */
bool
http__start_wait(http_conn_t *c, int64_t wait_ms)
{
    c->waiter.resume = resume_conn;
    c->waiter.arg = c;
    c->waiter.deadline_ms = jobs_now_ms() + wait_ms;
    c->phase = HTTP_PH_WAITING;
    if (!jobs_wait(c->http->deps.jobs, c->job, &c->waiter, suspend_conn)) {
        c->phase = HTTP_PH_HEADERS;
        return false;
    }
    loop_wake_before(c->http->deps.loop, c->waiter.deadline_ms);
    return true;
}

/* CORS preflight, or a plain OPTIONS: 204 with Allow. */
static enum MHD_Result
handle_options(http_conn_t *c)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
    enum MHD_Result ok;

    if (r == NULL) {
        return MHD_NO;
    }
    add_header(r, "X-Request-Id", c->request_id);
    add_header(r, MHD_HTTP_HEADER_ALLOW, c->route->allow);
    if (c->origin != NULL) {
        add_header(r, "Access-Control-Allow-Origin", c->origin);
        add_header(r, "Access-Control-Allow-Methods", c->route->allow);
        add_header(r, "Access-Control-Allow-Headers",
                   "Content-Type, X-Request-Id");
        add_header(r, "Access-Control-Max-Age", "600");
    }
    if (c->http->deps.cfg->ncors > 0) {
        add_header(r, "Vary", "Origin");
    }
    ok = MHD_queue_response(c->conn, 204, r);
    MHD_destroy_response(r);
    c->phase = HTTP_PH_ANSWERED;
    c->status = 204;
    return ok;
}

/* POST /solve checks that need only the headers. Returns true when a
 * reply was queued (in *ret). */
static bool
solve_precheck(http_conn_t *c, enum MHD_Result *ret)
{
    const char *cl = header(c, MHD_HTTP_HEADER_CONTENT_LENGTH);
    const char *te = header(c, MHD_HTTP_HEADER_TRANSFER_ENCODING);
    int64_t len = 0;
    pz_diag_t d;

    if (draining(c)) {
        pz_diag_clear(&d);
        pz_diag_set(&d, PZ_EDRAINING,
                    "the server is shutting down; retry on another instance");
        *ret = http__send_problem_d(c, PZ_EDRAINING, &d, NULL, NULL);
        return true;
    }
    if (te != NULL) {
        /* Chunked: the length comes with the chunks. The body is kept up
         * to API_BODY_MAX (413 after the last chunk past it); a client
         * sending far more is cut off (on_upload). */
        if (strcasecmp(te, "chunked") != 0) {
            *ret = http__send_problem(c, PZ_EINVAL,
                                      "Transfer-Encoding must be chunked");
            return true;
        }
        cl = NULL;
        len = API_BODY_MAX;
        c->chunked = true;
    } else if (cl == NULL) {
        *ret = http__send_problem(c, PZ_ELENGTH,
                                  "send the body with a Content-Length header "
                                  "or chunked");
        return true;
    }
    if (cl != NULL && !http__parse_count(cl, &len)) {
        *ret =
            http__send_problem(c, PZ_ELENGTH, "Content-Length is not a number");
        return true;
    }
    if (len > API_BODY_MAX) {
        *ret = http__send_problem(
            c, PZ_ETOO_LARGE, "the body has %" PRId64 " bytes; the limit is %d",
            len, API_BODY_MAX);
        return true;
    }
    if (!is_json_type(header(c, MHD_HTTP_HEADER_CONTENT_TYPE))) {
        *ret = http__send_problem(c, PZ_EMEDIA,
                                  "send the body as Content-Type: "
                                  "application/json");
        return true;
    }
    c->cap = (size_t)len;
    c->body = malloc(c->cap + 1);
    if (c->body == NULL) {
        *ret = http__send_problem(c, PZ_ENOMEM, "out of memory for the body");
        return true;
    }
    return false;
}

/* Routing answers that need only the headers: unknown path, OPTIONS,
 * method not allowed. Returns true when a reply was queued (in *ret). */
static bool
route_check(http_conn_t *c, enum MHD_Result *ret)
{
    if (c->route == NULL) {
        *ret =
            http__send_problem(c, PZ_ENOT_FOUND,
                               "no such resource; GET /openapi.yaml lists the "
                               "routes");
        return true;
    }
    if (c->method == HTTP_M_OPTIONS) {
        *ret = handle_options(c);
        return true;
    }
    if ((c->route->methods & c->method) == 0) {
        pz_diag_t d;

        pz_diag_clear(&d);
        pz_diag_set(&d, PZ_EMETHOD, "%s is not allowed here; use %s",
                    c->method_text, c->route->allow);
        *ret = http__send_problem_d(c, PZ_EMETHOD, &d, NULL, c->route->allow);
        return true;
    }
    return false;
}

/* True when the request announces a body. */
static bool
has_body(const http_conn_t *c)
{
    const char *cl = header(c, MHD_HTTP_HEADER_CONTENT_LENGTH);

    return header(c, MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL ||
           (cl != NULL && strcmp(cl, "0") != 0);
}

/* Routes served on a reserved connection place. */
static bool
health_route(const http_conn_t *c)
{
    return c->route != NULL &&
           (c->route->id == HTTP_R_HEALTHZ || c->route->id == HTTP_R_READYZ ||
            c->route->id == HTTP_R_METRICS);
}

static enum MHD_Result
add_length(void *cls,
           enum MHD_ValueKind kind,
           const char *key,
           const char *value)
{
    size_t *n = cls;

    (void)kind;
    *n += strlen(key) + (value != NULL ? strlen(value) + 1 : 0) + 2;
    return MHD_YES;
}

/* The request target and head past their limits: 414 and 431 in
 * problem+json (a head too large for MHD's memory gets MHD's own answer).
 * Returns true when a reply was queued. */
static bool
head_check(http_conn_t *c, enum MHD_Result *ret)
{
    size_t target = c->url_len;
    size_t head;

    MHD_get_connection_values(c->conn, MHD_GET_ARGUMENT_KIND, add_length,
                              &target);
    head = target;
    MHD_get_connection_values(c->conn, MHD_HEADER_KIND, add_length, &head);
    if (target > HTTP_MAX_TARGET) {
        c->close = true;
        *ret = http__send_problem(c, PZ_EURI_TOO_LONG,
                                  "the request target has about %zu bytes; "
                                  "the limit is %zu",
                                  target, HTTP_MAX_TARGET);
        return true;
    }
    if (head > HTTP_MAX_HEAD) {
        c->close = true;
        *ret = http__send_problem(c, PZ_EHEADERS_TOO_LARGE,
                                  "the request head has about %zu bytes; "
                                  "the limit is %zu",
                                  head, HTTP_MAX_HEAD);
        return true;
    }
    return false;
}

/* The first handler call: headers only. A reply queued here goes out
 * before the body is read, and MHD then closes the connection; so routing
 * errors for requests without a body wait for the last call instead,
 * which keeps the connection alive. */
static enum MHD_Result
on_headers(http_conn_t *c)
{
    const char *origin = header(c, "Origin");
    const config_t *cfg = c->http->deps.cfg;
    enum MHD_Result ret;

    header_count_t lens = { MHD_HTTP_HEADER_CONTENT_LENGTH, 0, false, NULL };
    header_count_t hosts = { MHD_HTTP_HEADER_HOST, 0, false, NULL };
    bool bad_name = false;

    for (int i = 0; origin != NULL && i < cfg->ncors; i++) {
        if (strcmp(origin, cfg->cors[i]) == 0) {
            c->origin = cfg->cors[i];
        }
    }
    c->body_pending = has_body(c);
    /* A reserved place serves one health request. */
    c->close = http_conns_request(c->http->conns, c->entry, c->body_pending);
    if (c->close && !health_route(c)) {
        pz_diag_t d;

        pz_diag_clear(&d);
        pz_diag_set(&d, PZ_EOVERLOADED,
                    "every connection place is taken; only the health "
                    "routes are served on this one; retry after a second");
        return http__send_problem_d(c, PZ_EOVERLOADED, &d, "1", NULL);
    }
    if (head_check(c, &ret)) {
        return ret;
    }
    /* Framing and targets that a proxy and this server could read two
     * ways: refused, and the connection closed (RFC 9112 sections 3.2,
     * 6.1 and 6.3). */
    MHD_get_connection_values(c->conn, MHD_HEADER_KIND, find_bad_name,
                              &bad_name);
    if (bad_name) {
        c->close = true;
        return http__send_problem(c, PZ_EINVAL,
                                  "a header name is not a token (a blank "
                                  "before its colon?)");
    }
    MHD_get_connection_values(c->conn, MHD_HEADER_KIND, count_header, &hosts);
    if (hosts.n == 0 && strcmp(c->version, MHD_HTTP_VERSION_1_1) == 0) {
        c->close = true;
        return http__send_problem(c, PZ_EINVAL,
                                  "an HTTP/1.1 request needs a Host header");
    }
    if (hosts.n > 1 || !valid_host(hosts.first)) {
        c->close = true;
        return http__send_problem(c, PZ_EINVAL,
                                  "the Host header must be given once, as "
                                  "host or host:port");
    }
    MHD_get_connection_values(c->conn, MHD_HEADER_KIND, count_header, &lens);
    if (lens.differ) {
        c->close = true;
        return http__send_problem(c, PZ_EINVAL,
                                  "Content-Length is given twice with "
                                  "different values");
    }
    if (header(c, MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL &&
        (lens.n > 0 || strcmp(c->version, MHD_HTTP_VERSION_1_0) == 0)) {
        c->close = true;
        return http__send_problem(c, PZ_EINVAL,
                                  "Transfer-Encoding may not come with a "
                                  "Content-Length, nor in an HTTP/1.0 "
                                  "request");
    }
    if (c->body_pending && route_check(c, &ret)) {
        return ret;
    }
    if (c->route != NULL &&
        (c->route->id == HTTP_R_SOLVE || c->route->id == HTTP_R_V1_SOLVE) &&
        c->method == HTTP_M_POST && solve_precheck(c, &ret)) {
        return ret;
    }
    return MHD_YES;
}

/* A chunked body is drained up to this much past the limit, for the 413
 * after its last chunk; beyond, the connection is closed unanswered. */
#define HTTP_CHUNKED_DRAIN_MAX ((size_t)1 << 20)

/* Takes n bytes of body; false closes the connection (a chunked body far
 * past the limit). */
static bool
on_upload(http_conn_t *c, const char *data, size_t n)
{
    if (c->chunked) {
        c->received += n;
        if (c->received > HTTP_CHUNKED_DRAIN_MAX) {
            return false;
        }
    }
    if (c->body == NULL || c->overflow) {
        return true; /* a body nobody reads: consumed and dropped */
    }
    if (n > c->cap - c->len) {
        c->overflow = true;
        return true;
    }
    memcpy(c->body + c->len, data, n);
    c->len += n;
    return true;
}

static http_conn_t *
ctx_new(http_t *h,
        struct MHD_Connection *conn,
        const char *url,
        const char *method,
        const char *version)
{
    http_conn_t *c = calloc(1, sizeof(*c));
    const char *rid;

    if (c == NULL) {
        return NULL;
    }
    c->http = h;
    c->conn = conn;
    c->start_ns = mono_ns();
    c->route = route_of(target_path(url));
    c->method = method_of(method, &c->method_label);
    copy_text(c->method_text, sizeof(c->method_text), method);
    copy_text(c->version, sizeof(c->version), version);
    copy_text(c->path, sizeof(c->path), url);
    c->url_len = strlen(url);
    c->entry = http_conns_entry(conn);
    rid = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Request-Id");
    if (sane_request_id(rid)) {
        copy_text(c->request_id, sizeof(c->request_id), rid);
    } else {
        new_request_id(c->request_id);
    }
    return c;
}

static enum MHD_Result
on_request(void *cls,
           struct MHD_Connection *conn,
           const char *url,
           const char *method,
           const char *version,
           const char *upload_data,
           size_t *upload_data_size,
           void **con_cls)
{
    http_conn_t *c = *con_cls;
    enum MHD_Result ret;

    if (c == NULL) {
        c = ctx_new(cls, conn, url, method, version);
        if (c == NULL) {
            return MHD_NO;
        }
        *con_cls = c;
        return on_headers(c);
    }
    if (*upload_data_size > 0) {
        bool keep = on_upload(c, upload_data, *upload_data_size);

        *upload_data_size = 0;
        return keep ? MHD_YES : MHD_NO;
    }
    if (c->phase == HTTP_PH_HEADERS && c->body_pending) {
        c->body_pending = false;
        http_conns_body_done(c->http->conns, c->entry);
    }
    switch (c->phase) {
    case HTTP_PH_ANSWERED:
        return MHD_YES;
    case HTTP_PH_WAITING:
        /* Resumed: the job ended, the wait ran out, or the server is
         * draining. Answer with the job as it is now. */
        return http__send_job(c, c->is_solve ? 202 : 200);
    default:
        if (route_check(c, &ret)) {
            return ret;
        }
        return http__dispatch(c, target_path(url));
    }
}

static void
on_completed(void *cls,
             struct MHD_Connection *conn,
             void **con_cls,
             enum MHD_RequestTerminationCode toe)
{
    http_t *h = cls;
    http_conn_t *c = *con_cls;
    double secs;
    log_line_t ev;

    (void)conn;
    if (c == NULL) {
        return;
    }
    *con_cls = NULL;
    if (c->waiter.waiting) {
        jobs_unwait(h->deps.jobs, &c->waiter);
    }
    http_conns_idle(h->conns, c->entry);
    secs = (double)(mono_ns() - c->start_ns) / 1e9;
    if (c->status != 0) {
        metrics_observe(h->deps.metrics,
                        c->route != NULL ? c->route->path : "other",
                        c->method_label, c->status, secs);
    }
    /* The one line every request writes: built without cJSON. */
    log_line_begin(&ev, LOG_INFO, "request");
    log_line_str(&ev, "request_id", c->request_id);
    log_line_str(&ev, "method", c->method_text);
    log_line_str(&ev, "path", c->path);
    log_line_num(&ev, "status", c->status);
    log_line_num(&ev, "duration_ms", (double)(int64_t)(secs * 1e6) / 1e3);
    if (c->code != NULL) {
        log_line_str(&ev, "code", c->code);
    }
    if (c->job != NULL) {
        log_line_str(&ev, "job_id", jobs_id(c->job));
    }
    if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK) {
        log_line_num(&ev, "termination", (double)toe);
    }
    log_line_end(&ev);
    jobs_release(h->deps.jobs, c->job);
    free(c->body);
    free(c);
}

static void
mhd_log(void *cls, const char *fmt, va_list ap)
{
    char text[256];
    size_t n;
    log_line_t ev;

    (void)cls;
    vsnprintf(text, sizeof(text), fmt, ap);
    n = strlen(text);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r')) {
        text[--n] = '\0';
    }
    log_line_begin(&ev, LOG_WARN, "libmicrohttpd");
    log_line_str(&ev, "detail", text);
    log_line_end(&ev);
}

int
http_start(const http_deps_t *deps, http_t **out, int *port)
{
    const config_t *cfg = deps->cfg;
    const http_conns_cfg_t ccfg = {
        .limit = cfg->connection_limit,
        .reserve = HTTP_CONN_RESERVE,
        .head_ms = (int64_t)cfg->client_timeout_s * 1000,
        .body_ms = (int64_t)cfg->client_timeout_s * 1000,
        .grace_ms = HTTP_CONN_GRACE_MS,
    };
    /* poll, not epoll: MHD 0.9.75's epoll loop waits again with the full
     * timeout after a batch of 128 ready connections, leaving them
     * unserved (docs/http-performance.md). */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
                     MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC |
                     MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
    /* Connections the registry has closed stay MHD's until its thread
     * sees them go: room for them past the places. */
    unsigned mhd_limit =
        (unsigned)(2 * cfg->connection_limit + HTTP_CONN_RESERVE);
    http_t *h;
    int fd;
    int rc;

    *out = NULL;
    h = calloc(1, sizeof(*h));
    if (h == NULL) {
        return PZ_ENOMEM;
    }
    h->deps = *deps;
    rc = http_conns_listen(cfg->bind, cfg->port, &fd, port);
    if (rc != PZ_OK) {
        free(h); /* keeps errno */
        return rc;
    }
    rc = http_conns_new(&ccfg, fd, &h->conns);
    if (rc != PZ_OK) {
        close(fd);
        free(h);
        return rc;
    }
    h->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, h,
        /* The logger first, so that MHD's messages about the other
         * options already go through it. */
        MHD_OPTION_EXTERNAL_LOGGER, mhd_log, h, MHD_OPTION_THREAD_POOL_SIZE,
        (unsigned)cfg->http_threads, MHD_OPTION_CONNECTION_LIMIT, mhd_limit,
        /* Suspended connections do not time out: their waits have their
         * own deadlines. */
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->client_timeout_s,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, HTTP_CONN_MEMORY,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
        MHD_OPTION_NOTIFY_CONNECTION, http_conns_notify, h->conns,
        MHD_OPTION_UNESCAPE_CALLBACK, http__unescape, NULL, MHD_OPTION_END);
    if (h->daemon == NULL || http_conns_start(h->conns, h->daemon) != PZ_OK) {
        if (h->daemon != NULL) {
            MHD_stop_daemon(h->daemon);
        }
        http_conns_free(h->conns);
        free(h);
        return PZ_EIO;
    }
    *out = h;
    return PZ_OK;
}

void
http_quiesce(http_t *h)
{
    /* New clients are refused at once, and retry elsewhere; open
     * connections are still served. */
    http_conns_quiesce(h->conns);
}

bool
http_drain(http_t *h, int64_t timeout_ms)
{
    int64_t until = jobs_now_ms() + timeout_ms;

    for (;;) {
        const union MHD_DaemonInfo *info =
            MHD_get_daemon_info(h->daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);

        if (info == NULL || info->num_connections == 0) {
            return true;
        }
        if (jobs_now_ms() >= until) {
            return false;
        }
        nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
    }
}

void
http_stop(http_t *h)
{
    if (h == NULL) {
        return;
    }
    http_conns_quiesce(h->conns);
    MHD_stop_daemon(h->daemon);
    http_conns_free(h->conns);
    free(h);
}
