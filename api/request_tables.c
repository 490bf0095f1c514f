/* SPDX-License-Identifier: MIT */
/* request_tables.c - what a solve request does about the shared tables its
 * runs need: run, wait, fall back or refuse; the warnings it carries. */
#include <stdio.h>
#include <string.h>

#include "request_internal.h"
#include "tables.h"

/* The command that builds table name: `puzzled tables build GROUP`. */
static void
build_command(const char *name, char *buf, size_t len)
{
    tables_status_t st;

    snprintf(buf, len, "puzzled tables build %s",
             tables_status(name, &st) == PZ_OK && st.group[0] != '\0' ? st.group
                                                                      : name);
}

/* Adds a warning; the last ones are dropped when there are too many. */
static api_warning_t *
add_warning(api_solve_request_t *req, const char *code, const char *table)
{
    api_warning_t *w;

    if (req->nwarnings >= API_WARNINGS_MAX) {
        return NULL;
    }
    w = &req->warnings[req->nwarnings++];
    w->code = code;
    w->table = table;
    w->detail[0] = '\0';
    return w;
}

/* auto chose heuristic because table is not built. */
void
request__warn_missing(api_solve_request_t *req,
                      const char *table,
                      const char *heuristic)
{
    api_warning_t *w = add_warning(req, "table_missing", table);
    char cmd[96];

    if (w == NULL) {
        return;
    }
    build_command(table, cmd, sizeof(cmd));
    snprintf(w->detail, sizeof(w->detail),
             "auto used the heuristic '%s': the table %s is not built "
             "(`%s` builds it)",
             heuristic, table, cmd);
}

/* What a request can do about one table it needs. */
typedef struct table_plan {
    int action; /* PLAN_READY, PLAN_WAIT or PLAN_REFUSE */
    bool build; /* PLAN_WAIT: the server may build it for this request */
    int rc;     /* PLAN_REFUSE: why */
} table_plan_t;

enum {
    PLAN_READY = 0,
    PLAN_WAIT,
    PLAN_REFUSE,
};

/* True when pol lets a request have table st built. */
static bool
may_build(const api_policy_t *pol, const tables_status_t *st)
{
    return pol->table_builds == API_TABLE_BUILDS_ON_DEMAND ||
           (pol->table_builds == API_TABLE_BUILDS_STARTUP && st->startup);
}

/* Decides about table name; on PLAN_REFUSE fills d with the reason. */
static table_plan_t
plan_table(const api_policy_t *pol, const char *name, pz_diag_t *d)
{
    table_plan_t p = { PLAN_READY, false, PZ_OK };
    tables_status_t st;
    size_t limit = tables_memory_limit();
    size_t held = tables_memory_bytes();
    char cmd[96];

    if (tables_status(name, &st) != PZ_OK) {
        p.action = PLAN_REFUSE;
        p.rc = pz_diag_set(d, PZ_EINTERNAL, "table %s is not known", name);
        return p;
    }
    if (st.state == TABLES_READY) {
        return p;
    }
    build_command(name, cmd, sizeof(cmd));
    /* Before anything is queued or allocated: a table that cannot fit is
     * refused however far its load or build got. */
    if (limit != 0 && (st.bytes > limit || held > limit - st.bytes)) {
        p.action = PLAN_REFUSE;
        p.rc = pz_diag_set(d, PZ_ETABLES_MEMORY,
                           "table %s needs %.1f MiB; this server's tables "
                           "may take %.1f MiB and %.1f MiB are taken",
                           name, (double)st.bytes / (1 << 20),
                           (double)limit / (1 << 20), (double)held / (1 << 20));
        return p;
    }
    if (st.state == TABLES_QUEUED || st.state == TABLES_LOADING ||
        st.state == TABLES_BUILDING) {
        p.action = PLAN_WAIT;
        return p;
    }
    if (st.file) {
        /* A stored file is loaded (and rebuilt, where builds are
         * allowed, if it turns out corrupt). */
        p.action = PLAN_WAIT;
        p.build = may_build(pol, &st);
        return p;
    }
    if (may_build(pol, &st)) {
        p.action = PLAN_WAIT;
        p.build = true;
        return p;
    }
    p.action = PLAN_REFUSE;
    if (st.state == TABLES_FAILED && st.rc != PZ_ETABLE_MISSING) {
        p.rc = pz_diag_set(d, st.rc, "table %s failed: %s; `%s` builds it",
                           name, st.why, cmd);
    } else {
        p.rc = pz_diag_set(d, PZ_ETABLE_MISSING,
                           "table %s is not built and this server builds "
                           "no table for requests; `%s` builds it (or start "
                           "the server with --table-builds on-demand)",
                           name, cmd);
    }
    return p;
}

/* Records table name as one the job waits for. */
static void
add_wait(api_solve_request_t *req, const char *name, bool build)
{
    for (int i = 0; i < req->ntables; i++) {
        if (strcmp(req->tables[i], name) == 0) {
            req->tables_build[i] = req->tables_build[i] || build;
            return;
        }
    }
    if (req->ntables < API_TABLES_MAX) {
        req->tables[req->ntables] = name;
        req->tables_build[req->ntables] = build;
        req->ntables++;
    }
}

