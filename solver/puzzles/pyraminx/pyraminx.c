/* SPDX-License-Identifier: MIT */
/* pyraminx.c - the Pyraminx: vertex and tip turns, orientation fixed.
 * Size: one model: init reads the move tables with the input parser. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "complete.h"
#include "heuristic.h"
#include "perm.h"
#include "puzzle_internal.h"
#include "puzzles/trinet.h"
#include "tables.h"

/*
 * Design: the puzzle is held with one face to the front (F) and one vertex
 * on top (U); nothing ever turns the whole puzzle. Vertices are U (top), L
 * (front left), R (front right) and B (back); each face is named by where
 * it sits: F (front, opposite B), L (left, opposite vertex R), R (right,
 * opposite vertex L) and D (bottom, opposite U). The 36 stickers are 4 tips
 * and 4 axial ("centre") pieces of three stickers, one of each per vertex,
 * and 6 edges of two stickers, one per pair of vertices. Tips and axials
 * never leave their vertex, so only their twist varies; edges move and
 * flip.
 *
 * A state is 14 bytes: byte e (0..5) = piece * 2 + flip of the edge at
 * position e (edges UL UR UB LR LB RB); byte 6 + v = twist of the axial at
 * vertex v (U L R B); byte 10 + v = twist of the tip at v *relative to its
 * axial*. A vertex turn twists tip and axial together, so the relative
 * twist changes only under tip turns: the first 10 bytes are the "tipless"
 * puzzle (933,120 states, ranked for complete tables) and the last 4 are
 * solved by exactly one tip turn each when non-zero. The distance of a
 * state is therefore its tipless distance plus its non-zero relative tips.
 *
 * Everything comes from one piece of geometry, the 3-cycle each clockwise
 * vertex turn makes of the other three vertices (sigma below, from a 3D
 * model); the sticker permutations follow combinatorially (the sticker of
 * kind k on the face opposite x at vertices S goes to the face opposite
 * sigma(x) at sigma(S)), and the byte-level move tables are read off the
 * solved picture after each sticker permutation by the same parser that
 * validates user input, so stickers and bytes cannot disagree.
 */

enum {
    NVERTS = 4,
    NFACES = 4,
    NEDGES = 6,
    NFACELETS = 36,
    STATE_BYTES = 14,
    AXIAL0 = 6, /* first axial byte */
    TIP0 = 10,  /* first tip byte */
    NMOVES = 16,
    NVERTEX_MOVES = 8, /* ids 0..7; tip moves are 8..15 */
    MAX_CHANGED = 4,   /* bytes one move changes */
};

enum {
    V_U,
    V_L,
    V_R,
    V_B
};

enum {
    FACE_F,
    FACE_L,
    FACE_R,
    FACE_D
};

enum {
    KIND_TIP,
    KIND_AXIAL,
    KIND_EDGE
};

static const char vertex_letter[NVERTS] = { 'U', 'L', 'R', 'B' };
static const char face_letter[NFACES] = { 'F', 'L', 'R', 'D' };

/* The vertex each face is opposite to, and back. */
static const uint8_t face_opposite[NFACES] = { V_B, V_R, V_L, V_U };
static const uint8_t vertex_opposite[NVERTS] = { FACE_D, FACE_R, FACE_L,
                                                 FACE_F };

/*
 * sigma[v][x]: where vertex x goes when vertex v turns clockwise, as seen
 * from v looking at the centre (a rotation by -120 degrees about the axis
 * from the centre through v). Read off a 3D model and checked by hand for
 * U: seen from above with F at the bottom of the view, B is at the top, R
 * bottom right and L bottom left, so clockwise takes B to R, R to L and L
 * to B (the front face's top goes to the left face, as a cube's U does).
 */
static const uint8_t sigma[NVERTS][NVERTS] = {
    { V_U, V_B, V_L, V_R }, /* U: L->B, R->L, B->R */
    { V_R, V_L, V_B, V_U }, /* L: U->R, R->B, B->U */
    { V_B, V_U, V_R, V_L }, /* R: U->B, L->U, B->L */
    { V_L, V_R, V_U, V_B }, /* B: U->L, L->R, R->U */
};

/* The corners of each face in the net drawn in docs/pyraminx.md: F points
 * up (top, bottom left, bottom right); L, R and D point down (top left, top
 * right, bottom). */
static const uint8_t face_corner[NFACES][3] = {
    { V_U, V_L, V_R }, /* F */
    { V_B, V_U, V_L }, /* L */
    { V_U, V_B, V_R }, /* R */
    { V_L, V_R, V_B }, /* D */
};

/* Sticker positions of a face read row by row: kind and the face corners
 * (indices into face_corner) it belongs to; an edge names two. */
typedef struct slot_desc {
    uint8_t kind;
    uint8_t a;
    uint8_t b;
} slot_desc_t;

