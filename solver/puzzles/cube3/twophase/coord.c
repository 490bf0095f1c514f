/* SPDX-License-Identifier: MIT */
/* coord.c - two-phase move tables and symmetry classes of coordinates. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "perm.h"
#include "twophase_internal.h"

/*
 * Design: every table is made by playing the move (or the conjugation) on
 * a cubie built from the coordinate and reading the coordinate back, so
 * the tables inherit cube3's tested cubie arithmetic instead of encoding
 * their own. Symmetry classes are found by walking the raw coordinates in
 * order: the first member of a class is its representative, and its 16
 * conjugates are the rest of the class. Conjugation by the 16 symmetries
 * that keep the U-D axis maps flip x slice to flip x slice (an edge's flip
 * changes only with whether it is a slice edge, which the slice
 * coordinate says), twist to twist, and, inside G1, the corner and U/D
 * edge permutations to themselves; that is what makes the reductions
 * sound.
 */

const uint8_t twophase__move2[TWOPHASE_NMOVES2] = {
    0,  1,  2,  /* U U2 U' */
    4,          /* R2 */
    7,          /* F2 */
    9,  10, 11, /* D D2 D' */
    13,         /* L2 */
    16,         /* B2 */
};

/* The 16 U-D symmetries and their inverses as cubies. */
typedef struct sym_set {
    cube3_cubie_t sym[CUBE3_NSYM_UD];
    cube3_cubie_t inv[CUBE3_NSYM_UD];
    int inv_index[CUBE3_NSYM_UD];
} sym_set_t;

static void
sym_set_init(sym_set_t *ss)
{
    for (int s = 0; s < CUBE3_NSYM_UD; s++) {
        ss->inv_index[s] = cube3_sym_inverse(s);
        cube3_sym_cubie(s, &ss->sym[s]);
        cube3_sym_cubie(ss->inv_index[s], &ss->inv[s]);
    }
}

static void
conjugate(const sym_set_t *ss,
          const cube3_cubie_t *c,
          int s,
          cube3_cubie_t *out)
{
    cube3_cubie_multiply_any(&ss->sym[s], c, out);
    cube3_cubie_multiply_any(out, &ss->inv[s], out);
}

void
twophase__build_moves(twophase_tables_t *t)
{
    cube3_cubie_t c;

    for (int v = 0; v < CUBE3_NTWIST; v++) {
        for (int m = 0; m < TWOPHASE_NMOVES; m++) {
            cube3_cubie_solved(&c);
            cube3_set_twist(&c, v);
            cube3_cubie_move(&c, m);
            t->twist_move[v][m] = (uint16_t)cube3_twist(&c);
        }
    }
    for (int v = 0; v < CUBE3_NFLIP; v++) {
        for (int m = 0; m < TWOPHASE_NMOVES; m++) {
            cube3_cubie_solved(&c);
            cube3_set_flip(&c, v);
            cube3_cubie_move(&c, m);
            t->flip_move[v][m] = (uint16_t)cube3_flip(&c);
        }
    }
    for (int v = 0; v < CUBE3_NSLICE; v++) {
        for (int m = 0; m < TWOPHASE_NMOVES; m++) {
            cube3_cubie_solved(&c);
            cube3_set_slice(&c, v);
            cube3_cubie_move(&c, m);
            t->slice_move[v][m] = (uint16_t)cube3_slice(&c);
        }
    }
    for (int v = 0; v < CUBE3_NCORNER_PERM; v++) {
        for (int k = 0; k < TWOPHASE_NMOVES2; k++) {
            cube3_cubie_solved(&c);
            cube3_set_corner_perm(&c, v);
            cube3_cubie_move(&c, twophase__move2[k]);
            t->corner_move[v][k] = (uint16_t)cube3_corner_perm(&c);

            cube3_cubie_solved(&c);
            cube3_set_ud_edge_perm(&c, v);
            cube3_cubie_move(&c, twophase__move2[k]);
            t->ud_move[v][k] = (uint16_t)cube3_ud_edge_perm(&c);
        }
    }
    for (int v = 0; v < CUBE3_NSLICE_PERM; v++) {
        for (int k = 0; k < TWOPHASE_NMOVES2; k++) {
            cube3_cubie_solved(&c);
            cube3_set_slice_perm(&c, v);
            cube3_cubie_move(&c, twophase__move2[k]);
            t->slice_perm_move[v][k] = (uint8_t)cube3_slice_perm(&c);
        }
    }
}

/* Sentinel of an unclassified raw coordinate. */
#define UNSEEN32 UINT32_MAX
#define UNSEEN16 UINT16_MAX

