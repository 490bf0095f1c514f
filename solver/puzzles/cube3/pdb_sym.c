/* SPDX-License-Identifier: MIT */
/* pdb_sym.c - 3x3x3 symmetries, raw coordinates and their tables. */

/*
 * Design: the 48 symmetries are taken from the sticker geometry, not typed
 * in. A symmetry turns (cubeface_turn of all three layers) or mirrors the
 * sticker picture of a cube; reading the picture back through the centres
 * (cube3_picture_to_cubie) gives the cube as seen in the new orientation,
 * which is the conjugate. A mirror image has every corner's stickers in
 * the wrong turning sense, so a mirror also swaps the L and R colours,
 * which makes the picture a real cube again. Conjugation moves each piece
 * to a position that depends only on the symmetry and renames its piece
 * and orientation by a rule that depends only on the position, so it is
 * a table per position and byte; the tables are filled by conjugating
 * scrambled cubes and checked for consistency, and each symmetry's action
 * on the 18 moves is read off the same way. Anything that is not an
 * automorphism fails init (PZ_EINTERNAL) instead of giving wrong tables.
 *
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
#include "puzzles/cubeface.h"

enum {
    NFACELETS = CUBE3_NFACELETS,
    NROT = 24,
    UNSET = 0xFF,
};

/* A symmetry in sticker terms: new[i] = colour(old[perm[i]]). */
typedef struct sticker_sym {
    int perm[NFACELETS];
    bool mirror; /* also swap the L and R colours */
} sticker_sym_t;

/* Small deterministic generator for the sample cubes (xorshift64*). */
static uint64_t
next_random(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * UINT64_C(2685821657736338717);
}

static void
random_cube(uint64_t *rng, cube3_cubie_t *c)
{
    cube3_cubie_solved(c);
    for (int i = 0; i < 40; i++) {
        cube3_cubie_move(c, (int)(next_random(rng) % CUBE3_NMOVES));
    }
}

static void
cubie_bytes(const cube3_cubie_t *c, uint8_t *b)
{
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(c->cp[i] * 3 + c->co[i]);
    }
    for (int i = 0; i < 12; i++) {
        b[8 + i] = (uint8_t)(c->ep[i] * 2 + c->eo[i]);
    }
}

/* Conjugates c through its sticker picture. PZ_OK or PZ_EINTERNAL. */
static int
sticker_conj(const sticker_sym_t *s, const cube3_cubie_t *c, cube3_cubie_t *out)
{
    int pic[NFACELETS];
    int moved[NFACELETS];

    cube3_cubie_to_picture(c, pic);
    for (int i = 0; i < NFACELETS; i++) {
        int col = pic[s->perm[i]];

        if (s->mirror && (col == CUBEFACE_R || col == CUBEFACE_L)) {
            col = CUBEFACE_R + CUBEFACE_L - col;
        }
        moved[i] = col;
    }
    if (cube3_picture_to_cubie(moved, CUBE3_SYM_FACE, out, NULL) != PZ_OK) {
        return PZ_EINTERNAL;
    }
    return PZ_OK;
}

/* The 24 rotations as closures of whole-cube x and y turns, identity
 * first, then each with the L-R mirror. */
static int
sticker_syms(sticker_sym_t *syms)
{
    int gen[2][NFACELETS];
    int mirror[NFACELETS];
    int n = 1;

    if (cubeface_turn(3, CUBEFACE_R, 7u, 1, gen[0]) != 0 ||
        cubeface_turn(3, CUBEFACE_U, 7u, 1, gen[1]) != 0) {
        return PZ_EINTERNAL;
    }
    for (int i = 0; i < NFACELETS; i++) {
        syms[0].perm[i] = i;
    }
    syms[0].mirror = false;
    for (int k = 0; k < n; k++) {
        for (int g = 0; g < 2; g++) {
            int p[NFACELETS];
            bool known = false;

            /* Turn by syms[k], then by the generator. */
            for (int i = 0; i < NFACELETS; i++) {
                p[i] = syms[k].perm[gen[g][i]];
            }
            for (int j = 0; j < n && !known; j++) {
                known = memcmp(p, syms[j].perm, sizeof(p)) == 0;
            }
            if (!known) {
                if (n == NROT) {
                    return PZ_EINTERNAL;
                }
                memcpy(syms[n].perm, p, sizeof(p));
                syms[n].mirror = false;
                n++;
            }
        }
    }
    if (n != NROT) {
        return PZ_EINTERNAL;
    }
    /* The mirror in the plane between L and R: each face's columns are
     * reversed, and R and L trade places. */
    for (int f = 0; f < 6; f++) {
        int g = f == CUBEFACE_R ? CUBEFACE_L : f == CUBEFACE_L ? CUBEFACE_R : f;

        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) {
                mirror[9 * f + 3 * r + c] = 9 * g + 3 * r + (2 - c);
            }
        }
    }
    for (int k = 0; k < NROT; k++) {
        for (int i = 0; i < NFACELETS; i++) {
            syms[NROT + k].perm[i] = syms[k].perm[mirror[i]];
        }
        syms[NROT + k].mirror = true;
    }
    return PZ_OK;
}

