/* SPDX-License-Identifier: MIT */
/* puzzle.h - the puzzle interface, its registry and the engines' wrappers.
 * Size: one contract that every puzzle, engine and table builder reads
 * (the core, its optional capabilities, move subsets and masked goals),
 * with the inline wrappers the engines call on their hot paths. */
#ifndef PZ_SOLVER_PUZZLE_H
#define PZ_SOLVER_PUZZLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pz_error.h"
#include "pz_rng.h"
#include "state.h"

/* Most moves any puzzle has (masks of moves are uint64_t). */
#define PZ_MOVES_MAX 64

/* Turn metrics. Puzzles with one kind of move ignore the metric. */
typedef enum pz_metric {
    PZ_METRIC_DEFAULT = 0, /* the puzzle's default */
    PZ_METRIC_HTM,         /* half-turn metric: quarter and half turns */
    PZ_METRIC_QTM,         /* quarter-turn metric */
    PZ_METRIC_MOVES,       /* one move per tile slide / vertex turn */
} pz_metric_t;

/* Parameters that pick a puzzle instance. Zero fields take the default of
 * the registry entry or alias ("15-puzzle" sets 4x4). */
typedef struct pz_params {
    int rows;   /* tiles: board rows, 2..8 */
    int cols;   /* tiles: board columns, 2..8 */
    int metric; /* pz_metric_t */
} pz_params_t;

/*
 * A state as the caller received it, before any validation. The api layer
 * flattens JSON arrays (row-major) into ints and records their shape; no
 * JSON reaches the solver.
 */
typedef struct pz_input {
    const char *text; /* string form, or NULL */
    const int *ints;  /* integer form, or NULL */
    size_t nints;     /* number of ints */
    int ndims;        /* dimensions of the array the ints came from, 1..3 */
    int shape[3];     /* extent of each dimension */
} pz_input_t;

typedef struct pz_puzzle pz_puzzle_t;
typedef struct heuristic_ops heuristic_ops_t;
struct engine_ops;    /* engine.h */
struct engine_choice; /* engine.h */
struct tables_def;    /* tables/tables.h */

/*
 * Reading and writing a puzzle's states and moves: what the api layer and
 * the CLI need to take input and print answers. Reached through the
 * puzzle_* wrappers below.
 */
typedef struct puzzle_io {
    const char *notation;    /* one line: how moves are written */
    const char *state_forms; /* one line: accepted state inputs */
    /* Parses and fully validates a state (codes in pz_error.h). */
    int (*parse_state)(const pz_puzzle_t *p,
                       const pz_input_t *in,
                       pz_state_t *out,
                       pz_diag_t *d);
    /* Applies a scramble in the puzzle's notation to *state (PZ_EMOVE with
     * d->position on a bad token). */
    int (*apply_scramble)(const pz_puzzle_t *p,
                          const char *text,
                          pz_state_t *state,
                          pz_diag_t *d);
    /* Writes the state's canonical string form; returns its length or
     * PZ_EINVAL when len is too small. */
    int (*format_state)(const pz_puzzle_t *p,
                        const pz_state_t *s,
                        char *buf,
                        size_t len);
    /* Optional: checks start can reach goal (PZ_EUNSOLVABLE etc.). NULL:
     * always. */
    int (*check_pair)(const pz_puzzle_t *p,
                      const pz_state_t *start,
                      const pz_state_t *goal,
                      pz_diag_t *d);
    /* Optional: extra description of move played in state before (tiles:
     * the number of the tile that slides). Returns it, or -1. */
    int (*move_detail)(const pz_puzzle_t *p,
                       const pz_state_t *before,
                       int move);
    /* Optional: true for a move that scrambles write after all the others
     * (the pyraminxes' tips, which commute with every move). */
    bool (*move_last)(const pz_puzzle_t *p, int move);
} puzzle_io_t;

/*
 * Perfect indexing, for complete distance tables. count is the number of
 * indices; rank maps a state to 0..count-1 and unrank back. A puzzle may
 * rank a projection of its state (the pyraminx ranks everything but the
 * tips): then partial is true and states of equal rank differ only in
 * parts that moves the puzzle documents (tips) can fix independently.
 */
typedef struct puzzle_ranking {
    uint64_t (*count)(const pz_puzzle_t *p);
    uint64_t (*rank)(const pz_puzzle_t *p, const pz_state_t *s);
    void (*unrank)(const pz_puzzle_t *p, uint64_t index, pz_state_t *out);
    bool partial;
    /* Bits per table entry to try first (4 or 8; 0: 4). A build that
     * finds a distance too large for 4 bits widens to 8 anyway. */
    int distance_bits;
    /*
     * Optional, so that tables built for the default goal serve other
     * goals: writes to *out the state that is as far from the default
     * goal, by the same move sequences, as s is from goal. Pieces are
     * renamed after their places in goal; moves act on places, so they
     * commute with the renaming. Returns false when goal is not the
     * default goal up to such a renaming (tiles: the blank's goal cell
     * differs). NULL: only the default goal uses shared tables.
     */
    bool (*relabel)(const pz_puzzle_t *p,
                    const pz_state_t *goal,
                    const pz_state_t *s,
                    pz_state_t *out);
} puzzle_ranking_t;

