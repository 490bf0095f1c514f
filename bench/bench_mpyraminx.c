/* SPDX-License-Identifier: MIT */
/* bench_mpyraminx.c - Master Pyraminx: table builds, optimal and fast solves.
 */

/*
 * Three modes, each printing one line per case and a summary:
 *
 *   --build                  builds every pattern database in memory (no
 *                            cache) and prints size, time and distances;
 *   --moves K [--count N]    N random K-move scrambles (no immediately
 *                            redundant pair) solved with an engine
 *                            (default IDA* with "pdb": optimal);
 *   --random N               N uniformly random states (default engine
 *                            wastar, weight 2, "pdb");
 *   --only I                 of those cases, case I only (the same state
 *                            as in the whole run);
 *   --threads N              search threads (default 1);
 *   --phases N               N uniformly random states with the fast
 *                            method (engine twophase: phases by table and
 *                            wing 3-cycles, mpyraminx_phases.c); one
 *                            solve first loads the table and builds the
 *                            macros, timed apart.
 *
 * Tables come from the table directory ($PUZZLED_TABLES), built first if
 * missing, so the solve times below are search times only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "puzzles/mpyraminx/mpyraminx.h"
#include "solve.h"

typedef struct options {
    const char *engine;
    const char *heuristic;
    double weight;
    int build;
    int random;
    int phases;
    int moves;
    int count;
    uint64_t seed;
    int threads;
    int only; /* -1: every case, else the case of that number */
    uint64_t time_ms;
    size_t memory_mb;
} options_t;

static double
median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int
parse(int argc, char **argv, options_t *o)
{
    memset(o, 0, sizeof(*o));
    o->seed = 1;
    o->count = 5;
    o->threads = 1;
    o->only = -1;
    o->time_ms = 600000;
    o->memory_mb = 2048;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;

        if (strcmp(a, "--build") == 0) {
            o->build = 1;
            continue;
        }
        if (v == NULL) {
            return -1;
        }
        if (strcmp(a, "--engine") == 0) {
            o->engine = v;
        } else if (strcmp(a, "--heuristic") == 0) {
            o->heuristic = v;
        } else if (strcmp(a, "--weight") == 0) {
            o->weight = atof(v);
        } else if (strcmp(a, "--random") == 0) {
            o->random = atoi(v);
        } else if (strcmp(a, "--phases") == 0) {
            o->phases = atoi(v);
            o->random = o->phases;
        } else if (strcmp(a, "--moves") == 0) {
            o->moves = atoi(v);
        } else if (strcmp(a, "--count") == 0) {
            o->count = atoi(v);
        } else if (strcmp(a, "--seed") == 0) {
            o->seed = strtoull(v, NULL, 10);
        } else if (strcmp(a, "--time-ms") == 0) {
            o->time_ms = strtoull(v, NULL, 10);
        } else if (strcmp(a, "--threads") == 0) {
            o->threads = atoi(v);
        } else if (strcmp(a, "--only") == 0) {
            o->only = atoi(v);
        } else if (strcmp(a, "--memory-mb") == 0) {
            o->memory_mb = (size_t)atoi(v);
        } else {
            return -1;
        }
        i++;
    }
    return o->build || o->random > 0 || o->moves > 0 ? 0 : -1;
}

static int
run_build(void)
{
    static const char *const names[MPYRAMINX_PDB_COUNT] = {
        "wings",         "tips+axials+midges",         "axials+centres+midges",
        "wings+centres", "tips+axials+centres+midges",
    };

    for (int t = 0; t < MPYRAMINX_PDB_COUNT; t++) {
        uint64_t bytes = mpyraminx_pdb_bytes(t);
        uint64_t counts[16] = { 0 };
        uint8_t *data = calloc(1, bytes);
        double t0 = bench_now();
        double sum = 0;
        uint64_t total = 0;
        int rc;

        if (data == NULL) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        rc = mpyraminx_pdb_build(t, data, bytes, counts);
        if (rc != PZ_OK) {
            fprintf(stderr, "build failed: %d\n", rc);
            free(data);
            return 1;
        }
        printf("%-22s %11llu entries %7.1f MB %6.1f s  depths:", names[t],
               (unsigned long long)(bytes * 2), (double)bytes / 1e6,
               bench_now() - t0);
        for (int d = 0; d < 16; d++) {
            if (counts[d] != 0) {
                printf(" %llu", (unsigned long long)counts[d]);
            }
            sum += (double)d * (double)counts[d];
            total += counts[d];
        }
        printf("  mean %.3f\n", sum / (double)total);
        fflush(stdout);
        free(data);
    }
    return 0;
}

