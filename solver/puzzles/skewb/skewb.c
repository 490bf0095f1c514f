/* SPDX-License-Identifier: MIT */
/* skewb.c - the fixed-corner Skewb: geometry, moves, scrambles, states. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "complete.h"
#include "perm.h"
#include "puzzle_internal.h"
#include "puzzles/cubeface.h"
#include "skewb_internal.h"

/*
 * Design: every sticker gets integer 3D coordinates (axes x towards R, y
 * towards U, z towards F; stickers on the planes +-3, corner stickers at
 * +-1 within their face), and every corner a sign vector t (+-1, +-1,
 * +-1). A move at corner t rotates the pieces of its half (the corners
 * and centres whose position p has t.p > 0: the corner itself, its three
 * neighbours and the three centres around it) by 120 degrees about t;
 * the rotation of a sticker is an exact signed permutation of its
 * coordinates, looked up among the stickers. The byte-level move tables
 * are then read off the solved picture after each sticker permutation by
 * the same parser that validates user input (skewb_input.c), so stickers
 * and bytes cannot disagree; the twist-sum rules of skewb_internal.h are
 * read off the moves the same way, by a search over the permutations.
 */

enum {
    NMOVES = SKEWB_NMOVES,
    NFACELETS = SKEWB_NFACELETS,
    STATE_BYTES = SKEWB_STATE_BYTES,
    CORNER0 = SKEWB_CORNER0,
};

const char skewb_face_letter[SKEWB_NFACES] = { 'U', 'R', 'F', 'D', 'L', 'B' };

const char *const skewb_corner_name[SKEWB_NCORNERS] = {
    "UFR", "UFL", "UBL", "UBR", "DFR", "DFL", "DBL", "DBR",
};

const uint8_t skewb_tetrad_a[3] = { SKEWB_UBL, SKEWB_DFL, SKEWB_DBR };
const uint8_t skewb_tetrad_b[4] = { SKEWB_UFL, SKEWB_UBR, SKEWB_DFR,
                                    SKEWB_DBL };

/* Sign vectors of the corner positions (x R, y U, z F). */
static const int corner_sign[SKEWB_NCORNERS][3] = {
    { 1, 1, 1 },  { -1, 1, 1 },  { -1, 1, -1 },  { 1, 1, -1 },
    { 1, -1, 1 }, { -1, -1, 1 }, { -1, -1, -1 }, { 1, -1, -1 },
};

/* The corner each move letter turns: R at DBR, U at UBL, L at DFL, B at
 * DBL (WCA; cubing.js maps R U L B to its DRB, UBL, DLF and DBL turns). */
static const uint8_t move_corner[4] = { SKEWB_DBR, SKEWB_UBL, SKEWB_DFL,
                                        SKEWB_DBL };

static const char *const move_names[NMOVES] = {
    "R", "R'", "U", "U'", "L", "L'", "B", "B'",
};

/* Outward normal of each face, and the directions in which its columns
 * and rows grow as seen from outside (the 3x3x3 facelet conventions). */
static const int face_normal[SKEWB_NFACES][3] = {
    { 0, 1, 0 },  { 1, 0, 0 },  { 0, 0, 1 },
    { 0, -1, 0 }, { -1, 0, 0 }, { 0, 0, -1 },
};
static const int face_col[SKEWB_NFACES][3] = {
    { 1, 0, 0 }, { 0, 0, -1 }, { 1, 0, 0 },
    { 1, 0, 0 }, { 0, 0, 1 },  { -1, 0, 0 },
};
static const int face_row[SKEWB_NFACES][3] = {
    { 0, 0, 1 },  { 0, -1, 0 }, { 0, -1, 0 },
    { 0, 0, -1 }, { 0, -1, 0 }, { 0, -1, 0 },
};

/* Row and column (0..2 on the 3x3 grid) of the stickers of a face. */
static const int sticker_row[5] = { 0, 0, 1, 2, 2 };
static const int sticker_col[5] = { 0, 2, 1, 0, 2 };

