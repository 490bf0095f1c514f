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
 * A worker makes a row ready (its entries, where its moves go) while it
 * works on the one before, and asks for the target rows' cache lines a
 * couple of moves ahead of using them: in a table far bigger than the
 * caches nearly every target row comes from memory.
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
 * its first neighbour at depth d, while a forward entry tries every
 * move. */
#define BACK_RATIO 3

/* Progress reports within a level (besides the one at its end). */
#define PROGRESS_STEPS 16

/* Prefetch the target rows of a row when they are at most this long. */
#define PREFETCH_ROW_BYTES 1024

/* Chunk marks: got entries at an even or odd depth; no unseen entry. */
#define MARK_HOT0 1u
#define MARK_HOT1 2u
#define MARK_FULL 4u

/* A row made ready to work on: its entries of interest, where its moves
 * go, the target rows asked for. */
typedef struct slot {
    uint64_t row;
    uint32_t n;     /* entries collected in cols */
    uint32_t *cols; /* rowlen: their columns */
    void *mscratch; /* moves_scratch bytes for the moves callback */
    tables_bfs_edge_t edge[TABLES_BFS_MOVES_MAX];
} slot_t;

/* Scratch of one worker: two slots, so that the next row's target rows
 * are on their way from memory while this row's are worked on. */
typedef struct worker {
    int index; /* 0 .. nworkers - 1 */
    slot_t slot[2];
    uint32_t *hits;          /* rowlen: columns selected from a slot */
    uint8_t *unpacked;       /* rowlen + 8: a MOD3 row, a byte each */
    tables_bfs_edge_t *twin; /* max_twins */
    int ntwin;               /* twins in twin */
    void *tscratch;          /* twins_scratch bytes */
} worker_t;

/* One search, or one pass over rows, under way. */
typedef struct search {
    const tables_bfs_spec_t *sp; /* NULL for a pass */
    tables_build_t *b;           /* may be NULL */
    uint64_t entries;            /* nrows * rowlen */
    uint64_t bytes;              /* of sp->data */
    uint64_t chunk_rows;         /* rows per chunk */
    int chunk_shift;             /* chunk_rows = 2^chunk_shift (searches) */
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

/* Where edge e takes column c (the branch goes the same way for a whole
 * row's entries). */
static inline uint32_t
edge_col(const tables_bfs_edge_t *e, bool wide, uint32_t c)
{
    c = map_at(e->map, wide, c);
    if (e->then != NULL) {
        c = map_at(e->then, wide, c);
    }
    return c;
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

/* Sets unseen entry i to v in a byte no other worker writes in this
 * level (others may read it). */
static inline void
set_own(uint8_t *data, tables_bfs_code_t code, uint64_t i, unsigned v)
{
    int sh;
    uint8_t *p = entry_byte(data, code, i, &sh);
    unsigned un = unseen_of(code);
    uint8_t old = __atomic_load_n(p, __ATOMIC_RELAXED);

    __atomic_store_n(p, (uint8_t)(old & ~((un ^ v) << sh)), __ATOMIC_RELAXED);
}

/*
 * Sets entry i to v if it is unseen, where other workers may write its
 * byte: the bits of unseen that v lacks are cleared in one atomic step,
 * and the old byte says whether the entry was unseen, that is whether
 * this call set it (within a level every worker writes the same v, so a
 * second claim changes nothing). The plain load first spares the atomic
 * step for entries already set.
 */
static inline bool
claim(uint8_t *data, tables_bfs_code_t code, uint64_t i, unsigned v)
{
    int sh;
    uint8_t *p = entry_byte(data, code, i, &sh);
    unsigned un = unseen_of(code);
    uint8_t old;

    if ((__atomic_load_n(p, __ATOMIC_RELAXED) >> sh & un) != un) {
        return false;
    }
    old = __atomic_fetch_and(p, (uint8_t) ~((un ^ v) << sh), __ATOMIC_RELAXED);
    return (old >> sh & un) == un;
}

/* Writes v into the zeroed 4-bit entry i of exact4: atomically when
 * other workers may write its byte (shared), else with a plain store. */
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

/* Collects in sl->cols the columns of sl->row whose entries equal v and
 * returns how many; kind is a constant (KIND_*). */
static inline uint32_t
scan_row(const search_t *s, slot_t *sl, unsigned v, const int kind)
{
    const tables_bfs_code_t code = (tables_bfs_code_t)(kind / 2);
    const unsigned width = (unsigned)code;
    const uint64_t per = 64 / width;
    uint64_t lo = sl->row * s->sp->rowlen;
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
            sl->cols[n++] = (uint32_t)(i - lo);
        }
    }
    return n;
}

