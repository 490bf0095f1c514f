/* SPDX-License-Identifier: MIT */
/* mpyraminx_phases.c - the Master Pyraminx's fast method: everything but
 * the wings by table, then the wings by 3-cycle macros.
 * Size: one method: phase 1 scores its answers by phase 2's 3-cycles. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "mpyraminx.h"
#include "mpyraminx_internal.h"
#include "perm.h"
#include "puzzle_internal.h"
#include "search.h"
#include "tables.h"

/*
 * Design. Phase 1 solves the tips, axials, centres and midges with any
 * moves; phase 2 solves the wings with macros that keep everything else.
 *
 * Phase 1. The table axials-centres-midges holds the exact distance of
 * that projection (breadth-first over its whole group, every entry
 * reached), so from any entry at distance d > 0 some move leads to d - 1
 * and none to less: walking down, one lowering move at a time, reaches
 * the goal of the projection in exactly d moves, the optimum for it. Tip
 * turns move nothing else and the other moves only twist tips, so the
 * tips are fixed last, one turn per twisted tip. Which of the shortest
 * paths is taken decides the wings phase 2 gets, so a depth-first search
 * enumerates them (then paths up to PHASE1_SLACK moves longer, with g + h
 * as the bound), PHASE1_NODES expansions in all, and keeps the
 * PHASE1_KEEP answers with the least length plus CYCLE_COST per wing
 * 3-cycle left; phase 2 runs after each of them. Measured on 100 random
 * states: shortest paths only, 25.5 moves on average; slack 2 with 10,000
 * expansions and 16 answers, 22.4, in about 20 ms.
 *
 * Phase 2. A commutator A B A' B' of two turns that share only wing slots
 * (a second layer and another vertex's third layer, such as 2U 3L 2U'
 * 3L') moves three wings in a cycle and nothing else; which ones is found
 * by replaying every commutator of two layer turns on the stickers, not
 * assumed. Conjugating one, X C X', cycles the wings that X takes to C's
 * three slots and still moves nothing else. Setups X of up to SETUP_MAX
 * layer turns reach all 440 3-cycles of the 12 wing slots; for each the
 * shortest such macro (after merging turns of one layer, also across
 * turns that commute) is kept, built once per process. A wing's slot fixes
 * its orientation, so a 3-cycle of slots is all a wing needs.
 *
 * The wing permutation left after phase 1 is even. The fewest 3-cycles
 * that solve an even permutation of n points is (n - o) / 2, o its cycles
 * of odd length (fixed points included): a 3-cycle changes o by at most
 * 2. A depth-first search tries only 3-cycles that lower that count
 * (so at most 5 macros), cheapest appended length first, keeps the
 * shortest total and stops after PHASE2_NODES expansions; its first
 * descent is the greedy answer, found in a few expansions.
 *
 * Any goal: pieces are renamed after the goal as the pattern databases do
 * (the piece the goal puts in slot q becomes piece q, its twist there 0);
 * moves act on slots, so the renamed start is solved by the same moves.
 */

enum {
    NWINGS = 12,
    NCYCLES = 440, /* 12 * 11 * 10 / 3 directed 3-cycles */
    SETUP_MAX = 2,
    MACRO_MAX = 4 + 2 * SETUP_MAX,
    NCOMM_MAX = NMOVES * NMOVES,
    SEQ_MAX = 256,
    PHASE1_MAX = 16,      /* the table's distances are at most 10 */
    PHASE1_NODES = 10000, /* expansions enumerating phase-1 paths */
    PHASE1_KEEP = 16,     /* phase-1 answers the wing search tries */
    PHASE1_SLACK = 2,     /* moves over the shortest phase 1 allowed */
    CYCLE_COST = 6,       /* moves a wing 3-cycle costs, about */
    PHASE2_NODES = 500,   /* expansions of the wing search per answer */
    PHASE2_BRANCH = 6,    /* cheapest 3-cycles tried at each level */
    NO_ENTRY = 0xff,
};

