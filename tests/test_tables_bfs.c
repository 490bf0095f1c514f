/* SPDX-License-Identifier: MIT */
/* test_tables_bfs.c - the breadth-first table builder on a toy puzzle. */

/*
 * The toy: a state is (r, c), r on a cycle of R rows (moves r + 1 and
 * r - 1; "path" rows do not wrap, and the move off the end does not
 * apply) and c a bit string of C bits (a move flips one bit). Entry
 * (r, c) is state (r, c). Its symmetry sigma(r, c) = (-r mod R, c with its
 * bits reversed) maps moves onto moves and keeps the distances from goals
 * it fixes, so sigma(r, c) is a twin of (r, c), in another row. With
 * "conj", a move lands in sigma's frame for half the (row, move) pairs (a
 * hash decides): the target row is then -r' and the column map the move
 * then the reversal, as a client with symmetry-reduced rows would give
 * it, and only the twins keep the table complete.
 *
 * The reference distances come from a plain queue BFS over the states
 * with the true moves, written here, independently of the builder. The
 * runs with several workers go through tables_blob_get, which hands the
 * build function a build object with the runner below.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "tables.h"
#include "tables/bfs.h"
#include "tmpdir_testlib.h"

#define CBITS_MAX 13

/* One toy puzzle and its maps. */
typedef struct toy {
    uint32_t rows;   /* R */
    int cbits;       /* C: columns are 2^C */
    bool path;       /* rows do not wrap */
    bool conj;       /* moves land in sigma's frame at random */
    bool wide;       /* uint32_t maps */
    int flips;       /* column bits the moves flip (<= cbits) */
    uint32_t rowlen; /* 2^C */
    uint16_t *id16;  /* identity */
    uint16_t *rev16; /* bits reversed */
    uint16_t *flip16[CBITS_MAX];
    uint32_t *id32;
    uint32_t *rev32;
    uint32_t *flip32[CBITS_MAX];
    uint8_t *ref; /* reference distances, 255: unreachable */
    int ref_max;  /* largest reference distance */
    uint64_t ngoals;
    uint64_t goals[2];
} toy_t;

static uint32_t
rev_bits(uint32_t c, int bits)
{
    uint32_t r = 0;

    for (int i = 0; i < bits; i++) {
        r |= (c >> i & 1u) << (bits - 1 - i);
    }
    return r;
}

/* Whether move m from row r lands in sigma's frame (conj toys). */
static bool
conj_of(const toy_t *t, uint64_t r, int m)
{
    uint32_t h = (uint32_t)(r * 2654435761u) ^ (uint32_t)m * 40503u;

    return t->conj && (h >> 7 & 1u) != 0;
}

/* The true target row of a row move (m 0: +1, 1: -1), or UINT64_MAX. */
static uint64_t
row_step(const toy_t *t, uint64_t r, int m)
{
    if (m == 0) {
        return r + 1 < t->rows ? r + 1 : t->path ? UINT64_MAX : 0;
    }
    return r > 0 ? r - 1 : t->path ? UINT64_MAX : t->rows - 1;
}

static uint64_t
neg_row(const toy_t *t, uint64_t r)
{
    return (t->rows - r) % t->rows;
}

static const void *
map_of(const toy_t *t, int which)
{
    /* which: -1 identity, -2 reversal, else a bit flip. */
    if (which == -1) {
        return t->wide ? (const void *)t->id32 : (const void *)t->id16;
    }
    if (which == -2) {
        return t->wide ? (const void *)t->rev32 : (const void *)t->rev16;
    }
    return t->wide ? (const void *)t->flip32[which]
                   : (const void *)t->flip16[which];
}

/* The builder's moves callback: moves 0, 1 change the row, 2 .. 2 +
 * flips - 1 flip a bit of the column. */
static void
toy_moves(void *arg, uint64_t row, tables_bfs_edge_t *out, void *scratch)
{
    const toy_t *t = arg;

    (void)scratch;
    for (int m = 0; m < 2 + t->flips; m++) {
        bool sig = conj_of(t, row, m);
        uint64_t r2 = m < 2 ? row_step(t, row, m) : row;

        if (r2 == UINT64_MAX) {
            out[m].row = TABLES_BFS_NO_ROW;
            out[m].map = NULL;
            out[m].then = NULL;
            continue;
        }
        out[m].row = sig ? neg_row(t, r2) : r2;
        out[m].map = map_of(t, m < 2 ? -1 : m - 2);
        out[m].then = sig ? map_of(t, -2) : NULL;
    }
}

