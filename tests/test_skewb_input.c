/* SPDX-License-Identifier: MIT */
/* test_skewb_input.c - the Skewb's moves, stickers, scrambles and input
 * validation against physical facts. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "puzzle.h"
#include "skewb_testlib.h"

/* The encoding used: skewb_testlib.h. */

/* --- apply, inverse, redundant ------------------------------------------- */

START_TEST(test_skewb_apply_three_turns_are_identity)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "R U' B L R' U");

    for (int m = 0; m < 8; m++) {
        pz_state_t t = s;

        puzzle_apply(p, &t, m, &t);
        ck_assert(!puzzle_equal(p, &s, &t));
        puzzle_apply(p, &t, m, &t);
        ck_assert(!puzzle_equal(p, &s, &t));
        puzzle_apply(p, &t, m, &t);
        ck_assert(puzzle_equal(p, &s, &t));
        puzzle_apply(p, &t, puzzle_inverse(p, m), &t);
        puzzle_apply(p, &t, m, &t);
        ck_assert(puzzle_equal(p, &s, &t));
        /* X X = X' */
        t = s;
        puzzle_apply(p, &t, m, &t);
        puzzle_apply(p, &t, m, &t);
        {
            pz_state_t u = s;

            puzzle_apply(p, &u, puzzle_inverse(p, m), &u);
            ck_assert(puzzle_equal(p, &t, &u));
        }
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_apply_no_two_corners_commute)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t goal;

    puzzle_goal(p, &goal);
    for (int a = 0; a < 8; a++) {
        for (int b = 0; b < 8; b++) {
            pz_state_t x;
            pz_state_t y;

            if (a / 2 == b / 2) {
                continue;
            }
            puzzle_apply(p, &goal, a, &x);
            puzzle_apply(p, &x, b, &x);
            puzzle_apply(p, &goal, b, &y);
            puzzle_apply(p, &y, a, &y);
            ck_assert(!puzzle_equal(p, &x, &y));
        }
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_apply_ufr_never_moves)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_rng_t rng;
    pz_state_t s;

    puzzle_goal(p, &s);
    pz_rng_seed(&rng, 5);
    for (int i = 0; i < 1000; i++) {
        char buf[31];

        puzzle_apply(p, &s, (int)pz_rand_below(pz_rng_next, &rng, 8), &s);
        ck_assert_int_eq(s.b[CB(UFR)], 0);
        /* U9, R1 and F2 are UFR's stickers. */
        format(p, &s, buf);
        ck_assert(buf[4] == 'U' && buf[5] == 'R' && buf[11] == 'F');
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_redundant_same_corner_only)
{
    static const char *names[] = { "R", "R'", "U", "U'", "L", "L'", "B", "B'" };
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);

    for (int a = 0; a < 8; a++) {
        ck_assert_str_eq(puzzle_move_name(p, a), names[a]);
        ck_assert_int_eq(puzzle_inverse(p, puzzle_inverse(p, a)), a);
        ck_assert_int_ne(puzzle_inverse(p, a), a);
        for (int b = 0; b < 8; b++) {
            bool allowed = puzzle_allowed_after(p, a) >> b & 1;

            ck_assert_msg(allowed == (a / 2 != b / 2), "%s then %s", names[a],
                          names[b]);
        }
    }
    ck_assert_uint_eq(puzzle_allowed_after(p, -1), 0xffu);
    ck_assert_str_eq(puzzle_move_name(p, 8), "?");
    puzzle_destroy(p);
}
END_TEST

/* --- format_state: what a physical Skewb shows ---------------------------- */

START_TEST(test_skewb_format_state_goal_and_small_buffer)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t goal;
    char buf[31];

    puzzle_goal(p, &goal);
    format(p, &goal, buf);
    ck_assert_str_eq(buf, SOLVED);
    ck_assert_int_eq(puzzle_format_state(p, &goal, buf, 30), PZ_EINVAL);
    puzzle_destroy(p);
}
END_TEST

