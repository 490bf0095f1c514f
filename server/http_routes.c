/* SPDX-License-Identifier: MIT */
/* http_routes.c - the route handlers: solve, jobs and their event
 * streams, scrambles, catalogue, pictures, the playground's files, health,
 * readiness, metrics and the OpenAPI document. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "http_internal.h"
#include "render.h"
#include "rng.h"
#include "scramble.h"
#include "tablelist.h"
#include "version.h"
#include "web.h"

/* GET /v1/jobs page sizes. */
#define HTTP_LIST_DEFAULT 20
#define HTTP_LIST_MAX     100

static enum MHD_Result send_submit_error(http_conn_t *c, int rc);

/* True when the client asks for NDJSON (Accept: application/x-ndjson). */
static bool
wants_ndjson(http_conn_t *c)
{
    const char *a = MHD_lookup_connection_value(c->conn, MHD_HEADER_KIND,
                                                MHD_HTTP_HEADER_ACCEPT);

    return a != NULL && strstr(a, "application/x-ndjson") != NULL;
}
static enum MHD_Result
send_parse_error(http_conn_t *c, int rc, const pz_diag_t *d);

static enum MHD_Result
handle_solve_any(http_conn_t *c, bool batch)
{
    http_t *h = c->http;
    api_solve_request_t req;
    job_t *job = NULL;
    pz_diag_t d;
    int64_t wait_ms;
    int rc;

    pz_diag_clear(&d);
    if (c->overflow) {
        return http__send_problem(c, PZ_ETOO_LARGE,
                                  c->chunked ? "the body is longer than %d "
                                               "bytes"
                                             : "the body is longer than its "
                                               "Content-Length or than %d "
                                               "bytes",
                                  batch ? API_BATCH_BODY_MAX : API_BODY_MAX);
    }
    rc = api_solve_parse_text(c->body != NULL ? c->body : "", c->len,
                              &h->deps.cfg->policy, &req, &d);
    if (rc != PZ_OK) {
        return send_parse_error(c, rc, &d);
    }
    if ((req.batch != NULL) != batch) {
        api_solve_cleanup(&req);
        pz_diag_set(&d, batch ? PZ_EMISSING : PZ_EUNKNOWN_FIELD,
                    batch ? "a batch gives its scrambles or states in 'items'"
                          : "'items' makes a batch: POST it to "
                            "/v1/solve/batch");
        pz_diag_field(&d, "/items");
        return send_parse_error(c, d.rc, &d);
    }
    wait_ms = req.wait_ms;
    /* A job that only walks down a loaded table ends in microseconds:
     * running it here saves two thread hand-offs and a suspend/resume,
     * which cost far more (docs/http-performance.md). A request with
     * wait_ms 0 asked for the queued job, so it is queued. */
    rc = jobs_submit(h->deps.jobs, &req, wait_ms > 0 ? JOBS_RUN_HERE : 0, &job);
    if (rc != PZ_OK) {
        return send_submit_error(c, rc);
    }
    c->job = job;
    c->is_solve = true;
    if (batch && wants_ndjson(c)) {
        return http__send_ndjson(c, 200);
    }
    if (wait_ms > 0 && !jobs_ended(job) && http__start_wait(c, wait_ms)) {
        return MHD_YES;
    }
    return http__send_job(c, 202);
}

static enum MHD_Result
handle_solve(http_conn_t *c, const char *url)
{
    (void)url;
    return handle_solve_any(c, false);
}

static enum MHD_Result
handle_solve_batch(http_conn_t *c, const char *url)
{
    (void)url;
    return handle_solve_any(c, true);
}

