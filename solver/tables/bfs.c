/* SPDX-License-Identifier: MIT */
/* bfs.c - breadth-first table builds over rows, shared out to workers. */

/*
 * Design. The table is cut into chunks of whole rows (a multiple of four
 * rows, so that no byte holds entries of two chunks in any code), and
 * each level hands the chunks out to the workers, which claim them
 * through one counter. A forward level scans the chunks that got entries
 * at depth d and sends each row's entries through every move into the
 * target rows, claiming unseen entries anywhere in the table: those
 * writes are atomic byte operations (fetch-and clears an unseen entry's
 * bits down to the new code, and the old byte says whether this worker
 * was the one that set it), so two workers reaching one entry count it
 * once. A backward level lets each unseen entry of a row look for a
 * neighbour at depth d, moves outer, so that one target row and its map
 * are hot at a time; it writes only its own rows, whose bytes no other
 * worker writes in that level, with plain (relaxed) stores.
 *
 * The entries a level reads are stable where it matters: forward reads
 * entries at depth d, which nobody changes, and tests unseen entries
 * before claiming them; backward tests neighbours for depth d, and an
 * entry set meanwhile only turns from unseen into depth d + 1. With MOD3
 * codes, entries at d - 3, d - 6, ... share d's code and are expanded
 * again going forwards, which costs only time (their neighbours are all
 * set); going backwards they cannot occur, since an unseen entry is at
 * least d + 1 away and its neighbours at least d.
 *
 * Twins are set along with every entry a forward level claims, so all
 * entries of a state are set at once; a backward level need not set
 * them, since each twin is unseen and finds its own neighbour at d.
 *
 * Both kinds of level first test a whole list of entries and only then
 * act on the ones that passed: about every other test passes, in no
 * order a branch predictor could learn, and a mispredicted branch per
 * test cost more than the test.
 */
#include "bfs.h"

#include <stdlib.h>
#include <string.h>

#include "pz_error.h"

/* Entries per chunk, about: small enough that the first levels touch
 * few chunks and the workers finish a level together, large enough that
 * the shared counter is not contended. */
#define CHUNK_ENTRIES (UINT64_C(1) << 16)

/* A level goes backwards when the unseen entries times this are fewer
 * than the frontier's entries times the moves: an unseen entry stops at
 * its first neighbour at depth d, and a forward test may end in an
 * atomic claim. */
#define BACK_RATIO 3

/* Progress reports within a level (besides the one at its end). */
#define PROGRESS_STEPS 16

/* Prefetch the target rows of a row when they are at most this long. */
#define PREFETCH_ROW_BYTES 1024

/* Chunk marks: got entries at an even or odd depth; no unseen entry. */
#define MARK_HOT0 1u
#define MARK_HOT1 2u
#define MARK_FULL 4u

/* Scratch of one worker. */
typedef struct worker {
    uint32_t *cols;          /* rowlen: columns collected from a row */
    uint32_t *hits;          /* rowlen: columns selected from cols */
    tables_bfs_edge_t *twin; /* max_twins */
    void *mscratch;          /* moves_scratch bytes */
    void *tscratch;          /* twins_scratch bytes */
    uint32_t unseen;         /* unseen entries of the last row, backward */
    int ntwin;               /* twins in twin */
    tables_bfs_edge_t edge[TABLES_BFS_MOVES_MAX];
} worker_t;

