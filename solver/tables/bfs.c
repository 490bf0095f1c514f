/* SPDX-License-Identifier: MIT */
/* bfs.c - breadth-first table builds over rows, shared out to workers. */

/*
 * Design. The table is cut into chunks of whole rows (a power of two, at
 * least four, so that no byte holds entries of two chunks in any code),
 * and each level hands the chunks out to the workers, which claim them
 * through one counter.
 *
 * A forward level sends the entries at depth d of each row of the chunks
 * that got some through every move into the target rows, and sets the
 * unseen entries there (and their twins). Those writes land anywhere, so
 * they are atomic byte operations: fetch-and clears an unseen entry's
 * bits down to the new code, and the old byte says whether this worker
 * was the one that set it, so two workers reaching one entry count it
 * once. A backward level lets each unseen entry of a row look for a
 * neighbour at depth d, moves outer, so that one target row and its map
 * are hot at a time; it writes only the row itself, whose bytes no other
 * worker writes in that level, with plain (relaxed) stores.
 *
 * The entries a level reads are stable where it matters: forward reads
 * entries at depth d, which nobody changes; backward tests neighbours
 * for depth d, and an entry set meanwhile only turns from unseen into
 * depth d + 1. With MOD3 codes, entries at d - 3, d - 6, ... share d's
 * code and are expanded again going forwards, which costs only time
 * (their neighbours are all set); going backwards they cannot occur,
 * since an unseen entry is at least d + 1 away and its neighbours at
 * least d.
 *
 * Twins are set along with every entry a forward level sets, so all
 * entries of a state are set at once; a backward level need not set
 * them, since each twin is unseen and finds its own neighbour at d.
 */
#include "bfs.h"

#include <stdlib.h>
#include <string.h>

#include "bfs_internal.h"
#include "pz_error.h"

/* Entries per chunk, about: small enough that the first levels touch
 * few chunks and the workers finish a level together, large enough that
 * the shared counter is not contended. */
#define CHUNK_ENTRIES (UINT64_C(1) << 16)

/* A level goes backwards when the unseen entries times this are fewer
 * than the frontier's entries times the moves: an unseen entry stops at
 * its first neighbour at depth d, while a forward entry tries every
 * move. */
#define BACK_RATIO 3

/* Progress reports within a level (besides the one at its end). */
#define PROGRESS_STEPS 16

uint64_t
tables_bfs_bytes(tables_bfs_code_t code, uint64_t entries)
{
    uint64_t per = 8 / (uint64_t)code;

    return (entries + per - 1) / per;
}

int
tables_bfs_workers(const tables_build_t *b)
{
    int n = b != NULL ? tables_build_workers(b) : 1;

    return n > 1 ? n : 1;
}

static bool
cancelled(const bfs_search_t *s)
{
    return s->b != NULL && tables_build_cancelled(s->b);
}

/* Hands chunks 0 .. nchunks - 1 out to task on every worker (on the
 * build's threads when it has some) and returns when all are done. */
static void
run_chunks(bfs_search_t *s, tables_task_fn task)
{
    s->next_chunk = 0;
    if (s->b != NULL) {
        tables_build_run(s->b, task, s, s->nworkers);
    } else {
        task(s, 0);
    }
}

/* Claims the next chunk; false when none is left or the build was
 * cancelled (which then marks the search stopped). */
static bool
next_chunk(bfs_search_t *s, uint64_t *k)
{
    if (cancelled(s)) {
        __atomic_store_n(&s->stopped, true, __ATOMIC_RELAXED);
        return false;
    }
    *k = __atomic_fetch_add(&s->next_chunk, 1, __ATOMIC_RELAXED);
    return *k < s->nchunks;
}

/* Adds found (chunk k's) to the level's count and, every so many
 * chunks of a big table, reports. */
static void
level_progress(bfs_search_t *s, uint64_t k, uint64_t found)
{
    uint64_t step = s->nchunks / PROGRESS_STEPS;

    found = __atomic_add_fetch(&s->found, found, __ATOMIC_RELAXED);
    if (s->b != NULL && step >= 2 && k % step == step - 1) {
        tables_build_progress(s->b, s->sp->progress_base + s->reached + found,
                              s->total);
    }
}

/* One worker of a level: claims chunks until none is left, and works
 * on those a forward level expands (they got entries at depth d) or a
 * backward level looks in (they still have unseen entries). */
