/* SPDX-License-Identifier: MIT */
/* puzzle.c - puzzle registry, instance lifecycle and shared helpers. */
#include "puzzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "puzzle_internal.h"
#include "search.h"

static const puzzle_ops_t *const registry[] = {
    &puzzle__tiles,     &puzzle__cube2, &puzzle__cube3, &puzzle__pyraminx,
    &puzzle__mpyraminx, &puzzle__skewb, NULL,
};

static const puzzle_alias_t aliases[] = {
    /* Event ids: WCA's where it has one, ours for the others. */
    { "222", "2x2x2", 0, 0, true },
    { "333", "3x3x3", 0, 0, true },
    { "pyram", "pyraminx", 0, 0, true },
    { "mpyram", "master-pyraminx", 0, 0, true },
    { "8-puzzle", "tiles", 3, 3, true },
    { "15-puzzle", "tiles", 4, 4, true },
    { "24-puzzle", "tiles", 5, 5, true },
    { "sliding-tiles", "tiles", 0, 0, false },
    { "pocket", "2x2x2", 0, 0, false },
    { "cube2", "2x2x2", 0, 0, false },
    { "rubik", "3x3x3", 0, 0, false },
    { "cube3", "3x3x3", 0, 0, false },
    { "3x3", "3x3x3", 0, 0, false },
    { "mpyraminx", "master-pyraminx", 0, 0, false },
    { NULL, NULL, 0, 0, false },
};

const puzzle_solving_t puzzle_solving_none = { 0 };

bool
puzzle_same(const pz_puzzle_t *p, const pz_puzzle_t *q)
{
    return p->ops == q->ops && p->params.rows == q->params.rows &&
           p->params.cols == q->params.cols && p->metric == q->metric;
}

const puzzle_ops_t *const *
puzzle_registry(void)
{
    return registry;
}

const puzzle_alias_t *
puzzle_aliases(void)
{
    return aliases;
}

static const puzzle_ops_t *
find_exact(const char *name)
{
    for (int i = 0; registry[i] != NULL; i++) {
        if (strcasecmp(registry[i]->name, name) == 0) {
            return registry[i];
        }
    }
    return NULL;
}

static const puzzle_alias_t *
find_alias(const char *name)
{
    for (int i = 0; aliases[i].alias != NULL; i++) {
        if (strcasecmp(aliases[i].alias, name) == 0) {
            return &aliases[i];
        }
    }
    return NULL;
}

const char *
puzzle_event_id(const pz_puzzle_t *p)
{
    for (int i = 0; aliases[i].alias != NULL; i++) {
        const puzzle_alias_t *a = &aliases[i];

        if (a->event && strcmp(a->target, p->ops->name) == 0 &&
            (a->rows == 0 ||
             (a->rows == p->params.rows && a->cols == p->params.cols))) {
            return a->alias;
        }
    }
    return p->id;
}

const puzzle_ops_t *
puzzle_find(const char *name)
{
    const puzzle_ops_t *ops;
    const puzzle_alias_t *a;

    if (name == NULL) {
        return NULL;
    }
    ops = find_exact(name);
    if (ops != NULL) {
        return ops;
    }
    a = find_alias(name);
    return a != NULL ? find_exact(a->target) : NULL;
}

/* Fills p->allowed_after from the puzzle's inverse and redundancy rules. */
static void
build_move_masks(pz_puzzle_t *p)
{
    uint64_t all =
        p->nmoves >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << p->nmoves) - 1;

    for (int prev = 0; prev < p->nmoves; prev++) {
        uint64_t mask = all;

        mask &= ~(UINT64_C(1) << puzzle_inverse(p, prev));
        for (int next = 0; next < p->nmoves; next++) {
            if (puzzle_redundant(p, prev, next)) {
                mask &= ~(UINT64_C(1) << next);
            }
        }
        p->allowed_after[prev] = mask;
    }
    p->allowed_after[p->nmoves] = all;
}

