/* SPDX-License-Identifier: MIT */
/* test_server_metrics.c - request counters and the Prometheus text format. */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "jobs.h"
#include "metrics.h"
#include "solve.h"
#include "tables.h"

/* --- a reader of the text format 0.0.4 -------------------------------- */

#define FAMILIES_MAX 64

/* One sample line: its metric name, label set as written (between the
 * braces, escapes kept) and value. */
typedef struct sample {
    char name[96];
    char labels[512];
    double value;
} sample_t;

typedef struct exposition {
    int nfamilies;
    char family[FAMILIES_MAX][96];
    char type[FAMILIES_MAX][16];
    int nsamples;
    sample_t *samples; /* owned */
} exposition_t;

static bool
name_char(char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == ':' || (!first && c >= '0' && c <= '9');
}

/* Reads a metric or label name at *p into out; false when there is none. */
static bool
read_name(const char **p, char *out, size_t len)
{
    size_t n = 0;

    if (!name_char(**p, true)) {
        return false;
    }
    while (name_char(**p, n == 0) && n + 1 < len) {
        out[n++] = *(*p)++;
    }
    out[n] = '\0';
    return !name_char(**p, false);
}

/* Reads {name="value",...} at *p (after the brace), checking that every
 * value is quoted and uses only the escapes \\, \" and \n; copies the
 * set into out. */
static bool
read_labels(const char **p, char *out, size_t len)
{
    const char *start = *p;

    while (**p != '}') {
        char label[96];

        if (!read_name(p, label, sizeof(label)) || *(*p)++ != '=' ||
            *(*p)++ != '"') {
            return false;
        }
        while (**p != '"') {
            if (**p == '\0' || **p == '\n') {
                return false;
            }
            if (**p == '\\') {
                (*p)++;
                if (**p != '\\' && **p != '"' && **p != 'n') {
                    return false;
                }
            }
            (*p)++;
        }
        (*p)++;
        if (**p == ',') {
            (*p)++;
        } else if (**p != '}') {
            return false;
        }
    }
    snprintf(out, len, "%.*s", (int)(*p - start), start);
    (*p)++;
    return true;
}

/* The family a sample name belongs to: itself, or a histogram's name
 * without _bucket, _sum or _count. */
static int
family_of(const exposition_t *x, const char *name)
{
    for (int i = 0; i < x->nfamilies; i++) {
        size_t n = strlen(x->family[i]);

        if (strncmp(name, x->family[i], n) != 0) {
            continue;
        }
        if (name[n] == '\0') {
            return i;
        }
        if (strcmp(x->type[i], "histogram") == 0 &&
            (strcmp(name + n, "_bucket") == 0 ||
             strcmp(name + n, "_sum") == 0 ||
             strcmp(name + n, "_count") == 0)) {
            return i;
        }
    }
    return -1;
}

/*
 * Parses text (len bytes) strictly: every line is "# HELP name text",
 * "# TYPE name type" (after its HELP, once per family, a known type) or
 * a sample of a family typed before it, with a number as its value; the
 * text ends with a line feed. Fails the test at the first bad line.
 */
