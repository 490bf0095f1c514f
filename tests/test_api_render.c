/* SPDX-License-Identifier: MIT */
/* test_api_render.c - picture requests and the SVG documents they make. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "puzzle.h"
#include "render.h"

/* --- a small well-formedness check of the documents ------------------- */

/* Checks that text (between tags or inside quotes) uses only the five
 * XML entities and no '<'. */
static const char *
check_text(const char *s, const char *end)
{
    static const char *const entities[] = { "&amp;", "&lt;", "&gt;", "&quot;",
                                            "&apos;" };

    for (; s < end; s++) {
        bool ok = false;

        if (*s == '<') {
            return "'<' in text";
        }
        if (*s != '&') {
            continue;
        }
        for (size_t k = 0; k < 5; k++) {
            ok = ok || strncmp(s, entities[k], strlen(entities[k])) == 0;
        }
        if (!ok) {
            return "bare '&'";
        }
    }
    return NULL;
}

/* NULL when doc is one XML declaration and one balanced element tree with
 * quoted attributes and escaped text; else why not. */
static const char *
check_xml(const char *doc)
{
    const char *stack[16];
    size_t stack_len[16];
    int depth = 0;
    int roots = 0;
    const char *s = doc;

    if (strncmp(s, "<?xml ", 6) != 0) {
        return "no XML declaration";
    }
    s = strstr(s, "?>") + 2;
    while (*s != '\0') {
        const char *lt = strchr(s, '<');
        const char *why;
        const char *gt;
        const char *name;
        size_t n;

        if (lt == NULL) {
            lt = s + strlen(s);
        }
        if ((why = check_text(s, lt)) != NULL) {
            return why;
        }
        if (*lt == '\0') {
            break;
        }
        if (depth == 0 && roots > 0) {
            return "content after the root element";
        }
        /* A tag: the '>' that ends it is outside any quotes. */
        gt = lt + 1;
        while (*gt != '\0' && *gt != '>') {
            if (*gt == '"') {
                const char *q = strchr(gt + 1, '"');

                if (q == NULL || (why = check_text(gt + 1, q)) != NULL) {
                    return why != NULL ? why : "unterminated attribute";
                }
                gt = q;
            }
            gt++;
        }
        if (*gt != '>') {
            return "unterminated tag";
        }
        name = lt[1] == '/' ? lt + 2 : lt + 1;
        n = strcspn(name, " />");
        if (lt[1] == '/') {
            if (depth == 0 || stack_len[depth - 1] != n ||
                strncmp(stack[depth - 1], name, n) != 0) {
                return "unbalanced closing tag";
            }
            depth--;
        } else if (gt[-1] != '/') {
            if (depth == 16) {
                return "too deep";
            }
            if (depth == 0) {
                roots++;
            }
            stack[depth] = name;
            stack_len[depth++] = n;
        } else if (depth == 0) {
            return "empty element outside the root";
        }
        s = gt + 1;
    }
    return depth == 0 && roots == 1 ? NULL : "unclosed elements";
}

/* Occurrences of needle in hay. */
static int
count(const char *hay, const char *needle)
{
    int n = 0;

    for (const char *p = strstr(hay, needle); p != NULL;
         p = strstr(p + 1, needle)) {
        n++;
    }
    return n;
}

/* --- helpers --------------------------------------------------------- */

/* Parses q, which must succeed, and writes its document (owned). */
static char *
svg_of(const api_render_query_t *q)
{
    api_render_request_t req;
    pz_diag_t d;
    char *doc = NULL;
    size_t len = 0;
    const char *why;

    ck_assert_msg(api_render_parse(q, &req, &d) == PZ_OK, "%s", d.detail);
    ck_assert_int_eq(api_render_svg(req.puzzle, &req.state, req.px, &doc, &len),
                     PZ_OK);
    ck_assert_uint_eq(strlen(doc), len);
    why = check_xml(doc);
    ck_assert_msg(why == NULL, "%s in\n%s", why, doc);
    api_render_cleanup(&req);
    return doc;
}

