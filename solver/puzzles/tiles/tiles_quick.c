/* SPDX-License-Identifier: MIT */
/* tiles_quick.c - a quick answer for any board, placed a few tiles at a
 * time. */

/*
 * Design: the board is turned (rows and columns reversed as needed) so
 * that the goal's blank cell is the bottom-right corner; a goal whose
 * blank is not in a corner gets no quick answer. The rows are then
 * finished from the top while more than two remain, and the last two rows
 * column by column from the left, down to the bottom-right 2x2 square.
 * Each step places a group of tiles (one cell, or the last two cells of a
 * row, or the two cells of a column of the last two rows, or the three
 * tiles of the last square) by a breadth-first search over the cells of
 * the blank and of the group's tiles, within the cells not yet finished:
 * the other tiles are indistinct, so the step is the shortest for its
 * group, and the placements that need a tile moved out of the way first
 * (the end of a row, the last column pair) come out of the search rather
 * than from rules. The searches have at most 64^3 states (a pair on the
 * 8x8 board), so the answer takes milliseconds; it is 1.5 to 4 times the
 * Manhattan-and-linear-conflict lower bound (more on larger boards). The
 * anytime engine starts from it.
 */
#include <stdlib.h>
#include <string.h>

#include "tiles_internal.h"

#define GROUP_MAX 3

/* The board in the turned frame: cell (r, c) of the frame is
 * real[r * cols + c] on the board. */
typedef struct quick {
    const pz_puzzle_t *p;
    const tiles_priv_t *t;
    int rows;
    int cols;
    int n;
    uint8_t real[CELLS_MAX];  /* frame cell -> board cell */
    uint8_t frame[CELLS_MAX]; /* board cell -> frame cell */
    uint8_t at[CELLS_MAX];    /* frame cell -> tile on it */
    uint8_t home[CELLS_MAX];  /* tile -> its frame home cell */
    int blank;                /* frame cell of the blank */
    bool fixed[CELLS_MAX];    /* frame cells finished */
    uint8_t *moves;
    int len;
    int max;
} quick_t;

/* Slides the tile on frame cell to into the blank: one move. */
static bool
quick_step(quick_t *q, int to)
{
    int z = q->real[q->blank];
    int c = q->real[to];

    for (int m = 0; m < TILES_MOVES; m++) {
        if (q->t->from[m][z] == c) {
            if (q->len >= q->max) {
                return false;
            }
            q->moves[q->len++] = (uint8_t)m;
            q->at[q->blank] = q->at[to];
            q->at[to] = 0;
            q->blank = to;
            return true;
        }
    }
    return false;
}

/* The frame neighbour of cell in direction d (0 up, 1 down, 2 left,
 * 3 right), or -1. */
static int
neighbour(const quick_t *q, int cell, int d)
{
    int r = cell / q->cols;
    int c = cell % q->cols;

    switch (d) {
    case 0:
        return r > 0 ? cell - q->cols : -1;
    case 1:
        return r < q->rows - 1 ? cell + q->cols : -1;
    case 2:
        return c > 0 ? cell - 1 : -1;
    default:
        return c < q->cols - 1 ? cell + 1 : -1;
    }
}

/*
 * Places the k tiles homed on cells[0..k) by a breadth-first search over
 * (blank, their cells) within the unfinished cells, then marks the cells
 * finished. False when no placement exists or the answer is full.
 */
