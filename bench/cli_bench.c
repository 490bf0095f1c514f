/* SPDX-License-Identifier: MIT */
/* cli_bench.c - `puzzled bench`: reproducible engine benchmarks.
 *
 * cube2: the pocket-cube notebook's comparison redone. Random states are
 * drawn with a fixed seed, their optimal QTM length is found by
 * bidirectional BFS, and for each length from 5 to 11 a few states are
 * solved by A* (seed heuristic), bidirectional BFS and IDA* (seed
 * heuristic). Each solve is repeated and the median time reported.
 *
 * tiles: IDA* on Korf's 15-puzzle instances (bench/data/korf100.txt, goal
 * with the blank first) with a chosen heuristic: per-instance length,
 * nodes, time and generated nodes per second, and the totals.
 *
 * cube3: the two-phase engine on uniformly random 3x3x3 states (the
 * puzzle's random_state with a fixed seed, not scrambles), side by side in
 * two settings on the same states: "stop at the target length" and "a
 * fixed time budget, improving until it ends" (target 0), by default
 * every A solve first and then every B solve (--order); optionally the
 * optimal IDA* (pdb heuristic) on the first few states. Per state: length,
 * wall and CPU time, nodes; then mean, median and 95th percentile. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "engine.h"
#include "solve.h"
#include "tables.h"

typedef struct bench_result {
    int status;
    int length;
    uint64_t expanded;
    uint64_t generated;
    uint64_t peak_memory;
    double ms; /* median over the repeats */
} bench_result_t;

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;

    return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Solves spec with engine/heuristic repeat times; the median time. */
static void
bench_solve(const solve_spec_t *spec,
            const char *engine,
            const char *heuristic,
            int repeat,
            bench_result_t *out)
{
    double ms[64];

    if (repeat > 64) {
        repeat = 64;
    }
    for (int r = 0; r < repeat; r++) {
        solve_run_t run;
        pz_stats_view_t v;

        solve_run_init(&run, engine_find_for(spec->puzzle, engine), heuristic,
                       1.0);
        solve_execute(spec, &run, NULL);
        stats_read(&run.stats, &v);
        ms[r] = v.elapsed_ms;
        out->status = run.solution.status;
        out->length = run.solution.length;
        out->expanded = v.nodes_expanded;
        out->generated = v.nodes_generated;
        out->peak_memory = v.peak_memory;
    }
    out->ms = median(ms, repeat);
}

static void
print_row(const char *label, const char *engine, const bench_result_t *r)
{
    printf("%-10s %-8s %-7s %3d %12llu %12llu %10.3f %8.2f %9.1f\n", label,
           engine, r->status == PZ_STATUS_SOLVED ? "solved" : "FAILED",
           r->length, (unsigned long long)r->expanded,
           (unsigned long long)r->generated, r->ms,
           r->ms > 0 ? (double)r->generated / r->ms / 1e3 : 0,
           (double)r->peak_memory / (1 << 20));
}

/* Draws a 2x2x2 QTM position whose optimal length is exactly len: a random
 * walk of len moves from solved, kept when bidirectional BFS proves that
 * nothing shorter reaches it. (Walks are not uniform over the positions of
 * that depth; uniform states are nearly all 11 to 14 moves away.) */
static void
draw_position(const pz_puzzle_t *p, int len, pz_rng_t *rng, solve_spec_t *spec)
{
    for (;;) {
        uint8_t moves[PZ_SOLUTION_MAX];
        bench_result_t opt = { 0 };

        puzzle_random_moves(p, &spec->goal, len, pz_rng_next, rng, moves);
        puzzle_replay(p, &spec->goal, moves, len, &spec->start);
        bench_solve(spec, "bibfs", "none", 1, &opt);
        if (opt.status == PZ_STATUS_SOLVED && opt.length == len) {
            return;
        }
    }
}

