/* SPDX-License-Identifier: MIT */
/* request.c - validation of solve requests; every rejection names its field. */
#include "request.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api_json.h"
#include "complete.h"
#include "tables.h"

/* Deepest JSON nesting a request may have: a [6][3][3] state is 4 levels
 * below the body. cJSON's own limit (1000) is far too generous. */
#define API_DEPTH_MAX 8

/* Most integers a state array may hold (an 8x8 board has 64). */
#define API_STATE_INTS_MAX 256

void
api_policy_default(api_policy_t *pol)
{
    pol->default_time_ms = 10000;
    pol->max_time_ms = 300000;
    pol->default_memory_bytes = (size_t)256 << 20;
    pol->max_memory_bytes = (size_t)4 << 30;
    pol->default_max_nodes = 0;
    pol->max_max_nodes = 0;
    pol->default_wait_ms = 2000;
    pol->max_wait_ms = 60000;
    pol->threads = 1;
    pol->table_builds = API_TABLE_BUILDS_INLINE;
    pol->default_tables_wait_ms = 300000;
    pol->max_tables_wait_ms = 3600000;
}

static int
json_depth(const cJSON *v, int depth)
{
    int deepest = depth;

    for (const cJSON *c = v->child; c != NULL; c = c->next) {
        int d = json_depth(c, depth + 1);

        if (d > deepest) {
            deepest = d;
        }
        if (deepest > API_DEPTH_MAX) {
            break;
        }
    }
    return deepest;
}

/* True for a byte that may follow a number's last digit in a number. */
static bool
number_char(char ch)
{
    return (ch >= '0' && ch <= '9') || ch == '.' || ch == 'e' || ch == 'E' ||
           ch == '+' || ch == '-';
}

static size_t
skip_digits(const char *s, size_t len, size_t j)
{
    while (j < len && s[j] >= '0' && s[j] <= '9') {
        j++;
    }
    return j;
}

/* The end of the number at s[i] as RFC 8259 section 6 writes it (a minus,
 * 0 or digits without a leading zero, a fraction and an exponent each with
 * digits), or i when it is none. */
static size_t
number_end(const char *s, size_t len, size_t i)
{
    size_t j = i;

    if (j < len && s[j] == '-') {
        j++;
    }
    if (j < len && s[j] == '0') {
        j++;
    } else if (j < len && s[j] >= '1' && s[j] <= '9') {
        j = skip_digits(s, len, j);
    } else {
        return i;
    }
    if (j < len && s[j] == '.') {
        if (j + 1 >= len || s[j + 1] < '0' || s[j + 1] > '9') {
            return i;
        }
        j = skip_digits(s, len, j + 1);
    }
    if (j < len && (s[j] == 'e' || s[j] == 'E')) {
        j++;
        if (j < len && (s[j] == '+' || s[j] == '-')) {
            j++;
        }
        if (j >= len || s[j] < '0' || s[j] > '9') {
            return i;
        }
        j = skip_digits(s, len, j);
    }
    return j < len && number_char(s[j]) ? i : j;
}

/*
 * Checks the JSON text s[0..len) for what cJSON lets through and RFC 8259
 * does not: a control character (below U+0020) in a string, whitespace
 * other than space, tab, line feed and carriage return, a number with a
 * leading zero or a fraction or exponent without digits. Also for U+0000
 * in a string, which is JSON but would end a C string early ("R\u0000x"
 * would read as "R"). Returns the offset of the first problem with *rc
 * PZ_EJSON or PZ_EINVAL (U+0000), or len when there is none.
 */