int
puzzle_create(const char *name,
              const pz_params_t *params,
              pz_puzzle_t **out,
              pz_diag_t *d)
{
    const puzzle_ops_t *ops;
    const puzzle_alias_t *a = NULL;
    pz_params_t prm = { 0, 0, 0 };
    pz_puzzle_t *p = NULL;
    int rc;

    *out = NULL;
    ops = name != NULL ? find_exact(name) : NULL;
    if (ops == NULL && name != NULL) {
        a = find_alias(name);
        ops = a != NULL ? find_exact(a->target) : NULL;
    }
    if (ops == NULL) {
        return pz_diag_set(d, PZ_EPUZZLE,
                           "unknown puzzle '%s'; GET /v1/puzzles lists them",
                           name != NULL ? name : "");
    }
    if (params != NULL) {
        prm = *params;
    }
    if (a != NULL && prm.rows == 0 && prm.cols == 0) {
        prm.rows = a->rows;
        prm.cols = a->cols;
    }
    p = calloc(1, sizeof(*p));
    if (p == NULL) {
        return pz_diag_set(d, PZ_ENOMEM, "out of memory");
    }
    p->ops = ops;
    /* calloc left the last byte zero. */
    strncpy(p->id, ops->name, sizeof(p->id) - 1);
    if (ops->priv_size > 0) {
        p->priv = calloc(1, ops->priv_size);
        if (p->priv == NULL) {
            rc = pz_diag_set(d, PZ_ENOMEM, "out of memory");
            goto fail;
        }
    }
    rc = ops->init(p, &prm, d);
    if (rc != PZ_OK) {
        goto fail;
    }
    p->params.metric = p->metric;
    if (p->nmoves <= 0 || p->nmoves > PZ_MOVES_MAX || p->state_size == 0 ||
        p->state_size > PZ_STATE_MAX) {
        rc = pz_diag_set(d, PZ_EINTERNAL, "puzzle '%s' is misconfigured",
                         ops->name);
        goto fail;
    }
    build_move_masks(p);
    *out = p;
    return PZ_OK;
fail:
    puzzle_destroy(p);
    return rc;
}

void
puzzle_destroy(pz_puzzle_t *p)
{
    if (p == NULL) {
        return;
    }
    if (p->ops != NULL && p->ops->cleanup != NULL) {
        p->ops->cleanup(p);
    }
    if (p->ops != NULL && p->ops->priv_size > 0) {
        free(p->priv);
    }
    free(p->mask);
    free(p);
}

int
puzzle_parse_state(const pz_puzzle_t *p,
                   const pz_input_t *in,
                   pz_state_t *out,
                   pz_diag_t *d)
{
    state_clear(out);
    if (p->ops->io == NULL) {
        return pz_diag_set(d, PZ_EUNSUPPORTED, "%s takes no state input",
                           p->id);
    }
    return p->ops->io->parse_state(p, in, out, d);
}

int
puzzle_read_stickers(const char *text, int *sym, int max, pz_diag_t *d)
{
    const unsigned char *t = (const unsigned char *)text;
    int n = 0;

    for (const unsigned char *c = t; *c != '\0'; c++) {
        if (*c == ' ' || (*c >= '\t' && *c <= '\r')) {
            continue;
        }
        if (*c < 0x20 || *c >= 0x7f) {
            if (d != NULL) {
                d->position = (int)(c - t);
            }
            return pz_diag_set(d, PZ_ESTATE_SYMBOL,
                               "character %d of the state is not a printable "
                               "ASCII character; use one letter or digit per "
                               "colour",
                               (int)(c - t));
        }
        if (n < max) {
            sym[n] = *c;
        }
        n++;
    }
    return n;
}

