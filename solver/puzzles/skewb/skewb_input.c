/* SPDX-License-Identifier: MIT */
/* skewb_input.c - reads and validates a Skewb sticker picture. */
#include <stdio.h>
#include <string.h>

#include "perm.h"
#include "skewb_internal.h"

/*
 * Design: validation goes from the coarsest mistake to the finest, so the
 * message names the likeliest cause: the number of colours and how often
 * each appears, the centres (six different colours), every corner on its
 * own (a repeated colour, colours of opposite faces, mirror order), then
 * pieces that appear twice, and last what turns keep: the two tetrads
 * apart, the permutations even, the twist sums (skewb_internal.h).
 *
 * The centres move on a Skewb, so they do not name the faces' colours;
 * the fixed corner UFR does, as the puzzle is held: its stickers give the
 * colours of U, R and F. The other three colours go to D, L and B in the
 * assignment that makes the most corners real pieces; on a valid Skewb
 * that is the one where each is opposite (never on a corner with) its
 * partner, and every corner matches.
 */

/* A picture being validated: colour ids and how to show them. */
typedef struct picture {
    int col[SKEWB_NFACELETS];  /* colour id (index into syms) per sticker */
    int syms[SKEWB_NFACELETS]; /* input symbol of each colour id */
    skewb_sym_kind_t kind;
} picture_t;

static void
sym_show(const picture_t *pic, int colour, char *buf, size_t len)
{
    int v = pic->syms[colour];

    if (pic->kind == SKEWB_SYM_FACE && v >= 0 && v < SKEWB_NFACES) {
        snprintf(buf, len, "%c", skewb_face_letter[v]);
    } else if (pic->kind == SKEWB_SYM_CHAR) {
        snprintf(buf, len, "%c", (char)v);
    } else {
        snprintf(buf, len, "%d", v);
    }
}

/* "U4" for facelet 3: the face letter and the 1-based place on it. */
static void
facelet_name(int i, char *buf, size_t len)
{
    snprintf(buf, len, "%c%d", skewb_face_letter[i / 5], i % 5 + 1);
}

/* "UFL (U4, F1, L2) shows X, Y, Z": position i's stickers in the order
 * of its name and their colours, for a message. */
static void
describe_corner(const skewb_model_t *m,
                const picture_t *pic,
                int i,
                char *buf,
                size_t len)
{
    char names[3][8];
    char cols[3][16];

    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 3; j++) {
            int f = m->corner_facelet[i][j];

            if (skewb_face_letter[f / 5] == skewb_corner_name[i][k]) {
                facelet_name(f, names[k], sizeof(names[k]));
                sym_show(pic, pic->col[f], cols[k], sizeof(cols[k]));
            }
        }
    }
    snprintf(buf, len, "%s (%s, %s, %s) shows %s, %s, %s", skewb_corner_name[i],
             names[0], names[1], names[2], cols[0], cols[1], cols[2]);
}

/* Colour (in the picture's scheme) of sticker k of corner piece j. */
static int
piece_colour(const skewb_model_t *m, const int scheme[6], int j, int k)
{
    return scheme[m->corner_facelet[j][k] / 5];
}

/* Piece * 3 + twist whose stickers read the picture at position i under
 * scheme, or -1. */
static int
match_corner(const skewb_model_t *m,
             const picture_t *pic,
             const int scheme[6],
             int i)
{
    for (int j = 0; j < SKEWB_NCORNERS; j++) {
        for (int t = 0; t < 3; t++) {
            int k = 0;

            while (k < 3 && pic->col[m->corner_facelet[i][(k + t) % 3]] ==
                                piece_colour(m, scheme, j, k)) {
                k++;
            }
            if (k == 3) {
                return j * 3 + t;
            }
        }
    }
    return -1;
}

/* True when position i shows the colour set of some piece (so a failed
 * match means its stickers are in mirror order). */
static bool
corner_set_exists(const skewb_model_t *m,
                  const picture_t *pic,
                  const int scheme[6],
                  int i)
{
    for (int j = 0; j < SKEWB_NCORNERS; j++) {
        int hits = 0;

        for (int k = 0; k < 3; k++) {
            for (int l = 0; l < 3; l++) {
                hits += pic->col[m->corner_facelet[i][k]] ==
                        piece_colour(m, scheme, j, l);
            }
        }
        if (hits == 3) {
            return true;
        }
    }
    return false;
}

/* Checks the centres (six different colours) and that no corner repeats
 * a colour. */