static const slot_desc_t up_layout[9] = {
    { KIND_TIP, 0, 0 },  { KIND_EDGE, 0, 1 },  { KIND_AXIAL, 0, 0 },
    { KIND_EDGE, 0, 2 }, { KIND_TIP, 1, 1 },   { KIND_AXIAL, 1, 1 },
    { KIND_EDGE, 1, 2 }, { KIND_AXIAL, 2, 2 }, { KIND_TIP, 2, 2 },
};
static const slot_desc_t down_layout[9] = {
    { KIND_TIP, 0, 0 },   { KIND_AXIAL, 0, 0 }, { KIND_EDGE, 0, 1 },
    { KIND_AXIAL, 1, 1 }, { KIND_TIP, 1, 1 },   { KIND_EDGE, 0, 2 },
    { KIND_AXIAL, 2, 2 }, { KIND_EDGE, 1, 2 },  { KIND_TIP, 2, 2 },
};

/* Edge positions and pieces: the two vertices each joins. */
static const uint8_t edge_vertex[NEDGES][2] = {
    { V_U, V_L }, { V_U, V_R }, { V_U, V_B },
    { V_L, V_R }, { V_L, V_B }, { V_R, V_B },
};

static const char *const move_names[NMOVES] = {
    "U", "U'", "L", "L'", "R", "R'", "B", "B'",
    "u", "u'", "l", "l'", "r", "r'", "b", "b'",
};

/* Sticker tables derived from the geometry above, plus the move tables. */
typedef struct pyraminx_priv {
    /* Faces around vertex v in clockwise order (seen from v), starting
     * with the first in string order; slot k of a tip or axial lies on
     * vface[v][k]. */
    uint8_t vface[NVERTS][3];
    uint8_t tip[NVERTS][3];   /* facelet of slot k of the tip at v */
    uint8_t axial[NVERTS][3]; /* facelet of slot k of the axial at v */
    uint8_t eface[NEDGES][2]; /* faces of edge e, earlier face first */
    uint8_t edge[NEDGES][2];  /* facelet of slot k of edge e */
    /* Sticker permutations, new[i] = old[perm[m][i]]. */
    uint8_t perm[NMOVES][NFACELETS];
    /* Move m changes nchanged[m] bytes (at most 4: three edges and a
     * centre, or one tip): out.b[at[k]] = step[k][s.b[src[k]]]; every
     * other byte is copied. */
    uint8_t nchanged[NMOVES];
    uint8_t at[NMOVES][MAX_CHANGED];
    uint8_t src[NMOVES][MAX_CHANGED];
    uint8_t step[NMOVES][MAX_CHANGED][12];
} pyraminx_priv_t;

/* Kind and vertex mask of facelet i (face i / 9, position i % 9). */
static void
facelet_desc(int i, int *kind, unsigned *mask)
{
    int f = i / 9;
    const slot_desc_t *s =
        f == FACE_F ? &up_layout[i % 9] : &down_layout[i % 9];

    *kind = s->kind;
    *mask = 1u << face_corner[f][s->a] | 1u << face_corner[f][s->b];
}

/* The facelet of the given kind and vertex mask on face f, or -1. */
static int
find_facelet(int f, int kind, unsigned mask)
{
    for (int i = f * 9; i < f * 9 + 9; i++) {
        int k;
        unsigned m;

        facelet_desc(i, &k, &m);
        if (k == kind && m == mask) {
            return i;
        }
    }
    return -1;
}

static unsigned
map_mask(const uint8_t *s, unsigned mask)
{
    unsigned out = 0;

    for (int v = 0; v < NVERTS; v++) {
        if (mask >> v & 1) {
            out |= 1u << s[v];
        }
    }
    return out;
}

/* Fills the piece tables and the sticker permutations. */
static void
build_geometry(pyraminx_priv_t *pv)
{
    for (int v = 0; v < NVERTS; v++) {
        int f = v == V_B ? FACE_L : FACE_F; /* first face at v */

        for (int k = 0; k < 3; k++) {
            /* Content on the face opposite x moves to the face opposite
             * sigma(x): that is the next face clockwise. */
            pv->vface[v][k] = (uint8_t)f;
            pv->tip[v][k] = (uint8_t)find_facelet(f, KIND_TIP, 1u << v);
            pv->axial[v][k] = (uint8_t)find_facelet(f, KIND_AXIAL, 1u << v);
            f = vertex_opposite[sigma[v][face_opposite[f]]];
        }
    }
    for (int e = 0; e < NEDGES; e++) {
        unsigned mask = 1u << edge_vertex[e][0] | 1u << edge_vertex[e][1];
        int k = 0;

        /* The edge lies on the two faces whose opposite vertex it does not
         * touch; slot 0 is the one earlier in the string. */
        for (int f = 0; f < NFACES; f++) {
            if (!(mask >> face_opposite[f] & 1)) {
                pv->eface[e][k] = (uint8_t)f;
                pv->edge[e][k] = (uint8_t)find_facelet(f, KIND_EDGE, mask);
                k++;
            }
        }
    }
    for (int m = 0; m < NMOVES; m++) {
        int v = m / 2 % NVERTS;
        bool tip_only = m >= NVERTEX_MOVES;
        uint8_t cw[NFACELETS];

        for (int i = 0; i < NFACELETS; i++) {
            cw[i] = (uint8_t)i;
        }
        for (int i = 0; i < NFACELETS; i++) {
            int kind;
            unsigned mask;
            int to;

            facelet_desc(i, &kind, &mask);
            if (!(mask >> v & 1) || (tip_only && kind != KIND_TIP)) {
                continue;
            }
            to = find_facelet(vertex_opposite[sigma[v][face_opposite[i / 9]]],
                              kind, map_mask(sigma[v], mask));
            cw[to] = (uint8_t)i;
        }
        for (int i = 0; i < NFACELETS; i++) {
            if (m % 2 == 0) {
                pv->perm[m][i] = cw[i];
            } else {
                pv->perm[m][cw[i]] = (uint8_t)i;
            }
        }
    }
}

