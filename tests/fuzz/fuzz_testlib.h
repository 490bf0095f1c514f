/* SPDX-License-Identifier: MIT */
/* fuzz_testlib.h - what the puzzle fuzz targets share: the puzzle
 * instances an input picks, oracle checks and state round trips. */
#ifndef PZ_TESTS_FUZZ_TESTLIB_H
#define PZ_TESTS_FUZZ_TESTLIB_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_json.h"
#include "puzzle.h"
#include "request.h"

/* Most stickers or tiles a formatted state has, with separators. */
#define FUZZ_TEXT_MAX 512

/* Most integers a JSON state array may hold (as the api layer). */
#define FUZZ_INTS_MAX 256

/*
 * Reports a failed oracle and aborts, which libFuzzer records as a crash
 * with the input that caused it. Used only for mismatches that are bugs,
 * never for input the parsers rightly refuse.
 */
static inline void fuzz_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

static inline void
fuzz_fail(const char *fmt, ...)
{
    va_list ap;

    fputs("fuzz oracle failed: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* One puzzle instance an input may pick: the name and parameters a
 * request gives, and the instance made from them once per process. */
typedef struct fuzz_puzzle {
    const char *header; /* the first line of an input that picks it */
    const char *name;
    int rows;
    int cols;
    int metric;
    pz_puzzle_t *p;
} fuzz_puzzle_t;

/*
 * The puzzles an input may pick (count in *n): every puzzle in the
 * registry, tiles in several shapes (square and not, the smallest and the
 * largest board) and both cube metrics.
 */
static inline fuzz_puzzle_t *
fuzz_puzzle_list(size_t *n)
{
    static fuzz_puzzle_t list[] = {
        { "tiles 2x2", "tiles", 2, 2, 0, NULL },
        { "tiles 2x3", "tiles", 2, 3, 0, NULL },
        { "tiles 3x2", "tiles", 3, 2, 0, NULL },
        { "tiles 3x3", "tiles", 3, 3, 0, NULL },
        { "tiles 3x4", "tiles", 3, 4, 0, NULL },
        { "tiles 4x4", "tiles", 4, 4, 0, NULL },
        { "tiles 4x5", "tiles", 4, 5, 0, NULL },
        { "tiles 5x5", "tiles", 5, 5, 0, NULL },
        { "tiles 6x6", "tiles", 6, 6, 0, NULL },
        { "tiles 7x3", "tiles", 7, 3, 0, NULL },
        { "tiles 2x8", "tiles", 2, 8, 0, NULL },
        { "tiles 8x8", "tiles", 8, 8, 0, NULL },
        { "2x2x2", "2x2x2", 0, 0, PZ_METRIC_HTM, NULL },
        { "2x2x2 qtm", "2x2x2", 0, 0, PZ_METRIC_QTM, NULL },
        { "3x3x3", "3x3x3", 0, 0, PZ_METRIC_HTM, NULL },
        { "3x3x3 qtm", "3x3x3", 0, 0, PZ_METRIC_QTM, NULL },
        { "pyraminx", "pyraminx", 0, 0, 0, NULL },
        { "master-pyraminx", "master-pyraminx", 0, 0, 0, NULL },
        { "skewb", "skewb", 0, 0, 0, NULL },
    };

    *n = sizeof(list) / sizeof(list[0]);
    return list;
}

/* Creates every instance (once: puzzle_create is not what these targets
 * fuzz, and the Master Pyraminx derives its geometry at init). */
static inline void
fuzz_puzzles_init(void)
{
    size_t n;
    fuzz_puzzle_t *list = fuzz_puzzle_list(&n);

    for (size_t i = 0; i < n; i++) {
        fuzz_puzzle_t *f = &list[i];
        pz_params_t prm = { f->rows, f->cols, f->metric };
        pz_diag_t d;

        if (f->p == NULL && puzzle_create(f->name, &prm, &f->p, &d) != PZ_OK) {
            fuzz_fail("cannot create %s: %s", f->header, d.detail);
        }
    }
}

/*
 * Splits an input into the puzzle it picks and the rest. The first line
 * names a puzzle as fuzz_puzzle_list does ("tiles 4x4", "3x3x3 qtm"); a line
 * that names none still picks one, by a hash of its bytes, so no input is
 * wasted. *rest and *rest_len are what follows the first newline (nothing
 * when there is none).
 */
static inline const fuzz_puzzle_t *
fuzz_pick(const uint8_t *data,
          size_t size,
          const uint8_t **rest,
          size_t *rest_len)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t hlen = nl != NULL ? (size_t)(nl - data) : size;
    uint32_t h = 2166136261u;
    size_t n;
    const fuzz_puzzle_t *list = fuzz_puzzle_list(&n);

    *rest = nl != NULL ? nl + 1 : data + size;
    *rest_len = size - (size_t)(*rest - data);
    for (size_t i = 0; i < n; i++) {
        const char *name = list[i].header;

        if (strlen(name) == hlen && memcmp(name, data, hlen) == 0) {
            return &list[i];
        }
    }
    for (size_t i = 0; i < hlen; i++) {
        h = (h ^ data[i]) * 16777619u;
    }
    return &list[h % n];
}

/* An owned NUL-terminated copy of data (free), cut at a NUL byte as a C
 * string would be. */
static inline char *
fuzz_strndup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);

    if (s == NULL) {
        abort();
    }
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* Checks a refusal: a negative code, the same code in d, a detail a
 * person can read (well-formed UTF-8, within its buffer) and a position
 * that is -1 or inside the text of len bytes that was refused. */