/* Parses q, which must fail with rc and field. */
static pz_diag_t
refused(const api_render_query_t *q, int rc, const char *field)
{
    api_render_request_t req;
    pz_diag_t d;

    ck_assert_int_eq(api_render_parse(q, &req, &d), rc);
    ck_assert_int_eq(d.rc, rc);
    ck_assert_str_eq(d.field, field);
    ck_assert_ptr_null(req.puzzle);
    ck_assert(d.detail[0] != '\0');
    return d;
}

START_TEST(test_api_render_svg_cube3_solved)
{
    api_render_query_t q = { .puzzle = "3x3x3" };
    char *doc = svg_of(&q);

    ck_assert_ptr_nonnull(
        strstr(doc, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\""));
    ck_assert_ptr_nonnull(strstr(doc, " width=\"240\" height=\""));
    ck_assert_ptr_nonnull(strstr(doc, "<title>3x3x3</title>"));
    ck_assert_int_eq(count(doc, "<polygon "), 54);
    /* Each sticker names its place in the state's text form. */
    ck_assert_int_eq(count(doc, " data-i=\""), 54);
    ck_assert_ptr_nonnull(strstr(doc, " data-i=\"0\" fill=\"#ffffff\""));
    ck_assert_ptr_nonnull(strstr(doc, " data-i=\"53\" fill=\"#0051ba\""));
    ck_assert_int_eq(count(doc, "fill=\"#ffffff\""), 9);
    ck_assert_int_eq(count(doc, "fill=\"#009e60\""), 9);
    ck_assert_int_eq(count(doc, "<text"), 0);
    free(doc);
}
END_TEST

START_TEST(test_api_render_svg_every_puzzle_well_formed)
{
    static const char *const names[] = { "2x2x2",    "3x3x3",     "skewb",
                                         "pyraminx", "mpyraminx", "24-puzzle" };
    static const int shapes[] = { 24, 54, 30, 36, 64, 25 };

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        api_render_query_t q = { .puzzle = names[i], .px = "32" };
        char *doc = svg_of(&q);

        ck_assert_int_eq(count(doc, "<polygon "), shapes[i]);
        ck_assert_ptr_nonnull(strstr(doc, " width=\"32\" "));
        free(doc);
    }
}
END_TEST

START_TEST(test_api_render_svg_tiles_labels_and_blank)
{
    api_render_query_t q = {
        .puzzle = "tiles",
        .state = "1 2 3 4 / 5 6 7 8 / 9 10 11 12 / 13 14 0 15",
        .px = "400",
    };
    char *doc = svg_of(&q);

    /* The size comes from the state: 16 cells, 15 labels, one blank. */
    ck_assert_ptr_nonnull(strstr(doc, "<title>tiles 4x4</title>"));
    ck_assert_int_eq(count(doc, "<polygon "), 16);
    ck_assert_int_eq(count(doc, "<text "), 15);
    ck_assert_int_eq(count(doc, "fill=\"none\""), 1);
    ck_assert_ptr_nonnull(strstr(doc, ">15</text>"));
    ck_assert_ptr_nonnull(strstr(doc, " width=\"400\" height=\"400\""));
    free(doc);
}
END_TEST

