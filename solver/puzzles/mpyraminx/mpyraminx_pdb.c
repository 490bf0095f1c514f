/* SPDX-License-Identifier: MIT */
/* mpyraminx_pdb.c - Master Pyraminx pattern databases over piece groups.
 * Size: one model: the builds and the lookups share the coordinates. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpyraminx.h"
#include "mpyraminx_internal.h"
#include "perm.h"
#include "tables.h"
#include "tables/bfs.h"

/*
 * Design: five pattern databases, each the exact distance (in the full
 * 32-move metric) of a projection of the puzzle onto some piece kinds:
 *
 *   wings  the 12 wings:                   12!/2            = 239,500,800
 *   tam    tips, axials and midges:        3^8 * 6!/2 * 2^5 =  75,582,720
 *   acm    axials, centres and midges:     3^4 * 12 * 11,520 = 11,197,440
 *   wc     wings and centres:              12!/2 * 12      = 2,874,009,600
 *   tacm   tips, axials, centres, midges:  3^8 * 12 * 11,520 = 906,992,640
 *
 * stored as 4-bit distances (120 MB, 38 MB, 5.6 MB, 1.4 GB and 453 MB),
 * built by breadth-first search over the rank space with move tables on
 * the coordinates, saved and memory-mapped through tables_blob_get.
 * Heuristics: "pdb" reads wings, tam and acm; "pdb-small" tam and acm;
 * "pdb-large" wc and tacm, each of which holds the pieces of one or two
 * of pdb's tables and more, so it is never below pdb.
 *
 * Admissibility: a coordinate of a child depends only on the parent's
 * coordinate and the move (each move permutes the slots of a kind and adds
 * a fixed twist per slot), so every move sequence that solves the puzzle
 * also takes the projection to its goal in as many moves. The breadth-first
 * distance of the projection is therefore a lower bound on the true
 * distance; a stored value is either that distance or, past the clamp,
 * the clamp, which is less; and the largest of lower bounds is a lower
 * bound. Tip moves never move a wing, so the wing search leaves them out.
 *
 * Other goals: pieces are renamed after the goal (the piece the goal puts
 * in slot q becomes piece q, with the goal's twist there as zero). Moves
 * act on slots, not on names, so renaming commutes with moves and the
 * distance from s to the goal is the distance of the renamed s to the
 * solved puzzle: the tables serve every goal.
 *
 * Ranks. Even permutations of n pieces are ranked by their Lehmer code
 * halved: two permutations whose codes differ only in the last pair differ
 * by one swap, so exactly one of them is even. Wings: X ranks the ordered
 * slots of wings 0..5 (12 * 11 * 10 * 9 * 8 * 7 = 665,280), and the
 * order of wings 6..11 within the six remaining slots is ranked by its
 * Lehmer code halved (parity then fixes the last pair), so the index is
 * X * 360 + order / 2. The move table of X serves the slots of wings
 * 6..11 too (the same coordinate for the other six pieces), so a child
 * costs two table reads and one small lookup. A table is a sequence of
 * blocks, one per value of its major coordinate (X; the midges for the
 * other tables), and one move takes a block to one block, so the search
 * writes a few kilobytes at a time instead of all over the table.
 */

/* Layout version of the tables: bump when ranks or contents change. */
#define PDB_VERSION 1

/* Stored distances stop here: a state first reached later reads as CLAMP
 * (less than its distance, so still a lower bound). 15 marks "unseen"
 * during a build. */
#define CLAMP  14
#define UNSEEN 15

enum {
    NX = 665280,    /* ordered slots of six of the 12 wings */
    NYR = 360,      /* order of the other six, halved */
    NMIDGE = 11520, /* 6!/2 * 2^5 */
    NTA = 6561,     /* 3^8: tip and axial twists */
    NAX = 81,       /* 3^4: axial twists */
    NCEN = 12,      /* 4!/2 */
    NSETS = 924,    /* 6-subsets of 12 */
};

/* The tables, in the order of table_ids and the heuristic's lookups. */
enum {
    T_WINGS,
    T_TAM,
    T_ACM,
    T_WC,
    T_TACM,
    NTABLES,
};

static const uint64_t table_entries[NTABLES] = {
    (uint64_t)NX * NYR,          (uint64_t)NMIDGE *NTA,
    (uint64_t)NMIDGE *NAX *NCEN, (uint64_t)NX *NCEN *NYR,
    (uint64_t)NMIDGE *NTA *NCEN,
};

