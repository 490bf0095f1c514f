/* SPDX-License-Identifier: MIT */
/* test_api_request_options.c - what a solve request's options become:
 * engines and their heuristics, short scrambles, move subsets, several
 * solutions, a goal of some pieces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "api_request_testlib.h"
#include "job.h"
#include "request.h"

/* An engine that cannot search the puzzle, and a heuristic the puzzle
 * does not have, are refused before any job exists. */
START_TEST(test_api_solve_parse_rejects_unsupported_engine)
{
    expect_reject("{\"puzzle\":\"8-puzzle\",\"scramble\":\"D\","
                  "\"engine\":\"twophase\"}",
                  PZ_EUNSUPPORTED, "/engine");
    expect_reject("{\"puzzle\":\"15-puzzle\",\"scramble\":\"D\","
                  "\"engine\":\"table\"}",
                  PZ_EUNSUPPORTED, "/engine");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\","
                  "\"engines\":[\"bibfs\",\"twophase\"]}",
                  PZ_EUNSUPPORTED, "/engines/1");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\","
                  "\"engine\":\"bibfs\",\"heuristic\":\"nosuch\"}",
                  PZ_EHEURISTIC, "/heuristic");
    /* A table heuristic for a board it has no table for, whatever the
     * engine. */
    expect_reject("{\"puzzle\":\"15-puzzle\",\"scramble\":\"D\","
                  "\"engine\":\"bibfs\",\"heuristic\":\"exact\"}",
                  PZ_EHEURISTIC, "/heuristic");
    /* Dual search: the tiles' own, with its one heuristic. */
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R\","
                  "\"engine\":\"dida\"}",
                  PZ_EUNSUPPORTED, "/engine");
    expect_reject("{\"puzzle\":\"8-puzzle\",\"scramble\":\"D\","
                  "\"engine\":\"dida\",\"heuristic\":\"pdb\"}",
                  PZ_EHEURISTIC, "/heuristic");
}
END_TEST

/* An engine with its own heuristic gets it when the request names none. */
START_TEST(test_api_solve_parse_gives_dida_its_heuristic)
{
    api_solve_request_t req;
    pz_diag_t d;

    ck_assert_int_eq(parse_text("{\"puzzle\":\"8-puzzle\",\"scramble\":"
                                "\"D R\",\"engine\":\"dida\"}",
                                &req, &d),
                     PZ_OK);
    ck_assert_str_eq(req.runs[0].engine->name, "dida");
    ck_assert_str_eq(req.runs[0].heuristic, "pdb-dual");
    api_solve_cleanup(&req);
}
END_TEST

/* Parses text under the default policy with optimal_threads 4. */
static int
parse_optimal_threads(const char *text, api_solve_request_t *req)
{
    api_policy_t pol;
    pz_diag_t d;

    api_policy_default(&pol);
    pol.optimal_threads = 4;
    return api_solve_parse_text(text, strlen(text), &pol, req, &d);
}

/* A proven optimum that auto hands to IDA* takes the policy's
 * optimal_threads; a fast auto answer, a named engine, several engines,
 * several solutions and a batch keep threads. */
START_TEST(test_api_solve_parse_optimal_threads)
{
    static const struct {
        const char *text;
        int threads;
    } cases[] = {
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U F D L B R2 U2 F' L "
          "D B2\",\"optimal\":true}",
          4 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U F D L B R2 U2 F' L "
          "D B2\"}",
          1 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U F D L B R2 U2 F' L "
          "D B2\",\"optimal\":true,\"engine\":\"idastar\"}",
          1 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U F D L B R2 U2 F' L "
          "D B2\",\"optimal\":true,\"engines\":[\"auto\",\"twophase\"]}",
          1 },
        { "{\"puzzle\":\"2x2x2\",\"scramble\":\"R U F\",\"optimal\":"
          "true}",
          1 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U F D L B R2 U2 F' L "
          "D B2\",\"optimal\":true,\"solutions\":3}",
          1 },
        { "{\"puzzle\":\"3x3x3\",\"items\":[\"R U F D L B R2 U2 F' L "
          "D B2\"],\"optimal\":true}",
          1 },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        api_solve_request_t req;

        ck_assert_int_eq(parse_optimal_threads(cases[i].text, &req), PZ_OK);
        ck_assert_msg(req.spec.threads == cases[i].threads, "%s: %d threads",
                      cases[i].text, req.spec.threads);
        ck_assert(req.spread == (cases[i].threads > 1));
        api_solve_cleanup(&req);
    }
}
END_TEST

