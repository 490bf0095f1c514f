/* SPDX-License-Identifier: MIT */
/* cli_bench_cube3.c - `puzzled bench cube3`: two-phase benchmarks.
 *
 * cube3: the two-phase engine on uniformly random 3x3x3 states (the
 * puzzle's random_state with a fixed seed, not scrambles), side by side in
 * two settings on the same states: "stop at the target length" and "a
 * fixed time budget, improving until it ends" (target 0), by default
 * every A solve first and then every B solve (--order); optionally the
 * optimal IDA* (pdb heuristic) on the first few states. Per state: length,
 * wall and CPU time, nodes; then mean, median and 95th percentile. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_bench.h"
#include "engine.h"
#include "solve.h"
#include "tables.h"

/* One solve of the cube3 bench. */
typedef struct cube3_row {
    int status;
    int length;
    double ms;     /* wall clock, from the job's statistics */
    double cpu_ms; /* CPU time of the calling thread */
    uint64_t nodes;
} cube3_row_t;

static double
thread_cpu_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void
cube3_solve(const solve_spec_t *spec,
            const char *engine,
            const char *heuristic,
            cube3_row_t *row)
{
    solve_run_t run;
    pz_stats_view_t v;
    double cpu = thread_cpu_ms();

    solve_run_init(&run, engine_find_for(spec->puzzle, engine), heuristic, 1.0);
    solve_execute(spec, &run, NULL);
    row->cpu_ms = thread_cpu_ms() - cpu;
    stats_read(&run.stats, &v);
    row->status = run.solution.status;
    row->length = run.solution.length;
    row->ms = v.elapsed_ms;
    row->nodes = v.nodes_expanded;
}

/* Prints mean, median and 95th percentile of v[0..n) (sorts v). */
static void
print_spread(const char *what, double *v, int n)
{
    double sum = 0;

    if (n == 0) {
        printf("  %-12s -\n", what);
        return;
    }
    for (int i = 0; i < n; i++) {
        sum += v[i];
    }
    qsort(v, (size_t)n, sizeof(*v), cli_bench__cmp_double);
    printf("  %-12s mean %10.3f  median %10.3f  p95 %10.3f  max %10.3f\n", what,
           sum / n, n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2,
           v[(n * 95 + 99) / 100 - 1], v[n - 1]);
}

/* Summary of one column of the cube3 bench. */
static void
cube3_summary(const char *title, const cube3_row_t *rows, int n)
{
    double *len = calloc((size_t)n + 1, sizeof(double));
    double *ms = calloc((size_t)n + 1, sizeof(double));
    double *cpu = calloc((size_t)n + 1, sizeof(double));
    double *nodes = calloc((size_t)n + 1, sizeof(double));
    int solved = 0;
    int hist[32] = { 0 };

    if (len == NULL || ms == NULL || cpu == NULL || nodes == NULL) {
        free(len);
        free(ms);
        free(cpu);
        free(nodes);
        return;
    }
    for (int i = 0; i < n; i++) {
        if (rows[i].status == PZ_STATUS_SOLVED) {
            len[solved] = rows[i].length;
            hist[rows[i].length < 31 ? rows[i].length : 31]++;
            solved++;
        }
        ms[i] = rows[i].ms;
        cpu[i] = rows[i].cpu_ms;
        nodes[i] = (double)rows[i].nodes;
    }
    printf("%s: %d of %d solved\n", title, solved, n);
    print_spread("length", len, solved);
    print_spread("wall ms", ms, n);
    print_spread("cpu ms", cpu, n);
    print_spread("nodes", nodes, n);
    printf("  lengths     ");
    for (int l = 0; l < 32; l++) {
        if (hist[l] != 0) {
            printf(" %d:%d", l, hist[l]);
        }
    }
    printf("\n");
    free(len);
    free(ms);
    free(cpu);
    free(nodes);
}

static void
print_cube3_cell(const cube3_row_t *r)
{
    if (r->status == PZ_STATUS_SOLVED) {
        printf("  %3d %9.3f %9.3f %10llu", r->length, r->ms, r->cpu_ms,
               (unsigned long long)r->nodes);
    } else {
        printf("  %-13s %9.3f %10llu", pz_status_name(r->status), r->ms,
               (unsigned long long)r->nodes);
    }
}

/* Writes the states' facelet strings, one per line, to path: the format
 * other two-phase solvers read, so they can be timed on the same set. */