/* A wing macro: its moves, and the wing slots it cycles (the wing in
 * slot[0] goes to slot[1], that one to slot[2], that one to slot[0]). */
typedef struct macro {
    uint8_t len;
    uint8_t mv[MACRO_MAX];
    uint8_t slot[3];
} macro_t;

typedef struct model {
    mpyraminx_slot_moves_t sm; /* where each move takes each piece */
    /* The colours of a slot (2 bits per sticker in slot order) give the
     * piece there (home numbering) << 2 | its shift; NO_ENTRY if none. */
    uint8_t lut[NPKINDS][MAX_SLOTS][64];
    uint8_t stk[NPKINDS][MAX_SLOTS][MAX_PSTK];
    int nslots[NPKINDS];
    int nstk[NPKINDS];
    bool commute[NMOVES][NMOVES];
    macro_t macro[NCYCLES];
    /* [a][b][c]: the macro cycling a -> b -> c, or -1 (a repeated slot). */
    int16_t cycle[NWINGS][NWINGS][NWINGS];
    int rc;
} model_t;

static model_t model;
static pthread_once_t model_once = PTHREAD_ONCE_INIT;

/* Pieces renamed after the goal: piece[kind][slot], twist[kind][slot]. */
typedef struct pieces {
    uint8_t piece[NPKINDS][MAX_SLOTS];
    uint8_t twist[NPKINDS][MAX_SLOTS];
} pieces_t;

static bool
is_tip_move(int m)
{
    return m / 2 % NKINDS == 0;
}

/* --- Building the model ------------------------------------------------- */

static void
build_slots(const mpyr_priv_t *pv, model_t *md)
{
    mpyraminx__slot_moves(pv, &md->sm);
    memset(md->lut, NO_ENTRY, sizeof(md->lut));
    for (int kind = 0; kind < NPKINDS; kind++) {
        const pkind_t *k = &pv->kind[kind];
        int n = k->nstk;

        md->nslots[kind] = k->nslots;
        md->nstk[kind] = n;
        for (int s = 0; s < k->nslots; s++) {
            for (int j = 0; j < n; j++) {
                md->stk[kind][s][j] = k->slot[s].stk[j];
            }
            for (int p = 0; p < k->nslots; p++) {
                for (int sh = 0; sh < n; sh++) {
                    int code = 0;

                    if (!(k->reach[p][s] >> sh & 1)) {
                        continue;
                    }
                    for (int j = n - 1; j >= 0; j--) {
                        code =
                            code << 2 | home_colour(pv, kind, p, (j + sh) % n);
                    }
                    md->lut[kind][s][code] = (uint8_t)(p << 2 | sh);
                }
            }
        }
    }
    memcpy(md->commute, pv->commute, sizeof(md->commute));
}

/*
 * Appends move m to seq[0..n), merging it with an earlier turn of the same
 * layer when every move after that one commutes with m (u u = u', u u'
 * is nothing). Returns the new length.
 */
static int
push_move(const model_t *md, uint8_t *seq, int n, int m)
{
    for (int i = n - 1; i >= 0; i--) {
        if (seq[i] / 2 == m / 2) {
            /* Clockwise counts 1, anticlockwise 2; the sum mod 3. */
            int turns = (1 + seq[i] % 2 + 1 + m % 2) % 3;

            if (turns == 0) {
                memmove(seq + i, seq + i + 1, (size_t)(n - i - 1));
                return n - 1;
            }
            seq[i] = (uint8_t)((m & ~1) | (turns == 2));
            return n;
        }
        if (!md->commute[seq[i]][m]) {
            break;
        }
    }
    seq[n] = (uint8_t)m;
    return n + 1;
}

