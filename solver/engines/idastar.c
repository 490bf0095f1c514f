/* SPDX-License-Identifier: MIT */
/* idastar.c - iterative-deepening A* over any puzzle, memory O(depth).
 * Size: one search loop shared by every way of running it (one thread,
 * split over threads, handed to a puzzle's own search) with its move
 * pruning, limits and statistics, and the split and order of the tasks
 * that all of those ways share. */

/*
 * Design: each iteration is a depth-first search that cuts every node with
 * f = g + h above the bound; the next bound is the smallest f that was
 * cut. With an admissible heuristic the first iteration that reaches the
 * goal returns an optimal path, since the bound never passes the optimum.
 * The DFS is iterative over an explicit stack of frames, one per depth,
 * each holding its state, its h and the moves still to try as a bit mask,
 * so a step costs one puzzle_apply into the next frame and one incremental
 * heuristic_update, with no recursion and no state copies. Move pruning
 * (puzzle_allowed_after the last move: no inverse, no redundant pair) and,
 * for a puzzle that has one, its automaton of duplicate move strings
 * (puzzle_move_fsm: a frame holds its state; not used by a puzzle's own
 * search, when collecting every solution or with root symmetry) are the
 * only duplicate detection; there is no transposition table. The goal
 * is tested when a child passes the bound, and only when its h is 0 (an
 * admissible h is 0 at the goal), so the full comparison is rare. At the
 * root, a puzzle may name fewer first moves (puzzle_ops root_moves: one
 * per class of moves that symmetries of the start and goal exchange), and
 * fewer second moves after each (root_next_moves).
 *
 * With an admissible heuristic, estimates travel both ways along the
 * path (bidirectional pathmax): a child is at least its parent's h - 1
 * from the goal and a parent at least its child's h - 1, since every
 * move is undone by one move. A child that raises its parent past the
 * bound cuts the parent's remaining children unseen. This pays for
 * heuristics that are not consistent (maxima of several databases
 * raised to a parity can change by three in one move; dual lookups);
 * for a consistent one neither rule ever fires.
 *
 * Frames are drawn from the budget and grown when the bound grows: a path
 * never exceeds the bound (h >= 0), so bound + 2 frames always suffice.
 *
 * With ctx->threads > 1 each iteration is split: the calling thread runs
 * the same DFS down to a split depth, recording every node there that
 * passes the bound as a task (the split depth grows until there are enough
 * tasks to balance the load), and then it and the helper threads take
 * tasks from a shared counter and search their subtrees. The subtrees
 * together are exactly the iteration's tree, and every goal found within
 * an iteration's bound is optimal, so the first thread to find one wins
 * and the others stop at their next poll. A puzzle's solver with its own
 * depth-first search (idastar_solve_with: one that interleaves several
 * subtrees per thread to overlap table misses) is handed the tasks
 * instead, also on one thread, and more of them. Such a search reports
 * the expansions below each task by depth (idastar_job_t done), and the
 * next iteration takes its tasks in the order of those counts, the
 * deepest levels weighing most: the last iteration ends at its first
 * goal, and a subtree the last bound searched deeply is the likeliest to
 * hold one (order_tasks).
 * For that order to be fine, a long search is split into about one task
 * per TASK_NODES expansions (a target of TASKS_ORDERED_MAX in all), and
 * a split never gets shallower than the last one. When the split depth
 * plus the heuristic's largest estimate (heuristic_max) is within the
 * bound, the split pass could cut nothing: it then makes the tasks
 * without a lookup, since such a search works out its roots' values
 * itself (otherwise one thread makes a deep split's tens of thousands of
 * lookups one at a time while the others wait). Counts are merged
 * into the shared statistics at each poll; with a node limit, each worker
 * expands only against quota it takes from a shared counter, so together
 * they stop at the limit exactly as one thread would.
 *
 * The "aida" engine (A*+IDA*: Bu and Korf, IJCAI 2019) first runs A*
 * until it holds a share of the budget (astar_frontier), then makes every
 * node A* left open a task of each iteration, searched from its depth g:
 * with an admissible heuristic some open node lies on an optimal path at
 * its optimal depth, so the iteration whose bound is the optimum finds
 * it. A* has taken the duplicates out of the top of the tree, and the
 * order of the tasks decides how soon the last iteration ends: open
 * nodes by h, the nearest to the goal first (then by g + h). Ordered by
 * g + h first, an answer below a node of the largest g + h comes only
 * after every subtree of the others (docs/tables.md has both). Unless
 * the request fixes A*'s share, A* first stops at a small one, and its
 * frontier grows (A* resumed: astar_frontier_grow) while the iterations
 * dwarf what A* has cost: an instance that IDA* ends in a second does not
 * wait for A* to fill the budget, and a long search gets the full share.
 */
#include "idastar.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "astar.h"
#include "engine_internal.h"

#define THREADS_MAX       64
#define SPLIT_DEPTH_MAX   16
#define TASKS_PER_THREAD  32
#define TASK_NODES        1024
#define TASKS_ORDERED_MAX 32768 /* a finer split's target, in all */
/* order_tasks: an expansion one level deeper counts this many times more */
#define DEPTH_WEIGHT 8.0

/* Internal status: another thread ended the iteration first. */
#define STATUS_ABORTED PZ_STATUS_COUNT_

/* One depth of the DFS stack. */
typedef struct frame {
    pz_state_t s;  /* the state at this depth */
    uint64_t todo; /* moves still to try from s */
    int h;         /* heuristic of s */
    int32_t fsm;   /* the move automaton's state at s (with sh->fsm) */
    /* With a heuristic's children op: the children's h, by move */
    int16_t hs[PZ_MOVES_MAX];
} frame_t;

/* A subtree root handed to a thread. */
typedef struct task {
    pz_state_t s;                   /* the root's state */
    int h;                          /* its heuristic */
    int32_t fsm;                    /* the move automaton's state */
    int depth;                      /* its depth, 1..SPLIT_DEPTH_MAX */
    uint8_t moves[SPLIT_DEPTH_MAX]; /* the moves from the start */
    uint64_t nodes;                 /* expansions below it in its iteration */
    double weight; /* and weighted by depth (DEPTH_WEIGHT per level) */
    /* order_tasks' score: the weight below the same root (or its
     * ancestor) in the iteration before, per next move */
    double prev;
    size_t order; /* its place in the split */
} task_t;

