/* SPDX-License-Identifier: MIT */
/* tiles_pdb_build.c - the builder of the tiles' pattern databases. */

/*
 * Design. Building is a breadth-first search over (placement, blank cell)
 * pairs, 2 bits each: unseen, in the frontier of an even or odd layer, or
 * done. Moves of non-pattern tiles are free, so a state is really a
 * placement with the whole free region the blank can reach. A new state
 * enters the next layer by the blank's cell alone; when the layer is
 * expanded, a placement's entries in it are taken together, the union of
 * their regions is marked done and the moves out of it are generated. A
 * placement's table entry is the layer it is first reached in. Layers are
 * found by scanning the blocks of the bit array that a small bitmap marks
 * (no queues); placements are ranked as partial permutations in mixed
 * radix, and the scan order lets the placement of all but the last tile be
 * unranked once per run of consecutive indices.
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, MADV_HUGEPAGE */

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tiles_pdb_internal.h"

#define UNSEEN 0xFF

/* ------------------------------------------------------------------------ */
/* Building */

/* Children are collected in batches with their bit-array words
 * prefetched, then checked: the checks are random accesses into an array
 * of up to a gigabyte, and this keeps many of them in flight. */
#define BATCH 512
/* Boards up to this many cells get a table of the first region of every
 * free-cell mask (2^n 16-bit masks: 128 KiB at 16 cells). */
#define REGION_CELLS_MAX 16
#define CHILD_MAX        (PAT_MAX * 4) /* children of one expansion */
/* A bit of a front bitmap stands for a block of 2^BLOCK_SHIFT words of
 * the bit array (512 bytes), so the bitmaps stay in the cache. */
#define BLOCK_SHIFT 6
/* Pieces of a layer's scan handed out to the workers. */
#define CHUNKS_PER_WORKER 64
#define WORKERS_MAX       64
#define HUGE_ALIGN        ((size_t)2 << 20)

/* A state reached from the current layer, to be checked. */
typedef struct child {
    uint64_t entry; /* placement << unit_shift | the blank's free rank */
} child_t;

/*
 * What all workers of a build share. Each placement owns one aligned unit
 * of 16, 32 or 64 bits in the bit array, 2 bits per free cell (in cell
 * order), so a placement's codes never straddle two words and a whole
 * region is marked by one (atomic, when threaded) update of one word.
 */
typedef struct build {
    board_t b;
    int k;                    /* pattern tiles */
    int nf;                   /* free cells: n - k */
    int unit_shift;           /* log2 of the entries per unit */
    uint64_t count;           /* placements */
    uint64_t nwords;          /* words of the bit array */
    uint64_t *codes;          /* the units */
    uint8_t *data;            /* the table */
    uint64_t weight[PAT_MAX]; /* place value of each digit of a rank */
    uint8_t pop8[256];        /* bits set in each byte value */
    uint16_t *first;          /* [m]: the region of the lowest cell of
                                 free-cell mask m (boards of up to 16
                                 cells, else NULL) */
    uint64_t *front[2];       /* bit i: block i holds entries of the layer
                                 of that parity, so scans skip others */
    uint64_t nfront;          /* words of each front bitmap */
    int layer;                /* depth being expanded */
    int cur;                  /* its code, 1 or 2 */
    int next_code;            /* code of the next layer, 2 or 1 */
    bool threaded;            /* several workers: atomic updates */
    uint64_t nchunks;         /* pieces of this layer's scan */
    uint64_t next_chunk;      /* next piece to take (atomic) */
} build_t;

/*
 * The numbers the inner loops depend on. The functions taking one are
 * inlined into scan_words, which is instantiated for the 15- and
 * 24-puzzle tables with constants, so that the compiler unrolls and
 * folds with them, and once with the build's values for other boards.
 */
typedef struct geom {
    int cols; /* board columns */
    int n;    /* board cells */
    int k;    /* pattern tiles */
} geom_t;

