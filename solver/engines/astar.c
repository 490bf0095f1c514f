/* SPDX-License-Identifier: MIT */
/* astar.c - A* and weighted A* graph search over any puzzle.
 * Size: one search loop shared by every way of running it (A*, weighted,
 * anytime with its restarts and shortening, stopped at a node cap for
 * aida) with its open list, reopening and limits. */

/*
 * Design: every state seen lives once in a nodeset with its g, h, parent
 * and the move that reached it. The open list is a bucket queue on an
 * integer key: f = g + h for A*, round(8 * (g + w * h)) for weighted A*
 * (eighths of a move keep fractional weights meaningful). Buckets are
 * stacks, so among equal keys the most recently generated (usually the
 * deepest) node goes first, which finds the goal early in the last f layer.
 * Entries are deleted lazily: a node whose key changed, or that was
 * expanded since it was pushed, is skipped when popped. When a shorter path
 * to a seen node appears, the node takes the new g and parent and is pushed
 * again even if it was expanded (reopening), so an admissible but
 * inconsistent heuristic still yields an optimal answer. The goal is tested
 * when a node is expanded, never when it is generated, which is what makes
 * A*'s first goal optimal.
 *
 * Successors are limited to puzzle_allowed_after(move that reached the
 * node). Besides the inverse (which leads back to the parent, already seen
 * at a smaller g) this drops the puzzle's redundant pairs; each state at
 * distance d still has a shortest path whose every step is allowed after
 * the move recorded for its predecessor, because merging a same-face pair
 * would give a shorter path and swapping an out-of-order commuting pair
 * strictly raises the face order of the last move, which cannot go on.
 *
 * The anytime engine (anytime weighted A*; Hansen and Zhou, JAIR 28,
 * 2007) runs the weighted search on past its first answer: each goal
 * generated shorter than the best so far becomes the best (published to
 * the live statistics), and a node whose g + h reaches the best is
 * dropped, when generated or popped. With reopening, as long as the best
 * is not optimal some open node on an optimal path has its optimal g, so
 * the least g + h on the open list (counts kept per value) is a lower
 * bound on the optimum, also published: best / bound is the answer's
 * proven suboptimality. When the open list runs out the best is proven
 * optimal; a limit ends the search with the best so far.
 *
 * Each new best restarts the search from the start with a lower weight
 * (1 + (w - 1) / 2, down to 1), keeping the best for pruning and the
 * lower bound (restarting weighted A*: Richter, Thayer and Ruml, "The
 * joy of forgetting", ICAPS 2010): a high weight gives the first answer
 * soon, and the lower ones, pruned by an ever shorter best, then come
 * close to the optimum, where one weight kept throughout stays far from
 * it. Every answer is shortened where a small bidirectional search finds
 * a shorter path between two of its states (anytime_shorten).
 */
#include "astar.h"

#include <limits.h>
#include <stdint.h>

#include "engine_internal.h"

/* Node flags. */
#define NODE_OPEN   1u /* has a live entry in the open list */
#define NODE_CLOSED 2u /* expanded at its current g */

/* Key units per move for weighted A*; A* uses 1. */
#define WEIGHTED_SCALE 8.0

/* Keys past this are refused (memory_limit): the bucket array would be
 * absurd, and only absurd weights or heuristics produce them. */
#define KEY_MAX (UINT32_C(1) << 26)

/* Anytime: g + h values counted exactly below this; larger ones count
 * here (a lower bound taken from them is only lower). */
#define FCOUNT_MAX 4096

typedef struct bucket {
    uint32_t *items; /* node indices, a stack */
    uint32_t n;      /* used */
    uint32_t cap;    /* allocated */
} bucket_t;

/* The open list: buckets[k] holds nodes pushed with key k; min is a lower
 * bound on the smallest non-empty key. */
typedef struct bqueue {
    pz_budget_t *budget; /* borrowed */
    bucket_t *buckets;
    uint32_t nbuckets;
    uint32_t min;
} bqueue_t;

typedef struct astar {
    const search_ctx_t *ctx;
    const pz_puzzle_t *p;
    const pz_heuristic_t *h;
    double weight; /* 1 for A* */
    double scale;  /* key units per move */
    int max_depth; /* no node with a larger g is generated */
    nodeset_t set;
    bqueue_t open;
    uint64_t open_live; /* nodes with NODE_OPEN */
    bool depth_cut;     /* a successor was dropped for max_depth */
    uint32_t max_nodes; /* frontier: stop before passing it; 0 = none */
    uint32_t goal;      /* goal node found while generating, or
                           NODESET_NONE */
    search_meter_t meter;
    /* Anytime only (fcount != NULL): */
    pz_solution_t *out; /* holds the best answer so far */
    int best;           /* its length, INT_MAX before the first */
    int lower;          /* proven lower bound on the optimum */
    uint32_t *fcount;   /* open nodes per g + h, FCOUNT_MAX counters */
    uint64_t shortened; /* expansions of anytime_shorten's searches */
    bool restart;       /* a new best: search again with a lower weight */
} astar_t;

