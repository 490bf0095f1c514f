/* SPDX-License-Identifier: MIT */
/* tiles.c - the R x C sliding-tile puzzle (8-, 15-, 24-puzzle and others). */

/*
 * Design. A state is the board in row-major order (b[i] = tile at cell i,
 * 0 = blank) followed by the blank's cell in b[cells], so a move touches
 * three bytes and never scans the board. Moves are named by the direction
 * the tile slides. init precomputes, for each move and blank cell, the cell
 * of the tile that slides (or -1), which turns apply into a table lookup
 * and three stores.
 *
 * Solvability uses the rule that holds for every rectangular board: a move
 * swaps the blank with a neighbour, so it flips both the parity of the
 * permutation (over all cells, blank included) and the parity of the
 * blank's Manhattan distance to its goal cell. Start reaches goal exactly
 * when the two parities agree; the classic "inversions plus blank row" rule
 * for even widths is a special case.
 *
 * The heuristics read the goal given to their init (custom goals work):
 * misplaced tiles, Manhattan distance and linear conflict. Linear conflict
 * adds, for each row (column), twice the least number of tiles that must
 * leave it so the rest are in goal order; that number is the line length
 * minus the longest increasing subsequence of goal positions, which keeps
 * the estimate admissible (Hansson, Mayer and Yung 1992). Row conflicts cost
 * extra vertical moves and column conflicts extra horizontal ones, so the
 * two sums add. Both have O(1)-ish incremental updates: a vertical move only
 * changes the two rows it touches, a horizontal move the two columns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "complete.h"
#include "engine.h"
#include "heuristic.h"
#include "perm.h"
#include "puzzle_internal.h"
#include "tables.h"
#include "tiles_internal.h"
#include "tiles_pdb.h"

const char *const tiles__move_names[TILES_MOVES] = { "U", "D", "L", "R" };

/* ------------------------------------------------------------------------ */
/* Instance lifecycle */

static int
tiles_init(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d)
{
    int rows = params->rows;
    int cols = params->cols;
    tiles_priv_t *t;

    if (params->metric == PZ_METRIC_HTM || params->metric == PZ_METRIC_QTM) {
        return pz_diag_set(d, PZ_EMETRIC, "tiles have one metric: moves");
    }
    /* Both zero: the 8-puzzle. One zero: a square board. */
    if (rows == 0 && cols == 0) {
        rows = 3;
        cols = 3;
    } else if (rows == 0) {
        rows = cols;
    } else if (cols == 0) {
        cols = rows;
    }
    if (rows < TILES_MIN || rows > TILES_MAX || cols < TILES_MIN ||
        cols > TILES_MAX) {
        return pz_diag_set(d, PZ_ESIZE,
                           "a tiles board is 2x2 to 8x8 (rows and columns "
                           "2..8 each); got %dx%d",
                           rows, cols);
    }
    t = p->priv;
    t->rows = rows;
    t->cols = cols;
    t->cells = rows * cols;
    for (int z = 0; z < t->cells; z++) {
        int r = z / cols;
        int c = z % cols;

        t->from[MOVE_U][z] = (int8_t)(r + 1 < rows ? z + cols : -1);
        t->from[MOVE_D][z] = (int8_t)(r > 0 ? z - cols : -1);
        t->from[MOVE_L][z] = (int8_t)(c + 1 < cols ? z + 1 : -1);
        t->from[MOVE_R][z] = (int8_t)(c > 0 ? z - 1 : -1);
    }
    p->params.rows = rows;
    p->params.cols = cols;
    snprintf(p->size, sizeof(p->size), "%dx%d", rows, cols);
    p->metric = PZ_METRIC_MOVES;
    p->metric_name = "moves";
    p->state_size = (size_t)t->cells + 1;
    p->nmoves = TILES_MOVES;
    snprintf(p->id, sizeof(p->id), "tiles");
    return PZ_OK;
}

/* ------------------------------------------------------------------------ */
/* Moves (hot path) */

