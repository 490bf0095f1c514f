/* SPDX-License-Identifier: MIT */
/* serve.h - `puzzled serve`: the HTTP solving service. */
#ifndef PZ_SERVER_SERVE_H
#define PZ_SERVER_SERVE_H

#include <stdbool.h>

/*
 * Runs the service until SIGTERM or SIGINT (or serve_stop), then shuts
 * down gracefully. argv[0] is the command name ("serve"); the options are
 * described by `puzzled serve --help` (config.h). Returns the process exit
 * code: 0 after a clean shutdown or --help, 1 when the service could not
 * start (address in use, no threads), 2 for bad options (including an
 * unreadable --openapi file).
 * Only one serve_main may run in a process at a time. Thread: main.
 */
int serve_main(int argc, char **argv);

/* Asks a running serve_main to shut down, as SIGTERM does. For tests
 * that run the service in-process. Thread: any, but not from a signal
 * handler. */
void serve_stop(void);

/* The CPUs this process may use: online CPUs, lowered to the cgroup v2
 * CPU quota when one is set (0 or less when unknown). The service's
 * default solver threads; the command line's threads for one optimal
 * search. Thread: any. */
long serve_cpus(void);

#endif
