/* SPDX-License-Identifier: MIT */
/* tablelist.c - tables as JSON: the GET /v1/tables body, a table's state. */
#include "tablelist.h"

#include <stdlib.h>

#include "pz_error.h"

void
api_table_write_status(jsonout_t *w, const tables_status_t *st)
{
    bool busy = st->state == TABLES_LOADING || st->state == TABLES_BUILDING;

    jsonout_string(w, "name", st->name);
    jsonout_string(w, "group", st->group);
    jsonout_string(w, "puzzle", st->puzzle);
    jsonout_string(w, "state", tables_state_name(st->state));
    jsonout_u64(w, "bytes", st->bytes);
    jsonout_bool(w, "startup", st->startup);
    jsonout_bool(w, "file", st->file);
    if (busy) {
        double frac = st->total > 0 ? (double)st->done / (double)st->total : 0;
        double rate = st->seconds > 0 ? (double)st->done / st->seconds : 0;

        jsonout_begin(w, "progress", '{');
        jsonout_u64(w, "done", st->done);
        jsonout_u64(w, "total", st->total);
        jsonout_double(w, "fraction", (double)(int)(frac * 1000) / 1000);
        jsonout_double(w, "per_second", (double)(uint64_t)rate);
        jsonout_double(w, "seconds", (double)(int)(st->seconds * 10) / 10);
        /* A remaining time only once there is a rate to go by. */
        if (rate > 0 && st->total >= st->done && frac > 0.001) {
            jsonout_double(
                w, "eta_seconds",
                (double)(int)((double)(st->total - st->done) / rate * 10) / 10);
        } else {
            jsonout_null(w, "eta_seconds");
        }
        jsonout_end(w, '}');
    } else if (st->seconds > 0) {
        jsonout_double(w, "seconds", (double)(int)(st->seconds * 100) / 100);
    }
    if (st->state == TABLES_FAILED) {
        jsonout_begin(w, "error", '{');
        jsonout_string(w, "code", pz_strerror(st->rc));
        jsonout_string(w, "detail", st->why);
        jsonout_end(w, '}');
    }
}

char *
api_tables_text(size_t *len)
{
    int n = tables_status_list(NULL, 0);
    tables_status_t *all = calloc(n > 0 ? (size_t)n : 1, sizeof(*all));
    size_t limit = tables_memory_limit();
    jsonout_t w;

    if (all == NULL) {
        return NULL;
    }
    /* Tables registered since the count are left for the next call. */
    if (tables_status_list(all, n) < n) {
        n = tables_status_list(all, n);
    }
    jsonout_init(&w);
    jsonout_begin(&w, NULL, '{');
    jsonout_begin(&w, "tables", '[');
    for (int i = 0; i < n; i++) {
        jsonout_begin(&w, NULL, '{');
        api_table_write_status(&w, &all[i]);
        jsonout_end(&w, '}');
    }
    jsonout_end(&w, ']');
    jsonout_u64(&w, "memory_bytes", tables_memory_bytes());
    if (limit != 0) {
        jsonout_u64(&w, "memory_limit_bytes", limit);
    } else {
        jsonout_null(&w, "memory_limit_bytes");
    }
    jsonout_end(&w, '}');
    free(all);
    return jsonout_finish(&w, len);
}