/* --- Stickers and states ------------------------------------------------ */

/* How symbols of a sticker picture are shown in messages. */
typedef enum sym_kind {
    SYM_CHAR, /* text input: the character */
    SYM_INT,  /* integer input: the number */
    SYM_FACE, /* internal colour 0..3: the face letter */
} sym_kind_t;

/* A picture being validated: colour ids and how to show them. */
typedef struct picture {
    int col[NFACELETS];  /* colour id (index into syms) of each facelet */
    int syms[NFACELETS]; /* input symbol of each colour id */
    sym_kind_t kind;
} picture_t;

static void
sym_show(const picture_t *pic, int colour, char *buf, size_t len)
{
    int v = pic->syms[colour];

    if (pic->kind == SYM_FACE && v >= 0 && v < NFACES) {
        snprintf(buf, len, "%c", face_letter[v]);
    } else if (pic->kind == SYM_CHAR) {
        snprintf(buf, len, "%c", (char)v);
    } else {
        snprintf(buf, len, "%d", v);
    }
}

/* "F3" for facelet 2: the face letter and the 1-based position. */
static void
facelet_name(int i, char *buf, size_t len)
{
    snprintf(buf, len, "%c%d", face_letter[i / 9], i % 9 + 1);
}

/* Describes the n facelets f[] and their colours for a message:
 * "F1, L5, R1 show X, X, Y". */
static void
describe(const picture_t *pic, const uint8_t *f, int n, char *buf, size_t len)
{
    char names[3][8];
    char cols[3][16];

    for (int k = 0; k < n; k++) {
        facelet_name(f[k], names[k], sizeof(names[k]));
        sym_show(pic, pic->col[f[k]], cols[k], sizeof(cols[k]));
    }
    if (n == 2) {
        snprintf(buf, len, "%s, %s show %s, %s", names[0], names[1], cols[0],
                 cols[1]);
    } else {
        snprintf(buf, len, "%s, %s, %s show %s, %s, %s", names[0], names[1],
                 names[2], cols[0], cols[1], cols[2]);
    }
}

/* The twist t with piece sticker k (face colour scheme[vface[v][k]]) at
 * slot (k + t) % 3 of facelets f, or -1. */
static int
match_vertex_piece(const pyraminx_priv_t *pv,
                   const picture_t *pic,
                   const int scheme[NFACES],
                   int v,
                   const uint8_t *f)
{
    for (int t = 0; t < 3; t++) {
        int k = 0;

        while (k < 3 && pic->col[f[(k + t) % 3]] == scheme[pv->vface[v][k]]) {
            k++;
        }
        if (k == 3) {
            return t;
        }
    }
    return -1;
}

/* Checks the tip or axial at v (facelets f) and returns its twist, or a
 * negative code with d filled. */
static int
read_vertex_piece(const pyraminx_priv_t *pv,
                  const picture_t *pic,
                  const int scheme[NFACES],
                  int v,
                  bool is_tip,
                  pz_diag_t *d)
{
    const uint8_t *f = is_tip ? pv->tip[v] : pv->axial[v];
    const char *what = is_tip ? "tip" : "centre";
    int t = match_vertex_piece(pv, pic, scheme, v, f);
    int foreign = scheme[vertex_opposite[v]];
    char buf[96];
    char c[16];

    if (t >= 0) {
        return t;
    }
    describe(pic, f, 3, buf, sizeof(buf));
    for (int k = 0; k < 3; k++) {
        if (pic->col[f[k]] == foreign) {
            sym_show(pic, foreign, c, sizeof(c));
            return pz_diag_set(d, PZ_ECORNER,
                               "the %s at vertex %c (%s) has colour %s, the "
                               "colour of the face opposite that vertex: a "
                               "sticker is misread",
                               what, vertex_letter[v], buf, c);
        }
    }
    if (pic->col[f[0]] == pic->col[f[1]] || pic->col[f[1]] == pic->col[f[2]] ||
        pic->col[f[0]] == pic->col[f[2]]) {
        return pz_diag_set(d, PZ_ECORNER,
                           "the %s at vertex %c (%s): a colour repeats, so "
                           "a sticker is misread",
                           what, vertex_letter[v], buf);
    }
    return pz_diag_set(d, PZ_ECORNER,
                       "the %s at vertex %c (%s) has its colours in mirror "
                       "order: two stickers are swapped",
                       what, vertex_letter[v], buf);
}

/* Counts colours into pic (col, syms) and checks 4 colours x 9. */
static int
count_colours(const int sym[NFACELETS], picture_t *pic, pz_diag_t *d)
{
    return puzzle_check_colours(sym, NFACELETS, NFACES, pic->kind == SYM_CHAR,
                                "pyraminx", pic->col, pic->syms, d);
}

