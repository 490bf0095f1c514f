/* SPDX-License-Identifier: MIT */
/* skewb_testlib.h - the Skewb tests' shared names and helpers. */
#ifndef PZ_TESTS_SKEWB_TESTLIB_H
#define PZ_TESTS_SKEWB_TESTLIB_H

#include <check.h>

#include "puzzle.h"
#include "testlib.h"

/*
 * Golden facts: the published depth distribution of the Skewb (Jaap's
 * Puzzle Page, Skewb; OEIS A079745): 3,149,280 positions, God's number 11
 * with every turn (R R' U U' L L' B B') one move; and what a physical
 * Skewb shows after one turn (derived in the comment of the format test).
 * The breadth-first search of test_skewb.c indexes states with the
 * puzzle's own rank; that it is a perfect index is checked on the way
 * (every generated state survives unrank(rank(s)) unchanged, and every
 * index round-trips), so a rank that merged states would fail there and
 * in the counts.
 *
 * Facelet string: faces U R F D L B, 5 stickers each (top left, top
 * right, centre, bottom left, bottom right, as seen from outside with the
 * 3x3x3's conventions). State bytes (skewb_internal.h): byte f = centre at
 * face f; byte 6 + i = piece * 3 + twist of corner position i, positions
 * UFR UFL UBL UBR DFR DFL DBL DBR. Move ids: R R' U U' L L' B B'.
 */

#define NSTATES 3149280u
#define SOLVED  "UUUUURRRRRFFFFFDDDDDLLLLLBBBBB"

/* Move ids. */
enum {
    M_R = 0,
    M_RI,
    M_U,
    M_UI,
    M_L,
    M_LI,
    M_B,
    M_BI
};

/* Corner positions, and the byte of position i. */
enum {
    UFR,
    UFL,
    UBL,
    UBR,
    DFR,
    DFL,
    DBL,
    DBR
};

#define CB(i) (6 + (i))

/* Writes the facelet string of s (30 stickers) to buf. */
static inline void
format(const pz_puzzle_t *p, const pz_state_t *s, char buf[31])
{
    ck_assert_int_eq(puzzle_format_state(p, s, buf, 31), 30);
}

#endif