/* Where the wing in each slot goes under moves[0..n). */
static void
wing_map(const model_t *md, const uint8_t *moves, int n, uint8_t *map)
{
    for (int s = 0; s < NWINGS; s++) {
        int t = s;

        for (int i = 0; i < n; i++) {
            t = md->sm.to[moves[i]][P_WING][t];
        }
        map[s] = (uint8_t)t;
    }
}

/* Index of the 3-cycle a -> b -> c among the NCYCLES: the rotation with
 * the smallest slot first, then which of the other two follows it. */
static int
cycle_key(int a, int b, int c)
{
    int lo = a < b ? (a < c ? a : c) : (b < c ? b : c);
    int next = lo == a ? b : lo == b ? c : a;
    int other = a + b + c - lo - next;
    int k = 0;

    /* Count the unordered triples before {lo, x, y}, x < y, then pick
     * the direction by whether next is the smaller of the two. */
    for (int i = 0; i < lo; i++) {
        k += (NWINGS - 1 - i) * (NWINGS - 2 - i) / 2;
    }
    {
        int x = next < other ? next : other;
        int y = next < other ? other : next;

        for (int i = lo + 1; i < x; i++) {
            k += NWINGS - 1 - i;
        }
        k += y - x - 1;
        return 2 * k + (next == x ? 0 : 1);
    }
}

/* The commutators of two layer turns that cycle three wings and leave
 * every other sticker at home. Returns how many were written. */
static int
find_commutators(const pz_puzzle_t *p,
                 const model_t *md,
                 uint8_t (*comm)[4],
                 uint8_t (*slots)[3])
{
    const mpyr_priv_t *pv = p->priv;
    pz_state_t solved;
    int n = 0;

    puzzle_goal(p, &solved);
    for (int a = 0; a < NMOVES; a++) {
        for (int b = 0; b < NMOVES; b++) {
            uint8_t seq[4] = { (uint8_t)a, (uint8_t)b, (uint8_t)(a ^ 1),
                               (uint8_t)(b ^ 1) };
            uint8_t map[NWINGS];
            int moved[3];
            int nmoved = 0;
            pz_state_t s = solved;
            bool clean = true;

            if (is_tip_move(a) || is_tip_move(b) || a / 2 == b / 2) {
                continue;
            }
            for (int i = 0; i < 4; i++) {
                puzzle_apply(p, &s, seq[i], &s);
            }
            for (int i = 0; i < NSTICKERS && clean; i++) {
                clean = pv->sticker_kind[i] == P_WING ||
                        get_colour(&s, i) == get_colour(&solved, i);
            }
            wing_map(md, seq, 4, map);
            for (int w = 0; w < NWINGS && clean; w++) {
                if (map[w] != w) {
                    clean = nmoved < 3;
                    if (clean) {
                        moved[nmoved++] = w;
                    }
                }
            }
            if (!clean || nmoved != 3) {
                continue;
            }
            memcpy(comm[n], seq, 4);
            slots[n][0] = (uint8_t)moved[0];
            slots[n][1] = map[moved[0]];
            slots[n][2] = map[map[moved[0]]];
            n++;
        }
    }
    return n;
}

/* Tries X C X' for the setup x[0..nx) and every commutator. */
static void
try_setup(model_t *md,
          const uint8_t *x,
          int nx,
          uint8_t (*comm)[4],
          uint8_t (*slots)[3],
          int ncomm)
{
    uint8_t map[NWINGS];
    uint8_t back[NWINGS];

    wing_map(md, x, nx, map);
    for (int s = 0; s < NWINGS; s++) {
        back[map[s]] = (uint8_t)s;
    }
    for (int c = 0; c < ncomm; c++) {
        /* The wing X takes to C's slot a is the one X C X' moves from
         * back[a]. */
        int a = back[slots[c][0]];
        int b = back[slots[c][1]];
        int d = back[slots[c][2]];
        macro_t *mc = &md->macro[cycle_key(a, b, d)];
        uint8_t seq[MACRO_MAX];
        int n = 0;

        if (mc->len != 0 && mc->len <= 4) {
            continue;
        }
        for (int i = 0; i < nx; i++) {
            n = push_move(md, seq, n, x[i]);
        }
        for (int i = 0; i < 4; i++) {
            n = push_move(md, seq, n, comm[c][i]);
        }
        for (int i = nx - 1; i >= 0; i--) {
            n = push_move(md, seq, n, x[i] ^ 1);
        }
        if (mc->len == 0 || n < mc->len) {
            mc->len = (uint8_t)n;
            memcpy(mc->mv, seq, (size_t)n);
            mc->slot[0] = (uint8_t)a;
            mc->slot[1] = (uint8_t)b;
            mc->slot[2] = (uint8_t)d;
        }
    }
}

