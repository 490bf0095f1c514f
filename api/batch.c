/* SPDX-License-Identifier: MIT */
/* batch.c - many solves in one job: parsing a batch, running its items in
 * order, and writing their results as JSON or one line each. */
#include "batch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api_json.h"
#include "job.h"
#include "problem.h"

/* Members an item may have; anything else belongs to the shared part. */
static bool
item_member(const char *name)
{
    return strcmp(name, "scramble") == 0 || strcmp(name, "state") == 0;
}

/* The request text of item i: the shared members and the item's. Owned. */
static char *
item_text(const api_batch_t *b, int i)
{
    size_t sl = strlen(b->shared);
    size_t il = strlen(b->items[i]);
    char *t = malloc(sl + il + 2);

    if (t == NULL) {
        return NULL;
    }
    /* "{" shared members "," item members "}" */
    snprintf(t, sl + il + 2, "{%.*s%s%.*s}", (int)(sl - 2), b->shared + 1,
             sl > 2 ? "," : "", (int)(il - 2), b->items[i] + 1);
    return t;
}

static void
batch_free(api_batch_t *b)
{
    if (b == NULL) {
        return;
    }
    for (int i = 0; i < b->n; i++) {
        free(b->items != NULL ? b->items[i] : NULL);
        free(b->results != NULL ? b->results[i] : NULL);
    }
    free(b->items);
    free(b->results);
    free(b->status);
    free(b->shared);
    free(b);
}

void
api__batch_free(api_batch_t *b)
{
    batch_free(b);
}

/* Checks item i as a whole request; on failure prefixes d->field with
 * /items/i. PZ_OK or the code. With keep, the request stays in req. */
static int
check_item(api_batch_t *b, int i, api_solve_request_t *req, pz_diag_t *d)
{
    char *text = item_text(b, i);
    cJSON *root = NULL;
    int rc;

    if (text == NULL) {
        return pz_diag_set(d, PZ_ENOMEM, "out of memory");
    }
    rc = api_json_parse(text, strlen(text), &root, d);
    if (rc == PZ_OK) {
        rc = api_solve_parse(root, &b->policy, req, d);
    }
    cJSON_Delete(root);
    free(text);
    if (rc != PZ_OK) {
        char field[sizeof(d->field) + 24];

        snprintf(field, sizeof(field), "/items/%d%.*s", i,
                 (int)(sizeof(d->field) - 24), d->field);
        pz_diag_field(d, field);
    }
    return rc;
}