bool
tiles__apply(const pz_puzzle_t *p,
             const pz_state_t *s,
             int move,
             pz_state_t *out)
{
    const tiles_priv_t *t = p->priv;
    int n = t->cells;
    int z = s->b[n];
    int c = t->from[move][z];
    uint8_t tile;

    if (c < 0) {
        return false;
    }
    tile = s->b[c];
    if (out != s) {
        *out = *s;
    }
    out->b[z] = tile;
    out->b[c] = 0;
    out->b[n] = (uint8_t)c;
    return true;
}

static int
tiles_inverse(const pz_puzzle_t *p, int move)
{
    (void)p;
    /* U<->D and L<->R differ only in the low bit. */
    return move ^ 1;
}

static const char *
tiles_move_name(const pz_puzzle_t *p, int move)
{
    (void)p;
    return move >= 0 && move < TILES_MOVES ? tiles__move_names[move] : "?";
}

static int
tiles_move_detail(const pz_puzzle_t *p, const pz_state_t *before, int move)
{
    const tiles_priv_t *t = p->priv;
    int c;

    if (move < 0 || move >= TILES_MOVES) {
        return -1;
    }
    c = t->from[move][before->b[t->cells]];
    return c < 0 ? -1 : before->b[c];
}

/* ------------------------------------------------------------------------ */
/* The goal (parsing and formatting: tiles_io.c) */

static void
tiles_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    const tiles_priv_t *t = p->priv;

    for (int i = 0; i + 1 < t->cells; i++) {
        out->b[i] = (uint8_t)(i + 1);
    }
    out->b[t->cells - 1] = 0;
    out->b[t->cells] = (uint8_t)(t->cells - 1);
}

/* ------------------------------------------------------------------------ */
/* Solvability and random states */

/* Cell of each tile of s, or false when s is not a valid board. */
static bool
tile_cells(const tiles_priv_t *t, const pz_state_t *s, uint8_t *cell)
{
    bool seen[CELLS_MAX] = { false };

    for (int i = 0; i < t->cells; i++) {
        int v = s->b[i];

        if (v >= t->cells || seen[v]) {
            return false;
        }
        seen[v] = true;
        cell[v] = (uint8_t)i;
    }
    return s->b[t->cells] == cell[0];
}

/* The parity rule from the design note; both states must be valid. */
static bool
can_reach(const tiles_priv_t *t, const pz_state_t *a, const uint8_t *gcell)
{
    uint8_t to_goal[CELLS_MAX];
    int za = a->b[t->cells];
    int zg = gcell[0];
    int dist;

    /* The permutation sends cell i to the goal cell of the tile on it. */
    for (int i = 0; i < t->cells; i++) {
        to_goal[i] = gcell[a->b[i]];
    }
    dist = tiles__cell_distance(za, zg, t->cols);
    return perm_parity(to_goal, t->cells) == (dist & 1);
}

static int
tiles_check_pair(const pz_puzzle_t *p,
                 const pz_state_t *start,
                 const pz_state_t *goal,
                 pz_diag_t *d)
{
    const tiles_priv_t *t = p->priv;
    uint8_t scell[CELLS_MAX];
    uint8_t gcell[CELLS_MAX];

    if (!tile_cells(t, start, scell) || !tile_cells(t, goal, gcell)) {
        return pz_diag_set(d, PZ_ETILES,
                           "a state is not a permutation of 0..%d",
                           t->cells - 1);
    }
    if (!can_reach(t, start, gcell)) {
        return pz_diag_set(d, PZ_EUNSOLVABLE,
                           "this arrangement cannot reach the goal: it is "
                           "one swap of two tiles away from a reachable one "
                           "(the inversion parity of the tiles does not "
                           "match the blank's row and column distance to "
                           "its goal cell); swap two tiles to fix it");
    }
    return PZ_OK;
}