/* What every thread of one search reads; the atomics are shared. */
typedef struct shared {
    const search_ctx_t *ctx;
    const pz_puzzle_t *p;
    const pz_heuristic_t *h;
    int hmax;                /* an estimate h never exceeds, or INT_MAX */
    bool check_all;          /* compare with the goal even when h > 0 */
    const puzzle_fsm_t *fsm; /* prunes duplicate move strings, or NULL */
    bool threaded;           /* more than one worker */
    idastar_dfs_fn dfs;      /* searches the tasks, or NULL: worker_main */
    int tasks_per_thread;    /* tasks an iteration is split into, at least */
    pz_solutions_t *collect; /* several solutions: one thread, no own
                                search, no root symmetry; or NULL */
    int nthreads;            /* workers */
    int bound;               /* of the current iteration */
    uint64_t root_todo;      /* first moves to try (puzzle_root_moves) */
    /* Second moves to try after each first move (root_next_moves) and
     * whether any is fewer than allowed_after. */
    uint64_t next_todo[PZ_MOVES_MAX];
    bool next_cut;
    task_t *tasks; /* from the budget */
    size_t ntasks;
    size_t tasks_cap;
    /* The last finished iteration's tasks, by their moves, or none. */
    task_t *prev;
    size_t nprev;
    size_t prev_cap;
    /* Expansions below the tasks of the last two finished iterations. */
    uint64_t iter_nodes[2];
    int split_last; /* the last iteration's split depth, or 0 */
    /* aida: A*'s frontier, whose nodes are the tasks (ntasks of them),
     * or NULL */
    astar_frontier_t *fr;
    uint32_t frontier_cap;          /* aida: A*'s nodes at most; 0 = not aida */
    uint32_t frontier_max;          /* aida: what frontier_cap may grow to */
    astar_frontier_t frontier;      /* aida: what fr points to once made */
    atomic_size_t next_task;        /* next task to take */
    atomic_int stop;                /* 0, or the status ending it */
    atomic_int winner;              /* worker holding the solution */
    atomic_uint_fast64_t expanded;  /* threaded: merged counts */
    atomic_uint_fast64_t generated; /* threaded: merged counts */
    atomic_uint_fast64_t quota_taken; /* threaded: expansions granted */
} shared_t;

/* One thread's search state. */
typedef struct worker {
    shared_t *sh;
    int index;
    search_ctx_t pctx;     /* for search_poll: no stats, no node limit
                              when threaded (merged here instead) */
    search_meter_t meter;  /* this worker's counts, over all iterations */
    uint64_t pub_expanded; /* part of meter already merged */
    uint64_t pub_generated;
    frame_t *frames; /* from the budget */
    size_t nframes;  /* allocated */
    int next;        /* smallest f cut in this iteration */
    int status;      /* how its part of the iteration ended */
    int length;      /* solution length when SOLVED */
    /* aida: the frontier node of its task and that node's g (w->moves
     * below it are not set), or -1 */
    uint32_t fr_node;
    int fr_depth;
    idastar_job_t *job; /* its own search's job, while it runs */
    uint8_t moves[PZ_SOLUTION_MAX];
} worker_t;

/*
 * Threaded with a node limit: w may count expansions only against quota
 * taken from the shared counter, in grants that shrink as the limit nears,
 * so the workers together never pass the limit. Sets w's next poll at the
 * end of the new grant; false when no quota is left.
 */
static bool
take_quota(worker_t *w)
{
    shared_t *sh = w->sh;
    uint64_t limit = sh->ctx->limits.max_nodes;
    uint64_t taken = atomic_load(&sh->quota_taken);
    uint64_t want;
    uint64_t from;

    if (limit == 0) {
        return true;
    }
    want = taken < limit ? (limit - taken) / (2 * (uint64_t)sh->nthreads) : 0;
    want = want < 1 ? 1 : want > PZ_POLL_INTERVAL ? PZ_POLL_INTERVAL : want;
    from = atomic_fetch_add(&sh->quota_taken, want);
    if (from >= limit) {
        return false;
    }
    if (want > limit - from) {
        want = limit - from;
    }
    w->meter.next_poll = w->meter.expanded + want;
    return true;
}

/* Polls the limits; when threaded also merges counts, checks the merged
 * node limit and whether another thread has ended the iteration. */
static int
worker_poll(worker_t *w)
{
    shared_t *sh = w->sh;
    const search_ctx_t *ctx = sh->ctx;
    int status = search_poll(&w->pctx, &w->meter);
    uint64_t e;
    uint64_t g;

    if (!sh->threaded) {
        return status;
    }
    e = atomic_fetch_add(&sh->expanded, w->meter.expanded - w->pub_expanded) +
        (w->meter.expanded - w->pub_expanded);
    g = atomic_fetch_add(&sh->generated,
                         w->meter.generated - w->pub_generated) +
        (w->meter.generated - w->pub_generated);
    w->pub_expanded = w->meter.expanded;
    w->pub_generated = w->meter.generated;
    if (ctx->stats != NULL) {
        atomic_store_explicit(&ctx->stats->nodes_expanded, e,
                              memory_order_relaxed);
        atomic_store_explicit(&ctx->stats->nodes_generated, g,
                              memory_order_relaxed);
    }
    if (status == PZ_STATUS_RUNNING && !take_quota(w)) {
        status = PZ_STATUS_NODE_LIMIT;
    }
    if (status == PZ_STATUS_RUNNING && atomic_load(&sh->stop) != 0) {
        status = STATUS_ABORTED;
    }
    return status;
}

/* The moves of todo that the move automaton does not prune in state q. */
static uint64_t
fsm_keep(const puzzle_fsm_t *fsm, int32_t q, uint64_t todo)
{
    const int16_t *next = fsm->next + (size_t)q * (size_t)fsm->nmoves;

    for (uint64_t t = todo; t != 0; t &= t - 1) {
        int m = __builtin_ctzll(t);

        if (next[m] < 0) {
            todo &= ~(UINT64_C(1) << m);
        }
    }
    return todo;
}

/* The moves to try below a node at depth reached by move m, in state q
 * of the move automaton (when there is one). */
static uint64_t
todo_after(const shared_t *sh, int depth, int m, int32_t q)
{
    uint64_t todo =
        depth == 1 ? sh->next_todo[m] : puzzle_allowed_after(sh->p, m);

    return sh->fsm != NULL ? fsm_keep(sh->fsm, q, todo) : todo;
}

/* The move automaton's state after move m from state q (0 without one). */
static int32_t
fsm_after(const shared_t *sh, int32_t q, int m)
{
    return sh->fsm != NULL ? sh->fsm->next[q * sh->fsm->nmoves + m] : 0;
}