static size_t
json_strict(const char *s, size_t len, int *rc)
{
    bool in_string = false;

    *rc = PZ_EJSON;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];

        if (in_string) {
            if (ch < 0x20) {
                return i;
            }
            if (ch == '"') {
                in_string = false;
            } else if (ch == '\\' && i + 1 < len) {
                if (s[i + 1] == 'u' && i + 5 < len &&
                    strncmp(s + i + 2, "0000", 4) == 0) {
                    *rc = PZ_EINVAL;
                    return i;
                }
                i++; /* the escaped character */
            }
        } else if (ch == '"') {
            in_string = true;
        } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
            size_t end = number_end(s, len, i);

            if (end == i) {
                return i;
            }
            i = end - 1;
        } else if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
            return i;
        }
    }
    return len;
}

int
api_json_parse(const char *buf, size_t len, cJSON **out, pz_diag_t *d)
{
    const char *end = NULL;
    char *copy;
    cJSON *root;
    size_t pos;
    int rc;

    *out = NULL;
    if (len > API_BODY_MAX) {
        return pz_diag_set(d, PZ_ETOO_LARGE,
                           "the body has %zu bytes; the limit is %d", len,
                           API_BODY_MAX);
    }
    /* cJSON reads one byte past the given length, so hand it a private
     * NUL-terminated copy and the length including the NUL. */
    copy = malloc(len + 1);
    if (copy == NULL) {
        return pz_diag_set(d, PZ_ENOMEM, "out of memory");
    }
    memcpy(copy, buf, len);
    copy[len] = '\0';
    if (strlen(copy) != len) {
        pz_diag_set(d, PZ_EJSON, "the body contains a NUL byte");
        d->position = (int)strlen(copy);
        free(copy);
        return PZ_EJSON;
    }
    /* JSON text is UTF-8 (RFC 8259): with it checked here, every string
     * of a request, and every reply that quotes one, is UTF-8. */
    if ((pos = pz_utf8_valid(copy, len)) != len) {
        pz_diag_set(d, PZ_EJSON, "the body is not valid UTF-8 (byte %zu)", pos);
        d->position = (int)pos;
        free(copy);
        return PZ_EJSON;
    }
    /* What cJSON would accept but is not JSON, and U+0000 in a string,
     * which no member takes. */
    if ((pos = json_strict(copy, len, &rc)) != len) {
        if (rc == PZ_EINVAL) {
            pz_diag_set(d, PZ_EINVAL,
                        "strings may not contain U+0000 (\\u0000 at byte "
                        "%zu)",
                        pos);
        } else {
            pz_diag_set(d, PZ_EJSON,
                        "the body is not valid JSON (error near byte %zu)",
                        pos);
        }
        if (d != NULL) {
            d->position = (int)pos;
        }
        free(copy);
        return rc;
    }
    root = cJSON_ParseWithLengthOpts(copy, len + 1, &end, 1);
    if (root == NULL) {
        int at = end != NULL && end >= copy ? (int)(end - copy) : 0;

        pz_diag_set(d, PZ_EJSON,
                    len == 0 ? "the body is empty; send a JSON object"
                             : "the body is not valid JSON (error near byte "
                               "%d)",
                    at);
        if (d != NULL) {
            d->position = at;
        }
        free(copy);
        return PZ_EJSON;
    }
    free(copy);
    if (json_depth(root, 1) > API_DEPTH_MAX) {
        cJSON_Delete(root);
        return pz_diag_set(d, PZ_EJSON, "the body nests deeper than %d levels",
                           API_DEPTH_MAX);
    }
    *out = root;
    return PZ_OK;
}

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

