/* SPDX-License-Identifier: MIT */
/* tiles_dida.c - dual search (DIDA*) for the sliding tiles. */

/*
 * Design. Number every tile by its home cell: a board is then a
 * permutation (cell -> number) and the goal is the identity, the blank
 * being the number z of the goal's blank cell. The dual of a board is
 * its inverse permutation, read as a board on which the number of the
 * blank's cell is the blank (tiles_pdb_lookup.c's dual lookups): it is exactly
 * as far from the identity, and its own regular estimate is the board's
 * dual one. Dual search (Zahavi, Felner, Holte and Schaeffer, "Duality
 * in permutation state spaces and the dual search algorithm", Artificial
 * Intelligence 172, 2008) goes further: at a node whose dual estimate is
 * the larger, it continues the search from the dual board, whose
 * children inherit that larger estimate more often than the regular
 * children would. Every node reads both estimates (as "pdb-dual"), so a
 * node's value is the same on either side; what the jump changes is
 * which children come next.
 *
 * Paths. A move exchanges the blank's cell with a neighbour, a
 * transposition t. If a board B is solved by t1 ... tk, its dual
 * B^-1 = t1 ... tk is solved by tk, ..., t1, each the same exchange of
 * cells with the blank on the other one: a move on the dual board is a
 * move of the original in the opposite direction, taken at the mirrored
 * place in the path. So the moves made on the start's side go to the
 * front of the answer in order, and those made on the dual side go to
 * its back in reverse order, reversed; jumping back and forth nests the
 * same rule. Both sides keep the board and its inverse, so a jump
 * exchanges the two arrays.
 *
 * Pruning: a move is never the inverse of the last move made on its
 * side, wherever the search has been since, as those two are neighbours
 * in the answer (a side entered for the first time has no last move; the
 * dual of a node's parent is not a neighbour of the node's dual). Pathmax
 * both ways as in the generic engine: the estimate is admissible but not
 * consistent.
 *
 * The driver (idastar_solve_split) hands out the subtrees of each
 * iteration, whose roots are on the start's side: on one thread the
 * start's children, as more roots would repeat the upper levels and lose
 * the pathmax between them.
 *
 * Measured: on Korf's 100 jumping whenever the dual estimate is the
 * larger generates about 7 % more nodes than reading both estimates
 * without jumping (IDA* with "pdb-dual"); on the 24-puzzle it goes either
 * way (about 15 % more or fewer). Likely because a goal's databases here
 * depend on where its blank is, so the dual side is read with the
 * databases of other goals; the published gains were measured with
 * databases that ignore the blank. docs/tables.md has the figures.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "engines/idastar.h"
#include "tiles_pdb.h"
#include "tiles_pdb_internal.h"

/* Subtrees per thread when the search is split over threads. */
#define TASKS_PER_THREAD 32

/* A board: numbers by cell and cells by number, and the blank's number. */
typedef struct node {
    uint8_t at[DUAL_CELLS];
    uint8_t cell[DUAL_CELLS];
    uint8_t z;
} node_t;

/* One depth of the search. */
typedef struct frame {
    node_t x;                /* the board searched from here */
    node_t kid[TILES_MOVES]; /* its children, by move */
    int16_t hc[TILES_MOVES]; /* their estimates */
    int h;                   /* x's estimate */
    uint8_t todo;            /* moves still to try */
    uint8_t jump;            /* moves whose child's dual is the larger */
    uint8_t move;            /* the move taken from here */
    bool dual;               /* x is on the dual side */
    int8_t last[2];          /* the last move made on each side, or -1 */
} frame_t;

/* The dual of x, in place. */
static void
flip(node_t *x)
{
    uint8_t t[DUAL_CELLS];
    int b = x->cell[x->z];

    memcpy(t, x->at, sizeof(t));
    memcpy(x->at, x->cell, sizeof(t));
    memcpy(x->cell, t, sizeof(t));
    x->z = (uint8_t)b;
}

/* Whether x is the identity (the goal, on either side). */
static bool
solved(const node_t *x, int n)
{
    for (int c = 0; c < n; c++) {
        if (x->at[c] != c) {
            return false;
        }
    }
    return true;
}

/* The estimates of x on its own side (*reg) and of its dual (*dual),
 * the dual read only when the regular one is at most limit. */
