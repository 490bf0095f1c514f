/* SPDX-License-Identifier: MIT */
/* api_request_testlib.h - request parsing helpers shared by the request
 * tests (test_api_request.c, test_api_request_options.c). */
#ifndef PZ_TESTS_API_REQUEST_TESTLIB_H
#define PZ_TESTS_API_REQUEST_TESTLIB_H

#include <string.h>

#include <check.h>

#include "api_json.h"
#include "request.h"

/* Parses text as a request body; returns the rc and fills req/d. */
static inline int
parse_text(const char *text, api_solve_request_t *req, pz_diag_t *d)
{
    api_policy_t pol;
    cJSON *body = NULL;
    int rc;

    api_policy_default(&pol);
    pol.max_time_ms = 60000;
    pol.max_memory_bytes = (size_t)512 << 20;
    rc = api_json_parse(text, strlen(text), &body, d);
    if (rc != PZ_OK) {
        return rc;
    }
    rc = api_solve_parse(body, &pol, req, d);
    cJSON_Delete(body);
    return rc;
}

/* Asserts that text is rejected with code rc and pointer field. */
static inline void
expect_reject(const char *text, int rc, const char *field)
{
    api_solve_request_t req;
    pz_diag_t d;
    int got = parse_text(text, &req, &d);

    ck_assert_msg(got == rc, "%s: expected %s, got %s (%s)", text,
                  pz_strerror(rc), pz_strerror(got), d.detail);
    ck_assert_int_eq(d.rc, rc);
    ck_assert_msg(d.detail[0] != '\0', "no detail for %s", text);
    if (field != NULL) {
        ck_assert_str_eq(d.field, field);
    }
    ck_assert_ptr_null(req.puzzle);
}

#endif