/* 3D position of facelet i. */
static void
facelet_pos(int i, int v[3])
{
    int f = i / 5;
    int k = i % 5;

    for (int a = 0; a < 3; a++) {
        v[a] = 3 * face_normal[f][a] + (sticker_col[k] - 1) * face_col[f][a] +
               (sticker_row[k] - 1) * face_row[f][a];
    }
}

/* Position of the piece facelet i belongs to: the signs of its
 * coordinates, which are the face normal for a centre and the corner's
 * sign vector otherwise. */
static void
facelet_piece(int i, int v[3])
{
    facelet_pos(i, v);
    for (int a = 0; a < 3; a++) {
        v[a] = (v[a] > 0) - (v[a] < 0);
    }
}

/* The facelet at position v, or -1. */
static int
facelet_at(const int v[3])
{
    for (int i = 0; i < NFACELETS; i++) {
        int w[3];

        facelet_pos(i, w);
        if (w[0] == v[0] && w[1] == v[1] && w[2] == v[2]) {
            return i;
        }
    }
    return -1;
}

/*
 * Rotates v by 120 degrees clockwise as seen from outside looking at the
 * corner with sign vector t towards the centre: the rotation by -120
 * degrees about the axis t, v' = (-v - t x v + t (t.v)) / 2 (Rodrigues'
 * formula with |t|^2 = 3). It permutes the axes with signs, so integer
 * positions stay integer. For t = (1, 1, 1) it takes R to F, F to U and U
 * to R, clockwise for someone looking at the UFR corner.
 */
static void
rotate_cw(const int t[3], const int v[3], int out[3])
{
    int cross[3] = {
        t[1] * v[2] - t[2] * v[1],
        t[2] * v[0] - t[0] * v[2],
        t[0] * v[1] - t[1] * v[0],
    };
    int dot = t[0] * v[0] + t[1] * v[1] + t[2] * v[2];

    for (int a = 0; a < 3; a++) {
        out[a] = (-v[a] - cross[a] + t[a] * dot) / 2;
    }
}

/* Fills the sticker triples and the moves' sticker permutations. Returns
 * false if the geometry does not close (a bug). */
static bool
build_geometry(skewb_model_t *m)
{
    for (int f = 0; f < SKEWB_NFACES; f++) {
        m->centre_facelet[f] = (uint8_t)(f * 5 + 2);
    }
    for (int i = 0; i < SKEWB_NCORNERS; i++) {
        const int *t = corner_sign[i];
        int v[3] = { t[0], 3 * t[1], t[2] };
        int at = facelet_at(v);

        /* The U/D sticker, then each next one clockwise. */
        for (int k = 0; k < 3; k++) {
            int w[3];

            if (at < 0) {
                return false;
            }
            m->corner_facelet[i][k] = (uint8_t)at;
            facelet_pos(at, v);
            rotate_cw(t, v, w);
            at = facelet_at(w);
        }
    }
    for (int mv = 0; mv < NMOVES; mv += 2) {
        const int *t = corner_sign[move_corner[mv / 2]];
        uint8_t cw[NFACELETS];

        for (int i = 0; i < NFACELETS; i++) {
            cw[i] = (uint8_t)i;
        }
        for (int i = 0; i < NFACELETS; i++) {
            int p[3];
            int v[3];
            int w[3];
            int to;

            facelet_piece(i, p);
            if (t[0] * p[0] + t[1] * p[1] + t[2] * p[2] <= 0) {
                continue;
            }
            facelet_pos(i, v);
            rotate_cw(t, v, w);
            to = facelet_at(w);
            if (to < 0) {
                return false;
            }
            cw[to] = (uint8_t)i;
        }
        for (int i = 0; i < NFACELETS; i++) {
            m->perm[mv][i] = cw[i];
            m->perm[mv + 1][cw[i]] = (uint8_t)i;
        }
    }
    return true;
}

