/* SPDX-License-Identifier: MIT */
/* http_internal.h - request state and reply helpers shared by http.c (the
 * daemon and request phases), http_head.c (the request head's checks),
 * http_reply.c (replies and waits) and http_routes.c (the route
 * handlers). */
#ifndef PZ_SERVER_HTTP_INTERNAL_H
#define PZ_SERVER_HTTP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <microhttpd.h>

#include "http.h"
#include "http_conns.h"
#include "jsonout.h"

enum {
    HTTP_M_GET = 1,
    HTTP_M_HEAD = 2,
    HTTP_M_POST = 4,
    HTTP_M_DELETE = 8,
    HTTP_M_OPTIONS = 16,
    HTTP_M_OTHER = 32,
};

typedef struct conn_ctx http_conn_t;

/* What a route is, beyond its path and methods. */
enum {
    HTTP_ROUTE_ID = 1,        /* the path is a prefix followed by an id */
    HTTP_ROUTE_SOLVE = 2,     /* takes a solve request (header prechecks) */
    HTTP_ROUTE_PROBE = 4,     /* a health probe: served on a reserved place */
    HTTP_ROUTE_CACHEABLE = 8, /* its reply may be cached (no "no-store") */
    HTTP_ROUTE_EVENTS = 16,   /* an id route whose path ends in "/events" */
    HTTP_ROUTE_BATCH = 32,    /* with SOLVE: a batch, up to
                                 API_BATCH_BODY_MAX bytes */
};

/* One route: where it is, what it allows, and the handler that answers
 * its requests once the whole request is read (http__dispatch). */
typedef struct route {
    const char *path;  /* exact path, or the prefix of an HTTP_ROUTE_ID one */
    unsigned methods;  /* HTTP_M_* allowed (OPTIONS always answered) */
    const char *allow; /* the Allow header */
    unsigned flags;    /* HTTP_ROUTE_* */
    enum MHD_Result (*handle)(http_conn_t *c, const char *url);
    const char *label; /* its metrics label, when not path ("/v1/jobs/{id}") */
} http_route_t;

/* The route of the path url, or NULL (http_routes.c). Thread: any. */
const http_route_t *http__route_of(const char *url);

#define HTTP_JOB_PREFIX "/v1/jobs/"

#define HTTP_CTYPE_JSON    "application/json"
#define HTTP_CTYPE_PROBLEM "application/problem+json"

struct http {
    http_deps_t deps;
    struct MHD_Daemon *daemon;
    http_conns_t *conns; /* the listening socket and the admission */
};

typedef enum phase {
    HTTP_PH_HEADERS = 0, /* first call done, reading the body */
    HTTP_PH_WAITING,     /* suspended until the job ends or the wait ends */
    HTTP_PH_ANSWERED,    /* a response is queued */
} http_phase_t;

/* Per-request state: created on the first handler call, freed in the
 * completion callback. */
typedef struct conn_ctx {
    http_t *http;
    struct MHD_Connection *conn;
    http_conn_entry_t *entry; /* the connection's place in the registry */
    uint64_t start_ns;
    const http_route_t *route; /* NULL: unknown path */
    unsigned method;           /* M_* */
    const char *method_label;  /* static, for metrics */
    char method_text[16];      /* as sent, for the log */
    char version[16];          /* "HTTP/1.1", as sent */
    char path[160];            /* as sent (truncated), for the log */
    size_t url_len;            /* the whole path's length */
    char request_id[65];
    const char *origin; /* allowed Origin to echo, or NULL */
    http_phase_t phase;
    bool overflow;     /* body longer than announced/allowed */
    bool chunked;      /* the body comes in chunks (no Content-Length) */
    size_t received;   /* chunked: bytes taken so far */
    bool close;        /* answer with Connection: close (bad framing) */
    bool body_pending; /* a body was announced and is not all read */
    char *body;        /* POST /solve body */
    size_t len;
    size_t cap;
    struct api_scramble *scramble; /* GET /v1/scramble: the one made */
    struct http_events *events;    /* GET /v1/jobs/{id}/events, or a batch's
                                      NDJSON: the stream */
    job_t *job;                    /* referenced job, or NULL */
    bool is_solve;                 /* the wait answers 202 when unfinished */
    job_waiter_t waiter;
    int status;       /* status sent, 0 = none yet */
    const char *code; /* problem code sent, or NULL */
} http_conn_t;

/* What one reply carries besides the common headers. */
typedef struct reply {
    int status;
    const char *ctype; /* NULL: no body */
    char *body;        /* owned unless persistent */
    size_t len;
    bool persistent;         /* body is static: do not free */
    void (*free_fn)(void *); /* frees body when owned */
    const char *location;
    const char *retry_after;
    const char *allow;
} http_reply_t;

