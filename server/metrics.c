/* SPDX-License-Identifier: MIT */
/* metrics.c - request counters and the Prometheus text exposition.
 *
 * Debian ships no C client library, and the format is simple, so the text
 * is written by hand (open_memstream). Request counters live in a small
 * table under a mutex: the label sets are bounded by the fixed routes,
 * methods and the status codes the server can send.
 */
#include "metrics.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables.h"

/* Upper bounds of the latency histogram, in seconds. */
static const double buckets[] = { 0.001, 0.0025, 0.005, 0.01, 0.025,
                                  0.05,  0.1,    0.25,  0.5,  1,
                                  2.5,   5,      10,    30,   60 };

#define NBUCKETS (sizeof(buckets) / sizeof(buckets[0]))

/* Distinct (route, method, code) triples kept; more are folded into the
 * last entry, which never happens with the server's fixed routes. */
#define MAX_SERIES 256

/* Distinct routes with a histogram. */
#define MAX_ROUTES 32

typedef struct series {
    const char *route;
    const char *method;
    int code;
    uint64_t count;
} series_t;

typedef struct histogram {
    const char *route;
    uint64_t counts[NBUCKETS]; /* per bucket, not cumulative */
    uint64_t count;
    double sum;
} histogram_t;

struct metrics {
    pthread_mutex_t lock;
    size_t nseries;
    series_t series[MAX_SERIES];
    size_t nroutes;
    histogram_t hist[MAX_ROUTES];
};

int
metrics_create(metrics_t **out)
{
    metrics_t *m = calloc(1, sizeof(*m));

    *out = NULL;
    if (m == NULL) {
        return PZ_ENOMEM;
    }
    pthread_mutex_init(&m->lock, NULL);
    *out = m;
    return PZ_OK;
}

void
metrics_destroy(metrics_t *m)
{
    if (m == NULL) {
        return;
    }
    pthread_mutex_destroy(&m->lock);
    free(m);
}

void
metrics_observe(metrics_t *m,
                const char *route,
                const char *method,
                int code,
                double seconds)
{
    series_t *s = NULL;
    histogram_t *h = NULL;

    pthread_mutex_lock(&m->lock);
    for (size_t i = 0; i < m->nseries; i++) {
        if (m->series[i].code == code &&
            strcmp(m->series[i].route, route) == 0 &&
            strcmp(m->series[i].method, method) == 0) {
            s = &m->series[i];
            break;
        }
    }
    if (s == NULL) {
        s = &m->series[m->nseries < MAX_SERIES ? m->nseries++ : MAX_SERIES - 1];
        if (s->route == NULL) {
            s->route = route;
            s->method = method;
            s->code = code;
        }
    }
    s->count++;
    for (size_t i = 0; i < m->nroutes; i++) {
        if (strcmp(m->hist[i].route, route) == 0) {
            h = &m->hist[i];
            break;
        }
    }
    if (h == NULL && m->nroutes < MAX_ROUTES) {
        h = &m->hist[m->nroutes++];
        h->route = route;
    }
    if (h != NULL) {
        size_t b = 0;

        while (b < NBUCKETS && seconds > buckets[b]) {
            b++;
        }
        if (b < NBUCKETS) {
            h->counts[b]++;
        }
        h->count++;
        h->sum += seconds;
    }
    pthread_mutex_unlock(&m->lock);
}

static void
family(FILE *f, const char *name, const char *type, const char *help)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Writes s as a label value of the text format: backslash, double quote
 * and line feed escaped as \\, \" and \n. */
