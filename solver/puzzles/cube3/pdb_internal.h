/* SPDX-License-Identifier: MIT */
/* pdb_internal.h - what the 3x3x3 pattern-database files share. */
#ifndef PZ_SOLVER_CUBE3_PDB_INTERNAL_H
#define PZ_SOLVER_CUBE3_PDB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cube3.h"
#include "pdb.h"
#include "tables.h"

/*
 * Everything here works on the 20 bytes of a cube3 state (cube3.h): byte
 * i < 8 is corner piece * 3 + twist at corner position i, byte 8 + i is
 * edge piece * 2 + flip at edge position i.
 */

enum {
    PDB_NSYM = 48,       /* symmetries of the cube: 24 rotations x mirror */
    PDB_NUDSYM = 16,     /* those that keep the U-D axis */
    PDB_NTWIST = 2187,   /* 3^7 */
    PDB_NFLIP = 2048,    /* 2^11 */
    PDB_NCPERM = 40320,  /* 8! */
    PDB_NCOMB = 495,     /* C(12, 4): positions of the four E-slice edges */
    PDB_NSORTED = 11880, /* 495 * 4!: those positions and the pieces' order */
    PDB_NCSPLIT = 70,    /* C(8, 4): positions of the four U-layer corners */
    PDB_NHTM = 18,
    PDB_MAXMOVES = 18,
    PDB_NESEP = 34650,       /* 495 * 70: E-slice places, then M-slice places */
    PDB_NSEPRAW = 2425500,   /* 70 tetrad places * PDB_NESEP */
    PDB_SEP_CLASSES = 51198, /* their classes under the 48 symmetries */
    PDB_SEP_CLAMP = 13,      /* the separation table's clamp */
};

/*
 * A position-wise map of 20-byte states: out.b[j] = cmap[j][in.b[csrc[j]]]
 * for corners and the same with esrc / emap for edges (edge bytes at 8 +
 * j). A move (in * m) and a conjugation by a symmetry are both of this
 * form.
 */
typedef struct pdb_bytemap {
    uint8_t csrc[8];
    uint8_t cmap[8][24];
    uint8_t esrc[12];
    uint8_t emap[12][24];
} pdb_bytemap_t;

/* out = map(in) on 20-byte states; out must not alias in. */
static inline void
cube3_pdb__map(const pdb_bytemap_t *m, const uint8_t *in, uint8_t *out)
{
    for (int j = 0; j < 8; j++) {
        out[j] = m->cmap[j][in[m->csrc[j]]];
    }
    for (int j = 0; j < 12; j++) {
        out[8 + j] = m->emap[j][in[8 + m->esrc[j]]];
    }
}

/*
 * The cube's symmetries. conj[s] holds the cube turned or mirrored by s
 * and renamed by its centres. It is an automorphism of the move group:
 * conj(s, c * m) = conj(s, c) * move[s][m], so it keeps distances.
 */
typedef struct pdb_sym {
    pdb_bytemap_t conj[PDB_NSYM];
    pdb_bytemap_t moves[PDB_NHTM];    /* in * m for each HTM move */
    uint8_t move[PDB_NSYM][PDB_NHTM]; /* HTM move id -> HTM move id */
    uint8_t inv[PDB_NSYM];            /* conj(inv[s], conj(s, c)) = c */
    uint8_t ud[PDB_NUDSYM];           /* the U-D keeping ones; ud[0] = id */
    uint8_t udinv[PDB_NUDSYM];        /* k -> index in ud of inv[ud[k]] */
    uint8_t axis[3];                  /* conj to U-D from U-D, R-L, F-B */
} pdb_sym_t;

/* Raw coordinates and their move and symmetry tables (all read-only). */
typedef struct pdb_coord {
    uint16_t twist_move[PDB_NTWIST][PDB_NHTM];
    uint16_t twist_by_move[PDB_NHTM][PDB_NTWIST]; /* the same, transposed */
    uint16_t flip_move[PDB_NFLIP][PDB_NHTM];
    uint16_t cperm_move[PDB_NCPERM][PDB_NHTM];
    uint16_t sorted_move[PDB_NSORTED][PDB_NHTM];
    /* Conjugation by the U-D symmetry ud[k]: twist' = twist_conj[k][t];
     * flip' = flip_perm[k][f] ^ flip_mask[k][comb] (comb: where the
     * E-slice pieces were); sorted' = sorted_conj[k][s]. */
    uint16_t twist_conj[PDB_NUDSYM][PDB_NTWIST];
    uint16_t flip_perm[PDB_NUDSYM][PDB_NFLIP];
    uint16_t flip_mask[PDB_NUDSYM][PDB_NCOMB];
    uint16_t sorted_conj[PDB_NUDSYM][PDB_NSORTED];
    uint16_t comb_rank[4096]; /* 12-bit position mask -> comb, or 0xFFFF */
    uint16_t comb_mask[PDB_NCOMB];
    uint8_t order_rank[256];  /* 4 pieces 0..3 packed 2 bits each -> 0..23 */
    uint8_t csplit_rank[256]; /* 8-bit position mask -> 0..69, or 0xFF */
    uint8_t csplit_mask[PDB_NCSPLIT];
} pdb_coord_t;