/* The problem of a request jobs_submit refused with rc. */
static enum MHD_Result
send_submit_error(http_conn_t *c, int rc)
{
    pz_diag_t d;

    pz_diag_clear(&d);
    if (rc == PZ_ENOMEM || rc == PZ_EIO) {
        return http__send_problem(c, rc, "could not create a job");
    }
    if (rc == PZ_EBACKEND) {
        return http__send_backend_down(c);
    }
    pz_diag_set(&d, rc,
                rc == PZ_EQUEUE_FULL
                    ? "the job queue is full; retry after a second"
                : rc == PZ_ERESULTS_FULL
                    ? "the results of accepted jobs that nobody has fetched "
                      "yet fill the job table (--max-jobs); retry after a "
                      "second"
                : rc == PZ_EMEMORY_CAP
                    ? "the memory budgets of queued and running jobs would "
                      "pass the server's cap; retry later or ask for less "
                      "memory_mb"
                    : "the server is shutting down; retry on another "
                      "instance");
    return http__send_problem_d(c, rc, &d, rc == PZ_EDRAINING ? NULL : "1",
                                NULL);
}

/* The problem of a request that did not parse: a table on its way may be
 * asked for again shortly; one not built, after an operator builds it. */
static enum MHD_Result
send_parse_error(http_conn_t *c, int rc, const pz_diag_t *d)
{
    return http__send_problem_d(c, rc, d,
                                rc == PZ_ETABLE_NOT_READY ? "5"
                                : rc == PZ_ETABLE_MISSING ? "60"
                                                          : NULL,
                                NULL);
}

/* A seed for a scramble that names none. */
static uint64_t
fresh_seed(void)
{
    uint64_t seed = 0;

    if (rng_bytes(&seed, sizeof(seed)) != PZ_OK) {
        seed = (uint64_t)jobs_now_ms() * UINT64_C(0x9E3779B97F4A7C15);
    }
    return seed;
}

static enum MHD_Result
handle_scramble(http_conn_t *c, const char *url)
{
    const api_policy_t *pol = &c->http->deps.cfg->policy;
    const api_scramble_query_t q = {
        .puzzle = http__query(c, "puzzle"),
        .size = http__query(c, "size"),
        .metric = http__query(c, "metric"),
        .moves = http__query(c, "moves"),
        .seed = http__query(c, "seed"),
    };
    api_solve_request_t req;
    api_scramble_t *s;
    pz_diag_t d;
    int rc;

    (void)url;
    s = c->scramble = malloc(sizeof(*s));
    if (s == NULL) {
        return http__send_problem(c, PZ_ENOMEM, "out of memory");
    }
    rc = api_scramble_prepare(&q, pol, fresh_seed(), s, &d);
    if (rc != PZ_OK) {
        return http__send_problem_d(c, rc, &d, NULL, NULL);
    }
    if (s->done) {
        return http__send_scramble(c);
    }
    /* A random state is solved by an ordinary job, under the server's
     * limits and admission, and waited for here. */
    rc = api_solve_parse_text(s->request, s->request_len, pol, &req, &d);
    if (rc != PZ_OK) {
        return send_parse_error(c, rc, &d);
    }
    rc = jobs_submit(c->http->deps.jobs, &req, JOBS_RUN_HERE, &c->job);
    if (rc != PZ_OK) {
        return send_submit_error(c, rc);
    }
    if (!jobs_ended(c->job) &&
        http__start_wait(c, API_SCRAMBLE_TIME_MS + HTTP_SCRAMBLE_SLACK_MS)) {
        return MHD_YES;
    }
    return http__send_scramble(c);
}

/* The job named by the path, referenced in c->job; answers 404 when there
 * is none (returns false then). */
static bool
find_job(http_conn_t *c, const char *url, enum MHD_Result *ret)
{
    const char *start = url + strlen(HTTP_JOB_PREFIX);
    size_t n = strcspn(start, "/");
    char id[80];
    int rc;

    /* An id longer than any job's matches none. */
    snprintf(id, sizeof(id), "%.*s", (int)(n < sizeof(id) ? n : 0), start);
    rc = jobs_lookup(c->http->deps.jobs, id, &c->job);

    if (rc == PZ_EBACKEND) {
        *ret = http__send_backend_down(c);
        return false;
    }
    if (rc != PZ_OK) {
        *ret = http__send_problem(c, PZ_EJOB_NOT_FOUND,
                                  "no job with this id; jobs are kept for a "
                                  "limited time after they end");
        return false;
    }
    return true;
}

