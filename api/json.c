/* SPDX-License-Identifier: MIT */
/* json.c - strict parsing of request bodies: RFC 8259 JSON, UTF-8, bounded
 * length and depth. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "api_json.h"

/* Deepest JSON nesting a request may have: a [6][3][3] state is 4 levels
 * below the body. cJSON's own limit (1000) is far too generous. */
#define API_DEPTH_MAX 8

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
    return api_json_parse_max(buf, len, API_BODY_MAX, out, d);
}

int
api_json_parse_max(const char *buf,
                   size_t len,
                   size_t max,
                   cJSON **out,
                   pz_diag_t *d)
{
    const char *end = NULL;
    char *copy;
    cJSON *root;
    size_t pos;
    int rc;

    *out = NULL;
    if (len > max) {
        return pz_diag_set(d, PZ_ETOO_LARGE,
                           "the body has %zu bytes; the limit is %zu", len,
                           max);
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
