/* SPDX-License-Identifier: MIT */
/* jsonout.c - prints cJSON trees and numbers exactly as cJSON does, faster.
 *
 * Rendering a job and printing it took about a third of the daemon's own
 * CPU per small request, and most of the printing went to cJSON's number
 * format: every number is printed with sprintf("%1.15g") and read back
 * with sscanf, also for the many integers of a job. Here whole numbers are
 * written with a plain digit loop, numbers with at most three decimals
 * (durations in ms) from their thousandths, and only the rest goes through
 * the same printf and read-back as cJSON. The text is the same byte for
 * byte; tests/test_server_jsonout.c compares it with the library's.
 */
#include "jsonout.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_json.h"

size_t
jsonout_format_u64(uint64_t v, char out[JSONOUT_U64_MAX])
{
    char tmp[JSONOUT_U64_MAX];
    size_t n = 0;
    size_t len = 0;

    /* Digits by hand: snprintf cost more than the rest of a small member. */
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (n > 0) {
        out[len++] = tmp[--n];
    }
    out[len] = '\0';
    return len;
}

/* Writes the decimal digits of v (any sign) to out; returns the length. */
static size_t
put_int(int64_t v, char *out)
{
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

    if (v < 0) {
        out[0] = '-';
        return 1 + jsonout_format_u64(u, out + 1);
    }
    return jsonout_format_u64(u, out);
}

int
jsonout_valueint(double d)
{
    /* As cJSON_CreateNumber stores it. */
    if (d >= INT_MAX) {
        return INT_MAX;
    }
    if (d <= (double)INT_MIN) {
        return INT_MIN;
    }
    return (int)d;
}

/* cJSON's read-back test: equal within one epsilon of the larger. */
static bool
close_enough(double a, double b)
{
    double max = fabs(a) > fabs(b) ? fabs(a) : fabs(b);

    return fabs(a - b) <= max * DBL_EPSILON;
}

size_t
jsonout_number(double d, int vi, char out[JSONOUT_NUMBER_MAX])
{
    double back;
    int n;

    if (isnan(d) || isinf(d)) {
        memcpy(out, "null", 5);
        return 4;
    }
    if (d == 0 && signbit(d)) {
        /* "%1.15g" keeps the sign of a negative zero. */
        memcpy(out, "-0", 3);
        return 2;
    }
    if (d == (double)vi) {
        return put_int(vi, out);
    }
    /*
     * A number that is k/1000 for an integer k of at most 15 digits: that
     * decimal has at most 15 significant digits and d is the double
     * nearest to it, so "%1.15g" prints exactly its digits (trailing
     * zeros dropped, no exponent for 1e-3 <= |d| < 1e12), and they read
     * back to d.
     */
    if (fabs(d) >= 1e-3 && fabs(d) < 1e12) {
        double k = nearbyint(d * 1000.0);

        if (k / 1000.0 == d) {
            int64_t ki = (int64_t)k;
            int64_t whole = ki / 1000;
            int64_t frac = ki % 1000;
            size_t len = 0;

            if (frac < 0) {
                frac = -frac;
            }
            if (ki < 0) {
                out[len++] = '-';
                whole = -whole;
            }
            len += put_int(whole, out + len);
            if (frac != 0) {
                char digits[3] = { (char)('0' + frac / 100),
                                   (char)('0' + frac / 10 % 10),
                                   (char)('0' + frac % 10) };
                size_t nd = 3;

                while (digits[nd - 1] == '0') {
                    nd--;
                }
                out[len++] = '.';
                memcpy(out + len, digits, nd);
                len += nd;
            }
            out[len] = '\0';
            return len;
        }
    }
    n = snprintf(out, JSONOUT_NUMBER_MAX, "%1.15g", d);
    back = strtod(out, NULL);
    if (!close_enough(back, d)) {
        n = snprintf(out, JSONOUT_NUMBER_MAX, "%1.17g", d);
    }
    return (size_t)n;
}

static bool
reserve(jsonout_t *w, size_t more)
{
    char *grown;
    size_t cap = w->cap;

    if (w->failed) {
        return false;
    }
    if (w->len + more + 1 <= cap) {
        return true;
    }
    while (w->len + more + 1 > cap) {
        cap *= 2;
    }
    grown = realloc(w->data, cap);
    if (grown == NULL) {
        free(w->data);
        w->data = NULL;
        w->failed = true;
        return false;
    }
    w->data = grown;
    w->cap = cap;
    return true;
}

static bool
put(jsonout_t *w, const char *s, size_t n)
{
    if (!reserve(w, n)) {
        return false;
    }
    memcpy(w->data + w->len, s, n);
    w->len += n;
    return true;
}

size_t
jsonout_plain_run(const char *s)
{
    size_t run = 0;

    while ((unsigned char)s[run] >= 32 && s[run] != '"' && s[run] != '\\') {
        run++;
    }
    return run;
}

size_t
jsonout_escape(unsigned char ch, char out[6])
{
    static const char hex[] = "0123456789abcdef";

    out[0] = '\\';
    switch (ch) {
    case '"':
    case '\\':
        out[1] = (char)ch;
        return 2;
    case '\b':
        out[1] = 'b';
        return 2;
    case '\f':
        out[1] = 'f';
        return 2;
    case '\n':
        out[1] = 'n';
        return 2;
    case '\r':
        out[1] = 'r';
        return 2;
    case '\t':
        out[1] = 't';
        return 2;
    default:
        memcpy(out + 1, "u00", 3);
        out[4] = hex[ch >> 4];
        out[5] = hex[ch & 15];
        return 6;
    }
}

