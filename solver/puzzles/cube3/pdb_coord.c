/* SPDX-License-Identifier: MIT */
/* pdb_coord.c - 3x3x3 raw coordinates, their tables and the slice
 * patterns reduced by symmetry. */

/*
 * Coordinates: twist (3^7), flip (2^11) and the corner permutation rank
 * match cube3.h; "comb" is the set of positions of the four E-slice edges
 * (FR FL BL BR, pieces 8..11), ranked among the 495 4-subsets of 12, and
 * "sorted" adds the order of those four pieces (comb * 24 + order).
 * The slice patterns are reduced by the 16 symmetries that keep the U-D
 * axis: under them a twist stays a twist (possibly negated), and a flip
 * changes by a permutation of positions plus a flip of the edges that
 * move between the E slice and the U/D layers' frame, which depends only
 * on where the E-slice pieces are (comb). Both facts are checked at init.
 */
#include <stdlib.h>
#include <string.h>

#include "cube3.h"
#include "pdb_internal.h"

/* --- Coordinates of 20-byte states -------------------------------------- */

int
cube3_pdb__twist(const uint8_t *b)
{
    int t = 0;

    for (int i = 0; i < 7; i++) {
        t = t * 3 + b[i] % 3;
    }
    return t;
}

int
cube3_pdb__flip(const uint8_t *b)
{
    int f = 0;

    for (int i = 0; i < 11; i++) {
        f = f * 2 + (b[8 + i] & 1);
    }
    return f;
}

/* Bits set in an 8-bit value. */
static const uint8_t popcount8[256] = {
#define B2(n) n, n + 1, n + 1, n + 2
#define B4(n) B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n) B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
    B6(0),
    B6(1),
    B6(1),
    B6(2),
#undef B6
#undef B4
#undef B2
};

int
cube3_pdb__cperm(const uint8_t *b)
{
    unsigned used = 0;
    int rank = 0;

    /* Lehmer code: pieces after position i that are smaller than its
     * piece are the smaller pieces not used before it. */
    for (int i = 0; i < 8; i++) {
        int p = b[i] / 3;

        rank = rank * (8 - i) + p - popcount8[used & ((1u << p) - 1)];
        used |= 1u << p;
    }
    return rank;
}

/* Positions (bit j: edge position j) holding E-slice pieces. */
static unsigned
slice_mask(const uint8_t *b)
{
    unsigned mask = 0;

    for (int j = 0; j < 12; j++) {
        mask |= (unsigned)(b[8 + j] >= 16) << j;
    }
    return mask;
}

int
cube3_pdb__comb(const pdb_coord_t *co, const uint8_t *b)
{
    return co->comb_rank[slice_mask(b)];
}

int
cube3_pdb__sorted(const pdb_coord_t *co, const uint8_t *b)
{
    unsigned mask = 0;
    unsigned order = 0;
    int k = 0;

    for (int j = 0; j < 12; j++) {
        int p = b[8 + j] >> 1;

        if (p >= 8) {
            mask |= 1u << j;
            order |= (unsigned)(p - 8) << (2 * k++);
        }
    }
    return co->comb_rank[mask] * 24 + co->order_rank[order];
}

int
cube3_pdb__csplit(const pdb_coord_t *co, const uint8_t *b)
{
    unsigned mask = 0;

    /* Corner pieces 0..3 are the U layer's (bytes below 12). */
    for (int i = 0; i < 8; i++) {
        mask |= (unsigned)(b[i] < 12) << i;
    }
    return co->csplit_rank[mask];
}

int
cube3_pdb__raw(const pdb_coord_t *co, int kind, const uint8_t *b)
{
    switch (kind) {
    case CUBE3_PDB_SORTED:
        return cube3_pdb__sorted(co, b);
    case CUBE3_PDB_CSPLIT:
        return cube3_pdb__comb(co, b) * PDB_NCSPLIT + cube3_pdb__csplit(co, b);
    default:
        return cube3_pdb__comb(co, b);
    }
}

/* --- Coordinate tables -------------------------------------------------- */

/* A cube whose E-slice pieces sit as sorted coordinate s says, the other
 * edges in order, the corners solved. */