/*
 * Finds the colour of each face. An axial piece never leaves its vertex
 * and shows the colours of the three faces around it, so the colour it
 * lacks is that of the face opposite its vertex, whatever its twist. The
 * four lacked colours must differ.
 */
static int
colour_scheme(const pyraminx_priv_t *pv,
              const picture_t *pic,
              int scheme[NFACES],
              pz_diag_t *d)
{
    int lacks[NVERTS];
    char buf[96];
    char c[16];

    for (int v = 0; v < NVERTS; v++) {
        const uint8_t *f = pv->axial[v];
        int a = pic->col[f[0]];
        int b = pic->col[f[1]];
        int e = pic->col[f[2]];

        if (a == b || b == e || a == e) {
            describe(pic, f, 3, buf, sizeof(buf));
            return pz_diag_set(d, PZ_ECORNER,
                               "the centre at vertex %c (%s): a colour "
                               "repeats, so a sticker is misread",
                               vertex_letter[v], buf);
        }
        lacks[v] = 0 + 1 + 2 + 3 - a - b - e;
        for (int w = 0; w < v; w++) {
            if (lacks[w] == lacks[v]) {
                sym_show(pic, lacks[v], c, sizeof(c));
                return pz_diag_set(d, PZ_EDUPLICATE,
                                   "the centres at vertices %c and %c both "
                                   "lack colour %s, so they are the same "
                                   "piece: a sticker of one is misread",
                                   vertex_letter[w], vertex_letter[v], c);
            }
        }
    }
    for (int f = 0; f < NFACES; f++) {
        scheme[f] = lacks[face_opposite[f]];
    }
    return PZ_OK;
}

/* Reads the edge at position e into out->b[e]. */
static int
read_edge(const pyraminx_priv_t *pv,
          const picture_t *pic,
          const int scheme[NFACES],
          int e,
          pz_state_t *out,
          pz_diag_t *d)
{
    const uint8_t *f = pv->edge[e];
    char buf[96];

    for (int j = 0; j < NEDGES; j++) {
        for (int flip = 0; flip < 2; flip++) {
            if (pic->col[f[flip]] == scheme[pv->eface[j][0]] &&
                pic->col[f[1 - flip]] == scheme[pv->eface[j][1]]) {
                out->b[e] = (uint8_t)(j * 2 + flip);
                return PZ_OK;
            }
        }
    }
    /* Any two different colours make a real edge; only a repeat fails. */
    describe(pic, f, 2, buf, sizeof(buf));
    return pz_diag_set(d, PZ_EEDGE,
                       "the edge between vertices %c and %c (%s) has one "
                       "colour twice: a sticker is misread",
                       vertex_letter[edge_vertex[e][0]],
                       vertex_letter[edge_vertex[e][1]], buf);
}

/*
 * Turns a picture of 36 symbols in facelet order into a state. Validation
 * order: colour counts, centres (which also give the colour scheme), tips,
 * edges as real pieces, duplicate edges, flip, parity.
 */
static int
picture_to_state(const pyraminx_priv_t *pv,
                 const int sym[NFACELETS],
                 sym_kind_t kind,
                 pz_state_t *out,
                 pz_diag_t *d)
{
    picture_t pic;
    int scheme[NFACES];
    int where[NEDGES];
    uint8_t piece[NEDGES];
    int flips = 0;
    int rc;

    pic.kind = kind;
    rc = count_colours(sym, &pic, d);
    if (rc == PZ_OK) {
        rc = colour_scheme(pv, &pic, scheme, d);
    }
    for (int v = 0; v < NVERTS && rc == PZ_OK; v++) {
        int ta = read_vertex_piece(pv, &pic, scheme, v, false, d);
        int tt = ta < 0 ? ta : read_vertex_piece(pv, &pic, scheme, v, true, d);

        rc = tt < 0 ? tt : PZ_OK;
        if (rc == PZ_OK) {
            out->b[AXIAL0 + v] = (uint8_t)ta;
            out->b[TIP0 + v] = (uint8_t)((tt - ta + 3) % 3);
        }
    }
    for (int e = 0; e < NEDGES && rc == PZ_OK; e++) {
        rc = read_edge(pv, &pic, scheme, e, out, d);
    }
    if (rc != PZ_OK) {
        return rc;
    }
    for (int j = 0; j < NEDGES; j++) {
        where[j] = -1;
    }
    for (int e = 0; e < NEDGES; e++) {
        int j = out->b[e] / 2;
        char buf[96];

        if (where[j] >= 0) {
            describe(&pic, pv->edge[e], 2, buf, sizeof(buf));
            return pz_diag_set(d, PZ_EDUPLICATE,
                               "the edge at %c%c (%s) is the same piece as "
                               "the edge at %c%c: a sticker is misread",
                               vertex_letter[edge_vertex[e][0]],
                               vertex_letter[edge_vertex[e][1]], buf,
                               vertex_letter[edge_vertex[where[j]][0]],
                               vertex_letter[edge_vertex[where[j]][1]]);
        }
        where[j] = e;
        piece[e] = (uint8_t)j;
        flips += out->b[e] % 2;
    }
    if (flips % 2 != 0) {
        return pz_diag_set(d, PZ_EFLIP,
                           "an odd number of edges is flipped, which no "
                           "sequence of turns does: one edge's two stickers "
                           "are swapped");
    }
    if (perm_parity(piece, NEDGES) != 0) {
        return pz_diag_set(d, PZ_EPARITY,
                           "the edges form an odd permutation, which no "
                           "sequence of turns does: two edges are swapped");
    }
    return PZ_OK;
}