/*
 * Makes run i need no table that is not in memory: its heuristic becomes
 * the puzzle's default (which needs none), the table engine becomes
 * bidirectional BFS (optimal, and fast on the puzzles with a complete
 * table). Returns false for an engine with no such replacement.
 */
static bool
fall_back(api_solve_request_t *req, int i, const char *table)
{
    solve_run_t *run = &req->runs[i];
    const heuristic_ops_t *h =
        heuristic_find(req->puzzle, puzzle_default_heuristic(req->puzzle));
    const char *from = run->heuristic;
    api_warning_t *w;

    if (run->engine->tables != NULL &&
        run->engine->tables(req->puzzle, &req->spec.goal, NULL, 0) > 0) {
        if (strcmp(run->engine->name, "table") != 0) {
            return false;
        }
        solve_run_init(run, engine_find("bibfs"), "none", 1.0);
        w = add_warning(req, "table_fallback", table);
        if (w != NULL) {
            snprintf(w->detail, sizeof(w->detail),
                     "table %s is not in memory; engine 'bibfs' ran instead "
                     "of 'table'",
                     table);
        }
        return true;
    }
    if (h == NULL) {
        h = &heuristic_none;
    }
    solve_run_init(run, run->engine, h->name, run->weight);
    w = add_warning(req, "table_fallback", table);
    if (w != NULL) {
        snprintf(w->detail, sizeof(w->detail),
                 "table %s is not in memory; heuristic '%s' was used instead "
                 "of '%s'",
                 table, h->name, from);
    }
    return true;
}

/*
 * Decides, for a daemon, what the request does about the shared tables
 * its runs need (see api_policy_t's table_builds and the request's
 * "tables" member): run at once, prepare them first (req->preparing and
 * req->tables), fall back, or refuse with the reason in d.
 */
int
request__plan_tables(const api_policy_t *pol,
                     api_solve_request_t *req,
                     pz_diag_t *d)
{
    if (pol->table_builds == API_TABLE_BUILDS_INLINE) {
        return PZ_OK;
    }
    for (int i = 0; i < req->nruns; i++) {
        const char *names[SOLVE_TABLES_MAX];
        int n =
            solve_tables(&req->spec, &req->runs[i], names, SOLVE_TABLES_MAX);
        int waits = req->ntables;

        for (int k = 0; k < n && k < SOLVE_TABLES_MAX; k++) {
            table_plan_t p = plan_table(pol, names[k], d);

            if (p.action == PLAN_READY) {
                continue;
            }
            if (req->tables_mode == API_TABLES_FALLBACK) {
                pz_diag_clear(d);
                if (!fall_back(req, i, names[k])) {
                    return pz_diag_set(
                        d, PZ_ETABLE_NOT_READY,
                        "engine '%s' needs table %s, which is not in "
                        "memory, and has no fallback",
                        req->runs[i].engine->name, names[k]);
                }
                /* The run needs no table now. */
                req->ntables = waits;
                break;
            }
            if (p.action == PLAN_REFUSE) {
                return p.rc;
            }
            if (req->tables_mode == API_TABLES_FAIL) {
                return pz_diag_set(d, PZ_ETABLE_NOT_READY,
                                   "table %s is not in memory yet "
                                   "(\"tables\": \"fail\")",
                                   names[k]);
            }
            add_wait(req, names[k], p.build);
        }
    }
    req->preparing = req->ntables > 0;
    return PZ_OK;
}

int
request__parse_tables_mode(const cJSON *body,
                           const api_policy_t *pol,
                           api_solve_request_t *req,
                           pz_diag_t *d)
{
    const char *mode = NULL;
    int64_t wait = pol->default_tables_wait_ms;
    int rc;

    if ((rc = request__get_string(body, "tables", &mode, d)) != PZ_OK ||
        (rc = request__get_int(body, "tables_wait_ms", 0, 1e12, &wait, d)) !=
            PZ_OK) {
        return rc;
    }
    if (mode == NULL || strcmp(mode, "wait") == 0) {
        req->tables_mode = API_TABLES_WAIT;
    } else if (strcmp(mode, "fallback") == 0) {
        req->tables_mode = API_TABLES_FALLBACK;
    } else if (strcmp(mode, "fail") == 0) {
        req->tables_mode = API_TABLES_FAIL;
    } else {
        pz_diag_set(d, PZ_EINVAL,
                    "'tables' must be \"wait\", \"fallback\" or \"fail\"");
        pz_diag_field(d, "/tables");
        return PZ_EINVAL;
    }
    if (pol->max_tables_wait_ms != 0 && wait > pol->max_tables_wait_ms) {
        return request__too_large(d, "tables_wait_ms",
                                  (uint64_t)pol->max_tables_wait_ms, " ms");
    }
    req->tables_wait_ms = wait;
    return PZ_OK;
}
