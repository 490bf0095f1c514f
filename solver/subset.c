/* SPDX-License-Identifier: MIT */
/* subset.c - searches restricted to a subset of a puzzle's moves: naming
 * the subset, restricting an instance, and cheap proofs that a state is
 * out of the subset's reach. */
#include <stdlib.h>
#include <string.h>

#include "puzzle.h"

/* name without its turn suffix: trailing apostrophes, then digits, unless
 * that would leave nothing ("2L" keeps its layer prefix). */
static size_t
face_length(const char *name)
{
    size_t n = strlen(name);

    while (n > 1 && name[n - 1] == '\'') {
        n--;
    }
    while (n > 1 && name[n - 1] >= '0' && name[n - 1] <= '9') {
        n--;
    }
    return n;
}

int
puzzle_moves_add(const pz_puzzle_t *p,
                 const char *token,
                 uint64_t *moves,
                 pz_diag_t *d)
{
    int exact = puzzle_move_index(p, token);
    size_t len = strlen(token);
    uint64_t found = 0;

    if (exact >= 0 && face_length(token) != len) {
        *moves |= UINT64_C(1) << exact;
        return PZ_OK;
    }
    for (int m = 0; m < p->nmoves && len > 0; m++) {
        const char *name = puzzle_move_name(p, m);

        if (face_length(name) == len && strncmp(name, token, len) == 0) {
            found |= UINT64_C(1) << m;
        }
    }
    if (found == 0) {
        return pz_diag_set(d, PZ_EMOVE,
                           "'%.40s' is not a move or face of the %s (%s)",
                           token, p->id, p->metric_name);
    }
    *moves |= found;
    return PZ_OK;
}

int
puzzle_restrict(pz_puzzle_t *p, uint64_t moves, pz_diag_t *d)
{
    uint64_t all = p->allowed_after[p->nmoves];

    moves &= all;
    if (moves == 0) {
        return pz_diag_set(d, PZ_EMOVE, "the move subset is empty");
    }
    for (int m = 0; m < p->nmoves; m++) {
        int inv = puzzle_inverse(p, m);

        if ((moves >> m & 1) && !(moves >> inv & 1)) {
            return pz_diag_set(d, PZ_EMOVE,
                               "the move subset has %s but not its inverse "
                               "%s; list the face (\"%.*s\") or both turns",
                               puzzle_move_name(p, m), puzzle_move_name(p, inv),
                               (int)face_length(puzzle_move_name(p, m)),
                               puzzle_move_name(p, m));
        }
    }
    if (moves == all) {
        return PZ_OK;
    }
    for (int m = 0; m <= p->nmoves; m++) {
        p->allowed_after[m] &= moves;
    }
    p->subset = moves;
    return PZ_OK;
}

/* --- reachability --- */

/* What a projection keeps of each byte of a run of pieces. */
enum {
    KEEP_PLACES,
    KEEP_TWISTS
};

/* A set of byte strings of one length: open addressing over an array
 * that is also the breadth-first queue (values in insertion order). */
typedef struct reach_set {
    size_t len;      /* bytes per value */
    size_t count;    /* values held */
    size_t mask;     /* slots - 1 */
    uint32_t *slots; /* value index + 1, 0 when empty */
    uint8_t *values; /* count * len bytes */
} reach_set_t;

/* Adds v; 1 when added, 0 when present, -1 when full. */
static int
reach_add(reach_set_t *s, const uint8_t *v)
{
    size_t i = state_hash_packed(v, s->len) & s->mask;

    while (s->slots[i] != 0) {
        if (memcmp(s->values + (size_t)(s->slots[i] - 1) * s->len, v, s->len) ==
            0) {
            return 0;
        }
        i = (i + 1) & s->mask;
    }
    if (s->count == PUZZLE_REACH_MAX) {
        return -1;
    }
    memcpy(s->values + s->count * s->len, v, s->len);
    s->slots[i] = (uint32_t)++s->count;
    return 1;
}