static const char *const table_names[NTABLES] = {
    "master-pyraminx-pdb-wings",
    "master-pyraminx-pdb-tips-axials-midges",
    "master-pyraminx-pdb-axials-centres-midges",
    "master-pyraminx-pdb-wings-centres",
    "master-pyraminx-pdb-tips-axials-centres-midges",
};

static const int table_ids[NTABLES] = { T_WINGS, T_TAM, T_ACM, T_WC, T_TACM };

void
mpyraminx__slot_moves(const mpyr_priv_t *pv, mpyraminx_slot_moves_t *sm)
{
    for (int m = 0; m < NMOVES; m++) {
        uint8_t dest[NSTICKERS];

        /* new[i] = old[perm[i]]: old sticker perm[i] lands on i. */
        for (int i = 0; i < NSTICKERS; i++) {
            dest[pv->perm[m][i]] = (uint8_t)i;
        }
        for (int kind = 0; kind < NPKINDS; kind++) {
            const pkind_t *k = &pv->kind[kind];

            for (int s = 0; s < k->nslots; s++) {
                int d0 = dest[k->slot[s].stk[0]];
                int t = pv->slot_of[kind][d0];
                int kk = 0;

                while (k->slot[t].stk[kk] != d0) {
                    kk++;
                }
                /* Slot sticker j lands on t's sticker j + kk, so the
                 * piece's shift drops by kk (see build_reach). */
                sm->to[m][kind][s] = (uint8_t)t;
                sm->add[m][kind][s] = (uint8_t)((k->nstk - kk) % k->nstk);
            }
        }
    }
}

/* --- Ranks --------------------------------------------------------------- */

/* Lehmer rank (0..719) of the order of six distinct slots. */
static uint32_t
six_order(const uint8_t *p)
{
    uint8_t o[6];

    for (int i = 0; i < 6; i++) {
        o[i] = 0;
        for (int j = 0; j < 6; j++) {
            o[i] += p[j] < p[i];
        }
    }
    return (uint32_t)perm_rank(o, 6);
}

/*
 * The parity the order of wings 6..11 must have for the whole wing
 * permutation (wing -> slot) to be even, given the slots p of wings 0..5:
 * the inversions among wings 0..5, plus those between the two halves
 * (which depend only on which slots the first half holds).
 */
static int
order_parity_needed(const uint8_t *p)
{
    int inv = perm_parity(p, 6); /* only the parity of a count matters */
    bool mine[12] = { false };

    for (int i = 0; i < 6; i++) {
        mine[p[i]] = true;
    }
    /* Each (first-half wing at slot a, second-half wing at slot b < a) is
     * an inversion. */
    for (int a = 0; a < 12; a++) {
        if (mine[a]) {
            for (int b = 0; b < a; b++) {
                inv += !mine[b];
            }
        }
    }
    return inv & 1;
}

/* The index of the wing permutation pos (wing -> slot). */
static uint32_t
wing_index(const uint8_t *pos)
{
    return (uint32_t)perm_partial_rank(pos, 12, 6) * NYR +
           (six_order(pos + 6) >> 1);
}

/* --- Reading a state ------------------------------------------------------ */

/*
 * Per goal: for each kind and slot, the colours there (2 bits per sticker
 * in slot order) give the renamed piece (the goal slot it belongs in) and
 * its twist against the goal, packed as piece << 2 | twist; 0xff for
 * colours no piece shows there.
 */
typedef struct pdb_ctx {
    uint8_t lut[NPKINDS][MAX_SLOTS][64];
    uint8_t stk[NPKINDS][MAX_SLOTS][MAX_PSTK];
    int nslots[NPKINDS];
    int nstk[NPKINDS];
    const uint8_t *table[NTABLES]; /* NULL: not used */
    mpyraminx_slot_moves_t sm;     /* for the children's pieces */
} pdb_ctx_t;

/* The renamed pieces of s: piece[kind][slot] and twist[kind][slot]. */
typedef struct pieces {
    uint8_t piece[NPKINDS][MAX_SLOTS];
    uint8_t twist[NPKINDS][MAX_SLOTS];
} pieces_t;