void
skewb_solved(pz_state_t *out)
{
    for (int f = 0; f < SKEWB_NFACES; f++) {
        out->b[f] = (uint8_t)f;
    }
    for (int i = 0; i < SKEWB_NCORNERS; i++) {
        out->b[CORNER0 + i] = (uint8_t)(i * 3);
    }
}

/* Reads each move's byte-level action off the solved picture. */
static bool
build_move_tables(skewb_model_t *m)
{
    for (int mv = 0; mv < NMOVES; mv++) {
        int pic[NFACELETS];
        int moved_pic[NFACELETS];
        pz_state_t solved;
        pz_state_t moved;

        state_clear(&solved);
        skewb_solved(&solved);
        skewb_state_to_picture(m, &solved, pic);
        for (int i = 0; i < NFACELETS; i++) {
            moved_pic[i] = pic[m->perm[mv][i]];
        }
        state_clear(&moved);
        if (skewb_picture_to_state(m, moved_pic, SKEWB_SYM_FACE, false, &moved,
                                   NULL) != PZ_OK) {
            return false;
        }
        for (int i = 0; i < STATE_BYTES; i++) {
            int code = moved.b[i];
            bool corner = i >= CORNER0;

            /* A centre byte takes the centre from its source face; a
             * corner byte the piece from its home position, twisted. */
            m->src[mv][i] = (uint8_t)(corner ? CORNER0 + code / 3 : code);
            for (int c = 0; c < SKEWB_NCODES; c++) {
                m->step[mv][i][c] =
                    (uint8_t)(corner ? c / 3 * 3 + (c % 3 + code % 3) % 3 : c);
            }
        }
    }
    return true;
}

static bool
model_apply(const skewb_model_t *m,
            const pz_state_t *s,
            int mv,
            pz_state_t *out)
{
    uint8_t in[STATE_BYTES];

    memcpy(in, s->b, STATE_BYTES);
    for (int i = 0; i < STATE_BYTES; i++) {
        out->b[i] = m->step[mv][i][in[m->src[mv][i]]];
    }
    memset(out->b + STATE_BYTES, 0, PZ_STATE_MAX - STATE_BYTES);
    return true;
}

/* Twist sum (mod 3) of the corners at positions pos[0..n). */
static int
twist_sum(const pz_state_t *s, const uint8_t *pos, int n)
{
    int sum = 0;

    for (int k = 0; k < n; k++) {
        sum += s->b[CORNER0 + pos[k]] % 3;
    }
    return sum % 3;
}

/*
 * Fills a_twist and b_twist: a breadth-first search over the pairs
 * (permutation of one tetrad, twist sum of the other) that the moves
 * reach from solved. Each move changes a pair by an amount that depends
 * only on the move, so the search is over at most 12 * 3 and 3 * 3
 * classes; every permutation must come with exactly one twist sum, which
 * is what the position count 3,149,280 says. Returns false otherwise.
 */
static bool
build_twist_tables(skewb_model_t *m)
{
    pz_state_t queue[12 * 3 * 3 * 3];
    bool seen[12][3][3][3];
    int head = 0;
    int tail = 0;

    memset(seen, 0, sizeof(seen));
    memset(m->a_twist, 0xff, sizeof(m->a_twist));
    memset(m->b_twist, 0xff, sizeof(m->b_twist));
    state_clear(&queue[0]);
    skewb_solved(&queue[0]);
    seen[0][0][0][0] = true;
    tail = 1;
    while (head < tail) {
        const pz_state_t *s = &queue[head++];
        int rb = skewb_rank_b(s);
        int ra = skewb_rank_a(s);
        int ta = twist_sum(s, skewb_tetrad_a, 3);
        int tb = twist_sum(s, skewb_tetrad_b, 4);

        if ((m->a_twist[rb] != 0xff && m->a_twist[rb] != ta) ||
            (m->b_twist[ra] != 0xff && m->b_twist[ra] != tb)) {
            return false;
        }
        m->a_twist[rb] = (uint8_t)ta;
        m->b_twist[ra] = (uint8_t)tb;
        for (int mv = 0; mv < NMOVES; mv++) {
            pz_state_t c;
            int crb;
            int cra;
            int cta;
            int ctb;

            model_apply(m, s, mv, &c);
            crb = skewb_rank_b(&c);
            cra = skewb_rank_a(&c);
            cta = twist_sum(&c, skewb_tetrad_a, 3);
            ctb = twist_sum(&c, skewb_tetrad_b, 4);
            if (!seen[crb][cra][cta][ctb]) {
                seen[crb][cra][cta][ctb] = true;
                queue[tail++] = c;
            }
        }
    }
    for (int k = 0; k < 12; k++) {
        if (m->a_twist[k] == 0xff || (k < 3 && m->b_twist[k] == 0xff)) {
            return false;
        }
    }
    return tail == 12 * 3;
}

