/* SPDX-License-Identifier: MIT */
/* tiles_io.c - sliding-tile states and scrambles as text and integers:
 * parsing, with the errors people see, and formatting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiles_internal.h"

/* Why a move is impossible, by move: where the blank must be. */
static const char *const move_blocked[TILES_MOVES] = {
    "no tile can slide up, the blank is in the bottom row",
    "no tile can slide down, the blank is in the top row",
    "no tile can slide left, the blank is in the rightmost column",
    "no tile can slide right, the blank is in the leftmost column",
};

/* ------------------------------------------------------------------------ */
/* States: validation, parsing, formatting */

/* Names a tile in a sentence: the blank is not a numbered tile. */
static void
tile_label(int v, char *buf, size_t len)
{
    if (v == 0) {
        snprintf(buf, len, "the blank (0)");
    } else {
        snprintf(buf, len, "tile %d", v);
    }
}

/* Checks that vals[0..cells) is a permutation of 0..cells-1 and stores it
 * with its blank index into out (PZ_ETILES naming the first problem). */
static int
store_tiles(const tiles_priv_t *t,
            const long *vals,
            pz_state_t *out,
            pz_diag_t *d)
{
    int count[CELLS_MAX] = { 0 };
    int dup = -1;
    int missing = -1;
    int nbad = 0;
    int blank = -1;
    char a[32];
    char b[32];

    for (int i = 0; i < t->cells; i++) {
        if (vals[i] < 0 || vals[i] >= t->cells) {
            return pz_diag_set(d, PZ_ETILES,
                               "tile %ld (number %d in the list) is out of "
                               "range: a %dx%d board holds 0 (the blank) to "
                               "%d",
                               vals[i], i + 1, t->rows, t->cols, t->cells - 1);
        }
        count[vals[i]]++;
    }
    for (int v = 0; v < t->cells; v++) {
        if (count[v] > 1 && dup < 0) {
            dup = v;
        }
        if (count[v] == 0) {
            if (missing < 0) {
                missing = v;
            }
            nbad++;
        }
    }
    if (dup >= 0) {
        /* With exactly cells values, a duplicate always leaves a gap. */
        tile_label(dup, a, sizeof(a));
        tile_label(missing, b, sizeof(b));
        if (nbad > 1) {
            return pz_diag_set(d, PZ_ETILES,
                               "%s appears %d times and %s is missing (%d "
                               "tiles are missing in all); each of 0..%d "
                               "must appear exactly once",
                               a, count[dup], b, nbad, t->cells - 1);
        }
        return pz_diag_set(d, PZ_ETILES,
                           "%s appears %s and %s is missing; each of 0..%d "
                           "must appear exactly once",
                           a, count[dup] == 2 ? "twice" : "more than twice", b,
                           t->cells - 1);
    }
    for (int i = 0; i < t->cells; i++) {
        out->b[i] = (uint8_t)vals[i];
        if (vals[i] == 0) {
            blank = i;
        }
    }
    out->b[t->cells] = (uint8_t)blank;
    return PZ_OK;
}

static bool
is_state_sep(char ch)
{
    return ch == ' ' || ch == ',' || ch == '\t' || ch == '\n' || ch == '\r' ||
           ch == '/' || ch == ';';
}

/* Parses an optionally signed decimal integer filling exactly len chars.
 * Huge values saturate, which is enough to report them out of range. */
static bool
parse_int(const char *s, size_t len, long *out)
{
    size_t i = 0;
    long v = 0;
    bool neg = false;

    if (len > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        i = 1;
    }
    if (i == len) {
        return false;
    }
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
        if (v < 100000000) {
            v = v * 10 + (s[i] - '0');
        }
    }
    *out = neg ? -v : v;
    return true;
}

static int
length_error(const tiles_priv_t *t, size_t got, pz_diag_t *d)
{
    return pz_diag_set(d, PZ_ESTATE_LENGTH,
                       "expected %d tiles for %dx%d, got %zu", t->cells,
                       t->rows, t->cols, got);
}

