/* SPDX-License-Identifier: MIT */
/* cube2.c - the 2x2x2 pocket cube: DLB-fixed corner cubies, HTM and QTM.
 * Size: one model: init derives the move tables through the sticker reader. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "complete.h"
#include "heuristic.h"
#include "perm.h"
#include "puzzle_internal.h"
#include "puzzles/cubeface.h"
#include "tables.h"

/*
 * Design: a 2x2x2 has no centres, so a state is only defined up to a
 * whole-cube rotation. We fix the DLB corner in place and turn only U, R
 * and F, which never move it; every position then has exactly one
 * representative among 7! * 3^6 = 3,674,160 states. A state is 8 bytes,
 * byte i = piece * 3 + twist of the corner at position i (positions and
 * pieces in the Kociemba order URF UFL ULB UBR DFR DLF DBL DRB; byte 6 is
 * always DBL untwisted). The twist of a piece is the index, within the
 * position's sticker triple, of the sticker showing the piece's U/D colour.
 *
 * Everything that involves stickers (facelet input, scrambles with D, L, B,
 * wide moves and rotations, the "seed" heuristic) goes through the 24
 * facelets of a full cube model (cubeface.c). A facelet string has no
 * centres to name its colours, so it is read as held: the corner at DLB
 * names the D, L and B colours and the others are their opposites. A
 * scramble works on a picture whose colours are known, so after the turns
 * the whole picture is rotated until the DBL piece is home; that folds L,
 * D, B, wide moves and rotations into U, R, F ("L" = "R x'" gives the
 * state of R, and "x U" the state of F, as on a real cube). The move
 * tables for apply() are derived from the same geometry at init, so the
 * cubie moves and the sticker moves cannot disagree.
 */

enum {
    NCORNERS = 8,
    NFACELETS = 24,
    POS_DBL = 6,      /* the fixed corner */
    CODE_DBL = 6 * 3, /* byte value of the fixed corner */
    NCODES = NCORNERS * 3,
    MAX_MOVES = 9,
    STATE_BYTES = 8,
    NROTATIONS = 24,
};

/* Sticker triples of the corner positions, starting with the U/D sticker
 * and going clockwise around the corner as seen from outside. Facelets
 * number U1..U4 = 0..3, R 4..7, F 8..11, D 12..15, L 16..19, B 20..23. */
static const uint8_t corner_facelet[NCORNERS][3] = {
    { 3, 4, 9 },    /* URF: U4 R1 F2 */
    { 2, 8, 17 },   /* UFL: U3 F1 L2 */
    { 0, 16, 21 },  /* ULB: U1 L1 B2 */
    { 1, 20, 5 },   /* UBR: U2 B1 R2 */
    { 13, 11, 6 },  /* DFR: D2 F4 R3 */
    { 12, 19, 10 }, /* DLF: D1 L4 F3 */
    { 14, 23, 18 }, /* DBL: D3 B4 L3 */
    { 15, 7, 22 },  /* DRB: D4 R4 B3 */
};

/* Position names as people say them (U/D, then F/B, then R/L). */
static const char *const corner_name[NCORNERS] = {
    "UFR", "UFL", "UBL", "UBR", "DFR", "DFL", "DBL", "DBR",
};

static const char face_letter[6] = { 'U', 'R', 'F', 'D', 'L', 'B' };

/* The three turnable faces, in move-id order. */
static const int turn_face[3] = { CUBEFACE_U, CUBEFACE_R, CUBEFACE_F };

/* Names in HTM id order (face * 3 + {quarter, half, anti}) and QTM id
 * order (face * 2 + {quarter, anti}). */
static const char *const htm_name[9] = {
    "U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'",
};
static const char *const qtm_name[6] = { "U", "U'", "R", "R'", "F", "F'" };

typedef struct cube2_priv {
    /* out.b[i] = step[m][i][s.b[src[m][i]]]: the piece coming from src
     * with its twist advanced by the move. */
    uint8_t src[MAX_MOVES][STATE_BYTES];
    uint8_t step[MAX_MOVES][STATE_BYTES][NCODES];
    int face[MAX_MOVES]; /* 0 U, 1 R, 2 F */
    bool qtm;            /* move ids follow the QTM order */
    /* The 24 whole-cube rotations as sticker permutations. */
    uint8_t rotation[NROTATIONS][NFACELETS];
} cube2_priv_t;

/* How symbols of a sticker picture are shown in messages. */
typedef enum sym_kind {
    SYM_CHAR, /* text input: the character */
    SYM_INT,  /* integer input: the number */
    SYM_FACE, /* internal colour 0..5: the face letter */
} sym_kind_t;