struct pdb_base {
    pdb_sym_t sy;
    pdb_coord_t co;
};

/*
 * A slice pattern's symmetry reduction, by the 16 U-D symmetries. Its raw
 * coordinate is comb * div + extra, where comb is the E-slice edges'
 * positions and extra depends on the kind: nothing (CUBE3_PDB_SLICE, div
 * 1, 495 raw values), the order of the E-slice pieces (CUBE3_PDB_SORTED,
 * div 24, 11880) or the positions of the U-layer corners
 * (CUBE3_PDB_CSPLIT, div 70, 34650).
 */
typedef struct pdb_slice {
    int kind;       /* CUBE3_PDB_SLICE, _SORTED or _CSPLIT */
    int div;        /* raw / div = comb */
    int nraw;       /* 495 * div */
    int nclass;     /* classes */
    uint16_t *cls;  /* raw -> class */
    uint8_t *sym;   /* raw -> k: ud[k] takes raw to its class's rep */
    uint32_t *rep;  /* class -> raw representative */
    uint16_t *stab; /* class -> bit k set when ud[k] fixes rep */
    uint32_t (*move)[PDB_NHTM]; /* raw move table (owned) */
} pdb_slice_t;

/* An affine map of 8-bit vectors over GF(2): v -> add ^ (the col[i] of
 * the bits i set in v). */
typedef struct pdb_affine {
    uint8_t col[8];
    uint8_t add;
} pdb_affine_t;

static inline int
cube3_pdb__affine(const pdb_affine_t *a, int v)
{
    int r = a->add;

    for (unsigned b = (unsigned)v; b != 0; b &= b - 1) {
        r ^= a->col[__builtin_ctz(b)];
    }
    return r;
}

/*
 * The separation pattern (pdb_sep.c): corner tetrads and twists, edge
 * slices and flips up to whole slices, reduced by all 48 symmetries. Its
 * raw coordinate is t * PDB_NESEP + e (t: tetrad places, 70; e: slice
 * places), with the twist and the flips (obits bits: 8, or 0 for the
 * pattern without flips) as further parts.
 */
typedef struct pdb_sep {
    int obits;      /* 8, or 0 */
    int nclass;     /* classes of raw values */
    uint32_t *cs;   /* raw -> class << 6 | a symmetry taking raw to its rep */
    uint32_t *rep;  /* class -> raw */
    uint64_t *stab; /* class -> bit k: k fixes rep */
    uint8_t tmove[PDB_NCSPLIT][PDB_NHTM]; /* tetrad places */
    uint8_t tconj[PDB_NCSPLIT][PDB_NSYM];
    uint16_t (*emove)[PDB_NHTM]; /* slice places */
    uint16_t (*econj)[PDB_NSYM];
    pdb_affine_t (*omove)[PDB_NHTM]; /* flips, by slice places */
    pdb_affine_t (*oconj)[PDB_NSYM];
    uint16_t (*twconj)[PDB_NCSPLIT][PDB_NTWIST]; /* [k][t][twist] */
} pdb_sep_t;

/* Builds the reduction and maps (obits 8 or 0). PZ_OK, PZ_ENOMEM or
 * PZ_EINTERNAL (a symmetry that does not act on the pattern: a bug). */
int cube3_pdb__sep_init(pdb_sep_t *sp,
                        const pdb_coord_t *co,
                        const pdb_sym_t *sy,
                        int obits);
void cube3_pdb__sep_free(pdb_sep_t *sp);

static inline uint32_t
cube3_pdb__sep_class(const pdb_sep_t *sp, size_t raw)
{
    return sp->cs[raw] >> 6;
}

static inline int
cube3_pdb__sep_sym(const pdb_sep_t *sp, size_t raw)
{
    return (int)(sp->cs[raw] & 63u);
}

/* Raw coordinates of state b: tetrad places, slice places, flips. */
void cube3_pdb__sep_coords(const pdb_coord_t *co,
                           const uint8_t *b,
                           int obits,
                           int *t,
                           int *e,
                           int *o);

/* Table index of the pattern of b, through the maps (the builder's way)
 * or by conjugating b's bytes (the search's way: no large map read).
 * Both give the same entry. */
