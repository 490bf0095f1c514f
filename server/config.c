/* SPDX-License-Identifier: MIT */
/* config.c - parses `puzzled serve` flags and PUZZLED_* environment. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve.h"

/* How an option's text becomes a value in config_t. */
typedef enum opt_kind {
    OPT_INT,     /* int field */
    OPT_I64,     /* int64_t field */
    OPT_U64,     /* uint64_t field */
    OPT_MIB,     /* size_t field in bytes, given in MiB */
    OPT_SECONDS, /* int64_t field in ms, given in seconds */
    OPT_STRING,  /* owned char * field */
    OPT_LEVEL,   /* log_level_t field */
    OPT_BUILDS,  /* API_TABLE_BUILDS_* int field */
    OPT_CORS,    /* appends to the CORS list (repeatable, comma lists) */
} opt_kind_t;

typedef struct opt {
    const char *flag; /* without the leading "--" */
    const char *env;  /* PUZZLED_* */
    opt_kind_t kind;
    size_t offset; /* of the field in config_t */
    int64_t min;   /* numeric kinds: accepted range */
    int64_t max;
    const char *help; /* one line for --help */
} opt_t;

#define FIELD(f)  offsetof(config_t, f)
#define POLICY(f) (offsetof(config_t, policy) + offsetof(api_policy_t, f))