static int
get_string(const cJSON *body,
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

static int
get_bool(const cJSON *body, const char *member, int *out, pz_diag_t *d)
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
static int
get_int(const cJSON *body,
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

static const char *const known_members[] = {
    "puzzle",    "size",          "metric",  "scramble",       "state",
    "goal",      "engine",        "engines", "heuristic",      "weight",
    "optimal",   "target_length", "time_ms", "memory_mb",      "max_nodes",
    "max_depth", "wait_ms",       "tables",  "tables_wait_ms", NULL,
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

static int
check_members(const cJSON *body, pz_diag_t *d)
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
                        "tables, tables_wait_ms",
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

/* --- puzzle parameters --- */

static int
parse_size(const cJSON *body, pz_params_t *prm, pz_diag_t *d)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, "size");
    const char *t;
    long dim[2];

    if (v == NULL || cJSON_IsNull(v)) {
        return PZ_OK;
    }
    if (cJSON_IsNumber(v) && floor(v->valuedouble) == v->valuedouble &&
        v->valuedouble >= 0 && v->valuedouble <= 100) {
        prm->rows = prm->cols = (int)v->valuedouble;
    } else if (cJSON_IsString(v)) {
        /* Digits, 'x', digits, and nothing else; each side at most three
         * digits without a leading zero, so no value overflows (sscanf's
         * %d wraps silently). */
        t = v->valuestring;
        for (int k = 0; k < 2; k++) {
            int digits = 0;
            bool zero = *t == '0';

            dim[k] = 0;
            while (*t >= '0' && *t <= '9' && digits < 4) {
                dim[k] = dim[k] * 10 + (*t++ - '0');
                digits++;
            }
            if (digits == 0 || digits > 3 || zero || (k == 0 && *t++ != 'x')) {
                t = NULL;
                break;
            }
        }
        if (t == NULL || *t != '\0') {
            pz_diag_set(d, PZ_ESIZE,
                        "size is written ROWSxCOLS, for example \"4x4\"");
            pz_diag_field(d, "/size");
            return PZ_ESIZE;
        }
        prm->rows = (int)dim[0];
        prm->cols = (int)dim[1];
    } else {
        pz_diag_set(d, PZ_ESIZE,
                    "size is written ROWSxCOLS, for example \"4x4\"");
        pz_diag_field(d, "/size");
        return PZ_ESIZE;
    }
    if (prm->rows <= 0 || prm->cols <= 0) {
        pz_diag_set(d, PZ_ESIZE, "size must be positive, for example \"4x4\"");
        pz_diag_field(d, "/size");
        return PZ_ESIZE;
    }
    return PZ_OK;
}

static int
parse_metric(const char *s, pz_params_t *prm, pz_diag_t *d)
{
    if (s == NULL) {
        return PZ_OK;
    }
    if (strcmp(s, "htm") == 0) {
        prm->metric = PZ_METRIC_HTM;
    } else if (strcmp(s, "qtm") == 0) {
        prm->metric = PZ_METRIC_QTM;
    } else if (strcmp(s, "moves") == 0) {
        prm->metric = PZ_METRIC_MOVES;
    } else {
        pz_diag_set(d, PZ_EMETRIC,
                    "unknown metric '%.40s'; use htm, qtm or moves", s);
        pz_diag_field(d, "/metric");
        return PZ_EMETRIC;
    }
    return PZ_OK;
}

/* For "tiles" without a size, the shape of the state decides: a 2-D array
 * gives rows and columns, a flat list of N*N numbers gives NxN. */
static void
infer_tiles_size(const cJSON *state, pz_params_t *prm)
{
    int ints[API_STATE_INTS_MAX];
    pz_input_t in;
    size_t n = 0;

    if (prm->rows != 0 || state == NULL) {
        return;
    }
    if (api_state_input(state, ints, API_STATE_INTS_MAX, &in, NULL) != PZ_OK) {
        return;
    }
    if (in.text != NULL) {
        const char *p = in.text;

        while (*p != '\0') {
            while (*p != '\0' && strchr("0123456789", *p) == NULL) {
                p++;
            }
            if (*p == '\0') {
                break;
            }
            n++;
            while (*p != '\0' && strchr("0123456789", *p) != NULL) {
                p++;
            }
        }
    } else if (in.ndims == 2) {
        prm->rows = in.shape[0];
        prm->cols = in.shape[1];
        return;
    } else {
        n = in.nints;
    }
    for (int k = 2; k <= 8; k++) {
        if ((size_t)(k * k) == n) {
            prm->rows = prm->cols = k;
        }
    }
}

static int
parse_state_member(const api_solve_request_t *req,
                   const cJSON *v,
                   const char *member,
                   pz_state_t *out,
                   pz_diag_t *d)
{
    int ints[API_STATE_INTS_MAX];
    pz_input_t in;
    char ptr[32];
    int rc;

    snprintf(ptr, sizeof(ptr), "/%s", member);
    rc = api_state_input(v, ints, API_STATE_INTS_MAX, &in, d);
    if (rc == PZ_OK) {
        rc = puzzle_parse_state(req->puzzle, &in, out, d);
    }
    if (rc != PZ_OK) {
        pz_diag_field(d, ptr);
    }
    return rc;
}

/* --- tables --- */

static int
too_large(pz_diag_t *d, const char *member, uint64_t max, const char *unit);

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
static void
warn_missing(api_solve_request_t *req, const char *table, const char *heuristic)
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
static int
plan_tables(const api_policy_t *pol, api_solve_request_t *req, pz_diag_t *d)
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

static int
parse_tables_mode(const cJSON *body,
                  const api_policy_t *pol,
                  api_solve_request_t *req,
                  pz_diag_t *d)
{
    const char *mode = NULL;
    int64_t wait = pol->default_tables_wait_ms;
    int rc;

    if ((rc = get_string(body, "tables", &mode, d)) != PZ_OK ||
        (rc = get_int(body, "tables_wait_ms", 0, 1e12, &wait, d)) != PZ_OK) {
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
        return too_large(d, "tables_wait_ms", (uint64_t)pol->max_tables_wait_ms,
                         " ms");
    }
    req->tables_wait_ms = wait;
    return PZ_OK;
}

/* --- engines --- */

static bool
optimal_by_default(const pz_puzzle_t *p)
{
    const puzzle_solving_t *sol = puzzle_solving(p);

    return sol->optimal_by_default != NULL ? sol->optimal_by_default(p)
                                           : complete_possible(p);
}

/*
 * True when the puzzle p has the heuristic name; else false with d filled
 * (unknown_heuristic, field /heuristic). The table heuristics exist for
 * some boards only: the others are refused here rather than fail the job.
 */
static bool
heuristic_available(const pz_puzzle_t *p, const char *name, pz_diag_t *d)
{
    const heuristic_ops_t *h = heuristic_find(p, name);

    if (h == NULL) {
        pz_diag_set(d, PZ_EHEURISTIC,
                    "heuristic '%.40s' is not available for %s", name, p->id);
        pz_diag_field(d, "/heuristic");
        return false;
    }
    if (h->supports != NULL && !h->supports(p)) {
        pz_diag_set(d, PZ_EHEURISTIC,
                    "heuristic '%s' is not available for this %s: %s", h->name,
                    p->id, h->unavailable);
        pz_diag_field(d, "/heuristic");
        return false;
    }
    return true;
}

static int
add_run(api_solve_request_t *req,
        const char *name,
        const char *heuristic,
        double weight,
        const char *ptr,
        pz_diag_t *d)
{
    const engine_ops_t *e;
    const heuristic_ops_t *h = NULL;
    engine_choice_t choice;
    int i = req->nruns;

    if (i >= API_ENGINES_MAX) {
        pz_diag_set(d, PZ_ERANGE, "at most %d engines per request",
                    API_ENGINES_MAX);
        pz_diag_field(d, "/engines");
        return PZ_ERANGE;
    }
    if (strcmp(name, "auto") == 0) {
        engine_auto(req->puzzle, &req->spec.goal, req->optimal, &choice);
        if (choice.missing != NULL && heuristic == NULL) {
            warn_missing(req, choice.missing, choice.heuristic);
        }
        e = choice.engine;
        if (heuristic == NULL) {
            heuristic = choice.heuristic;
        }
        if (weight == 0) {
            weight = choice.weight;
        }
        req->requested[i] = "auto";
    } else {
        e = engine_find_for(req->puzzle, name);
        if (e == NULL && engine_known(name)) {
            pz_diag_set(d, PZ_EUNSUPPORTED,
                        "engine '%.40s' cannot solve %s; GET /v1/puzzles "
                        "lists the engines",
                        name, req->puzzle->id);
            pz_diag_field(d, ptr);
            return PZ_EUNSUPPORTED;
        }
        if (e == NULL) {
            pz_diag_set(d, PZ_EENGINE,
                        "unknown engine '%.40s'; GET /v1/puzzles lists the "
                        "engines",
                        name);
            pz_diag_field(d, ptr);
            return PZ_EENGINE;
        }
        req->requested[i] = e->name;
    }
    if (e->supports != NULL && !e->supports(req->puzzle)) {
        pz_diag_set(d, PZ_EUNSUPPORTED,
                    "engine '%s' cannot solve %s; GET /v1/puzzles lists the "
                    "engines",
                    e->name, req->puzzle->id);
        pz_diag_field(d, ptr);
        return PZ_EUNSUPPORTED;
    }
    /* A heuristic named for an engine that uses none must still be one
     * the puzzle has. */
    if (heuristic != NULL && !e->uses_heuristic &&
        !heuristic_available(req->puzzle, heuristic, d)) {
        return PZ_EHEURISTIC;
    }
    if (heuristic == NULL) {
        heuristic = puzzle_default_heuristic(req->puzzle);
    }
    if (e->uses_heuristic) {
        if (!heuristic_available(req->puzzle, heuristic, d)) {
            return PZ_EHEURISTIC;
        }
        h = heuristic_find(req->puzzle, heuristic);
    } else {
        h = &heuristic_none;
    }
    if (weight == 0) {
        weight = strcmp(e->name, "wastar") == 0 ? 1.5 : 1.0;
    }
    solve_run_init(&req->runs[i], e, h->name, weight);
    req->nruns++;
    return PZ_OK;
}

static int
parse_engines(const cJSON *body, api_solve_request_t *req, pz_diag_t *d)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(body, "engines");
    const char *engine = NULL;
    const char *heuristic = NULL;
    double weight = 0;
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(body, "weight");
    int rc;

    if ((rc = get_string(body, "engine", &engine, d)) != PZ_OK ||
        (rc = get_string(body, "heuristic", &heuristic, d)) != PZ_OK) {
        return rc;
    }
    if (w != NULL && !cJSON_IsNull(w)) {
        if (!cJSON_IsNumber(w)) {
            pz_diag_set(d, PZ_ETYPE, "'weight' must be a number");
            pz_diag_field(d, "/weight");
            return PZ_ETYPE;
        }
        if (!isfinite(w->valuedouble) || w->valuedouble < 1.0 ||
            w->valuedouble > 100.0) {
            pz_diag_set(d, PZ_ERANGE,
                        "'weight' must be a number from 1 to "
                        "100");
            pz_diag_field(d, "/weight");
            return PZ_ERANGE;
        }
        weight = w->valuedouble;
    }
    if (list != NULL && !cJSON_IsNull(list)) {
        int i = 0;

        if (engine != NULL) {
            pz_diag_set(d, PZ_ECONFLICT,
                        "give either 'engine' or 'engines', not both");
            pz_diag_field(d, "/engines");
            return PZ_ECONFLICT;
        }
        if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0) {
            pz_diag_set(d, PZ_ETYPE,
                        "'engines' must be a non-empty array of names");
            pz_diag_field(d, "/engines");
            return PZ_ETYPE;
        }
        req->compare = true;
        for (const cJSON *c = list->child; c != NULL; c = c->next, i++) {
            char ptr[32];

            snprintf(ptr, sizeof(ptr), "/engines/%d", i);
            if (!cJSON_IsString(c)) {
                pz_diag_set(d, PZ_ETYPE, "engine names are strings");
                pz_diag_field(d, ptr);
                return PZ_ETYPE;
            }
            rc = add_run(req, c->valuestring, heuristic, weight, ptr, d);
            if (rc != PZ_OK) {
                return rc;
            }
        }
        return PZ_OK;
    }
    return add_run(req, engine != NULL ? engine : "auto", heuristic, weight,
                   "/engine", d);
}