/* Writes symbol v to buf for a message. */
static void
sym_show(int v, sym_kind_t kind, char *buf, size_t len)
{
    if (kind == SYM_FACE && v >= 0 && v < 6) {
        snprintf(buf, len, "%c", face_letter[v]);
    } else if (kind == SYM_CHAR) {
        snprintf(buf, len, "%c", (char)v);
    } else {
        snprintf(buf, len, "%d", v);
    }
}

/* The three facelets of position i in the order of its name ("UFR":
 * the U sticker, then F, then R), for messages. */
static void
name_order(int i, int out[3])
{
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 3; j++) {
            if (face_letter[corner_facelet[i][j] / 4] == corner_name[i][k]) {
                out[k] = corner_facelet[i][j];
            }
        }
    }
}

/* Formats "W, W, G" for position i of picture col (colour ids) mapped back
 * to input symbols by syms. */
static void
corner_colours(int i,
               const int *col,
               const int *syms,
               sym_kind_t kind,
               char *buf,
               size_t len)
{
    int f[3];
    char s[3][16];

    name_order(i, f);
    for (int k = 0; k < 3; k++) {
        sym_show(syms[col[f[k]]], kind, s[k], sizeof(s[k]));
    }
    snprintf(buf, len, "%s, %s, %s", s[0], s[1], s[2]);
}

/* Colour (face id in the picture's scheme) of sticker k of piece j. */
static int
piece_colour(const int scheme[6], int j, int k)
{
    return scheme[corner_facelet[j][k] / 4];
}

/* Finds the piece and twist whose stickers read col at position i under
 * scheme; returns piece * 3 + twist or -1. */
static int
match_corner(const int *col, const int scheme[6], int i)
{
    for (int j = 0; j < NCORNERS; j++) {
        for (int t = 0; t < 3; t++) {
            int k = 0;

            while (k < 3 && col[corner_facelet[i][(k + t) % 3]] ==
                                piece_colour(scheme, j, k)) {
                k++;
            }
            if (k == 3) {
                return j * 3 + t;
            }
        }
    }
    return -1;
}

/* True when the colour set at position i is the set of some piece (so a
 * failed match means the stickers are in mirror order). */
static bool
corner_set_exists(const int *col, const int scheme[6], int i)
{
    for (int j = 0; j < NCORNERS; j++) {
        int hits = 0;

        for (int k = 0; k < 3; k++) {
            for (int m = 0; m < 3; m++) {
                hits += col[corner_facelet[i][k]] == piece_colour(scheme, j, m);
            }
        }
        if (hits == 3) {
            return true;
        }
    }
    return false;
}