static void
set_sorted(const pdb_coord_t *co, int s, cube3_cubie_t *c)
{
    unsigned mask = co->comb_mask[s / 24];
    int order[4];
    int next = 0;
    int k = 0;
    bool used[4] = { false, false, false, false };
    int digit = s % 24;

    /* Unrank the order (lexicographic over permutations of 0..3). */
    for (int i = 0; i < 4; i++) {
        int f = i == 0 ? 6 : i == 1 ? 2 : 1;
        int d = i < 3 ? digit / f : 0;

        digit = i < 3 ? digit % f : 0;
        for (int v = 0; v < 4; v++) {
            if (!used[v] && d-- == 0) {
                order[i] = v;
                used[v] = true;
                break;
            }
        }
    }
    cube3_cubie_solved(c);
    for (int j = 0; j < 12; j++) {
        if (mask >> j & 1u) {
            c->ep[j] = (uint8_t)(8 + order[k++]);
        } else {
            c->ep[j] = (uint8_t)next++;
        }
    }
}

/* Ranks of 4-subsets and of orders. */
static void
fill_ranks(pdb_coord_t *co)
{
    int n = 0;
    int perm[4] = { 0, 1, 2, 3 };

    for (unsigned mask = 0; mask < 4096; mask++) {
        int bits = popcount8[mask & 0xFF] + popcount8[mask >> 8];

        co->comb_rank[mask] = 0xFFFF;
        if (bits == 4) {
            co->comb_rank[mask] = (uint16_t)n;
            co->comb_mask[n] = (uint16_t)mask;
            n++;
        }
    }
    n = 0;
    memset(co->csplit_rank, PDB_UNSET, sizeof(co->csplit_rank));
    for (unsigned mask = 0; mask < 256; mask++) {
        if (popcount8[mask] == 4) {
            co->csplit_rank[mask] = (uint8_t)n;
            co->csplit_mask[n++] = (uint8_t)mask;
        }
    }
    memset(co->order_rank, PDB_UNSET, sizeof(co->order_rank));
    for (int r = 0; r < 24; r++) {
        /* perm is the permutation of rank r (lexicographic order). */
        int digit = r;
        bool used[4] = { false, false, false, false };
        unsigned packed = 0;

        for (int i = 0; i < 4; i++) {
            int f = i == 0 ? 6 : i == 1 ? 2 : 1;
            int d = i < 3 ? digit / f : 0;

            digit = i < 3 ? digit % f : 0;
            for (int v = 0; v < 4; v++) {
                if (!used[v] && d-- == 0) {
                    perm[i] = v;
                    used[v] = true;
                    break;
                }
            }
            packed |= (unsigned)perm[i] << (2 * i);
        }
        co->order_rank[packed] = (uint8_t)r;
    }
}

/* Checks that under the U-D symmetry s a twist and a flip transform as
 * the design paragraph says, and fills the conjugation tables of k. */
