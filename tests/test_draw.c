/* SPDX-License-Identifier: MIT */
/* test_draw.c - the pictures puzzles draw of their states (puzzle_draw). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "puzzle.h"
#include "puzzles/cubeface.h"
#include "puzzles/trinet.h"
#include "testlib.h"

/*
 * Design: every puzzle draws one shape per sticker (per cell for the
 * tiles) in the order of its state string, so a picture can be checked
 * against the state's text form (the colour of shape i is the colour of
 * letter i) and against geometry (a move changes the stickers it turns,
 * found where the net puts them).
 */

/* A picture, on the heap (about 11 KiB). */
static puzzle_picture_t *
drawn(const pz_puzzle_t *p, const pz_state_t *s)
{
    puzzle_picture_t *pic = malloc(sizeof(*pic));

    ck_assert_ptr_nonnull(pic);
    ck_assert_int_eq(puzzle_draw(p, s, pic), PZ_OK);
    return pic;
}

static void
centroid(const puzzle_shape_t *sh, double *x, double *y)
{
    *x = 0;
    *y = 0;
    for (int i = 0; i < sh->npoints; i++) {
        *x += sh->x[i] / sh->npoints;
        *y += sh->y[i] / sh->npoints;
    }
}

/* The colour a state string's letter stands for. */
static uint32_t
letter_rgb(const char *faces, char c, bool tri)
{
    const char *at = strchr(faces, c);

    ck_assert_ptr_nonnull(at);
    return tri ? trinet_colour((int)(at - faces))
               : cubeface_colour((int)(at - faces));
}

/* Every shape lies in the extent, and shape i shows letter i of the state
 * string: it has its colour and names it as its sticker. */
static void
assert_matches_text(const pz_puzzle_t *p,
                    const pz_state_t *s,
                    const char *faces,
                    bool tri)
{
    puzzle_picture_t *pic = drawn(p, s);
    char text[128];
    int n = puzzle_format_state(p, s, text, sizeof(text));

    ck_assert_int_gt(n, 0);
    ck_assert_int_eq(pic->nshapes, n);
    for (int i = 0; i < n; i++) {
        const puzzle_shape_t *sh = &pic->shape[i];

        ck_assert_msg(sh->rgb == letter_rgb(faces, text[i], tri),
                      "%s shape %d: %06x, letter %c", p->id, i, sh->rgb,
                      text[i]);
        /* An editor changes letter i when shape i is clicked. */
        ck_assert_int_eq(sh->sticker, i);
        for (int k = 0; k < sh->npoints; k++) {
            ck_assert(sh->x[k] >= 0 && sh->x[k] <= pic->width);
            ck_assert_msg(sh->y[k] >= 0 && sh->y[k] <= pic->height,
                          "%s shape %d: y %.17g of %.17g", p->id, i, sh->y[k],
                          pic->height);
        }
    }
    free(pic);
}

/* Number of shapes whose fill differs between a and b (same puzzle). */
static int
changed(const puzzle_picture_t *a, const puzzle_picture_t *b, bool *which)
{
    int n = 0;

    ck_assert_int_eq(a->nshapes, b->nshapes);
    for (int i = 0; i < a->nshapes; i++) {
        which[i] = a->shape[i].rgb != b->shape[i].rgb;
        n += which[i];
    }
    return n;
}

