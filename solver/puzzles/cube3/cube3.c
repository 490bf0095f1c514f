/* SPDX-License-Identifier: MIT */
/* cube3.c - the 3x3x3 Rubik's cube puzzle: cubie states, HTM and QTM. */
#include "cube3.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "heuristic.h"
#include "pdb.h"
#include "perm.h"
#include "puzzle_internal.h"
#include "puzzles/cubeface.h"
#include "tables.h"
#include "twophase/twophase.h"

/*
 * Design: centres never move, so a state is the 20-byte cubie encoding of
 * cube3.h (corner piece * 3 + twist, then edge piece * 2 + flip). apply()
 * is one table lookup per byte: the byte at position i comes from the
 * position the move takes it from, and its orientation code is advanced by
 * a per-position table (corners) or an XOR (edges). The tables are made at
 * init from the constant move cubies of cubie.c.
 *
 * Everything about stickers (facelet strings, the notebook's [6][3][3]
 * arrays, scrambles with slices, wide moves and rotations) goes through
 * the 54-facelet picture. A scramble is played on the picture with
 * cubeface_turn, which may move centres; reading the picture back uses
 * the centres to name the colours, exactly as for a state typed in by a
 * person, so "x" or "M" leave the state as a cube held in its new way:
 * "M" gives the state of "R L'", and rotations alone give the solved cube.
 */

enum {
    NFACES = 6,
    NLAYER_KINDS = 4, /* the face, wide (two layers), middle slice, all */
    MAX_MOVES = CUBE3_NMOVES,
};

/* Layer masks of cubeface_turn for each kind. */
static const unsigned layer_mask[NLAYER_KINDS] = { 1u, 3u, 2u, 7u };

enum layer_kind {
    KIND_FACE = 0,
    KIND_WIDE,
    KIND_SLICE,
    KIND_WHOLE,
};

static const char face_letter[NFACES] = { 'U', 'R', 'F', 'D', 'L', 'B' };

static const char *const htm_name[CUBE3_NMOVES] = {
    "U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'",
    "D", "D2", "D'", "L", "L2", "L'", "B", "B2", "B'",
};
static const char *const qtm_name[12] = {
    "U", "U'", "R", "R'", "F", "F'", "D", "D'", "L", "L'", "B", "B'",
};

/* apply() tables of one move. */
typedef struct move_tab {
    uint8_t csrc[CUBE3_NCORNERS];      /* position the corner comes from */
    uint8_t esrc[CUBE3_NEDGES];        /* position the edge comes from */
    uint8_t eflip[CUBE3_NEDGES];       /* XORed into the edge code */
    uint8_t cstep[CUBE3_NCORNERS][24]; /* corner code -> code, twisted */
} move_tab_t;

typedef struct cube3_priv {
    move_tab_t tab[MAX_MOVES]; /* by move id of this instance */
    uint8_t face[MAX_MOVES];   /* 0..5, U R F D L B */
    bool qtm;                  /* move ids follow the QTM order */
    /* Sticker permutations for scrambles: [face][kind][quarters - 1]. */
    uint8_t turn[NFACES][NLAYER_KINDS][3][CUBE3_NFACELETS];
} cube3_priv_t;

static void
cube3_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    cube3_cubie_t c;

    (void)p;
    cube3_cubie_solved(&c);
    cube3_cubie_to_state(&c, out);
}

static void
build_move_tab(move_tab_t *t, const cube3_cubie_t *m)
{
    /* c * m: position i receives the piece at m->cp[i], its twist raised by
     * m->co[i] (cube3.h's product). */
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        t->csrc[i] = m->cp[i];
        for (int code = 0; code < 24; code++) {
            t->cstep[i][code] =
                (uint8_t)(code / 3 * 3 + (code % 3 + m->co[i]) % 3);
        }
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        t->esrc[i] = m->ep[i];
        t->eflip[i] = m->eo[i];
    }
}

