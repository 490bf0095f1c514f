/* SPDX-License-Identifier: MIT */
/* tiles_fsm.c - finds the duplicate move strings of the sliding-tile
 * puzzles and the automaton that prunes them (puzzle_fsm_t). Run at build
 * time by solver/gen/tiles_fsm_gen.c, whose output the puzzle embeds. */

/*
 * Design (after Taylor and Korf, "Pruning duplicate nodes in depth-first
 * search", AAAI 1993): a string of moves is a duplicate when a string
 * that comes earlier in the order (shorter, or as long and smaller move
 * by move) has the same effect: it takes the blank to the same cell and
 * leaves every tile where the first leaves it. A search needs no string
 * that contains a duplicate, provided the earlier string is legal
 * wherever the duplicate is: here the earlier string's blank never
 * leaves the bounding box of the duplicate's blank path, and a rectangle
 * that holds one path on a board holds the other. The earliest legal
 * string of a given effect then contains no duplicate (replacing one
 * would give an earlier legal string of the same effect), so every state
 * keeps a path as short as its distance, and an optimal search stays
 * optimal.
 *
 * The duplicates are found on a board larger than any string can reach
 * (so the set serves every board size): a breadth-first walk over move
 * strings up to depth moves, in the order above, extends only strings
 * that contain no duplicate found so far, and records the effect of each
 * such string by the first string that had it. A string whose effect was
 * met before, from a string whose path's box lies in its own, is a
 * duplicate; the others go on. The minimal duplicates (no proper part of
 * one is a duplicate) then become an Aho-Corasick automaton: its states
 * are the proper prefixes of duplicates, and a move that would complete
 * a duplicate is pruned (next < 0).
 *
 * Effects are compared whole (the stored string's effect is recomputed
 * when a hash matches), never by hash alone. Depth 13 (the build's)
 * finds 3,283 minimal duplicates and 11,938 states in about 1.5 s and
 * 100 MB; depth 14 finds 18,700 and 66,492 states (6 s, 400 MB), more
 * than puzzle_fsm_t's 16-bit states hold.
 */
#include <stdlib.h>
#include <string.h>

#include "tiles_internal.h"

/* The walk's board: the blank starts in the middle and never reaches the
 * edge. */
#define GRID   (2 * TILES_FSM_DEPTH_MAX + 3)
#define CENTER (GRID * (GRID / 2) + GRID / 2)

/* The blank's step on the walk's board for each move (tiles.c: MOVE_U
 * slides the tile below the blank up, so the blank goes down). */
static const int step[TILES_MOVES] = { GRID, -GRID, 1, -1 };

/* A string of moves: move i in bits 2i and 2i + 1. */
typedef uint32_t word_t;
/* An effect's entry holds its string's length above the string. */
#define LEN_SHIFT (2 * TILES_FSM_DEPTH_MAX)
#define LEN_MASK  ((UINT32_C(1) << LEN_SHIFT) - 1)

/* An effect met, by the first string that had it (its bytes are
 * recomputed from the string when a hash matches). */
typedef struct effect {
    uint32_t hash; /* of the effect; its low bits pick the slot */
    uint32_t s;    /* the string, its length in the top 4 bits; 0: an
                      empty slot (the empty string is not stored) */
} effect_t;

typedef struct walk {
    int depth;
    int16_t cell[GRID * GRID]; /* the tile on each cell (CENTER: blank) */
    /* Effects seen: open addressing on hash. */
    effect_t *eff;
    size_t eff_cap;
    size_t eff_n;
    /* Duplicates found: a bit for every string of up to depth moves
     * (dup_bit). */
    uint64_t *dup;
    size_t dup_n;
} walk_t;

/* The bit of string s of len moves in the duplicates' bitmap: strings
 * of each length after those of all shorter lengths. */
static uint64_t
dup_bit(word_t s, int len)
{
    return ((UINT64_C(1) << 2 * len) - 1) / 3 + s;
}

static bool
dup_has(const walk_t *w, word_t s, int len)
{
    uint64_t i = dup_bit(s, len);

    return w->dup[i >> 6] >> (i & 63) & 1;
}

static void
dup_add(walk_t *w, word_t s, int len)
{
    uint64_t i = dup_bit(s, len);

    w->dup[i >> 6] |= UINT64_C(1) << (i & 63);
    w->dup_n++;
}

/* Whether a proper suffix of s (len moves) is a duplicate. Its proper
 * prefixes are not: the walk only extends strings without one. */
static bool
has_dup_suffix(const walk_t *w, word_t s, int len)
{
    for (int j = 2; j < len; j++) {
        if (dup_has(w, s >> 2 * (len - j), j)) {
            return true;
        }
    }
    return false;
}

static bool
eff_grow(walk_t *w)
{
    size_t cap = w->eff_cap != 0 ? w->eff_cap * 2 : 4096;
    effect_t *t = calloc(cap, sizeof(*t));

    if (t == NULL) {
        return false;
    }
    for (size_t i = 0; i < w->eff_cap; i++) {
        if (w->eff[i].s != 0) {
            size_t j = w->eff[i].hash & (cap - 1);

            while (t[j].s != 0) {
                j = (j + 1) & (cap - 1);
            }
            t[j] = w->eff[i];
        }
    }
    free(w->eff);
    w->eff = t;
    w->eff_cap = cap;
    return true;
}