/*
 * A run of state bytes that each hold piece * orientations + orientation
 * of the piece at one place, for the pieces of one kind (corners, edges,
 * tiles). Moves send the run's bytes to its own bytes, whatever the other
 * bytes hold: the run alone, or its pieces' places alone, or their
 * orientations alone, is a smaller puzzle that moves act on. Listed in
 * puzzle_ops_t pieces; checks of reachability under a move subset
 * search these smaller puzzles (subset.c).
 */
typedef struct puzzle_pieces {
    const char *name;     /* "corners"; NULL ends the list */
    uint8_t offset;       /* first byte */
    uint8_t count;        /* bytes; 0: to the end of the state */
    uint8_t orientations; /* 1: places only */
    bool rigid;           /* each move moves the same places in every state (a
                             twisty puzzle's turns; not a tile's slide) */
    /* With count 0: bytes at the end of the state that hold no piece
     * (the tiles' blank cell index). */
    uint8_t tail;
    /* Piece names for goals that care about some pieces (puzzle_mask),
     * indexed by piece; NULL: the piece numbers. */
    const char *const *names;
} puzzle_pieces_t;

/* A named goal that cares about some pieces only: the speedcubers'
 * sub-goals (puzzle_ops_t presets). */
typedef struct puzzle_preset {
    const char *name;    /* "cross"; NULL ends the list */
    const char *pieces;  /* piece names, space-separated */
    const char *summary; /* one line */
} puzzle_preset_t;

/* Most kinds of pieces a puzzle declares. */
#define PUZZLE_RUNS_MAX 4

/*
 * A goal that cares about some pieces only. Every piece it does not care
 * about is renamed to one wildcard piece of its kind, without its
 * orientation, and the pieces it cares about for their orientation only
 * to one piece of their class, with it: code[i][v] is what byte i holding
 * v becomes. Moves act on
 * places, so renaming commutes with them: the renamed states form a
 * smaller puzzle (a quotient) whose goal is one state, and a solution of
 * it is exactly a solution of the partial goal. A masked instance renames
 * after every move (puzzle_apply), so every engine searches the quotient
 * unchanged.
 */
typedef struct puzzle_care {
    uint64_t full[PUZZLE_RUNS_MAX];    /* per kind of piece, bit per piece:
                                          place and orientation */
    uint64_t classed[PUZZLE_RUNS_MAX]; /* orientation only: these pieces
                                          are one class, any of them may
                                          stand in any of their places */
} puzzle_care_t;

typedef struct puzzle_mask {
    uint8_t code[PZ_STATE_MAX][256];
    puzzle_care_t care; /* what the goal cares about */
    int cared_count;    /* pieces cared about, in full or classed */
    /* The sliding blank's cell is free in the goal (the request did not
     * name it): any state that differs from the goal only in where the
     * blank and the wildcard pieces stand is a goal (puzzle_is_goal). */
    bool free_blank;
    int wild_code[PUZZLE_RUNS_MAX]; /* the byte of a wildcard, or -1 */
} puzzle_mask_t;

/* Symmetries that fix a search's start and goal, to prune its root. */
typedef struct puzzle_symmetry {
    /*
     * The first moves a search from start to goal must try, a subset of
     * allowed_after[nmoves] (never empty). A puzzle whose symmetries fix
     * both start and goal may keep one move of each class the
     * symmetries map onto each other, since their subtrees hold
     * solutions of the same lengths (the superflip: 2 of 18).
     */
    uint64_t (*root_moves)(const pz_puzzle_t *p,
                           const pz_state_t *start,
                           const pz_state_t *goal);
    /*
     * Optional: writes to next[m], for every move m, the second moves a
     * search must try after the first move m, a subset of
     * allowed_after[m] (never empty): the same reduction by the
     * symmetries that also fix m, where it is safe with the order
     * allowed_after imposes. NULL: all of allowed_after[m].
     */
    void (*root_next_moves)(const pz_puzzle_t *p,
                            const pz_state_t *start,
                            const pz_state_t *goal,
                            uint64_t *next);
} puzzle_symmetry_t;

/* A uniformly random legal state. */
typedef struct puzzle_random {
    int (*state)(const pz_puzzle_t *p,
                 pz_rand_fn rand,
                 void *rng,
                 pz_state_t *out);
} puzzle_random_t;

/*
 * A finite automaton over move strings that prunes duplicate paths
 * (strings that an earlier string of the same effect replaces wherever
 * they are legal). State 0 stands for the empty string; from state q,
 * move m leads to state next[q * nmoves + m], or is pruned when that is
 * negative. Every state keeps a path as short as its distance, so an
 * optimal search stays optimal; one that counts every optimal solution,
 * or takes one first move per symmetry class, must not use it. The
 * search also applies allowed_after, so a puzzle with redundant pairs
 * must order the strings its automaton keeps the way its redundancy rule
 * does (the tiles have none).
 */
typedef struct puzzle_fsm {
    int nstates;
    int nmoves;
    int depth;           /* longest duplicate string pruned */
    int duplicates;      /* minimal duplicate strings it prunes */
    const int16_t *next; /* at most INT16_MAX states */
} puzzle_fsm_t;

