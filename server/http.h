/* SPDX-License-Identifier: MIT */
/* http.h - the libmicrohttpd daemon: routes, request phases, replies. */
#ifndef PZ_SERVER_HTTP_H
#define PZ_SERVER_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "jobs.h"
#include "loop.h"
#include "metrics.h"

typedef struct http http_t;

/* What the daemon serves from; everything borrowed and kept until
 * http_stop. */
typedef struct http_deps {
    const config_t *cfg;
    jobs_t *jobs;
    loop_t *loop; /* woken when a connection starts waiting */
    metrics_t *metrics;
    const char *catalogue; /* GET /v1/puzzles body */
    size_t catalogue_len;
    const char *openapi; /* GET /openapi.yaml body */
    size_t openapi_len;
    const struct web *web; /* the playground's files, or NULL (web.h) */
    /* Whether the start-up tables are in memory (GET /readyz); NULL:
     * always. Thread: any. */
    bool (*tables_ready)(void *arg);
    void *tables_ready_arg;
} http_deps_t;

/*
 * Starts the daemon on cfg->bind and cfg->port. Returns PZ_OK with owned
 * *out (http_stop) and the bound port in *port, or PZ_EINVAL (bad bind
 * address) / PZ_EIO (could not listen; the MHD error is logged).
 * Thread: main.
 */
int http_start(const http_deps_t *deps, http_t **out, int *port);

/* Stops accepting connections; open ones are still served. Thread: main. */
void http_quiesce(http_t *http);

/* Waits up to timeout_ms for every connection to close. Returns true when
 * none is left. Thread: main. */
bool http_drain(http_t *http, int64_t timeout_ms);

/* Stops the daemon (no connection may be suspended), closes the quiesced
 * socket and frees http. NULL is fine. Thread: main. */
void http_stop(http_t *http);

#endif