uint64_t cube3_pdb__sep_index(const pdb_sep_t *sp,
                              const pdb_coord_t *co,
                              const uint8_t *b);
uint64_t cube3_pdb__sep_index_conj(const pdb_sep_t *sp,
                                   const struct pdb_base *pb,
                                   const uint8_t *b);

/* The breadth-first builder's callbacks for a separation table (rows:
 * class << obits | flips; tables/bfs.h): where the moves (HTM ids, nm
 * of them) take row, with scratch of cube3_pdb__sep_scratch_bytes()
 * bytes or NULL; and the row's twins (returns how many, at most 47). */
struct tables_bfs_edge;
void cube3_pdb__sep_row_moves(const pdb_sep_t *sp,
                              const pdb_coord_t *co,
                              const int *moves,
                              int nm,
                              uint64_t row,
                              struct tables_bfs_edge *out,
                              void *scratch);
int cube3_pdb__sep_row_twins(const pdb_sep_t *sp,
                             uint64_t row,
                             struct tables_bfs_edge *out);
size_t cube3_pdb__sep_scratch_bytes(void);

/* The search's way in two steps: raw = cube3_pdb__sep_raw(co, b), then
 * (after a prefetch of sp->cs[raw], say) the index of b. */
uint32_t cube3_pdb__sep_raw(const pdb_coord_t *co, const uint8_t *b);
uint64_t cube3_pdb__sep_index_at(const pdb_sep_t *sp,
                                 const struct pdb_base *pb,
                                 const uint8_t *b,
                                 uint32_t raw);

/* A 2-bit pattern database: entry = distance mod 3, 3 while unvisited. */
typedef struct pdb_table {
    int kind;                 /* CUBE3_PDB_CORNERS, _SLICE or _SORTED */
    bool qtm;                 /* built with quarter turns only */
    uint64_t nrows;           /* rows of PDB_NTWIST entries */
    uint64_t entries;         /* nrows * PDB_NTWIST */
    uint8_t *data;            /* 4 entries per byte */
    size_t bytes;             /* of data */
    bool owned;               /* data is ours to free (else a mapped file) */
    bool loaded;              /* read from a table file, not built here */
    const pdb_slice_t *slice; /* slice kinds */
    const pdb_sep_t *sep;     /* separation kinds */
    uint64_t solved;          /* index of the solved pattern */
    int clamp;                /* 0, or: entries at 3 mean this or more */
    int maxdepth;             /* largest distance (the clamp if any) */
    uint64_t counts[32];      /* entries at each distance */
    double build_seconds;
} pdb_table_t;

/* The symmetry maps and coordinate tables every pattern uses. */
typedef struct pdb_base pdb_base_t;

/* An entry of a map or table not set yet (pdb_sym.c, pdb_coord.c). */
#define PDB_UNSET 0xFF

/* Builds the symmetry maps (pdb_sym.c). PZ_OK, or PZ_EINTERNAL when the
 * geometry does not give 48 automorphisms (a bug). */
int cube3_pdb__sym_init(pdb_sym_t *sy);

/* The 20 bytes of cubie cube c into b (pdb_sym.c). */
void cube3_pdb__cubie_bytes(const cube3_cubie_t *c, uint8_t *b);

/* The coordinates and their tables below: pdb_coord.c. */

/* Builds the coordinate tables (needs sy). PZ_OK or PZ_EINTERNAL. */
int cube3_pdb__coord_init(pdb_coord_t *co, const pdb_sym_t *sy);

/* Builds the reduction of the raw coordinate of slice table kind.
 * PZ_OK, PZ_ENOMEM or PZ_EINTERNAL; free with cube3_pdb__slice_free. */
int cube3_pdb__slice_init(pdb_slice_t *sl,
                          const pdb_coord_t *co,
                          const pdb_sym_t *sy,
                          int kind);
void cube3_pdb__slice_free(pdb_slice_t *sl);

/* Coordinates of a 20-byte state. */
int cube3_pdb__twist(const uint8_t *b);
int cube3_pdb__flip(const uint8_t *b);
int cube3_pdb__cperm(const uint8_t *b);
int cube3_pdb__comb(const pdb_coord_t *co, const uint8_t *b);
int cube3_pdb__sorted(const pdb_coord_t *co, const uint8_t *b);
int cube3_pdb__csplit(const pdb_coord_t *co, const uint8_t *b);
/* The raw slice coordinate of kind (see pdb_slice_t). */
int cube3_pdb__raw(const pdb_coord_t *co, int kind, const uint8_t *b);

/* Table index of the pattern of state b. */
uint64_t
cube3_pdb__index(const pdb_table_t *t, const pdb_base_t *pb, const uint8_t *b);