/* One search, or one pass over rows, under way. */
typedef struct search {
    const tables_bfs_spec_t *sp; /* NULL for a pass */
    tables_build_t *b;           /* may be NULL */
    uint64_t entries;            /* nrows * rowlen */
    uint64_t bytes;              /* of sp->data */
    uint64_t chunk_rows;         /* rows per chunk */
    uint64_t nchunks;
    uint8_t *marks;   /* per chunk, MARK_* */
    worker_t *w;      /* per worker */
    int nworkers;     /* >= 1 */
    uint64_t reached; /* entries set before this level */
    uint64_t total;   /* progress total */
    /* The level being run. */
    bool back;            /* backward */
    bool probe;           /* d + 1 does not fit: only look for entries */
    unsigned cur_code;    /* the code of depth d */
    unsigned next_code;   /* the code of depth d + 1 */
    unsigned next_exact4; /* 4-bit value of depth d + 1 (at most 15) */
    uint8_t cur_hot;      /* MARK_HOT* of depth d */
    uint8_t next_hot;     /* MARK_HOT* of depth d + 1 */
    uint64_t next_chunk;  /* claimed through __atomic_fetch_add */
    uint64_t found;       /* entries set in the level (atomic adds) */
    bool overflow;        /* probe: an entry would be set */
    bool stopped;         /* cancelled during the level or pass */
    const tables_bfs_pass_t *pass; /* a pass over rows, or NULL */
    uint64_t rows_done;            /* pass: rows finished (atomic adds) */
} search_t;

/* Table kinds as chunk_level's constant argument: code * 2 + wide. */
enum {
    KIND_MOD3 = TABLES_BFS_MOD3 * 2,
    KIND_MOD3_WIDE,
    KIND_EXACT4 = TABLES_BFS_EXACT4 * 2,
    KIND_EXACT4_WIDE,
    KIND_EXACT8 = TABLES_BFS_EXACT8 * 2,
    KIND_EXACT8_WIDE,
};

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
cancelled(const search_t *s)
{
    return s->b != NULL && tables_build_cancelled(s->b);
}

/* Hands chunks 0 .. nchunks - 1 out to task on every worker (on the
 * build's threads when it has some) and returns when all are done. */
static void
run_chunks(search_t *s, tables_task_fn task)
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
next_chunk(search_t *s, uint64_t *k)
{
    if (cancelled(s)) {
        __atomic_store_n(&s->stopped, true, __ATOMIC_RELAXED);
        return false;
    }
    *k = __atomic_fetch_add(&s->next_chunk, 1, __ATOMIC_RELAXED);
    return *k < s->nchunks;
}

/* The value of an unseen entry in code. */
static inline unsigned
unseen_of(tables_bfs_code_t code)
{
    return (1u << (unsigned)code) - 1u;
}

/* Column c of map. */
static inline uint32_t
map_at(const void *map, bool wide, uint32_t c)
{
    return wide ? ((const uint32_t *)map)[c] : ((const uint16_t *)map)[c];
}

/* The byte holding entry i and the shift of its bits there. */
static inline uint8_t *
entry_byte(const uint8_t *data, tables_bfs_code_t code, uint64_t i, int *sh)
{
    uint8_t *d = (uint8_t *)(uintptr_t)data;

    switch (code) {
    case TABLES_BFS_MOD3:
        *sh = (int)(i & 3) << 1;
        return d + (i >> 2);
    case TABLES_BFS_EXACT4:
        *sh = (int)(i & 1) << 2;
        return d + (i >> 1);
    default:
        *sh = 0;
        return d + i;
    }
}

/* Entry i, read so that a concurrent store to its byte is no race. */
static inline unsigned
load_entry(const uint8_t *data, tables_bfs_code_t code, uint64_t i)
{
    int sh;
    const uint8_t *p = entry_byte(data, code, i, &sh);

    return (unsigned)__atomic_load_n(p, __ATOMIC_RELAXED) >> sh &
           unseen_of(code);
}

/*
 * Sets unseen entry i to v where other workers may write its byte: the
 * bits of unseen that v lacks are cleared in one atomic step. Returns
 * true when the entry was unseen before, that is when this call set it
 * (within a level every worker writes the same v, so a second claim
 * changes nothing and returns false).
 */
static inline bool
claim(uint8_t *data, tables_bfs_code_t code, uint64_t i, unsigned v)
{
    int sh;
    uint8_t *p = entry_byte(data, code, i, &sh);
    unsigned un = unseen_of(code);
    uint8_t old =
        __atomic_fetch_and(p, (uint8_t) ~((un ^ v) << sh), __ATOMIC_RELAXED);

    return (old >> sh & un) == un;
}