static void
parse_exposition(const char *text, size_t len, exposition_t *x)
{
    const char *p = text;
    int line = 0;

    memset(x, 0, sizeof(*x));
    x->samples = calloc(4096, sizeof(*x->samples));
    ck_assert_ptr_nonnull(x->samples);
    ck_assert_uint_eq(strlen(text), len);
    ck_assert_msg(len > 0 && text[len - 1] == '\n', "no final line feed");
    while (*p != '\0') {
        const char *eol = strchr(p, '\n');
        char name[96];

        line++;
        ck_assert_ptr_nonnull(eol);
        if (strncmp(p, "# HELP ", 7) == 0) {
            p += 7;
            ck_assert_msg(read_name(&p, name, sizeof(name)) && *p == ' ' &&
                              p + 1 < eol,
                          "line %d: bad HELP", line);
            ck_assert_int_lt(x->nfamilies, FAMILIES_MAX);
            for (int i = 0; i < x->nfamilies; i++) {
                ck_assert_msg(strcmp(x->family[i], name) != 0,
                              "line %d: %s described twice", line, name);
            }
            snprintf(x->family[x->nfamilies], sizeof(x->family[0]), "%s", name);
            x->type[x->nfamilies][0] = '\0';
            x->nfamilies++;
        } else if (strncmp(p, "# TYPE ", 7) == 0) {
            char type[16] = "";
            int f = x->nfamilies - 1;

            p += 7;
            ck_assert_msg(read_name(&p, name, sizeof(name)) && *p++ == ' ',
                          "line %d: bad TYPE", line);
            ck_assert_msg(f >= 0 && strcmp(x->family[f], name) == 0 &&
                              x->type[f][0] == '\0',
                          "line %d: TYPE of %s not right after its HELP", line,
                          name);
            snprintf(type, sizeof(type), "%.*s", (int)(eol - p), p);
            ck_assert_msg(strcmp(type, "counter") == 0 ||
                              strcmp(type, "gauge") == 0 ||
                              strcmp(type, "histogram") == 0,
                          "line %d: type '%s'", line, type);
            snprintf(x->type[f], sizeof(x->type[0]), "%s", type);
        } else {
            sample_t *s = &x->samples[x->nsamples];
            char *end = NULL;
            int f;

            ck_assert_int_lt(x->nsamples, 4096);
            ck_assert_msg(read_name(&p, s->name, sizeof(s->name)),
                          "line %d: no metric name: %.40s", line, p);
            if (*p == '{') {
                p++;
                ck_assert_msg(read_labels(&p, s->labels, sizeof(s->labels)),
                              "line %d: bad label set", line);
            }
            ck_assert_msg(*p++ == ' ', "line %d: no value", line);
            if (strncmp(p, "+Inf", 4) == 0) {
                s->value = INFINITY;
                end = (char *)p + 4;
            } else {
                s->value = strtod(p, &end);
            }
            ck_assert_msg(end != p && end == eol, "line %d: bad value", line);
            f = family_of(x, s->name);
            ck_assert_msg(f >= 0 && x->type[f][0] != '\0',
                          "line %d: %s has no TYPE before it", line, s->name);
            ck_assert_msg(strcmp(x->type[f], "counter") != 0 ||
                              strstr(s->name, "_total") != NULL,
                          "line %d: counter %s does not end in _total", line,
                          s->name);
            x->nsamples++;
        }
        p = eol + 1;
    }
}

/* The value of the sample name{labels}, failing the test when there is
 * not exactly one. */
static double
value_of(const exposition_t *x, const char *name, const char *labels)
{
    const sample_t *found = NULL;

    for (int i = 0; i < x->nsamples; i++) {
        if (strcmp(x->samples[i].name, name) == 0 &&
            strcmp(x->samples[i].labels, labels) == 0) {
            ck_assert_msg(found == NULL, "%s{%s} twice", name, labels);
            found = &x->samples[i];
        }
    }
    ck_assert_msg(found != NULL, "no sample %s{%s}", name, labels);
    return found->value;
}

static int
count_of(const exposition_t *x, const char *name)
{
    int n = 0;

    for (int i = 0; i < x->nsamples; i++) {
        n += strcmp(x->samples[i].name, name) == 0;
    }
    return n;
}

static bool
has_family(const exposition_t *x, const char *name, const char *type)
{
    for (int i = 0; i < x->nfamilies; i++) {
        if (strcmp(x->family[i], name) == 0) {
            return strcmp(x->type[i], type) == 0;
        }
    }
    return false;
}

/* --- fixture: metrics and an empty job table -------------------------- */

static metrics_t *m;
static jobs_t *jobs;

static void
setup(void)
{
    jobs_config_t cfg = {
        7, (size_t)123 << 20, 60000, 10, NULL, NULL, 1, NULL
    };

    ck_assert_int_eq(metrics_create(&m), PZ_OK);
    ck_assert_int_eq(jobs_create(&cfg, &jobs), PZ_OK);
}