/* Appends a task (called by the splitting thread only). */
static int
add_task(shared_t *sh,
         const pz_state_t *s,
         int h,
         int32_t fsm,
         int depth,
         const uint8_t *moves)
{
    task_t *t;

    if (sh->ntasks == sh->tasks_cap) {
        size_t cap = sh->tasks_cap != 0 ? sh->tasks_cap * 2 : 256;
        task_t *tasks = budget_realloc(sh->ctx->budget, sh->tasks,
                                       sh->tasks_cap * sizeof(task_t),
                                       cap * sizeof(task_t));

        if (tasks == NULL) {
            return PZ_ENOMEM;
        }
        sh->tasks = tasks;
        sh->tasks_cap = cap;
    }
    t = &sh->tasks[sh->ntasks++];
    t->s = *s;
    t->h = h;
    t->fsm = fsm;
    t->depth = depth;
    memcpy(t->moves, moves, (size_t)depth);
    t->nodes = 0;
    t->weight = 0;
    t->prev = 0;
    t->order = sh->ntasks - 1;
    return PZ_OK;
}

/* Collects a solution; false when the search should stop (want kept, or
 * no room left, except when every optimal solution is being counted). */
static bool
collect(pz_solutions_t *s, const uint8_t *moves, int n)
{
    bool kept = solutions_add(s, moves, n);

    return s->all_optimal || (kept && s->kept < s->want);
}

/*
 * Depth-first search below frames[root] (state, h and todo set, moves
 * [0, root) set) within sh->bound. Nodes reaching depth split become tasks
 * instead of being searched (split = INT_MAX: none). Returns SOLVED with
 * w->length and w->moves filled, RUNNING when the subtree is done (w->next
 * then includes its smallest cut f), a limit's status, STATUS_ABORTED or
 * PZ_ENOMEM.
 */
static int
dfs(worker_t *w, int root, int split)
{
    shared_t *sh = w->sh;
    const pz_puzzle_t *p = sh->p;
    const pz_heuristic_t *h = sh->h;
    const pz_state_t *goal = &sh->ctx->goal;
    bool check_all = sh->check_all;
    bool bpmx = !check_all; /* pathmax both ways needs admissible h */
    int bound = sh->bound;
    /* A split pass within which no estimate could reach the bound cuts
     * nothing, and the solver's own search works out its roots' values
     * itself: it makes the same tasks without a lookup (the estimates it
     * carries are the pathmax of the start's, admissible; an own search
     * is never given to a collecting or inadmissible one). */
    bool blind =
        split != INT_MAX && sh->dfs != NULL && sh->hmax <= bound - split;
    bool kids = !blind && heuristic_has_children(h);
    frame_t *f = w->frames;
    uint64_t generated = w->meter.generated;
    int next = w->next;
    int status = PZ_STATUS_RUNNING;
    int d = root;

    if (kids) {
        heuristic_children(h, &f[d].s, f[d].h, f[d].todo, bound - d - 1,
                           f[d].hs);
    }
    for (;;) {
        uint64_t todo = f[d].todo;
        int m;
        int hc;
        int fc;

        if (todo == 0) {
            if (d == root) {
                break;
            }
            d--;
            /* Pathmax upwards from a node whose children raised its h. */
            if (bpmx && f[d + 1].h - 1 > f[d].h) {
                f[d].h = f[d + 1].h - 1;
                if (d + f[d].h > bound) {
                    f[d].todo = 0;
                    if (d + f[d].h < next) {
                        next = d + f[d].h;
                    }
                }
            }
            continue;
        }
        m = __builtin_ctzll(todo);
        f[d].todo = todo & (todo - 1);
        if (!puzzle_apply(p, &f[d].s, m, &f[d + 1].s)) {
            continue;
        }
        generated++;
        /* Above bound - (d + 1) the child is cut whatever its exact h. */
        hc = blind  ? 0
             : kids ? f[d].hs[m]
                    : heuristic_update_limit(h, &f[d].s, f[d].h, m, &f[d + 1].s,
                                             bound - d - 1);
        if (bpmx && hc < f[d].h - 1) {
            hc = f[d].h - 1;
        }
        fc = d + 1 + hc;
        if (fc > bound) {
            /* A child more than one above its parent raises the parent:
             * when that cuts the parent, its other children are skipped
             * (each is at least the raised h - 1 from the goal). */
            if (bpmx && hc - 1 > f[d].h) {
                f[d].h = hc - 1;
                if (d + f[d].h > bound) {
                    f[d].todo = 0;
                    fc = d + f[d].h;
                }
            }
            if (fc < next) {
                next = fc;
            }
            continue;
        }
        w->moves[d] = (uint8_t)m;
        if ((hc == 0 || check_all) && puzzle_is_goal(p, &f[d + 1].s, goal)) {
            w->length = d + 1;
            if (sh->collect == NULL) {
                status = PZ_STATUS_SOLVED;
                break;
            }
            /* Collecting: a goal is never expanded, and one above the
             * bound's depth was kept by the iteration of its length. */
            if (d + 1 == bound && !collect(sh->collect, w->moves, d + 1)) {
                status = PZ_STATUS_SOLVED;
                break;
            }
            continue;
        }
        if (d + 1 == split) {
            status = add_task(sh, &f[d + 1].s, hc, fsm_after(sh, f[d].fsm, m),
                              d + 1, w->moves);
            if (status != PZ_OK) {
                break;
            }
            status = PZ_STATUS_RUNNING;
            continue;
        }
        d++;
        f[d].h = hc;
        f[d].fsm = fsm_after(sh, f[d - 1].fsm, m);
        f[d].todo = todo_after(sh, d, m, f[d].fsm);
        if (kids && f[d].todo != 0) {
            heuristic_children(h, &f[d].s, hc, f[d].todo, bound - d - 1,
                               f[d].hs);
        }
        if (++w->meter.expanded >= w->meter.next_poll) {
            w->meter.generated = generated;
            status = worker_poll(w);
            if (status != PZ_STATUS_RUNNING) {
                break;
            }
        }
    }
    w->meter.generated = generated;
    w->next = next;
    return status;
}

/* Makes room in w for depths 0..bound + 1 (a node at depth bound still
 * writes its children one frame further). New frames are zeroed so the
 * bytes past state_size are zero whatever apply writes. */
static int
reserve_frames(const search_ctx_t *ctx, worker_t *w, int bound)
{
    size_t want = (size_t)bound + 2;
    size_t n = w->nframes != 0 ? w->nframes : 64;
    frame_t *frames;

    if (want <= w->nframes) {
        return PZ_OK;
    }
    while (n < want) {
        n *= 2;
    }
    frames = budget_realloc(ctx->budget, w->frames,
                            w->nframes * sizeof(frame_t), n * sizeof(frame_t));
    if (frames == NULL) {
        return PZ_ENOMEM;
    }
    memset(frames + w->nframes, 0, (n - w->nframes) * sizeof(frame_t));
    w->frames = frames;
    w->nframes = n;
    return PZ_OK;
}