static int
tiles_random_state(const pz_puzzle_t *p,
                   pz_rand_fn rand,
                   void *rng,
                   pz_state_t *out)
{
    const tiles_priv_t *t = p->priv;
    pz_state_t goal;
    uint8_t gcell[CELLS_MAX];

    state_clear(&goal);
    tiles_goal(p, &goal);
    tile_cells(t, &goal, gcell);
    /* A uniform permutation is solvable with probability 1/2; rejecting
     * the others keeps the draw uniform over the solvable half. */
    for (;;) {
        state_clear(out);
        perm_random(out->b, t->cells, rand, rng);
        for (int i = 0; i < t->cells; i++) {
            if (out->b[i] == 0) {
                out->b[t->cells] = (uint8_t)i;
            }
        }
        if (can_reach(t, out, gcell)) {
            return PZ_OK;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Heuristics */

/* Goal tables shared by the three heuristics. */
typedef struct tiles_hctx {
    int rows;
    int cols;
    int cells;
    uint8_t goal_cell[CELLS_MAX];       /* [tile] */
    uint8_t dist[CELLS_MAX][CELLS_MAX]; /* [tile][cell]: Manhattan, 0 for
                                           the blank */
    uint8_t rkey[CELLS_MAX][CELLS_MAX]; /* [tile][cell]: goal column when
                                           the cell is in the tile's goal
                                           row, else NO_KEY */
    uint8_t ckey[CELLS_MAX][CELLS_MAX]; /* [tile][cell]: goal row when the
                                           cell is in the tile's goal
                                           column, else NO_KEY */
} tiles_hctx_t;

static int
h_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    const tiles_priv_t *t = p->priv;
    tiles_hctx_t *h = ctx;

    if (!tile_cells(t, goal, h->goal_cell)) {
        return PZ_EINVAL;
    }
    h->rows = t->rows;
    h->cols = t->cols;
    h->cells = t->cells;
    for (int v = 0; v < t->cells; v++) {
        int gr = h->goal_cell[v] / t->cols;
        int gc = h->goal_cell[v] % t->cols;

        for (int i = 0; i < t->cells; i++) {
            int r = i / t->cols;
            int c = i % t->cols;
            bool tile = v != 0;

            h->dist[v][i] = (uint8_t)(tile ? abs(r - gr) + abs(c - gc) : 0);
            h->rkey[v][i] = (uint8_t)(tile && r == gr ? gc : NO_KEY);
            h->ckey[v][i] = (uint8_t)(tile && c == gc ? gr : NO_KEY);
        }
    }
    return PZ_OK;
}

static int
misplaced_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const tiles_hctx_t *h = ctx;
    int n = 0;

    (void)p;
    for (int i = 0; i < h->cells; i++) {
        n += s->b[i] != 0 && h->goal_cell[s->b[i]] != i;
    }
    return n;
}

static int
misplaced_update(const pz_puzzle_t *p,
                 const void *ctx,
                 const pz_state_t *parent,
                 int h_parent,
                 int move,
                 const pz_state_t *child)
{
    const tiles_hctx_t *h = ctx;
    int to = parent->b[h->cells];
    int from = child->b[h->cells];
    int g = h->goal_cell[child->b[to]];

    (void)p;
    (void)move;
    return h_parent - (g != from) + (g != to);
}

static int
manhattan_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const tiles_hctx_t *h = ctx;
    int sum = 0;

    (void)p;
    for (int i = 0; i < h->cells; i++) {
        sum += h->dist[s->b[i]][i];
    }
    return sum;
}

static int
manhattan_update(const pz_puzzle_t *p,
                 const void *ctx,
                 const pz_state_t *parent,
                 int h_parent,
                 int move,
                 const pz_state_t *child)
{
    const tiles_hctx_t *h = ctx;
    int to = parent->b[h->cells];  /* the old blank, where the tile lands */
    int from = child->b[h->cells]; /* the new blank, where it was */
    const uint8_t *row = h->dist[child->b[to]];

    (void)p;
    (void)move;
    return h_parent + row[to] - row[from];
}

/*
 * Least number of tiles that must leave one line (count cells from start,
 * step apart) so the tiles left that belong to it are in goal order: the
 * line's tiles with a key minus their longest increasing run of keys.
 */