/*
 * How a puzzle is best solved, where the generic choice is not the best:
 * its own solvers, its shared tables, and what `auto` picks.
 */
typedef struct puzzle_solving {
    /* Solvers of this puzzle alone, NULL-terminated (the 3x3x3's
     * two-phase): engine_find_for finds them by name beside the generic
     * engines. NULL: none. */
    const struct engine_ops *const *solvers;
    /* Optional: writes at most max definitions of the puzzle's named
     * shared tables (complete tables of its usual sizes, pattern
     * databases, a solver's tables) and returns how many it wrote; the
     * tables module lists them by name (solve_named_tables). */
    int (*named_tables)(struct tables_def *out, int max);
    /*
     * Optional: the whole `auto` choice for p and goal (engine_auto),
     * for a puzzle whose best engine depends on its size (tiles). Fills
     * *out and returns true, or returns false for the generic choice.
     */
    bool (*auto_choice)(const pz_puzzle_t *p,
                        const pz_state_t *goal,
                        bool optimal,
                        struct engine_choice *out);
    /*
     * For spaces far too large for bidirectional BFS: what the generic
     * `auto` choice uses instead. fast_engine answers any state quickly
     * but not optimally (an engine name); optimal_heuristic proves optima
     * with IDA* (a name in heuristics). NULL: bidirectional BFS.
     */
    const char *fast_engine;
    const char *optimal_heuristic;
    /* Optional: heuristics that prove optima faster than
     * optimal_heuristic with larger tables, strongest first,
     * NULL-terminated. With optimal, `auto` takes the first whose tables
     * are all built (in memory or in files) and fit under the tables'
     * memory cap; none: optimal_heuristic, which the request then waits
     * for or builds. */
    const char *const *optimal_heuristics;
    /* Optional: false when heuristic (one of optimal_heuristics) is a
     * poor choice from start to goal although its tables are there (its
     * pattern cannot see how far start is); `auto` then takes the next.
     * NULL: every one suits every start. */
    bool (*optimal_suits)(const pz_puzzle_t *p,
                          const char *heuristic,
                          const pz_state_t *start,
                          const pz_state_t *goal);
    /* Optional: whether a request that does not say proves optima by
     * default (quick to prove for p). NULL: where a complete table can
     * be had. */
    bool (*optimal_by_default)(const pz_puzzle_t *p);
    /* Optional: a quick answer from start to goal, not optimal (the
     * tiles: placed a few tiles at a time), into moves (room for max);
     * returns its length, or -1 when there is none. Reached through
     * puzzle_quick_solve. */
    int (*quick_solve)(const pz_puzzle_t *p,
                       const pz_state_t *start,
                       const pz_state_t *goal,
                       uint8_t *moves,
                       int max);
    /* Optional: the automaton that prunes p's duplicate move strings
     * (puzzle_fsm_t), or NULL. Reached through puzzle_move_fsm. */
    const puzzle_fsm_t *(*move_fsm)(const pz_puzzle_t *p);
} puzzle_solving_t;

/* Most corners of one shape of a picture. */
#define PUZZLE_SHAPE_POINTS 6
/* Most shapes of one picture (an 8x8 board, a Master Pyraminx: 64). */
#define PUZZLE_PICTURE_SHAPES 96
/* Bytes of a shape's label, with its NUL. */
#define PUZZLE_LABEL_MAX 8
/* A shape drawn as an outline only (the blank of a sliding-tile board). */
#define PUZZLE_NO_FILL 0xFFFFFFFFu

/* The usual sticker colours, 0xRRGGBB. */
#define PUZZLE_RGB_WHITE  0xFFFFFFu
#define PUZZLE_RGB_YELLOW 0xFFD500u
#define PUZZLE_RGB_RED    0xC41E3Au
#define PUZZLE_RGB_ORANGE 0xFF5800u
#define PUZZLE_RGB_GREEN  0x009E60u
#define PUZZLE_RGB_BLUE   0x0051BAu

/* One filled polygon of a picture, in the picture's units. */
typedef struct puzzle_shape {
    int npoints;                   /* 3..PUZZLE_SHAPE_POINTS */
    double x[PUZZLE_SHAPE_POINTS]; /* 0..width, growing to the right */
    double y[PUZZLE_SHAPE_POINTS]; /* 0..height, growing downwards */
    uint32_t rgb;                  /* fill 0xRRGGBB, or PUZZLE_NO_FILL */
    char label[PUZZLE_LABEL_MAX];  /* text at the centre ("12"), or "" */
    /* The element of the state's text form this shape shows: the index of
     * a facelet's character, or of a tile's number among the numbers; -1
     * for none. A picture editor changes that element. */
    int sticker;
} puzzle_shape_t;

/* A picture of a state: shapes in drawing order inside an extent. */
typedef struct puzzle_picture {
    double width;  /* extent in the puzzle's own units, > 0 */
    double height; /* likewise */
    int nshapes;   /* 0..PUZZLE_PICTURE_SHAPES */
    puzzle_shape_t shape[PUZZLE_PICTURE_SHAPES];
} puzzle_picture_t;

