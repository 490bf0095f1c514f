/* SPDX-License-Identifier: MIT */
/* cli_scramble.c - `puzzled scramble`: random-move or random-state scrambles.
 *
 * A random-state scramble is made as competition scramblers make theirs: draw
 * a uniformly random legal state, solve it, and print the inverse of the
 * solution, which takes the solved puzzle to that state. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "engine.h"
#include "solve.h"

static void
usage(FILE *f)
{
    fprintf(f, "usage: puzzled scramble --puzzle P [--size RxC] [--metric M] "
               "[--moves N | --random-state] [--seed S]\n"
               "  random-state is the default where the puzzle has it\n");
}

/* Solves state -> goal and writes the scramble of the solution to moves
 * (puzzle_scramble_of_solution). */
static int
scramble_from_state(const pz_puzzle_t *p,
                    const pz_state_t *state,
                    uint8_t *moves,
                    int *n)
{
    engine_choice_t choice;
    solve_spec_t spec = { 0 };
    solve_run_t run;

    engine_auto(p, NULL, false, &choice);
    spec.puzzle = p;
    spec.start = *state;
    puzzle_goal(p, &spec.goal);
    spec.limits.time_ms = 60000;
    spec.limits.memory_bytes = (size_t)1 << 30;
    spec.threads = 1;
    /* Anytime engines (twophase) stop at their first answer: a scramble
     * needs a solution, not the shortest one. */
    spec.target_length = PZ_SOLUTION_MAX;
    solve_run_init(&run, choice.engine, choice.heuristic, choice.weight);
    if (solve_execute(&spec, &run, NULL) != PZ_OK ||
        run.solution.status != PZ_STATUS_SOLVED) {
        return PZ_EINTERNAL;
    }
    *n = run.solution.length;
    puzzle_scramble_of_solution(p, run.solution.moves, *n, moves);
    return PZ_OK;
}

static uint64_t
default_seed(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
           ((uint64_t)getpid() << 40);
}

int
cli_scramble(int argc, char **argv)
{
    static const struct option opts[] = {
        { "puzzle", required_argument, NULL, 'p' },
        { "size", required_argument, NULL, 's' },
        { "metric", required_argument, NULL, 'm' },
        { "moves", required_argument, NULL, 'n' },
        { "random-state", no_argument, NULL, 'r' },
        { "seed", required_argument, NULL, 'S' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *name = NULL;
    pz_params_t prm = { 0, 0, 0 };
    long long nmoves = -1;
    int random_state = 0;
    uint64_t seed = default_seed();
    pz_puzzle_t *p = NULL;
    uint8_t moves[PZ_SOLUTION_MAX];
    char text[PZ_SOLUTION_MAX * 6];
    pz_state_t s;
    pz_rng_t rng;
    pz_diag_t d;
    int n = 0;
    int opt;
    long long v;

    optind = 1;
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case 'p':
            name = optarg;
            break;
        case 's':
            if (sscanf(optarg, "%dx%d", &prm.rows, &prm.cols) != 2) {
                fprintf(stderr, "puzzled: --size is ROWSxCOLS, e.g. 4x4\n");
                return CLI_EXIT_INPUT;
            }
            break;
        case 'm':
            prm.metric = strcmp(optarg, "qtm") == 0   ? PZ_METRIC_QTM
                         : strcmp(optarg, "htm") == 0 ? PZ_METRIC_HTM
                                                      : -1;
            if (prm.metric < 0) {
                fprintf(stderr, "puzzled: --metric is htm or qtm\n");
                return CLI_EXIT_INPUT;
            }
            break;
        case 'n':
            nmoves = cli_parse_uint("--moves", optarg, PZ_SOLUTION_MAX);
            if (nmoves < 0) {
                return CLI_EXIT_INPUT;
            }
            break;
        case 'r':
            random_state = 1;
            break;
        case 'S':
            v = cli_parse_uint("--seed", optarg, 9000000000000000000LL);
            if (v < 0) {
                return CLI_EXIT_INPUT;
            }
            seed = (uint64_t)v;
            break;
        case 'h':
            usage(stdout);
            return CLI_EXIT_OK;
        default:
            usage(stderr);
            return CLI_EXIT_INPUT;
        }
    }
    if (name == NULL || optind < argc || (random_state && nmoves >= 0)) {
        usage(stderr);
        return CLI_EXIT_INPUT;
    }
    if (puzzle_create(name, &prm, &p, &d) != PZ_OK) {
        fprintf(stderr, "puzzled: %s: %s\n", pz_strerror(d.rc), d.detail);
        return CLI_EXIT_INPUT;
    }
    pz_rng_seed(&rng, seed);
    if (nmoves < 0 && !puzzle_has_random_state(p)) {
        nmoves = 25;
    }
    if (nmoves >= 0) {
        puzzle_goal(p, &s);
        n = (int)nmoves;
        if (puzzle_random_moves(p, &s, n, pz_rng_next, &rng, moves) != PZ_OK) {
            fprintf(stderr, "puzzled: could not draw %d moves\n", n);
            puzzle_destroy(p);
            return CLI_EXIT_INTERNAL;
        }
    } else if (puzzle_random_state(p, pz_rng_next, &rng, &s) != PZ_OK ||
               scramble_from_state(p, &s, moves, &n) != PZ_OK) {
        fprintf(stderr, "puzzled: could not make a random-state scramble\n");
        puzzle_destroy(p);
        return CLI_EXIT_INTERNAL;
    }
    puzzle_format_moves(p, moves, n, text, sizeof(text));
    printf("%s\n", text);
    puzzle_destroy(p);
    return CLI_EXIT_OK;
}