static void
estimate(const dual_ctx_t *h, const node_t *x, int limit, int *reg, int *dual)
{
    probe_t pr;
    const pdb_ctx_t *g = &h->goal[x->z];
    int b = x->cell[x->z];
    int v;

    pdb_index(g, x->cell, &pr);
    pr.md = pdb_md(g, x->cell); /* the dual's too */
    v = pdb_sum(g, &pr);
    *reg = v + ((v ^ g->odd[b]) & 1);
    *dual = 0;
    if (*reg <= limit) {
        g = &h->goal[b];
        pdb_index(g, x->at, &pr);
        v = pdb_sum(g, &pr);
        *dual = v + ((v ^ g->odd[x->z]) & 1);
    }
}

/*
 * Makes f's children for the moves in f->todo (dropping those off the
 * board) and their estimates: the regular indices of all are computed
 * and prefetched before any entry is read, then the dual ones of the
 * children the regular estimates do not cut.
 */
static void
expand(const tiles_priv_t *tp, const dual_ctx_t *h, frame_t *f, int limit)
{
    probe_t pr[TILES_MOVES];
    const pdb_ctx_t *g = &h->goal[f->x.z];
    const pdb_ctx_t *gd[TILES_MOVES];
    int b = f->x.cell[f->x.z];
    int reg[TILES_MOVES];

    f->jump = 0;
    for (uint8_t todo = f->todo; todo != 0; todo &= todo - 1) {
        int m = __builtin_ctz(todo);
        int from = tp->from[m][b];
        node_t *k = &f->kid[m];
        int v;

        if (from < 0) {
            f->todo &= (uint8_t) ~(1u << m);
            continue;
        }
        *k = f->x;
        v = k->at[from];
        k->at[b] = (uint8_t)v;
        k->at[from] = k->z;
        k->cell[v] = (uint8_t)b;
        k->cell[k->z] = (uint8_t)from;
        pdb_index(g, k->cell, &pr[m]);
        pr[m].md = pdb_md(g, k->cell); /* the dual's too */
    }
    for (uint8_t todo = f->todo; todo != 0; todo &= todo - 1) {
        int m = __builtin_ctz(todo);
        int from = tp->from[m][b];
        int v = pdb_sum(g, &pr[m]);

        reg[m] = v + ((v ^ g->odd[from]) & 1);
        if (reg[m] <= limit) {
            gd[m] = &h->goal[from];
            pdb_index(gd[m], f->kid[m].at, &pr[m]);
        }
    }
    for (uint8_t todo = f->todo; todo != 0; todo &= todo - 1) {
        int m = __builtin_ctz(todo);
        int v = reg[m];

        if (v <= limit) {
            int d = pdb_sum(gd[m], &pr[m]);

            d += (d ^ g->odd[tp->from[m][b]]) & 1;
            if (d > v) {
                v = d;
                f->jump |= (uint8_t)(1u << m);
            }
        }
        f->hc[m] = (int16_t)v;
    }
}

/* Writes the answer found at depth len into job: the driver's moves to
 * the root, then the start side's moves in order, then the dual side's
 * in reverse order, each reversed. */
static void
answer(idastar_job_t *job, const frame_t *f, int root, int len)
{
    int k = root;

    for (int d = root; d < len; d++) {
        if (!f[d].dual) {
            job->moves[k++] = f[d].move;
        }
    }
    for (int d = len - 1; d >= root; d--) {
        if (f[d].dual) {
            job->moves[k++] = (uint8_t)(f[d].move ^ 1);
        }
    }
    job->length = len;
}

/* The moves to try from f: never the inverse of the last move made on
 * its side, the move next to it in the answer (none yet: -1). */
static uint8_t
moves_after(const pz_puzzle_t *p, const frame_t *f)
{
    return (uint8_t)puzzle_allowed_after(p, f->last[f->dual]);
}

/* Searches the subtree of the root s at depth root within job's bound;
 * f has room for depths 0..bound + 1. */
