/* SPDX-License-Identifier: MIT */
/* test_server_config.c - `puzzled serve` flags and PUZZLED_* variables. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "config.h"

extern char **environ;

/* Removes every PUZZLED_* variable (the test runner sets some), so that
 * each test starts from the built-in defaults. Checked fixture: runs in
 * each test's own process. */
static void
clear_env(void)
{
    char names[64][64];
    int n = 0;

    for (char **e = environ; *e != NULL && n < 64; e++) {
        size_t len = strcspn(*e, "=");

        if (strncmp(*e, "PUZZLED_", 8) == 0 && len < sizeof(names[0])) {
            memcpy(names[n], *e, len);
            names[n++][len] = '\0';
        }
    }
    for (int i = 0; i < n; i++) {
        unsetenv(names[i]);
    }
}

/* What config_parse wrote to out and err in the last parse. */
static char out_text[16384];
static char err_text[1024];

/* Parses "serve" followed by the NULL-terminated args into *cfg (the
 * caller cleans it up) and returns the code; out and err are kept. */
static int
parse_argv(config_t *cfg, const char *const *args)
{
    char *argv[32];
    int argc = 0;
    char *obuf = NULL;
    char *ebuf = NULL;
    size_t olen = 0;
    size_t elen = 0;
    FILE *out = open_memstream(&obuf, &olen);
    FILE *err = open_memstream(&ebuf, &elen);
    int rc;

    ck_assert(out != NULL && err != NULL);
    argv[argc++] = (char *)"serve";
    for (int i = 0; args[i] != NULL && argc < 31; i++) {
        argv[argc++] = (char *)args[i];
    }
    argv[argc] = NULL;
    rc = config_parse(argc, argv, cfg, out, err);
    fclose(out);
    fclose(err);
    snprintf(out_text, sizeof(out_text), "%s", obuf);
    snprintf(err_text, sizeof(err_text), "%s", ebuf);
    free(obuf);
    free(ebuf);
    return rc;
}

#define PARSE(cfg, ...) parse_argv((cfg), (const char *const[]){ __VA_ARGS__ })

/* Parses args, which must be refused (2) with a message holding want. */
static void
expect_refused(const char *const *args, const char *want)
{
    config_t cfg;
    int rc = parse_argv(&cfg, args);

    ck_assert_msg(rc == 2, "%s ...: rc %d, expected 2 (%s)", args[0], rc, want);
    ck_assert_msg(strstr(err_text, want) != NULL,
                  "%s ...: message '%s' lacks '%s'", args[0], err_text, want);
    config_cleanup(&cfg);
}

#define REFUSED(want, ...) \
    expect_refused((const char *const[]){ __VA_ARGS__ }, (want))

/* --- the numeric options -------------------------------------------- */

typedef enum field_type {
    F_INT,
    F_I64,
    F_U64,
    F_SIZE,
} field_type_t;

/* A numeric option as the documentation gives it: its range, where the
 * value lands and in what unit, and the other flags without which an
 * extreme value is refused by a cross-field rule. */
typedef struct num_opt {
    const char *flag;
    const char *env;
    field_type_t type;
    size_t offset;
    int64_t min;
    int64_t max;
    int64_t unit; /* stored value = given value * unit */
    const char *with_min[3];
    const char *with_max[5];
} num_opt_t;

#define F(f)  offsetof(config_t, f)
#define PF(f) (offsetof(config_t, policy) + offsetof(api_policy_t, f))
#define T40   (INT64_C(1) << 40)
#define MIB   (INT64_C(1) << 20)

