/* SPDX-License-Identifier: MIT */
/* cubie.c - 3x3x3 cubie arithmetic: moves, products, inverses, coordinates. */
#include <string.h>

#include "cube3.h"
#include "perm.h"

/*
 * Design: all eighteen moves are constant cubie tables, so the model needs
 * no initialisation and no lazily built global state (threads may create
 * puzzles at the same time). The tables were derived from the sticker
 * geometry (cubeface_turn read back through cube3_picture_to_cubie), and
 * test_cube3 checks every one of them against that geometry, so a typing
 * error here fails a test. Coordinates are plain Lehmer ranks and base-3 /
 * base-2 numbers, the usual inputs of a two-phase solver's move tables.
 */

const uint8_t cube3_corner_facelet[CUBE3_NCORNERS][3] = {
    { 8, 9, 20 },   /* URF: U9 R1 F3 */
    { 6, 18, 38 },  /* UFL: U7 F1 L3 */
    { 0, 36, 47 },  /* ULB: U1 L1 B3 */
    { 2, 45, 11 },  /* UBR: U3 B1 R3 */
    { 29, 26, 15 }, /* DFR: D3 F9 R7 */
    { 27, 44, 24 }, /* DLF: D1 L9 F7 */
    { 33, 53, 42 }, /* DBL: D7 B9 L7 */
    { 35, 17, 51 }, /* DRB: D9 R9 B7 */
};

const uint8_t cube3_edge_facelet[CUBE3_NEDGES][2] = {
    { 5, 10 },  /* UR: U6 R2 */
    { 7, 19 },  /* UF: U8 F2 */
    { 3, 37 },  /* UL: U4 L2 */
    { 1, 46 },  /* UB: U2 B2 */
    { 32, 16 }, /* DR: D6 R8 */
    { 28, 25 }, /* DF: D2 F8 */
    { 30, 43 }, /* DL: D4 L8 */
    { 34, 52 }, /* DB: D8 B8 */
    { 23, 12 }, /* FR: F6 R4 */
    { 21, 41 }, /* FL: F4 L6 */
    { 50, 39 }, /* BL: B6 L4 */
    { 48, 14 }, /* BR: B4 R6 */
};

const char *const cube3_corner_name[CUBE3_NCORNERS] = {
    "UFR", "UFL", "UBL", "UBR", "DFR", "DFL", "DBL", "DBR",
};

const char *const cube3_edge_name[CUBE3_NEDGES] = {
    "UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR",
};

/* The eighteen HTM moves as cubies, in move-id order (cube3.h): cp, co,
 * ep, eo of the cube each move makes from the solved cube. */