/* Gives the colours rest[] to U, R, F in the order numbered perm (0..5). */
static void
assign_rest(int scheme[6], const int rest[3], int perm)
{
    static const uint8_t order[6][3] = {
        { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
        { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
    };

    scheme[CUBEFACE_U] = rest[order[perm][0]];
    scheme[CUBEFACE_R] = rest[order[perm][1]];
    scheme[CUBEFACE_F] = rest[order[perm][2]];
}

/*
 * Turns a picture of 24 symbols in facelet order into the DLB-fixed state.
 * Validation order: colour count, repeated colour on a corner, colour
 * scheme and real corners, duplicates, twist. kind only affects messages.
 */
static int
picture_to_state(const int sym[NFACELETS],
                 sym_kind_t kind,
                 pz_state_t *out,
                 pz_diag_t *d)
{
    int syms[NFACELETS]; /* distinct symbols in order of appearance */
    int col[NFACELETS];  /* colour id (index into syms) of each facelet */
    int scheme[6];
    int best_perm = 0;
    int best_hits = -1;
    int rest[3];
    int nrest = 0;
    int where[NCORNERS];
    int twist = 0;
    char buf[64];
    int rc = puzzle_check_colours(sym, NFACELETS, 6, kind == SYM_CHAR, "2x2x2",
                                  col, syms, d);
    if (rc != PZ_OK) {
        return rc;
    }
    for (int i = 0; i < NCORNERS; i++) {
        const uint8_t *f = corner_facelet[i];

        if (col[f[0]] == col[f[1]] || col[f[1]] == col[f[2]] ||
            col[f[0]] == col[f[2]]) {
            corner_colours(i, col, syms, kind, buf, sizeof(buf));
            return pz_diag_set(d, PZ_ECORNER,
                               "corner at %s has colours %s: a sticker is "
                               "misread",
                               corner_name[i], buf);
        }
    }

    /* The DLB corner names the D, B and L colours. The other three go to
     * U, R, F in the assignment that makes the most corners real pieces;
     * on a valid cube that is the one where each is opposite (never on a
     * corner with) its partner, and every corner matches. */
    scheme[CUBEFACE_D] = col[corner_facelet[POS_DBL][0]];
    scheme[CUBEFACE_B] = col[corner_facelet[POS_DBL][1]];
    scheme[CUBEFACE_L] = col[corner_facelet[POS_DBL][2]];
    for (int c = 0; c < 6; c++) {
        if (c != scheme[CUBEFACE_D] && c != scheme[CUBEFACE_B] &&
            c != scheme[CUBEFACE_L]) {
            rest[nrest++] = c;
        }
    }
    for (int perm = 0; perm < 6; perm++) {
        int hits = 0;

        assign_rest(scheme, rest, perm);
        for (int i = 0; i < NCORNERS; i++) {
            hits += match_corner(col, scheme, i) >= 0;
        }
        if (hits > best_hits) {
            best_hits = hits;
            best_perm = perm;
        }
    }
    assign_rest(scheme, rest, best_perm);

    for (int i = 0; i < NCORNERS; i++) {
        int code = match_corner(col, scheme, i);

        if (code >= 0) {
            out->b[i] = (uint8_t)code;
            continue;
        }
        corner_colours(i, col, syms, kind, buf, sizeof(buf));
        if (corner_set_exists(col, scheme, i)) {
            return pz_diag_set(d, PZ_ECORNER,
                               "corner at %s has colours %s in mirror "
                               "order: two stickers are swapped",
                               corner_name[i], buf);
        }
        return pz_diag_set(d, PZ_ECORNER,
                           "corner at %s has colours %s, two of which are "
                           "on opposite faces: a sticker is misread",
                           corner_name[i], buf);
    }

    for (int j = 0; j < NCORNERS; j++) {
        where[j] = -1;
    }
    for (int i = 0; i < NCORNERS; i++) {
        int j = out->b[i] / 3;

        if (where[j] >= 0) {
            corner_colours(i, col, syms, kind, buf, sizeof(buf));
            return pz_diag_set(d, PZ_EDUPLICATE,
                               "the corner with colours %s appears twice, "
                               "at %s and %s: a sticker is misread",
                               buf, corner_name[where[j]], corner_name[i]);
        }
        where[j] = i;
        twist += out->b[i] % 3;
    }
    if (twist % 3 != 0) {
        return pz_diag_set(d, PZ_ETWIST,
                           "the corners' twists do not add up: one corner "
                           "is twisted in place");
    }
    return PZ_OK;
}

/* Writes the sticker picture of s (colour = home face id 0..5). */
static void
state_to_picture(const pz_state_t *s, int pic[NFACELETS])
{
    for (int i = 0; i < NCORNERS; i++) {
        int j = s->b[i] / 3;
        int t = s->b[i] % 3;

        for (int k = 0; k < 3; k++) {
            pic[corner_facelet[i][(k + t) % 3]] = corner_facelet[j][k] / 4;
        }
    }
}

static void
cube2_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    (void)p;
    for (int i = 0; i < NCORNERS; i++) {
        out->b[i] = (uint8_t)(i * 3);
    }
}

/* Applies the sticker permutation perm (new[i] = old[perm[i]]) to pic. */
static void
permute_picture(int pic[NFACELETS], const int perm[NFACELETS])
{
    int old[NFACELETS];

    memcpy(old, pic, sizeof(old));
    for (int i = 0; i < NFACELETS; i++) {
        pic[i] = old[perm[i]];
    }
}

/* Fills pv->rotation with the 24 rotations, generated by closing the
 * identity under x and y. */
static void
build_rotations(cube2_priv_t *pv)
{
    int gen[2][NFACELETS];
    int n = 1;

    cubeface_turn(2, CUBEFACE_R, 3u, 1, gen[0]);
    cubeface_turn(2, CUBEFACE_U, 3u, 1, gen[1]);
    for (int i = 0; i < NFACELETS; i++) {
        pv->rotation[0][i] = (uint8_t)i;
    }
    for (int r = 0; r < n; r++) {
        for (int g = 0; g < 2; g++) {
            uint8_t next[NFACELETS];
            int k = 0;

            /* Rotation r, then generator g: new[i] = old[r[g[i]]]. */
            for (int i = 0; i < NFACELETS; i++) {
                next[i] = pv->rotation[r][gen[g][i]];
            }
            while (k < n && memcmp(pv->rotation[k], next, NFACELETS) != 0) {
                k++;
            }
            if (k == n && n < NROTATIONS) {
                memcpy(pv->rotation[n++], next, NFACELETS);
            }
        }
    }
}

/* Fills pv, the move and rotation tables of one metric, from the sticker
 * geometry. Returns false if the geometry does not give a valid move (a
 * bug). */
static bool
build_tables(cube2_priv_t *pv, bool qtm)
{
    int turns_per_face = qtm ? 2 : 3;

    pv->qtm = qtm;
    build_rotations(pv);
    for (int m = 0; m < 3 * turns_per_face; m++) {
        static const int htm_quarters[3] = { 1, 2, 3 };
        static const int qtm_quarters[2] = { 1, 3 };
        int f = m / turns_per_face;
        int q = qtm ? qtm_quarters[m % 2] : htm_quarters[m % 3];
        int perm[NFACELETS];
        int pic[NFACELETS];
        pz_state_t moved;

        /* The move's cubie action is read off the solved cube after the
         * sticker turn: the piece at i came from its home src, twisted. */
        pv->face[m] = f;
        cubeface_turn(2, turn_face[f], 1u, q, perm);
        state_clear(&moved);
        cube2_goal(NULL, &moved);
        state_to_picture(&moved, pic);
        permute_picture(pic, perm);
        if (picture_to_state(pic, SYM_FACE, &moved, NULL) != PZ_OK) {
            return false;
        }
        for (int i = 0; i < NCORNERS; i++) {
            int tw = moved.b[i] % 3;

            pv->src[m][i] = moved.b[i] / 3;
            for (int code = 0; code < NCODES; code++) {
                pv->step[m][i][code] =
                    (uint8_t)(code / 3 * 3 + (code % 3 + tw) % 3);
            }
        }
    }
    return true;
}

/* The tables depend only on the metric, so they are built once per process
 * and shared read-only by every instance (building them per request cost
 * more than a short solve). */
static cube2_priv_t tables_htm;
static cube2_priv_t tables_qtm;
static bool tables_ok;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/* Scramble tables, shared by both metrics: the sticker permutation of every
 * turn a scramble token can name (face, outer layer or whole cube, 1-3
 * quarters), and the corner code (piece * 3 + twist) read off a position's
 * three sticker colours (U/D sticker first, face ids 0..5; 0xff: no such
 * piece). Computing them per token cost more than the rest of a table
 * solve. */
static uint8_t token_perm[6][2][3][NFACELETS];
static uint8_t colours_code[6 * 6 * 6];

static void
build_scramble_tables(void)
{
    memset(colours_code, 0xff, sizeof(colours_code));
    for (int j = 0; j < NCORNERS; j++) {
        for (int t = 0; t < 3; t++) {
            int tri[3];

            /* As state_to_picture: sticker k of piece j at (k + t) % 3. */
            for (int k = 0; k < 3; k++) {
                tri[(k + t) % 3] = corner_facelet[j][k] / 4;
            }
            colours_code[(tri[0] * 6 + tri[1]) * 6 + tri[2]] =
                (uint8_t)(j * 3 + t);
        }
    }
    for (int f = 0; f < 6; f++) {
        for (int w = 0; w < 2; w++) {
            for (int q = 1; q <= 3; q++) {
                int perm[NFACELETS];

                cubeface_turn(2, f, w ? 3u : 1u, q, perm);
                for (int i = 0; i < NFACELETS; i++) {
                    token_perm[f][w][q - 1][i] = (uint8_t)perm[i];
                }
            }
        }
    }
}

static void
build_all_tables(void)
{
    tables_ok =
        build_tables(&tables_htm, false) && build_tables(&tables_qtm, true);
    build_scramble_tables();
}

static int
cube2_init(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d)
{
    bool qtm;

    if (params->rows != 0 || params->cols != 0) {
        return pz_diag_set(d, PZ_ESIZE, "the 2x2x2 has no size parameter");
    }
    switch (params->metric) {
    case PZ_METRIC_DEFAULT:
    case PZ_METRIC_HTM:
        qtm = false;
        break;
    case PZ_METRIC_QTM:
        qtm = true;
        break;
    default:
        return pz_diag_set(d, PZ_EMETRIC,
                           "the 2x2x2 is solved in \"htm\" (default) or "
                           "\"qtm\"");
    }
    pthread_once(&tables_once, build_all_tables);
    if (!tables_ok) {
        return pz_diag_set(d, PZ_EINTERNAL, "2x2x2 move tables broken");
    }
    p->metric = qtm ? PZ_METRIC_QTM : PZ_METRIC_HTM;
    p->metric_name = qtm ? "qtm" : "htm";
    p->nmoves = qtm ? 6 : 9;
    p->state_size = STATE_BYTES;
    /* Shared static tables; cleanup has nothing to free. The const is
     * dropped only to fit the generic priv slot: nobody writes them. */
    p->priv = qtm ? &tables_qtm : &tables_htm;
    return PZ_OK;
}

static bool
cube2_apply(const pz_puzzle_t *p,
            const pz_state_t *s,
            int move,
            pz_state_t *out)
{
    const cube2_priv_t *pv = p->priv;
    const uint8_t *src = pv->src[move];
    uint8_t in[STATE_BYTES];

    /* Copy first: s may be out. */
    memcpy(in, s->b, STATE_BYTES);
    for (int i = 0; i < STATE_BYTES; i++) {
        out->b[i] = pv->step[move][i][in[src[i]]];
    }
    /* Keep the zero-past-state_size invariant even when out was not a
     * cleared state. */
    memset(out->b + STATE_BYTES, 0, PZ_STATE_MAX - STATE_BYTES);
    return true;
}

static int
cube2_inverse(const pz_puzzle_t *p, int move)
{
    const cube2_priv_t *pv = p->priv;

    if (pv->qtm) {
        return move ^ 1;
    }
    return move / 3 * 3 + (2 - move % 3);
}

/*
 * HTM: two turns of the same face in a row are never needed (they merge
 * into one or cancel). U, R and F pairwise do not commute, so nothing else
 * is redundant. QTM: U U is a half turn and must stay allowed; only U' U'
 * is dropped, because U U reaches the same state in the same length (the
 * inverse pair is excluded by the caller).
 */
static bool
cube2_redundant(const pz_puzzle_t *p, int prev, int next)
{
    const cube2_priv_t *pv = p->priv;

    if (pv->qtm) {
        return prev == next && (prev & 1);
    }
    return pv->face[prev] == pv->face[next];
}

static const char *
cube2_move_name(const pz_puzzle_t *p, int move)
{
    const cube2_priv_t *pv = p->priv;

    if (move < 0 || move >= p->nmoves) {
        return "?";
    }
    return pv->qtm ? qtm_name[move] : htm_name[move];
}

static int
cube2_parse_state(const pz_puzzle_t *p,
                  const pz_input_t *in,
                  pz_state_t *out,
                  pz_diag_t *d)
{
    /* Integer layout (blocks of four for U R D L B F; U and F as in the
     * facelet string, R turned a quarter turn anticlockwise, L clockwise,
     * D and B a half turn) to facelets: facelet[k] = array[src_layout[k]].
     */
    static const uint8_t src_layout[NFACELETS] = {
        0,  1,  2, 3, 6,  4,  7,  5,  20, 21, 22, 23,
        11, 10, 9, 8, 13, 15, 12, 14, 19, 18, 17, 16,
    };
    int sym[NFACELETS];
    int n = 0;
    int rc;

    (void)p;
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
                               "the state has %d stickers; a 2x2x2 facelet "
                               "string has 24 (U1..U4 R1..R4 F1..F4 D1..D4 "
                               "L1..L4 B1..B4)",
                               n);
        }
        rc = picture_to_state(sym, SYM_CHAR, out, d);
    } else {
        if (in->nints != NFACELETS) {
            return pz_diag_set(d, PZ_ESTATE_LENGTH,
                               "the state has %zu numbers; a 2x2x2 array "
                               "has 24 (blocks of 4 for U R D L B F)",
                               in->nints);
        }
        for (int k = 0; k < NFACELETS; k++) {
            sym[k] = in->ints[src_layout[k]];
        }
        rc = picture_to_state(sym, SYM_INT, out, d);
    }
    if (rc != PZ_OK) {
        state_clear(out);
    }
    return rc;
}