static const opt_t options[] = {
    { "port", "PUZZLED_PORT", OPT_INT, FIELD(port), 0, 65535,
      "TCP port (default 8080; 0 picks a free one, logged as \"port\")" },
    { "port-file", "PUZZLED_PORT_FILE", OPT_STRING, FIELD(port_file), 0, 0,
      "write the bound port number to this file" },
    { "bind", "PUZZLED_BIND", OPT_STRING, FIELD(bind), 0, 0,
      "address to listen on (default 127.0.0.1)" },
    { "workers", "PUZZLED_WORKERS", OPT_INT, FIELD(workers), 1, 1024,
      "solver threads (default: CPUs, or the cgroup CPU quota)" },
    { "queue", "PUZZLED_QUEUE", OPT_INT, FIELD(queue), 1, 1000000,
      "jobs waiting for a solver thread, at most (default 64)" },
    { "default-time-ms", "PUZZLED_DEFAULT_TIME_MS", OPT_U64,
      POLICY(default_time_ms), 1, INT64_C(1) << 40,
      "search time when a request gives none (default 10000)" },
    { "max-time-ms", "PUZZLED_MAX_TIME_MS", OPT_U64, POLICY(max_time_ms), 1,
      INT64_C(1) << 40, "largest time_ms a request may ask (default 300000)" },
    { "default-memory-mb", "PUZZLED_DEFAULT_MEMORY_MB", OPT_MIB,
      POLICY(default_memory_bytes), 1, INT64_C(1) << 24,
      "search memory when a request gives none (default 256)" },
    { "max-memory-mb", "PUZZLED_MAX_MEMORY_MB", OPT_MIB,
      POLICY(max_memory_bytes), 1, INT64_C(1) << 24,
      "largest memory_mb a request may ask (default 4096)" },
    { "max-nodes", "PUZZLED_MAX_NODES", OPT_U64, POLICY(max_max_nodes), 0,
      INT64_C(1) << 53,
      "largest max_nodes a request may ask; also the default (0 = none)" },
    { "default-wait-ms", "PUZZLED_DEFAULT_WAIT_MS", OPT_I64,
      POLICY(default_wait_ms), 0, INT64_C(1) << 40,
      "how long POST /solve waits when wait_ms is not given (default 2000)" },
    { "max-wait-ms", "PUZZLED_MAX_WAIT_MS", OPT_I64, POLICY(max_wait_ms), 0,
      INT64_C(1) << 40, "longest wait_ms a request may ask (default 60000)" },
    { "memory-cap-mb", "PUZZLED_MEMORY_CAP_MB", OPT_MIB, FIELD(memory_cap), 1,
      INT64_C(1) << 30,
      "cap on the sum of queued and running job budgets (default: 75% of "
      "RAM or the cgroup limit)" },
    { "tables-memory-mb", "PUZZLED_TABLES_MEMORY_MB", OPT_MIB,
      FIELD(tables_memory), 1, INT64_C(1) << 30,
      "memory the shared tables may take in all; a table past it is not "
      "loaded and its jobs fail with tables_memory (default: 90% of RAM "
      "or the cgroup limit)" },
    { "retention-s", "PUZZLED_RETENTION_S", OPT_SECONDS, FIELD(retention_ms), 0,
      INT64_C(1) << 30, "seconds an ended job is kept (default 600)" },
    { "max-jobs", "PUZZLED_MAX_JOBS", OPT_INT, FIELD(max_jobs), 1, 10000000,
      "ended jobs kept at most (default 1000)" },
    { "cors-origin", "PUZZLED_CORS_ORIGINS", OPT_CORS, 0, 0, 0,
      "allow this Origin (repeatable; the variable takes a comma list)" },
    { "tables", "PUZZLED_TABLES", OPT_STRING, FIELD(tables), 0, 0,
      "directory of the tables (default: $XDG_CACHE_HOME/puzzled)" },
    { "table-builds", "PUZZLED_TABLE_BUILDS", OPT_BUILDS, POLICY(table_builds),
      0, 0,
      "startup (default: build the complete and two-phase tables at start; "
      "requests start no build), on-demand (requests may start any build) "
      "or never (load existing files only)" },
    { "default-tables-wait-ms", "PUZZLED_DEFAULT_TABLES_WAIT_MS", OPT_I64,
      POLICY(default_tables_wait_ms), 0, INT64_C(1) << 40,
      "how long a job may wait for its tables when tables_wait_ms is not "
      "given (default 300000)" },
    { "max-tables-wait-ms", "PUZZLED_MAX_TABLES_WAIT_MS", OPT_I64,
      POLICY(max_tables_wait_ms), 0, INT64_C(1) << 40,
      "longest tables_wait_ms a request may ask (default 3600000)" },
    { "max-batch", "PUZZLED_MAX_BATCH", OPT_INT, POLICY(max_batch), 1, 1000000,
      "items one POST /v1/solve/batch may hold (default 1000)" },
    { "openapi", "PUZZLED_OPENAPI", OPT_STRING, FIELD(openapi), 0, 0,
      "serve this file at /openapi.yaml (default: the built-in copy)" },
    { "web", "PUZZLED_WEB", OPT_STRING, FIELD(web), 0, 0,
      "directory of the playground page served at / (default: web beside "
      "the binary, or ../share/puzzled/web from it)" },
    { "log-level", "PUZZLED_LOG_LEVEL", OPT_LEVEL, FIELD(log_level), 0, 0,
      "error, warn, info (default) or debug" },
    { "connection-limit", "PUZZLED_CONNECTION_LIMIT", OPT_INT,
      FIELD(connection_limit), 4, 100000,
      "connections served in full at most; at the limit, see the "
      "connection policy in the README (default 256)" },
    { "client-timeout-s", "PUZZLED_CLIENT_TIMEOUT_S", OPT_INT,
      FIELD(client_timeout_s), 1, 3600,
      "a connection idle this long, or whose request head or body has not "
      "all arrived in this time, is closed (default 10)" },
    { "http-threads", "PUZZLED_HTTP_THREADS", OPT_INT, FIELD(http_threads), 1,
      64, "HTTP polling threads (default 2; 8 with --redis)" },
    { "grace-ms", "PUZZLED_GRACE_MS", OPT_INT, FIELD(grace_ms), 0, 3600000,
      "on SIGTERM, running jobs may finish this long (default 5000)" },
    { "redis", "PUZZLED_REDIS_URL", OPT_STRING, FIELD(redis), 0, 0,
      "keep jobs in this Redis, redis://[:password@]host[:port][/db], "
      "shared by every replica (default: in this process)" },
    { "redis-prefix", "PUZZLED_REDIS_PREFIX", OPT_STRING, FIELD(redis_prefix),
      0, 0, "prefix of the Redis keys of this deployment (default puzzled)" },
    { "redis-timeout-ms", "PUZZLED_REDIS_TIMEOUT_MS", OPT_INT,
      FIELD(redis_timeout_ms), 10, 600000,
      "Redis connect and command timeout (default 1000)" },
    { "redis-lease-ms", "PUZZLED_REDIS_LEASE_MS", OPT_INT,
      FIELD(redis_lease_ms), 500, 3600000,
      "a job whose replica has not renewed it this long is taken over by "
      "another (default 10000)" },
    { "redis-attempts", "PUZZLED_REDIS_ATTEMPTS", OPT_INT,
      FIELD(redis_attempts), 1, 100,
      "times a job may be started before it ends worker_lost (default 3)" },
    { NULL, NULL, OPT_INT, 0, 0, 0, NULL },
};