/* Puts the start into frame 0 of w. */
static void
set_root(worker_t *w, int h0)
{
    w->frames[0].s = w->sh->ctx->start;
    w->frames[0].h = h0;
    w->frames[0].fsm = 0;
    w->frames[0].todo = w->sh->fsm != NULL
                            ? fsm_keep(w->sh->fsm, 0, w->sh->root_todo)
                            : w->sh->root_todo;
}

/* idastar_job_t take: the next task of the iteration. Its root
 * counts as expanded, as in worker_main; the search polls at its next
 * expansion, so a node limit may be passed by the few roots taken in
 * between (one per lane). */
static bool
job_take(void *arg, pz_state_t *root, int *depth, uint8_t *moves)
{
    worker_t *w = arg;
    shared_t *sh = w->sh;
    size_t i = atomic_fetch_add(&sh->next_task, 1);
    const task_t *t;

    if (i >= sh->ntasks || atomic_load(&sh->stop) != 0) {
        return false;
    }
    t = &sh->tasks[i];
    w->job->task = i;
    *root = t->s;
    *depth = t->depth;
    memcpy(moves, t->moves, (size_t)t->depth);
    w->meter.expanded++;
    return true;
}

/* idastar_job_t done: the expansions below task i, by depth. */
static void
job_done(void *arg, size_t i, const uint64_t *by_depth, int n)
{
    worker_t *w = arg;
    task_t *t = &w->sh->tasks[i];

    t->nodes = 0;
    t->weight = 0;
    for (int k = n - 1; k >= 0; k--) {
        t->nodes += by_depth[k];
        t->weight = t->weight * DEPTH_WEIGHT + (double)by_depth[k];
    }
}

/* idastar_job_t poll. */
static int
job_poll(void *arg)
{
    return worker_poll(arg);
}

/* The tasks searched by the solver's own search; like worker_main's
 * loop, returns how w's part of the iteration ended. */
static int
own_search(worker_t *w)
{
    shared_t *sh = w->sh;
    idastar_job_t job;
    int status;

    memset(&job, 0, sizeof(job));
    job.goal = &sh->ctx->goal;
    job.bound = sh->bound;
    job.take = job_take;
    job.done = job_done;
    job.poll = job_poll;
    job.arg = w;
    job.expanded = &w->meter.expanded;
    job.generated = &w->meter.generated;
    job.next_poll = &w->meter.next_poll;
    job.next = INT_MAX;
    job.moves = w->moves;
    job.budget = sh->ctx->budget;
    w->job = &job;
    status = sh->dfs(sh->h, &job);
    w->job = NULL;
    if (job.next < w->next) {
        w->next = job.next;
    }
    if (status == PZ_STATUS_SOLVED) {
        w->length = job.length;
    }
    return status;
}

/*
 * Puts frontier node i, the root of a task, into w's frames at its g
 * (returned); the moves that reach it are read from the frontier only
 * for the answer (answer_moves). Below it the automaton starts afresh:
 * the node's path from A* need not be the earliest of its length, so
 * only the inverse of its last move is left out (it leads back to a node
 * no nearer the start, never on a shortest path through this one).
 */
static int
load_frontier(worker_t *w, uint32_t i)
{
    const shared_t *sh = w->sh;
    const nodeset_node_t *n = nodeset_node(&sh->fr->set, i);
    int depth = n->g;
    frame_t *f = &w->frames[depth];
    uint64_t todo = n->parent != NODESET_NONE
                        ? puzzle_allowed_after(sh->p, n->move)
                        : sh->root_todo;

    nodeset_load(&sh->fr->set, i, &f->s);
    f->h = n->h;
    f->fsm = 0;
    f->todo = sh->fsm != NULL ? fsm_keep(sh->fsm, 0, todo) : todo;
    w->fr_node = i;
    w->fr_depth = depth;
    return depth;
}

/* Takes tasks until none is left or the iteration ends; w->status says
 * how it ended (RUNNING: all its tasks done). */
static void *
worker_main(void *arg)
{
    worker_t *w = arg;
    shared_t *sh = w->sh;
    int status = PZ_STATUS_RUNNING;

    if (sh->dfs != NULL) {
        int expected = 0;

        status = own_search(w);
        if (status != PZ_STATUS_RUNNING && status != STATUS_ABORTED &&
            atomic_compare_exchange_strong(&sh->stop, &expected, status) &&
            status == PZ_STATUS_SOLVED) {
            atomic_store(&sh->winner, w->index);
        }
        w->status = status;
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&sh->next_task, 1);
        const task_t *t;
        int depth;
        int expected = 0;

        if (i >= sh->ntasks) {
            break;
        }
        if (sh->fr != NULL && sh->fr->f[i] > sh->bound) {
            /* Above the bound: cut at once, as IDA* would. */
            w->next = sh->fr->f[i] < w->next ? sh->fr->f[i] : w->next;
            continue;
        }
        if (sh->fr != NULL) {
            depth = load_frontier(w, sh->fr->nodes[i]);
        } else {
            t = &sh->tasks[i];
            depth = t->depth;
            w->frames[depth].s = t->s;
            w->frames[depth].h = t->h;
            w->frames[depth].fsm = t->fsm;
            w->frames[depth].todo =
                todo_after(sh, depth, t->moves[depth - 1], t->fsm);
            memcpy(w->moves, t->moves, (size_t)depth);
        }
        if (++w->meter.expanded >= w->meter.next_poll) {
            status = worker_poll(w);
        }
        if (status == PZ_STATUS_RUNNING && sh->fr != NULL &&
            (w->frames[depth].h == 0 || sh->check_all) &&
            puzzle_is_goal(sh->p, &w->frames[depth].s, &sh->ctx->goal)) {
            w->length = depth; /* a goal A* made but never took */
            status = PZ_STATUS_SOLVED;
        }
        if (status == PZ_STATUS_RUNNING) {
            status = dfs(w, depth, INT_MAX);
        }
        if (status == PZ_STATUS_RUNNING) {
            continue;
        }
        if (status != STATUS_ABORTED &&
            atomic_compare_exchange_strong(&sh->stop, &expected, status) &&
            status == PZ_STATUS_SOLVED) {
            atomic_store(&sh->winner, w->index);
        }
        break;
    }
    w->status = status;
    return NULL;
}

/*
 * Searches the iteration's sh->ntasks tasks on nthreads workers (the
 * calling thread is worker 0). Returns like dfs; when SOLVED, sh->winner
 * names the worker holding the solution. Otherwise *next becomes the
 * smallest f cut, if smaller.
 */
