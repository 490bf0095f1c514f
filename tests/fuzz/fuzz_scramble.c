/* SPDX-License-Identifier: MIT */
/* fuzz_scramble.c - libFuzzer target: every puzzle's scramble parser,
 * checked against a reference reading of its documented notation. */

/*
 * Input: a first line that picks the puzzle (fuzz_testlib.h), then the
 * scramble text. The target reads the text with its own tokenizer, written
 * from each puzzle's notation line (tiles: U D L R runs and tile numbers;
 * cubes: faces, wide moves, slices and rotations with 2 and a prime;
 * pyraminx: vertex and tip turns; Master Pyraminx: [1-4] layers and
 * tips; skewb: corner turns), and plays it from the goal and from a state
 * a few moves away.
 *
 * Oracles: the parser accepts exactly what the tokenizer reads (tiles may
 * also refuse a move that leaves the board, never after an unreadable
 * token); a refusal has a well-formed diagnostic whose position is the
 * unreadable token (tiles: at or before it); and for a scramble that
 * parses, the tokens joined by single spaces give the same state, the
 * scramble followed by its inverse (the tokens reversed, each inverted)
 * returns to the start, and the state reached passes the format/parse
 * round trip and can reach the start. Where a state carries everything a
 * scramble changes (all but the 2x2x2, see notation_t), playing the tokens
 * one call at a time gives the same state and the inverse played as a
 * second scramble returns to the start.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_testlib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Most tokens the target follows one by one; longer scrambles are
 * still parsed whole. */
#define MAX_TOKENS 1024

/* A notation as documented in the puzzle's `notation` line. */
typedef struct notation {
    const char *letters; /* letters that start a turn */
    const char *wide;    /* letters that may take a 'w' */
    bool layer_prefix;   /* a digit 1-4 may precede an upper-case letter */
    bool tiles;          /* the tiles grammar instead */
    /* Playing the tokens in separate calls is the same as one call. Not
     * on the 2x2x2: its state keeps no orientation, so each call plays in
     * the frame where the DLB corner is home, and a turn that moves DLB
     * (L, D, B, wide moves, rotations) changes the frame for the rest of
     * its own call only. */
    bool sequential;
} notation_t;

/* One token of the scramble text: where it is and whether it is
 * inverted (a prime, ASCII or U+2019, at its end). */
typedef struct token {
    size_t at;    /* offset in the text */
    size_t len;   /* bytes, the prime included */
    size_t prime; /* bytes of the prime, 0 without */
} token_t;

static const notation_t *
notation_of(const pz_puzzle_t *p)
{
    static const notation_t tiles = { "UDLRudlr", "", false, true, true };
    static const notation_t cube2 = { "URFDLBurfdlbxyz", "URFDLB", false, false,
                                      false };
    static const notation_t cube3 = { "URFDLBurfdlbMESxyz", "URFDLB", false,
                                      false, true };
    static const notation_t pyraminx = { "ULRBulrb", "", false, false, true };
    static const notation_t mpyraminx = { "ULRBulrb", "ULRB", true, false,
                                          true };
    static const notation_t skewb = { "RULB", "", false, false, true };
    const char *name = p->ops->name;

    if (strcmp(name, "tiles") == 0) {
        return &tiles;
    }
    if (strcmp(name, "2x2x2") == 0) {
        return &cube2;
    }
    if (strcmp(name, "3x3x3") == 0) {
        return &cube3;
    }
    if (strcmp(name, "pyraminx") == 0) {
        return &pyraminx;
    }
    if (strcmp(name, "master-pyraminx") == 0) {
        return &mpyraminx;
    }
    if (strcmp(name, "skewb") == 0) {
        return &skewb;
    }
    fuzz_fail("no notation for puzzle %s", name);
    return NULL;
}

static bool
is_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool
is_tiles_sep(char c)
{
    return c == ' ' || c == ',' || c == '\t' || c == '\n' || c == '\r';
}

static bool
in_set(const char *set, char c)
{
    return c != '\0' && strchr(set, c) != NULL;
}

/* A tile number: an optional sign and at least one digit, nothing else. */
static bool
is_number(const char *s, size_t len)
{
    size_t i = len > 0 && (s[0] == '+' || s[0] == '-') ? 1 : 0;

    if (i == len) {
        return false;
    }
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return false;
        }
    }
    return true;
}

/* Tiles: a run between separators is a tile number (one token, its own
 * inverse) or letters U D L R, each a token. */
