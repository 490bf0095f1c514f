/* SPDX-License-Identifier: MIT */
/* cli_tables.c - `puzzled tables`: build, list, verify and inspect tables.
 *
 * Names on the command line are table names or group names (`puzzled
 * tables list` shows both; each puzzle names its tables and groups).
 * `build` without names builds the tables the daemon prepares at start
 * (the complete tables, the solvers' tables); `--all` adds the pattern
 * databases. The table directory is
 * --dir, else $PUZZLED_TABLES, else the cache directory (tables.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "complete.h"
#include "engine.h"
#include "solve.h"
#include "tables.h"

#define LIST_MAX TABLES_LIST_MAX

static void
usage(FILE *f)
{
    fprintf(f,
            "usage: puzzled tables build [NAME...|--all] [--dir DIR]\n"
            "       puzzled tables list [--dir DIR]\n"
            "       puzzled tables verify [NAME...] [--dir DIR]\n"
            "       puzzled tables stats --puzzle P [--metric M] [--size RxC] "
            "[--dir DIR]\n"
            "  NAME is a table or a group (`puzzled tables list` names them "
            "all, with\n"
            "  their sizes and which the daemon prepares at start)\n"
            "  build without names builds what the daemon prepares at start: "
            "the\n"
            "  complete tables and the solvers' tables; --all also the "
            "pattern\n"
            "  databases (docs/tables.md has the sizes and build times)\n"
            "  the directory is --dir, else $PUZZLED_TABLES, else "
            "$XDG_CACHE_HOME/puzzled\n");
}

static double
now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Notes (a file missing, a table built) are left out where the caller
 * prints one line per table itself. */
static bool quiet_notes;

static void
on_log(void *arg, int level, const char *table, const char *msg)
{
    static const char *const names[] = { "error", "warning", "note" };

    (void)arg;
    if (quiet_notes && level == TABLES_LOG_INFO) {
        return;
    }
    fprintf(stderr, "%spuzzled: %s: %s: %s\n",
            isatty(STDERR_FILENO) ? "\r\033[K" : "",
            names[level >= 0 && level <= 2 ? level : 2], table, msg);
}

/* When the table being built started (on_progress). */
static double build_start;

/* Draws a progress bar on a terminal, at most ten times a second: the
 * share done, the time so far and, once there is a rate, the time left. */
static void
on_progress(void *arg, const char *table, uint64_t done, uint64_t total)
{
    static double last;
    double t = now_s();
    double frac = total > 0 ? (double)done / (double)total : 0;
    double spent = t - build_start;
    char bar[31];
    char left[32] = "";
    int fill;

    (void)arg;
    if (t - last < 0.1 && done < total) {
        return;
    }
    last = t;
    fill = (int)(frac * 30 + 0.5);
    fill = fill < 0 ? 0 : fill > 30 ? 30 : fill;
    memset(bar, '#', (size_t)fill);
    memset(bar + fill, '.', (size_t)(30 - fill));
    bar[30] = '\0';
    if (frac > 0.01 && frac < 1) {
        snprintf(left, sizeof(left), ", about %.0f s left",
                 spent / frac * (1 - frac));
    }
    fprintf(stderr, "\r\033[K%s [%s] %5.1f%% %.1f s%s", table, bar, 100 * frac,
            spent, left);
    fflush(stderr);
}

/* Human-readable bytes. */
static void
show_bytes(uint64_t n, char *buf, size_t len)
{
    if (n >= (uint64_t)1 << 30) {
        snprintf(buf, len, "%.2f GiB", (double)n / (1 << 30));
    } else if (n >= (uint64_t)1 << 20) {
        snprintf(buf, len, "%.1f MiB", (double)n / (1 << 20));
    } else if (n >= (uint64_t)1 << 10) {
        snprintf(buf, len, "%.1f KiB", (double)n / (1 << 10));
    } else {
        snprintf(buf, len, "%llu B", (unsigned long long)n);
    }
}

/* Marks in sel the tables that names[0..n) select (all when all; the
 * startup ones when n is 0 and not all). Returns false after printing an
 * error for a name that is neither a table nor a known group. */