/* The model depends on nothing, so it is built once per process and
 * shared read-only by every instance. */
static skewb_model_t model;
static bool model_ok;
static pthread_once_t model_once = PTHREAD_ONCE_INIT;

static void
build_model(void)
{
    model_ok = build_geometry(&model) && build_move_tables(&model) &&
               build_twist_tables(&model);
}

const skewb_model_t *
skewb_model(void)
{
    pthread_once(&model_once, build_model);
    return model_ok ? &model : NULL;
}

int
skewb_in_tetrad_a(int corner)
{
    const int *t = corner_sign[corner];

    return t[0] * t[1] * t[2] > 0;
}

int
skewb_tetrad_slot(int corner)
{
    /* UFL UBR DFR DBL are 0..3 of B; UBL DFL DBR 0..2 of A (UFR: 0). */
    static const uint8_t slot[SKEWB_NCORNERS] = { 0, 0, 0, 1, 2, 1, 3, 2 };

    return slot[corner];
}

int
skewb_rank_b(const pz_state_t *s)
{
    uint8_t p[4];

    for (int k = 0; k < 4; k++) {
        p[k] =
            (uint8_t)skewb_tetrad_slot(s->b[CORNER0 + skewb_tetrad_b[k]] / 3);
    }
    return (int)perm_even_rank(p, 4);
}

int
skewb_rank_a(const pz_state_t *s)
{
    uint8_t p[3];

    for (int k = 0; k < 3; k++) {
        p[k] =
            (uint8_t)skewb_tetrad_slot(s->b[CORNER0 + skewb_tetrad_a[k]] / 3);
    }
    return (int)perm_even_rank(p, 3);
}

/* --- puzzle_ops_t ------------------------------------------------------- */

static int
skewb_init(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d)
{
    const skewb_model_t *m;

    if (params->rows != 0 || params->cols != 0) {
        return pz_diag_set(d, PZ_ESIZE, "the skewb has no size parameter");
    }
    if (params->metric != PZ_METRIC_DEFAULT &&
        params->metric != PZ_METRIC_MOVES) {
        return pz_diag_set(d, PZ_EMETRIC,
                           "the skewb counts \"moves\" (every corner turn, "
                           "either way, is one move)");
    }
    m = skewb_model();
    if (m == NULL) {
        return pz_diag_set(d, PZ_EINTERNAL, "skewb move tables broken");
    }
    p->metric = PZ_METRIC_MOVES;
    p->metric_name = "moves";
    p->nmoves = NMOVES;
    p->state_size = STATE_BYTES;
    /* The shared static model (priv_size 0: nothing to free). The const is
     * dropped only to fit the generic priv slot: nobody writes it. */
    p->priv = (void *)m;
    return PZ_OK;
}

static void
skewb_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    (void)p;
    skewb_solved(out);
}

static bool
skewb_apply(const pz_puzzle_t *p,
            const pz_state_t *s,
            int move,
            pz_state_t *out)
{
    return model_apply(p->priv, s, move, out);
}

static int
skewb_inverse(const pz_puzzle_t *p, int move)
{
    (void)p;
    return move ^ 1;
}

