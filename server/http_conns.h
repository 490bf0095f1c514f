/* SPDX-License-Identifier: MIT */
/* http_conns.h - the listening socket, the acceptor thread and the
 * connection registry that keep the daemon reachable at its limit.
 *
 * libmicrohttpd runs without a listening socket of its own: the acceptor
 * takes each connection and decides before handing it over with
 * MHD_add_connection. Below the limit a connection is admitted. At the
 * limit, room is made by closing the connection that has been idle the
 * longest, if that is a second or more (between requests, or without a
 * whole request head), else one whose request body has been arriving for
 * more than a second; busy connections are never cut. Failing that, the
 * acceptor holds the connection for up to a second, looking for a place;
 * meanwhile it peeks at the request line, and a health probe (GET or HEAD
 * of /healthz, /readyz, /metrics) gets one of a few reserved places,
 * served one request each. A connection still without a place after the
 * second is answered 503 `overloaded` by the acceptor, which reads what
 * the client sends until it closes, so that the answer is not lost to a
 * reset. A sweep four times a second closes connections whose
 * request head or body has not arrived within the idle timeout, which
 * traffic trickled a byte at a time does not reset.
 *
 * Thread: the acceptor thread runs the admission and the sweep; MHD's
 * threads report each connection's phase. One mutex guards the registry;
 * a descriptor is shut down only under it, while MHD still owns it open
 * (MHD reports a connection closed before it closes the descriptor).
 */
#ifndef PZ_SERVER_HTTP_CONNS_H
#define PZ_SERVER_HTTP_CONNS_H

#include <stdbool.h>
#include <stdint.h>

#include <microhttpd.h>

typedef struct http_conns http_conns_t;
typedef struct http_conn_entry http_conn_entry_t;

typedef struct http_conns_cfg {
    int limit;        /* connections served in full */
    int reserve;      /* further places for the health routes */
    int64_t head_ms;  /* a request head must arrive within this */
    int64_t body_ms;  /* a request body must arrive within this */
    int64_t grace_ms; /* a new or slow-body connection is kept this long
                       * before the limit may close it */
} http_conns_cfg_t;

/* Opens the listening socket on bind:port (port 0: any). Returns PZ_OK
 * with the descriptor and the bound port, PZ_EINVAL for a bad address or
 * PZ_EIO (errno logged by the caller). Thread: main. */
int http_conns_listen(const char *bind, int port, int *fd, int *bound_port);

/* A registry for a listening socket it takes over (closed by
 * http_conns_free). Returns PZ_OK or PZ_ENOMEM. Thread: main. */
int
http_conns_new(const http_conns_cfg_t *cfg, int listen_fd, http_conns_t **out);

/* The MHD_OPTION_NOTIFY_CONNECTION callback; cls is the registry. */
void http_conns_notify(void *cls,
                       struct MHD_Connection *conn,
                       void **socket_context,
                       enum MHD_ConnectionNotificationCode toe);

/* Starts the acceptor thread handing connections to d. Returns PZ_OK or
 * PZ_EIO. Thread: main. */
int http_conns_start(http_conns_t *conns, struct MHD_Daemon *d);

/* Stops accepting: joins the acceptor and shuts the listening socket, so
 * new clients are refused at once. Idempotent. Thread: main. */
void http_conns_quiesce(http_conns_t *conns);

/* Frees the registry after MHD_stop_daemon. NULL is fine. Thread: main. */
void http_conns_free(http_conns_t *conns);

/* The entry of conn (NULL if MHD did not report it). Thread: mhd. */
http_conn_entry_t *http_conns_entry(struct MHD_Connection *conn);

/* A request head has arrived; body says whether a body follows. Returns
 * true when the connection holds a reserved place and the server is
 * still full: only a health route is served on it, and the connection is
 * closed after the answer. Thread: mhd. */
bool http_conns_request(http_conns_t *conns, http_conn_entry_t *e, bool body);

/* The request body has been read (or the request was answered). */
void http_conns_body_done(http_conns_t *conns, http_conn_entry_t *e);

/* The request has completed: the connection is idle again. */
void http_conns_idle(http_conns_t *conns, http_conn_entry_t *e);

/* The registry as it is now, for /metrics. Thread: any. */
typedef struct http_conns_stats {
    int new_;              /* connected, no request head yet */
    int idle;              /* between requests */
    int body;              /* a request body arriving */
    int busy;              /* a request being answered or waiting for a job */
    int reserved;          /* of all these, in reserved places */
    int held;              /* held by the acceptor, waiting for a place */
    uint64_t evicted_idle; /* closed to make room: idle for a second */
    uint64_t evicted_body; /* closed to make room: a slow body */
    uint64_t timed_out;    /* request head or body past the deadline */
    uint64_t refused;      /* answered 503 by the acceptor */
} http_conns_stats_t;

void http_conns_stats(http_conns_t *conns, http_conns_stats_t *out);

#endif
