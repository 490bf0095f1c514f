/* SPDX-License-Identifier: MIT */
/* pdb_sep.c - the separation pattern, reduced by all 48 symmetries. */

/*
 * Design: the pattern sees each corner as its tetrad ({URF ULB DLF DRB}
 * or {UFL UBR DFR DBL}) with its twist, and each edge as its slice (E:
 * FR FL BL BR, M: UF UB DF DB, S: UR UL DR DL) with its flip, except that
 * flipping all four edges of one slice at once is not seen. The solved
 * pattern's cosets are the cubes whose corners lie in their tetrads
 * and edges in their slices; that target set and the flips up to whole
 * slices are kept by all 48 symmetries (a symmetry renames tetrads and
 * slices, and a corner or edge's orientation changes by a rule that
 * depends only on its position and its tetrad or slice, checked at init),
 * so the table holds one entry per class of the 48. The orientation part
 * of this pattern follows the published H48 solver's target group
 * (nissy-core, doc/h48.md: tetrads, twists, slices); its edge part
 * differs: H48's intermediate tables keep some edges' flips, which no
 * symmetry of the whole cube keeps, and are built by search over cubes,
 * while the flips up to whole slices are a pattern of their own, built
 * breadth-first like every other table here.
 *
 * Raw coordinates: the tetrad places (which 4 of the 8 corner positions
 * hold the first tetrad, 70), the slice places (the E slice's 4 of 12
 * edge positions, then the M slice's 4 of the other 8: 495 * 70 =
 * 34650), the twist (2187) and the flips up to slices (256: per slice,
 * the flips of its second, third and fourth edge in position order
 * relative to its first; the S slice's third bit follows from the
 * others, since all flips sum to 0). Under a move or a symmetry the
 * tetrad and slice places map by tables, the twist by a table per
 * symmetry and tetrad places, and the flips by an affine map over GF(2)
 * that depends on the slice places: 8 columns and a constant each.
 *
 * Table layout: a row is a class of (tetrad places, slice places) and
 * the flips in its representative's frame (256 rows per class), a
 * column the twist in that frame, so the 2187 entries of a row move
 * together as in the other 3x3x3 tables (pdb_table.c).
 */
#include <stdlib.h>
#include <string.h>

#include "cube3.h"
#include "pdb_internal.h"
#include "tables/bfs.h"

/* Corner pieces of the first tetrad: URF, ULB, DLF, DRB. */
#define TETRAD_A 0xA5u

/* 1 when edge byte v is in the E slice (positions 8 to 11), else 0;
 * and the same for the M slice (odd positions below 8). No branch: the
 * search reads them for edges at random positions. */
static inline unsigned
edge_in_e(unsigned v)
{
    return v >> 4;
}

static inline unsigned
edge_in_m(unsigned v)
{
    return (v >> 4 ^ 1u) & v >> 1;
}

/* Slice of edge byte v: 0 E, 1 M, 2 S. */
static inline int
edge_slice(int v)
{
    return 2 - (int)edge_in_m((unsigned)v) - 2 * (int)edge_in_e((unsigned)v);
}

static int
parity3(unsigned x)
{
    return (int)((x ^ x >> 1 ^ x >> 2) & 1u);
}

void
cube3_pdb__sep_coords(const pdb_coord_t *co,
                      const uint8_t *b,
                      int obits,
                      int *t,
                      int *e,
                      int *o)
{
    unsigned cm = 0;
    unsigned em = 0;
    unsigned mm = 0;
    unsigned bits[3] = { 0, 0, 0 };
    unsigned first[3] = { 0, 0, 0 };
    int cnt[3] = { 0, 0, 0 };
    int k = 0;

    for (int i = 0; i < 8; i++) {
        cm |= (TETRAD_A >> (b[i] / 3) & 1u) << i;
    }
    for (int j = 0; j < 12; j++) {
        int v = b[8 + j];
        int s = edge_slice(v);
        unsigned f = (unsigned)v & 1u;

        if (s == 0) {
            em |= 1u << j;
        } else {
            mm |= (unsigned)(s == 1) << k++;
        }
        if (cnt[s] == 0) {
            first[s] = f;
        } else {
            bits[s] |= (f ^ first[s]) << (cnt[s] - 1);
        }
        cnt[s]++;
    }
    *t = co->csplit_rank[cm];
    *e = co->comb_rank[em] * PDB_NCSPLIT + co->csplit_rank[mm];
    *o = obits == 0 ? 0 : (int)(bits[0] | bits[1] << 3 | (bits[2] & 3u) << 6);
}