void
config_usage(FILE *f)
{
    fprintf(f, "usage: puzzled serve [options]\n\n"
               "Runs the HTTP solving service. Every option can also be set "
               "with the\nenvironment variable shown; options given on the "
               "command line win.\n\n");
    for (const opt_t *o = options; o->flag != NULL; o++) {
        char left[64];

        snprintf(left, sizeof(left), "--%s%s", o->flag,
                 o->kind == OPT_STRING || o->kind == OPT_CORS ||
                         o->kind == OPT_LEVEL || o->kind == OPT_BUILDS
                     ? " TEXT"
                     : " N");
        fprintf(f, "  %-26s %s\n  %-26s [%s]\n", left, o->help, "", o->env);
    }
    fprintf(f, "  %-26s %s\n", "--help", "show this text");
}

/* Physical memory, lowered to the cgroup limit when one is readable. */
static uint64_t
memory_available(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long page = sysconf(_SC_PAGE_SIZE);
    uint64_t total = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page
                                           : UINT64_C(1) << 30;
    static const char *const files[] = {
        "/sys/fs/cgroup/memory.max",                   /* cgroup v2 */
        "/sys/fs/cgroup/memory/memory.limit_in_bytes", /* cgroup v1 */
    };

    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        FILE *f = fopen(files[i], "r");
        unsigned long long v;

        if (f == NULL) {
            continue;
        }
        /* "max" (v2) fails the scan: no limit. v1 reports "no limit" as a
         * huge number, which the min below ignores. */
        if (fscanf(f, "%llu", &v) == 1 && v > 0 && v < total) {
            total = v;
        }
        fclose(f);
    }
    return total;
}

/* Online CPUs, lowered to the cgroup v2 CPU quota when one is set (a
 * container limited to 2 CPUs on a 64-CPU host should run 2 solvers). */
long
serve_cpus(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    long long quota;
    long long period;

    if (f != NULL) {
        /* "max 100000" (no quota) fails the scan. */
        if (fscanf(f, "%lld %lld", &quota, &period) == 2 && quota > 0 &&
            period > 0) {
            long q = (long)((quota + period - 1) / period);

            if (q >= 1 && (cpus <= 0 || q < cpus)) {
                cpus = q;
            }
        }
        fclose(f);
    }
    return cpus;
}

static void
set_defaults(config_t *cfg)
{
    long cpus = serve_cpus();

    memset(cfg, 0, sizeof(*cfg));
    cfg->port = 8080;
    cfg->workers = cpus > 0 ? (int)(cpus < 1024 ? cpus : 1024) : 1;
    cfg->queue = 64;
    api_policy_default(&cfg->policy);
    cfg->policy.table_builds = API_TABLE_BUILDS_STARTUP;
    /* One cube's proven optimum may use every CPU no other job uses. */
    cfg->policy.optimal_threads = cpus > 1 ? (int)(cpus < 64 ? cpus : 64) : 1;
    cfg->memory_cap = (size_t)(memory_available() / 4 * 3);
    /* The tables and the jobs share the memory; without a cap a table
     * too large for a small container gets the daemon killed. */
    cfg->tables_memory = (size_t)(memory_available() / 10 * 9);
    cfg->retention_ms = 600 * 1000;
    cfg->max_jobs = 1000;
    cfg->log_level = LOG_INFO;
    cfg->connection_limit = 256;
    cfg->client_timeout_s = 10;
    cfg->http_threads = 2;
    cfg->grace_ms = 5000;
    cfg->redis_timeout_ms = 1000;
    cfg->redis_lease_ms = 10000;
    cfg->redis_attempts = 3;
}

/* Parses a whole decimal integer in min..max. */
static bool
parse_int(const char *text, int64_t min, int64_t max, int64_t *out)
{
    char *end = NULL;
    long long v;

    errno = 0;
    v = strtoll(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < min || v > max) {
        return false;
    }
    *out = (int64_t)v;
    return true;
}

static bool
cors_add(config_t *cfg, const char *list)
{
    const char *p = list;

    while (*p != '\0') {
        size_t n = strcspn(p, ",");
        size_t lead = 0;

        while (lead < n && p[lead] == ' ') {
            lead++;
        }
        while (n > lead && p[n - 1] == ' ') {
            n--;
        }
        if (n > lead) {
            if (cfg->ncors >= CONFIG_CORS_MAX) {
                return false;
            }
            cfg->cors[cfg->ncors] = strndup(p + lead, n - lead);
            if (cfg->cors[cfg->ncors] == NULL) {
                return false;
            }
            cfg->ncors++;
        }
        p += strcspn(p, ",");
        if (*p == ',') {
            p++;
        }
    }
    return true;
}