static const num_opt_t num_opts[] = {
    { "port", "PUZZLED_PORT", F_INT, F(port), 0, 65535, 1, { 0 }, { 0 } },
    { "workers",
      "PUZZLED_WORKERS",
      F_INT,
      F(workers),
      1,
      1024,
      1,
      { 0 },
      { 0 } },
    { "queue", "PUZZLED_QUEUE", F_INT, F(queue), 1, 1000000, 1, { 0 }, { 0 } },
    { "default-time-ms",
      "PUZZLED_DEFAULT_TIME_MS",
      F_U64,
      PF(default_time_ms),
      1,
      T40,
      1,
      { 0 },
      { "--max-time-ms", "1099511627776" } },
    { "max-time-ms",
      "PUZZLED_MAX_TIME_MS",
      F_U64,
      PF(max_time_ms),
      1,
      T40,
      1,
      { "--default-time-ms", "1" },
      { 0 } },
    { "default-memory-mb",
      "PUZZLED_DEFAULT_MEMORY_MB",
      F_SIZE,
      PF(default_memory_bytes),
      1,
      INT64_C(1) << 24,
      MIB,
      { 0 },
      { "--max-memory-mb", "16777216", "--memory-cap-mb", "1073741824" } },
    { "max-memory-mb",
      "PUZZLED_MAX_MEMORY_MB",
      F_SIZE,
      PF(max_memory_bytes),
      1,
      INT64_C(1) << 24,
      MIB,
      { 0 },
      { "--memory-cap-mb", "1073741824" } },
    { "max-nodes",
      "PUZZLED_MAX_NODES",
      F_U64,
      PF(max_max_nodes),
      0,
      INT64_C(1) << 53,
      1,
      { 0 },
      { 0 } },
    { "default-wait-ms",
      "PUZZLED_DEFAULT_WAIT_MS",
      F_I64,
      PF(default_wait_ms),
      0,
      T40,
      1,
      { 0 },
      { "--max-wait-ms", "1099511627776" } },
    { "max-wait-ms",
      "PUZZLED_MAX_WAIT_MS",
      F_I64,
      PF(max_wait_ms),
      0,
      T40,
      1,
      { "--default-wait-ms", "0" },
      { 0 } },
    { "memory-cap-mb",
      "PUZZLED_MEMORY_CAP_MB",
      F_SIZE,
      F(memory_cap),
      1,
      INT64_C(1) << 30,
      MIB,
      { 0 },
      { 0 } },
    { "tables-memory-mb",
      "PUZZLED_TABLES_MEMORY_MB",
      F_SIZE,
      F(tables_memory),
      1,
      INT64_C(1) << 30,
      MIB,
      { 0 },
      { 0 } },
    { "retention-s",
      "PUZZLED_RETENTION_S",
      F_I64,
      F(retention_ms),
      0,
      INT64_C(1) << 30,
      1000,
      { 0 },
      { 0 } },
    { "max-jobs",
      "PUZZLED_MAX_JOBS",
      F_INT,
      F(max_jobs),
      1,
      10000000,
      1,
      { 0 },
      { 0 } },
    { "default-tables-wait-ms",
      "PUZZLED_DEFAULT_TABLES_WAIT_MS",
      F_I64,
      PF(default_tables_wait_ms),
      0,
      T40,
      1,
      { 0 },
      { 0 } },
    { "max-tables-wait-ms",
      "PUZZLED_MAX_TABLES_WAIT_MS",
      F_I64,
      PF(max_tables_wait_ms),
      0,
      T40,
      1,
      { 0 },
      { 0 } },
    { "max-batch",
      "PUZZLED_MAX_BATCH",
      F_INT,
      PF(max_batch),
      1,
      1000000,
      1,
      { 0 },
      { 0 } },
    { "connection-limit",
      "PUZZLED_CONNECTION_LIMIT",
      F_INT,
      F(connection_limit),
      4,
      100000,
      1,
      { 0 },
      { 0 } },
    { "client-timeout-s",
      "PUZZLED_CLIENT_TIMEOUT_S",
      F_INT,
      F(client_timeout_s),
      1,
      3600,
      1,
      { 0 },
      { 0 } },
    { "http-threads",
      "PUZZLED_HTTP_THREADS",
      F_INT,
      F(http_threads),
      1,
      64,
      1,
      { 0 },
      { 0 } },
    { "grace-ms",
      "PUZZLED_GRACE_MS",
      F_INT,
      F(grace_ms),
      0,
      3600000,
      1,
      { 0 },
      { 0 } },
    { "redis-timeout-ms",
      "PUZZLED_REDIS_TIMEOUT_MS",
      F_INT,
      F(redis_timeout_ms),
      10,
      600000,
      1,
      { 0 },
      { 0 } },
    { "redis-lease-ms",
      "PUZZLED_REDIS_LEASE_MS",
      F_INT,
      F(redis_lease_ms),
      500,
      3600000,
      1,
      { 0 },
      { 0 } },
    { "redis-attempts",
      "PUZZLED_REDIS_ATTEMPTS",
      F_INT,
      F(redis_attempts),
      1,
      100,
      1,
      { 0 },
      { 0 } },
};

