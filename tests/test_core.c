/* SPDX-License-Identifier: MIT */
/* test_core.c - error table, memory budget, limit polling, registries. */
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "budget.h"
#include "engine.h"
#include "pz_error.h"
#include "search.h"

START_TEST(test_core_strerror_maps_codes)
{
    ck_assert_str_eq(pz_strerror(PZ_OK), "ok");
    ck_assert_str_eq(pz_strerror(PZ_EMOVE), "bad_move");
    ck_assert_str_eq(pz_strerror(PZ_EUNSOLVABLE), "tiles_unsolvable");
    ck_assert_str_eq(pz_strerror(12345), "internal_error");
    ck_assert_int_eq(pz_http_status(PZ_EJSON), 400);
    ck_assert_int_eq(pz_http_status(PZ_ETWIST), 422);
    ck_assert_int_eq(pz_http_status(PZ_EQUEUE_FULL), 429);
    ck_assert_int_eq(pz_http_status(PZ_EJOB_NOT_FOUND), 404);
    ck_assert_int_eq(pz_http_status(-1), 500);
}
END_TEST

START_TEST(test_core_strerror_codes_are_unique)
{
    for (int a = PZ_ERR_FIRST_ + 1; a < PZ_ERR_LAST_; a++) {
        for (int b = a + 1; b < PZ_ERR_LAST_; b++) {
            ck_assert_str_ne(pz_strerror(a), pz_strerror(b));
        }
        ck_assert_int_lt(a, 0);
    }
}
END_TEST

START_TEST(test_core_diag_set_formats_detail)
{
    pz_diag_t d;

    pz_diag_clear(&d);
    ck_assert_int_eq(d.position, -1);
    ck_assert_int_eq(pz_diag_set(&d, PZ_EMOVE, "move %d", 7), PZ_EMOVE);
    ck_assert_str_eq(d.detail, "move 7");
    ck_assert_int_eq(pz_diag_set(NULL, PZ_EMOVE, "x"), PZ_EMOVE);
}
END_TEST

START_TEST(test_core_budget_alloc_refuses_past_limit)
{
    pz_budget_t b;
    void *p;
    void *q;

    budget_init(&b, 1000);
    p = budget_alloc(&b, 600);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_null(budget_alloc(&b, 600));
    ck_assert_uint_eq(atomic_load(&b.refusals), 1);
    /* 600 bytes and malloc's header. */
    ck_assert_uint_ge(atomic_load(&b.used), 600);
    ck_assert_uint_le(atomic_load(&b.used), 640);
    /* Growing to 900 holds both blocks for a moment: past 1000. */
    ck_assert_ptr_null(budget_realloc(&b, p, 600, 900));
    budget_free(&b, p, 600);
    ck_assert_uint_eq(atomic_load(&b.used), 0);
    budget_init(&b, 2000);
    p = budget_alloc(&b, 600);
    q = budget_realloc(&b, p, 600, 900);
    ck_assert_ptr_nonnull(q);
    ck_assert_uint_ge(atomic_load(&b.used), 900);
    ck_assert_uint_le(atomic_load(&b.used), 940);
    ck_assert_uint_ge(atomic_load(&b.peak), 1500);
    ck_assert_ptr_null(budget_realloc(&b, q, 900, 2000));
    budget_free(&b, q, 900);
    ck_assert_uint_eq(atomic_load(&b.used), 0);
}
END_TEST

/* A large block is charged whole pages, as malloc maps it. */
START_TEST(test_core_budget_large_block_charged_in_pages)
{
    pz_budget_t b;
    size_t size = ((size_t)1 << 20) + 1;
    void *p;

    budget_init(&b, 0);
    p = budget_alloc(&b, size);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(atomic_load(&b.used) % 4096, 0);
    ck_assert_uint_gt(atomic_load(&b.used), size);
    budget_free(&b, p, size);
    ck_assert_uint_eq(atomic_load(&b.used), 0);
}
END_TEST

START_TEST(test_core_budget_unlimited_and_null)
{
    pz_budget_t b;
    void *p;

    budget_init(&b, 0);
    p = budget_calloc(&b, 1 << 20);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(((char *)p)[12345], 0);
    budget_free(&b, p, 1 << 20);
    budget_free(&b, NULL, 5);
    ck_assert_uint_eq(atomic_load(&b.used), 0);
    p = budget_alloc(NULL, 16);
    ck_assert_ptr_nonnull(p);
    budget_free(NULL, p, 16);
    ck_assert_ptr_null(budget_alloc(&b, 0));
}
END_TEST