/*
 * Percent-decodes s in place for MHD (paths and query arguments), except
 * "%00" and "%2F". A NUL would end the string early ("/v1/jobs/ID%00junk"
 * would read as ID); a slash there is data, not a path separator (RFC 3986
 * section 2.2), so "/v1%2Fjobs" is no route and "/v1/jobs%2FID" no job.
 * Both stay as the three characters and match nothing. Returns the new
 * length. MHD's unescape callback; cls and conn are unused. Thread: any.
 */
size_t http__unescape(void *cls, struct MHD_Connection *conn, char *s);

/* The query parameter name of the request, or NULL. */
const char *http__query(const http_conn_t *c, const char *name);

/* Parses a whole non-negative decimal integer (2^53 at most: more reads
 * as 2^53). */
bool http__parse_count(const char *s, int64_t *out);

/* True while the server drains (jobs_draining). */
bool http__draining(const http_conn_t *c);

/* Adds the header name: value to r; nothing when value is NULL. */
void
http__add_header(struct MHD_Response *r, const char *name, const char *value);

/* Queues rep with the headers every reply carries (request id, CORS,
 * Connection: close while draining). Takes ownership of an owned body, also
 * on failure. Thread: mhd. */
enum MHD_Result http__send_reply(http_conn_t *c, const http_reply_t *rep);

/* Queues the response r (its body is r's own) with the headers of rep
 * and every reply's, then drops the caller's reference to r. */
enum MHD_Result http__queue_response(http_conn_t *c,
                                     struct MHD_Response *r,
                                     const http_reply_t *rep);

/* Sends a static body. */
enum MHD_Result http__send_static(http_conn_t *c,
                                  int status,
                                  const char *ctype,
                                  const char *body);

/* Sends the text of w (jsonout_finish) as a JSON reply. */
enum MHD_Result http__send_text(http_conn_t *c, int status, jsonout_t *w);

/* Sends the problem for rc and d (d may be NULL; its code wins when set),
 * with optional Retry-After and Allow headers. */
enum MHD_Result http__send_problem_d(http_conn_t *c,
                                     int rc,
                                     const pz_diag_t *d,
                                     const char *retry_after,
                                     const char *allow);

/* Sends 503 backend_unavailable (the job store cannot be reached), with
 * Retry-After. */
enum MHD_Result http__send_backend_down(http_conn_t *c);

/* Sends the problem for rc with a printf-style detail. */
enum MHD_Result http__send_problem(http_conn_t *c, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Answers with c->job as it is now: 200 when it has ended, else
 * unfinished_status (202 adds the Location). */
enum MHD_Result http__send_job(http_conn_t *c, int unfinished_status);

/* Most time between two events of a job's event stream. */
#define HTTP_EVENTS_TICK_MS 200

/* Answers GET /v1/jobs/{id}/events for c->job with an event stream. */
enum MHD_Result http__send_events(http_conn_t *c);

/* Answers with the results of c->job's batch items as NDJSON, one line
 * per item as it ends, status status, until the batch ends. */
enum MHD_Result http__send_ndjson(http_conn_t *c, int status);

/* Frees the stream's state (on_completed). */
void http__events_free(http_conn_t *c);

/* How long a scramble's wait outlasts its job's time limit. */
#define HTTP_SCRAMBLE_SLACK_MS 20000

/* Answers a scramble request (c->scramble): at once when it is done, else
 * from its ended job c->job; a job still running (the server drains) is
 * cancelled and answered 503. */
enum MHD_Result http__send_scramble(http_conn_t *c);

/* Suspends the connection until c->job ends or wait_ms pass. Returns false
 * (nothing suspended) when the job has ended or the server drains; the
 * caller answers at once then. */
bool http__start_wait(http_conn_t *c, int64_t wait_ms);

/* Registers c as a waiter of c->job with a deadline wait_ms away and
 * suspends it, leaving c->phase as it is (a stream's reply is already
 * queued). Returns false, with nothing suspended, when the job has ended
 * or the server drains. */
bool http__wait_job(http_conn_t *c, int64_t wait_ms);

/* The first handler call, with the headers only: answers (and returns
 * what MHD is to get) what the request head alone decides, else MHD_YES to
 * read the body. */
enum MHD_Result http__on_headers(http_conn_t *c);

/* Routing answers that need only the headers: unknown path, OPTIONS,
 * method not allowed. Returns true when a reply was queued (in *ret). */
bool http__route_check(http_conn_t *c, enum MHD_Result *ret);

/* The last handler call of a routed request whose method is allowed:
 * everything has been read. */
enum MHD_Result http__dispatch(http_conn_t *c, const char *url);

#endif