/* One turn of a scramble in sticker terms. */
typedef struct turn {
    int face;        /* enum cubeface_face */
    unsigned layers; /* bit k: k-th layer from that face */
    int quarters;    /* clockwise quarter turns, 1..3 */
} turn_t;

/* Parses one scramble token at text[*at] into *t and advances *at.
 * Returns false for an unknown token. */
static bool
scan_token(const char *text, size_t *at, turn_t *t)
{
    static const char faces[] = "URFDLB";
    size_t i = *at;
    char c = text[i];
    const char *hit = strchr(faces, c);

    t->layers = 1u;
    if (c == '\0') {
        return false;
    }
    if (hit != NULL) {
        t->face = (int)(hit - faces);
        i++;
        if (text[i] == 'w') {
            t->layers = 3u; /* outer two layers: the whole 2x2x2 */
            i++;
        }
    } else if (strchr("urfdlb", c) != NULL) {
        t->face = (int)(strchr("urfdlb", c) - "urfdlb");
        t->layers = 3u;
        i++;
    } else if (c == 'x' || c == 'y' || c == 'z') {
        /* x, y, z turn the whole cube as R, U, F do. */
        t->face = c == 'x' ? CUBEFACE_R : c == 'y' ? CUBEFACE_U : CUBEFACE_F;
        t->layers = 3u;
        i++;
    } else {
        return false;
    }
    t->quarters = 1;
    if (text[i] == '2') {
        t->quarters = 2;
        i++;
    }
    if (text[i] == '\'') {
        t->quarters = 4 - t->quarters;
        i++;
    } else if ((unsigned char)text[i] == 0xe2 &&
               (unsigned char)text[i + 1] == 0x80 &&
               (unsigned char)text[i + 2] == 0x99) {
        /* U+2019, the typographic apostrophe word processors insert. */
        t->quarters = 4 - t->quarters;
        i += 3;
    }
    *at = i;
    return true;
}