/* Sets unseen entry i to v in a byte no other worker writes. */
static inline void
set_own(uint8_t *data, tables_bfs_code_t code, uint64_t i, unsigned v)
{
    int sh;
    uint8_t *p = entry_byte(data, code, i, &sh);
    unsigned un = unseen_of(code);
    uint8_t old = __atomic_load_n(p, __ATOMIC_RELAXED);

    __atomic_store_n(p, (uint8_t)(old & ~((un ^ v) << sh)), __ATOMIC_RELAXED);
}

/* Writes v into the zeroed 4-bit entry i of exact4: atomically when
 * other workers may write the byte (shared), else with a plain store. */
static inline void
set_exact4(uint8_t *exact4, uint64_t i, unsigned v, bool shared)
{
    uint8_t *p = exact4 + (i >> 1);
    uint8_t bits = (uint8_t)(v << ((i & 1) << 2));

    if (shared) {
        __atomic_fetch_or(p, bits, __ATOMIC_RELAXED);
    } else {
        __atomic_store_n(p,
                         (uint8_t)(__atomic_load_n(p, __ATOMIC_RELAXED) | bits),
                         __ATOMIC_RELAXED);
    }
}

/* Word w (8 bytes) of the table, bytes past its end read as 0xff. Other
 * workers may be storing to these bytes (to entries other than those the
 * caller looks for); each byte read is one that was stored. */
static inline uint64_t
load_word(const search_t *s, uint64_t w)
{
    uint64_t x = UINT64_MAX;
    uint64_t at = w * 8;

    if (at + 8 <= s->bytes) {
        memcpy(&x, s->sp->data + at, 8);
    } else {
        memcpy(&x, s->sp->data + at, (size_t)(s->bytes - at));
    }
    return x;
}

/* The lowest bit of each field of word x (fields of code's width) that
 * equals v. */
static inline uint64_t
match_word(uint64_t x, tables_bfs_code_t code, unsigned v)
{
    switch (code) {
    case TABLES_BFS_MOD3:
        x ^= UINT64_C(0x5555555555555555) * v;
        return ~(x | x >> 1) & UINT64_C(0x5555555555555555);
    case TABLES_BFS_EXACT4:
        x ^= UINT64_C(0x1111111111111111) * v;
        x |= x >> 1;
        x |= x >> 2;
        return ~x & UINT64_C(0x1111111111111111);
    default:
        x ^= UINT64_C(0x0101010101010101) * v;
        x |= x >> 1;
        x |= x >> 2;
        x |= x >> 4;
        return ~x & UINT64_C(0x0101010101010101);
    }
}

/* Writes to cols the columns of row whose entries equal v; returns how
 * many. */
static inline uint32_t
scan_row(const search_t *s, uint64_t row, unsigned v, uint32_t *cols)
{
    tables_bfs_code_t code = s->sp->code;
    unsigned width = (unsigned)code;
    uint64_t per = 64 / width;
    uint64_t lo = row * s->sp->rowlen;
    uint64_t hi = lo + s->sp->rowlen;
    uint64_t w0 = lo / per;
    uint64_t w1 = (hi - 1) / per;
    uint32_t n = 0;

    for (uint64_t w = w0; w <= w1; w++) {
        uint64_t bits = match_word(load_word(s, w), code, v);
        uint64_t first = w * per;

        if (w == w0) {
            bits &= UINT64_MAX << ((lo - first) * width);
        }
        if (w == w1 && hi - first < per) {
            bits &= (UINT64_C(1) << ((hi - first) * width)) - 1;
        }
        while (bits != 0) {
            uint64_t i = first + (uint64_t)__builtin_ctzll(bits) / width;

            bits &= bits - 1;
            cols[n++] = (uint32_t)(i - lo);
        }
    }
    return n;
}

/* Marks the chunk of row as holding entries of depth d + 1. */
static inline void
mark_hot(search_t *s, uint64_t row)
{
    uint8_t *m = &s->marks[row / s->chunk_rows];

    if (!(__atomic_load_n(m, __ATOMIC_RELAXED) & s->next_hot)) {
        __atomic_fetch_or(m, s->next_hot, __ATOMIC_RELAXED);
    }
}