#define NNUM ((int)(sizeof(num_opts) / sizeof(num_opts[0])))

/* The options that take text, with their variables. */
static const char *const text_opts[][2] = {
    { "port-file", "PUZZLED_PORT_FILE" },
    { "bind", "PUZZLED_BIND" },
    { "cors-origin", "PUZZLED_CORS_ORIGINS" },
    { "tables", "PUZZLED_TABLES" },
    { "table-builds", "PUZZLED_TABLE_BUILDS" },
    { "openapi", "PUZZLED_OPENAPI" },
    { "web", "PUZZLED_WEB" },
    { "log-level", "PUZZLED_LOG_LEVEL" },
    { "redis", "PUZZLED_REDIS_URL" },
    { "redis-prefix", "PUZZLED_REDIS_PREFIX" },
};

#define NTEXT ((int)(sizeof(text_opts) / sizeof(text_opts[0])))

static int64_t
field_value(const config_t *cfg, const num_opt_t *o)
{
    const char *base = (const char *)cfg + o->offset;
    int64_t v = 0;

    switch (o->type) {
    case F_INT: {
        int x;

        memcpy(&x, base, sizeof(x));
        v = x;
        break;
    }
    case F_I64:
        memcpy(&v, base, sizeof(v));
        break;
    case F_U64: {
        uint64_t x;

        memcpy(&x, base, sizeof(x));
        v = (int64_t)x;
        break;
    }
    case F_SIZE: {
        size_t x;

        memcpy(&x, base, sizeof(x));
        v = (int64_t)x;
        break;
    }
    }
    return v;
}

/* Parses --flag value (as one argument "--flag=value" when joined) with
 * the extra flags; returns the code, cfg filled. */
static int
parse_one(config_t *cfg,
          const num_opt_t *o,
          const char *value,
          const char *const *with,
          bool joined)
{
    const char *args[12];
    char flag[64];
    char both[128];
    int n = 0;

    snprintf(flag, sizeof(flag), "--%s", o->flag);
    snprintf(both, sizeof(both), "--%s=%s", o->flag, value);
    if (joined) {
        args[n++] = both;
    } else {
        args[n++] = flag;
        args[n++] = value;
    }
    for (int i = 0; with != NULL && with[i] != NULL; i++) {
        args[n++] = with[i];
    }
    args[n] = NULL;
    return parse_argv(cfg, args);
}

/* Each numeric option takes its least and greatest value, stored in its
 * unit, from a flag in both spellings and from its variable. */
START_TEST(test_server_config_numbers_accept_their_range)
{
    for (int i = 0; i < NNUM; i++) {
        const num_opt_t *o = &num_opts[i];
        int64_t ends[2] = { o->min, o->max };

        for (int e = 0; e < 2; e++) {
            const char *const *with = e == 0 ? o->with_min : o->with_max;
            char value[32];
            config_t cfg;
            int rc;

            snprintf(value, sizeof(value), "%lld", (long long)ends[e]);
            for (int joined = 0; joined < 2; joined++) {
                rc = parse_one(&cfg, o, value, with, joined);
                ck_assert_msg(rc == 0, "--%s %s: rc %d: %s", o->flag, value, rc,
                              err_text);
                ck_assert_msg(field_value(&cfg, o) == ends[e] * o->unit,
                              "--%s %s: stored %lld", o->flag, value,
                              (long long)field_value(&cfg, o));
                config_cleanup(&cfg);
            }
            setenv(o->env, value, 1);
            rc = parse_argv(&cfg, with);
            ck_assert_msg(rc == 0, "%s=%s: rc %d: %s", o->env, value, rc,
                          err_text);
            ck_assert_msg(field_value(&cfg, o) == ends[e] * o->unit,
                          "%s=%s: stored %lld", o->env, value,
                          (long long)field_value(&cfg, o));
            config_cleanup(&cfg);
            unsetenv(o->env);
        }
    }
}
END_TEST

