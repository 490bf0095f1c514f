/* SPDX-License-Identifier: MIT */
/* test_api_catalogue.c - the GET /v1/puzzles body against the registries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "api_json.h"
#include "catalogue.h"
#include "engine.h"
#include "heuristic.h"
#include "puzzle.h"
#include "request.h"

/* The catalogue for pol as a client reads it: printed, then parsed back
 * (the limits are raw number text in the tree api_catalogue returns). */
static cJSON *
catalogue_read(const api_policy_t *pol, char **text)
{
    cJSON *root = api_catalogue(pol);
    cJSON *back;
    char *s;

    ck_assert_ptr_nonnull(root);
    s = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    ck_assert_ptr_nonnull(s);
    back = cJSON_Parse(s);
    ck_assert_msg(back != NULL, "the catalogue is not JSON: %.200s", s);
    if (text != NULL) {
        *text = s;
    } else {
        cJSON_free(s);
    }
    return back;
}

static cJSON *
default_catalogue(void)
{
    api_policy_t pol;

    api_policy_default(&pol);
    return catalogue_read(&pol, NULL);
}

/* The string member name of o, failing the test when there is none. */
static const char *
str(const cJSON *o, const char *name)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(o, name));

    ck_assert_msg(s != NULL, "no string member '%s'", name);
    return s;
}

/* The element of list whose member key is value, or NULL; fails the test
 * when there are two. */
static cJSON *
find_by(const cJSON *list, const char *key, const char *value)
{
    cJSON *found = NULL;
    cJSON *o;

    cJSON_ArrayForEach(o, list)
    {
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(o, key));

        if (s != NULL && strcmp(s, value) == 0) {
            ck_assert_msg(found == NULL, "two entries with %s '%s'", key,
                          value);
            found = o;
        }
    }
    return found;
}

/* True when the array list holds the string s. */
static bool
has_string(const cJSON *list, const char *s)
{
    cJSON *o;

    cJSON_ArrayForEach(o, list)
    {
        if (cJSON_IsString(o) && strcmp(o->valuestring, s) == 0) {
            return true;
        }
    }
    return false;
}

START_TEST(test_api_catalogue_lists_every_puzzle_once)
{
    cJSON *root = default_catalogue();
    cJSON *puzzles = cJSON_GetObjectItem(root, "puzzles");
    const puzzle_ops_t *const *reg = puzzle_registry();
    int n = 0;

    ck_assert(cJSON_IsArray(puzzles));
    for (int i = 0; reg[i] != NULL; i++) {
        cJSON *o = find_by(puzzles, "id", reg[i]->name);

        ck_assert_msg(o != NULL, "%s is missing", reg[i]->name);
        ck_assert_str_eq(str(o, "summary"), reg[i]->summary);
        ck_assert_str_eq(str(o, "notation"), reg[i]->io->notation);
        ck_assert_str_eq(str(o, "state_forms"), reg[i]->io->state_forms);
        ck_assert_str_eq(str(o, "default_heuristic"),
                         reg[i]->default_heuristic);
        n++;
    }
    ck_assert_int_eq(cJSON_GetArraySize(puzzles), n);
    cJSON_Delete(root);
}
END_TEST

/* Each puzzle lists "none" and then its own heuristics, in order, with
 * their summaries and admissibility. */
START_TEST(test_api_catalogue_puzzle_heuristics)
{
    cJSON *root = default_catalogue();
    cJSON *puzzles = cJSON_GetObjectItem(root, "puzzles");
    const puzzle_ops_t *const *reg = puzzle_registry();

    for (int i = 0; reg[i] != NULL; i++) {
        cJSON *o = find_by(puzzles, "id", reg[i]->name);
        cJSON *list = cJSON_GetObjectItem(o, "heuristics");
        cJSON *h = list != NULL ? list->child : NULL;
        int k = 0;

        ck_assert(cJSON_IsArray(list));
        ck_assert_ptr_nonnull(h);
        ck_assert_str_eq(str(h, "name"), "none");
        ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(h, "admissible")));
        for (h = h->next; h != NULL; h = h->next, k++) {
            const heuristic_ops_t *want = reg[i]->heuristics[k];

            ck_assert_msg(want != NULL, "%s: extra heuristic %s", reg[i]->name,
                          str(h, "name"));
            ck_assert_str_eq(str(h, "name"), want->name);
            ck_assert_str_eq(str(h, "summary"), want->summary);
            ck_assert_int_eq(cJSON_IsTrue(cJSON_GetObjectItem(h, "admissible")),
                             want->admissible);
        }
        ck_assert_msg(reg[i]->heuristics == NULL ||
                          reg[i]->heuristics[k] == NULL,
                      "%s: heuristic %s is not listed", reg[i]->name,
                      reg[i]->heuristics[k]->name);
    }
    cJSON_Delete(root);
}
END_TEST