/* Fills the lookup of c for goal (any legal state). */
static int
ctx_fill(const mpyr_priv_t *pv, const pz_state_t *goal, pdb_ctx_t *c)
{
    memset(c->lut, 0xff, sizeof(c->lut));
    for (int kind = 0; kind < NPKINDS; kind++) {
        const pkind_t *k = &pv->kind[kind];
        int n = k->nstk;
        int goal_piece[MAX_SLOTS];
        int goal_shift[MAX_SLOTS];

        c->nslots[kind] = k->nslots;
        c->nstk[kind] = n;
        for (int s = 0; s < k->nslots; s++) {
            for (int j = 0; j < n; j++) {
                c->stk[kind][s][j] = k->slot[s].stk[j];
            }
        }
        /* Which piece (home numbering), with which shift, the goal holds
         * in each slot. */
        for (int q = 0; q < k->nslots; q++) {
            goal_piece[q] = -1;
            for (int p = 0; p < k->nslots && goal_piece[q] < 0; p++) {
                for (int sh = 0; sh < n; sh++) {
                    int j = 0;

                    if (!(k->reach[p][q] >> sh & 1)) {
                        continue;
                    }
                    while (j < n &&
                           get_colour(goal, k->slot[q].stk[j]) ==
                               home_colour(pv, kind, p, (j + sh) % n)) {
                        j++;
                    }
                    if (j == n) {
                        goal_piece[q] = p;
                        goal_shift[q] = sh;
                        break;
                    }
                }
            }
            if (goal_piece[q] < 0) {
                return PZ_EINVAL;
            }
        }
        /* Piece p in slot s with shift sh is renamed to the slot q where
         * the goal has p, with twist sh - goal_shift[q]. */
        for (int q = 0; q < k->nslots; q++) {
            int p = goal_piece[q];

            for (int s = 0; s < k->nslots; s++) {
                for (int sh = 0; sh < n; sh++) {
                    int code = 0;

                    if (!(k->reach[p][s] >> sh & 1)) {
                        continue;
                    }
                    for (int j = n - 1; j >= 0; j--) {
                        code =
                            code << 2 | home_colour(pv, kind, p, (j + sh) % n);
                    }
                    c->lut[kind][s][code] =
                        (uint8_t)(q << 2 | (sh - goal_shift[q] + n) % n);
                }
            }
        }
    }
    return PZ_OK;
}

/* Reads the renamed pieces of s; false when s shows a piece the goal's
 * colours do not have (not a legal state). */
static bool
read_pieces(const pdb_ctx_t *c, const pz_state_t *s, pieces_t *out)
{
    for (int kind = 0; kind < NPKINDS; kind++) {
        for (int sl = 0; sl < c->nslots[kind]; sl++) {
            int code = 0;
            int v;

            for (int j = c->nstk[kind] - 1; j >= 0; j--) {
                code = code << 2 | get_colour(s, c->stk[kind][sl][j]);
            }
            v = c->lut[kind][sl][code];
            if (v == 0xff) {
                return false;
            }
            out->piece[kind][sl] = (uint8_t)(v >> 2);
            out->twist[kind][sl] = (uint8_t)(v & 3);
        }
    }
    return true;
}

/* --- Coordinates ---------------------------------------------------------- */

/* Tip and axial twists: sum over vertices of (3 tip + axial) 9^v. */
static uint32_t
ta_coord(const pieces_t *pc)
{
    uint32_t r = 0;

    for (int v = NVERT - 1; v >= 0; v--) {
        r = r * 9 + (uint32_t)(3 * pc->twist[P_TIP][v] + pc->twist[P_AXIAL][v]);
    }
    return r;
}

static uint32_t
ax_coord(const pieces_t *pc)
{
    uint32_t r = 0;

    for (int v = NVERT - 1; v >= 0; v--) {
        r = r * 3 + (uint32_t)pc->twist[P_AXIAL][v];
    }
    return r;
}

static uint32_t
centre_coord(const pieces_t *pc)
{
    return (uint32_t)perm_even_rank(pc->piece[P_CENTRE], 4);
}

/* Midges: the even permutation, then the flips of slots 0..4 (the sixth
 * follows, the sum being even). */
static uint32_t
midge_coord(const pieces_t *pc)
{
    uint32_t flips = 0;

    for (int s = 4; s >= 0; s--) {
        flips = flips << 1 | (uint32_t)pc->twist[P_MIDGE][s];
    }
    return (uint32_t)perm_even_rank(pc->piece[P_MIDGE], 6) * 32 + flips;
}

static uint32_t
wing_coord(const pieces_t *pc)
{
    uint8_t pos[12];

    for (int s = 0; s < 12; s++) {
        pos[pc->piece[P_WING][s]] = (uint8_t)s;
    }
    return wing_index(pos);
}

static uint64_t
table_index(int t, const pieces_t *pc)
{
    switch (t) {
    case T_WINGS:
        return wing_coord(pc);
    case T_TAM:
        return (uint64_t)midge_coord(pc) * NTA + ta_coord(pc);
    case T_WC: {
        uint32_t w = wing_coord(pc);

        return ((uint64_t)(w / NYR) * NCEN + centre_coord(pc)) * NYR + w % NYR;
    }
    case T_TACM:
        return ((uint64_t)midge_coord(pc) * NTA + ta_coord(pc)) * NCEN +
               centre_coord(pc);
    default:
        return ((uint64_t)midge_coord(pc) * NAX + ax_coord(pc)) * NCEN +
               centre_coord(pc);
    }
}

