/* SPDX-License-Identifier: MIT */
/* mpyraminx_input.c - Master Pyraminx facelet input, validation and output,
 * and scrambles. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mpyraminx_internal.h"
#include "perm.h"

static const char *const pkind_name[NPKINDS] = {
    "tip", "axial", "centre", "midge", "wing",
};

/* How symbols of a sticker picture are shown in messages. */
typedef enum sym_kind {
    SYM_CHAR, /* text input: the character */
    SYM_INT,  /* integer input: the number */
} sym_kind_t;

typedef struct picture {
    int sym[NSTICKERS]; /* input symbol of each sticker */
    sym_kind_t kind;
    int syms[NSTICKERS]; /* distinct symbols in order of appearance */
    int col[NSTICKERS];  /* index into syms */
    int face_of[NFACES]; /* colour index -> face it belongs to */
} picture_t;

static void
sym_show(const picture_t *pic, int c, char *buf, size_t len)
{
    int v = pic->syms[c];

    if (pic->kind == SYM_CHAR) {
        snprintf(buf, len, "%c", (char)v);
    } else {
        snprintf(buf, len, "%d", v);
    }
}

/* "a, b, c" for the stickers of slot s of kind (input symbols). */
static void
slot_colours(const mpyr_priv_t *pv,
             const picture_t *pic,
             int kind,
             int s,
             char *buf,
             size_t len)
{
    size_t at = 0;

    buf[0] = '\0';
    for (int j = 0; j < pv->kind[kind].nstk && at < len; j++) {
        char one[16];
        int st = pv->kind[kind].slot[s].stk[j];

        sym_show(pic, pic->col[st], one, sizeof(one));
        at += (size_t)snprintf(buf + at, len - at, "%s%s%c%d", j ? ", " : "",
                               one, mpyraminx__face_letter[st / FACE_STICKERS],
                               st % FACE_STICKERS + 1);
    }
}

/*
 * Counts colours, then reads the colour scheme off the axials: the axial
 * at a vertex shows the three faces around it, so the colour it lacks is
 * the colour of the face opposite that vertex.
 */
static int
read_scheme(const mpyr_priv_t *pv, picture_t *pic, pz_diag_t *d)
{
    int lacks[NVERT];
    const pkind_t *ax = &pv->kind[P_AXIAL];
    char buf[96];
    int rc =
        puzzle_check_colours(pic->sym, NSTICKERS, NFACES, pic->kind == SYM_CHAR,
                             "master pyraminx", pic->col, pic->syms, d);
    if (rc != PZ_OK) {
        return rc;
    }
    for (int s = 0; s < ax->nslots; s++) {
        const uint8_t *st = ax->slot[s].stk;
        int seen = 0;

        for (int j = 0; j < 3; j++) {
            seen |= 1 << pic->col[st[j]];
        }
        if (pic->col[st[0]] == pic->col[st[1]] ||
            pic->col[st[1]] == pic->col[st[2]] ||
            pic->col[st[0]] == pic->col[st[2]]) {
            slot_colours(pv, pic, P_AXIAL, s, buf, sizeof(buf));
            return pz_diag_set(d, PZ_ECORNER,
                               "the axial at %s has colours %s: it shows "
                               "three different colours on a real puzzle; a "
                               "sticker is misread",
                               ax->slot[s].name, buf);
        }
        lacks[s] = 0;
        while (seen >> lacks[s] & 1) {
            lacks[s]++;
        }
        for (int t = 0; t < s; t++) {
            if (lacks[t] == lacks[s]) {
                sym_show(pic, lacks[s], buf, sizeof(buf));
                return pz_diag_set(d, PZ_ECORNER,
                                   "the axials at %s and %s both lack "
                                   "colour '%s'; each colour is missing "
                                   "from exactly one axial",
                                   ax->slot[t].name, ax->slot[s].name, buf);
            }
        }
    }
    /* Axial slot s sits at vertex s (slots are in vertex order); the face
     * opposite vertex v is the one not among its three faces. */
    for (int s = 0; s < NVERT; s++) {
        for (int f = 0; f < NFACES; f++) {
            bool at_vertex = false;

            for (int j = 0; j < 3; j++) {
                at_vertex = at_vertex || mpyraminx__face_vertex[f][j] == s;
            }
            if (!at_vertex) {
                pic->face_of[lacks[s]] = f;
            }
        }
    }
    return PZ_OK;
}