static bool
select_tables(const tables_info_t *info,
              int ninfo,
              char **names,
              int n,
              bool all,
              bool startup_default,
              bool *sel)
{
    for (int i = 0; i < ninfo; i++) {
        sel[i] = all || (n == 0 && (!startup_default || info[i].startup));
    }
    for (int k = 0; k < n; k++) {
        bool hit = false;

        for (int i = 0; i < ninfo; i++) {
            if (tables_name_matches(names[k], info[i].group, info[i].name)) {
                sel[i] = true;
                hit = true;
            }
        }
        if (!hit) {
            fprintf(stderr,
                    "puzzled: tables: unknown table '%s'; "
                    "`puzzled tables list` shows the names\n",
                    names[k]);
            return false;
        }
    }
    return true;
}

static int
cmd_list(void)
{
    tables_info_t info[LIST_MAX];
    int n = tables_list(info, LIST_MAX);
    char dir[TABLES_PATH_MAX];

    tables_dir(dir, sizeof(dir));
    printf("# table directory: %s\n", dir);
    printf("%-28s %-14s %10s %-5s %-7s %s\n", "name", "group", "size", "built",
           "startup", "path");
    for (int i = 0; i < n && i < LIST_MAX; i++) {
        char size[32];

        show_bytes(info[i].bytes, size, sizeof(size));
        printf("%-28s %-14s %10s %-5s %-7s %s\n", info[i].name, info[i].group,
               size, info[i].built ? "yes" : "no",
               info[i].startup ? "yes" : "no", info[i].path);
    }
    return CLI_EXIT_OK;
}

static int
cmd_build(char **names, int nnames, bool all)
{
    tables_info_t info[LIST_MAX];
    bool sel[LIST_MAX];
    int n = tables_list(info, LIST_MAX);
    double total = now_s();
    int failed = 0;

    if (n > LIST_MAX) {
        n = LIST_MAX;
    }
    if (!select_tables(info, n, names, nnames, all, true, sel)) {
        return CLI_EXIT_INPUT;
    }
    if (isatty(STDERR_FILENO)) {
        tables_set_progress(on_progress, NULL);
    }
    quiet_notes = true;
    for (int i = 0; i < n; i++) {
        double t0;
        bool built = false;
        char size[32];
        int rc;

        if (!sel[i]) {
            continue;
        }
        t0 = now_s();
        build_start = t0;
        rc = tables_ensure(info[i].name, &built);
        if (isatty(STDERR_FILENO)) {
            fprintf(stderr, "\r\033[K");
        }
        show_bytes(info[i].bytes, size, sizeof(size));
        if (rc != PZ_OK) {
            printf("%-28s FAILED: %s\n", info[i].name, pz_strerror(rc));
            failed++;
            continue;
        }
        printf("%-28s %-8s %10s in %8.2f s  %s\n", info[i].name,
               built ? "built" : "loaded", size, now_s() - t0, info[i].path);
        fflush(stdout);
    }
    tables_set_progress(NULL, NULL);
    quiet_notes = false;
    printf("# total %.2f s\n", now_s() - total);
    return failed ? CLI_EXIT_INTERNAL : CLI_EXIT_OK;
}

static int
cmd_verify(char **names, int nnames)
{
    tables_info_t info[LIST_MAX];
    bool sel[LIST_MAX];
    int n = tables_list(info, LIST_MAX);
    int bad = 0;

    if (n > LIST_MAX) {
        n = LIST_MAX;
    }
    if (!select_tables(info, n, names, nnames, false, false, sel)) {
        return CLI_EXIT_INPUT;
    }
    for (int i = 0; i < n; i++) {
        char why[TABLES_PATH_MAX + 256];
        int rc;

        if (!sel[i]) {
            continue;
        }
        rc = tables_verify(info[i].name, why, sizeof(why));
        if (rc == PZ_OK) {
            printf("%-28s ok       %s\n", info[i].name, info[i].path);
        } else if (rc == PZ_ENOT_FOUND) {
            printf("%-28s missing  %s\n", info[i].name, info[i].path);
        } else {
            printf("%-28s CORRUPT  %s: %s\n", info[i].name, info[i].path, why);
            bad++;
        }
    }
    return bad ? CLI_EXIT_INTERNAL : CLI_EXIT_OK;
}