static void
level_task(void *arg, int worker)
{
    bfs_search_t *s = arg;
    uint64_t k;

    while (next_chunk(s, &k)) {
        uint8_t m = __atomic_load_n(&s->marks[k], __ATOMIC_RELAXED);

        if (s->probe && __atomic_load_n(&s->overflow, __ATOMIC_RELAXED)) {
            return;
        }
        if (s->back ? !(m & MARK_FULL) : (m & s->cur_hot) != 0) {
            level_progress(s, k, tables_bfs__chunk(s, worker, k));
        }
    }
}

/* The entries of chunk k: [*lo, *hi). */
static void
chunk_entries(const bfs_search_t *s, uint64_t k, uint64_t *lo, uint64_t *hi)
{
    *lo = k * s->chunk_rows * s->sp->rowlen;
    *hi = *lo + s->chunk_rows * s->sp->rowlen;
    if (*hi > s->entries) {
        *hi = s->entries;
    }
}

/* Fills the table with unseen and exact4 with zeros, chunk by chunk, so
 * that the workers fault the pages in together. */
static void
init_task(void *arg, int worker)
{
    bfs_search_t *s = arg;
    const tables_bfs_spec_t *sp = s->sp;
    uint64_t k;

    (void)worker;
    while (next_chunk(s, &k)) {
        uint64_t lo;
        uint64_t hi;

        /* Chunks start on whole bytes; the last one ends the data. */
        chunk_entries(s, k, &lo, &hi);
        if (sp->exact4 != NULL) {
            uint64_t lo4 = tables_bfs_bytes(TABLES_BFS_EXACT4, lo);
            uint64_t hi4 = tables_bfs_bytes(TABLES_BFS_EXACT4, hi);

            memset(sp->exact4 + lo4, 0, (size_t)(hi4 - lo4));
        }
        lo = tables_bfs_bytes(sp->code, lo);
        hi = k + 1 == s->nchunks ? s->bytes : tables_bfs_bytes(sp->code, hi);
        memset(sp->data + lo, 0xff, (size_t)(hi - lo));
    }
}

/* Clamp: the unseen entries get the clamp in the exact codes. */
static void
clamp_task(void *arg, int worker)
{
    bfs_search_t *s = arg;
    const tables_bfs_spec_t *sp = s->sp;
    unsigned un = unseen_of(sp->code);
    unsigned v = (unsigned)sp->clamp;
    bool data = sp->code != TABLES_BFS_MOD3 && v != un;
    uint64_t k;

    (void)worker;
    while (next_chunk(s, &k)) {
        uint64_t lo;
        uint64_t hi;

        chunk_entries(s, k, &lo, &hi);
        for (uint64_t i = lo; i < hi; i++) {
            if (tables_bfs_get(sp->data, sp->code, i) != un) {
                continue;
            }
            if (data) {
                set_own(sp->data, sp->code, i, v);
            }
            if (sp->exact4 != NULL) {
                set_exact4(sp->exact4, i, v > 15 ? 15u : v, false);
            }
        }
    }
}

/* Sets goal entry i and its twins to depth 0 (on this thread). Returns
 * how many entries that set. */
static uint64_t
set_goal(bfs_search_t *s, uint64_t i)
{
    const tables_bfs_spec_t *sp = s->sp;
    bfs_worker_t *w = &s->w[0];
    uint64_t row = i / sp->rowlen;
    uint32_t c = (uint32_t)(i % sp->rowlen);
    uint64_t n = 0;

    s->next_code = 0;
    s->next_exact4 = 0;
    s->next_hot = MARK_HOT0;
    if (claim(sp->data, sp->code, i, 0)) {
        n++;
        mark_hot(s, row);
    }
    w->ntwin = 0;
    if (sp->twins != NULL) {
        w->ntwin = sp->twins(sp->arg, row, w->twin, w->tscratch);
    }
    return n + claim_twins(s, w, c);
}

/* The largest clamp code can have. */
static int
clamp_max(tables_bfs_code_t code)
{
    /* EXACT4's unseen 15 may stand for "15 or more". */
    return code == TABLES_BFS_EXACT4 ? 15 : TABLES_BFS_DEPTH_MAX;
}

static bool
spec_ok(const tables_bfs_spec_t *sp)
{
    if (sp->code != TABLES_BFS_MOD3 && sp->code != TABLES_BFS_EXACT4 &&
        sp->code != TABLES_BFS_EXACT8) {
        return false;
    }
    if (sp->nrows == 0 || sp->rowlen == 0 || sp->moves == NULL ||
        sp->nmoves < 1 || sp->nmoves > TABLES_BFS_MOVES_MAX ||
        sp->data == NULL || sp->goals == NULL || sp->ngoals == 0 ||
        sp->clamp < 0 || sp->clamp > clamp_max(sp->code)) {
        return false;
    }
    if ((sp->twins != NULL && sp->max_twins < 1) ||
        (!sp->wide && sp->rowlen > 65536) ||
        sp->nrows > UINT64_MAX / 8 / sp->rowlen) {
        return false;
    }
    for (size_t g = 0; g < sp->ngoals; g++) {
        if (sp->goals[g] >= sp->nrows * sp->rowlen) {
            return false;
        }
    }
    return true;
}