/* Writes the sticker picture of s (colour = home face 0..3). */
static void
state_to_picture(const pyraminx_priv_t *pv,
                 const pz_state_t *s,
                 int pic[NFACELETS])
{
    for (int e = 0; e < NEDGES; e++) {
        int j = s->b[e] / 2;
        int flip = s->b[e] % 2;

        for (int k = 0; k < 2; k++) {
            pic[pv->edge[e][(k + flip) % 2]] = pv->eface[j][k];
        }
    }
    for (int v = 0; v < NVERTS; v++) {
        int ta = s->b[AXIAL0 + v];
        int tt = (ta + s->b[TIP0 + v]) % 3;

        for (int k = 0; k < 3; k++) {
            pic[pv->axial[v][(k + ta) % 3]] = pv->vface[v][k];
            pic[pv->tip[v][(k + tt) % 3]] = pv->vface[v][k];
        }
    }
}

static void
pyraminx_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    (void)p;
    memset(out->b, 0, STATE_BYTES);
    for (int e = 0; e < NEDGES; e++) {
        out->b[e] = (uint8_t)(e * 2);
    }
}

/* Byte i of the solved state. */
static int
pyraminx_solved_byte(int i)
{
    return i < NEDGES ? i * 2 : 0;
}

/* Reads the byte-level action of every move off the solved picture. */
static int
build_move_tables(const pz_puzzle_t *p, pyraminx_priv_t *pv)
{
    for (int m = 0; m < NMOVES; m++) {
        int pic[NFACELETS];
        int moved_pic[NFACELETS];
        pz_state_t moved;

        state_clear(&moved);
        pyraminx_goal(p, &moved);
        state_to_picture(pv, &moved, pic);
        for (int i = 0; i < NFACELETS; i++) {
            moved_pic[i] = pic[pv->perm[m][i]];
        }
        if (picture_to_state(pv, moved_pic, SYM_FACE, &moved, NULL) != PZ_OK) {
            return PZ_EINTERNAL;
        }
        for (int i = 0; i < STATE_BYTES; i++) {
            int k = pv->nchanged[m];
            /* An edge byte holds the piece from position moved.b[i] / 2,
             * its flip changed by the move's flip there; a twist byte adds
             * the move's twist (the solved picture has twist 0). */
            int from = i < NEDGES ? moved.b[i] / 2 : i;

            if (from == i && moved.b[i] == pyraminx_solved_byte(i)) {
                continue;
            }
            if (k == MAX_CHANGED) {
                return PZ_EINTERNAL;
            }
            pv->at[m][k] = (uint8_t)i;
            pv->src[m][k] = (uint8_t)from;
            for (int code = 0; code < 12; code++) {
                pv->step[m][k][code] =
                    (uint8_t)(i < NEDGES ? code / 2 * 2 +
                                               (code % 2 + moved.b[i] % 2) % 2
                                         : (code + moved.b[i]) % 3);
            }
            pv->nchanged[m] = (uint8_t)(k + 1);
        }
    }
    return PZ_OK;
}

static int
pyraminx_init(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d)
{
    pyraminx_priv_t *pv;

    if (params->rows != 0 || params->cols != 0) {
        return pz_diag_set(d, PZ_ESIZE, "the pyraminx has no size parameter");
    }
    if (params->metric != PZ_METRIC_DEFAULT &&
        params->metric != PZ_METRIC_MOVES) {
        return pz_diag_set(d, PZ_EMETRIC,
                           "the pyraminx counts \"moves\" (every vertex or "
                           "tip turn is one move)");
    }
    pv = p->priv;
    p->metric = PZ_METRIC_MOVES;
    p->metric_name = "moves";
    p->nmoves = NMOVES;
    p->state_size = STATE_BYTES;
    build_geometry(pv);
    if (build_move_tables(p, pv) != PZ_OK) {
        return pz_diag_set(d, PZ_EINTERNAL, "pyraminx move tables broken");
    }
    return PZ_OK;
}

static bool
pyraminx_apply(const pz_puzzle_t *p,
               const pz_state_t *s,
               int move,
               pz_state_t *out)
{
    const pyraminx_priv_t *pv = p->priv;
    const uint8_t *at = pv->at[move];
    const uint8_t *src = pv->src[move];
    uint8_t in[STATE_BYTES];

    /* Copy first: s may be out. */
    memcpy(in, s->b, STATE_BYTES);
    memcpy(out->b, in, STATE_BYTES);
    for (int k = 0; k < pv->nchanged[move]; k++) {
        out->b[at[k]] = pv->step[move][k][in[src[k]]];
    }
    /* Keep the zero-past-state_size invariant even when out was not a
     * cleared state. */
    memset(out->b + STATE_BYTES, 0, PZ_STATE_MAX - STATE_BYTES);
    return true;
}