static int
parse_text(const tiles_priv_t *t, const char *text, long *vals, pz_diag_t *d)
{
    size_t n = 0;
    size_t i = 0;

    while (text[i] != '\0') {
        size_t start;
        long v;

        if (is_state_sep(text[i])) {
            i++;
            continue;
        }
        start = i;
        while (text[i] != '\0' && !is_state_sep(text[i])) {
            i++;
        }
        if (!parse_int(text + start, i - start, &v)) {
            int rc = pz_diag_set(d, PZ_ESTATE_SYMBOL,
                                 "'%.*s' at offset %zu is not a tile "
                                 "number; write the tiles as integers "
                                 "0..%d (0 = blank) separated by spaces, "
                                 "commas or '/'",
                                 (int)(i - start < 16 ? i - start : 16),
                                 text + start, start, t->cells - 1);

            if (d != NULL) {
                d->position = (int)start;
            }
            return rc;
        }
        if (n < (size_t)t->cells) {
            vals[n] = v;
        }
        n++;
    }
    if (n != (size_t)t->cells) {
        return length_error(t, n, d);
    }
    return PZ_OK;
}

int
tiles__parse_state(const pz_puzzle_t *p,
                   const pz_input_t *in,
                   pz_state_t *out,
                   pz_diag_t *d)
{
    const tiles_priv_t *t = p->priv;
    long vals[CELLS_MAX];
    int rc;

    if (in->text != NULL) {
        rc = parse_text(t, in->text, vals, d);
        if (rc != PZ_OK) {
            return rc;
        }
        return store_tiles(t, vals, out, d);
    }
    if (in->ndims > 2) {
        return pz_diag_set(d, PZ_ESTATE_LENGTH,
                           "a tiles state is a flat list of %d tiles or a "
                           "%dx%d array, not a %d-dimensional array",
                           t->cells, t->rows, t->cols, in->ndims);
    }
    if (in->ndims == 2 &&
        (in->shape[0] != t->rows || in->shape[1] != t->cols)) {
        return pz_diag_set(d, PZ_ESTATE_LENGTH,
                           "the state is a %dx%d array but the board is "
                           "%dx%d",
                           in->shape[0], in->shape[1], t->rows, t->cols);
    }
    if (in->nints != (size_t)t->cells || in->ints == NULL) {
        return length_error(t, in->ints == NULL ? 0 : in->nints, d);
    }
    for (int i = 0; i < t->cells; i++) {
        vals[i] = in->ints[i];
    }
    return store_tiles(t, vals, out, d);
}

int
tiles__format_state(const pz_puzzle_t *p,
                    const pz_state_t *s,
                    char *buf,
                    size_t len)
{
    const tiles_priv_t *t = p->priv;
    size_t used = 0;

    if (len == 0) {
        return PZ_EINVAL;
    }
    /* By hand, not snprintf per tile: every reply shows the start and
     * goal, and those calls were a tenth of a small request's CPU. */
    for (int i = 0; i < t->cells; i++) {
        const char *sep = i == 0 ? "" : i % t->cols == 0 ? " / " : " ";
        size_t nsep = strlen(sep);
        int v = s->b[i];
        char digits[4];
        size_t nd = 0;

        do {
            digits[nd++] = (char)('0' + v % 10);
            v /= 10;
        } while (v != 0 && nd < sizeof(digits));
        if (nsep + nd >= len - used) {
            buf[0] = '\0';
            return PZ_EINVAL;
        }
        memcpy(buf + used, sep, nsep);
        used += nsep;
        while (nd > 0) {
            buf[used++] = digits[--nd];
        }
    }
    buf[used] = '\0';
    return (int)used;
}

/* ------------------------------------------------------------------------ */
/* Scrambles */

static bool
is_move_sep(char ch)
{
    return ch == ' ' || ch == ',' || ch == '\t' || ch == '\n' || ch == '\r';
}

static int
letter_move(char ch)
{
    switch (ch) {
    case 'U':
    case 'u':
        return MOVE_U;
    case 'D':
    case 'd':
        return MOVE_D;
    case 'L':
    case 'l':
        return MOVE_L;
    case 'R':
    case 'r':
        return MOVE_R;
    default:
        return -1;
    }
}

static int
move_error(pz_diag_t *d, size_t position, int rc)
{
    if (d != NULL) {
        d->position = (int)position;
    }
    return rc;
}

