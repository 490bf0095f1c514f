/* SPDX-License-Identifier: MIT */
/* render.c - pictures of puzzle states as SVG, and the requests for them. */
#include "render.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "request.h"

/*
 * Design: a puzzle describes a state as polygons in its own units
 * (puzzle_draw); this file only maps them to SVG. The viewBox is the
 * puzzle's extent plus a margin, so the document scales to any size; px
 * fixes the width attribute and the height follows the proportions. Only
 * texts this file chooses or the puzzle formats reach the document (the
 * caller's own text never does), and each of them goes through
 * put_escaped all the same, so the document stays well-formed XML
 * whatever a puzzle's name, label or state form holds.
 */

/* Margin around the picture, as a fraction of its larger side. */
#define MARGIN 0.03

/* Outline of every shape: colour and width in the puzzle's units (a
 * sticker or a tile is about one unit wide). */
#define STROKE       "#222222"
#define STROKE_WIDTH 0.04

/* Labels: size in units, and the colours on light and on dark fills. */
#define LABEL_SIZE  0.45
#define LABEL_DARK  "#222222"
#define LABEL_LIGHT "#ffffff"

/* A growing text buffer; failed once an allocation failed. */
typedef struct svgbuf {
    char *p;
    size_t len;
    size_t cap;
    bool failed;
} svgbuf_t;