/* Allocates the per-worker scratch. */
static int
workers_alloc(bfs_search_t *s)
{
    const tables_bfs_spec_t *sp = s->sp;
    size_t ntwin = sp->max_twins > 0 ? (size_t)sp->max_twins : 1;

    s->w = calloc((size_t)s->nworkers, sizeof(*s->w));
    if (s->w == NULL) {
        return PZ_ENOMEM;
    }
    for (int i = 0; i < s->nworkers; i++) {
        bfs_worker_t *w = &s->w[i];

        for (int j = 0; j < 2; j++) {
            bfs_slot_t *sl = &w->slot[j];

            sl->cols = malloc((size_t)sp->rowlen * sizeof(*sl->cols));
            sl->mscratch =
                sp->moves_scratch > 0 ? calloc(1, sp->moves_scratch) : NULL;
            if (sl->cols == NULL ||
                (sp->moves_scratch > 0 && sl->mscratch == NULL)) {
                return PZ_ENOMEM;
            }
        }
        w->hits = malloc((size_t)sp->rowlen * sizeof(*w->hits));
        w->unpacked = malloc((size_t)sp->rowlen + 8);
        w->twin = malloc(ntwin * sizeof(*w->twin));
        w->tscratch =
            sp->twins_scratch > 0 ? calloc(1, sp->twins_scratch) : NULL;
        if (w->hits == NULL || w->unpacked == NULL || w->twin == NULL ||
            (sp->twins_scratch > 0 && w->tscratch == NULL)) {
            return PZ_ENOMEM;
        }
    }
    return PZ_OK;
}

static void
workers_free(bfs_search_t *s)
{
    if (s->w == NULL) {
        return;
    }
    for (int i = 0; i < s->nworkers; i++) {
        for (int j = 0; j < 2; j++) {
            free(s->w[i].slot[j].cols);
            free(s->w[i].slot[j].mscratch);
        }
        free(s->w[i].hits);
        free(s->w[i].unpacked);
        free(s->w[i].twin);
        free(s->w[i].tscratch);
    }
    free(s->w);
}

/* The code of depth v. */
static unsigned
code_of(tables_bfs_code_t code, int v)
{
    return code == TABLES_BFS_MOD3 ? (unsigned)v % 3u : (unsigned)v;
}

/* Prepares level d (depth d to d + 1). */
static void
level_init(bfs_search_t *s, const tables_bfs_result_t *res, int d)
{
    const tables_bfs_spec_t *sp = s->sp;
    /* The entries a forward level expands: MOD3 cannot tell depth d
     * from d - 3, d - 6, ... */
    uint64_t frontier = res->counts[d];

    for (int e = d - 3; sp->code == TABLES_BFS_MOD3 && e >= 0; e -= 3) {
        frontier += res->counts[e];
    }
    s->back = (s->entries - s->reached) * BACK_RATIO <
              frontier * (uint64_t)sp->nmoves;
    s->probe = d + 1 > (sp->code == TABLES_BFS_EXACT4 ? 14 : 254);
    s->cur_code = code_of(sp->code, d);
    s->next_code = s->probe ? 0 : code_of(sp->code, d + 1);
    s->next_exact4 = d + 1 > 15 ? 15u : (unsigned)(d + 1);
    s->cur_hot = d % 2 == 0 ? MARK_HOT0 : MARK_HOT1;
    s->next_hot = d % 2 == 0 ? MARK_HOT1 : MARK_HOT0;
    s->found = 0;
    s->overflow = false;
    for (uint64_t k = 0; k < s->nchunks; k++) {
        s->marks[k] &= (uint8_t)~s->next_hot;
    }
}