/* Slides tile number v (text at offset pos) into the blank of s. */
static int
slide_tile(const tiles_priv_t *t,
           long v,
           int nmove,
           size_t pos,
           pz_state_t *s,
           pz_diag_t *d)
{
    int z = s->b[t->cells];
    int cell = -1;

    if (v == 0) {
        return move_error(d, pos,
                          pz_diag_set(d, PZ_EMOVE,
                                      "move %d: 0 is the blank; name a tile "
                                      "1..%d next to it",
                                      nmove, t->cells - 1));
    }
    if (v < 0 || v >= t->cells) {
        return move_error(d, pos,
                          pz_diag_set(d, PZ_EMOVE,
                                      "move %d: there is no tile %ld on a "
                                      "%dx%d board (tiles are 1..%d)",
                                      nmove, v, t->rows, t->cols,
                                      t->cells - 1));
    }
    for (int i = 0; i < t->cells; i++) {
        if (s->b[i] == v) {
            cell = i;
        }
    }
    for (int m = 0; m < TILES_MOVES; m++) {
        if (t->from[m][z] == cell) {
            s->b[z] = (uint8_t)v;
            s->b[cell] = 0;
            s->b[t->cells] = (uint8_t)cell;
            return PZ_OK;
        }
    }
    return move_error(d, pos,
                      pz_diag_set(d, PZ_EMOVE,
                                  "move %d (tile %ld): tile %ld is not next "
                                  "to the blank",
                                  nmove, v, v));
}

int
tiles__apply_scramble(const pz_puzzle_t *p,
                      const char *text,
                      pz_state_t *state,
                      pz_diag_t *d)
{
    const tiles_priv_t *t = p->priv;
    pz_state_t s = *state;
    int nmove = 0;
    size_t i = 0;

    while (text[i] != '\0') {
        size_t start;
        long v;

        if (is_move_sep(text[i])) {
            i++;
            continue;
        }
        start = i;
        while (text[i] != '\0' && !is_move_sep(text[i])) {
            i++;
        }
        if (parse_int(text + start, i - start, &v)) {
            int rc = slide_tile(t, v, ++nmove, start, &s, d);

            if (rc != PZ_OK) {
                return rc;
            }
            continue;
        }
        for (size_t k = start; k < i; k++) {
            if (letter_move(text[k]) < 0) {
                return move_error(
                    d, start,
                    pz_diag_set(d, PZ_EMOVE,
                                "unknown move '%.*s'; write U D L R (the "
                                "direction the tile slides, runs like ULDR "
                                "allowed) or tile numbers",
                                (int)(i - start < 16 ? i - start : 16),
                                text + start));
            }
        }
        /* A run of letters: each is one move, checked where it is. */
        for (size_t k = start; k < i; k++) {
            int m = letter_move(text[k]);

            nmove++;
            if (!tiles__apply(p, &s, m, &s)) {
                return move_error(d, k,
                                  pz_diag_set(d, PZ_EMOVE, "move %d (%s): %s",
                                              nmove, tiles__move_names[m],
                                              move_blocked[m]));
            }
        }
    }
    *state = s;
    return PZ_OK;
}

/* The colour of a tile (a light wood). */
#define TILE_RGB 0xF0D9A8u

/* Room left between neighbouring tiles, in units. */
#define TILE_GAP 0.06

int
tiles__picture(const pz_puzzle_t *p, const pz_state_t *s, puzzle_picture_t *out)
{
    const tiles_priv_t *t = p->priv;

    out->width = t->cols;
    out->height = t->rows;
    for (int i = 0; i < t->cells; i++) {
        double x0 = i % t->cols + TILE_GAP / 2;
        double y0 = i / t->cols + TILE_GAP / 2;
        double x[4] = { x0, x0 + 1 - TILE_GAP, x0 + 1 - TILE_GAP, x0 };
        double y[4] = { y0, y0, y0 + 1 - TILE_GAP, y0 + 1 - TILE_GAP };
        puzzle_shape_t *sh = puzzle_picture_add(
            out, 4, x, y, s->b[i] == 0 ? PUZZLE_NO_FILL : TILE_RGB);

        if (sh == NULL) {
            return PZ_EINTERNAL;
        }
        if (s->b[i] != 0) {
            snprintf(sh->label, sizeof(sh->label), "%d", s->b[i]);
        }
    }
    return PZ_OK;
}
