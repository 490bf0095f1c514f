/* SPDX-License-Identifier: MIT */
/* cubeface.c - N-layer cube sticker permutations derived from 3D rotation. */
#include "cubeface.h"

/*
 * Design: every sticker gets integer 3D coordinates (doubled, so cubie
 * centres sit on odd values -(n-1)..n-1 and stickers on the planes +-n).
 * Axes: x towards R, y towards U, z towards F. A turn rotates the stickers
 * of the selected slabs by 90 degrees about the face's axis and looks up
 * which facelet sits at each rotated position. Deriving moves this way
 * instead of writing tables by hand makes every face, wide move and
 * rotation consistent by construction; the tables are built once at init.
 */

typedef struct vec3 {
    int v[3]; /* doubled coordinates: x (R), y (U), z (F) */
} vec3_t;

/* Outward normal of each face: axis and sign. */
static const int face_axis[6] = { 1, 0, 2, 1, 0, 2 };
static const int face_sign[6] = { 1, 1, 1, -1, -1, -1 };

/* Position of facelet (face, row, col) on the n-layer cube. */
static vec3_t
facelet_pos(int n, int face, int row, int col)
{
    vec3_t p = { { 0, 0, 0 } };
    int a = -(n - 1) + 2 * col;   /* left to right as seen */
    int down = (n - 1) - 2 * row; /* top to bottom as seen */

    switch (face) {
    case CUBEFACE_U: /* seen from above, B edge on row 0 */
        p.v[0] = a;
        p.v[1] = n;
        p.v[2] = -down;
        break;
    case CUBEFACE_R: /* seen from the right, F edge on column 0 */
        p.v[0] = n;
        p.v[1] = down;
        p.v[2] = -a;
        break;
    case CUBEFACE_F:
        p.v[0] = a;
        p.v[1] = down;
        p.v[2] = n;
        break;
    case CUBEFACE_D: /* seen from below, F edge on row 0 */
        p.v[0] = a;
        p.v[1] = -n;
        p.v[2] = down;
        break;
    case CUBEFACE_L: /* seen from the left, B edge on column 0 */
        p.v[0] = -n;
        p.v[1] = down;
        p.v[2] = a;
        break;
    default: /* B, seen from behind, R edge on column 0 */
        p.v[0] = -a;
        p.v[1] = down;
        p.v[2] = -n;
        break;
    }
    return p;
}

/* Rotates p by +90 degrees (counterclockwise seen from the positive end)
 * about axis. */
static vec3_t
rotate_ccw(vec3_t p, int axis)
{
    vec3_t r = p;
    int i = (axis + 1) % 3;
    int j = (axis + 2) % 3;

    /* Cyclic axis order x->y->z makes (i, j) a right-handed pair. */
    r.v[i] = -p.v[j];
    r.v[j] = p.v[i];
    return r;
}

int
cubeface_turn(int n, int face, unsigned layers, int quarters, int *perm)
{
    vec3_t pos[6 * CUBEFACE_MAX_N * CUBEFACE_MAX_N];
    int count = cubeface_count(n);
    int axis;
    int sign;
    int ccw;

    if (n < 1 || n > CUBEFACE_MAX_N || face < 0 || face > 5) {
        return -1;
    }
    for (int i = 0; i < count; i++) {
        int f = i / (n * n);
        int k = i % (n * n);

        pos[i] = facelet_pos(n, f, k / n, k % n);
    }
    axis = face_axis[face];
    sign = face_sign[face];
    /* Clockwise seen from outside is -90 degrees about the outward normal,
     * that is -90*sign degrees about the positive axis. */
    ccw = ((-sign * quarters) % 4 + 4) % 4;
    for (int i = 0; i < count; i++) {
        perm[i] = i;
    }
    for (int i = 0; i < count; i++) {
        int c = pos[i].v[axis];
        int layer;
        vec3_t q = pos[i];

        /* A sticker on the turned face's plane belongs to its outer slab. */
        if (c == n || c == -n) {
            c = c > 0 ? n - 1 : -(n - 1);
        }
        layer = (n - 1 - sign * c) / 2;
        if (!(layers >> layer & 1u)) {
            continue;
        }
        for (int t = 0; t < ccw; t++) {
            q = rotate_ccw(q, axis);
        }
        for (int j = 0; j < count; j++) {
            if (pos[j].v[0] == q.v[0] && pos[j].v[1] == q.v[1] &&
                pos[j].v[2] == q.v[2]) {
                perm[j] = i; /* the sticker from i now sits at j */
                break;
            }
        }
    }
    return 0;
}

/* Where each face sits in the net, in faces: column and row. */
static const int net_col[6] = { 1, 2, 1, 1, 0, 3 };
static const int net_row[6] = { 0, 1, 1, 2, 1, 1 };

uint32_t
cubeface_colour(int face)
{
    static const uint32_t rgb[6] = {
        PUZZLE_RGB_WHITE,  PUZZLE_RGB_RED,    PUZZLE_RGB_GREEN,
        PUZZLE_RGB_YELLOW, PUZZLE_RGB_ORANGE, PUZZLE_RGB_BLUE,
    };

    return face >= 0 && face < 6 ? rgb[face] : PUZZLE_NO_FILL;
}

void
cubeface_net_origin(double side, int face, double *x, double *y)
{
    double step = side * 1.1; /* a face and the gap after it */

    *x = net_col[face] * step;
    *y = net_row[face] * step;
}

void
cubeface_net_extent(double side, puzzle_picture_t *pic)
{
    double x;
    double y;

    /* Computed as the shapes' far corners are, so none lies past it by a
     * rounding. */
    cubeface_net_origin(side, CUBEFACE_B, &x, &y);
    pic->width = x + side;
    cubeface_net_origin(side, CUBEFACE_D, &x, &y);
    pic->height = y + side;
}

int
cubeface_draw_net(int n, const int *colour, puzzle_picture_t *pic)
{
    if (n < 1 || n > CUBEFACE_MAX_N) {
        return PZ_EINTERNAL;
    }
    cubeface_net_extent(n, pic);
    for (int i = 0; i < cubeface_count(n); i++) {
        int face = i / (n * n);
        int row = i % (n * n) / n;
        int col = i % n;
        double ox;
        double oy;
        double x[4];
        double y[4];

        if (colour[i] < 0 || colour[i] > 5) {
            return PZ_EINTERNAL;
        }
        /* The facelet order reads every face as the net shows it (see
         * facelet_pos): row r, column c is the square at (c, r). */
        cubeface_net_origin(n, face, &ox, &oy);
        x[0] = x[3] = ox + col;
        x[1] = x[2] = ox + (col + 1);
        y[0] = y[1] = oy + row;
        y[2] = y[3] = oy + (row + 1);
        if (puzzle_picture_add(pic, 4, x, y, cubeface_colour(colour[i])) ==
            NULL) {
            return PZ_EINTERNAL;
        }
    }
    return PZ_OK;
}