/* --- limits --- */

static int
too_large(pz_diag_t *d, const char *member, uint64_t max, const char *unit)
{
    char ptr[32];

    snprintf(ptr, sizeof(ptr), "/%s", member);
    pz_diag_set(d, PZ_ELIMIT, "'%s' is above this server's maximum of %llu%s",
                member, (unsigned long long)max, unit);
    pz_diag_field(d, ptr);
    return PZ_ELIMIT;
}

static int
parse_limits(const cJSON *body,
             const api_policy_t *pol,
             api_solve_request_t *req,
             pz_diag_t *d)
{
    int64_t time_ms = (int64_t)pol->default_time_ms;
    int64_t memory_mb = (int64_t)(pol->default_memory_bytes >> 20);
    int64_t max_nodes = (int64_t)pol->default_max_nodes;
    int64_t max_depth = 0;
    int64_t wait_ms = pol->default_wait_ms;
    int64_t target = 0;
    int rc;

    if ((rc = get_int(body, "time_ms", 1, 1e12, &time_ms, d)) != PZ_OK ||
        (rc = get_int(body, "memory_mb", 1, 1e9, &memory_mb, d)) != PZ_OK ||
        (rc = get_int(body, "max_nodes", 0, 9e15, &max_nodes, d)) != PZ_OK ||
        (rc = get_int(body, "max_depth", 0, PZ_SOLUTION_MAX, &max_depth, d)) !=
            PZ_OK ||
        (rc = get_int(body, "wait_ms", 0, 1e12, &wait_ms, d)) != PZ_OK ||
        (rc = get_int(body, "target_length", 0, PZ_SOLUTION_MAX, &target, d)) !=
            PZ_OK) {
        return rc;
    }
    if (pol->max_time_ms != 0 && (uint64_t)time_ms > pol->max_time_ms) {
        return too_large(d, "time_ms", pol->max_time_ms, " ms");
    }
    if (pol->max_memory_bytes != 0 &&
        (uint64_t)memory_mb > (pol->max_memory_bytes >> 20)) {
        return too_large(d, "memory_mb", pol->max_memory_bytes >> 20, " MiB");
    }
    if (pol->max_max_nodes != 0 &&
        (max_nodes == 0 || (uint64_t)max_nodes > pol->max_max_nodes)) {
        return too_large(d, "max_nodes", pol->max_max_nodes, "");
    }
    if (pol->max_wait_ms != 0 && wait_ms > pol->max_wait_ms) {
        return too_large(d, "wait_ms", (uint64_t)pol->max_wait_ms, " ms");
    }
    req->spec.limits.time_ms = (uint64_t)time_ms;
    req->spec.limits.memory_bytes = (size_t)memory_mb << 20;
    req->spec.limits.max_nodes = (uint64_t)max_nodes;
    req->spec.limits.max_depth = (int)max_depth;
    req->spec.target_length = (int)target;
    req->spec.threads = pol->threads > 0 ? pol->threads : 1;
    req->wait_ms = wait_ms;
    return PZ_OK;
}