static void
cors_clear(config_t *cfg)
{
    for (int i = 0; i < cfg->ncors; i++) {
        free(cfg->cors[i]);
        cfg->cors[i] = NULL;
    }
    cfg->ncors = 0;
}

/* Stores text as the value of o. from names the source for messages. */
static int
apply(config_t *cfg,
      const opt_t *o,
      const char *text,
      const char *from,
      FILE *err)
{
    char *base = (char *)cfg;
    int64_t v = 0;

    switch (o->kind) {
    case OPT_STRING: {
        char **field = (char **)(void *)(base + o->offset);

        if (text[0] == '\0') {
            fprintf(err, "puzzled serve: %s must not be empty\n", from);
            return 2;
        }
        free(*field);
        *field = strdup(text);
        return *field != NULL ? 0 : 2;
    }
    case OPT_LEVEL:
        if (!log_parse_level(text, (log_level_t *)(void *)(base + o->offset))) {
            fprintf(err,
                    "puzzled serve: %s must be error, warn, info or debug "
                    "(got '%s')\n",
                    from, text);
            return 2;
        }
        return 0;
    case OPT_BUILDS: {
        int *field = (int *)(void *)(base + o->offset);

        if (strcmp(text, "startup") == 0) {
            *field = API_TABLE_BUILDS_STARTUP;
        } else if (strcmp(text, "on-demand") == 0) {
            *field = API_TABLE_BUILDS_ON_DEMAND;
        } else if (strcmp(text, "never") == 0) {
            *field = API_TABLE_BUILDS_NEVER;
        } else {
            fprintf(err,
                    "puzzled serve: %s must be startup, on-demand or never "
                    "(got '%s')\n",
                    from, text);
            return 2;
        }
        return 0;
    }
    case OPT_CORS:
        if (!cors_add(cfg, text)) {
            fprintf(err, "puzzled serve: %s: at most %d origins\n", from,
                    CONFIG_CORS_MAX);
            return 2;
        }
        return 0;
    default:
        break;
    }
    if (!parse_int(text, o->min, o->max, &v)) {
        fprintf(err,
                "puzzled serve: %s must be an integer from %lld to %lld "
                "(got '%s')\n",
                from, (long long)o->min, (long long)o->max, text);
        return 2;
    }
    switch (o->kind) {
    case OPT_INT:
        *(int *)(void *)(base + o->offset) = (int)v;
        break;
    case OPT_I64:
        *(int64_t *)(void *)(base + o->offset) = v;
        break;
    case OPT_U64:
        *(uint64_t *)(void *)(base + o->offset) = (uint64_t)v;
        break;
    case OPT_MIB:
        *(size_t *)(void *)(base + o->offset) = (size_t)v << 20;
        break;
    case OPT_SECONDS:
        *(int64_t *)(void *)(base + o->offset) = v * 1000;
        break;
    default:
        break;
    }
    return 0;
}

static const opt_t *
find_flag(const char *name, size_t len)
{
    for (const opt_t *o = options; o->flag != NULL; o++) {
        if (strlen(o->flag) == len && strncmp(o->flag, name, len) == 0) {
            return o;
        }
    }
    return NULL;
}

