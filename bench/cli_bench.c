/* SPDX-License-Identifier: MIT */
/* cli_bench.c - `puzzled bench`: reproducible engine benchmarks.
 *
 * cube2: the pocket-cube notebook's comparison redone. Random states are
 * drawn with a fixed seed, their optimal QTM length is found by
 * bidirectional BFS, and for each length from 5 to 11 a few states are
 * solved by A* (seed heuristic), bidirectional BFS and IDA* (seed
 * heuristic). Each solve is repeated and the median time reported.
 *
 * tiles: IDA* on Korf's 15-puzzle instances (bench/data/korf100.txt) or
 * Korf and Felner's 24-puzzle instances (bench/data/korf-felner24.txt),
 * goal with the blank first, with a chosen heuristic, a time limit per
 * instance and threads on each: per-instance status, length against the
 * published one, nodes, time and generated nodes per second, and the
 * totals.
 *
 * cube3: the two-phase engine on random 3x3x3 states, in
 * cli_bench_cube3.c. */
#include "cli_bench.h"

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
    bool optimal; /* proven shortest */
    double ms;    /* median over the repeats */
} bench_result_t;

int
cli_bench__cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;

    return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cli_bench__cmp_double);
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
        out->optimal = run.solution.optimal;
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

#define TILES_MAX_INSTANCES 100
#define TILES_MAX_CELLS     25

/* Instances of a benchmark file: per line the tiles in row-major order
 * (0 = blank), then the published optimal length; every line with as
 * many numbers as the first. */
typedef struct tiles_data {
    int cells; /* 16 or 25 */
    int n;
    int tiles[TILES_MAX_INSTANCES][TILES_MAX_CELLS];
    int length[TILES_MAX_INSTANCES];
} tiles_data_t;

/* Reads path into *td; returns the instance count, -1 when the file is
 * missing or holds no square board of 16 or 25 cells. */
static int
read_tiles_data(const char *path, tiles_data_t *td)
{
    FILE *f = fopen(path, "r");
    char line[512];

    td->n = 0;
    td->cells = 0;
    if (f == NULL) {
        return -1;
    }
    while (td->n < TILES_MAX_INSTANCES &&
           fgets(line, sizeof(line), f) != NULL) {
        int v[TILES_MAX_CELLS + 1];
        int k = 0;
        char *at = line;
        char *end;

        if (line[0] == '#') {
            continue;
        }
        while (k < TILES_MAX_CELLS + 1) {
            long x = strtol(at, &end, 10);

            if (end == at) {
                break;
            }
            v[k++] = (int)x;
            at = end;
        }
        if (k != 17 && k != 26) {
            continue; /* not an instance line */
        }
        if (td->cells == 0) {
            td->cells = k - 1;
        }
        if (k - 1 != td->cells) {
            continue;
        }
        memcpy(td->tiles[td->n], v, (size_t)td->cells * sizeof(int));
        td->length[td->n++] = v[td->cells];
    }
    fclose(f);
    return td->n > 0 ? td->n : -1;
}

/* Whether instance k (1-based) is in the comma-separated list only (NULL:
 * every instance). */
static bool
tiles_selected(const char *only, int k)
{
    const char *at = only;

    if (only == NULL) {
        return true;
    }
    while (*at != '\0') {
        char *end;
        long x = strtol(at, &end, 10);

        if (end == at) {
            return false;
        }
        if (x == k) {
            return true;
        }
        at = *end == ',' ? end + 1 : end;
    }
    return false;
}

