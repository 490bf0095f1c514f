/* SPDX-License-Identifier: MIT */
/* bfs.h - one breadth-first table builder over rows of columns. */
#ifndef PZ_SOLVER_TABLES_BFS_H
#define PZ_SOLVER_TABLES_BFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tables.h"

/*
 * A table of nrows x rowlen entries, entry (row, col) at index row *
 * rowlen + col, filled with distances from goal entries by breadth-first
 * search. The client arranges its coordinates so that one move sends a
 * whole row into one target row through a column map: entry (r, c)
 * reaches (r', map[c]). The builder then works a row at a time, and the
 * source row, its target rows and their maps stay in cache.
 *
 * Twins: when several entries stand for one state (a row is a symmetry
 * class and symmetries fix its representative), the client names them,
 * and every entry equivalent to one set is set as well.
 *
 * Levels run forwards (entries at depth d claim their unseen
 * neighbours) while the frontier is small and backwards (each unseen
 * entry looks for a neighbour at depth d) once it is large; moves must
 * be invertible, with the inverse in the same move set. Row chunks are
 * shared out to the build's workers (tables_build_run); results and
 * counts do not depend on how many there are.
 */

/* Deepest distance the builder finds (counts[] has one more entry). */
#define TABLES_BFS_DEPTH_MAX 254

/* Most moves per row. */
#define TABLES_BFS_MOVES_MAX 64

/* An edge row meaning: this move does not apply to the source row. */
#define TABLES_BFS_NO_ROW UINT64_MAX

/* How each entry is stored. */
typedef enum tables_bfs_code {
    /* 2 bits, four entries per byte (entry i in bits 2 (i % 4) and up):
     * the distance mod 3, 3 while unseen. A move changes a distance by at
     * most one, so a search that knows one exact value decodes the
     * others along its path. */
    TABLES_BFS_MOD3 = 2,
    /* 4 bits, low nibble first: the distance, 15 while unseen. */
    TABLES_BFS_EXACT4 = 4,
    /* 8 bits: the distance, 255 while unseen. */
    TABLES_BFS_EXACT8 = 8,
} tables_bfs_code_t;

/* Where a move takes a row, or where a twin of a row lies: column c of
 * the source row corresponds to column map[c] of row `row`, or, when
 * then is set, to column then[map[c]]. A map holds rowlen values,
 * uint16_t or, for a wide spec, uint32_t, each below rowlen (with then:
 * each an index of then, whose values are below rowlen). Two small maps
 * in a row (a coordinate moved, then conjugated) stay in cache where
 * their product for every pair would not, and a map shared by many rows
 * followed by one per move costs nothing to hand out. */
typedef struct tables_bfs_edge {
    uint64_t row;     /* target row, or TABLES_BFS_NO_ROW (moves only) */
    const void *map;  /* borrowed, see tables_bfs_moves_fn */
    const void *then; /* NULL, or applied after map */
} tables_bfs_edge_t;

/*
 * Fills out[0 .. nmoves) with where each move takes row. A map may point
 * into the client's own tables or into scratch (moves_scratch bytes,
 * zeroed when the build starts, kept until the calling worker's call
 * after next: a worker prepares one row while it works on the one
 * before; it may also hold what the client keeps from row to row).
 * Called from several workers at once.
 */
typedef void (*tables_bfs_moves_fn)(void *arg,
                                    uint64_t row,
                                    tables_bfs_edge_t *out,
                                    void *scratch);

/*
 * Writes the twins of row other than itself: entry (row, c) stands for
 * the same state as entry (out[i].row, map_i[c]) for each i. Returns how
 * many (0 .. max_twins). scratch: twins_scratch bytes, as above.
 */
typedef int (*tables_bfs_twins_fn)(void *arg,
                                   uint64_t row,
                                   tables_bfs_edge_t *out,
                                   void *scratch);