int
api_batch_parse(const cJSON *root,
                const api_policy_t *pol,
                api_solve_request_t *req,
                pz_diag_t *d)
{
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(root, "items");
    int max = pol->max_batch > 0 ? pol->max_batch : API_BATCH_ITEMS_DEFAULT;
    cJSON *shared = NULL;
    api_batch_t *b;
    int rc = PZ_OK;
    int n;

    memset(req, 0, sizeof(*req));
    if (!cJSON_IsArray(items) || (n = cJSON_GetArraySize(items)) < 1) {
        pz_diag_set(d, PZ_ETYPE,
                    "'items' must be a non-empty array of scrambles or "
                    "{\"state\": ...} objects");
        pz_diag_field(d, "/items");
        return PZ_ETYPE;
    }
    if (n > max) {
        pz_diag_set(d, PZ_ELIMIT, "a batch holds at most %d items, not %d", max,
                    n);
        pz_diag_field(d, "/items");
        return PZ_ELIMIT;
    }
    b = calloc(1, sizeof(*b));
    if (b == NULL) {
        return pz_diag_set(d, PZ_ENOMEM, "out of memory");
    }
    b->policy = *pol;
    /* The items run one after another on their job's one thread. */
    b->policy.optimal_threads = 0;
    b->items = calloc((size_t)n, sizeof(*b->items));
    b->results = calloc((size_t)n, sizeof(*b->results));
    b->status = calloc((size_t)n, sizeof(*b->status));
    shared = cJSON_Duplicate(root, true);
    if (b->items == NULL || b->results == NULL || b->status == NULL ||
        shared == NULL) {
        rc = pz_diag_set(d, PZ_ENOMEM, "out of memory");
        goto fail;
    }
    b->n = n;
    cJSON_DeleteItemFromObjectCaseSensitive(shared, "items");
    for (const cJSON *c = shared->child; c != NULL; c = c->next) {
        if (c->string != NULL && item_member(c->string)) {
            pz_diag_set(d, PZ_ECONFLICT,
                        "a batch takes '%s' in each item, not beside "
                        "'items'",
                        c->string);
            pz_diag_field(d, c->string[1] == 'c' ? "/scramble" : "/state");
            rc = PZ_ECONFLICT;
            goto fail;
        }
    }
    b->shared = cJSON_PrintUnformatted(shared);
    if (b->shared == NULL) {
        rc = pz_diag_set(d, PZ_ENOMEM, "out of memory");
        goto fail;
    }
    {
        int i = 0;

        for (const cJSON *it = items->child; it != NULL; it = it->next, i++) {
            cJSON *o = NULL;

            if (cJSON_IsString(it)) {
                o = cJSON_CreateObject();
                if (o != NULL) {
                    cJSON_AddStringToObject(o, "scramble", it->valuestring);
                }
            } else if (cJSON_IsObject(it)) {
                bool ok = true;

                for (const cJSON *c = it->child; c != NULL; c = c->next) {
                    ok = ok && c->string != NULL && item_member(c->string);
                }
                if (!ok) {
                    char field[32];

                    snprintf(field, sizeof(field), "/items/%d", i);
                    pz_diag_set(d, PZ_EUNKNOWN_FIELD,
                                "an item has 'scramble' or 'state' only; "
                                "the other members are shared, beside "
                                "'items'");
                    pz_diag_field(d, field);
                    rc = PZ_EUNKNOWN_FIELD;
                    goto fail;
                }
                o = cJSON_Duplicate(it, true);
            } else {
                char field[32];

                snprintf(field, sizeof(field), "/items/%d", i);
                pz_diag_set(d, PZ_ETYPE,
                            "an item is a scramble (a string) or an object "
                            "with 'state' or 'scramble'");
                pz_diag_field(d, field);
                rc = PZ_ETYPE;
                goto fail;
            }
            b->items[i] = o != NULL ? cJSON_PrintUnformatted(o) : NULL;
            cJSON_Delete(o);
            if (b->items[i] == NULL) {
                rc = pz_diag_set(d, PZ_ENOMEM, "out of memory");
                goto fail;
            }
        }
    }
    /* Every item must be a valid request; item 0 stays as the job's. */
    for (int i = n - 1; i >= 0; i--) {
        rc = check_item(b, i, req, d);
        if (rc != PZ_OK) {
            goto fail;
        }
        if (i > 0) {
            api_solve_cleanup(req);
        }
    }
    if (req->want_solutions != 0 || req->compare) {
        api_solve_cleanup(req);
        pz_diag_set(d, PZ_ECONFLICT,
                    "a batch item gives one solution from one engine");
        pz_diag_field(d, req->compare ? "/engines" : "/solutions");
        rc = PZ_ECONFLICT;
        goto fail;
    }
    cJSON_Delete(shared);
    req->batch = b;
    return PZ_OK;
fail:
    cJSON_Delete(shared);
    batch_free(b);
    return rc;
}