static int
nibble(const uint8_t *t, uint64_t i)
{
    return t[i >> 1] >> (4 * (i & 1)) & 15;
}

/* --- Move tables of the coordinates --------------------------------------- */

/* The pieces at home (identity), as a starting point for coordinates. */
static void
pieces_home(pieces_t *pc)
{
    memset(pc, 0, sizeof(*pc));
    for (int kind = 0; kind < NPKINDS; kind++) {
        for (int s = 0; s < MAX_SLOTS; s++) {
            pc->piece[kind][s] = (uint8_t)s;
        }
    }
}

/* Applies move m to the pieces of kind in pc (slot view). */
static void
move_pieces(const mpyraminx_slot_moves_t *sm,
            int m,
            int kind,
            int n,
            int nstk,
            pieces_t *pc)
{
    uint8_t piece[MAX_SLOTS];
    uint8_t twist[MAX_SLOTS];

    for (int s = 0; s < n; s++) {
        int t = sm->to[m][kind][s];

        piece[t] = pc->piece[kind][s];
        twist[t] = (uint8_t)((pc->twist[kind][s] + sm->add[m][kind][s]) % nstk);
    }
    memcpy(pc->piece[kind], piece, (size_t)n);
    memcpy(pc->twist[kind], twist, (size_t)n);
}

/* Sets pc's midges (relative to home) from a midge coordinate. */
static void
midge_set(uint32_t coord, pieces_t *pc)
{
    int sum = 0;

    perm_even_unrank(coord / 32, 6, pc->piece[P_MIDGE]);
    for (int s = 0; s < 5; s++) {
        pc->twist[P_MIDGE][s] = (uint8_t)(coord >> s & 1);
        sum += pc->twist[P_MIDGE][s];
    }
    pc->twist[P_MIDGE][5] = (uint8_t)(sum & 1);
}

static void
ta_set(uint32_t coord, bool tips, pieces_t *pc)
{
    for (int v = 0; v < NVERT; v++) {
        if (tips) {
            pc->twist[P_AXIAL][v] = (uint8_t)(coord % 3);
            pc->twist[P_TIP][v] = (uint8_t)(coord / 3 % 3);
            coord /= 9;
        } else {
            pc->twist[P_AXIAL][v] = (uint8_t)(coord % 3);
            coord /= 3;
        }
    }
}

/* --- Breadth-first builds ------------------------------------------------- */

/*
 * A table as blocks: index = major * nminor + minor. One move takes every
 * entry of a major block to one major block; the minors move through
 * minor_mv (move-major order, so a block reads one row) or, for the wings,
 * through the slots of wings 6..11. With the centres, a wing block's
 * major is X * 12 + the centres' rank, and the centres move by cen_mv.
 */
typedef struct bfs {
    int table;
    uint32_t nmajor;
    uint32_t nminor;
    int nmoves;
    uint8_t moves[NMOVES];
    uint32_t *major_mv; /* [major * NMOVES + m] */
    uint32_t *minor_mv; /* [m * nminor + minor]; NULL for the wings */
    /* Wings: the 12P6 move table serves both halves. */
    uint16_t *xmask;         /* slots of wings 0..5, as a bit set */
    uint8_t *xpar;           /* parity the order of wings 6..11 needs */
    uint16_t set_rank[4096]; /* 6-subset bit set -> 0..NSETS-1 */
    uint32_t *ylist;         /* [(set * 2 + parity) * NYR + yr] -> Y */
    uint16_t *yorder;        /* [Y] -> Lehmer order of its slots */
    uint32_t *y_then;        /* [k * NX + Y] -> column of Y after move k */
    uint32_t ncen;           /* wings with centres: NCEN, else 1 */
    uint8_t cen_mv[NCEN * NMOVES]; /* [centres * NMOVES + m] */
    uint8_t *data;
} bfs_t;

/* Where each move takes block major: the tables module's builder asks
 * for one block at a time (tables_bfs_moves_fn). */