/* A puzzle's aliases are exactly those naming it, and the top-level list
 * gives each alias with its puzzle and, when it has one, its size. */
START_TEST(test_api_catalogue_aliases)
{
    cJSON *root = default_catalogue();
    cJSON *puzzles = cJSON_GetObjectItem(root, "puzzles");
    cJSON *aliases = cJSON_GetObjectItem(root, "aliases");
    int n = 0;

    for (const puzzle_alias_t *a = puzzle_aliases(); a->alias != NULL; a++) {
        cJSON *p = find_by(puzzles, "id", a->target);
        cJSON *o = find_by(aliases, "alias", a->alias);
        cJSON *size;

        ck_assert_ptr_nonnull(p);
        ck_assert_msg(has_string(cJSON_GetObjectItem(p, "aliases"), a->alias),
                      "%s does not list %s", a->target, a->alias);
        ck_assert_msg(o != NULL, "alias %s is missing", a->alias);
        ck_assert_str_eq(str(o, "puzzle"), a->target);
        size = cJSON_GetObjectItem(o, "size");
        if (a->rows > 0) {
            char want[16];

            snprintf(want, sizeof(want), "%dx%d", a->rows, a->cols);
            ck_assert_str_eq(cJSON_GetStringValue(size), want);
        } else {
            ck_assert_ptr_null(size);
        }
        n++;
    }
    ck_assert_int_eq(cJSON_GetArraySize(aliases), n);
    /* No puzzle claims an alias of another. */
    {
        cJSON *p;
        int listed = 0;

        cJSON_ArrayForEach(p, puzzles)
        {
            cJSON *a;

            cJSON_ArrayForEach(a, cJSON_GetObjectItem(p, "aliases"))
            {
                const puzzle_ops_t *ops = puzzle_find(a->valuestring);

                ck_assert_ptr_nonnull(ops);
                ck_assert_str_eq(ops->name, str(p, "id"));
                listed++;
            }
        }
        ck_assert_int_eq(listed, n);
    }
    cJSON_Delete(root);
}
END_TEST

/* The metrics, default metric and move count each puzzle reports are
 * those of its instances. */
START_TEST(test_api_catalogue_metrics_and_moves)
{
    static const struct {
        const char *name;
        int metric;
    } metrics[] = {
        { "htm", PZ_METRIC_HTM },
        { "qtm", PZ_METRIC_QTM },
        { "moves", PZ_METRIC_MOVES },
    };
    cJSON *root = default_catalogue();
    cJSON *puzzles = cJSON_GetObjectItem(root, "puzzles");
    const puzzle_ops_t *const *reg = puzzle_registry();

    for (int i = 0; reg[i] != NULL; i++) {
        cJSON *o = find_by(puzzles, "id", reg[i]->name);
        cJSON *list = cJSON_GetObjectItem(o, "metrics");
        pz_puzzle_t *p = NULL;
        int n = 0;

        ck_assert_int_eq(puzzle_create(reg[i]->name, NULL, &p, NULL), PZ_OK);
        ck_assert_str_eq(str(o, "default_metric"), p->metric_name);
        ck_assert_int_eq(
            (int)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "moves")),
            p->nmoves);
        ck_assert_msg(has_string(list, p->metric_name),
                      "%s: the default metric is not listed", reg[i]->name);
        puzzle_destroy(p);
        for (size_t k = 0; k < sizeof(metrics) / sizeof(metrics[0]); k++) {
            pz_params_t prm = { 0, 0, metrics[k].metric };
            bool real = false;

            if (puzzle_create(reg[i]->name, &prm, &p, NULL) == PZ_OK) {
                real = strcmp(p->metric_name, metrics[k].name) == 0;
                puzzle_destroy(p);
            }
            ck_assert_msg(has_string(list, metrics[k].name) == real,
                          "%s: metric %s listed %d, accepted %d", reg[i]->name,
                          metrics[k].name, has_string(list, metrics[k].name),
                          real);
            n += real;
        }
        ck_assert_int_eq(cJSON_GetArraySize(list), n);
    }
    cJSON_Delete(root);
}
END_TEST

