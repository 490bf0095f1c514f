/* SPDX-License-Identifier: MIT */
/* test_skewb.c - the Skewb against its published counts and physical facts.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "budget.h"
#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "tables/tables.h"
#include "tmpdir_testlib.h"

/*
 * Golden facts: the published depth distribution of the Skewb (Jaap's
 * Puzzle Page, Skewb; OEIS A079745): 3,149,280 positions, God's number 11
 * with every turn (R R' U U' L L' B B') one move; and what a physical
 * Skewb shows after one turn (derived in the comment of the format test).
 * The breadth-first search below indexes states with the puzzle's own
 * rank; that it is a perfect index is checked on the way (every
 * generated state survives unrank(rank(s)) unchanged, and every index
 * round-trips), so a rank that merged states would fail there and in the
 * counts.
 *
 * Facelet string: faces U R F D L B, 5 stickers each (top left, top
 * right, centre, bottom left, bottom right, as seen from outside with the
 * 3x3x3's conventions). State bytes (skewb_internal.h): byte f = centre at
 * face f; byte 6 + i = piece * 3 + twist of corner position i, positions
 * UFR UFL UBL UBR DFR DFL DBL DBR. Move ids: R R' U U' L L' B B'.
 */

#define NSTATES 3149280u
#define SOLVED  "UUUUURRRRRFFFFFDDDDDLLLLLBBBBB"

enum {
    M_R = 0,
    M_RI,
    M_U,
    M_UI,
    M_L,
    M_LI,
    M_B,
    M_BI
};

/* Corner positions, and the byte of position i. */
enum {
    UFR,
    UFL,
    UBL,
    UBR,
    DFR,
    DFL,
    DBL,
    DBR
};

#define CB(i) (6 + (i))

static char table_dir[64];

static pz_puzzle_t *
make(void)
{
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_msg(puzzle_create("skewb", NULL, &p, &d) == PZ_OK, "%s",
                  d.detail);
    return p;
}

static int
parse_text(const pz_puzzle_t *p,
           const char *text,
           pz_state_t *out,
           pz_diag_t *d)
{
    pz_input_t in = { text, NULL, 0, 1, { 0, 0, 0 } };

    pz_diag_clear(d);
    return puzzle_parse_state(p, &in, out, d);
}

static pz_state_t
scrambled(const pz_puzzle_t *p, const char *text)
{
    pz_state_t s;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_msg(puzzle_parse_scramble(p, text, &s, &d) == PZ_OK,
                  "scramble '%s': %s", text, d.detail);
    return s;
}

static void
format(const pz_puzzle_t *p, const pz_state_t *s, char buf[31])
{
    ck_assert_int_eq(p->ops->format_state(p, s, buf, 31), 30);
}

/* --- Distance table by the test's own BFS (unchecked fixture) ----------- */

static uint8_t *dist;
static uint64_t counts[32];
static int deepest;
static long bad_states; /* generated states that failed the rank checks */

static void
bfs_setup(void)
{
    pz_puzzle_t *p = make();
    uint32_t *queue = malloc(NSTATES * sizeof(*queue));
    size_t head = 0;
    size_t tail = 0;
    pz_state_t goal;

    dist = malloc(NSTATES);
    memset(dist, 255, NSTATES);
    memset(counts, 0, sizeof(counts));
    bad_states = 0;
    deepest = 0;
    puzzle_goal(p, &goal);
    queue[tail++] = (uint32_t)p->ops->rank(p, &goal);
    dist[queue[0]] = 0;
    counts[0] = 1;
    while (head < tail) {
        uint32_t r = queue[head++];
        pz_state_t s;

        state_clear(&s);
        p->ops->unrank(p, r, &s);
        /* Plain checks: Check assertions in a hot loop cost a pipe write
         * each. */
        for (int m = 0; m < 8; m++) {
            pz_state_t t;
            pz_state_t back;
            uint64_t tr;

            puzzle_apply(p, &s, m, &t);
            tr = p->ops->rank(p, &t);
            if (tr >= NSTATES) {
                bad_states++;
                continue;
            }
            state_clear(&back);
            p->ops->unrank(p, tr, &back);
            bad_states += memcmp(&back, &t, sizeof(t)) != 0;
            if (dist[tr] == 255) {
                dist[tr] = (uint8_t)(dist[r] + 1);
                counts[dist[tr]]++;
                deepest = dist[tr];
                queue[tail++] = (uint32_t)tr;
            }
        }
    }
    free(queue);
    puzzle_destroy(p);
}

