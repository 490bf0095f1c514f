/* SPDX-License-Identifier: MIT */
/* catalogue.c - the GET /v1/puzzles body, built from the registries. */
#include "catalogue.h"

#include <stdio.h>
#include <string.h>

#include "api_json.h"
#include "engine.h"
#include "heuristic.h"
#include "job.h"

/* Moves in an example scramble: enough to be a real puzzle, few enough
 * that every engine answers in milliseconds. */
#define EXAMPLE_MOVES 12

/* True when name can be instantiated in this build with its defaults; a
 * puzzle whose module is not built yet stays out of the catalogue. */
static bool
available(const char *name)
{
    pz_puzzle_t *p = NULL;

    if (puzzle_create(name, NULL, &p, NULL) != PZ_OK) {
        return false;
    }
    puzzle_destroy(p);
    return true;
}

static cJSON *
heuristic_json(const heuristic_ops_t *h)
{
    cJSON *o = cJSON_CreateObject();

    cJSON_AddStringToObject(o, "name", h->name);
    cJSON_AddStringToObject(o, "summary", h->summary);
    cJSON_AddBoolToObject(o, "admissible", h->admissible);
    return o;
}

/* Adds {"puzzle": name, "scramble": ...} for instance name to examples. */
static void
add_example(cJSON *examples, const char *name, uint64_t seed)
{
    pz_puzzle_t *p = NULL;
    pz_state_t goal;
    pz_rng_t rng;
    uint8_t moves[EXAMPLE_MOVES];
    char text[EXAMPLE_MOVES * 8];
    cJSON *o;

    if (puzzle_create(name, NULL, &p, NULL) != PZ_OK) {
        return;
    }
    puzzle_goal(p, &goal);
    pz_rng_seed(&rng, seed);
    if (puzzle_random_moves(p, &goal, EXAMPLE_MOVES, pz_rng_next, &rng,
                            moves) == PZ_OK &&
        puzzle_format_moves(p, moves, EXAMPLE_MOVES, text, sizeof(text)) >= 0) {
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "puzzle", name);
        cJSON_AddStringToObject(o, "scramble", text);
        cJSON_AddItemToArray(examples, o);
    }
    puzzle_destroy(p);
}

/* The metrics ops accepts, found by trying each one. */
static void
add_metrics(cJSON *o, const puzzle_ops_t *ops)
{
    static const struct {
        int metric;
        const char *name;
    } metrics[] = {
        { PZ_METRIC_HTM, "htm" },
        { PZ_METRIC_QTM, "qtm" },
        { PZ_METRIC_MOVES, "moves" },
    };

    cJSON *list = cJSON_AddArrayToObject(o, "metrics");
    pz_puzzle_t *p = NULL;

    if (puzzle_create(ops->name, NULL, &p, NULL) == PZ_OK) {
        cJSON_AddStringToObject(o, "default_metric", p->metric_name);
        cJSON_AddNumberToObject(o, "moves", p->nmoves);
        puzzle_destroy(p);
    }
    for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
        pz_params_t prm = { 0, 0, metrics[i].metric };

        if (puzzle_create(ops->name, &prm, &p, NULL) == PZ_OK) {
            /* A puzzle with one kind of move ignores the metric; list only
             * the metric it really uses. */
            if (strcmp(p->metric_name, metrics[i].name) == 0) {
                cJSON_AddItemToArray(list, cJSON_CreateString(metrics[i].name));
            }
            puzzle_destroy(p);
        }
    }
}

/* What a goal that cares about some pieces may name ("care"): the
 * pieces, by kind, and the presets. Nothing for a puzzle without. */
