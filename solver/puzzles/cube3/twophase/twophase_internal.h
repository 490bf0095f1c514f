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
#include "tables.h"

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
    TWOPHASE_TRIT9 = 19683, /* 3^9 */
    /* Ordered positions of four given pieces: among the 8 corner
     * positions (8 * 7 * 6 * 5) and among the 12 edge positions. */
    TWOPHASE_NCORNER4 = 1680,
    TWOPHASE_NEDGE4 = 11880,
};

/* Depth of the near-G1 hash (7,803 raw triples at depth <= 4) and its
 * size, a power of two. */
#define TWOPHASE_NEAR_DEPTH 4
#define TWOPHASE_NEAR_BITS  15
#define TWOPHASE_NEAR_SLOTS (1u << TWOPHASE_NEAR_BITS)
#define TWOPHASE_NEAR_MAX   8192

/* A cube at most TWOPHASE_NEAR_DEPTH from G1 and its neighbours. */
typedef struct twophase_near {
    uint64_t child_dist;          /* 3 bits per move; 7: farther */
    uint16_t child[CUBE3_NMOVES]; /* near[] index; UINT16_MAX: far */
} twophase_near_t;

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
    /* class << 4 | s of each class representative after each move. */
    uint32_t flipslice_class_move[TWOPHASE_NFLIPSLICE_CLASSES][TWOPHASE_NMOVES];
    /* S_a * S_b = S_sym_mult[a][b], and S_s * M * S_s^-1 = M_sym_move[s]
     * (HTM move ids), for the 16 U-D symmetries. */
    uint8_t sym_mult[CUBE3_NSYM_UD][CUBE3_NSYM_UD];
    uint8_t sym_move[CUBE3_NSYM_UD][TWOPHASE_NMOVES];
    /* Bit s set when conj_s keeps the representative's flip x slice. */
    uint16_t flipslice_stab[TWOPHASE_NFLIPSLICE_CLASSES];
    uint16_t corner_sym[CUBE3_NCORNER_PERM];        /* class << 4 | s */
    uint16_t corner_rep[TWOPHASE_NCORNER_CLASSES];  /* raw corner perm */
    uint16_t corner_stab[TWOPHASE_NCORNER_CLASSES]; /* as flipslice_stab */
    uint16_t ud_conj[CUBE3_NSYM_UD][CUBE3_NUD_EDGE_PERM];
    /* Phase-2 distance of (corner permutation, slice permutation), one
     * byte per entry: corner * 24 + slice perm. */
    uint8_t corner_slice_prune[CUBE3_NCORNER_PERM * CUBE3_NSLICE_PERM];
    /* QTM distances (half turns cost 2) of (corner permutation, slice
     * permutation) and (U/D edge permutation, slice permutation): the
     * half-turn tables are weak bounds on quarter-turn lengths. */
    uint8_t corner_slice_qtm[CUBE3_NCORNER_PERM * CUBE3_NSLICE_PERM];
    uint8_t edge_slice_qtm[CUBE3_NUD_EDGE_PERM * CUBE3_NSLICE_PERM];
    /* Phase-2 coordinates along phase-1 paths. A "4-tuple" is the
     * ordered positions of four given pieces (perm_partial_rank): the U
     * corners URF UFL ULB UBR and the D corners; the U edges UR UF UL UB,
     * the D edges and the slice edges FR FL BL BR. A move moves positions
     * whatever the pieces, so one table serves each kind. At a phase-1
     * end point (in G1) the tuples give the phase-2 coordinates. (The
     * search moves plain permutations instead, see TWOPHASE_NPERM; these
     * 0.8 MB are part of layout version 3, checked by the tests, and go
     * when the layout changes for another reason.) */
    uint16_t corner4_move[TWOPHASE_NCORNER4][TWOPHASE_NMOVES];
    uint16_t edge4_move[TWOPHASE_NEDGE4][TWOPHASE_NMOVES];
    /* Relative order (0..23) of a tuple's four positions. */
    uint8_t corner4_order[TWOPHASE_NCORNER4];
    uint8_t edge4_order[TWOPHASE_NEDGE4];
    /* Corner permutation of U corners at uc and D corners in the other
     * four positions in order o: corner_merge[uc][o]. */
    uint16_t corner_merge[TWOPHASE_NCORNER4][24];
    /* U edges at ue (all in positions 0..7): its index 0..1679 for
     * ud_merge, else UINT16_MAX; and the U/D edge permutation with the D
     * edges in the other four of positions 0..7 in order o. */
    uint16_t edge4_ud[TWOPHASE_NEDGE4];
    uint16_t ud_merge[TWOPHASE_NCORNER4][24];
    /* Slice permutation of slice edges at se, or UINT8_MAX when they are
     * not all in the middle layer. */
    uint8_t edge4_sperm[TWOPHASE_NEDGE4];
    /* The slice permutation conjugated by each U-D symmetry, and the
     * corner x slice distance by corner class: corner_slice_sym[class *
     * 24 + sperm_conj[s][sp]] = corner_slice_prune[cp * 24 + sp] when
     * corner_sym[cp] = class << 4 | s (66 KB: stays in cache). */
    uint8_t sperm_conj[CUBE3_NSYM_UD][CUBE3_NSLICE_PERM];
    uint8_t corner_slice_sym[TWOPHASE_NCORNER_CLASSES * CUBE3_NSLICE_PERM];
    /* Decoding of 9 moves' distance changes (a base-3 number, see
     * twophase__phase1): bit k set in bits 0..8 when move k brings the
     * cube one closer to G1, in bits 16..24 when it keeps the distance.
     * (The search decodes with twophase__trit6, which stays cached; these
     * are part of layout version 3 until it changes.) */
    uint32_t trit_masks[TWOPHASE_TRIT9];
    /* Every raw (twist, flip, slice) at most TWOPHASE_NEAR_DEPTH moves
     * from G1 with its distance, in an open-addressing hash keyed by
     * (slice * 2048 + flip) * 2187 + twist: the last levels of the
     * phase-1 tree, by far its widest, read this small cached table
     * instead of the big one. */
    uint32_t near_key[TWOPHASE_NEAR_SLOTS]; /* UINT32_MAX: empty */
    uint8_t near_dist[TWOPHASE_NEAR_SLOTS];
    uint16_t near_index[TWOPHASE_NEAR_SLOTS]; /* into near[] */
    /* The same cubes numbered densely, each with its 18 neighbours, so a
     * frame this close to G1 learns every child's distance at once. */
    twophase_near_t near[TWOPHASE_NEAR_MAX];
    /* Axis changes: S = ROT_URF3^a and S^-1 (a = 0..2), and the move
     * S^-1 * M * S of the original frame for each move M of frame a. */
    cube3_cubie_t axis[3];
    cube3_cubie_t axis_inv[3];
    uint8_t axis_move_back[3][TWOPHASE_NMOVES];
} twophase_tables_t;