static int
build_flipslice_classes(twophase_tables_t *t, const sym_set_t *ss)
{
    int nclasses = 0;

    for (int fs = 0; fs < TWOPHASE_NFLIPSLICE; fs++) {
        t->flipslice_sym[fs] = UNSEEN32;
    }
    for (int fs = 0; fs < TWOPHASE_NFLIPSLICE; fs++) {
        cube3_cubie_t rep;

        if (t->flipslice_sym[fs] != UNSEEN32) {
            continue;
        }
        if (nclasses == TWOPHASE_NFLIPSLICE_CLASSES) {
            return PZ_EINTERNAL;
        }
        cube3_cubie_solved(&rep);
        cube3_set_slice(&rep, fs / CUBE3_NFLIP);
        cube3_set_flip(&rep, fs % CUBE3_NFLIP);
        t->flipslice_rep[nclasses] = (uint32_t)fs;
        for (int s = 0; s < CUBE3_NSYM_UD; s++) {
            cube3_cubie_t x;
            int other;

            /* x = conj_s(rep), so conj_{s^-1}(x) = rep. */
            conjugate(ss, &rep, s, &x);
            other = cube3_slice(&x) * CUBE3_NFLIP + cube3_flip(&x);
            if (other == fs) {
                t->flipslice_stab[nclasses] |= (uint16_t)(1u << s);
            }
            if (t->flipslice_sym[other] == UNSEEN32) {
                t->flipslice_sym[other] =
                    (uint32_t)nclasses << 4 | (uint32_t)ss->inv_index[s];
            }
        }
        nclasses++;
    }
    return nclasses == TWOPHASE_NFLIPSLICE_CLASSES ? PZ_OK : PZ_EINTERNAL;
}

static int
build_corner_classes(twophase_tables_t *t, const sym_set_t *ss)
{
    int nclasses = 0;

    for (int cp = 0; cp < CUBE3_NCORNER_PERM; cp++) {
        t->corner_sym[cp] = UNSEEN16;
    }
    for (int cp = 0; cp < CUBE3_NCORNER_PERM; cp++) {
        cube3_cubie_t rep;

        if (t->corner_sym[cp] != UNSEEN16) {
            continue;
        }
        if (nclasses == TWOPHASE_NCORNER_CLASSES) {
            return PZ_EINTERNAL;
        }
        cube3_cubie_solved(&rep);
        cube3_set_corner_perm(&rep, cp);
        t->corner_rep[nclasses] = (uint16_t)cp;
        for (int s = 0; s < CUBE3_NSYM_UD; s++) {
            cube3_cubie_t x;
            int other;

            conjugate(ss, &rep, s, &x);
            other = cube3_corner_perm(&x);
            if (other == cp) {
                t->corner_stab[nclasses] |= (uint16_t)(1u << s);
            }
            if (t->corner_sym[other] == UNSEEN16) {
                t->corner_sym[other] =
                    (uint16_t)(nclasses << 4 | ss->inv_index[s]);
            }
        }
        nclasses++;
    }
    return nclasses == TWOPHASE_NCORNER_CLASSES ? PZ_OK : PZ_EINTERNAL;
}

int
twophase__build_syms(twophase_tables_t *t)
{
    sym_set_t ss;
    cube3_cubie_t c;
    cube3_cubie_t x;
    int rc;

    sym_set_init(&ss);
    for (int v = 0; v < CUBE3_NTWIST; v++) {
        cube3_cubie_solved(&c);
        cube3_set_twist(&c, v);
        for (int s = 0; s < CUBE3_NSYM_UD; s++) {
            conjugate(&ss, &c, s, &x);
            t->twist_conj[v][s] = (uint16_t)cube3_twist(&x);
        }
    }
    for (int v = 0; v < CUBE3_NUD_EDGE_PERM; v++) {
        cube3_cubie_solved(&c);
        cube3_set_ud_edge_perm(&c, v);
        for (int s = 0; s < CUBE3_NSYM_UD; s++) {
            conjugate(&ss, &c, s, &x);
            t->ud_conj[s][v] = (uint16_t)cube3_ud_edge_perm(&x);
        }
    }
    for (int a = 0; a < CUBE3_NSYM_UD; a++) {
        for (int b = 0; b < CUBE3_NSYM_UD; b++) {
            cube3_cubie_multiply_any(&ss.sym[a], &ss.sym[b], &x);
            for (int s = 0; s < CUBE3_NSYM_UD; s++) {
                if (cube3_cubie_equal(&x, &ss.sym[s])) {
                    t->sym_mult[a][b] = (uint8_t)s;
                }
            }
        }
        for (int m = 0; m < TWOPHASE_NMOVES; m++) {
            t->sym_move[a][m] = (uint8_t)cube3_sym_move(a, m);
        }
    }
    rc = build_flipslice_classes(t, &ss);
    if (rc == PZ_OK) {
        rc = build_corner_classes(t, &ss);
    }
    if (rc != PZ_OK) {
        return rc;
    }
    for (int r = 0; r < TWOPHASE_NFLIPSLICE_CLASSES; r++) {
        int slice = (int)(t->flipslice_rep[r] / CUBE3_NFLIP);
        int flip = (int)(t->flipslice_rep[r] % CUBE3_NFLIP);

        for (int m = 0; m < TWOPHASE_NMOVES; m++) {
            t->flipslice_class_move[r][m] =
                t->flipslice_sym[t->slice_move[slice][m] * CUBE3_NFLIP +
                                 t->flip_move[flip][m]];
        }
    }
    return PZ_OK;
}