/* Sets bits in the mark of chunk k (other workers may set others). */
static inline void
mark(search_t *s, uint64_t k, uint8_t bits)
{
    if ((__atomic_load_n(&s->marks[k], __ATOMIC_RELAXED) & bits) != bits) {
        __atomic_fetch_or(&s->marks[k], bits, __ATOMIC_RELAXED);
    }
}

/* Marks the chunk of row as holding entries of depth d + 1. */
static inline void
mark_hot(search_t *s, uint64_t row)
{
    mark(s, row >> s->chunk_shift, s->next_hot);
}

/* Asks for the cache lines of target row (NO_ROW: none) when rows are
 * short enough for that to pay: in a table far bigger than the caches
 * they then come from memory while other work goes on. The rows of a
 * row's moves are asked for two moves ahead, so that a few rows' lines
 * are on their way at a time: asked for all at once, most requests
 * would find every miss buffer taken and be dropped. */
static inline void
prefetch_row(const search_t *s, uint64_t row)
{
    const tables_bfs_spec_t *sp = s->sp;
    uint64_t width = (uint64_t)sp->code;
    uint64_t first;
    uint64_t last;

    if (row == TABLES_BFS_NO_ROW ||
        (uint64_t)sp->rowlen * width / 8 > PREFETCH_ROW_BYTES) {
        return;
    }
    first = row * sp->rowlen * width / 8;
    last = ((row + 1) * sp->rowlen * width - 1) / 8;
    for (uint64_t a = first & ~UINT64_C(63); a <= last; a += 64) {
        __builtin_prefetch(sp->data + a, 1);
    }
}

/* The four 2-bit entries of a byte as four bytes (little-endian). */
#define UNPACK1(v)                                         \
    ((uint32_t)((v)&3u) | (uint32_t)((v) >> 2 & 3u) << 8 | \
     (uint32_t)((v) >> 4 & 3u) << 16 | (uint32_t)((v) >> 6 & 3u) << 24)
#define UNPACK4(v) \
    UNPACK1(v), UNPACK1((v) + 1u), UNPACK1((v) + 2u), UNPACK1((v) + 3u)
#define UNPACK16(v) \
    UNPACK4(v), UNPACK4((v) + 4u), UNPACK4((v) + 8u), UNPACK4((v) + 12u)
#define UNPACK64(v) \
    UNPACK16(v), UNPACK16((v) + 16u), UNPACK16((v) + 32u), UNPACK16((v) + 48u)

static const uint32_t unpack_lut[256] = {
    UNPACK64(0u),
    UNPACK64(64u),
    UNPACK64(128u),
    UNPACK64(192u),
};

/* Backward tests against a MOD3 row unpacked first when at least this
 * many entries look into it: a byte load then replaces the shifts of
 * each test, and the unpacking costs about a quarter test per entry. */
#define UNPACK_MIN 256

/* Unpacks the MOD3 row starting at entry base into w->unpacked, a byte
 * per entry; returns where entry base is. Other workers may be storing
 * into the row (other entries than depth d ones). */
static inline const uint8_t *
unpack_row(const search_t *s, worker_t *w, uint64_t base)
{
    const uint8_t *src = s->sp->data + (base >> 2);
    uint64_t nbytes = ((base & 3) + s->sp->rowlen + 3) / 4;

    for (uint64_t i = 0; i < nbytes; i++) {
        uint32_t v = unpack_lut[__atomic_load_n(src + i, __ATOMIC_RELAXED)];

        memcpy(w->unpacked + 4 * i, &v, 4);
    }
    return w->unpacked + (base & 3);
}

/* Prefetch distance, in moves. */
#define PREFETCH_AHEAD 2