static bool
is_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * Turns the whole picture (known colours 0..5) so that the DBL piece sits
 * at DLB untwisted. The colours are known here, unlike in a facelet string,
 * so the state is the same for every way of holding the cube: "x U" and
 * "F" give the same state, as they are the same cube turned over.
 */
static void
reorient(const cube2_priv_t *pv, int pic[NFACELETS])
{
    const uint8_t *f = corner_facelet[POS_DBL];

    for (int r = 0; r < NROTATIONS; r++) {
        const uint8_t *rot = pv->rotation[r];

        if (pic[rot[f[0]]] == CUBEFACE_D && pic[rot[f[1]]] == CUBEFACE_B &&
            pic[rot[f[2]]] == CUBEFACE_L) {
            int old[NFACELETS];

            memcpy(old, pic, sizeof(old));
            for (int i = 0; i < NFACELETS; i++) {
                pic[i] = old[rot[i]];
            }
            return;
        }
    }
}

static int
cube2_apply_scramble(const pz_puzzle_t *p,
                     const char *text,
                     pz_state_t *state,
                     pz_diag_t *d)
{
    const cube2_priv_t *pv = p->priv;
    int pic[NFACELETS];
    size_t at = 0;
    pz_state_t result;

    state_to_picture(state, pic);
    while (text[at] != '\0') {
        size_t start = at;
        turn_t t;
        const uint8_t *perm;
        int old[NFACELETS];

        if (is_space(text[at])) {
            at++;
            continue;
        }
        /* A token must end at a space, the end, or the next token. */
        if (!scan_token(text, &at, &t) ||
            (text[at] != '\0' && !is_space(text[at]) &&
             strchr("URFDLBurfdlbxyz", text[at]) == NULL)) {
            size_t end = start;
            int len;

            while (text[end] != '\0' && !is_space(text[end])) {
                end++;
            }
            len = (int)(end - start > 32 ? 32 : end - start);
            if (d != NULL) {
                d->position = (int)start;
            }
            if (strchr("MESmes", text[start]) != NULL && text[start] != '\0') {
                return pz_diag_set(d, PZ_EMOVE,
                                   "unknown move '%.*s' at position %d: the "
                                   "2x2x2 has no middle slice",
                                   len, text + start, (int)start);
            }
            return pz_diag_set(d, PZ_EMOVE,
                               "unknown move '%.*s' at position %d; use U D "
                               "L R F B with an optional 2 or ', wide moves "
                               "Uw or u, or rotations x y z",
                               len, text + start, (int)start);
        }
        perm = token_perm[t.face][t.layers != 1u][t.quarters - 1];
        memcpy(old, pic, sizeof(old));
        for (int i = 0; i < NFACELETS; i++) {
            pic[i] = old[perm[i]];
        }
    }
    reorient(pv, pic);
    /* The colours are the home faces of a real cube turned, so each corner
     * reads as a piece directly (no colour scheme to guess, unlike a
     * facelet string). */
    state_clear(&result);
    for (int i = 0; i < NCORNERS; i++) {
        const uint8_t *f = corner_facelet[i];
        uint8_t code =
            colours_code[(pic[f[0]] * 6 + pic[f[1]]) * 6 + pic[f[2]]];

        if (code == 0xff) {
            return pz_diag_set(d, PZ_EINTERNAL,
                               "the scramble produced an impossible cube");
        }
        result.b[i] = code;
    }
    *state = result;
    return PZ_OK;
}

