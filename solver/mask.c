/* SPDX-License-Identifier: MIT */
/* mask.c - goals that care about some pieces only: the masked instance,
 * and the pattern databases its searches build for themselves. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "heuristic.h"
#include "puzzle.h"
#include "search.h"
#include "tables.h"

/* --- the masked instance --- */

size_t
puzzle_run_bytes(const pz_puzzle_t *p, const puzzle_pieces_t *run)
{
    return run->count != 0 ? run->count
                           : p->state_size - run->offset - run->tail;
}

void
puzzle_piece_name(const pz_puzzle_t *p,
                  int run,
                  int piece,
                  char *buf,
                  size_t len)
{
    const puzzle_pieces_t *r = &puzzle_pieces(p)[run];

    if (r->names != NULL) {
        snprintf(buf, len, "%s", r->names[piece]);
    } else {
        snprintf(buf, len, "%d", piece);
    }
}

/* Adds the piece named name (any kind) to care: its bit in full, or with
 * a leading '~' in classed (its orientation only). False when none is. */
static bool
care_piece(const pz_puzzle_t *p, const char *name, puzzle_care_t *care)
{
    const puzzle_pieces_t *runs = puzzle_pieces(p);
    bool oriented = name[0] == '~';

    name += oriented;
    for (int r = 0; runs[r].name != NULL; r++) {
        int n = (int)puzzle_run_bytes(p, &runs[r]);

        for (int k = 0; k < n && k < 64; k++) {
            char buf[16];

            puzzle_piece_name(p, r, k, buf, sizeof(buf));
            if (strcasecmp(buf, name) == 0) {
                if (oriented && runs[r].orientations > 1) {
                    care->classed[r] |= UINT64_C(1) << k;
                } else {
                    care->full[r] |= UINT64_C(1) << k;
                }
                return true;
            }
        }
    }
    return false;
}

/* Adds the pieces of preset name; false when p has no such preset. */
static bool
care_preset(const pz_puzzle_t *p, const char *name, puzzle_care_t *care)
{
    for (const puzzle_preset_t *q = puzzle_presets(p); q != NULL && q->name;
         q++) {
        const char *t = q->pieces;

        if (strcasecmp(q->name, name) != 0) {
            continue;
        }
        while (*t != '\0') {
            char piece[16];
            size_t len = strcspn(t, " ");

            snprintf(piece, sizeof(piece), "%.*s", (int)len, t);
            if (len > 0 && !care_piece(p, piece, care)) {
                return false; /* a preset naming no piece: a bug */
            }
            t += len;
            t += *t == ' ';
        }
        return true;
    }
    return false;
}

/*
 * The renaming of care into m->code: a piece cared about in full keeps
 * its byte; the pieces cared about for their orientation only become the
 * lowest of them, with their orientation; every other piece becomes the
 * lowest of those, without orientation. Sliding pieces' blank is always
 * kept whole. Sets m->care.
 */
static void
fill_code(const pz_puzzle_t *p, const puzzle_care_t *care, puzzle_mask_t *m)
{
    const puzzle_pieces_t *runs = puzzle_pieces(p);

    for (size_t i = 0; i < PZ_STATE_MAX; i++) {
        for (int v = 0; v < 256; v++) {
            m->code[i][v] = (uint8_t)v;
        }
    }
    m->care = *care;
    for (int r = 0; runs[r].name != NULL && r < PUZZLE_RUNS_MAX; r++) {
        const puzzle_pieces_t *run = &runs[r];
        int npieces = (int)puzzle_run_bytes(p, run);
        int k = run->orientations;
        uint64_t full = care->full[r] | (run->rigid ? 0 : 1);
        uint64_t cls = care->classed[r] & ~full;
        uint64_t rest = ~(full | cls);
        int rep = cls != 0 ? __builtin_ctzll(cls) : -1;
        int wild = rest != 0 ? __builtin_ctzll(rest) : -1;

        m->care.full[r] = full;
        m->care.classed[r] = cls;
        m->wild_code[r] = wild >= 0 ? wild * k : -1;
        for (int i = 0; i < npieces; i++) {
            for (int v = 0; v < npieces * k && v < 256; v++) {
                int piece = v / k;

                if (cls >> piece & 1) {
                    m->code[run->offset + i][v] = (uint8_t)(rep * k + v % k);
                } else if (!(full >> piece & 1) && wild >= 0) {
                    m->code[run->offset + i][v] = (uint8_t)(wild * k);
                }
            }
        }
    }
}

