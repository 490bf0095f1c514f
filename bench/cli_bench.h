/* SPDX-License-Identifier: MIT */
/* cli_bench.h - what the parts of `puzzled bench` share: cli_bench.c (the
 * command, cube2 and tiles) and cli_bench_cube3.c (cube3). */
#ifndef PZ_BENCH_CLI_BENCH_H
#define PZ_BENCH_CLI_BENCH_H

#include <stdbool.h>
#include <stdint.h>

/* Settings of `puzzled bench cube3`. */
typedef struct cube3_bench {
    int count;              /* random states */
    uint64_t seed;          /* of the random states */
    int target;             /* column A: stop at this length */
    uint64_t time_ms;       /* column B: budget, target 0 */
    int optimal;            /* states also solved by optimal IDA* */
    uint64_t opt_ms;        /* time limit of each optimal solve */
    int threads;            /* twophase threads */
    bool qtm;               /* quarter-turn metric */
    int columns;            /* bit 0: column A, bit 1: column B */
    bool passes;            /* every A solve first, then every B solve */
    const char *states_in;  /* states from this file, not random ones */
    const char *states_out; /* file for the states' facelet strings */
} cube3_bench_t;

/* qsort comparison of two doubles, ascending. */
int cli_bench__cmp_double(const void *a, const void *b);

/* Runs `puzzled bench cube3` as b says, printing a row per state and a
 * summary per column. Returns the exit code. Thread: main. */
int cli_bench__cube3(const cube3_bench_t *b);

#endif