/* The corner (edge) position holding facelet f, or -1. */
static int
corner_of(int f)
{
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        for (int k = 0; k < 3; k++) {
            if (cube3_corner_facelet[i][k] == f) {
                return i;
            }
        }
    }
    return -1;
}

static int
edge_of(int f)
{
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        for (int k = 0; k < 2; k++) {
            if (cube3_edge_facelet[i][k] == f) {
                return i;
            }
        }
    }
    return -1;
}

/* Fills the byte map of one symmetry from sample cubes. */
static int
fill_conj(const sticker_sym_t *s, pdb_bytemap_t *m)
{
    uint64_t rng = UINT64_C(0x9E3779B97F4A7C15);
    int missing = 8 * 24 + 12 * 24;

    for (int j = 0; j < 8; j++) {
        m->csrc[j] = (uint8_t)corner_of(s->perm[cube3_corner_facelet[j][0]]);
    }
    for (int j = 0; j < 12; j++) {
        m->esrc[j] = (uint8_t)edge_of(s->perm[cube3_edge_facelet[j][0]]);
    }
    memset(m->cmap, UNSET, sizeof(m->cmap));
    memset(m->emap, UNSET, sizeof(m->emap));
    for (int round = 0; round < 4000 && missing > 0; round++) {
        cube3_cubie_t c;
        cube3_cubie_t d;
        uint8_t in[20];
        uint8_t out[20];

        random_cube(&rng, &c);
        if (sticker_conj(s, &c, &d) != PZ_OK) {
            return PZ_EINTERNAL;
        }
        cubie_bytes(&c, in);
        cubie_bytes(&d, out);
        for (int j = 0; j < 8; j++) {
            uint8_t *slot = &m->cmap[j][in[m->csrc[j]]];

            if (*slot == UNSET) {
                *slot = out[j];
                missing--;
            } else if (*slot != out[j]) {
                return PZ_EINTERNAL;
            }
        }
        for (int j = 0; j < 12; j++) {
            uint8_t *slot = &m->emap[j][in[8 + m->esrc[j]]];

            if (*slot == UNSET) {
                *slot = out[8 + j];
                missing--;
            } else if (*slot != out[8 + j]) {
                return PZ_EINTERNAL;
            }
        }
    }
    return missing == 0 ? PZ_OK : PZ_EINTERNAL;
}

/* The byte map of in * m. */
static void
fill_move(const cube3_cubie_t *mv, pdb_bytemap_t *m)
{
    for (int i = 0; i < 8; i++) {
        m->csrc[i] = mv->cp[i];
        for (int v = 0; v < 24; v++) {
            m->cmap[i][v] = (uint8_t)(v / 3 * 3 + (v % 3 + mv->co[i]) % 3);
        }
    }
    for (int i = 0; i < 12; i++) {
        m->esrc[i] = mv->ep[i];
        for (int v = 0; v < 24; v++) {
            m->emap[i][v] = (uint8_t)(v ^ mv->eo[i]);
        }
    }
}

static int
face_of_move(int htm)
{
    return htm / 3;
}