/* Finds the piece in slot s: returns p * 4 + shift, or -1. */
static int
match_piece(const mpyr_priv_t *pv, const int *face, int kind, int s)
{
    const pkind_t *k = &pv->kind[kind];

    for (int p = 0; p < k->nslots; p++) {
        for (int sh = 0; sh < k->nstk; sh++) {
            int j = 0;

            if (!(k->reach[p][s] >> sh & 1)) {
                continue;
            }
            while (j < k->nstk &&
                   face[k->slot[s].stk[j]] ==
                       home_colour(pv, kind, p, (j + sh) % k->nstk)) {
                j++;
            }
            if (j == k->nstk) {
                return p * 4 + sh;
            }
        }
    }
    return -1;
}

/* Why a piece of kind with the colours of slot s is not a real piece. */
static int
bad_piece(const mpyr_priv_t *pv,
          const picture_t *pic,
          const int *face,
          int kind,
          int s,
          pz_diag_t *d)
{
    const pkind_t *k = &pv->kind[kind];
    const uint8_t *st = k->slot[s].stk;
    char buf[96];
    bool repeated = false;

    slot_colours(pv, pic, kind, s, buf, sizeof(buf));
    for (int i = 0; i < k->nstk; i++) {
        for (int j = i + 1; j < k->nstk; j++) {
            repeated = repeated || face[st[i]] == face[st[j]];
        }
    }
    if (kind == P_MIDGE || kind == P_WING) {
        return pz_diag_set(d, PZ_EEDGE,
                           "the %s at %s has colours %s: a %s shows two "
                           "different colours; a sticker is misread",
                           pkind_name[kind], k->slot[s].name, buf,
                           pkind_name[kind]);
    }
    if (repeated) {
        return pz_diag_set(d, PZ_ECORNER,
                           "the %s at %s has colours %s: a sticker is "
                           "misread",
                           pkind_name[kind], k->slot[s].name, buf);
    }
    /* Three different colours that the axials put elsewhere, or the
     * right three in mirror order. */
    for (int j = 0; j < 3; j++) {
        bool found = false;

        for (int i = 0; i < 3; i++) {
            found = found || face[st[i]] == home_colour(pv, kind, s, j);
        }
        if (!found) {
            return pz_diag_set(d, PZ_ECORNER,
                               "the %s at %s has colours %s, but the "
                               "axials say the faces there are other "
                               "colours: a sticker is misread",
                               pkind_name[kind], k->slot[s].name, buf);
        }
    }
    return pz_diag_set(d, PZ_ECORNER,
                       "the %s at %s has colours %s in mirror order: two "
                       "stickers are swapped",
                       pkind_name[kind], k->slot[s].name, buf);
}

/*
 * Validates a picture and writes the state. Order: colour count, axials
 * (they fix the scheme), then per kind (axials, tips, centres, midges,
 * wings): real pieces, duplicates, then the invariants of the group
 * (docs/master-pyraminx.md): centres, midges and wings each in an even
 * permutation (every turn is a product of 3-cycles) and an even number of
 * flipped midges (every turn flips two or none of the three it carries).
 * Tips and axials twist freely; a wing cannot flip in place (its flipped
 * picture is its twin's, so it shows up as a duplicate or a parity error).
 */