/* A 20-byte state with raw coordinates t, e, o and twist tw (corner and
 * edge pieces of one tetrad or slice in a fixed order). */
static void
sep_state(const pdb_coord_t *co, int t, int e, int o, int tw, uint8_t *b)
{
    static const uint8_t tetrad[2][4] = { { 0, 2, 5, 7 }, { 1, 3, 4, 6 } };
    static const uint8_t slice[3][4] = { { 8, 9, 10, 11 },
                                         { 1, 3, 5, 7 },
                                         { 0, 2, 4, 6 } };
    unsigned cmask = co->csplit_mask[t];
    unsigned emask = co->comb_mask[e / PDB_NCSPLIT];
    unsigned mmask = co->csplit_mask[e % PDB_NCSPLIT];
    unsigned bits[3];
    int nc[2] = { 0, 0 };
    int ne[3] = { 0, 0, 0 };
    int digits[8];
    int sum = 0;
    int k = 0;

    for (int i = 6, x = tw; i >= 0; i--, x /= 3) {
        digits[i] = x % 3;
        sum += digits[i];
    }
    digits[7] = (3 - sum % 3) % 3;
    for (int i = 0; i < 8; i++) {
        int a = (cmask >> i & 1u) ? 0 : 1;

        b[i] = (uint8_t)(tetrad[a][nc[a]++] * 3 + digits[i]);
    }
    bits[0] = (unsigned)o & 7u;
    bits[1] = (unsigned)o >> 3 & 7u;
    bits[2] = ((unsigned)o >> 6 & 3u) |
              (unsigned)(parity3(bits[0]) ^ parity3(bits[1]) ^
                         parity3((unsigned)o >> 6 & 3u))
                  << 2;
    for (int j = 0; j < 12; j++) {
        int s = (emask >> j & 1u) ? 0 : (mmask >> k++ & 1u) ? 1 : 2;
        int n = ne[s]++;
        unsigned f = n == 0 ? 0 : bits[s] >> (n - 1) & 1u;

        b[8 + j] = (uint8_t)(slice[s][n] * 2 + (int)f);
    }
}

/*
 * Checks that map m acts on the pattern: the new tetrad and twist of a
 * corner depend only on its position, tetrad and twist, and the new
 * slice and flip of an edge only on its position, slice and flip.
 */
static bool
acts_on_pattern(const pdb_bytemap_t *m)
{
    for (int j = 0; j < 8; j++) {
        int seen[2][3];

        memset(seen, -1, sizeof(seen));
        for (int v = 0; v < 24; v++) {
            int a = (int)(TETRAD_A >> (v / 3) & 1u);
            int w = m->cmap[j][v];
            int img = (int)(TETRAD_A >> (w / 3) & 1u) * 3 + w % 3;

            if (seen[a][v % 3] >= 0 && seen[a][v % 3] != img) {
                return false;
            }
            seen[a][v % 3] = img;
        }
    }
    for (int j = 0; j < 12; j++) {
        int seen[3][2];

        memset(seen, -1, sizeof(seen));
        for (int v = 0; v < 24; v++) {
            int s = edge_slice(v);
            int w = m->emap[j][v];
            int img = edge_slice(w) * 2 + (w & 1);

            if (seen[s][v & 1] >= 0 && seen[s][v & 1] != img) {
                return false;
            }
            seen[s][v & 1] = img;
        }
    }
    return true;
}