/* Sorts the few cells a string visited (insertion sort). */
static void
sort_cells(int *c, int n)
{
    for (int i = 1; i < n; i++) {
        int v = c[i];
        int j = i;

        for (; j > 0 && c[j - 1] > v; j--) {
            c[j] = c[j - 1];
        }
        c[j] = v;
    }
}

/* Longest key: the blank's cell, then each changed cell and its tile,
 * as 16-bit values. */
#define KEY_MAX (4 * (TILES_FSM_DEPTH_MAX + 2))

/*
 * The effect of string s (len moves) on the walk's board: its key into
 * key (returns its length in bytes) and the bounding box of the blank's
 * path into box (rows, then columns, from the start: min, max).
 */
static size_t
effect_of(walk_t *w, word_t s, int len, uint8_t *key, int *box)
{
    int visited[TILES_FSM_DEPTH_MAX + 1];
    int nv = 0;
    int z = CENTER;
    size_t nk = 0;

    box[0] = box[1] = box[2] = box[3] = 0;
    visited[nv++] = z;
    for (int i = 0; i < len; i++) {
        int y = z + step[s >> 2 * i & 3];
        int r = y / GRID - CENTER / GRID;
        int c = y % GRID - CENTER % GRID;

        w->cell[z] = w->cell[y];
        w->cell[y] = CENTER;
        z = y;
        visited[nv++] = z;
        box[0] = r < box[0] ? r : box[0];
        box[1] = r > box[1] ? r : box[1];
        box[2] = c < box[2] ? c : box[2];
        box[3] = c > box[3] ? c : box[3];
    }
    sort_cells(visited, nv);
    key[nk++] = (uint8_t)(z & 0xFF);
    key[nk++] = (uint8_t)(z >> 8);
    for (int i = 0; i < nv; i++) {
        int c = visited[i];

        if ((i > 0 && c == visited[i - 1]) || w->cell[c] == c) {
            continue;
        }
        key[nk++] = (uint8_t)(c & 0xFF);
        key[nk++] = (uint8_t)(c >> 8);
        key[nk++] = (uint8_t)(w->cell[c] & 0xFF);
        key[nk++] = (uint8_t)(w->cell[c] >> 8);
    }
    for (int i = 0; i < nv; i++) {
        w->cell[visited[i]] = (int16_t)visited[i];
    }
    return nk;
}

/*
 * Whether string s (len >= 1 moves, no proper part a duplicate) is a
 * duplicate: an earlier string had its effect (the empty string's is
 * the identity) and a box inside its own. When it is not, records its
 * effect unless an earlier string had it. Returns 1, 0, or -1 when
 * memory ran out.
 */
static int
is_duplicate(walk_t *w, word_t s, int len)
{
    uint8_t key[KEY_MAX];
    uint8_t other[KEY_MAX];
    int box[4];
    int obox[4];
    size_t nk = effect_of(w, s, len, key, box);
    uint32_t hash = (uint32_t)state_hash_packed(key, nk);
    size_t j;

    if (nk == 2 && (key[0] | key[1] << 8) == CENTER) {
        return 1; /* the identity: the empty string's box is one cell */
    }
    for (j = hash & (w->eff_cap - 1); w->eff[j].s != 0;
         j = (j + 1) & (w->eff_cap - 1)) {
        const effect_t *e = &w->eff[j];

        if (e->hash == hash &&
            effect_of(w, e->s & LEN_MASK, (int)(e->s >> LEN_SHIFT), other,
                      obox) == nk &&
            memcmp(other, key, nk) == 0) {
            return obox[0] >= box[0] && obox[1] <= box[1] &&
                   obox[2] >= box[2] && obox[3] <= box[3];
        }
    }
    if (2 * (w->eff_n + 1) > w->eff_cap) {
        if (!eff_grow(w)) {
            return -1;
        }
        j = hash & (w->eff_cap - 1);
        while (w->eff[j].s != 0) {
            j = (j + 1) & (w->eff_cap - 1);
        }
    }
    w->eff[j].hash = hash;
    w->eff[j].s = s | (uint32_t)len << LEN_SHIFT;
    w->eff_n++;
    return 0;
}

/*
 * The walk: every minimal duplicate up to w->depth moves into w->dup.
 * Returns false when memory ran out.
 */