static enum MHD_Result
handle_get_job(http_conn_t *c, const char *url)
{
    const char *w = http__query(c, "wait_ms");
    int64_t wait_ms = 0;
    int64_t max_wait = c->http->deps.cfg->policy.max_wait_ms;
    enum MHD_Result ret;

    if (w != NULL && !http__parse_count(w, &wait_ms)) {
        return http__send_problem(
            c, PZ_ERANGE,
            "query parameter wait_ms must be a non-negative "
            "integer (milliseconds)");
    }
    if (!find_job(c, url, &ret)) {
        return ret;
    }
    if (max_wait > 0 && wait_ms > max_wait) {
        wait_ms = max_wait;
    }
    if (wait_ms > 0 && http__start_wait(c, wait_ms)) {
        return MHD_YES;
    }
    return http__send_job(c, 200);
}

static enum MHD_Result
handle_events(http_conn_t *c, const char *url)
{
    enum MHD_Result ret;

    if (!find_job(c, url, &ret)) {
        return ret;
    }
    return http__send_events(c);
}

static enum MHD_Result
handle_delete_job(http_conn_t *c, const char *url)
{
    enum MHD_Result ret;
    jsonout_t before;
    bool ended;

    if (!find_job(c, url, &ret)) {
        return ret;
    }
    /* 202 shows the job as the request found it (openapi.yaml); a job
     * that had already ended is unchanged, so 200 shows it as it is. */
    jsonout_init(&before);
    jobs_write(&before, NULL, c->job);
    if (jobs_cancel(c->http->deps.jobs, c->job, &ended) != PZ_OK) {
        size_t len;

        free(jsonout_finish(&before, &len));
        return http__send_backend_down(c);
    }
    if (ended) {
        jsonout_t after;
        size_t len;

        free(jsonout_finish(&before, &len));
        jsonout_init(&after);
        jobs_write(&after, NULL, c->job);
        return http__send_text(c, 200, &after);
    }
    return http__send_text(c, 202, &before);
}

static enum MHD_Result
handle_list(http_conn_t *c, const char *url)
{
    const char *ls = http__query(c, "limit");
    const char *os = http__query(c, "offset");
    int64_t limit = HTTP_LIST_DEFAULT;
    int64_t offset = 0;
    job_t *page[HTTP_LIST_MAX];
    size_t total = 0;
    size_t n = 0;
    jsonout_t w;

    (void)url;
    if (ls != NULL && (!http__parse_count(ls, &limit) || limit < 1 ||
                       limit > HTTP_LIST_MAX)) {
        return http__send_problem(
            c, PZ_ERANGE,
            "query parameter limit must be an integer from "
            "1 to %d",
            HTTP_LIST_MAX);
    }
    if (os != NULL && !http__parse_count(os, &offset)) {
        return http__send_problem(
            c, PZ_ERANGE,
            "query parameter offset must be a non-negative "
            "integer");
    }
    if (jobs_list(c->http->deps.jobs, (size_t)offset, (size_t)limit, page, &n,
                  &total) == PZ_EBACKEND) {
        return http__send_backend_down(c);
    }
    jsonout_init(&w);
    jsonout_begin(&w, NULL, '{');
    jsonout_begin(&w, "jobs", '[');
    for (size_t i = 0; i < n; i++) {
        jobs_write(&w, NULL, page[i]);
        jobs_release(c->http->deps.jobs, page[i]);
    }
    jsonout_end(&w, ']');
    jsonout_u64(&w, "total", (uint64_t)total);
    jsonout_u64(&w, "limit", (uint64_t)limit);
    jsonout_u64(&w, "offset", (uint64_t)offset);
    if ((size_t)offset + n < total) {
        char next[80];

        snprintf(next, sizeof(next),
                 "/v1/jobs?limit=%" PRId64 "&offset=%" PRId64, limit,
                 offset + (int64_t)n);
        jsonout_string(&w, "next", next);
    } else {
        jsonout_null(&w, "next");
    }
    jsonout_end(&w, '}');
    return http__send_text(c, 200, &w);
}