static int
cmd_stats(const char *puzzle, const pz_params_t *prm)
{
    pz_puzzle_t *p = NULL;
    uint64_t counts[256];
    pz_diag_t d;
    int n;

    if (puzzle == NULL) {
        fprintf(stderr, "puzzled: tables stats needs --puzzle\n");
        return CLI_EXIT_INPUT;
    }
    if (puzzle_create(puzzle, prm, &p, &d) != PZ_OK) {
        fprintf(stderr, "puzzled: %s: %s\n", pz_strerror(d.rc), d.detail);
        return CLI_EXIT_INPUT;
    }
    if (!complete_possible(p)) {
        fprintf(stderr,
                "puzzled: %s has no complete table (`puzzled tables "
                "list` shows the puzzles that have one)\n",
                p->id);
        puzzle_destroy(p);
        return CLI_EXIT_INPUT;
    }
    n = complete_counts(p, counts, 256);
    puzzle_destroy(p);
    if (n < 0) {
        fprintf(stderr, "puzzled: the table could not be made: %s\n",
                pz_strerror(n));
        return CLI_EXIT_INTERNAL;
    }
    for (int i = 0; i < n && i < 256; i++) {
        printf("%d %llu\n", i, (unsigned long long)counts[i]);
    }
    return CLI_EXIT_OK;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;

    return (x > y) - (x < y);
}

int
cli_tables_bench(int argc, char **argv)
{
    static const struct option opts[] = {
        { "puzzle", required_argument, NULL, 'p' },
        { "metric", required_argument, NULL, 'm' },
        { "count", required_argument, NULL, 'c' },
        { "seed", required_argument, NULL, 's' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *puzzle = "2x2x2";
    pz_params_t prm = { 0, 0, 0 };
    long long count = 10000;
    long long seed = 20261121;
    pz_puzzle_t *p = NULL;
    solve_spec_t spec = { 0 };
    double *us;
    double sum = 0;
    double t0;
    uint64_t probes = 0;
    long lengths = 0;
    pz_rng_t rng;
    pz_diag_t d;
    int opt;

    optind = 1;
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case 'p':
            puzzle = optarg;
            break;
        case 'm':
            prm.metric =
                strcasecmp(optarg, "qtm") == 0 ? PZ_METRIC_QTM : PZ_METRIC_HTM;
            break;
        case 'c':
            count = cli_parse_uint("--count", optarg, 10000000);
            break;
        case 's':
            seed = cli_parse_uint("--seed", optarg, 9000000000000000000LL);
            break;
        case 'h':
            printf("usage: puzzled bench table [--puzzle P] [--metric M] "
                   "[--count N] [--seed S]\n");
            return CLI_EXIT_OK;
        default:
            return CLI_EXIT_INPUT;
        }
        if (count < 1 || seed < 0) {
            return CLI_EXIT_INPUT;
        }
    }
    if (puzzle_create(puzzle, &prm, &p, &d) != PZ_OK) {
        fprintf(stderr, "puzzled: %s\n", d.detail);
        return CLI_EXIT_INPUT;
    }
    if (!complete_shared(p, NULL) || !puzzle_has_random_state(p)) {
        fprintf(stderr, "puzzled: %s has no complete table\n", p->id);
        puzzle_destroy(p);
        return CLI_EXIT_INPUT;
    }
    us = calloc((size_t)count, sizeof(double));
    if (us == NULL) {
        puzzle_destroy(p);
        return CLI_EXIT_INTERNAL;
    }
    tables_set_log(on_log, NULL);
    spec.puzzle = p;
    spec.threads = 1;
    spec.limits.memory_bytes = (size_t)1 << 26;
    puzzle_goal(p, &spec.goal);
    /* The first solve loads (or builds) the table: time it apart. */
    t0 = now_s();
    {
        solve_run_t run;

        spec.start = spec.goal;
        solve_run_init(&run, engine_find("table"), "none", 1.0);
        solve_execute(&spec, &run, NULL);
    }
    printf("# %s (%s): table ready in %.3f s, %.1f MiB of tables\n", p->id,
           p->metric_name, now_s() - t0,
           (double)tables_memory_bytes() / (1 << 20));
    pz_rng_seed(&rng, (uint64_t)seed);
    for (long long i = 0; i < count; i++) {
        solve_run_t run;
        pz_stats_view_t v;

        puzzle_random_state(p, pz_rng_next, &rng, &spec.start);
        solve_run_init(&run, engine_find("table"), "none", 1.0);
        if (solve_execute(&spec, &run, NULL) != PZ_OK ||
            run.solution.status != PZ_STATUS_SOLVED) {
            fprintf(stderr, "puzzled: solve %lld failed\n", i);
            free(us);
            puzzle_destroy(p);
            return CLI_EXIT_INTERNAL;
        }
        stats_read(&run.stats, &v);
        us[i] = v.elapsed_ms * 1e3;
        sum += us[i];
        probes += v.nodes_generated;
        lengths += run.solution.length;
    }
    qsort(us, (size_t)count, sizeof(double), cmp_double);
    printf("# %lld uniformly random states, table engine (walk down, "
           "replayed by engine_run)\n",
           count);
    printf("mean length %.2f, mean probes %.1f\n", (double)lengths / count,
           (double)probes / count);
    printf("solve time: median %.2f us, mean %.2f us, p90 %.2f us, p99 "
           "%.2f us, max %.2f us\n",
           us[count / 2], sum / count, us[count * 9 / 10], us[count * 99 / 100],
           us[count - 1]);
    free(us);
    puzzle_destroy(p);
    return CLI_EXIT_OK;
}

