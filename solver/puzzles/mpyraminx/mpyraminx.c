/* SPDX-License-Identifier: MIT */
/* mpyraminx.c - the Master Pyraminx: 64 stickers, 32 vertex-layer turns. */
#include "mpyraminx.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heuristic.h"
#include "mpyraminx_internal.h"
#include "perm.h"
#include "puzzle_internal.h"
#include "puzzles/trinet.h"

/*
 * Design: the Master Pyraminx is a regular tetrahedron cut three times
 * parallel to each face, so every face is a triangle of side 4 (16
 * stickers) and every vertex axis has four layers: the tip, the second
 * layer, the third layer and the base. Everything is derived at init from
 * 3D geometry: sticker centroids on a tetrahedron centred at the origin,
 * the layer of a sticker along a vertex axis from its barycentric
 * coordinate, a turn as the sticker permutation induced by a 120-degree
 * rotation about that axis, and the pieces as the cells the cuts leave
 * (stickers sharing a cell form a piece): 4 tips and 4 axials (3 stickers
 * each, never leave their vertex), 6 midges (2 stickers, at the middle of
 * an edge), 12 wings (2 stickers, beside the midges) and 4 face centres
 * (1 sticker). That is 12 + 12 + 12 + 24 + 4 = 64 stickers.
 *
 * Orientation is fixed: only the three layers nearest a vertex turn, never
 * the base, so tips and axials stay at their vertices and name the colour
 * scheme. Each vertex has four move kinds, each either way: the tip alone
 * (u), the second layer alone (2U), the third layer alone (3U) and the top
 * three layers together (3Uw, which is the base turned the other way with
 * the puzzle then turned back). This is the move set whose breadth-first
 * counts match independently computed ones (1 32 648 11536 198736 ...,
 * docs/master-pyraminx.md); the other readings of "tip, 2-layer, 3-layer,
 * block" give 632 or 560 positions at depth 2.
 *
 * The state is the sticker picture, 2 bits per sticker (colour = home face
 * 0..3), 16 bytes: every piece looks different from every other in every
 * slot, so the picture is faithful, and a small state keeps the engines'
 * node pools small. apply() copies the state and rewrites only the
 * stickers the move carries, from a per-move table.
 */

static const char vertex_letter[NVERT] = { 'U', 'L', 'R', 'B' };
const char mpyraminx__face_letter[NFACES] = { 'F', 'L', 'R', 'D' };

/* Each face as (top, bottom-left, bottom-right) vertex, seen from outside:
 * F (front) U L R, L (left) U B L, R (right) U R B, D (bottom) B R L. */
const int mpyraminx__face_vertex[NFACES][3] = {
    { 0, 1, 2 },
    { 0, 3, 1 },
    { 0, 2, 3 },
    { 3, 2, 1 },
};

/* Move ids: vertex * 8 + kind * 2 + (0 clockwise, 1 anticlockwise), kind
 * 0 tip, 1 second layer, 2 third layer, 3 the three layers together. */
static const char *const move_names[NMOVES] = {
    "u", "u'", "2U", "2U'", "3U", "3U'", "3Uw", "3Uw'",
    "l", "l'", "2L", "2L'", "3L", "3L'", "3Lw", "3Lw'",
    "r", "r'", "2R", "2R'", "3R", "3R'", "3Rw", "3Rw'",
    "b", "b'", "2B", "2B'", "3B", "3B'", "3Bw", "3Bw'",
};

static int
move_vertex(int m)
{
    return m / (NKINDS * 2);
}

static int
move_kind(int m)
{
    return m / 2 % NKINDS;
}

/* --- Geometry ---------------------------------------------------------- */

typedef struct vec3 {
    double x[3];
} vec3_t;

/* Vertices of a regular tetrahedron on the unit sphere: U on top, L front
 * left, R front right, B at the back (the viewer looks along +y). */