static int
cube2_format_state(const pz_puzzle_t *p,
                   const pz_state_t *s,
                   char *buf,
                   size_t len)
{
    int pic[NFACELETS];

    (void)p;
    if (len < NFACELETS + 1) {
        return PZ_EINVAL;
    }
    state_to_picture(s, pic);
    for (int i = 0; i < NFACELETS; i++) {
        buf[i] = face_letter[pic[i]];
    }
    buf[NFACELETS] = '\0';
    return NFACELETS;
}

static int
cube2_random_state(const pz_puzzle_t *p,
                   pz_rand_fn rand,
                   void *rng,
                   pz_state_t *out)
{
    /* The seven movable positions and pieces (all but DBL). */
    static const uint8_t movable[7] = { 0, 1, 2, 3, 4, 5, 7 };
    uint8_t piece[7];
    int twist = 0;

    (void)p;
    memcpy(piece, movable, sizeof(piece));
    /* Any permutation of the seven corners and any twists summing to 0 mod
     * 3 is reachable, so a uniform shuffle and uniform twists are uniform
     * over all 7! * 3^6 states. */
    perm_shuffle(piece, 7, rand, rng);
    state_clear(out);
    for (int i = 0; i < 7; i++) {
        int t = i < 6 ? (int)pz_rand_below(rand, rng, 3) : (3 - twist) % 3;

        twist = (twist + t) % 3;
        out->b[movable[i]] = (uint8_t)(piece[i] * 3 + t);
    }
    out->b[POS_DBL] = CODE_DBL;
    return PZ_OK;
}