/* Runs the levels from the goals; fills res. */
static int
levels(bfs_search_t *s, tables_bfs_result_t *res)
{
    const tables_bfs_spec_t *sp = s->sp;

    for (int d = 0; s->reached < s->entries; d++) {
        if (sp->clamp != 0 && d + 1 >= sp->clamp) {
            /* Every entry still unseen is the clamp or farther. */
            res->counts[sp->clamp] = s->entries - s->reached;
            res->max_depth = sp->clamp;
            if ((sp->code != TABLES_BFS_MOD3 &&
                 (unsigned)sp->clamp != unseen_of(sp->code)) ||
                sp->exact4 != NULL) {
                run_chunks(s, clamp_task);
            }
            s->reached = s->entries;
            break;
        }
        level_init(s, res, d);
        run_chunks(s, level_task);
        if (s->stopped || cancelled(s)) {
            return PZ_ECANCELLED;
        }
        if (s->probe && s->overflow) {
            return PZ_ERANGE;
        }
        if (s->probe || s->found == 0) {
            break;
        }
        res->counts[d + 1] = s->found;
        res->backward[d + 1] = s->back;
        res->max_depth = d + 1;
        s->reached += s->found;
        if (s->b != NULL) {
            tables_build_progress(s->b, sp->progress_base + s->reached,
                                  s->total);
        }
    }
    res->reached = s->reached;
    return PZ_OK;
}

int
tables_bfs_run(const tables_bfs_spec_t *spec,
               tables_build_t *b,
               tables_bfs_result_t *result)
{
    bfs_search_t s;
    tables_bfs_result_t *res;
    int rc;

    if (spec == NULL || !spec_ok(spec)) {
        return PZ_EINVAL;
    }
    memset(&s, 0, sizeof(s));
    s.sp = spec;
    s.b = b;
    s.entries = spec->nrows * spec->rowlen;
    s.bytes = tables_bfs_bytes(spec->code, s.entries);
    s.total = spec->progress_total != 0 ? spec->progress_total : s.entries;
    /* Chunks of a power of two rows, at least 4 (whole bytes). */
    s.chunk_shift = 2;
    while ((UINT64_C(1) << s.chunk_shift) * spec->rowlen < CHUNK_ENTRIES) {
        s.chunk_shift++;
    }
    s.chunk_rows = UINT64_C(1) << s.chunk_shift;
    s.nchunks = (spec->nrows + s.chunk_rows - 1) / s.chunk_rows;
    s.nworkers = tables_bfs_workers(b);
    s.marks = calloc((size_t)s.nchunks, 1);
    res = calloc(1, sizeof(*res));
    rc = s.marks == NULL || res == NULL ? PZ_ENOMEM : workers_alloc(&s);
    if (rc != PZ_OK) {
        goto out;
    }
    run_chunks(&s, init_task);
    if (s.stopped) {
        rc = PZ_ECANCELLED;
        goto out;
    }
    /* exact4 says 0 for the goals as it starts. */
    for (size_t g = 0; g < spec->ngoals; g++) {
        s.reached += set_goal(&s, spec->goals[g]);
    }
    res->counts[0] = s.reached;
    if (b != NULL) {
        tables_build_progress(b, spec->progress_base + s.reached, s.total);
    }
    rc = levels(&s, res);
    if (rc == PZ_OK && result != NULL) {
        *result = *res;
    }
out:
    workers_free(&s);
    free(s.marks);
    free(res);
    return rc;
}

/* One worker of tables_bfs_rows. */
static void
rows_task(void *arg, int worker)
{
    bfs_search_t *s = arg;
    const tables_bfs_pass_t *p = s->pass;
    uint64_t step = s->nchunks / PROGRESS_STEPS;
    uint64_t k;

    while (next_chunk(s, &k)) {
        uint64_t first = k * s->chunk_rows;
        uint64_t end = first + s->chunk_rows;
        uint64_t done;

        if (end > p->nrows) {
            end = p->nrows;
        }
        p->fn(p->arg, worker, first, end);
        done = __atomic_add_fetch(&s->rows_done, end - first, __ATOMIC_RELAXED);
        if (s->b != NULL && p->progress_total != 0 && step >= 2 &&
            k % step == step - 1) {
            tables_build_progress(s->b,
                                  p->progress_base + done * p->progress_unit,
                                  p->progress_total);
        }
    }
}

int
tables_bfs_rows(const tables_bfs_pass_t *pass, tables_build_t *b)
{
    bfs_search_t s;

    memset(&s, 0, sizeof(s));
    s.b = b;
    s.pass = pass;
    s.nworkers = tables_bfs_workers(b);
    s.chunk_rows = pass->chunk > 0 ? pass->chunk : 1;
    s.nchunks = (pass->nrows + s.chunk_rows - 1) / s.chunk_rows;
    run_chunks(&s, rows_task);
    if (s.stopped || cancelled(&s)) {
        return PZ_ECANCELLED;
    }
    if (b != NULL && pass->progress_total != 0) {
        tables_build_progress(
            b, pass->progress_base + pass->nrows * pass->progress_unit,
            pass->progress_total);
    }
    return PZ_OK;
}