/* Internal status of run: a->restart was set. */
#define STATUS_RESTART PZ_STATUS_COUNT_
/* Internal status of run: a->max_nodes reached; the open nodes are the
 * frontier. */
#define STATUS_FULL (PZ_STATUS_COUNT_ + 1)

static void
bqueue_cleanup(bqueue_t *q)
{
    for (uint32_t k = 0; k < q->nbuckets; k++) {
        budget_free(q->budget, q->buckets[k].items,
                    q->buckets[k].cap * sizeof(uint32_t));
    }
    budget_free(q->budget, q->buckets, q->nbuckets * sizeof(bucket_t));
    q->buckets = NULL;
    q->nbuckets = 0;
}

/* Pushes index with key; PZ_ENOMEM when the budget cannot grow. */
static int
bqueue_push(bqueue_t *q, uint32_t key, uint32_t index)
{
    bucket_t *b;

    if (key >= KEY_MAX) {
        return PZ_ENOMEM;
    }
    if (key >= q->nbuckets) {
        uint32_t n = q->nbuckets != 0 ? q->nbuckets : 64;
        bucket_t *buckets;

        while (n <= key) {
            n *= 2;
        }
        buckets = budget_realloc(q->budget, q->buckets,
                                 q->nbuckets * sizeof(bucket_t),
                                 n * sizeof(bucket_t));
        if (buckets == NULL) {
            return PZ_ENOMEM;
        }
        memset(buckets + q->nbuckets, 0, (n - q->nbuckets) * sizeof(bucket_t));
        q->buckets = buckets;
        q->nbuckets = n;
    }
    b = &q->buckets[key];
    if (b->n == b->cap) {
        uint32_t cap = b->cap != 0 ? b->cap * 2 : 256;
        uint32_t *items;

        if (b->cap >= UINT32_MAX / 2) {
            return PZ_ENOMEM;
        }
        items = budget_realloc(q->budget, b->items, b->cap * sizeof(uint32_t),
                               cap * sizeof(uint32_t));
        if (items == NULL) {
            return PZ_ENOMEM;
        }
        b->items = items;
        b->cap = cap;
    }
    b->items[b->n++] = index;
    if (key < q->min) {
        q->min = key;
    }
    return PZ_OK;
}

/* Pops an entry with the smallest key into *index and *key; false when
 * the queue is empty. */
static bool
bqueue_pop(bqueue_t *q, uint32_t *index, uint32_t *key)
{
    while (q->min < q->nbuckets && q->buckets[q->min].n == 0) {
        q->min++;
    }
    if (q->min >= q->nbuckets) {
        return false;
    }
    *key = q->min;
    *index = q->buckets[q->min].items[--q->buckets[q->min].n];
    return true;
}

/* The open-list key of a node with g and h. */
static uint32_t
node_key(const astar_t *a, int g, int h)
{
    if (a->scale == 1.0) {
        return (uint32_t)(g + h);
    }
    return (uint32_t)(((double)g + a->weight * h) * a->scale + 0.5);
}

/* The counter of g + h value f. */
static inline int
fslot(int f)
{
    return f < FCOUNT_MAX ? f : FCOUNT_MAX - 1;
}

/* Sets g, h, parent, move and key of node i and puts it on the open list. */
static int
open_node(astar_t *a, uint32_t i, int g, int h)
{
    nodeset_node_t *n = nodeset_node(&a->set, i);

    if (a->fcount != NULL) {
        if (n->flags & NODE_OPEN) {
            a->fcount[fslot(n->g + n->h)]--;
        }
        a->fcount[fslot(g + (h > UINT16_MAX ? UINT16_MAX : h))]++;
    }
    n->g = (uint16_t)g;
    n->h = (uint16_t)(h > UINT16_MAX ? UINT16_MAX : h);
    n->key = node_key(a, g, n->h);
    /* Marked open before the push: a frontier taken after a refused push
     * still holds the node. */
    if (!(n->flags & NODE_OPEN)) {
        a->open_live++;
    }
    n->flags = NODE_OPEN;
    return bqueue_push(&a->open, n->key, i);
}

/* Writes the moves from the root of set to node i into moves and returns
 * their number. The path follows the parent links: a node reopened with a
 * shorter path leaves its descendants' g stale, so the length is counted,
 * not read from g. */
