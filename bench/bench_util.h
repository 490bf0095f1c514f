/* SPDX-License-Identifier: MIT */
/* bench_util.h - what the benchmark programs share: clock, median,
 * percentiles. */
#ifndef PZ_BENCH_UTIL_H
#define PZ_BENCH_UTIL_H

#include <stdlib.h>
#include <time.h>

/* Seconds on the monotonic clock. */
static inline double
bench_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline int
bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Sorts v[0..n) and returns its median (n >= 1). */
static inline double
bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The pct percentile (1..100) of v[0..n) sorted, by nearest rank: the
 * smallest value with at least pct % of v at or below it (n >= 1). */
static inline double
bench_percentile(const double *v, int n, int pct)
{
    int k = (n * pct + 99) / 100 - 1;

    return v[k < 0 ? 0 : k >= n ? n - 1 : k];
}

#endif