static bool
tokens_tiles(const char *text, token_t *tok, size_t *n, size_t *bad)
{
    size_t i = 0;

    *n = 0;
    while (text[i] != '\0') {
        size_t start;

        if (is_tiles_sep(text[i])) {
            i++;
            continue;
        }
        start = i;
        while (text[i] != '\0' && !is_tiles_sep(text[i])) {
            i++;
        }
        if (is_number(text + start, i - start)) {
            if (*n < MAX_TOKENS) {
                tok[*n] = (token_t){ start, i - start, 0 };
            }
            ++*n;
            continue;
        }
        for (size_t k = start; k < i; k++) {
            if (!in_set("UDLRudlr", text[k])) {
                *bad = start;
                return false;
            }
        }
        for (size_t k = start; k < i; k++) {
            if (*n < MAX_TOKENS) {
                tok[*n] = (token_t){ k, 1, 0 };
            }
            ++*n;
        }
    }
    return true;
}

/* The twisty puzzles: [digit] letter [w] [2] [prime], a token ending at
 * white space, the end, or where the next token starts. */
static bool
tokens_twisty(const notation_t *nt,
              const char *text,
              token_t *tok,
              size_t *n,
              size_t *bad)
{
    size_t i = 0;

    *n = 0;
    while (text[i] != '\0') {
        size_t start = i;
        size_t prime = 0;
        bool prefix = false;

        if (is_space(text[i])) {
            i++;
            continue;
        }
        if (nt->layer_prefix && text[i] >= '1' && text[i] <= '4') {
            prefix = true;
            i++;
        }
        if (!in_set(nt->letters, text[i]) ||
            (prefix && !in_set("ULRB", text[i]))) {
            *bad = start;
            return false;
        }
        if (in_set(nt->wide, text[i]) && text[i + 1] == 'w') {
            i++;
        }
        i++;
        if (text[i] == '2') {
            i++;
        }
        if (text[i] == '\'') {
            prime = 1;
        } else if ((unsigned char)text[i] == 0xe2 &&
                   (unsigned char)text[i + 1] == 0x80 &&
                   (unsigned char)text[i + 2] == 0x99) {
            prime = 3;
        }
        i += prime;
        if (text[i] != '\0' && !is_space(text[i]) &&
            !in_set(nt->letters, text[i]) &&
            !(nt->layer_prefix && text[i] >= '1' && text[i] <= '4')) {
            *bad = start;
            return false;
        }
        if (*n < MAX_TOKENS) {
            tok[*n] = (token_t){ start, i - start, prime };
        }
        ++*n;
    }
    return true;
}

/* Appends token t of text, inverted when invert, to out (one byte more
 * than the token at most). */
static size_t
put_token(const notation_t *nt,
          const char *text,
          const token_t *t,
          bool invert,
          char *out)
{
    size_t n = t->len - t->prime;

    memcpy(out, text + t->at, t->len);
    if (!invert) {
        return t->len;
    }
    if (nt->tiles) {
        /* Letters swap U/D and L/R; a tile number slides back. */
        static const char from[] = "UDLRudlr";
        static const char to[] = "DURLdurl";
        const char *hit = t->len == 1 ? strchr(from, out[0]) : NULL;

        if (hit != NULL) {
            out[0] = to[hit - from];
        }
        return t->len;
    }
    if (t->prime > 0) {
        return n;
    }
    out[n] = '\'';
    return n + 1;
}

/* Writes the tokens, inverted and in reverse order when invert, joined by
 * single spaces. The caller's buffer holds 4 bytes per token more than
 * the text. */
static void
join_tokens(const notation_t *nt,
            const char *text,
            const token_t *tok,
            size_t n,
            bool invert,
            char *out)
{
    size_t used = 0;

    for (size_t k = 0; k < n; k++) {
        const token_t *t = &tok[invert ? n - 1 - k : k];

        if (k > 0) {
            out[used++] = ' ';
        }
        used += put_token(nt, text, t, invert, out + used);
    }
    out[used] = '\0';
}

/* Applies text to *s (in place); PZ_OK or the parser's code. */
static int
play(const pz_puzzle_t *p, const char *text, pz_state_t *s, pz_diag_t *d)
{
    pz_diag_clear(d);
    return puzzle_apply_scramble(p, text, s, d);
}

/* A state some moves from the goal, the same for every input. */
static void
away_from_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    puzzle_goal(p, out);
    for (int k = 0; k < 12; k++) {
        pz_state_t next;

        state_clear(&next);
        if (puzzle_apply(p, out, (k * 7 + 3) % p->nmoves, &next)) {
            *out = next;
        }
    }
}