static int
run_tasks(shared_t *sh, worker_t *workers, int nthreads, int *next)
{
    worker_t *w0 = &workers[0];
    pthread_t tid[THREADS_MAX];
    bool started[THREADS_MAX] = { false };
    int stop;

    atomic_store(&sh->next_task, 0);
    atomic_store(&sh->stop, 0);
    for (int i = 1; i < nthreads; i++) {
        workers[i].next = INT_MAX;
        workers[i].status = PZ_STATUS_RUNNING;
        /* A thread that cannot start leaves its share to the others. */
        started[i] =
            pthread_create(&tid[i], NULL, worker_main, &workers[i]) == 0;
    }
    worker_main(w0);
    for (int i = 1; i < nthreads; i++) {
        if (started[i]) {
            pthread_join(tid[i], NULL);
        }
    }
    stop = atomic_load(&sh->stop);
    if (stop != 0) {
        return stop;
    }
    for (int i = 0; i < nthreads; i++) {
        if (workers[i].next < *next) {
            *next = workers[i].next;
        }
    }
    return PZ_STATUS_RUNNING;
}

/* Tasks by their moves (a shorter prefix first). */
static int
cmp_moves(const void *a, const void *b)
{
    const task_t *x = a;
    const task_t *y = b;
    int n = x->depth < y->depth ? x->depth : y->depth;
    int c = memcmp(x->moves, y->moves, (size_t)n);

    return c != 0 ? c : x->depth - y->depth;
}

/* Tasks by their weight below their roots in the last iteration, the
 * most first, then in the split's order. */