static int
toy_twins(void *arg, uint64_t row, tables_bfs_edge_t *out, void *scratch)
{
    const toy_t *t = arg;

    (void)scratch;
    out[0].row = neg_row(t, row);
    out[0].map = map_of(t, -2);
    out[0].then = NULL;
    return 1;
}

/* The reference: a queue BFS over (r, c) with the true moves. */
static void
toy_reference(toy_t *t)
{
    uint64_t n = (uint64_t)t->rows * t->rowlen;
    uint64_t *queue = malloc(n * sizeof(*queue));
    uint64_t head = 0;
    uint64_t tail = 0;

    ck_assert_ptr_nonnull(queue);
    t->ref = malloc(n);
    ck_assert_ptr_nonnull(t->ref);
    memset(t->ref, 255, n);
    for (uint64_t g = 0; g < t->ngoals; g++) {
        if (t->ref[t->goals[g]] != 0) {
            t->ref[t->goals[g]] = 0;
            queue[tail++] = t->goals[g];
        }
    }
    t->ref_max = 0;
    while (head < tail) {
        uint64_t i = queue[head++];
        uint64_t r = i / t->rowlen;
        uint32_t c = (uint32_t)(i % t->rowlen);

        for (int m = 0; m < 2 + t->flips; m++) {
            uint64_t r2 = m < 2 ? row_step(t, r, m) : r;
            uint32_t c2 = m < 2 ? c : c ^ (1u << (m - 2));
            uint64_t j;

            if (r2 == UINT64_MAX) {
                continue;
            }
            j = r2 * t->rowlen + c2;
            if (t->ref[j] == 255) {
                t->ref[j] = (uint8_t)(t->ref[i] + 1);
                t->ref_max = t->ref[j];
                queue[tail++] = j;
            }
        }
    }
    free(queue);
}

/* A toy of rows x 2^cbits; goal (0, 0), and (0, all ones) when two. */
static void
toy_init(toy_t *t, uint32_t rows, int cbits, int ngoals)
{
    memset(t, 0, sizeof(*t));
    t->rows = rows;
    t->cbits = cbits;
    t->flips = cbits;
    t->rowlen = 1u << cbits;
    t->id16 = malloc(t->rowlen * sizeof(uint16_t));
    t->rev16 = malloc(t->rowlen * sizeof(uint16_t));
    t->id32 = malloc(t->rowlen * sizeof(uint32_t));
    t->rev32 = malloc(t->rowlen * sizeof(uint32_t));
    ck_assert(t->id16 && t->rev16 && t->id32 && t->rev32);
    for (int b = 0; b < cbits; b++) {
        t->flip16[b] = malloc(t->rowlen * sizeof(uint16_t));
        t->flip32[b] = malloc(t->rowlen * sizeof(uint32_t));
        ck_assert(t->flip16[b] && t->flip32[b]);
    }
    for (uint32_t c = 0; c < t->rowlen; c++) {
        t->id16[c] = (uint16_t)c;
        t->id32[c] = c;
        t->rev16[c] = (uint16_t)rev_bits(c, cbits);
        t->rev32[c] = rev_bits(c, cbits);
        for (int b = 0; b < cbits; b++) {
            t->flip16[b][c] = (uint16_t)(c ^ (1u << b));
            t->flip32[b][c] = c ^ (1u << b);
        }
    }
    t->ngoals = (uint64_t)ngoals;
    t->goals[0] = 0;
    t->goals[1] = t->rowlen - 1;
}

static void
toy_free(toy_t *t)
{
    free(t->id16);
    free(t->rev16);
    free(t->id32);
    free(t->rev32);
    for (int b = 0; b < t->cbits; b++) {
        free(t->flip16[b]);
        free(t->flip32[b]);
    }
    free(t->ref);
}