static inline void
fuzz_check_diag(int rc, const pz_diag_t *d, size_t len, const char *what)
{
    size_t n = strnlen(d->detail, sizeof(d->detail));

    if (rc >= 0 || d->rc != rc) {
        fuzz_fail("%s: returned %d, diagnostic %d", what, rc, d->rc);
    }
    if (n == 0 || n == sizeof(d->detail) || pz_utf8_valid(d->detail, n) != n) {
        fuzz_fail("%s: empty, unterminated or ill-formed detail", what);
    }
    n = strnlen(d->field, sizeof(d->field));
    if (n == sizeof(d->field) || pz_utf8_valid(d->field, n) != n) {
        fuzz_fail("%s: unterminated or ill-formed field", what);
    }
    if (d->position < -1 || (d->position >= 0 && (size_t)d->position > len)) {
        fuzz_fail("%s: position %d outside a text of %zu bytes", what,
                  d->position, len);
    }
}

/* Fails unless a and b are the same state of p and both keep the bytes
 * past state_size zero (engines hash and compare whole states). */
static inline void
fuzz_check_equal(const pz_puzzle_t *p,
                 const pz_state_t *a,
                 const pz_state_t *b,
                 const char *what)
{
    static const uint8_t zero[PZ_STATE_MAX];
    size_t n = p->state_size;

    if (memcmp(a->b + n, zero, PZ_STATE_MAX - n) != 0 ||
        memcmp(b->b + n, zero, PZ_STATE_MAX - n) != 0) {
        fuzz_fail("%s (%s): bytes past state_size are not zero", what, p->id);
    }
    if (!puzzle_equal(p, a, b)) {
        fuzz_fail("%s (%s): the states differ", what, p->id);
    }
}

/* True when p[0..n) is a permutation of 0..n-1; *odd gets its parity. */
static inline bool
fuzz_perm(const int *p, int n, bool *odd)
{
    bool seen[16] = { false };
    int swaps = 0;

    for (int i = 0; i < n; i++) {
        if (p[i] < 0 || p[i] >= n || seen[p[i]]) {
            return false;
        }
        seen[p[i]] = true;
        for (int j = 0; j < i; j++) {
            swaps += p[j] > p[i];
        }
    }
    *odd = swaps % 2 != 0;
    return true;
}

/*
 * The states the twisty puzzles accept have no pair check (check_pair is
 * NULL), so each must be reachable from the goal, or a search for it could
 * never end. Checks the invariants of the documented state layouts: the
 * 3x3x3's cubies (cube3.h: corner and edge permutations of equal parity,
 * twists 0 mod 3, flips 0 mod 2), the 2x2x2's corners (cube2.c: DBL home,
 * the rest a permutation with twists 0 mod 3) and the pyraminx's edges and
 * twists (pyraminx.c: an even permutation with an even number of flips,
 * axial and tip twists 0..2). The tiles have their pair check and the
 * Master Pyraminx's sticker picture is validated piece by piece.
 */
static inline void
fuzz_check_reachable(const pz_puzzle_t *p, const pz_state_t *s)
{
    const char *name = p->ops->name;
    int perm[12];
    int perm2[12];
    int sum = 0;
    int sum2 = 0;
    bool odd = false;
    bool odd2 = false;
    bool ok = true;

    if (strcmp(name, "3x3x3") == 0) {
        for (int i = 0; i < 8; i++) {
            perm[i] = s->b[i] / 3;
            sum += s->b[i] % 3;
        }
        for (int i = 0; i < 12; i++) {
            perm2[i] = s->b[8 + i] / 2;
            sum2 += s->b[8 + i] % 2;
        }
        ok = fuzz_perm(perm, 8, &odd) && fuzz_perm(perm2, 12, &odd2) &&
             odd == odd2 && sum % 3 == 0 && sum2 % 2 == 0;
    } else if (strcmp(name, "2x2x2") == 0) {
        for (int i = 0; i < 8; i++) {
            perm[i] = s->b[i] / 3;
            sum += s->b[i] % 3;
        }
        ok = fuzz_perm(perm, 8, &odd) && s->b[6] == 6 * 3 && sum % 3 == 0;
    } else if (strcmp(name, "pyraminx") == 0) {
        for (int i = 0; i < 6; i++) {
            perm[i] = s->b[i] / 2;
            sum += s->b[i] % 2;
        }
        for (int i = 6; i < 14; i++) {
            ok = ok && s->b[i] < 3;
        }
        ok = ok && fuzz_perm(perm, 6, &odd) && !odd && sum % 2 == 0;
    } else if (strcmp(name, "skewb") == 0) {
        /* Its index is a bijection onto the reachable states and keeps
         * only their free parts: anything else comes back changed. */
        uint64_t r = puzzle_rank(p, s);
        pz_state_t back;

        state_clear(&back);
        ok = r < puzzle_rank_count(p);
        if (ok) {
            puzzle_unrank(p, r, &back);
            ok = puzzle_equal(p, s, &back);
        }
    }
    if (!ok) {
        fuzz_fail("%s: a state that no move sequence reaches", p->id);
    }
}