/* The affine map of the flips under m at slice places e. */
static void
fill_affine(const pdb_coord_t *co,
            const pdb_bytemap_t *m,
            int e,
            int obits,
            pdb_affine_t *out)
{
    uint8_t a[20];
    uint8_t b[20];
    int t;
    int e2;
    int o0;

    memset(out, 0, sizeof(*out));
    sep_state(co, 0, e, 0, 0, a);
    cube3_pdb__map(m, a, b);
    cube3_pdb__sep_coords(co, b, obits, &t, &e2, &o0);
    out->add = (uint8_t)o0;
    for (int i = 0; i < obits; i++) {
        int o;

        sep_state(co, 0, e, 1 << i, 0, a);
        cube3_pdb__map(m, a, b);
        cube3_pdb__sep_coords(co, b, obits, &t, &e2, &o);
        out->col[i] = (uint8_t)(o ^ o0);
    }
}

void
cube3_pdb__sep_free(pdb_sep_t *sp)
{
    if (sp == NULL) {
        return;
    }
    free(sp->cs);
    free(sp->rep);
    free(sp->stab);
    free(sp->emove);
    free(sp->econj);
    free(sp->omove);
    free(sp->oconj);
    free(sp->twconj);
    memset(sp, 0, sizeof(*sp));
}

/* Move and symmetry tables of the raw coordinates. */
static int
fill_maps(pdb_sep_t *sp, const pdb_coord_t *co, const pdb_sym_t *sy)
{
    for (int k = 0; k < PDB_NSYM; k++) {
        if (!acts_on_pattern(&sy->conj[k])) {
            return PZ_EINTERNAL;
        }
    }
    for (int m = 0; m < PDB_NHTM; m++) {
        if (!acts_on_pattern(&sy->moves[m])) {
            return PZ_EINTERNAL;
        }
    }
    for (int t = 0; t < PDB_NCSPLIT; t++) {
        uint8_t a[20];
        uint8_t b[20];
        int t2;
        int e2;
        int o2;

        sep_state(co, t, 0, 0, 0, a);
        for (int m = 0; m < PDB_NHTM; m++) {
            cube3_pdb__map(&sy->moves[m], a, b);
            cube3_pdb__sep_coords(co, b, 0, &t2, &e2, &o2);
            sp->tmove[t][m] = (uint8_t)t2;
        }
        for (int k = 0; k < PDB_NSYM; k++) {
            cube3_pdb__map(&sy->conj[k], a, b);
            cube3_pdb__sep_coords(co, b, 0, &t2, &e2, &o2);
            sp->tconj[t][k] = (uint8_t)t2;
            for (int tw = 0; tw < PDB_NTWIST; tw++) {
                sep_state(co, t, 0, 0, tw, a);
                cube3_pdb__map(&sy->conj[k], a, b);
                sp->twconj[k][t][tw] = (uint16_t)cube3_pdb__twist(b);
            }
        }
    }
    for (int e = 0; e < PDB_NESEP; e++) {
        uint8_t a[20];
        uint8_t b[20];
        int t2;
        int e2;
        int o2;

        sep_state(co, 0, e, 0, 0, a);
        for (int m = 0; m < PDB_NHTM; m++) {
            cube3_pdb__map(&sy->moves[m], a, b);
            cube3_pdb__sep_coords(co, b, 0, &t2, &e2, &o2);
            sp->emove[e][m] = (uint16_t)e2;
            fill_affine(co, &sy->moves[m], e, sp->obits, &sp->omove[e][m]);
        }
        for (int k = 0; k < PDB_NSYM; k++) {
            cube3_pdb__map(&sy->conj[k], a, b);
            cube3_pdb__sep_coords(co, b, 0, &t2, &e2, &o2);
            sp->econj[e][k] = (uint16_t)e2;
            fill_affine(co, &sy->conj[k], e, sp->obits, &sp->oconj[e][k]);
        }
    }
    return PZ_OK;
}