/* One below the least, one above the greatest, and text that is not a
 * whole number are refused, naming the flag or variable and the range. */
START_TEST(test_server_config_numbers_refuse_outside_range)
{
    for (int i = 0; i < NNUM; i++) {
        const num_opt_t *o = &num_opts[i];
        char low[32];
        char high[32];
        const char *bad[] = {
            low, high, "", "12x", "x", "1.5", "99999999999999999999999"
        };
        char want[128];

        snprintf(low, sizeof(low), "%lld", (long long)o->min - 1);
        snprintf(high, sizeof(high), "%lld", (long long)o->max + 1);
        for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
            config_t cfg;
            int rc = parse_one(&cfg, o, bad[k], NULL, k % 2 == 1);

            snprintf(want, sizeof(want),
                     "--%s must be an integer from %lld to %lld (got '%s')",
                     o->flag, (long long)o->min, (long long)o->max, bad[k]);
            ck_assert_msg(rc == 2, "--%s '%s': rc %d", o->flag, bad[k], rc);
            ck_assert_msg(strstr(err_text, want) != NULL,
                          "--%s '%s': message '%s'", o->flag, bad[k], err_text);
            config_cleanup(&cfg);
        }
        {
            config_t cfg;
            int rc;

            setenv(o->env, high, 1);
            rc = parse_argv(&cfg, (const char *const[]){ NULL });
            snprintf(want, sizeof(want),
                     "%s must be an integer from %lld to %lld (got '%s')",
                     o->env, (long long)o->min, (long long)o->max, high);
            ck_assert_msg(rc == 2 && strstr(err_text, want) != NULL,
                          "%s=%s: rc %d, message '%s'", o->env, high, rc,
                          err_text);
            config_cleanup(&cfg);
            unsetenv(o->env);
        }
    }
}
END_TEST

/* --- defaults, help, unknown flags ------------------------------------ */

START_TEST(test_server_config_defaults)
{
    config_t cfg;
    api_policy_t pol;

    api_policy_default(&pol);
    ck_assert_int_eq(PARSE(&cfg, NULL), 0);
    ck_assert_str_eq(err_text, "");
    ck_assert_int_eq(cfg.port, 8080);
    ck_assert_str_eq(cfg.bind, "127.0.0.1");
    ck_assert_ptr_null(cfg.port_file);
    ck_assert_ptr_null(cfg.tables);
    ck_assert_ptr_null(cfg.openapi);
    ck_assert_int_ge(cfg.workers, 1);
    ck_assert_int_le(cfg.workers, 1024);
    ck_assert_int_eq(cfg.queue, 64);
    ck_assert_uint_eq(cfg.policy.default_time_ms, pol.default_time_ms);
    ck_assert_uint_eq(cfg.policy.max_time_ms, pol.max_time_ms);
    ck_assert_uint_eq(cfg.policy.default_max_nodes, 0);
    ck_assert_uint_eq(cfg.policy.max_max_nodes, 0);
    ck_assert_int_eq(cfg.policy.default_wait_ms, pol.default_wait_ms);
    ck_assert_int_eq(cfg.policy.max_wait_ms, pol.max_wait_ms);
    ck_assert_int_eq(cfg.policy.default_tables_wait_ms,
                     pol.default_tables_wait_ms);
    ck_assert_int_eq(cfg.policy.max_tables_wait_ms, pol.max_tables_wait_ms);
    ck_assert_int_eq(cfg.policy.table_builds, API_TABLE_BUILDS_STARTUP);
    /* The memory maxima never pass the cap, whatever the machine. */
    ck_assert_uint_gt(cfg.memory_cap, 0);
    ck_assert_uint_gt(cfg.tables_memory, 0);
    ck_assert_uint_le(cfg.policy.max_memory_bytes, pol.max_memory_bytes);
    ck_assert_uint_le(cfg.policy.max_memory_bytes, cfg.memory_cap > (size_t)MIB
                                                       ? cfg.memory_cap
                                                       : (size_t)MIB);
    ck_assert_uint_le(cfg.policy.default_memory_bytes,
                      cfg.policy.max_memory_bytes);
    ck_assert_int_eq(cfg.retention_ms, 600000);
    ck_assert_int_eq(cfg.max_jobs, 1000);
    ck_assert_int_eq(cfg.ncors, 0);
    ck_assert_int_eq(cfg.log_level, LOG_INFO);
    ck_assert_int_eq(cfg.connection_limit, 256);
    ck_assert_int_eq(cfg.client_timeout_s, 10);
    ck_assert_int_eq(cfg.http_threads, 2);
    ck_assert_int_eq(cfg.grace_ms, 5000);
    config_cleanup(&cfg);
}
END_TEST