static uint64_t
toy_entries(const toy_t *t)
{
    return (uint64_t)t->rows * t->rowlen;
}

/* A spec for the toy in code; the caller allocates data. */
static void
toy_spec(toy_t *t, tables_bfs_code_t code, tables_bfs_spec_t *sp)
{
    memset(sp, 0, sizeof(*sp));
    sp->nrows = t->rows;
    sp->rowlen = t->rowlen;
    sp->nmoves = 2 + t->flips;
    sp->wide = t->wide;
    sp->moves = toy_moves;
    /* sigma is a symmetry of the cycle with every bit flipped only. */
    if (!t->path && t->flips == t->cbits) {
        sp->twins = toy_twins;
        sp->max_twins = 1;
    }
    sp->arg = t;
    sp->code = code;
    sp->goals = t->goals;
    sp->ngoals = (size_t)t->ngoals;
}

/* Runs spec alone on this thread into fresh data (returned, owned). */
static uint8_t *
run_alone(tables_bfs_spec_t *sp, tables_bfs_result_t *res, int want_rc)
{
    uint64_t entries = sp->nrows * sp->rowlen;
    uint8_t *data = malloc(tables_bfs_bytes(sp->code, entries));

    ck_assert_ptr_nonnull(data);
    sp->data = data;
    ck_assert_int_eq(tables_bfs_run(sp, NULL, res), want_rc);
    return data;
}

/* Checks res's counts against the reference, clamp applied. */
static void
check_counts(const toy_t *t, const tables_bfs_result_t *res, int clamp)
{
    uint64_t want[TABLES_BFS_DEPTH_MAX + 1] = { 0 };
    uint64_t reached = 0;
    int top = 0;

    for (uint64_t i = 0; i < toy_entries(t); i++) {
        int d = t->ref[i];

        if (d == 255) {
            continue;
        }
        if (clamp != 0 && d > clamp) {
            d = clamp;
        }
        want[d]++;
        reached++;
        top = d > top ? d : top;
    }
    for (int d = 0; d <= TABLES_BFS_DEPTH_MAX; d++) {
        ck_assert_uint_eq(res->counts[d], want[d]);
    }
    ck_assert_uint_eq(res->reached, reached);
    ck_assert_int_eq(res->max_depth, top);
}

/* --- codes ------------------------------------------------------------- */

START_TEST(test_tables_bfs_run_mod3_matches_reference)
{
    toy_t t;
    tables_bfs_spec_t sp;
    tables_bfs_result_t res;
    uint8_t *data;

    toy_init(&t, 256, 10, 1);
    toy_reference(&t);
    ck_assert_int_gt(t.ref_max, 100);
    toy_spec(&t, TABLES_BFS_MOD3, &sp);
    data = run_alone(&sp, &res, PZ_OK);
    for (uint64_t i = 0; i < toy_entries(&t); i++) {
        ck_assert_uint_eq(tables_bfs_get(data, TABLES_BFS_MOD3, i),
                          t.ref[i] % 3u);
    }
    check_counts(&t, &res, 0);
    free(data);
    toy_free(&t);
}
END_TEST

START_TEST(test_tables_bfs_run_exact8_matches_reference)
{
    toy_t t;
    tables_bfs_spec_t sp;
    tables_bfs_result_t res;
    uint8_t *data;

    toy_init(&t, 256, 10, 1);
    toy_reference(&t);
    toy_spec(&t, TABLES_BFS_EXACT8, &sp);
    data = run_alone(&sp, &res, PZ_OK);
    ck_assert_mem_eq(data, t.ref, (size_t)toy_entries(&t));
    check_counts(&t, &res, 0);
    free(data);
    toy_free(&t);
}
END_TEST

START_TEST(test_tables_bfs_run_exact4_matches_reference)
{
    toy_t t;
    tables_bfs_spec_t sp;
    tables_bfs_result_t res;
    uint8_t *data;

    /* Two goals keep every distance within 8 + 6 = 14. */
    toy_init(&t, 16, 12, 2);
    toy_reference(&t);
    ck_assert_int_eq(t.ref_max, 14);
    toy_spec(&t, TABLES_BFS_EXACT4, &sp);
    data = run_alone(&sp, &res, PZ_OK);
    for (uint64_t i = 0; i < toy_entries(&t); i++) {
        ck_assert_uint_eq(tables_bfs_get(data, TABLES_BFS_EXACT4, i), t.ref[i]);
    }
    check_counts(&t, &res, 0);
    free(data);
    toy_free(&t);
}
END_TEST

