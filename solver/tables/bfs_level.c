/* SPDX-License-Identifier: MIT */
/* bfs_level.c - the breadth-first builder's work on the rows of a chunk. */

/*
 * Design. A worker makes a row ready (its entries, where its moves go)
 * while it works on the one before, and asks for the target rows' cache
 * lines a couple of moves ahead of using them: in a table far bigger
 * than the caches nearly every target row comes from memory.
 *
 * Both kinds of level first test a whole list of entries and only then
 * act on the ones that passed: about every other test passes, in no
 * order a branch predictor could learn, and a mispredicted branch per
 * test cost more than the test. The inner loops are written once and
 * made into a copy per code and map width (kind, a constant argument).
 */
#include <string.h>

#include "bfs_internal.h"

/* Prefetch the target rows of a row when they are at most this long. */
#define PREFETCH_ROW_BYTES 1024

/* Word w (8 bytes) of the table, bytes past its end read as 0xff. Other
 * workers may be storing to these bytes (to entries other than those the
 * caller looks for); each byte read is one that was stored. */
static inline uint64_t
load_word(const bfs_search_t *s, uint64_t w)
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
scan_row(const bfs_search_t *s, bfs_slot_t *sl, unsigned v, const int kind)
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

/* Asks for the cache lines of target row (NO_ROW: none) when rows are
 * short enough for that to pay: in a table far bigger than the caches
 * they then come from memory while other work goes on. The rows of a
 * row's moves are asked for two moves ahead, so that a few rows' lines
 * are on their way at a time: asked for all at once, most requests
 * would find every miss buffer taken and be dropped. */
static inline void
prefetch_row(const bfs_search_t *s, uint64_t row)
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
unpack_row(const bfs_search_t *s, bfs_worker_t *w, uint64_t base)
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

/*
 * Makes slot sl ready for its row (sl->row): collects the row's entries
 * that the level works on (forward: at depth d; backward: unseen), gets
 * where its moves go and asks for the first target rows' cache lines.
 * kind is a constant (KIND_*). Returns how many entries it collected;
 * with none, it stops there.
 */
static inline uint32_t
prepare(bfs_search_t *s, bfs_slot_t *sl, const int kind)
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
row_forward(bfs_search_t *s,
            bfs_worker_t *w,
            const bfs_slot_t *sl,
            const int kind)
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
row_backward(bfs_search_t *s, bfs_worker_t *w, bfs_slot_t *sl, const int kind)
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
chunk_level(bfs_search_t *s, int worker, uint64_t k, const int kind)
{
    bfs_worker_t *w = &s->w[worker];
    bfs_slot_t *cur = &w->slot[0];
    bfs_slot_t *next = &w->slot[1];
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
        bfs_slot_t *t;
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
uint64_t
tables_bfs__chunk(bfs_search_t *s, int worker, uint64_t k)
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