/* Every setup of up to SETUP_MAX layer turns, no layer twice in a row. */
static void
setups(model_t *md,
       uint8_t *x,
       int nx,
       uint8_t (*comm)[4],
       uint8_t (*slots)[3],
       int ncomm)
{
    try_setup(md, x, nx, comm, slots, ncomm);
    if (nx == SETUP_MAX) {
        return;
    }
    for (int m = 0; m < NMOVES; m++) {
        if (is_tip_move(m) || (nx > 0 && x[nx - 1] / 2 == m / 2)) {
            continue;
        }
        x[nx] = (uint8_t)m;
        setups(md, x, nx + 1, comm, slots, ncomm);
    }
}

static void
model_build(void)
{
    static uint8_t comm[NCOMM_MAX][4];
    static uint8_t slots[NCOMM_MAX][3];
    pz_puzzle_t *p = NULL;
    pz_diag_t d;
    uint8_t x[SETUP_MAX];
    int ncomm;

    pz_diag_clear(&d);
    model.rc = puzzle_create("master-pyraminx", NULL, &p, &d);
    if (model.rc != PZ_OK) {
        return;
    }
    build_slots(p->priv, &model);
    ncomm = find_commutators(p, &model, comm, slots);
    setups(&model, x, 0, comm, slots, ncomm);
    memset(model.cycle, 0xff, sizeof(model.cycle));
    for (int c = 0; c < NCYCLES; c++) {
        const macro_t *mc = &model.macro[c];

        if (mc->len == 0) {
            model.rc = PZ_EINTERNAL; /* a 3-cycle no macro reaches */
            break;
        }
        for (int r = 0; r < 3; r++) {
            model.cycle[mc->slot[r]][mc->slot[(r + 1) % 3]]
                       [mc->slot[(r + 2) % 3]] = (int16_t)c;
        }
    }
    puzzle_destroy(p);
}

static const model_t *
model_get(void)
{
    pthread_once(&model_once, model_build);
    return model.rc == PZ_OK ? &model : NULL;
}

int
mpyraminx_phases_macro(int a, int b, int c, uint8_t *moves)
{
    const model_t *md = model_get();
    const macro_t *mc;

    if (md == NULL || a < 0 || b < 0 || c < 0 || a >= NWINGS || b >= NWINGS ||
        c >= NWINGS || md->cycle[a][b][c] < 0) {
        return PZ_EINVAL;
    }
    mc = &md->macro[md->cycle[a][b][c]];
    memcpy(moves, mc->mv, mc->len);
    return mc->len;
}

/* --- Reading states ----------------------------------------------------- */

/* The home piece and shift in each slot of s; false if s is not legal. */
static bool
read_home(const model_t *md, const pz_state_t *s, pieces_t *out)
{
    for (int kind = 0; kind < NPKINDS; kind++) {
        for (int sl = 0; sl < md->nslots[kind]; sl++) {
            int code = 0;
            int v;

            for (int j = md->nstk[kind] - 1; j >= 0; j--) {
                code = code << 2 | get_colour(s, md->stk[kind][sl][j]);
            }
            v = md->lut[kind][sl][code];
            if (v == NO_ENTRY) {
                return false;
            }
            out->piece[kind][sl] = (uint8_t)(v >> 2);
            out->twist[kind][sl] = (uint8_t)(v & 3);
        }
    }
    return true;
}

