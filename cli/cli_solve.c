/* SPDX-License-Identifier: MIT */
/* cli_solve.c - `puzzled solve`: one request through the API layer, on the
 * command line. The flags are turned into the same JSON request the HTTP
 * API takes, so both validate and report alike. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "job.h"
#include "problem.h"
#include "request.h"
#include "serve.h"
#include "tables.h"

static atomic_bool cli_cancel;

/* The CPUs this process may use (serve_cpus), 1 to 64. */
static int
cli_cpus(void)
{
    long n = serve_cpus();

    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

static void
on_interrupt(int sig)
{
    (void)sig;
    atomic_store(&cli_cancel, true);
}

static void
usage(FILE *f)
{
    fprintf(
        f,
        "usage: puzzled solve --puzzle P (--scramble S | --state S) "
        "[options]\n"
        "  --puzzle P          tiles, 8-puzzle, 15-puzzle, 24-puzzle, "
        "2x2x2, ...\n"
        "  --scramble S        moves applied to the goal\n"
        "  --state S           a state: JSON array literal or string\n"
        "  --goal S            target state (default: solved)\n"
        "  --size RxC          board size for tiles\n"
        "  --metric M          htm | qtm (cubes)\n"
        "  --engine E          auto, astar, wastar, anytime, bibfs, idastar,\n"
        "                      aida\n"
        "  --engines E1,E2     compare several engines\n"
        "  --heuristic H       none, misplaced, manhattan, "
        "linear-conflict, seed, ...\n"
        "  --optimal | --fast  ask auto for a proven optimum or not\n"
        "  --weight W          weighted A* weight (>= 1)\n"
        "  --target-length N   anytime engines: stop at <= N moves\n"
        "  --time-ms N         time limit (default 300000)\n"
        "  --memory-mb N       search memory limit (default 1024)\n"
        "  --max-nodes N       expansion limit\n"
        "  --max-depth N       longest solution to look for\n"
        "  --moves M1,M2       search with these moves only (faces\n"
        "                      such as R or exact turns such as F2)\n"
        "  --solutions N       the N shortest solutions\n"
        "  --all-optimal       every optimal solution, counted\n"
        "  --max-solutions N   how many of those to list (default 100)\n"
        "  --care P1,P2        a goal of these pieces or presets only\n"
        "                      (cross, f2l, first-layer, DF, 1, ...)\n"
        "  --json              print the job as JSON (as the HTTP API)\n"
        "  --batch FILE        solve every line of FILE (- for stdin): a\n"
        "                      scramble each, with the options above;\n"
        "                      one JSON job or problem per line out\n"
        "  --batch-states      the lines of --batch FILE are states\n"
        "exit: 0 solved, 2 invalid input, 3 limit or cancelled, "
        "1 internal error\n");
}

long long
cli_parse_uint(const char *flag, const char *text, long long max)
{
    char *end = NULL;
    long long v;

    errno = 0;
    v = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < 0 || v > max) {
        fprintf(stderr, "puzzled: %s takes a whole number from 0 to %lld\n",
                flag, max);
        return -1;
    }
    return v;
}

/* A --state/--goal value: a JSON array or string literal if it parses as
 * one, otherwise the text itself (a facelet string, "1 2 3 ..."). */
static void
state_value(jsonout_t *w, const char *key, const char *text)
{
    if (!jsonout_json(w, key, text)) {
        jsonout_string(w, key, text);
    }
}

/* A comma-separated flag value as an array member of strings. */
static void
name_list(jsonout_t *w, const char *member, const char *csv)
{
    const char *tok = csv;

    jsonout_begin(w, member, '[');
    while (*tok != '\0') {
        size_t n = strcspn(tok, ",");
        char name[64];

        snprintf(name, sizeof(name), "%.*s", (int)n, tok);
        if (n > 0) {
            jsonout_string(w, NULL, name);
        }
        tok += n;
        tok += *tok == ',';
    }
    jsonout_end(w, ']');
}