START_TEST(test_api_solve_parse_short_scramble_is_the_target)
{
    static const struct {
        const char *body;
        int target;
    } cases[] = {
        /* Plain moves up to 12: the scramble's length. */
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U R' U'\"}", 4 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\" R  U2\\tF' \"}", 3 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U R' U' R' F R2 U' R' U' "
          "R U\"}",
          12 },
        /* 13 moves, wide turns, slices, rotations: God's number. */
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U R' U' R' F R2 U' R' U' "
          "R U R'\"}",
          20 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"Rw U\"}", 20 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"M U\"}", 20 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"x U\"}", 20 },
        /* A state, another goal, or a target of the request's own. */
        { "{\"puzzle\":\"3x3x3\",\"state\":\""
          "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB\"}",
          20 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\",\"goal\":\""
          "UUUUUUUUUBBBRRRRRRRRRFFFFFFDDDDDDDDDFFFLLLLLLLLLBBBBBB\"}",
          20 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\",\"target_length\":7}",
          7 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
          "\"target_length\":0}",
          0 },
        /* QTM: quarter turns are its moves, a half turn is not one. */
        { "{\"puzzle\":\"3x3x3\",\"metric\":\"qtm\",\"scramble\":\"R R U'\"}",
          3 },
        { "{\"puzzle\":\"3x3x3\",\"metric\":\"qtm\",\"scramble\":\"R2 U\"}",
          26 },
        { "{\"puzzle\":\"3x3x3\",\"scramble\":\"\"}", 20 },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        api_solve_request_t req;
        pz_diag_t d;

        ck_assert_msg(parse_text(cases[i].body, &req, &d) == PZ_OK, "%s: %s",
                      cases[i].body, d.detail);
        ck_assert_str_eq(req.runs[0].engine->name, "twophase");
        ck_assert_msg(req.spec.target_length == cases[i].target,
                      "%s: target %d, expected %d", cases[i].body,
                      req.spec.target_length, cases[i].target);
        api_solve_cleanup(&req);
    }
}
END_TEST

START_TEST(test_api_solve_parse_short_scramble_drops_the_weight)
{
    static const struct {
        const char *body;
        const char *engine;
        double weight;
    } cases[] = {
        /* auto's weighted search for the 24-puzzle becomes A* when a
         * scramble of at most 12 moves bounds the answer. */
        { "{\"puzzle\":\"24-puzzle\",\"scramble\":\"R D R U R D R U L L L "
          "L\"}",
          "astar", 1.0 },
        { "{\"puzzle\":\"24-puzzle\",\"scramble\":\"R D R U R D R U L L L "
          "L R\"}",
          "wastar", 3.0 },
        { "{\"puzzle\":\"24-puzzle\",\"state\":\"1 2 3 4 5 / 6 7 8 9 10 / "
          "11 12 13 14 15 / 16 17 18 19 20 / 21 22 23 0 24\"}",
          "wastar", 3.0 },
        /* A weight of the request's own is kept. */
        { "{\"puzzle\":\"24-puzzle\",\"scramble\":\"R D\",\"weight\":2}",
          "wastar", 2.0 },
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        api_solve_request_t req;
        pz_diag_t d;

        ck_assert_msg(parse_text(cases[i].body, &req, &d) == PZ_OK, "%s: %s",
                      cases[i].body, d.detail);
        ck_assert_str_eq(req.runs[0].engine->name, cases[i].engine);
        ck_assert_msg(req.runs[0].weight == cases[i].weight, "%s: weight %g",
                      cases[i].body, req.runs[0].weight);
        api_solve_cleanup(&req);
    }
}
END_TEST