static void
teardown(void)
{
    jobs_destroy(jobs);
    metrics_destroy(m);
    jobs = NULL;
    m = NULL;
}

/* Renders and parses; returns the text (free) with x filled. */
static char *
render(const http_conns_stats_t *conns, const char *version, exposition_t *x)
{
    size_t len = 0;
    char *text = metrics_render(m, jobs, conns, version, &len);

    ck_assert_ptr_nonnull(text);
    parse_exposition(text, len, x);
    return text;
}

START_TEST(test_server_metrics_empty_render_is_valid)
{
    exposition_t x;
    char *text = render(NULL, "1.2.3", &x);

    ck_assert(has_family(&x, "puzzled_http_requests_total", "counter"));
    ck_assert(
        has_family(&x, "puzzled_http_request_duration_seconds", "histogram"));
    ck_assert_int_eq(count_of(&x, "puzzled_http_requests_total"), 0);
    ck_assert_int_eq(
        count_of(&x, "puzzled_http_request_duration_seconds_count"), 0);
    ck_assert_double_eq(value_of(&x, "puzzled_build_info", "version=\"1.2.3\""),
                        1);
    /* The job table's figures. */
    ck_assert_double_eq(value_of(&x, "puzzled_queue_capacity", ""), 7);
    ck_assert_double_eq(value_of(&x, "puzzled_memory_cap_bytes", ""),
                        123 << 20);
    ck_assert_double_eq(value_of(&x, "puzzled_queue_length", ""), 0);
    ck_assert_double_eq(value_of(&x, "puzzled_jobs_running", ""), 0);
    ck_assert_double_eq(
        value_of(&x, "puzzled_job_store_up", "backend=\"memory\""), 1);
    ck_assert_double_eq(value_of(&x, "puzzled_job_store_round_trips_total", ""),
                        0);
    for (int s = 0; s < PZ_STATUS_COUNT_; s++) {
        char labels[64];

        snprintf(labels, sizeof(labels), "status=\"%s\"", pz_status_name(s));
        if (pz_status_terminal(s)) {
            ck_assert_double_eq(value_of(&x, "puzzled_jobs_total", labels), 0);
        }
    }
    /* No connection figures without conns. */
    ck_assert(!has_family(&x, "puzzled_http_connections", "gauge"));
    free(x.samples);
    free(text);
}
END_TEST

/* Requests are counted per route, method and code; the histogram per
 * route, its buckets cumulative, a value on a bound in that bucket. */