static int
line_conflicts(const uint8_t (*key)[CELLS_MAX],
               const pz_state_t *s,
               int start,
               int step,
               int count)
{
    uint8_t tails[TILES_MAX];
    int ntails = 0;
    int n = 0;

    for (int k = 0, i = start; k < count; k++, i += step) {
        int v = key[s->b[i]][i];
        int j = 0;

        if (v == NO_KEY) {
            continue;
        }
        n++;
        /* Patience sorting: tails[j] is the least last key of an
         * increasing run of length j + 1. */
        while (j < ntails && tails[j] < v) {
            j++;
        }
        tails[j] = (uint8_t)v;
        if (j == ntails) {
            ntails++;
        }
    }
    return n - ntails;
}

static int
conflicts_eval(const tiles_hctx_t *h, const pz_state_t *s)
{
    int sum = 0;

    for (int r = 0; r < h->rows; r++) {
        sum += line_conflicts(h->rkey, s, r * h->cols, 1, h->cols);
    }
    for (int c = 0; c < h->cols; c++) {
        sum += line_conflicts(h->ckey, s, c, h->cols, h->rows);
    }
    return sum;
}

static int
lc_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    return manhattan_eval(p, ctx, s) + 2 * conflicts_eval(ctx, s);
}

static int
lc_update(const pz_puzzle_t *p,
          const void *ctx,
          const pz_state_t *parent,
          int h_parent,
          int move,
          const pz_state_t *child)
{
    const tiles_hctx_t *h = ctx;
    int to = parent->b[h->cells];
    int from = child->b[h->cells];
    int v = child->b[to];
    int hv = manhattan_update(p, ctx, parent, h_parent, move, child);
    const uint8_t(*key)[CELLS_MAX];
    int line;
    int start;
    int step;
    int count;

    /* A vertical slide keeps the order of every column and changes only
     * the two rows the tile leaves and enters; a horizontal one the same
     * with rows and columns swapped. Of those two lines only the tile's
     * goal line can gain or lose a conflict. */
    if (move == MOVE_U || move == MOVE_D) {
        key = h->rkey;
        if (key[v][from] != NO_KEY) {
            line = from / h->cols;
        } else if (key[v][to] != NO_KEY) {
            line = to / h->cols;
        } else {
            return hv;
        }
        start = line * h->cols;
        step = 1;
        count = h->cols;
    } else {
        key = h->ckey;
        if (key[v][from] != NO_KEY) {
            line = from % h->cols;
        } else if (key[v][to] != NO_KEY) {
            line = to % h->cols;
        } else {
            return hv;
        }
        start = line;
        step = h->cols;
        count = h->rows;
    }
    return hv + 2 * (line_conflicts(key, child, start, step, count) -
                     line_conflicts(key, parent, start, step, count));
}

static const heuristic_ops_t tiles_misplaced = {
    .name = "misplaced",
    .summary = "number of tiles not on their goal cell (blank excluded)",
    .admissible = true,
    .ctx_bytes = sizeof(tiles_hctx_t),
    .init = h_init,
    .eval = misplaced_eval,
    .update = misplaced_update,
};

static const heuristic_ops_t tiles_manhattan = {
    .name = "manhattan",
    .summary = "sum of each tile's row and column distance to its goal cell",
    .admissible = true,
    .ctx_bytes = sizeof(tiles_hctx_t),
    .init = h_init,
    .eval = manhattan_eval,
    .update = manhattan_update,
};

static const heuristic_ops_t tiles_linear_conflict = {
    .name = "linear-conflict",
    .summary = "Manhattan plus 2 for each tile that must leave its goal row "
               "or column to let another tile pass",
    .admissible = true,
    .ctx_bytes = sizeof(tiles_hctx_t),
    .init = h_init,
    .eval = lc_eval,
    .update = lc_update,
};

static const heuristic_ops_t *const tiles_heuristics[] = {
    &tiles_misplaced,
    &tiles_manhattan,
    &tiles_linear_conflict,
    &tiles_pdb_heuristic,
    &tiles_pdb_dual_heuristic,
    &complete_heuristic_exact,
    NULL,
};

/* ------------------------------------------------------------------------ */
/* Ranks for complete tables (boards of up to 9 cells) */

/* Boards with more cells get no complete table (12! is already 479 M). */
#define RANK_CELLS_MAX 9