/*
 * The state round trip: s is reachable (fuzz_check_reachable) and
 * formats; its text parses back to s; the state parsed formats to the
 * same text (the canonical form is a fixed point).
 * Every buffer shorter than the text and its NUL is refused without a
 * write past its end (the buffers are exact-size heap blocks, so ASan
 * sees any). Writes the text to text (FUZZ_TEXT_MAX bytes).
 */
static inline void
fuzz_check_roundtrip(const pz_puzzle_t *p, const pz_state_t *s, char *text)
{
    char again[FUZZ_TEXT_MAX];
    pz_input_t in = { 0 };
    pz_state_t back;
    pz_diag_t d;
    int n;
    int rc;

    fuzz_check_reachable(p, s);
    n = puzzle_format_state(p, s, text, FUZZ_TEXT_MAX);
    if (n <= 0 || n >= FUZZ_TEXT_MAX || (size_t)n != strlen(text)) {
        fuzz_fail("format_state (%s) returned %d", p->id, n);
    }
    for (size_t len = 0; len <= (size_t)n + 1; len++) {
        char *buf = malloc(len > 0 ? len : 1);

        if (buf == NULL) {
            abort();
        }
        rc = puzzle_format_state(p, s, buf, len);
        if (len <= (size_t)n ? rc != PZ_EINVAL : rc != n) {
            fuzz_fail("format_state (%s) into %zu bytes returned %d (text "
                      "has %d)",
                      p->id, len, rc, n);
        }
        free(buf);
    }
    in.text = text;
    pz_diag_clear(&d);
    rc = puzzle_parse_state(p, &in, &back, &d);
    if (rc != PZ_OK) {
        fuzz_fail("format_state (%s) wrote \"%s\", which does not parse: %s",
                  p->id, text, d.detail);
    }
    fuzz_check_equal(p, s, &back, "format then parse");
    if (puzzle_format_state(p, &back, again, sizeof(again)) != n ||
        strcmp(again, text) != 0) {
        fuzz_fail("format_state (%s) is not canonical: \"%s\", then \"%s\"",
                  p->id, text, again);
    }
}

/*
 * Parses text as a state of p the way a request does: text starting with
 * '[' or '"' is a JSON value (an array of integers or a string, through
 * api_json_parse and api_state_input), anything else the string itself.
 * Returns the parser's code; d says why on failure (also for JSON errors,
 * which are not the puzzle's).
 */
static inline int
fuzz_parse_state(const pz_puzzle_t *p,
                 const char *text,
                 pz_state_t *out,
                 pz_diag_t *d)
{
    int ints[FUZZ_INTS_MAX];
    cJSON *v = NULL;
    pz_input_t in;
    int rc;

    pz_diag_clear(d);
    if (text[0] != '[' && text[0] != '"') {
        memset(&in, 0, sizeof(in));
        in.text = text;
        return puzzle_parse_state(p, &in, out, d);
    }
    rc = api_json_parse(text, strlen(text), &v, d);
    if (rc != PZ_OK) {
        return rc;
    }
    rc = api_state_input(v, ints, FUZZ_INTS_MAX, &in, d);
    if (rc == PZ_OK) {
        rc = puzzle_parse_state(p, &in, out, d);
    }
    cJSON_Delete(v);
    return rc;
}

/* The rank round trip of puzzles with complete tables: the rank is in
 * range, and unranking gives the state back (or, for a partial rank, a
 * state of the same rank). */
static inline void
fuzz_check_rank(const pz_puzzle_t *p, const pz_state_t *s)
{
    uint64_t count;
    uint64_t r;
    pz_state_t back;

    if ((count = puzzle_rank_count(p)) == 0) {
        return;
    }
    r = puzzle_rank(p, s);
    if (r >= count) {
        fuzz_fail("rank (%s) %llu is not below %llu", p->id,
                  (unsigned long long)r, (unsigned long long)count);
    }
    state_clear(&back);
    puzzle_unrank(p, r, &back);
    if (puzzle_rank_partial(p)) {
        if (puzzle_rank(p, &back) != r) {
            fuzz_fail("unrank (%s) does not invert rank", p->id);
        }
        return;
    }
    fuzz_check_equal(p, s, &back, "rank then unrank");
}

#endif
