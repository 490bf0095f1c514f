/* SPDX-License-Identifier: MIT */
/* fuzz_query.c - libFuzzer target: a query argument through the server's
 * percent-decoding and its count parser. */

/*
 * Input: one raw query argument value (or path), as MHD hands it to the
 * unescape callback. The decoded text then goes to http__parse_count, as
 * the wait_ms, limit and offset parameters do.
 *
 * Oracles: the decoding agrees with a reference decoder written
 * independently here (every %XX with two hex digits becomes its byte,
 * except %00 and %2F, which stay as the three characters), returns the
 * decoded length and never makes the text longer; decoding the input with
 * each '%' written as %25 gives the input back; the count parser accepts
 * exactly the non-empty strings of decimal digits, however long, and
 * returns their value, or 2^53 for a larger one.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The largest count the parser returns: more reads as this. */
#define COUNT_MAX (UINT64_C(1) << 53)

static void
fail(const char *what, const char *in, const char *out)
{
    fprintf(stderr, "fuzz oracle failed: %s\n  in:  \"%s\"\n  out: \"%s\"\n",
            what, in, out);
    abort();
}

/* The value of hex digit c, or -1. */
static int
hex_value(char c)
{
    static const char digits[] = "0123456789abcdef0123456789ABCDEF";
    const char *hit = c != '\0' ? strchr(digits, c) : NULL;

    return hit == NULL ? -1 : (int)(hit - digits) % 16;
}

/* The reference decoder: out holds at least strlen(in) + 1 bytes. */
static size_t
reference_unescape(const char *in, char *out)
{
    size_t n = 0;

    for (size_t i = 0; in[i] != '\0';) {
        int hi = in[i] == '%' ? hex_value(in[i + 1]) : -1;
        int lo = hi < 0 ? -1 : hex_value(in[i + 2]);
        int byte = lo < 0 ? -1 : hi * 16 + lo;

        if (byte > 0 && byte != '/') {
            out[n++] = (char)byte;
            i += 3;
        } else {
            out[n++] = in[i++];
        }
    }
    out[n] = '\0';
    return n;
}

/* The reference count parser. */
static bool
reference_count(const char *s, int64_t *out)
{
    uint64_t v = 0;

    if (*s == '\0' || strspn(s, "0123456789") != strlen(s)) {
        return false;
    }
    for (; *s != '\0'; s++) {
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > COUNT_MAX) {
            v = COUNT_MAX + 1;
        }
    }
    *out = (int64_t)(v > COUNT_MAX ? COUNT_MAX : v);
    return true;
}

static void
check_count(const char *s)
{
    int64_t want = -1;
    int64_t got = -1;
    bool ok = reference_count(s, &want);
    bool got_ok = http__parse_count(s, &got);

    if (got_ok != ok || (ok && got != want)) {
        char buf[96];

        snprintf(buf, sizeof(buf),
                 "the count parser says %s (%lld); expected %s (%lld)",
                 got_ok ? "yes" : "no", (long long)got, ok ? "yes" : "no",
                 (long long)want);
        fail(buf, s, "");
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *in = malloc(size + 1);
    char *out = malloc(size + 1);
    char *want = malloc(size + 1);
    char *quoted = malloc(3 * size + 1);
    size_t len;
    size_t q = 0;

    if (in == NULL || out == NULL || want == NULL || quoted == NULL) {
        abort();
    }
    /* MHD hands over a C string: the argument ends at a NUL. */
    memcpy(in, data, size);
    in[size] = '\0';
    memcpy(out, in, size + 1);
    len = http__unescape(NULL, NULL, out);
    if (len != strlen(out) || len > strlen(in)) {
        fail("the length returned is not the decoded length", in, out);
    }
    if (reference_unescape(in, want) != len || strcmp(out, want) != 0) {
        fail("the decoding differs from the reference", in, out);
    }
    for (size_t i = 0; in[i] != '\0'; i++) {
        if (in[i] == '%') {
            memcpy(quoted + q, "%25", 3);
            q += 3;
        } else {
            quoted[q++] = in[i];
        }
    }
    quoted[q] = '\0';
    http__unescape(NULL, NULL, quoted);
    if (strcmp(quoted, in) != 0) {
        fail("decoding the input with every '%' quoted as %25", in, quoted);
    }
    check_count(in);
    check_count(out);
    free(quoted);
    free(want);
    free(out);
    free(in);
    return 0;
}