/* Asks for the cache lines of the target rows in w->edge when rows are
 * short enough for that to pay: in a table far bigger than the caches
 * their misses then overlap instead of coming one after another. */
static inline void
prefetch_targets(const search_t *s, const worker_t *w)
{
    const tables_bfs_spec_t *sp = s->sp;
    uint64_t width = (uint64_t)sp->code;

    if ((uint64_t)sp->rowlen * width / 8 > PREFETCH_ROW_BYTES) {
        return;
    }
    for (int m = 0; m < sp->nmoves; m++) {
        uint64_t row = w->edge[m].row;
        uint64_t first;
        uint64_t last;

        if (row == TABLES_BFS_NO_ROW) {
            continue;
        }
        first = row * sp->rowlen * width / 8;
        last = ((row + 1) * sp->rowlen * width - 1) / 8;
        for (uint64_t a = first & ~UINT64_C(63); a <= last; a += 64) {
            __builtin_prefetch(sp->data + a, 1);
        }
    }
}

/* Sets the unseen twins (w->twin, w->ntwin) of the entry in column c of
 * their row, just set. Returns how many it set. */
static inline uint64_t
claim_twins(search_t *s, worker_t *w, uint32_t c)
{
    const tables_bfs_spec_t *sp = s->sp;
    tables_bfs_code_t code = sp->code;
    uint64_t found = 0;

    for (int t = 0; t < w->ntwin; t++) {
        uint64_t j =
            w->twin[t].row * sp->rowlen + map_at(w->twin[t].map, sp->wide, c);

        if (load_entry(sp->data, code, j) == unseen_of(code) &&
            claim(sp->data, code, j, s->next_code)) {
            if (sp->exact4 != NULL) {
                set_exact4(sp->exact4, j, s->next_exact4, true);
            }
            found++;
            mark_hot(s, w->twin[t].row);
        }
    }
    return found;
}

/* Forward: the entries of row at depth d claim their unseen neighbours
 * and the neighbours' twins. kind is a constant (KIND_*). Returns how
 * many entries it set. */
static inline uint64_t
row_forward(search_t *s, worker_t *w, uint64_t row, const int kind)
{
    const tables_bfs_code_t code = (tables_bfs_code_t)(kind / 2);
    const bool wide = kind % 2 != 0;
    const tables_bfs_spec_t *sp = s->sp;
    uint8_t *data = sp->data;
    uint32_t *hits = w->hits;
    const uint32_t *cols = w->cols;
    uint32_t n = scan_row(s, row, s->cur_code, w->cols);
    uint64_t found = 0;

    if (n == 0) {
        return 0;
    }
    sp->moves(sp->arg, row, w->edge, w->mscratch);
    if (n >= 16) {
        prefetch_targets(s, w);
    }
    for (int m = 0; m < sp->nmoves; m++) {
        uint64_t trow = w->edge[m].row;
        const void *map = w->edge[m].map;
        uint64_t base = trow * sp->rowlen;
        bool twins_known = false;
        uint64_t before = found;
        uint32_t h = 0;

        if (trow == TABLES_BFS_NO_ROW) {
            continue;
        }
        /* The targets still unseen first, without a branch on each. */
        for (uint32_t k = 0; k < n; k++) {
            uint32_t c = map_at(map, wide, cols[k]);

            hits[h] = c;
            h += load_entry(data, code, base + c) == unseen_of(code);
        }
        if (h > 0 && s->probe) {
            __atomic_store_n(&s->overflow, true, __ATOMIC_RELAXED);
            return found;
        }
        for (uint32_t k = 0; k < h; k++) {
            uint64_t j = base + hits[k];

            if (!claim(data, code, j, s->next_code)) {
                continue; /* another worker was first */
            }
            if (sp->exact4 != NULL) {
                set_exact4(sp->exact4, j, s->next_exact4, true);
            }
            found++;
            if (sp->twins == NULL) {
                continue;
            }
            if (!twins_known) {
                w->ntwin = sp->twins(sp->arg, trow, w->twin, w->tscratch);
                twins_known = true;
            }
            found += claim_twins(s, w, hits[k]);
        }
        if (found > before) {
            mark_hot(s, trow);
        }
    }
    return found;
}