static int
bench_cube2(int per_length, int repeat, uint64_t seed)
{
    static const char *const engines[] = { "astar", "bibfs", "idastar" };
    static const char *const heuristics[] = { "seed", "none", "seed" };
    pz_params_t prm = { 0, 0, PZ_METRIC_QTM };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;
    pz_rng_t rng;
    double rate[3][512];
    double eleven[3][64];
    int nrate = 0;
    int neleven = 0;

    if (puzzle_create("2x2x2", &prm, &p, &d) != PZ_OK) {
        fprintf(stderr, "puzzled: %s\n", d.detail);
        return CLI_EXIT_INTERNAL;
    }
    pz_rng_seed(&rng, seed);
    printf("# 2x2x2 QTM, seed %llu, %d positions per optimal length, "
           "median of %d runs each\n",
           (unsigned long long)seed, per_length, repeat);
    printf("%-10s %-8s %-7s %3s %12s %12s %10s %8s %9s\n", "case", "engine",
           "status", "len", "expanded", "generated", "ms", "Mnodes/s",
           "peak MiB");
    for (int len = 5; len <= 11; len++) {
        for (int k = 1; k <= per_length; k++) {
            solve_spec_t spec = { 0 };
            char label[32];

            spec.puzzle = p;
            spec.threads = 1;
            spec.limits.memory_bytes = (size_t)1 << 30;
            puzzle_goal(p, &spec.goal);
            draw_position(p, len, &rng, &spec);
            snprintf(label, sizeof(label), "qtm%d.%d", len, k);
            for (int e = 0; e < 3; e++) {
                bench_result_t r = { 0 };

                bench_solve(&spec, engines[e], heuristics[e], repeat, &r);
                print_row(label, engines[e], &r);
                if (nrate < 512) {
                    rate[e][nrate] =
                        r.ms > 0 ? (double)r.generated / r.ms / 1e3 : 0;
                }
                if (len == 11 && neleven < 64) {
                    eleven[e][neleven] = r.ms;
                }
            }
            nrate += nrate < 512;
            neleven += len == 11 && neleven < 64;
        }
    }
    printf("\n# summary: medians over the positions above\n");
    for (int e = 0; e < 3; e++) {
        printf("%-8s %-5s 11-move QTM: %.3f ms; generated nodes/s over all "
               "lengths: %.2f M\n",
               engines[e], heuristics[e],
               neleven ? median(eleven[e], neleven) : 0,
               nrate ? median(rate[e], nrate) : 0);
    }
    puzzle_destroy(p);
    return CLI_EXIT_OK;
}

/* Reads up to max Korf instances; returns how many. */
static int
read_korf(const char *path, int tiles[][16], int *lengths, int max)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int n = 0;

    if (f == NULL) {
        return -1;
    }
    while (n < max && fgets(line, sizeof(line), f) != NULL) {
        int *t = tiles[n];

        if (line[0] == '#' ||
            sscanf(line, "%d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d",
                   &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], &t[6], &t[7],
                   &t[8], &t[9], &t[10], &t[11], &t[12], &t[13], &t[14], &t[15],
                   &lengths[n]) != 17) {
            continue;
        }
        n++;
    }
    fclose(f);
    return n;
}