static bool
find_duplicates(walk_t *w)
{
    word_t *cur = malloc(sizeof(word_t));
    size_t ncur = 1;
    bool ok = cur != NULL && eff_grow(w);

    for (int i = 0; i < GRID * GRID; i++) {
        w->cell[i] = (int16_t)i;
    }
    if (ok) {
        cur[0] = 0;
    }
    for (int len = 0; ok && len < w->depth; len++) {
        bool last = len + 1 == w->depth;
        word_t *next = last ? NULL : malloc(4 * ncur * sizeof(word_t));
        size_t nnext = 0;

        if (!last && next == NULL) {
            ok = false;
            break;
        }
        for (size_t i = 0; ok && i < ncur; i++) {
            for (int m = 0; m < TILES_MOVES; m++) {
                word_t s = cur[i] | (word_t)m << 2 * len;
                int dup;

                if (has_dup_suffix(w, s, len + 1)) {
                    continue;
                }
                dup = is_duplicate(w, s, len + 1);
                if (dup < 0) {
                    ok = false;
                    break;
                }
                if (dup == 1) {
                    dup_add(w, s, len + 1);
                }
                if (dup == 0 && !last) {
                    next[nnext++] = s;
                }
            }
        }
        free(cur);
        cur = next;
        ncur = nnext;
    }
    free(cur);
    return ok;
}

/* A trie node of the duplicates. */
typedef struct node {
    int32_t child[TILES_MOVES]; /* goto; -1 until the automaton fills it */
    int32_t fail;
    bool end; /* a duplicate ends here, or at a suffix of it */
} node_t;

/* The Aho-Corasick automaton of w's duplicates into out. */
static int
build_automaton(const walk_t *w, tiles_fsm_t *out)
{
    size_t cap = w->dup_n * (size_t)w->depth + 1;
    node_t *t = malloc(cap * sizeof(*t));
    int32_t *queue = malloc(cap * sizeof(*queue));
    int32_t *id = malloc(cap * sizeof(*id));
    size_t nt = 1;
    size_t head = 0;
    size_t tail = 0;
    int32_t live = 0;
    int rc = PZ_ENOMEM;

    if (t == NULL || queue == NULL || id == NULL) {
        goto done;
    }
    memset(t[0].child, 0xFF, sizeof(t[0].child));
    t[0].end = false;
    for (int len = 2; len <= w->depth; len++) {
        for (word_t s = 0; s < (word_t)1 << 2 * len; s++) {
            int32_t q = 0;

            if (!dup_has(w, s, len)) {
                continue;
            }
            for (int j = 0; j < len; j++) {
                int m = (int)(s >> 2 * j & 3);

                if (t[q].child[m] < 0) {
                    memset(t[nt].child, 0xFF, sizeof(t[nt].child));
                    t[nt].end = false;
                    t[q].child[m] = (int32_t)nt++;
                }
                q = t[q].child[m];
            }
            t[q].end = true;
        }
    }
    /* Breadth-first: each node's failure link (its longest proper suffix
     * in the trie), then every move's goto. */
    t[0].fail = 0;
    for (int m = 0; m < TILES_MOVES; m++) {
        int32_t c = t[0].child[m];

        if (c < 0) {
            t[0].child[m] = 0;
        } else {
            t[c].fail = 0;
            queue[tail++] = c;
        }
    }
    while (head < tail) {
        int32_t q = queue[head++];

        t[q].end = t[q].end || t[t[q].fail].end;
        for (int m = 0; m < TILES_MOVES; m++) {
            int32_t c = t[q].child[m];

            if (c < 0) {
                t[q].child[m] = t[t[q].fail].child[m];
            } else {
                t[c].fail = t[t[q].fail].child[m];
                queue[tail++] = c;
            }
        }
    }
    for (size_t q = 0; q < nt; q++) {
        id[q] = t[q].end ? -1 : live++;
    }
    out->next = malloc((size_t)live * TILES_MOVES * sizeof(*out->next));
    if (out->next == NULL) {
        goto done;
    }
    for (size_t q = 0; q < nt; q++) {
        if (id[q] < 0) {
            continue;
        }
        for (int m = 0; m < TILES_MOVES; m++) {
            out->next[(size_t)id[q] * TILES_MOVES + (size_t)m] =
                id[t[q].child[m]];
        }
    }
    out->nstates = live;
    out->depth = w->depth;
    out->duplicates = (int)w->dup_n;
    rc = PZ_OK;
done:
    free(queue);
    free(id);
    free(t);
    return rc;
}

int
tiles__fsm_generate(int depth, tiles_fsm_t *out)
{
    walk_t *w;
    int rc;

    memset(out, 0, sizeof(*out));
    if (depth < 2 || depth > TILES_FSM_DEPTH_MAX) {
        return PZ_EINVAL;
    }
    w = calloc(1, sizeof(*w));
    if (w == NULL) {
        return PZ_ENOMEM;
    }
    w->depth = depth;
    w->dup = calloc((size_t)(dup_bit(0, depth + 1) / 64 + 1), sizeof(uint64_t));
    rc = w->dup != NULL && find_duplicates(w) ? build_automaton(w, out)
                                              : PZ_ENOMEM;
    if (rc != PZ_OK) {
        tiles__fsm_free(out);
    }
    free(w->eff);
    free(w->dup);
    free(w);
    return rc;
}

void
tiles__fsm_free(tiles_fsm_t *f)
{
    free(f->next);
    memset(f, 0, sizeof(*f));
}
