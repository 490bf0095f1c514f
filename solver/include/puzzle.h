/* SPDX-License-Identifier: MIT */
/* puzzle.h - the puzzle interface, its registry and the engines' wrappers. */
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
 * What each puzzle implements (one file under solver/puzzles/ and one line
 * in the registry in puzzle.c). Engines never call these directly: they use
 * the inline wrappers below.
 */
struct puzzle_ops {
    const char *name;              /* registry key: "tiles", "2x2x2" */
    const char *summary;           /* one line for the catalogue */
    const char *notation;          /* one line: how moves are written */
    const char *state_forms;       /* one line: accepted state inputs */
    const char *default_heuristic; /* strongest admissible cheap one */

    /* Fills p->rows, cols, metric, state_size, nmoves, metric_name and
     * p->priv from params; PZ_ESIZE/PZ_EMETRIC with d on bad params. */
    int (*init)(pz_puzzle_t *p, const pz_params_t *params, pz_diag_t *d);
    /* Frees p->priv. Called once, also after a failed init. */
    void (*cleanup)(pz_puzzle_t *p);

    /* The default goal (solved). */
    void (*goal)(const pz_puzzle_t *p, pz_state_t *out);
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
    /* Checks start can reach goal (PZ_EUNSOLVABLE etc.); NULL: always. */
    int (*check_pair)(const pz_puzzle_t *p,
                      const pz_state_t *start,
                      const pz_state_t *goal,
                      pz_diag_t *d);
    /* Writes the state's canonical string form; returns its length or
     * PZ_EINVAL when len is too small. */
    int (*format_state)(const pz_puzzle_t *p,
                        const pz_state_t *s,
                        char *buf,
                        size_t len);

    /* Applies move (0..nmoves-1) to s, writing out (s may equal out).
     * Returns false, leaving out unspecified, for a move that is illegal in
     * s (a tile move off the board). Hot path. */
    bool (*apply)(const pz_puzzle_t *p,
                  const pz_state_t *s,
                  int move,
                  pz_state_t *out);
    /* The move that undoes move. */
    int (*inverse)(const pz_puzzle_t *p, int move);
    /* True when next right after prev is never needed in a shortest
     * solution (same face twice, commuting faces out of order). The inverse
     * of prev is excluded separately. NULL: nothing redundant. */
    bool (*redundant)(const pz_puzzle_t *p, int prev, int next);
    /* Standard notation of move ("R'", "U2", "L"). Static string. */
    const char *(*move_name)(const pz_puzzle_t *p, int move);
    /* Optional: extra description of move played in state before (tiles:
     * the number of the tile that slides). Returns it, or -1. */
    int (*move_detail)(const pz_puzzle_t *p,
                       const pz_state_t *before,
                       int move);
    /* Optional: a uniformly random legal state. */
    int (*random_state)(const pz_puzzle_t *p,
                        pz_rand_fn rand,
                        void *rng,
                        pz_state_t *out);

    /* Puzzle-specific heuristics, NULL-terminated ("none" is generic). */
    const heuristic_ops_t *const *heuristics;

    /*
     * Optional perfect indexing for complete distance tables. rank_count
     * is the number of indices; rank maps a state to 0..rank_count-1 and
     * unrank back. A puzzle may rank a projection of its state (the
     * pyraminx ranks everything but the tips): then rank_is_partial is
     * true and states of equal rank differ only in parts that moves the
     * puzzle documents (tips) can fix independently. NULL: no tables.
     */
    uint64_t (*rank_count)(const pz_puzzle_t *p);
    uint64_t (*rank)(const pz_puzzle_t *p, const pz_state_t *s);
    void (*unrank)(const pz_puzzle_t *p, uint64_t index, pz_state_t *out);
    bool rank_is_partial;

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

    /*
     * Optional: the first moves a search from start to goal must try, a
     * subset of allowed_after[nmoves] (never empty). A puzzle whose
     * symmetries fix both start and goal may keep one move of each class
     * the symmetries map onto each other, since their subtrees hold
     * solutions of the same lengths (the superflip: 2 of 18). NULL: all.
     */
    uint64_t (*root_moves)(const pz_puzzle_t *p,
                           const pz_state_t *start,
                           const pz_state_t *goal);