START_TEST(test_core_search_poll_reports_limits)
{
    search_ctx_t ctx = { 0 };
    search_meter_t m;
    atomic_bool cancel;
    pz_stats_t st;

    stats_init(&st);
    ctx.stats = &st;
    ctx.limits.max_nodes = 100;
    search_meter_init(&ctx, &m);
    ck_assert_uint_eq(m.next_poll, 100);
    for (int i = 0; i < 99; i++) {
        ck_assert_int_eq(search_tick(&ctx, &m), PZ_STATUS_RUNNING);
    }
    ck_assert_int_eq(search_tick(&ctx, &m), PZ_STATUS_NODE_LIMIT);
    ck_assert_uint_eq(atomic_load(&st.nodes_expanded), 100);
    ctx.limits.max_nodes = 0;
    atomic_init(&cancel, true);
    ctx.cancel = &cancel;
    ck_assert_int_eq(search_poll(&ctx, &m), PZ_STATUS_CANCELLED);
    atomic_store(&cancel, false);
    ctx.deadline_ns = pz_now_ns() - 1;
    ck_assert_int_eq(search_poll(&ctx, &m), PZ_STATUS_TIMEOUT);
    ctx.deadline_ns = pz_now_ns() + 1000000000u;
    ck_assert_int_eq(search_poll(&ctx, &m), PZ_STATUS_RUNNING);
}
END_TEST

START_TEST(test_core_status_names_are_api_strings)
{
    ck_assert_str_eq(pz_status_name(PZ_STATUS_SOLVED), "solved");
    ck_assert_str_eq(pz_status_name(PZ_STATUS_MEMORY_LIMIT), "memory_limit");
    ck_assert_str_eq(pz_status_name(99), "failed");
    ck_assert(pz_status_terminal(PZ_STATUS_CANCELLED));
    ck_assert(!pz_status_terminal(PZ_STATUS_RUNNING));
}
END_TEST

START_TEST(test_core_registries_resolve_names_and_aliases)
{
    pz_puzzle_t *p = NULL;
    pz_diag_t d;

    ck_assert_ptr_nonnull(engine_find("IDASTAR"));
    ck_assert_ptr_null(engine_find("auto"));
    ck_assert_ptr_null(engine_find(NULL));
    ck_assert_ptr_nonnull(puzzle_find("15-puzzle"));
    ck_assert_ptr_null(puzzle_find("megaminx"));
    ck_assert_int_eq(puzzle_create("15-puzzle", NULL, &p, &d), PZ_OK);
    ck_assert_int_eq(p->params.rows, 4);
    ck_assert_int_eq(p->params.cols, 4);
    ck_assert_str_eq(p->size, "4x4");
    puzzle_destroy(p);
    ck_assert_int_eq(puzzle_create("megaminx", NULL, &p, &d), PZ_EPUZZLE);
    ck_assert_ptr_null(p);
    puzzle_destroy(NULL);
}
END_TEST

START_TEST(test_core_rng_is_deterministic_and_uniform)
{
    pz_rng_t a;
    pz_rng_t b;
    int counts[6] = { 0 };

    pz_rng_seed(&a, 42);
    pz_rng_seed(&b, 42);
    for (int i = 0; i < 100; i++) {
        ck_assert_uint_eq(pz_rng_next(&a), pz_rng_next(&b));
    }
    for (int i = 0; i < 60000; i++) {
        counts[pz_rand_below(pz_rng_next, &a, 6)]++;
    }
    for (int i = 0; i < 6; i++) {
        /* 10,000 expected; 5 standard deviations is about 450. */
        ck_assert_int_gt(counts[i], 9500);
        ck_assert_int_lt(counts[i], 10500);
    }
}
END_TEST

static Suite *
core_suite(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("errors");

    tcase_add_test(tc, test_core_strerror_maps_codes);
    tcase_add_test(tc, test_core_strerror_codes_are_unique);
    tcase_add_test(tc, test_core_diag_set_formats_detail);
    suite_add_tcase(s, tc);
    tc = tcase_create("budget");
    tcase_add_test(tc, test_core_budget_alloc_refuses_past_limit);
    tcase_add_test(tc, test_core_budget_large_block_charged_in_pages);
    tcase_add_test(tc, test_core_budget_unlimited_and_null);
    suite_add_tcase(s, tc);
    tc = tcase_create("search");
    tcase_add_test(tc, test_core_search_poll_reports_limits);
    tcase_add_test(tc, test_core_status_names_are_api_strings);
    tcase_add_test(tc, test_core_registries_resolve_names_and_aliases);
    tcase_add_test(tc, test_core_rng_is_deterministic_and_uniform);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(core_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
