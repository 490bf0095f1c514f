/* SPDX-License-Identifier: MIT */
/* mpyraminx_internal.h - the Master Pyraminx's shared model (its files only).
 */
#ifndef PZ_SOLVER_MPYRAMINX_INTERNAL_H
#define PZ_SOLVER_MPYRAMINX_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "heuristic.h"
#include "puzzle.h"

enum {
    NVERT = 4,
    NFACES = 4,
    FACE_STICKERS = 16,
    NSTICKERS = 64,
    NKINDS = 4, /* move kinds per vertex: tip, 2nd, 3rd, block */
    NMOVES = NVERT * NKINDS * 2,
    STATE_BYTES = NSTICKERS / 4,
    MAX_MOVED = 48, /* stickers one move carries (36 for a block) */
};

/* Piece kinds, in the order the heuristics and messages use them. */
enum {
    P_TIP,
    P_AXIAL,
    P_CENTRE,
    P_MIDGE,
    P_WING,
    NPKINDS,
};

enum {
    MAX_SLOTS = 12, /* wings */
    MAX_PSTK = 3,   /* stickers per piece */
};

/* A slot: where a piece of a kind can sit, as its sticker indices sorted
 * by face (the midge flip is counted against the lower-face sticker). */
typedef struct slot {
    uint8_t stk[MAX_PSTK];
    char name[24]; /* "vertex U", "face F", "edge U-L", "edge U-L by U" */
} slot_t;

typedef struct pkind {
    int nslots;
    int nstk; /* stickers per piece */
    slot_t slot[MAX_SLOTS];
    /* reach[p][s]: bit sh set when piece p (home slot p) can sit in slot
     * s with its sticker (k + sh) % nstk on the slot's sticker k. */
    uint8_t reach[MAX_SLOTS][MAX_SLOTS];
    int max_moved; /* most pieces of this kind one move carries */
} pkind_t;

typedef struct mpyr_priv {
    /* Move m carries sticker src[m][k] to dst[m][k], k < nmoved[m]. */
    uint8_t dst[NMOVES][MAX_MOVED];
    uint8_t src[NMOVES][MAX_MOVED];
    int nmoved[NMOVES];
    uint8_t perm[NMOVES][NSTICKERS]; /* new[i] = old[perm[m][i]] */
    bool commute[NMOVES][NMOVES];
    pkind_t kind[NPKINDS];
    int8_t slot_of[NPKINDS][NSTICKERS]; /* slot holding a sticker, or -1 */
    uint8_t sticker_kind[NSTICKERS];
} mpyr_priv_t;

/* Face letters F L R D and each face's (top, bottom-left, bottom-right)
 * vertex; defined in mpyraminx.c. */
extern const char mpyraminx__face_letter[NFACES];
extern const int mpyraminx__face_vertex[NFACES][3];

/* Home colour (face) of sticker j of piece p of kind. */
static inline int
home_colour(const mpyr_priv_t *pv, int kind, int p, int j)
{
    return pv->kind[kind].slot[p].stk[j] / FACE_STICKERS;
}

static inline int
get_colour(const pz_state_t *s, int i)
{
    return s->b[i >> 2] >> (2 * (i & 3)) & 3;
}

static inline void
pack(const int col[NSTICKERS], pz_state_t *out)
{
    memset(out->b, 0, sizeof(out->b));
    for (int i = 0; i < NSTICKERS; i++) {
        out->b[i >> 2] |= (uint8_t)(col[i] << (2 * (i & 3)));
    }
}

static inline bool
is_space(int c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Applies move to s into out (may be s): the puzzle's apply
 * (mpyraminx.c). Always true. */
bool mpyraminx__apply(const pz_puzzle_t *p,
                      const pz_state_t *s,
                      int move,
                      pz_state_t *out);

/* State input and output, and scrambles (mpyraminx_input.c). */
int mpyraminx__apply_scramble(const pz_puzzle_t *p,
                              const char *text,
                              pz_state_t *state,
                              pz_diag_t *d);
int mpyraminx__parse_state(const pz_puzzle_t *p,
                           const pz_input_t *in,
                           pz_state_t *out,
                           pz_diag_t *d);
int mpyraminx__format_state(const pz_puzzle_t *p,
                            const pz_state_t *s,
                            char *buf,
                            size_t len);

/* Where each move takes the piece in each slot: move m takes the piece of
 * kind in slot s to slot to[m][kind][s] and adds add[m][kind][s] to its
 * twist (mod the kind's sticker count). */
typedef struct mpyraminx_slot_moves {
    uint8_t to[NMOVES][NPKINDS][MAX_SLOTS];
    uint8_t add[NMOVES][NPKINDS][MAX_SLOTS];
} mpyraminx_slot_moves_t;

/* Fills sm from the sticker permutations of pv (mpyraminx_pdb.c). */
void mpyraminx__slot_moves(const mpyr_priv_t *pv, mpyraminx_slot_moves_t *sm);

/* Heuristics (mpyraminx_heur.c, mpyraminx_pdb.c). */
extern const heuristic_ops_t mpyraminx__pieces_heuristic;
extern const heuristic_ops_t mpyraminx__seed_max_heuristic;
extern const heuristic_ops_t mpyraminx__seed_heuristic;
extern const heuristic_ops_t mpyraminx__pdb_heuristic;
extern const heuristic_ops_t mpyraminx__pdb_small_heuristic;
extern const heuristic_ops_t mpyraminx__pdb_large_heuristic;

#endif