static int
picture_to_state(const mpyr_priv_t *pv,
                 picture_t *pic,
                 pz_state_t *out,
                 pz_diag_t *d)
{
    int face[NSTICKERS];
    int rc = read_scheme(pv, pic, d);

    if (rc != PZ_OK) {
        return rc;
    }
    for (int i = 0; i < NSTICKERS; i++) {
        face[i] = pic->face_of[pic->col[i]];
    }
    for (int o = 0; o < NPKINDS; o++) {
        /* Axials first: they named the colours. */
        int kind = o == 0 ? P_AXIAL : o == 1 ? P_TIP : o;
        const pkind_t *k = &pv->kind[kind];
        uint8_t piece[MAX_SLOTS];
        int where[MAX_SLOTS];
        int flips = 0;
        char buf[96];

        for (int p = 0; p < k->nslots; p++) {
            where[p] = -1;
        }
        for (int s = 0; s < k->nslots; s++) {
            int code = match_piece(pv, face, kind, s);

            if (code < 0) {
                return bad_piece(pv, pic, face, kind, s, d);
            }
            piece[s] = (uint8_t)(code / 4);
            flips += code % 4;
            if (where[piece[s]] >= 0) {
                slot_colours(pv, pic, kind, s, buf, sizeof(buf));
                return pz_diag_set(d, PZ_EDUPLICATE,
                                   "the %s with colours %s appears twice, "
                                   "at %s and %s: a sticker is misread",
                                   pkind_name[kind], buf,
                                   k->slot[where[piece[s]]].name,
                                   k->slot[s].name);
            }
            where[piece[s]] = s;
        }
        if (kind != P_TIP && kind != P_AXIAL &&
            perm_parity(piece, k->nslots) != 0) {
            return pz_diag_set(d, PZ_EPARITY,
                               "the %ss are in an odd permutation: every "
                               "turn moves them in 3-cycles, so two %ss "
                               "are swapped (a misread or a reassembled "
                               "puzzle)",
                               pkind_name[kind], pkind_name[kind]);
        }
        if (kind == P_MIDGE && flips % 2 != 0) {
            return pz_diag_set(d, PZ_EFLIP,
                               "an odd number of midges is flipped: one "
                               "midge is flipped in place");
        }
    }
    pack(face, out);
    return PZ_OK;
}

int
mpyraminx__parse_state(const pz_puzzle_t *p,
                       const pz_input_t *in,
                       pz_state_t *out,
                       pz_diag_t *d)
{
    const mpyr_priv_t *pv = p->priv;
    picture_t pic;
    int n = 0;
    int rc;

    if (in == NULL || (in->text == NULL && in->ints == NULL)) {
        return pz_diag_set(d, PZ_EINVAL, "no state given");
    }
    memset(&pic, 0, sizeof(pic));
    if (in->text != NULL) {
        pic.kind = SYM_CHAR;
        n = puzzle_read_stickers(in->text, pic.sym, NSTICKERS, d);
        if (n < 0) {
            return n;
        }
        if (n != NSTICKERS) {
            return pz_diag_set(d, PZ_ESTATE_LENGTH,
                               "the state has %d stickers; a master "
                               "pyraminx facelet string has 64 (faces F L R "
                               "D, 16 each, rows read from the top vertex)",
                               n);
        }
    } else {
        pic.kind = SYM_INT;
        if (in->nints != NSTICKERS) {
            return pz_diag_set(d, PZ_ESTATE_LENGTH,
                               "the state has %zu numbers; a master "
                               "pyraminx array has 64 (faces F L R D, 16 "
                               "each)",
                               in->nints);
        }
        for (int i = 0; i < NSTICKERS; i++) {
            pic.sym[i] = in->ints[i];
        }
    }
    rc = picture_to_state(pv, &pic, out, d);
    if (rc != PZ_OK) {
        state_clear(out);
    }
    return rc;
}

int
mpyraminx__format_state(const pz_puzzle_t *p,
                        const pz_state_t *s,
                        char *buf,
                        size_t len)
{
    (void)p;
    if (len < NSTICKERS + 1) {
        return PZ_EINVAL;
    }
    for (int i = 0; i < NSTICKERS; i++) {
        buf[i] = mpyraminx__face_letter[get_colour(s, i)];
    }
    buf[NSTICKERS] = '\0';
    return NSTICKERS;
}

/* --- Scrambles --------------------------------------------------------- */

