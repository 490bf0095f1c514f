/* SPDX-License-Identifier: MIT */
/* dfs.c - the two-phase search: phase-1 and phase-2 depth-first searches. */
#include <limits.h>

#include "twophase_internal.h"

/*
 * Design: phase 1 searches the 18 moves for sequences that bring the cube
 * into G1, by iterative deepening on the phase-1 length B with the exact
 * phase-1 distance as the bound, so every path it explores ends in G1 at
 * exactly B. Each end point starts phase 2, an iterative-deepening search
 * inside G1 (10 moves) bounded by the best total found so far, so phase-1
 * lengths grow until no total below the best is possible or the target is
 * met. The orientations a worker owns take turns at each B, so a short
 * solution in any of them comes out early.
 *
 * Refinements, each keeping every solution shorter than the best within
 * reach: a phase-1 path that ends with a phase-2 move (U, D or a half
 * turn) is skipped, because the same cube was already in G1 one move
 * earlier and the shorter path covers it; phase 2 does not start with the
 * face of the last phase-1 move (the pair would merge, and the merged
 * sequence is another phase-1 path); an iteration stops as soon as its B
 * reaches the best length. Phase 2 is capped at phase2_cap: a longer
 * phase 2 is rarely worth its cost when other phase-1 paths are cheap.
 *
 * The cube at a phase-1 end point is needed only there, so the cubies
 * along the path are computed lazily from the deepest one still valid.
 *
 * Lengths are in the puzzle's metric: a half turn costs 2 in QTM. The
 * tables hold half-turn distances, which are also lower bounds in QTM.
 */

/* Moves that may follow prev (-1: any): not the same face, and of two
 * opposite faces only U before D, R before L, F before B. */
static inline uint32_t
allowed_after(int prev)
{
    uint32_t all = (1u << TWOPHASE_NMOVES) - 1;
    int face;

    if (prev < 0) {
        return all;
    }
    face = prev / 3;
    all &= ~(7u << (3 * face));
    if (face >= 3) {
        all &= ~(7u << (3 * (face - 3)));
    }
    return all;
}

/* A phase-1 path may end only with a quarter turn of R, F, L or B. */
static inline bool
ends_phase1(int move)
{
    int face = move / 3;

    return move % 3 != 1 && face != 0 && face != 3;
}

static bool
poll(twophase_worker_t *w)
{
    twophase_shared_t *sh = w->sh;
    int st;

    if (!sh->threaded) {
        st = search_poll(sh->ctx, &w->meter);
    } else {
        uint64_t de = w->meter.expanded - w->published_expanded;
        uint64_t dg = w->meter.generated - w->published_generated;
        search_meter_t total = { 0 };
        uint64_t limit = sh->ctx->limits.max_nodes;

        total.expanded = atomic_fetch_add(&sh->expanded, de) + de;
        total.generated = atomic_fetch_add(&sh->generated, dg) + dg;
        w->published_expanded = w->meter.expanded;
        w->published_generated = w->meter.generated;
        st = search_poll(sh->ctx, &total);
        w->meter.next_poll = w->meter.expanded + PZ_POLL_INTERVAL;
        if (limit != 0 && total.expanded < limit &&
            limit - total.expanded < PZ_POLL_INTERVAL) {
            /* Near the node limit: poll more often so the threads
             * together stop close to it. */
            w->meter.next_poll = w->meter.expanded + 64;
        }
    }
    if (st != PZ_STATUS_RUNNING) {
        int zero = 0;

        atomic_compare_exchange_strong(&sh->stop, &zero, st);
    }
    return atomic_load_explicit(&sh->stop, memory_order_relaxed) != 0;
}

/* Counts one expansion; true when the search must end. */
static inline bool
tick(twophase_worker_t *w)
{
    if (++w->meter.expanded >= w->meter.next_poll) {
        return poll(w);
    }
    return w->sh->threaded &&
           atomic_load_explicit(&w->sh->stop, memory_order_relaxed) != 0;
}

/* Phase 2 from (corner, ud, sperm) with exactly togo left. Returns -1 to
 * stop, 0 when nothing was found, or 1 + the phase-2 length in moves. */
static int
phase2(twophase_worker_t *w, int corner, int ud, int sperm, int n, int togo)
{
    const twophase_shared_t *sh = w->sh;
    const twophase_tables_t *t = sh->t;
    int prev = n > 0 ? w->path2[n - 1] : w->n1 > 0 ? w->path1[w->n1 - 1] : -1;
    uint32_t allowed = allowed_after(prev);

    if (togo == 0) {
        return (corner | ud | sperm) == 0 ? n + 1 : 0;
    }
    for (int k = 0; k < TWOPHASE_NMOVES2; k++) {
        int m = twophase__move2[k];
        int c = sh->cost[m];
        int corner2;
        int ud2;
        int sperm2;
        int r;

        if (!(allowed >> m & 1u) || c > togo) {
            continue;
        }
        corner2 = t->corner_move[corner][k];
        ud2 = t->ud_move[ud][k];
        sperm2 = t->slice_perm_move[sperm][k];
        w->meter.generated++;
        if (twophase__dist2(t, corner2, ud2, sperm2) > togo - c) {
            continue;
        }
        if (tick(w)) {
            return -1;
        }
        w->path2[n] = (uint8_t)m;
        r = phase2(w, corner2, ud2, sperm2, n + 1, togo - c);
        if (r != 0) {
            return r;
        }
    }
    return 0;
}