static int
set_path(const nodeset_t *set, uint32_t i, uint8_t *moves)
{
    int len = 0;

    for (uint32_t j = i; nodeset_node(set, j)->parent != NODESET_NONE;
         j = nodeset_node(set, j)->parent) {
        len++;
    }
    for (int k = len - 1; k >= 0; k--) {
        const nodeset_node_t *n = nodeset_node(set, i);

        moves[k] = n->move;
        i = n->parent;
    }
    return len;
}

/* Writes the moves from the root to node i into out. */
static void
build_path(const astar_t *a, uint32_t i, pz_solution_t *out)
{
    out->length = set_path(&a->set, i, out->moves);
}

/* Anytime: raises the lower bound to the least g + h on the open list
 * (or the best, when nothing below it is open) and publishes it. */
static void
anytime_publish_lower(astar_t *a)
{
    int top = a->best < FCOUNT_MAX ? a->best : FCOUNT_MAX - 1;
    /* From 0, not from the bound so far: an inconsistent estimate gives
     * children a smaller g + h than their parents', and a restarted
     * search opens the start again, both below the bound. */
    int f = 0;

    if (!heuristic_admissible(a->h)) {
        return; /* no bound from an estimate that may overestimate */
    }
    while (f < top && a->fcount[f] == 0) {
        f++;
    }
    if (f == top && a->best == INT_MAX) {
        return; /* nothing open and no answer: nothing to say */
    }
    if (f > a->lower) {
        a->lower = f;
    }
    if (a->lower > a->best) {
        a->lower = a->best;
    }
    if (a->ctx->stats != NULL) {
        atomic_store_explicit(&a->ctx->stats->lower_bound, a->lower,
                              memory_order_relaxed);
    }
}

/* The expansions one stretch's search may take, and those all the
 * shortening may take besides half the search's own. */
#define SHORTEN_NODES 200000
#define SHORTEN_FREE  20000
/* After the search ran out of memory: the longest stretch, and the
 * expansions one stretch's search may take then. */
#define SHORTEN_SPAN_LAST  48
#define SHORTEN_NODES_LAST 4000000

/*
 * Replaces stretches of the answer out by shorter paths between the same
 * two states where a bidirectional breadth-first search (each side about
 * half a stretch deep) finds one, stretches of 8 moves first, overlapping
 * by half, then longer ones up to span moves, each length until a pass
 * shortens nothing: the short stretches take out most detours at a few
 * hundred states a search, the longer (a few thousand) what is left. A weighted
 * search's answer wanders: this takes out the detours. Stops at the
 * job's deadline, cancel or memory limit, keeping what it has; the
 * searches' expansions are counted in the job's. The result is checked
 * to reach a goal, else out is left as it was.
 */
static void
anytime_shorten(astar_t *a, int span, uint64_t stretch_nodes, bool capped)
{
    const search_ctx_t *ctx = a->ctx;
    const engine_ops_t *bibfs = engine_find("bibfs");
    pz_solution_t *out = a->out;
    size_t bytes = (size_t)(PZ_SOLUTION_MAX + 1) * sizeof(pz_state_t);
    pz_state_t *at = budget_alloc(ctx->budget, bytes);
    uint8_t keep[PZ_SOLUTION_MAX];
    int keep_len = out->length;
    bool stop = false;

    if (at == NULL || bibfs == NULL || out->length < 2) {
        budget_free(ctx->budget, at, at != NULL ? bytes : 0);
        return;
    }
    memcpy(keep, out->moves, (size_t)out->length);
    at[0] = ctx->start;
    for (int k = 0; k < out->length; k++) {
        puzzle_apply(a->p, &at[k], out->moves[k], &at[k + 1]);
    }
    for (int w = 8, shorter = 0; w <= span && !stop; w += shorter ? 0 : 4) {
        shorter = 0;
        for (int i = 0; i + 2 <= out->length && !stop; i += w / 2) {
            int j = i + w < out->length ? i + w : out->length;
            search_ctx_t sub = *ctx;
            uint64_t nodes = stretch_nodes;
            pz_stats_t stats;
            pz_solution_t part;
            int tail;

            /* The shortening takes at most a third of the work, so the
             * search keeps finding better answers; the job's node limit
             * holds for it too. */
            uint64_t own = a->meter.expanded - a->shortened;
            uint64_t share = own / 2 + SHORTEN_FREE;

            if (!capped) {
                share = UINT64_MAX;
            } else if (a->shortened >= share) {
                stop = true;
                break;
            }
            if (share - a->shortened < nodes) {
                nodes = share - a->shortened;
            }
            if (ctx->limits.max_nodes > 0) {
                uint64_t left = ctx->limits.max_nodes > a->meter.expanded
                                    ? ctx->limits.max_nodes - a->meter.expanded
                                    : 0;

                if (left == 0) {
                    stop = true;
                    break;
                }
                nodes = left < nodes ? left : nodes;
            }
            stats_init(&stats);
            sub.heuristic = NULL;
            sub.start = at[i];
            sub.goal = at[j];
            sub.threads = 1;
            sub.stats = &stats;
            sub.solutions = NULL;
            sub.known_length = 0;
            sub.limits.max_depth = j - i - 1;
            sub.limits.max_nodes = nodes;
            solution_clear(&part);
            if (bibfs->solve(&sub, &part) != PZ_OK) {
                stop = true;
                break;
            }
            a->meter.expanded += atomic_load(&stats.nodes_expanded);
            a->shortened += atomic_load(&stats.nodes_expanded);
            a->meter.generated += atomic_load(&stats.nodes_generated);
            stop = part.status != PZ_STATUS_SOLVED &&
                   part.status != PZ_STATUS_DEPTH_LIMIT &&
                   part.status != PZ_STATUS_NODE_LIMIT;
            if (part.status != PZ_STATUS_SOLVED || part.length >= j - i) {
                continue;
            }
            /* Splice: moves [i, j) become the part; the states from i on
             * are recomputed. */
            tail = out->length - j;
            memmove(out->moves + i + part.length, out->moves + j, (size_t)tail);
            memcpy(out->moves + i, part.moves, (size_t)part.length);
            out->length = i + part.length + tail;
            for (int k = i; k < out->length; k++) {
                puzzle_apply(a->p, &at[k], out->moves[k], &at[k + 1]);
            }
            shorter = 1;
        }
    }
    if (!puzzle_is_goal(a->p, &at[out->length], &ctx->goal)) {
        memcpy(out->moves, keep, (size_t)keep_len);
        out->length = keep_len;
    }
    budget_free(ctx->budget, at, bytes);
}