static void
block_moves(void *arg, uint64_t major, tables_bfs_edge_t *out, void *scratch)
{
    const bfs_t *b = arg;
    const uint32_t *ys = NULL;
    uint64_t x = major / b->ncen;
    uint32_t c = (uint32_t)(major % b->ncen);

    (void)scratch;
    if (b->minor_mv == NULL) {
        /* Wings: a block's columns are the orders of the other six
         * wings; the slots of each (its Y) depend on the block, and a
         * move takes a Y to a Y, whose order is its column. */
        ys = b->ylist +
             ((size_t)b->set_rank[b->xmask[x]] * 2 + b->xpar[x]) * NYR;
    }
    for (int k = 0; k < b->nmoves; k++) {
        int m = b->moves[k];

        out[k].row = b->major_mv[(size_t)x * NMOVES + m];
        if (b->ncen > 1) {
            out[k].row = out[k].row * b->ncen + b->cen_mv[c * NMOVES + m];
        }
        if (b->minor_mv != NULL) {
            out[k].map = b->minor_mv + (size_t)m * b->nminor;
            out[k].then = NULL;
        } else {
            out[k].map = ys;
            out[k].then = b->y_then + (size_t)k * NX;
        }
    }
}

/* Builds the coordinate move tables of b's table. */
static int
bfs_tables(bfs_t *b, const mpyraminx_slot_moves_t *sm)
{
    pieces_t pc;

    b->ncen = 1;
    if (b->table == T_WINGS || b->table == T_WC) {
        if (b->table == T_WC) {
            b->ncen = NCEN;
            for (uint32_t c = 0; c < NCEN; c++) {
                for (int m = 0; m < NMOVES; m++) {
                    pieces_home(&pc);
                    perm_even_unrank(c, 4, pc.piece[P_CENTRE]);
                    move_pieces(sm, m, P_CENTRE, 4, 1, &pc);
                    b->cen_mv[c * NMOVES + m] = (uint8_t)centre_coord(&pc);
                }
            }
        }
        b->major_mv = malloc((size_t)NX * NMOVES * sizeof(uint32_t));
        b->xmask = malloc(NX * sizeof(uint16_t));
        b->xpar = malloc(NX);
        b->yorder = malloc(NX * sizeof(uint16_t));
        b->ylist = malloc((size_t)NSETS * 2 * NYR * sizeof(uint32_t));
        if (b->major_mv == NULL || b->xmask == NULL || b->xpar == NULL ||
            b->yorder == NULL || b->ylist == NULL) {
            return PZ_ENOMEM;
        }
        {
            int nsets = 0;

            for (int mask = 0; mask < 4096; mask++) {
                if (__builtin_popcount((unsigned)mask) == 6) {
                    b->set_rank[mask] = (uint16_t)nsets++;
                }
            }
        }
        for (uint32_t x = 0; x < NX; x++) {
            uint8_t p[6];
            int mask = 0;

            perm_partial_unrank(x, 12, 6, p);
            for (int i = 0; i < 6; i++) {
                mask |= 1 << p[i];
            }
            b->xmask[x] = (uint16_t)mask;
            b->xpar[x] = (uint8_t)order_parity_needed(p);
            b->yorder[x] = (uint16_t)six_order(p);
            for (int m = 0; m < NMOVES; m++) {
                uint8_t q[6];

                for (int i = 0; i < 6; i++) {
                    q[i] = sm->to[m][P_WING][p[i]];
                }
                b->major_mv[(size_t)x * NMOVES + m] =
                    (uint32_t)perm_partial_rank(q, 12, 6);
            }
        }
        /* ylist: the Y (slots of wings 6..11 in order) of each half order
         * rank, given the free slots and the parity needed. */
        for (int mask = 0; mask < 4096; mask++) {
            uint8_t free_slots[6];
            int nf = 0;

            if (__builtin_popcount((unsigned)mask) != 6) {
                continue;
            }
            for (int s = 0; s < 12; s++) {
                if (!(mask >> s & 1)) {
                    free_slots[nf++] = (uint8_t)s;
                }
            }
            for (uint32_t r = 0; r < 720; r++) {
                uint8_t o[6];
                uint8_t q[6];

                perm_unrank(r, 6, o);
                for (int i = 0; i < 6; i++) {
                    q[i] = free_slots[o[i]];
                }
                b->ylist[((size_t)b->set_rank[mask] * 2 + perm_parity(o, 6)) *
                             NYR +
                         r / 2] = (uint32_t)perm_partial_rank(q, 12, 6);
            }
        }
        b->nmajor = NX * b->ncen;
        b->nminor = NYR;
        b->nmoves = 0;
        for (int m = 0; m < NMOVES; m++) {
            if (m / 2 % NKINDS != 0) {
                /* Tips move no wing and no centre. */
                b->moves[b->nmoves++] = (uint8_t)m;
            }
        }
        b->y_then = malloc((size_t)b->nmoves * NX * sizeof(uint32_t));
        if (b->y_then == NULL) {
            return PZ_ENOMEM;
        }
        for (int k = 0; k < b->nmoves; k++) {
            for (uint32_t y = 0; y < NX; y++) {
                uint32_t y2 = b->major_mv[(size_t)y * NMOVES + b->moves[k]];

                b->y_then[(size_t)k * NX + y] = (uint32_t)(b->yorder[y2] >> 1);
            }
        }
        return PZ_OK;
    }
    b->nmajor = NMIDGE;
    b->nminor = b->table == T_TAM    ? NTA
                : b->table == T_TACM ? NTA * NCEN
                                     : NAX * NCEN;
    b->nmoves = NMOVES;
    for (int m = 0; m < NMOVES; m++) {
        b->moves[m] = (uint8_t)m;
    }
    b->major_mv = malloc((size_t)NMIDGE * NMOVES * sizeof(uint32_t));
    b->minor_mv = malloc((size_t)b->nminor * NMOVES * sizeof(uint32_t));
    if (b->major_mv == NULL || b->minor_mv == NULL) {
        return PZ_ENOMEM;
    }
    for (uint32_t c = 0; c < NMIDGE; c++) {
        for (int m = 0; m < NMOVES; m++) {
            pieces_home(&pc);
            midge_set(c, &pc);
            move_pieces(sm, m, P_MIDGE, 6, 2, &pc);
            b->major_mv[(size_t)c * NMOVES + m] = midge_coord(&pc);
        }
    }
    for (uint32_t c = 0; c < b->nminor; c++) {
        for (int m = 0; m < NMOVES; m++) {
            pieces_home(&pc);
            if (b->table == T_TAM) {
                ta_set(c, true, &pc);
            } else if (b->table == T_TACM) {
                ta_set(c / NCEN, true, &pc);
                perm_even_unrank(c % NCEN, 4, pc.piece[P_CENTRE]);
            } else {
                ta_set(c / NCEN, false, &pc);
                perm_even_unrank(c % NCEN, 4, pc.piece[P_CENTRE]);
            }
            move_pieces(sm, m, P_TIP, 4, 3, &pc);
            move_pieces(sm, m, P_AXIAL, 4, 3, &pc);
            move_pieces(sm, m, P_CENTRE, 4, 1, &pc);
            b->minor_mv[(size_t)m * b->nminor + c] =
                b->table == T_TAM    ? ta_coord(&pc)
                : b->table == T_TACM ? ta_coord(&pc) * NCEN + centre_coord(&pc)
                                     : ax_coord(&pc) * NCEN + centre_coord(&pc);
        }
    }
    return PZ_OK;
}

