/* SPDX-License-Identifier: MIT */
/* trinet.c - the triangle net of the pyraminx puzzles' pictures. */
#include "trinet.h"

/* Height of a triangle a unit wide. */
#define ROW_HEIGHT 0.86602540378443864676

/* How much each face is shrunk about its centre, for the gaps. */
#define FACE_SCALE 0.94

uint32_t
trinet_colour(int face)
{
    static const uint32_t rgb[4] = {
        PUZZLE_RGB_GREEN,
        PUZZLE_RGB_RED,
        PUZZLE_RGB_BLUE,
        PUZZLE_RGB_YELLOW,
    };

    return face >= 0 && face < 4 ? rgb[face] : PUZZLE_NO_FILL;
}

void
trinet_extent(int n, puzzle_picture_t *pic)
{
    pic->width = 2.0 * n;
    pic->height = 2.0 * n * ROW_HEIGHT;
}

/* Where vertex v sits in the net of faces n units wide. */
static void
vertex_pos(int n, int v, double *x, double *y)
{
    static const double vx[6] = { 1.0, 0.5, 1.5, 0.0, 2.0, 1.0 };
    static const double vy[6] = { 0.0, 1.0, 1.0, 0.0, 0.0, 2.0 };

    *x = vx[v] * n;
    *y = vy[v] * n * ROW_HEIGHT;
}

int
trinet_add(puzzle_picture_t *pic,
           int n,
           const int corner[3],
           int row,
           int j,
           uint32_t rgb)
{
    double cx[3];
    double cy[3];
    double mx = 0;
    double my = 0;
    double x[3];
    double y[3];
    int k = j / 2;
    /* The small triangle's corners as (depth, offset) on the face's
     * lattice: depth counted from corner[0], offset from the corner[1]
     * side. */
    int a[3] = { row, row + 1, j % 2 == 0 ? row + 1 : row };
    int b[3] = { k, j % 2 == 0 ? k : k + 1, k + 1 };

    if (row < 0 || row >= n || j < 0 || j > 2 * row) {
        return PZ_EINTERNAL;
    }
    for (int i = 0; i < 3; i++) {
        vertex_pos(n, corner[i], &cx[i], &cy[i]);
        mx += cx[i] / 3;
        my += cy[i] / 3;
    }
    for (int i = 0; i < 3; i++) {
        double px =
            cx[0] + (cx[1] - cx[0]) * a[i] / n + (cx[2] - cx[1]) * b[i] / n;
        double py =
            cy[0] + (cy[1] - cy[0]) * a[i] / n + (cy[2] - cy[1]) * b[i] / n;

        x[i] = mx + (px - mx) * FACE_SCALE;
        y[i] = my + (py - my) * FACE_SCALE;
    }
    return puzzle_picture_add(pic, 3, x, y, rgb) != NULL ? PZ_OK : PZ_EINTERNAL;
}