/* Anytime: out holds a new best answer; shortens and publishes it, and
 * the lower bound when the search is under way (searching: before it
 * starts nothing is open, which would prove nothing). */
static void
anytime_publish_best(astar_t *a, bool searching)
{
    /* Before the search, short stretches only: the search's first answer
     * is due within milliseconds. */
    anytime_shorten(a, searching ? 24 : 16, SHORTEN_NODES, true);
    a->best = a->out->length;
    a->out->status = PZ_STATUS_SOLVED;
    if (a->ctx->stats != NULL) {
        stats_publish_best(a->ctx->stats, a->out->moves, a->out->length);
        atomic_store_explicit(&a->ctx->stats->best_length, a->best,
                              memory_order_relaxed);
    }
    if (searching) {
        anytime_publish_lower(a);
    } else if (a->ctx->stats != NULL) {
        atomic_store_explicit(&a->ctx->stats->lower_bound, a->lower,
                              memory_order_relaxed);
    }
}

/* Anytime: node i (a goal) is the best answer so far. */
static void
anytime_best(astar_t *a, uint32_t i)
{
    build_path(a, i, a->out);
    anytime_publish_best(a, true);
    a->restart = a->weight > 1.0;
}

/* Generates the successors of node i (state s, already loaded). */
static int
expand(astar_t *a, uint32_t i, const pz_state_t *s)
{
    const nodeset_node_t *n = nodeset_node(&a->set, i);
    int g = n->g + 1;
    int h_parent = n->h;
    uint64_t allowed =
        puzzle_allowed_after(a->p, n->parent == NODESET_NONE ? -1 : n->move);
    pz_state_t child;

    if (g > a->max_depth) {
        a->depth_cut = true;
        return PZ_OK;
    }
    state_clear(&child);
    for (; allowed != 0; allowed &= allowed - 1) {
        int m = __builtin_ctzll(allowed);
        nodeset_result_t r;
        nodeset_node_t *c;
        int rc;

        if (!puzzle_apply(a->p, s, m, &child)) {
            continue;
        }
        a->meter.generated++;
        rc = nodeset_add(&a->set, &child, nodeset_hash(&a->set, &child), &r);
        if (rc != PZ_OK) {
            return rc;
        }
        c = nodeset_node(&a->set, r.index);
        if (!r.added) {
            if (c->g <= g) {
                a->meter.duplicates++;
                continue;
            }
            /* A shorter path to a seen state: take it (reopening). */
        }
        c->parent = i;
        c->move = (uint8_t)m;
        if (a->fcount != NULL) {
            int hc =
                r.added ? heuristic_update(a->h, s, h_parent, m, &child) : c->h;

            if (g < a->best && puzzle_is_goal(a->p, &child, &a->ctx->goal)) {
                if (c->flags & NODE_OPEN) {
                    a->fcount[fslot(c->g + c->h)]--;
                    a->open_live--;
                    c->flags = NODE_CLOSED;
                }
                c->g = (uint16_t)g;
                anytime_best(a, r.index);
            }
            if (g + hc >= a->best) {
                /* Cannot beat the best: kept seen at this g, not open. */
                if (c->flags & NODE_OPEN) {
                    a->fcount[fslot(c->g + c->h)]--;
                    a->open_live--;
                }
                c->g = (uint16_t)g;
                c->h = (uint16_t)(hc > UINT16_MAX ? UINT16_MAX : hc);
                c->flags = NODE_CLOSED;
                continue;
            }
            rc = open_node(a, r.index, g, hc);
            if (rc != PZ_OK) {
                return rc;
            }
            continue;
        }
        rc = open_node(a, r.index, g,
                       r.added ? heuristic_update(a->h, s, h_parent, m, &child)
                               : c->h);
        if (rc != PZ_OK) {
            return rc;
        }
        /* With weight 1 the parent's f is the least f of any open node, so
         * with an admissible h no solution is shorter than it: a goal made
         * at g <= f is optimal now, and the rest of the last f layer need
         * not be expanded. */
        if (a->scale == 1.0 && g <= (int)n->key &&
            puzzle_is_goal(a->p, &child, &a->ctx->goal)) {
            a->goal = r.index;
            return PZ_OK;
        }
    }
    return PZ_OK;
}