START_TEST(test_draw_solved_faces_one_colour)
{
    static const struct {
        const char *name;
        int per_face;
        int faces;
    } cases[] = {
        { "2x2x2", 4, 6 },
        { "3x3x3", 9, 6 },
        { "skewb", 5, 6 },
        { "pyraminx", 9, 4 },
        { "master-pyraminx", 16, 4 },
    };
    static const uint32_t cube[6] = {
        PUZZLE_RGB_WHITE,  PUZZLE_RGB_RED,    PUZZLE_RGB_GREEN,
        PUZZLE_RGB_YELLOW, PUZZLE_RGB_ORANGE, PUZZLE_RGB_BLUE,
    };
    static const uint32_t tetra[4] = {
        PUZZLE_RGB_GREEN,
        PUZZLE_RGB_RED,
        PUZZLE_RGB_BLUE,
        PUZZLE_RGB_YELLOW,
    };

    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        pz_puzzle_t *p = tl_make(cases[c].name, 0, 0, 0);
        pz_state_t goal;
        puzzle_picture_t *pic;

        puzzle_goal(p, &goal);
        pic = drawn(p, &goal);
        ck_assert_int_eq(pic->nshapes, cases[c].per_face * cases[c].faces);
        for (int i = 0; i < pic->nshapes; i++) {
            int f = i / cases[c].per_face;

            ck_assert_msg(pic->shape[i].rgb ==
                              (cases[c].faces == 6 ? cube[f] : tetra[f]),
                          "%s shape %d", cases[c].name, i);
            ck_assert_str_eq(pic->shape[i].label, "");
        }
        free(pic);
        puzzle_destroy(p);
    }
}
END_TEST

START_TEST(test_draw_scrambled_colours_follow_the_stickers)
{
    pz_puzzle_t *p;
    pz_state_t s;

    p = tl_make("3x3x3", 0, 0, 0);
    s = tl_scrambled(p, "R U F2 L' D B' R2 U'");
    assert_matches_text(p, &s, "URFDLB", false);
    puzzle_destroy(p);
    p = tl_make("2x2x2", 0, 0, 0);
    s = tl_scrambled(p, "R U' F2 R' U");
    assert_matches_text(p, &s, "URFDLB", false);
    puzzle_destroy(p);
    p = tl_make("skewb", 0, 0, 0);
    s = tl_scrambled(p, "R U L' B R' U'");
    assert_matches_text(p, &s, "URFDLB", false);
    puzzle_destroy(p);
    p = tl_make("pyraminx", 0, 0, 0);
    s = tl_scrambled(p, "U L' R B' u r'");
    assert_matches_text(p, &s, "FLRD", true);
    puzzle_destroy(p);
    p = tl_make("master-pyraminx", 0, 0, 0);
    s = tl_scrambled(p, "U L' 3Rw b 2B' 3L");
    assert_matches_text(p, &s, "FLRD", true);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_draw_cube3_r_changes_the_right_columns)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, 0);
    pz_state_t goal;
    pz_state_t s = tl_scrambled(p, "R");
    puzzle_picture_t *a;
    puzzle_picture_t *b;
    bool which[PUZZLE_PICTURE_SHAPES];
    double fx;
    double fy;
    double bx;
    double by;

    puzzle_goal(p, &goal);
    a = drawn(p, &goal);
    b = drawn(p, &s);
    /* From solved, R changes the right column of U, F and D and the left
     * column of B (the R face turns but stays red). */
    ck_assert_int_eq(changed(a, b, which), 12);
    cubeface_net_origin(3, CUBEFACE_F, &fx, &fy);
    cubeface_net_origin(3, CUBEFACE_B, &bx, &by);
    for (int i = 0; i < b->nshapes; i++) {
        double x;
        double y;

        if (!which[i]) {
            continue;
        }
        centroid(&b->shape[i], &x, &y);
        ck_assert_msg((x > fx + 2 && x < fx + 3) || (x > bx && x < bx + 1),
                      "shape %d at %g", i, x);
        /* The U face's column now shows F's green. */
        if (i < 9) {
            ck_assert_uint_eq(b->shape[i].rgb, PUZZLE_RGB_GREEN);
        }
    }
    free(a);
    free(b);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_draw_cube2_r_changes_eight_stickers)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, 0);
    pz_state_t goal;
    pz_state_t s = tl_scrambled(p, "R");
    puzzle_picture_t *a;
    puzzle_picture_t *b;
    bool which[PUZZLE_PICTURE_SHAPES];

    puzzle_goal(p, &goal);
    a = drawn(p, &goal);
    b = drawn(p, &s);
    ck_assert_int_eq(changed(a, b, which), 8);
    /* U's right column (facelets 1 and 3) shows green. */
    ck_assert(which[1] && which[3] && !which[0] && !which[2]);
    ck_assert_uint_eq(b->shape[1].rgb, PUZZLE_RGB_GREEN);
    free(a);
    free(b);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_draw_skewb_r_turns_the_dbr_half)
{
    /* R turns the half at DBR: stickers of DBR, its neighbours DBL, UBR
     * and DFR, and the R, D and B centres (docs/skewb.md). */
    static const int half[] = { 1,  6,  7,  8,  9,  14, 16, 17,
                                18, 19, 23, 25, 27, 28, 29 };
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t goal;
    pz_state_t s = tl_scrambled(p, "R");
    puzzle_picture_t *a;
    puzzle_picture_t *b;
    bool which[PUZZLE_PICTURE_SHAPES];
    double ox;
    double oy;
    double x;
    double y;

    puzzle_goal(p, &goal);
    a = drawn(p, &goal);
    b = drawn(p, &s);
    ck_assert_int_eq(changed(a, b, which), 15);
    for (size_t k = 0; k < sizeof(half) / sizeof(half[0]); k++) {
        ck_assert_msg(which[half[k]], "sticker %d", half[k]);
    }
    /* A centre is a diamond in the middle of its face square. */
    cubeface_net_origin(2, CUBEFACE_R, &ox, &oy);
    ck_assert_int_eq(b->shape[7].npoints, 4);
    centroid(&b->shape[7], &x, &y);
    ck_assert(fabs(x - (ox + 1)) < 1e-9 && fabs(y - (oy + 1)) < 1e-9);
    ck_assert_int_eq(b->shape[5].npoints, 3);
    free(a);
    free(b);
    puzzle_destroy(p);
}
END_TEST