int
cube3_pdb__sym_init(pdb_sym_t *sy)
{
    sticker_sym_t *ss = malloc(PDB_NSYM * sizeof(*ss));
    uint64_t rng = 12345;
    int rc;
    int nud = 0;

    if (ss == NULL) {
        return PZ_ENOMEM;
    }
    rc = sticker_syms(ss);
    for (int s = 0; s < PDB_NSYM && rc == PZ_OK; s++) {
        rc = fill_conj(&ss[s], &sy->conj[s]);
    }
    free(ss);
    if (rc != PZ_OK) {
        return rc;
    }
    for (int m = 0; m < PDB_NHTM; m++) {
        fill_move(cube3_move_cubie(m), &sy->moves[m]);
    }
    /* The image of each move: conj(s, solved * m) is a move. */
    for (int s = 0; s < PDB_NSYM; s++) {
        for (int m = 0; m < PDB_NHTM; m++) {
            uint8_t solved[20];
            uint8_t a[20];
            uint8_t b[20];
            int found = -1;
            cube3_cubie_t c;

            cube3_cubie_solved(&c);
            cubie_bytes(&c, solved);
            cube3_pdb__map(&sy->moves[m], solved, a);
            cube3_pdb__map(&sy->conj[s], a, b);
            for (int k = 0; k < PDB_NHTM && found < 0; k++) {
                cube3_pdb__map(&sy->moves[k], solved, a);
                if (memcmp(a, b, 20) == 0) {
                    found = k;
                }
            }
            if (found < 0) {
                return PZ_EINTERNAL;
            }
            sy->move[s][m] = (uint8_t)found;
        }
    }
    /* Inverses, and a check that conj is a homomorphism on a sample. */
    for (int s = 0; s < PDB_NSYM; s++) {
        cube3_cubie_t c;
        uint8_t x[20];
        uint8_t y[20];
        uint8_t z[20];
        uint8_t w[20];
        int found = -1;

        random_cube(&rng, &c);
        cubie_bytes(&c, x);
        cube3_pdb__map(&sy->conj[s], x, y);
        for (int t = 0; t < PDB_NSYM && found < 0; t++) {
            cube3_pdb__map(&sy->conj[t], y, z);
            if (memcmp(z, x, 20) == 0) {
                found = t;
            }
        }
        if (found < 0) {
            return PZ_EINTERNAL;
        }
        sy->inv[s] = (uint8_t)found;
        for (int m = 0; m < PDB_NHTM; m++) {
            cube3_pdb__map(&sy->moves[m], x, z);
            cube3_pdb__map(&sy->conj[s], z, w);
            cube3_pdb__map(&sy->moves[sy->move[s][m]], y, z);
            if (memcmp(z, w, 20) != 0) {
                return PZ_EINTERNAL;
            }
        }
    }
    for (int s = 0; s < PDB_NSYM; s++) {
        int f = face_of_move(sy->move[s][0]);

        if (f == 0 || f == 3) {
            if (nud == PDB_NUDSYM) {
                return PZ_EINTERNAL;
            }
            sy->ud[nud++] = (uint8_t)s;
        }
    }
    if (nud != PDB_NUDSYM || sy->ud[0] != 0) {
        return PZ_EINTERNAL;
    }
    for (int k = 0; k < PDB_NUDSYM; k++) {
        sy->udinv[k] = UNSET;
        for (int j = 0; j < PDB_NUDSYM; j++) {
            if (sy->ud[j] == sy->inv[sy->ud[k]]) {
                sy->udinv[k] = (uint8_t)j;
            }
        }
        if (sy->udinv[k] == UNSET) {
            return PZ_EINTERNAL;
        }
    }
    /* Rotations taking the R-L and F-B axes to U-D (moves 3 = R, 6 = F). */
    sy->axis[0] = 0;
    sy->axis[1] = sy->axis[2] = UNSET;
    for (int s = 0; s < NROT; s++) {
        int fr = face_of_move(sy->move[s][3]);
        int ff = face_of_move(sy->move[s][6]);

        if (sy->axis[1] == UNSET && (fr == 0 || fr == 3)) {
            sy->axis[1] = (uint8_t)s;
        }
        if (sy->axis[2] == UNSET && (ff == 0 || ff == 3)) {
            sy->axis[2] = (uint8_t)s;
        }
    }
    return sy->axis[1] == UNSET || sy->axis[2] == UNSET ? PZ_EINTERNAL : PZ_OK;
}

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
    memset(co->csplit_rank, UNSET, sizeof(co->csplit_rank));
    for (unsigned mask = 0; mask < 256; mask++) {
        if (popcount8[mask] == 4) {
            co->csplit_rank[mask] = (uint8_t)n;
            co->csplit_mask[n++] = (uint8_t)mask;
        }
    }
    memset(co->order_rank, UNSET, sizeof(co->order_rank));
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
        cubie_bytes(&c, a);
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
            cubie_bytes(&c, b);
            co->twist_move[t][m] = (uint16_t)cube3_pdb__twist(b);
            co->twist_by_move[m][t] = co->twist_move[t][m];
        }
        for (int f = 0; f < PDB_NFLIP; f++) {
            cube3_cubie_t c;
            uint8_t b[20];

            cube3_cubie_solved(&c);
            cube3_set_flip(&c, f);
            cube3_cubie_move(&c, m);
            cubie_bytes(&c, b);
            co->flip_move[f][m] = (uint16_t)cube3_pdb__flip(b);
        }
        for (int p = 0; p < PDB_NCPERM; p++) {
            cube3_cubie_t c;
            uint8_t b[20];

            cube3_cubie_solved(&c);
            cube3_set_corner_perm(&c, p);
            cube3_cubie_move(&c, m);
            cubie_bytes(&c, b);
            co->cperm_move[p][m] = (uint16_t)cube3_pdb__cperm(b);
        }
        for (int s = 0; s < PDB_NSORTED; s++) {
            cube3_cubie_t c;
            uint8_t b[20];

            set_sorted(co, s, &c);
            cube3_cubie_move(&c, m);
            cubie_bytes(&c, b);
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
    cubie_bytes(&c, b);
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
    memset(sl->sym, UNSET, (size_t)n);
    /* The representative of a class is its smallest raw value; every raw
     * value of the class records a symmetry taking it there. */
    for (int r = 0; r < n; r++) {
        int c;

        if (sl->sym[r] != UNSET) {
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
            if (sl->sym[img] == UNSET) {
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
