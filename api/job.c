/* SPDX-License-Identifier: MIT */
/* job.c - renders jobs (request, live statistics, results) as JSON. */
#include "job.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/*
 * Members are added with constant keys (cJSON_AddItemToObjectCS) and, for
 * names from static tables, string references: the job object has about 45
 * members and is rendered for every reply, and copying each key and name
 * was a third of its allocations. Every key below is a string literal.
 */
static void
add_item(cJSON *obj, const char *key, cJSON *item)
{
    if (item != NULL && !cJSON_AddItemToObjectCS(obj, key, item)) {
        cJSON_Delete(item);
    }
}

static void
add_string(cJSON *obj, const char *key, const char *v)
{
    add_item(obj, key, cJSON_CreateString(v));
}

/* v must outlive the tree: a literal or a static table's entry. */
static void
add_static_string(cJSON *obj, const char *key, const char *v)
{
    add_item(obj, key, cJSON_CreateStringReference(v));
}

static void
add_number(cJSON *obj, const char *key, double v)
{
    add_item(obj, key, cJSON_CreateNumber(v));
}

static void
add_bool(cJSON *obj, const char *key, bool v)
{
    add_item(obj, key, cJSON_CreateBool(v));
}

static cJSON *
add_container(cJSON *obj, const char *key, cJSON *item)
{
    add_item(obj, key, item);
    return item;
}

size_t
api_format_u64(uint64_t v, char out[API_U64_TEXT_MAX])
{
    char tmp[API_U64_TEXT_MAX];
    size_t n = 0;
    size_t len = 0;

    /* Digits by hand: snprintf cost more than the rest of a small member. */
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    while (n > 0) {
        out[len++] = tmp[--n];
    }
    out[len] = '\0';
    return len;
}

cJSON *
api_add_u64(cJSON *obj, const char *name, uint64_t v)
{
    char buf[API_U64_TEXT_MAX];
    cJSON *item;

    api_format_u64(v, buf);
    item = cJSON_CreateRaw(buf);
    add_item(obj, name, item);
    return item;
}

void
api_format_time(int64_t ms, char *buf, size_t len)
{
    /* The date and time of day change once a second; most renders of a
     * busy server fall in the second of the previous one (per thread). */
    static _Thread_local int64_t cached_secs = -1;
    static _Thread_local char cached[32];
    int64_t secs = ms / 1000;
    int frac = (int)(ms % 1000);
    size_t n;

    if (secs != cached_secs) {
        time_t t = (time_t)secs;
        struct tm tm;

        gmtime_r(&t, &tm);
        strftime(cached, sizeof(cached), "%Y-%m-%dT%H:%M:%S", &tm);
        cached_secs = secs;
    }
    n = strlen(cached);
    if (ms < 0 || len < n + 6) {
        snprintf(buf, len, "%s.%03dZ", cached, frac);
        return;
    }
    memcpy(buf, cached, n);
    buf[n] = '.';
    buf[n + 1] = (char)('0' + frac / 100);
    buf[n + 2] = (char)('0' + frac / 10 % 10);
    buf[n + 3] = (char)('0' + frac % 10);
    buf[n + 4] = 'Z';
    buf[n + 5] = '\0';
}

static int
run_status(const api_job_info_t *job, int i)
{
    if (i < job->runs_done) {
        return job->req->runs[i].solution.status;
    }
    return i < job->runs_started ? PZ_STATUS_RUNNING : PZ_STATUS_QUEUED;
}

int
api_job_status(const api_job_info_t *job)
{
    const api_solve_request_t *req = job->req;

    if (job->runs_done < req->nruns) {
        /* A worker stamps started_ms when it takes the job, a moment before
         * the first run counts as started: either means running. */
        if (job->runs_started == 0 && job->started_ms == 0) {
            return job->cancelled ? PZ_STATUS_CANCELLED : PZ_STATUS_QUEUED;
        }
        return PZ_STATUS_RUNNING;
    }
    for (int i = 0; i < req->nruns; i++) {
        if (req->runs[i].solution.status == PZ_STATUS_SOLVED) {
            return PZ_STATUS_SOLVED;
        }
    }
    return req->runs[0].solution.status;
}

int
api_job_best_run(const api_job_info_t *job)
{
    const api_solve_request_t *req = job->req;
    int best = -1;

    for (int i = 0; i < job->runs_done && i < req->nruns; i++) {
        const pz_solution_t *s = &req->runs[i].solution;

        if (s->status == PZ_STATUS_SOLVED &&
            (best < 0 || s->length < req->runs[best].solution.length)) {
            best = i;
        }
    }
    if (best >= 0) {
        return best;
    }
    if (job->runs_started > job->runs_done && job->runs_done < req->nruns) {
        return job->runs_done;
    }
    return 0;
}

static cJSON *
render_solution(const api_solve_request_t *req, const solve_run_t *run)
{
    const pz_puzzle_t *p = req->puzzle;
    const pz_solution_t *sol = &run->solution;
    cJSON *o = cJSON_CreateObject();
    cJSON *moves = add_container(o, "moves", cJSON_CreateArray());
    cJSON *details = NULL;
    char text[PZ_SOLUTION_MAX * 6];
    pz_state_t s = req->spec.start;

    if (p->ops->move_detail != NULL) {
        details = add_container(o, "tiles", cJSON_CreateArray());
    }
    for (int i = 0; i < sol->length && moves != NULL; i++) {
        cJSON_AddItemToArray(
            moves, cJSON_CreateString(puzzle_move_name(p, sol->moves[i])));
        if (details != NULL) {
            cJSON_AddItemToArray(
                details,
                cJSON_CreateNumber(p->ops->move_detail(p, &s, sol->moves[i])));
            puzzle_apply(p, &s, sol->moves[i], &s);
        }
    }
    if (puzzle_format_moves(p, sol->moves, sol->length, text, sizeof(text)) <
        0) {
        text[0] = '\0';
    }
    add_string(o, "text", text);
    add_number(o, "length", sol->length);
    add_static_string(o, "metric", p->metric_name);
    add_bool(o, "optimal", sol->optimal);
    return o;
}