static void
bfs_teardown(void)
{
    free(dist);
    dist = NULL;
}

/* Optimal distance of s to the solved state. */
static int
distance(const pz_puzzle_t *p, const pz_state_t *s)
{
    return dist[p->ops->rank(p, s)];
}

/* --- init ---------------------------------------------------------------- */

START_TEST(test_skewb_init_default_is_moves)
{
    pz_puzzle_t *p = make();

    ck_assert_str_eq(p->id, "skewb");
    ck_assert_int_eq(p->nmoves, 8);
    ck_assert_int_eq(p->metric, PZ_METRIC_MOVES);
    ck_assert_str_eq(p->metric_name, "moves");
    ck_assert_uint_eq(p->state_size, 14);
    ck_assert_str_eq(p->ops->default_heuristic, "pieces");
    ck_assert(!p->ops->rank_is_partial);
    ck_assert_uint_eq(p->ops->rank_count(p), NSTATES);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_init_cube_metrics_and_size_rejected)
{
    pz_params_t size = { 3, 3, 0 };
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    for (int metric = PZ_METRIC_HTM; metric <= PZ_METRIC_QTM; metric++) {
        pz_params_t prm = { 0, 0, metric };

        pz_diag_clear(&d);
        ck_assert_int_eq(puzzle_create("skewb", &prm, &p, &d), PZ_EMETRIC);
        ck_assert_ptr_null(p);
    }
    ck_assert_int_eq(puzzle_create("SKEWB", &size, &p, &d), PZ_ESIZE);
    ck_assert_ptr_null(p);
}
END_TEST

/* --- breadth-first search against the published distribution ---------- */

START_TEST(test_skewb_bfs_published_distribution)
{
    static const uint64_t expect[] = {
        1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90,
    };
    uint64_t total = 0;

    ck_assert_int_eq(bad_states, 0);
    ck_assert_int_eq(deepest, 11);
    for (int i = 0; i <= 11; i++) {
        ck_assert_uint_eq(counts[i], expect[i]);
        total += counts[i];
    }
    ck_assert_uint_eq(total, NSTATES);
}
END_TEST

