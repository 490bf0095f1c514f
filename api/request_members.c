/* SPDX-License-Identifier: MIT */
/* request_members.c - the solve request's members read with type checks,
 * and JSON states turned into solver input. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "request_internal.h"

/* --- member access with type checks --- */

static int
fail_field(pz_diag_t *d,
           int rc,
           const char *member,
           const char *fmt,
           const char *what)
{
    char ptr[64];

    snprintf(ptr, sizeof(ptr), "/%s", member);
    pz_diag_set(d, rc, fmt, member, what);
    pz_diag_field(d, ptr);
    return rc;
}

int
request__get_string(const cJSON *body,
                    const char *member,
                    const char **out,
                    pz_diag_t *d)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, member);

    *out = NULL;
    if (v == NULL || cJSON_IsNull(v)) {
        return PZ_OK;
    }
    if (!cJSON_IsString(v) || v->valuestring == NULL) {
        return fail_field(d, PZ_ETYPE, member, "'%s' must be a %s", "string");
    }
    *out = v->valuestring;
    return PZ_OK;
}

int
request__get_bool(const cJSON *body, const char *member, int *out, pz_diag_t *d)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, member);

    if (v == NULL || cJSON_IsNull(v)) {
        return PZ_OK;
    }
    if (!cJSON_IsBool(v)) {
        return fail_field(d, PZ_ETYPE, member, "'%s' must be a %s", "boolean");
    }
    *out = cJSON_IsTrue(v);
    return PZ_OK;
}

/* Reads an integer member in lo..hi into *out (untouched when absent). */
int
request__get_int(const cJSON *body,
                 const char *member,
                 double lo,
                 double hi,
                 int64_t *out,
                 pz_diag_t *d)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, member);
    char ptr[64];

    if (v == NULL || cJSON_IsNull(v)) {
        return PZ_OK;
    }
    if (!cJSON_IsNumber(v)) {
        return fail_field(d, PZ_ETYPE, member, "'%s' must be an %s", "integer");
    }
    /* A number past the range is out of it, whether or not it has a
     * fraction: 1e400 (read as infinity) is an integer too large. */
    if (!isfinite(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > hi) {
        snprintf(ptr, sizeof(ptr), "/%s", member);
        pz_diag_set(d, PZ_ERANGE, "'%s' must be between %.0f and %.0f", member,
                    lo, hi);
        pz_diag_field(d, ptr);
        return PZ_ERANGE;
    }
    if (floor(v->valuedouble) != v->valuedouble) {
        return fail_field(d, PZ_ETYPE, member, "'%s' must be an %s", "integer");
    }
    *out = (int64_t)v->valuedouble;
    return PZ_OK;
}

int
request__too_large(pz_diag_t *d,
                   const char *member,
                   uint64_t max,
                   const char *unit)
{
    char ptr[32];

    snprintf(ptr, sizeof(ptr), "/%s", member);
    pz_diag_set(d, PZ_ELIMIT, "'%s' is above this server's maximum of %llu%s",
                member, (unsigned long long)max, unit);
    pz_diag_field(d, ptr);
    return PZ_ELIMIT;
}

static const char *const known_members[] = {
    "puzzle",    "size",        "metric",         "scramble",
    "state",     "goal",        "engine",         "engines",
    "heuristic", "weight",      "optimal",        "target_length",
    "time_ms",   "memory_mb",   "max_nodes",      "max_depth",
    "wait_ms",   "tables",      "tables_wait_ms", "moves",
    "solutions", "all_optimal", "max_solutions",  "care",
    NULL,
};

/*
 * Writes "/" + name as an RFC 6901 JSON pointer ("~" -> "~0", "/" -> "~1")
 * into out, cut at a UTF-8 character boundary when it does not fit, so the
 * problem body stays valid UTF-8.
 */