/* --- The "seed" heuristic ------------------------------------------- */

typedef struct seed_ctx {
    /* wrong[i][code]: stickers of position i that differ from the goal
     * when it holds code. */
    uint8_t wrong[NCORNERS][NCODES];
    int divisor; /* 8 for a goal with one colour per face, else 12 */
} seed_ctx_t;

/*
 * h = ceil(stickers differing from the goal / divisor). A turn (quarter or
 * half) moves 12 stickers: the 4 of the turned face and 8 on the sides;
 * the other 12 stay, so it changes at most 12 stickers' correctness. When
 * the goal shows one colour per face (the solved cube), the 4 stickers of
 * the turned face stay on that face, whose goal colour is uniform, so
 * their correctness cannot change: at most 8 change. Each move thus lowers
 * the count by at most the divisor, and the goal has count 0, so h never
 * exceeds the moves left in HTM or QTM: admissible.
 */
static int
seed_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    seed_ctx_t *c = ctx;
    int pic[NFACELETS];
    bool uniform = true;

    (void)p;
    state_to_picture(goal, pic);
    for (int i = 0; i < NFACELETS; i++) {
        uniform = uniform && pic[i] == pic[i / 4 * 4];
    }
    c->divisor = uniform ? 8 : 12;
    for (int i = 0; i < NCORNERS; i++) {
        for (int code = 0; code < NCODES; code++) {
            int j = code / 3;
            int t = code % 3;
            int n = 0;

            for (int k = 0; k < 3; k++) {
                n += pic[corner_facelet[i][(k + t) % 3]] !=
                     corner_facelet[j][k] / 4;
            }
            c->wrong[i][code] = (uint8_t)n;
        }
    }
    return PZ_OK;
}

static int
seed_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const seed_ctx_t *c = ctx;
    int n = 0;

    (void)p;
    for (int i = 0; i < NCORNERS; i++) {
        n += c->wrong[i][s->b[i]];
    }
    return (n + c->divisor - 1) / c->divisor;
}

static const heuristic_ops_t seed_heuristic = {
    .name = "seed",
    .summary = "stickers differing from the goal / 8, rounded up (/ 12 for "
               "a goal whose faces are not one colour each)",
    .admissible = true,
    .ctx_bytes = sizeof(seed_ctx_t),
    .init = seed_init,
    .eval = seed_eval,
    .update = NULL,
};

static const heuristic_ops_t *const cube2_heuristics[] = {
    &seed_heuristic,
    &complete_heuristic_exact,
    NULL,
};

/* --- Ranks for the complete table ----------------------------------- */

/* The movable positions (all but DBL) and the slot 0..6 of each piece. */
static const uint8_t rank_pos[7] = { 0, 1, 2, 3, 4, 5, 7 };
static const uint8_t rank_slot[NCORNERS] = { 0, 1, 2, 3, 4, 5, 7, 6 };

enum {
    NTWISTS = 729
}; /* 3^6: the seventh twist follows from the rest */

static uint64_t
cube2_rank_count(const pz_puzzle_t *p)
{
    (void)p;
    return UINT64_C(5040) * NTWISTS;
}

/* The Lehmer code of the seven movable pieces (7! = 5040 values) times
 * 3^6, plus the twists of the first six movable positions in base 3:
 * exactly the 3,674,160 positions. */
static uint64_t
cube2_rank(const pz_puzzle_t *p, const pz_state_t *s)
{
    uint8_t slot[7];
    uint64_t tw = 0;

    (void)p;
    for (int i = 0; i < 7; i++) {
        int code = s->b[rank_pos[i]];

        slot[i] = rank_slot[code / 3];
        if (i < 6) {
            tw = tw * 3 + (uint64_t)(code % 3);
        }
    }
    return perm_rank(slot, 7) * NTWISTS + tw;
}

static void
cube2_unrank(const pz_puzzle_t *p, uint64_t index, pz_state_t *out)
{
    uint8_t slot[7];
    int twist[7];
    int sum = 0;
    uint64_t tw = index % NTWISTS;

    (void)p;
    perm_unrank(index / NTWISTS, 7, slot);
    for (int i = 5; i >= 0; i--) {
        twist[i] = (int)(tw % 3);
        tw /= 3;
        sum += twist[i];
    }
    twist[6] = (3 - sum % 3) % 3;
    memset(out->b, 0, sizeof(out->b));
    for (int i = 0; i < 7; i++) {
        /* Pieces are named by their home positions: slot v is the piece
         * at home in rank_pos[v]. */
        out->b[rank_pos[i]] = (uint8_t)(rank_pos[slot[i]] * 3 + twist[i]);
    }
    out->b[POS_DBL] = CODE_DBL;
}