/* Expands the open list of a until a terminal status; the caller frees.
 * Returns a terminal status or a negative error code. */
static int
search(astar_t *a, pz_solution_t *out)
{
    const search_ctx_t *ctx = a->ctx;
    pz_state_t s;
    int rc;

    state_clear(&s);
    for (;;) {
        uint32_t i;
        uint32_t key;
        nodeset_node_t *n;
        int status;
        int fc;

        if (!bqueue_pop(&a->open, &i, &key)) {
            if (a->fcount != NULL && a->best != INT_MAX) {
                /* Nothing left that could be shorter. */
                a->lower = a->best;
                out->proven = !a->depth_cut;
                return PZ_STATUS_SOLVED;
            }
            return a->depth_cut ? PZ_STATUS_DEPTH_LIMIT : PZ_STATUS_UNREACHABLE;
        }
        n = nodeset_node(&a->set, i);
        if (!(n->flags & NODE_OPEN) || n->key != key) {
            continue; /* stale entry: expanded or re-keyed since */
        }
        n->flags = NODE_CLOSED;
        a->open_live--;
        /* Anytime: the node's count stays until it is expanded, so a
         * bound published meanwhile (or at a limit) still sees it. */
        fc = (int)n->g + n->h;
        if (a->fcount != NULL && fc >= a->best) {
            a->fcount[fslot(fc)]--;
            continue;
        }
        nodeset_load(&a->set, i, &s);
        if (puzzle_is_goal(a->p, &s, &ctx->goal)) {
            if (a->fcount != NULL) {
                a->fcount[fslot(fc)]--;
                anytime_best(a, i);
                if (a->best <= ctx->target_length) {
                    return PZ_STATUS_SOLVED;
                }
                if (a->restart) {
                    return STATUS_RESTART;
                }
                continue;
            }
            build_path(a, i, out);
            return PZ_STATUS_SOLVED;
        }
        /* A frontier search stops before an expansion could pass its
         * cap; the node goes back to the frontier. */
        if (a->max_nodes != 0 &&
            (size_t)a->set.count + (size_t)a->p->nmoves > a->max_nodes) {
            n->flags = NODE_OPEN;
            a->open_live++;
            return STATUS_FULL;
        }
        status = search_tick(ctx, &a->meter);
        if (status != PZ_STATUS_RUNNING) {
            return status;
        }
        if (ctx->stats != NULL &&
            (a->meter.expanded & (PZ_POLL_INTERVAL - 1)) == 0) {
            atomic_store_explicit(&ctx->stats->open_size, a->open_live,
                                  memory_order_relaxed);
        }
        rc = expand(a, i, &s);
        if (rc == PZ_ENOMEM && a->max_nodes != 0) {
            /* Partly expanded: searched again from the frontier. */
            n = nodeset_node(&a->set, i);
            n->flags = NODE_OPEN;
            a->open_live++;
            return STATUS_FULL;
        }
        if (rc != PZ_OK) {
            return rc;
        }
        if (a->fcount != NULL) {
            a->fcount[fslot(fc)]--;
            if ((a->meter.expanded & (PZ_POLL_INTERVAL - 1)) == 0) {
                anytime_publish_lower(a);
            }
        }
        if (a->fcount != NULL && a->best <= ctx->target_length) {
            return PZ_STATUS_SOLVED; /* short enough for the caller */
        }
        if (a->restart) {
            return STATUS_RESTART;
        }
        if (a->goal != NODESET_NONE) {
            build_path(a, a->goal, out);
            return PZ_STATUS_SOLVED;
        }
    }
}