static int
cube3_init(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d)
{
    cube3_priv_t *pv;
    bool qtm;

    if (params->rows != 0 || params->cols != 0) {
        return pz_diag_set(d, PZ_ESIZE, "the 3x3x3 has no size parameter");
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
                           "the 3x3x3 is solved in \"htm\" (default) or "
                           "\"qtm\"");
    }
    pv = p->priv;
    pv->qtm = qtm;
    p->metric = qtm ? PZ_METRIC_QTM : PZ_METRIC_HTM;
    p->metric_name = qtm ? "qtm" : "htm";
    p->nmoves = qtm ? 12 : CUBE3_NMOVES;
    p->state_size = CUBE3_STATE_BYTES;
    for (int m = 0; m < p->nmoves; m++) {
        /* QTM ids: face * 2 + {0 clockwise, 1 anticlockwise}. */
        int h = qtm ? m / 2 * 3 + (m & 1) * 2 : m;

        pv->face[m] = (uint8_t)(h / 3);
        build_move_tab(&pv->tab[m], cube3_move_cubie(h));
    }
    for (int f = 0; f < NFACES; f++) {
        for (int k = 0; k < NLAYER_KINDS; k++) {
            for (int q = 1; q <= 3; q++) {
                int perm[CUBE3_NFACELETS];

                if (cubeface_turn(3, f, layer_mask[k], q, perm) != 0) {
                    return pz_diag_set(d, PZ_EINTERNAL,
                                       "3x3x3 sticker tables broken");
                }
                for (int i = 0; i < CUBE3_NFACELETS; i++) {
                    pv->turn[f][k][q - 1][i] = (uint8_t)perm[i];
                }
            }
        }
    }
    return PZ_OK;
}

static bool
cube3_apply(const pz_puzzle_t *p,
            const pz_state_t *s,
            int move,
            pz_state_t *out)
{
    const move_tab_t *t = &((const cube3_priv_t *)p->priv)->tab[move];
    uint8_t in[CUBE3_STATE_BYTES];

    /* Copy first: s may be out. */
    memcpy(in, s->b, sizeof(in));
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        out->b[i] = t->cstep[i][in[t->csrc[i]]];
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        out->b[CUBE3_NCORNERS + i] =
            (uint8_t)(in[CUBE3_NCORNERS + t->esrc[i]] ^ t->eflip[i]);
    }
    /* Keep the zero-past-state_size invariant even when out was not a
     * cleared state. */
    memset(out->b + CUBE3_STATE_BYTES, 0, PZ_STATE_MAX - CUBE3_STATE_BYTES);
    return true;
}

static int
cube3_inverse(const pz_puzzle_t *p, int move)
{
    const cube3_priv_t *pv = p->priv;

    if (pv->qtm) {
        return move ^ 1;
    }
    return move / 3 * 3 + (2 - move % 3);
}

/*
 * Pruning of pairs (the caller already excludes a move followed by its
 * inverse):
 * - HTM: two turns of one face in a row merge into one turn or cancel, so
 *   the second is never needed.
 * - Opposite faces commute (U D = D U), so of the two orders only one is
 *   searched: after D no U, after L no R, after B no F (in face ids, next
 *   = prev - 3). Any run of turns on one axis can be reordered with all
 *   turns of U (R, F) before those of D (L, B) at the same length, so
 *   nothing is lost.
 * - QTM: U U is a half turn and must stay allowed (it is the only way to
 *   make U2). U' U' makes the same state as U U in the same length, so
 *   it is dropped. Within one axis every run then still has a shortest
 *   representative (U, U U or U' for the U part, then the D part).
 *   Longer same-face runs (U U U) cannot be seen in a pair and are left
 *   to the engines' duplicate detection; they are never shorter.
 */
static bool
cube3_redundant(const pz_puzzle_t *p, int prev, int next)
{
    const cube3_priv_t *pv = p->priv;
    int fp = pv->face[prev];
    int fn = pv->face[next];

    if (fn == fp) {
        return pv->qtm ? prev == next && (prev & 1) : true;
    }
    return fn + 3 == fp;
}

static const char *
cube3_move_name(const pz_puzzle_t *p, int move)
{
    const cube3_priv_t *pv = p->priv;

    if (move < 0 || move >= p->nmoves) {
        return "?";
    }
    return pv->qtm ? qtm_name[move] : htm_name[move];
}

/* The [6][3][3] reference layout (faces U L F R D B) as the source of each
 * Kociemba facelet: facelet[k] = array[layout_src(k)]. */