/* The oracles for one start state. */
static void
check_from(const pz_puzzle_t *p,
           const notation_t *nt,
           const char *text,
           const token_t *tok,
           size_t ntok,
           bool readable,
           size_t bad,
           const pz_state_t *start)
{
    char canon[FUZZ_TEXT_MAX];
    size_t len = strlen(text);
    size_t cap = 2 * len + 4 * ntok + 2;
    char *joined;
    pz_state_t whole = *start;
    pz_state_t step = *start;
    pz_state_t back;
    pz_diag_t d;
    int rc = play(p, text, &whole, &d);

    if (rc != PZ_OK) {
        fuzz_check_diag(rc, &d, strlen(text), "apply_scramble");
        if (rc != PZ_EMOVE) {
            fuzz_fail("%s: scramble refused with %s", p->id, pz_strerror(rc));
        }
        /* Tiles may refuse a move that leaves the board before the
         * unreadable token; the others refuse exactly there. */
        if (!readable && (d.position < 0 || (size_t)d.position > bad ||
                          (!nt->tiles && (size_t)d.position != bad))) {
            fuzz_fail("%s: refused at %d, the unreadable token is at %zu",
                      p->id, d.position, bad);
        }
        if (readable && !nt->tiles) {
            fuzz_fail("%s: a readable scramble refused: %s", p->id, d.detail);
        }
        return;
    }
    if (!readable) {
        fuzz_fail("%s: accepted a scramble with an unreadable token at %zu",
                  p->id, bad);
    }
    fuzz_check_roundtrip(p, &whole, canon);
    pz_diag_clear(&d);
    if (puzzle_check_pair(p, &whole, start, &d) != PZ_OK) {
        fuzz_fail("%s: a scrambled state cannot reach its start: %s", p->id,
                  d.detail);
    }
    if (ntok > MAX_TOKENS) {
        return;
    }
    joined = malloc(cap);
    if (joined == NULL) {
        abort();
    }
    /* Canonical spacing. */
    join_tokens(nt, text, tok, ntok, false, joined);
    if (play(p, joined, &step, &d) != PZ_OK) {
        fuzz_fail("%s: the tokens joined are refused: %s", p->id, d.detail);
    }
    fuzz_check_equal(p, &whole, &step, "the tokens joined by spaces");
    /* The scramble and its inverse in one text. */
    len = strlen(text);
    memcpy(joined, text, len);
    joined[len] = ' ';
    join_tokens(nt, text, tok, ntok, true, joined + len + 1);
    back = *start;
    if (play(p, joined, &back, &d) != PZ_OK) {
        fuzz_fail("%s: a scramble and its inverse are refused: %s", p->id,
                  d.detail);
    }
    fuzz_check_equal(p, start, &back, "a scramble and its inverse");
    if (nt->sequential) {
        /* Token by token, then the inverse as a second scramble. */
        step = *start;
        for (size_t k = 0; k < ntok; k++) {
            join_tokens(nt, text, &tok[k], 1, false, joined);
            if (play(p, joined, &step, &d) != PZ_OK) {
                fuzz_fail("%s: token '%s' alone is refused: %s", p->id, joined,
                          d.detail);
            }
        }
        fuzz_check_equal(p, &whole, &step, "the tokens one at a time");
        join_tokens(nt, text, tok, ntok, true, joined);
        back = whole;
        if (play(p, joined, &back, &d) != PZ_OK) {
            fuzz_fail("%s: the inverse '%s' is refused: %s", p->id, joined,
                      d.detail);
        }
        fuzz_check_equal(p, start, &back, "a scramble, then its inverse");
    }
    free(joined);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    static token_t tok[MAX_TOKENS];
    const fuzz_puzzle_t *f;
    const notation_t *nt;
    const uint8_t *rest;
    size_t len;
    size_t ntok = 0;
    size_t bad = 0;
    bool readable;
    char *text;
    pz_state_t start;

    if (!ready) {
        fuzz_puzzles_init();
        ready = true;
    }
    f = fuzz_pick(data, size, &rest, &len);
    nt = notation_of(f->p);
    text = fuzz_strndup(rest, len);
    readable = nt->tiles ? tokens_tiles(text, tok, &ntok, &bad)
                         : tokens_twisty(nt, text, tok, &ntok, &bad);
    puzzle_goal(f->p, &start);
    check_from(f->p, nt, text, tok, ntok, readable, bad, &start);
    state_clear(&start);
    away_from_goal(f->p, &start);
    check_from(f->p, nt, text, tok, ntok, readable, bad, &start);
    free(text);
    return 0;
}
