/* SPDX-License-Identifier: MIT */
/* http_events.c - GET /v1/jobs/{id}/events: a job's progress as
 * Server-Sent Events; and POST /v1/solve/batch's results as NDJSON, one
 * line per item as it ends, read the same way.
 *
 * The reply is a stream MHD reads from events_read. After each event the
 * reader registers the connection as a waiter of the job, with a deadline
 * HTTP_EVENTS_TICK_MS away, and suspends it; the job's end or the deadline
 * sweep resumes it, and the next call writes the job as it is then. A
 * suspended stream costs no thread, and the job's end reaches it at once.
 * A client that goes away is noticed at the next write, so a stream never
 * outlives its job by more than a tick. */
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "batch.h"
#include "http_internal.h"
#include "jsonout.h"

/* The stream's state, beside the connection's. */
typedef struct http_events {
    char *buf; /* the event being sent */
    size_t len;
    size_t off;
    bool waited;   /* the tick after the last event is over */
    bool finished; /* the last event is in buf */
    bool ndjson;   /* a batch's item results, one line each */
    int next_item; /* ndjson: the first item not sent yet */
} http_events_t;

/* Puts the batch results that ended since the last call in e->buf, one
 * line each; the stream ends with the batch. */
static bool
next_lines(http_conn_t *c, http_events_t *e)
{
    jsonout_t w;
    size_t len;
    char *json;
    bool ended;
    char *lines;

    (void)jobs_refresh(c->http->deps.jobs, &c->job);
    jsonout_init(&w);
    ended = pz_status_terminal(jobs_write(&w, NULL, c->job));
    json = jsonout_finish(&w, &len);
    if (json == NULL) {
        return false;
    }
    lines = api_batch_lines_json(json, e->next_item, &e->next_item, &len);
    free(json);
    if (lines == NULL) {
        return false;
    }
    free(e->buf);
    e->buf = lines;
    e->len = len;
    e->off = 0;
    if (ended) {
        jobs_delivered(c->http->deps.jobs, c->job);
    }
    e->finished = ended || http__draining(c);
    return true;
}

/* Puts the next event in e->buf: the job as it is now, named "end" once
 * it has ended. While the server drains, the stream ends after this
 * event; the client reconnects to another instance. */
static bool
next_event(http_conn_t *c, http_events_t *e)
{
    jsonout_t w;

    if (e->ndjson) {
        return next_lines(c, e);
    }
    size_t len;
    char *json;
    bool ended;
    char *buf;
    size_t cap;
    int n;

    /* A store's snapshot is looked up again; a store that cannot be
     * reached leaves the last one, and the next tick tries again. */
    (void)jobs_refresh(c->http->deps.jobs, &c->job);
    jsonout_init(&w);
    ended = pz_status_terminal(jobs_write(&w, NULL, c->job));
    json = jsonout_finish(&w, &len);
    if (json == NULL) {
        return false;
    }
    cap = len + 32;
    buf = malloc(cap);
    if (buf == NULL) {
        free(json);
        return false;
    }
    n = snprintf(buf, cap, "event: %s\ndata: %s\n\n", ended ? "end" : "job",
                 json);
    free(json);
    free(e->buf);
    e->buf = buf;
    e->len = (size_t)n;
    e->off = 0;
    if (ended) {
        jobs_delivered(c->http->deps.jobs, c->job);
    }
    e->finished = ended || http__draining(c);
    return true;
}

static ssize_t
events_read(void *cls, uint64_t pos, char *out, size_t max)
{
    http_conn_t *c = cls;
    http_events_t *e = c->events;
    size_t n;

    (void)pos;
    if (e->off == e->len) {
        if (e->finished) {
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        if (!e->waited) {
            e->waited = true;
            if (http__wait_job(c, HTTP_EVENTS_TICK_MS)) {
                return 0; /* suspended: MHD calls again once resumed */
            }
        }
        e->waited = false;
        if (!next_event(c, e)) {
            return MHD_CONTENT_READER_END_WITH_ERROR;
        }
    }
    n = e->len - e->off < max ? e->len - e->off : max;
    memcpy(out, e->buf + e->off, n);
    e->off += n;
    return (ssize_t)n;
}

enum MHD_Result
http__send_events(http_conn_t *c)
{
    http_reply_t rep = { 0 };
    struct MHD_Response *r;

    c->events = calloc(1, sizeof(*c->events));
    if (c->events == NULL || !next_event(c, c->events)) {
        return http__send_problem(c, PZ_ENOMEM, "out of memory");
    }
    /* The first event goes out at once; the reader waits after it. */
    r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, events_read,
                                          c, NULL);
    if (r == NULL) {
        return MHD_NO;
    }
    /* Proxies that buffer replies (nginx) pass this one through. */
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    rep.status = 200;
    rep.ctype = "text/event-stream; charset=utf-8";
    return http__queue_response(c, r, &rep);
}

enum MHD_Result
http__send_ndjson(http_conn_t *c, int status)
{
    http_reply_t rep = { 0 };
    struct MHD_Response *r;
    char location[64];

    c->events = calloc(1, sizeof(*c->events));
    if (c->events == NULL) {
        return http__send_problem(c, PZ_ENOMEM, "out of memory");
    }
    c->events->ndjson = true;
    if (!next_event(c, c->events)) {
        return http__send_problem(c, PZ_ENOMEM, "out of memory");
    }
    r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, events_read,
                                          c, NULL);
    if (r == NULL) {
        return MHD_NO;
    }
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    snprintf(location, sizeof(location), "/v1/jobs/%s", jobs_id(c->job));
    rep.location = location;
    rep.status = status;
    rep.ctype = "application/x-ndjson";
    return http__queue_response(c, r, &rep);
}

void
http__events_free(http_conn_t *c)
{
    if (c->events != NULL) {
        free(c->events->buf);
        free(c->events);
        c->events = NULL;
    }
}