static void
add_care(cJSON *o, const puzzle_ops_t *ops)
{
    cJSON *care;
    cJSON *kinds;
    cJSON *presets;

    if (ops->pieces == NULL) {
        return;
    }
    for (const puzzle_pieces_t *r = ops->pieces; r->name != NULL; r++) {
        if (r->rigid && r->names == NULL) {
            return; /* no mask for this puzzle (puzzle_mask_care) */
        }
    }
    care = cJSON_AddObjectToObject(o, "care");
    kinds = cJSON_AddArrayToObject(care, "pieces");
    for (const puzzle_pieces_t *r = ops->pieces; r->name != NULL; r++) {
        cJSON *k = cJSON_CreateObject();
        cJSON *names = cJSON_AddArrayToObject(k, "names");

        cJSON_AddStringToObject(k, "kind", r->name);
        for (int i = 0; r->names != NULL && i < r->count; i++) {
            cJSON_AddItemToArray(names, cJSON_CreateString(r->names[i]));
        }
        cJSON_AddItemToArray(kinds, k);
    }
    presets = cJSON_AddArrayToObject(care, "presets");
    for (const puzzle_preset_t *q = ops->presets; q != NULL && q->name != NULL;
         q++) {
        cJSON *p = cJSON_CreateObject();

        cJSON_AddStringToObject(p, "name", q->name);
        cJSON_AddStringToObject(p, "pieces", q->pieces);
        cJSON_AddStringToObject(p, "summary", q->summary);
        cJSON_AddItemToArray(presets, p);
    }
}

static cJSON *
puzzle_json(const puzzle_ops_t *ops, uint64_t seed)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *aliases = NULL;
    cJSON *heur = NULL;
    cJSON *examples = NULL;
    int nexamples = 0;

    cJSON_AddStringToObject(o, "id", ops->name);
    cJSON_AddStringToObject(o, "summary", ops->summary);
    if (ops->io != NULL) {
        cJSON_AddStringToObject(o, "notation", ops->io->notation);
        cJSON_AddStringToObject(o, "state_forms", ops->io->state_forms);
    }
    add_metrics(o, ops);
    aliases = cJSON_AddArrayToObject(o, "aliases");
    examples = cJSON_CreateArray();
    for (const puzzle_alias_t *a = puzzle_aliases(); a->alias != NULL; a++) {
        if (strcmp(a->target, ops->name) != 0) {
            continue;
        }
        cJSON_AddItemToArray(aliases, cJSON_CreateString(a->alias));
        /* Sized aliases make the clearest examples ("15-puzzle"). */
        if (a->rows > 0 && nexamples < 2) {
            add_example(examples, a->alias, seed + (uint64_t)nexamples);
            nexamples++;
        }
    }
    if (nexamples == 0) {
        add_example(examples, ops->name, seed);
    }
    cJSON_AddStringToObject(o, "default_heuristic", ops->default_heuristic);
    heur = cJSON_AddArrayToObject(o, "heuristics");
    cJSON_AddItemToArray(heur, heuristic_json(&heuristic_none));
    for (int i = 0; ops->heuristics != NULL && ops->heuristics[i] != NULL;
         i++) {
        cJSON_AddItemToArray(heur, heuristic_json(ops->heuristics[i]));
    }
    cJSON_AddItemToObject(o, "examples", examples);
    add_care(o, ops);
    return o;
}

/* Every alias with the puzzle and size it stands for. */
static cJSON *
aliases_json(void)
{
    cJSON *list = cJSON_CreateArray();

    for (const puzzle_alias_t *a = puzzle_aliases(); a->alias != NULL; a++) {
        cJSON *o;

        if (!available(a->target)) {
            continue;
        }
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "alias", a->alias);
        cJSON_AddStringToObject(o, "puzzle", a->target);
        if (a->rows > 0) {
            char size[16];

            snprintf(size, sizeof(size), "%dx%d", a->rows, a->cols);
            cJSON_AddStringToObject(o, "size", size);
        }
        cJSON_AddItemToArray(list, o);
    }
    return list;
}

/* The entry of list named name, or NULL. */
static cJSON *
find_named(cJSON *list, const char *name)
{
    cJSON *o;

    cJSON_ArrayForEach(o, list)
    {
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(o, "name"));

        if (s != NULL && strcmp(s, name) == 0) {
            return o;
        }
    }
    return NULL;
}

/* Adds the solvers puzzles have for themselves; a name several puzzles
 * use gets one entry, each puzzle's summary after its name. */