/* s's pieces renamed after goal; false if either is not legal. */
static bool
read_relative(const model_t *md,
              const pz_state_t *s,
              const pz_state_t *goal,
              pieces_t *out)
{
    pieces_t g;

    if (!read_home(md, s, out) || !read_home(md, goal, &g)) {
        return false;
    }
    for (int kind = 0; kind < NPKINDS; kind++) {
        int n = md->nstk[kind];
        uint8_t rename[MAX_SLOTS];

        for (int q = 0; q < md->nslots[kind]; q++) {
            rename[g.piece[kind][q]] = (uint8_t)q;
        }
        for (int sl = 0; sl < md->nslots[kind]; sl++) {
            int q = rename[out->piece[kind][sl]];

            out->piece[kind][sl] = (uint8_t)q;
            out->twist[kind][sl] =
                (uint8_t)((out->twist[kind][sl] + n - g.twist[kind][q]) % n);
        }
    }
    return true;
}

static void
apply_pieces(const model_t *md, int m, pieces_t *pc)
{
    pieces_t old = *pc;

    for (int kind = 0; kind < NPKINDS; kind++) {
        int n = md->nstk[kind];

        for (int s = 0; s < md->nslots[kind]; s++) {
            int t = md->sm.to[m][kind][s];

            pc->piece[kind][t] = old.piece[kind][s];
            pc->twist[kind][t] =
                (uint8_t)((old.twist[kind][s] + md->sm.add[m][kind][s]) % n);
        }
    }
}

/* --- Phase 1: the axials-centres-midges table ---------------------------- */

/* The entry of pc in the axials-centres-midges table: ((midge permutation
 * * 32 + flips of slots 0..4) * 81 + axial twists) * 12 + centres, the
 * permutations by their even ranks (the layout of mpyraminx_pdb.c). */
static uint64_t
acm_index(const pieces_t *pc)
{
    uint32_t flips = 0;
    uint32_t ax = 0;
    uint64_t midge;

    for (int s = 4; s >= 0; s--) {
        flips = flips << 1 | pc->twist[P_MIDGE][s];
    }
    for (int v = NVERT - 1; v >= 0; v--) {
        ax = ax * 3 + pc->twist[P_AXIAL][v];
    }
    midge = perm_even_rank(pc->piece[P_MIDGE], 6) * 32 + flips;
    return (midge * 81 + ax) * 12 + perm_even_rank(pc->piece[P_CENTRE], 4);
}

static int
nibble(const uint8_t *t, uint64_t i)
{
    return t[i >> 1] >> (4 * (i & 1)) & 15;
}

/* Turns the tips of pc home, one turn each, appending to seq[0..n).
 * Returns the new length. */
static int
fix_tips(const model_t *md, pieces_t *pc, uint8_t *seq, int n)
{
    for (int v = 0; v < NVERT; v++) {
        int m = v * 2 * NKINDS;

        if (pc->twist[P_TIP][v] == 0) {
            continue;
        }
        if ((pc->twist[P_TIP][v] + md->sm.add[m][P_TIP][v]) % 3 != 0) {
            m++;
        }
        apply_pieces(md, m, pc);
        n = push_move(md, seq, n, m);
    }
    return n;
}

static int cycles_needed(const uint8_t *w);

/* A phase-1 answer: its moves (tips included) and the pieces after. */
typedef struct p1cand {
    int score;
    int n;
    uint8_t seq[2 * PHASE1_MAX];
    pieces_t pc;
} p1cand_t;

typedef struct p1search {
    const model_t *md;
    const uint8_t *table;
    const search_ctx_t *ctx;
    search_meter_t *meter;
    int status;
    int nodes;
    uint8_t path[PHASE1_MAX];
    p1cand_t cand[PHASE1_KEEP];
    int ncand;
} p1search_t;