START_TEST(test_tables_bfs_run_exact4_too_deep_is_erange)
{
    toy_t t;
    tables_bfs_spec_t sp;
    uint8_t *data;

    toy_init(&t, 64, 8, 1);
    toy_spec(&t, TABLES_BFS_EXACT4, &sp);
    data = run_alone(&sp, NULL, PZ_ERANGE);
    free(data);
    toy_free(&t);
}
END_TEST

START_TEST(test_tables_bfs_run_exact4_second_output_saturates)
{
    toy_t t;
    tables_bfs_spec_t sp;
    tables_bfs_result_t res;
    uint64_t n;
    uint8_t *data;
    uint8_t *exact4;

    toy_init(&t, 128, 9, 1);
    toy_reference(&t);
    ck_assert_int_gt(t.ref_max, 15);
    n = toy_entries(&t);
    exact4 = malloc(tables_bfs_bytes(TABLES_BFS_EXACT4, n));
    ck_assert_ptr_nonnull(exact4);
    /* Garbage first: the builder zeroes it. */
    memset(exact4, 0xa5, tables_bfs_bytes(TABLES_BFS_EXACT4, n));
    toy_spec(&t, TABLES_BFS_MOD3, &sp);
    sp.exact4 = exact4;
    data = run_alone(&sp, &res, PZ_OK);
    for (uint64_t i = 0; i < n; i++) {
        unsigned d = t.ref[i];

        ck_assert_uint_eq(tables_bfs_get(data, TABLES_BFS_MOD3, i), d % 3u);
        ck_assert_uint_eq(tables_bfs_get(exact4, TABLES_BFS_EXACT4, i),
                          d > 15 ? 15u : d);
    }
    free(exact4);
    free(data);
    toy_free(&t);
}
END_TEST

/* --- clamp ------------------------------------------------------------- */

START_TEST(test_tables_bfs_run_mod3_clamp_leaves_far_unseen)
{
    toy_t t;
    tables_bfs_spec_t sp;
    tables_bfs_result_t res;
    uint8_t *data;

    toy_init(&t, 256, 10, 1);
    toy_reference(&t);
    toy_spec(&t, TABLES_BFS_MOD3, &sp);
    sp.clamp = 20;
    data = run_alone(&sp, &res, PZ_OK);
    for (uint64_t i = 0; i < toy_entries(&t); i++) {
        unsigned want = t.ref[i] >= 20 ? 3u : t.ref[i] % 3u;

        ck_assert_uint_eq(tables_bfs_get(data, TABLES_BFS_MOD3, i), want);
    }
    check_counts(&t, &res, 20);
    free(data);
    toy_free(&t);
}
END_TEST

START_TEST(test_tables_bfs_run_exact_clamp_stores_clamp)
{
    static const tables_bfs_code_t codes[] = { TABLES_BFS_EXACT4,
                                               TABLES_BFS_EXACT8 };
    static const int clamps[] = { 9, 15, 30 };
    toy_t t;

    toy_init(&t, 256, 10, 1);
    toy_reference(&t);
    for (int k = 0; k < 3; k++) {
        tables_bfs_code_t code = codes[k == 2];
        tables_bfs_spec_t sp;
        tables_bfs_result_t res;
        uint8_t *data;

        toy_spec(&t, code, &sp);
        sp.clamp = clamps[k];
        data = run_alone(&sp, &res, PZ_OK);
        for (uint64_t i = 0; i < toy_entries(&t); i++) {
            int want = t.ref[i] > clamps[k] ? clamps[k] : t.ref[i];

            ck_assert_uint_eq(tables_bfs_get(data, code, i), (unsigned)want);
        }
        check_counts(&t, &res, clamps[k]);
        free(data);
    }
    toy_free(&t);
}
END_TEST