int
puzzle_mask_care(pz_puzzle_t *p, const char *const *names, int n, pz_diag_t *d)
{
    const puzzle_pieces_t *runs = puzzle_pieces(p);
    puzzle_care_t care;
    puzzle_mask_t *m;

    memset(&care, 0, sizeof(care));
    for (int r = 0; runs != NULL && runs[r].name != NULL; r++) {
        /* Pieces named only by their bytes' values, such as twists kept
         * in place, cannot be told apart: no mask. */
        if (runs[r].rigid && runs[r].names == NULL) {
            runs = NULL;
        }
    }
    if (runs == NULL) {
        return pz_diag_set(d, PZ_EUNSUPPORTED,
                           "the %s does not take goals that care about some "
                           "pieces",
                           p->id);
    }
    for (int i = 0; i < n; i++) {
        if (!care_piece(p, names[i], &care) &&
            !care_preset(p, names[i], &care)) {
            return pz_diag_set(d, PZ_EINVAL,
                               "'%.40s' is neither a piece nor a preset of "
                               "the %s; GET /v1/puzzles lists them",
                               names[i], p->id);
        }
    }
    m = calloc(1, sizeof(*m));
    if (m == NULL) {
        return pz_diag_set(d, PZ_ENOMEM, "out of memory");
    }
    fill_code(p, &care, m);
    /* A blank the request did not name may end anywhere the goal does
     * not care about. */
    for (int r = 0; runs[r].name != NULL && r < PUZZLE_RUNS_MAX; r++) {
        if (!runs[r].rigid && !(care.full[r] & 1) && m->wild_code[r] >= 0) {
            m->free_blank = true;
        }
    }
    for (int r = 0; r < PUZZLE_RUNS_MAX; r++) {
        m->cared_count += __builtin_popcountll(m->care.full[r]) +
                          __builtin_popcountll(m->care.classed[r]);
    }
    free(p->mask);
    p->mask = m;
    return PZ_OK;
}

bool
puzzle_mask_free_equal(const pz_puzzle_t *p,
                       const puzzle_mask_t *m,
                       const uint8_t *a,
                       const uint8_t *b)
{
    const puzzle_pieces_t *runs = puzzle_pieces(p);
    size_t done = 0;

    for (int r = 0; runs[r].name != NULL && r < PUZZLE_RUNS_MAX; r++) {
        const puzzle_pieces_t *run = &runs[r];
        size_t n = puzzle_run_bytes(p, run);
        int wild = m->wild_code[r];

        if (run->rigid) {
            continue;
        }
        /* The run's cells: a blank and a wildcard count alike; the bytes
         * after it (the blank's cell) do not count. */
        if (memcmp(a, b, run->offset) != 0) {
            return false;
        }
        for (size_t i = run->offset; i < run->offset + n; i++) {
            bool fa = a[i] == 0 || a[i] == wild;
            bool fb = b[i] == 0 || b[i] == wild;

            if (a[i] != b[i] && !(fa && fb)) {
                return false;
            }
        }
        done = run->offset + n + run->tail;
    }
    return memcmp(a + done, b + done, p->state_size - done) == 0;
}

void
puzzle_mask_state(const pz_puzzle_t *p, pz_state_t *s)
{
    if (p->mask == NULL) {
        return;
    }
    for (size_t i = 0; i < p->state_size; i++) {
        s->b[i] = p->mask->code[i][s->b[i]];
    }
}

/* --- pattern databases of a masked goal --- */

/*
 * Design: a masked goal has no shared table, so its search builds its own
 * from its budget before it starts (heuristic prepare, under its time
 * limit and cancel). Each database is a breadth-first search from the
 * goal over a coarser quotient, one that cares about a group of the
 * goal's pieces only, held in a hash table of states: its distances are
 * lower bounds of the goal's. The group of all the pieces is searched
 * whole when it is small enough (then h is the exact distance); otherwise
 * each kind of piece is one group, split into groups of at most
 * GROUP_PIECES pieces when it is too large, and h is the largest of the
 * databases. A database that fills up before its search ends is still
 * admissible: every state within its last complete depth D is in it, so
 * a state that is not is at least D + 1 away.
 */

