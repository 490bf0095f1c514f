/* SPDX-License-Identifier: MIT */
/* main.c - the puzzled command: serve, solve, scramble, bench, tables. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "serve.h"
#include "solve.h"
#include "table_threads.h"
#include "tables.h"
#include "version.h"

static void
usage(FILE *f)
{
    fprintf(f, "usage: puzzled COMMAND [options]\n"
               "  serve      run the HTTP service (puzzled serve --help)\n"
               "  solve      solve one puzzle (puzzled solve --help)\n"
               "  scramble   print a scramble (puzzled scramble --help)\n"
               "  bench      run a benchmark (puzzled bench --help)\n"
               "  tables     build, list, verify tables (puzzled tables "
               "--help)\n"
               "  --version  print the version\n");
}

int
main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : NULL;

    if (cmd == NULL) {
        usage(stderr);
        return CLI_EXIT_INPUT;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        if (pz_revision()[0] != '\0') {
            printf("puzzled %s (git %s)\n", pz_version(), pz_revision());
        } else {
            printf("puzzled %s\n", pz_version());
        }
        return CLI_EXIT_OK;
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    /* Table builds (first use, `tables build`, the daemon's startup)
     * may use every CPU. */
    table_threads_install(0);
    solve_register_tables();
    /* The daemon and the benchmarks hold tables for a long time: copies
     * (huge pages, immune to the files changing). `tables` checks every
     * file it loads; short commands map them and trust their entries. */
    tables_set_loads(strcmp(cmd, "serve") == 0 || strcmp(cmd, "bench") == 0
                         ? TABLES_LOADS_COPY
                     : strcmp(cmd, "tables") == 0 ? TABLES_LOADS_VERIFY
                                                  : TABLES_LOADS_MAP);
    if (strcmp(cmd, "serve") == 0) {
        return serve_main(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "solve") == 0) {
        return cli_solve(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "bench") == 0) {
        return cli_bench(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "scramble") == 0) {
        return cli_scramble(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "tables") == 0) {
        return cli_tables(argc - 1, argv + 1);
    }
    fprintf(stderr, "puzzled: unknown command '%s'\n", cmd);
    usage(stderr);
    return CLI_EXIT_INPUT;
}