/* Adds a numeric member from a flag value; -1 on a bad number. */
static int
add_number(jsonout_t *req,
           const char *member,
           const char *flag,
           const char *text,
           long long max)
{
    long long v = cli_parse_uint(flag, text, max);

    if (v < 0) {
        return -1;
    }
    jsonout_u64(req, member, (uint64_t)v);
    return 0;
}

enum {
    OPT_PUZZLE = 1000,
    OPT_SCRAMBLE,
    OPT_STATE,
    OPT_GOAL,
    OPT_SIZE,
    OPT_METRIC,
    OPT_ENGINE,
    OPT_ENGINES,
    OPT_HEURISTIC,
    OPT_OPTIMAL,
    OPT_FAST,
    OPT_WEIGHT,
    OPT_TARGET,
    OPT_TIME,
    OPT_MEMORY,
    OPT_NODES,
    OPT_DEPTH,
    OPT_JSON,
    OPT_BATCH,
    OPT_BATCH_STATES,
    OPT_MOVES,
    OPT_SOLUTIONS,
    OPT_ALL_OPTIMAL,
    OPT_MAX_SOLUTIONS,
    OPT_CARE,
    OPT_HELP,
};

/* What the flags ask besides the request itself. */
typedef struct solve_opts {
    int json;          /* --json */
    const char *batch; /* --batch FILE, or NULL */
    int batch_states;  /* --batch-states */
    int has_start;     /* --scramble or --state was given */
} solve_opts_t;

static const struct option solve_options[] = {
    { "puzzle", required_argument, NULL, OPT_PUZZLE },
    { "scramble", required_argument, NULL, OPT_SCRAMBLE },
    { "state", required_argument, NULL, OPT_STATE },
    { "goal", required_argument, NULL, OPT_GOAL },
    { "size", required_argument, NULL, OPT_SIZE },
    { "metric", required_argument, NULL, OPT_METRIC },
    { "engine", required_argument, NULL, OPT_ENGINE },
    { "engines", required_argument, NULL, OPT_ENGINES },
    { "heuristic", required_argument, NULL, OPT_HEURISTIC },
    { "optimal", no_argument, NULL, OPT_OPTIMAL },
    { "fast", no_argument, NULL, OPT_FAST },
    { "weight", required_argument, NULL, OPT_WEIGHT },
    { "target-length", required_argument, NULL, OPT_TARGET },
    { "time-ms", required_argument, NULL, OPT_TIME },
    { "memory-mb", required_argument, NULL, OPT_MEMORY },
    { "max-nodes", required_argument, NULL, OPT_NODES },
    { "max-depth", required_argument, NULL, OPT_DEPTH },
    { "json", no_argument, NULL, OPT_JSON },
    { "batch", required_argument, NULL, OPT_BATCH },
    { "batch-states", no_argument, NULL, OPT_BATCH_STATES },
    { "moves", required_argument, NULL, OPT_MOVES },
    { "solutions", required_argument, NULL, OPT_SOLUTIONS },
    { "all-optimal", no_argument, NULL, OPT_ALL_OPTIMAL },
    { "max-solutions", required_argument, NULL, OPT_MAX_SOLUTIONS },
    { "care", required_argument, NULL, OPT_CARE },
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 },
};

/* Turns the flags into the text of a solve request (owned, free) and its
 * length. Returns NULL after printing a usage error. *o gets the other
 * flags. */
