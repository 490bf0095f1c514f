/* SPDX-License-Identifier: MIT */
/* twophase_internal.h - tables shared by the two-phase engine's files. */
#ifndef PZ_SOLVER_TWOPHASE_INTERNAL_H
#define PZ_SOLVER_TWOPHASE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puzzles/cube3/cube3.h"
#include "search.h"

enum {
    TWOPHASE_NMOVES = CUBE3_NMOVES, /* phase-1 moves: the 18 HTM moves */
    TWOPHASE_NMOVES2 = 10,          /* phase-2 moves, see twophase__move2 */
    TWOPHASE_NFLIPSLICE = CUBE3_NFLIP * CUBE3_NSLICE, /* 1,013,760 */
    /* Classes of flip x slice under the 16 symmetries that keep the U-D
     * axis, and of the corner permutation (Kociemba's published counts;
     * the builder checks them). */
    TWOPHASE_NFLIPSLICE_CLASSES = 64430,
    TWOPHASE_NCORNER_CLASSES = 2768,
    /* Entries of the two big pruning tables. */
    TWOPHASE_NPRUNE1 = TWOPHASE_NFLIPSLICE_CLASSES * CUBE3_NTWIST,
    TWOPHASE_NPRUNE2 = TWOPHASE_NCORNER_CLASSES * CUBE3_NUD_EDGE_PERM,
};

/*
 * Every table of the engine, built once per process and read-only after.
 * Raw coordinates are those of cube3.h. "sym" entries pack a class index
 * and the symmetry s (0..15) with conj_s(x) = the class representative:
 * class << 4 | s, where conj_s(x) = S_s * x * S_s^-1.
 */
typedef struct twophase_tables {
    /* Phase-1 move tables: coordinate after each of the 18 moves. */
    uint16_t twist_move[CUBE3_NTWIST][TWOPHASE_NMOVES];
    uint16_t flip_move[CUBE3_NFLIP][TWOPHASE_NMOVES];
    uint16_t slice_move[CUBE3_NSLICE][TWOPHASE_NMOVES];
    /* Phase-2 move tables, by phase-2 move index 0..9. */
    uint16_t corner_move[CUBE3_NCORNER_PERM][TWOPHASE_NMOVES2];
    uint16_t ud_move[CUBE3_NUD_EDGE_PERM][TWOPHASE_NMOVES2];
    uint8_t slice_perm_move[CUBE3_NSLICE_PERM][TWOPHASE_NMOVES2];
    /* Symmetry tables. */
    uint16_t twist_conj[CUBE3_NTWIST][CUBE3_NSYM_UD];
    uint32_t flipslice_sym[TWOPHASE_NFLIPSLICE];         /* class << 4 | s */
    uint32_t flipslice_rep[TWOPHASE_NFLIPSLICE_CLASSES]; /* raw fs */
    uint16_t corner_sym[CUBE3_NCORNER_PERM];             /* class << 4 | s */
    uint16_t corner_rep[TWOPHASE_NCORNER_CLASSES];       /* raw corner perm */
    uint16_t ud_conj[CUBE3_NSYM_UD][CUBE3_NUD_EDGE_PERM];
    /* Pruning: exact phase-1 distance of (flip x slice class, twist) and
     * phase-2 distance of (corner class, U/D edge permutation), 4 bits per
     * entry, the low nibble first; phase 2 saturates at 15. */
    uint8_t *prune1; /* TWOPHASE_NPRUNE1 / 2 bytes */
    uint8_t *prune2; /* TWOPHASE_NPRUNE2 / 2 bytes */
    /* Phase-2 distance of (corner permutation, slice permutation), one
     * byte per entry: corner * 24 + slice perm. */
    uint8_t corner_slice_prune[CUBE3_NCORNER_PERM * CUBE3_NSLICE_PERM];
    /* Axis changes: S = ROT_URF3^a and S^-1 (a = 0..2), and the move
     * S^-1 * M * S of the original frame for each move M of frame a. */
    cube3_cubie_t axis[3];
    cube3_cubie_t axis_inv[3];
    uint8_t axis_move_back[3][TWOPHASE_NMOVES];
    /* Bookkeeping. */
    size_t bytes;    /* everything above */
    double build_ms; /* wall-clock time of the build */
    int status;      /* PZ_OK, or why the build failed */
} twophase_tables_t;

/* HTM move id of phase-2 move k (0..9): U U2 U' R2 F2 D D2 D' L2 B2. */
extern const uint8_t twophase__move2[TWOPHASE_NMOVES2];

