/* SPDX-License-Identifier: MIT */
/* http.c - the libmicrohttpd daemon: routes and request phases (the
 * checks of the request head: http_head.c; replies and waits: http_reply.c).
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
#include "scramble.h"

/* Per-connection memory MHD may use for headers and buffers: room for a
 * request head past the limits of http_head.c, so that this server, not
 * MHD, answers it. */
#define HTTP_CONN_MEMORY ((size_t)64 * 1024)

/* Connection places kept for the health routes at the limit, and the
 * time a new connection or a request body is given before the limit may
 * close it (http_conns.h). */
#define HTTP_CONN_RESERVE  16
#define HTTP_CONN_GRACE_MS 1000

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
    c->route = http__route_of(target_path(url));
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
        return http__on_headers(c);
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
        if (c->scramble != NULL) {
            return http__send_scramble(c);
        }
        return http__send_job(c, c->is_solve ? 202 : 200);
    default:
        if (http__route_check(c, &ret)) {
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
                        c->route == NULL          ? "other"
                        : c->route->label != NULL ? c->route->label
                                                  : c->route->path,
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
    http__events_free(c);
    if (c->scramble != NULL) {
        api_scramble_cleanup(c->scramble);
        free(c->scramble);
    }
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