static char *
build_request(int argc, char **argv, solve_opts_t *o, size_t *len)
{
    jsonout_t out;
    jsonout_t *req = &out;
    int opt;
    int bad = 0;
    char *end;
    double w;

    jsonout_init(req);
    jsonout_begin(req, NULL, '{');
    optind = 1;
    while (!bad &&
           (opt = getopt_long(argc, argv, "", solve_options, NULL)) != -1) {
        switch (opt) {
        case OPT_PUZZLE:
            jsonout_string(req, "puzzle", optarg);
            break;
        case OPT_SCRAMBLE:
            jsonout_string(req, "scramble", optarg);
            o->has_start = 1;
            break;
        case OPT_STATE:
            state_value(req, "state", optarg);
            o->has_start = 1;
            break;
        case OPT_GOAL:
            state_value(req, "goal", optarg);
            break;
        case OPT_SIZE:
            jsonout_string(req, "size", optarg);
            break;
        case OPT_METRIC:
            jsonout_string(req, "metric", optarg);
            break;
        case OPT_ENGINE:
            jsonout_string(req, "engine", optarg);
            break;
        case OPT_ENGINES:
            name_list(req, "engines", optarg);
            break;
        case OPT_HEURISTIC:
            jsonout_string(req, "heuristic", optarg);
            break;
        case OPT_OPTIMAL:
        case OPT_FAST:
            jsonout_bool(req, "optimal", opt == OPT_OPTIMAL);
            break;
        case OPT_WEIGHT:
            errno = 0;
            w = strtod(optarg, &end);
            if (errno != 0 || end == optarg || *end != '\0') {
                fprintf(stderr, "puzzled: --weight takes a number\n");
                bad = 1;
                break;
            }
            jsonout_double(req, "weight", w);
            break;
        case OPT_TARGET:
            bad = add_number(req, "target_length", "--target-length", optarg,
                             PZ_SOLUTION_MAX) != 0;
            break;
        case OPT_TIME:
            bad = add_number(req, "time_ms", "--time-ms", optarg,
                             1000000000000LL) != 0;
            break;
        case OPT_MEMORY:
            bad = add_number(req, "memory_mb", "--memory-mb", optarg,
                             1000000000LL) != 0;
            break;
        case OPT_NODES:
            bad = add_number(req, "max_nodes", "--max-nodes", optarg,
                             9000000000000000LL) != 0;
            break;
        case OPT_DEPTH:
            bad = add_number(req, "max_depth", "--max-depth", optarg,
                             PZ_SOLUTION_MAX) != 0;
            break;
        case OPT_JSON:
            o->json = 1;
            break;
        case OPT_BATCH:
            o->batch = optarg;
            break;
        case OPT_MOVES:
            name_list(req, "moves", optarg);
            break;
        case OPT_SOLUTIONS:
            bad = add_number(req, "solutions", "--solutions", optarg,
                             PZ_SOLUTIONS_MAX) != 0;
            break;
        case OPT_CARE:
            name_list(req, "care", optarg);
            break;
        case OPT_ALL_OPTIMAL:
            jsonout_bool(req, "all_optimal", true);
            break;
        case OPT_MAX_SOLUTIONS:
            bad = add_number(req, "max_solutions", "--max-solutions", optarg,
                             PZ_SOLUTIONS_MAX) != 0;
            break;
        case OPT_BATCH_STATES:
            o->batch_states = 1;
            break;
        case OPT_HELP:
            usage(stdout);
            free(jsonout_finish(req, len));
            exit(CLI_EXIT_OK);
        default:
            bad = 1;
            break;
        }
    }
    if (!bad && optind < argc) {
        fprintf(stderr, "puzzled: unexpected argument '%s'\n", argv[optind]);
        bad = 1;
    }
    if (!bad && o->batch != NULL && o->has_start) {
        fprintf(stderr, "puzzled: --batch takes the scrambles or states from "
                        "its file, not from --scramble or --state\n");
        bad = 1;
    }
    if (!bad && o->batch_states && o->batch == NULL) {
        fprintf(stderr, "puzzled: --batch-states goes with --batch\n");
        bad = 1;
    }
    if (bad) {
        usage(stderr);
        free(jsonout_finish(req, len));
        return NULL;
    }
    jsonout_end(req, '}');
    return jsonout_finish(req, len);
}

/* Live progress for searches longer than a second, on a terminal only. */
typedef struct progress {
    const api_solve_request_t *req;
    atomic_int current; /* run being searched */
    atomic_bool done;
    pthread_t thread;
} progress_t;

/* The tables module's notes (a table missing, being built) on stderr. */
static void
on_table_log(void *arg, int level, const char *table, const char *msg)
{
    static const char *const names[] = { "error", "warning", "note" };

    (void)arg;
    fprintf(stderr, "%spuzzled: %s: %s: %s\n",
            isatty(STDERR_FILENO) ? "\r\033[K" : "",
            names[level >= 0 && level <= 2 ? level : 2], table, msg);
}