/*
 * Parses one token at text[*at]: [n]X[w][2]['], X one of U L R B, or a
 * lowercase tip u l r b with optional 2 and '. Writes the vertex, the set
 * of turned layers (bit 0 tip .. bit 3 base) and the clockwise turns, and
 * advances *at. Returns false for an unknown token.
 */
static bool
scan_token(const char *text, size_t *at, int *vertex, int *layers, int *turns)
{
    static const char upper[] = "ULRB";
    static const char lower[] = "ulrb";
    size_t i = *at;
    int depth = 0;
    const char *hit;

    if (text[i] >= '1' && text[i] <= '4') {
        depth = text[i] - '0';
        i++;
    }
    if (text[i] == '\0') {
        return false;
    }
    if ((hit = strchr(upper, text[i])) != NULL) {
        *vertex = (int)(hit - upper);
        i++;
        if (text[i] == 'w') {
            /* nXw: layers 1..n; Xw alone: the top three. */
            *layers = (1 << (depth ? depth : 3)) - 1;
            i++;
        } else {
            /* nX: layer n alone; X alone: tip and second layer, as a
             * Pyraminx vertex turn. */
            *layers = depth ? 1 << (depth - 1) : 3;
        }
    } else if (depth == 0 && (hit = strchr(lower, text[i])) != NULL) {
        *vertex = (int)(hit - lower);
        *layers = 1;
        i++;
    } else {
        return false;
    }
    *turns = 1;
    if (text[i] == '2') {
        *turns = 2;
        i++;
    }
    if (text[i] == '\'') {
        *turns = 3 - *turns;
        i++;
    } else if ((unsigned char)text[i] == 0xe2 &&
               (unsigned char)text[i + 1] == 0x80 &&
               (unsigned char)text[i + 2] == 0x99) {
        /* U+2019, the typographic apostrophe word processors insert. */
        *turns = 3 - *turns;
        i += 3;
    }
    *at = i;
    return true;
}

/* Applies a turn of a layer set of vertex v, `turns` times clockwise, with
 * the orientation kept fixed: a set containing the base is the same as
 * its complement turned the other way, then the whole puzzle turned. */
static void
apply_layers(const pz_puzzle_t *p, int v, int layers, int turns, pz_state_t *s)
{
    int dir = turns == 1 ? 0 : 1;

    if (layers & 8) {
        layers = ~layers & 15;
        dir ^= 1;
    }
    if (layers == 7) {
        mpyraminx__apply(p, s, v * 8 + 3 * 2 + dir, s);
        return;
    }
    for (int kind = 0; kind < 3; kind++) {
        if (layers >> kind & 1) {
            mpyraminx__apply(p, s, v * 8 + kind * 2 + dir, s);
        }
    }
}

int
mpyraminx__apply_scramble(const pz_puzzle_t *p,
                          const char *text,
                          pz_state_t *state,
                          pz_diag_t *d)
{
    pz_state_t s = *state;
    size_t at = 0;

    while (text[at] != '\0') {
        size_t start = at;
        int v;
        int layers;
        int turns;

        if (is_space(text[at])) {
            at++;
            continue;
        }
        if (!scan_token(text, &at, &v, &layers, &turns) ||
            (text[at] != '\0' && !is_space(text[at]) &&
             strchr("1234ULRBulrb", text[at]) == NULL)) {
            size_t end = start;
            int len;

            while (text[end] != '\0' && !is_space(text[end])) {
                end++;
            }
            len = (int)(end - start > 32 ? 32 : end - start);
            if (d != NULL) {
                d->position = (int)start;
            }
            return pz_diag_set(d, PZ_EMOVE,
                               "unknown move '%.*s' at position %d; use u l "
                               "r b (tips), 2U 3U (one inner layer), 3Uw "
                               "(three layers), U (two layers), with an "
                               "optional '",
                               len, text + start, (int)start);
        }
        apply_layers(p, v, layers, turns, &s);
    }
    *state = s;
    return PZ_OK;
}
