/* SPDX-License-Identifier: MIT */
/* dfs.c - the two-phase search: phase-1 and phase-2 depth-first searches.
 * Size: one search: phase-1 cursors run phase 2 and take tasks in turn. */
#include <limits.h>
#include <string.h>

#include "perm.h"
#include "twophase_internal.h"

/*
 * Design: phase 1 searches the 18 moves for sequences that bring the cube
 * into G1, by iterative deepening on the phase-1 length B with the exact
 * phase-1 distance as the bound, so every path it explores ends in G1 at
 * exactly B. Each end point starts phase 2, an iterative-deepening search
 * inside G1 (10 moves) bounded by the best total found so far, so phase-1
 * lengths grow until no total below the best is possible or the target is
 * met. The phase-1 trees of a worker's orientations are split into tasks
 * (one start, one length, one first move) run by a few resumable cursors
 * over explicit frames that take turns a few expansions at a time, so a
 * short solution in any of them comes out early and the table reads of
 * several run at once. After the shortest lengths, starts with a
 * pre-move join (see twophase_root_t): more phase-1 paths of each short
 * length, which is what finds a total of 20 soonest on hard cubes.
 *
 * Refinements: a phase-1 path that ends with a phase-2 move (U, D or a
 * half turn) is skipped, because the same cube was already in G1 one move
 * earlier and the shorter path covers it; phase 2 does not start with the
 * face of the last phase-1 move (the pair would merge, and the merged
 * sequence is another phase-1 path); an iteration stops as soon as its B
 * reaches the best length; a path does not pass through a cube close to
 * G1 with more moves left than its distance (see frame_open). Phase 2 is
 * capped at phase2_cap (QTM; in HTM the cap is no real limit).
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

/* Lets the search look for answers longer than the target again (see
 * shared_init in twophase.c); true when this call did. Only the first
 * call may: afterwards best at target + 1 is an answer of that length. */
static bool
relax(twophase_shared_t *sh)
{
    int strict = sh->target + 1;

    if (sh->loose <= strict || atomic_exchange(&sh->relaxed, true)) {
        return false;
    }
    return atomic_compare_exchange_strong(&sh->best, &strict, sh->loose);
}