static vec3_t
vertex_pos(int v)
{
    const double r = 2.0 * sqrt(2.0) / 3.0;
    const double s3 = sqrt(3.0) / 2.0;
    vec3_t out[NVERT] = {
        { { 0.0, 0.0, 1.0 } },
        { { -r * s3, -r / 2.0, -1.0 / 3.0 } },
        { { r * s3, -r / 2.0, -1.0 / 3.0 } },
        { { 0.0, r, -1.0 / 3.0 } },
    };

    return out[v];
}

static double
dot3(vec3_t a, vec3_t b)
{
    return a.x[0] * b.x[0] + a.x[1] * b.x[1] + a.x[2] * b.x[2];
}

/* Lattice point at row line r (0..4) and column c (0..r) of face f. */
static vec3_t
lattice(int f, int r, int c)
{
    vec3_t t = vertex_pos(mpyraminx__face_vertex[f][0]);
    vec3_t bl = vertex_pos(mpyraminx__face_vertex[f][1]);
    vec3_t br = vertex_pos(mpyraminx__face_vertex[f][2]);
    vec3_t p;

    for (int i = 0; i < 3; i++) {
        p.x[i] = t.x[i] + r / 4.0 * (bl.x[i] - t.x[i]) +
                 c / 4.0 * (br.x[i] - bl.x[i]);
    }
    return p;
}

/* Centroid of sticker i: face i / 16, then row r, position k in the row
 * (row r holds 2r + 1 triangles; even k point up, odd k point down). */
static vec3_t
sticker_centroid(int i)
{
    int f = i / FACE_STICKERS;
    int n = i % FACE_STICKERS;
    int r = 0;
    int k;
    int j;
    vec3_t a;
    vec3_t b;
    vec3_t c;
    vec3_t out;

    while ((r + 1) * (r + 1) <= n) {
        r++;
    }
    k = n - r * r;
    j = k / 2;
    if (k % 2 == 0) {
        a = lattice(f, r, j);
        b = lattice(f, r + 1, j);
        c = lattice(f, r + 1, j + 1);
    } else {
        a = lattice(f, r, j);
        b = lattice(f, r, j + 1);
        c = lattice(f, r + 1, j + 1);
    }
    for (int x = 0; x < 3; x++) {
        out.x[x] = (a.x[x] + b.x[x] + c.x[x]) / 3.0;
    }
    return out;
}

/*
 * Barycentric coordinate of p towards vertex v, times 4 and rounded down:
 * 3 for the tip, 2 for the second layer, 1 the third, 0 the base. With
 * unit vertices, dot(p, V_v) = (4 beta - 1) / 3. Sticker centroids sit at
 * thirds of a lattice step, never on a cut, so the floor is safe.
 */
static int
layer_coord(vec3_t p, int v)
{
    double beta = (3.0 * dot3(p, vertex_pos(v)) + 1.0) / 4.0;
    int q = (int)floor(4.0 * beta + 1e-9);

    return q < 0 ? 0 : q > 3 ? 3 : q;
}

/* p turned 120 degrees clockwise as seen looking at vertex v from outside
 * (Rodrigues' formula with angle -120 degrees about the unit axis V_v). */
static vec3_t
rotate(vec3_t p, int v)
{
    vec3_t a = vertex_pos(v);
    double c = -0.5;             /* cos(-120 degrees) */
    double s = -sqrt(3.0) / 2.0; /* sin(-120 degrees) */
    double d = dot3(a, p);
    vec3_t cross = { { a.x[1] * p.x[2] - a.x[2] * p.x[1],
                       a.x[2] * p.x[0] - a.x[0] * p.x[2],
                       a.x[0] * p.x[1] - a.x[1] * p.x[0] } };
    vec3_t out;

    for (int i = 0; i < 3; i++) {
        out.x[i] = p.x[i] * c + cross.x[i] * s + a.x[i] * d * (1.0 - c);
    }
    return out;
}

/* Builds the 32 sticker permutations. Returns false if the geometry does
 * not close (a rotated centroid matching no sticker: a bug). */