/* Inserts key at dist as near[index] unless present; returns 1 when
 * inserted, 0 when present, -1 when the hash is too full. */
static int
near_insert(twophase_tables_t *t, uint32_t key, int dist, int index)
{
    uint32_t h = twophase__near_hash(key);

    for (uint32_t probes = 0; probes < TWOPHASE_NEAR_SLOTS; probes++) {
        if (t->near_key[h] == key) {
            return 0;
        }
        if (t->near_key[h] == UINT32_MAX) {
            t->near_key[h] = key;
            t->near_dist[h] = (uint8_t)dist;
            t->near_index[h] = (uint16_t)index;
            return 1;
        }
        h = (h + 1) & (TWOPHASE_NEAR_SLOTS - 1);
    }
    return -1;
}

int
twophase__build_near(twophase_tables_t *t)
{
    /* Breadth-first from G1 over raw triples: the frontier of depth d is
     * the run of keys added at d, kept in order in a list. */
    static const int max_states = TWOPHASE_NEAR_MAX;
    uint32_t *list = malloc(max_states * sizeof(*list));
    uint8_t *depth = malloc(max_states);
    int n = 1;
    int begin = 0;
    int rc = PZ_OK;

    if (list == NULL || depth == NULL) {
        rc = PZ_ENOMEM;
        goto out;
    }
    memset(t->near_key, 0xff, sizeof(t->near_key));
    list[0] = twophase__near_key(0, 0, 0);
    depth[0] = 0;
    near_insert(t, list[0], 0, 0);
    for (int d = 1; d <= TWOPHASE_NEAR_DEPTH; d++) {
        int end = n;

        for (int i = begin; i < end; i++) {
            int twist = (int)(list[i] % CUBE3_NTWIST);
            int flip = (int)(list[i] / CUBE3_NTWIST % CUBE3_NFLIP);
            int slice = (int)(list[i] / CUBE3_NTWIST / CUBE3_NFLIP);

            for (int m = 0; m < TWOPHASE_NMOVES; m++) {
                uint32_t key = twophase__near_key(t->twist_move[twist][m],
                                                  t->flip_move[flip][m],
                                                  t->slice_move[slice][m]);
                int added = near_insert(t, key, d, n);

                if (added < 0 || (added == 1 && n == max_states)) {
                    rc = PZ_EINTERNAL;
                    goto out;
                }
                if (added == 1) {
                    depth[n] = (uint8_t)d;
                    list[n++] = key;
                }
            }
        }
        begin = end;
    }
    /* Every neighbour of every near cube, by index and distance. */
    for (int i = 0; i < n; i++) {
        twophase_near_t *e = &t->near[i];
        int twist = (int)(list[i] % CUBE3_NTWIST);
        int flip = (int)(list[i] / CUBE3_NTWIST % CUBE3_NFLIP);
        int slice = (int)(list[i] / CUBE3_NTWIST / CUBE3_NFLIP);

        e->child_dist = 0;
        for (int m = 0; m < TWOPHASE_NMOVES; m++) {
            uint32_t key = twophase__near_key(t->twist_move[twist][m],
                                              t->flip_move[flip][m],
                                              t->slice_move[slice][m]);
            int j = twophase__near_find(t, key);
            uint64_t d = 7;

            e->child[m] = UINT16_MAX;
            if (j >= 0) {
                e->child[m] = (uint16_t)j;
                d = depth[j];
            }
            e->child_dist |= d << (3 * m);
        }
    }
out:
    free(depth);
    free(list);
    return rc;
}

/* Positions of pieces first..first + 3 in perm[0..n). */
static void
find4(const uint8_t *perm, int n, int first, uint8_t *p)
{
    for (int i = 0; i < n; i++) {
        if (perm[i] >= first && perm[i] < first + 4) {
            p[perm[i] - first] = (uint8_t)i;
        }
    }
}

/* Fills perm[0..n) with pieces first..first + 3 at positions p[0..3] and
 * the other pieces, in increasing order, at the other positions. */