/* The U vertex sits at the top middle of a net of faces n units wide. */
static void
assert_changes_near_u(const char *name, const char *scramble, int want, int n)
{
    pz_puzzle_t *p = tl_make(name, 0, 0, 0);
    pz_state_t goal;
    pz_state_t s = tl_scrambled(p, scramble);
    puzzle_picture_t *a;
    puzzle_picture_t *b;
    bool which[PUZZLE_PICTURE_SHAPES];
    /* Stickers of the two layers at U lie within about 1.6 units of it,
     * the next layer's from about 2.1 (a unit: a sticker's side). */
    double radius = want == 3 ? 1.0 : 1.85;

    puzzle_goal(p, &goal);
    a = drawn(p, &goal);
    b = drawn(p, &s);
    ck_assert_int_eq(changed(a, b, which), want);
    for (int i = 0; i < b->nshapes; i++) {
        double x;
        double y;
        double r;

        centroid(&b->shape[i], &x, &y);
        r = hypot(x - n, y);
        ck_assert_msg(which[i] == (r < radius), "%s %s: shape %d at %g", name,
                      scramble, i, r);
    }
    free(a);
    free(b);
    puzzle_destroy(p);
}

START_TEST(test_draw_pyraminx_u_changes_the_top)
{
    pz_puzzle_t *p = tl_make("pyraminx", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "U");
    puzzle_picture_t *b = drawn(p, &s);

    /* The two layers at U: four stickers on each of F, L and R. */
    assert_changes_near_u("pyraminx", "U", 12, 3);
    /* F's top part moves to L, and R's to F: F shows blue up there. */
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(b->shape[i].rgb, PUZZLE_RGB_BLUE);
    }
    free(b);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_draw_mpyraminx_moves_change_the_top)
{
    /* The tip alone: sticker 1 of F, L and R. */
    assert_changes_near_u("master-pyraminx", "u", 3, 4);
    /* Tip and second layer, as the Pyraminx's U. */
    assert_changes_near_u("master-pyraminx", "U", 12, 4);
}
END_TEST