/*
 * Pictures of states, for people: a puzzle describes a state as shapes in
 * its own unit coordinates (stickers of a net, cells of a board), read off
 * its own state representation. Nothing here knows a picture format.
 */
typedef struct puzzle_draw {
    /* Fills *out (given empty: no shapes, no extent) with the picture of
     * s, a valid state. Returns PZ_OK, or PZ_EINTERNAL when the shapes do
     * not fit (a bug). */
    int (*picture)(const pz_puzzle_t *p,
                   const pz_state_t *s,
                   puzzle_picture_t *out);
} puzzle_draw_t;

/*
 * What each puzzle implements (one folder under solver/puzzles/ and one
 * line in the registry in puzzle.c): a small core every puzzle fills in,
 * and capabilities a puzzle offers or leaves NULL. Engines never call
 * these directly: they use the wrappers below.
 */
struct puzzle_ops {
    const char *name;              /* registry key: "tiles", "2x2x2" */
    const char *summary;           /* one line for the catalogue */
    const char *default_heuristic; /* strongest admissible cheap one */
    size_t priv_size; /* bytes of p->priv puzzle_create allocates, zeroed,
                         before init (and frees); 0: none */

    /* Fills p->size, metric, metric_name, state_size, nmoves and
     * p->priv from params; PZ_ESIZE/PZ_EMETRIC with d on bad params. */
    int (*init)(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d);
    /* Optional: frees what init allocated beyond p->priv. Called once,
     * also after a failed init. */
    void (*cleanup)(pz_puzzle_t *p);
    /* The default goal (solved). */
    void (*goal)(const pz_puzzle_t *p, pz_state_t *out);
    /* Applies move (0..nmoves-1) to s, writing out (s may equal out).
     * Returns false, leaving out unspecified, for a move that is illegal in
     * s (a tile move off the board). Hot path. */
    bool (*apply)(const pz_puzzle_t *p,
                  const pz_state_t *s,
                  int move,
                  pz_state_t *out);
    /* The move that undoes move. */
    int (*inverse)(const pz_puzzle_t *p, int move);
    /* Optional: true when next right after prev is never needed in a
     * shortest solution (same face twice, commuting faces out of order).
     * The inverse of prev is excluded separately. NULL: nothing
     * redundant. */
    bool (*redundant)(const pz_puzzle_t *p, int prev, int next);
    /* Standard notation of move ("R'", "U2", "L"). Static string. */
    const char *(*move_name)(const pz_puzzle_t *p, int move);
    /* Puzzle-specific heuristics, NULL-terminated ("none" is generic). */
    const heuristic_ops_t *const *heuristics;

    const puzzle_io_t *io;             /* NULL: no text input or output */
    const puzzle_ranking_t *ranking;   /* NULL: no complete tables */
    const puzzle_symmetry_t *symmetry; /* NULL: all root moves */
    const puzzle_random_t *random;     /* NULL: random moves only */
    const puzzle_solving_t *solving;   /* NULL: the generic choices */
    const puzzle_draw_t *draw;         /* NULL: no pictures */
    const puzzle_pieces_t *pieces;     /* NULL: none declared */
    const puzzle_preset_t *presets;    /* NULL: none */
};

typedef struct puzzle_ops puzzle_ops_t;

/*
 * A puzzle instance: one registry entry with its parameters. Created by
 * puzzle_create, read-only afterwards and shared by any number of searches
 * on any threads. Only the puzzle's own files write the fields (in init).
 */
struct pz_puzzle {
    const puzzle_ops_t *ops;
    char id[24];             /* canonical name: "tiles", "2x2x2" */
    char size[16];           /* the instance's size when it has several
                                ("4x4"), else empty */
    pz_params_t params;      /* the parameters it was created with, as
                                init settled them */
    int metric;              /* pz_metric_t actually in use */
    const char *metric_name; /* "htm", "qtm", "moves" */
    size_t state_size;       /* meaningful bytes of a pz_state_t */
    int nmoves;              /* move ids are 0..nmoves-1, <= PZ_MOVES_MAX */
    void *priv;              /* ops->priv_size bytes, the puzzle's own */
    /* allowed_after[m]: moves that may follow move m in a pruned search;
     * allowed_after[nmoves]: moves allowed at the root (all). Filled by
     * puzzle_create from ops->inverse and ops->redundant. */
    uint64_t allowed_after[PZ_MOVES_MAX + 1];
    /* 0, or the moves a restricted instance may use (puzzle_restrict):
     * allowed_after holds no other move, and the root takes no symmetry
     * reduction (a class's representative may be outside the subset). */
    uint64_t subset;
    /* NULL, or the goal's mask (puzzle_mask_care; owned): states are
     * renamed after every move. */
    puzzle_mask_t *mask;
};

/*
 * Looks up name (case-insensitive; "tiles", "2x2x2" and aliases such as
 * "15-puzzle" or "pocket") and creates the instance. Alias parameters fill
 * the zero fields of params (params may be NULL). Returns owned *out (free
 * with puzzle_destroy); PZ_EPUZZLE for an unknown name, PZ_ESIZE,
 * PZ_EMETRIC or PZ_ENOMEM otherwise, with d filled and *out NULL.
 * Thread: any.
 */