/*
 * The tables are one position-independent block of bytes (saved and
 * mapped by solver/tables as the blob TWOPHASE_BLOB_NAME): the struct
 * above, then the two big tables at fixed offsets:
 * - phase 1, one 32-bit word per (flip x slice class, twist) entry: how
 *   each of the 18 moves changes the phase-1 distance of the entry's cube
 *   (the class representative with that twist), as the base-3 number
 *   sum of c_m 3^m, c_m = 0 closer, 1 as far, 2 farther (3^18 < 2^32).
 *   A node's one entry says which children fit, so the search reads one
 *   word per node instead of one per child;
 * - phase 2: distance of (corner class, U/D edge permutation) to solved
 *   corners and U/D edges in G1, 4 bits per entry (low nibble first), at
 *   most 15.
 * Bump TWOPHASE_BLOB_VERSION whenever the layout or a table changes.
 */
#define TWOPHASE_BLOB_NAME     "3x3x3-twophase"
#define TWOPHASE_BLOB_VERSION  3u
#define TWOPHASE_ALIGN_UP(x)   (((x) + (size_t)4095) & ~(size_t)4095)
#define TWOPHASE_PHASE1_BYTES  ((size_t)TWOPHASE_NPRUNE1 * 4)
#define TWOPHASE_PRUNE2_BYTES  (((size_t)TWOPHASE_NPRUNE2 + 1) / 2)
#define TWOPHASE_PHASE1_OFFSET TWOPHASE_ALIGN_UP(sizeof(twophase_tables_t))
#define TWOPHASE_PRUNE2_OFFSET \
    TWOPHASE_ALIGN_UP(TWOPHASE_PHASE1_OFFSET + TWOPHASE_PHASE1_BYTES)
#define TWOPHASE_BLOB_BYTES (TWOPHASE_PRUNE2_OFFSET + TWOPHASE_PRUNE2_BYTES)

