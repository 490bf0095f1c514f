/* SPDX-License-Identifier: MIT */
/* fuzz_moves.c - libFuzzer target: move sequences of every puzzle, their
 * names read back by the scramble parser, inverses and goal relabelling. */

/*
 * Input: a first line that picks the puzzle (fuzz_testlib.h), then bytes
 * read as move ids (byte % nmoves). The first byte after the line, modulo
 * the number of bytes after the line, says how many of the moves lead from
 * the default goal to a goal G; the rest lead from G to a start S. Moves that
 * are illegal where they fall (a tile off the board) are skipped.
 *
 * Oracles: the move list formatted by puzzle_format_moves parses back as a
 * scramble from G to S, and each move's name alone is the same move;
 * puzzle_replay agrees; the inverse moves in reverse order return S to G;
 * S passes the format/parse round trip and the rank round trip and can
 * reach both G and the default goal; and where the puzzle relabels goals,
 * relabelling S for G gives the default goal moved by the same moves.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_testlib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Most moves one input plays; the rest of a long input is ignored. */
#define MAX_MOVES 128

/* Longest move name ("3Uw'") and its separator. */
#define NAME_MAX 8

/* Plays the legal ones of bytes[0..n) as moves from *s, recording them. */
static int
play_bytes(const pz_puzzle_t *p,
           const uint8_t *bytes,
           size_t n,
           pz_state_t *s,
           uint8_t *moves)
{
    int played = 0;

    for (size_t i = 0; i < n && played < MAX_MOVES; i++) {
        int m = bytes[i] % p->nmoves;
        pz_state_t next;

        state_clear(&next);
        if (puzzle_apply(p, s, m, &next)) {
            *s = next;
            moves[played++] = (uint8_t)m;
        }
    }
    return played;
}

/* The formatted list parses back to the same moves. */
static void
check_names(const pz_puzzle_t *p,
            const pz_state_t *from,
            const uint8_t *moves,
            int n,
            const pz_state_t *to)
{
    static char text[MAX_MOVES * NAME_MAX + 1];
    uint64_t seen = 0;
    pz_state_t s = *from;
    pz_diag_t d;
    int len = puzzle_format_moves(p, moves, n, text, sizeof(text));

    if (len < 0 || (size_t)len != strlen(text)) {
        fuzz_fail("%s: puzzle_format_moves returned %d", p->id, len);
    }
    pz_diag_clear(&d);
    if (puzzle_apply_scramble(p, text, &s, &d) != PZ_OK) {
        fuzz_fail("%s: the formatted moves \"%s\" do not parse: %s", p->id,
                  text, d.detail);
    }
    fuzz_check_equal(p, to, &s, "the formatted moves as a scramble");
    /* Each move's name alone, where the move first appears (a name
     * parses to the same move in every state, and parsing one costs more
     * than the rest of an input's checks). */
    s = *from;
    for (int i = 0; i < n; i++) {
        const char *name = puzzle_move_name(p, moves[i]);
        pz_state_t want;
        pz_state_t got = s;

        state_clear(&want);
        puzzle_apply(p, &s, moves[i], &want);
        if (!(seen >> moves[i] & 1)) {
            seen |= UINT64_C(1) << moves[i];
            if (puzzle_apply_scramble(p, name, &got, &d) != PZ_OK) {
                fuzz_fail("%s: move name '%s' does not parse: %s", p->id, name,
                          d.detail);
            }
            fuzz_check_equal(p, &want, &got, "a move name read back");
        }
        s = want;
    }
    /* A buffer one byte short is refused. */
    if (len > 0 &&
        puzzle_format_moves(p, moves, n, text, (size_t)len) != PZ_EINVAL) {
        fuzz_fail("%s: puzzle_format_moves wrote %d bytes and a NUL into %d",
                  p->id, len, len);
    }
}

/* The inverse moves in reverse order undo the sequence. */
static void
check_inverse(const pz_puzzle_t *p,
              const pz_state_t *from,
              const uint8_t *moves,
              int n,
              const pz_state_t *to)
{
    pz_state_t s = *to;
    pz_state_t replayed;

    for (int i = n - 1; i >= 0; i--) {
        if (!puzzle_apply(p, &s, puzzle_inverse(p, moves[i]), &s)) {
            fuzz_fail("%s: the inverse of %s is illegal", p->id,
                      puzzle_move_name(p, moves[i]));
        }
    }
    fuzz_check_equal(p, from, &s, "the inverse sequence");
    state_clear(&replayed);
    if (puzzle_replay(p, from, moves, n, &replayed) != PZ_OK) {
        fuzz_fail("%s: puzzle_replay refuses legal moves", p->id);
    }
    fuzz_check_equal(p, to, &replayed, "puzzle_replay");
}

/* Relabelling S for goal G gives the default goal moved by the moves that
 * take G to S. */
static void
check_relabel(const pz_puzzle_t *p,
              const pz_state_t *g,
              const pz_state_t *s,
              const uint8_t *moves,
              int n)
{
    pz_state_t out;
    pz_state_t want;

    if (!puzzle_can_relabel(p)) {
        return;
    }
    state_clear(&out);
    if (!puzzle_relabel(p, g, s, &out)) {
        return;
    }
    puzzle_goal(p, &want);
    for (int i = 0; i < n; i++) {
        if (!puzzle_apply(p, &want, moves[i], &want)) {
            fuzz_fail("%s: a move legal from G is illegal from the default "
                      "goal although G relabels",
                      p->id);
        }
    }
    fuzz_check_equal(p, &want, &out, "relabel");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    static uint8_t to_g[MAX_MOVES];
    static uint8_t to_s[MAX_MOVES];
    char canon[FUZZ_TEXT_MAX];
    const fuzz_puzzle_t *f;
    const pz_puzzle_t *p;
    const uint8_t *rest;
    size_t len;
    size_t split;
    int ng;
    int ns;
    pz_state_t goal;
    pz_state_t g;
    pz_state_t s;
    pz_diag_t d;

    if (!ready) {
        fuzz_puzzles_init();
        ready = true;
    }
    f = fuzz_pick(data, size, &rest, &len);
    p = f->p;
    if (len == 0) {
        return 0;
    }
    split = rest[0] % len;
    puzzle_goal(p, &goal);
    g = goal;
    ng = play_bytes(p, rest + 1, split, &g, to_g);
    s = g;
    ns = play_bytes(p, rest + 1 + split, len - 1 - split, &s, to_s);
    check_names(p, &g, to_s, ns, &s);
    check_inverse(p, &g, to_s, ns, &s);
    check_relabel(p, &g, &s, to_s, ns);
    fuzz_check_roundtrip(p, &s, canon);
    fuzz_check_rank(p, &s);
    pz_diag_clear(&d);
    if (puzzle_check_pair(p, &s, &g, &d) != PZ_OK ||
        puzzle_check_pair(p, &s, &goal, &d) != PZ_OK) {
        fuzz_fail("%s: a state %d + %d moves from the goal cannot reach it: "
                  "%s",
                  p->id, ng, ns, d.detail);
    }
    return 0;
}