int puzzle_create(const char *name,
                  const pz_params_t *params,
                  pz_puzzle_t **out,
                  pz_diag_t *d);

/* Frees p; NULL is fine. */
void puzzle_destroy(pz_puzzle_t *p);

/* --- move subsets (subset.c) --- */

/* The presets of goals p offers (puzzle_preset_t), or NULL. */
static inline const puzzle_preset_t *
puzzle_presets(const pz_puzzle_t *p)
{
    return p->ops->presets;
}

/* The kinds of pieces p declares (puzzle_pieces_t), or NULL. */
static inline const puzzle_pieces_t *
puzzle_pieces(const pz_puzzle_t *p)
{
    return p->ops->pieces;
}

/*
 * Adds to *moves the moves token names: a move's exact name ("R2",
 * "U'"), or a face, axis or tile move without its turn suffix ("R"
 * means R, R2 and R' in HTM, R and R' in QTM). PZ_OK, or PZ_EMOVE with
 * d filled when no move has that name. Thread: any.
 */
int puzzle_moves_add(const pz_puzzle_t *p,
                     const char *token,
                     uint64_t *moves,
                     pz_diag_t *d);

/*
 * Restricts p to moves (a mask of move ids): searches on p use only those
 * moves and solutions are optimal among them. The set must hold the
 * inverse of each of its moves (searches from the goal side and the
 * reachability checks need it). Restricting to every move changes
 * nothing. PZ_OK, or PZ_EMOVE with d filled (empty, or a move without its
 * inverse). Thread: the creator's, before p is shared.
 */
int puzzle_restrict(pz_puzzle_t *p, uint64_t moves, pz_diag_t *d);

/* --- goals that care about some pieces (mask.c) --- */

/*
 * Makes p a masked instance whose goal cares about the pieces names lists
 * only: piece names of p's kinds of pieces (puzzle_pieces_t names, or
 * numbers), or preset names (puzzle_ops_t presets), each adding its
 * pieces; a name with a leading '~' cares about the piece's orientation
 * only (the '~' pieces of a kind are interchangeable: OLL's last layer).
 * Orientation counts for the pieces it cares about. A piece that
 * must always be kept (the tiles' blank, piece 0 of a kind without
 * orientations that is not rigid) is added. Then rename start and goal
 * with puzzle_mask_state. PZ_OK; PZ_EUNSUPPORTED when p declares no
 * pieces; PZ_EINVAL with d filled for an unknown name; PZ_ENOMEM.
 * Thread: the creator's, before p is shared.
 */
int
puzzle_mask_care(pz_puzzle_t *p, const char *const *names, int n, pz_diag_t *d);

/* Renames s in place with p's mask (nothing without one). */
void puzzle_mask_state(const pz_puzzle_t *p, pz_state_t *s);

/* Writes the name of piece `piece` of kind `run` into buf. */
void puzzle_piece_name(const pz_puzzle_t *p,
                       int run,
                       int piece,
                       char *buf,
                       size_t len);

/* Bytes of the state that hold pieces of run, from run->offset. */
size_t puzzle_run_bytes(const pz_puzzle_t *p, const puzzle_pieces_t *run);

/* Most distinct values one reachability check explores per kind of piece
 * (each a few bytes; the checks of a request take at most a few ms). */
#define PUZZLE_REACH_MAX 6144

/*
 * Whether start can reach goal with the moves of a restricted p, decided
 * cheaply where the puzzle declares its pieces (puzzle_pieces_t): pieces
 * that no allowed move touches must be in place, and for each kind of
 * piece the places alone and the orientations alone must be reachable by
 * a breadth-first search of at most PUZZLE_REACH_MAX values. PZ_OK when
 * reachable or not decided; PZ_EUNREACHABLE with d naming what differs
 * when proven unreachable; PZ_ENOMEM. Thread: any.
 */
int puzzle_subset_reachable(const pz_puzzle_t *p,
                            const pz_state_t *start,
                            const pz_state_t *goal,
                            pz_diag_t *d);

/* The registry entry for name or alias, or NULL. Static. Thread: any. */
const puzzle_ops_t *puzzle_find(const char *name);

/* NULL-terminated registry of every puzzle. Static. Thread: any. */
const puzzle_ops_t *const *puzzle_registry(void);

/* Alias table entry: an alternative name and the parameters it implies. */
typedef struct puzzle_alias {
    const char *alias;  /* "15-puzzle" */
    const char *target; /* "tiles" */
    int rows;
    int cols;
    bool event; /* the puzzle's event id: WCA's ("333"), or ours */
} puzzle_alias_t;

/* NULL-terminated alias table (ends with alias == NULL). Thread: any. */
const puzzle_alias_t *puzzle_aliases(void);

/* The event id of p (puzzle_alias_t.event: "222", "333", "pyram",
 * "15-puzzle"), or its id where none is set. Thread: any. */
const char *puzzle_event_id(const pz_puzzle_t *p);

/* --- Wrappers used by engines (the only way engines reach a puzzle) --- */