/* Table index of a slice pattern from its raw coordinates (slice
 * coordinate of t's kind, flip, twist): the class of raw and the flip and
 * twist conjugated by the symmetry that takes raw to its representative.
 * Inline: the search computes one per child it looks up. */
static inline uint64_t
cube3_pdb__slice_index(const pdb_table_t *t,
                       const pdb_base_t *pb,
                       int raw,
                       int flip,
                       int twist)
{
    const pdb_coord_t *co = &pb->co;
    const pdb_slice_t *sl = t->slice;
    int k = sl->sym[raw];
    int comb = raw / sl->div;
    uint64_t row = (uint64_t)sl->cls[raw] * PDB_NFLIP +
                   (uint64_t)(co->flip_perm[k][flip] ^ co->flip_mask[k][comb]);

    return row * PDB_NTWIST + co->twist_conj[k][twist];
}

/* Entry i of t (0..2, or 3 when never reached: t->clamp or farther). */
static inline int
cube3_pdb__code(const pdb_table_t *t, uint64_t i)
{
    return (t->data[i >> 2] >> ((i & 3) << 1)) & 3;
}

/* Memory for randomly probed arrays: 2 MiB-aligned and advised onto
 * transparent huge pages; NULL when out of memory. Released by free(). */
void *cube3_pdb__alloc_huge(size_t bytes);
/* The bytes such an allocation takes: whole 2 MiB pages. */
size_t cube3_pdb__huge_size(size_t bytes);

/* Rows of PDB_NTWIST entries of table kind (the slice kinds' class counts
 * are checked against their reduction when built). */
uint64_t cube3_pdb__table_rows(int kind);

/* Bytes of the saved form of table kind: the entries, then a trailer
 * with the distance counts. */
uint64_t cube3_pdb__blob_bytes(int kind);

/* Which table to build, and what it is built from. */
typedef struct pdb_table_src {
    int kind;              /* CUBE3_PDB_* */
    bool qtm;              /* quarter turns only */
    const pdb_base_t *pb;  /* borrowed */
    const pdb_slice_t *sl; /* the slice kinds' reduction, else NULL */
    const pdb_sep_t *sep;  /* the separation kinds', else NULL */
} pdb_table_src_t;

/*
 * Builds t of src's kind by breadth-first search, on the threads of
 * build b (NULL: this thread alone, not cancellable). blob NULL: t->data
 * is allocated (free with cube3_pdb__table_free); else blob
 * (cube3_pdb__blob_bytes(kind) bytes) receives the entries and the
 * trailer, and t->data points into it. PZ_OK, PZ_ENOMEM, PZ_ECANCELLED
 * or PZ_EINTERNAL.
 */
int cube3_pdb__table_build(pdb_table_t *t,
                           const pdb_table_src_t *src,
                           uint8_t *blob,
                           tables_build_t *b);

/* Describes in t the saved table blob (cube3_pdb__blob_bytes(kind) bytes,
 * read-only) of kind. PZ_OK, or PZ_EINTERNAL when its trailer does not
 * match. */
int cube3_pdb__table_attach(pdb_table_t *t,
                            const pdb_table_src_t *src,
                            const uint8_t *blob);
void cube3_pdb__table_free(pdb_table_t *t);

/*
 * Writes to out (t->bytes) the base-offset form of clamped table t, for
 * lookups with no path to decode along: code 0 means "base or less", 1
 * and 2 base + 1 and base + 2, 3 "base + 3 or more". base is
 * cube3_pdb__offset_base(t). Runs on build b's threads (NULL: this
 * thread). PZ_OK, PZ_EINVAL (not clamped), PZ_ENOMEM or PZ_ECANCELLED.
 */
int cube3_pdb__table_offset(const pdb_table_t *t,
                            const pdb_base_t *pb,
                            uint8_t *out,
                            tables_build_t *b);

/* The base of t's offset form: t->clamp - 3, so that code 3 is the
 * clamp; the separation table's is one lower (its distance 10, 3 % of
 * its entries, cuts more nodes than telling 12 from 13 or more). */
static inline int
cube3_pdb__offset_base(const pdb_table_t *t)
{
    return t->kind == CUBE3_PDB_SEP ? t->clamp - 4 : t->clamp - 3;
}

/*
 * The exact distance of the pattern of state b in t (clamped: at most
 * t->clamp), from its mod-3 entries by walking down to the solved pattern
 * (at most 18 probes per step). Returns -1 when no neighbour one step
 * nearer exists (a corrupt table: a bug).
 */
int
cube3_pdb__exact(const pdb_table_t *t, const pdb_base_t *pb, const uint8_t *b);

#endif
