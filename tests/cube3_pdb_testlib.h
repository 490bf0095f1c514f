/* SPDX-License-Identifier: MIT */
/* cube3_pdb_testlib.h - helpers shared by the 3x3x3 pattern-database tests. */
#ifndef PZ_TESTS_CUBE3_PDB_TESTLIB_H
#define PZ_TESTS_CUBE3_PDB_TESTLIB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "puzzles/cube3/cube3.h"
#include "puzzles/cube3/pdb.h"
#include "puzzles/cube3/pdb_internal.h"
#include "solve.h"
#include "testlib.h"

/* Every function is static inline so each test file uses what it needs;
 * the puzzle, heuristic and solve helpers are testlib.h's. */

/* The symmetry and coordinate tables, made once per test process. */
static inline pdb_base_t *
tl_pdb_base(void)
{
    static pdb_base_t *pb;

    if (pb == NULL) {
        pb = malloc(sizeof(*pb));
        ck_assert_ptr_nonnull(pb);
        ck_assert_int_eq(cube3_pdb__sym_init(&pb->sy), PZ_OK);
        ck_assert_int_eq(cube3_pdb__coord_init(&pb->co, &pb->sy), PZ_OK);
    }
    return pb;
}

/* The 20 bytes of a uniformly random HTM state from rng. */
static inline void
tl_random_bytes(pz_rng_t *rng, uint8_t *b)
{
    static pz_puzzle_t *p;
    pz_state_t s;

    if (p == NULL) {
        p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    }
    ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, rng, &s), PZ_OK);
    memcpy(b, s.b, 20);
}

/* The solved cube's 20 bytes. */
static inline void
tl_solved_bytes(uint8_t *b)
{
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(3 * i);
    }
    for (int i = 0; i < 12; i++) {
        b[8 + i] = (uint8_t)(2 * i);
    }
}

/* What tl_bfs_run found, and what tl_check_h counted. */
typedef struct tl_bfs {
    uint64_t counts[16]; /* states first reached at each depth */
    size_t n;            /* states kept */
    uint8_t (*node)[20]; /* the states, in BFS order (owned) */
    uint8_t *depth;      /* their depths (owned) */
    uint32_t *slot;      /* hash set: node index + 1, or 0 (owned) */
    size_t nslots;       /* a power of two */
    bool overflow;       /* more than cap states */
    long h_over;         /* tl_check_h: estimates above the distance (or
                            states missing from the set) */
    long h_jump;         /* parent/child estimates more than 1 apart */
    long h_parity;       /* estimates of the other parity than the distance */
    int h_max;           /* largest estimate seen */
} tl_bfs_t;

static inline void
tl_bfs_free(tl_bfs_t *r)
{
    free(r->node);
    free(r->depth);
    free(r->slot);
    r->node = NULL;
    r->depth = NULL;
    r->slot = NULL;
}

/* The slot of state b in r's set (holding it, or the empty one where it
 * would go). */
static inline size_t
tl_find(const pz_puzzle_t *p, const tl_bfs_t *r, const pz_state_t *s)
{
    size_t k = puzzle_hash(p, s) & (r->nslots - 1);

    while (r->slot[k] != 0 && memcmp(r->node[r->slot[k] - 1], s->b, 20) != 0) {
        k = (k + 1) & (r->nslots - 1);
    }
    return k;
}

/*
 * Breadth-first search from start to depth over all moves of p, keeping
 * every state (at most cap; r->overflow when more) in an open-addressing
 * set with its exact distance from start. Hot loops count failures; the
 * caller asserts once.
 */
static inline void
tl_bfs_run(const pz_puzzle_t *p,
           const pz_state_t *start,
           int depth,
           size_t cap,
           tl_bfs_t *r)
{
    size_t layer_start = 0;

    memset(r, 0, sizeof(*r));
    r->nslots = 1;
    while (r->nslots < 2 * cap) {
        r->nslots <<= 1;
    }
    r->node = malloc(cap * sizeof(*r->node));
    r->depth = malloc(cap);
    r->slot = calloc(r->nslots, sizeof(*r->slot));
    ck_assert_ptr_nonnull(r->node);
    ck_assert_ptr_nonnull(r->depth);
    ck_assert_ptr_nonnull(r->slot);
    memcpy(r->node[0], start->b, 20);
    r->depth[0] = 0;
    r->n = 1;
    r->slot[tl_find(p, r, start)] = 1;
    r->counts[0] = 1;
    for (int dd = 0; dd < depth; dd++) {
        size_t layer_end = r->n;

        for (size_t i = layer_start; i < layer_end; i++) {
            pz_state_t s;

            state_clear(&s);
            memcpy(s.b, r->node[i], 20);
            for (int m = 0; m < p->nmoves; m++) {
                pz_state_t t;
                size_t k;

                puzzle_apply(p, &s, m, &t);
                k = tl_find(p, r, &t);
                if (r->slot[k] != 0) {
                    continue;
                }
                if (r->n == cap) {
                    r->overflow = true;
                    return;
                }
                memcpy(r->node[r->n], t.b, 20);
                r->depth[r->n] = (uint8_t)(dd + 1);
                r->slot[k] = (uint32_t)++r->n;
                r->counts[dd + 1]++;
            }
        }
        layer_start = layer_end;
    }
}