/* --- the request --- */

static int
parse_start(const cJSON *body, api_solve_request_t *req, pz_diag_t *d)
{
    const cJSON *state = cJSON_GetObjectItemCaseSensitive(body, "state");
    const cJSON *goal = cJSON_GetObjectItemCaseSensitive(body, "goal");
    const char *scramble = NULL;
    int rc;

    if ((rc = get_string(body, "scramble", &scramble, d)) != PZ_OK) {
        return rc;
    }
    if (state != NULL && cJSON_IsNull(state)) {
        state = NULL;
    }
    if (goal != NULL && cJSON_IsNull(goal)) {
        goal = NULL;
    }
    if (scramble != NULL && state != NULL) {
        pz_diag_set(d, PZ_ECONFLICT,
                    "give either 'scramble' or 'state', not both");
        pz_diag_field(d, "/state");
        return PZ_ECONFLICT;
    }
    if (scramble == NULL && state == NULL) {
        pz_diag_set(d, PZ_EMISSING,
                    "give the puzzle as 'scramble' (moves from solved) or "
                    "'state'");
        pz_diag_field(d, "/scramble");
        return PZ_EMISSING;
    }
    if (goal != NULL) {
        rc = parse_state_member(req, goal, "goal", &req->spec.goal, d);
        if (rc != PZ_OK) {
            return rc;
        }
        req->custom_goal = true;
    } else {
        puzzle_goal(req->puzzle, &req->spec.goal);
    }
    if (scramble != NULL) {
        /* A scramble is applied to the goal: "scramble from the target". */
        req->spec.start = req->spec.goal;
        rc = puzzle_apply_scramble(req->puzzle, scramble, &req->spec.start, d);
        if (rc != PZ_OK) {
            pz_diag_field(d, "/scramble");
            return rc;
        }
        req->scramble = strdup(scramble);
        if (req->scramble == NULL) {
            return pz_diag_set(d, PZ_ENOMEM, "out of memory");
        }
    } else {
        rc = parse_state_member(req, state, "state", &req->spec.start, d);
        if (rc != PZ_OK) {
            return rc;
        }
    }
    rc = puzzle_check_pair(req->puzzle, &req->spec.start, &req->spec.goal, d);
    if (rc != PZ_OK) {
        pz_diag_field(d, goal != NULL ? "/goal" : "/state");
    }
    return rc;
}