/* The search proper, from the start alone; the caller frees. Returns a
 * terminal status or a negative error code. */
static int
run(astar_t *a, pz_solution_t *out)
{
    const search_ctx_t *ctx = a->ctx;
    nodeset_result_t r;
    int rc;

    rc = nodeset_init(&a->set, a->p, ctx->budget);
    if (rc != PZ_OK) {
        return rc;
    }
    rc = nodeset_add(&a->set, &ctx->start, nodeset_hash(&a->set, &ctx->start),
                     &r);
    if (rc != PZ_OK) {
        return rc;
    }
    rc = open_node(a, r.index, 0, heuristic_eval(a->h, &ctx->start));
    if (rc != PZ_OK) {
        return rc;
    }
    return search(a, out);
}

/* Prepares a for a search of ctx with weight (1: A*), no node cap and no
 * anytime part. */
static void
astar_init(astar_t *a, const search_ctx_t *ctx, double weight)
{
    memset(a, 0, sizeof(*a));
    a->best = INT_MAX;
    a->ctx = ctx;
    a->p = ctx->puzzle;
    a->h = ctx->heuristic;
    a->weight = weight;
    a->goal = NODESET_NONE;
    a->scale = weight == 1.0 ? 1.0 : WEIGHTED_SCALE;
    a->max_depth =
        ctx->limits.max_depth > 0 && ctx->limits.max_depth < PZ_SOLUTION_MAX
            ? ctx->limits.max_depth
            : PZ_SOLUTION_MAX;
    a->open.budget = ctx->budget;
    search_meter_init(ctx, &a->meter);
}

static int
solve_weighted(const search_ctx_t *ctx,
               double weight,
               bool anytime,
               pz_solution_t *out)
{
    astar_t a;
    int status;

    astar_init(&a, ctx, weight);
    if (anytime) {
        a.fcount = budget_calloc(ctx->budget, FCOUNT_MAX * sizeof(*a.fcount));
        if (a.fcount == NULL) {
            out->status = PZ_STATUS_MEMORY_LIMIT;
            return PZ_OK;
        }
        a.out = out;
        a.lower = heuristic_eval(ctx->heuristic, &ctx->start);
    }
    if (anytime) {
        /* A quick answer of the puzzle's own, where it has one, is the
         * first best: an answer at once, and a bound from the start. */
        out->length = puzzle_quick_solve(ctx->puzzle, &ctx->start, &ctx->goal,
                                         out->moves, PZ_SOLUTION_MAX);
        if (out->length >= 0 && ctx->limits.max_depth > 0 &&
            out->length > ctx->limits.max_depth) {
            out->length = -1; /* too long for the request */
        }
        if (out->length >= 0) {
            anytime_publish_best(&a, false);
        }
    }
    status = run(&a, out);
    while (status == STATUS_RESTART) {
        /* A new best: the same search from the start, weight lowered. */
        bqueue_cleanup(&a.open);
        nodeset_cleanup(&a.set);
        memset(a.fcount, 0, FCOUNT_MAX * sizeof(*a.fcount));
        a.open_live = 0;
        a.depth_cut = false;
        a.restart = false;
        a.weight = 1.0 + (a.weight - 1.0) / 2.0;
        if (a.weight < 1.1) {
            a.weight = 1.0;
        }
        status = run(&a, out);
    }
    if (status == PZ_ENOMEM) {
        status = PZ_STATUS_MEMORY_LIMIT;
    }
    if (anytime && a.best != INT_MAX && status == PZ_STATUS_MEMORY_LIMIT) {
        /* The search's memory is spent but not its time: its nodes go,
         * and the rest of the time shortens the best with longer
         * stretches (the deadline or cancel ends it). */
        bqueue_cleanup(&a.open);
        nodeset_cleanup(&a.set);
        anytime_shorten(&a, SHORTEN_SPAN_LAST, SHORTEN_NODES_LAST, false);
        a.best = out->length;
        if (ctx->stats != NULL) {
            stats_publish_best(ctx->stats, out->moves, out->length);
            atomic_store(&ctx->stats->best_length, a.best);
        }
    }
    if (anytime) {
        /* A limit after the first answer ends with the best so far. */
        if (a.best != INT_MAX && status != PZ_STATUS_SOLVED && status >= 0) {
            status = PZ_STATUS_SOLVED;
        }
        if (a.best != INT_MAX) {
            anytime_publish_lower(&a);
        }
        budget_free(ctx->budget, a.fcount, FCOUNT_MAX * sizeof(*a.fcount));
    }
    /* Publish the final counts; the limit verdict no longer matters. */
    (void)search_poll(ctx, &a.meter);
    if (ctx->stats != NULL) {
        atomic_store_explicit(&ctx->stats->open_size, a.open_live,
                              memory_order_relaxed);
    }
    bqueue_cleanup(&a.open);
    nodeset_cleanup(&a.set);
    if (status < 0) {
        out->status = PZ_STATUS_FAILED;
        return status;
    }
    out->status = status;
    return PZ_OK;
}