/* Writes into out the bytes of run of s that the projection keeps. */
static void
project(const puzzle_pieces_t *run,
        size_t count,
        int keep,
        const pz_state_t *s,
        uint8_t *out)
{
    int k = run->orientations;

    for (size_t i = 0; i < count; i++) {
        int v = s->b[run->offset + i];

        out[i] = (uint8_t)(keep == KEEP_PLACES ? v - v % k : v % k);
    }
}

/*
 * Breadth-first search of the projection of run from goal under p's
 * allowed moves. Returns 1 when the projection of start is reached, 0
 * when the search ended without it, -1 when the set filled first,
 * PZ_ENOMEM.
 */
static int
reach_run(const pz_puzzle_t *p,
          const puzzle_pieces_t *run,
          int keep,
          const pz_state_t *start,
          const pz_state_t *goal)
{
    size_t count = run->count != 0 ? run->count : p->state_size - run->offset;
    uint8_t want[PZ_STATE_MAX];
    reach_set_t s = { .len = count, .mask = 4 * PUZZLE_REACH_MAX - 1 };
    int rc = 0;

    project(run, count, keep, start, want);
    s.slots = calloc(s.mask + 1, sizeof(*s.slots));
    s.values = malloc((size_t)PUZZLE_REACH_MAX * count);
    if (s.slots == NULL || s.values == NULL) {
        free(s.slots);
        free(s.values);
        return PZ_ENOMEM;
    }
    {
        uint8_t g[PZ_STATE_MAX];

        project(run, count, keep, goal, g);
        reach_add(&s, g);
    }
    for (size_t q = 0; q < s.count && rc == 0; q++) {
        pz_state_t x = *goal;

        if (memcmp(s.values + q * count, want, count) == 0) {
            rc = 1;
            break;
        }
        memcpy(x.b + run->offset, s.values + q * count, count);
        for (int m = 0; m < p->nmoves; m++) {
            pz_state_t y;
            uint8_t v[PZ_STATE_MAX];

            if (!(p->subset >> m & 1) || !puzzle_apply(p, &x, m, &y)) {
                continue;
            }
            project(run, count, keep, &y, v);
            if (reach_add(&s, v) < 0) {
                rc = -1;
                break;
            }
        }
    }
    free(s.slots);
    free(s.values);
    return rc;
}

int
puzzle_subset_reachable(const pz_puzzle_t *p,
                        const pz_state_t *start,
                        const pz_state_t *goal,
                        pz_diag_t *d)
{
    uint64_t moved = 0; /* bytes some allowed move changes */

    if (p->subset == 0 || puzzle_pieces(p) == NULL) {
        return PZ_OK;
    }
    for (int m = 0; m < p->nmoves; m++) {
        pz_state_t y;

        if (!(p->subset >> m & 1) || !puzzle_apply(p, goal, m, &y)) {
            continue;
        }
        for (size_t i = 0; i < p->state_size && i < 64; i++) {
            moved |= (uint64_t)(y.b[i] != goal->b[i]) << i;
        }
    }
    for (const puzzle_pieces_t *run = puzzle_pieces(p); run->name != NULL;
         run++) {
        size_t count =
            run->count != 0 ? run->count : p->state_size - run->offset;

        for (size_t i = run->offset; i < run->offset + count && i < 64; i++) {
            if (run->rigid && !(moved >> i & 1) && start->b[i] != goal->b[i]) {
                return pz_diag_set(d, PZ_EUNREACHABLE,
                                   "the moves allowed never move %s place "
                                   "%zu, which is not as in the goal",
                                   run->name, i - run->offset);
            }
        }
        for (int keep = KEEP_PLACES; keep <= KEEP_TWISTS; keep++) {
            int rc;

            if (keep == KEEP_TWISTS && run->orientations == 1) {
                continue;
            }
            rc = reach_run(p, run, keep, start, goal);
            if (rc < 0 && rc != -1) {
                return pz_diag_set(d, rc, "out of memory");
            }
            if (rc == 0) {
                return pz_diag_set(
                    d, PZ_EUNREACHABLE,
                    "the moves allowed cannot reach the "
                    "goal's %s %s from this state",
                    run->name, keep == KEEP_PLACES ? "places" : "orientations");
            }
        }
    }
    return PZ_OK;
}
