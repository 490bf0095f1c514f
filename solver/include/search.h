/* SPDX-License-Identifier: MIT */
/* search.h - limits, live statistics, solutions and the context engines get. */
#ifndef PZ_SOLVER_SEARCH_H
#define PZ_SOLVER_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "budget.h"
#include "state.h"

struct pz_puzzle;
struct pz_heuristic;

/* Longest move list a solution can hold. */
#define PZ_SOLUTION_MAX 1024

/* Engines poll limits and publish statistics every this many expansions. */
#define PZ_POLL_INTERVAL 4096

/* Job and search statuses. The names are API strings (pz_status_name). */
typedef enum pz_status {
    PZ_STATUS_QUEUED = 0,
    PZ_STATUS_PREPARING, /* waiting for the tables it needs */
    PZ_STATUS_RUNNING,
    PZ_STATUS_SOLVED,
    PZ_STATUS_TIMEOUT,
    PZ_STATUS_MEMORY_LIMIT,
    PZ_STATUS_NODE_LIMIT,
    PZ_STATUS_DEPTH_LIMIT,
    PZ_STATUS_CANCELLED,
    PZ_STATUS_FAILED,
    PZ_STATUS_UNREACHABLE, /* a complete search proved no solution exists */
    PZ_STATUS_COUNT_
} pz_status_t;

/* "solved", "timeout", ...; "failed" for unknown values. Thread: any. */
const char *pz_status_name(int status);

/* True for every status after which a job never changes again. */
bool pz_status_terminal(int status);

/* Limits of one search. Zero means "no limit" for every field. */
typedef struct pz_limits {
    uint64_t time_ms;    /* wall-clock budget from the start of the search */
    size_t memory_bytes; /* search memory budget (see budget.h) */
    uint64_t max_nodes;  /* expansions */
    int max_depth;       /* longest solution searched for, in moves */
} pz_limits_t;

/* Longest solution known before a search (search_ctx_t known). */
#define PZ_KNOWN_MAX 32

/* Longest best-so-far solution the live statistics carry. */
#define PZ_BEST_MOVES_MAX 64

/*
 * Live statistics. The searching thread publishes them with relaxed atomic
 * stores at least every PZ_POLL_INTERVAL expansions; any thread may read
 * them at any time (stats_read) without a lock.
 */
typedef struct pz_stats {
    atomic_uint_fast64_t nodes_expanded; /* states whose successors were made */
    atomic_uint_fast64_t nodes_generated; /* successors made */
    atomic_uint_fast64_t duplicates;      /* successors already seen */
    atomic_uint_fast64_t open_size;       /* A*: open list; BFS: frontiers */
    atomic_uint_fast64_t frontier_fwd;    /* bibfs: forward frontier size */
    atomic_uint_fast64_t frontier_bwd;    /* bibfs: backward frontier size */
    atomic_uint_fast64_t peak_memory;     /* bytes, from the job's budget */
    atomic_int depth_bound;               /* IDA* and BFS: current bound */
    atomic_int iterations;                /* IDA*: iterations started */
    atomic_int heuristic_at_start;        /* h(start), or -1 */
    atomic_int best_length;               /* anytime: best so far, or -1 */
    atomic_int lower_bound;        /* anytime: no answer is shorter, or -1 */
    atomic_uint_fast64_t start_ns; /* monotonic; 0 before the start */
    atomic_uint_fast64_t end_ns;   /* monotonic; 0 while running */
    /* Anytime engines: the moves of the best solution so far, written
     * under a sequence count (stats_publish_best, stats_read_best). */
    atomic_uint best_seq;
    atomic_int best_n;
    _Atomic uint8_t best_moves[PZ_BEST_MOVES_MAX];
} pz_stats_t;