static int
cmp_prev(const void *a, const void *b)
{
    const task_t *x = a;
    const task_t *y = b;

    if (x->prev != y->prev) {
        return x->prev > y->prev ? -1 : 1;
    }
    return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * How many tasks to split an iteration into: enough to keep every
 * thread busy, and for a long search with the solver's own search (which
 * reports each task's expansions, so order_tasks can sort them) about
 * TASK_NODES expansions each, so that the order is fine-grained.
 */
static size_t
tasks_wanted(const shared_t *sh, int nthreads)
{
    size_t base = (size_t)sh->tasks_per_thread * (size_t)nthreads;
    uint64_t last = sh->iter_nodes[1];
    uint64_t before = sh->iter_nodes[0];
    uint64_t growth;
    uint64_t expect;

    if (sh->dfs == NULL || last == 0) {
        return base;
    }
    /* The iteration after this one, each grown as the last one grew (at
     * least twice): this split is as deep as that one will want, so
     * that its tasks' counts order the next. */
    growth = before != 0 && last / before > 2 ? last / before : 2;
    growth = growth < 64 ? growth : 64;
    expect = last / TASK_NODES * growth * growth;
    if (expect > TASKS_ORDERED_MAX) {
        expect = TASKS_ORDERED_MAX;
    }
    return expect > base ? (size_t)expect : base;
}

/*
 * Orders the split's tasks by the expansions below the same roots in the
 * last iteration, the most first. A subtree the last bound searched
 * deeply holds nodes whose estimates were low for their depth, the ones
 * most likely to reach the goal within the next bound (the published
 * H48 solver sorts its tasks by their counts, nissy-core doc/h48.md),
 * and in the last iteration the search ends as soon as one thread finds
 * it. Each expansion counts DEPTH_WEIGHT times more than one a level
 * higher, so the roots come nearly in the order of the deepest levels
 * their subtrees reached, and of how many nodes reached them: a node
 * expanded a level deeper had an estimate a move lower for its depth.
 */
static void
order_tasks(shared_t *sh)
{
    if (sh->nprev == 0 || sh->ntasks == 0) {
        return;
    }
    for (size_t i = 0; i < sh->ntasks; i++) {
        task_t key = sh->tasks[i];
        const task_t *t = NULL;

        /* A split deeper than the last one's reads its roots' ancestors. */
        if (key.depth >= sh->prev[0].depth) {
            key.depth = sh->prev[0].depth;
            t = bsearch(&key, sh->prev, sh->nprev, sizeof(task_t), cmp_moves);
        }
        /* A root's subtree is smaller by its count of next moves (fewer
         * after a move that another may not follow): counts are compared
         * per next move. */
        int next = __builtin_popcountll(puzzle_allowed_after(
            sh->p, sh->tasks[i].moves[sh->tasks[i].depth - 1]));

        sh->tasks[i].prev = t != NULL ? t->weight / (next > 0 ? next : 1) : 0;
    }
    qsort(sh->tasks, sh->ntasks, sizeof(task_t), cmp_prev);
}

/* Keeps the finished iteration's tasks for order_tasks (none when the
 * budget refuses: the next split keeps its own order). */
static void
keep_tasks(shared_t *sh)
{
    if (sh->ntasks == 0) {
        sh->nprev = 0;
        return;
    }
    if (sh->ntasks > sh->prev_cap) {
        task_t *prev = budget_realloc(sh->ctx->budget, sh->prev,
                                      sh->prev_cap * sizeof(task_t),
                                      sh->ntasks * sizeof(task_t));

        if (prev == NULL) {
            sh->nprev = 0;
            return;
        }
        sh->prev = prev;
        sh->prev_cap = sh->ntasks;
    }
    memcpy(sh->prev, sh->tasks, sh->ntasks * sizeof(task_t));
    sh->nprev = sh->ntasks;
    sh->iter_nodes[0] = sh->iter_nodes[1];
    sh->iter_nodes[1] = 0;
    for (size_t i = 0; i < sh->ntasks; i++) {
        sh->iter_nodes[1] += sh->tasks[i].nodes;
    }
    qsort(sh->prev, sh->nprev, sizeof(task_t), cmp_moves);
}

/* Drops the last iteration's tasks and counts (their memory too). */
static void
forget_tasks(shared_t *sh)
{
    budget_free(sh->ctx->budget, sh->prev, sh->prev_cap * sizeof(task_t));
    sh->prev = NULL;
    sh->prev_cap = 0;
    sh->nprev = 0;
    sh->iter_nodes[0] = 0;
    sh->iter_nodes[1] = 0;
    sh->split_last = 0;
}

/* The split pass at depth split: the tasks, from the start. */
static int
split_at(shared_t *sh, worker_t *w0, int h0, int split)
{
    sh->ntasks = 0;
    w0->next = INT_MAX;
    set_root(w0, h0);
    return dfs(w0, 0, split);
}

/*
 * One threaded iteration: split, then search the tasks on nthreads
 * workers. Returns like dfs; when SOLVED, sh->winner names the worker
 * holding the solution. Otherwise *next becomes the smallest f cut.
 */
static int
iterate_threaded(shared_t *sh,
                 worker_t *workers,
                 int nthreads,
                 int h0,
                 int *next)
{
    worker_t *w0 = &workers[0];
    int split_max = sh->bound < SPLIT_DEPTH_MAX ? sh->bound : SPLIT_DEPTH_MAX;
    int status = PZ_STATUS_RUNNING;
    size_t want = tasks_wanted(sh, nthreads);

    /* Tasks at depth 1 would be searched by the heuristic's own search,
     * which does not know next_todo: split at 2 at least then. Never
     * shallower than the last split, whose counts order these tasks. */
    int first = sh->next_cut && split_max >= 2 ? 2 : 1;
    int split;

    if (sh->iter_nodes[1] != 0 && sh->split_last > first &&
        sh->split_last <= split_max) {
        first = sh->split_last;
    }
    /* Deepen the split until the tasks can keep every thread busy (and,
     * for a long search, are small enough to order it). Nodes cut above
     * the split count toward the next bound only from the final pass. */
    for (split = first; split <= split_max; split++) {
        status = split_at(sh, w0, h0, split);
        if (status == PZ_ENOMEM && split == first && sh->prev != NULL) {
            /* No room for the last split's depth beside its counts: drop
             * them and split as a search without counts does. */
            forget_tasks(sh);
            want = tasks_wanted(sh, nthreads);
            first = sh->next_cut && split_max >= 2 ? 2 : 1;
            split = first - 1;
            continue;
        }
        if (status == PZ_ENOMEM && split > first) {
            /* No room for more tasks: the last split that fitted. */
            status = split_at(sh, w0, h0, split - 1);
            if (status == PZ_STATUS_RUNNING) {
                break;
            }
        }
        if (status != PZ_STATUS_RUNNING) {
            if (status == PZ_STATUS_SOLVED) {
                atomic_store(&sh->winner, 0);
            }
            return status;
        }
        if (sh->ntasks == 0 || sh->ntasks >= want) {
            break;
        }
    }
    if (sh->ntasks > 0) {
        sh->split_last = sh->tasks[0].depth;
    }
    order_tasks(sh);
    status = run_tasks(sh, workers, nthreads, next);
    if (status == PZ_STATUS_RUNNING && sh->dfs != NULL) {
        keep_tasks(sh);
    }
    return status;
}

/* One iteration of aida: every frontier node is a task, in the
 * frontier's order; those above the bound are cut as they are taken.
 * Returns like run_tasks. */
static int
iterate_frontier(shared_t *sh, worker_t *workers, int nthreads, int *next)
{
    sh->ntasks = sh->fr->count;
    workers[0].next = INT_MAX;
    return run_tasks(sh, workers, nthreads, next);
}

/* Counts A*'s work (e, g, d: expansions, generations, duplicates) as
 * worker 0's. */
static void
count_astar(shared_t *sh, worker_t *w0, uint64_t e, uint64_t g, uint64_t d)
{
    w0->meter.expanded += e;
    w0->meter.generated += g;
    w0->meter.duplicates += d;
    if (sh->threaded) {
        /* A*'s expansions count against the node limit beside worker
         * 0's grant, which it keeps. */
        atomic_fetch_add(&sh->quota_taken, e);
        w0->meter.next_poll += e;
    }
}

/* A*'s own answer (status SOLVED) as worker 0's. */
static void
take_astar_answer(shared_t *sh, worker_t *w0, const pz_solution_t *first)
{
    w0->length = first->length;
    w0->fr_depth = -1;
    memcpy(w0->moves, first->moves, (size_t)first->length);
    atomic_store(&sh->winner, 0);
}

/*
 * aida's first part: A* until sh->frontier_cap nodes (its counts go to
 * worker 0's). Returns RUNNING with sh->fr set and *bound the frontier's
 * least g + h, SOLVED (worker 0 holds the answer), another terminal
 * status or a negative PZ_E* code.
 */
static int
start_frontier(shared_t *sh, worker_t *workers, int *bound)
{
    pz_solution_t first;
    int status;

    status = astar_frontier(sh->ctx, sh->frontier_cap, &sh->frontier, &first);
    count_astar(sh, &workers[0], sh->frontier.expanded, sh->frontier.generated,
                sh->frontier.duplicates);
    if (status == PZ_STATUS_SOLVED) {
        take_astar_answer(sh, &workers[0], &first);
        return status;
    }
    if (status != PZ_STATUS_RUNNING) {
        return status;
    }
    sh->fr = &sh->frontier;
    *bound = sh->fr->fmin;
    return status;
}

/* Expansions of all workers so far. */
static uint64_t
expanded_total(const worker_t *workers, int nthreads)
{
    uint64_t e = 0;

    for (int i = 0; i < nthreads; i++) {
        e += workers[i].meter.expanded;
    }
    return e;
}

/* After an iteration, A* is resumed until its expansions reach
 * 1/FRONTIER_GROW_RATIO of the iteration's, the cap growing by
 * FRONTIER_GROWTH at a time. An expansion of A* (hash table, queue, one
 * thread) costs about ten of IDA*'s on two threads; the ratio was chosen
 * by measuring (docs/tables.md). */
#define FRONTIER_GROWTH     4
#define FRONTIER_GROW_RATIO 16

/*
 * Resumes A* to a larger cap after an iteration of `expanded` nodes, when
 * the iteration dwarfs A*'s expansions so far and the cap may grow.
 * Returns RUNNING (with *bound raised to the new frontier's least g + h,
 * no answer being shorter), SOLVED (worker 0 holds A*'s answer), another
 * terminal status or a negative PZ_E* code.
 */
static int
grow_frontier(shared_t *sh, worker_t *workers, uint64_t expanded, int *bound)
{
    const search_ctx_t *ctx = sh->ctx;
    worker_t *w0 = &workers[0];
    astar_frontier_t *fr = sh->fr;
    search_ctx_t actx = *ctx;
    uint64_t e0 = fr->expanded;
    uint64_t g0 = fr->generated;
    uint64_t d0 = fr->duplicates;
    uint64_t want = expanded / FRONTIER_GROW_RATIO;
    uint64_t cap = sh->frontier_cap;
    uint32_t stored;
    pz_solution_t first;
    int status;

    if (cap >= sh->frontier_max || want <= e0) {
        return PZ_STATUS_RUNNING;
    }
    /* A*'s expansions grow about as its nodes. */
    while (cap < sh->frontier_max && e0 * (cap / sh->frontier_cap) < want) {
        cap *= FRONTIER_GROWTH;
    }
    sh->frontier_cap =
        cap < sh->frontier_max ? (uint32_t)cap : sh->frontier_max;
    /* A* sees what is left of the node limit, and publishes nothing: its
     * counts start from zero, the job's do not. */
    actx.stats = NULL;
    if (actx.limits.max_nodes != 0) {
        uint64_t used =
            sh->threaded ? atomic_load(&sh->quota_taken) : w0->meter.expanded;

        if (used >= actx.limits.max_nodes) {
            return PZ_STATUS_NODE_LIMIT;
        }
        actx.limits.max_nodes -= used;
    }
    stored = fr->set.count;
    status = astar_frontier_grow(&actx, sh->frontier_cap, fr, &first);
    count_astar(sh, w0, fr->expanded - e0, fr->generated - g0,
                fr->duplicates - d0);
    if (status == PZ_STATUS_SOLVED) {
        take_astar_answer(sh, w0, &first);
        return status;
    }
    if (status != PZ_STATUS_RUNNING) {
        return status;
    }
    if (fr->set.count <= stored) {
        sh->frontier_max = sh->frontier_cap; /* no room to grow */
    }
    if (ctx->stats != NULL) {
        atomic_store_explicit(&ctx->stats->open_size, fr->count,
                              memory_order_relaxed);
    }
    *bound = fr->fmin > *bound ? fr->fmin : *bound;
    return status;
}

/*
 * The answer of w (SOLVED) into out. Below a frontier node, A*'s path to
 * the node comes first. That path is never longer than the node's g, and
 * is as long for the node of an answer: a shorter one (a reopening that
 * left the g stale) would make an answer shorter than the bound, and no
 * bound passes the optimum (each is the least g + h the last iteration
 * cut, or a frontier's least g + h).
 */
static void
answer_moves(const shared_t *sh, const worker_t *w, pz_solution_t *out)
{
    int below = w->length - w->fr_depth;

    if (w->fr_depth < 0) {
        out->length = w->length;
        memcpy(out->moves, w->moves, (size_t)w->length);
        return;
    }
    out->length = astar_frontier_path(sh->fr, w->fr_node, out->moves);
    memcpy(out->moves + out->length, w->moves + w->fr_depth, (size_t)below);
    out->length += below;
}

/* The search proper; the caller frees. Returns a terminal status or a
 * negative error code; when SOLVED, sh->winner names the worker. */
static int
run(shared_t *sh, worker_t *workers, int nthreads)
{
    const search_ctx_t *ctx = sh->ctx;
    pz_stats_t *st = ctx->stats;
    int max_depth =
        ctx->limits.max_depth > 0 && ctx->limits.max_depth < PZ_SOLUTION_MAX
            ? ctx->limits.max_depth
            : PZ_SOLUTION_MAX;
    int h0 = heuristic_eval(sh->h, &ctx->start);
    int bound = h0;

    if (sh->frontier_cap != 0) {
        int status = start_frontier(sh, workers, &bound);

        if (status != PZ_STATUS_RUNNING) {
            return status;
        }
    }
    for (int iteration = 1;; iteration++) {
        uint64_t before = expanded_total(workers, nthreads);
        int next = INT_MAX;
        int status;

        if (bound > max_depth) {
            return PZ_STATUS_DEPTH_LIMIT;
        }
        for (int i = 0; i < nthreads; i++) {
            int rc = reserve_frames(ctx, &workers[i], bound);

            if (rc != PZ_OK) {
                return rc;
            }
        }
        if (st != NULL) {
            atomic_store_explicit(&st->iterations, iteration,
                                  memory_order_relaxed);
            atomic_store_explicit(&st->depth_bound, bound,
                                  memory_order_relaxed);
        }
        sh->bound = bound;
        /* A bound of 0 leaves nothing to split (no child passes it). The
         * heuristic's own search takes its roots from the split, also on
         * one thread. */
        if (sh->fr != NULL) {
            status = iterate_frontier(sh, workers, nthreads, &next);
        } else if ((nthreads > 1 || sh->dfs != NULL) && bound > 0) {
            status = iterate_threaded(sh, workers, nthreads, h0, &next);
        } else {
            workers[0].next = INT_MAX;
            set_root(&workers[0], h0);
            status = dfs(&workers[0], 0, INT_MAX);
            next = workers[0].next;
            atomic_store(&sh->winner, 0);
        }
        if (sh->collect != NULL && sh->collect->found > 0) {
            pz_solutions_t *c = sh->collect;

            /* A limit after a solution still answers, and says so. */
            if (status != PZ_STATUS_RUNNING && status != PZ_STATUS_SOLVED) {
                c->stopped = status;
                return status < 0 ? status : PZ_STATUS_SOLVED;
            }
            if (status == PZ_STATUS_SOLVED) {
                return status; /* as many as wanted */
            }
            if (c->all_optimal || next == INT_MAX) {
                c->complete = true;
                return PZ_STATUS_SOLVED;
            }
        } else if (status != PZ_STATUS_RUNNING) {
            return status;
        }
        if (next == INT_MAX) {
            /* Nothing was cut: the whole reachable space was searched. */
            return PZ_STATUS_UNREACHABLE;
        }
        if (sh->fr != NULL) {
            status = grow_frontier(
                sh, workers, expanded_total(workers, nthreads) - before, &next);
            if (status != PZ_STATUS_RUNNING) {
                return status;
            }
        }
        bound = next;
    }
}

/* Publishes the final counts of all workers. */
static void
publish_final(const search_ctx_t *ctx, worker_t *workers, int nthreads)
{
    search_meter_t total = workers[0].meter;

    for (int i = 1; i < nthreads; i++) {
        total.expanded += workers[i].meter.expanded;
        total.generated += workers[i].meter.generated;
    }
    /* The verdict of this last poll no longer matters. */
    (void)search_poll(ctx, &total);
}

/* idastar_solve_split, and aida's search when frontier_cap > 0 (A*'s
 * nodes at first, growing up to frontier_max). */
static int
solve_split(const search_ctx_t *ctx,
            pz_solution_t *out,
            idastar_dfs_fn own_dfs,
            int tasks_per_thread,
            uint32_t frontier_cap,
            uint32_t frontier_max)
{
    int nthreads = ctx->threads < 1             ? 1
                   : ctx->threads > THREADS_MAX ? THREADS_MAX
                                                : ctx->threads;
    shared_t sh;
    worker_t *workers;
    int status;

    if (ctx->solutions != NULL) {
        solutions_reset(ctx->solutions);
    }
    if (puzzle_is_goal(ctx->puzzle, &ctx->start, &ctx->goal)) {
        out->length = 0;
        out->status = PZ_STATUS_SOLVED;
        if (ctx->solutions != NULL) {
            solutions_add(ctx->solutions, out->moves, 0);
            ctx->solutions->complete = true;
        }
        return PZ_OK;
    }
    memset(&sh, 0, sizeof(sh));
    sh.ctx = ctx;
    sh.p = ctx->puzzle;
    sh.h = ctx->heuristic;
    sh.hmax = heuristic_max(ctx->heuristic);
    sh.check_all = !heuristic_admissible(ctx->heuristic);
    /* A symmetric start needs one first move per class of moves its
     * symmetries exchange (the puzzle's root_moves, when it has one). */
    sh.collect = frontier_cap == 0 ? ctx->solutions : NULL;
    sh.frontier_cap = frontier_cap;
    sh.frontier_max = frontier_max;
    sh.root_todo = puzzle_allowed_after(sh.p, -1);
    if (sh.collect == NULL && frontier_cap == 0) {
        sh.root_todo &= puzzle_root_moves(sh.p, &ctx->start, &ctx->goal);
        puzzle_root_next_moves(sh.p, &ctx->start, &ctx->goal, sh.next_todo);
    } else {
        /* Every solution (on one thread), or aida, whose tasks are A*'s
         * open nodes: no first move stands for its symmetric ones. */
        nthreads = sh.collect != NULL ? 1 : nthreads;
        for (int m = 0; m < sh.p->nmoves; m++) {
            sh.next_todo[m] = puzzle_allowed_after(sh.p, m);
        }
    }
    for (int m = 0; m < sh.p->nmoves; m++) {
        sh.next_todo[m] &= puzzle_allowed_after(sh.p, m);
        sh.next_cut |= (sh.root_todo >> m & 1u) &&
                       sh.next_todo[m] != puzzle_allowed_after(sh.p, m);
    }
    sh.threaded = nthreads > 1;
    sh.dfs = sh.check_all || sh.collect != NULL || frontier_cap != 0 ? NULL
                                                                     : own_dfs;
    /* Duplicate strings are pruned by the engine's own search alone, and
     * never when every optimal solution is wanted or the root keeps one
     * move per symmetry class (the earliest string of a state may be in
     * a class left out). */
    if (sh.dfs == NULL && sh.collect == NULL && !sh.next_cut &&
        sh.root_todo == puzzle_allowed_after(sh.p, -1) &&
        !ctx->inverse_pruning_only) {
        sh.fsm = puzzle_move_fsm(sh.p);
    }
    sh.tasks_per_thread = sh.dfs != NULL && tasks_per_thread > 0
                              ? tasks_per_thread
                              : TASKS_PER_THREAD;
    sh.nthreads = nthreads;
    atomic_init(&sh.next_task, 0);
    atomic_init(&sh.stop, 0);
    atomic_init(&sh.winner, -1);
    atomic_init(&sh.expanded, 0);
    atomic_init(&sh.generated, 0);
    atomic_init(&sh.quota_taken, 0);
    workers = budget_calloc(ctx->budget, (size_t)nthreads * sizeof(worker_t));
    if (workers == NULL) {
        out->status = PZ_STATUS_MEMORY_LIMIT;
        return PZ_OK;
    }
    for (int i = 0; i < nthreads; i++) {
        worker_t *w = &workers[i];

        w->sh = &sh;
        w->index = i;
        w->fr_depth = -1;
        w->pctx = *ctx;
        if (sh.threaded) {
            /* Statistics and the node limit are merged in worker_poll. */
            w->pctx.stats = NULL;
            w->pctx.limits.max_nodes = 0;
        }
        search_meter_init(&w->pctx, &w->meter);
        if (sh.threaded) {
            (void)take_quota(w); /* the limit is >= 1: never refused */
        }
    }
    status = run(&sh, workers, nthreads);
    if (status == PZ_ENOMEM) {
        status = PZ_STATUS_MEMORY_LIMIT;
    }
    if (status == PZ_STATUS_SOLVED && sh.collect != NULL &&
        sh.collect->kept > 0) {
        out->length = sh.collect->length[0];
        memcpy(out->moves, solutions_moves(sh.collect, 0), (size_t)out->length);
    } else if (status == PZ_STATUS_SOLVED) {
        const worker_t *w = &workers[atomic_load(&sh.winner)];

        answer_moves(&sh, w, out);
    }
    publish_final(ctx, workers, nthreads);
    for (int i = 0; i < nthreads; i++) {
        budget_free(ctx->budget, workers[i].frames,
                    workers[i].nframes * sizeof(frame_t));
    }
    budget_free(ctx->budget, sh.tasks, sh.tasks_cap * sizeof(task_t));
    budget_free(ctx->budget, sh.prev, sh.prev_cap * sizeof(task_t));
    if (sh.fr != NULL) {
        astar_frontier_free(sh.fr, ctx->budget);
    }
    budget_free(ctx->budget, workers, (size_t)nthreads * sizeof(worker_t));
    if (status < 0) {
        out->status = PZ_STATUS_FAILED;
        return status;
    }
    out->status = status;
    return PZ_OK;
}

int
idastar_solve_split(const search_ctx_t *ctx,
                    pz_solution_t *out,
                    idastar_dfs_fn own_dfs,
                    int tasks_per_thread)
{
    return solve_split(ctx, out, own_dfs, tasks_per_thread, 0, 0);
}

static int
solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    return idastar_solve_with(ctx, out, NULL);
}

