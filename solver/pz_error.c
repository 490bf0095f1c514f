/* SPDX-License-Identifier: MIT */
/* pz_error.c - code, title and HTTP status tables generated from PZ_ERR_MAP. */
#include "pz_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct err_info {
    int status;
    const char *code;
    const char *title;
} err_info_t;

static const err_info_t err_table[] = {
#define PZ_ERR_ROW_(name, status, code, title) { status, code, title },
    PZ_ERR_MAP(PZ_ERR_ROW_)
#undef PZ_ERR_ROW_
};

static const err_info_t *
err_lookup(int rc)
{
    int i = rc - PZ_ERR_FIRST_ - 1;

    if (rc == PZ_OK || i < 0 ||
        (size_t)i >= sizeof(err_table) / sizeof(err_table[0])) {
        return NULL;
    }
    return &err_table[i];
}

const char *
pz_strerror(int rc)
{
    const err_info_t *e = err_lookup(rc);

    if (rc == PZ_OK) {
        return "ok";
    }
    return e ? e->code : "internal_error";
}

const char *
pz_errtitle(int rc)
{
    const err_info_t *e = err_lookup(rc);

    if (rc == PZ_OK) {
        return "OK";
    }
    return e ? e->title : "Internal error";
}

int
pz_http_status(int rc)
{
    const err_info_t *e = err_lookup(rc);

    if (rc == PZ_OK) {
        return 200;
    }
    return e ? e->status : 500;
}

void
pz_diag_clear(pz_diag_t *d)
{
    if (d == NULL) {
        return;
    }
    d->rc = PZ_OK;
    d->detail[0] = '\0';
    d->field[0] = '\0';
    d->position = -1;
}

int
pz_diag_set(pz_diag_t *d, int rc, const char *fmt, ...)
{
    va_list ap;

    if (d == NULL) {
        return rc;
    }
    d->rc = rc;
    va_start(ap, fmt);
    vsnprintf(d->detail, sizeof(d->detail), fmt, ap);
    va_end(ap);
    return rc;
}

void
pz_diag_field(pz_diag_t *d, const char *pointer)
{
    if (d == NULL) {
        return;
    }
    snprintf(d->field, sizeof(d->field), "%s", pointer ? pointer : "");
}