START_TEST(test_server_metrics_counters_and_histogram)
{
    static const double bounds[] = { 0.001, 0.0025, 0.005, 0.01, 0.025,
                                     0.05,  0.1,    0.25,  0.5,  1,
                                     2.5,   5,      10,    30,   60 };
    exposition_t x;
    char *text;
    double prev = 0;

    for (int i = 0; i < 3; i++) {
        metrics_observe(m, "/v1/solve", "POST", 200, 0.003);
    }
    metrics_observe(m, "/v1/solve", "POST", 422, 0.0001);
    metrics_observe(m, "/v1/solve", "GET", 405, 0.005);
    metrics_observe(m, "/v1/solve", "POST", 200, 120);
    metrics_observe(m, "/healthz", "GET", 200, 0.5);
    text = render(NULL, "v", &x);
    ck_assert_double_eq(
        value_of(&x, "puzzled_http_requests_total",
                 "route=\"/v1/solve\",method=\"POST\",code=\"200\""),
        4);
    ck_assert_double_eq(
        value_of(&x, "puzzled_http_requests_total",
                 "route=\"/v1/solve\",method=\"POST\",code=\"422\""),
        1);
    ck_assert_double_eq(
        value_of(&x, "puzzled_http_requests_total",
                 "route=\"/v1/solve\",method=\"GET\",code=\"405\""),
        1);
    ck_assert_double_eq(
        value_of(&x, "puzzled_http_requests_total",
                 "route=\"/healthz\",method=\"GET\",code=\"200\""),
        1);
    ck_assert_int_eq(count_of(&x, "puzzled_http_requests_total"), 4);
    /* /v1/solve: 0.0001, 0.003 x3, 0.005 (on a bound), 120 (above all). */
    for (size_t b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
        char labels[64];
        double want = bounds[b] < 0.001 ? 0 : bounds[b] < 0.005 ? 1 : 5;
        double v;

        snprintf(labels, sizeof(labels), "route=\"/v1/solve\",le=\"%g\"",
                 bounds[b]);
        v = value_of(&x, "puzzled_http_request_duration_seconds_bucket",
                     labels);
        ck_assert_msg(v == want, "le=%g: %g, expected %g", bounds[b], v, want);
        ck_assert(v >= prev);
        prev = v;
    }
    ck_assert_double_eq(value_of(&x,
                                 "puzzled_http_request_duration_seconds_bucket",
                                 "route=\"/v1/solve\",le=\"+Inf\""),
                        6);
    ck_assert_double_eq(value_of(&x,
                                 "puzzled_http_request_duration_seconds_count",
                                 "route=\"/v1/solve\""),
                        6);
    ck_assert_double_eq_tol(
        value_of(&x, "puzzled_http_request_duration_seconds_sum",
                 "route=\"/v1/solve\""),
        0.0001 + 3 * 0.003 + 0.005 + 120, 1e-6);
    ck_assert_double_eq(value_of(&x,
                                 "puzzled_http_request_duration_seconds_bucket",
                                 "route=\"/healthz\",le=\"0.25\""),
                        0);
    ck_assert_double_eq(value_of(&x,
                                 "puzzled_http_request_duration_seconds_bucket",
                                 "route=\"/healthz\",le=\"0.5\""),
                        1);
    ck_assert_int_eq(
        count_of(&x, "puzzled_http_request_duration_seconds_count"), 2);
    free(x.samples);
    free(text);
}
END_TEST

/* Backslash, double quote and line feed in a label value are escaped, so
 * the exposition stays one sample per line. */
START_TEST(test_server_metrics_labels_escaped)
{
    exposition_t x;
    char *text;

    metrics_observe(m, "/a\"b\\c\nd", "GET", 200, 0.01);
    text = render(NULL, "1.0 \"x\"\\", &x);
    ck_assert_double_eq(
        value_of(&x, "puzzled_http_requests_total",
                 "route=\"/a\\\"b\\\\c\\nd\",method=\"GET\",code=\"200\""),
        1);
    ck_assert_double_eq(value_of(&x,
                                 "puzzled_http_request_duration_seconds_count",
                                 "route=\"/a\\\"b\\\\c\\nd\""),
                        1);
    ck_assert_double_eq(
        value_of(&x, "puzzled_build_info", "version=\"1.0 \\\"x\\\"\\\\\""), 1);
    free(x.samples);
    free(text);
}
END_TEST

START_TEST(test_server_metrics_connections)
{
    http_conns_stats_t c = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
    exposition_t x;
    char *text = render(&c, "v", &x);

    ck_assert(has_family(&x, "puzzled_http_connections", "gauge"));
    ck_assert_double_eq(
        value_of(&x, "puzzled_http_connections", "state=\"new\""), 1);
    ck_assert_double_eq(
        value_of(&x, "puzzled_http_connections", "state=\"idle\""), 2);
    ck_assert_double_eq(
        value_of(&x, "puzzled_http_connections", "state=\"body\""), 3);
    ck_assert_double_eq(
        value_of(&x, "puzzled_http_connections", "state=\"busy\""), 4);
    ck_assert_double_eq(value_of(&x, "puzzled_http_connections_reserved", ""),
                        5);
    ck_assert_double_eq(value_of(&x, "puzzled_http_connections_held", ""), 6);
    ck_assert_double_eq(value_of(&x, "puzzled_http_connections_closed_total",
                                 "reason=\"idle_evicted\""),
                        7);
    ck_assert_double_eq(value_of(&x, "puzzled_http_connections_closed_total",
                                 "reason=\"body_evicted\""),
                        8);
    ck_assert_double_eq(value_of(&x, "puzzled_http_connections_closed_total",
                                 "reason=\"timeout\""),
                        9);
    ck_assert_double_eq(value_of(&x, "puzzled_http_connections_closed_total",
                                 "reason=\"refused\""),
                        10);
    free(x.samples);
    free(text);
}
END_TEST

