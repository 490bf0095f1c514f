/* SPDX-License-Identifier: MIT */
/* bench_tiles24.c - optimal 24-puzzle solves at increasing depth. */

/*
 * The 24-puzzle with IDA* and the 6-6-6-6 pattern databases (heuristic
 * `pdb`, with their diagonal reflection). Instances are random walks from
 * the goal of growing length (no move undoes the one before), from a fixed
 * seed so runs compare; a walk of L moves has an optimal length of at most
 * L, and long walks approach random positions (optimal about 100 moves).
 * Each instance gets the same time limit (10 minutes by default); the
 * series stops after the first length at which no instance finished. One
 * line per instance (walk length, optimal length, nodes, seconds, nodes
 * per second), then per walk length the median time and the deepest
 * optimal answer found within the limit.
 *
 *   bench_tiles24 --walks 60,80,100,120,160 --count 3 --time-ms 600000
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "solve.h"

#define MAX_WALKS 32
#define MAX_COUNT 64

typedef struct options {
    int walks[MAX_WALKS];
    int nwalks;
    int count;
    int threads;
    uint64_t seed;
    uint64_t time_ms;
    const char *heuristic;
} options_t;

/* Parses "60,80,100" into o->walks. */
static int
parse_walks(const char *v, options_t *o)
{
    char *end;

    o->nwalks = 0;
    while (*v != '\0' && o->nwalks < MAX_WALKS) {
        long n = strtol(v, &end, 10);

        if (end == v || n < 1 || n > 1000) {
            return -1;
        }
        o->walks[o->nwalks++] = (int)n;
        v = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0') {
            return -1;
        }
    }
    return o->nwalks > 0 ? 0 : -1;
}

static int
parse(int argc, char **argv, options_t *o)
{
    memset(o, 0, sizeof(*o));
    o->count = 3;
    o->threads = 2;
    o->seed = 1;
    o->time_ms = 600000;
    o->heuristic = "pdb";
    parse_walks("40,60,80,100,120,160,200", o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;

        if (v == NULL) {
            return -1;
        }
        if (strcmp(a, "--walks") == 0) {
            if (parse_walks(v, o) != 0) {
                return -1;
            }
        } else if (strcmp(a, "--count") == 0) {
            o->count = atoi(v);
        } else if (strcmp(a, "--threads") == 0) {
            o->threads = atoi(v);
        } else if (strcmp(a, "--seed") == 0) {
            o->seed = strtoull(v, NULL, 10);
        } else if (strcmp(a, "--time-ms") == 0) {
            o->time_ms = strtoull(v, NULL, 10);
        } else if (strcmp(a, "--heuristic") == 0) {
            o->heuristic = v;
        } else {
            return -1;
        }
        i++;
    }
    if (o->count < 1 || o->count > MAX_COUNT || o->threads < 1) {
        return -1;
    }
    return 0;
}

int
main(int argc, char **argv)
{
    pz_params_t params = { 5, 5, 0 };
    pz_puzzle_t *p = NULL;
    pz_heuristic_t *warm = NULL;
    options_t o;
    pz_state_t goal;
    pz_rng_t rng;
    int deepest = -1;
    double t0;

    if (parse(argc, argv, &o) != 0) {
        fprintf(stderr,
                "usage: %s [--walks L1,L2,...] [--count N] [--threads N] "
                "[--time-ms T] [--seed S] [--heuristic pdb|linear-conflict]\n",
                argv[0]);
        return 2;
    }
    if (puzzle_create("tiles", &params, &p, NULL) != PZ_OK) {
        fprintf(stderr, "cannot create the 24-puzzle\n");
        return 1;
    }
    puzzle_goal(p, &goal);
    /* Load (or build) the databases first so the solves time only the
     * search. */
    t0 = bench_now();
    if (heuristic_create(p, o.heuristic, &goal, &warm, NULL) != PZ_OK) {
        fprintf(stderr, "cannot create heuristic %s\n", o.heuristic);
        puzzle_destroy(p);
        return 1;
    }
    heuristic_destroy(warm);
    printf("# 24-puzzle, IDA* + %s, %d threads, limit %.0f s per instance; "
           "tables ready in %.1f s\n",
           o.heuristic, o.threads, (double)o.time_ms / 1000.0,
           bench_now() - t0);
    printf("# %4s %3s %-8s %4s %14s %14s %9s %10s\n", "walk", "#", "status",
           "len", "expanded", "generated", "seconds", "gen/s");
    pz_rng_seed(&rng, o.seed);
    for (int w = 0; w < o.nwalks; w++) {
        double secs[MAX_COUNT];
        int solved = 0;
        int lmin = 1000;
        int lmax = -1;

        for (int i = 0; i < o.count; i++) {
            uint8_t mv[PZ_SOLUTION_MAX];
            solve_spec_t spec;
            solve_run_t run;
            pz_stats_view_t view;
            int len =
                o.walks[w] < PZ_SOLUTION_MAX ? o.walks[w] : PZ_SOLUTION_MAX - 1;
            double t;

            memset(&spec, 0, sizeof(spec));
            spec.puzzle = p;
            spec.goal = goal;
            spec.threads = o.threads;
            spec.limits.time_ms = o.time_ms;
            spec.limits.memory_bytes = (size_t)64 << 20;
            puzzle_random_moves(p, &goal, len, pz_rng_next, &rng, mv);
            puzzle_replay(p, &goal, mv, len, &spec.start);
            solve_run_init(&run, engine_find("idastar"), o.heuristic, 1.0);
            t = bench_now();
            if (solve_execute(&spec, &run, NULL) != PZ_OK) {
                fprintf(stderr, "solve failed\n");
                puzzle_destroy(p);
                return 1;
            }
            secs[i] = bench_now() - t;
            stats_read(&run.stats, &view);
            printf("  %4d %3d %-8s %4d %14llu %14llu %9.2f %10.3g\n",
                   o.walks[w], i, pz_status_name(run.solution.status),
                   run.solution.status == PZ_STATUS_SOLVED ? run.solution.length
                                                           : -1,
                   (unsigned long long)view.nodes_expanded,
                   (unsigned long long)view.nodes_generated, secs[i],
                   secs[i] > 0 ? (double)view.nodes_generated / secs[i] : 0.0);
            fflush(stdout);
            if (run.solution.status == PZ_STATUS_SOLVED) {
                solved++;
                lmin = run.solution.length < lmin ? run.solution.length : lmin;
                lmax = run.solution.length > lmax ? run.solution.length : lmax;
                deepest = lmax > deepest ? lmax : deepest;
            }
        }
        printf("walk %d: %d of %d solved, optimal lengths %d-%d, median "
               "%.2f s\n",
               o.walks[w], solved, o.count, solved ? lmin : -1, lmax,
               bench_median(secs, o.count));
        fflush(stdout);
        if (solved == 0) {
            break;
        }
    }
    printf("deepest optimal solution within %.0f s: %d moves\n",
           (double)o.time_ms / 1000.0, deepest);
    puzzle_destroy(p);
    return 0;
}