static int
layout_src(int k)
{
    /* Array face of each Kociemba face U R F D L B. */
    static const int array_face[NFACES] = { 0, 3, 2, 4, 1, 5 };
    int f = k / 9;
    int r = k % 9 / 3;
    int c = k % 3;

    if (f == CUBEFACE_B) {
        /* B is stored turned by 180 degrees: array[5][r][c] is
         * K_B[2-r][2-c]. */
        r = 2 - r;
        c = 2 - c;
    }
    return 9 * array_face[f] + 3 * r + c;
}

static bool
is_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

static int
parse_text(const char *text, int sym[CUBE3_NFACELETS], pz_diag_t *d)
{
    int n = puzzle_read_stickers(text, sym, CUBE3_NFACELETS, d);

    if (n < 0) {
        return n;
    }
    if (n != CUBE3_NFACELETS) {
        return pz_diag_set(d, PZ_ESTATE_LENGTH,
                           "the state has %d stickers; a 3x3x3 facelet "
                           "string has 54 (U1..U9 R1..R9 F1..F9 D1..D9 "
                           "L1..L9 B1..B9)",
                           n);
    }
    return PZ_OK;
}

static int
parse_ints(const pz_input_t *in, int sym[CUBE3_NFACELETS], pz_diag_t *d)
{
    if (in->nints != CUBE3_NFACELETS) {
        return pz_diag_set(d, PZ_ESTATE_LENGTH,
                           "the state has %zu numbers; a 3x3x3 array has 54: "
                           "[6][3][3], faces U L F R D B",
                           in->nints);
    }
    /* A flat list of 54 or nested by face ([6][9], [6][3][3]); other
     * shapes with 54 numbers are surely another layout. */
    if (in->ndims > 1 &&
        (in->shape[0] != 6 ||
         (in->ndims == 3 && (in->shape[1] != 3 || in->shape[2] != 3)))) {
        return pz_diag_set(d, PZ_ESTATE_LENGTH,
                           "the state array has the wrong shape; a 3x3x3 "
                           "array is [6][3][3], faces U L F R D B");
    }
    for (int k = 0; k < CUBE3_NFACELETS; k++) {
        sym[k] = in->ints[layout_src(k)];
    }
    return PZ_OK;
}

static int
cube3_parse_state(const pz_puzzle_t *p,
                  const pz_input_t *in,
                  pz_state_t *out,
                  pz_diag_t *d)
{
    int sym[CUBE3_NFACELETS];
    cube3_cubie_t c;
    int rc;

    (void)p;
    state_clear(out);
    if (in == NULL || (in->text == NULL && in->ints == NULL)) {
        return pz_diag_set(d, PZ_EINVAL, "no state given");
    }
    if (in->text != NULL) {
        rc = parse_text(in->text, sym, d);
        if (rc == PZ_OK) {
            rc = cube3_picture_to_cubie(sym, CUBE3_SYM_CHAR, &c, d);
        }
    } else {
        rc = parse_ints(in, sym, d);
        if (rc == PZ_OK) {
            rc = cube3_picture_to_cubie(sym, CUBE3_SYM_INT, &c, d);
        }
    }
    if (rc == PZ_OK) {
        cube3_cubie_to_state(&c, out);
    }
    return rc;
}

/* One scramble token in sticker terms. */
typedef struct token {
    int face;     /* enum cubeface_face */
    int kind;     /* enum layer_kind */
    int quarters; /* clockwise quarter turns, 1..3 */
} token_t;

/* Parses one token at text[*at] into *t and advances *at. Returns false
 * for an unknown token. */