static int
pyraminx_inverse(const pz_puzzle_t *p, int move)
{
    (void)p;
    return move ^ 1;
}

/*
 * Two turns of the same vertex and kind in a row merge (X X = X'). Turns
 * of different vertices do not commute, except tip turns: a tip turn
 * commutes with every move (the vertex turn at its vertex carries the tip
 * along the same axis; the others do not touch it), so a shortest solution
 * can be rearranged with all tip turns last, in vertex order U L R B, at
 * most one per tip. Everything else is redundant: a vertex turn after a tip
 * turn, and a tip turn after a tip turn of the same or a later vertex.
 */
static bool
pyraminx_redundant(const pz_puzzle_t *p, int prev, int next)
{
    bool prev_tip = prev >= NVERTEX_MOVES;
    bool next_tip = next >= NVERTEX_MOVES;

    (void)p;
    if (prev_tip) {
        return !next_tip || next / 2 <= prev / 2;
    }
    return !next_tip && next / 2 == prev / 2;
}

static const char *
pyraminx_move_name(const pz_puzzle_t *p, int move)
{
    (void)p;
    if (move < 0 || move >= NMOVES) {
        return "?";
    }
    return move_names[move];
}

static int
pyraminx_parse_state(const pz_puzzle_t *p,
                     const pz_input_t *in,
                     pz_state_t *out,
                     pz_diag_t *d)
{
    int sym[NFACELETS];
    int n = 0;
    int rc;

    if (in == NULL || (in->text == NULL && in->ints == NULL)) {
        return pz_diag_set(d, PZ_EINVAL, "no state given");
    }
    if (in->text != NULL) {
        n = puzzle_read_stickers(in->text, sym, NFACELETS, d);
        if (n < 0) {
            return n;
        }
        if (n != NFACELETS) {
            return pz_diag_set(d, PZ_ESTATE_LENGTH,
                               "the state has %d stickers; a pyraminx "
                               "facelet string has 36 (faces F L R D, 9 "
                               "each, as drawn in docs/pyraminx.md)",
                               n);
        }
        rc = picture_to_state(p->priv, sym, SYM_CHAR, out, d);
    } else {
        if (in->nints != NFACELETS) {
            return pz_diag_set(d, PZ_ESTATE_LENGTH,
                               "the state has %zu numbers; a pyraminx array "
                               "has 36 (faces F L R D, 9 each)",
                               in->nints);
        }
        for (int k = 0; k < NFACELETS; k++) {
            sym[k] = in->ints[k];
        }
        rc = picture_to_state(p->priv, sym, SYM_INT, out, d);
    }
    if (rc != PZ_OK) {
        state_clear(out);
    }
    return rc;
}

static int
pyraminx_apply_scramble(const pz_puzzle_t *p,
                        const char *text,
                        pz_state_t *state,
                        pz_diag_t *d)
{
    return puzzle_apply_letter_scramble(
        p, "ULRBulrb",
        "use the vertex turns U L R B and tip turns u l r b, each with an "
        "optional '",
        text, state, d);
}

static int
pyraminx_format_state(const pz_puzzle_t *p,
                      const pz_state_t *s,
                      char *buf,
                      size_t len)
{
    int pic[NFACELETS];

    if (len < NFACELETS + 1) {
        return PZ_EINVAL;
    }
    state_to_picture(p->priv, s, pic);
    for (int i = 0; i < NFACELETS; i++) {
        buf[i] = face_letter[pic[i]];
    }
    buf[NFACELETS] = '\0';
    return NFACELETS;
}

static int
pyraminx_random_state(const pz_puzzle_t *p,
                      pz_rand_fn rand,
                      void *rng,
                      pz_state_t *out)
{
    uint8_t piece[NEDGES];
    int flips = 0;

    (void)p;
    for (int e = 0; e < NEDGES; e++) {
        piece[e] = (uint8_t)e;
    }
    /* A uniform shuffle; an odd result is made even by swapping the first
     * two, a bijection between odd and even permutations, so the result
     * is uniform over the even ones. Flips: five free, the sixth makes the
     * sum even. Twists of axials and tips are all free. */
    perm_shuffle(piece, NEDGES, rand, rng);
    if (perm_parity(piece, NEDGES) != 0) {
        uint8_t t = piece[0];

        piece[0] = piece[1];
        piece[1] = t;
    }
    state_clear(out);
    for (int e = 0; e < NEDGES; e++) {
        int f = e < NEDGES - 1 ? (int)pz_rand_below(rand, rng, 2) : flips % 2;

        flips += f;
        out->b[e] = (uint8_t)(piece[e] * 2 + f);
    }
    for (int i = AXIAL0; i < STATE_BYTES; i++) {
        out->b[i] = (uint8_t)pz_rand_below(rand, rng, 3);
    }
    return PZ_OK;
}

/* --- Perfect index of the tipless part ---------------------------------- */

/* 6!/2 even edge permutations x 2^5 flips x 3^4 axial twists. */
#define RANK_COUNT (360u * 32u * 81u)