/* One worker: its decoding cache, its batch and its counts. */
typedef struct worker {
    build_t *sh;
    uint64_t seen;              /* placements first expanded by it */
    uint64_t found;             /* entries it added to the next layer */
    uint64_t expanded;          /* placements it expanded in this layer */
    uint32_t prefix;            /* placement / (n - k + 1) decoded below */
    uint8_t digit[PAT_MAX];     /* the prefix's digits */
    uint64_t used[PAT_MAX + 1]; /* used[j]: cells of tiles 0..j-1 */
    /* By cell, for the cells of the placement's tiles (other cells hold
     * stale values that are never read; tweight[63], read as "no tile",
     * stays 0 since boards have at most 32 cells): */
    uint64_t earlier[CELLS_MAX];  /* cells of the tiles before its tile */
    uint64_t tweight[CELLS_MAX];  /* its tile's weight */
    uint8_t fbelow[CELLS_MAX];    /* the cells below it that the prefix's
                                     tiles leave free */
    uint8_t last_free[CELLS_MAX]; /* cells the prefix leaves, in order */
    int nbatch;
    child_t batch[BATCH];
} worker_t;

/*
 * Zeroed anonymous memory for the bit array (and the distances before
 * packing), of bytes rounded up to 2 MiB, 2 MiB aligned and
 * advised for transparent huge pages: its words are read at random, and
 * with 4 KiB pages nearly every read would also miss the TLB (and the
 * first touch of each page would fault). NULL when out of memory; free
 * with codes_free.
 */