/* The phase-1 and phase-2 tables of t (see above). */
static inline const uint32_t *
twophase__phase1(const twophase_tables_t *t)
{
    return (const uint32_t *)(const void *)((const uint8_t *)t +
                                            TWOPHASE_PHASE1_OFFSET);
}

static inline const uint8_t *
twophase__prune2(const twophase_tables_t *t)
{
    return (const uint8_t *)t + TWOPHASE_PRUNE2_OFFSET;
}

/* The same, writable, for the builders. */
static inline uint32_t *
twophase__phase1_mut(twophase_tables_t *t)
{
    return (uint32_t *)(void *)((uint8_t *)t + TWOPHASE_PHASE1_OFFSET);
}

static inline uint8_t *
twophase__prune2_mut(twophase_tables_t *t)
{
    return (uint8_t *)t + TWOPHASE_PRUNE2_OFFSET;
}

/* Decoding of 6 moves' distance changes (a base-3 number, see
 * twophase__phase1): bit k set in bits 0..5 when move k brings the cube
 * one closer to G1, in bits 32..37 when it keeps the distance. Filled
 * once per process by twophase__tables (twophase.c), not part of the
 * blob. */
extern uint64_t twophase__trit6[729];

/* The moves (bits 0..17, in the frame of the entry's representative)
 * that bring the cube of phase-1 entry word e one move closer to G1
 * (*dec) and that keep its distance (*same); the others take it one
 * farther. */
static inline void
twophase__decode1(uint32_t e, uint32_t *dec, uint32_t *same)
{
    /* Six trits at a time from a 5.8 KB table that stays in the
     * first-level cache (the blob's 3^9 masks, 79 KB, did not). */
    uint64_t m = twophase__trit6[e % 729u] |
                 twophase__trit6[e / 729u % 729u] << 6 |
                 twophase__trit6[e / (729u * 729u)] << 12;

    *dec = (uint32_t)m & 0x3ffffu;
    *same = (uint32_t)(m >> 32) & 0x3ffffu;
}

/* HTM move id of phase-2 move k (0..9): U U2 U' R2 F2 D D2 D' L2 B2. */
extern const uint8_t twophase__move2[TWOPHASE_NMOVES2];

/* The tables, loaded or built on the first call (any thread; others
 * wait). NULL when that failed. Thread: any. */
const twophase_tables_t *twophase__tables(void);

/* Allocates size bytes for a table, aligned for huge pages where the
 * system has them. Returns owned memory (free) or NULL. */
void *twophase__table_alloc(size_t size);

/* Builders, in the order twophase__build_all runs them (coord.c,
 * prune.c), each writing into t (zeroed) and its pruning areas. */
void twophase__build_moves(twophase_tables_t *t);
int twophase__build_syms(twophase_tables_t *t);
int twophase__build_prune1(twophase_tables_t *t, tables_build_t *b);
int twophase__build_prune2(twophase_tables_t *t, tables_build_t *b);
void twophase__build_corner_slice(twophase_tables_t *t);
void twophase__build_tuples(twophase_tables_t *t);
int twophase__build_near(twophase_tables_t *t);

/* Fills the zeroed block t (TWOPHASE_BLOB_BYTES) with every table, as
 * build b (progress, cancel, threads; NULL: this thread alone). PZ_OK,
 * PZ_ENOMEM, PZ_ECANCELLED or PZ_EINTERNAL (twophase.c). */
int twophase__build_all(twophase_tables_t *t, tables_build_t *b);

/* The stop value of a QTM seeding pass that found its solution. */
#define TWOPHASE_SEEDED (PZ_STATUS_COUNT_ + 1)

/* Longest phase-1 or phase-2 move sequence the search makes. */
#define TWOPHASE_DEPTH_MAX 48

/* Expansions between two limit checks (the clock read is cheap next to
 * 256 expansions). */
#define TWOPHASE_POLL 256

/* Expansions a cursor searches before the next one's turn (1 to
 * 16 measure alike; 64 and more are slower). */
#define TWOPHASE_QUANTUM 4

/* 1: after entering a phase-1 node from a far one, whose word or near
 * entry comes from memory, the cursor yields to the next one. */
#ifndef TWOPHASE_YIELD
#define TWOPHASE_YIELD 1
#endif

/* Searches in three axes, each on the cube and on its inverse. */
#define TWOPHASE_NORIENT 6

/* Pre-moves per orientation: the quarter turns of R, F, L and B (see
 * twophase_root_t), and the roots of a solve in all. */