/* Each named table is in exactly one state. */
START_TEST(test_server_metrics_tables_one_state_each)
{
    tables_status_t *all;
    exposition_t x;
    char *text;
    int n;

    solve_register_tables();
    n = tables_status_list(NULL, 0);
    ck_assert_int_gt(n, 0);
    all = calloc((size_t)n, sizeof(*all));
    ck_assert_ptr_nonnull(all);
    ck_assert_int_eq(tables_status_list(all, n), n);
    text = render(NULL, "v", &x);
    ck_assert_int_eq(count_of(&x, "puzzled_table_bytes"), n);
    for (int i = 0; i < n; i++) {
        char labels[256];
        double ones = 0;

        for (int s = TABLES_MISSING; s <= TABLES_FAILED; s++) {
            double v;

            snprintf(labels, sizeof(labels), "table=\"%s\",state=\"%s\"",
                     all[i].name, tables_state_name(s));
            v = value_of(&x, "puzzled_table_state", labels);
            ck_assert(v == 0 || v == 1);
            ones += v;
        }
        ck_assert_msg(ones == 1, "%s is in %g states", all[i].name, ones);
        snprintf(labels, sizeof(labels), "table=\"%s\"", all[i].name);
        ck_assert_double_eq(value_of(&x, "puzzled_table_bytes", labels),
                            (double)all[i].bytes);
    }
    free(all);
    free(x.samples);
    free(text);
}
END_TEST

#define THREADS    4
#define PER_THREAD 20000

static void *
observer(void *arg)
{
    static const char *const routes[] = { "/r0", "/r1", "/r2" };

    (void)arg;
    for (int i = 0; i < PER_THREAD; i++) {
        metrics_observe(m, routes[i % 3], "GET", 200 + i % 2, 0.002);
    }
    return NULL;
}

/* Threads counting at once lose nothing. */
START_TEST(test_server_metrics_concurrent_observe)
{
    pthread_t th[THREADS];
    exposition_t x;
    char *text;
    double total = 0;
    double count = 0;

    for (int i = 0; i < THREADS; i++) {
        ck_assert_int_eq(pthread_create(&th[i], NULL, observer, NULL), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(th[i], NULL);
    }
    text = render(NULL, "v", &x);
    for (int i = 0; i < x.nsamples; i++) {
        if (strcmp(x.samples[i].name, "puzzled_http_requests_total") == 0) {
            total += x.samples[i].value;
        } else if (strcmp(x.samples[i].name,
                          "puzzled_http_request_duration_seconds_count") == 0) {
            count += x.samples[i].value;
        }
    }
    ck_assert_int_eq(count_of(&x, "puzzled_http_requests_total"), 6);
    ck_assert_double_eq(total, THREADS * PER_THREAD);
    ck_assert_double_eq(count, THREADS * PER_THREAD);
    free(x.samples);
    free(text);
}
END_TEST

static Suite *
metrics_suite(void)
{
    Suite *s = suite_create("server_metrics");
    TCase *tc = tcase_create("metrics");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_server_metrics_empty_render_is_valid);
    tcase_add_test(tc, test_server_metrics_counters_and_histogram);
    tcase_add_test(tc, test_server_metrics_labels_escaped);
    tcase_add_test(tc, test_server_metrics_connections);
    tcase_add_test(tc, test_server_metrics_tables_one_state_each);
    tcase_add_test(tc, test_server_metrics_concurrent_observe);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(metrics_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
