/* SPDX-License-Identifier: MIT */
/* fuzz_goal.c - libFuzzer target: a start and a custom goal of every
 * puzzle, as a request's state and goal members give them. */

/*
 * Input: a first line that picks the puzzle (fuzz_testlib.h), a second
 * line with the start state and the rest with the goal, each in any form
 * fuzz_state takes (a JSON array or string, or the text itself).
 *
 * Oracles, once both parse: both are reachable (fuzz_check_reachable);
 * the pair check is symmetric (start reaches goal exactly when goal
 * reaches start) and every state reaches itself; a refusal has a
 * well-formed diagnostic; a scramble played from the goal (as a request
 * with a goal and a scramble does) reaches the goal and its inverse
 * returns there; and where the puzzle relabels goals, the goal
 * relabels to the default goal, a start relabels to a state that reaches
 * the default goal exactly when the start reaches the goal, and the
 * scrambled state relabels to the default goal moved by the same moves.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_testlib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Moves of the scramble played from the goal. */
#define NSCRAMBLE 16

static bool
reaches(const pz_puzzle_t *p, const pz_state_t *a, const pz_state_t *b)
{
    pz_diag_t d;
    int rc;

    pz_diag_clear(&d);
    rc = puzzle_check_pair(p, a, b, &d);
    if (rc != PZ_OK) {
        fuzz_check_diag(rc, &d, 0, "check_pair");
    }
    return rc == PZ_OK;
}

/* Plays NSCRAMBLE legal moves, picked from seed, from *s; returns how
 * many and writes them to moves. */
static int
scramble(const pz_puzzle_t *p, uint32_t seed, pz_state_t *s, uint8_t *moves)
{
    int n = 0;

    for (int k = 0; k < 4 * NSCRAMBLE && n < NSCRAMBLE; k++) {
        int m;

        seed = seed * 1103515245u + 12345u;
        m = (int)(seed >> 16) % p->nmoves;
        if (puzzle_apply(p, s, m, s)) {
            moves[n++] = (uint8_t)m;
        }
    }
    return n;
}

static void
check_relabel(const pz_puzzle_t *p,
              const pz_state_t *start,
              const pz_state_t *goal,
              const pz_state_t *scrambled,
              const uint8_t *moves,
              int n)
{
    pz_state_t def;
    pz_state_t out;
    pz_state_t want;

    if (!puzzle_can_relabel(p)) {
        return;
    }
    puzzle_goal(p, &def);
    state_clear(&out);
    if (!puzzle_relabel(p, goal, goal, &out)) {
        return;
    }
    fuzz_check_equal(p, &def, &out, "the goal relabelled");
    state_clear(&out);
    if (!puzzle_relabel(p, goal, start, &out)) {
        fuzz_fail("%s: relabels the goal but not the start", p->id);
    }
    if (reaches(p, start, goal) != reaches(p, &out, &def)) {
        fuzz_fail("%s: the relabelled start reaches the default goal %s", p->id,
                  reaches(p, start, goal) ? "not" : "although");
    }
    state_clear(&out);
    if (!puzzle_relabel(p, goal, scrambled, &out)) {
        fuzz_fail("%s: relabels the goal but not a scramble of it", p->id);
    }
    want = def;
    for (int i = 0; i < n; i++) {
        if (!puzzle_apply(p, &want, moves[i], &want)) {
            fuzz_fail("%s: a scramble of the goal is illegal from the "
                      "default goal",
                      p->id);
        }
    }
    fuzz_check_equal(p, &want, &out, "a scramble relabelled");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    const fuzz_puzzle_t *f;
    const pz_puzzle_t *p;
    const uint8_t *rest;
    const uint8_t *nl;
    size_t len;
    char *start_text;
    char *goal_text = NULL;
    uint8_t moves[NSCRAMBLE];
    pz_state_t start;
    pz_state_t goal;
    pz_state_t s;
    pz_diag_t d;
    uint32_t seed = 1;
    int n;
    int rc;

    if (!ready) {
        fuzz_puzzles_init();
        ready = true;
    }
    f = fuzz_pick(data, size, &rest, &len);
    p = f->p;
    nl = memchr(rest, '\n', len);
    start_text = fuzz_strndup(rest, nl != NULL ? (size_t)(nl - rest) : len);
    rc = fuzz_parse_state(p, start_text, &start, &d);
    if (rc != PZ_OK) {
        fuzz_check_diag(rc, &d, strlen(start_text), "parse_state (start)");
        goto out;
    }
    goal_text = nl != NULL ? fuzz_strndup(nl + 1, len - (size_t)(nl + 1 - rest))
                           : fuzz_strndup(rest, 0);
    rc = fuzz_parse_state(p, goal_text, &goal, &d);
    if (rc != PZ_OK) {
        fuzz_check_diag(rc, &d, strlen(goal_text), "parse_state (goal)");
        goto out;
    }
    fuzz_check_reachable(p, &start);
    fuzz_check_reachable(p, &goal);
    if (reaches(p, &start, &goal) != reaches(p, &goal, &start)) {
        fuzz_fail("%s: the pair check is not symmetric", p->id);
    }
    if (!reaches(p, &start, &start) || !reaches(p, &goal, &goal)) {
        fuzz_fail("%s: a state does not reach itself", p->id);
    }
    for (size_t i = 0; i < size; i++) {
        seed = seed * 31u + data[i];
    }
    s = goal;
    n = scramble(p, seed, &s, moves);
    if (!reaches(p, &s, &goal)) {
        fuzz_fail("%s: a scramble of the goal cannot reach it", p->id);
    }
    check_relabel(p, &start, &goal, &s, moves, n);
    for (int i = n - 1; i >= 0; i--) {
        puzzle_apply(p, &s, puzzle_inverse(p, moves[i]), &s);
    }
    fuzz_check_equal(p, &goal, &s, "a scramble of the goal undone");
out:
    free(start_text);
    free(goal_text);
    return 0;
}