static int
write_cube3_states(const pz_puzzle_t *p,
                   const pz_state_t *starts,
                   int count,
                   const char *path)
{
    FILE *f = fopen(path, "w");
    char buf[64];

    if (f == NULL) {
        fprintf(stderr, "puzzled: %s: %s\n", path, strerror(errno));
        return CLI_EXIT_INPUT;
    }
    for (int i = 0; i < count; i++) {
        if (puzzle_format_state(p, &starts[i], buf, sizeof(buf)) < 0) {
            fclose(f);
            fprintf(stderr, "puzzled: cannot format state %d\n", i + 1);
            return CLI_EXIT_INTERNAL;
        }
        fprintf(f, "%s\n", buf);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "puzzled: %s: %s\n", path, strerror(errno));
        return CLI_EXIT_INPUT;
    }
    return CLI_EXIT_OK;
}

/* Reads up to max facelet strings, one per line (blank lines and lines
 * starting with # skipped), from path into a new array *out; returns
 * their number, or -1 after printing why. */
static int
read_cube3_states(const pz_puzzle_t *p,
                  const char *path,
                  int max,
                  pz_state_t **out)
{
    FILE *f = fopen(path, "r");
    pz_state_t *s = NULL;
    int n = 0;
    int cap = 0;
    int line = 0;
    char buf[256];

    if (f == NULL) {
        fprintf(stderr, "puzzled: %s: %s\n", path, strerror(errno));
        return -1;
    }
    while (n < max && fgets(buf, sizeof(buf), f) != NULL) {
        size_t len = strcspn(buf, "\r\n");
        pz_input_t in = { 0 };
        pz_diag_t d;

        line++;
        if (buf[len] == '\0' && !feof(f)) {
            fprintf(stderr, "puzzled: %s:%d: line too long\n", path, line);
            goto fail;
        }
        buf[len] = '\0';
        if (len == 0 || buf[0] == '#') {
            continue;
        }
        if (n == cap) {
            int ncap = cap == 0 ? 128 : 2 * cap;
            pz_state_t *ns = realloc(s, (size_t)ncap * sizeof(*s));

            if (ns == NULL) {
                fprintf(stderr, "puzzled: out of memory\n");
                goto fail;
            }
            s = ns;
            cap = ncap;
        }
        in.text = buf;
        if (puzzle_parse_state(p, &in, &s[n], &d) != PZ_OK) {
            fprintf(stderr, "puzzled: %s:%d: %s\n", path, line, d.detail);
            goto fail;
        }
        n++;
    }
    if (ferror(f) || n == 0) {
        fprintf(stderr, "puzzled: %s: %s\n", path,
                ferror(f) ? "read error" : "no states");
        goto fail;
    }
    fclose(f);
    *out = s;
    return n;
fail:
    fclose(f);
    free(s);
    return -1;
}

/* The tables the two-phase engine reads, as prepare_tables found them. */
typedef struct bench_tables {
    bool built; /* some had to be built */
    double ms;  /* loading or building them took */
    uint64_t bytes;
} bench_tables_t;

/* Loads (or builds) every table the twophase engine needs for p and goal,
 * before any search is timed. */
static int
prepare_tables(const pz_puzzle_t *p, const pz_state_t *goal, bench_tables_t *t)
{
    const engine_ops_t *e = engine_find_for(p, "twophase");
    const char *names[8];
    uint64_t t0 = pz_now_ns();
    int n;

    memset(t, 0, sizeof(*t));
    if (e == NULL || e->tables == NULL) {
        return PZ_EUNSUPPORTED;
    }
    n = e->tables(p, goal, names, 8);
    for (int i = 0; i < n && i < 8; i++) {
        tables_status_t st;
        bool built = false;
        int rc = tables_ensure(names[i], &built);

        if (rc != PZ_OK) {
            return rc;
        }
        t->built = t->built || built;
        if (tables_status(names[i], &st) == PZ_OK) {
            t->bytes += st.bytes;
        }
    }
    t->ms = (double)(pz_now_ns() - t0) / 1e6;
    return PZ_OK;
}