/* A plain copy of pz_stats_t for reporting, with derived figures. */
typedef struct pz_stats_view {
    uint64_t nodes_expanded;
    uint64_t nodes_generated;
    uint64_t duplicates;
    uint64_t open_size;
    uint64_t frontier_fwd;
    uint64_t frontier_bwd;
    uint64_t peak_memory;
    int depth_bound;
    int iterations;
    int heuristic_at_start;
    int best_length;
    int lower_bound;
    double elapsed_ms;       /* so far, or in total once ended */
    double nodes_per_second; /* generated per second of elapsed time */
} pz_stats_view_t;

/* Resets every counter; -1 for h, bound and best length. Thread: any, but
 * not concurrently with a running search on the same stats. */
void stats_init(pz_stats_t *s);

/* Reads a consistent-enough snapshot (each field atomically). Thread: any. */
void stats_read(const pz_stats_t *s, pz_stats_view_t *out);

/* Publishes moves[0..n) as the best solution so far (nothing when n is
 * over PZ_BEST_MOVES_MAX). Thread: one writer at a time per stats. */
void stats_publish_best(pz_stats_t *s, const uint8_t *moves, int n);

/* Copies the best solution published so far into out (room for
 * PZ_BEST_MOVES_MAX) and returns its length, or -1 when there is none or
 * it kept changing while read. Thread: any. */
int stats_read_best(const pz_stats_t *s, uint8_t *out);

/* Monotonic clock in nanoseconds. Thread: any. */
uint64_t pz_now_ns(void);

/* The result of a search: a status and, when solved, the moves. */
typedef struct pz_solution {
    int status;                     /* pz_status_t, terminal */
    int length;                     /* number of moves, -1 when none */
    uint8_t moves[PZ_SOLUTION_MAX]; /* move ids of the puzzle */
    bool optimal;                   /* proven shortest (set by engine_run) */
    /* Set by an engine that is not optimal in general when its search
     * proved this answer shortest (the anytime engine's open list ran
     * out): engine_run then marks it optimal. */
    bool proven;
} pz_solution_t;

/* Empties sol: status failed, length -1. */
void solution_clear(pz_solution_t *sol);

/* Most solutions one search keeps (pz_solutions_t want). */
#define PZ_SOLUTIONS_MAX 1000

/*
 * Several solutions of one search, kept shortest first: up to want of
 * them, or with all_optimal every solution of the optimal length (counted
 * in found even past want). Solutions are canonical move sequences: the
 * puzzle's move pruning (puzzle_allowed_after) keeps moves that commute
 * in one order and never turns a face twice in a row, so sequences that
 * differ only by the order of commuting moves count once; none passes
 * through the goal before its end. The caller owns the storage
 * (solutions_init), which is a result like pz_solution_t, not search
 * memory: at most want * PZ_SOLUTIONS_BYTES_EACH bytes of moves.
 */
typedef struct pz_solutions {
    int want;         /* most to keep, 1..PZ_SOLUTIONS_MAX */
    bool all_optimal; /* the optimal length only, all of it counted */
    int kept;         /* solutions kept */
    uint64_t found;   /* solutions found (>= kept) */
    bool complete;    /* every solution of the lengths kept was found */
    int stopped;      /* the limit's status that ended the search early,
                         or 0 */
    size_t used;      /* bytes of moves in use */
    size_t cap;       /* bytes of moves */
    uint8_t *moves;   /* kept solutions' moves, back to back */
    uint16_t *length; /* [want] */
    uint32_t *offset; /* [want]: index of each first move in moves */
} pz_solutions_t;

/* Average bytes of moves each kept solution may take. */
#define PZ_SOLUTIONS_BYTES_EACH 128

/* Allocates s for want solutions (1..PZ_SOLUTIONS_MAX). PZ_OK or
 * PZ_ENOMEM / PZ_EINVAL. Thread: any. */
int solutions_init(pz_solutions_t *s, int want, bool all_optimal);

/* Empties s for a new search, keeping its storage. Thread: any. */
void solutions_reset(pz_solutions_t *s);