/* The startup tables not ready yet, as a readiness body shows them. */
static void
add_warming_tables(jsonout_t *w)
{
    tables_status_t all[TABLES_LIST_MAX];
    int n = tables_status_list(all, TABLES_LIST_MAX);

    jsonout_begin(w, "tables", '[');
    for (int i = 0; i < n && i < TABLES_LIST_MAX; i++) {
        const tables_status_t *st = &all[i];

        if (!st->startup || st->state == TABLES_READY) {
            continue;
        }
        jsonout_begin(w, NULL, '{');
        jsonout_string(w, "name", st->name);
        jsonout_string(w, "state", tables_state_name(st->state));
        if (st->total > 0) {
            jsonout_double(
                w, "fraction",
                (double)(int)((double)st->done / (double)st->total * 1000) /
                    1000);
        }
        jsonout_end(w, '}');
    }
    jsonout_end(w, ']');
}

static enum MHD_Result
handle_tables(http_conn_t *c, const char *url)
{
    http_reply_t rep = { 0 };

    (void)url;
    rep.body = api_tables_text(&rep.len);
    if (rep.body == NULL) {
        return http__send_problem(c, PZ_ENOMEM, "could not list the tables");
    }
    rep.status = 200;
    rep.ctype = HTTP_CTYPE_JSON;
    rep.free_fn = free;
    return http__send_reply(c, &rep);
}

static enum MHD_Result
handle_readyz(http_conn_t *c, const char *url)
{
    jobs_stats_t st;
    const char *reason = NULL;
    jsonout_t w;

    (void)url;
    jobs_get_stats(c->http->deps.jobs, &st);
    if (st.draining) {
        reason = "draining";
    } else if (!st.backend_ready) {
        reason = "backend_unavailable";
    } else if (st.queued >= st.queue_cap) {
        reason = "queue_full";
    } else if (st.memory_in_use +
                   c->http->deps.cfg->policy.default_memory_bytes >
               st.memory_cap) {
        reason = "memory_cap";
    } else if (c->http->deps.tables_ready != NULL &&
               !c->http->deps.tables_ready(c->http->deps.tables_ready_arg)) {
        reason = "warming";
    }
    jsonout_init(&w);
    jsonout_begin(&w, NULL, '{');
    jsonout_string(&w, "status", reason ? "not_ready" : "ready");
    if (reason != NULL) {
        jsonout_string(&w, "reason", reason);
    }
    if (reason != NULL && strcmp(reason, "warming") == 0) {
        add_warming_tables(&w);
    }
    jsonout_end(&w, '}');
    return http__send_text(c, reason ? 503 : 200, &w);
}

static enum MHD_Result
handle_metrics(http_conn_t *c, const char *url)
{
    http_reply_t rep = { 0 };
    http_t *h = c->http;
    http_conns_stats_t conns;

    (void)url;
    http_conns_stats(h->conns, &conns);
    rep.body = metrics_render(h->deps.metrics, h->deps.jobs, &conns,
                              pz_version(), &rep.len);
    if (rep.body == NULL) {
        return http__send_problem(c, PZ_ENOMEM, "could not render the metrics");
    }
    rep.status = 200;
    rep.ctype = "text/plain; version=0.0.4; charset=utf-8";
    rep.free_fn = free;
    return http__send_reply(c, &rep);
}

static enum MHD_Result
handle_job(http_conn_t *c, const char *url)
{
    return c->method == HTTP_M_DELETE ? handle_delete_job(c, url)
                                      : handle_get_job(c, url);
}

static enum MHD_Result
handle_puzzles(http_conn_t *c, const char *url)
{
    http_reply_t rep = { 0 };

    (void)url;
    rep.status = 200;
    rep.ctype = HTTP_CTYPE_JSON;
    rep.body = (char *)c->http->deps.catalogue;
    rep.len = c->http->deps.catalogue_len;
    rep.persistent = true;
    return http__send_reply(c, &rep);
}

/* GET /v1/render: a picture of a state as SVG. It depends only on the
 * query, so it may be cached. */