/* One build, filled in by the caller (a plain value). */
typedef struct tables_bfs_spec {
    uint64_t nrows;            /* rows (>= 1) */
    uint32_t rowlen;           /* columns per row (>= 1) */
    int nmoves;                /* 1 .. TABLES_BFS_MOVES_MAX */
    bool wide;                 /* maps are uint32_t, else uint16_t */
    tables_bfs_moves_fn moves; /* required */
    size_t moves_scratch;      /* bytes per worker for moves */
    tables_bfs_twins_fn twins; /* NULL: no twins */
    int max_twins;             /* most twins of one row */
    size_t twins_scratch;      /* bytes per worker for twins */
    void *arg;                 /* passed to moves and twins */
    tables_bfs_code_t code;    /* encoding of data */
    uint8_t *data;             /* tables_bfs_bytes(code, entries) */
    uint8_t *exact4;           /* NULL, or 4-bit distances, at most
                                  15 (tables_bfs_bytes(EXACT4, ..)) */
    const uint64_t *goals;     /* entries at distance 0 */
    size_t ngoals;             /* >= 1 */
    int clamp;                 /* 0, or stop before this distance
                                  (at most 254; EXACT4: 15) */
    uint64_t progress_base;    /* added to the progress reported */
    uint64_t progress_total;   /* total reported; 0: the entries */
} tables_bfs_spec_t;

/* What a build found. */
typedef struct tables_bfs_result {
    int max_depth;    /* largest distance (the clamp when one applied) */
    uint64_t reached; /* entries set, clamp included */
    uint64_t counts[TABLES_BFS_DEPTH_MAX + 1]; /* entries at each distance */
    bool backward[TABLES_BFS_DEPTH_MAX + 1];   /* that level went back */
} tables_bfs_result_t;

/* Bytes of a table of entries entries in code. */
uint64_t tables_bfs_bytes(tables_bfs_code_t code, uint64_t entries);

/* Entry i of data in code. Thread: any. */
static inline unsigned
tables_bfs_get(const uint8_t *data, tables_bfs_code_t code, uint64_t i)
{
    switch (code) {
    case TABLES_BFS_MOD3:
        return data[i >> 2] >> ((i & 3) << 1) & 3u;
    case TABLES_BFS_EXACT4:
        return data[i >> 1] >> ((i & 1) << 2) & 15u;
    default:
        return data[i];
    }
}

/*
 * Runs the search spec describes on build b (NULL: on the calling thread
 * alone, neither cancellable nor reporting). Fills spec->data (every
 * byte of it: unseen first) and spec->exact4 (zero first). With a clamp
 * C, the levels stop at distance C - 1, and entries not reached by then
 * count as C: MOD3 leaves them 3, the exact codes store C (for EXACT4
 * and C = 15 that is its unseen code). Unreachable entries without a
 * clamp stay unseen, and exact4 0 (result->reached tells). Reports
 * progress (entries reached, plus progress_base, of progress_total) at
 * least once per level and checks cancel per level and per chunk.
 * Returns PZ_OK; PZ_EINVAL for a bad spec (a goal out of range, no
 * moves, a clamp that does not fit the code); PZ_ERANGE when a distance
 * passes what the code holds (14 for EXACT4, 254 otherwise) before the
 * search ends; PZ_ENOMEM; PZ_ECANCELLED. spec is borrowed; result may be
 * NULL. Thread: b's (the one that got it).
 */
int tables_bfs_run(const tables_bfs_spec_t *spec,
                   tables_build_t *b,
                   tables_bfs_result_t *result);

/* One worker's share of a parallel pass: rows [first, end); worker is
 * 0 .. tables_bfs_workers(b) - 1, for per-worker buffers. */
typedef void (*tables_bfs_rows_fn)(void *arg,
                                   int worker,
                                   uint64_t first,
                                   uint64_t end);

/* A pass over the rows of a finished table (deriving another table from
 * it, say), filled in by the caller. */
typedef struct tables_bfs_pass {
    uint64_t nrows;          /* rows */
    uint64_t chunk;          /* rows handed out at a time (>= 1) */
    tables_bfs_rows_fn fn;   /* called for each chunk */
    void *arg;               /* passed to fn */
    uint64_t progress_base;  /* progress reported: progress_base + */
    uint64_t progress_unit;  /* rows done * progress_unit, of */
    uint64_t progress_total; /* progress_total (0: none reported) */
} tables_bfs_pass_t;

/*
 * Runs pass->fn over its rows in chunks, which the workers of b (NULL:
 * the calling thread) claim in turn, reporting progress a few times.
 * Stops handing out chunks once b is cancelled and then returns
 * PZ_ECANCELLED, else PZ_OK. Thread: b's.
 */
int tables_bfs_rows(const tables_bfs_pass_t *pass, tables_build_t *b);

/* How many workers tables_bfs_run and tables_bfs_rows use on b: the
 * build's, or 1 when b is NULL. Callbacks size per-worker state by it.
 * Thread: any. */
int tables_bfs_workers(const tables_build_t *b);

#endif
