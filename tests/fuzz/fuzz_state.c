/* SPDX-License-Identifier: MIT */
/* fuzz_state.c - libFuzzer target: every puzzle's state parser, with the
 * format/parse round trip as its oracle. */

/*
 * Input: a first line that picks the puzzle (fuzz_testlib.h), then the
 * state as a request gives it: a JSON array of integers or a JSON string
 * when it starts with '[' or '"', else the string itself. A refusal must
 * carry a well-formed diagnostic. A state that parses must format to text
 * that parses back to it and formats the same way again, must keep the
 * bytes past its size zero, must rank and unrank, and every move applied
 * to it must be undone by the move's inverse.
 */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_testlib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each legal move of s, then its inverse, gives s back. */
static void
check_moves(const pz_puzzle_t *p, const pz_state_t *s)
{
    for (int m = 0; m < p->nmoves; m++) {
        pz_state_t t;
        pz_state_t back;

        state_clear(&t);
        if (!puzzle_apply(p, s, m, &t)) {
            continue;
        }
        state_clear(&back);
        if (!puzzle_apply(p, &t, puzzle_inverse(p, m), &back)) {
            fuzz_fail("%s: the inverse of %s is illegal after it", p->id,
                      puzzle_move_name(p, m));
        }
        fuzz_check_equal(p, s, &back, "a move then its inverse");
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    char canon[FUZZ_TEXT_MAX];
    const fuzz_puzzle_t *f;
    const uint8_t *rest;
    size_t len;
    char *text;
    pz_state_t s;
    pz_state_t goal;
    pz_diag_t d;
    int rc;

    if (!ready) {
        fuzz_puzzles_init();
        ready = true;
    }
    f = fuzz_pick(data, size, &rest, &len);
    text = fuzz_strndup(rest, len);
    rc = fuzz_parse_state(f->p, text, &s, &d);
    if (rc != PZ_OK) {
        fuzz_check_diag(rc, &d, strlen(text), "parse_state");
        free(text);
        return 0;
    }
    fuzz_check_roundtrip(f->p, &s, canon);
    fuzz_check_rank(f->p, &s);
    check_moves(f->p, &s);
    puzzle_goal(f->p, &goal);
    pz_diag_clear(&d);
    rc = puzzle_check_pair(f->p, &s, &goal, &d);
    if (rc != PZ_OK) {
        fuzz_check_diag(rc, &d, 0, "check_pair");
    }
    free(text);
    return 0;
}
