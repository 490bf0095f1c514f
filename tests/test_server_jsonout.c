/* SPDX-License-Identifier: MIT */
/* test_server_jsonout.c - jsonout prints what cJSON prints, and the fast
 * log lines are the lines cJSON would write. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "api_json.h"
#include "jsonout.h"
#include "log.h"
#include "rng.h"

/*
 * The reference is the cJSON library the daemon links: the reply bodies
 * are written to be its cJSON_PrintUnformatted output, the text clients
 * and the OpenAPI checks expect. Every case compares our text with the
 * library's for the same tree.
 */

/* Deterministic 64-bit generator (splitmix64) for the number sweeps. */
static uint64_t
next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* True when jsonout prints root as cJSON does; on a difference, both
 * texts go to stderr. */
static bool
same_text(const cJSON *root)
{
    char *want = cJSON_PrintUnformatted(root);
    size_t len = 0;
    char *got = jsonout_print(root, &len);
    bool same = want != NULL && got != NULL && strcmp(want, got) == 0 &&
                len == strlen(want);

    if (!same) {
        fprintf(stderr, "cJSON:   %s\njsonout: %s\n", want ? want : "(null)",
                got ? got : "(null)");
    }
    cJSON_free(want);
    free(got);
    return same;
}

/* Counts the numbers among n whose text differs from cJSON's (one array
 * item each, compared one by one so a difference names its number). */
static int
count_number_mismatches(const double *v, int n)
{
    int bad = 0;

    for (int i = 0; i < n; i++) {
        cJSON *num = cJSON_CreateNumber(v[i]);
        char *want = cJSON_PrintUnformatted(num);
        char got[JSONOUT_NUMBER_MAX];

        jsonout_number(v[i], jsonout_valueint(v[i]), got);
        if (want == NULL || strcmp(want, got) != 0 ||
            num->valueint != jsonout_valueint(v[i])) {
            if (bad < 5) {
                fprintf(stderr, "%.17g: cJSON '%s', jsonout '%s'\n", v[i],
                        want ? want : "(null)", got);
            }
            bad++;
        }
        cJSON_free(want);
        cJSON_Delete(num);
    }
    return bad;
}

START_TEST(test_server_jsonout_number_special_values_match_cjson)
{
    static const double v[] = {
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        0.001,
        -0.001,
        0.0005,
        0.1,
        0.2,
        0.3,
        0.203,
        1.5,
        12.345,
        999.999,
        1e-3,
        1e-4,
        1e-5,
        1e-300,
        5e-324,
        DBL_MIN,
        DBL_MAX,
        -DBL_MAX,
        1e11,
        1e12,
        1e12 + 0.5,
        1e15,
        1e16,
        1e21,
        123456789012.345,
        2147483647.0,
        -2147483648.0,
        2147483648.0,
        -2147483649.0,
        4294967296.0,
        9007199254740991.0,
        9007199254740993.0,
        0.1 + 0.2,
        1.0 / 3.0,
        2.0 / 3.0,
        3.141592653589793,
        -2.718281828459045,
        1270971.3,
        16390243.0,
        0.041,
        0.011,
        100.0,
        1e300,
        NAN,
        INFINITY,
        -INFINITY,
    };

    ck_assert_int_eq(
        count_number_mismatches(v, (int)(sizeof(v) / sizeof(v[0]))), 0);
}
END_TEST

START_TEST(test_server_jsonout_number_random_values_match_cjson)
{
    enum {
        N = 60000
    };
    static double v[N];
    uint64_t s = 42;

    for (int i = 0; i < N; i++) {
        uint64_t r = next_u64(&s);

        switch (i % 6) {
        case 0: /* any finite bit pattern */
            do {
                memcpy(&v[i], &r, sizeof(r));
                r = next_u64(&s);
            } while (!isfinite(v[i]));
            break;
        case 1: /* milliseconds with microsecond resolution */
            v[i] = (double)(int64_t)(r % 200000000) / 1e3;
            break;
        case 2: /* integers of any size up to 2^53, both signs */
            v[i] = (double)(int64_t)(r >> 11) * (r & 1 ? -1 : 1);
            break;
        case 3: /* small integers */
            v[i] = (double)(int32_t)r;
            break;
        case 4: /* quotients, as rates and averages come out */
            v[i] = (double)(r % 100000000) / (double)(1 + (r >> 40) % 997);
            break;
        default: /* near the edges of the three-decimal path */
            v[i] = ((double)(int64_t)(r % 2000000000000000) - 1e15) / 1e3;
            break;
        }
    }
    ck_assert_int_eq(count_number_mismatches(v, N), 0);
}
END_TEST

