/* SPDX-License-Identifier: MIT */
/* facelet.c - reads and validates a 3x3x3 sticker picture into cubies. */
#include <stdio.h>

#include "cube3.h"
#include "puzzle.h"

/*
 * Design: validation goes from the coarsest mistake to the finest, so the
 * message names the likeliest cause: the number of colours and how often
 * each appears, the centres (they define which colour belongs to which
 * face), then every corner and edge on its own (a repeated colour,
 * colours of opposite faces, a corner in mirror order), then pieces that
 * appear twice, and last the three invariants of a cube that turns can
 * reach: twist sum, flip sum and equal permutation parities.
 */

static const char face_letter[6] = { 'U', 'R', 'F', 'D', 'L', 'B' };

/* Writes symbol v to buf for a message. */
static void
sym_show(int v, cube3_sym_kind_t kind, char *buf, size_t len)
{
    if (kind == CUBE3_SYM_FACE && v >= 0 && v < 6) {
        snprintf(buf, len, "%c", face_letter[v]);
    } else if (kind == CUBE3_SYM_CHAR) {
        snprintf(buf, len, "%c", (char)v);
    } else {
        snprintf(buf, len, "%d", v);
    }
}

/* The facelets of corner position i in the order of its name ("UFR": the
 * U sticker, then F, then R). */
static void
corner_name_order(int i, int out[3])
{
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 3; j++) {
            int f = cube3_corner_facelet[i][j];

            if (face_letter[f / 9] == cube3_corner_name[i][k]) {
                out[k] = f;
            }
        }
    }
}

/* Formats the input symbols of a piece's stickers "W, W, G" (n = 2 or 3
 * facelets f[]) into buf. */
static void
piece_colours(const int *f,
              int n,
              const int *sym,
              cube3_sym_kind_t kind,
              char *buf,
              size_t len)
{
    char s[3][16];

    for (int k = 0; k < n; k++) {
        sym_show(sym[f[k]], kind, s[k], sizeof(s[k]));
    }
    if (n == 2) {
        snprintf(buf, len, "%s, %s", s[0], s[1]);
    } else {
        snprintf(buf, len, "%s, %s, %s", s[0], s[1], s[2]);
    }
}

static void
corner_colours(int i,
               const int *sym,
               cube3_sym_kind_t kind,
               char *buf,
               size_t len)
{
    int f[3];

    corner_name_order(i, f);
    piece_colours(f, 3, sym, kind, buf, len);
}

static void
edge_colours(int i,
             const int *sym,
             cube3_sym_kind_t kind,
             char *buf,
             size_t len)
{
    int f[2] = { cube3_edge_facelet[i][0], cube3_edge_facelet[i][1] };

    piece_colours(f, 2, sym, kind, buf, len);
}

static bool
opposite(int a, int b)
{
    return a % 3 == b % 3 && a != b;
}

/* Fills col[] (colour index of each facelet) and syms[] (distinct
 * symbols, in order of appearance). Checks six colours, nine of each. */
static int
count_colours(const int *sym,
              cube3_sym_kind_t kind,
              int *col,
              int *syms,
              pz_diag_t *d)
{
    return puzzle_check_colours(sym, CUBE3_NFACELETS, 6, kind == CUBE3_SYM_CHAR,
                                "3x3x3", col, syms, d);
}

/* Reads corner position i (faces fc[] of every facelet) into out; returns
 * PZ_ECORNER with a message when no piece shows these stickers. */
static int
read_corner(int i,
            const int *fc,
            const int *sym,
            cube3_sym_kind_t kind,
            cube3_cubie_t *out,
            pz_diag_t *d)
{
    const uint8_t *f = cube3_corner_facelet[i];
    int a = fc[f[0]];
    int b = fc[f[1]];
    int c = fc[f[2]];
    char buf[64];

    if (a == b || b == c || a == c) {
        corner_colours(i, sym, kind, buf, sizeof(buf));
        return pz_diag_set(d, PZ_ECORNER,
                           "corner at %s has colours %s: a sticker is "
                           "misread",
                           cube3_corner_name[i], buf);
    }
    if (opposite(a, b) || opposite(b, c) || opposite(a, c)) {
        corner_colours(i, sym, kind, buf, sizeof(buf));
        return pz_diag_set(d, PZ_ECORNER,
                           "corner at %s has colours %s, two of which belong "
                           "to opposite faces: a sticker is misread",
                           cube3_corner_name[i], buf);
    }
    for (int j = 0; j < CUBE3_NCORNERS; j++) {
        for (int t = 0; t < 3; t++) {
            int k = 0;

            while (k < 3 &&
                   fc[f[(k + t) % 3]] == cube3_corner_facelet[j][k] / 9) {
                k++;
            }
            if (k == 3) {
                out->cp[i] = (uint8_t)j;
                out->co[i] = (uint8_t)t;
                return PZ_OK;
            }
        }
    }
    /* Three faces pairwise adjacent always form a corner, so the stickers
     * are that corner's in the wrong turning sense. */
    corner_colours(i, sym, kind, buf, sizeof(buf));
    return pz_diag_set(d, PZ_ECORNER,
                       "corner at %s has colours %s in mirror order: two "
                       "stickers are swapped",
                       cube3_corner_name[i], buf);
}