START_TEST(test_api_render_svg_scramble_and_state_agree)
{
    api_render_query_t a = { .puzzle = "2x2x2", .scramble = "R U'" };
    api_render_query_t b = { .puzzle = "pocket",
                             .state = "UUUU RRRR FFFF DDDD LLLL BBBB" };
    char *da = svg_of(&a);
    char *db = svg_of(&b);
    const char *desc = strstr(da, "<desc>");

    /* The scrambled picture differs from solved; the state given as text
     * draws the same document as the scramble that makes it. */
    ck_assert_ptr_nonnull(desc);
    ck_assert_int_ne(count(da, "fill=\"#ffffff\""), 0);
    free(db);
    {
        char state[64];
        api_render_query_t c = { .puzzle = "2x2x2", .state = state };
        char *dc;

        ck_assert_int_eq(sscanf(desc, "<desc>%63[^<]", state), 1);
        dc = svg_of(&c);
        ck_assert_str_eq(da, dc);
        free(dc);
    }
    {
        /* A scramble with a state is played from that state: R from the
         * state R makes is R2 from solved. */
        api_render_query_t r = { .puzzle = "2x2x2", .scramble = "R" };
        api_render_query_t r2 = { .puzzle = "2x2x2", .scramble = "R2" };
        char state[64];
        api_render_query_t rr = { .puzzle = "2x2x2",
                                  .state = state,
                                  .scramble = "R" };
        char *dr = svg_of(&r);
        char *dr2 = svg_of(&r2);
        char *drr;

        ck_assert_int_eq(sscanf(strstr(dr, "<desc>"), "<desc>%63[^<]", state),
                         1);
        drr = svg_of(&rr);
        ck_assert_str_eq(drr, dr2);
        free(dr);
        free(dr2);
        free(drr);
    }
    free(da);
}
END_TEST

/* A puzzle of one shape whose name and label need escaping. */
static int
odd_picture(const pz_puzzle_t *p, const pz_state_t *s, puzzle_picture_t *out)
{
    static const double x[3] = { 0, 1, 0 };
    static const double y[3] = { 0, 0, 1 };
    puzzle_shape_t *sh;

    (void)p;
    (void)s;
    out->width = 1;
    out->height = 1;
    sh = puzzle_picture_add(out, 3, x, y, 0x101010);
    memcpy(sh->label, "<&>\"'\x01", 7);
    return PZ_OK;
}

START_TEST(test_api_render_svg_escapes_text)
{
    static const puzzle_draw_t draw = { .picture = odd_picture };
    puzzle_ops_t ops;
    pz_puzzle_t p;
    pz_state_t s;
    char *doc = NULL;
    size_t len;
    const char *why;

    memset(&ops, 0, sizeof(ops));
    memset(&p, 0, sizeof(p));
    ops.draw = &draw;
    p.ops = &ops;
    snprintf(p.id, sizeof(p.id), "a<b>&\"c'");
    state_clear(&s);
    ck_assert_int_eq(api_render_svg(&p, &s, 100, &doc, &len), PZ_OK);
    why = check_xml(doc);
    ck_assert_msg(why == NULL, "%s in\n%s", why, doc);
    ck_assert_ptr_nonnull(
        strstr(doc, "<title>a&lt;b&gt;&amp;&quot;c&apos;</title>"));
    ck_assert_ptr_nonnull(strstr(doc, ">&lt;&amp;&gt;&quot;&apos;</text>"));
    ck_assert_ptr_null(strchr(doc, '\x01'));
    /* A dark fill gets a light label. */
    ck_assert_ptr_nonnull(strstr(doc, "fill=\"#ffffff\">&lt;"));
    free(doc);
}
END_TEST

