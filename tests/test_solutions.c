/* SPDX-License-Identifier: MIT */
/* test_solutions.c - several solutions of one search: every optimal one,
 * counted, and the N shortest, against a brute-force enumeration. */
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "puzzle.h"
#include "testlib.h"

/*
 * Design: the brute force here knows nothing of heuristics or iterations.
 * It lists every canonical move sequence of a given length (the puzzle's
 * own move pruning, puzzle_allowed_after, the canonical form the engines
 * promise) that ends at the goal without meeting it earlier, by plain
 * depth-first enumeration. The optimal length is the first length with
 * any. IDA* with an admissible heuristic must find exactly as many
 * optimal solutions, and its N shortest must be the brute force's
 * shortest, length by length.
 */

/* How many sequences of exactly depth moves from s (after move prev, at
 * move index at) end at goal without passing it earlier. */
static uint64_t
enumerate(const pz_puzzle_t *p,
          const pz_state_t *s,
          const pz_state_t *goal,
          int prev,
          int depth,
          int at)
{
    uint64_t todo = puzzle_allowed_after(p, prev);
    uint64_t n = 0;

    if (depth == 0) {
        return puzzle_equal(p, s, goal) ? 1 : 0;
    }
    if (at > 0 && puzzle_equal(p, s, goal)) {
        return 0;
    }
    while (todo != 0) {
        int m = __builtin_ctzll(todo);
        pz_state_t c;

        todo &= todo - 1;
        if (puzzle_apply(p, s, m, &c)) {
            n += enumerate(p, &c, goal, m, depth - 1, at + 1);
        }
    }
    return n;
}

static uint64_t
count_of_length(const pz_puzzle_t *p, const pz_state_t *start, int len)
{
    pz_state_t goal;

    puzzle_goal(p, &goal);
    return enumerate(p, start, &goal, -1, len, 0);
}

static pz_solutions_t
solve_several(const pz_puzzle_t *p,
              const pz_state_t *start,
              const char *engine,
              const char *heuristic,
              int want,
              bool all,
              pz_solution_t *first)
{
    solve_spec_t spec = tl_spec(p, start, NULL);
    pz_solutions_t sols;
    solve_run_t run;

    ck_assert_int_eq(solutions_init(&sols, want, all), PZ_OK);
    solve_run_init(&run, engine_find_for(p, engine), heuristic, 1.0);
    run.solutions = &sols;
    ck_assert_int_eq(solve_execute(&spec, &run, NULL), PZ_OK);
    ck_assert_msg(run.solution.status == PZ_STATUS_SOLVED, "%s",
                  pz_status_name(run.solution.status));
    ck_assert(run.solution.optimal);
    *first = run.solution;
    return sols;
}

typedef struct sol_case {
    const char *puzzle;
    int rows;
    const char *heuristic;
    int moves; /* scramble length */
} sol_case_t;

/* Every optimal solution: scrambles long enough to have several. */
static const sol_case_t all_cases[] = {
    { "2x2x2", 0, "exact", 7 },      { "2x2x2", 0, "seed", 6 },
    { "tiles", 3, "manhattan", 24 }, { "tiles", 3, "linear-conflict", 30 },
    { "pyraminx", 0, "pieces", 7 },  { "skewb", 0, "exact", 6 },
};

/* The N shortest: puzzles whose next-shortest answers are a few moves
 * longer than the optimum (the brute force must reach them). */
static const sol_case_t n_cases[] = {
    { "2x2x2", 0, "exact", 5 },
    { "2x2x2", 0, "seed", 6 },
    { "tiles", 3, "manhattan", 10 },
    { "tiles", 3, "linear-conflict", 12 },
};