static void
place4(uint8_t *perm, int n, int first, const uint8_t *p)
{
    bool taken[CUBE3_NEDGES] = { false };
    int next = 0;

    for (int j = 0; j < 4; j++) {
        perm[p[j]] = (uint8_t)(first + j);
        taken[p[j]] = true;
    }
    for (int i = 0; i < n; i++) {
        if (taken[i]) {
            continue;
        }
        if (next == first) {
            next += 4;
        }
        perm[i] = (uint8_t)next++;
    }
}

/* The positions among lo..lo + 7 not in p, increasing. */
static void
others8(const uint8_t *p, int lo, uint8_t *q)
{
    int n = 0;

    for (int i = lo; i < lo + 8; i++) {
        if (i != p[0] && i != p[1] && i != p[2] && i != p[3]) {
            q[n++] = (uint8_t)i;
        }
    }
}

void
twophase__build_tuples(twophase_tables_t *t)
{
    uint8_t perm4[24][4];
    cube3_cubie_t c;
    uint8_t p[8];
    uint8_t q[8];

    /* The 24 orders of four things: perm4[o] has Lehmer rank o. */
    for (int o = 0; o < 24; o++) {
        perm_unrank((uint64_t)o, 4, perm4[o]);
    }
    for (int r = 0; r < TWOPHASE_NCORNER4; r++) {
        perm_partial_unrank((uint64_t)r, CUBE3_NCORNERS, 4, p);
        t->corner4_order[r] = (uint8_t)perm_order_rank(p, 4);
        for (int m = 0; m < TWOPHASE_NMOVES; m++) {
            cube3_cubie_solved(&c);
            place4(c.cp, CUBE3_NCORNERS, 0, p);
            cube3_cubie_move(&c, m);
            find4(c.cp, CUBE3_NCORNERS, 0, q);
            t->corner4_move[r][m] = (uint16_t)perm_partial_rank(q, 8, 4);
        }
        /* D corners in the other positions, in each order. */
        others8(p, 0, q);
        for (int o = 0; o < 24; o++) {
            cube3_cubie_solved(&c);
            for (int j = 0; j < 4; j++) {
                c.cp[p[j]] = (uint8_t)j;
                c.cp[q[perm4[o][j]]] = (uint8_t)(4 + j);
            }
            t->corner_merge[r][o] = (uint16_t)cube3_corner_perm(&c);
        }
    }
    for (int r = 0; r < TWOPHASE_NEDGE4; r++) {
        perm_partial_unrank((uint64_t)r, CUBE3_NEDGES, 4, p);
        t->edge4_order[r] = (uint8_t)perm_order_rank(p, 4);
        for (int m = 0; m < TWOPHASE_NMOVES; m++) {
            cube3_cubie_solved(&c);
            place4(c.ep, CUBE3_NEDGES, 0, p);
            cube3_cubie_move(&c, m);
            find4(c.ep, CUBE3_NEDGES, 0, q);
            t->edge4_move[r][m] = (uint16_t)perm_partial_rank(q, 12, 4);
        }
        t->edge4_ud[r] = UINT16_MAX;
        if (p[0] < 8 && p[1] < 8 && p[2] < 8 && p[3] < 8) {
            int i = (int)perm_partial_rank(p, 8, 4);

            t->edge4_ud[r] = (uint16_t)i;
            others8(p, 0, q);
            for (int o = 0; o < 24; o++) {
                cube3_cubie_solved(&c);
                for (int j = 0; j < 4; j++) {
                    c.ep[p[j]] = (uint8_t)j;
                    c.ep[q[perm4[o][j]]] = (uint8_t)(4 + j);
                }
                t->ud_merge[i][o] = (uint16_t)cube3_ud_edge_perm(&c);
            }
        }
        t->edge4_sperm[r] = UINT8_MAX;
        if (p[0] >= 8 && p[1] >= 8 && p[2] >= 8 && p[3] >= 8) {
            cube3_cubie_solved(&c);
            place4(c.ep, CUBE3_NEDGES, 8, p);
            t->edge4_sperm[r] = (uint8_t)cube3_slice_perm(&c);
        }
    }
    for (int s = 0; s < CUBE3_NSYM_UD; s++) {
        for (int sp = 0; sp < CUBE3_NSLICE_PERM; sp++) {
            cube3_cubie_t x;

            cube3_cubie_solved(&c);
            cube3_set_slice_perm(&c, sp);
            cube3_cubie_conjugate(&c, s, &x);
            t->sperm_conj[s][sp] = (uint8_t)cube3_slice_perm(&x);
        }
    }
    for (int k = 0; k < TWOPHASE_NCORNER_CLASSES; k++) {
        for (int sp = 0; sp < CUBE3_NSLICE_PERM; sp++) {
            t->corner_slice_sym[k * CUBE3_NSLICE_PERM + sp] =
                t->corner_slice_prune[t->corner_rep[k] * CUBE3_NSLICE_PERM +
                                      sp];
        }
    }
}