static uint64_t *
codes_alloc(size_t bytes)
{
    size_t n = (bytes + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1);
    uint8_t *base = mmap(NULL, n + HUGE_ALIGN, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    size_t head;

    if (base == MAP_FAILED) {
        return NULL;
    }
    /* Keep the aligned window of n bytes. */
    head =
        (HUGE_ALIGN - ((uintptr_t)base & (HUGE_ALIGN - 1))) & (HUGE_ALIGN - 1);
    if (head > 0) {
        munmap(base, head);
    }
    munmap(base + head + n, HUGE_ALIGN - head);
#ifdef MADV_HUGEPAGE
    (void)madvise(base + head, n, MADV_HUGEPAGE);
#endif
    return (uint64_t *)(void *)(base + head);
}

static void
codes_free(uint64_t *codes, size_t bytes)
{
    if (codes != NULL) {
        munmap(codes, (bytes + HUGE_ALIGN - 1) & ~(HUGE_ALIGN - 1));
    }
}

static inline uint64_t
load_word(const build_t *sh, const uint64_t *p)
{
    return sh->threaded ? __atomic_load_n(p, __ATOMIC_RELAXED) : *p;
}

static inline void
or_word(const build_t *sh, uint64_t *p, uint64_t bits)
{
    if (sh->threaded) {
        __atomic_fetch_or(p, bits, __ATOMIC_RELAXED);
    } else {
        *p |= bits;
    }
}

/*
 * Decodes placement c: w->used[k - 1] gets the cells of all but the last
 * tile, w->last_free the cells they leave; returns the last tile's digit
 * (its index in w->last_free). All but the last tile form a prefix,
 * c / (n - k + 1), shared by runs of consecutive placements; a worker
 * visits placements in increasing order, so the prefix usually moves on
 * by a step or two, which an odometer over the digits follows without
 * divisions. A longer jump decodes the prefix from scratch. Placement
 * counts stay below 2^32, so the divisions are 32-bit ones.
 */
static inline __attribute__((always_inline)) int
unrank_placement(worker_t *w, uint64_t c, geom_t g)
{
    const uint32_t radix = (uint32_t)(g.n - g.k + 1);
    const uint32_t pk = (uint32_t)c / radix;

    if (pk != w->prefix) {
        int low = g.k - 1; /* lowest level whose digit changed */
        uint64_t pre;
        int nfree = 0;
        int ntiles = 0;

        if (w->prefix != UINT32_MAX && pk > w->prefix && pk - w->prefix <= 8) {
            while (w->prefix < pk) {
                int j = g.k - 2;

                while (j >= 0 && ++w->digit[j] == g.n - j) {
                    w->digit[j--] = 0;
                }
                low = j < low ? j : low;
                w->prefix++;
            }
        } else {
            uint32_t v = pk;

            for (int j = g.k - 2; j >= 0; j--) {
                w->digit[j] = (uint8_t)(v % (uint32_t)(g.n - j));
                v /= (uint32_t)(g.n - j);
            }
            low = 0;
            w->prefix = pk;
        }
        /* Tile j takes the digit[j]-th cell the earlier tiles leave. */
        for (int j = low < 0 ? 0 : low; j < g.k - 1; j++) {
            int p = select_bit(w->sh->b.full & ~w->used[j], w->digit[j]);

            w->earlier[p] = w->used[j];
            w->tweight[p] = w->sh->weight[j];
            w->used[j + 1] = w->used[j] | UINT64_C(1) << p;
        }
        pre = w->used[g.k - 1];
        for (uint64_t m = w->sh->b.full & ~pre; m != 0; m &= m - 1) {
            w->last_free[nfree++] = (uint8_t)__builtin_ctzll(m);
        }
        /* The i-th tile cell up has i tile cells below it. */
        for (uint64_t m = pre; m != 0; m &= m - 1) {
            int p = __builtin_ctzll(m);

            w->fbelow[p] = (uint8_t)(p - ntiles++);
        }
    }
    return (int)((uint32_t)c - pk * radix);
}

/* The cells of free reachable from cell start: through the table of
 * first regions when there is one (peeling regions off in the order of
 * their lowest cells), else by a flood fill. */
static inline __attribute__((always_inline)) uint64_t
build_region(const build_t *sh, uint64_t free, int start, geom_t g)
{
    uint64_t r = UINT64_C(1) << start;

    if (sh->first != NULL) {
        for (;;) {
            r = sh->first[free];
            if (r >> start & 1) {
                return r;
            }
            free ^= r;
        }
    }
    for (;;) {
        uint64_t e = r | ((r << 1) & sh->b.not_first) |
                     ((r >> 1) & sh->b.not_last) | (r << g.cols) |
                     (r >> g.cols);

        e &= free;
        if (e == r) {
            return r;
        }
        r = e;
    }
}

/*
 * Checks the batched children and adds the new ones to the next layer.
 * The unmarked ones are first gathered without a branch on the codes
 * (which the processor could not predict, and whose mispredictions would
 * cancel the loads in flight). A new entry's cell alone gets the next
 * layer's code; the rest of its region is marked when it is expanded.
 * Until then another parent may add another cell of the same region (the
 * expansion takes the union), or a cell of a region of the current layer
 * that its worker has not expanded yet (that expansion marks it done, so
 * it never reaches the next layer); a child twice in the batch may be
 * added twice. None of this changes the layers, and since codes only
 * gain bits, concurrent updates need no more than an atomic or.
 */
static void
flush(worker_t *w)
{
    const build_t *sh = w->sh;
    uint64_t *codes = sh->codes;
    uint64_t *front = sh->front[sh->next_code - 1];
    const uint64_t next = (uint64_t)sh->next_code;
    int nnew = 0;

    for (int i = 0; i < w->nbatch; i++) {
        uint64_t e = w->batch[i].entry;
        uint64_t word = load_word(sh, &codes[e >> 5]);

        w->batch[nnew].entry = e;
        nnew += (word >> ((e & 31) << 1) & 3) == 0;
    }
    for (int i = 0; i < nnew; i++) {
        uint64_t e = w->batch[i].entry;
        uint64_t block = (e >> 5) >> BLOCK_SHIFT;
        uint64_t *fw = &front[block >> 6];

        or_word(sh, &codes[e >> 5], next << ((e & 31) << 1));
        /* Most blocks already hold an entry of the next layer: test
         * before the (atomic) update. */
        if (!(load_word(sh, fw) >> (block & 63) & 1)) {
            or_word(sh, fw, UINT64_C(1) << (block & 63));
        }
    }
    w->found += (uint64_t)nnew;
    w->nbatch = 0;
}

/* What expand's move loops share. */
typedef struct moves {
    const worker_t *w;
    const uint64_t *codes; /* the bit array, for prefetching */
    const uint8_t *pop8;   /* bits set in each byte value */
    uint64_t c;            /* the placement */
    uint64_t tiles;        /* its tiles' cells */
    unsigned lastcell;     /* the last tile's cell */
    child_t *out;          /* where the children go */
} moves_t;

/*
 * Batches the children that move a tile one step, vertically or not, and
 * returns their count: bit p of m moves the tile at p to q = p - d, bit
 * 32 + p moves it to q = p + d, where d is cols (vertical) or 1. One
 * loop takes both directions, so there are fewer loop exits for the
 * processor to mispredict. A child's rank comes from the parent's:
 * moving tile j from p to q changes digit j by the distance moved less
 * the earlier tiles passed over, and each later tile passed over gains
 * (q above it) or loses (q below it) one in its digit. Only a vertical
 * move passes over cells. x comes by value so that its fields stay in
 * registers while the children are stored.
 */
static inline __attribute__((always_inline)) int
moves(moves_t x, uint64_t m, bool vertical, geom_t g)
{
    const worker_t *w = x.w;
    const int shift = g.n - g.k <= 8 ? 3 : g.n - g.k <= 16 ? 4 : 5;
    const int d = vertical ? g.cols : 1;
    const uint64_t run = (UINT64_C(1) << (g.cols - 1)) - 1;
    int n = 0;

    while (m != 0) {
        const unsigned b = (unsigned)__builtin_ctzll(m);
        const unsigned p = b & 31;
        const uint64_t fwd = b >> 5; /* q > p */
        uint64_t step = w->tweight[p];
        uint64_t entry;

        m &= m - 1;
        if (vertical) {
            /* The move passes over the cols - 1 cells between p and q:
             * the earlier tiles there make digit j move less, the later
             * ones change their own digits by one. The first two later
             * tiles are added without a branch (tweight[63] is 0); a
             * third is rare. */
            unsigned lo = (fwd ? p : p - (unsigned)d) + 1;
            uint64_t pre = w->earlier[p];
            uint64_t later = (run << lo) & x.tiles & ~pre;
            const uint64_t none = UINT64_C(1) << 63;

            step *= (uint64_t)(g.cols - x.pop8[(pre >> lo) & run]);
            step += w->tweight[__builtin_ctzll(later | none)];
            later &= later - 1;
            step += w->tweight[__builtin_ctzll(later | none)];
            later &= later - 1;
            while (later != 0) {
                step += w->tweight[__builtin_ctzll(later)];
                later &= later - 1;
            }
        }
        /* The blank's rank: the free cells below p, less q. */
        entry = (fwd ? x.c + step : x.c - step) << shift |
                (w->fbelow[p] - (uint64_t)(x.lastcell < p) - (fwd ^ 1));
        __builtin_prefetch(&x.codes[entry >> 5], 1, 0);
        x.out[n].entry = entry;
        n++;
    }
    return n;
}

/*
 * Expands placement c, whose entries marked in reps (2 bits each, the
 * low one set) are in the current layer: records the placement's depth
 * on its first expansion, marks the regions of those entries done and
 * batches the children of their union (moves of pattern tiles into the
 * regions; the children of different regions are different placements,
 * so the union loses nothing).
 */
static inline __attribute__((always_inline)) void
expand(worker_t *w, uint64_t c, uint64_t reps, geom_t g)
{
    const build_t *sh = w->sh;
    const int nf = g.n - g.k;
    const int shift = nf <= 8 ? 3 : nf <= 16 ? 4 : 5;
    const int last = unrank_placement(w, c, g);
    const int lastcell = w->last_free[last];
    const uint64_t tiles = w->used[g.k - 1] | UINT64_C(1) << lastcell;
    const uint64_t fr = sh->b.full & ~tiles;
    const uint8_t depth = sh->data[c];
    uint64_t reg = 0;
    uint64_t marks = 0;
    moves_t x;

    /* The placement's depth is that of its first state expanded; c lies
     * in this worker's piece of the scan, so no other worker writes it. */
    sh->data[c] = depth == UNSEEN ? (uint8_t)sh->layer : depth;
    w->seen += depth == UNSEEN;
    w->expanded++;
    w->earlier[lastcell] = w->used[g.k - 1];
    w->tweight[lastcell] = 1;
    w->fbelow[lastcell] = (uint8_t)last;
    /* The free cells are w->last_free without the last tile's cell.
     * Several entries may share a region (see flush). */
    while (reps != 0) {
        int r = __builtin_ctzll(reps) >> 1;
        int cell = w->last_free[r + (r >= last)];

        reps &= reps - 1;
        if (!(reg >> cell & 1)) {
            reg |= build_region(sh, fr, cell, g);
        }
    }
    /* Done: 3 over every cell of the regions. */
    if (reg == fr) {
        marks = nf == 32 ? ~UINT64_C(0) : (UINT64_C(1) << (2 * nf)) - 1;
    } else {
        for (int r = nf - 1; r >= 0; r--) {
            marks = marks << 2 | (reg >> w->last_free[r + (r >= last)] & 1);
        }
        marks *= 3;
    }
    or_word(sh, &sh->codes[(c << shift) >> 5],
            marks << (((c << shift) & 31) << 1));
    x.w = w;
    x.codes = sh->codes;
    x.pop8 = sh->pop8;
    x.c = c;
    x.tiles = tiles;
    x.lastcell = (unsigned)lastcell;
    x.out = w->batch + w->nbatch;
    x.out +=
        moves(x, ((reg << g.cols) & tiles) | ((reg >> g.cols) & tiles) << 32,
              true, g);
    x.out += moves(x,
                   ((reg << 1) & sh->b.not_first & tiles) |
                       ((reg >> 1) & sh->b.not_last & tiles) << 32,
                   false, g);
    w->nbatch = (int)(x.out - w->batch);
    if (w->nbatch > BATCH - CHILD_MAX) {
        flush(w);
    }
}

/* Expands the entries of the current layer in words lo..hi of the bit
 * array. */
static inline __attribute__((always_inline)) void
scan_words(worker_t *w, uint64_t lo, uint64_t hi, geom_t g)
{
    const build_t *sh = w->sh;
    const uint64_t lo_bits = UINT64_C(0x5555555555555555);
    const int nf = g.n - g.k;
    const int shift = nf <= 8 ? 3 : nf <= 16 ? 4 : 5;
    const int ubits = 2 << shift; /* bits of a unit */
    const uint64_t umask =
        ubits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << ubits) - 1;
    const bool odd = sh->cur == 2;

    uint64_t match[UINT64_C(1) << BLOCK_SHIFT];
    uint8_t at[UINT64_C(1) << BLOCK_SHIFT];
    int nmatch = 0;

    /* First the words holding entries of the layer, gathered without a
     * branch per word: in sparse layers most words of a block hold none,
     * and this keeps their loop short. The codes this worker scans are
     * its own in this layer: others only add next-layer marks to unmarked
     * cells. */
    for (uint64_t i = lo; i < hi; i++) {
        uint64_t word = load_word(sh, &sh->codes[i]);
        uint64_t l = word & lo_bits;
        uint64_t h = (word >> 1) & lo_bits;

        match[nmatch] = odd ? h & ~l : l & ~h;
        at[nmatch] = (uint8_t)(i - lo);
        nmatch += match[nmatch] != 0;
    }
    for (int t = 0; t < nmatch; t++) {
        uint64_t m = match[t];
        uint64_t i = lo + at[t];

        while (m != 0) {
            int u = __builtin_ctzll(m) >> (shift + 1);
            uint64_t reps = (m >> (u * ubits)) & umask;

            m &= ~(umask << (u * ubits));
            expand(w, ((i * 32) >> shift) + (uint64_t)u, reps, g);
        }
    }
}