static bool
reserve(svgbuf_t *b, size_t more)
{
    size_t cap = b->cap != 0 ? b->cap : 4096;
    char *p;

    if (b->failed) {
        return false;
    }
    if (b->len + more + 1 <= b->cap) {
        return true;
    }
    while (cap < b->len + more + 1) {
        cap *= 2;
    }
    p = realloc(b->p, cap);
    if (p == NULL) {
        b->failed = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

static void put(svgbuf_t *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void
put(svgbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(b, (size_t)n)) {
        b->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Appends s escaped for XML text and attribute values. Characters XML
 * 1.0 does not allow (controls other than tab and newline) are dropped;
 * the text comes from our own formatting, which is ASCII. */
static void
put_escaped(svgbuf_t *b, const char *s)
{
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;

        switch (c) {
        case '&':
            put(b, "&amp;");
            break;
        case '<':
            put(b, "&lt;");
            break;
        case '>':
            put(b, "&gt;");
            break;
        case '"':
            put(b, "&quot;");
            break;
        case '\'':
            put(b, "&apos;");
            break;
        default:
            if (c >= 0x20 || c == '\t' || c == '\n') {
                put(b, "%c", c);
            }
            break;
        }
    }
}

/* True when text on rgb reads better white than dark (relative
 * luminance below about a half, with the sRGB weights). */
static bool
is_dark(uint32_t rgb)
{
    unsigned r = rgb >> 16 & 0xff;
    unsigned g = rgb >> 8 & 0xff;
    unsigned bl = rgb & 0xff;

    return 2126 * r + 7152 * g + 722 * bl < 10000u * 128;
}

/* The centre of a shape's corners, where its label goes. */
static void
centre(const puzzle_shape_t *sh, double *x, double *y)
{
    *x = 0;
    *y = 0;
    for (int i = 0; i < sh->npoints; i++) {
        *x += sh->x[i] / sh->npoints;
        *y += sh->y[i] / sh->npoints;
    }
}

/* The title: the puzzle and its size when it has several. */
static void
put_title(svgbuf_t *b, const pz_puzzle_t *p)
{
    put(b, "<title>");
    put_escaped(b, p->id);
    if (p->size[0] != '\0') {
        put(b, " ");
        put_escaped(b, p->size);
    }
    put(b, "</title>\n");
}

/* The description: the state's text form, when the puzzle has one. */
static void
put_desc(svgbuf_t *b, const pz_puzzle_t *p, const pz_state_t *s)
{
    char text[512];

    if (puzzle_format_state(p, s, text, sizeof(text)) < 0) {
        return;
    }
    put(b, "<desc>");
    put_escaped(b, text);
    put(b, "</desc>\n");
}

static void
put_shapes(svgbuf_t *b, const puzzle_picture_t *pic)
{
    put(b,
        "<g stroke=\"" STROKE "\" stroke-width=\"%g\" "
        "stroke-linejoin=\"round\">\n",
        STROKE_WIDTH);
    for (int i = 0; i < pic->nshapes; i++) {
        const puzzle_shape_t *sh = &pic->shape[i];

        put(b, "<polygon points=\"");
        for (int k = 0; k < sh->npoints; k++) {
            put(b, "%s%.3f,%.3f", k > 0 ? " " : "", sh->x[k], sh->y[k]);
        }
        put(b, "\"");
        if (sh->sticker >= 0) {
            put(b, " data-i=\"%d\"", sh->sticker);
        }
        if (sh->rgb == PUZZLE_NO_FILL) {
            put(b, " fill=\"none\"/>\n");
        } else {
            put(b, " fill=\"#%06x\"/>\n", (unsigned)(sh->rgb & 0xffffffu));
        }
    }
    put(b, "</g>\n");
}

static void
put_labels(svgbuf_t *b, const puzzle_picture_t *pic)
{
    bool any = false;

    for (int i = 0; i < pic->nshapes; i++) {
        const puzzle_shape_t *sh = &pic->shape[i];
        double x;
        double y;

        if (sh->label[0] == '\0') {
            continue;
        }
        if (!any) {
            put(b,
                "<g font-family=\"sans-serif\" font-size=\"%g\" "
                "font-weight=\"bold\" text-anchor=\"middle\">\n",
                LABEL_SIZE);
            any = true;
        }
        /* On the baseline, digits stand about 0.7 em tall: lowering the
         * baseline by half that centres them (dominant-baseline is not
         * read by every renderer). */
        centre(sh, &x, &y);
        y += LABEL_SIZE * 0.35;
        put(b, "<text x=\"%.3f\" y=\"%.3f\" fill=\"%s\">", x, y,
            sh->rgb != PUZZLE_NO_FILL && is_dark(sh->rgb) ? LABEL_LIGHT
                                                          : LABEL_DARK);
        /* The label is a fixed-size field: never read past it. */
        char label[PUZZLE_LABEL_MAX];

        memcpy(label, sh->label, sizeof(label));
        label[sizeof(label) - 1] = '\0';
        put_escaped(b, label);
        put(b, "</text>\n");
    }
    if (any) {
        put(b, "</g>\n");
    }
}

int
api_render_svg(const pz_puzzle_t *p,
               const pz_state_t *s,
               int px,
               char **out,
               size_t *len)
{
    puzzle_picture_t *pic;
    svgbuf_t b = { 0 };
    double margin;
    double vw;
    double vh;
    long height;
    int rc;

    *out = NULL;
    *len = 0;
    if (px < API_RENDER_PX_MIN || px > API_RENDER_PX_MAX) {
        return PZ_EINVAL;
    }
    if (!puzzle_can_draw(p)) {
        return PZ_EUNSUPPORTED;
    }
    /* About 11 KiB: not on the stack of an HTTP thread. */
    pic = malloc(sizeof(*pic));
    if (pic == NULL) {
        return PZ_ENOMEM;
    }
    rc = puzzle_draw(p, s, pic);
    if (rc == PZ_OK && (!(pic->width > 0) || !(pic->height > 0))) {
        rc = PZ_EINTERNAL;
    }
    if (rc != PZ_OK) {
        free(pic);
        return rc;
    }
    margin = MARGIN * (pic->width > pic->height ? pic->width : pic->height);
    vw = pic->width + 2 * margin;
    vh = pic->height + 2 * margin;
    height = (long)(px * vh / vw + 0.5);
    put(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    put(&b,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" "
        "viewBox=\"%.3f %.3f %.3f %.3f\" width=\"%d\" height=\"%ld\">\n",
        -margin, -margin, vw, vh, px, height > 0 ? height : 1);
    put_title(&b, p);
    put_desc(&b, p, s);
    put_shapes(&b, pic);
    put_labels(&b, pic);
    put(&b, "</svg>\n");
    free(pic);
    if (b.failed) {
        free(b.p);
        return PZ_ENOMEM;
    }
    *out = b.p;
    *len = b.len;
    return PZ_OK;
}

/* --- the request --- */

/* Reads px: a decimal integer in range, no sign, no blanks. */
static int
parse_px(const char *text, int *px, pz_diag_t *d)
{
    long v = 0;
    int digits = 0;

    if (text == NULL) {
        *px = API_RENDER_PX_DEFAULT;
        return PZ_OK;
    }
    for (const char *c = text; *c != '\0'; c++) {
        if (*c < '0' || *c > '9' || digits >= 6) {
            v = -1;
            break;
        }
        v = v * 10 + (*c - '0');
        digits++;
    }
    if (digits == 0 || v < API_RENDER_PX_MIN || v > API_RENDER_PX_MAX) {
        pz_diag_set(d, PZ_ERANGE, "'px' must be an integer from %d to %d",
                    API_RENDER_PX_MIN, API_RENDER_PX_MAX);
        pz_diag_field(d, "/px");
        return PZ_ERANGE;
    }
    *px = (int)v;
    return PZ_OK;
}

/* The state of req from q: the state given (else the solved state), with
 * the scramble's moves applied to it. */
static int
parse_state(const api_render_query_t *q,
            api_render_request_t *req,
            pz_diag_t *d)
{
    pz_input_t in = { 0 };
    int rc;

    if (q->state != NULL) {
        in.text = q->state;
        rc = puzzle_parse_state(req->puzzle, &in, &req->state, d);
        if (rc != PZ_OK) {
            pz_diag_field(d, "/state");
            return rc;
        }
    } else {
        puzzle_goal(req->puzzle, &req->state);
    }
    if (q->scramble != NULL) {
        rc = puzzle_apply_scramble(req->puzzle, q->scramble, &req->state, d);
        if (rc != PZ_OK) {
            pz_diag_field(d, "/scramble");
        }
        return rc;
    }
    return PZ_OK;
}

int
api_render_parse(const api_render_query_t *q,
                 api_render_request_t *req,
                 pz_diag_t *d)
{
    int rc;

    memset(req, 0, sizeof(*req));
    pz_diag_clear(d);
    if (q->puzzle != NULL && (rc = parse_px(q->px, &req->px, d)) != PZ_OK) {
        return rc;
    }
    /* As in a solve request, the size is the sliding tiles' own: other
     * puzzles ignore it, and tiles without one take it from the state. */
    rc = api_puzzle_from_query(q->puzzle, q->size, NULL, q->state, &req->puzzle,
                               d);
    if (rc != PZ_OK) {
        return rc;
    }
    if (!puzzle_can_draw(req->puzzle)) {
        rc = pz_diag_set(d, PZ_EUNSUPPORTED, "%s has no pictures",
                         req->puzzle->id);
        pz_diag_field(d, "/puzzle");
        goto fail;
    }
    if ((rc = parse_state(q, req, d)) != PZ_OK) {
        goto fail;
    }
    return PZ_OK;
fail:
    api_render_cleanup(req);
    return rc;
}

void
api_render_cleanup(api_render_request_t *req)
{
    if (req == NULL) {
        return;
    }
    puzzle_destroy(req->puzzle);
    req->puzzle = NULL;
}