static uint64_t
pyraminx_rank_count(const pz_puzzle_t *p)
{
    (void)p;
    return RANK_COUNT;
}

/* The even permutation of the six edges by its even rank (0..359, the
 * Lehmer rank halved), then the flips of positions 0..4 and the four
 * axial twists as plain digits. */
static uint64_t
pyraminx_rank(const pz_puzzle_t *p, const pz_state_t *s)
{
    uint8_t piece[NEDGES];
    uint32_t flips = 0;
    uint32_t twist = 0;

    (void)p;
    for (int e = 0; e < NEDGES; e++) {
        piece[e] = (uint8_t)(s->b[e] >> 1);
    }
    for (int e = 0; e < NEDGES - 1; e++) {
        flips |= (uint32_t)(s->b[e] & 1) << e;
    }
    for (int v = 0; v < NVERTS; v++) {
        twist = twist * 3 + s->b[AXIAL0 + v];
    }
    return (perm_even_rank(piece, NEDGES) * 32 + flips) * 81 + twist;
}

/* The state of rank index with every tip aligned with its axial (the one
 * of its class that needs no tip turn). */
static void
pyraminx_unrank(const pz_puzzle_t *p, uint64_t index, pz_state_t *out)
{
    uint32_t twist = (uint32_t)(index % 81);
    uint32_t flips = (uint32_t)(index / 81 % 32);
    uint8_t piece[NEDGES];
    int fsum = 0;

    (void)p;
    perm_even_unrank(index / (81 * 32), NEDGES, piece);
    state_clear(out);
    for (int e = 0; e < NEDGES; e++) {
        int f = e < NEDGES - 1 ? (int)(flips >> e & 1) : fsum & 1;

        fsum += f;
        out->b[e] = (uint8_t)(piece[e] * 2 + f);
    }
    for (int v = NVERTS - 1; v >= 0; v--) {
        out->b[AXIAL0 + v] = (uint8_t)(twist % 3);
        twist /= 3;
    }
}

/* --- Heuristics ---------------------------------------------------------- */

typedef struct goal_ctx {
    pz_state_t goal;
} goal_ctx_t;

static int
goal_ctx_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    goal_ctx_t *c = ctx;

    (void)p;
    c->goal = *goal;
    return PZ_OK;
}

/* Edges not in their goal place and flip, axials not at their goal twist,
 * and tips whose twist relative to the axial differs from the goal's. */
static void
count_wrong(const pz_state_t *g, const pz_state_t *s, int *e, int *a, int *t)
{
    *e = 0;
    *a = 0;
    *t = 0;
    for (int i = 0; i < NEDGES; i++) {
        *e += s->b[i] != g->b[i];
    }
    for (int v = 0; v < NVERTS; v++) {
        *a += s->b[AXIAL0 + v] != g->b[AXIAL0 + v];
        *t += s->b[TIP0 + v] != g->b[TIP0 + v];
    }
}

/*
 * "pieces": max(ceil(E / 3), A) + T. A vertex turn moves 3 edges and
 * twists 1 axial, so it lowers ceil(E / 3) and A by at most 1 each, hence
 * their maximum by at most 1, and leaves T alone (it twists tip and axial
 * together). A tip turn changes only T, by 1. The goal scores 0, so h
 * never exceeds the moves left: admissible, and consistent.
 */
static int
pieces_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const goal_ctx_t *c = ctx;
    int e;
    int a;
    int t;
    int edges;

    (void)p;
    count_wrong(&c->goal, s, &e, &a, &t);
    edges = (e + 2) / 3;
    return (edges > a ? edges : a) + t;
}

/*
 * "seed", the reference notebooks' heuristic: per piece type, pieces out
 * of place (or twisted) divided by the most a turn moves, rounded up,
 * summed: ceil(edges / 3) + centres + tips, tips counted as they look (a
 * tip twisted away from its goal orientation, whatever the axial does).
 * NOT admissible: one vertex turn moves pieces of all three types at once.
 * U from solved is 1 move, but it displaces 3 edges, twists the U centre
 * and the U tip: seed = 1 + 1 + 1 = 3.
 */
static int
seed_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const goal_ctx_t *c = ctx;
    int e;
    int a;
    int t;
    int tips = 0;

    (void)p;
    count_wrong(&c->goal, s, &e, &a, &t);
    for (int v = 0; v < NVERTS; v++) {
        int mine = (s->b[AXIAL0 + v] + s->b[TIP0 + v]) % 3;
        int goal = (c->goal.b[AXIAL0 + v] + c->goal.b[TIP0 + v]) % 3;

        tips += mine != goal;
    }
    return (e + 2) / 3 + a + tips;
}

static const heuristic_ops_t pieces_heuristic = {
    .name = "pieces",
    .summary = "max(ceil(edges wrong / 3), centres twisted) + tips to turn; "
               "admissible",
    .admissible = true,
    .ctx_bytes = sizeof(goal_ctx_t),
    .init = goal_ctx_init,
    .eval = pieces_eval,
    .update = NULL,
};