/* Two turns of the same corner in a row merge (X X = X'; X X' is the
 * inverse pair, excluded anyway). Any two of the four turned corners'
 * halves share pieces, so no two different moves commute and nothing
 * else is redundant. */
static bool
skewb_redundant(const pz_puzzle_t *p, int prev, int next)
{
    (void)p;
    return prev / 2 == next / 2;
}

static const char *
skewb_move_name(const pz_puzzle_t *p, int move)
{
    (void)p;
    if (move < 0 || move >= NMOVES) {
        return "?";
    }
    return move_names[move];
}

static int
skewb_parse_state(const pz_puzzle_t *p,
                  const pz_input_t *in,
                  pz_state_t *out,
                  pz_diag_t *d)
{
    int sym[NFACELETS];
    int rc;

    if (in == NULL || (in->text == NULL && in->ints == NULL)) {
        return pz_diag_set(d, PZ_EINVAL, "no state given");
    }
    if (in->text != NULL) {
        int n = puzzle_read_stickers(in->text, sym, NFACELETS, d);

        if (n < 0) {
            return n;
        }
        if (n != NFACELETS) {
            return pz_diag_set(d, PZ_ESTATE_LENGTH,
                               "the state has %d stickers; a skewb facelet "
                               "string has 30 (faces U R F D L B, 5 each: "
                               "top left, top right, centre, bottom left, "
                               "bottom right)",
                               n);
        }
        rc = skewb_picture_to_state(p->priv, sym, SKEWB_SYM_CHAR, true, out, d);
    } else {
        if (in->nints != NFACELETS) {
            return pz_diag_set(d, PZ_ESTATE_LENGTH,
                               "the state has %zu numbers; a skewb array has "
                               "30 (faces U R F D L B, 5 each, as in the "
                               "facelet string)",
                               in->nints);
        }
        for (int k = 0; k < NFACELETS; k++) {
            sym[k] = in->ints[k];
        }
        rc = skewb_picture_to_state(p->priv, sym, SKEWB_SYM_INT, true, out, d);
    }
    if (rc != PZ_OK) {
        state_clear(out);
    }
    return rc;
}

static int
skewb_apply_scramble(const pz_puzzle_t *p,
                     const char *text,
                     pz_state_t *state,
                     pz_diag_t *d)
{
    return puzzle_apply_letter_scramble(
        p, "RULB",
        "the skewb turns R U L B (WCA, the UFR corner fixed), each with an "
        "optional ' (R2 is R twice, the same as R')",
        text, state, d);
}

static int
skewb_format_state(const pz_puzzle_t *p,
                   const pz_state_t *s,
                   char *buf,
                   size_t len)
{
    int pic[NFACELETS];

    if (len < NFACELETS + 1) {
        return PZ_EINVAL;
    }
    skewb_state_to_picture(p->priv, s, pic);
    for (int i = 0; i < NFACELETS; i++) {
        buf[i] = skewb_face_letter[pic[i]];
    }
    buf[NFACELETS] = '\0';
    return NFACELETS;
}

/*
 * The cube net of the state (cubeface.h), each face two units wide: the
 * corner stickers as the triangles cut off by the lines joining the
 * midpoints of the face's sides, the centre as the square (a diamond)
 * between them. Sticker k of a face (top left, top right, centre, bottom
 * left, bottom right) has its corners in shape[k], in half units.
 */
static int
skewb_picture(const pz_puzzle_t *p, const pz_state_t *s, puzzle_picture_t *out)
{
    static const int npoints[5] = { 3, 3, 4, 3, 3 };
    static const int shape[5][4][2] = {
        { { 0, 0 }, { 1, 0 }, { 0, 1 } },
        { { 1, 0 }, { 2, 0 }, { 2, 1 } },
        { { 1, 0 }, { 2, 1 }, { 1, 2 }, { 0, 1 } },
        { { 0, 1 }, { 1, 2 }, { 0, 2 } },
        { { 2, 1 }, { 2, 2 }, { 1, 2 } },
    };
    int pic[NFACELETS];

    skewb_state_to_picture(p->priv, s, pic);
    cubeface_net_extent(2, out);
    for (int i = 0; i < NFACELETS; i++) {
        int k = i % 5;
        double ox;
        double oy;
        double x[4];
        double y[4];

        cubeface_net_origin(2, i / 5, &ox, &oy);
        for (int j = 0; j < npoints[k]; j++) {
            x[j] = ox + shape[k][j][0];
            y[j] = oy + shape[k][j][1];
        }
        if (puzzle_picture_add(out, npoints[k], x, y,
                               cubeface_colour(pic[i])) == NULL) {
            return PZ_EINTERNAL;
        }
    }
    return PZ_OK;
}