/* Keeps the phase-1 answer path[0..n) ending in pc if it is among the
 * PHASE1_KEEP best: its length with the tips plus CYCLE_COST per wing
 * 3-cycle it leaves. */
static void
p1_leaf(p1search_t *ps, const pieces_t *pc, int n)
{
    p1cand_t c;
    int at;

    c.pc = *pc;
    c.n = 0;
    for (int i = 0; i < n; i++) {
        c.n = push_move(ps->md, c.seq, c.n, ps->path[i]);
    }
    c.n = fix_tips(ps->md, &c.pc, c.seq, c.n);
    c.score = c.n + CYCLE_COST * cycles_needed(c.pc.piece[P_WING]);
    if (ps->ncand == PHASE1_KEEP && c.score >= ps->cand[ps->ncand - 1].score) {
        return;
    }
    for (int i = 0; i < ps->ncand; i++) {
        if (ps->cand[i].n == c.n && memcmp(ps->cand[i].seq, c.seq, c.n) == 0) {
            return; /* found again by the pass with slack */
        }
    }
    at = ps->ncand < PHASE1_KEEP ? ps->ncand++ : ps->ncand - 1;
    while (at > 0 && ps->cand[at - 1].score > c.score) {
        ps->cand[at] = ps->cand[at - 1];
        at--;
    }
    ps->cand[at] = c;
}

/*
 * Follows the moves that keep pc within bound moves of the projection's
 * goal (g + the table's distance h <= bound: the shortest paths, and with
 * bound above the distance a few longer ones that may leave the wings
 * better), skipping a layer turned twice in a row and commuting pairs out
 * of order; stops expanding after PHASE1_NODES once an answer is kept.
 * Returns false on a broken table (no move lowers the distance).
 */
static bool
p1_dfs(p1search_t *ps, const pieces_t *pc, int h, int n, int bound)
{
    const model_t *md = ps->md;
    int prev = n > 0 ? ps->path[n - 1] : -1;
    bool any = false;

    if (h == 0) {
        p1_leaf(ps, pc, n);
        return true;
    }
    if (ps->ncand > 0 &&
        (ps->nodes >= PHASE1_NODES || ps->status != PZ_STATUS_RUNNING)) {
        return true;
    }
    ps->nodes++;
    ps->status = search_tick(ps->ctx, ps->meter);
    for (int m = 0; m < NMOVES; m++) {
        pieces_t child = *pc;
        int h2;

        if (is_tip_move(m) ||
            (prev >= 0 &&
             (m / 2 == prev / 2 || (md->commute[prev][m] && m < prev)))) {
            continue;
        }
        apply_pieces(md, m, &child);
        ps->meter->generated++;
        h2 = nibble(ps->table, acm_index(&child));
        if (n + 1 + h2 > bound) {
            continue;
        }
        ps->path[n] = (uint8_t)m;
        if (!p1_dfs(ps, &child, h2, n + 1, bound)) {
            return false;
        }
        any = true;
    }
    return any || ps->ncand > 0;
}

/* --- Phase 2: wing 3-cycles ---------------------------------------------- */

/* (12 - odd cycles) / 2: the fewest 3-cycles that sort w (even). */
static int
cycles_needed(const uint8_t *w)
{
    bool seen[NWINGS] = { false };
    int odd = 0;

    for (int s = 0; s < NWINGS; s++) {
        int len = 0;

        for (int t = s; !seen[t]; t = w[t]) {
            seen[t] = true;
            len++;
        }
        odd += len % 2;
    }
    return (NWINGS - odd) / 2;
}

typedef struct wsearch {
    const model_t *md;
    const search_ctx_t *ctx;
    search_meter_t *meter;
    int status; /* PZ_STATUS_RUNNING while going on */
    int nodes_left;
    uint8_t best[SEQ_MAX];
    int best_len; /* -1: none yet */
} wsearch_t;