static bool
build_moves(mpyr_priv_t *pv)
{
    vec3_t cen[NSTICKERS];

    for (int i = 0; i < NSTICKERS; i++) {
        cen[i] = sticker_centroid(i);
    }
    for (int m = 0; m < NMOVES; m++) {
        int v = move_vertex(m);
        int kind = move_kind(m);
        int turns = m % 2 == 0 ? 1 : 2; /* anticlockwise = twice */

        for (int i = 0; i < NSTICKERS; i++) {
            pv->perm[m][i] = (uint8_t)i;
        }
        pv->nmoved[m] = 0;
        for (int i = 0; i < NSTICKERS; i++) {
            /* Layer 3 - coord: 0 tip .. 3 base; the block is 0..2. */
            int layer = 3 - layer_coord(cen[i], v);
            bool turns_here = kind == 3 ? layer <= 2 : layer == kind;
            vec3_t p = cen[i];
            int to = -1;

            if (!turns_here) {
                continue;
            }
            for (int t = 0; t < turns; t++) {
                p = rotate(p, v);
            }
            for (int j = 0; j < NSTICKERS; j++) {
                double dx = p.x[0] - cen[j].x[0];
                double dy = p.x[1] - cen[j].x[1];
                double dz = p.x[2] - cen[j].x[2];

                if (dx * dx + dy * dy + dz * dz < 1e-12) {
                    to = j;
                }
            }
            if (to < 0 || pv->nmoved[m] >= MAX_MOVED) {
                return false;
            }
            pv->perm[m][to] = (uint8_t)i;
            pv->dst[m][pv->nmoved[m]] = (uint8_t)to;
            pv->src[m][pv->nmoved[m]] = (uint8_t)i;
            pv->nmoved[m]++;
        }
    }
    for (int a = 0; a < NMOVES; a++) {
        for (int b = 0; b < NMOVES; b++) {
            bool same = true;

            for (int i = 0; i < NSTICKERS && same; i++) {
                same =
                    pv->perm[a][pv->perm[b][i]] == pv->perm[b][pv->perm[a][i]];
            }
            pv->commute[a][b] = same;
        }
    }
    return true;
}

/* Cell of sticker i: its four layer coordinates packed 2 bits each. */
static int
cell_of(int i)
{
    vec3_t p = sticker_centroid(i);
    int key = 0;

    for (int v = 0; v < NVERT; v++) {
        key |= layer_coord(p, v) << (2 * v);
    }
    return key;
}

/* Names the slot of a piece from its cell (coordinates per vertex). */
static void
name_slot(slot_t *s, int kind, const int coord[NVERT], int face)
{
    int a = -1;
    int b = -1;

    for (int v = 0; v < NVERT; v++) {
        if (coord[v] > 0) {
            if (a < 0) {
                a = v;
            } else {
                b = v;
            }
        }
    }
    switch (kind) {
    case P_TIP:
    case P_AXIAL:
        snprintf(s->name, sizeof(s->name), "vertex %c", vertex_letter[a]);
        break;
    case P_CENTRE:
        snprintf(s->name, sizeof(s->name), "face %c",
                 mpyraminx__face_letter[face]);
        break;
    case P_MIDGE:
        snprintf(s->name, sizeof(s->name), "edge %c-%c", vertex_letter[a],
                 vertex_letter[b]);
        break;
    default:
        snprintf(s->name, sizeof(s->name), "edge %c-%c by %c", vertex_letter[a],
                 vertex_letter[b], vertex_letter[coord[a] == 2 ? a : b]);
        break;
    }
}

/* Sort key of a slot so that slots come in a readable order: by vertex
 * for tips and axials, by face for centres, by edge (then near end) for
 * midges and wings. */
static int
slot_order(int kind, const int coord[NVERT], int face)
{
    int key = 0;
    int near = 0;

    if (kind == P_CENTRE) {
        return face;
    }
    for (int v = 0; v < NVERT; v++) {
        if (kind == P_WING) {
            /* The edge first, then which end the wing is by. */
            key = key * 8 + (coord[v] > 0 ? 3 : 7);
            near = near * 2 + (coord[v] == 2);
        } else {
            key = key * 8 + (coord[v] > 0 ? 4 - coord[v] : 7);
        }
    }
    return key * 16 + (15 - near);
}