/*
 * The two-phase engine is anytime: target_length 0 lets it improve until
 * the time budget ends. Without the member it stops at God's number, 20
 * in HTM (26 in QTM, where 20 is out of reach for most cubes): a good
 * answer in about a millisecond instead of the whole budget.
 */
static void
default_target(const cJSON *body, api_solve_request_t *req)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, "target_length");

    if (v != NULL && !cJSON_IsNull(v)) {
        return;
    }
    for (int i = 0; i < req->nruns; i++) {
        if (strcmp(req->runs[i].engine->name, "twophase") == 0) {
            req->spec.target_length =
                req->puzzle->metric == PZ_METRIC_QTM ? 26 : 20;
            return;
        }
    }
}

/*
 * After puzzle_create refused the metric of prm: a puzzle with one kind of
 * move ignores the metric (openapi.yaml), so it is created without one
 * into *out (PZ_OK, d cleared); a puzzle with several (the cubes) keeps
 * the refusal. Returns PZ_EMETRIC, or another problem of prm with d.
 */
static int
ignore_metric(const char *name,
              const pz_params_t *prm,
              pz_puzzle_t **out,
              pz_diag_t *d)
{
    pz_params_t any = *prm;
    pz_diag_t why;
    int rc;

    any.metric = PZ_METRIC_DEFAULT;
    pz_diag_clear(&why);
    rc = puzzle_create(name, &any, out, &why);
    if (rc == PZ_OK && (*out)->metric == PZ_METRIC_MOVES) {
        pz_diag_clear(d);
        return PZ_OK;
    }
    puzzle_destroy(*out);
    *out = NULL;
    if (rc != PZ_OK && d != NULL) {
        *d = why;
        return rc;
    }
    return PZ_EMETRIC;
}