static void
bfs_free(bfs_t *b)
{
    free(b->major_mv);
    free(b->minor_mv);
    free(b->xmask);
    free(b->xpar);
    free(b->ylist);
    free(b->yorder);
    free(b->y_then);
}

/* Fills data (table t, zeroed, table_entries[t] / 2 bytes) as build bd
 * (NULL: on the calling thread); counts (may be NULL) gets the entries
 * at each stored distance. */
static int
build_table(int t, uint8_t *data, uint64_t *counts, tables_build_t *bd)
{
    pz_puzzle_t *p = NULL;
    mpyraminx_slot_moves_t *sm = NULL;
    bfs_t *b = NULL;
    tables_bfs_spec_t spec = { 0 };
    tables_bfs_result_t *res = NULL;
    uint64_t goal = 0; /* the goal: every coordinate 0 */
    int rc;
    pz_diag_t d;

    pz_diag_clear(&d);
    rc = puzzle_create("master-pyraminx", NULL, &p, &d);
    if (rc != PZ_OK) {
        return rc;
    }
    sm = malloc(sizeof(*sm));
    b = calloc(1, sizeof(*b));
    res = malloc(sizeof(*res));
    if (sm == NULL || b == NULL || res == NULL) {
        rc = PZ_ENOMEM;
        goto out;
    }
    mpyraminx__slot_moves(p->priv, sm);
    b->table = t;
    b->data = data;
    rc = bfs_tables(b, sm);
    if (rc != PZ_OK) {
        goto out;
    }
    spec.nrows = b->nmajor;
    spec.rowlen = b->nminor;
    spec.nmoves = b->nmoves;
    spec.wide = true;
    spec.moves = block_moves;
    spec.arg = b;
    spec.code = TABLES_BFS_EXACT4;
    spec.data = data;
    spec.goals = &goal;
    spec.ngoals = 1;
    /* Levels up to CLAMP - 1; the rest, CLAMP or more moves, store CLAMP,
     * a lower bound still. */
    spec.clamp = CLAMP;
    rc = tables_bfs_run(&spec, bd, res);
    if (rc == PZ_OK && counts != NULL) {
        memset(counts, 0, (UNSEEN + 1) * sizeof(*counts));
        for (int v = 0; v <= CLAMP && v <= res->max_depth; v++) {
            counts[v] = res->counts[v];
        }
    }
out:
    free(res);
    if (b != NULL) {
        bfs_free(b);
    }
    free(b);
    free(sm);
    puzzle_destroy(p);
    return rc;
}