typedef struct wchild {
    int cost;
    int cycle;
} wchild_t;

/*
 * w[slot] is the wing in slot (renamed: solved when w[s] = s); seq[0..n)
 * the moves so far; need = cycles_needed(w). Tries the PHASE2_BRANCH
 * cheapest 3-cycles that lower need by one.
 */
static void
wing_dfs(wsearch_t *ws, const uint8_t *w, const uint8_t *seq, int n, int need)
{
    const model_t *md = ws->md;
    wchild_t child[PHASE2_BRANCH];
    int nchild = 0;

    if (need == 0) {
        if (ws->best_len < 0 || n < ws->best_len) {
            memcpy(ws->best, seq, (size_t)n);
            ws->best_len = n;
        }
        return;
    }
    /* The first descent always ends in an answer, limits or not. */
    if (ws->best_len >= 0 &&
        (ws->nodes_left <= 0 || ws->status != PZ_STATUS_RUNNING)) {
        return;
    }
    ws->nodes_left--;
    if (ws->status == PZ_STATUS_RUNNING) {
        ws->status = search_tick(ws->ctx, ws->meter);
    }
    for (int c = 0; c < NCYCLES; c++) {
        const macro_t *mc = &md->macro[c];
        uint8_t w2[NWINGS];
        uint8_t buf[SEQ_MAX];
        int len = n;
        int at;

        /* The macro carries the wing in slot[0] to slot[1], and so on. */
        memcpy(w2, w, NWINGS);
        w2[mc->slot[1]] = w[mc->slot[0]];
        w2[mc->slot[2]] = w[mc->slot[1]];
        w2[mc->slot[0]] = w[mc->slot[2]];
        if (cycles_needed(w2) != need - 1 || n + MACRO_MAX > SEQ_MAX) {
            continue;
        }
        memcpy(buf, seq, (size_t)n);
        for (int i = 0; i < mc->len; i++) {
            len = push_move(md, buf, len, mc->mv[i]);
        }
        /* Keep the PHASE2_BRANCH cheapest, sorted. */
        if (nchild == PHASE2_BRANCH && len >= child[nchild - 1].cost) {
            continue;
        }
        at = nchild < PHASE2_BRANCH ? nchild++ : nchild - 1;
        while (at > 0 && child[at - 1].cost > len) {
            child[at] = child[at - 1];
            at--;
        }
        child[at].cost = len;
        child[at].cycle = c;
    }
    ws->meter->generated += (uint64_t)nchild;
    for (int i = 0; i < nchild; i++) {
        const macro_t *mc = &md->macro[child[i].cycle];
        uint8_t w2[NWINGS];
        uint8_t buf[SEQ_MAX];
        int len = n;

        /* Each remaining 3-cycle costs at least 2 moves after merging. */
        if (ws->best_len >= 0 &&
            child[i].cost + 2 * (need - 1) >= ws->best_len) {
            break;
        }
        memcpy(w2, w, NWINGS);
        w2[mc->slot[1]] = w[mc->slot[0]];
        w2[mc->slot[2]] = w[mc->slot[1]];
        w2[mc->slot[0]] = w[mc->slot[2]];
        memcpy(buf, seq, (size_t)n);
        for (int k = 0; k < mc->len; k++) {
            len = push_move(md, buf, len, mc->mv[k]);
        }
        wing_dfs(ws, w2, buf, len, need - 1);
    }
}

/* --- Entry -----------------------------------------------------------------
 */