static int
bench_tiles(const char *data,
            int first,
            int count,
            const char *only,
            const char *engine,
            const char *heuristic,
            uint64_t time_ms,
            int threads,
            bool inverse_only,
            uint32_t frontier,
            uint64_t memory_mb)
{
    static tiles_data_t td;
    int goal_ints[TILES_MAX_CELLS];
    pz_puzzle_t *p = NULL;
    pz_diag_t d;
    solve_spec_t spec = { 0 };
    pz_input_t in = { 0 };
    uint64_t total_gen = 0;
    uint64_t total_exp = 0;
    double total_ms = 0;
    double rates[TILES_MAX_INSTANCES];
    int nrates = 0;
    int wrong = 0;
    int solved = 0;
    int ran = 0;
    int n = read_tiles_data(data, &td);
    const engine_ops_t *e;
    const char *name;

    if (n <= 0) {
        fprintf(stderr,
                "puzzled: cannot read %s (16 or 25 tiles and a "
                "length per line)\n",
                data);
        return CLI_EXIT_INPUT;
    }
    name = td.cells == 16 ? "15-puzzle" : "24-puzzle";
    if (puzzle_create(name, NULL, &p, &d) != PZ_OK) {
        fprintf(stderr, "puzzled: %s\n", d.detail);
        return CLI_EXIT_INTERNAL;
    }
    e = engine_find_for(p, engine);
    if (e == NULL) {
        fprintf(stderr, "puzzled: engine '%s' cannot solve %s\n", engine, name);
        puzzle_destroy(p);
        return CLI_EXIT_INPUT;
    }
    /* An engine with its own heuristic searches with that one. */
    heuristic = e->heuristic != NULL ? e->heuristic : heuristic;
    for (int i = 0; i < td.cells; i++) {
        goal_ints[i] = i;
    }
    in.ints = goal_ints;
    in.nints = (size_t)td.cells;
    in.ndims = 1;
    in.shape[0] = (size_t)td.cells;
    puzzle_parse_state(p, &in, &spec.goal, &d);
    spec.puzzle = p;
    spec.threads = threads;
    spec.inverse_pruning_only = inverse_only;
    spec.frontier_nodes = frontier;
    spec.limits.time_ms = time_ms;
    spec.limits.memory_bytes = (size_t)memory_mb << 20;
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
    printf("# %s, %s instances %d..%d%s%s, %s + %s, goal blank first, "
           "%d thread(s), %.0f s per instance, %llu MiB, pruning %s\n",
           name, data, first, first + count - 1 < n ? first + count - 1 : n,
           only ? ", only " : "", only ? only : "", engine, heuristic, threads,
           (double)time_ms / 1e3, (unsigned long long)memory_mb,
           inverse_only ? "inverse" : "strings");
    printf("%-10s %-8s %-10s %3s %4s %14s %14s %11s %8s %9s\n", "instance",
           "engine", "status", "len", "pub", "expanded", "generated", "ms",
           "Mnodes/s", "peak MiB");
    for (int k = first; k < first + count && k <= n; k++) {
        bench_result_t r = { 0 };

        if (!tiles_selected(only, k)) {
            continue;
        }
        in.ints = td.tiles[k - 1];
        if (puzzle_parse_state(p, &in, &spec.start, &d) != PZ_OK) {
            fprintf(stderr, "puzzled: %s instance %d: %s\n", data, k, d.detail);
            puzzle_destroy(p);
            return CLI_EXIT_INPUT;
        }
        bench_solve(&spec, engine, heuristic, 1, &r);
        printf("%-10d %-8s %-10s %3d %4d %14llu %14llu %11.1f %8.2f %9.1f\n", k,
               engine, pz_status_name(r.status),
               r.status == PZ_STATUS_SOLVED ? r.length : 0, td.length[k - 1],
               (unsigned long long)r.expanded, (unsigned long long)r.generated,
               r.ms, r.ms > 0 ? (double)r.generated / r.ms / 1e3 : 0,
               (double)r.peak_memory / (1 << 20));
        fflush(stdout);
        /* An answer proven optimal must have the published length; any
         * answer, at least that. */
        if (r.status == PZ_STATUS_SOLVED &&
            (r.length < td.length[k - 1] ||
             (r.optimal && r.length != td.length[k - 1]))) {
            printf("  WRONG: expected %d\n", td.length[k - 1]);
            wrong++;
        }
        ran++;
        solved += r.status == PZ_STATUS_SOLVED;
        total_gen += r.generated;
        total_exp += r.expanded;
        total_ms += r.ms;
        if (r.ms > 0) {
            rates[nrates++] = (double)r.generated / r.ms / 1e3;
        }
    }
    printf("\n# %d of %d solved; total %.3f s, %llu expanded, %llu generated "
           "(%.0f per instance), %.2f M nodes/s overall, median per instance "
           "%.2f M nodes/s, %d wrong lengths\n",
           solved, ran, total_ms / 1e3, (unsigned long long)total_exp,
           (unsigned long long)total_gen, ran > 0 ? (double)total_gen / ran : 0,
           total_ms > 0 ? (double)total_gen / total_ms / 1e3 : 0,
           nrates ? median(rates, nrates) : 0, wrong);
    puzzle_destroy(p);
    return wrong ? CLI_EXIT_INTERNAL : CLI_EXIT_OK;
}

static void
usage(FILE *f)
{
    fprintf(f, "usage: puzzled bench cube2 [--per-length N] [--repeat R] "
               "[--seed S]\n"
               "       puzzled bench tiles [--data FILE] [--first K] "
               "[--count N] [--only K,K...] [--engine E] [--heuristic H]\n"
               "                           [--time-ms T] [--threads N] "
               "[--pruning strings|inverse]\n"
               "                           [--frontier N] [--memory-mb M]\n"
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
        { "only", required_argument, NULL, 'N' },
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
        { "pruning", required_argument, NULL, 'P' },
        { "frontier", required_argument, NULL, 'F' },
        { "memory-mb", required_argument, NULL, 'M' },
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
    const char *only = NULL;
    const char *engine = "idastar";
    const char *heuristic = "manhattan";
    const char *states_in = NULL;
    const char *states_out = NULL;
    bool inverse_only = false;
    long long frontier = 0, memory_mb = 1024;
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
        case 'F':
            target = &frontier;
            max = UINT32_MAX;
            break;
        case 'M':
            target = &memory_mb;
            max = 1 << 20;
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
        case 'P':
            if (strcmp(optarg, "strings") != 0 &&
                strcmp(optarg, "inverse") != 0) {
                fprintf(stderr, "puzzled: --pruning is strings or inverse\n");
                return CLI_EXIT_INPUT;
            }
            inverse_only = strcmp(optarg, "inverse") == 0;
            break;
        case 'N':
            only = optarg;
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

        return cli_bench__cube3(&b);
    }
    if (count > 100) {
        count = 100;
    }
    if (time_ms < 0) {
        time_ms = 600000;
    }
    if (strcmp(which, "tiles") == 0) {
        if (!engine_known(engine)) {
            fprintf(stderr, "puzzled: unknown engine '%s'\n", engine);
            return CLI_EXIT_INPUT;
        }
        return bench_tiles(data, (int)first, (int)count, only, engine,
                           heuristic, (uint64_t)time_ms, (int)threads,
                           inverse_only, (uint32_t)frontier,
                           (uint64_t)memory_mb);
    }
    usage(stderr);
    return CLI_EXIT_INPUT;
}