static inline bool
puzzle_apply(const pz_puzzle_t *p,
             const pz_state_t *s,
             int move,
             pz_state_t *out)
{
    if (!p->ops->apply(p, s, move, out)) {
        return false;
    }
    if (p->mask != NULL) {
        for (size_t i = 0; i < p->state_size; i++) {
            out->b[i] = p->mask->code[i][out->b[i]];
        }
    }
    return true;
}

static inline int
puzzle_inverse(const pz_puzzle_t *p, int move)
{
    return p->ops->inverse(p, move);
}

static inline const char *
puzzle_move_name(const pz_puzzle_t *p, int move)
{
    return p->ops->move_name(p, move);
}

static inline void
puzzle_goal(const pz_puzzle_t *p, pz_state_t *out)
{
    state_clear(out);
    p->ops->goal(p, out);
}

/* Moves allowed after prev (prev = -1 or nmoves: at the root). */
static inline uint64_t
puzzle_allowed_after(const pz_puzzle_t *p, int prev)
{
    return p->allowed_after[prev < 0 ? p->nmoves : prev];
}

/* True when a and b are the same state of p. */
static inline bool
puzzle_equal(const pz_puzzle_t *p, const pz_state_t *a, const pz_state_t *b)
{
    return state_equal(a, b, p->state_size);
}

/* True when a and b are alike but for where the blank and the wildcards
 * stand, under mask m (mask.c). */
bool puzzle_mask_free_equal(const pz_puzzle_t *p,
                            const puzzle_mask_t *m,
                            const uint8_t *a,
                            const uint8_t *b);

/* True when s reaches goal: the same state, or for a masked goal whose
 * blank is free, the same but for the blank's cell. Engines test goals
 * with it. */
static inline bool
puzzle_is_goal(const pz_puzzle_t *p,
               const pz_state_t *s,
               const pz_state_t *goal)
{
    if (p->mask != NULL && p->mask->free_blank) {
        return puzzle_mask_free_equal(p, p->mask, s->b, goal->b);
    }
    return state_equal(s, goal, p->state_size);
}

static inline uint64_t
puzzle_hash(const pz_puzzle_t *p, const pz_state_t *s)
{
    return state_hash_bytes(s->b, p->state_size);
}

/* --- Capabilities: wrappers that answer for a puzzle without them --- */

/* The puzzle's capabilities (an empty one when it has none). */
extern const puzzle_solving_t puzzle_solving_none;

static inline const puzzle_solving_t *
puzzle_solving(const pz_puzzle_t *p)
{
    return p->ops->solving != NULL ? p->ops->solving : &puzzle_solving_none;
}

/* A quick answer from start to goal (puzzle_solving_t quick_solve), or
 * -1: none for the puzzle, for a restricted instance or a masked goal. */
static inline int
puzzle_quick_solve(const pz_puzzle_t *p,
                   const pz_state_t *start,
                   const pz_state_t *goal,
                   uint8_t *moves,
                   int max)
{
    const puzzle_solving_t *s = puzzle_solving(p);

    if (s->quick_solve == NULL || p->subset != 0 || p->mask != NULL) {
        return -1;
    }
    return s->quick_solve(p, start, goal, moves, max);
}

/* The automaton that prunes p's duplicate move strings
 * (puzzle_solving_t move_fsm), or NULL: none for the puzzle or for a
 * restricted instance (its earlier strings may use other moves). */
static inline const puzzle_fsm_t *
puzzle_move_fsm(const pz_puzzle_t *p)
{
    const puzzle_solving_t *s = puzzle_solving(p);

    const puzzle_fsm_t *f;

    if (s->move_fsm == NULL || p->subset != 0) {
        return NULL;
    }
    f = s->move_fsm(p);
    return f != NULL && f->nmoves == p->nmoves ? f : NULL;
}

/* The name of the heuristic p uses when a request names none. */
static inline const char *
puzzle_default_heuristic(const pz_puzzle_t *p)
{
    return p->ops->default_heuristic;
}

/* The puzzle's own heuristics, NULL-terminated, or NULL. */
static inline const heuristic_ops_t *const *
puzzle_heuristics(const pz_puzzle_t *p)
{
    return p->ops->heuristics;
}

/* True when next right after prev is never needed (see ops redundant). */
static inline bool
puzzle_redundant(const pz_puzzle_t *p, int prev, int next)
{
    return p->ops->redundant != NULL && p->ops->redundant(p, prev, next);
}

/* True when p and q are the same instance: the same registry entry,
 * parameters and metric. Thread: any. */
bool puzzle_same(const pz_puzzle_t *p, const pz_puzzle_t *q);

/* Ranking (puzzle_ranking_t): the number of ranks, 0 without ranks. */
static inline uint64_t
puzzle_rank_count(const pz_puzzle_t *p)
{
    return p->ops->ranking != NULL ? p->ops->ranking->count(p) : 0;
}

/* The rank of s; only for a puzzle with ranks. Hot path of table builds
 * and lookups. */
static inline uint64_t
puzzle_rank(const pz_puzzle_t *p, const pz_state_t *s)
{
    return p->ops->ranking->rank(p, s);
}