static bool
poll(twophase_worker_t *w)
{
    twophase_shared_t *sh = w->sh;
    int st;

    if (!sh->threaded) {
        st = search_poll(sh->ctx, &w->meter);
        /* Expansions here cost a fraction of a microsecond (table
         * misses), so the standard interval would overrun a 10 ms budget
         * by a millisecond; the clock read is cheap in comparison. */
        if (w->meter.next_poll > w->meter.expanded + TWOPHASE_POLL) {
            w->meter.next_poll = w->meter.expanded + TWOPHASE_POLL;
        }
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
        w->meter.next_poll = w->meter.expanded + TWOPHASE_POLL;
        if (limit != 0 && total.expanded < limit &&
            limit - total.expanded < TWOPHASE_POLL) {
            /* Near the node limit: poll more often so the threads
             * together stop close to it. */
            w->meter.next_poll = w->meter.expanded + 64;
        }
    }
    if (st != PZ_STATUS_RUNNING) {
        int zero = 0;

        atomic_compare_exchange_strong(&sh->stop, &zero, st);
    }
    if (sh->relax_ns != 0 && pz_now_ns() >= sh->relax_ns) {
        /* Half the budget gone without an answer within the target: any
         * answer will do (see shared_init). */
        relax(sh);
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

void
twophase__depth1_many(const twophase_tables_t *t, int n, int (*c)[3], int *h)
{
    bool live[TWOPHASE_NROOT];
    uint32_t cs[TWOPHASE_NROOT];
    size_t idx[TWOPHASE_NROOT];
    int left = n;

    /*
     * Each step takes a move that brings the cube one closer, as its
     * phase-1 word says; there is one until G1 (distance 0). The walks go
     * in step so that their cache misses overlap, and a step reads the
     * word and the class-move row of the cube at once (the row gives the
     * next cube's class and symmetry, as in frame_enter_far), so a step
     * waits for memory once. Within TWOPHASE_NEAR_DEPTH of G1 the near
     * hash (probed alongside) has the distance: the last steps are
     * skipped.
     */
    for (int i = 0; i < n; i++) {
        h[i] = 0;
        live[i] = true;
        TWOPHASE_PREFETCH(&t->flipslice_sym[c[i][2] * CUBE3_NFLIP + c[i][1]]);
    }
    for (int i = 0; i < n; i++) {
        cs[i] = t->flipslice_sym[c[i][2] * CUBE3_NFLIP + c[i][1]];
        idx[i] = (size_t)(cs[i] >> 4) * CUBE3_NTWIST +
                 t->twist_conj[c[i][0]][cs[i] & 15];
    }
    for (int step = 0; left > 0; step++) {
        for (int i = 0; i < n; i++) {
            if (live[i]) {
                const uint8_t *row =
                    (const uint8_t *)t->flipslice_class_move[cs[i] >> 4];

                TWOPHASE_PREFETCH(&twophase__phase1(t)[idx[i]]);
                TWOPHASE_PREFETCH(row);
                TWOPHASE_PREFETCH(row + sizeof(t->flipslice_class_move[0]) - 1);
                TWOPHASE_PREFETCH(&t->near_key[twophase__near_hash(
                    twophase__near_key(c[i][0], c[i][1], c[i][2]))]);
            }
        }
        for (int i = 0; i < n; i++) {
            int slot;
            const uint8_t *sm;
            uint32_t dec;
            uint32_t same;
            uint32_t e;
            unsigned sym;
            int m;

            if (!live[i]) {
                continue;
            }
            slot = twophase__near_slot(
                t, twophase__near_key(c[i][0], c[i][1], c[i][2]));
            if (slot >= 0) {
                h[i] += t->near_dist[slot];
                live[i] = false;
                left--;
                continue;
            }
            sym = cs[i] & 15;
            sm = t->sym_move[sym];
            twophase__decode1(twophase__phase1(t)[idx[i]], &dec, &same);
            for (m = 0; m < TWOPHASE_NMOVES; m++) {
                if (dec >> sm[m] & 1u) {
                    break;
                }
            }
            if (m == TWOPHASE_NMOVES || step > 20) {
                h[i] = -1; /* not reached with a sound table */
                live[i] = false;
                left--;
                continue;
            }
            c[i][0] = t->twist_move[c[i][0]][m];
            c[i][1] = t->flip_move[c[i][1]][m];
            c[i][2] = t->slice_move[c[i][2]][m];
            e = t->flipslice_class_move[cs[i] >> 4][sm[m]];
            sym = t->sym_mult[e & 15][sym];
            cs[i] = (e & ~15u) | sym;
            idx[i] =
                (size_t)(e >> 4) * CUBE3_NTWIST + t->twist_conj[c[i][0]][sym];
            h[i]++;
        }
    }
}

int
twophase__depth1(const twophase_tables_t *t, int twist, int flip, int slice)
{
    int c[1][3] = { { twist, flip, slice } };
    int h;

    twophase__depth1_many(t, 1, c, &h);
    return h;
}

/* Lehmer rank of the E-slice edges (pieces 8..11) at positions 8..11. */
static inline int
slice_rank(const uint8_t *e)
{
    uint8_t v[4] = { (uint8_t)(e[0] - 8), (uint8_t)(e[1] - 8),
                     (uint8_t)(e[2] - 8), (uint8_t)(e[3] - 8) };

    return (int)perm_rank(v, 4);
}

/* Phase 2 from coord = (corner, ud, sperm) with exactly togo left.
 * Returns -1 to stop, 0 when nothing was found, or 1 + the phase-2
 * length in moves. */
static int
phase2(twophase_worker_t *w, const int *coord, int n, int togo)
{
    const twophase_shared_t *sh = w->sh;
    const twophase_tables_t *t = sh->t;
    int prev = n > 0       ? w->path2[n - 1]
               : w->n1 > 0 ? w->cur->path1[w->n1 - 1]
                           : -1;
    uint32_t allowed = allowed_after(prev);
    int child[TWOPHASE_NMOVES2][3];
    int kk[TWOPHASE_NMOVES2];
    int nc = 0;

    if (togo == 0) {
        return (coord[0] | coord[1] | coord[2]) == 0 ? n + 1 : 0;
    }
    /* The children first, each with its phase-2 table entry prefetched
     * (a random read of 56 MB), then their bounds and subtrees in order:
     * the reads of all siblings overlap. */
    for (int k = 0; k < TWOPHASE_NMOVES2; k++) {
        int m = twophase__move2[k];
        size_t i;

        if (!(allowed >> m & 1u) || togo < sh->cost[m]) {
            continue;
        }
        child[nc][0] = t->corner_move[coord[0]][k];
        child[nc][1] = t->ud_move[coord[1]][k];
        child[nc][2] = t->slice_perm_move[coord[2]][k];
        i = twophase__prune2_index(t, child[nc][0], child[nc][1]);
        TWOPHASE_PREFETCH(&twophase__prune2(t)[i >> 1]);
        kk[nc++] = k;
    }
    for (int j = 0; j < nc; j++) {
        int m = twophase__move2[kk[j]];
        int left = togo - sh->cost[m];
        int r;

        w->meter.generated++;
        if (twophase__dist2(t, sh->qtm_bounds, child[j][0], child[j][1],
                            child[j][2]) > left) {
            continue;
        }
        if (tick(w)) {
            return -1;
        }
        w->path2[n] = (uint8_t)m;
        r = phase2(w, child[j], n + 1, left);
        if (r != 0) {
            return r;
        }
    }
    return 0;
}

/* A phase-1 path of length n (metric: the orientation's bound) has
 * reached G1: run phase 2 below the best total. Returns true to stop the
 * search. */
static bool
phase2_start(twophase_worker_t *w, twophase_cursor_t *st, int n)
{
    twophase_shared_t *sh = w->sh;
    const twophase_tables_t *t = sh->t;
    int coord[3];
    int most;

    most = atomic_load_explicit(&sh->best, memory_order_relaxed) - 1 -
           st->bound - st->extra;
    if (most > sh->phase2_cap) {
        most = sh->phase2_cap;
    }
    if (most < 0) {
        return false;
    }
    /* The permutations along the path from the deepest current one. */
    for (int i = st->perm_valid; i < n; i++) {
        const uint8_t *mc = sh->move_cyc[st->path1[i]];
        const uint8_t *p = st->perm[i];
        uint8_t *q = st->perm[i + 1];

        memcpy(q, p, TWOPHASE_NPERM);
        for (int k = 0; k < 16; k += 2) {
            q[mc[k]] = p[mc[k + 1]];
        }
    }
    st->perm_valid = n;
    /* The corners and the slice edges first: the small corner x slice
     * table turns most end points away before any edge work. */
    coord[0] = (int)perm_rank(st->perm[n], 8);
    coord[2] = slice_rank(st->perm[n] + CUBE3_NCORNERS + 8);
    if (sh->qtm_bounds) {
        if (t->corner_slice_qtm[coord[0] * CUBE3_NSLICE_PERM + coord[2]] >
            most) {
            return false;
        }
    } else {
        uint16_t ccs = t->corner_sym[coord[0]];

        if (t->corner_slice_sym[(ccs >> 4) * CUBE3_NSLICE_PERM +
                                t->sperm_conj[ccs & 15][coord[2]]] > most) {
            return false;
        }
    }
    coord[1] = (int)perm_rank(st->perm[n] + CUBE3_NCORNERS, 8);
    /* The big phase-2 table is read through two dependent lookups that
     * miss the caches: prefetch the first and let the other orientations
     * work (phase2_resume continues). */
    st->pend = 1;
    st->pend_n = n;
    memcpy(st->pend_coord, coord, sizeof(coord));
    TWOPHASE_PREFETCH(&t->ud_conj[t->corner_sym[coord[0]] & 15][coord[1]]);
    return false;
}

/* Continues the pending end point of st (see phase2_start): the second
 * prefetch, then the phase-2 bound and search. Returns true to stop the
 * search. */
static bool
phase2_resume(twophase_worker_t *w, twophase_cursor_t *st)
{
    twophase_shared_t *sh = w->sh;
    const twophase_tables_t *t = sh->t;
    const int *coord = st->pend_coord;
    int n = st->pend_n;
    int most;
    int h;

    if (st->pend == 1) {
        size_t i = twophase__prune2_index(t, coord[0], coord[1]);

        TWOPHASE_PREFETCH(&twophase__prune2(t)[i >> 1]);
        st->pend = 2;
        return false;
    }
    st->pend = 0;
    most = atomic_load_explicit(&sh->best, memory_order_relaxed) - 1 -
           st->bound - st->extra;
    if (most > sh->phase2_cap) {
        most = sh->phase2_cap;
    }
    h = twophase__dist2(t, sh->qtm_bounds, coord[0], coord[1], coord[2]);
    if (h > most) {
        return false;
    }
    w->cur = st;
    w->n1 = n;
    for (int b = h; b <= most; b++) {
        int r = phase2(w, coord, 0, b);

        if (r < 0) {
            return true;
        }
        if (r > 0) {
            uint8_t moves[2 * TWOPHASE_DEPTH_MAX];
            int n2 = r - 1;

            for (int i = 0; i < n; i++) {
                moves[i] = st->path1[i];
            }
            for (int i = 0; i < n2; i++) {
                moves[n + i] = w->path2[i];
            }
            if (st->pre >= 0) {
                moves[n + n2++] = (uint8_t)st->pre;
            }
            twophase__record(w, moves, n + n2, st->bound + b + st->extra);
            return atomic_load(&sh->stop) != 0;
        }
    }
    return false;
}

/* The quarter turns of R, F, L and B: the moves a phase-1 path may end
 * with, and the moves that leave G1. */
#define PHASE1_END_MOVES                                                       \
    ((1u << 3) | (1u << 5) | (1u << 6) | (1u << 8) | (1u << 12) | (1u << 14) | \
     (1u << 15) | (1u << 17))

/*
 * Fills frame f (distance, togo, prev and either near_idx or the
 * coordinates, class and entry already set) with the moves to try and
 * the children's distances; only children that fit are kept, and a child
 * that ends the phase-1 path must end it with a quarter turn of R, F, L
 * or B: a path that ends with a phase-2 move (U, D or a half turn) was
 * in G1 one move earlier, where a shorter path covers it.
 *
 * With at most TWOPHASE_NEAR_DEPTH + 1 moves left, a child that fits is
 * at most TWOPHASE_NEAR_DEPTH from G1, and so is the cube itself (the
 * parent checked); its near[] entry lists every child's distance and
 * entry, so the last levels, the widest of the tree, read one small entry
 * per node and no big table at all. Farther out, the node's own phase-1
 * word gives every child's distance: one read per node, which the parent
 * prefetched when it entered it.
 *
 * In G1 with fewer than five moves to go, moves that stay in G1 are
 * skipped, and more generally no child is entered that is closer to G1
 * than the moves left after it with the two adding up to less than
 * DETOUR_CUT: such a path reaches G1, or a cube a move or two from it,
 * early and makes a short detour, which rarely pays (Kociemba's solver
 * makes the first cut, rob-twophase credits the second to Rokicki's
 * cube20).
 */
/* See frame_open. 5 (cube20's) saved 3 % of the nodes at target 20; 6
 * saved another 2 % on random cubes but lost every 20 of the superflip
 * (none in 300 million nodes, 60 million with 5). */
#ifndef DETOUR_CUT
#define DETOUR_CUT 5
#endif

static void
frame_open(const twophase_shared_t *sh, twophase_frame_t *f)
{
    const twophase_tables_t *t = sh->t;
    uint32_t todo = allowed_after(f->prev);

    if (f->dist == 0 && f->togo < 5) {
        todo &= PHASE1_END_MOVES;
    }
    f->opened = true;
    f->near = f->near_idx >= 0 && f->togo <= TWOPHASE_NEAR_DEPTH + 1;
    if (f->near) {
        const twophase_near_t *e = &t->near[f->near_idx];
        uint64_t cd = e->child_dist;

        for (uint32_t rest = todo; rest != 0; rest &= rest - 1) {
            int m = twophase__lowest_bit(rest);
            int left = f->togo - sh->cost[m];
            int d = (int)(cd >> (3 * m) & 7);

            /* Children beyond the hash (7) cannot fit: left is less than
             * TWOPHASE_NEAR_DEPTH + 1. */
            if (d > left || (left == 0 && !(PHASE1_END_MOVES >> m & 1u)) ||
                (d < left && d + left < DETOUR_CUT)) {
                todo &= ~(1u << m);
            } else {
                f->cdist[m] = (int8_t)d;
                f->child_near[m] = e->child[m];
                if (left > 0) {
                    /* The child's entry, read when it is opened: the
                     * 0.4 MB near table does not stay in the caches
                     * that the far reads churn, and the siblings
                     * searched first give it time to arrive. */
                    const uint8_t *ne = (const uint8_t *)&t->near[e->child[m]];

                    TWOPHASE_PREFETCH(ne);
                    TWOPHASE_PREFETCH(ne + sizeof(*e) - 1);
                }
            }
        }
        f->todo = todo;
        return;
    }
    {
        /* conj_s(x) is the entry's cube, and conj_s(x * M) = conj_s(x) *
         * M' with M' = S M S^-1, so move M of x is move M' of the
         * entry. */
        const uint8_t *sm = t->sym_move[f->cs & 15];
        uint32_t dec;
        uint32_t same;

        twophase__decode1(twophase__phase1(t)[f->idx], &dec, &same);
        for (uint32_t rest = todo; rest != 0; rest &= rest - 1) {
            int m = twophase__lowest_bit(rest);
            int left = f->togo - sh->cost[m];
            unsigned mr = sm[m];
            int d = f->dist + (dec >> mr & 1u ? -1 : same >> mr & 1u ? 0 : 1);

            if (d > left || (left == 0 && !(PHASE1_END_MOVES >> m & 1u)) ||
                (d < left && d + left < DETOUR_CUT)) {
                todo &= ~(1u << m);
            } else {
                f->cdist[m] = (int8_t)d;
            }
        }
    }
    f->todo = todo;
}

/* Sets up frame g, the child of f by move m (far frames only): its
 * coordinates, class and entry, and prefetches what opening it reads. */
static void
frame_enter_far(const twophase_tables_t *t,
                const twophase_frame_t *f,
                twophase_frame_t *g,
                int m)
{
    const uint32_t *row = t->flipslice_class_move[f->cs >> 4];
    unsigned sym = f->cs & 15;
    uint32_t e = row[t->sym_move[sym][m]];
    unsigned csym = t->sym_mult[e & 15][sym];

    /* The class move table gives conj_s'(rep * M') = rep', so the child's
     * symmetry is S_s' * S_s. */
    g->coord[0] = t->twist_move[f->coord[0]][m];
    g->coord[1] = t->flip_move[f->coord[1]][m];
    g->coord[2] = t->slice_move[f->coord[2]][m];
    g->cs = (e & ~15u) | csym;
    g->idx = (e >> 4) * CUBE3_NTWIST + t->twist_conj[g->coord[0]][csym];
    g->near_idx =
        g->togo <= TWOPHASE_NEAR_DEPTH + 1 && g->dist <= TWOPHASE_NEAR_DEPTH
            ? twophase__near_find(
                  t, twophase__near_key(g->coord[0], g->coord[1], g->coord[2]))
            : -1;
    if (g->near_idx < 0) {
        /* A class-move row (72 bytes) spans two cache lines. */
        const uint8_t *crow =
            (const uint8_t *)t->flipslice_class_move[g->cs >> 4];

        TWOPHASE_PREFETCH(&twophase__phase1(t)[g->idx]);
        TWOPHASE_PREFETCH(crow);
        TWOPHASE_PREFETCH(crow + sizeof(t->flipslice_class_move[0]) - 1);
    } else {
        /* A near entry (48 bytes) spans two lines half the time. */
        const uint8_t *ne = (const uint8_t *)&t->near[g->near_idx];

        TWOPHASE_PREFETCH(ne);
        TWOPHASE_PREFETCH(ne + sizeof(t->near[0]) - 1);
    }
}

/*
 * Runs cursor st's task for about quantum expansions, from where it
 * stopped last time; returns early after entering a node whose table
 * entry is on its way from memory, or with an end point waiting for its
 * phase-2 entry, so the other cursors work meanwhile. Returns true when
 * the whole search must stop. Phase 1 is a depth-first search over
 * explicit frames, exactly togo from G1: a child is entered only when its
 * distance fits in what is left after its move, so every path ends in G1
 * at the bound. The task is over when st->depth < 0 and nothing is
 * pending.
 */
static bool
cursor_run(twophase_worker_t *w, twophase_cursor_t *st, uint64_t quantum)
{
    twophase_shared_t *sh = w->sh;
    const twophase_tables_t *t = sh->t;
    uint64_t until = w->meter.expanded + quantum;

    while (w->meter.expanded < until) {
        twophase_frame_t *f;
        int m;
        int left;

        if (st->pend != 0) {
            if (phase2_resume(w, st)) {
                return true;
            }
            if (st->pend != 0) {
                break; /* its entry is on its way */
            }
            continue;
        }
        if (st->depth < 0) {
            break;
        }
        f = &st->frames[st->depth];
        if (!f->opened) {
            frame_open(sh, f);
        }
        if (f->todo == 0 ||
            st->bound + st->extra >=
                atomic_load_explicit(&sh->best, memory_order_relaxed)) {
            st->depth--;
            continue;
        }
        m = twophase__lowest_bit(f->todo);
        f->todo &= f->todo - 1;
        left = f->togo - sh->cost[m];
        w->meter.generated++;
        if (tick(w)) {
            return true;
        }
        st->path1[st->depth] = (uint8_t)m;
        if (st->perm_valid > st->depth) {
            st->perm_valid = st->depth;
        }
        if (left == 0) {
            /* In G1 (frame_open kept only quarter turns of R F L B). */
            if (phase2_start(w, st, st->depth + 1)) {
                return true;
            }
            if (st->pend != 0) {
                break;
            }
            continue;
        }
        {
            twophase_frame_t *g = &st->frames[st->depth + 1];

            g->dist = f->cdist[m];
            g->togo = left;
            g->prev = m;
            g->opened = false;
            st->depth++;
            if (f->near) {
                /* Its children are near too; no coordinates needed. */
                g->near_idx = f->child_near[m];
            } else {
                frame_enter_far(t, f, g, m);
                if (TWOPHASE_YIELD) {
                    /* Its entry, phase-1 word or near entry, is on its
                     * way from memory: let the other cursors work
                     * meanwhile. (Yielding also after entering a near
                     * child of a near node, whose entry its parent
                     * prefetched, measured 1 % slower.) */
                    break;
                }
            }
        }
    }
    return false;
}

enum {
    TASK_NONE,
    TASK_WAIT,
    TASK_GIVEN
};

/* True when b = S a S^-1 for one of the 16 symmetries that keep the U-D
 * axis: the two cubes have the same two-phase search. */
static bool
cubes_alike(const cube3_cubie_t *a, const cube3_cubie_t *b)
{
    for (int s = 0; s < CUBE3_NSYM_UD; s++) {
        cube3_cubie_t x;

        cube3_cubie_conjugate(a, s, &x);
        if (cube3_cubie_equal(&x, b)) {
            return true;
        }
    }
    return false;
}

/* The flip x slice class of c, equal for U-D conjugates: cubes of
 * different classes need no cubes_alike. */
static uint32_t
flipslice_class(const twophase_tables_t *t, const cube3_cubie_t *c)
{
    return t->flipslice_sym[cube3_slice(c) * CUBE3_NFLIP + cube3_flip(c)] >> 4;
}

void
twophase__orient_distinct(twophase_shared_t *sh)
{
    cube3_cubie_t c[TWOPHASE_NORIENT];
    uint32_t cls[TWOPHASE_NORIENT];

    sh->norient = 0;
    for (int o = 0; o < TWOPHASE_NORIENT; o++) {
        bool alike = false;

        twophase__oriented(sh, o, &c[o]);
        cls[o] = flipslice_class(sh->t, &c[o]);
        for (int k = 0; k < sh->norient && !alike; k++) {
            int p = sh->orient[k];

            alike = cls[p] == cls[o] && cubes_alike(&c[p], &c[o]);
        }
        if (!alike) {
            sh->orient[sh->norient++] = (uint8_t)o;
        }
    }
}

/* Computes the phase-1 distances of roots [from, to) of w. */
static void
roots_depth(twophase_worker_t *w, int from, int to)
{
    int c3[TWOPHASE_NROOT][3];
    int h3[TWOPHASE_NROOT];

    for (int i = from; i < to; i++) {
        memcpy(c3[i - from], w->root[i].frame.coord, sizeof(c3[0]));
    }
    twophase__depth1_many(w->sh->t, to - from, c3, h3);
    for (int i = from; i < to; i++) {
        w->root[i].h = h3[i - from];
        w->root[i].frame.dist = h3[i - from];
        w->root[i].level = -1;
        w->root[i].done_below = 0;
        w->root[i].pending = 0;
    }
}

/* Sets up root r for cube c of orientation o with pre-move pre (or -1):
 * everything but the distance. */
static void
root_set(const twophase_shared_t *sh,
         twophase_root_t *r,
         int o,
         int pre,
         const cube3_cubie_t *c)
{
    const twophase_tables_t *t = sh->t;
    twophase_frame_t *f = &r->frame;

    r->o = o;
    r->pre = pre;
    r->extra = pre >= 0 ? sh->cost[pre] : 0;
    f->coord[0] = cube3_twist(c);
    f->coord[1] = cube3_flip(c);
    f->coord[2] = cube3_slice(c);
    f->cs = t->flipslice_sym[f->coord[2] * CUBE3_NFLIP + f->coord[1]];
    f->idx =
        (uint32_t)twophase__index1(t, f->coord[0], f->coord[1], f->coord[2]);
    f->near_idx = twophase__near_find(
        t, twophase__near_key(f->coord[0], f->coord[1], f->coord[2]));
    f->prev = -1;
    f->opened = false;
    for (int i = 0; i < CUBE3_NCORNERS; i++) {
        r->perm[i] = c->cp[i];
    }
    for (int i = 0; i < CUBE3_NEDGES; i++) {
        r->perm[CUBE3_NCORNERS + i] = c->ep[i];
    }
}

/* Adds the pre-moved roots of the worker's orientations (see
 * twophase_root_t) and returns the lowest total they start at. */
static int
roots_add_pre(twophase_worker_t *w)
{
    twophase_shared_t *sh = w->sh;
    int from = w->nroot;
    int lowest = INT_MAX;
    cube3_cubie_t y[TWOPHASE_NPRE];
    uint32_t cls[TWOPHASE_NPRE];

    for (int i = 0; i < from; i++) {
        uint16_t stab = sh->t->flipslice_stab[w->root[i].frame.cs >> 4];
        int first = w->nroot;
        cube3_cubie_t c;

        twophase__oriented(sh, w->root[i].o, &c);
        for (uint32_t rest = PHASE1_END_MOVES; rest != 0; rest &= rest - 1) {
            int m = twophase__lowest_bit(rest);
            int k = w->nroot - first;
            bool alike = false;

            /* (M c) s = solved gives c (s M) = solved. */
            cube3_cubie_multiply(cube3_move_cubie(m), &c, &y[k]);
            root_set(sh, &w->root[w->nroot], w->root[i].o, m, &y[k]);
            cls[k] = w->root[w->nroot].frame.cs >> 4;
            /* When a symmetry S other than the identity keeps c (then
             * it keeps c's flip x slice class representative), M c and
             * (S M S^-1) c are conjugates with the same search: only
             * the first is kept. Random cubes skip the test. */
            for (int j = 0; j < k && !alike && (stab & ~1u) != 0; j++) {
                alike = cls[j] == cls[k] && cubes_alike(&y[j], &y[k]);
            }
            if (!alike) {
                w->nroot++;
            }
        }
    }
    roots_depth(w, from, w->nroot);
    for (int i = from; i < w->nroot; i++) {
        if (w->root[i].h >= 0 && w->root[i].h + w->root[i].extra < lowest) {
            lowest = w->root[i].h + w->root[i].extra;
        }
    }
    return lowest;
}

/*
 * Hands the worker's next task to the idle cursor c: the next first move
 * of the next root at the total (phase-1 length + pre-move) being handed
 * out, the totals in increasing order. Returns TASK_GIVEN, TASK_WAIT when
 * the next total must wait for tasks of this one still running, or
 * TASK_NONE when no total below the best is left.
 */
static int
task_next(twophase_worker_t *w, twophase_cursor_t *c)
{
    twophase_shared_t *sh = w->sh;

    for (;;) {
        int best = atomic_load_explicit(&sh->best, memory_order_relaxed);
        int i = w->next_r;

        if (w->level >= best || w->level >= TWOPHASE_DEPTH_MAX) {
            return TASK_NONE;
        }
        /* The roots take turns, one first move each. */
        for (int k = 0; k < w->nroot; k++) {
            twophase_root_t *r;
            int bound;
            int m;

            i = i + 1 < w->nroot ? i + 1 : 0;
            r = &w->root[i];
            bound = w->level - r->extra;
            if (r->h < 0 || r->h > bound || w->level < r->done_below) {
                continue; /* (h < 0: not reached with a sound table) */
            }
            if (r->level != w->level) {
                /* First task of this root at this total: open it for the
                 * length once (its entry is in cache). */
                r->level = w->level;
                r->frame.togo = bound;
                r->frame.opened = false;
                c->o = r->o;
                c->pre = r->pre;
                c->extra = r->extra;
                memcpy(c->perm[0], r->perm, sizeof(r->perm));
                c->perm_valid = 0;
                c->pend = 0;
                if (bound == 0) {
                    /* The start is in G1: a phase-1 path of length 0. */
                    r->pending = 0;
                    r->done_below = w->level + 1;
                    c->bound = 0;
                    c->depth = -1;
                    w->next_r = i;
                    return TASK_GIVEN; /* the caller runs the end point */
                }
                frame_open(sh, &r->frame);
                r->pending = r->frame.todo;
            }
            if (r->pending == 0) {
                r->done_below = w->level + 1;
                continue;
            }
            m = twophase__lowest_bit(r->pending);
            r->pending &= r->pending - 1;
            c->o = r->o;
            c->pre = r->pre;
            c->extra = r->extra;
            c->bound = bound;
            c->frames[0] = r->frame;
            c->frames[0].todo = 1u << m;
            c->depth = 0;
            memcpy(c->perm[0], r->perm, sizeof(r->perm));
            c->perm_valid = 0;
            c->pend = 0;
            w->next_r = i;
            return TASK_GIVEN;
        }
        for (int j = 0; j < TWOPHASE_NCURSOR; j++) {
            if (w->cursor[j].busy &&
                w->cursor[j].bound + w->cursor[j].extra == w->level) {
                return TASK_WAIT; /* see twophase__run_worker */
            }
        }
        w->level++;
        if (w->level >= w->pre_level && w->nroot <= TWOPHASE_NORIENT) {
            /* No answer from the orientations' shortest lengths: more
             * starts (see twophase_root_t), whose short lengths come
             * before the orientations' longer ones. */
            int lowest = roots_add_pre(w);

            if (lowest < w->level) {
                w->level = lowest;
            }
        }
    }
}

/* Starts handing out tasks from the shortest total of the worker's
 * roots. */
static void
tasks_restart(twophase_worker_t *w)
{
    w->level = TWOPHASE_DEPTH_MAX;
    for (int i = 0; i < w->nroot; i++) {
        twophase_root_t *r = &w->root[i];

        r->level = -1;
        r->done_below = 0;
        r->pending = 0;
        if (r->h >= 0 && r->h + r->extra < w->level) {
            w->level = r->h + r->extra;
        }
    }
    w->next_r = w->nroot - 1;
}

/*
 * The worker's search: its roots' phase-1 trees, split into tasks (one
 * root, one phase-1 length, one first move), handed out in order of total
 * length to TWOPHASE_NCURSOR cursors that take turns a few expansions at
 * a time, like threads would. No total L + 1 task starts before every
 * total L task has: a phase-1 path of length B leads to a total of at
 * most L only with a phase 2 of at most L - B moves, which is the less
 * likely the longer B is, whatever the root, so the shorter lengths of
 * all roots are the cheapest chances and come first. Many open tasks keep
 * many table reads from memory under way at once: a far phase-1 node
 * waits for its entry while the others work.
 */
void
twophase__run_worker(twophase_worker_t *w)
{
    twophase_shared_t *sh = w->sh;
    int lowest = TWOPHASE_DEPTH_MAX;

    w->nroot = 0;
    for (int k = w->first; k < sh->norient; k += w->step) {
        cube3_cubie_t c;

        twophase__oriented(sh, sh->orient[k], &c);
        root_set(sh, &w->root[w->nroot++], sh->orient[k], -1, &c);
    }
    roots_depth(w, 0, w->nroot);
    tasks_restart(w);
    for (int i = 0; i < w->nroot; i++) {
        if (w->root[i].h >= 0 && w->root[i].h < lowest) {
            lowest = w->root[i].h;
        }
    }
    /* Without a target (improve until a limit), the walks are a small
     * part of the budget: the pre-moved roots join at once. */
    w->pre_level = sh->target > 0 ? lowest + TWOPHASE_PRE_AFTER : lowest;
    for (int i = 0; i < TWOPHASE_NCURSOR; i++) {
        w->cursor[i].busy = false;
    }
    for (;;) {
        int busy = 0;
        int next = TASK_GIVEN;

        for (int i = 0; i < TWOPHASE_NCURSOR; i++) {
            twophase_cursor_t *c = &w->cursor[i];

            if (!c->busy) {
                if (next != TASK_GIVEN ||
                    (next = task_next(w, c)) != TASK_GIVEN) {
                    continue;
                }
                c->busy = true;
                if (c->depth < 0 && phase2_start(w, c, 0)) {
                    return; /* a length-0 task: its end point */
                }
            }
            if (cursor_run(w, c, TWOPHASE_QUANTUM) ||
                atomic_load_explicit(&sh->stop, memory_order_relaxed) != 0) {
                return;
            }
            c->busy = c->depth >= 0 || c->pend != 0;
            busy += c->busy;
        }
        if (busy > 0 || next != TASK_NONE) {
            continue;
        }
        if (sh->strict && !w->restarted && atomic_load(&sh->stop) == 0) {
            /* Every total below the target was searched without an
             * answer within it (some perhaps before the time relaxed the
             * limit): search again from the start, now for any answer. */
            relax(sh);
            w->restarted = true;
            tasks_restart(w);
            continue;
        }
        return;
    }
}