static void
add_puzzle_solvers(cJSON *list)
{
    const puzzle_ops_t *const *reg = puzzle_registry();

    for (int i = 0; reg[i] != NULL; i++) {
        const engine_ops_t *const *own =
            reg[i]->solving != NULL ? reg[i]->solving->solvers : NULL;

        for (int k = 0;
             available(reg[i]->name) && own != NULL && own[k] != NULL; k++) {
            cJSON *o = find_named(list, own[k]->name);
            char text[512];

            if (o == NULL) {
                o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "name", own[k]->name);
                cJSON_AddStringToObject(o, "summary", "");
                cJSON_AddBoolToObject(o, "optimal", own[k]->optimal);
                cJSON_AddBoolToObject(o, "uses_heuristic",
                                      own[k]->uses_heuristic);
                cJSON_AddItemToArray(list, o);
            }
            const char *was =
                cJSON_GetStringValue(cJSON_GetObjectItem(o, "summary"));
            snprintf(text, sizeof(text), "%s%s%s: %s", was,
                     was[0] != '\0' ? "; " : "", reg[i]->name, own[k]->summary);
            cJSON_ReplaceItemInObject(o, "summary", cJSON_CreateString(text));
        }
    }
}

static cJSON *
engines_json(void)
{
    const engine_ops_t *const *reg = engine_registry();
    cJSON *list = cJSON_CreateArray();
    cJSON *o = cJSON_CreateObject();

    cJSON_AddStringToObject(o, "name", "auto");
    cJSON_AddStringToObject(o, "summary",
                            "picks the engine and heuristic per puzzle, size "
                            "and the request's \"optimal\"; the job reports "
                            "the choice");
    cJSON_AddBoolToObject(o, "optimal", true);
    cJSON_AddBoolToObject(o, "uses_heuristic", true);
    cJSON_AddItemToArray(list, o);
    for (int i = 0; reg[i] != NULL; i++) {
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", reg[i]->name);
        cJSON_AddStringToObject(o, "summary", reg[i]->summary);
        cJSON_AddBoolToObject(o, "optimal", reg[i]->optimal);
        cJSON_AddBoolToObject(o, "uses_heuristic", reg[i]->uses_heuristic);
        cJSON_AddItemToArray(list, o);
    }
    add_puzzle_solvers(list);
    return list;
}

static cJSON *
limits_json(const api_policy_t *pol)
{
    cJSON *o = cJSON_CreateObject();

    api_add_u64(o, "default_time_ms", pol->default_time_ms);
    api_add_u64(o, "max_time_ms", pol->max_time_ms);
    api_add_u64(o, "default_memory_mb", pol->default_memory_bytes >> 20);
    api_add_u64(o, "max_memory_mb", pol->max_memory_bytes >> 20);
    api_add_u64(o, "default_max_nodes", pol->default_max_nodes);
    api_add_u64(o, "max_nodes", pol->max_max_nodes);
    api_add_u64(o, "default_wait_ms", (uint64_t)pol->default_wait_ms);
    api_add_u64(o, "max_wait_ms", (uint64_t)pol->max_wait_ms);
    cJSON_AddNumberToObject(o, "max_engines", API_ENGINES_MAX);
    cJSON_AddNumberToObject(o, "max_body_bytes", API_BODY_MAX);
    return o;
}

cJSON *
api_catalogue(const api_policy_t *pol)
{
    const puzzle_ops_t *const *reg = puzzle_registry();
    cJSON *root = cJSON_CreateObject();
    cJSON *puzzles;

    if (root == NULL) {
        return NULL;
    }
    puzzles = cJSON_AddArrayToObject(root, "puzzles");
    for (int i = 0; reg[i] != NULL; i++) {
        if (!available(reg[i]->name)) {
            continue;
        }
        cJSON_AddItemToArray(
            puzzles,
            puzzle_json(reg[i], 0x70757a7a6c656400u + 16u * (uint64_t)i));
    }
    cJSON_AddItemToObject(root, "aliases", aliases_json());
    cJSON_AddItemToObject(root, "engines", engines_json());
    cJSON_AddItemToObject(root, "limits", limits_json(pol));
    /* A NULL anywhere above leaves a member out rather than crashing;
     * check the parts a client cannot do without. */
    if (puzzles == NULL || cJSON_GetObjectItem(root, "engines") == NULL ||
        cJSON_GetObjectItem(root, "limits") == NULL) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

char *
api_catalogue_text(const api_policy_t *pol, size_t *len)
{
    cJSON *root = api_catalogue(pol);
    char *text = root != NULL ? jsonout_print(root, len) : NULL;

    cJSON_Delete(root);
    return text;
}