int
cli_tables(int argc, char **argv)
{
    static const struct option opts[] = {
        { "dir", required_argument, NULL, 'd' },
        { "tables", required_argument, NULL, 'd' },
        { "all", no_argument, NULL, 'a' },
        { "puzzle", required_argument, NULL, 'p' },
        { "metric", required_argument, NULL, 'm' },
        { "size", required_argument, NULL, 's' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *which = argc > 1 ? argv[1] : "";
    const char *puzzle = NULL;
    pz_params_t prm = { 0, 0, 0 };
    bool all = false;
    int opt;

    if (strcmp(which, "--help") == 0 || strcmp(which, "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    optind = 2;
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case 'd':
            if (tables_set_dir(optarg) != PZ_OK) {
                fprintf(stderr, "puzzled: --dir: path too long\n");
                return CLI_EXIT_INPUT;
            }
            break;
        case 'a':
            all = true;
            break;
        case 'p':
            puzzle = optarg;
            break;
        case 'm':
            prm.metric = strcasecmp(optarg, "qtm") == 0   ? PZ_METRIC_QTM
                         : strcasecmp(optarg, "htm") == 0 ? PZ_METRIC_HTM
                                                          : -1;
            if (prm.metric < 0) {
                fprintf(stderr, "puzzled: --metric is htm or qtm\n");
                return CLI_EXIT_INPUT;
            }
            break;
        case 's':
            if (sscanf(optarg, "%dx%d", &prm.rows, &prm.cols) != 2) {
                fprintf(stderr, "puzzled: --size is ROWSxCOLS, e.g. 3x3\n");
                return CLI_EXIT_INPUT;
            }
            break;
        case 'h':
            usage(stdout);
            return CLI_EXIT_OK;
        default:
            usage(stderr);
            return CLI_EXIT_INPUT;
        }
    }
    tables_set_log(on_log, NULL);
    if (strcmp(which, "list") == 0 && optind == argc) {
        return cmd_list();
    }
    if (strcmp(which, "build") == 0) {
        return cmd_build(argv + optind, argc - optind, all);
    }
    if (strcmp(which, "verify") == 0) {
        return cmd_verify(argv + optind, argc - optind);
    }
    if (strcmp(which, "stats") == 0 && optind == argc) {
        return cmd_stats(puzzle, &prm);
    }
    usage(stderr);
    return CLI_EXIT_INPUT;
}