static int
check_stickers(const skewb_model_t *m, const picture_t *pic, pz_diag_t *d)
{
    char buf[96];
    char c[16];

    for (int f = 0; f < SKEWB_NFACES; f++) {
        for (int g = 0; g < f; g++) {
            int a = m->centre_facelet[g];
            int b = m->centre_facelet[f];

            if (pic->col[a] == pic->col[b]) {
                sym_show(pic, pic->col[a], c, sizeof(c));
                return pz_diag_set(d, PZ_ECENTRES,
                                   "the centres of %c and %c (%c3, %c3) "
                                   "both show %s; the six centres show six "
                                   "different colours",
                                   skewb_face_letter[g], skewb_face_letter[f],
                                   skewb_face_letter[g], skewb_face_letter[f],
                                   c);
            }
        }
    }
    for (int i = 0; i < SKEWB_NCORNERS; i++) {
        const uint8_t *f = m->corner_facelet[i];

        if (pic->col[f[0]] == pic->col[f[1]] ||
            pic->col[f[1]] == pic->col[f[2]] ||
            pic->col[f[0]] == pic->col[f[2]]) {
            describe_corner(m, pic, i, buf, sizeof(buf));
            return pz_diag_set(d, PZ_ECORNER,
                               "the corner at %s: a colour repeats, so a "
                               "sticker is misread",
                               buf);
        }
    }
    return PZ_OK;
}