/* A table build's progress on a terminal, at most ten times a second. */
static void
on_table_progress(void *arg, const char *table, uint64_t done, uint64_t total)
{
    static uint64_t last_ns;
    uint64_t now = pz_now_ns();

    (void)arg;
    if (now - last_ns < 100000000u && done < total) {
        return;
    }
    last_ns = now;
    fprintf(stderr, "\r\033[Kbuilding %s: %5.1f%%", table,
            total > 0 ? 100.0 * (double)done / (double)total : 0.0);
    if (done >= total) {
        fprintf(stderr, "\r\033[K");
    }
    fflush(stderr);
}

static void *
progress_main(void *arg)
{
    progress_t *pg = arg;
    int shown = 0;

    for (int ticks = 0; !atomic_load(&pg->done); ticks++) {
        struct timespec ts = { 0, 100 * 1000000L };
        pz_stats_view_t v;
        int i = atomic_load(&pg->current);

        nanosleep(&ts, NULL);
        if (ticks < 10 || ticks % 2 != 0) {
            continue;
        }
        if (atomic_load(&pg->req->runs[i].stats.start_ns) == 0) {
            continue; /* a table is still being loaded or built */
        }
        stats_read(&pg->req->runs[i].stats, &v);
        fprintf(stderr,
                "\r%s: %.1f s, %llu nodes expanded, %.1f M nodes/s, "
                "bound %d, %.1f MiB   ",
                pg->req->runs[i].engine->name, v.elapsed_ms / 1e3,
                (unsigned long long)v.nodes_expanded, v.nodes_per_second / 1e6,
                v.depth_bound, (double)v.peak_memory / (1 << 20));
        shown = 1;
    }
    if (shown) {
        fprintf(stderr, "\r%80s\r", "");
    }
    return NULL;
}

static void
print_problem(int rc, const pz_diag_t *d, int json)
{
    if (json) {
        size_t len;
        char *text = api_problem_text(rc, d, true, &len);

        printf("%s\n", text != NULL ? text : "{}");
        free(text);
        return;
    }
    fprintf(stderr, "puzzled: %s: %s", pz_strerror(rc),
            d->detail[0] ? d->detail : pz_errtitle(rc));
    if (d->field[0] != '\0') {
        fprintf(stderr, " (at %s", d->field);
        if (d->position >= 0) {
            fprintf(stderr, ", position %d", d->position);
        }
        fprintf(stderr, ")");
    }
    fprintf(stderr, "\n");
}

static void
print_run(const api_solve_request_t *req, const solve_run_t *run)
{
    const pz_solution_t *sol = &run->solution;
    pz_stats_view_t v;
    char moves[PZ_SOLUTION_MAX * 6];

    stats_read(&run->stats, &v);
    printf("engine    %s (heuristic %s", run->engine->name, run->heuristic);
    if (run->weight != 1.0) {
        printf(", weight %g", run->weight);
    }
    printf(")\nstatus    %s\n", pz_status_name(sol->status));
    if (sol->status == PZ_STATUS_SOLVED) {
        puzzle_format_moves(req->puzzle, sol->moves, sol->length, moves,
                            sizeof(moves));
        printf("solution  %s\nlength    %d %s (%s)\n",
               sol->length ? moves : "(already solved)", sol->length,
               req->puzzle->metric_name,
               sol->optimal ? "optimal" : "not proven optimal");
    }
    if (sol->status == PZ_STATUS_SOLVED && run->solutions != NULL) {
        const pz_solutions_t *s = run->solutions;

        printf("found     %llu solution%s%s", (unsigned long long)s->found,
               s->found == 1 ? "" : "s",
               s->all_optimal ? " of the optimal length" : "");
        if (s->complete) {
            printf(" (all), %d listed\n", s->kept);
        } else if (s->stopped != 0) {
            printf(" (cut short by %s), %d listed\n",
                   pz_status_name(s->stopped), s->kept);
        } else {
            printf(", the first %d listed\n", s->kept);
        }
        for (int i = 0; i < s->kept; i++) {
            puzzle_format_moves(req->puzzle, solutions_moves(s, i),
                                s->length[i], moves, sizeof(moves));
            printf("  %3d  %s\n", s->length[i], moves);
        }
    }
    printf("nodes     %llu expanded, %llu generated, %llu duplicates\n",
           (unsigned long long)v.nodes_expanded,
           (unsigned long long)v.nodes_generated,
           (unsigned long long)v.duplicates);
    printf("time      %.3f ms (%.2f M nodes/s), peak memory %.2f MiB\n",
           v.elapsed_ms, v.nodes_per_second / 1e6,
           (double)v.peak_memory / (1 << 20));
}