#define TWOPHASE_NPRE  8
#define TWOPHASE_NROOT (TWOPHASE_NORIENT * (1 + TWOPHASE_NPRE))

/* A cube's corner and edge permutations in one array, the pieces at
 * each position: cp[0..7], then ep[0..11]. A move m takes p to q with
 * q[i] = p[m.cp[i]] (a product of cubies, without the twists and flips,
 * which are 0 at a phase-1 end point); a face turn moves 4 corners and 4
 * edges, so q is a copy of p with 8 bytes changed: q[move_cyc[m][2k]] =
 * p[move_cyc[m][2k + 1]], k = 0..7. All of it stays in the first-level
 * cache, where 4-tuples moved through tables (corner4_move and the
 * others, 0.8 MB) miss the caches that the phase-1 reads churn. */
#define TWOPHASE_NPERM (CUBE3_NCORNERS + CUBE3_NEDGES)

/* Everything the workers of one solve share. */
typedef struct twophase_shared {
    const twophase_tables_t *t;
    const search_ctx_t *ctx;
    uint8_t cost[TWOPHASE_NMOVES]; /* metric cost: 1, or 2 (QTM half turn) */
    bool qtm;                      /* lengths count quarter turns */
    uint8_t real_cost[TWOPHASE_NMOVES];    /* metric cost of each move */
    uint8_t move_cyc[TWOPHASE_NMOVES][16]; /* see TWOPHASE_NPERM */
    bool seeding;       /* QTM: the quick first pass, see solve */
    bool qtm_bounds;    /* search counts quarter turns */
    int target;         /* stop at best <= target; 0: never */
    int phase2_cap;     /* longest phase 2 tried, metric units */
    bool threaded;      /* more than one worker */
    cube3_cubie_t cube; /* the cube to solve: goal^-1 * start */
    /* The orientations searched: those whose cube is not a U-D symmetry
     * conjugate of an earlier one's (see twophase__orient_distinct). */
    int norient;
    uint8_t orient[TWOPHASE_NORIENT];
    atomic_int best; /* best length found (metric), or limit */
    /* HTM with a target: best starts at target + 1, so phase 2 never
     * searches for answers longer than the target; loose is the limit
     * it would have had, and at relax_ns (half the time budget; 0:
     * never) best goes back to it when nothing was found, once: an
     * answer of target + 1 found after that sets best to the same value,
     * and must not send it back. */
    bool strict;
    int loose;
    uint64_t relax_ns;
    atomic_bool relaxed;
    atomic_int stop;               /* 0, or the status that ends the solve */
    atomic_uint_fast64_t expanded; /* merged counts (threaded) */
    atomic_uint_fast64_t generated;
    pthread_mutex_t lock; /* guards the solution below */
    int found;            /* a solution is stored */
    int nmoves;           /* its HTM moves, in the original frame */
    uint8_t moves[2 * TWOPHASE_DEPTH_MAX];
} twophase_shared_t;

/* One depth of an orientation's phase-1 search. */
typedef struct twophase_frame {
    int coord[3];  /* twist, flip, slice */
    uint32_t cs;   /* flip x slice class << 4 | sym */
    uint32_t idx;  /* phase-1 entry */
    int dist;      /* exact phase-1 distance */
    int togo;      /* moves (metric) left to the end of phase 1 */
    int prev;      /* the move that made this cube, or -1 */
    bool opened;   /* todo and cdist are filled (see frame_open) */
    uint32_t todo; /* moves still to try, as a bit mask */
    bool near;     /* close to G1: children from near[near_idx] */
    int near_idx;  /* near[] index of this cube, or -1 */
    int8_t cdist[TWOPHASE_NMOVES];        /* the children's distances */
    uint16_t child_near[TWOPHASE_NMOVES]; /* near: their near[] indices */
} twophase_frame_t;

/* One search task: the phase-1 subtree of one orientation below one
 * first move at one phase-1 length, resumable at any node so that the
 * cursors of a worker can share its time in small slices (see
 * twophase__run_worker). */
