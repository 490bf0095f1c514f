/* SPDX-License-Identifier: MIT */
/* cli_bench_build.c - `puzzled bench build`: table build times, whole
 * processes into fresh directories, medians of several runs.
 *
 * Each unit (a table, a group, or several joined by commas, "-NAME"
 * leaving one out) is built by a child `puzzled tables build NAMES --dir
 * D` into a new empty directory D, as a user would; its wall time, its CPU
 * time (all its threads) and its peak memory come from outside the child,
 * and the per-table times from its output lines. The directory is removed
 * after each run. */
#define _DEFAULT_SOURCE 1   /* wait4 */
#define _XOPEN_SOURCE   700 /* nftw */

#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "tables.h"

extern char **environ;

#define UNITS_MAX 16
#define RUNS_MAX  20

/* One child run. */
typedef struct run {
    double wall;                   /* s */
    double cpu;                    /* s, user + system */
    double peak_mib;               /* largest resident size */
    double table[TABLES_LIST_MAX]; /* s per table, as it printed them */
    bool ok;
} run_t;

static double
now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a;
    double y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Median, min and max of v[0..n). */
static void
spread(const double *v, int n, double *med, double *lo, double *hi)
{
    double s[RUNS_MAX];

    memcpy(s, v, (size_t)n * sizeof(*s));
    qsort(s, (size_t)n, sizeof(*s), cmp_double);
    *lo = s[0];
    *hi = s[n - 1];
    *med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static int
remove_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)flag;
    (void)f;
    return remove(path);
}

/* Marks in sel the tables of unit (names and groups joined by commas, a
 * leading '-' leaves one out). False after a message for an unknown
 * name. */