/* --- twins, maps, moves that do not apply ------------------------------- */

START_TEST(test_tables_bfs_run_twins_in_other_frames_complete)
{
    toy_t t;
    tables_bfs_spec_t sp;
    tables_bfs_result_t res;
    uint8_t *data;

    toy_init(&t, 256, 10, 1);
    t.conj = true;
    toy_reference(&t);
    toy_spec(&t, TABLES_BFS_EXACT8, &sp);
    data = run_alone(&sp, &res, PZ_OK);
    ck_assert_mem_eq(data, t.ref, (size_t)toy_entries(&t));
    check_counts(&t, &res, 0);
    free(data);
    toy_free(&t);
}
END_TEST

START_TEST(test_tables_bfs_run_wide_maps_same_table)
{
    toy_t t;
    tables_bfs_spec_t sp;
    uint8_t *narrow;
    uint8_t *wide;

    toy_init(&t, 64, 11, 1);
    t.conj = true;
    toy_spec(&t, TABLES_BFS_MOD3, &sp);
    narrow = run_alone(&sp, NULL, PZ_OK);
    t.wide = true;
    toy_spec(&t, TABLES_BFS_MOD3, &sp);
    wide = run_alone(&sp, NULL, PZ_OK);
    ck_assert_mem_eq(
        narrow, wide,
        (size_t)tables_bfs_bytes(TABLES_BFS_MOD3, toy_entries(&t)));
    free(narrow);
    free(wide);
    toy_free(&t);
}
END_TEST

START_TEST(test_tables_bfs_run_no_row_and_unreachable_stay_unseen)
{
    toy_t t;
    tables_bfs_spec_t sp;
    tables_bfs_result_t res;
    uint8_t *data;
    uint64_t unreachable = 0;

    /* Rows on a path (the moves off its ends do not apply), and the top
     * column bit never flipped: half the columns are out of reach. */
    toy_init(&t, 200, 10, 1);
    t.path = true;
    t.flips = 9;
    toy_reference(&t);
    toy_spec(&t, TABLES_BFS_EXACT8, &sp);
    data = run_alone(&sp, &res, PZ_OK);
    ck_assert_mem_eq(data, t.ref, (size_t)toy_entries(&t));
    for (uint64_t i = 0; i < toy_entries(&t); i++) {
        unreachable += t.ref[i] == 255;
    }
    ck_assert_uint_eq(unreachable, toy_entries(&t) / 2);
    check_counts(&t, &res, 0);
    free(data);
    toy_free(&t);
}
END_TEST

/* --- bad specs ----------------------------------------------------------- */

START_TEST(test_tables_bfs_run_bad_spec_is_einval)
{
    toy_t t;
    tables_bfs_spec_t sp;
    uint8_t data[256];
    uint64_t far = 1u << 20;

    toy_init(&t, 8, 4, 1);
    ck_assert_int_eq(tables_bfs_run(NULL, NULL, NULL), PZ_EINVAL);
    toy_spec(&t, TABLES_BFS_MOD3, &sp);
    sp.data = data;
    sp.moves = NULL;
    ck_assert_int_eq(tables_bfs_run(&sp, NULL, NULL), PZ_EINVAL);
    toy_spec(&t, TABLES_BFS_MOD3, &sp);
    sp.data = data;
    sp.goals = &far;
    ck_assert_int_eq(tables_bfs_run(&sp, NULL, NULL), PZ_EINVAL);
    toy_spec(&t, TABLES_BFS_EXACT4, &sp);
    sp.data = data;
    sp.clamp = 16;
    ck_assert_int_eq(tables_bfs_run(&sp, NULL, NULL), PZ_EINVAL);
    toy_spec(&t, TABLES_BFS_MOD3, &sp);
    sp.data = data;
    sp.nmoves = TABLES_BFS_MOVES_MAX + 1;
    ck_assert_int_eq(tables_bfs_run(&sp, NULL, NULL), PZ_EINVAL);
    toy_spec(&t, TABLES_BFS_MOD3, &sp);
    sp.data = NULL;
    ck_assert_int_eq(tables_bfs_run(&sp, NULL, NULL), PZ_EINVAL);
    toy_free(&t);
}
END_TEST