/* The tables, built on the first call (any thread; others wait). NULL
 * when the build failed (out of memory). Thread: any. */
const twophase_tables_t *twophase__tables(void);

/* Builders, in the order twophase__tables runs them (coord.c, prune.c). */
void twophase__build_moves(twophase_tables_t *t);
int twophase__build_syms(twophase_tables_t *t);
int twophase__build_prune1(twophase_tables_t *t);
int twophase__build_prune2(twophase_tables_t *t);
void twophase__build_corner_slice(twophase_tables_t *t);

/* Longest phase-1 or phase-2 move sequence the search makes. */
#define TWOPHASE_DEPTH_MAX 48

/* Searches in three axes, each on the cube and on its inverse. */
#define TWOPHASE_NORIENT 6

/* Everything the workers of one solve share. */
typedef struct twophase_shared {
    const twophase_tables_t *t;
    const search_ctx_t *ctx;
    uint8_t cost[TWOPHASE_NMOVES]; /* metric cost: 1, or 2 (QTM half turn) */
    bool qtm;                      /* lengths count quarter turns */
    int target;                    /* stop at best <= target; 0: never */
    int phase2_cap;                /* longest phase 2 tried, metric units */
    bool threaded;                 /* more than one worker */
    cube3_cubie_t cube;            /* the cube to solve: goal^-1 * start */
    atomic_int best;               /* best length found (metric), or limit */
    atomic_int stop;               /* 0, or the status that ends the solve */
    atomic_uint_fast64_t expanded; /* merged counts (threaded) */
    atomic_uint_fast64_t generated;
    pthread_mutex_t lock; /* guards the solution below */
    int found;            /* a solution is stored */
    int nmoves;           /* its HTM moves, in the original frame */
    uint8_t moves[2 * TWOPHASE_DEPTH_MAX];
} twophase_shared_t;

/* One search thread: a set of orientations and its DFS state. */
typedef struct twophase_worker {
    twophase_shared_t *sh;
    search_meter_t meter;
    uint64_t published_expanded; /* counts already merged into sh */
    uint64_t published_generated;
    int first; /* orientations first, first + step, ... */
    int step;
    int orient;      /* the one being searched */
    int bound1;      /* phase-1 length of this iteration */
    int n1;          /* length of the phase-1 path */
    int stack_valid; /* cubes[0..stack_valid] are current */
    uint8_t path1[TWOPHASE_DEPTH_MAX];
    uint8_t path2[TWOPHASE_DEPTH_MAX];
    cube3_cubie_t cubes[TWOPHASE_DEPTH_MAX + 1]; /* cube after path1[0..i) */
} twophase_worker_t;

/* Runs worker w over its orientations until the shared stop is set or
 * every phase-1 depth below the best length is done (dfs.c). */
void twophase__run_worker(twophase_worker_t *w);

/* Records a solution of the orientation being searched (dfs.c calls it;
 * twophase.c owns the frame conversions). moves are in the orientation's
 * frame, HTM ids; length is in metric units. */
void
twophase__record(twophase_worker_t *w, const uint8_t *moves, int n, int length);

/* The cube of orientation o (0..5) of the shared cube. */
void twophase__oriented(const twophase_shared_t *sh, int o, cube3_cubie_t *out);

/* Table lookups used on every node. */
static inline int
twophase__nibble(const uint8_t *table, size_t i)
{
    return table[i >> 1] >> ((i & 1) << 2) & 15;
}

/* Phase-1 distance (exact) of the cube with these raw coordinates. */
static inline int
twophase__dist1(const twophase_tables_t *t, int twist, int flip, int slice)
{
    uint32_t cs = t->flipslice_sym[slice * CUBE3_NFLIP + flip];
    size_t i = (size_t)(cs >> 4) * CUBE3_NTWIST + t->twist_conj[twist][cs & 15];

    return twophase__nibble(t->prune1, i);
}

/* Phase-2 lower bound of a cube in G1. */
static inline int
twophase__dist2(const twophase_tables_t *t, int corner, int ud, int sperm)
{
    uint16_t cs = t->corner_sym[corner];
    size_t i =
        (size_t)(cs >> 4) * CUBE3_NUD_EDGE_PERM + t->ud_conj[cs & 15][ud];
    int a = twophase__nibble(t->prune2, i);
    int b = t->corner_slice_prune[corner * CUBE3_NSLICE_PERM + sperm];

    return a > b ? a : b;
}

#endif