START_TEST(test_solutions_all_optimal_counts_match_brute_force)
{
    pz_rng_t rng;
    int multi = 0;

    pz_rng_seed(&rng, 1907);
    for (size_t i = 0; i < sizeof(all_cases) / sizeof(all_cases[0]); i++) {
        const sol_case_t *c = &all_cases[i];
        pz_puzzle_t *p = tl_make(c->puzzle, c->rows, c->rows, 0);
        pz_state_t goal;

        puzzle_goal(p, &goal);
        for (int k = 0; k < (c->rows != 0 ? 10 : 4); k++) {
            pz_state_t s;
            pz_solution_t first;
            pz_solutions_t sols;
            uint64_t brute;
            int len;

            tl_scramble(p, &goal, c->moves, &rng, &s);
            sols = solve_several(p, &s, "idastar", c->heuristic, 1000, true,
                                 &first);
            len = first.length;
            for (int shorter = 0; shorter < len; shorter++) {
                ck_assert_uint_eq(count_of_length(p, &s, shorter), 0);
            }
            brute = count_of_length(p, &s, len);
            ck_assert_msg(sols.found == brute, "%s: %llu found, %llu exist",
                          c->puzzle, (unsigned long long)sols.found,
                          (unsigned long long)brute);
            ck_assert(sols.complete);
            ck_assert_int_eq(sols.kept, (int)(brute < 1000 ? brute : 1000));
            /* Distinct, all of the optimal length. */
            for (int a = 0; a < sols.kept; a++) {
                ck_assert_int_eq(sols.length[a], len);
                for (int b = 0; b < a; b++) {
                    ck_assert(memcmp(solutions_moves(&sols, a),
                                     solutions_moves(&sols, b),
                                     (size_t)len) != 0);
                }
            }
            multi += brute > 1;
            /* Bidirectional BFS, and the table walk where the puzzle
             * has a whole-state table, list the same solutions. */
            for (int e = 0; e < 2; e++) {
                pz_solution_t tfirst;
                pz_solutions_t t;

                if (e == 1 && strcmp(c->heuristic, "exact") != 0 &&
                    strcmp(c->heuristic, "manhattan") != 0) {
                    continue;
                }
                t = solve_several(p, &s, e == 0 ? "bibfs" : "table", "none",
                                  1000, true, &tfirst);

                ck_assert_uint_eq(t.found, brute);
                ck_assert(t.complete);
                ck_assert_int_eq(t.kept, sols.kept);
                for (int a = 0; a < t.kept; a++) {
                    bool same = false;

                    for (int b = 0; b < sols.kept && !same; b++) {
                        same =
                            memcmp(solutions_moves(&t, a),
                                   solutions_moves(&sols, b), (size_t)len) == 0;
                    }
                    ck_assert(same);
                }
                solutions_free(&t);
            }
            solutions_free(&sols);
        }
        puzzle_destroy(p);
    }
    ck_assert_int_ge(multi, 8);
}
END_TEST

START_TEST(test_solutions_n_shortest_match_brute_force)
{
    pz_rng_t rng;

    pz_rng_seed(&rng, 2211);
    for (size_t i = 0; i < sizeof(n_cases) / sizeof(n_cases[0]); i++) {
        const sol_case_t *c = &n_cases[i];
        pz_puzzle_t *p = tl_make(c->puzzle, c->rows, c->rows, 0);
        pz_state_t goal;
        pz_state_t s;
        pz_solution_t first;
        pz_solutions_t sols;
        int want = 10;
        int seen = 0;

        puzzle_goal(p, &goal);
        tl_scramble(p, &goal, c->moves, &rng, &s);
        sols =
            solve_several(p, &s, "idastar", c->heuristic, want, false, &first);
        ck_assert_int_eq(sols.kept, want);
        /* Length by length: every length before the last one listed is
         * complete, and the last is filled from its solutions. */
        for (int len = first.length; seen < want; len++) {
            uint64_t brute = count_of_length(p, &s, len);
            int here = 0;

            for (int k = seen; k < want && sols.length[k] == len; k++) {
                here++;
            }
            if (seen + here < want) {
                ck_assert_msg((uint64_t)here == brute,
                              "%s length %d: %d listed, %llu exist", c->puzzle,
                              len, here, (unsigned long long)brute);
            } else {
                ck_assert_uint_ge(brute, (uint64_t)here);
            }
            seen += here;
        }
        ck_assert_int_eq(sols.length[0], first.length);
        solutions_free(&sols);
        puzzle_destroy(p);
    }
}
END_TEST

START_TEST(test_solutions_solved_start_and_limits)
{
    pz_puzzle_t *p = tl_make("2x2x2", 0, 0, 0);
    pz_state_t goal;
    pz_solution_t first;
    pz_solutions_t sols;
    solve_spec_t spec;
    solve_run_t run;

    puzzle_goal(p, &goal);
    sols = solve_several(p, &goal, "idastar", "seed", 5, true, &first);
    ck_assert_int_eq(first.length, 0);
    ck_assert_int_eq(sols.kept, 1);
    ck_assert_uint_eq(sols.found, 1);
    ck_assert(sols.complete);
    solutions_free(&sols);
    /* A node limit after the first solution still answers, and says
     * the list was cut short. */
    pz_state_t s = tl_scrambled(p, "R U F R' U2 F' R2");

    spec = tl_spec(p, &s, NULL);
    ck_assert_int_eq(solutions_init(&sols, 1000, false), PZ_OK);
    solve_run_init(&run, engine_find_for(p, "idastar"), "seed", 1.0);
    run.solutions = &sols;
    spec.limits.max_nodes = 20000;
    ck_assert_int_eq(solve_execute(&spec, &run, NULL), PZ_OK);
    ck_assert_int_eq(run.solution.status, PZ_STATUS_SOLVED);
    ck_assert_int_eq(sols.stopped, PZ_STATUS_NODE_LIMIT);
    ck_assert(!sols.complete);
    ck_assert_int_ge(sols.kept, 1);
    solutions_free(&sols);
    puzzle_destroy(p);
}
END_TEST

static Suite *
solutions_suite(void)
{
    Suite *s = suite_create("solutions");
    TCase *tc = tcase_create("solutions");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_solutions_all_optimal_counts_match_brute_force);
    tcase_add_test(tc, test_solutions_n_shortest_match_brute_force);
    tcase_add_test(tc, test_solutions_solved_start_and_limits);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(solutions_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