/* Every index is a state the parser accepts and formats back. */
START_TEST(test_skewb_rank_round_trip_every_index)
{
    pz_puzzle_t *p = make();
    static const uint8_t zero[PZ_STATE_MAX];
    long bad = 0;
    long rejected = 0;

    for (uint32_t i = 0; i < NSTATES; i++) {
        pz_state_t s;

        memset(&s, 0xAA, sizeof(s));
        p->ops->unrank(p, i, &s);
        bad += p->ops->rank(p, &s) != i || s.b[CB(UFR)] != 0 ||
               memcmp(s.b + 14, zero, PZ_STATE_MAX - 14) != 0;
        if (i % 97 == 0) {
            char buf[31];
            pz_state_t back;
            pz_diag_t d;

            format(p, &s, buf);
            rejected += parse_text(p, buf, &back, &d) != PZ_OK ||
                        !puzzle_equal(p, &back, &s);
        }
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(rejected, 0);
    puzzle_destroy(p);
}
END_TEST

/* --- heuristics ------------------------------------------------------------
 */

static pz_heuristic_t *
make_heuristic(const pz_puzzle_t *p, const char *name, const pz_state_t *goal)
{
    pz_heuristic_t *h = NULL;
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_msg(heuristic_create(p, name, goal, &h, &d) == PZ_OK, "%s: %s",
                  name, d.detail);
    return h;
}

START_TEST(test_skewb_pieces_admissible_every_state)
{
    pz_puzzle_t *p = make();
    pz_state_t goal;
    pz_heuristic_t *h;
    long bad = 0;
    int hmax = 0;

    puzzle_goal(p, &goal);
    h = make_heuristic(p, "pieces", &goal);
    ck_assert(heuristic_admissible(h));
    for (uint32_t i = 0; i < NSTATES; i++) {
        pz_state_t s;
        int v;

        state_clear(&s);
        p->ops->unrank(p, i, &s);
        v = heuristic_eval(h, &s);
        bad += v > dist[i];
        hmax = v > hmax ? v : hmax;
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_ge(hmax, 2);
    ck_assert_int_eq(heuristic_eval(h, &goal), 0);
    for (int m = 0; m < 8; m++) {
        pz_state_t s;

        puzzle_apply(p, &goal, m, &s);
        ck_assert_int_eq(heuristic_eval(h, &s), 1);
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_exact_is_the_distance)
{
    pz_puzzle_t *p = make();
    pz_state_t goal;
    pz_heuristic_t *h;
    pz_rng_t rng;

    puzzle_goal(p, &goal);
    h = make_heuristic(p, "exact", &goal);
    pz_rng_seed(&rng, 11);
    for (int i = 0; i < 2000; i++) {
        pz_state_t s;

        p->ops->random_state(p, pz_rng_next, &rng, &s);
        ck_assert_int_eq(heuristic_eval(h, &s), distance(p, &s));
    }
    heuristic_destroy(h);
    puzzle_destroy(p);
}
END_TEST

/* --- engines ------------------------------------------------------------- */

/* Runs engine from start to goal with heuristic (NULL: none); checks the
 * replay and returns the length. */
static int
run_engine(const pz_puzzle_t *p,
           const char *engine,
           const char *heuristic,
           const pz_state_t *start,
           const pz_state_t *goal)
{
    const engine_ops_t *e = engine_find(engine);
    pz_heuristic_t *h = NULL;
    pz_budget_t budget;
    pz_stats_t stats;
    search_ctx_t ctx;
    pz_solution_t sol;
    pz_state_t end;
    int rc;

    ck_assert_ptr_nonnull(e);
    memset(&ctx, 0, sizeof(ctx));
    ctx.goal = *goal;
    if (heuristic != NULL) {
        h = make_heuristic(p, heuristic, &ctx.goal);
    }
    budget_init(&budget, (size_t)512 << 20);
    stats_init(&stats);
    ctx.puzzle = p;
    ctx.heuristic = h;
    ctx.start = *start;
    ctx.weight = 1.5;
    ctx.threads = 1;
    ctx.budget = &budget;
    ctx.stats = &stats;
    rc = engine_run(e, &ctx, &sol);
    ck_assert_msg(rc == PZ_OK && sol.status == PZ_STATUS_SOLVED,
                  "%s: rc %d status %s", engine, rc,
                  pz_status_name(sol.status));
    ck_assert_int_eq(puzzle_replay(p, start, sol.moves, sol.length, &end),
                     PZ_OK);
    ck_assert(puzzle_equal(p, &end, &ctx.goal));
    ck_assert_uint_eq(atomic_load(&budget.used), 0);
    heuristic_destroy(h);
    return sol.length;
}

/* Every optimal engine finds the table's distance; weighted A* stays
 * within its weight. */
static void
check_engines(const pz_puzzle_t *p,
              const pz_state_t *s,
              const pz_state_t *goal,
              int want)
{
    int wa;

    ck_assert_int_eq(run_engine(p, "table", NULL, s, goal), want);
    ck_assert_int_eq(run_engine(p, "bibfs", NULL, s, goal), want);
    ck_assert_int_eq(run_engine(p, "astar", "pieces", s, goal), want);
    ck_assert_int_eq(run_engine(p, "idastar", "pieces", s, goal), want);
    ck_assert_int_eq(run_engine(p, "idastar", "exact", s, goal), want);
    wa = run_engine(p, "wastar", "pieces", s, goal);
    ck_assert_int_ge(wa, want);
    ck_assert_int_le(wa * 2, want * 3);
}

START_TEST(test_skewb_engines_agree_on_scrambles)
{
    pz_puzzle_t *p = make();
    pz_rng_t rng;
    pz_state_t goal;

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 3);
    for (int n = 1; n <= 10; n++) {
        uint8_t moves[12];
        pz_state_t s;
        int want;

        ck_assert_int_eq(
            puzzle_random_moves(p, &goal, n, pz_rng_next, &rng, moves), PZ_OK);
        puzzle_replay(p, &goal, moves, n, &s);
        want = distance(p, &s);
        ck_assert_int_le(want, n);
        check_engines(p, &s, &goal, want);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_engines_random_states_optimal)
{
    pz_puzzle_t *p = make();
    pz_rng_t rng;
    pz_state_t goal;

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 4);
    for (int trial = 0; trial < 3; trial++) {
        pz_state_t s;

        p->ops->random_state(p, pz_rng_next, &rng, &s);
        check_engines(p, &s, &goal, distance(p, &s));
    }
    puzzle_destroy(p);
}
END_TEST

/* One of the 90 positions at depth 11, God's number. */
START_TEST(test_skewb_engines_antipode_is_eleven)
{
    pz_puzzle_t *p = make();
    pz_state_t goal;
    pz_state_t s;
    uint32_t i = 0;

    puzzle_goal(p, &goal);
    while (dist[i] != 11) {
        i++;
    }
    state_clear(&s);
    p->ops->unrank(p, i, &s);
    check_engines(p, &s, &goal, 11);
    puzzle_destroy(p);
}
END_TEST

/* A goal other than solved: the table engine and "exact" serve it from
 * the shared table by relabelling the pieces after their places in the
 * goal; their lengths must equal bidirectional BFS's, which needs no
 * table. */
START_TEST(test_skewb_engines_custom_goal)
{
    pz_puzzle_t *p = make();
    pz_rng_t rng;

    pz_rng_seed(&rng, 9);
    for (int trial = 0; trial < 4; trial++) {
        pz_state_t s;
        pz_state_t g;
        int want;

        p->ops->random_state(p, pz_rng_next, &rng, &s);
        p->ops->random_state(p, pz_rng_next, &rng, &g);
        want = run_engine(p, "bibfs", NULL, &s, &g);
        ck_assert_int_le(want, 11);
        ck_assert_int_eq(run_engine(p, "table", NULL, &s, &g), want);
        ck_assert_int_eq(run_engine(p, "astar", "exact", &s, &g), want);
        ck_assert_int_eq(run_engine(p, "idastar", "pieces", &s, &g), want);
    }
    puzzle_destroy(p);
}
END_TEST

/* --- apply, inverse, redundant ------------------------------------------- */

START_TEST(test_skewb_apply_three_turns_are_identity)
{
    pz_puzzle_t *p = make();
    pz_state_t s = scrambled(p, "R U' B L R' U");

    for (int m = 0; m < 8; m++) {
        pz_state_t t = s;

        puzzle_apply(p, &t, m, &t);
        ck_assert(!puzzle_equal(p, &s, &t));
        puzzle_apply(p, &t, m, &t);
        ck_assert(!puzzle_equal(p, &s, &t));
        puzzle_apply(p, &t, m, &t);
        ck_assert(puzzle_equal(p, &s, &t));
        puzzle_apply(p, &t, puzzle_inverse(p, m), &t);
        puzzle_apply(p, &t, m, &t);
        ck_assert(puzzle_equal(p, &s, &t));
        /* X X = X' */
        t = s;
        puzzle_apply(p, &t, m, &t);
        puzzle_apply(p, &t, m, &t);
        {
            pz_state_t u = s;

            puzzle_apply(p, &u, puzzle_inverse(p, m), &u);
            ck_assert(puzzle_equal(p, &t, &u));
        }
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_apply_no_two_corners_commute)
{
    pz_puzzle_t *p = make();
    pz_state_t goal;

    puzzle_goal(p, &goal);
    for (int a = 0; a < 8; a++) {
        for (int b = 0; b < 8; b++) {
            pz_state_t x;
            pz_state_t y;

            if (a / 2 == b / 2) {
                continue;
            }
            puzzle_apply(p, &goal, a, &x);
            puzzle_apply(p, &x, b, &x);
            puzzle_apply(p, &goal, b, &y);
            puzzle_apply(p, &y, a, &y);
            ck_assert(!puzzle_equal(p, &x, &y));
        }
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_apply_ufr_never_moves)
{
    pz_puzzle_t *p = make();
    pz_rng_t rng;
    pz_state_t s;

    puzzle_goal(p, &s);
    pz_rng_seed(&rng, 5);
    for (int i = 0; i < 1000; i++) {
        char buf[31];

        puzzle_apply(p, &s, (int)pz_rand_below(pz_rng_next, &rng, 8), &s);
        ck_assert_int_eq(s.b[CB(UFR)], 0);
        /* U9, R1 and F2 are UFR's stickers. */
        format(p, &s, buf);
        ck_assert(buf[4] == 'U' && buf[5] == 'R' && buf[11] == 'F');
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_redundant_same_corner_only)
{
    static const char *names[] = { "R", "R'", "U", "U'", "L", "L'", "B", "B'" };
    pz_puzzle_t *p = make();

    for (int a = 0; a < 8; a++) {
        ck_assert_str_eq(puzzle_move_name(p, a), names[a]);
        ck_assert_int_eq(puzzle_inverse(p, puzzle_inverse(p, a)), a);
        ck_assert_int_ne(puzzle_inverse(p, a), a);
        for (int b = 0; b < 8; b++) {
            bool allowed = puzzle_allowed_after(p, a) >> b & 1;

            ck_assert_msg(allowed == (a / 2 != b / 2), "%s then %s", names[a],
                          names[b]);
        }
    }
    ck_assert_uint_eq(puzzle_allowed_after(p, -1), 0xffu);
    ck_assert_str_eq(puzzle_move_name(p, 8), "?");
    puzzle_destroy(p);
}
END_TEST

/* --- format_state: what a physical Skewb shows ---------------------------- */

START_TEST(test_skewb_format_state_goal_and_small_buffer)
{
    pz_puzzle_t *p = make();
    pz_state_t goal;
    char buf[31];

    puzzle_goal(p, &goal);
    format(p, &goal, buf);
    ck_assert_str_eq(buf, SOLVED);
    ck_assert_int_eq(p->ops->format_state(p, &goal, buf, 30), PZ_EINVAL);
    puzzle_destroy(p);
}
END_TEST

/*
 * U turns the UBL corner clockwise as seen looking at it: from there U is
 * on top, L on the right and B on the left, so U's part goes to L, L's to
 * B and B's to U. The half turned holds the centres U, L, B and the
 * corners UBL (twisting in place), UBR, UFL and DBL, which cycle DBL ->
 * UBR -> UFL -> DBL. Face by face (top left, top right, centre, bottom
 * left, bottom right):
 * - U: UBL, UBR, the centre and UFL take B's colour (UBL's B sticker,
 *   DBL's B sticker, B's centre, UBR's B sticker); UFR stays: BBBBU.
 * - R (UFR, UBR, centre, DFR, DBR): UBR's R sticker takes DBL's D: RDRRR.
 * - F (UFL, UFR, centre, DFL, DFR): UFL's F sticker takes UBR's R: RFFFF.
 * - D (DFL, DFR, centre, DBL, DBR): DBL's D sticker takes UFL's F: DDDFD.
 * - L (UBL, UFL, centre, DBL, DFL): UBL's and UFL's L stickers, the centre
 *   and DBL's take U's colour: UUUUL.
 * - B (UBR, UBL, centre, DBR, DBL): UBR's and UBL's B stickers, the centre
 *   and DBL's take L's colour: LLLBL.
 */
START_TEST(test_skewb_format_state_u_turn)
{
    pz_puzzle_t *p = make();
    pz_state_t s = scrambled(p, "U");
    char buf[31];

    format(p, &s, buf);
    ck_assert_str_eq(buf, "BBBBU"
                          "RDRRR"
                          "RFFFF"
                          "DDDFD"
                          "UUUUL"
                          "LLLBL");
    puzzle_destroy(p);
}
END_TEST

/* Each turn changes the stickers of its half only: the 3 centres and the
 * 12 corner stickers of 4 corners (the turned one twists in place), 15
 * of the 30. */
START_TEST(test_skewb_format_state_each_turn_moves_half)
{
    pz_puzzle_t *p = make();
    pz_state_t goal;

    puzzle_goal(p, &goal);
    for (int m = 0; m < 8; m++) {
        pz_state_t s;
        char buf[31];
        int changed = 0;

        puzzle_apply(p, &goal, m, &s);
        format(p, &s, buf);
        for (int i = 0; i < 30; i++) {
            changed += buf[i] != SOLVED[i];
        }
        ck_assert_int_eq(changed, 15);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_random_state_round_trips)
{
    pz_puzzle_t *p = make();
    pz_rng_t rng;
    int depth[12] = { 0 };

    pz_rng_seed(&rng, 6);
    for (int i = 0; i < 3000; i++) {
        pz_state_t s;
        pz_state_t back;
        pz_diag_t d;
        char buf[31];

        ck_assert_int_eq(p->ops->random_state(p, pz_rng_next, &rng, &s), PZ_OK);
        format(p, &s, buf);
        ck_assert_msg(parse_text(p, buf, &back, &d) == PZ_OK, "%s: %s", buf,
                      d.detail);
        ck_assert(puzzle_equal(p, &back, &s));
        depth[distance(p, &s)]++;
    }
    /* Uniform: depths 8 and 9 hold 85% of the positions. */
    ck_assert_int_gt(depth[8] + depth[9], 2400);
    ck_assert_int_gt(depth[7], 150);
    puzzle_destroy(p);
}
END_TEST

/* --- parse_state --------------------------------------------------------- */

START_TEST(test_skewb_parse_state_any_colours_and_ints)
{
    static const char map[] = "WRGYOB"; /* U R F D L B */
    pz_puzzle_t *p = make();
    pz_state_t s = scrambled(p, "R U L' B R'");
    pz_state_t back;
    pz_diag_t d;
    char buf[31];
    char own[40];
    int ints[30];
    pz_input_t in = { NULL, ints, 30, 1, { 30, 0, 0 } };

    format(p, &s, buf);
    for (int i = 0; i < 30; i++) {
        own[i] = map[strchr("URFDLB", buf[i]) - "URFDLB"];
        ints[i] = 7 + (int)(strchr("URFDLB", buf[i]) - "URFDLB") * 3;
    }
    own[30] = '\0';
    ck_assert_int_eq(parse_text(p, own, &back, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &back, &s));
    ck_assert_int_eq(puzzle_parse_state(p, &in, &back, &d), PZ_OK);
    ck_assert(puzzle_equal(p, &back, &s));
    /* White space is skipped. */
    ck_assert_int_eq(
        parse_text(p, "UUUUU RRRRR FFFFF\nDDDDD LLLLL BBBBB", &back, &d),
        PZ_OK);
    puzzle_goal(p, &s);
    ck_assert(puzzle_equal(p, &back, &s));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_parse_state_length_symbol_and_colour_errors)
{
    pz_puzzle_t *p = make();
    pz_state_t s;
    pz_diag_t d;
    int ints[31] = { 0 };
    pz_input_t in = { NULL, ints, 31, 1, { 31, 0, 0 } };

    ck_assert_int_eq(parse_text(p, SOLVED + 1, &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_int_eq(puzzle_parse_state(p, &in, &s, &d), PZ_ESTATE_LENGTH);
    ck_assert_int_eq(parse_text(p, "UUUUURRRRRFFFFFDDDDDLLLLLBBBB\x01", &s, &d),
                     PZ_ESTATE_SYMBOL);
    ck_assert_int_eq(d.position, 29);
    ck_assert_int_eq(parse_text(p, "UUUUURRRRRFFFFFDDDDDLLLLLBBBBU", &s, &d),
                     PZ_ECOLOUR_COUNT);
    ck_assert_int_eq(parse_text(p, "UUUUURRRRRFFFFFDDDDDLLLLLBBBBX", &s, &d),
                     PZ_ECOLOUR_COUNT);
    puzzle_destroy(p);
}
END_TEST

/* Swaps characters i and j of the solved string and parses it. */
static int
parse_swapped(const pz_puzzle_t *p, int i, int j, pz_diag_t *d)
{
    char buf[31];
    char c;
    pz_state_t s;

    memcpy(buf, SOLVED, sizeof(buf));
    c = buf[i];
    buf[i] = buf[j];
    buf[j] = c;
    return parse_text(p, buf, &s, d);
}

START_TEST(test_skewb_parse_state_bad_stickers)
{
    pz_puzzle_t *p = make();
    pz_diag_t d;

    /* U's centre (U3) and R1 (on UFR): two R centres. */
    ck_assert_int_eq(parse_swapped(p, 2, 5, &d), PZ_ECENTRES);
    ck_assert_msg(strstr(d.detail, "U3") != NULL, "%s", d.detail);
    /* U4 (UFL's U sticker) and F4 (DFL's F sticker): UFL shows F twice. */
    ck_assert_int_eq(parse_swapped(p, 3, 13, &d), PZ_ECORNER);
    ck_assert_msg(strstr(d.detail, "repeats") != NULL, "%s", d.detail);
    /* U4 and F1, UFL's U and F stickers: a mirror image of UFL. */
    ck_assert_int_eq(parse_swapped(p, 3, 10, &d), PZ_ECORNER);
    ck_assert_msg(strstr(d.detail, "mirror") != NULL &&
                      strstr(d.detail, "UFL") != NULL,
                  "%s", d.detail);
    /* F1 (UFL) and D5 (DBR): UFL shows U and D, DBR F and B. */
    ck_assert_int_eq(parse_swapped(p, 10, 19, &d), PZ_ECORNER);
    ck_assert_msg(strstr(d.detail, "opposite") != NULL, "%s", d.detail);
    puzzle_destroy(p);
}
END_TEST

/* Formats a state that breaks a rule and parses it back. */
static int
parse_bytes(const pz_puzzle_t *p, const pz_state_t *s, pz_diag_t *d)
{
    char buf[31];
    pz_state_t back;

    format(p, s, buf);
    return parse_text(p, buf, &back, d);
}

START_TEST(test_skewb_parse_state_invariants)
{
    pz_puzzle_t *p = make();
    pz_state_t goal;
    pz_state_t s;
    pz_diag_t d;

    puzzle_goal(p, &goal);
    /* UBL shows the UFL piece, and DFR the DBR piece. */
    s = goal;
    s.b[CB(UBL)] = UFL * 3;
    s.b[CB(DFR)] = DBR * 3;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_EDUPLICATE);
    /* UBL and UFL swapped: corners of the two tetrads. */
    s = goal;
    s.b[CB(UBL)] = UFL * 3;
    s.b[CB(UFL)] = UBL * 3;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_EPARITY);
    ck_assert_msg(strstr(d.detail, "never mix") != NULL, "%s", d.detail);
    /* UBL and DFL swapped, UFL and UBR swapped, U and R centres
     * swapped: odd permutations. */
    s = goal;
    s.b[CB(UBL)] = DFL * 3;
    s.b[CB(DFL)] = UBL * 3;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_EPARITY);
    s = goal;
    s.b[CB(UFL)] = UBR * 3;
    s.b[CB(UBR)] = UFL * 3;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_EPARITY);
    s = goal;
    s.b[0] = 1;
    s.b[1] = 0;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_EPARITY);
    ck_assert_msg(strstr(d.detail, "centres") != NULL, "%s", d.detail);
    /* One corner of either tetrad twisted in place. */
    s = goal;
    s.b[CB(UBL)] = UBL * 3 + 1;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_ETWIST);
    s = goal;
    s.b[CB(DFR)] = DFR * 3 + 2;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_ETWIST);
    /* Two twists that cancel within a tetrad are a real position: the
     * twist sums are the only twist rule. */
    s = goal;
    s.b[CB(UBL)] = UBL * 3 + 1;
    s.b[CB(DBR)] = DBR * 3 + 2;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_OK);
    ck_assert_uint_lt(p->ops->rank(p, &s), NSTATES);
    /* R cycles three corners of B and twists DBR: the cycle without
     * the twist breaks A's twist rule. */
    s = scrambled(p, "R");
    s.b[CB(DBR)] = DBR * 3;
    ck_assert_int_eq(parse_bytes(p, &s, &d), PZ_ETWIST);
    puzzle_destroy(p);
}
END_TEST