int
puzzle_check_colours(const int *sym,
                     int n,
                     int ncolours,
                     bool is_char,
                     const char *puzzle,
                     int *col,
                     int *syms,
                     pz_diag_t *d)
{
    int count[PUZZLE_STICKERS_MAX] = { 0 };
    int each = ncolours > 0 ? n / ncolours : 0;
    int nsyms = 0;
    int bad = -1;
    char buf[16];

    if (n < 0 || n > PUZZLE_STICKERS_MAX || each * ncolours != n) {
        return pz_diag_set(d, PZ_EINVAL, "%d stickers in %d colours", n,
                           ncolours);
    }
    for (int i = 0; i < n; i++) {
        int c = 0;

        while (c < nsyms && syms[c] != sym[i]) {
            c++;
        }
        if (c == nsyms) {
            syms[nsyms++] = sym[i];
        }
        col[i] = c;
        count[c]++;
    }
    if (nsyms > ncolours) {
        bad = 0;
        for (int c = 1; c < nsyms; c++) {
            bad = count[c] < count[bad] ? c : bad;
        }
    } else {
        for (int pass = 0; pass < 2 && bad < 0; pass++) {
            for (int c = 0; c < nsyms && bad < 0; c++) {
                if (pass == 0 ? count[c] > each : count[c] != each) {
                    bad = c;
                }
            }
        }
        if (bad < 0) {
            return PZ_OK;
        }
    }
    if (is_char) {
        snprintf(buf, sizeof(buf), "%c", (char)syms[bad]);
    } else {
        snprintf(buf, sizeof(buf), "%d", syms[bad]);
    }
    if (nsyms > ncolours) {
        return pz_diag_set(d, PZ_ECOLOUR_COUNT,
                           "the state has %d colours ('%s' appears %d "
                           "time%s); a %s has %d colours, each appearing %d "
                           "times",
                           nsyms, buf, count[bad], count[bad] == 1 ? "" : "s",
                           puzzle, ncolours, each);
    }
    return pz_diag_set(d, PZ_ECOLOUR_COUNT,
                       "colour '%s' appears %d time%s; each of the %d "
                       "colours must appear %d times",
                       buf, count[bad], count[bad] == 1 ? "" : "s", ncolours,
                       each);
}

int
puzzle_apply_scramble(const pz_puzzle_t *p,
                      const char *text,
                      pz_state_t *state,
                      pz_diag_t *d)
{
    if (p->ops->io == NULL) {
        return pz_diag_set(d, PZ_EUNSUPPORTED, "%s takes no scramble", p->id);
    }
    return p->ops->io->apply_scramble(p, text != NULL ? text : "", state, d);
}

static bool
is_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* One token at text[*at]: its move id (see puzzle_apply_letter_scramble)
 * and the times it is played, or -1 for an unknown letter. */
static int
scan_letter_token(const char *letters, const char *text, size_t *at, int *times)
{
    size_t i = *at;
    const char *hit = text[i] != '\0' ? strchr(letters, text[i]) : NULL;
    int move;

    if (hit == NULL) {
        return -1;
    }
    move = (int)(hit - letters) * 2;
    i++;
    *times = 1;
    if (text[i] == '2') {
        *times = 2;
        i++;
    }
    if (text[i] == '\'') {
        move++;
        i++;
    } else if ((unsigned char)text[i] == 0xe2 &&
               (unsigned char)text[i + 1] == 0x80 &&
               (unsigned char)text[i + 2] == 0x99) {
        move++;
        i += 3;
    }
    *at = i;
    return move;
}

int
puzzle_apply_letter_scramble(const pz_puzzle_t *p,
                             const char *letters,
                             const char *hint,
                             const char *text,
                             pz_state_t *state,
                             pz_diag_t *d)
{
    pz_state_t s = *state;
    size_t at = 0;

    while (text[at] != '\0') {
        size_t start = at;
        int times = 1;
        int move;

        if (is_space(text[at])) {
            at++;
            continue;
        }
        move = scan_letter_token(letters, text, &at, &times);
        /* A token ends at a space, the end, or the next move letter. */
        if (move < 0 || (text[at] != '\0' && !is_space(text[at]) &&
                         strchr(letters, text[at]) == NULL)) {
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
                               "unknown move '%.*s' at position %d; %s", len,
                               text + start, (int)start, hint);
        }
        for (int k = 0; k < times; k++) {
            puzzle_apply(p, &s, move, &s);
        }
    }
    *state = s;
    return PZ_OK;
}

int
puzzle_parse_scramble(const pz_puzzle_t *p,
                      const char *text,
                      pz_state_t *out,
                      pz_diag_t *d)
{
    puzzle_goal(p, out);
    return puzzle_apply_scramble(p, text, out, d);
}

int
puzzle_check_pair(const pz_puzzle_t *p,
                  const pz_state_t *start,
                  const pz_state_t *goal,
                  pz_diag_t *d)
{
    if (p->ops->io == NULL || p->ops->io->check_pair == NULL) {
        return PZ_OK;
    }
    return p->ops->io->check_pair(p, start, goal, d);
}