/* Sets the unseen twins (w->twin, w->ntwin) of the entry in column c of
 * their row, just set. Returns how many it set. */
static inline uint64_t
claim_twins(search_t *s, const worker_t *w, uint32_t c)
{
    const tables_bfs_spec_t *sp = s->sp;
    tables_bfs_code_t code = sp->code;
    uint64_t found = 0;

    for (int t = 0; t < w->ntwin; t++) {
        uint64_t j =
            w->twin[t].row * sp->rowlen + edge_col(&w->twin[t], sp->wide, c);

        if (claim(sp->data, code, j, s->next_code)) {
            if (sp->exact4 != NULL) {
                set_exact4(sp->exact4, j, s->next_exact4, true);
            }
            found++;
            mark_hot(s, w->twin[t].row);
        }
    }
    return found;
}

/*
 * Makes slot sl ready for its row (sl->row): collects the row's entries
 * that the level works on (forward: at depth d; backward: unseen), gets
 * where its moves go and asks for the first target rows' cache lines.
 * kind is a constant (KIND_*). Returns how many entries it collected;
 * with none, it stops there.
 */
static inline uint32_t
prepare(search_t *s, slot_t *sl, const int kind)
{
    const tables_bfs_spec_t *sp = s->sp;
    uint64_t row = sl->row;

    sl->n = scan_row(s, sl, s->back ? unseen_of(sp->code) : s->cur_code, kind);
    if (sl->n == 0) {
        return 0;
    }
    sp->moves(sp->arg, row, sl->edge, sl->mscratch);
    for (int m = 0; m < PREFETCH_AHEAD && m < sp->nmoves; m++) {
        prefetch_row(s, sl->edge[m].row);
    }
    return sl->n;
}

/* Forward: the entries of sl's row at depth d claim their unseen
 * neighbours and the neighbours' twins. kind is a constant (KIND_*).
 * Returns how many entries this worker set. */