/* Backward: each unseen entry of row that has a neighbour at depth d
 * gets depth d + 1. Sets w->unseen to the unseen entries it found in
 * the row. Returns how many it set. */
static inline uint64_t
row_backward(search_t *s, worker_t *w, uint64_t row, const int kind)
{
    const tables_bfs_code_t code = (tables_bfs_code_t)(kind / 2);
    const bool wide = kind % 2 != 0;
    const tables_bfs_spec_t *sp = s->sp;
    const uint8_t *data = sp->data;
    unsigned cur = s->cur_code;
    uint32_t *cols = w->cols;
    uint32_t *hits = w->hits;
    uint64_t self = row * sp->rowlen;
    uint32_t n = scan_row(s, row, unseen_of(code), cols);
    uint32_t found = 0;

    w->unseen = n;
    if (n == 0) {
        return 0;
    }
    sp->moves(sp->arg, row, w->edge, w->mscratch);
    prefetch_targets(s, w);
    for (int m = 0; m < sp->nmoves && n > 0; m++) {
        uint64_t trow = w->edge[m].row;
        const void *map = w->edge[m].map;
        uint64_t base = trow * sp->rowlen;
        uint32_t left = 0;

        if (trow == TABLES_BFS_NO_ROW) {
            continue;
        }
        /* Split cols into those with a neighbour at depth d (to hits)
         * and those still looking, without a branch on each. */
        for (uint32_t k = 0; k < n; k++) {
            uint32_t c = cols[k];
            bool hit =
                load_entry(data, code, base + map_at(map, wide, c)) == cur;

            hits[found] = c;
            found += hit;
            cols[left] = c;
            left += !hit;
        }
        n = left;
    }
    if (found > 0 && s->probe) {
        __atomic_store_n(&s->overflow, true, __ATOMIC_RELAXED);
        return 0;
    }
    for (uint32_t k = 0; k < found; k++) {
        set_own(sp->data, code, self + hits[k], s->next_code);
        if (sp->exact4 != NULL) {
            set_exact4(sp->exact4, self + hits[k], s->next_exact4, false);
        }
    }
    if (found > 0) {
        mark_hot(s, row);
    }
    return found;
}

/* Runs the level on chunk k; kind is a constant (KIND_*). */
static inline uint64_t
chunk_level(search_t *s, int worker, uint64_t k, const int kind)
{
    worker_t *w = &s->w[worker];
    uint64_t first = k * s->chunk_rows;
    uint64_t end = first + s->chunk_rows;
    uint64_t found = 0;
    bool full = true;

    if (end > s->sp->nrows) {
        end = s->sp->nrows;
    }
    for (uint64_t r = first; r < end; r++) {
        if (s->back) {
            found += row_backward(s, w, r, kind);
            full = full && w->unseen == 0;
        } else {
            found += row_forward(s, w, r, kind);
        }
        if (s->probe && __atomic_load_n(&s->overflow, __ATOMIC_RELAXED)) {
            break;
        }
    }
    if (s->back && full) {
        __atomic_fetch_or(&s->marks[k], MARK_FULL, __ATOMIC_RELAXED);
    }
    return found;
}

/* One worker of a level: claims chunks until none is left. The switch
 * gives each code and map width its own copy of the inner loops. */