int
puzzle_replay(const pz_puzzle_t *p,
              const pz_state_t *start,
              const uint8_t *moves,
              int n,
              pz_state_t *out)
{
    pz_state_t s = *start;

    for (int i = 0; i < n; i++) {
        if (moves[i] >= p->nmoves || !puzzle_apply(p, &s, moves[i], &s)) {
            return PZ_EINVAL;
        }
    }
    *out = s;
    return PZ_OK;
}

int
puzzle_move_index(const pz_puzzle_t *p, const char *name)
{
    for (int m = 0; m < p->nmoves; m++) {
        if (strcmp(puzzle_move_name(p, m), name) == 0) {
            return m;
        }
    }
    return -1;
}

void
puzzle_scramble_of_solution(const pz_puzzle_t *p,
                            const uint8_t *sol,
                            int n,
                            uint8_t *out)
{
    bool (*last)(const pz_puzzle_t *, int) =
        p->ops->io != NULL ? p->ops->io->move_last : NULL;
    int k = 0;

    for (int pass = 0; pass < (last != NULL ? 2 : 1); pass++) {
        for (int i = n - 1; i >= 0; i--) {
            int m = puzzle_inverse(p, sol[i]);

            if (last == NULL || last(p, m) == (pass == 1)) {
                out[k++] = (uint8_t)m;
            }
        }
    }
}

int
puzzle_format_moves(const pz_puzzle_t *p,
                    const uint8_t *moves,
                    int n,
                    char *buf,
                    size_t len)
{
    size_t used = 0;

    if (len == 0) {
        return PZ_EINVAL;
    }
    buf[0] = '\0';
    /* Copied by hand: a reply formats its solution once per render, and
     * snprintf per move cost more than the rest of the render's text. */
    for (int i = 0; i < n; i++) {
        const char *name = puzzle_move_name(p, moves[i]);
        size_t w = strlen(name);
        size_t sep = i > 0 ? 1 : 0;

        if (sep + w >= len - used) {
            return PZ_EINVAL;
        }
        if (sep != 0) {
            buf[used] = ' ';
        }
        memcpy(buf + used + sep, name, w);
        used += sep + w;
        buf[used] = '\0';
    }
    return (int)used;
}

int
puzzle_random_moves(const pz_puzzle_t *p,
                    const pz_state_t *start,
                    int n,
                    pz_rand_fn rand,
                    void *rng,
                    uint8_t *moves)
{
    pz_state_t s = *start;
    int prev = -1;

    if (n < 0 || n > PZ_SOLUTION_MAX) {
        return PZ_EINVAL;
    }
    for (int i = 0; i < n; i++) {
        uint64_t allowed = puzzle_allowed_after(p, prev);
        int cand[PZ_MOVES_MAX];
        int ncand = 0;
        pz_state_t next;

        /* Only moves legal here are candidates, so a tile scramble never
         * walks off the board. */
        for (int pass = 0; pass < 2 && ncand == 0; pass++) {
            /* A pruning rule may leave no move after prev (the pyraminx
             * puts tip turns last, so nothing follows the last tip turn):
             * a scramble then simply goes on as if from the start. */
            if (pass == 1) {
                allowed = puzzle_allowed_after(p, -1);
            }
            for (int m = 0; m < p->nmoves; m++) {
                if ((allowed >> m & 1) && puzzle_apply(p, &s, m, &next)) {
                    cand[ncand++] = m;
                }
            }
        }
        if (ncand == 0) {
            return PZ_EINTERNAL;
        }
        prev = cand[pz_rand_below(rand, rng, (uint64_t)ncand)];
        puzzle_apply(p, &s, prev, &s);
        moves[i] = (uint8_t)prev;
    }
    return PZ_OK;
}

puzzle_shape_t *
puzzle_picture_add(puzzle_picture_t *pic,
                   int npoints,
                   const double *x,
                   const double *y,
                   uint32_t rgb)
{
    puzzle_shape_t *sh;

    if (pic->nshapes >= PUZZLE_PICTURE_SHAPES || npoints < 3 ||
        npoints > PUZZLE_SHAPE_POINTS) {
        return NULL;
    }
    sh = &pic->shape[pic->nshapes++];
    memset(sh, 0, sizeof(*sh));
    sh->npoints = npoints;
    for (int i = 0; i < npoints; i++) {
        sh->x[i] = x[i];
        sh->y[i] = y[i];
    }
    sh->rgb = rgb;
    sh->sticker = pic->nshapes - 1;
    return sh;
}
