/* SPDX-License-Identifier: MIT */
/* metrics.h - request counters and the Prometheus text exposition. */
#ifndef PZ_SERVER_METRICS_H
#define PZ_SERVER_METRICS_H

#include <stddef.h>

#include "http_conns.h"
#include "jobs.h"

typedef struct metrics metrics_t;

/* Creates empty metrics. Returns PZ_OK with owned *out (metrics_destroy)
 * or PZ_ENOMEM. Thread: main. */
int metrics_create(metrics_t **out);

/* Frees m; NULL is fine. */
void metrics_destroy(metrics_t *m);

/*
 * Counts one answered request. route and method must be static strings
 * from a small fixed set (route templates such as "/v1/jobs/{id}", never
 * raw paths), so the label sets stay bounded. Thread: any.
 */
void metrics_observe(metrics_t *m,
                     const char *route,
                     const char *method,
                     int code,
                     double seconds);

/*
 * Renders every metric in the Prometheus text format 0.0.4 (label values
 * escaped: backslash, double quote, line feed), with the job figures from
 * jobs, the connection figures from conns (NULL: none) and version for
 * puzzled_build_info. Returns an owned
 * buffer (free) of *len bytes, or NULL when out of memory. Thread: any.
 */
char *metrics_render(metrics_t *m,
                     jobs_t *jobs,
                     const http_conns_stats_t *conns,
                     const char *version,
                     size_t *len);

#endif