START_TEST(test_server_jsonout_print_strings_match_cjson)
{
    char all[128];
    cJSON *root = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(root, "strings");

    /* Every byte from 1 to 127, then bytes >= 128 (not UTF-8-checked). */
    for (int i = 1; i < 128; i++) {
        all[i - 1] = (char)i;
    }
    all[127] = '\0';
    cJSON_AddItemToArray(arr, cJSON_CreateString(all));
    cJSON_AddItemToArray(arr, cJSON_CreateString("caf\xc3\xa9 \xff\xfe"));
    cJSON_AddItemToArray(arr, cJSON_CreateString(""));
    cJSON_AddItemToArray(arr, cJSON_CreateString("\"quoted\" \\ back"));
    cJSON_AddStringToObject(root, "key \"with\"\n escapes", "v");
    ck_assert(same_text(root));
    cJSON_Delete(root);
}
END_TEST

START_TEST(test_server_jsonout_print_tree_matches_cjson)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *inner = cJSON_CreateObject();
    cJSON *list = cJSON_CreateArray();

    cJSON_AddNullToObject(root, "null");
    cJSON_AddTrueToObject(root, "yes");
    cJSON_AddFalseToObject(root, "no");
    cJSON_AddRawToObject(root, "raw", "18446744073709551615");
    cJSON_AddNumberToObject(root, "ms", 0.203);
    cJSON_AddItemToObject(root, "empty_object", cJSON_CreateObject());
    cJSON_AddItemToObject(root, "empty_array", cJSON_CreateArray());
    for (int i = 0; i < 5; i++) {
        cJSON_AddItemToArray(list, cJSON_CreateNumber(i * 1.25));
    }
    cJSON_AddItemToArray(list, cJSON_CreateArray());
    cJSON_AddItemToObject(inner, "list", list);
    cJSON_AddItemToObject(root, "inner", inner);
    ck_assert(same_text(root));
    ck_assert(same_text(list));
    ck_assert(same_text(cJSON_GetObjectItemCaseSensitive(root, "ms")));
    cJSON_Delete(root);
}
END_TEST

START_TEST(test_server_jsonout_print_parsed_document_matches_cjson)
{
    /* A job as the daemon renders one (openapi.yaml's example shape). */
    static const char doc[] =
        "{\"id\":\"0f5c2a913e7d4b6a\",\"status\":\"solved\",\"limits\":{"
        "\"time_ms\":10000,\"memory_mb\":256},\"solution\":{\"moves\":"
        "[\"U'\",\"F\",\"R\"],\"length\":3,\"optimal\":true},\"stats\":{"
        "\"nodes_expanded\":112,\"elapsed_ms\":0.041,\"nodes_per_second\":"
        "16390243.902439,\"heuristic_at_start\":-1},\"error\":null}";
    cJSON *root = cJSON_Parse(doc);

    ck_assert_ptr_nonnull(root);
    ck_assert(same_text(root));
    cJSON_Delete(root);
}
END_TEST

/* The writer gives the text cJSON prints for the tree with the same
 * members: nesting, commas, keys with escapes, every scalar kind, and a
 * u64 past 2^53 (which the tree can only hold as a raw item). */