/* Reads edge position i into out; PZ_EEDGE when no piece matches. */
static int
read_edge(int i,
          const int *fc,
          const int *sym,
          cube3_sym_kind_t kind,
          cube3_cubie_t *out,
          pz_diag_t *d)
{
    const uint8_t *f = cube3_edge_facelet[i];
    int a = fc[f[0]];
    int b = fc[f[1]];
    char buf[64];

    if (a == b || opposite(a, b)) {
        edge_colours(i, sym, kind, buf, sizeof(buf));
        return pz_diag_set(d, PZ_EEDGE,
                           "edge at %s has colours %s%s: a sticker is "
                           "misread",
                           cube3_edge_name[i], buf,
                           a == b ? "" : ", which belong to opposite faces");
    }
    for (int j = 0; j < CUBE3_NEDGES; j++) {
        int ja = cube3_edge_facelet[j][0] / 9;
        int jb = cube3_edge_facelet[j][1] / 9;

        if (a == ja && b == jb) {
            out->ep[i] = (uint8_t)j;
            out->eo[i] = 0;
            return PZ_OK;
        }
        if (a == jb && b == ja) {
            out->ep[i] = (uint8_t)j;
            out->eo[i] = 1;
            return PZ_OK;
        }
    }
    /* Unreachable: any two adjacent faces share exactly one edge. */
    return pz_diag_set(d, PZ_EINTERNAL, "edge table incomplete");
}

int
cube3_picture_to_cubie(const int sym[CUBE3_NFACELETS],
                       cube3_sym_kind_t kind,
                       cube3_cubie_t *out,
                       pz_diag_t *d)
{
    int col[CUBE3_NFACELETS];
    int syms[CUBE3_NFACELETS];
    int face_of[6]; /* face whose centre shows colour c */
    int fc[CUBE3_NFACELETS];
    int where[CUBE3_NEDGES];
    char buf[64];
    int rc;

    rc = count_colours(sym, kind, col, syms, d);
    if (rc != PZ_OK) {
        return rc;
    }
    for (int c = 0; c < 6; c++) {
        face_of[c] = -1;
    }
    for (int f = 0; f < 6; f++) {
        int c = col[9 * f + 4];

        if (face_of[c] >= 0) {
            sym_show(syms[c], kind, buf, sizeof(buf));
            return pz_diag_set(d, PZ_ECENTRES,
                               "the centres of %c and %c both show '%s'; the "
                               "six centres must show six different colours",
                               face_letter[face_of[c]], face_letter[f], buf);
        }
        face_of[c] = f;
    }
    for (int i = 0; i < CUBE3_NFACELETS; i++) {
        fc[i] = face_of[col[i]];
    }
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        rc = read_corner(i, fc, sym, kind, out, d);
        if (rc != PZ_OK) {
            return rc;
        }
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        rc = read_edge(i, fc, sym, kind, out, d);
        if (rc != PZ_OK) {
            return rc;
        }
    }

    /* Every sticker is part of a real piece; now each piece once. */
    for (int j = 0; j < CUBE3_NCORNERS; j++) {
        where[j] = -1;
    }
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        int j = out->cp[i];

        if (where[j] >= 0) {
            corner_colours(i, sym, kind, buf, sizeof(buf));
            return pz_diag_set(d, PZ_EDUPLICATE,
                               "the corner with colours %s appears twice, at "
                               "%s and %s: a sticker is misread",
                               buf, cube3_corner_name[where[j]],
                               cube3_corner_name[i]);
        }
        where[j] = i;
    }
    for (int j = 0; j < CUBE3_NEDGES; j++) {
        where[j] = -1;
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        int j = out->ep[i];

        if (where[j] >= 0) {
            edge_colours(i, sym, kind, buf, sizeof(buf));
            return pz_diag_set(d, PZ_EDUPLICATE,
                               "the edge with colours %s appears twice, at %s "
                               "and %s: a sticker is misread",
                               buf, cube3_edge_name[where[j]],
                               cube3_edge_name[i]);
        }
        where[j] = i;
    }
    return cube3_cubie_check(out, d);
}
