/* SPDX-License-Identifier: MIT */
/* blobs.c - the modules whose opaque tables `puzzled tables` can name. */

/*
 * Each module that keeps tables through tables_blob_get lists their
 * definitions with a provider, so the CLI can build, list and verify them
 * and the daemon can load those marked startup. A provider must be cheap:
 * it describes tables, it never builds them.
 */
#include "engines/twophase/twophase.h"
#include "puzzles/cube3/pdb.h"
#include "puzzles/mpyraminx.h"
#include "tables_internal.h"

/* Writes at most max definitions to out and returns how many the module
 * has. */
typedef int (*blob_provider_fn)(tables_blob_def_t *out, int max);

static const blob_provider_fn providers[] = {
    cube3_pdb_table_defs, twophase_table_defs, mpyraminx_table_defs,
    NULL, /* end */
};

int
tables__blob_defs(tables_blob_def_t *out, int max)
{
    int n = 0;

    for (int i = 0; providers[i] != NULL; i++) {
        int k = providers[i](out + n, max - n);

        if (k > 0) {
            n += k < max - n ? k : max - n;
        }
    }
    return n;
}