START_TEST(test_tables_bfs_bytes_per_code)
{
    ck_assert_uint_eq(tables_bfs_bytes(TABLES_BFS_MOD3, 9), 3);
    ck_assert_uint_eq(tables_bfs_bytes(TABLES_BFS_EXACT4, 9), 5);
    ck_assert_uint_eq(tables_bfs_bytes(TABLES_BFS_EXACT8, 9), 9);
    ck_assert_int_eq(tables_bfs_workers(NULL), 1);
}
END_TEST

/* --- workers and cancel, through a build object ------------------------- */

/* A runner that gives each part of a build step its own thread. */
static void *
part_main(void *arg)
{
    void **a = arg;
    tables_task_fn fn = *(tables_task_fn *)a[0];

    fn(a[1], (int)(intptr_t)a[2]);
    return NULL;
}

static void
thread_runner(void *ctx, int n, tables_task_fn fn, void *arg)
{
    pthread_t th[8];
    void *args[8][3];

    (void)ctx;
    ck_assert_int_le(n, 8);
    for (int i = 0; i < n; i++) {
        args[i][0] = &fn;
        args[i][1] = arg;
        args[i][2] = (void *)(intptr_t)i;
        ck_assert_int_eq(pthread_create(&th[i], NULL, part_main, args[i]), 0);
    }
    for (int i = 0; i < n; i++) {
        pthread_join(th[i], NULL);
    }
}

/* What the blob build below did. */
static toy_t g_toy;
static tables_bfs_result_t g_res;
static atomic_int g_rc;
static atomic_int g_workers;
static atomic_int g_progress;

static int
toy_blob_build(void *arg, uint8_t *data, uint64_t bytes, tables_build_t *b)
{
    tables_bfs_spec_t sp;
    int rc;

    (void)arg;
    toy_spec(&g_toy, TABLES_BFS_MOD3, &sp);
    ck_assert_uint_eq(bytes,
                      tables_bfs_bytes(TABLES_BFS_MOD3, toy_entries(&g_toy)));
    sp.data = data;
    atomic_store(&g_workers, tables_bfs_workers(b));
    rc = tables_bfs_run(&sp, b, &g_res);
    atomic_store(&g_rc, rc);
    return rc;
}

/* Builds the toy as blob name with workers workers (1: no runner) in a
 * fresh directory; returns a copy of its bytes (owned) or NULL. */
static uint8_t *
build_blob(const char *name, int workers, int *rc_out)
{
    char dir[64];
    tables_blob_def_t def;
    const uint8_t *data = NULL;
    uint8_t *copy = NULL;

    tmpdir_make(dir, sizeof(dir), "pz-bfs");
    ck_assert_int_eq(tables_set_dir(dir), PZ_OK);
    tables_set_runner(workers > 1 ? thread_runner : NULL, NULL, workers);
    memset(&def, 0, sizeof(def));
    def.name = name;
    def.group = "test";
    def.puzzle = "toy";
    def.bytes = tables_bfs_bytes(TABLES_BFS_MOD3, toy_entries(&g_toy));
    def.version = 1;
    def.build = toy_blob_build;
    *rc_out = tables_blob_get(&def, &data, NULL);
    if (*rc_out == PZ_OK) {
        copy = malloc((size_t)def.bytes);
        ck_assert_ptr_nonnull(copy);
        memcpy(copy, data, (size_t)def.bytes);
    }
    tables_unload_all();
    tmpdir_remove(dir);
    return copy;
}