static int
blob_build(void *arg, uint8_t *data, uint64_t bytes, tables_build_t *b)
{
    int t = *(const int *)arg;

    if (bytes != table_entries[t] / 2) {
        return PZ_EINVAL;
    }
    return build_table(t, data, NULL, b);
}

static void
table_def(int t, tables_blob_def_t *def)
{
    memset(def, 0, sizeof(*def));
    def->name = table_names[t];
    def->group = "master-pyraminx";
    def->puzzle = "master-pyraminx";
    def->bytes = table_entries[t] / 2;
    def->version = PDB_VERSION;
    /* The phase solver's table (5.3 MiB, 0.3 s): a daemon answers fast
     * solves and random-state scrambles from the start. */
    def->startup = t == T_ACM;
    def->huge = t == T_WINGS || t == T_WC || t == T_TACM;
    def->build = blob_build;
    def->arg = (void *)&table_ids[t];
}

int
mpyraminx_table_defs(tables_blob_def_t *out, int max)
{
    for (int t = 0; t < NTABLES && t < max; t++) {
        table_def(t, &out[t]);
    }
    return NTABLES;
}

int
mpyraminx_pdb_build(int table, uint8_t *data, uint64_t bytes, uint64_t *counts)
{
    if (table < 0 || table >= NTABLES || bytes != table_entries[table] / 2) {
        return PZ_EINVAL;
    }
    return build_table(table, data, counts, NULL);
}

uint64_t
mpyraminx_pdb_bytes(int table)
{
    return table >= 0 && table < NTABLES ? table_entries[table] / 2 : 0;
}

/* --- Heuristics ----------------------------------------------------------- */

/* The tables each heuristic reads, as bit sets of table numbers. */
enum {
    SET_PDB = 1 << T_WINGS | 1 << T_TAM | 1 << T_ACM,
    SET_SMALL = 1 << T_TAM | 1 << T_ACM,
    SET_LARGE = 1 << T_WC | 1 << T_TACM,
};

static int
pdb_init_tables(const pz_puzzle_t *p,
                const pz_state_t *goal,
                void *ctx,
                unsigned set)
{
    pdb_ctx_t *c = ctx;
    int rc = ctx_fill(p->priv, goal, c);

    mpyraminx__slot_moves(p->priv, &c->sm);

    for (int t = 0; t < NTABLES && rc == PZ_OK; t++) {
        tables_blob_def_t def;

        if (!(set >> t & 1)) {
            continue;
        }
        table_def(t, &def);
        rc = tables_blob_get(&def, &c->table[t], NULL);
    }
    return rc;
}

/* The tables pdb_init_tables reads for set, in its order. */
static int
tables_of(unsigned set, const char **names, int max)
{
    int n = 0;

    for (int t = 0; t < NTABLES; t++) {
        if (!(set >> t & 1)) {
            continue;
        }
        if (n < max) {
            names[n] = table_names[t];
        }
        n++;
    }
    return n;
}

static int
pdb_tables(const pz_puzzle_t *p,
           const pz_state_t *goal,
           const char **names,
           int max)
{
    (void)p;
    (void)goal;
    return tables_of(SET_PDB, names, max);
}

static int
pdb_small_tables(const pz_puzzle_t *p,
                 const pz_state_t *goal,
                 const char **names,
                 int max)
{
    (void)p;
    (void)goal;
    return tables_of(SET_SMALL, names, max);
}

static int
pdb_large_tables(const pz_puzzle_t *p,
                 const pz_state_t *goal,
                 const char **names,
                 int max)
{
    (void)p;
    (void)goal;
    return tables_of(SET_LARGE, names, max);
}

int
mpyraminx_acm_table(const char **names, int max)
{
    if (max > 0) {
        names[0] = table_names[T_ACM];
    }
    return 1;
}

static int
pdb_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    return pdb_init_tables(p, goal, ctx, SET_PDB);
}

static int
pdb_small_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    return pdb_init_tables(p, goal, ctx, SET_SMALL);
}