static bool
scan_token(const char *text, size_t *at, token_t *t)
{
    static const char faces[] = "URFDLB";
    static const char wide[] = "urfdlb";
    size_t i = *at;
    char c = text[i];

    if (c == '\0') {
        return false;
    }
    if (strchr(faces, c) != NULL) {
        t->face = (int)(strchr(faces, c) - faces);
        t->kind = KIND_FACE;
        i++;
        if (text[i] == 'w') {
            t->kind = KIND_WIDE;
            i++;
        }
    } else if (strchr(wide, c) != NULL) {
        t->face = (int)(strchr(wide, c) - wide);
        t->kind = KIND_WIDE;
        i++;
    } else if (c == 'M' || c == 'E' || c == 'S') {
        /* Slices turn as the face they follow: M as L, E as D, S as F. */
        t->face = c == 'M' ? CUBEFACE_L : c == 'E' ? CUBEFACE_D : CUBEFACE_F;
        t->kind = KIND_SLICE;
        i++;
    } else if (c == 'x' || c == 'y' || c == 'z') {
        /* Rotations turn the whole cube as R, U, F do. */
        t->face = c == 'x' ? CUBEFACE_R : c == 'y' ? CUBEFACE_U : CUBEFACE_F;
        t->kind = KIND_WHOLE;
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

static int
bad_token(const char *text, size_t start, pz_diag_t *d)
{
    size_t end = start;
    int len;

    while (text[end] != '\0' && !is_space(text[end])) {
        end++;
    }
    len = (int)(end - start > 32 ? 32 : end - start);
    if (d != NULL) {
        d->position = (int)start;
    }
    return pz_diag_set(d, PZ_EMOVE,
                       "unknown move '%.*s' at position %d; use U D L R F B "
                       "with an optional 2 or ', wide moves Uw or u, slices "
                       "M E S, or rotations x y z",
                       len, text + start, (int)start);
}

static int
cube3_apply_scramble(const pz_puzzle_t *p,
                     const char *text,
                     pz_state_t *state,
                     pz_diag_t *d)
{
    const cube3_priv_t *pv = p->priv;
    int pic[CUBE3_NFACELETS];
    size_t at = 0;
    cube3_cubie_t c;

    if (cube3_cubie_from_state(state, &c) != PZ_OK) {
        return pz_diag_set(d, PZ_EINVAL, "the cube to scramble is invalid");
    }
    cube3_cubie_to_picture(&c, pic);
    while (text[at] != '\0') {
        size_t start = at;
        token_t t;
        const uint8_t *perm;
        int old[CUBE3_NFACELETS];

        if (is_space(text[at])) {
            at++;
            continue;
        }
        /* A token must end at a space, the end, or the next token. */
        if (!scan_token(text, &at, &t) ||
            (text[at] != '\0' && !is_space(text[at]) &&
             strchr("URFDLBurfdlbMESxyz", text[at]) == NULL)) {
            return bad_token(text, start, d);
        }
        perm = pv->turn[t.face][t.kind][t.quarters - 1];
        memcpy(old, pic, sizeof(old));
        for (int i = 0; i < CUBE3_NFACELETS; i++) {
            pic[i] = old[perm[i]];
        }
    }
    /* The centres may have moved (slices, wide moves, rotations): reading
     * the picture lets them name the colours, which folds the turn back
     * onto a cube with fixed centres. */
    if (cube3_picture_to_cubie(pic, CUBE3_SYM_FACE, &c, d) != PZ_OK) {
        return pz_diag_set(d, PZ_EINTERNAL,
                           "the scramble produced an impossible cube");
    }
    cube3_cubie_to_state(&c, state);
    return PZ_OK;
}

static int
cube3_format_state(const pz_puzzle_t *p,
                   const pz_state_t *s,
                   char *buf,
                   size_t len)
{
    int pic[CUBE3_NFACELETS];
    cube3_cubie_t c;

    (void)p;
    if (len < CUBE3_NFACELETS + 1 || cube3_cubie_from_state(s, &c) != PZ_OK) {
        return PZ_EINVAL;
    }
    cube3_cubie_to_picture(&c, pic);
    for (int i = 0; i < CUBE3_NFACELETS; i++) {
        buf[i] = face_letter[pic[i]];
    }
    buf[CUBE3_NFACELETS] = '\0';
    return CUBE3_NFACELETS;
}

static int
cube3_random_state(const pz_puzzle_t *p,
                   pz_rand_fn rand,
                   void *rng,
                   pz_state_t *out)
{
    cube3_cubie_t c;

    (void)p;
    cube3_cubie_solved(&c);
    perm_shuffle(c.cp, CUBE3_NCORNERS, rand, rng);
    perm_shuffle(c.ep, CUBE3_NEDGES, rand, rng);
    /* Swapping two fixed positions when the parities differ maps exactly
     * two edge permutations onto each one of the right parity, so the
     * result stays uniform over the legal cubes. */
    if (cube3_corner_parity(&c) != cube3_edge_parity(&c)) {
        uint8_t t = c.ep[CUBE3_NEDGES - 1];

        c.ep[CUBE3_NEDGES - 1] = c.ep[CUBE3_NEDGES - 2];
        c.ep[CUBE3_NEDGES - 2] = t;
    }
    cube3_set_twist(&c, (int)pz_rand_below(rand, rng, 2187));
    cube3_set_flip(&c, (int)pz_rand_below(rand, rng, 2048));
    cube3_cubie_to_state(&c, out);
    return PZ_OK;
}

/* --- The "misplaced" heuristic ------------------------------------------ */

typedef struct misplaced_ctx {
    uint8_t goal[CUBE3_STATE_BYTES]; /* the goal's bytes */
} misplaced_ctx_t;

static int
misplaced_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    misplaced_ctx_t *c = ctx;

    (void)p;
    memcpy(c->goal, goal->b, CUBE3_STATE_BYTES);
    return PZ_OK;
}

/*
 * h = max(ceil(wrong corners / 4), ceil(wrong edges / 4)), where a
 * position is wrong when it does not hold the goal's piece with the
 * goal's orientation. Admissible in HTM and QTM, for any goal: a quarter
 * or half turn moves exactly 4 corners and 4 edges and leaves every other
 * position as it was, so one move changes at most 4 positions of each
 * kind from wrong to right. The goal has none wrong, so reaching it from
 * a state with k wrong corners takes at least ceil(k / 4) moves, and the
 * same holds for edges; the larger bound is a bound too.
 */
static int
misplaced_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const misplaced_ctx_t *c = ctx;
    int corners = 0;
    int edges = 0;

    (void)p;
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        corners += s->b[i] != c->goal[i];
    }
    for (int i = CUBE3_NCORNERS; i < CUBE3_STATE_BYTES; i++) {
        edges += s->b[i] != c->goal[i];
    }
    corners = (corners + 3) / 4;
    edges = (edges + 3) / 4;
    return corners > edges ? corners : edges;
}