int
cube3_pdb__sep_init(pdb_sep_t *sp,
                    const pdb_coord_t *co,
                    const pdb_sym_t *sy,
                    int obits)
{
    size_t nraw = PDB_NSEPRAW;
    uint8_t *sym = NULL;
    uint32_t *cls = NULL;
    int rc;

    memset(sp, 0, sizeof(*sp));
    sp->obits = obits;
    sym = malloc(nraw);
    cls = malloc(nraw * sizeof(*cls));
    /* Read once per separation probe, at random: on huge pages it
     * stays within the TLB's reach. */
    sp->cs = cube3_pdb__alloc_huge(nraw * sizeof(*sp->cs));
    sp->rep = malloc(nraw * sizeof(*sp->rep));
    sp->stab = malloc(nraw * sizeof(*sp->stab));
    sp->emove = malloc(PDB_NESEP * sizeof(*sp->emove));
    sp->econj = malloc(PDB_NESEP * sizeof(*sp->econj));
    sp->omove = malloc(PDB_NESEP * sizeof(*sp->omove));
    sp->oconj = malloc(PDB_NESEP * sizeof(*sp->oconj));
    sp->twconj = malloc(PDB_NSYM * sizeof(*sp->twconj));
    if (sym == NULL || cls == NULL || sp->cs == NULL || sp->rep == NULL ||
        sp->stab == NULL || sp->emove == NULL || sp->econj == NULL ||
        sp->omove == NULL || sp->oconj == NULL || sp->twconj == NULL) {
        free(sym);
        free(cls);
        cube3_pdb__sep_free(sp);
        return PZ_ENOMEM;
    }
    rc = fill_maps(sp, co, sy);
    /* Classes: the smallest raw value of each is its representative;
     * every raw value records a symmetry that takes it there. */
    memset(sym, PDB_UNSET, nraw);
    for (size_t r = 0; r < nraw && rc == PZ_OK; r++) {
        int t = (int)(r / PDB_NESEP);
        int e = (int)(r % PDB_NESEP);
        uint32_t c;

        if (sym[r] != PDB_UNSET) {
            continue;
        }
        c = (uint32_t)sp->nclass++;
        sp->rep[c] = (uint32_t)r;
        sp->stab[c] = 0;
        for (int k = 0; k < PDB_NSYM; k++) {
            size_t img = (size_t)sp->tconj[t][k] * PDB_NESEP + sp->econj[e][k];

            if (img == r) {
                sp->stab[c] |= UINT64_C(1) << k;
            }
            if (sym[img] == PDB_UNSET) {
                cls[img] = c;
                sym[img] = sy->inv[k];
            }
        }
    }
    for (size_t r = 0; r < nraw && rc == PZ_OK; r++) {
        int k = sym[r];
        size_t img = (size_t)sp->tconj[r / PDB_NESEP][k] * PDB_NESEP +
                     sp->econj[r % PDB_NESEP][k];

        if (img != sp->rep[cls[r]]) {
            rc = PZ_EINTERNAL;
        }
        sp->cs[r] = cls[r] << 6 | (uint32_t)k;
    }
    free(sym);
    free(cls);
    if (rc != PZ_OK) {
        cube3_pdb__sep_free(sp);
        return rc;
    }
    /* Classes are far fewer than raw values: give the rest back. */
    {
        uint32_t *rep = realloc(sp->rep, (size_t)sp->nclass * sizeof(*rep));
        uint64_t *stab = realloc(sp->stab, (size_t)sp->nclass * sizeof(*stab));

        sp->rep = rep != NULL ? rep : sp->rep;
        sp->stab = stab != NULL ? stab : sp->stab;
    }
    return PZ_OK;
}