/* Runs item i and keeps its result. */
static void
run_item(api_batch_t *b, int i, const atomic_bool *cancel)
{
    api_solve_request_t item;
    api_job_info_t info = { 0 };
    pz_diag_t d;
    size_t len;
    char *text;

    info.created_ms = info.started_ms = api_wall_ms();
    pz_diag_clear(&d);
    if (check_item(b, i, &item, &d) != PZ_OK) {
        b->results[i] = api_problem_text(d.rc, &d, false, &len);
        b->status[i] = -1;
        return;
    }
    for (int r = 0; r < item.nruns; r++) {
        pz_stats_view_t v;

        if (atomic_load(cancel)) {
            item.runs[r].solution.status = PZ_STATUS_CANCELLED;
            continue;
        }
        solve_execute(&item.spec, &item.runs[r], cancel);
        stats_read(&item.runs[r].stats, &v);
        b->nodes += v.nodes_expanded;
    }
    info.finished_ms = api_wall_ms();
    info.req = &item;
    info.in_batch = true;
    info.item = i;
    info.runs_started = info.runs_done = item.nruns;
    text = api_job_text(&info, &len);
    b->status[i] = api_job_status(&info);
    b->solved += b->status[i] == PZ_STATUS_SOLVED;
    b->results[i] = text;
    api_solve_cleanup(&item);
}

void
api_batch_run(api_solve_request_t *req, const atomic_bool *cancel)
{
    api_batch_t *b = req->batch;
    bool cancelled = false;

    for (int i = 0; i < b->n; i++) {
        cancelled = cancelled || atomic_load(cancel);
        if (cancelled) {
            b->status[i] = PZ_STATUS_CANCELLED;
        } else {
            run_item(b, i, cancel);
        }
        if (b->results[i] == NULL) {
            char text[64];

            /* Never run (cancelled), or out of memory to render. */
            if (!cancelled) {
                b->status[i] = PZ_STATUS_FAILED;
            }
            snprintf(text, sizeof(text), "{\"item\":%d,\"status\":\"%s\"}", i,
                     pz_status_name(b->status[i]));
            b->results[i] = strdup(text);
        }
        atomic_store_explicit(&b->done, i + 1, memory_order_release);
    }
    /* The job's own status: every item has its result, or the batch was
     * cancelled. Its runs are not run; run 0 carries the verdict. */
    for (int r = 0; r < req->nruns; r++) {
        req->runs[r].solution.status =
            cancelled ? PZ_STATUS_CANCELLED : PZ_STATUS_SOLVED;
        req->runs[r].solution.length = -1;
        atomic_store(&req->runs[r].stats.nodes_expanded, b->nodes);
    }
}

/* A growing text of lines. */
typedef struct lines {
    char *data;
    size_t len;
    size_t cap;
    bool failed;
} lines_t;

static void
lines_add(lines_t *l, const char *text)
{
    size_t n = strlen(text);

    if (l->failed) {
        return;
    }
    if (l->len + n + 2 > l->cap) {
        size_t cap = (l->len + n + 2) * 2;
        char *data = realloc(l->data, cap);

        if (data == NULL) {
            l->failed = true;
            return;
        }
        l->data = data;
        l->cap = cap;
    }
    memcpy(l->data + l->len, text, n);
    l->len += n;
    l->data[l->len++] = '\n';
    l->data[l->len] = '\0';
}

static char *
lines_finish(lines_t *l, size_t *len)
{
    if (l->failed) {
        free(l->data);
        return NULL;
    }
    if (l->data == NULL) {
        l->data = calloc(1, 1);
    }
    *len = l->len;
    return l->data;
}

char *
api_batch_lines_json(const char *json, int from, int *next, size_t *len)
{
    cJSON *root = NULL;
    const cJSON *items;
    lines_t l = { 0 };
    int i = 0;

    if (api_json_parse_max(json, strlen(json), API_JOB_JSON_MAX, &root, NULL) !=
        PZ_OK) {
        return NULL;
    }
    items = cJSON_GetObjectItemCaseSensitive(root, "items");
    for (const cJSON *it = cJSON_IsArray(items) ? items->child : NULL;
         it != NULL; it = it->next, i++) {
        if (i >= from) {
            char *line = cJSON_PrintUnformatted(it);

            if (line == NULL) {
                l.failed = true;
            } else {
                lines_add(&l, line);
            }
            free(line);
        }
    }
    cJSON_Delete(root);
    *next = i > from ? i : from;
    return lines_finish(&l, len);
}