static const heuristic_ops_t misplaced_heuristic = {
    .name = "misplaced",
    .summary = "max of corners and of edges not in their goal place and "
               "orientation, each divided by 4 and rounded up (a turn moves "
               "4 of each)",
    .admissible = true,
    .ctx_bytes = sizeof(misplaced_ctx_t),
    .init = misplaced_init,
    .eval = misplaced_eval,
    .update = NULL,
};

static const heuristic_ops_t *const cube3_heuristics[] = {
    &misplaced_heuristic,       &cube3_pdb_heuristic,
    &cube3_pdb_small_heuristic, &cube3_pdb_large_heuristic,
    &cube3_pdb_huge_heuristic,  NULL,
};

static const engine_ops_t *const cube3_solvers[] = {
    &cube3_twophase_engine,
    &cube3_idastar_engine,
    NULL,
};

/* The optimal solver's pattern databases and the two-phase tables. */
static int
cube3_named_tables(tables_def_t *out, int max)
{
    int n = tables_defs_of_blobs(cube3_pdb_table_defs, out, max);

    return n + tables_defs_of_blobs(twophase_table_defs, out + n, max - n);
}

/* The net of the state's stickers, each in the colour of its home face. */
static int
cube3_picture(const pz_puzzle_t *p, const pz_state_t *s, puzzle_picture_t *out)
{
    cube3_cubie_t c;
    int pic[CUBE3_NFACELETS];

    (void)p;
    if (cube3_cubie_from_state(s, &c) != PZ_OK) {
        return PZ_EINTERNAL;
    }
    cube3_cubie_to_picture(&c, pic);
    return cubeface_draw_net(3, pic, out);
}

static const puzzle_draw_t cube3_draw = {
    .picture = cube3_picture,
};