static void
render_stats(cJSON *parent, const solve_run_t *run)
{
    pz_stats_view_t v;
    cJSON *o = add_container(parent, "stats", cJSON_CreateObject());

    if (o == NULL) {
        return;
    }
    stats_read(&run->stats, &v);
    api_add_u64(o, "nodes_expanded", v.nodes_expanded);
    api_add_u64(o, "nodes_generated", v.nodes_generated);
    api_add_u64(o, "duplicates", v.duplicates);
    api_add_u64(o, "open_size", v.open_size);
    api_add_u64(o, "frontier_forward", v.frontier_fwd);
    api_add_u64(o, "frontier_backward", v.frontier_bwd);
    api_add_u64(o, "peak_memory_bytes", v.peak_memory);
    add_number(o, "depth_bound", v.depth_bound);
    add_number(o, "iterations", v.iterations);
    add_number(o, "heuristic_at_start", v.heuristic_at_start);
    add_number(o, "best_length", v.best_length);
    add_number(o, "elapsed_ms", (double)(int64_t)(v.elapsed_ms * 1000) / 1000);
    api_add_u64(o, "nodes_per_second", (uint64_t)v.nodes_per_second);
}

/* Engine, heuristic, status, solution and stats of one run into o. */
static void
render_run(cJSON *o, const api_job_info_t *job, int i)
{
    const api_solve_request_t *req = job->req;
    const solve_run_t *run = &req->runs[i];
    int status = run_status(job, i);

    add_static_string(o, "engine", run->engine->name);
    add_static_string(o, "heuristic", run->heuristic);
    if (run->weight != 1.0) {
        add_number(o, "weight", run->weight);
    }
    if (i < job->runs_done && status == PZ_STATUS_SOLVED) {
        add_item(o, "solution", render_solution(req, run));
        add_bool(o, "optimal", run->solution.optimal);
    } else {
        add_item(o, "solution", cJSON_CreateNull());
    }
    if (i < job->runs_done && run->rc != PZ_OK) {
        cJSON *err = add_container(o, "error", cJSON_CreateObject());

        add_string(err, "code", pz_strerror(run->rc));
        add_string(err, "detail", pz_errtitle(run->rc));
    }
    render_stats(o, run);
}

static void
add_time(cJSON *o, const char *name, int64_t ms)
{
    char buf[40];

    if (ms == 0) {
        add_item(o, name, cJSON_CreateNull());
        return;
    }
    api_format_time(ms, buf, sizeof(buf));
    add_string(o, name, buf);
}

static void
render_request(cJSON *o, const api_solve_request_t *req)
{
    const pz_puzzle_t *p = req->puzzle;
    cJSON *limits = add_container(o, "limits", cJSON_CreateObject());
    char buf[512];

    add_string(o, "puzzle", p->id);
    if (p->rows > 0) {
        snprintf(buf, sizeof(buf), "%dx%d", p->rows, p->cols);
        add_string(o, "size", buf);
    }
    add_static_string(o, "metric", p->metric_name);
    if (req->scramble != NULL) {
        add_string(o, "scramble", req->scramble);
    }
    if (p->ops->format_state(p, &req->spec.start, buf, sizeof(buf)) >= 0) {
        add_string(o, "state", buf);
    }
    if (p->ops->format_state(p, &req->spec.goal, buf, sizeof(buf)) >= 0) {
        add_string(o, "goal", buf);
    }
    api_add_u64(limits, "time_ms", req->spec.limits.time_ms);
    api_add_u64(limits, "memory_mb", req->spec.limits.memory_bytes >> 20);
    api_add_u64(limits, "max_nodes", req->spec.limits.max_nodes);
    add_number(limits, "max_depth", req->spec.limits.max_depth);
    add_number(limits, "target_length", req->spec.target_length);
}

cJSON *
api_job_render(const api_job_info_t *job)
{
    const api_solve_request_t *req = job->req;
    cJSON *o = cJSON_CreateObject();
    int best;

    if (o == NULL) {
        return NULL;
    }
    if (job->id != NULL) {
        add_string(o, "id", job->id);
    }
    add_static_string(o, "status", pz_status_name(api_job_status(job)));
    add_time(o, "created_at", job->created_ms);
    add_time(o, "started_at", job->started_ms);
    add_time(o, "finished_at", job->finished_ms);
    render_request(o, req);
    best = api_job_best_run(job);
    add_string(o, "requested_engine", req->requested[best]);
    add_bool(o, "requested_optimal", req->optimal);
    render_run(o, job, best);
    if (req->compare) {
        cJSON *runs = add_container(o, "runs", cJSON_CreateArray());

        for (int i = 0; i < req->nruns && runs != NULL; i++) {
            cJSON *row = cJSON_CreateObject();

            add_static_string(row, "status",
                              pz_status_name(run_status(job, i)));
            render_run(row, job, i);
            cJSON_AddItemToArray(runs, row);
        }
    }
    return o;
}
