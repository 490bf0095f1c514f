/* SPDX-License-Identifier: MIT */
/* config.h - `puzzled serve` settings from flags and PUZZLED_* variables. */
#ifndef PZ_SERVER_CONFIG_H
#define PZ_SERVER_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log.h"
#include "request.h"

/* HTTP threads with --redis unless --http-threads says otherwise. */
#define CONFIG_REDIS_HTTP_THREADS 8

/* Most CORS origins the allow-list holds. */
#define CONFIG_CORS_MAX 16

/* Everything the server is configured with. Filled by config_parse. */
typedef struct config {
    int port;                    /* TCP port, 0 = ephemeral */
    char *port_file;             /* owned; write the bound port here, or NULL */
    char *bind;                  /* owned; IPv4 or IPv6 address literal */
    int workers;                 /* solver threads, >= 1 */
    int queue;                   /* queued jobs at most, >= 1 */
    api_policy_t policy;         /* request defaults and maxima */
    size_t memory_cap;           /* bytes: sum of queued+running job budgets */
    size_t tables_memory;        /* bytes the shared tables may take */
    int64_t retention_ms;        /* how long ended jobs are kept */
    int max_jobs;                /* ended jobs kept at most */
    int ncors;                   /* entries in cors */
    char *cors[CONFIG_CORS_MAX]; /* owned; allowed Origin values */
    char *tables;                /* owned; table directory, or NULL */
    char *openapi;               /* owned; openapi.yaml to serve, or NULL */
    char *web;                   /* owned; the page's directory, or NULL */
    log_level_t log_level;
    int connection_limit; /* connections served in full (http_conns.h) */
    int client_timeout_s; /* idle, request head and body deadline */
    int http_threads;     /* MHD polling threads */
    int grace_ms;         /* shutdown: running jobs may finish this long */
    char *redis;          /* owned; redis:// URL of the job store, or NULL */
    char *redis_prefix;   /* owned; key prefix, or NULL ("puzzled") */
    int redis_timeout_ms; /* connect and command timeout */
    int redis_lease_ms;   /* a job unrefreshed this long is reclaimed */
    int redis_attempts;   /* runs of a job at most before worker_lost */
} config_t;

/*
 * Fills cfg from the PUZZLED_* environment and then argv (flags win).
 * argv[0] is the command name ("serve") and is skipped. Returns 0 when the
 * server should start, 1 when --help was printed to out (exit 0), or 2
 * after writing a message about a bad flag or value to err (exit 2). In
 * every case the caller frees cfg with config_cleanup. Thread: main.
 */
int config_parse(int argc, char **argv, config_t *cfg, FILE *out, FILE *err);

/* Frees what cfg owns; cfg may be NULL. */
void config_cleanup(config_t *cfg);

/* Writes the usage text to f. */
void config_usage(FILE *f);

#endif