/* Depth-first over every pruned move sequence of up to depth moves from
 * s (estimate hs), estimating children through heuristic_update as IDA*
 * does, and counting into r against the distances r holds. */
static inline void
tl_check_dfs(const pz_puzzle_t *p,
             const pz_heuristic_t *h,
             const pz_state_t *s,
             int hs,
             int g,
             int depth,
             int prev,
             tl_bfs_t *r)
{
    uint64_t allowed = puzzle_allowed_after(p, prev);

    if (g == depth) {
        return;
    }
    for (int m = 0; m < p->nmoves; m++) {
        pz_state_t t;
        size_t k;
        int v;
        int d;

        if (!(allowed >> m & 1)) {
            continue;
        }
        puzzle_apply(p, s, m, &t);
        v = heuristic_update(h, s, hs, m, &t);
        k = tl_find(p, r, &t);
        if (r->slot[k] == 0) {
            r->h_over++;
            continue;
        }
        d = r->depth[r->slot[k] - 1];
        r->h_over += v > d;
        r->h_jump += v > hs + 1 || v < hs - 1;
        r->h_parity += (v ^ d) & 1;
        r->h_max = v > r->h_max ? v : r->h_max;
        tl_check_dfs(p, h, &t, v, g + 1, depth, m, r);
    }
}

/* Checks h against the distances of r (a BFS from start to depth). */
static inline void
tl_check_h(const pz_puzzle_t *p,
           const pz_heuristic_t *h,
           const pz_state_t *start,
           int depth,
           tl_bfs_t *r)
{
    int h0 = heuristic_eval(h, start);

    r->h_over = h0 > 0;
    r->h_jump = 0;
    r->h_parity = h0 & 1;
    r->h_max = h0;
    tl_check_dfs(p, h, start, h0, 0, depth, -1, r);
}

/*
 * An admissible HTM heuristic: 0 at the goal and never above the distance
 * within 5 moves (BFS, published counts). With consistent, no move changes
 * it by more than 1 either; without (inverse lookups), only overestimates
 * count. Returns the largest estimate seen.
 */
static inline int
tl_check_admissible_htm_depth_5(const char *heuristic, bool consistent)
{
    static const uint64_t expect[6] = { 1, 18, 243, 3240, 43239, 574908 };
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_heuristic_t *h;
    tl_bfs_t r;
    int hmax;

    puzzle_goal(p, &goal);
    h = tl_admissible(p, heuristic, &goal);
    ck_assert_int_eq(heuristic_eval(h, &goal), 0);
    tl_bfs_run(p, &goal, 5, 700000, &r);
    ck_assert(!r.overflow);
    tl_check_h(p, h, &goal, 5, &r);
    for (int i = 0; i <= 5; i++) {
        ck_assert_uint_eq(r.counts[i], expect[i]);
    }
    ck_assert_int_eq(r.h_over, 0);
    if (consistent) {
        ck_assert_int_eq(r.h_jump, 0);
    }
    hmax = r.h_max;
    tl_bfs_free(&r);
    heuristic_destroy(h);
    puzzle_destroy(p);
    return hmax;
}

/* heuristic against "pdb-small" on n random HTM states (seed): never
 * below it (or below clamp, the largest value heuristic's tables hold),
 * never above 20. Returns on how many it is higher. */