/*
 * U turns the UBL corner clockwise as seen looking at it: from there U is
 * on top, L on the right and B on the left, so U's part goes to L, L's to
 * B and B's to U. The half turned holds the centres U, L, B and the
 * corners UBL (twisting in place), UBR, UFL and DBL, which cycle DBL ->
 * UBR -> UFL -> DBL. Face by face (top left, top right, centre, bottom
 * left, bottom right):
 * - U: UBL, UBR, the centre and UFL take B's colour (UBL's B sticker,
 *   DBL's B sticker, B's centre, UBR's B sticker); UFR stays: BBBBU.
 * - R (UFR, UBR, centre, DFR, DBR): UBR's R sticker takes DBL's D: RDRRR.
 * - F (UFL, UFR, centre, DFL, DFR): UFL's F sticker takes UBR's R: RFFFF.
 * - D (DFL, DFR, centre, DBL, DBR): DBL's D sticker takes UFL's F: DDDFD.
 * - L (UBL, UFL, centre, DBL, DFL): UBL's and UFL's L stickers, the centre
 *   and DBL's take U's colour: UUUUL.
 * - B (UBR, UBL, centre, DBR, DBL): UBR's and UBL's B stickers, the centre
 *   and DBL's take L's colour: LLLBL.
 */
START_TEST(test_skewb_format_state_u_turn)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "U");
    char buf[31];

    format(p, &s, buf);
    ck_assert_str_eq(buf, "BBBBU"
                          "RDRRR"
                          "RFFFF"
                          "DDDFD"
                          "UUUUL"
                          "LLLBL");
    puzzle_destroy(p);
}
END_TEST

/* Each turn changes the stickers of its half only: the 3 centres and the
 * 12 corner stickers of 4 corners (the turned one twists in place), 15
 * of the 30. */
START_TEST(test_skewb_format_state_each_turn_moves_half)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t goal;

    puzzle_goal(p, &goal);
    for (int m = 0; m < 8; m++) {
        pz_state_t s;
        char buf[31];
        int changed = 0;

        puzzle_apply(p, &goal, m, &s);
        format(p, &s, buf);
        for (int i = 0; i < 30; i++) {
            changed += buf[i] != SOLVED[i];
        }
        ck_assert_int_eq(changed, 15);
    }
    puzzle_destroy(p);
}
END_TEST

/* --- parse_state --------------------------------------------------------- */