/* Every example is a scramble its puzzle reads, not the solved state, and
 * the catalogue is the same on every build of it. */
START_TEST(test_api_catalogue_examples_scramble)
{
    char *a = NULL;
    char *b = NULL;
    api_policy_t pol;
    cJSON *root;
    cJSON *p;

    api_policy_default(&pol);
    root = catalogue_read(&pol, &a);
    cJSON_Delete(catalogue_read(&pol, &b));
    ck_assert_str_eq(a, b);
    cJSON_free(a);
    cJSON_free(b);
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(root, "puzzles"))
    {
        cJSON *examples = cJSON_GetObjectItem(p, "examples");
        cJSON *e;

        ck_assert_int_ge(cJSON_GetArraySize(examples), 1);
        cJSON_ArrayForEach(e, examples)
        {
            pz_puzzle_t *q = NULL;
            pz_state_t s;
            pz_state_t goal;
            pz_diag_t d;

            ck_assert_int_eq(puzzle_create(str(e, "puzzle"), NULL, &q, NULL),
                             PZ_OK);
            ck_assert_str_eq(q->ops->name, str(p, "id"));
            pz_diag_clear(&d);
            ck_assert_msg(
                puzzle_parse_scramble(q, str(e, "scramble"), &s, &d) == PZ_OK,
                "%s: '%s': %s", str(e, "puzzle"), str(e, "scramble"), d.detail);
            puzzle_goal(q, &goal);
            ck_assert(!puzzle_equal(q, &s, &goal));
            puzzle_destroy(q);
        }
    }
    cJSON_Delete(root);
}
END_TEST

/* "auto" first, every generic engine once with its flags, and the
 * puzzles' own solvers once per name ("twophase" of the 3x3x3 and the
 * Master Pyraminx is one entry whose summary names both). */
START_TEST(test_api_catalogue_engines)
{
    cJSON *root = default_catalogue();
    cJSON *engines = cJSON_GetObjectItem(root, "engines");
    const engine_ops_t *const *reg = engine_registry();
    const puzzle_ops_t *const *puzzles = puzzle_registry();
    cJSON *o;
    int n = 1;

    ck_assert(cJSON_IsArray(engines));
    ck_assert_str_eq(str(engines->child, "name"), "auto");
    ck_assert_ptr_eq(find_by(engines, "name", "auto"), engines->child);
    for (int i = 0; reg[i] != NULL; i++, n++) {
        o = find_by(engines, "name", reg[i]->name);
        ck_assert_msg(o != NULL, "engine %s is missing", reg[i]->name);
        /* A puzzle's own solver of the same name adds its part after. */
        ck_assert_msg(strncmp(str(o, "summary"), reg[i]->summary,
                              strlen(reg[i]->summary)) == 0,
                      "%s: summary '%s'", reg[i]->name, str(o, "summary"));
        ck_assert_int_eq(cJSON_IsTrue(cJSON_GetObjectItem(o, "optimal")),
                         reg[i]->optimal);
        ck_assert_int_eq(cJSON_IsTrue(cJSON_GetObjectItem(o, "uses_heuristic")),
                         reg[i]->uses_heuristic);
    }
    for (int i = 0; puzzles[i] != NULL; i++) {
        const engine_ops_t *const *own =
            puzzles[i]->solving != NULL ? puzzles[i]->solving->solvers : NULL;

        for (int k = 0; own != NULL && own[k] != NULL; k++) {
            const engine_ops_t *e = own[k];
            char part[512];

            o = find_by(engines, "name", e->name);
            ck_assert_msg(o != NULL, "%s's solver %s is missing",
                          puzzles[i]->name, e->name);
            snprintf(part, sizeof(part), "%s: %s", puzzles[i]->name,
                     e->summary);
            ck_assert_msg(strstr(str(o, "summary"), part) != NULL,
                          "%s: the summary '%s' lacks '%s'", e->name,
                          str(o, "summary"), part);
            ck_assert_int_eq(cJSON_IsTrue(cJSON_GetObjectItem(o, "optimal")),
                             e->optimal);
        }
    }
    /* One entry per distinct solver name beyond the generic engines. */
    cJSON_ArrayForEach(o, engines)
    {
        const char *name = str(o, "name");

        if (strcmp(name, "auto") != 0 && engine_find(name) == NULL) {
            ck_assert(engine_known(name));
            n++;
        }
    }
    ck_assert_int_eq(cJSON_GetArraySize(engines), n);
    ck_assert_ptr_nonnull(find_by(engines, "name", "twophase"));
    cJSON_Delete(root);
}
END_TEST