static void
member_pointer(const char *name, char *out, size_t cap)
{
    size_t n = 0;

    out[n++] = '/';
    for (const char *c = name; *c != '\0'; c++) {
        const char *esc = *c == '~' ? "~0" : *c == '/' ? "~1" : NULL;
        size_t len = esc != NULL ? 2 : 1;
        size_t clen = 1;

        /* A UTF-8 lead byte and its continuation bytes go in together. */
        if (esc == NULL && ((unsigned char)*c & 0xc0) == 0xc0) {
            while (((unsigned char)c[clen] & 0xc0) == 0x80) {
                clen++;
            }
            len = clen;
        }
        if (n + len >= cap) {
            break;
        }
        memcpy(out + n, esc != NULL ? esc : c, len);
        n += len;
        c += clen - 1;
    }
    out[n] = '\0';
}

int
request__check_members(const cJSON *body, pz_diag_t *d)
{
    for (const cJSON *c = body->child; c != NULL; c = c->next) {
        int known = 0;
        char ptr[64];

        for (int i = 0; known_members[i] != NULL; i++) {
            if (c->string != NULL && strcmp(c->string, known_members[i]) == 0) {
                known = 1;
                break;
            }
        }
        if (!known) {
            member_pointer(c->string ? c->string : "", ptr, sizeof(ptr));
            pz_diag_set(d, PZ_EUNKNOWN_FIELD,
                        "unknown member '%s'; the solve request accepts "
                        "puzzle, size, metric, scramble, state, goal, engine, "
                        "engines, heuristic, weight, optimal, target_length, "
                        "time_ms, memory_mb, max_nodes, max_depth, wait_ms, "
                        "tables, tables_wait_ms, moves, solutions, "
                        "all_optimal, max_solutions, care",
                        ptr + 1);
            pz_diag_field(d, ptr);
            return PZ_EUNKNOWN_FIELD;
        }
        for (const cJSON *e = c->next; e != NULL; e = e->next) {
            if (e->string != NULL && c->string != NULL &&
                strcmp(e->string, c->string) == 0) {
                member_pointer(c->string, ptr, sizeof(ptr));
                pz_diag_set(d, PZ_ECONFLICT, "member '%s' appears twice",
                            ptr + 1);
                pz_diag_field(d, ptr);
                return PZ_ECONFLICT;
            }
        }
    }
    return PZ_OK;
}

/* --- state input --- */

static int
flatten(const cJSON *v,
        int level,
        int *ints,
        size_t cap,
        pz_input_t *in,
        pz_diag_t *d)
{
    int n = cJSON_GetArraySize(v);

    if (level >= 3) {
        return pz_diag_set(d, PZ_ETYPE,
                           "a state array nests at most 3 levels deep");
    }
    if (level >= in->ndims) {
        in->ndims = level + 1;
        in->shape[level] = n;
    } else if (in->shape[level] != n) {
        return pz_diag_set(d, PZ_ETYPE,
                           "a state array must be rectangular: rows of %d "
                           "and %d entries",
                           in->shape[level], n);
    }
    for (const cJSON *c = v->child; c != NULL; c = c->next) {
        if (cJSON_IsArray(c)) {
            int rc = flatten(c, level + 1, ints, cap, in, d);

            if (rc != PZ_OK) {
                return rc;
            }
            continue;
        }
        if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble) ||
            floor(c->valuedouble) != c->valuedouble ||
            fabs(c->valuedouble) > 1e6) {
            return pz_diag_set(d, PZ_ETYPE,
                               "state arrays hold integers only (entry %zu)",
                               in->nints);
        }
        if (level + 1 != in->ndims && in->ndims > level + 1) {
            return pz_diag_set(d, PZ_ETYPE,
                               "a state array mixes numbers and arrays");
        }
        if (in->nints >= cap) {
            return pz_diag_set(d, PZ_ESTATE_LENGTH,
                               "a state array holds at most %zu numbers", cap);
        }
        ints[in->nints++] = (int)c->valuedouble;
    }
    return PZ_OK;
}

int
api_state_input(const cJSON *v,
                int *ints,
                size_t cap,
                pz_input_t *in,
                pz_diag_t *d)
{
    memset(in, 0, sizeof(*in));
    if (cJSON_IsString(v) && v->valuestring != NULL) {
        in->text = v->valuestring;
        return PZ_OK;
    }
    if (!cJSON_IsArray(v)) {
        return pz_diag_set(d, PZ_ETYPE,
                           "a state is a string or an array of integers");
    }
    in->ints = ints;
    return flatten(v, 0, ints, cap, in, d);
}