int
cli_bench__cube3(const cube3_bench_t *b)
{
    pz_params_t prm = { 0, 0, b->qtm ? PZ_METRIC_QTM : PZ_METRIC_HTM };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;
    pz_rng_t rng;
    cube3_row_t *rows = NULL;
    pz_state_t *starts = NULL;
    pz_state_t *goals = NULL;
    int count = b->count;
    int rc = CLI_EXIT_INTERNAL; /* what a goto out returns */
    bench_tables_t tab;
    int err;

    if (puzzle_create("3x3x3", &prm, &p, &d) != PZ_OK) {
        fprintf(stderr, "puzzled: %s\n", d.detail);
        return CLI_EXIT_INTERNAL;
    }
    if (b->states_in != NULL) {
        count = read_cube3_states(p, b->states_in, count, &starts);
        if (count < 0) {
            rc = CLI_EXIT_INPUT;
            goto out;
        }
    } else {
        starts = calloc((size_t)count, sizeof(*starts));
    }
    rows = calloc((size_t)count * 3, sizeof(*rows));
    goals = calloc((size_t)count, sizeof(*goals));
    if (rows == NULL || starts == NULL || goals == NULL) {
        fprintf(stderr, "puzzled: out of memory\n");
        goto out;
    }
    if (b->states_in == NULL) {
        pz_rng_seed(&rng, b->seed);
        for (int i = 0; i < count; i++) {
            puzzle_random_state(p, pz_rng_next, &rng, &starts[i]);
        }
    }
    for (int i = 0; i < count; i++) {
        puzzle_goal(p, &goals[i]);
    }
    if (b->states_out != NULL) {
        rc = write_cube3_states(p, starts, count, b->states_out);
        if (rc != CLI_EXIT_OK) {
            goto out;
        }
    }
    err = prepare_tables(p, &goals[0], &tab);
    if (err != PZ_OK) {
        fprintf(stderr, "puzzled: twophase tables: %s\n", pz_strerror(err));
        rc = CLI_EXIT_INTERNAL;
        goto out;
    }
    if (b->states_in != NULL) {
        printf("# 3x3x3 %s, %d states from %s, twophase with %d "
               "thread(s)\n",
               b->qtm ? "QTM" : "HTM", count, b->states_in, b->threads);
    } else {
        printf("# 3x3x3 %s, %d uniformly random states (seed %llu), "
               "twophase with %d thread(s)\n",
               b->qtm ? "QTM" : "HTM", count, (unsigned long long)b->seed,
               b->threads);
    }
    printf("# twophase tables: %s in %.0f ms, %.1f MiB\n",
           tab.built ? "built" : "loaded", tab.ms,
           (double)tab.bytes / (1 << 20));
    printf("# A: target %d, no time limit; B: time_ms %llu, target 0 "
           "(improve until the budget ends)",
           b->target, (unsigned long long)b->time_ms);
    if (b->optimal > 0) {
        printf("; C: idastar + pdb (optimal), first %d states, time_ms "
               "%llu each",
               b->optimal, (unsigned long long)b->opt_ms);
    }
    printf("\n# order: %s\n",
           b->passes ? "column A over all states, then column B (--order "
                       "passes)"
                     : "per state A then B (--order interleaved)");
    printf("%-6s  %3s %9s %9s %10s  %3s %9s %9s %10s\n", "state", "A.n",
           "wall ms", "cpu ms", "nodes", "B.n", "wall ms", "cpu ms", "nodes");
    /* Column pass k (0: A, 1: B) of state i. */
    for (int pass = 0; pass < (b->passes ? 2 : 1); pass++) {
        for (int i = 0; i < count; i++) {
            solve_spec_t spec = { 0 };

            spec.puzzle = p;
            spec.threads = b->threads;
            spec.limits.memory_bytes = (size_t)1 << 30;
            spec.goal = goals[i];
            spec.start = starts[i];
            if ((!b->passes || pass == 0) && b->columns & 1) {
                spec.target_length = b->target;
                cube3_solve(&spec, "twophase", "none", &rows[i]);
            }
            if ((!b->passes || pass == 1) && b->columns & 2) {
                spec.target_length = 0;
                spec.limits.time_ms = b->time_ms;
                cube3_solve(&spec, "twophase", "none", &rows[count + i]);
            }
            if (b->passes && pass == 0) {
                continue; /* printed after the B pass */
            }
            printf("%-6d", i + 1);
            if (b->columns & 1) {
                print_cube3_cell(&rows[i]);
            }
            if (b->columns & 2) {
                print_cube3_cell(&rows[count + i]);
            }
            if (i < b->optimal) {
                spec.threads = 1;
                spec.target_length = 0;
                spec.limits.time_ms = b->opt_ms;
                cube3_solve(&spec, "idastar", "pdb", &rows[2 * count + i]);
                printf("  C:");
                print_cube3_cell(&rows[2 * count + i]);
            }
            printf("\n");
            fflush(stdout);
        }
    }
    printf("\n");
    if (b->columns & 1) {
        cube3_summary("A (target)", rows, count);
    }
    if (b->columns & 2) {
        cube3_summary("B (time budget)", rows + count, count);
    }
    if (b->optimal > 0) {
        cube3_summary("C (optimal)", rows + 2 * count,
                      b->optimal < count ? b->optimal : count);
    }
    rc = CLI_EXIT_OK;
out:
    puzzle_destroy(p);
    free(rows);
    free(starts);
    free(goals);
    return rc;
}