static int
bench_tiles(const char *data,
            int first,
            int count,
            const char *engine,
            const char *heuristic,
            uint64_t time_ms,
            int threads)
{
    static int tiles[100][16];
    static int lengths[100];
    int goal_ints[16];
    pz_puzzle_t *p = NULL;
    pz_diag_t d;
    solve_spec_t spec = { 0 };
    pz_input_t in = { 0 };
    uint64_t total_gen = 0;
    uint64_t total_exp = 0;
    double total_ms = 0;
    double rates[100];
    int nrates = 0;
    int wrong = 0;
    int n = read_korf(data, tiles, lengths, 100);

    if (n <= 0) {
        fprintf(stderr, "puzzled: cannot read %s\n", data);
        return CLI_EXIT_INPUT;
    }
    if (puzzle_create("15-puzzle", NULL, &p, &d) != PZ_OK) {
        fprintf(stderr, "puzzled: %s\n", d.detail);
        return CLI_EXIT_INTERNAL;
    }
    for (int i = 0; i < 16; i++) {
        goal_ints[i] = i;
    }
    in.ints = goal_ints;
    in.nints = 16;
    in.ndims = 1;
    in.shape[0] = 16;
    puzzle_parse_state(p, &in, &spec.goal, &d);
    spec.puzzle = p;
    spec.threads = threads;
    spec.limits.time_ms = time_ms;
    spec.limits.memory_bytes = (size_t)1 << 30;
    /* Tables (pattern databases) load or build on first use: do it here,
     * outside the timed searches, and say how long it took. */
    {
        pz_heuristic_t *h = NULL;
        uint64_t t0 = pz_now_ns();

        if (heuristic_create(p, heuristic, &spec.goal, &h, &d) != PZ_OK) {
            fprintf(stderr, "puzzled: %s\n", d.detail);
            puzzle_destroy(p);
            return CLI_EXIT_INPUT;
        }
        heuristic_destroy(h);
        printf("# heuristic %s ready in %.2f s (tables in memory: %.1f MiB)\n",
               heuristic, (double)(pz_now_ns() - t0) / 1e9,
               (double)tables_memory_bytes() / (1 << 20));
    }
    printf("# Korf 15-puzzle instances %d..%d, %s + %s, goal blank first, "
           "%d thread(s)\n",
           first, first + count - 1, engine, heuristic, threads);
    printf("%-10s %-8s %-7s %3s %12s %12s %10s %8s %9s\n", "instance", "engine",
           "status", "len", "expanded", "generated", "ms", "Mnodes/s",
           "peak MiB");
    for (int k = first; k < first + count && k <= n; k++) {
        bench_result_t r = { 0 };
        char label[32];

        in.ints = tiles[k - 1];
        puzzle_parse_state(p, &in, &spec.start, &d);
        bench_solve(&spec, engine, heuristic, 1, &r);
        snprintf(label, sizeof(label), "korf%d", k);
        print_row(label, engine, &r);
        if (r.status == PZ_STATUS_SOLVED && r.length != lengths[k - 1]) {
            printf("  WRONG: expected %d\n", lengths[k - 1]);
            wrong++;
        }
        total_gen += r.generated;
        total_exp += r.expanded;
        total_ms += r.ms;
        if (r.ms > 0) {
            rates[nrates++] = (double)r.generated / r.ms / 1e3;
        }
    }
    printf("\n# total %.3f s, %llu expanded, %llu generated, %.2f M nodes/s "
           "overall, median per instance %.2f M nodes/s, %d wrong lengths\n",
           total_ms / 1e3, (unsigned long long)total_exp,
           (unsigned long long)total_gen,
           total_ms > 0 ? (double)total_gen / total_ms / 1e3 : 0,
           nrates ? median(rates, nrates) : 0, wrong);
    puzzle_destroy(p);
    return wrong ? CLI_EXIT_INTERNAL : CLI_EXIT_OK;
}

/* --- cube3 --- */

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
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
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

static int
bench_cube3(const cube3_bench_t *b)
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

static void
usage(FILE *f)
{
    fprintf(f, "usage: puzzled bench cube2 [--per-length N] [--repeat R] "
               "[--seed S]\n"
               "       puzzled bench tiles [--data FILE] [--first K] "
               "[--count N] [--engine E] [--heuristic H] [--time-ms T] "
               "[--threads N]\n"
               "       puzzled bench cube3 [--count N] [--seed S] "
               "[--target N] [--time-ms T] [--threads N] [--qtm]\n"
               "                           [--optimal N] "
               "[--optimal-time-ms T] [--columns A|B|AB]\n"
               "                           [--order interleaved|passes] "
               "[--states-in FILE] [--states-out FILE]\n"
               "       puzzled bench build [--runs N] [--base DIR] "
               "[UNIT...]\n");
}