/* --- apply_scramble ------------------------------------------------------ */

START_TEST(test_skewb_apply_scramble_notation)
{
    pz_puzzle_t *p = make();
    pz_state_t goal;
    pz_state_t s;
    pz_state_t t;

    puzzle_goal(p, &goal);
    s = goal;
    puzzle_apply(p, &s, M_R, &s);
    puzzle_apply(p, &s, M_U, &s);
    puzzle_apply(p, &s, M_LI, &s);
    puzzle_apply(p, &s, M_B, &s);
    t = scrambled(p, "R U L' B");
    ck_assert(puzzle_equal(p, &s, &t));
    t = scrambled(p, "RUL'B");
    ck_assert(puzzle_equal(p, &s, &t));
    t = scrambled(p, "  R\tU L\xe2\x80\x99 B ");
    ck_assert(puzzle_equal(p, &s, &t));
    /* R2 is R twice: R', as a turn of order 3; R2' is R. */
    s = scrambled(p, "R2");
    t = scrambled(p, "R'");
    ck_assert(puzzle_equal(p, &s, &t));
    s = scrambled(p, "B2'");
    t = scrambled(p, "B");
    ck_assert(puzzle_equal(p, &s, &t));
    s = scrambled(p, "");
    ck_assert(puzzle_equal(p, &s, &goal));
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_apply_scramble_bad_token_position)
{
    static const struct {
        const char *text;
        int position;
    } cases[] = {
        { "F", 0 },      { "R U D", 4 },    { "R3", 0 },   { "r", 0 },
        { "R U x", 4 },  { "R''", 0 },      { "U Rw", 2 }, { "L B R'2", 4 },
        { "R U  ?", 5 }, { "BR UL F'", 6 },
    };
    pz_puzzle_t *p = make();

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        pz_state_t s;
        pz_diag_t d;

        pz_diag_clear(&d);
        ck_assert_msg(puzzle_parse_scramble(p, cases[i].text, &s, &d) ==
                          PZ_EMOVE,
                      "'%s' accepted", cases[i].text);
        ck_assert_msg(d.position == cases[i].position, "'%s': position %d",
                      cases[i].text, d.position);
    }
    puzzle_destroy(p);
}
END_TEST