/* Frees what s holds; s may be NULL. Thread: any. */
void solutions_free(pz_solutions_t *s);

/* Counts moves[0..n) as found and keeps it when there is room. Returns
 * true when it was kept. Thread: the searching thread. */
bool solutions_add(pz_solutions_t *s, const uint8_t *moves, int n);

/* Keeps moves[0..n) as the newest solution, dropping the oldest kept one
 * when s is full: for anytime engines, whose answers only get shorter.
 * Thread: the searching thread. */
void solutions_push_latest(pz_solutions_t *s, const uint8_t *moves, int n);

/* Reverses the order of the kept solutions (newest, shortest, first). */
void solutions_reverse(pz_solutions_t *s);

/* The moves of kept solution i (solutions_length of them). */
static inline const uint8_t *
solutions_moves(const pz_solutions_t *s, int i)
{
    return s->moves + s->offset[i];
}

/*
 * Everything an engine needs, filled in by engine_run's caller. Engines
 * borrow all of it for the duration of the search and keep nothing.
 */
typedef struct search_ctx {
    const struct pz_puzzle *puzzle;       /* borrowed */
    const struct pz_heuristic *heuristic; /* borrowed; NULL means h = 0 */
    pz_state_t start;
    pz_state_t goal;
    double weight;     /* wastar: f = g + weight*h, >= 1 */
    int target_length; /* anytime engines: stop at <= this, 0 = none */
    int threads;       /* engines that split: threads to use, >= 1 */
    pz_limits_t limits;
    uint64_t deadline_ns;      /* absolute monotonic deadline, 0 = none */
    pz_budget_t *budget;       /* borrowed; all search memory comes from it */
    pz_stats_t *stats;         /* borrowed; published live */
    const atomic_bool *cancel; /* borrowed; may be NULL */
    /* NULL: one solution. Else engines that say several collect into
     * it, and out gets the first (shortest) one. Borrowed. */
    pz_solutions_t *solutions;
    /* A solution known before the search (a short scramble's inverse),
     * known_length moves, or known_length 0: engine_run answers with it
     * when the engine's answer is longer. */
    int known_length;
    uint8_t known[PZ_KNOWN_MAX];
    /* For measurements: IDA* prunes no duplicate strings of moves beyond
     * the inverse of the last (puzzle_move_fsm unused). */
    bool inverse_pruning_only;
    /* aida: A*'s nodes before IDA* at most, 0 = the engine's default
     * (both within half the budget left). */
    uint32_t frontier_nodes;
} search_ctx_t;

/*
 * An engine's private tally between two polls. Engines count in local
 * variables (cheap) and hand the counts to search_poll, which publishes
 * them and checks the limits.
 */
typedef struct search_meter {
    uint64_t expanded;   /* total expansions so far */
    uint64_t generated;  /* total successors so far */
    uint64_t duplicates; /* total duplicates so far */
    uint64_t next_poll;  /* poll when expanded reaches this */
} search_meter_t;

/* Zeroes m; the first poll comes after PZ_POLL_INTERVAL expansions, or at
 * the node limit of ctx when that is smaller. */
void search_meter_init(const search_ctx_t *ctx, search_meter_t *m);

/*
 * Publishes m to ctx->stats (and the budget's peak) and checks cancel,
 * deadline and node limit, in that order. Returns PZ_STATUS_RUNNING to go
 * on, or the terminal status the engine must stop with. Thread: worker.
 */
int search_poll(const search_ctx_t *ctx, search_meter_t *m);

/* Counts one expansion; polls when due. Returns PZ_STATUS_RUNNING to go on
 * or a terminal status. Inline: it is on every engine's hot path. */
static inline int
search_tick(const search_ctx_t *ctx, search_meter_t *m)
{
    if (++m->expanded < m->next_poll) {
        return PZ_STATUS_RUNNING;
    }
    return search_poll(ctx, m);
}

#endif