/* The state of rank index; only for a puzzle with ranks. */
static inline void
puzzle_unrank(const pz_puzzle_t *p, uint64_t index, pz_state_t *out)
{
    p->ops->ranking->unrank(p, index, out);
}

/* True when ranks describe a projection of the state (see partial). */
static inline bool
puzzle_rank_partial(const pz_puzzle_t *p)
{
    return p->ops->ranking != NULL && p->ops->ranking->partial;
}

/* Bits per table entry a complete table of p tries first. */
static inline int
puzzle_distance_bits(const pz_puzzle_t *p)
{
    return p->ops->ranking != NULL && p->ops->ranking->distance_bits > 0
               ? p->ops->ranking->distance_bits
               : 4;
}

/* s relabelled for goal (see puzzle_ranking_t relabel); false when p
 * cannot relabel or goal is not the default goal up to renaming. */
static inline bool
puzzle_relabel(const pz_puzzle_t *p,
               const pz_state_t *goal,
               const pz_state_t *s,
               pz_state_t *out)
{
    return p->ops->ranking != NULL && p->ops->ranking->relabel != NULL &&
           p->ops->ranking->relabel(p, goal, s, out);
}

/* True when p can relabel goals at all. */
static inline bool
puzzle_can_relabel(const pz_puzzle_t *p)
{
    return p->ops->ranking != NULL && p->ops->ranking->relabel != NULL;
}

/* Symmetry (puzzle_symmetry_t): the first moves a search must try. */
static inline uint64_t
puzzle_root_moves(const pz_puzzle_t *p,
                  const pz_state_t *start,
                  const pz_state_t *goal)
{
    return p->ops->symmetry != NULL && p->subset == 0
               ? p->ops->symmetry->root_moves(p, start, goal)
               : p->allowed_after[p->nmoves];
}

/* The second moves after each first move (next[m] for every move m);
 * allowed_after without symmetries. */
static inline void
puzzle_root_next_moves(const pz_puzzle_t *p,
                       const pz_state_t *start,
                       const pz_state_t *goal,
                       uint64_t *next)
{
    if (p->ops->symmetry != NULL && p->ops->symmetry->root_next_moves != NULL &&
        p->subset == 0) {
        p->ops->symmetry->root_next_moves(p, start, goal, next);
        return;
    }
    for (int m = 0; m < p->nmoves; m++) {
        next[m] = p->allowed_after[m];
    }
}

/* True when p draws uniformly random states (puzzle_random_t). */
static inline bool
puzzle_has_random_state(const pz_puzzle_t *p)
{
    return p->ops->random != NULL;
}

/* A uniformly random legal state: PZ_OK, or PZ_EUNSUPPORTED when p has
 * none (see puzzle_random_moves). Thread: any. */
static inline int
puzzle_random_state(const pz_puzzle_t *p,
                    pz_rand_fn rand,
                    void *rng,
                    pz_state_t *out)
{
    if (p->ops->random == NULL) {
        return PZ_EUNSUPPORTED;
    }
    state_clear(out);
    return p->ops->random->state(p, rand, rng, out);
}

/* I/O (puzzle_io_t): the canonical string form of s; its length, or
 * PZ_EINVAL when len is too small, PZ_EUNSUPPORTED without I/O. */
static inline int
puzzle_format_state(const pz_puzzle_t *p,
                    const pz_state_t *s,
                    char *buf,
                    size_t len)
{
    return p->ops->io != NULL ? p->ops->io->format_state(p, s, buf, len)
                              : PZ_EUNSUPPORTED;
}

/* True when p describes moves beyond their names (puzzle_move_detail). */
static inline bool
puzzle_has_move_detail(const pz_puzzle_t *p)
{
    return p->ops->io != NULL && p->ops->io->move_detail != NULL;
}

/* Extra description of move played in before, or -1. */
static inline int
puzzle_move_detail(const pz_puzzle_t *p, const pz_state_t *before, int move)
{
    return p->ops->io != NULL && p->ops->io->move_detail != NULL
               ? p->ops->io->move_detail(p, before, move)
               : -1;
}

/* Pictures (puzzle_draw_t): true when p draws its states. */
static inline bool
puzzle_can_draw(const pz_puzzle_t *p)
{
    return p->ops->draw != NULL;
}

/* The picture of s, a valid state of p, into *out (owned by the caller;
 * about 11 KiB, so better not on a small stack). Returns PZ_OK,
 * PZ_EUNSUPPORTED when p draws nothing, or PZ_EINTERNAL. Thread: any. */
static inline int
puzzle_draw(const pz_puzzle_t *p, const pz_state_t *s, puzzle_picture_t *out)
{
    out->width = 0;
    out->height = 0;
    out->nshapes = 0;
    if (p->ops->draw == NULL) {
        return PZ_EUNSUPPORTED;
    }
    return p->ops->draw->picture(p, s, out);
}

/* --- Helpers for the puzzle modules --- */

/* Reads a sticker picture from text: each printable ASCII character is
 * a sticker, white space is skipped. Stores the first max of them in sym
 * and returns how many there are (also beyond max, for the length
 * error), or PZ_ESTATE_SYMBOL with d (and d->position) set for a
 * character that is not printable ASCII. Thread: any. */