static int
fill_ud_conj(pdb_coord_t *co, const pdb_sym_t *sy, int k)
{
    const pdb_bytemap_t *m = &sy->conj[sy->ud[k]];
    int tw[3];
    uint8_t e[12][2];

    /* Twists: one rule for every position and piece. */
    for (int o = 0; o < 3; o++) {
        tw[o] = m->cmap[0][o] % 3;
    }
    for (int j = 0; j < 8; j++) {
        for (int v = 0; v < 24; v++) {
            if (m->cmap[j][v] % 3 != tw[v % 3]) {
                return PZ_EINTERNAL;
            }
        }
    }
    /* Flips: changed per position, and per piece only by E-ness. */
    for (int j = 0; j < 12; j++) {
        /* Piece 0 (UR) and piece 8 (FR) with flip 0. */
        e[j][0] = (uint8_t)(m->emap[j][0] & 1);
        e[j][1] = (uint8_t)(m->emap[j][16] & 1);
        for (int v = 0; v < 24; v++) {
            if (((m->emap[j][v] ^ v) & 1) != e[j][v >= 16]) {
                return PZ_EINTERNAL;
            }
            /* E pieces stay E pieces. */
            if ((m->emap[j][v] >= 16) != (v >= 16)) {
                return PZ_EINTERNAL;
            }
        }
    }
    for (int t = 0; t < PDB_NTWIST; t++) {
        int digits[8];
        int sum = 0;
        int r = 0;

        for (int i = 6, x = t; i >= 0; i--, x /= 3) {
            digits[i] = x % 3;
            sum += digits[i];
        }
        digits[7] = (3 - sum % 3) % 3;
        for (int j = 0; j < 7; j++) {
            r = r * 3 + tw[digits[m->csrc[j]]];
        }
        co->twist_conj[k][t] = (uint16_t)r;
    }
    for (int f = 0; f < PDB_NFLIP; f++) {
        int bits[12];
        int sum = 0;
        int r = 0;

        for (int i = 10, x = f; i >= 0; i--, x >>= 1) {
            bits[i] = x & 1;
            sum += bits[i];
        }
        bits[11] = sum & 1;
        for (int j = 0; j < 11; j++) {
            r = r * 2 + (bits[m->esrc[j]] ^ e[j][0]);
        }
        co->flip_perm[k][f] = (uint16_t)r;
    }
    for (int c = 0; c < PDB_NCOMB; c++) {
        unsigned mask = co->comb_mask[c];
        int r = 0;

        for (int j = 0; j < 11; j++) {
            int isE = (int)(mask >> m->esrc[j] & 1u);

            r = r * 2 + (isE ? e[j][0] ^ e[j][1] : 0);
        }
        co->flip_mask[k][c] = (uint16_t)r;
    }
    for (int s = 0; s < PDB_NSORTED; s++) {
        cube3_cubie_t c;
        uint8_t a[20];
        uint8_t b[20];

        set_sorted(co, s, &c);
        cube3_pdb__cubie_bytes(&c, a);
        cube3_pdb__map(m, a, b);
        co->sorted_conj[k][s] = (uint16_t)cube3_pdb__sorted(co, b);
    }
    return PZ_OK;
}

int
cube3_pdb__coord_init(pdb_coord_t *co, const pdb_sym_t *sy)
{
    fill_ranks(co);
    for (int m = 0; m < PDB_NHTM; m++) {
        for (int t = 0; t < PDB_NTWIST; t++) {
            cube3_cubie_t c;
            uint8_t b[20];

            cube3_cubie_solved(&c);
            cube3_set_twist(&c, t);
            cube3_cubie_move(&c, m);
            cube3_pdb__cubie_bytes(&c, b);
            co->twist_move[t][m] = (uint16_t)cube3_pdb__twist(b);
            co->twist_by_move[m][t] = co->twist_move[t][m];
        }
        for (int f = 0; f < PDB_NFLIP; f++) {
            cube3_cubie_t c;
            uint8_t b[20];

            cube3_cubie_solved(&c);
            cube3_set_flip(&c, f);
            cube3_cubie_move(&c, m);
            cube3_pdb__cubie_bytes(&c, b);
            co->flip_move[f][m] = (uint16_t)cube3_pdb__flip(b);
        }
        for (int p = 0; p < PDB_NCPERM; p++) {
            cube3_cubie_t c;
            uint8_t b[20];

            cube3_cubie_solved(&c);
            cube3_set_corner_perm(&c, p);
            cube3_cubie_move(&c, m);
            cube3_pdb__cubie_bytes(&c, b);
            co->cperm_move[p][m] = (uint16_t)cube3_pdb__cperm(b);
        }
        for (int s = 0; s < PDB_NSORTED; s++) {
            cube3_cubie_t c;
            uint8_t b[20];

            set_sorted(co, s, &c);
            cube3_cubie_move(&c, m);
            cube3_pdb__cubie_bytes(&c, b);
            co->sorted_move[s][m] = (uint16_t)cube3_pdb__sorted(co, b);
        }
    }
    for (int k = 0; k < PDB_NUDSYM; k++) {
        int rc = fill_ud_conj(co, sy, k);

        if (rc != PZ_OK) {
            return rc;
        }
    }
    return PZ_OK;
}

/* --- Slice reduction ---------------------------------------------------- */

/* A cube (bytes) whose raw slice coordinate of kind is raw: the E-slice
 * pieces where it says, the U-layer corners too for CSPLIT, the rest in
 * order. Moves and symmetries act on bytes position by position, so any
 * such cube gives the coordinate's image. */
