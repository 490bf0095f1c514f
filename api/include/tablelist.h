/* SPDX-License-Identifier: MIT */
/* tablelist.h - tables as JSON: the GET /v1/tables body, a table's state. */
#ifndef PZ_API_TABLELIST_H
#define PZ_API_TABLELIST_H

#include <stddef.h>

#include "jsonout.h"
#include "tables.h"

/*
 * Writes the members of one table's status into the open object of w:
 * name, group, puzzle, state, bytes, startup, file; while it loads or
 * builds, progress (done, total, fraction, per_second, eta_seconds and
 * seconds so far); once it is ready, the seconds its load or build took;
 * when it failed, error (code and detail). Thread: any.
 */
void api_table_write_status(jsonout_t *w, const tables_status_t *st);

/*
 * The GET /v1/tables body: {"tables": [every known table, in list
 * order], "memory_bytes": what the loaded tables take, "memory_limit_bytes":
 * the table memory limit or null}. Returns an owned string (free) of *len
 * bytes, or NULL when out of memory. Thread: any.
 */
char *api_tables_text(size_t *len);

#endif