int puzzle_read_stickers(const char *text, int *sym, int max, pz_diag_t *d);

/*
 * Applies a scramble written in letter moves to *state: tokens separated
 * by white space or following each other, each one of letters, then an
 * optional 2 (played twice) and an optional prime (' or U+2019). The move
 * id of letters[i] is 2i, of its prime 2i + 1. A token that is none of
 * these gives PZ_EMOVE with d->position at it and the detail "unknown
 * move 'TOKEN' at position N; " followed by hint; *state is then
 * unchanged. Thread: any.
 */
int puzzle_apply_letter_scramble(const pz_puzzle_t *p,
                                 const char *letters,
                                 const char *hint,
                                 const char *text,
                                 pz_state_t *state,
                                 pz_diag_t *d);

/* The most stickers puzzle_check_colours takes. */
#define PUZZLE_STICKERS_MAX 64

/* Checks the colours of a sticker picture sym[0..n-1] (n at most
 * PUZZLE_STICKERS_MAX): gives each distinct symbol a colour id in order
 * of appearance (col[i]: sticker i's id, syms[c]: the symbol of id c)
 * and checks there are ncolours of them, each on n / ncolours stickers.
 * Otherwise PZ_ECOLOUR_COUNT, d naming the culprit: with too many
 * colours the rarest, else a colour that is too frequent first (the
 * likelier misreading: a short colour is short because another took its
 * place), then a short one. is_char: the symbols are characters (text
 * input), shown as such, not numbers; puzzle: its name ("3x3x3"). */
int puzzle_check_colours(const int *sym,
                         int n,
                         int ncolours,
                         bool is_char,
                         const char *puzzle,
                         int *col,
                         int *syms,
                         pz_diag_t *d);

/* Appends to pic a polygon of npoints corners (3..PUZZLE_SHAPE_POINTS)
 * at x[i], y[i], filled with rgb and without a label; its sticker is its
 * place in pic (the puzzles draw their elements in the order of their text
 * form). Returns the new shape (to set its label or sticker), or NULL when
 * pic is full or npoints is out of range. Thread: any. */
puzzle_shape_t *puzzle_picture_add(puzzle_picture_t *pic,
                                   int npoints,
                                   const double *x,
                                   const double *y,
                                   uint32_t rgb);

/* --- Helpers shared by the api layer and the CLI --- */

/* Parses in into *out (state_clear first) and validates it. Codes as
 * ops->parse_state; d->field is left to the caller. Thread: any. */
int puzzle_parse_state(const pz_puzzle_t *p,
                       const pz_input_t *in,
                       pz_state_t *out,
                       pz_diag_t *d);

/* Applies a scramble in p's notation to *state (PZ_EMOVE with
 * d->position on a bad token; PZ_EUNSUPPORTED without I/O). Thread: any. */
int puzzle_apply_scramble(const pz_puzzle_t *p,
                          const char *text,
                          pz_state_t *state,
                          pz_diag_t *d);

/* Sets *out to the goal, then applies the scramble. Thread: any. */
int puzzle_parse_scramble(const pz_puzzle_t *p,
                          const char *text,
                          pz_state_t *out,
                          pz_diag_t *d);

/* Checks that start can reach goal. Thread: any. */
int puzzle_check_pair(const pz_puzzle_t *p,
                      const pz_state_t *start,
                      const pz_state_t *goal,
                      pz_diag_t *d);

/* Replays moves[0..n) on start into *out. Returns PZ_OK, or PZ_EINVAL if a
 * move is out of range or illegal where it is played. */
int puzzle_replay(const pz_puzzle_t *p,
                  const pz_state_t *start,
                  const uint8_t *moves,
                  int n,
                  pz_state_t *out);

/* The move named name (as puzzle_move_name writes it), or -1. */
int puzzle_move_index(const pz_puzzle_t *p, const char *name);

/*
 * Writes to out the scramble that makes the state the solution
 * sol[0..n) solves: the inverse moves in reverse order, with the moves the
 * puzzle writes last (puzzle_io_t.move_last) moved to the end in their
 * order. out may not be sol. Thread: any.
 */
void puzzle_scramble_of_solution(const pz_puzzle_t *p,
                                 const uint8_t *sol,
                                 int n,
                                 uint8_t *out);

/* Writes the move names of moves[0..n) separated by single spaces into buf.
 * Returns the length, or PZ_EINVAL when buf is too small. */
int puzzle_format_moves(const pz_puzzle_t *p,
                        const uint8_t *moves,
                        int n,
                        char *buf,
                        size_t len);

/*
 * Draws n random moves that form a scramble with no immediately redundant
 * pair (as a pruned search would see it) and that are legal in sequence
 * from start. Writes them to moves. Returns PZ_OK or PZ_EINVAL (n out of
 * 0..PZ_SOLUTION_MAX range). Thread: any.
 */
int puzzle_random_moves(const pz_puzzle_t *p,
                        const pz_state_t *start,
                        int n,
                        pz_rand_fn rand,
                        void *rng,
                        uint8_t *moves);

#endif