static const puzzle_draw_t skewb_draw = {
    .picture = skewb_picture,
};

/* Uniform over the positions: the rank is a bijection onto
 * 0..3,149,279. */
static int
skewb_random_state(const pz_puzzle_t *p,
                   pz_rand_fn rand,
                   void *rng,
                   pz_state_t *out)
{
    state_clear(out);
    skewb_unrank(p, pz_rand_below(rand, rng, SKEWB_NRANKS), out);
    return PZ_OK;
}

/* The complete table, one of the daemon's start-up tables. */
static int
skewb_named_tables(tables_def_t *out, int max)
{
    static const pz_params_t plain = { 0, 0, 0 };

    return complete_named("skewb", "skewb", &plain, out, max);
}

static const puzzle_solving_t skewb_solving = {
    .named_tables = skewb_named_tables,
};

static const puzzle_io_t skewb_io = {
    .notation = "WCA: corner turns R U L B (at DBR, UBL, DFL, DBL), each "
                "with an optional '",
    .state_forms = "30-character facelet string, faces U R F D L B with 5 "
                   "stickers each (top left, top right, centre, bottom "
                   "left, bottom right; docs/skewb.md), or 30 integers in "
                   "the same order",
    .parse_state = skewb_parse_state,
    .apply_scramble = skewb_apply_scramble,
    .format_state = skewb_format_state,
};

static const puzzle_ranking_t skewb_ranking = {
    .count = skewb_rank_count,
    .rank = skewb_rank,
    .unrank = skewb_unrank,
    .relabel = skewb_relabel,
};

static const puzzle_random_t skewb_random = {
    .state = skewb_random_state,
};

static const char *const skewb_centre_names[] = {
    "U", "R", "F", "D", "L", "B"
};

static const char *const skewb_corner_names[] = {
    "UFR", "UFL", "UBL", "UBR", "DFR", "DFL", "DBL", "DBR",
};

/* Kinds of pieces for reachability checks and partial goals
 * (puzzle_pieces_t). */
static const puzzle_pieces_t skewb_pieces[] = {
    { .name = "centres",
      .offset = 0,
      .count = 6,
      .orientations = 1,
      .rigid = true,
      .names = skewb_centre_names },
    { .name = "corners",
      .offset = 6,
      .count = 8,
      .orientations = 3,
      .rigid = true,
      .names = skewb_corner_names },
    { .name = NULL },
};

/* Goals that care about some pieces only. */
static const puzzle_preset_t skewb_presets[] = {
    { "first-layer", "D DFR DFL DBL DBR",
      "the D face: its centre and its four corners" },
    { NULL, NULL, NULL },
};

const puzzle_ops_t puzzle__skewb = {
    .name = "skewb",
    .summary = "Skewb, 3,149,280 positions (UFR corner fixed, WCA "
               "notation)",
    .default_heuristic = "pieces",
    .init = skewb_init,
    .goal = skewb_goal,
    .apply = skewb_apply,
    .inverse = skewb_inverse,
    .redundant = skewb_redundant,
    .move_name = skewb_move_name,
    .heuristics = skewb_heuristics,
    .io = &skewb_io,
    .ranking = &skewb_ranking,
    .random = &skewb_random,
    .solving = &skewb_solving,
    .draw = &skewb_draw,
    .pieces = skewb_pieces,
    .presets = skewb_presets,
};