/* Most states one database holds. */
#define PDB_ENTRIES_MAX (1u << 20)

/* Most pieces in one group when a kind of piece is split. */
#define GROUP_PIECES 4

/* Most databases. */
#define PDB_MAX 8

typedef struct mask_pdb {
    puzzle_mask_t *mask; /* the group's renaming, from the budget */
    size_t len;          /* bytes per state */
    size_t count;        /* states held */
    size_t cap;          /* of states */
    size_t slots_mask;   /* slots - 1 */
    uint8_t *keys;       /* count * len bytes */
    uint8_t *dist;       /* per state */
    uint32_t *slots;     /* state index + 1, 0 when empty */
    int depth;           /* every state within this depth is held */
} mask_pdb_t;

typedef struct mask_h {
    pz_state_t goal;
    int npdb;
    mask_pdb_t pdb[PDB_MAX];
    bool shared[PDB_MAX]; /* pdb[g] is the cache's, not the budget's */
} mask_h_t;

/* --- the cache of databases --- */

/*
 * A database depends on the puzzle instance (its moves, the goal's mask),
 * the goal and the group: that is its key. Once built in full, or as
 * large as a database may be, a copy is kept for the life of the process
 * (like a shared table, never changed, read without locks) when the
 * tables' memory cap allows (tables_account); later searches for the
 * same key use it at no cost to their budget.
 */
typedef struct cache_key {
    char puzzle[24];
    char size[16];
    int metric;
    uint64_t subset;
    bool free_blank;
    puzzle_care_t mask; /* the goal's */
    puzzle_care_t group;
    uint8_t goal[PZ_STATE_MAX];
} cache_key_t;

typedef struct cache_entry {
    cache_key_t key;
    mask_pdb_t pdb; /* malloc'd arrays */
    struct cache_entry *next;
} cache_entry_t;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry_t *cache_head;

static void
cache_key_of(const pz_puzzle_t *p,
             const pz_state_t *goal,
             const puzzle_care_t *group,
             cache_key_t *k)
{
    memset(k, 0, sizeof(*k));
    snprintf(k->puzzle, sizeof(k->puzzle), "%s", p->id);
    snprintf(k->size, sizeof(k->size), "%s", p->size);
    k->metric = p->metric;
    k->subset = p->subset;
    k->mask = p->mask->care;
    k->free_blank = p->mask->free_blank;
    k->group = *group;
    memcpy(k->goal, goal->b, p->state_size);
}

/* The cached database of k, or NULL. */
static const mask_pdb_t *
cache_find(const cache_key_t *k)
{
    const cache_entry_t *e;

    pthread_mutex_lock(&cache_lock);
    for (e = cache_head; e != NULL; e = e->next) {
        if (memcmp(&e->key, k, sizeof(*k)) == 0) {
            break;
        }
    }
    pthread_mutex_unlock(&cache_lock);
    return e != NULL ? &e->pdb : NULL;
}

/* Keeps a copy of d under k when the tables' cap allows. */
static void
cache_keep(const cache_key_t *k, const mask_pdb_t *d)
{
    size_t slots = (d->slots_mask + 1) * sizeof(*d->slots);
    size_t bytes = sizeof(cache_entry_t) + sizeof(*d->mask) +
                   d->count * d->len + d->count + slots;
    cache_entry_t *e;

    if (cache_find(k) != NULL || !tables_account(bytes)) {
        return;
    }
    e = calloc(1, sizeof(*e));
    if (e != NULL) {
        e->key = *k;
        e->pdb = *d;
        e->pdb.cap = d->count;
        e->pdb.mask = malloc(sizeof(*d->mask));
        e->pdb.keys = malloc(d->count * d->len);
        e->pdb.dist = malloc(d->count);
        e->pdb.slots = malloc(slots);
    }
    if (e == NULL || e->pdb.mask == NULL || e->pdb.keys == NULL ||
        e->pdb.dist == NULL || e->pdb.slots == NULL) {
        if (e != NULL) {
            free(e->pdb.mask);
            free(e->pdb.keys);
            free(e->pdb.dist);
            free(e->pdb.slots);
            free(e);
        }
        tables_unaccount(bytes);
        return;
    }
    memcpy(e->pdb.mask, d->mask, sizeof(*d->mask));
    memcpy(e->pdb.keys, d->keys, d->count * d->len);
    memcpy(e->pdb.dist, d->dist, d->count);
    memcpy(e->pdb.slots, d->slots, slots);
    pthread_mutex_lock(&cache_lock);
    e->next = cache_head;
    cache_head = e;
    pthread_mutex_unlock(&cache_lock);
}