/*
 * Groups stickers into pieces by cell and classifies them: 3 stickers
 * with a coordinate 3 is a tip, 3 stickers otherwise an axial, 1 sticker
 * a centre, 2 stickers with coordinates {1, 1} a midge and {1, 2} a wing.
 */
static bool
build_pieces(mpyr_priv_t *pv)
{
    int cell[NSTICKERS];
    bool done[NSTICKERS] = { false };
    int order[NPKINDS][MAX_SLOTS];

    memset(pv->slot_of, -1, sizeof(pv->slot_of));
    for (int i = 0; i < NSTICKERS; i++) {
        cell[i] = cell_of(i);
    }
    for (int i = 0; i < NSTICKERS; i++) {
        int stk[MAX_PSTK + 1];
        int n = 0;
        int coord[NVERT];
        int top = 0;
        int kind;
        pkind_t *k;
        slot_t s;
        int key;
        int at;

        if (done[i]) {
            continue;
        }
        /* Stickers are visited in index order, so stk is sorted by face. */
        for (int j = i; j < NSTICKERS; j++) {
            if (cell[j] == cell[i]) {
                if (n == MAX_PSTK) {
                    return false;
                }
                stk[n++] = j;
                done[j] = true;
            }
        }
        for (int v = 0; v < NVERT; v++) {
            coord[v] = cell[i] >> (2 * v) & 3;
            top = coord[v] > top ? coord[v] : top;
        }
        kind = n == 3     ? (top == 3 ? P_TIP : P_AXIAL)
               : n == 1   ? P_CENTRE
               : top == 1 ? P_MIDGE
                          : P_WING;
        k = &pv->kind[kind];
        if (k->nslots == MAX_SLOTS) {
            return false;
        }
        memset(&s, 0, sizeof(s));
        for (int j = 0; j < n; j++) {
            s.stk[j] = (uint8_t)stk[j];
        }
        name_slot(&s, kind, coord, i / FACE_STICKERS);
        key = slot_order(kind, coord, i / FACE_STICKERS);
        /* Insertion sort by key. */
        at = k->nslots;
        while (at > 0 && order[kind][at - 1] > key) {
            k->slot[at] = k->slot[at - 1];
            order[kind][at] = order[kind][at - 1];
            at--;
        }
        k->slot[at] = s;
        order[kind][at] = key;
        k->nslots++;
        k->nstk = n;
    }
    for (int kind = 0; kind < NPKINDS; kind++) {
        for (int s = 0; s < pv->kind[kind].nslots; s++) {
            for (int j = 0; j < pv->kind[kind].nstk; j++) {
                int st = pv->kind[kind].slot[s].stk[j];

                pv->slot_of[kind][st] = (int8_t)s;
                pv->sticker_kind[st] = (uint8_t)kind;
            }
        }
    }
    return pv->kind[P_TIP].nslots == 4 && pv->kind[P_AXIAL].nslots == 4 &&
           pv->kind[P_CENTRE].nslots == 4 && pv->kind[P_MIDGE].nslots == 6 &&
           pv->kind[P_WING].nslots == 12;
}

/*
 * Closes (piece, slot, shift) under the moves, starting from every piece
 * at home with shift 0: reach[p][s] then lists exactly the ways piece p
 * can sit in slot s. A move must carry a slot's stickers onto one slot as
 * a cyclic shift of the sorted sticker order; anything else is a bug.
 */