/* The limits are the policy's, memory in MiB, as exact integers. */
START_TEST(test_api_catalogue_limits_reflect_policy)
{
    api_policy_t pol;
    cJSON *root;
    cJSON *limits;
    char *text = NULL;

    api_policy_default(&pol);
    pol.default_time_ms = 1234;
    pol.max_time_ms = 98765;
    pol.default_memory_bytes = (size_t)48 << 20;
    pol.max_memory_bytes = (size_t)3 << 30;
    pol.default_max_nodes = 777;
    pol.max_max_nodes = (UINT64_C(1) << 53) + 1;
    pol.default_wait_ms = 250;
    pol.max_wait_ms = 4321;
    root = catalogue_read(&pol, &text);
    limits = cJSON_GetObjectItem(root, "limits");
    ck_assert(cJSON_IsObject(limits));
#define LIMIT(name) cJSON_GetNumberValue(cJSON_GetObjectItem(limits, name))
    ck_assert_double_eq(LIMIT("default_time_ms"), 1234);
    ck_assert_double_eq(LIMIT("max_time_ms"), 98765);
    ck_assert_double_eq(LIMIT("default_memory_mb"), 48);
    ck_assert_double_eq(LIMIT("max_memory_mb"), 3072);
    ck_assert_double_eq(LIMIT("default_max_nodes"), 777);
    ck_assert_double_eq(LIMIT("default_wait_ms"), 250);
    ck_assert_double_eq(LIMIT("max_wait_ms"), 4321);
    ck_assert_double_eq(LIMIT("max_engines"), API_ENGINES_MAX);
    ck_assert_double_eq(LIMIT("max_body_bytes"), API_BODY_MAX);
#undef LIMIT
    /* A double cannot hold 2^53 + 1: the text must. */
    ck_assert_msg(strstr(text, "\"max_nodes\":9007199254740993") != NULL,
                  "max_nodes not exact in %s", strstr(text, "\"limits\""));
    cJSON_free(text);
    cJSON_Delete(root);

    /* Zero maxima ("none") are reported as 0. */
    api_policy_default(&pol);
    pol.max_max_nodes = 0;
    pol.default_max_nodes = 0;
    root = catalogue_read(&pol, NULL);
    limits = cJSON_GetObjectItem(root, "limits");
    ck_assert_double_eq(
        cJSON_GetNumberValue(cJSON_GetObjectItem(limits, "max_nodes")), 0);
    ck_assert_double_eq(
        cJSON_GetNumberValue(cJSON_GetObjectItem(limits, "default_memory_mb")),
        (double)(pol.default_memory_bytes >> 20));
    cJSON_Delete(root);
}
END_TEST

static Suite *
catalogue_suite(void)
{
    Suite *s = suite_create("api_catalogue");
    TCase *tc = tcase_create("catalogue");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_api_catalogue_lists_every_puzzle_once);
    tcase_add_test(tc, test_api_catalogue_puzzle_heuristics);
    tcase_add_test(tc, test_api_catalogue_aliases);
    tcase_add_test(tc, test_api_catalogue_metrics_and_moves);
    tcase_add_test(tc, test_api_catalogue_examples_scramble);
    tcase_add_test(tc, test_api_catalogue_engines);
    tcase_add_test(tc, test_api_catalogue_limits_reflect_policy);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(catalogue_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