/* With --redis the connection threads default to 8 (each waits for Redis
 * round trips); a count given by flag or variable wins. */
START_TEST(test_server_config_redis_http_threads)
{
    config_t cfg;

    ck_assert_int_eq(PARSE(&cfg, "--redis", "redis://127.0.0.1:6379", NULL), 0);
    ck_assert_int_eq(cfg.http_threads, 8);
    ck_assert_str_eq(cfg.redis, "redis://127.0.0.1:6379");
    config_cleanup(&cfg);
    ck_assert_int_eq(
        PARSE(&cfg, "--redis", "redis://h", "--http-threads", "3", NULL), 0);
    ck_assert_int_eq(cfg.http_threads, 3);
    config_cleanup(&cfg);
    setenv("PUZZLED_HTTP_THREADS", "2", 1);
    ck_assert_int_eq(PARSE(&cfg, "--redis", "redis://h", NULL), 0);
    ck_assert_int_eq(cfg.http_threads, 2);
    unsetenv("PUZZLED_HTTP_THREADS");
    config_cleanup(&cfg);
}
END_TEST

/* --help and -h print the usage, which names every option above and its
 * variable, and no option this test does not know. */
START_TEST(test_server_config_help_lists_every_option)
{
    static const char *const helps[] = { "--help", "-h" };
    int listed = 0;

    for (int h = 0; h < 2; h++) {
        config_t cfg;

        ck_assert_int_eq(PARSE(&cfg, helps[h], NULL), 1);
        ck_assert_ptr_nonnull(strstr(out_text, "usage: puzzled serve"));
        config_cleanup(&cfg);
    }
    for (int i = 0; i < NNUM + NTEXT; i++) {
        const char *flag = i < NNUM ? num_opts[i].flag : text_opts[i - NNUM][0];
        const char *env = i < NNUM ? num_opts[i].env : text_opts[i - NNUM][1];
        char want[64];

        snprintf(want, sizeof(want), "--%s ", flag);
        ck_assert_msg(strstr(out_text, want) != NULL, "--%s is not in --help",
                      flag);
        snprintf(want, sizeof(want), "[%s]", env);
        ck_assert_msg(strstr(out_text, want) != NULL, "%s is not in --help",
                      env);
    }
    for (const char *s = strstr(out_text, "  --"); s != NULL;
         s = strstr(s + 1, "  --")) {
        char flag[64];
        bool known = false;

        sscanf(s + 4, "%63[a-z-]", flag);
        known = strcmp(flag, "help") == 0;
        for (int i = 0; i < NNUM + NTEXT && !known; i++) {
            known = strcmp(flag, i < NNUM ? num_opts[i].flag
                                          : text_opts[i - NNUM][0]) == 0;
        }
        ck_assert_msg(known,
                      "--help lists --%s, which this test does not "
                      "know",
                      flag);
        listed++;
    }
    ck_assert_int_eq(listed, NNUM + NTEXT + 1);
}
END_TEST

START_TEST(test_server_config_unknown_and_malformed_arguments)
{
    REFUSED("unknown option '--nope' (see --help)", "--nope", NULL);
    REFUSED("unknown option '--nope' (see --help)", "--nope=3", NULL);
    /* A prefix of an option is not the option. */
    REFUSED("unknown option '--por'", "--por", "80", NULL);
    REFUSED("unknown option '--port-'", "--port-=80", NULL);
    REFUSED("unexpected argument 'extra'", "extra", NULL);
    REFUSED("unexpected argument '-p'", "-p", "80", NULL);
    REFUSED("--port needs a value", "--port", NULL);
    REFUSED("--workers needs a value", "--port", "81", "--workers", NULL);
    /* The value of an earlier flag is not taken for a flag. */
    {
        config_t cfg;

        ck_assert_int_eq(PARSE(&cfg, "--port-file", "--port", NULL), 0);
        ck_assert_str_eq(cfg.port_file, "--port");
        ck_assert_int_eq(cfg.port, 8080);
        config_cleanup(&cfg);
    }
}
END_TEST