static int
pdb_large_init(const pz_puzzle_t *p, const pz_state_t *goal, void *ctx)
{
    return pdb_init_tables(p, goal, ctx, SET_LARGE);
}

static int
pdb_eval(const pz_puzzle_t *p, const void *ctx, const pz_state_t *s)
{
    const pdb_ctx_t *c = ctx;
    pieces_t pc;
    int h = 0;

    (void)p;
    if (!read_pieces(c, s, &pc)) {
        return 0;
    }
    for (int t = 0; t < NTABLES; t++) {
        if (c->table[t] != NULL) {
            int v = nibble(c->table[t], table_index(t, &pc));

            h = v > h ? v : h;
        }
    }
    return h;
}

/* Tables by decreasing mean distance: the order children reads them in,
 * so that most children are cut by their first lookup. */
static const int stage_order[NTABLES] = { T_TACM, T_WC, T_TAM, T_WINGS, T_ACM };

/*
 * The children op: the parent's pieces are read once and each child's
 * follow by the slot moves; then, table by table, the entries of every
 * child still under the limit are prefetched together before any is
 * read, so their cache misses overlap, and a child cut by one table is
 * not looked up in the next.
 */
static void
pdb_children(const pz_puzzle_t *p,
             const void *ctx,
             const pz_state_t *parent,
             int h_parent,
             uint64_t todo,
             int limit,
             int16_t *out)
{
    const pdb_ctx_t *c = ctx;
    pieces_t base;
    pieces_t kid[NMOVES];
    uint64_t idx[NMOVES];
    int move[NMOVES];
    int n = 0;

    (void)p;
    (void)h_parent;
    if (!read_pieces(c, parent, &base)) {
        for (; todo != 0; todo &= todo - 1) {
            out[__builtin_ctzll(todo)] = 0;
        }
        return;
    }
    for (; todo != 0; todo &= todo - 1) {
        int m = __builtin_ctzll(todo);

        kid[n] = base;
        for (int kind = 0; kind < NPKINDS; kind++) {
            move_pieces(&c->sm, m, kind, c->nslots[kind], c->nstk[kind],
                        &kid[n]);
        }
        out[m] = 0;
        move[n++] = m;
    }
    for (int k = 0; k < NTABLES; k++) {
        int t = stage_order[k];
        const uint8_t *tab = c->table[t];
        int live = 0;

        if (tab == NULL) {
            continue;
        }
        for (int i = 0; i < n; i++) {
            if (out[move[i]] <= limit) {
                idx[i] = table_index(t, &kid[i]);
                __builtin_prefetch(tab + (idx[i] >> 1));
                live++;
            }
        }
        if (live == 0) {
            break;
        }
        for (int i = 0; i < n; i++) {
            if (out[move[i]] <= limit) {
                int v = nibble(tab, idx[i]);

                if (v > out[move[i]]) {
                    out[move[i]] = (int16_t)v;
                }
            }
        }
    }
}

const heuristic_ops_t mpyraminx__pdb_heuristic = {
    .name = "pdb",
    .summary = "pattern databases (wings 120 MB; tips, axials and midges "
               "38 MB; axials, centres and midges 6 MB), the largest "
               "(admissible; shared tables, see GET /v1/tables)",
    .admissible = true,
    .ctx_bytes = sizeof(pdb_ctx_t),
    .init = pdb_init,
    .eval = pdb_eval,
    .update = NULL,
    .children = pdb_children,
    .tables = pdb_tables,
};

const heuristic_ops_t mpyraminx__pdb_small_heuristic = {
    .name = "pdb-small",
    .summary = "pattern databases without the wings (tips, axials and "
               "midges; axials, centres and midges: 44 MB), the larger "
               "(admissible; shared tables, see GET /v1/tables)",
    .admissible = true,
    .ctx_bytes = sizeof(pdb_ctx_t),
    .init = pdb_small_init,
    .eval = pdb_eval,
    .update = NULL,
    .children = pdb_children,
    .tables = pdb_small_tables,
};

const heuristic_ops_t mpyraminx__pdb_large_heuristic = {
    .name = "pdb-large",
    .summary = "pattern databases (wings and centres 1.4 GB; tips, axials, "
               "centres and midges 454 MB), the larger (admissible; shared "
               "tables, see GET /v1/tables)",
    .admissible = true,
    .ctx_bytes = sizeof(pdb_ctx_t),
    .init = pdb_large_init,
    .eval = pdb_eval,
    .update = NULL,
    .children = pdb_children,
    .tables = pdb_large_tables,
};