int
cli_bench(int argc, char **argv)
{
    static const struct option opts[] = {
        { "per-length", required_argument, NULL, 'l' },
        { "repeat", required_argument, NULL, 'r' },
        { "seed", required_argument, NULL, 's' },
        { "data", required_argument, NULL, 'd' },
        { "first", required_argument, NULL, 'f' },
        { "count", required_argument, NULL, 'c' },
        { "engine", required_argument, NULL, 'e' },
        { "heuristic", required_argument, NULL, 'H' },
        { "time-ms", required_argument, NULL, 't' },
        { "target", required_argument, NULL, 'T' },
        { "threads", required_argument, NULL, 'j' },
        { "optimal", required_argument, NULL, 'o' },
        { "optimal-time-ms", required_argument, NULL, 'O' },
        { "qtm", no_argument, NULL, 'q' },
        { "columns", required_argument, NULL, 'C' },
        { "order", required_argument, NULL, 'R' },
        { "states-in", required_argument, NULL, 'I' },
        { "states-out", required_argument, NULL, 'S' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    long long per_length = 3, repeat = 5, seed = 20261121, first = 1;
    long long count = 100, time_ms = -1;
    bool count_given = false;
    long long target_len = -1, threads = 1, optimal = 0, opt_ms = 600000;
    bool qtm = false;
    int columns = 3;
    /* Column A over all states first, then column B: a B solve's 10 ms
     * of random table reads would otherwise leave the next A solve cold
     * caches (its median 0.13-0.17 ms interleaved, 0.07-0.09 ms in
     * passes; docs/twophase.md). --order interleaved solves A then B per
     * state. */
    bool passes = true;
    const char *data = "bench/data/korf100.txt";
    const char *engine = "idastar";
    const char *heuristic = "manhattan";
    const char *states_in = NULL;
    const char *states_out = NULL;
    const char *which = argc > 1 ? argv[1] : "";
    int opt;

    if (strcmp(which, "table") == 0) {
        return cli_tables_bench(argc - 1, argv + 1);
    }
    if (strcmp(which, "build") == 0) {
        return cli_bench_build(argc - 1, argv + 1);
    }
    optind = 2;
    int opt_index = 0;

    while ((opt = getopt_long(argc, argv, "", opts, &opt_index)) != -1) {
        long long *target = NULL;
        long long max = 1000000000LL;

        switch (opt) {
        case 'l':
            target = &per_length;
            max = 64;
            break;
        case 'r':
            target = &repeat;
            max = 64;
            break;
        case 's':
            target = &seed;
            max = 9000000000000000000LL;
            break;
        case 'f':
            target = &first;
            max = 100;
            break;
        case 'c':
            count_given = true;
            target = &count;
            max = 1000000;
            break;
        case 't':
            target = &time_ms;
            break;
        case 'T':
            target = &target_len;
            max = PZ_SOLUTION_MAX;
            break;
        case 'j':
            target = &threads;
            max = 64;
            break;
        case 'o':
            target = &optimal;
            break;
        case 'O':
            target = &opt_ms;
            break;
        case 'q':
            qtm = true;
            break;
        case 'C':
            columns = (strchr(optarg, 'A') != NULL) |
                      (strchr(optarg, 'B') != NULL) << 1;
            if (columns == 0) {
                fprintf(stderr, "puzzled: --columns takes A, B or AB\n");
                return CLI_EXIT_INPUT;
            }
            break;
        case 'R':
            if (strcmp(optarg, "passes") != 0 &&
                strcmp(optarg, "interleaved") != 0) {
                fprintf(stderr,
                        "puzzled: --order takes interleaved or passes\n");
                return CLI_EXIT_INPUT;
            }
            passes = strcmp(optarg, "passes") == 0;
            break;
        case 'I':
            states_in = optarg;
            break;
        case 'S':
            states_out = optarg;
            break;
        case 'd':
            data = optarg;
            break;
        case 'e':
            engine = optarg;
            break;
        case 'H':
            heuristic = optarg;
            break;
        case 'h':
            usage(stdout);
            return CLI_EXIT_OK;
        default:
            usage(stderr);
            return CLI_EXIT_INPUT;
        }
        if (target != NULL &&
            (*target = cli_parse_uint(opts[opt_index].name, optarg, max)) < 0) {
            return CLI_EXIT_INPUT;
        }
    }
    if (per_length < 1 || repeat < 1 || first < 1 || count < 1) {
        usage(stderr);
        return CLI_EXIT_INPUT;
    }
    if (strcmp(which, "cube2") == 0) {
        return bench_cube2((int)per_length, (int)repeat, (uint64_t)seed);
    }
    if (strcmp(which, "cube3") == 0) {
        cube3_bench_t b = {
            /* A file's states: all of them unless --count is given. */
            .count = states_in != NULL && !count_given ? 1000000 : (int)count,
            .seed = (uint64_t)seed,
            .target = target_len >= 0 ? (int)target_len
                      : qtm           ? 26
                                      : 20,
            .time_ms = time_ms >= 0 ? (uint64_t)time_ms : 10,
            .optimal = (int)optimal,
            .opt_ms = (uint64_t)opt_ms,
            .threads = threads > 0 ? (int)threads : 1,
            .qtm = qtm,
            .columns = columns,
            .passes = passes,
            .states_in = states_in,
            .states_out = states_out,
        };

        return bench_cube3(&b);
    }
    if (count > 100) {
        count = 100;
    }
    if (time_ms < 0) {
        time_ms = 600000;
    }
    if (strcmp(which, "tiles") == 0) {
        if (engine_find(engine) == NULL) {
            fprintf(stderr, "puzzled: unknown engine '%s'\n", engine);
            return CLI_EXIT_INPUT;
        }
        return bench_tiles(data, (int)first, (int)count, engine, heuristic,
                           (uint64_t)time_ms, (int)threads);
    }
    usage(stderr);
    return CLI_EXIT_INPUT;
}
