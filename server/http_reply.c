/* SPDX-License-Identifier: MIT */
/* http_reply.c - replies with the headers every one carries (problems,
 * JSON, jobs), and the waits of a request for its job. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "http_internal.h"
#include "jsonout.h"
#include "problem.h"
#include "scramble.h"

bool
http__draining(const http_conn_t *c)
{
    return jobs_draining(c->http->deps.jobs);
}

/* --- replies --- */

void
http__add_header(struct MHD_Response *r, const char *name, const char *value)
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
    return http__queue_response(c, r, rep);
}

enum MHD_Result
http__queue_response(http_conn_t *c,
                     struct MHD_Response *r,
                     const http_reply_t *rep)
{
    enum MHD_Result ok;

    http__add_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, rep->ctype);
    http__add_header(r, "X-Request-Id", c->request_id);
    http__add_header(r, MHD_HTTP_HEADER_LOCATION, rep->location);
    http__add_header(r, MHD_HTTP_HEADER_RETRY_AFTER, rep->retry_after);
    http__add_header(r, MHD_HTTP_HEADER_ALLOW, rep->allow);
    if (c->route == NULL || (c->route->flags & HTTP_ROUTE_CACHEABLE) == 0) {
        http__add_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    }
    if (c->origin != NULL) {
        http__add_header(r, "Access-Control-Allow-Origin", c->origin);
        http__add_header(r, "Access-Control-Expose-Headers",
                         "Location, Retry-After, X-Request-Id");
    }
    if (c->http->deps.cfg->ncors > 0) {
        http__add_header(r, "Vary", "Origin");
    }
    if (http__draining(c) || c->close) {
        /* Let keep-alive clients go so the drain finishes; after framing
         * this server may have read otherwise than the client meant, the
         * connection cannot carry another request. */
        http__add_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
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

enum MHD_Result
http__send_backend_down(http_conn_t *c)
{
    pz_diag_t d;

    pz_diag_clear(&d);
    pz_diag_set(&d, PZ_EBACKEND,
                "the job store (Redis) cannot be reached; retry shortly");
    return http__send_problem_d(c, PZ_EBACKEND, &d, "1", NULL);
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

enum MHD_Result
http__send_scramble(http_conn_t *c)
{
    api_scramble_t *s = c->scramble;
    jsonout_t w;
    pz_diag_t d;
    size_t len;
    char *text;
    int rc;

    if (!s->done) {
        bool ended;

        jsonout_init(&w);
        ended = pz_status_terminal(jobs_write(&w, NULL, c->job));
        text = jsonout_finish(&w, &len);
        if (!ended || text == NULL) {
            /* The wait ran out (tables still loading, a full queue) or the
             * server drains: the job is of no use to anyone now. */
            free(text);
            (void)jobs_cancel(c->http->deps.jobs, c->job, &ended);
            pz_diag_clear(&d);
            rc = http__draining(c) ? PZ_EDRAINING : PZ_ETABLE_NOT_READY;
            pz_diag_set(&d, rc,
                        rc == PZ_EDRAINING
                            ? "the server stopped before the scramble was "
                              "made; retry on another instance"
                            : "the random state could not be solved in "
                              "time (its tables are still loading, or the "
                              "server is busy); retry shortly");
            return http__send_problem_d(c, rc, &d,
                                        rc == PZ_EDRAINING ? NULL : "5", NULL);
        }
        jobs_delivered(c->http->deps.jobs, c->job);
        rc = api_scramble_finish(s, text, len, &d);
        free(text);
        if (rc != PZ_OK) {
            return http__send_problem_d(c, rc, &d, NULL, NULL);
        }
    }
    jsonout_init(&w);
    api_scramble_write(&w, s);
    return http__send_text(c, 200, &w);
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

bool
http__wait_job(http_conn_t *c, int64_t wait_ms)
{
    c->waiter.resume = resume_conn;
    c->waiter.arg = c;
    c->waiter.deadline_ms = jobs_now_ms() + wait_ms;
    if (!jobs_wait(c->http->deps.jobs, c->job, &c->waiter, suspend_conn)) {
        return false;
    }
    loop_wake_before(c->http->deps.loop, c->waiter.deadline_ms);
    return true;
}

/* Suspends the connection until c->job ends or wait_ms pass. Returns
 * false (nothing suspended) when the job has ended or the server drains;
 * the caller answers at once then. */
bool
http__start_wait(http_conn_t *c, int64_t wait_ms)
{
    /* Set first: a resume may come as soon as the waiter is linked. */
    c->phase = HTTP_PH_WAITING;
    if (!http__wait_job(c, wait_ms)) {
        c->phase = HTTP_PH_HEADERS;
        return false;
    }
    return true;
}