static bool
build_reach(mpyr_priv_t *pv)
{
    for (int kind = 0; kind < NPKINDS; kind++) {
        pkind_t *k = &pv->kind[kind];
        int n = k->nstk;
        bool changed = true;

        memset(k->reach, 0, sizeof(k->reach));
        for (int p = 0; p < k->nslots; p++) {
            k->reach[p][p] = 1;
        }
        k->max_moved = 0;
        for (int m = 0; m < NMOVES; m++) {
            int moved = 0;

            for (int s = 0; s < k->nslots; s++) {
                moved += pv->perm[m][k->slot[s].stk[0]] != k->slot[s].stk[0];
            }
            k->max_moved = moved > k->max_moved ? moved : k->max_moved;
        }
        while (changed) {
            changed = false;
            for (int m = 0; m < NMOVES; m += 2) {
                uint8_t dest[NSTICKERS];

                for (int i = 0; i < NSTICKERS; i++) {
                    dest[pv->perm[m][i]] = (uint8_t)i;
                }
                for (int s = 0; s < k->nslots; s++) {
                    const uint8_t *st = k->slot[s].stk;
                    int t = pv->slot_of[kind][dest[st[0]]];
                    int kk = 0;
                    int delta;

                    /* Slot s's sticker 0 lands on t's sticker kk. */
                    if (t < 0) {
                        return false;
                    }
                    while (kk < n && k->slot[t].stk[kk] != dest[st[0]]) {
                        kk++;
                    }
                    delta = (n - kk) % n;
                    for (int j = 0; j < n; j++) {
                        if (k->slot[t].stk[(j + kk) % n] != dest[st[j]]) {
                            return false;
                        }
                    }
                    for (int p = 0; p < k->nslots; p++) {
                        for (int sh = 0; sh < n; sh++) {
                            int nsh = (sh + delta) % n;

                            if ((k->reach[p][s] >> sh & 1) &&
                                !(k->reach[p][t] >> nsh & 1)) {
                                k->reach[p][t] |= (uint8_t)(1u << nsh);
                                changed = true;
                            }
                        }
                    }
                }
            }
        }
    }
    return true;
}

static void
mpyr_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    int col[NSTICKERS];

    (void)p;
    for (int i = 0; i < NSTICKERS; i++) {
        col[i] = i / FACE_STICKERS;
    }
    pack(col, out);
}

bool
mpyraminx__apply(const pz_puzzle_t *p,
                 const pz_state_t *s,
                 int move,
                 pz_state_t *out)
{
    const mpyr_priv_t *pv = p->priv;
    const uint8_t *dst = pv->dst[move];
    const uint8_t *src = pv->src[move];
    uint8_t in[STATE_BYTES];

    /* Copy first: s may be out. Stickers the move leaves alone keep their
     * bits; each carried sticker's field is cleared and refilled. */
    memcpy(in, s->b, STATE_BYTES);
    if (out != s) {
        memcpy(out->b, in, STATE_BYTES);
        memset(out->b + STATE_BYTES, 0, PZ_STATE_MAX - STATE_BYTES);
    }
    for (int k = 0; k < pv->nmoved[move]; k++) {
        int d = dst[k];
        int c = in[src[k] >> 2] >> (2 * (src[k] & 3)) & 3;
        int sh = 2 * (d & 3);

        out->b[d >> 2] = (uint8_t)((out->b[d >> 2] & ~(3 << sh)) | (c << sh));
    }
    return true;
}

static int
mpyr_inverse(const pz_puzzle_t *p, int move)
{
    (void)p;
    return move ^ 1;
}

/* Order used to canonicalise commuting pairs: tip turns last (they
 * commute with every other move), the rest by id. */
static int
canon_key(int m)
{
    return (move_kind(m) == 0 ? NMOVES : 0) + m;
}

/*
 * Two turns of the same layer of the same vertex in a row merge into one
 * (u u = u') or cancel, so never both. Any two moves whose permutations
 * commute (all layers of one vertex; a tip with everything, as no other
 * vertex's three upper layers reach it; the second layers of two
 * different vertices, which share no piece) are only allowed in one
 * order: in a shortest solution that is lexicographically least under
 * canon_key no such pair is out of order and no layer repeats, so pruning
 * both keeps it. The commuting pairs are computed from the permutations,
 * not listed by hand.
 */