/* Index of key in d, or -1. */
static int64_t
pdb_find(const mask_pdb_t *d, const uint8_t *key, size_t *slot)
{
    size_t i = state_hash_packed(key, d->len) & d->slots_mask;

    while (d->slots[i] != 0) {
        size_t k = d->slots[i] - 1;

        if (memcmp(d->keys + k * d->len, key, d->len) == 0) {
            return (int64_t)k;
        }
        i = (i + 1) & d->slots_mask;
    }
    *slot = i;
    return -1;
}

/* The state s as the group of d sees it. */
static void
pdb_key(const pz_puzzle_t *p,
        const mask_pdb_t *d,
        const pz_state_t *s,
        uint8_t *key)
{
    for (size_t i = 0; i < p->state_size; i++) {
        key[i] = d->mask->code[i][s->b[i]];
    }
}

static int
pdb_eval(const pz_puzzle_t *p, const mask_pdb_t *d, const pz_state_t *s)
{
    uint8_t key[PZ_STATE_MAX];
    size_t slot;
    int64_t k;

    pdb_key(p, d, s, key);
    k = pdb_find(d, key, &slot);
    return k >= 0 ? d->dist[k] : d->depth + 1;
}

static void
pdb_free(mask_pdb_t *d, pz_budget_t *b)
{
    budget_free(b, d->mask, sizeof(*d->mask));
    budget_free(b, d->keys, d->cap * d->len);
    budget_free(b, d->dist, d->cap);
    budget_free(b, d->slots, (d->slots_mask + 1) * sizeof(*d->slots));
    memset(d, 0, sizeof(*d));
}

/* Breadth-first search of the group care from goal into d, polling the
 * limits of ctx. PZ_STATUS_RUNNING when built, a terminal status, or
 * PZ_ENOMEM. */