static void
raw_cube(const pdb_coord_t *co, int kind, int div, int raw, uint8_t *b)
{
    cube3_cubie_t c;

    if (kind == CUBE3_PDB_SORTED) {
        set_sorted(co, raw, &c);
    } else {
        set_sorted(co, raw / div * 24, &c);
    }
    if (kind == CUBE3_PDB_CSPLIT) {
        unsigned mask = co->csplit_mask[raw % div];
        int up = 0;
        int down = 4;

        for (int i = 0; i < 8; i++) {
            c.cp[i] = (uint8_t)(mask >> i & 1u ? up++ : down++);
        }
    }
    cube3_pdb__cubie_bytes(&c, b);
}

int
cube3_pdb__slice_init(pdb_slice_t *sl,
                      const pdb_coord_t *co,
                      const pdb_sym_t *sy,
                      int kind)
{
    int div = kind == CUBE3_PDB_SORTED   ? 24
              : kind == CUBE3_PDB_CSPLIT ? PDB_NCSPLIT
                                         : 1;
    int n = PDB_NCOMB * div;
    uint32_t *conj = NULL;

    memset(sl, 0, sizeof(*sl));
    sl->kind = kind;
    sl->div = div;
    sl->nraw = n;
    sl->cls = malloc((size_t)n * sizeof(*sl->cls));
    sl->sym = malloc((size_t)n);
    sl->rep = malloc((size_t)n * sizeof(*sl->rep));
    sl->stab = malloc((size_t)n * sizeof(*sl->stab));
    sl->move = malloc((size_t)n * sizeof(*sl->move));
    conj = malloc((size_t)n * PDB_NUDSYM * sizeof(*conj));
    if (sl->cls == NULL || sl->sym == NULL || sl->rep == NULL ||
        sl->stab == NULL || sl->move == NULL || conj == NULL) {
        free(conj);
        cube3_pdb__slice_free(sl);
        return PZ_ENOMEM;
    }
    for (int r = 0; r < n; r++) {
        uint8_t a[20];
        uint8_t b[20];

        raw_cube(co, kind, div, r, a);
        for (int m = 0; m < PDB_NHTM; m++) {
            cube3_pdb__map(&sy->moves[m], a, b);
            sl->move[r][m] = (uint32_t)cube3_pdb__raw(co, kind, b);
        }
        for (int k = 0; k < PDB_NUDSYM; k++) {
            cube3_pdb__map(&sy->conj[sy->ud[k]], a, b);
            conj[(size_t)r * PDB_NUDSYM + (size_t)k] =
                (uint32_t)cube3_pdb__raw(co, kind, b);
        }
    }
    memset(sl->sym, PDB_UNSET, (size_t)n);
    /* The representative of a class is its smallest raw value; every raw
     * value of the class records a symmetry taking it there. */
    for (int r = 0; r < n; r++) {
        int c;

        if (sl->sym[r] != PDB_UNSET) {
            continue;
        }
        c = sl->nclass++;
        sl->rep[c] = (uint32_t)r;
        sl->stab[c] = 0;
        for (int k = 0; k < PDB_NUDSYM; k++) {
            int img = (int)conj[(size_t)r * PDB_NUDSYM + (size_t)k];

            if (img == r) {
                sl->stab[c] |= (uint16_t)(1u << k);
            }
            if (sl->sym[img] == PDB_UNSET) {
                sl->cls[img] = (uint16_t)c;
                sl->sym[img] = sy->udinv[k];
            }
        }
    }
    for (int r = 0; r < n; r++) {
        if (conj[(size_t)r * PDB_NUDSYM + sl->sym[r]] != sl->rep[sl->cls[r]]) {
            free(conj);
            cube3_pdb__slice_free(sl);
            return PZ_EINTERNAL;
        }
    }
    free(conj);
    return PZ_OK;
}

void
cube3_pdb__slice_free(pdb_slice_t *sl)
{
    if (sl == NULL) {
        return;
    }
    free(sl->cls);
    free(sl->sym);
    free(sl->rep);
    free(sl->stab);
    free(sl->move);
    memset(sl, 0, sizeof(*sl));
}