/*
 * Renames each piece after the position it has in goal, and measures its
 * twist from the twist it has there: a piece j with twist t becomes piece
 * where[j] with twist t - twist_in_goal[j]. A move carries a piece from a
 * position to another and adds a twist that depends only on the
 * positions, so it commutes with the renaming, and goal becomes solved.
 * DBL is home in every state, so it stays home.
 */
static bool
cube2_relabel(const pz_puzzle_t *p,
              const pz_state_t *goal,
              const pz_state_t *s,
              pz_state_t *out)
{
    uint8_t where[NCORNERS];
    uint8_t gtwist[NCORNERS];
    uint8_t in[STATE_BYTES];

    (void)p;
    memcpy(in, s->b, STATE_BYTES);
    for (int k = 0; k < NCORNERS; k++) {
        int j = goal->b[k] / 3;

        if (j >= NCORNERS) {
            return false;
        }
        where[j] = (uint8_t)k;
        gtwist[j] = (uint8_t)(goal->b[k] % 3);
    }
    memset(out->b, 0, sizeof(out->b));
    for (int i = 0; i < NCORNERS; i++) {
        int j = in[i] / 3;
        int t = in[i] % 3;

        out->b[i] = (uint8_t)(where[j] * 3 + (t + 3 - gtwist[j]) % 3);
    }
    return true;
}

/* The complete tables of both metrics. */
static int
cube2_named_tables(tables_def_t *out, int max)
{
    static const pz_params_t htm = { 0, 0, PZ_METRIC_HTM };
    static const pz_params_t qtm = { 0, 0, PZ_METRIC_QTM };
    int n = complete_named("2x2x2", "2x2x2", &htm, out, max);

    return n + complete_named("2x2x2", "2x2x2", &qtm, out + n, max - n);
}

/* The net of the state's stickers, each in the colour of the face it
 * belongs to as the puzzle holds it (the DBL corner at home). */
static int
cube2_picture(const pz_puzzle_t *p, const pz_state_t *s, puzzle_picture_t *out)
{
    int pic[NFACELETS];

    (void)p;
    state_to_picture(s, pic);
    return cubeface_draw_net(2, pic, out);
}

static const puzzle_draw_t cube2_draw = {
    .picture = cube2_picture,
};

static const puzzle_io_t cube2_io = {
    .notation = "HTM: U R F with 2 or '; scrambles also D L B, wide Uw/u, "
                "rotations x y z",
    .state_forms = "24-character facelet string U1..U4 R1..R4 F1..F4 D1..D4 "
                   "L1..L4 B1..B4, or 24 integers in blocks U R D L B F",
    .parse_state = cube2_parse_state,
    .apply_scramble = cube2_apply_scramble,
    .format_state = cube2_format_state,
};

static const puzzle_ranking_t cube2_ranking = {
    .count = cube2_rank_count,
    .rank = cube2_rank,
    .unrank = cube2_unrank,
    .relabel = cube2_relabel,
};

static const puzzle_random_t cube2_random = {
    .state = cube2_random_state,
};

static const puzzle_solving_t cube2_solving = {
    .named_tables = cube2_named_tables,
};

/* Kinds of pieces for reachability checks (puzzle_pieces_t). */
static const char *const cube2_corner_names[] = {
    "URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB",
};

static const puzzle_pieces_t cube2_pieces[] = {
    { .name = "corners",
      .offset = 0,
      .count = 8,
      .orientations = 3,
      .rigid = true,
      .names = cube2_corner_names },
    { .name = NULL },
};

/* Goals that care about some corners only. */
static const puzzle_preset_t cube2_presets[] = {
    { "first-layer", "DFR DLF DBL DRB", "the D layer's four corners" },
    { NULL, NULL, NULL },
};

const puzzle_ops_t puzzle__cube2 = {
    .name = "2x2x2",
    .summary = "2x2x2 pocket cube, 3,674,160 positions (DLB corner fixed)",
    .default_heuristic = "seed",
    .init = cube2_init,
    .goal = cube2_goal,
    .apply = cube2_apply,
    .inverse = cube2_inverse,
    .redundant = cube2_redundant,
    .move_name = cube2_move_name,
    .heuristics = cube2_heuristics,
    .io = &cube2_io,
    .ranking = &cube2_ranking,
    .random = &cube2_random,
    .solving = &cube2_solving,
    .draw = &cube2_draw,
    .pieces = cube2_pieces,
    .presets = cube2_presets,
};