START_TEST(test_server_jsonout_writer_matches_cjson_tree)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *list = cJSON_CreateArray();
    cJSON *inner = cJSON_CreateObject();
    jsonout_t w;
    size_t len;
    char *want;
    char *got;

    cJSON_AddStringToObject(root, "s", "tab\there \"q\" \x01");
    cJSON_AddNullToObject(root, "null");
    cJSON_AddTrueToObject(root, "yes");
    cJSON_AddFalseToObject(root, "no");
    cJSON_AddRawToObject(root, "big", "18446744073709551615");
    cJSON_AddNumberToObject(root, "ms", 0.203);
    cJSON_AddNumberToObject(root, "neg", -17);
    cJSON_AddItemToObject(root, "empty", cJSON_CreateArray());
    cJSON_AddItemToArray(list, cJSON_CreateString("a"));
    cJSON_AddItemToArray(list, cJSON_CreateNumber(1e300));
    cJSON_AddItemToArray(list, inner);
    cJSON_AddStringToObject(inner, "key \"with\"\n escapes", "v");
    cJSON_AddItemToObject(root, "list", list);
    want = cJSON_PrintUnformatted(root);

    jsonout_init(&w);
    jsonout_begin(&w, NULL, '{');
    jsonout_string(&w, "s", "tab\there \"q\" \x01");
    jsonout_null(&w, "null");
    jsonout_bool(&w, "yes", true);
    jsonout_bool(&w, "no", false);
    jsonout_u64(&w, "big", UINT64_MAX);
    jsonout_double(&w, "ms", 0.203);
    jsonout_double(&w, "neg", -17);
    jsonout_begin(&w, "empty", '[');
    jsonout_end(&w, ']');
    jsonout_begin(&w, "list", '[');
    jsonout_string(&w, NULL, "a");
    jsonout_double(&w, NULL, 1e300);
    jsonout_begin(&w, NULL, '{');
    jsonout_string(&w, "key \"with\"\n escapes", "v");
    jsonout_end(&w, '}');
    jsonout_end(&w, ']');
    jsonout_end(&w, '}');
    got = jsonout_finish(&w, &len);

    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, want);
    ck_assert_uint_eq(len, strlen(want));
    free(got);
    cJSON_free(want);
    cJSON_Delete(root);
}
END_TEST

START_TEST(test_server_jsonout_print_raw_without_text_fails_like_cjson)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *raw = cJSON_CreateRaw("1");
    size_t len = 7;

    cJSON_AddItemToObject(root, "raw", raw);
    free(raw->valuestring);
    raw->valuestring = NULL;
    ck_assert_ptr_null(cJSON_PrintUnformatted(root));
    ck_assert_ptr_null(jsonout_print(root, &len));
    ck_assert_uint_eq(len, 0);
    cJSON_Delete(root);
}
END_TEST

/* Runs fn with stderr sent to a file and returns what it wrote (owned). */
static char *
capture_stderr(void (*fn)(void))
{
    char path[] = "/tmp/pz-jsonout-XXXXXX";
    int fd = mkstemp(path);
    int saved = dup(2);
    char *text = calloc(1, 8192);
    FILE *f;

    ck_assert(fd >= 0 && saved >= 0 && text != NULL);
    fflush(stderr);
    dup2(fd, 2);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert(fread(text, 1, 8191, f) < 8191);
    fclose(f);
    unlink(path);
    return text;
}

static const char odd_path[] = "/v1/jobs/x\n\"y\\z\x01\x7f\xc3\xa9";

/* The event log_without_cjson writes, as cJSON prints it. */
static void
log_with_cjson(void)
{
    cJSON *ev = cJSON_CreateObject();
    char *line;

    cJSON_AddStringToObject(ev, "ts", "2026-01-01T00:00:00.000Z");
    cJSON_AddStringToObject(ev, "level", "info");
    cJSON_AddStringToObject(ev, "msg", "request");
    cJSON_AddStringToObject(ev, "path", odd_path);
    cJSON_AddNumberToObject(ev, "status", 404);
    cJSON_AddNumberToObject(ev, "duration_ms", 0.203);
    cJSON_AddNumberToObject(ev, "big", 3e9);
    cJSON_AddNumberToObject(ev, "third", 1.0 / 3.0);
    cJSON_AddRawToObject(ev, "nodes", "18446744073709551615");
    line = cJSON_PrintUnformatted(ev);
    fprintf(stderr, "%s\n", line);
    cJSON_free(line);
    cJSON_Delete(ev);
}