static uint64_t
tiles_rank_count(const pz_puzzle_t *p)
{
    const tiles_priv_t *t = p->priv;

    return t->cells > RANK_CELLS_MAX ? 0 : perm_count(t->cells, t->cells);
}

/* The Lehmer code of the board read as a permutation of 0..cells-1. Both
 * parity classes are indexed, so a table can be built for any goal. */
static uint64_t
tiles_rank(const pz_puzzle_t *p, const pz_state_t *s)
{
    const tiles_priv_t *t = p->priv;

    return perm_rank(s->b, t->cells);
}

static void
tiles_unrank(const pz_puzzle_t *p, uint64_t index, pz_state_t *out)
{
    const tiles_priv_t *t = p->priv;

    perm_unrank(index, t->cells, out->b);
    for (int i = 0; i < t->cells; i++) {
        if (out->b[i] == 0) {
            out->b[t->cells] = (uint8_t)i;
        }
    }
}

/* Renames each tile after the default goal's tile on its goal cell. A
 * move swaps the blank with a neighbour whatever the names, so it commutes
 * with the renaming; the blank keeps its name, so its goal cell must be
 * the default one (the last). */
static bool
tiles_relabel(const pz_puzzle_t *p,
              const pz_state_t *goal,
              const pz_state_t *s,
              pz_state_t *out)
{
    const tiles_priv_t *t = p->priv;
    uint8_t cell[CELLS_MAX];

    if (!tile_cells(t, goal, cell) || cell[0] != t->cells - 1) {
        return false;
    }
    for (int i = 0; i < t->cells; i++) {
        out->b[i] = (uint8_t)(s->b[i] == 0 ? 0 : cell[s->b[i]] + 1);
    }
    out->b[t->cells] = s->b[t->cells];
    return true;
}

/* ------------------------------------------------------------------------ */
/* The auto choice and the named tables */

/*
 * Boards with a complete table take the generic choice (the table
 * engine). Small boards: A* holds the whole space easily and beats IDA*'s
 * re-expansions. Larger boards: with the pattern databases already on
 * disk, aida (IDA* below a frontier of A* that grows with the search)
 * solves a random 15-puzzle in milliseconds; else IDA* with linear
 * conflict, which needs no memory, is the best that costs no table
 * build. Without
 * optimality, weighted A* answers in milliseconds where optimal search
 * would take minutes.
 */
static bool
tiles_auto_choice(const pz_puzzle_t *p,
                  const pz_state_t *goal,
                  bool optimal,
                  engine_choice_t *out)
{
    int cells = p->params.rows * p->params.cols;

    out->heuristic = "linear-conflict";
    if (cells <= 9) {
        out->engine = engine_find("astar");
    } else if (optimal) {
        const char *names[8];
        int n = 0;

        out->engine = engine_find("idastar");
        if (cells >= 16 && tiles_pdb_supported(p)) {
            n = tiles_pdb_heuristic.tables(p, goal, names, 8);
        }
        if (n > 0 && n <= 8 && tables_available(names, n, &out->missing)) {
            const char *more[16];
            const char *missing = NULL;
            int k = 0;

            out->heuristic = "pdb";
            /* The dual lookups halve the 15-puzzle's nodes and take less
             * time than they save, when their tables are there too. */
            if (cells == 16) {
                k = tiles_pdb_dual_heuristic.tables(p, goal, more, 16);
            }
            if (k > 0 && k <= 16 && tables_available(more, k, &missing)) {
                out->heuristic = "pdb-dual";
            }
            /* A*'s frontier takes the duplicates out of the top of the
             * tree: about three quarters of idastar's time on Korf's
             * 100, a third of its nodes on the 24-puzzle. */
            out->engine = engine_find("aida");
        }
    } else {
        out->engine = engine_find("wastar");
        out->weight = cells <= 16 ? 2.0 : 3.0;
    }
    return true;
}

/* Appends to out[0..n) the tables of "pdb-dual" on a rows x cols board
 * that are not there yet; returns the new count. */