/* The worse of two exit codes: internal, then input, then limit. */
static int
exit_worst(int a, int b)
{
    static const int order[] = { CLI_EXIT_OK, CLI_EXIT_LIMIT, CLI_EXIT_INPUT,
                                 CLI_EXIT_INTERNAL };
    int ra = 0;
    int rb = 0;

    for (int i = 0; i < 4; i++) {
        ra = order[i] == a ? i : ra;
        rb = order[i] == b ? i : rb;
    }
    return ra >= rb ? a : b;
}

static int
run_request(api_solve_request_t *req, int json)
{
    progress_t pg = { .req = req };
    int progress = !json && isatty(STDERR_FILENO);
    api_job_info_t info = { 0 };
    int status;
    int rc = PZ_OK;

    info.created_ms = info.started_ms = api_wall_ms();
    atomic_init(&pg.current, 0);
    atomic_init(&pg.done, false);
    if (progress && pthread_create(&pg.thread, NULL, progress_main, &pg) != 0) {
        progress = 0;
    }
    for (int i = 0; i < req->nruns; i++) {
        atomic_store(&pg.current, i);
        if (solve_execute(&req->spec, &req->runs[i], &cli_cancel) != PZ_OK) {
            rc = PZ_EINTERNAL;
        }
    }
    atomic_store(&pg.done, true);
    if (progress) {
        pthread_join(pg.thread, NULL);
    }
    info.finished_ms = api_wall_ms();
    info.req = req;
    info.runs_started = info.runs_done = req->nruns;
    status = api_job_status(&info);
    if (json) {
        /* The same text the HTTP API returns, on one line. */
        size_t len;
        char *text = api_job_text(&info, &len);

        if (text == NULL) {
            rc = PZ_ENOMEM;
        } else {
            printf("%s\n", text);
        }
        free(text);
    } else {
        printf("puzzle    %s", req->puzzle->id);
        if (req->puzzle->size[0] != '\0') {
            printf(" %s", req->puzzle->size);
        }
        printf(" (%s)\n", req->puzzle->metric_name);
        for (int i = 0; i < req->nruns; i++) {
            if (i > 0) {
                printf("\n");
            }
            print_run(req, &req->runs[i]);
        }
    }
    if (rc != PZ_OK || status == PZ_STATUS_FAILED) {
        return CLI_EXIT_INTERNAL;
    }
    if (status == PZ_STATUS_UNREACHABLE) {
        return CLI_EXIT_INPUT; /* no solution with the moves allowed */
    }
    return status == PZ_STATUS_SOLVED ? CLI_EXIT_OK : CLI_EXIT_LIMIT;
}

/* The request of one batch line: the shared members of base (a JSON
 * object's text) and the line as "scramble" or "state". Owned, or NULL. */
static char *
batch_item(const char *base, size_t base_len, const char *line, int states)
{
    jsonout_t w;
    size_t mlen;
    char *member;
    char *text;
    size_t inner = base_len - 2; /* between the braces */

    jsonout_init(&w);
    jsonout_begin(&w, NULL, '{');
    if (states) {
        state_value(&w, "state", line);
    } else {
        jsonout_string(&w, "scramble", line);
    }
    jsonout_end(&w, '}');
    member = jsonout_finish(&w, &mlen);
    if (member == NULL) {
        return NULL;
    }
    text = malloc(base_len + mlen + 2);
    if (text != NULL) {
        /* "{" base members "," member "}" */
        snprintf(text, base_len + mlen + 2, "{%.*s%s%.*s}", (int)inner,
                 base + 1, inner > 0 ? "," : "", (int)(mlen - 2), member + 1);
    }
    free(member);
    return text;
}