static void
label_value(FILE *f, const char *s)
{
    for (; *s != '\0'; s++) {
        switch (*s) {
        case '\\':
            fputs("\\\\", f);
            break;
        case '"':
            fputs("\\\"", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        default:
            fputc(*s, f);
            break;
        }
    }
}

/* Writes name{key="value" (escaped), leaving the set open for more. */
static void
series_open(FILE *f, const char *name, const char *key, const char *value)
{
    fprintf(f, "%s{%s=\"", name, key);
    label_value(f, value);
    fputc('"', f);
}

static void
render_http(FILE *f, metrics_t *m)
{
    pthread_mutex_lock(&m->lock);
    family(f, "puzzled_http_requests_total", "counter",
           "HTTP requests answered, by route template, method and status.");
    for (size_t i = 0; i < m->nseries; i++) {
        const series_t *s = &m->series[i];

        series_open(f, "puzzled_http_requests_total", "route", s->route);
        fputs(",method=\"", f);
        label_value(f, s->method);
        fprintf(f, "\",code=\"%d\"} %" PRIu64 "\n", s->code, s->count);
    }
    family(f, "puzzled_http_request_duration_seconds", "histogram",
           "Time from a request's headers to its completion, by route.");
    for (size_t i = 0; i < m->nroutes; i++) {
        const histogram_t *h = &m->hist[i];
        uint64_t cum = 0;

        for (size_t b = 0; b < NBUCKETS; b++) {
            cum += h->counts[b];
            series_open(f, "puzzled_http_request_duration_seconds_bucket",
                        "route", h->route);
            fprintf(f, ",le=\"%g\"} %" PRIu64 "\n", buckets[b], cum);
        }
        series_open(f, "puzzled_http_request_duration_seconds_bucket", "route",
                    h->route);
        fprintf(f, ",le=\"+Inf\"} %" PRIu64 "\n", h->count);
        series_open(f, "puzzled_http_request_duration_seconds_sum", "route",
                    h->route);
        fprintf(f, "} %.6f\n", h->sum);
        series_open(f, "puzzled_http_request_duration_seconds_count", "route",
                    h->route);
        fprintf(f, "} %" PRIu64 "\n", h->count);
    }
    pthread_mutex_unlock(&m->lock);
}

static void
render_jobs(FILE *f, jobs_t *jobs)
{
    jobs_stats_t st;

    jobs_get_stats(jobs, &st);
    family(f, "puzzled_jobs_total", "counter",
           "Jobs that ended, by final status.");
    for (int s = 0; s < PZ_STATUS_COUNT_; s++) {
        if (!pz_status_terminal(s)) {
            continue;
        }
        fprintf(f, "puzzled_jobs_total{status=\"%s\"} %" PRIu64 "\n",
                pz_status_name(s), st.ended[s]);
    }
    family(f, "puzzled_queue_length", "gauge",
           "Jobs waiting for a solver thread.");
    fprintf(f, "puzzled_queue_length %zu\n", st.queued);
    family(f, "puzzled_jobs_preparing", "gauge",
           "Jobs waiting for the tables they need.");
    fprintf(f, "puzzled_jobs_preparing %zu\n", st.preparing);
    family(f, "puzzled_queue_capacity", "gauge",
           "Jobs the queue holds at most.");
    fprintf(f, "puzzled_queue_capacity %zu\n", st.queue_cap);
    family(f, "puzzled_jobs_running", "gauge", "Jobs on a solver thread now.");
    fprintf(f, "puzzled_jobs_running %zu\n", st.running);
    family(f, "puzzled_jobs_kept", "gauge",
           "Jobs in the job table (queued, running and retained).");
    fprintf(f, "puzzled_jobs_kept %zu\n", st.kept);
    family(f, "puzzled_nodes_expanded_total", "counter",
           "Search nodes expanded by all jobs, running ones included.");
    fprintf(f, "puzzled_nodes_expanded_total %" PRIu64 "\n", st.nodes_expanded);
    family(f, "puzzled_memory_budget_bytes_in_use", "gauge",
           "Sum of the memory budgets of queued and running jobs.");
    fprintf(f, "puzzled_memory_budget_bytes_in_use %zu\n", st.memory_in_use);
    family(f, "puzzled_memory_cap_bytes", "gauge",
           "Admission cap on puzzled_memory_budget_bytes_in_use.");
    fprintf(f, "puzzled_memory_cap_bytes %zu\n", st.memory_cap);
    family(f, "puzzled_table_memory_bytes", "gauge",
           "Bytes of shared heuristic tables loaded.");
    fprintf(f, "puzzled_table_memory_bytes %zu\n", tables_memory_bytes());
    family(f, "puzzled_job_store_up", "gauge",
           "1 while the job store (memory, or the Redis of --redis) can be "
           "reached.");
    fprintf(f, "puzzled_job_store_up{backend=\"%s\"} %d\n", st.backend,
            st.backend_ready ? 1 : 0);
    family(f, "puzzled_job_store_round_trips_total", "counter",
           "Round trips of this process to the job store (0 in memory).");
    fprintf(f, "puzzled_job_store_round_trips_total %" PRIu64 "\n",
            st.backend_round_trips);
}

/* Every known table: its state (one series per state, 1 for the current
 * one), its size and how long its last load or build took. */
static void
render_tables(FILE *f)
{
    tables_status_t *all;
    int n = tables_status_list(NULL, 0);

    all = calloc(n > 0 ? (size_t)n : 1, sizeof(*all));
    if (all == NULL) {
        return;
    }
    if (tables_status_list(all, n) < n) {
        n = tables_status_list(all, n);
    }
    family(f, "puzzled_table_state", "gauge",
           "1 for the state each table is in, 0 for the others.");
    for (int i = 0; i < n; i++) {
        for (int s = TABLES_MISSING; s <= TABLES_FAILED; s++) {
            series_open(f, "puzzled_table_state", "table", all[i].name);
            fprintf(f, ",state=\"%s\"} %d\n", tables_state_name(s),
                    all[i].state == s);
        }
    }
    family(f, "puzzled_table_bytes", "gauge",
           "Memory each table takes once loaded.");
    for (int i = 0; i < n; i++) {
        series_open(f, "puzzled_table_bytes", "table", all[i].name);
        fprintf(f, "} %" PRIu64 "\n", all[i].bytes);
    }
    family(f, "puzzled_table_build_seconds", "gauge",
           "Seconds the table's load or build under way has taken so far, "
           "else the seconds its last one took (0: none yet).");
    for (int i = 0; i < n; i++) {
        series_open(f, "puzzled_table_build_seconds", "table", all[i].name);
        fprintf(f, "} %.3f\n", all[i].seconds);
    }
    free(all);
}

/* The connection registry (http_conns.h). */
static void
render_conns(FILE *f, const http_conns_stats_t *c)
{
    family(f, "puzzled_http_connections", "gauge",
           "Open connections by what they are doing.");
    fprintf(f, "puzzled_http_connections{state=\"new\"} %d\n", c->new_);
    fprintf(f, "puzzled_http_connections{state=\"idle\"} %d\n", c->idle);
    fprintf(f, "puzzled_http_connections{state=\"body\"} %d\n", c->body);
    fprintf(f, "puzzled_http_connections{state=\"busy\"} %d\n", c->busy);
    family(f, "puzzled_http_connections_reserved", "gauge",
           "Open connections in the places kept for health probes.");
    fprintf(f, "puzzled_http_connections_reserved %d\n", c->reserved);
    family(f, "puzzled_http_connections_held", "gauge",
           "Connections the acceptor holds while every place is taken.");
    fprintf(f, "puzzled_http_connections_held %d\n", c->held);
    family(f, "puzzled_http_connections_closed_total", "counter",
           "Connections the server closed for its limits, by reason.");
    fprintf(f,
            "puzzled_http_connections_closed_total{reason=\"idle_evicted\"} "
            "%" PRIu64 "\n",
            c->evicted_idle);
    fprintf(f,
            "puzzled_http_connections_closed_total{reason=\"body_evicted\"} "
            "%" PRIu64 "\n",
            c->evicted_body);
    fprintf(f,
            "puzzled_http_connections_closed_total{reason=\"timeout\"} "
            "%" PRIu64 "\n",
            c->timed_out);
    fprintf(f,
            "puzzled_http_connections_closed_total{reason=\"refused\"} "
            "%" PRIu64 "\n",
            c->refused);
}

char *
metrics_render(metrics_t *m,
               jobs_t *jobs,
               const http_conns_stats_t *conns,
               const char *version,
               size_t *len)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);

    *len = 0;
    if (f == NULL) {
        return NULL;
    }
    render_http(f, m);
    if (conns != NULL) {
        render_conns(f, conns);
    }
    render_jobs(f, jobs);
    render_tables(f);
    family(f, "puzzled_build_info", "gauge",
           "Always 1; the labels describe the build.");
    series_open(f, "puzzled_build_info", "version", version);
    fputs("} 1\n", f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    *len = size;
    return buf;
}