static inline uint64_t
row_forward(search_t *s, worker_t *w, const slot_t *sl, const int kind)
{
    const tables_bfs_code_t code = (tables_bfs_code_t)(kind / 2);
    const bool wide = kind % 2 != 0;
    const tables_bfs_spec_t *sp = s->sp;
    uint8_t *data = sp->data;
    uint32_t *hits = w->hits;
    const uint32_t *cols = sl->cols;
    uint32_t n = sl->n;
    uint64_t found = 0;

    for (int m = 0; m < sp->nmoves; m++) {
        const tables_bfs_edge_t *e = &sl->edge[m];
        uint64_t trow = e->row;
        uint64_t base = trow * sp->rowlen;
        bool twins_known = false;
        uint64_t before = found;
        uint32_t h = 0;

        if (m + PREFETCH_AHEAD < sp->nmoves) {
            prefetch_row(s, sl->edge[m + PREFETCH_AHEAD].row);
        }
        if (trow == TABLES_BFS_NO_ROW) {
            continue;
        }
        /* The targets still unseen first, without a branch on each. */
        for (uint32_t k = 0; k < n; k++) {
            uint32_t c = edge_col(e, wide, cols[k]);

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
                continue; /* a twin set before */
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

/* Backward: each unseen entry of sl's row that has a neighbour at depth
 * d gets depth d + 1. Returns how many it set. */
static inline uint64_t
row_backward(search_t *s, worker_t *w, slot_t *sl, const int kind)
{
    const tables_bfs_code_t code = (tables_bfs_code_t)(kind / 2);
    const bool wide = kind % 2 != 0;
    const tables_bfs_spec_t *sp = s->sp;
    const uint8_t *data = sp->data;
    unsigned cur = s->cur_code;
    uint32_t *cols = sl->cols;
    uint32_t *hits = w->hits;
    uint64_t self = sl->row * sp->rowlen;
    uint32_t n = sl->n;
    uint32_t found = 0;

    for (int m = 0; m < sp->nmoves && n > 0; m++) {
        const tables_bfs_edge_t *e = &sl->edge[m];
        uint64_t trow = e->row;
        uint64_t base = trow * sp->rowlen;
        uint32_t left = 0;

        if (m + PREFETCH_AHEAD < sp->nmoves) {
            prefetch_row(s, sl->edge[m + PREFETCH_AHEAD].row);
        }
        if (trow == TABLES_BFS_NO_ROW) {
            continue;
        }
        /* Split cols into those with a neighbour at depth d (to hits)
         * and those still looking, without a branch on each; from the
         * target row unpacked to a byte per entry when many look. */
        if (code == TABLES_BFS_MOD3 && n >= UNPACK_MIN) {
            const uint8_t *q = unpack_row(s, w, base);

            for (uint32_t k = 0; k < n; k++) {
                uint32_t c = cols[k];
                bool hit = q[edge_col(e, wide, c)] == cur;

                hits[found] = c;
                found += hit;
                cols[left] = c;
                left += !hit;
            }
        } else {
            for (uint32_t k = 0; k < n; k++) {
                uint32_t c = cols[k];
                bool hit =
                    load_entry(data, code, base + edge_col(e, wide, c)) == cur;

                hits[found] = c;
                found += hit;
                cols[left] = c;
                left += !hit;
            }
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
        mark_hot(s, sl->row);
    }
    return found;
}

/* Runs the level on chunk k; kind is a constant (KIND_*). Each row with
 * work is prepared while the one before it is worked on. */
static inline uint64_t
chunk_level(search_t *s, int worker, uint64_t k, const int kind)
{
    worker_t *w = &s->w[worker];
    slot_t *cur = &w->slot[0];
    slot_t *next = &w->slot[1];
    uint64_t r = k * s->chunk_rows;
    uint64_t end = r + s->chunk_rows;
    uint64_t found = 0;
    bool full = true;

    if (end > s->sp->nrows) {
        end = s->sp->nrows;
    }
    for (; r < end; r++) {
        cur->row = r;
        if (prepare(s, cur, kind) > 0) {
            break;
        }
    }
    while (r < end) {
        slot_t *t;
        uint64_t r2 = r + 1;

        for (; r2 < end; r2++) {
            next->row = r2;
            if (prepare(s, next, kind) > 0) {
                break;
            }
        }
        full = false;
        if (s->back) {
            found += row_backward(s, w, cur, kind);
        } else {
            found += row_forward(s, w, cur, kind);
        }
        if (s->probe && __atomic_load_n(&s->overflow, __ATOMIC_RELAXED)) {
            break;
        }
        t = cur;
        cur = next;
        next = t;
        r = r2;
    }
    if (s->back && full) {
        mark(s, k, MARK_FULL);
    }
    return found;
}

/* Runs the level on chunk k, in the copy of the inner loops made for
 * the table's code and map width. */
static uint64_t
chunk_any(search_t *s, int worker, uint64_t k)
{
    switch ((int)s->sp->code * 2 + (s->sp->wide ? 1 : 0)) {
    case KIND_MOD3:
        return chunk_level(s, worker, k, KIND_MOD3);
    case KIND_MOD3_WIDE:
        return chunk_level(s, worker, k, KIND_MOD3_WIDE);
    case KIND_EXACT4:
        return chunk_level(s, worker, k, KIND_EXACT4);
    case KIND_EXACT4_WIDE:
        return chunk_level(s, worker, k, KIND_EXACT4_WIDE);
    case KIND_EXACT8:
        return chunk_level(s, worker, k, KIND_EXACT8);
    default:
        return chunk_level(s, worker, k, KIND_EXACT8_WIDE);
    }
}

/* Adds found (chunk k's) to the level's count and, every so many
 * chunks of a big table, reports. */
static void
level_progress(search_t *s, uint64_t k, uint64_t found)
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
    search_t *s = arg;
    uint64_t k;

    while (next_chunk(s, &k)) {
        uint8_t m = __atomic_load_n(&s->marks[k], __ATOMIC_RELAXED);

        if (s->probe && __atomic_load_n(&s->overflow, __ATOMIC_RELAXED)) {
            return;
        }
        if (s->back ? !(m & MARK_FULL) : (m & s->cur_hot) != 0) {
            level_progress(s, k, chunk_any(s, worker, k));
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

        w->index = i;
        for (int j = 0; j < 2; j++) {
            slot_t *sl = &w->slot[j];

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
workers_free(search_t *s)
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
    search_t *s = arg;
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