static bool
mpyr_redundant(const pz_puzzle_t *p, int prev, int next)
{
    const mpyr_priv_t *pv = p->priv;

    if (prev / 2 == next / 2) {
        return true;
    }
    return pv->commute[prev][next] && canon_key(next) < canon_key(prev);
}

static const char *
mpyr_move_name(const pz_puzzle_t *p, int move)
{
    (void)p;
    if (move < 0 || move >= NMOVES) {
        return "?";
    }
    return move_names[move];
}

static int
mpyr_init(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d)
{
    mpyr_priv_t *pv;

    if (params->rows != 0 || params->cols != 0) {
        return pz_diag_set(d, PZ_ESIZE,
                           "the master-pyraminx has no size parameter");
    }
    if (params->metric != PZ_METRIC_DEFAULT &&
        params->metric != PZ_METRIC_MOVES) {
        return pz_diag_set(d, PZ_EMETRIC,
                           "the master-pyraminx counts layer turns: use "
                           "\"moves\" or leave the metric out");
    }
    pv = p->priv;
    p->metric = PZ_METRIC_MOVES;
    p->metric_name = "moves";
    p->nmoves = NMOVES;
    p->state_size = STATE_BYTES;
    if (!build_moves(pv) || !build_pieces(pv) || !build_reach(pv)) {
        return pz_diag_set(d, PZ_EINTERNAL,
                           "master-pyraminx geometry does not close");
    }
    return PZ_OK;
}

/* --- Random states ----------------------------------------------------- */

/*
 * Uniform over the 3^4 * 3^4 * 12 * (6!/2 * 2^5) * 12!/2 * ... legal
 * states: every combination of tip and axial twists, even permutations of
 * centres, midges and wings, and midge flips with an even sum is reachable
 * (their count is the order of the group, docs/master-pyraminx.md), so
 * drawing each part uniformly and fixing the parity by swapping the first
 * two pieces is uniform.
 */
static int
mpyr_random_state(const pz_puzzle_t *p,
                  pz_rand_fn rand,
                  void *rng,
                  pz_state_t *out)
{
    const mpyr_priv_t *pv = p->priv;
    int col[NSTICKERS];

    for (int kind = 0; kind < NPKINDS; kind++) {
        const pkind_t *k = &pv->kind[kind];
        uint8_t piece[MAX_SLOTS];
        int flips = 0;

        for (int s = 0; s < k->nslots; s++) {
            piece[s] = (uint8_t)s;
        }
        if (kind != P_TIP && kind != P_AXIAL) {
            perm_shuffle(piece, k->nslots, rand, rng);
            if (perm_parity(piece, k->nslots) != 0) {
                uint8_t t = piece[0];

                piece[0] = piece[1];
                piece[1] = t;
            }
        }
        for (int s = 0; s < k->nslots; s++) {
            int pc = piece[s];
            int sh = 0;

            if (kind == P_TIP || kind == P_AXIAL) {
                sh = (int)pz_rand_below(rand, rng, 3);
            } else if (kind == P_MIDGE) {
                sh = s + 1 < k->nslots ? (int)pz_rand_below(rand, rng, 2)
                                       : flips % 2;
                flips += sh;
            } else {
                /* Centres and wings sit one way in each slot. */
                while (!(k->reach[pc][s] >> sh & 1)) {
                    sh++;
                }
            }
            for (int j = 0; j < k->nstk; j++) {
                col[k->slot[s].stk[j]] =
                    home_colour(pv, kind, pc, (j + sh) % k->nstk);
            }
        }
    }
    state_clear(out);
    pack(col, out);
    return PZ_OK;
}

static const heuristic_ops_t *const mpyr_heuristics[] = {
    &mpyraminx__pieces_heuristic,
    &mpyraminx__pdb_heuristic,
    &mpyraminx__pdb_small_heuristic,
    &mpyraminx__pdb_large_heuristic,
    &mpyraminx__seed_max_heuristic,
    &mpyraminx__seed_heuristic,
    NULL,
};

static const engine_ops_t *const mpyr_solvers[] = {
    &mpyraminx_phases_engine,
    NULL,
};