static int
pdb_build(const pz_puzzle_t *p,
          const search_ctx_t *ctx,
          const pz_state_t *goal,
          const puzzle_care_t *care,
          size_t cap,
          mask_pdb_t *d)
{
    const puzzle_pieces_t *runs = puzzle_pieces(p);
    uint64_t moves = puzzle_allowed_after(p, -1);
    size_t slots = 1;
    uint64_t polls = 0;
    size_t level_end;
    int depth = 0;

    memset(d, 0, sizeof(*d));
    while (slots < 2 * cap) {
        slots <<= 1;
    }
    d->len = p->state_size;
    d->cap = cap;
    d->slots_mask = slots - 1;
    d->mask = budget_alloc(ctx->budget, sizeof(*d->mask));
    d->keys = budget_alloc(ctx->budget, cap * d->len);
    d->dist = budget_alloc(ctx->budget, cap);
    d->slots = budget_calloc(ctx->budget, slots * sizeof(*d->slots));
    if (d->mask == NULL || d->keys == NULL || d->dist == NULL ||
        d->slots == NULL) {
        return PZ_ENOMEM;
    }
    /* The group's renaming, applied after the goal's. */
    fill_code(p, care, d->mask);
    {
        size_t slot = 0;

        pdb_key(p, d, goal, d->keys);
        (void)pdb_find(d, d->keys, &slot);
        d->slots[slot] = 1;
        d->dist[0] = 0;
        d->count = 1;
    }
    /* A free blank: the goal with the blank in any cell the goal does
     * not care about is a goal too, at distance 0 (for the tiles, the
     * byte after the cells holds the blank's cell). */
    for (int r = 0; runs[r].name != NULL && p->mask->free_blank; r++) {
        size_t n = puzzle_run_bytes(p, &runs[r]);
        size_t off = runs[r].offset;
        int wild = d->mask->wild_code[r];
        uint8_t g[PZ_STATE_MAX];

        if (runs[r].rigid || runs[r].tail != 1 || wild < 0) {
            continue;
        }
        memcpy(g, d->keys, d->len);
        for (size_t i = off; i < off + n && d->count < d->cap; i++) {
            uint8_t key[PZ_STATE_MAX];
            size_t slot = 0;

            if (g[i] != wild) {
                continue;
            }
            memcpy(key, g, d->len);
            key[off + g[off + n]] = (uint8_t)wild;
            key[i] = 0;
            key[off + n] = (uint8_t)(i - off);
            if (pdb_find(d, key, &slot) >= 0) {
                continue;
            }
            memcpy(d->keys + d->count * d->len, key, d->len);
            d->dist[d->count] = 0;
            d->slots[slot] = (uint32_t)++d->count;
        }
    }
    level_end = d->count;
    for (size_t q = 0; q < d->count; q++) {
        pz_state_t x;

        if (q == level_end) {
            depth++;
            level_end = d->count;
        }
        memset(&x, 0, sizeof(x));
        memcpy(x.b, d->keys + q * d->len, d->len);
        for (uint64_t todo = moves; todo != 0; todo &= todo - 1) {
            int m = __builtin_ctzll(todo);
            pz_state_t y;
            uint8_t key[PZ_STATE_MAX];
            size_t slot = 0;

            if (!puzzle_apply(p, &x, m, &y)) {
                continue;
            }
            pdb_key(p, d, &y, key);
            if (pdb_find(d, key, &slot) >= 0) {
                continue;
            }
            if (d->count == d->cap) {
                /* Full: everything up to the level under way is in. */
                d->depth = depth;
                return PZ_STATUS_RUNNING;
            }
            memcpy(d->keys + d->count * d->len, key, d->len);
            d->dist[d->count] = (uint8_t)(depth + 1 < 255 ? depth + 1 : 255);
            d->slots[slot] = (uint32_t)++d->count;
        }
        if (++polls % PZ_POLL_INTERVAL == 0) {
            if (ctx->cancel != NULL && atomic_load(ctx->cancel)) {
                return PZ_STATUS_CANCELLED;
            }
            if (ctx->deadline_ns != 0 && pz_now_ns() >= ctx->deadline_ns) {
                return PZ_STATUS_TIMEOUT;
            }
        }
    }
    d->depth = 255; /* complete: exact distances */
    return PZ_STATUS_RUNNING;
}

/* States of the quotient that care makes (an upper bound): the pieces
 * cared about in full are told apart, those of a class are not. */
static double
group_size(const pz_puzzle_t *p, const puzzle_care_t *care)
{
    const puzzle_pieces_t *runs = puzzle_pieces(p);
    double size = 1;

    for (int r = 0; runs[r].name != NULL && r < PUZZLE_RUNS_MAX; r++) {
        int n = (int)puzzle_run_bytes(p, &runs[r]);
        uint64_t full = care->full[r] | (runs[r].rigid ? 0 : 1);
        int k = __builtin_popcountll(full);
        int c = __builtin_popcountll(care->classed[r] & ~full);

        for (int i = 0; i < k; i++) {
            size *= (double)(n - i) * runs[r].orientations;
        }
        for (int i = 0; i < c; i++) {
            size *= (double)(n - k - i) / (i + 1) * runs[r].orientations;
        }
    }
    return size;
}

