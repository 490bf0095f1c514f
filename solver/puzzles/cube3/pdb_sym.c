/* SPDX-License-Identifier: MIT */
/* pdb_sym.c - the 48 symmetries of the 3x3x3 and its moves, as byte maps. */

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
 */
#include <stdlib.h>
#include <string.h>

#include "cube3.h"
#include "pdb_internal.h"
#include "puzzles/cubeface.h"

enum {
    NFACELETS = CUBE3_NFACELETS,
    NROT = 24,
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

void
cube3_pdb__cubie_bytes(const cube3_cubie_t *c, uint8_t *b)
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
    memset(m->cmap, PDB_UNSET, sizeof(m->cmap));
    memset(m->emap, PDB_UNSET, sizeof(m->emap));
    for (int round = 0; round < 4000 && missing > 0; round++) {
        cube3_cubie_t c;
        cube3_cubie_t d;
        uint8_t in[20];
        uint8_t out[20];

        random_cube(&rng, &c);
        if (sticker_conj(s, &c, &d) != PZ_OK) {
            return PZ_EINTERNAL;
        }
        cube3_pdb__cubie_bytes(&c, in);
        cube3_pdb__cubie_bytes(&d, out);
        for (int j = 0; j < 8; j++) {
            uint8_t *slot = &m->cmap[j][in[m->csrc[j]]];

            if (*slot == PDB_UNSET) {
                *slot = out[j];
                missing--;
            } else if (*slot != out[j]) {
                return PZ_EINTERNAL;
            }
        }
        for (int j = 0; j < 12; j++) {
            uint8_t *slot = &m->emap[j][in[8 + m->esrc[j]]];

            if (*slot == PDB_UNSET) {
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
            cube3_pdb__cubie_bytes(&c, solved);
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
        cube3_pdb__cubie_bytes(&c, x);
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
        sy->udinv[k] = PDB_UNSET;
        for (int j = 0; j < PDB_NUDSYM; j++) {
            if (sy->ud[j] == sy->inv[sy->ud[k]]) {
                sy->udinv[k] = (uint8_t)j;
            }
        }
        if (sy->udinv[k] == PDB_UNSET) {
            return PZ_EINTERNAL;
        }
    }
    /* Rotations taking the R-L and F-B axes to U-D (moves 3 = R, 6 = F). */
    sy->axis[0] = 0;
    sy->axis[1] = sy->axis[2] = PDB_UNSET;
    for (int s = 0; s < NROT; s++) {
        int fr = face_of_move(sy->move[s][3]);
        int ff = face_of_move(sy->move[s][6]);

        if (sy->axis[1] == PDB_UNSET && (fr == 0 || fr == 3)) {
            sy->axis[1] = (uint8_t)s;
        }
        if (sy->axis[2] == PDB_UNSET && (ff == 0 || ff == 3)) {
            sy->axis[2] = (uint8_t)s;
        }
    }
    return sy->axis[1] == PDB_UNSET || sy->axis[2] == PDB_UNSET ? PZ_EINTERNAL
                                                                : PZ_OK;
}