START_TEST(test_api_solve_parse_move_subsets)
{
    api_solve_request_t req;
    pz_diag_t d;

    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
                  "\"moves\":\"R U\"}",
                  PZ_ETYPE, "/moves");
    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
                  "\"moves\":[]}",
                  PZ_ETYPE, "/moves");
    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
                  "\"moves\":[\"R\",7]}",
                  PZ_ETYPE, "/moves/1");
    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
                  "\"moves\":[\"R\",\"Q\"]}",
                  PZ_EMOVE, "/moves/1");
    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
                  "\"moves\":[\"R\",\"U'\"]}",
                  PZ_EMOVE, "/moves");
    /* Out of reach: a piece no allowed move touches, a flipped edge. */
    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U F\","
                  "\"moves\":[\"R\",\"U\"]}",
                  PZ_EUNREACHABLE, "/moves");
    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"F\","
                  "\"moves\":[\"U\",\"D\",\"R\",\"L\",\"F2\",\"B2\"]}",
                  PZ_EUNREACHABLE, "/moves");
    /* Engines that cannot keep to a subset are refused; auto picks one
     * that can. */
    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
                  "\"moves\":[\"R\",\"U\"],\"engine\":\"twophase\"}",
                  PZ_EUNSUPPORTED, "/engine");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R U\","
                  "\"moves\":[\"R\",\"U\"],\"engine\":\"table\"}",
                  PZ_EUNSUPPORTED, "/engine");
    ck_assert_int_eq(parse_text("{\"puzzle\":\"3x3x3\",\"optimal\":false,"
                                "\"scramble\":\"R U R' U'\","
                                "\"moves\":[\"R\",\"U\"]}",
                                &req, &d),
                     PZ_OK);
    ck_assert(req.runs[0].engine->subsets);
    ck_assert_int_eq(__builtin_popcountll(req.puzzle->subset), 6);
    api_solve_cleanup(&req);
    ck_assert_int_eq(parse_text("{\"puzzle\":\"2x2x2\",\"scramble\":\"R U\","
                                "\"moves\":[\"R\",\"U\"]}",
                                &req, &d),
                     PZ_OK);
    ck_assert(req.runs[0].engine->subsets);
    api_solve_cleanup(&req);
}
END_TEST

START_TEST(test_api_solve_parse_several_solutions)
{
    api_solve_request_t req;
    api_job_info_t info = { 0 };
    pz_diag_t d;
    cJSON *o;
    const cJSON *sols;
    char *text;
    size_t len;

    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R U\","
                  "\"solutions\":3,\"all_optimal\":true}",
                  PZ_ECONFLICT, "/solutions");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R U\","
                  "\"max_solutions\":3}",
                  PZ_ECONFLICT, "/max_solutions");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R U\","
                  "\"solutions\":1001}",
                  PZ_ERANGE, "/solutions");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R U\","
                  "\"solutions\":3,\"engine\":\"wastar\"}",
                  PZ_EUNSUPPORTED, "/engine");
    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
                  "\"all_optimal\":true,\"engine\":\"twophase\"}",
                  PZ_EUNSUPPORTED, "/engine");
    expect_reject("{\"puzzle\":\"2x2x2\",\"scramble\":\"R U\","
                  "\"solutions\":3,\"engines\":[\"idastar\"]}",
                  PZ_ECONFLICT, "/engines");
    /* auto walks the complete table for one answer; for several it runs
     * IDA* on the table's exact distances. */
    ck_assert_int_eq(parse_text("{\"puzzle\":\"8-puzzle\",\"state\":"
                                "\"1 2 3 / 4 0 6 / 7 5 8\",\"solutions\":5}",
                                &req, &d),
                     PZ_OK);
    ck_assert_str_eq(req.runs[0].engine->name, "idastar");
    ck_assert_str_eq(req.runs[0].heuristic, "exact");
    ck_assert_ptr_nonnull(req.runs[0].solutions);
    ck_assert_int_eq(solve_execute(&req.spec, &req.runs[0], NULL), PZ_OK);
    info.req = &req;
    info.runs_started = info.runs_done = 1;
    info.id = "abc";
    text = api_job_text(&info, &len);
    o = cJSON_Parse(text);
    ck_assert_ptr_nonnull(o);
    sols = cJSON_GetObjectItemCaseSensitive(o, "solutions");
    ck_assert_ptr_nonnull(sols);
    ck_assert_int_eq(
        cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(sols, "items")), 5);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(sols, "kept")->valueint,
                     5);
    /* U L is the optimum; the next shortest path that does not pass
     * through the goal takes 10 moves (test_solutions.c checks such
     * lists against a brute force). */
    ck_assert_ptr_nonnull(strstr(text, "\"text\":\"U L\""));
    ck_assert_int_eq(
        cJSON_GetObjectItemCaseSensitive(
            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(sols, "items"),
                               1),
            "length")
            ->valueint,
        10);
    free(text);
    cJSON_Delete(o);
    api_solve_cleanup(&req);
}
END_TEST

