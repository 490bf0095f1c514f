/* SPDX-License-Identifier: MIT */
/* pz_error.c - code, title and HTTP status tables generated from PZ_ERR_MAP. */
#include "pz_error.h"

#include <stdarg.h>
#include <stdbool.h>
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

/* Bytes of the well-formed UTF-8 sequence at s[0..left), or 0 when none
 * starts there. */
static size_t
utf8_seq(const unsigned char *s, size_t left)
{
    unsigned c = s[0];
    size_t n;
    unsigned lo = 0x80;
    unsigned hi = 0xBF;

    if (c < 0x80) {
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        /* No overlong forms (E0), no surrogates (ED). */
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        /* No overlong forms (F0), nothing past U+10FFFF (F4). */
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (left < n || s[1] < lo || s[1] > hi) {
        return 0;
    }
    for (size_t i = 2; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            return 0;
        }
    }
    return n;
}

size_t
pz_utf8_valid(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;

    while (i < len) {
        size_t n = utf8_seq(u + i, len - i);

        if (n == 0) {
            break;
        }
        i += n;
    }
    return i;
}

void
pz_utf8_clean(char *s)
{
    unsigned char *u = (unsigned char *)s;
    size_t len = strlen(s);
    size_t i = 0;

    while (i < len) {
        size_t n = utf8_seq(u + i, len - i);

        if (n > 0) {
            i += n;
            continue;
        }
        /* A lead byte whose sequence the end cut short: drop the tail. */
        if (u[i] >= 0xC2 && u[i] <= 0xF4 && len - i < 4) {
            size_t want = u[i] < 0xE0 ? 2 : u[i] < 0xF0 ? 3 : 4;
            bool cut = len - i < want;

            for (size_t k = i + 1; k < len && cut; k++) {
                cut = (u[k] & 0xC0) == 0x80;
            }
            if (cut) {
                u[i] = '\0';
                return;
            }
        }
        u[i++] = '?';
    }
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
    pz_utf8_clean(d->detail);
    return rc;
}

void
pz_diag_field(pz_diag_t *d, const char *pointer)
{
    if (d == NULL) {
        return;
    }
    snprintf(d->field, sizeof(d->field), "%s", pointer ? pointer : "");
    pz_utf8_clean(d->field);
}