/* A phase-1 path of length n (metric w->bound1) has reached G1: run
 * phase 2 below the best total. Returns true to stop the search. */
static bool
phase2_start(twophase_worker_t *w, int n)
{
    twophase_shared_t *sh = w->sh;
    const twophase_tables_t *t = sh->t;
    const cube3_cubie_t *c;
    int corner;
    int ud;
    int sperm;
    int most;
    int h;

    most =
        atomic_load_explicit(&sh->best, memory_order_relaxed) - 1 - w->bound1;
    if (most > sh->phase2_cap) {
        most = sh->phase2_cap;
    }
    if (most < 0) {
        return false;
    }
    for (int i = w->stack_valid; i < n; i++) {
        cube3_cubie_multiply(&w->cubes[i], cube3_move_cubie(w->path1[i]),
                             &w->cubes[i + 1]);
    }
    w->stack_valid = n;
    c = &w->cubes[n];
    corner = cube3_corner_perm(c);
    ud = cube3_ud_edge_perm(c);
    sperm = cube3_slice_perm(c);
    h = twophase__dist2(t, corner, ud, sperm);
    w->n1 = n;
    for (int b = h; b <= most; b++) {
        int r = phase2(w, corner, ud, sperm, 0, b);

        if (r < 0) {
            return true;
        }
        if (r > 0) {
            uint8_t moves[2 * TWOPHASE_DEPTH_MAX];
            int n2 = r - 1;

            for (int i = 0; i < n; i++) {
                moves[i] = w->path1[i];
            }
            for (int i = 0; i < n2; i++) {
                moves[n + i] = w->path2[i];
            }
            twophase__record(w, moves, n + n2, w->bound1 + b);
            return atomic_load(&sh->stop) != 0;
        }
    }
    return false;
}

/* Phase 1 from (twist, flip, slice) after path1[0..n) with exactly togo
 * left. Returns true to stop the search. */
static bool
phase1(twophase_worker_t *w, int twist, int flip, int slice, int n, int togo)
{
    twophase_shared_t *sh = w->sh;
    const twophase_tables_t *t = sh->t;
    int prev = n > 0 ? w->path1[n - 1] : -1;
    uint32_t allowed;

    if (togo == 0) {
        /* The parent's bound made the distance 0: this is G1. */
        if (n > 0 && !ends_phase1(prev)) {
            return false;
        }
        return phase2_start(w, n);
    }
    if (w->bound1 >= atomic_load_explicit(&sh->best, memory_order_relaxed)) {
        return false;
    }
    allowed = allowed_after(prev);
    for (int m = 0; m < TWOPHASE_NMOVES; m++) {
        int c = sh->cost[m];
        int twist2;
        int flip2;
        int slice2;

        if (!(allowed >> m & 1u) || c > togo) {
            continue;
        }
        twist2 = t->twist_move[twist][m];
        flip2 = t->flip_move[flip][m];
        slice2 = t->slice_move[slice][m];
        w->meter.generated++;
        if (twophase__dist1(t, twist2, flip2, slice2) > togo - c) {
            continue;
        }
        if (tick(w)) {
            return true;
        }
        w->path1[n] = (uint8_t)m;
        if (w->stack_valid > n) {
            w->stack_valid = n;
        }
        if (phase1(w, twist2, flip2, slice2, n + 1, togo - c)) {
            return true;
        }
    }
    return false;
}

void
twophase__run_worker(twophase_worker_t *w)
{
    twophase_shared_t *sh = w->sh;
    const twophase_tables_t *t = sh->t;
    cube3_cubie_t cube[TWOPHASE_NORIENT];
    int twist[TWOPHASE_NORIENT];
    int flip[TWOPHASE_NORIENT];
    int slice[TWOPHASE_NORIENT];
    int h[TWOPHASE_NORIENT];
    int lowest = INT_MAX;

    for (int o = w->first; o < TWOPHASE_NORIENT; o += w->step) {
        twophase__oriented(sh, o, &cube[o]);
        twist[o] = cube3_twist(&cube[o]);
        flip[o] = cube3_flip(&cube[o]);
        slice[o] = cube3_slice(&cube[o]);
        h[o] = twophase__dist1(t, twist[o], flip[o], slice[o]);
        if (h[o] < lowest) {
            lowest = h[o];
        }
    }
    for (int b = lowest; b < TWOPHASE_DEPTH_MAX; b++) {
        if (b >= atomic_load(&sh->best)) {
            break;
        }
        for (int o = w->first; o < TWOPHASE_NORIENT; o += w->step) {
            if (h[o] > b) {
                continue;
            }
            w->orient = o;
            w->bound1 = b;
            w->cubes[0] = cube[o];
            w->stack_valid = 0;
            if (phase1(w, twist[o], flip[o], slice[o], 0, b) ||
                atomic_load(&sh->stop) != 0) {
                return;
            }
        }
    }
}