int
mpyraminx_phases_solve(const search_ctx_t *ctx, pz_solution_t *out)
{
    const model_t *md = model_get();
    const pz_puzzle_t *p = ctx->puzzle;
    tables_blob_def_t defs[MPYRAMINX_PDB_COUNT];
    const uint8_t *table = NULL;
    search_meter_t meter;
    p1search_t *ps;
    p1search_t ps_store;
    wsearch_t *ws;
    wsearch_t ws_store;
    pieces_t pc;
    pz_state_t end;
    int rc;

    if (md == NULL || p->ops != &puzzle__mpyraminx) {
        return PZ_EINTERNAL;
    }
    if (mpyraminx_table_defs(defs, MPYRAMINX_PDB_COUNT) !=
        MPYRAMINX_PDB_COUNT) {
        return PZ_EINTERNAL;
    }
    rc = tables_blob_get(&defs[MPYRAMINX_PDB_ACM], &table, NULL);
    if (rc == PZ_ENOMEM) {
        out->status = PZ_STATUS_MEMORY_LIMIT;
        return PZ_OK;
    }
    if (rc != PZ_OK) {
        return rc;
    }
    if (!read_relative(md, &ctx->start, &ctx->goal, &pc)) {
        return PZ_EINTERNAL;
    }
    search_meter_init(ctx, &meter);

    /* Phase 1: a few of the shortest answers, best for the wings first. */
    ps = &ps_store;
    ps->md = md;
    ps->table = table;
    ps->ctx = ctx;
    ps->meter = &meter;
    ps->status = PZ_STATUS_RUNNING;
    ps->nodes = 0;
    ps->ncand = 0;
    {
        int d = nibble(table, acm_index(&pc));

        /* The shortest paths first: they alone always give an answer. */
        if (!p1_dfs(ps, &pc, d, 0, d) || ps->ncand == 0) {
            return PZ_EINTERNAL;
        }
        if (PHASE1_SLACK > 0 && d > 0) {
            ps->nodes = 0;
            p1_dfs(ps, &pc, d, 0, d + PHASE1_SLACK);
        }
    }

    /* Phase 2 after each, sharing the best total as a bound. */
    ws = &ws_store;
    ws->md = md;
    ws->ctx = ctx;
    ws->meter = &meter;
    ws->status = ps->status;
    ws->best_len = -1;
    for (int i = 0; i < ps->ncand; i++) {
        const p1cand_t *c = &ps->cand[i];

        if (i > 0 && ws->status != PZ_STATUS_RUNNING) {
            break;
        }
        ws->nodes_left = PHASE2_NODES;
        wing_dfs(ws, c->pc.piece[P_WING], c->seq, c->n,
                 cycles_needed(c->pc.piece[P_WING]));
    }
    if (ws->status == PZ_STATUS_RUNNING) {
        ws->status = search_poll(ctx, &meter);
    }
    if (ws->status == PZ_STATUS_CANCELLED ||
        (ws->best_len < 0 && ws->status != PZ_STATUS_RUNNING)) {
        out->status = ws->status;
        return PZ_OK;
    }
    if (ws->best_len < 0) {
        return PZ_EINTERNAL;
    }
    if (ctx->limits.max_depth > 0 && ws->best_len > ctx->limits.max_depth) {
        out->status = PZ_STATUS_DEPTH_LIMIT;
        return PZ_OK;
    }
    /* The answer must take start to goal on the stickers themselves. */
    if (puzzle_replay(p, &ctx->start, ws->best, ws->best_len, &end) != PZ_OK ||
        !puzzle_equal(p, &end, &ctx->goal)) {
        return PZ_EINTERNAL;
    }
    out->status = PZ_STATUS_SOLVED;
    out->length = ws->best_len;
    memcpy(out->moves, ws->best, (size_t)ws->best_len);
    return PZ_OK;
}

/* The phase solver needs the axials, centres and midges table. */
static int
phases_tables(const pz_puzzle_t *p,
              const pz_state_t *goal,
              const char **names,
              int max)
{
    (void)p;
    (void)goal;
    return mpyraminx_acm_table(names, max);
}

const engine_ops_t mpyraminx_phases_engine = {
    .name = "twophase",
    .summary = "any state in milliseconds by phases (about 23 moves)",
    .optimal = false,
    .uses_heuristic = false,
    .solve = mpyraminx_phases_solve,
    .tables = phases_tables,
};