START_TEST(test_draw_tiles_labels_and_blank)
{
    pz_puzzle_t *p = tl_make("tiles", 3, 4, 0);
    pz_state_t goal;
    pz_state_t s;
    puzzle_picture_t *pic;
    char want[8];

    puzzle_goal(p, &goal);
    pic = drawn(p, &goal);
    ck_assert_int_eq(pic->nshapes, 12);
    ck_assert(pic->width == 4 && pic->height == 3);
    for (int i = 0; i < 11; i++) {
        snprintf(want, sizeof(want), "%d", i + 1);
        ck_assert_str_eq(pic->shape[i].label, want);
        ck_assert_uint_ne(pic->shape[i].rgb, PUZZLE_NO_FILL);
        /* Cell i is number i of the text form, "1 2 3 4 / ...". */
        ck_assert_int_eq(pic->shape[i].sticker, i);
    }
    ck_assert_str_eq(pic->shape[11].label, "");
    ck_assert_uint_eq(pic->shape[11].rgb, PUZZLE_NO_FILL);
    free(pic);
    /* D: the tile above the blank (8) slides down into the last cell. */
    s = tl_scrambled(p, "D");
    pic = drawn(p, &s);
    ck_assert_str_eq(pic->shape[11].label, "8");
    ck_assert_str_eq(pic->shape[7].label, "");
    ck_assert_uint_eq(pic->shape[7].rgb, PUZZLE_NO_FILL);
    free(pic);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_draw_every_puzzle_draws)
{
    for (const puzzle_ops_t *const *o = puzzle_registry(); *o != NULL; o++) {
        pz_puzzle_t *p = tl_make((*o)->name, 0, 0, 0);
        pz_state_t goal;
        puzzle_picture_t *pic;

        ck_assert_msg(puzzle_can_draw(p), "%s", p->id);
        puzzle_goal(p, &goal);
        pic = drawn(p, &goal);
        ck_assert(pic->width > 0 && pic->height > 0);
        ck_assert_int_gt(pic->nshapes, 0);
        free(pic);
        puzzle_destroy(p);
    }
}
END_TEST

START_TEST(test_draw_puzzle_draw_unsupported_without_capability)
{
    puzzle_ops_t ops;
    pz_puzzle_t p;
    pz_state_t s;
    puzzle_picture_t *pic = malloc(sizeof(*pic));

    memset(&ops, 0, sizeof(ops));
    memset(&p, 0, sizeof(p));
    p.ops = &ops;
    state_clear(&s);
    ck_assert(!puzzle_can_draw(&p));
    ck_assert_int_eq(puzzle_draw(&p, &s, pic), PZ_EUNSUPPORTED);
    ck_assert_int_eq(pic->nshapes, 0);
    free(pic);
}
END_TEST

START_TEST(test_draw_picture_add_full_or_bad_points)
{
    puzzle_picture_t *pic = calloc(1, sizeof(*pic));
    double x[7] = { 0 };
    double y[7] = { 0 };

    ck_assert_ptr_null(puzzle_picture_add(pic, 2, x, y, 0));
    ck_assert_ptr_null(puzzle_picture_add(pic, 7, x, y, 0));
    for (int i = 0; i < PUZZLE_PICTURE_SHAPES; i++) {
        ck_assert_ptr_nonnull(puzzle_picture_add(pic, 3, x, y, 0));
    }
    ck_assert_ptr_null(puzzle_picture_add(pic, 3, x, y, 0));
    free(pic);
}
END_TEST

static Suite *
draw_suite(void)
{
    Suite *s = suite_create("draw");
    TCase *tc = tcase_create("draw");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_draw_solved_faces_one_colour);
    tcase_add_test(tc, test_draw_scrambled_colours_follow_the_stickers);
    tcase_add_test(tc, test_draw_cube3_r_changes_the_right_columns);
    tcase_add_test(tc, test_draw_cube2_r_changes_eight_stickers);
    tcase_add_test(tc, test_draw_skewb_r_turns_the_dbr_half);
    tcase_add_test(tc, test_draw_pyraminx_u_changes_the_top);
    tcase_add_test(tc, test_draw_mpyraminx_moves_change_the_top);
    tcase_add_test(tc, test_draw_tiles_labels_and_blank);
    tcase_add_test(tc, test_draw_every_puzzle_draws);
    tcase_add_test(tc, test_draw_puzzle_draw_unsupported_without_capability);
    tcase_add_test(tc, test_draw_picture_add_full_or_bad_points);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(draw_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