int
api_solve_parse(const cJSON *body,
                const api_policy_t *pol,
                api_solve_request_t *req,
                pz_diag_t *d)
{
    const char *name = NULL;
    const char *metric = NULL;
    const puzzle_ops_t *ops;
    pz_params_t prm = { 0, 0, 0 };
    int optimal = -1;
    int rc;

    memset(req, 0, sizeof(*req));
    pz_diag_clear(d);
    if (!cJSON_IsObject(body)) {
        return pz_diag_set(d, PZ_ETYPE, "the body must be a JSON object");
    }
    if ((rc = check_members(body, d)) != PZ_OK ||
        (rc = get_string(body, "puzzle", &name, d)) != PZ_OK ||
        (rc = get_string(body, "metric", &metric, d)) != PZ_OK ||
        (rc = get_bool(body, "optimal", &optimal, d)) != PZ_OK ||
        (rc = parse_metric(metric, &prm, d)) != PZ_OK) {
        goto fail;
    }
    if (name == NULL) {
        rc = pz_diag_set(d, PZ_EMISSING,
                         "'puzzle' is required, for example "
                         "\"2x2x2\" or \"15-puzzle\"");
        pz_diag_field(d, "/puzzle");
        goto fail;
    }
    /* The size is the sliding tiles' own; other puzzles ignore it
     * (openapi.yaml). */
    ops = puzzle_find(name);
    if (ops != NULL && strcmp(ops->name, "tiles") == 0 &&
        (rc = parse_size(body, &prm, d)) != PZ_OK) {
        goto fail;
    }
    if (strcasecmp(name, "tiles") == 0) {
        infer_tiles_size(cJSON_GetObjectItemCaseSensitive(body, "state"), &prm);
    }
    rc = puzzle_create(name, &prm, &req->puzzle, d);
    if (rc == PZ_EMETRIC) {
        rc = ignore_metric(name, &prm, &req->puzzle, d);
    }
    if (rc != PZ_OK) {
        pz_diag_field(d, rc == PZ_EPUZZLE   ? "/puzzle"
                         : rc == PZ_EMETRIC ? "/metric"
                                            : "/size");
        goto fail;
    }
    req->spec.puzzle = req->puzzle;
    /* Without "optimal", ask for a proven optimum where one comes quickly:
     * where the puzzle says so, else where a complete table can be had.
     * Not where a random position takes minutes to prove. */
    req->optimal =
        optimal >= 0 ? optimal != 0 : optimal_by_default(req->puzzle);
    /* The start and goal come before the engines: "auto" depends on the
     * goal (shared tables serve some goals only). */
    if ((rc = parse_limits(body, pol, req, d)) != PZ_OK ||
        (rc = parse_tables_mode(body, pol, req, d)) != PZ_OK ||
        (rc = parse_start(body, req, d)) != PZ_OK ||
        (rc = parse_engines(body, req, d)) != PZ_OK ||
        (rc = plan_tables(pol, req, d)) != PZ_OK) {
        goto fail;
    }
    default_target(body, req);
    return PZ_OK;
fail:
    api_solve_cleanup(req);
    return rc;
}

void
api_solve_cleanup(api_solve_request_t *req)
{
    if (req == NULL) {
        return;
    }
    puzzle_destroy(req->puzzle);
    free(req->scramble);
    /* Only what makes a second cleanup safe and the request visibly empty:
     * clearing all 10 KiB (eight runs with solution buffers) here as well
     * as in api_solve_parse cost a microsecond per HTTP request. */
    req->puzzle = NULL;
    req->spec.puzzle = NULL;
    req->scramble = NULL;
    req->nruns = 0;
}

int
api_solve_parse_text(const char *buf,
                     size_t len,
                     const api_policy_t *pol,
                     api_solve_request_t *req,
                     pz_diag_t *d)
{
    cJSON *root = NULL;
    int rc = api_json_parse(buf, len, &root, d);

    if (rc == PZ_OK) {
        rc = api_solve_parse(root, pol, req, d);
    }
    cJSON_Delete(root);
    return rc;
}