/* Cross-field checks once every source has been read. */
static int
check(config_t *cfg, bool default_memory_given, FILE *err)
{
    api_policy_t *p = &cfg->policy;
    unsigned char addr[16];

    if (inet_pton(AF_INET, cfg->bind, addr) != 1 &&
        inet_pton(AF_INET6, cfg->bind, addr) != 1) {
        fprintf(err,
                "puzzled serve: --bind must be an IPv4 or IPv6 address "
                "such as 127.0.0.1 or ::1 (got '%s')\n",
                cfg->bind);
        return 2;
    }

    if (p->default_time_ms > p->max_time_ms) {
        fprintf(err,
                "puzzled serve: --default-time-ms (%llu) is above "
                "--max-time-ms (%llu)\n",
                (unsigned long long)p->default_time_ms,
                (unsigned long long)p->max_time_ms);
        return 2;
    }
    if (p->default_wait_ms > p->max_wait_ms) {
        fprintf(err,
                "puzzled serve: --default-wait-ms (%lld) is above "
                "--max-wait-ms (%lld)\n",
                (long long)p->default_wait_ms, (long long)p->max_wait_ms);
        return 2;
    }
    /* A job whose budget alone passes the cap could never be admitted, so
     * the per-request maximum may not exceed the cap. */
    if (p->max_memory_bytes > cfg->memory_cap) {
        p->max_memory_bytes = cfg->memory_cap & ~(((size_t)1 << 20) - 1);
        if (p->max_memory_bytes == 0) {
            p->max_memory_bytes = (size_t)1 << 20;
        }
    }
    if (p->default_memory_bytes > p->max_memory_bytes &&
        !default_memory_given) {
        /* Only the built-in default is too big for a small cap: lower it
         * rather than refuse to start. */
        p->default_memory_bytes = p->max_memory_bytes;
    }
    if (p->default_memory_bytes > p->max_memory_bytes) {
        fprintf(err,
                "puzzled serve: --default-memory-mb (%zu) is above the "
                "largest budget allowed (%zu MiB: --max-memory-mb, lowered "
                "to --memory-cap-mb)\n",
                p->default_memory_bytes >> 20, p->max_memory_bytes >> 20);
        return 2;
    }
    /* With a node maximum, requests that give no max_nodes get it as their
     * default: otherwise every such request would be "too large". */
    if (p->max_max_nodes != 0 && p->default_max_nodes == 0) {
        p->default_max_nodes = p->max_max_nodes;
    }
    return 0;
}

int
config_parse(int argc, char **argv, config_t *cfg, FILE *out, FILE *err)
{
    bool cors_from_flags = false;
    bool default_memory_given = false;
    bool http_threads_given = false;
    int rc;

    set_defaults(cfg);
    for (const opt_t *o = options; o->flag != NULL; o++) {
        const char *v = getenv(o->env);
        char from[64];

        if (v == NULL) {
            continue;
        }
        snprintf(from, sizeof(from), "%s", o->env);
        if ((rc = apply(cfg, o, v, from, err)) != 0) {
            return rc;
        }
        default_memory_given |= o->offset == POLICY(default_memory_bytes);
        http_threads_given |= o->offset == FIELD(http_threads);
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = NULL;
        const opt_t *o;
        size_t len;
        char from[64];

        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            config_usage(out);
            return 1;
        }
        if (strncmp(arg, "--", 2) != 0) {
            fprintf(err,
                    "puzzled serve: unexpected argument '%s' (see --help)\n",
                    arg);
            return 2;
        }
        arg += 2;
        len = strcspn(arg, "=");
        o = find_flag(arg, len);
        if (o == NULL) {
            fprintf(err,
                    "puzzled serve: unknown option '--%.*s' (see "
                    "--help)\n",
                    (int)len, arg);
            return 2;
        }
        if (arg[len] == '=') {
            value = arg + len + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            fprintf(err, "puzzled serve: --%s needs a value\n", o->flag);
            return 2;
        }
        if (o->kind == OPT_CORS && !cors_from_flags) {
            /* Flags win: the first --cors-origin replaces the variable's
             * list instead of adding to it. */
            cors_clear(cfg);
            cors_from_flags = true;
        }
        snprintf(from, sizeof(from), "--%s", o->flag);
        if ((rc = apply(cfg, o, value, from, err)) != 0) {
            return rc;
        }
        default_memory_given |= o->offset == POLICY(default_memory_bytes);
        http_threads_given |= o->offset == FIELD(http_threads);
    }
    /* On Redis a connection thread waits a round trip per solve: more of
     * them keep the cores busy meanwhile (docs/scale-out.md). */
    if (cfg->redis != NULL && !http_threads_given) {
        cfg->http_threads = CONFIG_REDIS_HTTP_THREADS;
    }
    if (cfg->bind == NULL && (cfg->bind = strdup("127.0.0.1")) == NULL) {
        return 2;
    }
    return check(cfg, default_memory_given, err);
}

void
config_cleanup(config_t *cfg)
{
    if (cfg == NULL) {
        return;
    }
    cors_clear(cfg);
    free(cfg->port_file);
    free(cfg->bind);
    free(cfg->tables);
    free(cfg->openapi);
    free(cfg->web);
    free(cfg->redis);
    free(cfg->redis_prefix);
    memset(cfg, 0, sizeof(*cfg));
}