static void
log_without_cjson(void)
{
    log_line_t l;

    log_line_begin(&l, LOG_INFO, "request");
    log_line_str(&l, "path", odd_path);
    log_line_num(&l, "status", 404);
    log_line_num(&l, "duration_ms", 0.203);
    log_line_num(&l, "big", 3e9);
    log_line_num(&l, "third", 1.0 / 3.0);
    log_line_u64(&l, "nodes", UINT64_MAX);
    log_line_end(&l);
}

/* Drops the timestamp: the two lines are written at different times. */
static const char *
after_ts(const char *line)
{
    const char *p = strstr(line, "\"level\"");

    return p != NULL ? p : line;
}

START_TEST(test_server_jsonout_log_line_same_as_cjson_event)
{
    char *a = capture_stderr(log_with_cjson);
    char *b = capture_stderr(log_without_cjson);

    ck_assert_msg(strncmp(a, "{\"ts\":\"", 7) == 0 &&
                      strncmp(b, "{\"ts\":\"", 7) == 0,
                  "lines start with the timestamp: %s / %s", a, b);
    ck_assert_str_eq(after_ts(a), after_ts(b));
    free(a);
    free(b);
}
END_TEST

static void
log_filtered(void)
{
    log_line_t l;

    log_set_level(LOG_WARN);
    ck_assert(!log_line_begin(&l, LOG_INFO, "request"));
    log_line_str(&l, "path", "/x");
    log_line_end(&l);
    log_set_level(LOG_INFO);
}

START_TEST(test_server_jsonout_log_line_filtered_level_writes_nothing)
{
    char *text = capture_stderr(log_filtered);

    ck_assert_str_eq(text, "");
    free(text);
}
END_TEST

START_TEST(test_server_jsonout_rng_bytes_differ_and_bounded)
{
    unsigned char a[16];
    unsigned char b[16];
    unsigned char big[RNG_MAX + 1];
    int same = 0;

    /* Enough draws to cross several 4 KiB refills. */
    for (int i = 0; i < 2000; i++) {
        ck_assert_int_eq(rng_bytes(a, sizeof(a)), 0);
        ck_assert_int_eq(rng_bytes(b, sizeof(b)), 0);
        same += memcmp(a, b, sizeof(a)) == 0;
    }
    ck_assert_int_eq(same, 0);
    ck_assert_int_ne(rng_bytes(big, sizeof(big)), 0);
}
END_TEST

static Suite *
server_jsonout_suite(void)
{
    Suite *s = suite_create("server_jsonout");
    TCase *tc;

    tc = tcase_create("number");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, test_server_jsonout_number_special_values_match_cjson);
    tcase_add_test(tc, test_server_jsonout_number_random_values_match_cjson);
    suite_add_tcase(s, tc);

    tc = tcase_create("print");
    tcase_add_test(tc, test_server_jsonout_print_strings_match_cjson);
    tcase_add_test(tc, test_server_jsonout_print_tree_matches_cjson);
    tcase_add_test(tc, test_server_jsonout_print_parsed_document_matches_cjson);
    tcase_add_test(tc, test_server_jsonout_writer_matches_cjson_tree);
    tcase_add_test(tc,
                   test_server_jsonout_print_raw_without_text_fails_like_cjson);
    suite_add_tcase(s, tc);

    tc = tcase_create("log_line");
    tcase_add_test(tc, test_server_jsonout_log_line_same_as_cjson_event);
    tcase_add_test(tc,
                   test_server_jsonout_log_line_filtered_level_writes_nothing);
    suite_add_tcase(s, tc);

    tc = tcase_create("rng");
    tcase_add_test(tc, test_server_jsonout_rng_bytes_differ_and_bounded);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(server_jsonout_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
