/* SPDX-License-Identifier: MIT */
/* http_head.c - the first handler call: what the request head alone
 * decides (limits, framing, Host, routing, OPTIONS, POST /solve checks). */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <microhttpd.h>

#include "batch.h"
#include "http_internal.h"

/* The longest request target and request head served (414, 431). */
#define HTTP_MAX_TARGET ((size_t)8 * 1024)
#define HTTP_MAX_HEAD   ((size_t)16 * 1024)

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
    http__add_header(r, "X-Request-Id", c->request_id);
    http__add_header(r, MHD_HTTP_HEADER_ALLOW, c->route->allow);
    if (c->origin != NULL) {
        http__add_header(r, "Access-Control-Allow-Origin", c->origin);
        http__add_header(r, "Access-Control-Allow-Methods", c->route->allow);
        http__add_header(r, "Access-Control-Allow-Headers",
                         "Content-Type, X-Request-Id");
        http__add_header(r, "Access-Control-Max-Age", "600");
    }
    if (c->http->deps.cfg->ncors > 0) {
        http__add_header(r, "Vary", "Origin");
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
    int max = (c->route->flags & HTTP_ROUTE_BATCH) != 0 ? API_BATCH_BODY_MAX
                                                        : API_BODY_MAX;
    int64_t len = 0;
    pz_diag_t d;

    if (http__draining(c)) {
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
        len = max;
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
    if (len > max) {
        *ret = http__send_problem(
            c, PZ_ETOO_LARGE, "the body has %" PRId64 " bytes; the limit is %d",
            len, max);
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
bool
http__route_check(http_conn_t *c, enum MHD_Result *ret)
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
    return c->route != NULL && (c->route->flags & HTTP_ROUTE_PROBE) != 0;
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
enum MHD_Result
http__on_headers(http_conn_t *c)
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
    if (c->body_pending && http__route_check(c, &ret)) {
        return ret;
    }
    if (c->route != NULL && (c->route->flags & HTTP_ROUTE_SOLVE) != 0 &&
        c->method == HTTP_M_POST && solve_precheck(c, &ret)) {
        return ret;
    }
    return MHD_YES;
}