START_TEST(test_skewb_parse_state_any_colours_and_ints)
{
    static const char map[] = "WRGYOB"; /* U R F D L B */
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t s = tl_scrambled(p, "R U L' B R'");
    pz_state_t back;
    pz_diag_t d;
    char buf[31];
    char own[40];
    int ints[30];
    pz_input_t in = { NULL, ints, 30, 1, { 30, 0, 0 } };

    format(p, &s, buf);
    for (int i = 0; i < 30; i++) {
        own[i] = map[strchr("URFDLB", buf[i]) - "URFDLB"];
        ints[i] = 7 + (int)(strchr("URFDLB", buf[i]) - "URFDLB") * 3;
    }
    own[30] = '\0';
    ck_assert_int_eq(tl_parse_text(p, own, &back, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &back, &s));
    ck_assert_int_eq(puzzle_parse_state(p, &in, &back, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &back, &s));
    /* White space is skipped. */
    ck_assert_int_eq(
        tl_parse_text(p, "UUUUU RRRRR FFFFF\nDDDDD LLLLL BBBBB", &back, &d),
        PZ_OK);
    puzzle_goal(p, &s);
    ck_assert(puzzle_equal(p, &back, &s));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_parse_state_length_symbol_and_colour_errors)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t s;
    pz_diag_t d;
    int ints[31] = { 0 };
    pz_input_t in = { NULL, ints, 31, 1, { 31, 0, 0 } };

    ck_assert_int_eq(tl_parse_text(p, SOLVED + 1, &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_int_eq(puzzle_parse_state(p, &in, &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_int_eq(
        tl_parse_text(p, "UUUUURRRRRFFFFFDDDDDLLLLLBBBB\x01", &s, &d),
        PZ_ESTATE_SYMBOL);
    ck_assert_int_eq(d.position, 29);
    ck_assert_int_eq(tl_parse_text(p, "UUUUURRRRRFFFFFDDDDDLLLLLBBBBU", &s, &d),
                     PZ_ECOLOUR_COUNT);
    ck_assert_int_eq(tl_parse_text(p, "UUUUURRRRRFFFFFDDDDDLLLLLBBBBX", &s, &d),
                     PZ_ECOLOUR_COUNT);
    puzzle_destroy(p);
}
END_TEST

/* Swaps characters i and j of the solved string and parses it. */
static int
parse_swapped(const pz_puzzle_t *p, int i, int j, pz_diag_t *d)
{
    char buf[31];
    char c;
    pz_state_t s;

    memcpy(buf, SOLVED, sizeof(buf));
    c = buf[i];
    buf[i] = buf[j];
    buf[j] = c;
    return tl_parse_text(p, buf, &s, d);
}

START_TEST(test_skewb_parse_state_bad_stickers)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_diag_t d;

    /* U's centre (U3) and R1 (on UFR): two R centres. */
    ck_assert_int_eq(parse_swapped(p, 2, 5, &d), PZ_ECENTRES);
    ck_assert_msg(strstr(d.detail, "U3") != NULL, "%s", d.detail);
    /* U4 (UFL's U sticker) and F4 (DFL's F sticker): UFL shows F twice. */
    ck_assert_int_eq(parse_swapped(p, 3, 13, &d), PZ_ECORNER);
    ck_assert_msg(strstr(d.detail, "repeats") != NULL, "%s", d.detail);
    /* U4 and F1, UFL's U and F stickers: a mirror image of UFL. */
    ck_assert_int_eq(parse_swapped(p, 3, 10, &d), PZ_ECORNER);
    ck_assert_msg(strstr(d.detail, "mirror") != NULL &&
                      strstr(d.detail, "UFL") != NULL,
                  "%s", d.detail);
    /* F1 (UFL) and D5 (DBR): UFL shows U and D, DBR F and B. */
    ck_assert_int_eq(parse_swapped(p, 10, 19, &d), PZ_ECORNER);
    ck_assert_msg(strstr(d.detail, "opposite") != NULL, "%s", d.detail);
    puzzle_destroy(p);
}
END_TEST

/* Formats a state that breaks a rule and parses it back. */
static int
parse_bytes(const pz_puzzle_t *p, const pz_state_t *s, pz_diag_t *d)
{
    char buf[31];
    pz_state_t back;

    format(p, s, buf);
    return tl_parse_text(p, buf, &back, d);
}

START_TEST(test_skewb_parse_state_invariants)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t goal;
    pz_state_t s;
    pz_diag_t d;

    puzzle_goal(p, &goal);
    /* UBL shows the UFL piece, and DFR the DBR piece. */
    s = goal;
    s.b[CB(UBL)] = UFL * 3;
    s.b[CB(DFR)] = DBR * 3;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_EDUPLICATE);
    /* UBL and UFL swapped: corners of the two tetrads. */
    s = goal;
    s.b[CB(UBL)] = UFL * 3;
    s.b[CB(UFL)] = UBL * 3;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_EPARITY);
    ck_assert_msg(strstr(d.detail, "never mix") != NULL, "%s", d.detail);
    /* UBL and DFL swapped, UFL and UBR swapped, U and R centres
     * swapped: odd permutations. */
    s = goal;
    s.b[CB(UBL)] = DFL * 3;
    s.b[CB(DFL)] = UBL * 3;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_EPARITY);
    s = goal;
    s.b[CB(UFL)] = UBR * 3;
    s.b[CB(UBR)] = UFL * 3;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_EPARITY);
    s = goal;
    s.b[0] = 1;
    s.b[1] = 0;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_EPARITY);
    ck_assert_msg(strstr(d.detail, "centres") != NULL, "%s", d.detail);
    /* One corner of either tetrad twisted in place. */
    s = goal;
    s.b[CB(UBL)] = UBL * 3 + 1;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_ETWIST);
    s = goal;
    s.b[CB(DFR)] = DFR * 3 + 2;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_ETWIST);
    /* Two twists that cancel within a tetrad are a real position: the
     * twist sums are the only twist rule. */
    s = goal;
    s.b[CB(UBL)] = UBL * 3 + 1;
    s.b[CB(DBR)] = DBR * 3 + 2;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_OK);
    ck_assert_uint_lt(puzzle_rank(p, &s), NSTATES);
    /* R cycles three corners of B and twists DBR: the cycle without
     * the twist breaks A's twist rule. */
    s = tl_scrambled(p, "R");
    s.b[CB(DBR)] = DBR * 3;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_ETWIST);
    puzzle_destroy(p);
}
END_TEST

/* --- apply_scramble ------------------------------------------------------ */