static bool
select_unit(const char *unit, const tables_info_t *info, int n, bool *sel)
{
    char buf[1024];
    char *save = NULL;

    snprintf(buf, sizeof(buf), "%s", unit);
    memset(sel, 0, (size_t)n * sizeof(*sel));
    for (char *tok = strtok_r(buf, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        bool drop = tok[0] == '-';
        const char *name = drop ? tok + 1 : tok;
        bool hit = false;

        for (int i = 0; i < n; i++) {
            if (tables_name_matches(name, info[i].group, info[i].name)) {
                sel[i] = !drop;
                hit = true;
            }
        }
        if (!hit) {
            fprintf(stderr,
                    "puzzled: bench build: unknown table or group '%s'\n",
                    name);
            return false;
        }
    }
    return true;
}

/* Runs `puzzled tables build` for the selected tables into a fresh
 * directory under base; fills r. */
static void
run_once(const char *self,
         const char *base,
         const tables_info_t *info,
         int n,
         const bool *sel,
         run_t *r)
{
    char dir[4096];
    char *argv[TABLES_LIST_MAX + 8];
    int argc = 0;
    int fds[2];
    posix_spawn_file_actions_t fa;
    struct rusage ru;
    char out[16384];
    size_t len = 0;
    double t0;
    pid_t pid;
    int status = 0;

    memset(r, 0, sizeof(*r));
    snprintf(dir, sizeof(dir), "%s/pz-bench-build-XXXXXX", base);
    if (mkdtemp(dir) == NULL || pipe(fds) != 0) {
        fprintf(stderr, "puzzled: bench build: %s: %s\n", dir, strerror(errno));
        return;
    }
    argv[argc++] = (char *)self;
    argv[argc++] = "tables";
    argv[argc++] = "build";
    for (int i = 0; i < n; i++) {
        if (sel[i]) {
            argv[argc++] = (char *)info[i].name;
        }
    }
    argv[argc++] = "--dir";
    argv[argc++] = dir;
    argv[argc] = NULL;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    t0 = now_s();
    if (posix_spawn(&pid, self, &fa, NULL, argv, environ) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        close(fds[0]);
        close(fds[1]);
        return;
    }
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    for (;;) {
        ssize_t got = read(fds[0], out + len, sizeof(out) - 1 - len);

        if (got <= 0) {
            break;
        }
        len += (size_t)got;
    }
    close(fds[0]);
    out[len] = '\0';
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
    }
    r->wall = now_s() - t0;
    r->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
             (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    r->peak_mib = (double)ru.ru_maxrss / 1024;
    r->ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    /* "NAME built SIZE UNIT in S s PATH": the time after " in ". */
    for (int i = 0; i < n; i++) {
        const char *line = sel[i] ? strstr(out, info[i].name) : NULL;
        const char *in = line != NULL ? strstr(line, " in ") : NULL;

        r->table[i] = in != NULL ? strtod(in + 4, NULL) : 0;
    }
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void
usage(FILE *f)
{
    fprintf(f, "usage: puzzled bench build [--runs N] [--base DIR] "
               "[UNIT...]\n"
               "  UNIT: tables and groups joined by commas, -NAME leaves one "
               "out; each is\n"
               "  built by `puzzled tables build` into a new empty directory "
               "under DIR\n"
               "  (default /tmp), N times (default 3). Without units: the "
               "start-up tables,\n"
               "  15-puzzle, 24-puzzle, 3x3x3,-3x3x3-twophase\n");
}

int
cli_bench_build(int argc, char **argv)
{
    static const struct option opts[] = {
        { "runs", required_argument, NULL, 'r' },
        { "base", required_argument, NULL, 'b' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const char *const defaults[] = {
        "startup", "15-puzzle", "24-puzzle", "3x3x3,-3x3x3-twophase", NULL,
    };
    static tables_info_t info[TABLES_LIST_MAX];
    static run_t runs[RUNS_MAX];
    const char *base = "/tmp";
    const char *units[UNITS_MAX];
    long long nruns = 3;
    int nunits = 0;
    int n;
    int opt;

    optind = 1;
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case 'r':
            nruns = cli_parse_uint("runs", optarg, RUNS_MAX);
            if (nruns < 1) {
                return CLI_EXIT_INPUT;
            }
            break;
        case 'b':
            base = optarg;
            break;
        case 'h':
            usage(stdout);
            return CLI_EXIT_OK;
        default:
            usage(stderr);
            return CLI_EXIT_INPUT;
        }
    }
    for (int i = optind; i < argc && nunits < UNITS_MAX; i++) {
        units[nunits++] = argv[i];
    }
    for (int i = 0; nunits == 0 && defaults[i] != NULL; i++) {
        units[i] = defaults[i];
        if (defaults[i + 1] == NULL) {
            nunits = i + 1;
        }
    }
    n = tables_list(info, TABLES_LIST_MAX);
    if (n > TABLES_LIST_MAX) {
        n = TABLES_LIST_MAX;
    }
    printf("# %lld run(s) per unit, each a `puzzled tables build` into an "
           "empty directory; %ld CPUs\n",
           nruns, sysconf(_SC_NPROCESSORS_ONLN));
    for (int u = 0; u < nunits; u++) {
        bool sel[TABLES_LIST_MAX];
        double wall[RUNS_MAX];
        double cpu[RUNS_MAX];
        double med;
        double lo;
        double hi;
        double cmed;
        double clo;
        double chi;
        int ok = 0;

        if (strcmp(units[u], "startup") == 0) {
            for (int i = 0; i < n; i++) {
                sel[i] = info[i].startup;
            }
        } else if (!select_unit(units[u], info, n, sel)) {
            return CLI_EXIT_INPUT;
        }
        for (int k = 0; k < nruns; k++) {
            run_once("/proc/self/exe", base, info, n, sel, &runs[k]);
            if (!runs[k].ok) {
                fprintf(stderr, "puzzled: bench build: %s: run %d failed\n",
                        units[u], k + 1);
                continue;
            }
            wall[ok] = runs[k].wall;
            cpu[ok] = runs[k].cpu;
            ok++;
            printf("%s run %d: wall %.2f s, cpu %.2f s, peak %.0f MiB\n",
                   units[u], k + 1, runs[k].wall, runs[k].cpu,
                   runs[k].peak_mib);
            fflush(stdout);
        }
        if (ok == 0) {
            return CLI_EXIT_INTERNAL;
        }
        spread(wall, ok, &med, &lo, &hi);
        spread(cpu, ok, &cmed, &clo, &chi);
        printf("%s: median wall %.2f s (%.2f - %.2f), median cpu %.2f s "
               "(%.2f - %.2f), %d run(s)\n",
               units[u], med, lo, hi, cmed, clo, chi, ok);
        for (int i = 0; i < n; i++) {
            double t[RUNS_MAX];
            int m = 0;

            if (!sel[i]) {
                continue;
            }
            for (int k = 0; k < nruns; k++) {
                if (runs[k].ok) {
                    t[m++] = runs[k].table[i];
                }
            }
            spread(t, m, &med, &lo, &hi);
            printf("  %-40s median %.2f s (%.2f - %.2f)\n", info[i].name, med,
                   lo, hi);
        }
        fflush(stdout);
    }
    return CLI_EXIT_OK;
}