START_TEST(test_tables_bfs_run_workers_same_table_and_counts)
{
    uint8_t *one;
    tables_bfs_result_t res_one;
    int rc;

    toy_init(&g_toy, 256, 11, 1);
    g_toy.conj = true;
    toy_reference(&g_toy);
    one = build_blob("toy-1", 1, &rc);
    ck_assert_int_eq(rc, PZ_OK);
    ck_assert_int_eq(atomic_load(&g_workers), 1);
    res_one = g_res;
    check_counts(&g_toy, &res_one, 0);
    for (int n = 2; n <= 3; n++) {
        char name[16];
        uint8_t *many;

        snprintf(name, sizeof(name), "toy-%d", n);
        many = build_blob(name, n, &rc);
        ck_assert_int_eq(rc, PZ_OK);
        ck_assert_int_eq(atomic_load(&g_workers), n);
        ck_assert_mem_eq(
            one, many,
            (size_t)tables_bfs_bytes(TABLES_BFS_MOD3, toy_entries(&g_toy)));
        ck_assert_mem_eq(res_one.counts, g_res.counts, sizeof(g_res.counts));
        ck_assert_uint_eq(res_one.reached, g_res.reached);
        free(many);
    }
    free(one);
    toy_free(&g_toy);
}
END_TEST

START_TEST(test_tables_bfs_run_cancelled_before_is_ecancelled)
{
    uint8_t *data;
    int rc;

    toy_init(&g_toy, 64, 9, 1);
    tables_cancel_builds(true);
    data = build_blob("toy-cancel", 2, &rc);
    tables_cancel_builds(false);
    ck_assert_ptr_null(data);
    ck_assert_int_eq(rc, PZ_ECANCELLED);
    ck_assert_int_eq(atomic_load(&g_rc), PZ_ECANCELLED);
    toy_free(&g_toy);
}
END_TEST

/* Progress hook that cancels every build at the third report. */
static void
cancel_on_progress(void *arg, const char *table, uint64_t done, uint64_t total)
{
    (void)arg;
    (void)table;
    ck_assert_uint_le(done, total);
    if (atomic_fetch_add(&g_progress, 1) == 2) {
        tables_cancel_builds(true);
    }
}

START_TEST(test_tables_bfs_run_cancelled_midway_is_ecancelled)
{
    uint8_t *data;
    int rc;

    toy_init(&g_toy, 256, 11, 1);
    atomic_store(&g_progress, 0);
    tables_set_progress(cancel_on_progress, NULL);
    data = build_blob("toy-midway", 2, &rc);
    tables_set_progress(NULL, NULL);
    tables_cancel_builds(false);
    ck_assert_ptr_null(data);
    ck_assert_int_eq(rc, PZ_ECANCELLED);
    ck_assert_int_eq(atomic_load(&g_rc), PZ_ECANCELLED);
    /* It stopped within the level after the third report, long before
     * the last of the toy's 139 levels. */
    ck_assert_int_lt(atomic_load(&g_progress), 10);
    toy_free(&g_toy);
}
END_TEST

/* Progress hook that counts the reports and keeps the last. */
static _Atomic uint64_t g_last_done;

static void
count_progress(void *arg, const char *table, uint64_t done, uint64_t total)
{
    (void)arg;
    (void)table;
    ck_assert_uint_le(done, total);
    atomic_fetch_add(&g_progress, 1);
    atomic_store(&g_last_done, done);
}

START_TEST(test_tables_bfs_run_reports_progress_each_level)
{
    uint8_t *data;
    int rc;

    toy_init(&g_toy, 128, 8, 1);
    toy_reference(&g_toy);
    atomic_store(&g_progress, 0);
    tables_set_progress(count_progress, NULL);
    data = build_blob("toy-progress", 2, &rc);
    tables_set_progress(NULL, NULL);
    ck_assert_int_eq(rc, PZ_OK);
    /* At least one report per level, and the last says all are done. */
    ck_assert_int_ge(atomic_load(&g_progress), g_toy.ref_max);
    ck_assert_uint_eq(atomic_load(&g_last_done), toy_entries(&g_toy));
    free(data);
    toy_free(&g_toy);
}
END_TEST

/* --- passes over rows ---------------------------------------------------- */

static atomic_int g_row_visits[1000];

static void
count_rows(void *arg, int worker, uint64_t first, uint64_t end)
{
    (void)arg;
    ck_assert_int_ge(worker, 0);
    ck_assert_int_lt(worker, 3);
    for (uint64_t r = first; r < end; r++) {
        atomic_fetch_add(&g_row_visits[r], 1);
    }
}

/* Runs a pass of count_rows over 1000 rows with 3 workers, as a blob's
 * build function (the pass needs a build object). */