    /*
     * Optional, with root_moves: writes to next[m], for every move m, the
     * second moves a search must try after the first move m, a subset of
     * allowed_after[m] (never empty): the same reduction by the
     * symmetries that also fix m, where it is safe with the order
     * allowed_after imposes. NULL: all of allowed_after[m].
     */
    void (*root_next_moves)(const pz_puzzle_t *p,
                            const pz_state_t *start,
                            const pz_state_t *goal,
                            uint64_t *next);

    /*
     * Optional, for spaces far too large for bidirectional BFS: what the
     * `auto` engine choice (engine_auto) uses instead. auto_fast_engine
     * answers any state quickly but not optimally (an engine name);
     * auto_optimal_heuristic proves optima with IDA* (a name in
     * heuristics). NULL: bidirectional BFS as for any other puzzle.
     */
    const char *auto_fast_engine;
    const char *auto_optimal_heuristic;

    /*
     * Optional: the whole `auto` choice for p and goal (engine_auto),
     * for a puzzle whose best engine depends on its size (tiles). Fills
     * *out and returns true, or returns false for the generic choice.
     * NULL: the generic choice.
     */
    bool (*auto_choice)(const pz_puzzle_t *p,
                        const pz_state_t *goal,
                        bool optimal,
                        struct engine_choice *out);

    /* Solvers of this puzzle alone, NULL-terminated (the 3x3x3's
     * two-phase): engine_find_for finds them by name beside the generic
     * engines. NULL: none. */
    const struct engine_ops *const *solvers;

    /* Optional: writes at most max definitions of the puzzle's named
     * shared tables (complete tables of its usual sizes, pattern
     * databases, a solver's tables) and returns how many it wrote; the
     * tables module lists them by name (solve_named_tables). NULL:
     * none. */
    int (*named_tables)(struct tables_def *out, int max);
};

typedef struct puzzle_ops puzzle_ops_t;

/*
 * A puzzle instance: one registry entry with its parameters. Created by
 * puzzle_create, read-only afterwards and shared by any number of searches
 * on any threads. The fields are read by engines and the api layer; only
 * the puzzle's own file writes them (in init).
 */
struct pz_puzzle {
    const puzzle_ops_t *ops;
    char id[24];             /* canonical name with size: "tiles", "2x2x2" */
    int rows;                /* tiles only, else 0 */
    int cols;                /* tiles only, else 0 */
    int metric;              /* pz_metric_t actually in use */
    const char *metric_name; /* "htm", "qtm", "moves" */
    size_t state_size;       /* meaningful bytes of a pz_state_t */
    int nmoves;              /* move ids are 0..nmoves-1, <= PZ_MOVES_MAX */
    void *priv;              /* owned by the puzzle's file */
    /* allowed_after[m]: moves that may follow move m in a pruned search;
     * allowed_after[nmoves]: moves allowed at the root (all). Filled by
     * puzzle_create from ops->inverse and ops->redundant. */
    uint64_t allowed_after[PZ_MOVES_MAX + 1];
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
} puzzle_alias_t;

/* NULL-terminated alias table (ends with alias == NULL). Thread: any. */
const puzzle_alias_t *puzzle_aliases(void);

/* --- Wrappers used by engines (the only way engines reach a puzzle) --- */

static inline bool
puzzle_apply(const pz_puzzle_t *p,
             const pz_state_t *s,
             int move,
             pz_state_t *out)
{
    return p->ops->apply(p, s, move, out);
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

static inline uint64_t
puzzle_hash(const pz_puzzle_t *p, const pz_state_t *s)
{
    return state_hash_bytes(s->b, p->state_size);
}

/* --- Helpers for the puzzle modules --- */

/* Reads a sticker picture from text: each printable ASCII character is
 * a sticker, white space is skipped. Stores the first max of them in sym
 * and returns how many there are (also beyond max, for the length
 * error), or PZ_ESTATE_SYMBOL with d (and d->position) set for a
 * character that is not printable ASCII. Thread: any. */
int puzzle_read_stickers(const char *text, int *sym, int max, pz_diag_t *d);

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

/* --- Helpers shared by the api layer and the CLI --- */

/* Parses in into *out (state_clear first) and validates it. Codes as
 * ops->parse_state; d->field is left to the caller. Thread: any. */
int puzzle_parse_state(const pz_puzzle_t *p,
                       const pz_input_t *in,
                       pz_state_t *out,
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