static int
search(const pz_puzzle_t *p,
       const dual_ctx_t *h,
       idastar_job_t *job,
       frame_t *f,
       const pz_state_t *s,
       int root)
{
    const tiles_priv_t *tp = p->priv;
    const pdb_ctx_t *r = &h->reg;
    int n = r->n;
    int bound = job->bound;
    uint64_t generated = *job->generated;
    int next = job->next;
    int status = PZ_STATUS_RUNNING;
    int d = root;
    int reg;
    int dual;

    for (int c = 0; c < n; c++) {
        f[d].x.at[c] = r->home[s->b[c]];
        f[d].x.cell[f[d].x.at[c]] = (uint8_t)c;
    }
    f[d].x.z = (uint8_t)r->z;
    f[d].dual = false;
    f[d].last[0] = (int8_t)job->moves[root - 1];
    f[d].last[1] = -1;
    estimate(h, &f[d].x, bound - d, &reg, &dual);
    f[d].h = reg > dual ? reg : dual;
    if (d + f[d].h > bound) {
        job->next = d + f[d].h < next ? d + f[d].h : next;
        return status;
    }
    if (dual > reg) {
        flip(&f[d].x);
        f[d].dual = true;
    }
    f[d].todo = moves_after(p, &f[d]);
    expand(tp, h, &f[d], bound - d - 1);
    for (;;) {
        uint8_t todo = f[d].todo;
        int m;
        int hc;
        int fc;

        if (todo == 0) {
            if (d == root) {
                break;
            }
            d--;
            if (f[d + 1].h - 1 > f[d].h) {
                f[d].h = f[d + 1].h - 1;
                if (d + f[d].h > bound) {
                    f[d].todo = 0;
                    next = d + f[d].h < next ? d + f[d].h : next;
                }
            }
            continue;
        }
        m = __builtin_ctz(todo);
        f[d].todo = (uint8_t)(todo & (todo - 1));
        generated++;
        hc = f[d].hc[m];
        if (hc < f[d].h - 1) {
            hc = f[d].h - 1;
        }
        fc = d + 1 + hc;
        if (fc > bound) {
            if (hc - 1 > f[d].h) {
                f[d].h = hc - 1;
                if (d + f[d].h > bound) {
                    f[d].todo = 0;
                    fc = d + f[d].h;
                }
            }
            next = fc < next ? fc : next;
            continue;
        }
        f[d].move = (uint8_t)m;
        if (hc == 0 && solved(&f[d].kid[m], n)) {
            answer(job, f, root, d + 1);
            status = PZ_STATUS_SOLVED;
            break;
        }
        f[d + 1].x = f[d].kid[m];
        f[d + 1].dual = f[d].dual;
        f[d + 1].last[0] = f[d].last[0];
        f[d + 1].last[1] = f[d].last[1];
        f[d + 1].last[f[d].dual] = (int8_t)m;
        if (f[d].jump >> m & 1) {
            flip(&f[d + 1].x);
            f[d + 1].dual = !f[d].dual;
        }
        d++;
        f[d].h = hc;
        f[d].todo = moves_after(p, &f[d]);
        expand(tp, h, &f[d], bound - d - 1);
        if (++*job->expanded >= *job->next_poll) {
            *job->generated = generated;
            status = job->poll(job->arg);
            if (status != PZ_STATUS_RUNNING) {
                break;
            }
        }
    }
    *job->generated = generated;
    job->next = next;
    return status;
}

/* idastar_dfs_fn: every root job hands out, one after another. */
static int
dida_dfs(const pz_heuristic_t *h, idastar_job_t *job)
{
    frame_t *f;
    pz_state_t s;
    int depth;
    int status = PZ_STATUS_RUNNING;
    size_t bytes;

    if (job->bound < 0 || job->bound >= PZ_SOLUTION_MAX) {
        return PZ_EINVAL;
    }
    /* One block per call (a thread's share of an iteration), from the
     * job's budget. */
    bytes = ((size_t)job->bound + 2) * sizeof(frame_t);
    f = budget_alloc(job->budget, bytes);
    if (f == NULL) {
        return PZ_ENOMEM;
    }
    while (status == PZ_STATUS_RUNNING &&
           job->take(job->arg, &s, &depth, job->moves)) {
        status = search(h->puzzle, h->ctx, job, f, &s, depth);
    }
    budget_free(job->budget, f, bytes);
    return status;
}

static int
dida_solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    if (ctx->heuristic == NULL ||
        ctx->heuristic->ops != &tiles_pdb_dual_heuristic) {
        out->status = PZ_STATUS_FAILED;
        return PZ_EUNSUPPORTED;
    }
    /* One thread takes the start's children as roots: more roots would
     * only repeat the upper levels and lose the pathmax between them.
     * Threads get enough roots each to share the work evenly. */
    return idastar_solve_split(ctx, out, dida_dfs,
                               ctx->threads > 1 ? TASKS_PER_THREAD : 1);
}

static bool
dida_supports(const pz_puzzle_t *p)
{
    return tiles_pdb_supported(p) &&
           p->params.rows * p->params.cols <= DUAL_CELLS;
}

const engine_ops_t tiles_dida_engine = {
    .name = "dida",
    .summary = "dual IDA*: IDA* with \"pdb-dual\" that goes on from the dual "
               "board (the inverse permutation) wherever its estimate is "
               "the larger; optimal; splits over threads when asked",
    .optimal = true,
    .uses_heuristic = true,
    .heuristic = "pdb-dual",
    .threads = true,
    .solve = dida_solve,
    .supports = dida_supports,
};