static int
mpyr_named_tables(tables_def_t *out, int max)
{
    return tables_defs_of_blobs(mpyraminx_table_defs, out, max);
}

/* Tip turns (lowercase names) commute with every move: scrambles write
 * them last, as WCA scrambles do. */
static bool
mpyr_move_last(const pz_puzzle_t *p, int move)
{
    (void)p;
    return move_names[move][0] >= 'a' && move_names[move][0] <= 'z';
}

/*
 * The net of trinet.h. Every face is read row by row from its top vertex
 * (mpyraminx__face_vertex), so its sticker k sits in row r = floor(sqrt(k))
 * at place k - r * r counted from the bottom-left vertex; in the net the
 * back vertex B is the copy at the face's own side.
 */
static int
mpyr_picture(const pz_puzzle_t *p, const pz_state_t *s, puzzle_picture_t *out)
{
    static const int back_of_face[NFACES] = {
        -1,
        TRINET_B_LEFT,
        TRINET_B_RIGHT,
        TRINET_B_BOTTOM,
    };
    static const int net_vertex[NVERT - 1] = { TRINET_U, TRINET_L, TRINET_R };

    (void)p;
    trinet_extent(4, out);
    for (int i = 0; i < NSTICKERS; i++) {
        int f = i / FACE_STICKERS;
        int k = i % FACE_STICKERS;
        int row = 0;
        int corner[3];
        int rc;

        while ((row + 1) * (row + 1) <= k) {
            row++;
        }
        for (int c = 0; c < 3; c++) {
            int v = mpyraminx__face_vertex[f][c];

            corner[c] = v == NVERT - 1 ? back_of_face[f] : net_vertex[v];
        }
        rc = trinet_add(out, 4, corner, row, k - row * row,
                        trinet_colour(get_colour(s, i)));
        if (rc != PZ_OK) {
            return rc;
        }
    }
    return PZ_OK;
}

static const puzzle_draw_t mpyr_draw = {
    .picture = mpyr_picture,
};

static const puzzle_io_t mpyr_io = {
    .notation = "u l r b (tips), 2U 3U (second, third layer), 3Uw (top "
                "three layers), each with '; scrambles also U (two layers), "
                "nU, nUw",
    .state_forms = "64-character facelet string, faces F L R D, 16 each, "
                   "rows from the top vertex (docs/master-pyraminx.md), or "
                   "64 integers in the same order",
    .parse_state = mpyraminx__parse_state,
    .apply_scramble = mpyraminx__apply_scramble,
    .format_state = mpyraminx__format_state,
    .move_last = mpyr_move_last,
};

static const puzzle_random_t mpyr_random = {
    .state = mpyr_random_state,
};

/* With optimal, `auto` runs IDA* with pdb-large (1.8 GB) when its tables
 * are built and fit, else pdb (155 MiB), else pdb-small (41 MiB); none
 * built: pdb. */
static const char *const mpyr_optimal_heuristics[] = {
    "pdb-large",
    "pdb",
    "pdb-small",
    NULL,
};

static const puzzle_solving_t mpyr_solving = {
    .solvers = mpyr_solvers,
    .named_tables = mpyr_named_tables,
    .fast_engine = "twophase",
    .optimal_heuristic = "pdb",
    .optimal_heuristics = mpyr_optimal_heuristics,
};

const puzzle_ops_t puzzle__mpyraminx = {
    .name = "master-pyraminx",
    .summary = "Master Pyraminx, 2,681,795,837,952,000 positions x 81 tip "
               "twists (orientation fixed)",
    .default_heuristic = "pieces",
    .priv_size = sizeof(mpyr_priv_t),
    .init = mpyr_init,
    .goal = mpyr_goal,
    .apply = mpyraminx__apply,
    .inverse = mpyr_inverse,
    .redundant = mpyr_redundant,
    .move_name = mpyr_move_name,
    .heuristics = mpyr_heuristics,
    .io = &mpyr_io,
    .random = &mpyr_random,
    .solving = &mpyr_solving,
    .draw = &mpyr_draw,
};