static const puzzle_io_t cube3_io = {
    .notation = "HTM: U R F D L B with 2 or ' (QTM: without 2); scrambles "
                "also wide Rw/r, slices M E S, rotations x y z",
    .state_forms = "54-character facelet string U1..U9 R1..R9 F1..F9 D1..D9 "
                   "L1..L9 B1..B9 (Kociemba order, any six symbols), or a "
                   "[6][3][3] array, faces U L F R D B, B turned 180 degrees",
    .parse_state = cube3_parse_state,
    .apply_scramble = cube3_apply_scramble,
    .format_state = cube3_format_state,
};

static const puzzle_symmetry_t cube3_symmetry = {
    .root_moves = cube3_pdb_root_moves,
    .root_next_moves = cube3_pdb_root_next_moves,
};

static const puzzle_random_t cube3_random = {
    .state = cube3_random_state,
};

/*
 * With optimal, `auto` runs IDA* on the strongest set of pattern
 * databases present (pdb-huge, 7.2 GB; pdb-large, 5.2 GB; pdb, 0.9 GB;
 * pdb-small, 75 MB)
 * that the tables' memory cap can hold; none present: pdb, which the
 * request then waits for or builds. Without: two-phase.
 */
static const char *const cube3_optimal_heuristics[] = {
    "pdb-huge", "pdb-large", "pdb", "pdb-small", NULL,
};

static const puzzle_solving_t cube3_solving = {
    .solvers = cube3_solvers,
    .named_tables = cube3_named_tables,
    .fast_engine = "twophase",
    .optimal_heuristic = "pdb",
    .optimal_heuristics = cube3_optimal_heuristics,
    .optimal_suits = cube3_pdb_optimal_suits,
};

/* Kinds of pieces for reachability checks (puzzle_pieces_t). */
static const char *const cube3_corner_names[] = {
    "URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB",
};

static const char *const cube3_edge_names[] = {
    "UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR",
};

static const puzzle_pieces_t cube3_pieces[] = {
    { .name = "corners",
      .offset = 0,
      .count = 8,
      .orientations = 3,
      .rigid = true,
      .names = cube3_corner_names },
    { .name = "edges",
      .offset = 8,
      .count = 12,
      .orientations = 2,
      .rigid = true,
      .names = cube3_edge_names },
    { .name = NULL },
};

/* The speedcubers' sub-goals, with the cross on D. */
static const puzzle_preset_t cube3_presets[] = {
    { "cross", "DF DR DB DL", "the four D edges" },
    { "xcross", "DF DR DB DL DFR FR",
      "the cross and the front-right pair (corner DFR, edge FR)" },
    { "f2l", "DF DR DB DL DFR DLF DBL DRB FR FL BL BR",
      "the first two layers: the cross, the D corners and the E edges" },
    { "2x2x2-block", "DBL DL DB BL", "the Petrus block at DBL" },
    { "first-block", "DL FL BL DLF DBL", "Roux's first block, on L" },
    { "eo", "~UR ~UF ~UL ~UB ~DR ~DF ~DL ~DB ~FR ~FL ~BL ~BR",
      "every edge oriented (F and B quarter turns flip edges)" },
    { "eoline", "~UR ~UF ~UL ~UB ~DR ~DL ~FR ~FL ~BL ~BR DF DB",
      "ZZ's start: the edges oriented, DF and DB solved" },
    { "oll",
      "DF DR DB DL DFR DLF DBL DRB FR FL BL BR ~URF ~UFL ~ULB ~UBR ~UR ~UF "
      "~UL ~UB",
      "the first two layers solved and the last layer oriented" },
    { NULL, NULL, NULL },
};

const puzzle_ops_t puzzle__cube3 = {
    .name = "3x3x3",
    .summary = "3x3x3 Rubik's cube, 43,252,003,274,489,856,000 positions "
               "(centres fixed)",
    .default_heuristic = "misplaced",
    .priv_size = sizeof(cube3_priv_t),
    .init = cube3_init,
    .goal = cube3_goal,
    .apply = cube3_apply,
    .inverse = cube3_inverse,
    .redundant = cube3_redundant,
    .move_name = cube3_move_name,
    .heuristics = cube3_heuristics,
    .io = &cube3_io,
    .symmetry = &cube3_symmetry,
    .random = &cube3_random,
    .solving = &cube3_solving,
    .draw = &cube3_draw,
    .pieces = cube3_pieces,
    .presets = cube3_presets,
};