static enum MHD_Result
handle_render(http_conn_t *c, const char *url)
{
    api_render_query_t q = {
        .puzzle = http__query(c, "puzzle"),
        .size = http__query(c, "size"),
        .state = http__query(c, "state"),
        .scramble = http__query(c, "scramble"),
        .px = http__query(c, "px"),
    };
    api_render_request_t req;
    http_reply_t rep = { 0 };
    pz_diag_t d;
    int rc;

    (void)url;
    rc = api_render_parse(&q, &req, &d);
    if (rc != PZ_OK) {
        return http__send_problem_d(c, rc, &d, NULL, NULL);
    }
    rc = api_render_svg(req.puzzle, &req.state, req.px, &rep.body, &rep.len);
    api_render_cleanup(&req);
    if (rc != PZ_OK) {
        return http__send_problem(c, rc, "could not draw the picture");
    }
    rep.status = 200;
    rep.ctype = "image/svg+xml; charset=utf-8";
    rep.free_fn = free;
    return http__send_reply(c, &rep);
}

static enum MHD_Result
handle_healthz(http_conn_t *c, const char *url)
{
    (void)url;
    return http__send_static(c, 200, HTTP_CTYPE_JSON, "{\"status\":\"ok\"}");
}

static enum MHD_Result
handle_openapi(http_conn_t *c, const char *url)
{
    http_reply_t rep = { 0 };

    (void)url;
    rep.status = 200;
    rep.ctype = "application/yaml";
    rep.body = (char *)c->http->deps.openapi;
    rep.len = c->http->deps.openapi_len;
    rep.persistent = true;
    return http__send_reply(c, &rep);
}

/* What a page may load: its own files and the API, nothing from
 * elsewhere. Inline styles are allowed for the renderers that set them
 * (Redoc, the 3D player); scripts only from files. */
#define HTTP_WEB_CSP                                                         \
    "default-src 'self'; script-src 'self'; style-src 'self' "               \
    "'unsafe-inline'; img-src 'self' data: blob:; worker-src 'self' blob:; " \
    "connect-src 'self'; font-src 'self' data:; object-src 'none'; "         \
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

/* Answered at / and /docs when the daemon has no page to serve. */
static const char no_page[] =
    "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<title>puzzled</title></head><body>\n"
    "<h1>puzzled</h1>\n"
    "<p>The API is up: <a href=\"/v1/puzzles\">/v1/puzzles</a>, "
    "<a href=\"/openapi.yaml\">/openapi.yaml</a>.</p>\n"
    "<p>This build has no playground page. It is built when Node.js and npm "
    "are installed (<code>apt-get install nodejs npm</code>): "
    "<code>./scripts/run</code> does it, or <code>cmake --build build "
    "--target web</code>; a daemon finds it beside its binary, or takes "
    "<code>--web DIR</code>.</p>\n</body></html>\n";

/* Sends f (NULL: the page that says how to get one) with the headers of
 * static files. */
static enum MHD_Result
send_web_file(http_conn_t *c, const web_file_t *f)
{
    http_reply_t rep = { 0 };
    struct MHD_Response *r;

    rep.status = 200;
    rep.ctype = f != NULL ? f->ctype : "text/html; charset=utf-8";
    r = MHD_create_response_from_buffer(
        f != NULL ? f->len : sizeof(no_page) - 1,
        f != NULL ? f->data : (char *)no_page, MHD_RESPMEM_PERSISTENT);
    if (r == NULL) {
        return MHD_NO;
    }
    /* Hashed assets never change; a page is checked again each time so a
     * new build shows at once. */
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL,
                            f != NULL && f->immutable
                                ? "public, max-age=31536000, immutable"
                                : "no-cache");
    MHD_add_response_header(r, "Content-Security-Policy", HTTP_WEB_CSP);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    return http__queue_response(c, r, &rep);
}

static enum MHD_Result
handle_page(http_conn_t *c, const char *url)
{
    const web_file_t *f = web_find(c->http->deps.web, url);

    /* Without a reference page, /docs shows the index (or the note). */
    if (f == NULL && c->http->deps.web != NULL) {
        f = web_find(c->http->deps.web, "/");
    }
    return send_web_file(c, f);
}