/* scan_words with the numbers of the common tables as constants. */
static void
scan_block(worker_t *w, uint64_t lo, uint64_t hi)
{
    const build_t *sh = w->sh;

    if (sh->b.cols == 4 && sh->b.n == 16 && sh->k == 7) {
        scan_words(w, lo, hi, (geom_t){ 4, 16, 7 });
    } else if (sh->b.cols == 4 && sh->b.n == 16 && sh->k == 8) {
        scan_words(w, lo, hi, (geom_t){ 4, 16, 8 });
    } else if (sh->b.cols == 5 && sh->b.n == 25 && sh->k == 6) {
        scan_words(w, lo, hi, (geom_t){ 5, 25, 6 });
    } else {
        scan_words(w, lo, hi, (geom_t){ sh->b.cols, sh->b.n, sh->k });
    }
}

/* A worker's share of one layer: pieces of the scan taken in turn. */
static void
layer_task(void *arg, int index)
{
    worker_t *w = (worker_t *)arg + index;
    build_t *sh = w->sh;
    uint64_t *front = sh->front[sh->cur - 1];
    uint64_t per = (sh->nfront + sh->nchunks - 1) / sh->nchunks;

    for (;;) {
        uint64_t chunk =
            __atomic_fetch_add(&sh->next_chunk, 1, __ATOMIC_RELAXED);
        uint64_t end;

        if (chunk >= sh->nchunks) {
            break;
        }
        end = (chunk + 1) * per < sh->nfront ? (chunk + 1) * per : sh->nfront;
        for (uint64_t f = chunk * per; f < end; f++) {
            /* This front word is this worker's. */
            uint64_t bits = front[f];

            front[f] = 0;
            while (bits != 0) {
                uint64_t blk = f * 64 + (uint64_t)__builtin_ctzll(bits);
                uint64_t lo = blk << BLOCK_SHIFT;
                uint64_t hi = lo + (UINT64_C(1) << BLOCK_SHIFT);

                bits &= bits - 1;
                scan_block(w, lo, hi < sh->nwords ? hi : sh->nwords);
            }
        }
    }
    flush(w);
}