/* aida's A* nodes when the request names none: at first, and at most. */
#define AIDA_NODES_FIRST   (UINT32_C(1) << 10)
#define AIDA_NODES_DEFAULT (UINT32_C(1) << 24)

static int
solve_aida(const search_ctx_t *ctx, pz_solution_t *out)
{
    /* Half the budget left (the other half for the searches below it and
     * what the puzzle allocates), and no more than asked. */
    size_t fit = budget_available(ctx->budget) / 2 /
                 astar_frontier_node_bytes(ctx->puzzle);
    uint64_t cap =
        ctx->frontier_nodes != 0 ? ctx->frontier_nodes : AIDA_NODES_DEFAULT;
    uint64_t first;

    cap = cap < fit ? cap : fit;
    cap = cap > 0 ? cap : 1;
    first = ctx->frontier_nodes != 0 || cap < AIDA_NODES_FIRST
                ? cap
                : AIDA_NODES_FIRST;
    return solve_split(ctx, out, NULL, 0, (uint32_t)first, (uint32_t)cap);
}

const engine_ops_t engine__idastar = {
    .name = "idastar",
    .summary = "IDA* with move pruning and incremental heuristics; optimal "
               "with an admissible heuristic, memory proportional to depth; "
               "splits the search over threads when asked",
    .optimal = true,
    .uses_heuristic = true,
    .subsets = true,
    .several = true,
    .threads = true,
    .solve = solve,
};

const engine_ops_t engine__aida = {
    .name = "aida",
    .summary = "A*+IDA*: A* to a cap of nodes that grows with the search "
               "(up to half the memory budget), IDA* below each node A* "
               "left open, the nearest to the goal first; optimal with an "
               "admissible heuristic",
    .optimal = true,
    .uses_heuristic = true,
    .subsets = true,
    .threads = true,
    .solve = solve_aida,
};