static inline long
tl_check_at_least_small(const char *heuristic, int clamp, uint64_t seed, int n)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, PZ_METRIC_HTM);
    pz_state_t goal;
    pz_heuristic_t *big;
    pz_heuristic_t *small;
    pz_rng_t rng;
    long bad = 0;
    long higher = 0;

    puzzle_goal(p, &goal);
    big = tl_admissible(p, heuristic, &goal);
    small = tl_admissible(p, "pdb-small", &goal);
    pz_rng_seed(&rng, seed);
    for (int i = 0; i < n; i++) {
        pz_state_t s;
        int a;
        int b;

        ck_assert_int_eq(puzzle_random_state(p, pz_rng_next, &rng, &s), PZ_OK);
        a = heuristic_eval(big, &s);
        b = heuristic_eval(small, &s);
        bad += a < (b < clamp ? b : clamp) || a > 20;
        higher += a > b;
    }
    ck_assert_int_eq(bad, 0);
    heuristic_destroy(big);
    heuristic_destroy(small);
    puzzle_destroy(p);
    return higher;
}

/*
 * On count scrambles of base + i % span moves (rng seeded with seed),
 * IDA* with heuristic (1 + i % 2 threads) finds answers exactly as short
 * as ref_engine with ref_heuristic (2 threads), marks them optimal, and
 * they replay to the goal.
 */
static inline void
tl_check_agrees(int metric,
                const char *heuristic,
                const char *ref_engine,
                const char *ref_heuristic,
                uint64_t seed,
                int count,
                int base,
                int span)
{
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, metric);
    pz_state_t goal;
    pz_rng_t rng;

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, seed);
    for (int i = 0; i < count; i++) {
        pz_state_t s;
        pz_state_t end;
        pz_solution_t a;
        pz_solution_t b;

        tl_scramble(p, &goal, base + i % span, &rng, &s);
        a = tl_solve(p, &s, &goal, "idastar", heuristic, 1 + i % 2, NULL);
        b = tl_solve(p, &s, &goal, ref_engine, ref_heuristic, 2, NULL);
        ck_assert_int_eq(a.length, b.length);
        ck_assert(a.optimal);
        ck_assert_int_eq(puzzle_replay(p, &s, a.moves, a.length, &end), PZ_OK);
        ck_assert(puzzle_equal(p, &end, &goal));
    }
    puzzle_destroy(p);
}

/*
 * Starts fixed by symmetries, whose searches use fewer first and second
 * moves (root_moves, root_next_moves): IDA* with heuristic finds answers
 * as short as bibfs in metric (QTM: those of at most 8 quarter turns,
 * where bibfs is quick), and they replay to the goal.
 */
static inline void
tl_check_symmetric_starts(int metric, const char *heuristic)
{
    static const struct {
        const char *scramble;
        bool qtm; /* also in QTM */
    } starts[] = {
        { "R2 L2 U2 D2 F2 B2", false }, /* fixed by many symmetries */
        { "U2 D2 R2 L2", true },
        { "U D'", true },
        { "F2 B2 U D' R2 L2 U D'", false }, /* four spots */
        { "U D' R L' F B' U D'", true },    /* six spots */
    };
    pz_puzzle_t *p = tl_make("3x3x3", 0, 0, metric);
    pz_state_t goal;
    int n = (int)(sizeof(starts) / sizeof(starts[0]));

    puzzle_goal(p, &goal);
    for (int i = 0; i < n; i++) {
        pz_state_t s;
        pz_state_t end;
        pz_solution_t a;
        pz_solution_t b;

        if (metric == PZ_METRIC_QTM && !starts[i].qtm) {
            continue;
        }
        ck_assert_int_eq(puzzle_parse_scramble(p, starts[i].scramble, &s, NULL),
                         PZ_OK);
        ck_assert_uint_ne(cube3_pdb_root_moves(p, &s, &goal),
                          p->allowed_after[p->nmoves]);
        a = tl_solve(p, &s, &goal, "idastar", heuristic, 1 + i % 2, NULL);
        b = tl_solve(p, &s, &goal, "bibfs", "none", 1, NULL);
        ck_assert_int_eq(a.length, b.length);
        ck_assert_int_eq(puzzle_replay(p, &s, a.moves, a.length, &end), PZ_OK);
        ck_assert(puzzle_equal(p, &end, &goal));
    }
    puzzle_destroy(p);
}

/* The inverse cube of state s. */
static inline void
tl_inverse(const pz_state_t *s, pz_state_t *out)
{
    cube3_cubie_t c;

    ck_assert_int_eq(cube3_cubie_from_state(s, &c), PZ_OK);
    cube3_cubie_inverse(&c, &c);
    cube3_cubie_to_state(&c, out);
}

#endif