/* Sorts the n nodes of from into to by key (h when by_h, else g + h),
 * stably; count has room for every key (zeroed here). */
static void
counting_sort(const nodeset_t *set,
              const uint32_t *from,
              uint32_t *to,
              size_t n,
              size_t *count,
              size_t nkeys,
              bool by_h)
{
    size_t sum = 0;

    memset(count, 0, nkeys * sizeof(size_t));
    for (size_t k = 0; k < n; k++) {
        const nodeset_node_t *node = nodeset_node(set, from[k]);

        count[by_h ? node->h : node->g + node->h]++;
    }
    for (size_t k = 0; k < nkeys; k++) {
        size_t c = count[k];

        count[k] = sum;
        sum += c;
    }
    for (size_t k = 0; k < n; k++) {
        const nodeset_node_t *node = nodeset_node(set, from[k]);

        to[count[by_h ? node->h : node->g + node->h]++] = from[k];
    }
}

/*
 * Puts the open nodes of a into fr->nodes, by h and then by g + h, and
 * their g + h into fr->f. Returns PZ_OK or PZ_ENOMEM.
 */
static int
collect_frontier(const astar_t *a, astar_frontier_t *fr)
{
    pz_budget_t *budget = a->ctx->budget;
    const nodeset_t *set = &a->set;
    size_t n = 0;
    size_t hmax = 0;
    size_t fmax = 0;
    size_t nkeys;
    size_t *count;
    uint32_t *tmp;
    int rc = PZ_ENOMEM;

    for (uint32_t i = 0; i < set->count; i++) {
        const nodeset_node_t *node = nodeset_node(set, i);

        if (node->flags & NODE_OPEN) {
            n++;
            hmax = node->h > hmax ? node->h : hmax;
            fmax = (size_t)node->g + node->h > fmax ? (size_t)node->g + node->h
                                                    : fmax;
        }
    }
    nkeys = fmax + 1; /* > hmax */
    fr->nodes = budget_alloc(budget, n * sizeof(uint32_t));
    tmp = budget_alloc(budget, n * sizeof(uint32_t));
    count = budget_alloc(budget, nkeys * sizeof(size_t));
    if (fr->nodes != NULL && tmp != NULL && count != NULL) {
        size_t k = 0;

        for (uint32_t i = 0; i < set->count; i++) {
            if (nodeset_node(set, i)->flags & NODE_OPEN) {
                fr->nodes[k++] = i;
            }
        }
        counting_sort(set, fr->nodes, tmp, n, count, nkeys, false);
        counting_sort(set, tmp, fr->nodes, n, count, hmax + 1, true);
        fr->count = n;
        rc = PZ_OK;
    }
    budget_free(budget, count, count != NULL ? nkeys * sizeof(size_t) : 0);
    budget_free(budget, tmp, tmp != NULL ? n * sizeof(uint32_t) : 0);
    if (rc == PZ_OK) {
        fr->f = budget_alloc(budget, n * sizeof(uint16_t));
        rc = fr->f != NULL ? PZ_OK : PZ_ENOMEM;
        fr->fmin = INT_MAX;
        for (size_t k = 0; rc == PZ_OK && k < n; k++) {
            const nodeset_node_t *node = nodeset_node(set, fr->nodes[k]);
            int f = node->g + node->h;

            fr->f[k] = (uint16_t)(f < UINT16_MAX ? f : UINT16_MAX);
            fr->fmin = f < fr->fmin ? f : fr->fmin;
        }
    }
    if (rc != PZ_OK) {
        budget_free(budget, fr->nodes,
                    fr->nodes != NULL ? n * sizeof(uint32_t) : 0);
        fr->nodes = NULL;
        fr->count = 0;
    }
    return rc;
}

/* Ends a frontier search of a that stopped with status: its open nodes
 * into fr (counts added to fr's), or its nodes freed. Returns like
 * astar_frontier. */
static int
finish_frontier(astar_t *a, int status, astar_frontier_t *fr)
{
    /* The queue goes first: its memory makes room for the frontier. */
    bqueue_cleanup(&a->open);
    if (status == STATUS_FULL) {
        status = collect_frontier(a, fr);
        status = status == PZ_OK ? PZ_STATUS_RUNNING : status;
    }
    fr->expanded += a->meter.expanded;
    fr->generated += a->meter.generated;
    fr->duplicates += a->meter.duplicates;
    fr->depth_cut = a->depth_cut;
    if (status == PZ_STATUS_RUNNING) {
        fr->set = a->set;
        if (a->ctx->stats != NULL) {
            atomic_store_explicit(&a->ctx->stats->open_size, fr->count,
                                  memory_order_relaxed);
        }
        return status;
    }
    nodeset_cleanup(&a->set);
    return status == PZ_ENOMEM ? PZ_STATUS_MEMORY_LIMIT : status;
}