static const heuristic_ops_t seed_heuristic = {
    .name = "seed",
    .summary = "reference notebooks: ceil(edges wrong / 3) + centres "
               "twisted + tips twisted; not admissible",
    .admissible = false,
    .ctx_bytes = sizeof(goal_ctx_t),
    .init = goal_ctx_init,
    .eval = seed_eval,
    .update = NULL,
};

static const heuristic_ops_t *const pyraminx_heuristics[] = {
    &pieces_heuristic,
    &seed_heuristic,
    &complete_heuristic_exact,
    NULL,
};

static int
pyraminx_named_tables(tables_def_t *out, int max)
{
    static const pz_params_t plain = { 0, 0, 0 };

    return complete_named("pyraminx", "pyraminx", &plain, out, max);
}

/* Tip turns (lowercase names) commute with every move: scrambles write
 * them last, as WCA scrambles do. */
static bool
pyraminx_move_last(const pz_puzzle_t *p, int move)
{
    (void)p;
    return move_names[move][0] >= 'a' && move_names[move][0] <= 'z';
}

/*
 * The net of trinet.h. F is read as it points up, row by row from U; L,
 * R and D point down and are read row by row from their top side, which
 * is row 2 - r counted from their bottom corner (net_corner: the corner
 * rows count from, then the left and right ends of the rows).
 */
static int
pyraminx_picture(const pz_puzzle_t *p,
                 const pz_state_t *s,
                 puzzle_picture_t *out)
{
    static const int net_corner[NFACES][3] = {
        { TRINET_U, TRINET_L, TRINET_R },
        { TRINET_L, TRINET_B_LEFT, TRINET_U },
        { TRINET_R, TRINET_U, TRINET_B_RIGHT },
        { TRINET_B_BOTTOM, TRINET_L, TRINET_R },
    };
    /* Row (from the top as read) and place in it of face sticker k, for a
     * face pointing up and one pointing down. */
    static const int up_row[9] = { 0, 1, 1, 1, 2, 2, 2, 2, 2 };
    static const int up_j[9] = { 0, 0, 1, 2, 0, 1, 2, 3, 4 };
    static const int down_row[9] = { 0, 0, 0, 0, 0, 1, 1, 1, 2 };
    static const int down_j[9] = { 0, 1, 2, 3, 4, 0, 1, 2, 0 };
    int pic[NFACELETS];

    state_to_picture(p->priv, s, pic);
    trinet_extent(3, out);
    for (int i = 0; i < NFACELETS; i++) {
        int f = i / 9;
        int k = i % 9;
        int row = f == FACE_F ? up_row[k] : 2 - down_row[k];
        int j = f == FACE_F ? up_j[k] : down_j[k];
        int rc =
            trinet_add(out, 3, net_corner[f], row, j, trinet_colour(pic[i]));

        if (rc != PZ_OK) {
            return rc;
        }
    }
    return PZ_OK;
}

static const puzzle_draw_t pyraminx_draw = {
    .picture = pyraminx_picture,
};

static const puzzle_io_t pyraminx_io = {
    .notation = "WCA: vertex turns U L R B and tip turns u l r b, each with "
                "an optional '",
    .state_forms = "36-character facelet string, faces F L R D with 9 "
                   "stickers each (docs/pyraminx.md), or 36 integers in the "
                   "same order",
    .parse_state = pyraminx_parse_state,
    .apply_scramble = pyraminx_apply_scramble,
    .format_state = pyraminx_format_state,
    .move_last = pyraminx_move_last,
};

static const puzzle_ranking_t pyraminx_ranking = {
    .count = pyraminx_rank_count,
    .rank = pyraminx_rank,
    .unrank = pyraminx_unrank,
    .partial = true,
};

static const puzzle_random_t pyraminx_random = {
    .state = pyraminx_random_state,
};

static const puzzle_solving_t pyraminx_solving = {
    .named_tables = pyraminx_named_tables,
};

/* Kinds of pieces for reachability checks (puzzle_pieces_t). */
static const puzzle_pieces_t pyraminx_pieces[] = {
    { .name = "edges",
      .offset = 0,
      .count = 6,
      .orientations = 2,
      .rigid = true },
    { .name = "axials",
      .offset = 6,
      .count = 4,
      .orientations = 3,
      .rigid = true },
    { .name = "tips",
      .offset = 10,
      .count = 4,
      .orientations = 3,
      .rigid = true },
    { .name = NULL },
};

const puzzle_ops_t puzzle__pyraminx = {
    .name = "pyraminx",
    .summary = "Pyraminx, 933,120 positions x 81 tip twists (orientation "
               "fixed)",
    .default_heuristic = "pieces",
    .priv_size = sizeof(pyraminx_priv_t),
    .init = pyraminx_init,
    .goal = pyraminx_goal,
    .apply = pyraminx_apply,
    .inverse = pyraminx_inverse,
    .redundant = pyraminx_redundant,
    .move_name = pyraminx_move_name,
    .heuristics = pyraminx_heuristics,
    .io = &pyraminx_io,
    .ranking = &pyraminx_ranking,
    .random = &pyraminx_random,
    .solving = &pyraminx_solving,
    .draw = &pyraminx_draw,
    .pieces = pyraminx_pieces,
};