static void
level_task(void *arg, int worker)
{
    search_t *s = arg;
    const tables_bfs_spec_t *sp = s->sp;
    uint64_t step = s->nchunks / PROGRESS_STEPS + 1;
    uint64_t k;

    while (next_chunk(s, &k)) {
        uint8_t mark = __atomic_load_n(&s->marks[k], __ATOMIC_RELAXED);
        uint64_t found;

        if (s->probe && __atomic_load_n(&s->overflow, __ATOMIC_RELAXED)) {
            return;
        }
        if (s->back ? (mark & MARK_FULL) != 0 : !(mark & s->cur_hot)) {
            continue;
        }
        switch ((int)sp->code * 2 + (sp->wide ? 1 : 0)) {
        case KIND_MOD3:
            found = chunk_level(s, worker, k, KIND_MOD3);
            break;
        case KIND_MOD3_WIDE:
            found = chunk_level(s, worker, k, KIND_MOD3_WIDE);
            break;
        case KIND_EXACT4:
            found = chunk_level(s, worker, k, KIND_EXACT4);
            break;
        case KIND_EXACT4_WIDE:
            found = chunk_level(s, worker, k, KIND_EXACT4_WIDE);
            break;
        case KIND_EXACT8:
            found = chunk_level(s, worker, k, KIND_EXACT8);
            break;
        default:
            found = chunk_level(s, worker, k, KIND_EXACT8_WIDE);
            break;
        }
        found = __atomic_add_fetch(&s->found, found, __ATOMIC_RELAXED);
        if (s->b != NULL && k % step == step - 1) {
            tables_build_progress(s->b, sp->progress_base + s->reached + found,
                                  s->total);
        }
    }
}

/* The entries of chunk k: [*lo, *hi). */
static void
chunk_entries(const search_t *s, uint64_t k, uint64_t *lo, uint64_t *hi)
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
    search_t *s = arg;
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
    search_t *s = arg;
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
set_goal(search_t *s, uint64_t i)
{
    const tables_bfs_spec_t *sp = s->sp;
    worker_t *w = &s->w[0];
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
workers_alloc(search_t *s)
{
    const tables_bfs_spec_t *sp = s->sp;
    size_t ntwin = sp->max_twins > 0 ? (size_t)sp->max_twins : 1;

    s->w = calloc((size_t)s->nworkers, sizeof(*s->w));
    if (s->w == NULL) {
        return PZ_ENOMEM;
    }
    for (int i = 0; i < s->nworkers; i++) {
        worker_t *w = &s->w[i];

        w->cols = malloc((size_t)sp->rowlen * sizeof(*w->cols));
        w->hits = malloc((size_t)sp->rowlen * sizeof(*w->hits));
        w->twin = malloc(ntwin * sizeof(*w->twin));
        w->mscratch = sp->moves_scratch > 0 ? malloc(sp->moves_scratch) : NULL;
        w->tscratch = sp->twins_scratch > 0 ? malloc(sp->twins_scratch) : NULL;
        if (w->cols == NULL || w->hits == NULL || w->twin == NULL ||
            (sp->moves_scratch > 0 && w->mscratch == NULL) ||
            (sp->twins_scratch > 0 && w->tscratch == NULL)) {
            return PZ_ENOMEM;
        }
    }
    return PZ_OK;
}

static void
workers_free(search_t *s)
{
    if (s->w == NULL) {
        return;
    }
    for (int i = 0; i < s->nworkers; i++) {
        free(s->w[i].cols);
        free(s->w[i].hits);
        free(s->w[i].twin);
        free(s->w[i].mscratch);
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
level_init(search_t *s, const tables_bfs_result_t *res, int d)
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
levels(search_t *s, tables_bfs_result_t *res)
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
    search_t s;
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
    s.chunk_rows = (CHUNK_ENTRIES / spec->rowlen + 3) / 4 * 4;
    if (s.chunk_rows == 0) {
        s.chunk_rows = 4;
    }
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
    search_t *s = arg;
    const tables_bfs_pass_t *p = s->pass;
    uint64_t step = s->nchunks / PROGRESS_STEPS + 1;
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
        if (s->b != NULL && p->progress_total != 0 && k % step == step - 1) {
            tables_build_progress(s->b,
                                  p->progress_base + done * p->progress_unit,
                                  p->progress_total);
        }
    }
}

int
tables_bfs_rows(const tables_bfs_pass_t *pass, tables_build_t *b)
{
    search_t s;

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
