/* SPDX-License-Identifier: MIT */
/* fuzz_request.c - libFuzzer target: a POST /v1/solve body through the
 * parser and validator the server runs, and the reply it would send. */

/*
 * Input: the raw request body. It goes through api_json_parse and
 * api_solve_parse exactly as handle_solve does, under the command line's
 * policy (tables prepared inline) and, when that accepts it, under the
 * daemon's with each --table-builds setting (startup, never, on-demand);
 * nothing runs a search or touches a table file.
 *
 * Oracles: a refusal leaves the request empty, carries its code in the
 * diagnostic, and becomes a problem body that is well-formed UTF-8 JSON
 * with a 4xx or 5xx status, a field that is empty or a JSON pointer, and a
 * position inside the body; an accepted request has a puzzle, one to
 * API_ENGINES_MAX runs, a start and goal that pass the format/parse round
 * trip and reach each other, and renders as a job (the 202 reply) that is
 * well-formed JSON echoing its scramble byte for byte. Cleaning up twice
 * is safe.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "api_json.h"
#include "fuzz_testlib.h"
#include "job.h"
#include "problem.h"
#include "request.h"
#include "tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Parses text[0..len) as the JSON of a reply and returns the tree, or
 * fails: a reply must be UTF-8 JSON whatever the request held. */
static cJSON *
reply_tree(const char *text, size_t len, const char *what)
{
    cJSON *v;

    if (pz_utf8_valid(text, len) != len) {
        fuzz_fail("%s is not valid UTF-8: %s", what, text);
    }
    v = cJSON_ParseWithLength(text, len);
    if (v == NULL) {
        fuzz_fail("%s is not JSON: %s", what, text);
    }
    return v;
}

static void
check_problem(int rc, const pz_diag_t *d, size_t body_len)
{
    cJSON *o = api_problem(rc, d);
    const cJSON *status;
    cJSON *back;
    char *text;

    if (o == NULL) {
        abort();
    }
    text = cJSON_PrintUnformatted(o);
    if (text == NULL) {
        abort();
    }
    back = reply_tree(text, strlen(text), "a problem body");
    status = cJSON_GetObjectItemCaseSensitive(back, "status");
    if (!cJSON_IsNumber(status) || status->valuedouble < 400 ||
        status->valuedouble > 599) {
        fuzz_fail("a refusal (%s) has status %s", pz_strerror(rc), text);
    }
    if (d->field[0] != '\0' && d->field[0] != '/') {
        fuzz_fail("field '%s' is not a JSON pointer", d->field);
    }
    if (d->position > (int)body_len) {
        fuzz_fail("position %d is past the body (%zu bytes)", d->position,
                  body_len);
    }
    cJSON_Delete(back);
    cJSON_free(text);
    cJSON_Delete(o);
}

static void
check_accepted(const api_solve_request_t *req)
{
    const pz_puzzle_t *p = req->puzzle;
    char canon[FUZZ_TEXT_MAX];
    api_job_info_t info = { 0 };
    const cJSON *scramble;
    cJSON *job;
    char *text;
    size_t len;
    pz_diag_t d;

    if (p == NULL || req->spec.puzzle != p || req->nruns < 1 ||
        req->nruns > API_ENGINES_MAX) {
        fuzz_fail("an accepted request has no puzzle or %d runs", req->nruns);
    }
    fuzz_check_roundtrip(p, &req->spec.start, canon);
    fuzz_check_roundtrip(p, &req->spec.goal, canon);
    pz_diag_clear(&d);
    if (puzzle_check_pair(p, &req->spec.start, &req->spec.goal, &d) != PZ_OK) {
        fuzz_fail("an accepted start cannot reach its goal: %s", d.detail);
    }
    info.id = "fuzz";
    info.created_ms = 1;
    info.preparing = req->preparing;
    info.req = req;
    text = api_job_text(&info, &len);
    if (text == NULL) {
        abort();
    }
    job = reply_tree(text, len, "a job");
    scramble = cJSON_GetObjectItemCaseSensitive(job, "scramble");
    if ((req->scramble == NULL) != (scramble == NULL) ||
        (req->scramble != NULL &&
         (!cJSON_IsString(scramble) ||
          strcmp(scramble->valuestring, req->scramble) != 0))) {
        fuzz_fail("the job does not echo the scramble: %s", text);
    }
    cJSON_Delete(job);
    free(text);
}

/* Validates body under pol; returns whether it was accepted. */
static bool
check_body(const cJSON *body, const api_policy_t *pol, size_t len)
{
    api_solve_request_t req;
    pz_diag_t d;
    int rc = api_solve_parse(body, pol, &req, &d);

    if (rc != PZ_OK) {
        if (req.puzzle != NULL || req.scramble != NULL || req.nruns != 0) {
            fuzz_fail("a refused request holds a puzzle or runs");
        }
        fuzz_check_diag(rc, &d, len, "api_solve_parse");
        check_problem(rc, &d, len);
        return false;
    }
    check_accepted(&req);
    api_solve_cleanup(&req);
    api_solve_cleanup(&req);
    return true;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* A table directory that cannot exist (a path under a device): the
     * validator asks whether files are there, and none ever is, so no
     * input depends on the machine. Nothing here writes one. */
    if (tables_set_dir("/dev/null/puzzled-fuzz") != PZ_OK) {
        abort();
    }
    return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    api_policy_t pol;
    cJSON *body = NULL;
    pz_diag_t d;
    int rc;

    pz_diag_clear(&d);
    rc = api_json_parse((const char *)data, size, &body, &d);
    if (rc != PZ_OK) {
        if (body != NULL) {
            fuzz_fail("api_json_parse failed but returned a tree");
        }
        fuzz_check_diag(rc, &d, size, "api_json_parse");
        check_problem(rc, &d, size);
        return 0;
    }
    /*
     * The command line's policy (tables prepared inline) first. The
     * policies differ only in table_builds, which only the last step of
     * the validation reads, so a body refused here is refused the same
     * way under every policy; an accepted one is also planned as the
     * daemon plans it with each --table-builds (server/config.c: startup
     * by default).
     */
    api_policy_default(&pol);
    if (check_body(body, &pol, size)) {
        static const int builds[] = {
            API_TABLE_BUILDS_STARTUP,
            API_TABLE_BUILDS_NEVER,
            API_TABLE_BUILDS_ON_DEMAND,
        };

        for (size_t i = 0; i < sizeof(builds) / sizeof(builds[0]); i++) {
            pol.table_builds = builds[i];
            check_body(body, &pol, size);
        }
    }
    cJSON_Delete(body);
    return 0;
}