uint64_t
cube3_pdb__sep_index(const pdb_sep_t *sp,
                     const pdb_coord_t *co,
                     const uint8_t *b)
{
    int t;
    int e;
    int o;
    int tw = cube3_pdb__twist(b);
    size_t raw;
    int k;

    cube3_pdb__sep_coords(co, b, sp->obits, &t, &e, &o);
    raw = (size_t)t * PDB_NESEP + (size_t)e;
    k = cube3_pdb__sep_sym(sp, raw);
    return (((uint64_t)cube3_pdb__sep_class(sp, raw) << sp->obits) |
            (uint64_t)cube3_pdb__affine(&sp->oconj[e][k], o)) *
               PDB_NTWIST +
           sp->twconj[k][t][tw];
}

uint32_t
cube3_pdb__sep_raw(const pdb_coord_t *co, const uint8_t *b)
{
    unsigned cm = 0;
    unsigned em = 0;
    unsigned mm = 0;
    int k = 0;

    for (int i = 0; i < 8; i++) {
        cm |= (TETRAD_A >> (b[i] / 3) & 1u) << i;
    }
    for (int j = 0; j < 12; j++) {
        unsigned e = edge_in_e(b[8 + j]);

        em |= e << j;
        mm |= edge_in_m(b[8 + j]) << k;
        k += (int)(e ^ 1u);
    }
    return (uint32_t)co->csplit_rank[cm] * PDB_NESEP +
           (uint32_t)co->comb_rank[em] * PDB_NCSPLIT + co->csplit_rank[mm];
}

/* The flips of the edges at the positions of mask (one slice's four)
 * after the first, relative to the first, from the flips f by position. */
static inline unsigned
slice_flips(unsigned mask, unsigned f)
{
    unsigned first = f >> __builtin_ctz(mask) & 1u;
    unsigned rest = mask & (mask - 1);
    unsigned out = 0;

    for (int n = 0; n < 3; n++) {
        out |= ((f >> __builtin_ctz(rest) ^ first) & 1u) << n;
        rest &= rest - 1;
    }
    return out;
}

/* Reads b through the symmetry of raw's class without writing the
 * conjugate: the twist from the mapped corners, the flips and slice
 * masks from the mapped edges, with no branch on the data. */
uint64_t
cube3_pdb__sep_index_at(const pdb_sep_t *sp,
                        const pdb_base_t *pb,
                        const uint8_t *b,
                        uint32_t raw)
{
    uint32_t cs = sp->cs[raw];
    const pdb_bytemap_t *m = &pb->sy.conj[cs & 63u];
    uint64_t o = 0;
    int tw = 0;

    for (int j = 0; j < 7; j++) {
        tw = tw * 3 + m->cmap[j][b[m->csrc[j]]] % 3;
    }
    if (sp->obits != 0) {
        unsigned f = 0;
        unsigned me = 0;
        unsigned mm = 0;

        for (int j = 0; j < 12; j++) {
            unsigned v = m->emap[j][b[8 + m->esrc[j]]];

            f |= (v & 1u) << j;
            me |= edge_in_e(v) << j;
            mm |= edge_in_m(v) << j;
        }
        o = slice_flips(me, f) | slice_flips(mm, f) << 3 |
            (slice_flips(0xFFFu & ~(me | mm), f) & 3u) << 6;
    }
    return (((uint64_t)(cs >> 6) << sp->obits) | o) * PDB_NTWIST + (uint64_t)tw;
}

uint64_t
cube3_pdb__sep_index_conj(const pdb_sep_t *sp,
                          const pdb_base_t *pb,
                          const uint8_t *b)
{
    return cube3_pdb__sep_index_at(sp, pb, b, cube3_pdb__sep_raw(&pb->co, b));
}

/* --- The breadth-first builder's callbacks (pdb_table.c) ------------ */

/* What the moves of a separation row take from its class alone: the
 * rows come class by class (256 or 1 per class). */