START_TEST(test_api_solve_parse_care)
{
    api_solve_request_t req;
    api_job_info_t info = { 0 };
    pz_diag_t d;
    char *text;
    size_t len;

    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
                  "\"care\":7}",
                  PZ_ETYPE, "/care");
    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
                  "\"care\":[\"DF\",\"nope\"]}",
                  PZ_EINVAL, "/care");
    expect_reject("{\"puzzle\":\"pyraminx\",\"scramble\":\"R U\","
                  "\"care\":\"cross\"}",
                  PZ_EUNSUPPORTED, "/care");
    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
                  "\"care\":\"cross\",\"engine\":\"twophase\"}",
                  PZ_EUNSUPPORTED, "/engine");
    expect_reject("{\"puzzle\":\"3x3x3\",\"scramble\":\"R U\","
                  "\"care\":\"cross\",\"heuristic\":\"pdb\"}",
                  PZ_EHEURISTIC, "/heuristic");
    ck_assert_int_eq(parse_text("{\"puzzle\":\"3x3x3\",\"scramble\":"
                                "\"R U F' D L2\",\"care\":\"cross\"}",
                                &req, &d),
                     PZ_OK);
    ck_assert_str_eq(req.runs[0].engine->name, "idastar");
    ck_assert_str_eq(req.runs[0].heuristic, "mask-pdb");
    ck_assert_int_eq(solve_execute(&req.spec, &req.runs[0], NULL), PZ_OK);
    ck_assert_int_eq(req.runs[0].solution.status, PZ_STATUS_SOLVED);
    ck_assert(req.runs[0].solution.optimal);
    info.req = &req;
    info.runs_started = info.runs_done = 1;
    text = api_job_text(&info, &len);
    ck_assert_ptr_nonnull(
        strstr(text, "\"care\":[\"DR\",\"DF\",\"DL\",\"DB\"]"));
    /* The job shows the start as given, not its masked form. */
    ck_assert_ptr_nonnull(strstr(text, "\"goal\":\"UUUUUUUUURRRRRRRRR"));
    free(text);
    api_solve_cleanup(&req);
}
END_TEST

/* A scramble of plain moves is answered no longer than itself, whatever
 * the engine: the Master Pyraminx's phase solver and weighted A* on the
 * 24-puzzle give longer answers for some short scrambles; the scramble's
 * inverse, known before the search, is the answer then. */
START_TEST(test_api_solve_short_scramble_never_longer)
{
    /* (Two-phase's target is the scramble's length: test_twophase.c,
     * where its tables are built.) */
    static const char *const puzzles[] = { "mpyraminx", "24-puzzle" };
    pz_rng_t rng;
    int checked = 0;

    pz_rng_seed(&rng, 12);
    for (int p = 0; p < 2; p++) {
        pz_params_t prm = { 0, 0, 0 };
        pz_puzzle_t *puz = NULL;
        pz_diag_t d;
        pz_state_t goal;

        ck_assert_int_eq(puzzle_create(puzzles[p], &prm, &puz, &d), PZ_OK);
        puzzle_goal(puz, &goal);
        for (int k = 0; k < 6; k++) {
            uint8_t mv[16];
            char text[256];
            char body[512];
            api_solve_request_t req;
            int n = 8 + k % 5;

            ck_assert_int_eq(
                puzzle_random_moves(puz, &goal, n, pz_rng_next, &rng, mv),
                PZ_OK);
            ck_assert_int_ge(
                puzzle_format_moves(puz, mv, n, text, sizeof(text)), 0);
            snprintf(body, sizeof(body),
                     "{\"puzzle\":\"%s\",\"scramble\":\"%s\"%s}", puzzles[p],
                     text, p == 1 ? ",\"engine\":\"wastar\",\"weight\":5" : "");
            ck_assert_msg(parse_text(body, &req, &d) == PZ_OK, "%s: %s", body,
                          d.detail);
            ck_assert_int_eq(req.spec.known_length, n);
            ck_assert_int_eq(solve_execute(&req.spec, &req.runs[0], NULL),
                             PZ_OK);
            ck_assert_int_eq(req.runs[0].solution.status, PZ_STATUS_SOLVED);
            ck_assert_msg(req.runs[0].solution.length <= n,
                          "%s: %d moves for a %d-move scramble", body,
                          req.runs[0].solution.length, n);
            checked++;
            api_solve_cleanup(&req);
        }
        puzzle_destroy(puz);
    }
    ck_assert_int_eq(checked, 12);
}
END_TEST

static Suite *
api_request_options_suite(void)
{
    Suite *s = suite_create("api_request_options");
    TCase *tc = tcase_create("options");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_api_solve_parse_rejects_unsupported_engine);
    tcase_add_test(tc, test_api_solve_parse_gives_dida_its_heuristic);
    tcase_add_test(tc, test_api_solve_parse_short_scramble_is_the_target);
    tcase_add_test(tc, test_api_solve_parse_short_scramble_drops_the_weight);
    tcase_add_test(tc, test_api_solve_parse_move_subsets);
    tcase_add_test(tc, test_api_solve_parse_several_solutions);
    tcase_add_test(tc, test_api_solve_parse_care);
    tcase_add_test(tc, test_api_solve_short_scramble_never_longer);
    tcase_add_test(tc, test_api_solve_parse_optimal_threads);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(api_request_options_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