static bool
quick_place(quick_t *q, const int *cells, int k)
{
    int local[CELLS_MAX]; /* frame cell -> index among the free, or -1 */
    int cell_of[CELLS_MAX];
    int tile[GROUP_MAX];
    int f = 0;
    size_t nstates = 1;
    uint8_t *how; /* per state: 0 unseen, 1 + direction that reached it */
    uint32_t *queue;
    size_t head = 0;
    size_t tail = 0;
    uint32_t start = 0;
    uint32_t mul = 1;
    bool found = false;
    uint32_t goal_state = 0;

    for (int i = 0; i < q->n; i++) {
        local[i] = q->fixed[i] ? -1 : f;
        if (!q->fixed[i]) {
            cell_of[f++] = i;
        }
    }
    for (int j = 0; j <= k; j++) {
        nstates *= (size_t)f;
    }
    how = calloc(nstates, 1);
    queue = malloc(nstates * sizeof(*queue));
    if (how == NULL || queue == NULL) {
        free(how);
        free(queue);
        return false;
    }
    /* State: blank + f * (tile 0 + f * (tile 1 ...)), in free indices. */
    start = (uint32_t)local[q->blank];
    for (int j = 0; j < k; j++) {
        int c;

        tile[j] = 0;
        for (c = 0; c < q->n; c++) {
            if (q->home[q->at[c]] == cells[j] && q->at[c] != 0) {
                break;
            }
        }
        tile[j] = q->at[c];
        mul *= (uint32_t)f;
        start += mul * (uint32_t)local[c];
    }
    how[start] = 1;
    queue[tail++] = start;
    while (head < tail && !found) {
        uint32_t st = queue[head++];
        int pos[GROUP_MAX + 1];
        uint32_t x = st;
        bool done = true;

        for (int j = 0; j <= k; j++) {
            pos[j] = cell_of[x % (uint32_t)f];
            x /= (uint32_t)f;
        }
        for (int j = 0; j < k; j++) {
            done = done && pos[j + 1] == cells[j];
        }
        if (done) {
            found = true;
            goal_state = st;
            break;
        }
        for (int d = 0; d < 4; d++) {
            int nb = neighbour(q, pos[0], d);
            int npos[GROUP_MAX + 1];
            uint32_t ns = 0;
            uint32_t m = 1;

            if (nb < 0 || q->fixed[nb]) {
                continue;
            }
            memcpy(npos, pos, sizeof(npos));
            npos[0] = nb;
            for (int j = 1; j <= k; j++) {
                if (pos[j] == nb) {
                    npos[j] = pos[0];
                }
            }
            for (int j = 0; j <= k; j++) {
                ns += m * (uint32_t)local[npos[j]];
                m *= (uint32_t)f;
            }
            if (how[ns] == 0) {
                how[ns] = (uint8_t)(1 + d);
                queue[tail++] = ns;
            }
        }
    }
    if (found) {
        /* Walk back from the goal state to the start for the blank's
         * path (in the queue's room: no longer than the states seen),
         * then play it forwards. */
        uint32_t *path = queue;
        size_t npath = 0;
        uint32_t st = goal_state;

        while (st != start) {
            int d = how[st] - 1;
            int pos[GROUP_MAX + 1];
            uint32_t x = st;
            uint32_t ps = 0;
            uint32_t m = 1;
            int back;

            for (int j = 0; j <= k; j++) {
                pos[j] = cell_of[x % (uint32_t)f];
                x /= (uint32_t)f;
            }
            if (npath >= tail) {
                found = false;
                break;
            }
            path[npath++] = (uint32_t)pos[0];
            back = neighbour(q, pos[0], d ^ 1); /* the blank came from */
            for (int j = 1; j <= k; j++) {
                if (pos[j] == back) {
                    pos[j] = pos[0];
                }
            }
            pos[0] = back;
            for (int j = 0; j <= k; j++) {
                ps += m * (uint32_t)local[pos[j]];
                m *= (uint32_t)f;
            }
            st = ps;
        }
        while (found && npath > 0) {
            found = quick_step(q, (int)path[--npath]);
        }
    }
    free(queue);
    free(how);
    for (int j = 0; found && j < k; j++) {
        found = q->at[cells[j]] == tile[j];
        q->fixed[cells[j]] = true;
    }
    return found;
}

int
tiles__quick_solve(const pz_puzzle_t *p,
                   const pz_state_t *start,
                   const pz_state_t *goal,
                   uint8_t *moves,
                   int max)
{
    const tiles_priv_t *t = p->priv;
    quick_t *q;
    int rows = t->rows;
    int cols = t->cols;
    int n = t->cells;
    int z = goal->b[n];
    bool flip_r = z / cols == 0;
    bool flip_c = z % cols == 0;
    bool ok = true;
    int len;

    if ((z / cols != 0 && z / cols != rows - 1) ||
        (z % cols != 0 && z % cols != cols - 1)) {
        return -1; /* the goal's blank is not in a corner */
    }
    q = calloc(1, sizeof(*q));
    if (q == NULL) {
        return -1;
    }
    q->p = p;
    q->t = t;
    q->rows = rows;
    q->cols = cols;
    q->n = n;
    q->moves = moves;
    q->max = max;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int fr = flip_r ? rows - 1 - r : r;
            int fc = flip_c ? cols - 1 - c : c;

            q->real[fr * cols + fc] = (uint8_t)(r * cols + c);
            q->frame[r * cols + c] = (uint8_t)(fr * cols + fc);
        }
    }
    for (int i = 0; i < n; i++) {
        q->at[q->frame[i]] = start->b[i];
        q->home[goal->b[i]] = q->frame[i];
    }
    q->blank = q->frame[start->b[n]];
    /* Rows from the top while more than two remain. */
    for (int r = 0; ok && r < rows - 2; r++) {
        for (int c = 0; ok && c < cols - 2; c++) {
            int cell = r * cols + c;

            ok = quick_place(q, &cell, 1);
        }
        if (ok) {
            int pair[2] = { r * cols + cols - 2, r * cols + cols - 1 };

            ok = quick_place(q, pair, 2);
        }
    }
    /* The last two rows column by column, then the last square. */
    for (int c = 0; ok && c < cols - 2; c++) {
        int pair[2] = { (rows - 2) * cols + c, (rows - 1) * cols + c };

        ok = quick_place(q, pair, 2);
    }
    if (ok) {
        int last[3] = { (rows - 2) * cols + cols - 2,
                        (rows - 2) * cols + cols - 1,
                        (rows - 1) * cols + cols - 2 };

        ok = quick_place(q, last, 3);
    }
    len = ok ? q->len : -1;
    free(q);
    return len;
}