static enum MHD_Result
handle_asset(http_conn_t *c, const char *url)
{
    const web_file_t *f = web_find(c->http->deps.web, url);

    if (f == NULL) {
        return http__send_problem(c, PZ_ENOT_FOUND, "no such file");
    }
    return send_web_file(c, f);
}

#define GET_HEAD       (HTTP_M_GET | HTTP_M_HEAD)
#define GET_HEAD_ALLOW "GET, HEAD, OPTIONS"

static const http_route_t routes[] = {
    { "/solve", HTTP_M_POST, "POST, OPTIONS", HTTP_ROUTE_SOLVE, handle_solve,
      NULL },
    { "/v1/solve", HTTP_M_POST, "POST, OPTIONS", HTTP_ROUTE_SOLVE, handle_solve,
      NULL },
    { "/v1/solve/batch", HTTP_M_POST, "POST, OPTIONS",
      HTTP_ROUTE_SOLVE | HTTP_ROUTE_BATCH, handle_solve_batch, NULL },
    { "/v1/jobs", GET_HEAD, GET_HEAD_ALLOW, 0, handle_list, NULL },
    { HTTP_JOB_PREFIX, HTTP_M_GET, "GET, OPTIONS",
      HTTP_ROUTE_ID | HTTP_ROUTE_EVENTS, handle_events,
      "/v1/jobs/{id}/events" },
    { HTTP_JOB_PREFIX, GET_HEAD | HTTP_M_DELETE, "GET, HEAD, DELETE, OPTIONS",
      HTTP_ROUTE_ID, handle_job, "/v1/jobs/{id}" },
    { "/v1/puzzles", GET_HEAD, GET_HEAD_ALLOW, 0, handle_puzzles, NULL },
    { "/v1/render", GET_HEAD, GET_HEAD_ALLOW, HTTP_ROUTE_CACHEABLE,
      handle_render, NULL },
    { "/healthz", GET_HEAD, GET_HEAD_ALLOW, HTTP_ROUTE_PROBE, handle_healthz,
      NULL },
    { "/readyz", GET_HEAD, GET_HEAD_ALLOW, HTTP_ROUTE_PROBE, handle_readyz,
      NULL },
    { "/metrics", GET_HEAD, GET_HEAD_ALLOW, HTTP_ROUTE_PROBE, handle_metrics,
      NULL },
    { "/openapi.yaml", GET_HEAD, GET_HEAD_ALLOW, HTTP_ROUTE_CACHEABLE,
      handle_openapi, NULL },
    { "/v1/tables", GET_HEAD, GET_HEAD_ALLOW, 0, handle_tables, NULL },
    { "/v1/scramble", GET_HEAD, GET_HEAD_ALLOW, 0, handle_scramble, NULL },
    { "/", GET_HEAD, GET_HEAD_ALLOW, HTTP_ROUTE_CACHEABLE, handle_page, NULL },
    { "/docs", GET_HEAD, GET_HEAD_ALLOW, HTTP_ROUTE_CACHEABLE, handle_page,
      NULL },
    { "/assets/", GET_HEAD, GET_HEAD_ALLOW,
      HTTP_ROUTE_ID | HTTP_ROUTE_CACHEABLE, handle_asset, "/assets/{file}" },
    { NULL, 0, NULL, 0, NULL, NULL },
};

const http_route_t *
http__route_of(const char *url)
{
    for (const http_route_t *r = routes; r->path != NULL; r++) {
        if ((r->flags & HTTP_ROUTE_ID) != 0) {
            size_t n = strlen(r->path);
            const char *end;

            if (strncmp(url, r->path, n) != 0 || url[n] == '\0' ||
                url[n] == '/') {
                continue;
            }
            end = strchr(url + n, '/');
            if ((r->flags & HTTP_ROUTE_EVENTS) != 0
                    ? end != NULL && strcmp(end, "/events") == 0
                    : end == NULL) {
                return r;
            }
        } else if (strcmp(url, r->path) == 0) {
            return r;
        }
    }
    return NULL;
}

/* The last handler call of a request: everything has been read. */
enum MHD_Result
http__dispatch(http_conn_t *c, const char *url)
{
    return c->route->handle(c, url);
}