static int
rows_blob_build(void *arg, uint8_t *data, uint64_t bytes, tables_build_t *b)
{
    tables_bfs_pass_t pass;

    (void)arg;
    (void)data;
    (void)bytes;
    memset(&pass, 0, sizeof(pass));
    pass.nrows = 1000;
    pass.chunk = 7;
    pass.fn = count_rows;
    return tables_bfs_rows(&pass, b);
}

static int
run_rows_blob(void)
{
    char dir[64];
    tables_blob_def_t def;
    const uint8_t *data = NULL;
    int rc;

    tmpdir_make(dir, sizeof(dir), "pz-bfs");
    ck_assert_int_eq(tables_set_dir(dir), PZ_OK);
    tables_set_runner(thread_runner, NULL, 3);
    memset(&def, 0, sizeof(def));
    def.name = "rows";
    def.group = "test";
    def.puzzle = "toy";
    def.bytes = 16;
    def.version = 1;
    def.build = rows_blob_build;
    rc = tables_blob_get(&def, &data, NULL);
    tables_unload_all();
    tmpdir_remove(dir);
    return rc;
}

START_TEST(test_tables_bfs_rows_visits_each_row_once)
{
    ck_assert_int_eq(run_rows_blob(), PZ_OK);
    for (int r = 0; r < 1000; r++) {
        ck_assert_int_eq(atomic_load(&g_row_visits[r]), 1);
    }
}
END_TEST

START_TEST(test_tables_bfs_rows_cancelled_is_ecancelled)
{
    int rc;
    int visited = 0;

    tables_cancel_builds(true);
    rc = run_rows_blob();
    tables_cancel_builds(false);
    ck_assert_int_eq(rc, PZ_ECANCELLED);
    for (int r = 0; r < 1000; r++) {
        visited += atomic_load(&g_row_visits[r]);
    }
    ck_assert_int_eq(visited, 0);
}
END_TEST

static Suite *
tables_bfs_suite(void)
{
    Suite *s = suite_create("tables_bfs");
    TCase *codes = tcase_create("codes");
    TCase *shapes = tcase_create("shapes");
    TCase *build = tcase_create("build");
    TCase *rows = tcase_create("rows");

    tcase_set_timeout(codes, 60);
    tcase_add_test(codes, test_tables_bfs_run_mod3_matches_reference);
    tcase_add_test(codes, test_tables_bfs_run_exact8_matches_reference);
    tcase_add_test(codes, test_tables_bfs_run_exact4_matches_reference);
    tcase_add_test(codes, test_tables_bfs_run_exact4_too_deep_is_erange);
    tcase_add_test(codes, test_tables_bfs_run_exact4_second_output_saturates);
    tcase_add_test(codes, test_tables_bfs_run_mod3_clamp_leaves_far_unseen);
    tcase_add_test(codes, test_tables_bfs_run_exact_clamp_stores_clamp);
    tcase_add_test(codes, test_tables_bfs_bytes_per_code);
    suite_add_tcase(s, codes);
    tcase_set_timeout(shapes, 60);
    tcase_add_test(shapes, test_tables_bfs_run_twins_in_other_frames_complete);
    tcase_add_test(shapes, test_tables_bfs_run_wide_maps_same_table);
    tcase_add_test(shapes,
                   test_tables_bfs_run_no_row_and_unreachable_stay_unseen);
    tcase_add_test(shapes, test_tables_bfs_run_bad_spec_is_einval);
    suite_add_tcase(s, shapes);
    tcase_set_timeout(build, 60);
    tcase_add_test(build, test_tables_bfs_run_workers_same_table_and_counts);
    tcase_add_test(build, test_tables_bfs_run_cancelled_before_is_ecancelled);
    tcase_add_test(build, test_tables_bfs_run_cancelled_midway_is_ecancelled);
    tcase_add_test(build, test_tables_bfs_run_reports_progress_each_level);
    suite_add_tcase(s, build);
    tcase_set_timeout(rows, 60);
    tcase_add_test(rows, test_tables_bfs_rows_visits_each_row_once);
    tcase_add_test(rows, test_tables_bfs_rows_cancelled_is_ecancelled);
    suite_add_tcase(s, rows);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(tables_bfs_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