/* --- text options ------------------------------------------------------ */

START_TEST(test_server_config_text_options)
{
    config_t cfg;

    ck_assert_int_eq(PARSE(&cfg, "--bind", "::1", "--port-file", "/p",
                           "--tables=/t", "--openapi", "/o.yaml", "--log-level",
                           "debug", "--table-builds", "on-demand", NULL),
                     0);
    ck_assert_str_eq(cfg.bind, "::1");
    ck_assert_str_eq(cfg.port_file, "/p");
    ck_assert_str_eq(cfg.tables, "/t");
    ck_assert_str_eq(cfg.openapi, "/o.yaml");
    ck_assert_int_eq(cfg.log_level, LOG_DEBUG);
    ck_assert_int_eq(cfg.policy.table_builds, API_TABLE_BUILDS_ON_DEMAND);
    config_cleanup(&cfg);
    ck_assert_int_eq(PARSE(&cfg, "--table-builds", "never", "--log-level",
                           "error", "--bind", "0.0.0.0", NULL),
                     0);
    ck_assert_int_eq(cfg.policy.table_builds, API_TABLE_BUILDS_NEVER);
    ck_assert_int_eq(cfg.log_level, LOG_ERROR);
    config_cleanup(&cfg);
    /* The last of a repeated option wins. */
    ck_assert_int_eq(PARSE(&cfg, "--tables", "/a", "--tables", "/b",
                           "--table-builds", "never", "--table-builds",
                           "startup", NULL),
                     0);
    ck_assert_str_eq(cfg.tables, "/b");
    ck_assert_int_eq(cfg.policy.table_builds, API_TABLE_BUILDS_STARTUP);
    config_cleanup(&cfg);

    REFUSED("--bind must be an IPv4 or IPv6 address", "--bind", "localhost",
            NULL);
    REFUSED("(got '1.2.3')", "--bind", "1.2.3", NULL);
    REFUSED("--tables must not be empty", "--tables", "", NULL);
    REFUSED("--port-file must not be empty", "--port-file=", NULL);
    REFUSED("--log-level must be error, warn, info or debug (got 'loud')",
            "--log-level", "loud", NULL);
    REFUSED("--table-builds must be startup, on-demand or never (got "
            "'always')",
            "--table-builds", "always", NULL);
}
END_TEST

/* The variable takes a comma list (blanks trimmed, empty items skipped);
 * the first --cors-origin replaces it, later ones add; at most
 * CONFIG_CORS_MAX. */
START_TEST(test_server_config_cors_origins)
{
    config_t cfg;
    char many[CONFIG_CORS_MAX * 8 + 8] = "";

    setenv("PUZZLED_CORS_ORIGINS", " https://a.example , ,https://b.example,",
           1);
    ck_assert_int_eq(PARSE(&cfg, NULL), 0);
    ck_assert_int_eq(cfg.ncors, 2);
    ck_assert_str_eq(cfg.cors[0], "https://a.example");
    ck_assert_str_eq(cfg.cors[1], "https://b.example");
    config_cleanup(&cfg);

    ck_assert_int_eq(PARSE(&cfg, "--cors-origin", "https://c.example",
                           "--cors-origin=https://d.example,https://e.example",
                           NULL),
                     0);
    ck_assert_int_eq(cfg.ncors, 3);
    ck_assert_str_eq(cfg.cors[0], "https://c.example");
    ck_assert_str_eq(cfg.cors[1], "https://d.example");
    ck_assert_str_eq(cfg.cors[2], "https://e.example");
    config_cleanup(&cfg);
    unsetenv("PUZZLED_CORS_ORIGINS");

    for (int i = 0; i < CONFIG_CORS_MAX; i++) {
        snprintf(many + strlen(many), sizeof(many) - strlen(many), "o%d,", i);
    }
    setenv("PUZZLED_CORS_ORIGINS", many, 1);
    ck_assert_int_eq(PARSE(&cfg, NULL), 0);
    ck_assert_int_eq(cfg.ncors, CONFIG_CORS_MAX);
    config_cleanup(&cfg);
    strcat(many, "one-more");
    setenv("PUZZLED_CORS_ORIGINS", many, 1);
    ck_assert_int_eq(PARSE(&cfg, NULL), 2);
    ck_assert_ptr_nonnull(strstr(err_text, "PUZZLED_CORS_ORIGINS: at most 16 "
                                           "origins"));
    config_cleanup(&cfg);
}
END_TEST