typedef struct twophase_cursor {
    int o;     /* 0..5: axis o % 3, inverse when o >= 3 */
    int pre;   /* the root's pre-move, or -1 */
    int extra; /* its cost (metric), or 0 */
    int bound; /* phase-1 length being searched */
    int depth; /* frames[0..depth] are live; -1: the task is over */
    bool busy; /* holds a task (possibly only a pending end point) */
    uint8_t path1[TWOPHASE_DEPTH_MAX];
    /* The corner and edge permutations after path1[0..i) (see
     * TWOPHASE_NPERM), made only at end points and only from the deepest
     * one still current: perm[0..perm_valid] are. */
    uint8_t perm[TWOPHASE_DEPTH_MAX + 1][TWOPHASE_NPERM];
    int perm_valid;
    /* An end point waiting for its phase-2 table entry: 0 none, 1 and 2
     * the two prefetches issued (see phase2_resume), its path length and
     * corner, U/D edge and slice permutations. */
    int pend;
    int pend_n;
    int pend_coord[3];
    twophase_frame_t frames[TWOPHASE_DEPTH_MAX + 1];
} twophase_cursor_t;

/* Where the searches of one orientation start: its cube c, or for a
 * pre-move M the cube M * c, whose solutions s give the solutions s M of
 * c. Only M that leave G1 (quarter turns of R F L B) change the phase-1
 * coordinates; the others give the same phase-1 paths as c. */
typedef struct twophase_root {
    int o;                  /* orientation 0..5 */
    int pre;                /* pre-move, or -1 */
    int extra;              /* its cost (metric), or 0 */
    int h;                  /* phase-1 distance of the start */
    int level;              /* total length of the tasks handed out last */
    int done_below;         /* every total below it is handed out */
    uint32_t pending;       /* first moves of that length not handed out yet */
    twophase_frame_t frame; /* frame 0, opened for bound */
    uint8_t perm[TWOPHASE_NPERM]; /* the start's permutations */
} twophase_root_t;

/* Search tasks of one worker in progress at once: a phase-1 node far
 * from G1 waits for its table entry from memory, so the more independent
 * tasks are open, the more of those waits overlap (at load about 2: 1
 * cursor 170 ns per node, 8 about 130 ns, 16 no better). */
#ifndef TWOPHASE_NCURSOR
#define TWOPHASE_NCURSOR 8
#endif

/* The pre-moved roots join once the totals reach the shortest phase-1
 * distance of the orientations plus this: walking out their 48 distances
 * takes about 500 steps of two table reads, more than most solves at
 * target 20 need, and 65 % of them end within one length of the
 * shortest (1: 4 % fewer nodes but twice as many solves pay the walks;
 * 3: 10 % more nodes). */
#ifndef TWOPHASE_PRE_AFTER
#define TWOPHASE_PRE_AFTER 2
#endif

/* One search thread: a set of orientations and its DFS state. */
typedef struct twophase_worker {
    twophase_shared_t *sh;
    search_meter_t meter;
    uint64_t published_expanded; /* counts already merged into sh */
    uint64_t published_generated;
    int first; /* orientations sh->orient[first], [first + step], ... */
    int step;
    twophase_cursor_t *cur; /* the cursor running phase 2 */
    int n1;                 /* length of its phase-1 path at phase 2 */
    int level;              /* phase-1 length + extra being handed out */
    int next_r;             /* next root at that length */
    int nroot;              /* roots in use: the orientations, then
                               after pre_level the pre-moved ones */
    int pre_level;          /* level that adds the pre-moved roots */
    bool restarted;         /* searched again after the strict pass */
    uint8_t path2[TWOPHASE_DEPTH_MAX];
    twophase_root_t root[TWOPHASE_NROOT];
    twophase_cursor_t cursor[TWOPHASE_NCURSOR];
} twophase_worker_t;

/* Runs worker w over its orientations until the shared stop is set or
 * every phase-1 depth below the best length is done (dfs.c). */
void twophase__run_worker(twophase_worker_t *w);

/* Records a solution of the orientation being searched (dfs.c calls it;
 * twophase.c owns the frame conversions). moves are in the orientation's
 * frame, HTM ids; length is in metric units. */
void
twophase__record(twophase_worker_t *w, const uint8_t *moves, int n, int length);

/* Sets sh->orient and sh->norient (dfs.c): a cube conjugate to another
 * by one of the 16 symmetries that keep the U-D axis has the same
 * search (moves, G1 and both tables map onto themselves), so of such
 * orientations only the first is searched. A random cube has six
 * distinct ones; the superflip, which every symmetry and its inverse
 * leave unchanged, has one. */
void twophase__orient_distinct(twophase_shared_t *sh);

/* The cube of orientation o (0..5) of the shared cube. */
void twophase__oriented(const twophase_shared_t *sh, int o, cube3_cubie_t *out);