static int
mask_prepare(const pz_heuristic_t *h, const search_ctx_t *ctx)
{
    const pz_puzzle_t *p = h->puzzle;
    const puzzle_pieces_t *runs = puzzle_pieces(p);
    const puzzle_care_t *all = &p->mask->care;
    mask_h_t *c = h->ctx;
    puzzle_care_t groups[PDB_MAX];
    int ngroups = 0;
    size_t per = (p->state_size + 1 + 8);
    size_t cap;

    memset(groups, 0, sizeof(groups));
    if (group_size(p, all) <= PDB_ENTRIES_MAX) {
        groups[ngroups++] = *all;
    } else {
        /* Each kind's class whole (a part of it is no coarser view),
         * then its pieces cared about in full, a few at a time. */
        for (int r = 0; runs[r].name != NULL && r < PUZZLE_RUNS_MAX; r++) {
            uint64_t left = all->full[r] & ~(runs[r].rigid ? UINT64_C(0) : 1);
            puzzle_care_t one;

            memset(&one, 0, sizeof(one));
            one.classed[r] = all->classed[r];
            if (one.classed[r] != 0 && group_size(p, &one) <= PDB_ENTRIES_MAX &&
                ngroups < PDB_MAX) {
                groups[ngroups++] = one;
            }
            while (left != 0 && ngroups < PDB_MAX) {
                int taken = 0;

                memset(&one, 0, sizeof(one));
                one.full[r] = left;
                if (group_size(p, &one) > PDB_ENTRIES_MAX) {
                    one.full[r] = 0;
                    while (left != 0 && taken < GROUP_PIECES) {
                        one.full[r] |= left & -left;
                        left &= left - 1;
                        taken++;
                    }
                } else {
                    left = 0;
                }
                groups[ngroups++] = one;
            }
        }
    }
    cap = budget_available(ctx->budget) / (size_t)(ngroups + 1) / per;
    cap = cap > PDB_ENTRIES_MAX ? PDB_ENTRIES_MAX : cap;
    if (cap < 64) {
        return PZ_STATUS_MEMORY_LIMIT;
    }
    for (int g = 0; g < ngroups; g++) {
        double want = group_size(p, &groups[g]) + 1;
        cache_key_t key;
        const mask_pdb_t *kept;
        int rc;

        cache_key_of(p, &c->goal, &groups[g], &key);
        if ((kept = cache_find(&key)) != NULL) {
            c->pdb[g] = *kept;
            c->shared[g] = true;
            c->npdb = g + 1;
            continue;
        }
        rc = pdb_build(p, ctx, &c->goal, &groups[g],
                       want < (double)cap ? (size_t)want : cap, &c->pdb[g]);
        c->shared[g] = false;
        c->npdb = g + 1;
        if (rc == PZ_ENOMEM) {
            return PZ_STATUS_MEMORY_LIMIT;
        }
        if (rc != PZ_STATUS_RUNNING) {
            return rc;
        }
        /* Kept when this budget did not cut it short. */
        if (c->pdb[g].depth == 255 || c->pdb[g].cap == PDB_ENTRIES_MAX) {
            cache_keep(&key, &c->pdb[g]);
        }
    }
    return PZ_STATUS_RUNNING;
}

static void
mask_release(const pz_heuristic_t *h, pz_budget_t *b)
{
    mask_h_t *c = h->ctx;

    for (int g = 0; g < c->npdb; g++) {
        if (!c->shared[g]) {
            pdb_free(&c->pdb[g], b);
        }
    }
    c->npdb = 0;
}

static int
mask_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    mask_h_t *c = ctx;

    if (p->mask == NULL || puzzle_pieces(p) == NULL) {
        return PZ_EUNSUPPORTED;
    }
    c->goal = *goal;
    return PZ_OK;
}

static bool
mask_supports(const pz_puzzle_t *p)
{
    return p->mask != NULL;
}

static int
mask_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const mask_h_t *c = ctx;
    int h = 0;

    for (int g = 0; g < c->npdb; g++) {
        int v = pdb_eval(p, &c->pdb[g], s);

        h = v > h ? v : h;
    }
    return h;
}

const heuristic_ops_t heuristic_mask_pdb = {
    .name = "mask-pdb",
    .summary = "for goals that care about some pieces: pattern databases "
               "the search builds from its own budget (breadth-first from "
               "the goal over the pieces it cares about, or groups of them)",
    .admissible = true,
    .ctx_bytes = sizeof(mask_h_t),
    .init = mask_init,
    .eval = mask_eval,
    .prepare = mask_prepare,
    .release = mask_release,
    .supports = mask_supports,
    .unavailable = "only for a goal that cares about some pieces "
                   "(\"care\")",
};