/* Frees fr's sorted open nodes (the set stays). */
static void
drop_order(astar_frontier_t *fr, pz_budget_t *budget)
{
    budget_free(budget, fr->nodes, fr->count * sizeof(uint32_t));
    budget_free(budget, fr->f, fr->count * sizeof(uint16_t));
    fr->nodes = NULL;
    fr->f = NULL;
    fr->count = 0;
}

int
astar_frontier(const search_ctx_t *ctx,
               uint32_t max_nodes,
               astar_frontier_t *fr,
               pz_solution_t *out)
{
    astar_t a;

    memset(fr, 0, sizeof(*fr));
    astar_init(&a, ctx, 1.0);
    a.max_nodes = max_nodes;
    return finish_frontier(&a, run(&a, out), fr);
}

int
astar_frontier_grow(const search_ctx_t *ctx,
                    uint32_t max_nodes,
                    astar_frontier_t *fr,
                    pz_solution_t *out)
{
    astar_t a;
    int status = STATUS_FULL;

    astar_init(&a, ctx, 1.0);
    a.max_nodes = max_nodes;
    a.depth_cut = fr->depth_cut;
    a.set = fr->set;
    drop_order(fr, ctx->budget);
    memset(&fr->set, 0, sizeof(fr->set));
    /* The open list again, from the nodes still marked open (their keys
     * are as A* left them). Without room for it the frontier stays as
     * it was. */
    for (uint32_t i = 0; i < a.set.count; i++) {
        const nodeset_node_t *node = nodeset_node(&a.set, i);

        if (node->flags & NODE_OPEN) {
            a.open_live++;
            if (bqueue_push(&a.open, node->key, i) != PZ_OK) {
                return finish_frontier(&a, STATUS_FULL, fr);
            }
        }
    }
    if (max_nodes > a.set.count) {
        status = search(&a, out);
        if (status == PZ_ENOMEM) {
            status = STATUS_FULL; /* the frontier as far as it got */
        }
    }
    return finish_frontier(&a, status, fr);
}

int
astar_frontier_path(const astar_frontier_t *fr, uint32_t i, uint8_t *moves)
{
    return set_path(&fr->set, i, moves);
}

size_t
astar_frontier_node_bytes(const pz_puzzle_t *p)
{
    /* Table slots at 35-70% load, both tables while it doubles; queue
     * entries with stale ones and doubling slack; the sorted frontier. */
    return sizeof(nodeset_node_t) + ((p->state_size + 7) & ~(size_t)7) + 48;
}

void
astar_frontier_free(astar_frontier_t *fr, pz_budget_t *budget)
{
    drop_order(fr, budget);
    nodeset_cleanup(&fr->set);
    memset(fr, 0, sizeof(*fr));
}

static int
solve_astar(const search_ctx_t *ctx, pz_solution_t *out)
{
    return solve_weighted(ctx, 1.0, false, out);
}

static int
solve_wastar(const search_ctx_t *ctx, pz_solution_t *out)
{
    return solve_weighted(ctx, ctx->weight >= 1.0 ? ctx->weight : 1.0, false,
                          out);
}

static int
solve_anytime(const search_ctx_t *ctx, pz_solution_t *out)
{
    return solve_weighted(ctx, ctx->weight >= 1.0 ? ctx->weight : 1.0, true,
                          out);
}

const engine_ops_t engine__astar = {
    .name = "astar",
    .summary = "A* graph search with a bucket queue and reopening; optimal "
               "with an admissible heuristic, memory grows with the states "
               "seen",
    .optimal = true,
    .uses_heuristic = true,
    .subsets = true,
    .solve = solve_astar,
};

const engine_ops_t engine__wastar = {
    .name = "wastar",
    .summary = "weighted A*, f = g + weight * h; answers within weight "
               "times the optimum, usually far faster than A*",
    .optimal = false,
    .uses_heuristic = true,
    .subsets = true,
    .solve = solve_wastar,
};

const engine_ops_t engine__anytime = {
    .name = "anytime",
    .summary = "anytime weighted A*: weighted A*'s first answer (weight 3 "
               "unless given), then better ones, restarting with a lower "
               "weight after each, until the time limit or a proof of "
               "optimality; stats carry the best length and a proven lower "
               "bound",
    .optimal = false,
    .uses_heuristic = true,
    .subsets = true,
    .solve = solve_anytime,
};