/* Table lookups used on every node. */

#if defined(__GNUC__)
#define TWOPHASE_PREFETCH(p) __builtin_prefetch(p)
#else
#define TWOPHASE_PREFETCH(p) ((void)(p))
#endif

/* Index of the lowest set bit of x (x != 0). */
static inline int
twophase__lowest_bit(uint32_t x)
{
#if defined(__GNUC__)
    return __builtin_ctz(x);
#else
    int i = 0;

    while (!(x >> i & 1u)) {
        i++;
    }
    return i;
#endif
}

/* Entry of the phase-1 table of the cube with these raw coordinates. */
static inline size_t
twophase__index1(const twophase_tables_t *t, int twist, int flip, int slice)
{
    uint32_t cs = t->flipslice_sym[slice * CUBE3_NFLIP + flip];

    return (size_t)(cs >> 4) * CUBE3_NTWIST + t->twist_conj[twist][cs & 15];
}

/* Phase-2 lower bound of a cube in G1: the corner and U/D edge distance
 * (saturated at 15) and the exact corner and slice edge distance; in QTM
 * also the quarter-turn corner and slice, and edge and slice distances. */
/* Index in the phase-2 table (4-bit entries) of corner permutation
 * corner and U/D edge permutation ud: the corner's class row, the edges
 * conjugated by its symmetry. */
static inline size_t
twophase__prune2_index(const twophase_tables_t *t, int corner, int ud)
{
    uint16_t cs = t->corner_sym[corner];

    return (size_t)(cs >> 4) * CUBE3_NUD_EDGE_PERM + t->ud_conj[cs & 15][ud];
}

static inline int
twophase__dist2(const twophase_tables_t *t,
                bool qtm,
                int corner,
                int ud,
                int sperm)
{
    uint16_t cs = t->corner_sym[corner];
    size_t i = twophase__prune2_index(t, corner, ud);
    int a = twophase__prune2(t)[i >> 1] >> ((i & 1) << 2) & 15;
    /* The corner x slice distance by corner class (66 KB) rather than
     * the plain table (0.97 MB): the same value, and it stays cached. */
    int b = t->corner_slice_sym[(cs >> 4) * CUBE3_NSLICE_PERM +
                                t->sperm_conj[cs & 15][sperm]];

    if (b > a) {
        a = b;
    }
    if (qtm) {
        b = t->corner_slice_qtm[corner * CUBE3_NSLICE_PERM + sperm];
        a = b > a ? b : a;
        b = t->edge_slice_qtm[ud * CUBE3_NSLICE_PERM + sperm];
        a = b > a ? b : a;
    }
    return a;
}

/* The key of the near-G1 hash. */
static inline uint32_t
twophase__near_key(int twist, int flip, int slice)
{
    return ((uint32_t)slice * CUBE3_NFLIP + (uint32_t)flip) * CUBE3_NTWIST +
           (uint32_t)twist;
}

/* The first slot probed for key (Fibonacci hashing). */
static inline uint32_t
twophase__near_hash(uint32_t key)
{
    return (uint32_t)(key * 2654435761u) >> (32 - TWOPHASE_NEAR_BITS);
}

/* The hash slot of key (near_key, near_dist, near_index) when the cube
 * is at most TWOPHASE_NEAR_DEPTH from G1, else -1. */
static inline int
twophase__near_slot(const twophase_tables_t *t, uint32_t key)
{
    uint32_t h = twophase__near_hash(key);

    while (t->near_key[h] != key) {
        if (t->near_key[h] == UINT32_MAX) {
            return -1;
        }
        h = (h + 1) & (TWOPHASE_NEAR_SLOTS - 1);
    }
    return (int)h;
}

/* The near[] index of key when it is at most TWOPHASE_NEAR_DEPTH from
 * G1, else -1. */
static inline int
twophase__near_find(const twophase_tables_t *t, uint32_t key)
{
    int h = twophase__near_slot(t, key);

    return h < 0 ? -1 : t->near_index[h];
}

/* Exact phase-1 distance, walking down the table to G1 (dfs.c). */
int
twophase__depth1(const twophase_tables_t *t, int twist, int flip, int slice);

/* The same for n (at most TWOPHASE_NROOT) cubes c[i] = (twist, flip,
 * slice) at once, into h[i]; c is used up. */
void
twophase__depth1_many(const twophase_tables_t *t, int n, int (*c)[3], int *h);

#endif