typedef struct sep_moves {
    uint64_t key;                       /* class + 1; 0: nothing yet */
    uint64_t base[PDB_MAXMOVES];        /* target class << obits */
    pdb_affine_t aff[PDB_MAXMOVES];     /* flips moved, then conjugated */
    const uint16_t *then[PDB_MAXMOVES]; /* twist conjugation, or NULL */
} sep_moves_t;

/* b after a: v -> b(a(v)). */
static void
affine_then(const pdb_affine_t *a, const pdb_affine_t *b, pdb_affine_t *out)
{
    pdb_affine_t r;

    r.add = (uint8_t)cube3_pdb__affine(b, a->add);
    for (int i = 0; i < 8; i++) {
        r.col[i] = (uint8_t)(cube3_pdb__affine(b, a->col[i]) ^ b->add);
    }
    *out = r;
}

static void
sep_class_moves(const pdb_sep_t *sp,
                const int *moves,
                int nm,
                uint64_t c,
                sep_moves_t *sm)
{
    uint32_t raw = sp->rep[c];
    int t = (int)(raw / PDB_NESEP);
    int e = (int)(raw % PDB_NESEP);

    sm->key = c + 1;
    for (int i = 0; i < nm; i++) {
        int m = moves[i];
        int t2 = sp->tmove[t][m];
        int e2 = sp->emove[e][m];
        size_t raw2 = (size_t)t2 * PDB_NESEP + (size_t)e2;
        int k = cube3_pdb__sep_sym(sp, raw2);

        sm->base[i] = (uint64_t)cube3_pdb__sep_class(sp, raw2) << sp->obits;
        affine_then(&sp->omove[e][m], &sp->oconj[e2][k], &sm->aff[i]);
        sm->then[i] = k != 0 ? sp->twconj[k][t2] : NULL;
    }
}

/* Where each move takes a separation row: the class's targets (cached
 * in scratch), the row's flips through the class's affine maps. */
void
cube3_pdb__sep_row_moves(const pdb_sep_t *sp,
                         const pdb_coord_t *co,
                         const int *moves,
                         int nm,
                         uint64_t row,
                         tables_bfs_edge_t *out,
                         void *scratch)
{
    sep_moves_t local;
    sep_moves_t *sm = scratch != NULL ? scratch : &local;
    uint64_t c = row >> sp->obits;
    int o = (int)(row & ((UINT64_C(1) << sp->obits) - 1));

    if (scratch == NULL || sm->key != c + 1) {
        sep_class_moves(sp, moves, nm, c, sm);
    }
    for (int i = 0; i < nm; i++) {
        out[i].row = sm->base[i] + (uint64_t)cube3_pdb__affine(&sm->aff[i], o);
        out[i].map = co->twist_by_move[moves[i]];
        out[i].then = sm->then[i];
    }
}

/* The images of a separation row under the symmetries (other than the
 * identity) that fix its class's representative. */
int
cube3_pdb__sep_row_twins(const pdb_sep_t *sp,
                         uint64_t row,
                         tables_bfs_edge_t *out)
{
    uint64_t c = row >> sp->obits;
    int o = (int)(row & ((UINT64_C(1) << sp->obits) - 1));
    uint32_t raw = sp->rep[c];
    int t = (int)(raw / PDB_NESEP);
    int e = (int)(raw % PDB_NESEP);
    uint64_t stab = sp->stab[c] & ~UINT64_C(1);
    int n = 0;

    while (stab != 0) {
        int k = __builtin_ctzll(stab);

        stab &= stab - 1;
        out[n].row =
            (c << sp->obits) | (uint64_t)cube3_pdb__affine(&sp->oconj[e][k], o);
        out[n].map = sp->twconj[k][t];
        out[n].then = NULL;
        n++;
    }
    return n;
}

size_t
cube3_pdb__sep_scratch_bytes(void)
{
    return sizeof(sep_moves_t);
}