/* --- environment and cross-field rules -------------------------------- */

START_TEST(test_server_config_flags_win_over_environment)
{
    config_t cfg;

    setenv("PUZZLED_PORT", "1000", 1);
    setenv("PUZZLED_LOG_LEVEL", "warn", 1);
    setenv("PUZZLED_TABLES", "/from-env", 1);
    ck_assert_int_eq(PARSE(&cfg, NULL), 0);
    ck_assert_int_eq(cfg.port, 1000);
    ck_assert_int_eq(cfg.log_level, LOG_WARN);
    ck_assert_str_eq(cfg.tables, "/from-env");
    config_cleanup(&cfg);
    ck_assert_int_eq(
        PARSE(&cfg, "--port", "2000", "--tables", "/from-flag", NULL), 0);
    ck_assert_int_eq(cfg.port, 2000);
    ck_assert_int_eq(cfg.log_level, LOG_WARN);
    ck_assert_str_eq(cfg.tables, "/from-flag");
    config_cleanup(&cfg);
    /* A bad variable is refused even when a flag would replace it. */
    setenv("PUZZLED_PORT", "70000", 1);
    REFUSED("PUZZLED_PORT must be an integer", "--port", "2000", NULL);
}
END_TEST

START_TEST(test_server_config_cross_field_rules)
{
    config_t cfg;

    REFUSED("--default-time-ms (5000) is above --max-time-ms (4000)",
            "--default-time-ms", "5000", "--max-time-ms", "4000", NULL);
    REFUSED("--default-wait-ms (10) is above --max-wait-ms (9)",
            "--max-wait-ms", "9", "--default-wait-ms", "10", NULL);
    /* The largest budget is lowered to the cap ... */
    ck_assert_int_eq(
        PARSE(&cfg, "--memory-cap-mb", "100", "--max-memory-mb", "300", NULL),
        0);
    ck_assert_uint_eq(cfg.policy.max_memory_bytes, (size_t)100 << 20);
    /* ... and so is the built-in default budget (256 MiB) ... */
    ck_assert_uint_eq(cfg.policy.default_memory_bytes, (size_t)100 << 20);
    config_cleanup(&cfg);
    /* ... but a default given above it is refused. */
    REFUSED("--default-memory-mb (200) is above the largest budget allowed "
            "(100 MiB",
            "--memory-cap-mb", "100", "--default-memory-mb", "200", NULL);
    /* A node maximum is also the default of requests that give none. */
    ck_assert_int_eq(PARSE(&cfg, "--max-nodes", "5000", NULL), 0);
    ck_assert_uint_eq(cfg.policy.max_max_nodes, 5000);
    ck_assert_uint_eq(cfg.policy.default_max_nodes, 5000);
    config_cleanup(&cfg);
}
END_TEST

static Suite *
config_suite(void)
{
    Suite *s = suite_create("server_config");
    TCase *tc = tcase_create("config");

    tcase_add_checked_fixture(tc, clear_env, NULL);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_server_config_defaults);
    tcase_add_test(tc, test_server_config_numbers_accept_their_range);
    tcase_add_test(tc, test_server_config_numbers_refuse_outside_range);
    tcase_add_test(tc, test_server_config_help_lists_every_option);
    tcase_add_test(tc, test_server_config_redis_http_threads);
    tcase_add_test(tc, test_server_config_unknown_and_malformed_arguments);
    tcase_add_test(tc, test_server_config_text_options);
    tcase_add_test(tc, test_server_config_cors_origins);
    tcase_add_test(tc, test_server_config_flags_win_over_environment);
    tcase_add_test(tc, test_server_config_cross_field_rules);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(config_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