START_TEST(test_skewb_apply_scramble_notation)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_state_t goal;
    pz_state_t s;
    pz_state_t t;

    puzzle_goal(p, &goal);
    s = goal;
    puzzle_apply(p, &s, M_R, &s);
    puzzle_apply(p, &s, M_U, &s);
    puzzle_apply(p, &s, M_LI, &s);
    puzzle_apply(p, &s, M_B, &s);
    t = tl_scrambled(p, "R U L' B");
    ck_assert(puzzle_equal(p, &s, &t));
    t = tl_scrambled(p, "RUL'B");
    ck_assert(puzzle_equal(p, &s, &t));
    t = tl_scrambled(p, "  R\tU L\xe2\x80\x99 B ");
    ck_assert(puzzle_equal(p, &s, &t));
    /* R2 is R twice: R', as a turn of order 3; R2' is R. */
    s = tl_scrambled(p, "R2");
    t = tl_scrambled(p, "R'");
    ck_assert(puzzle_equal(p, &s, &t));
    s = tl_scrambled(p, "B2'");
    t = tl_scrambled(p, "B");
    ck_assert(puzzle_equal(p, &s, &t));
    s = tl_scrambled(p, "");
    ck_assert(puzzle_equal(p, &s, &goal));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_apply_scramble_bad_token_position)
{
    static const struct {
        const char *text;
        int position;
    } cases[] = {
        { "F", 0 },      { "R U D", 4 },    { "R3", 0 },   { "r", 0 },
        { "R U x", 4 },  { "R''", 0 },      { "U Rw", 2 }, { "L B R'2", 4 },
        { "R U  ?", 5 }, { "BR UL F'", 6 },
    };
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pz_state_t s;
        pz_diag_t d;

        pz_diag_clear(&d);
        ck_assert_msg(puzzle_parse_scramble(p, cases[i].text, &s, &d) ==
                          PZ_EMOVE,
                      "'%s' accepted", cases[i].text);
        ck_assert_msg(d.position == cases[i].position, "'%s': position %d",
                      cases[i].text, d.position);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_apply_scramble_round_trip)
{
    pz_puzzle_t *p = tl_make("skewb", 0, 0, 0);
    pz_rng_t rng;
    pz_state_t goal;

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 7);
    for (int trial = 0; trial < 50; trial++) {
        uint8_t moves[20];
        uint8_t inv[20];
        char text[200];
        pz_state_t s;
        pz_state_t back;

        ck_assert_int_eq(
            puzzle_random_moves(p, &goal, 20, pz_rng_next, &rng, moves), PZ_OK);
        ck_assert_int_ge(puzzle_format_moves(p, moves, 20, text, sizeof(text)),
                         0);
        s = tl_scrambled(p, text);
        for (int i = 0; i < 20; i++) {
            inv[i] = (uint8_t)puzzle_inverse(p, moves[19 - i]);
        }
        ck_assert_int_eq(puzzle_replay(p, &s, inv, 20, &back), PZ_OK);
        ck_assert(puzzle_equal(p, &back, &goal));
    }
    puzzle_destroy(p);
}
END_TEST

static Suite *
skewb_input_suite(void)
{
    Suite *s = suite_create("skewb_input");
    TCase *tc_apply = tcase_create("apply");
    TCase *tc_format = tcase_create("format_state");
    TCase *tc_parse = tcase_create("parse_state");
    TCase *tc_scramble = tcase_create("apply_scramble");

    tcase_add_test(tc_apply, test_skewb_apply_three_turns_are_identity);
    tcase_add_test(tc_apply, test_skewb_apply_no_two_corners_commute);
    tcase_add_test(tc_apply, test_skewb_apply_ufr_never_moves);
    tcase_add_test(tc_apply, test_skewb_redundant_same_corner_only);
    suite_add_tcase(s, tc_apply);

    tcase_add_test(tc_format, test_skewb_format_state_goal_and_small_buffer);
    tcase_add_test(tc_format, test_skewb_format_state_u_turn);
    tcase_add_test(tc_format, test_skewb_format_state_each_turn_moves_half);
    suite_add_tcase(s, tc_format);

    tcase_add_test(tc_parse, test_skewb_parse_state_any_colours_and_ints);
    tcase_add_test(tc_parse,
                   test_skewb_parse_state_length_symbol_and_colour_errors);
    tcase_add_test(tc_parse, test_skewb_parse_state_bad_stickers);
    tcase_add_test(tc_parse, test_skewb_parse_state_invariants);
    suite_add_tcase(s, tc_parse);

    tcase_add_test(tc_scramble, test_skewb_apply_scramble_notation);
    tcase_add_test(tc_scramble, test_skewb_apply_scramble_bad_token_position);
    tcase_add_test(tc_scramble, test_skewb_apply_scramble_round_trip);
    suite_add_tcase(s, tc_scramble);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(skewb_input_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