/*
 * Solves every line of the batch file (blank lines and lines starting with
 * # are skipped) with the shared options of base, one JSON job or problem
 * per line on stdout in the file's order. Ctrl-C stops the search under way
 * and the lines after it. Exit: the worst of the lines (internal, input,
 * limit, solved).
 */
static int
run_batch(const char *base,
          size_t base_len,
          const api_policy_t *pol,
          const solve_opts_t *o)
{
    FILE *in = strcmp(o->batch, "-") == 0 ? stdin : fopen(o->batch, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int worst = CLI_EXIT_OK;

    if (in == NULL) {
        fprintf(stderr, "puzzled: --batch %s: %s\n", o->batch, strerror(errno));
        return CLI_EXIT_INPUT;
    }
    while (!atomic_load(&cli_cancel) && (n = getline(&line, &cap, in)) >= 0) {
        api_solve_request_t req;
        pz_diag_t d;
        char *start = line;
        char *text;
        int rc;

        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' ||
                         line[n - 1] == ' ' || line[n - 1] == '\t')) {
            line[--n] = '\0';
        }
        start += strspn(start, " \t");
        if (*start == '\0' || *start == '#') {
            continue;
        }
        text = batch_item(base, base_len, start, o->batch_states);
        if (text == NULL) {
            worst = CLI_EXIT_INTERNAL;
            break;
        }
        rc = api_solve_parse_text(text, strlen(text), pol, &req, &d);
        free(text);
        if (rc != PZ_OK) {
            /* One line: the output is NDJSON. */
            size_t plen;
            char *p = api_problem_text(rc, &d, false, &plen);

            printf("%s\n", p != NULL ? p : "{}");
            free(p);
            rc = rc == PZ_ENOMEM || rc == PZ_EINTERNAL ? CLI_EXIT_INTERNAL
                                                       : CLI_EXIT_INPUT;
        } else {
            rc = run_request(&req, 1);
            api_solve_cleanup(&req);
        }
        fflush(stdout);
        worst = exit_worst(worst, rc);
    }
    free(line);
    if (in != stdin) {
        fclose(in);
    }
    return atomic_load(&cli_cancel) ? exit_worst(worst, CLI_EXIT_LIMIT) : worst;
}

int
cli_solve(int argc, char **argv)
{
    api_solve_request_t req;
    api_policy_t pol;
    struct sigaction sa;
    pz_diag_t d;
    solve_opts_t o = { 0 };
    size_t len = 0;
    char *body = build_request(argc, argv, &o, &len);
    int json;
    int rc;

    if (body == NULL) {
        return CLI_EXIT_INPUT;
    }
    json = o.json;
    api_policy_default(&pol);
    /* The command line has no server to protect: no maxima, generous
     * defaults, and wait_ms is meaningless. */
    pol.default_time_ms = 300000;
    pol.default_memory_bytes = (size_t)1 << 30;
    pol.max_time_ms = 0;
    pol.max_memory_bytes = 0;
    pol.max_wait_ms = 0;
    /* Nothing else runs beside it: a proven optimum by auto's IDA* (the
     * 3x3x3's databases, the tiles') uses every CPU. */
    pol.optimal_threads = cli_cpus();
    if (o.batch != NULL) {
        tables_set_log(on_table_log, NULL);
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_interrupt;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        rc = run_batch(body, len, &pol, &o);
        free(body);
        return rc;
    }
    rc = api_solve_parse_text(body, len, &pol, &req, &d);
    free(body);
    if (rc != PZ_OK) {
        print_problem(rc, &d, json);
        return rc == PZ_ENOMEM || rc == PZ_EINTERNAL ? CLI_EXIT_INTERNAL
                                                     : CLI_EXIT_INPUT;
    }
    for (int i = 0; i < req.nwarnings; i++) {
        fprintf(stderr, "puzzled: warning: %s\n", req.warnings[i].detail);
    }
    tables_set_log(on_table_log, NULL);
    if (!json && isatty(STDERR_FILENO)) {
        tables_set_progress(on_table_progress, NULL);
    }
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    rc = run_request(&req, json);
    api_solve_cleanup(&req);
    return rc;
}