static int
add_dual_defs(int rows, int cols, tables_def_t *out, int n, int max)
{
    tables_def_t dual[64];
    int k = tiles_pdb_dual_defs(rows, cols, dual, 64);

    for (int i = 0; i < k; i++) {
        bool dup = false;

        for (int j = 0; j < n; j++) {
            dup = dup || strcmp(out[j].name, dual[i].name) == 0;
        }
        if (!dup && n < max) {
            out[n++] = dual[i];
        }
    }
    return n;
}

/* The 8-puzzle's complete table and the 15- and 24-puzzle's pattern
 * databases, and the further ones of their dual lookups. */
static int
tiles_named_tables(tables_def_t *out, int max)
{
    static const pz_params_t board3 = { 3, 3, 0 };
    int n = complete_named("8-puzzle", "tiles", &board3, out, max);
    int k = tiles_pdb_defs(4, 4, 15, out + n, max - n);

    n += k > 0 ? k : 0;
    k = tiles_pdb_defs(5, 5, 24, out + n, max - n);
    n += k > 0 ? k : 0;
    n = add_dual_defs(4, 4, out, n, max);
    return add_dual_defs(5, 5, out, n, max);
}

/* Proving optima is quick up to the 15-puzzle. */
static bool
tiles_optimal_by_default(const pz_puzzle_t *p)
{
    return p->params.rows * p->params.cols <= 16;
}

static const puzzle_io_t tiles_io = {
    .notation = "U D L R: the direction the tile slides into the blank (runs "
                "like ULDR allowed), or the number of the tile to slide",
    .state_forms = "tiles row-major with 0 for the blank, as integers or "
                   "text such as \"1 2 3 / 4 5 6 / 7 8 0\"",
    .parse_state = tiles__parse_state,
    .apply_scramble = tiles__apply_scramble,
    .format_state = tiles__format_state,
    .check_pair = tiles_check_pair,
    .move_detail = tiles_move_detail,
};

static const puzzle_draw_t tiles_draw = {
    .picture = tiles__picture,
};

static const puzzle_ranking_t tiles_ranking = {
    .count = tiles_rank_count,
    .rank = tiles_rank,
    .unrank = tiles_unrank,
    .partial = false,
    .distance_bits = 8, /* the 8-puzzle's distances pass 15 */
    .relabel = tiles_relabel,
};

static const puzzle_random_t tiles_random = { .state = tiles_random_state };

static const engine_ops_t *const tiles_solvers[] = {
    &tiles_dida_engine,
    NULL,
};

static const puzzle_fsm_t *
tiles_move_fsm(const pz_puzzle_t *p)
{
    (void)p;
    return &tiles__fsm_table;
}

static const puzzle_solving_t tiles_solving = {
    .solvers = tiles_solvers,
    .named_tables = tiles_named_tables,
    .auto_choice = tiles_auto_choice,
    .optimal_by_default = tiles_optimal_by_default,
    .quick_solve = tiles__quick_solve,
    .move_fsm = tiles_move_fsm,
};

/* Kinds of pieces for reachability checks (puzzle_pieces_t). */
static const puzzle_pieces_t tiles_pieces[] = {
    /* Cells, then the blank's cell (not a piece). */
    { .name = "tiles",
      .offset = 0,
      .count = 0,
      .orientations = 1,
      .rigid = false,
      .tail = 1 },
    { .name = NULL },
};

const puzzle_ops_t puzzle__tiles = {
    .name = "tiles",
    .summary = "sliding-tile puzzle on an RxC board, 2x2 to 8x8 (8-, 15- and "
               "24-puzzle)",
    .default_heuristic = "linear-conflict",
    .priv_size = sizeof(tiles_priv_t),
    .init = tiles_init,
    .goal = tiles_goal,
    .apply = tiles__apply,
    .inverse = tiles_inverse,
    .move_name = tiles_move_name,
    .heuristics = tiles_heuristics,
    .io = &tiles_io,
    .ranking = &tiles_ranking,
    .random = &tiles_random,
    .solving = &tiles_solving,
    .draw = &tiles_draw,
    .pieces = tiles_pieces,
};
