/* SPDX-License-Identifier: MIT */
/* cli.h - the command-line subcommands besides serve. */
#ifndef PZ_SERVER_CLI_H
#define PZ_SERVER_CLI_H

/* Exit codes of every subcommand. */
enum {
    CLI_EXIT_OK = 0,       /* solved, or the command succeeded */
    CLI_EXIT_INTERNAL = 1, /* a bug or an I/O failure */
    CLI_EXIT_INPUT = 2,    /* invalid input or usage */
    CLI_EXIT_LIMIT = 3,    /* a limit was reached or the search cancelled */
};

/* `puzzled solve ...`: argv[0] is "solve". Returns an exit code above.
 * Thread: main. */
int cli_solve(int argc, char **argv);

/* `puzzled scramble ...`: argv[0] is "scramble". Thread: main. */
int cli_scramble(int argc, char **argv);

/* `puzzled bench ...`: argv[0] is "bench". Thread: main. */
int cli_bench(int argc, char **argv);

/* `puzzled tables build|list|verify|stats ...`: argv[0] is "tables".
 * Thread: main. */
int cli_tables(int argc, char **argv);

/* `puzzled bench table ...` (dispatched by cli_bench): solve times from
 * a loaded complete table. argv[0] is "table". Thread: main. */
int cli_tables_bench(int argc, char **argv);

/* `puzzled bench build ...`: table build times (cli_bench_build.c).
 * Returns the exit code. Thread: main. */
int cli_bench_build(int argc, char **argv);

/* Parses an unsigned decimal option value; prints a usage error naming
 * flag and returns -1 when text is not a number in 0..max. */
long long cli_parse_uint(const char *flag, const char *text, long long max);

#endif