int
tiles_pdb__build(const tables_def_t *def,
                 uint8_t *data,
                 int bits,
                 int *max_value,
                 tables_build_t *bd)
{
    const source_t *r = def->arg;

    build_t *sh = calloc(1, sizeof(*sh));
    int nworkers = tables_build_workers(bd);
    worker_t *workers = NULL;
    uint64_t nblocks;
    uint64_t goal = 0;
    uint64_t free0;
    uint64_t seen = 0;
    int d = 0;
    int rc;

    if (sh == NULL) {
        return PZ_ENOMEM;
    }
    tiles_pdb__board_init(&sh->b, r->rows, r->cols);
    sh->k = perm_bits(r->mask);
    sh->nf = sh->b.n - sh->k;
    sh->count = def->entries;
    /* Boards of up to 32 cells: moves packs two directions' cells in one
     * word. */
    if (sh->k < 1 || sh->k > PAT_MAX || sh->nf < 2 || sh->nf > 32 ||
        sh->b.cols > 9 || sh->b.n > 32 || sh->count >= UINT32_MAX ||
        bits != 4) {
        free(sh);
        return PZ_EINVAL;
    }
    /* Built a byte per entry, packed into the 4-bit entries at the end. */
    sh->data = (uint8_t *)codes_alloc((size_t)sh->count);
    if (sh->data == NULL) {
        free(sh);
        return PZ_ENOMEM;
    }
    sh->unit_shift = sh->nf <= 8 ? 3 : sh->nf <= 16 ? 4 : 5;
    sh->weight[sh->k - 1] = 1;
    for (int j = sh->k - 2; j >= 0; j--) {
        sh->weight[j] = sh->weight[j + 1] * (uint64_t)(sh->b.n - j - 1);
    }
    for (int v = 0; v < 256; v++) {
        sh->pop8[v] = (uint8_t)perm_bits((uint64_t)v);
    }
    sh->nwords = ((sh->count << sh->unit_shift) + 31) / 32;
    nblocks = (sh->nwords + (UINT64_C(1) << BLOCK_SHIFT) - 1) >> BLOCK_SHIFT;
    sh->nfront = (nblocks + 63) / 64;
    /* Small tables are not worth the threads. */
    nworkers = sh->nwords < 4096        ? 1
               : nworkers > WORKERS_MAX ? WORKERS_MAX
                                        : nworkers;
    sh->threaded = nworkers > 1;
    workers = calloc((size_t)nworkers, sizeof(*workers));
    sh->codes = codes_alloc((size_t)sh->nwords * sizeof(uint64_t));
    sh->front[0] = calloc((size_t)sh->nfront, sizeof(uint64_t));
    sh->front[1] = calloc((size_t)sh->nfront, sizeof(uint64_t));
    if (sh->b.n <= REGION_CELLS_MAX) {
        sh->first = calloc((size_t)1 << sh->b.n, sizeof(uint16_t));
    }
    if (workers == NULL || sh->codes == NULL || sh->front[0] == NULL ||
        sh->front[1] == NULL ||
        (sh->b.n <= REGION_CELLS_MAX && sh->first == NULL)) {
        rc = PZ_ENOMEM;
        goto out;
    }
    for (int i = 0; i < nworkers; i++) {
        workers[i].sh = sh;
        workers[i].prefix = UINT32_MAX;
    }
    if (sh->first != NULL) {
        for (uint64_t m = 1; m >> sh->b.n == 0; m++) {
            sh->first[m] = (uint16_t)region(&sh->b, m, __builtin_ctzll(m));
        }
    }
    memset(sh->data, UNSEEN, (size_t)sh->count);

    /* The goal: pattern tile j on the j-th home cell, the blank's region
     * in layer 0. */
    {
        uint8_t pos[PAT_MAX];
        uint64_t m = r->mask;

        for (int j = 0; j < sh->k; j++) {
            pos[j] = (uint8_t)__builtin_ctzll(m);
            m &= m - 1;
        }
        goal = place_rank(pos, sh->k, sh->b.n);
    }
    sh->next_code = 1;
    free0 = sh->b.full & ~r->mask;
    workers[0].batch[0].entry =
        goal << sh->unit_shift |
        (uint64_t)perm_bits(free0 & ((UINT64_C(1) << r->blank) - 1));
    workers[0].nbatch = 1;
    flush(&workers[0]);

    for (;;) {
        uint64_t found = 0;
        uint64_t expanded = 0;

        if (d + 1 >= UNSEEN) {
            rc = PZ_ERANGE;
            goto out;
        }
        sh->layer = d;
        sh->cur = (d & 1) + 1;
        sh->next_code = 3 - sh->cur;
        sh->nchunks = (uint64_t)nworkers * CHUNKS_PER_WORKER;
        sh->next_chunk = 0;
        for (int i = 0; i < nworkers; i++) {
            workers[i].found = 0;
            workers[i].expanded = 0;
        }
        tables_build_run(bd, layer_task, workers, nworkers);
        seen = 0;
        for (int i = 0; i < nworkers; i++) {
            found += workers[i].found;
            expanded += workers[i].expanded;
            seen += workers[i].seen;
        }
        tables_build_progress(bd, seen, sh->count);
        if (expanded == 0) {
            /* Layer d held only cells of regions of layer d - 1, which
             * their expansions marked done (see flush). */
            d--;
            break;
        }
        if (found == 0) {
            break;
        }
        if (tables_build_cancelled(bd)) {
            rc = PZ_ECANCELLED;
            goto out;
        }
        d++;
    }
    /* Every placement is reachable (at least two cells are free), so a
     * placement left unseen would be a bug. */
    rc = seen == sh->count ? PZ_OK : PZ_EINTERNAL;
    *max_value = d;
    if (rc == PZ_OK) {
        codes_free(sh->codes, (size_t)sh->nwords * sizeof(uint64_t));
        sh->codes = NULL;
        rc = tiles_pdb__pack(r, sh->data, data, max_value, bd);
    }
out:
    codes_free((uint64_t *)(void *)sh->data, (size_t)sh->count);
    free(workers);
    codes_free(sh->codes, (size_t)sh->nwords * sizeof(uint64_t));
    free(sh->front[0]);
    free(sh->front[1]);
    free(sh->first);
    free(sh);
    return rc;
}