START_TEST(test_api_render_svg_px_out_of_range)
{
    pz_puzzle_t *p = NULL;
    pz_state_t s;
    char *doc = (char *)"x";
    size_t len;

    ck_assert_int_eq(puzzle_create("3x3x3", NULL, &p, NULL), PZ_OK);
    puzzle_goal(p, &s);
    ck_assert_int_eq(api_render_svg(p, &s, 31, &doc, &len), PZ_EINVAL);
    ck_assert_ptr_null(doc);
    ck_assert_int_eq(api_render_svg(p, &s, 2049, &doc, &len), PZ_EINVAL);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_api_render_parse_bad_input)
{
    api_render_query_t q;
    pz_diag_t d;

    q = (api_render_query_t){ .puzzle = "megaminx" };
    refused(&q, PZ_EPUZZLE, "/puzzle");
    q = (api_render_query_t){ .state = "UUUU" };
    refused(&q, PZ_EMISSING, "/puzzle");
    q = (api_render_query_t){ .puzzle = "3x3x3", .state = "UUUU" };
    refused(&q, PZ_ESTATE_LENGTH, "/state");
    q = (api_render_query_t){ .puzzle = "3x3x3", .scramble = "R U <b>" };
    d = refused(&q, PZ_EMOVE, "/scramble");
    ck_assert_int_eq(d.position, 4);
    q = (api_render_query_t){ .puzzle = "3x3x3",
                              .scramble = "R",
                              .state = "x" };
    refused(&q, PZ_ESTATE_LENGTH, "/state");
    q = (api_render_query_t){ .puzzle = "tiles", .size = "4x" };
    refused(&q, PZ_ESIZE, "/size");
    q = (api_render_query_t){ .puzzle = "tiles", .size = "9x9" };
    refused(&q, PZ_ESIZE, "/size");
    q = (api_render_query_t){ .puzzle = "8-puzzle",
                              .state = "1 2 3 4 5 6 7 8 8" };
    refused(&q, PZ_ETILES, "/state");
    q = (api_render_query_t){ .puzzle = "3x3x3", .px = "31" };
    refused(&q, PZ_ERANGE, "/px");
    q = (api_render_query_t){ .puzzle = "3x3x3", .px = "2049" };
    refused(&q, PZ_ERANGE, "/px");
    q = (api_render_query_t){ .puzzle = "3x3x3", .px = "" };
    refused(&q, PZ_ERANGE, "/px");
    q = (api_render_query_t){ .puzzle = "3x3x3", .px = "+100" };
    refused(&q, PZ_ERANGE, "/px");
    q = (api_render_query_t){ .puzzle = "3x3x3", .px = "99999999999999999" };
    refused(&q, PZ_ERANGE, "/px");
}
END_TEST

START_TEST(test_api_render_parse_defaults)
{
    api_render_query_t q = { .puzzle = "15-puzzle", .size = "junk" };
    api_render_request_t req;
    pz_state_t goal;
    pz_diag_t d;

    /* An alias brings its size; the default width; no state: solved. */
    ck_assert_int_eq(api_render_parse(&q, &req, &d), PZ_ESIZE);
    q.size = NULL;
    ck_assert_int_eq(api_render_parse(&q, &req, &d), PZ_OK);
    ck_assert_int_eq(req.px, API_RENDER_PX_DEFAULT);
    ck_assert_str_eq(req.puzzle->size, "4x4");
    puzzle_goal(req.puzzle, &goal);
    ck_assert(puzzle_equal(req.puzzle, &goal, &req.state));
    api_render_cleanup(&req);
    api_render_cleanup(&req);
    api_render_cleanup(NULL);
    /* Other puzzles ignore a size, as the solve request does. */
    q = (api_render_query_t){ .puzzle = "skewb", .size = "junk", .px = "2048" };
    ck_assert_int_eq(api_render_parse(&q, &req, &d), PZ_OK);
    ck_assert_int_eq(req.px, 2048);
    api_render_cleanup(&req);
}
END_TEST

static Suite *
api_render_suite(void)
{
    Suite *s = suite_create("api_render");
    TCase *tc = tcase_create("svg");

    tcase_add_test(tc, test_api_render_svg_cube3_solved);
    tcase_add_test(tc, test_api_render_svg_every_puzzle_well_formed);
    tcase_add_test(tc, test_api_render_svg_tiles_labels_and_blank);
    tcase_add_test(tc, test_api_render_svg_scramble_and_state_agree);
    tcase_add_test(tc, test_api_render_svg_escapes_text);
    tcase_add_test(tc, test_api_render_svg_px_out_of_range);
    suite_add_tcase(s, tc);
    tc = tcase_create("parse");
    tcase_add_test(tc, test_api_render_parse_bad_input);
    tcase_add_test(tc, test_api_render_parse_defaults);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(api_render_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