START_TEST(test_skewb_apply_scramble_round_trip)
{
    pz_puzzle_t *p = make();
    pz_rng_t rng;
    pz_state_t goal;

    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, 7);
    for (int trial = 0; trial < 50; trial++) {
        uint8_t moves[20];
        uint8_t inv[20];
        char text[200];
        pz_state_t s;
        pz_state_t back;

        ck_assert_int_eq(
            puzzle_random_moves(p, &goal, 20, pz_rng_next, &rng, moves), PZ_OK);
        ck_assert_int_ge(puzzle_format_moves(p, moves, 20, text, sizeof(text)),
                         0);
        s = scrambled(p, text);
        for (int i = 0; i < 20; i++) {
            inv[i] = (uint8_t)puzzle_inverse(p, moves[19 - i]);
        }
        ck_assert_int_eq(puzzle_replay(p, &s, inv, 20, &back), PZ_OK);
        ck_assert(puzzle_equal(p, &back, &goal));
    }
    puzzle_destroy(p);
}
END_TEST

static Suite *
skewb_suite(void)
{
    Suite *s = suite_create("skewb");
    TCase *tc_init = tcase_create("init");
    TCase *tc_bfs = tcase_create("bfs");
    TCase *tc_apply = tcase_create("apply");
    TCase *tc_format = tcase_create("format_state");
    TCase *tc_parse = tcase_create("parse_state");
    TCase *tc_scramble = tcase_create("apply_scramble");

    tcase_add_test(tc_init, test_skewb_init_default_is_moves);
    tcase_add_test(tc_init, test_skewb_init_cube_metrics_and_size_rejected);
    suite_add_tcase(s, tc_init);

    tcase_add_unchecked_fixture(tc_bfs, bfs_setup, bfs_teardown);
    tcase_set_timeout(tc_bfs, 300);
    tcase_add_test(tc_bfs, test_skewb_bfs_published_distribution);
    tcase_add_test(tc_bfs, test_skewb_rank_round_trip_every_index);
    tcase_add_test(tc_bfs, test_skewb_pieces_admissible_every_state);
    tcase_add_test(tc_bfs, test_skewb_exact_is_the_distance);
    tcase_add_test(tc_bfs, test_skewb_engines_agree_on_scrambles);
    tcase_add_test(tc_bfs, test_skewb_engines_random_states_optimal);
    tcase_add_test(tc_bfs, test_skewb_engines_antipode_is_eleven);
    tcase_add_test(tc_bfs, test_skewb_engines_custom_goal);
    tcase_add_test(tc_bfs, test_skewb_random_state_round_trips);
    suite_add_tcase(s, tc_bfs);

    tcase_add_test(tc_apply, test_skewb_apply_three_turns_are_identity);
    tcase_add_test(tc_apply, test_skewb_apply_no_two_corners_commute);
    tcase_add_test(tc_apply, test_skewb_apply_ufr_never_moves);
    tcase_add_test(tc_apply, test_skewb_redundant_same_corner_only);
    suite_add_tcase(s, tc_apply);

    tcase_add_test(tc_format, test_skewb_format_state_goal_and_small_buffer);
    tcase_add_test(tc_format, test_skewb_format_state_u_turn);
    tcase_add_test(tc_format, test_skewb_format_state_each_turn_moves_half);
    suite_add_tcase(s, tc_format);

    tcase_add_test(tc_parse, test_skewb_parse_state_any_colours_and_ints);
    tcase_add_test(tc_parse,
                   test_skewb_parse_state_length_symbol_and_colour_errors);
    tcase_add_test(tc_parse, test_skewb_parse_state_bad_stickers);
    tcase_add_test(tc_parse, test_skewb_parse_state_invariants);
    suite_add_tcase(s, tc_parse);

    tcase_add_test(tc_scramble, test_skewb_apply_scramble_notation);
    tcase_add_test(tc_scramble, test_skewb_apply_scramble_bad_token_position);
    tcase_add_test(tc_scramble, test_skewb_apply_scramble_round_trip);
    suite_add_tcase(s, tc_scramble);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(skewb_suite());
    int failed;

    /* The table engine and "exact" build the complete table here once;
     * each test runs in its own process and loads it from the file. */
    snprintf(table_dir, sizeof(table_dir), "/tmp/pz-skewb-XXXXXX");
    if (mkdtemp(table_dir) == NULL || tables_set_dir(table_dir) != PZ_OK) {
        fprintf(stderr, "cannot use the table directory %s\n", table_dir);
        return EXIT_FAILURE;
    }
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    tmpdir_remove(table_dir);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