int
main(int argc, char **argv)
{
    options_t o;
    pz_puzzle_t *p = NULL;
    pz_heuristic_t *warm = NULL;
    pz_state_t goal;
    pz_rng_t rng;
    double t0;
    double *secs;
    double *nodes;
    double *lens;
    int n;
    int worst = 0;
    int ran = 0;
    double total = 0;
    double total_len = 0;
    double slowest = 0;

    if (parse(argc, argv, &o) != 0) {
        fprintf(stderr,
                "usage: %s --build | (--moves K [--count N] | --random N | "
                "--phases N) "
                "[--engine E] [--heuristic H] [--weight W] [--seed S] "
                "[--only I] [--threads N] [--time-ms N] [--memory-mb N]\n",
                argv[0]);
        return 2;
    }
    if (o.build) {
        return run_build();
    }
    if (o.phases > 0) {
        o.engine = "twophase";
        o.heuristic = "none";
    }
    if (o.engine == NULL) {
        o.engine = o.random > 0 ? "wastar" : "idastar";
    }
    if (o.heuristic == NULL) {
        o.heuristic = "pdb";
    }
    if (o.weight < 1.0) {
        o.weight = strcmp(o.engine, "wastar") == 0 ? 2.0 : 1.0;
    }
    if (puzzle_create("master-pyraminx", NULL, &p, NULL) != PZ_OK ||
        engine_find_for(p, o.engine) == NULL) {
        fprintf(stderr, "unknown engine or puzzle\n");
        return 1;
    }
    puzzle_goal(p, &goal);
    t0 = bench_now();
    if (heuristic_create(p, o.heuristic, &goal, &warm, NULL) != PZ_OK) {
        fprintf(stderr, "cannot create heuristic %s\n", o.heuristic);
        puzzle_destroy(p);
        return 1;
    }
    if (o.phases > 0) {
        /* The first solve loads the table and builds the macros. */
        solve_spec_t spec;
        solve_run_t run;

        memset(&spec, 0, sizeof(spec));
        spec.puzzle = p;
        spec.goal = goal;
        spec.start = goal;
        spec.threads = 1;
        solve_run_init(&run, engine_find_for(p, o.engine), o.heuristic,
                       o.weight);
        if (solve_execute(&spec, &run, NULL) != PZ_OK ||
            run.solution.length != 0) {
            fprintf(stderr, "first solve failed\n");
            return 1;
        }
    }
    printf("tables ready in %.3f s (%s)\n", bench_now() - t0,
           o.phases > 0 ? "phases" : o.heuristic);
    n = o.random > 0 ? o.random : o.count;
    secs = calloc((size_t)n, sizeof(double));
    nodes = calloc((size_t)n, sizeof(double));
    lens = calloc((size_t)n, sizeof(double));
    if (secs == NULL || nodes == NULL || lens == NULL) {
        return 1;
    }
    pz_rng_seed(&rng, o.seed);
    for (int i = 0; i < n; i++) {
        solve_spec_t spec;
        solve_run_t run;
        pz_stats_view_t view;
        char moves[1024];
        double t;

        memset(&spec, 0, sizeof(spec));
        spec.puzzle = p;
        spec.goal = goal;
        spec.threads = o.threads;
        spec.limits.time_ms = o.time_ms;
        spec.limits.memory_bytes = o.memory_mb << 20;
        if (o.random > 0) {
            puzzle_random_state(p, pz_rng_next, &rng, &spec.start);
        } else {
            uint8_t mv[PZ_SOLUTION_MAX];

            puzzle_random_moves(p, &goal, o.moves, pz_rng_next, &rng, mv);
            puzzle_replay(p, &goal, mv, o.moves, &spec.start);
        }
        if (o.only >= 0 && i != o.only) {
            continue;
        }
        solve_run_init(&run, engine_find_for(p, o.engine), o.heuristic,
                       o.weight);
        t = bench_now();
        if (solve_execute(&spec, &run, NULL) != PZ_OK) {
            fprintf(stderr, "solve failed\n");
            return 1;
        }
        secs[ran] = bench_now() - t;
        total += secs[ran];
        slowest = secs[ran] > slowest ? secs[ran] : slowest;
        stats_read(&run.stats, &view);
        nodes[ran] = (double)view.nodes_expanded;
        lens[ran] = run.solution.length;
        total_len += run.solution.length;
        worst = run.solution.length > worst ? run.solution.length : worst;
        puzzle_format_moves(p, run.solution.moves, run.solution.length, moves,
                            sizeof(moves));
        printf("%2d %-8s len %2d%s nodes %11llu %9.3f s  h0 %2d  bound %2d  "
               "%s\n",
               i, pz_status_name(run.solution.status), run.solution.length,
               run.solution.optimal ? "*" : " ",
               (unsigned long long)view.nodes_expanded, secs[ran],
               view.heuristic_at_start, view.depth_bound, moves);
        fflush(stdout);
        ran++;
    }
    if (ran == 0) {
        fprintf(stderr, "no case numbered %d\n", o.only);
    } else {
        printf("%s %s w=%.2f, %d cases: time median %.3f s, mean %.3f s, max "
               "%.3f s; expanded median %.0f; length median %.1f, mean %.2f, "
               "max %d\n",
               o.engine, o.heuristic, o.weight, ran, median(secs, ran),
               total / ran, slowest, median(nodes, ran), median(lens, ran),
               total_len / ran, worst);
    }
    free(secs);
    free(nodes);
    free(lens);
    heuristic_destroy(warm);
    puzzle_destroy(p);
    return ran == 0 ? 2 : 0;
}