/* Gives the colours rest[] to D, L and B in the order numbered perm. */
static void
assign_rest(int scheme[6], const int rest[3], int perm)
{
    static const uint8_t order[6][3] = {
        { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
        { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
    };

    scheme[3] = rest[order[perm][0]];
    scheme[4] = rest[order[perm][1]];
    scheme[5] = rest[order[perm][2]];
}

/* Finds the colour of each face (see the design note). */
static void
colour_scheme(const skewb_model_t *m, const picture_t *pic, int scheme[6])
{
    int rest[3];
    int nrest = 0;
    int best = 0;
    int best_hits = -1;

    for (int k = 0; k < 3; k++) {
        int f = m->corner_facelet[SKEWB_UFR][k];

        scheme[f / 5] = pic->col[f];
    }
    for (int c = 0; c < SKEWB_NFACES; c++) {
        if (c != scheme[0] && c != scheme[1] && c != scheme[2] && nrest < 3) {
            rest[nrest++] = c;
        }
    }
    for (int perm = 0; perm < 6; perm++) {
        int hits = 0;

        assign_rest(scheme, rest, perm);
        for (int i = 0; i < SKEWB_NCORNERS; i++) {
            hits += match_corner(m, pic, scheme, i) >= 0;
        }
        if (hits > best_hits) {
            best_hits = hits;
            best = perm;
        }
    }
    assign_rest(scheme, rest, best);
}

/* Reads every corner into out, then checks for pieces that appear
 * twice. */
static int
read_corners(const skewb_model_t *m,
             const picture_t *pic,
             const int scheme[6],
             pz_state_t *out,
             pz_diag_t *d)
{
    int where[SKEWB_NCORNERS];
    char buf[96];

    for (int i = 0; i < SKEWB_NCORNERS; i++) {
        int code = match_corner(m, pic, scheme, i);

        if (code >= 0) {
            out->b[SKEWB_CORNER0 + i] = (uint8_t)code;
            continue;
        }
        describe_corner(m, pic, i, buf, sizeof(buf));
        if (corner_set_exists(m, pic, scheme, i)) {
            return pz_diag_set(d, PZ_ECORNER,
                               "the corner at %s in mirror order: two "
                               "stickers are swapped",
                               buf);
        }
        return pz_diag_set(d, PZ_ECORNER,
                           "the corner at %s, two colours of opposite faces "
                           "(the fixed UFR corner names the colours of U, R "
                           "and F): a sticker is misread",
                           buf);
    }
    for (int j = 0; j < SKEWB_NCORNERS; j++) {
        where[j] = -1;
    }
    for (int i = 0; i < SKEWB_NCORNERS; i++) {
        int j = out->b[SKEWB_CORNER0 + i] / 3;

        if (where[j] >= 0) {
            describe_corner(m, pic, i, buf, sizeof(buf));
            return pz_diag_set(d, PZ_EDUPLICATE,
                               "the corner at %s, the same piece as the "
                               "corner at %s: a sticker is misread",
                               buf, skewb_corner_name[where[j]]);
        }
        where[j] = i;
    }
    return PZ_OK;
}

/* Reads the centres into out: each shows the colour of its home face. */
static void
read_centres(const skewb_model_t *m,
             const picture_t *pic,
             const int scheme[6],
             pz_state_t *out)
{
    for (int f = 0; f < SKEWB_NFACES; f++) {
        for (int g = 0; g < SKEWB_NFACES; g++) {
            if (pic->col[m->centre_facelet[f]] == scheme[g]) {
                out->b[f] = (uint8_t)g;
            }
        }
    }
}

/* The permutation rules: tetrads apart, every permutation even. */
static int
check_permutations(const pz_state_t *s, pz_diag_t *d)
{
    uint8_t a[3];
    uint8_t b[4];

    for (int i = 0; i < SKEWB_NCORNERS; i++) {
        int j = s->b[SKEWB_CORNER0 + i] / 3;

        if (skewb_in_tetrad_a(i) != skewb_in_tetrad_a(j)) {
            return pz_diag_set(d, PZ_EPARITY,
                               "the %s corner sits at %s, which no sequence "
                               "of turns does: the corners UFR UBL DFL DBR "
                               "and UFL UBR DFR DBL never mix, so two "
                               "corners are swapped",
                               skewb_corner_name[j], skewb_corner_name[i]);
        }
    }
    for (int k = 0; k < 3; k++) {
        a[k] = (uint8_t)skewb_tetrad_slot(
            s->b[SKEWB_CORNER0 + skewb_tetrad_a[k]] / 3);
    }
    for (int k = 0; k < 4; k++) {
        b[k] = (uint8_t)skewb_tetrad_slot(
            s->b[SKEWB_CORNER0 + skewb_tetrad_b[k]] / 3);
    }
    if (perm_parity(a, 3) != 0) {
        return pz_diag_set(d, PZ_EPARITY,
                           "the corners at UBL, DFL and DBR are in an odd "
                           "order, which no sequence of turns makes: two of "
                           "them are swapped");
    }
    if (perm_parity(b, 4) != 0) {
        return pz_diag_set(d, PZ_EPARITY,
                           "the corners at UFL, UBR, DFR and DBL form an odd "
                           "permutation, which no sequence of turns makes: "
                           "two of them are swapped");
    }
    if (perm_parity(s->b, SKEWB_NFACES) != 0) {
        return pz_diag_set(d, PZ_EPARITY,
                           "the centres form an odd permutation, which no "
                           "sequence of turns makes: two centres are "
                           "swapped");
    }
    return PZ_OK;
}

/* The twist sums the permutations require (skewb_internal.h). */
static int
check_twists(const skewb_model_t *m, const pz_state_t *s, pz_diag_t *d)
{
    int ta = 0;
    int tb = 0;

    for (int k = 0; k < 3; k++) {
        ta += s->b[SKEWB_CORNER0 + skewb_tetrad_a[k]] % 3;
    }
    for (int k = 0; k < 4; k++) {
        tb += s->b[SKEWB_CORNER0 + skewb_tetrad_b[k]] % 3;
    }
    if (ta % 3 != m->a_twist[skewb_rank_b(s)]) {
        return pz_diag_set(d, PZ_ETWIST,
                           "the twists of the corners at UBL, DFL and DBR do "
                           "not fit the rest of the puzzle, which no "
                           "sequence of turns makes: one of them is twisted "
                           "in place");
    }
    if (tb % 3 != m->b_twist[skewb_rank_a(s)]) {
        return pz_diag_set(d, PZ_ETWIST,
                           "the twists of the corners at UFL, UBR, DFR and "
                           "DBL do not fit the rest of the puzzle, which no "
                           "sequence of turns makes: one of them is twisted "
                           "in place");
    }
    return PZ_OK;
}

int
skewb_picture_to_state(const skewb_model_t *model,
                       const int sym[SKEWB_NFACELETS],
                       skewb_sym_kind_t kind,
                       bool check_twist,
                       pz_state_t *out,
                       pz_diag_t *d)
{
    picture_t pic;
    int scheme[6];
    int rc;

    pic.kind = kind;
    rc = puzzle_check_colours(sym, SKEWB_NFACELETS, SKEWB_NFACES,
                              kind == SKEWB_SYM_CHAR, "skewb", pic.col,
                              pic.syms, d);
    if (rc == PZ_OK) {
        rc = check_stickers(model, &pic, d);
    }
    if (rc != PZ_OK) {
        return rc;
    }
    colour_scheme(model, &pic, scheme);
    rc = read_corners(model, &pic, scheme, out, d);
    if (rc != PZ_OK) {
        return rc;
    }
    read_centres(model, &pic, scheme, out);
    rc = check_permutations(out, d);
    if (rc == PZ_OK && check_twist) {
        rc = check_twists(model, out, d);
    }
    return rc;
}

void
skewb_state_to_picture(const skewb_model_t *model,
                       const pz_state_t *s,
                       int pic[SKEWB_NFACELETS])
{
    for (int f = 0; f < SKEWB_NFACES; f++) {
        pic[model->centre_facelet[f]] = s->b[f];
    }
    for (int i = 0; i < SKEWB_NCORNERS; i++) {
        int j = s->b[SKEWB_CORNER0 + i] / 3;
        int t = s->b[SKEWB_CORNER0 + i] % 3;

        for (int k = 0; k < 3; k++) {
            pic[model->corner_facelet[i][(k + t) % 3]] =
                model->corner_facelet[j][k] / 5;
        }
    }
}