/* A JSON string with cJSON's escapes (NULL prints as ""). */
static bool
put_string(jsonout_t *o, const char *s)
{
    if (!put(o, "\"", 1)) {
        return false;
    }
    while (s != NULL && *s != '\0') {
        size_t run = jsonout_plain_run(s);
        char esc[6];
        size_t n;

        if (run > 0) {
            if (!put(o, s, run)) {
                return false;
            }
            s += run;
            continue;
        }
        n = jsonout_escape((unsigned char)*s++, esc);
        if (!put(o, esc, n)) {
            return false;
        }
    }
    return put(o, "\"", 1);
}

static bool
put_value(jsonout_t *o, const cJSON *item, int depth)
{
    char num[JSONOUT_NUMBER_MAX];
    size_t n;

    /* cJSON's parser stops at 1000 levels; trees built here are shallow,
     * so this only guards the recursion. */
    if (depth > CJSON_NESTING_LIMIT) {
        return false;
    }
    switch (item->type & 0xFF) {
    case cJSON_NULL:
        return put(o, "null", 4);
    case cJSON_False:
        return put(o, "false", 5);
    case cJSON_True:
        return put(o, "true", 4);
    case cJSON_Number:
        n = jsonout_number(item->valuedouble, item->valueint, num);
        return put(o, num, n);
    case cJSON_Raw:
        return item->valuestring != NULL &&
               put(o, item->valuestring, strlen(item->valuestring));
    case cJSON_String:
        return put_string(o, item->valuestring);
    case cJSON_Array:
    case cJSON_Object: {
        bool object = (item->type & 0xFF) == cJSON_Object;

        if (!put(o, object ? "{" : "[", 1)) {
            return false;
        }
        for (const cJSON *c = item->child; c != NULL; c = c->next) {
            if (c != item->child && !put(o, ",", 1)) {
                return false;
            }
            if (object && !(put_string(o, c->string) && put(o, ":", 1))) {
                return false;
            }
            if (!put_value(o, c, depth + 1)) {
                return false;
            }
        }
        return put(o, object ? "}" : "]", 1);
    }
    default:
        return false;
    }
}

void
jsonout_init(jsonout_t *w)
{
    w->cap = 2048;
    w->len = 0;
    w->data = malloc(w->cap);
    w->failed = w->data == NULL;
    w->comma = false;
}

char *
jsonout_finish(jsonout_t *w, size_t *len)
{
    char *text = w->data;

    *len = 0;
    if (w->failed || !reserve(w, 0)) {
        free(w->data);
        w->data = NULL;
        return NULL;
    }
    text[w->len] = '\0';
    *len = w->len;
    w->data = NULL;
    return text;
}

/* The separator and key in front of a value; key NULL in arrays and at the
 * top. */
static bool
lead(jsonout_t *w, const char *key)
{
    if (w->comma && !put(w, ",", 1)) {
        return false;
    }
    w->comma = true;
    return key == NULL || (put_string(w, key) && put(w, ":", 1));
}

void
jsonout_begin(jsonout_t *w, const char *key, char open)
{
    if (lead(w, key) && put(w, &open, 1)) {
        w->comma = false;
    }
}

void
jsonout_end(jsonout_t *w, char close)
{
    put(w, &close, 1);
    w->comma = true;
}

void
jsonout_string(jsonout_t *w, const char *key, const char *s)
{
    if (lead(w, key)) {
        put_string(w, s);
    }
}

void
jsonout_u64(jsonout_t *w, const char *key, uint64_t v)
{
    char num[JSONOUT_U64_MAX];
    size_t n = jsonout_format_u64(v, num);

    if (lead(w, key)) {
        put(w, num, n);
    }
}

void
jsonout_double(jsonout_t *w, const char *key, double d)
{
    char num[JSONOUT_NUMBER_MAX];
    size_t n = jsonout_number(d, jsonout_valueint(d), num);

    if (lead(w, key)) {
        put(w, num, n);
    }
}

void
jsonout_bool(jsonout_t *w, const char *key, bool v)
{
    if (lead(w, key)) {
        put(w, v ? "true" : "false", v ? 4 : 5);
    }
}

void
jsonout_null(jsonout_t *w, const char *key)
{
    if (lead(w, key)) {
        put(w, "null", 4);
    }
}

void
jsonout_tree(jsonout_t *w, const char *key, const cJSON *item)
{
    if (lead(w, key) && (item == NULL || !put_value(w, item, 0))) {
        w->failed = true;
    }
}

char *
jsonout_print(const cJSON *item, size_t *len)
{
    jsonout_t w;

    jsonout_init(&w);
    jsonout_tree(&w, NULL, item);
    return jsonout_finish(&w, len);
}

void
jsonout_raw(jsonout_t *w, const char *key, const char *text)
{
    if (lead(w, key)) {
        put(w, text, strlen(text));
    }
}

bool
jsonout_json(jsonout_t *w, const char *key, const char *text)
{
    cJSON *v = NULL;
    bool ok = api_json_parse(text, strlen(text), &v, NULL) == PZ_OK &&
              (cJSON_IsArray(v) || cJSON_IsString(v));

    if (ok) {
        jsonout_tree(w, key, v);
    }
    cJSON_Delete(v);
    return ok;
}