static const cube3_cubie_t move_cubie[CUBE3_NMOVES] = {
    {
        /* U */
        { 3, 0, 1, 2, 4, 5, 6, 7 },
        { 0, 0, 0, 0, 0, 0, 0, 0 },
        { 3, 0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* U2 */
        { 2, 3, 0, 1, 4, 5, 6, 7 },
        { 0, 0, 0, 0, 0, 0, 0, 0 },
        { 2, 3, 0, 1, 4, 5, 6, 7, 8, 9, 10, 11 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* U' */
        { 1, 2, 3, 0, 4, 5, 6, 7 },
        { 0, 0, 0, 0, 0, 0, 0, 0 },
        { 1, 2, 3, 0, 4, 5, 6, 7, 8, 9, 10, 11 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* R */
        { 4, 1, 2, 0, 7, 5, 6, 3 },
        { 2, 0, 0, 1, 1, 0, 0, 2 },
        { 8, 1, 2, 3, 11, 5, 6, 7, 4, 9, 10, 0 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* R2 */
        { 7, 1, 2, 4, 3, 5, 6, 0 },
        { 0, 0, 0, 0, 0, 0, 0, 0 },
        { 4, 1, 2, 3, 0, 5, 6, 7, 11, 9, 10, 8 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* R' */
        { 3, 1, 2, 7, 0, 5, 6, 4 },
        { 2, 0, 0, 1, 1, 0, 0, 2 },
        { 11, 1, 2, 3, 8, 5, 6, 7, 0, 9, 10, 4 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* F */
        { 1, 5, 2, 3, 0, 4, 6, 7 },
        { 1, 2, 0, 0, 2, 1, 0, 0 },
        { 0, 9, 2, 3, 4, 8, 6, 7, 1, 5, 10, 11 },
        { 0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0 },
    },
    {
        /* F2 */
        { 5, 4, 2, 3, 1, 0, 6, 7 },
        { 0, 0, 0, 0, 0, 0, 0, 0 },
        { 0, 5, 2, 3, 4, 1, 6, 7, 9, 8, 10, 11 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* F' */
        { 4, 0, 2, 3, 5, 1, 6, 7 },
        { 1, 2, 0, 0, 2, 1, 0, 0 },
        { 0, 8, 2, 3, 4, 9, 6, 7, 5, 1, 10, 11 },
        { 0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0 },
    },
    {
        /* D */
        { 0, 1, 2, 3, 5, 6, 7, 4 },
        { 0, 0, 0, 0, 0, 0, 0, 0 },
        { 0, 1, 2, 3, 5, 6, 7, 4, 8, 9, 10, 11 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* D2 */
        { 0, 1, 2, 3, 6, 7, 4, 5 },
        { 0, 0, 0, 0, 0, 0, 0, 0 },
        { 0, 1, 2, 3, 6, 7, 4, 5, 8, 9, 10, 11 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* D' */
        { 0, 1, 2, 3, 7, 4, 5, 6 },
        { 0, 0, 0, 0, 0, 0, 0, 0 },
        { 0, 1, 2, 3, 7, 4, 5, 6, 8, 9, 10, 11 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* L */
        { 0, 2, 6, 3, 4, 1, 5, 7 },
        { 0, 1, 2, 0, 0, 2, 1, 0 },
        { 0, 1, 10, 3, 4, 5, 9, 7, 8, 2, 6, 11 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* L2 */
        { 0, 6, 5, 3, 4, 2, 1, 7 },
        { 0, 0, 0, 0, 0, 0, 0, 0 },
        { 0, 1, 6, 3, 4, 5, 2, 7, 8, 10, 9, 11 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* L' */
        { 0, 5, 1, 3, 4, 6, 2, 7 },
        { 0, 1, 2, 0, 0, 2, 1, 0 },
        { 0, 1, 9, 3, 4, 5, 10, 7, 8, 6, 2, 11 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* B */
        { 0, 1, 3, 7, 4, 5, 2, 6 },
        { 0, 0, 1, 2, 0, 0, 2, 1 },
        { 0, 1, 2, 11, 4, 5, 6, 10, 8, 9, 3, 7 },
        { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1 },
    },
    {
        /* B2 */
        { 0, 1, 7, 6, 4, 5, 3, 2 },
        { 0, 0, 0, 0, 0, 0, 0, 0 },
        { 0, 1, 2, 7, 4, 5, 6, 3, 8, 9, 11, 10 },
        { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
    },
    {
        /* B' */
        { 0, 1, 6, 2, 4, 5, 7, 3 },
        { 0, 0, 1, 2, 0, 0, 2, 1 },
        { 0, 1, 2, 10, 4, 5, 6, 11, 8, 9, 7, 3 },
        { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1 },
    },
};

void
cube3_cubie_solved(cube3_cubie_t *c)
{
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        c->cp[i] = (uint8_t)i;
        c->co[i] = 0;
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        c->ep[i] = (uint8_t)i;
        c->eo[i] = 0;
    }
}

bool
cube3_cubie_equal(const cube3_cubie_t *a, const cube3_cubie_t *b)
{
    return memcmp(a, b, sizeof(*a)) == 0;
}

void
cube3_cubie_multiply(const cube3_cubie_t *a,
                     const cube3_cubie_t *b,
                     cube3_cubie_t *out)
{
    cube3_cubie_t r;

    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        r.cp[i] = a->cp[b->cp[i]];
        r.co[i] = (uint8_t)((a->co[b->cp[i]] + b->co[i]) % 3);
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        r.ep[i] = a->ep[b->ep[i]];
        r.eo[i] = (uint8_t)((a->eo[b->ep[i]] + b->eo[i]) & 1);
    }
    *out = r;
}

void
cube3_cubie_inverse(const cube3_cubie_t *c, cube3_cubie_t *out)
{
    cube3_cubie_t r;

    /* The piece c->cp[i] came from i, so the inverse sends it back; its
     * twist must cancel: (c * r).co[j] = c->co[r.cp[j]] + r.co[j] = 0. */
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        r.cp[c->cp[i]] = (uint8_t)i;
    }
    for (int j = 0; j < CUBE3_NCORNERS; j++) {
        r.co[j] = (uint8_t)((3 - c->co[r.cp[j]]) % 3);
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        r.ep[c->ep[i]] = (uint8_t)i;
    }
    for (int j = 0; j < CUBE3_NEDGES; j++) {
        r.eo[j] = c->eo[r.ep[j]];
    }
    *out = r;
}

const cube3_cubie_t *
cube3_move_cubie(int move)
{
    if (move < 0 || move >= CUBE3_NMOVES) {
        return NULL;
    }
    return &move_cubie[move];
}

void
cube3_cubie_move(cube3_cubie_t *c, int move)
{
    cube3_cubie_multiply(c, &move_cubie[move], c);
}

void
cube3_cubie_to_state(const cube3_cubie_t *c, pz_state_t *out)
{
    state_clear(out);
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        out->b[i] = (uint8_t)(c->cp[i] * 3 + c->co[i]);
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        out->b[CUBE3_NCORNERS + i] = (uint8_t)(c->ep[i] * 2 + c->eo[i]);
    }
}

int
cube3_cubie_from_state(const pz_state_t *s, cube3_cubie_t *out)
{
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        if (s->b[i] >= CUBE3_NCORNERS * 3) {
            return PZ_EINVAL;
        }
        out->cp[i] = s->b[i] / 3;
        out->co[i] = s->b[i] % 3;
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        uint8_t v = s->b[CUBE3_NCORNERS + i];

        if (v >= CUBE3_NEDGES * 2) {
            return PZ_EINVAL;
        }
        out->ep[i] = v / 2;
        out->eo[i] = v % 2;
    }
    return PZ_OK;
}

int
cube3_corner_parity(const cube3_cubie_t *c)
{
    return perm_parity(c->cp, CUBE3_NCORNERS);
}

int
cube3_edge_parity(const cube3_cubie_t *c)
{
    return perm_parity(c->ep, CUBE3_NEDGES);
}

int
cube3_cubie_check(const cube3_cubie_t *c, pz_diag_t *d)
{
    unsigned seen = 0;
    int twist = 0;
    int flip = 0;

    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        if (c->cp[i] >= CUBE3_NCORNERS || c->co[i] > 2 ||
            (seen >> c->cp[i] & 1u)) {
            return pz_diag_set(d, PZ_EDUPLICATE,
                               "the corners are not a permutation: position "
                               "%s holds a repeated or unknown piece",
                               cube3_corner_name[i]);
        }
        seen |= 1u << c->cp[i];
        twist += c->co[i];
    }
    seen = 0;
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        if (c->ep[i] >= CUBE3_NEDGES || c->eo[i] > 1 ||
            (seen >> c->ep[i] & 1u)) {
            return pz_diag_set(d, PZ_EDUPLICATE,
                               "the edges are not a permutation: position "
                               "%s holds a repeated or unknown piece",
                               cube3_edge_name[i]);
        }
        seen |= 1u << c->ep[i];
        flip += c->eo[i];
    }
    if (twist % 3 != 0) {
        return pz_diag_set(d, PZ_ETWIST,
                           "the corners' twists do not add up: one corner "
                           "is twisted in place");
    }
    if (flip % 2 != 0) {
        return pz_diag_set(d, PZ_EFLIP,
                           "the edges' flips do not add up: one edge is "
                           "flipped in place");
    }
    if (cube3_corner_parity(c) != cube3_edge_parity(c)) {
        return pz_diag_set(d, PZ_EPARITY,
                           "corner and edge permutation parities differ: "
                           "two pieces are swapped");
    }
    return PZ_OK;
}

int
cube3_twist(const cube3_cubie_t *c)
{
    int t = 0;

    for (int i = 0; i < CUBE3_NCORNERS - 1; i++) {
        t = t * 3 + c->co[i];
    }
    return t;
}

void
cube3_set_twist(cube3_cubie_t *c, int twist)
{
    int sum = 0;

    for (int i = CUBE3_NCORNERS - 2; i >= 0; i--) {
        c->co[i] = (uint8_t)(twist % 3);
        sum += c->co[i];
        twist /= 3;
    }
    c->co[CUBE3_NCORNERS - 1] = (uint8_t)((3 - sum % 3) % 3);
}

int
cube3_flip(const cube3_cubie_t *c)
{
    int f = 0;

    for (int i = 0; i < CUBE3_NEDGES - 1; i++) {
        f = f * 2 + c->eo[i];
    }
    return f;
}

void
cube3_set_flip(cube3_cubie_t *c, int flip)
{
    int sum = 0;

    for (int i = CUBE3_NEDGES - 2; i >= 0; i--) {
        c->eo[i] = (uint8_t)(flip & 1);
        sum += c->eo[i];
        flip >>= 1;
    }
    c->eo[CUBE3_NEDGES - 1] = (uint8_t)(sum & 1);
}

int
cube3_corner_perm(const cube3_cubie_t *c)
{
    return (int)perm_rank(c->cp, CUBE3_NCORNERS);
}

void
cube3_set_corner_perm(cube3_cubie_t *c, int rank)
{
    perm_unrank((uint64_t)rank, CUBE3_NCORNERS, c->cp);
}

int32_t
cube3_edge_perm(const cube3_cubie_t *c)
{
    return (int32_t)perm_rank(c->ep, CUBE3_NEDGES);
}

void
cube3_set_edge_perm(cube3_cubie_t *c, int32_t rank)
{
    perm_unrank((uint64_t)rank, CUBE3_NEDGES, c->ep);
}

/* C(n, k) for n <= 11, k <= 4: the colex ranks of the slice coordinate. */
static int
binom(int n, int k)
{
    int r = 1;

    if (k > n) {
        return 0;
    }
    for (int i = 0; i < k; i++) {
        r = r * (n - i) / (i + 1);
    }
    return r;
}

/*
 * The slice coordinate is the colex rank of the set {11 - p} over the
 * positions p holding slice edges. Counting from position 11 down makes
 * the solved set {8, 9, 10, 11} rank 0, so "slice == 0" is the phase-1
 * goal test.
 */
int
cube3_slice(const cube3_cubie_t *c)
{
    int rank = 0;
    int k = 0;

    for (int p = CUBE3_NEDGES - 1; p >= 0; p--) {
        if (c->ep[p] >= CUBE3_FR) {
            k++;
            rank += binom(CUBE3_NEDGES - 1 - p, k);
        }
    }
    return rank;
}

void
cube3_set_slice(cube3_cubie_t *c, int slice)
{
    bool in_slice[CUBE3_NEDGES] = { false };
    int next_slice = CUBE3_FR;
    int next_ud = CUBE3_UR;

    /* Colex unranking: the largest q with C(q, k) <= rank is the k-th
     * smallest element, from k = 4 down. */
    for (int k = 4; k >= 1; k--) {
        int q = k - 1;

        while (binom(q + 1, k) <= slice) {
            q++;
        }
        slice -= binom(q, k);
        in_slice[CUBE3_NEDGES - 1 - q] = true;
    }
    for (int p = 0; p < CUBE3_NEDGES; p++) {
        c->ep[p] = (uint8_t)(in_slice[p] ? next_slice++ : next_ud++);
    }
}

int
cube3_slice_perm(const cube3_cubie_t *c)
{
    uint8_t p[4];

    for (int i = 0; i < 4; i++) {
        p[i] = (uint8_t)(c->ep[CUBE3_FR + i] - CUBE3_FR);
    }
    return (int)perm_rank(p, 4);
}

void
cube3_set_slice_perm(cube3_cubie_t *c, int rank)
{
    uint8_t p[4];

    perm_unrank((uint64_t)rank, 4, p);
    for (int i = 0; i < 4; i++) {
        c->ep[CUBE3_FR + i] = (uint8_t)(p[i] + CUBE3_FR);
    }
}

int
cube3_ud_edge_perm(const cube3_cubie_t *c)
{
    return (int)perm_rank(c->ep, CUBE3_FR);
}

void
cube3_set_ud_edge_perm(cube3_cubie_t *c, int rank)
{
    perm_unrank((uint64_t)rank, CUBE3_FR, c->ep);
}

void
cube3_cubie_to_picture(const cube3_cubie_t *c, int pic[CUBE3_NFACELETS])
{
    for (int f = 0; f < 6; f++) {
        pic[9 * f + 4] = f;
    }
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        int j = c->cp[i];
        int t = c->co[i];

        /* Sticker k of the piece sits at index k + t of the position. */
        for (int k = 0; k < 3; k++) {
            pic[cube3_corner_facelet[i][(k + t) % 3]] =
                cube3_corner_facelet[j][k] / 9;
        }
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        int j = c->ep[i];
        int t = c->eo[i];

        for (int k = 0; k < 2; k++) {
            pic[cube3_edge_facelet[i][(k + t) % 2]] =
                cube3_edge_facelet[j][k] / 9;
        }
    }
}
