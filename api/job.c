/* SPDX-License-Identifier: MIT */
/* job.c - renders jobs (request, live statistics, results) as JSON. */
#include "job.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

cJSON *
api_add_u64(cJSON *obj, const char *name, uint64_t v)
{
    char buf[24];

    snprintf(buf, sizeof(buf), "%" PRIu64, v);
    return cJSON_AddRawToObject(obj, name, buf);
}

void
api_format_time(int64_t ms, char *buf, size_t len)
{
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;

    char date[32];

    gmtime_r(&secs, &tm);
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, len, "%s.%03dZ", date, (int)(ms % 1000));
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
    cJSON *moves = cJSON_AddArrayToObject(o, "moves");
    cJSON *details = NULL;
    char text[PZ_SOLUTION_MAX * 6];
    pz_state_t s = req->spec.start;

    if (p->ops->move_detail != NULL) {
        details = cJSON_AddArrayToObject(o, "tiles");
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
    cJSON_AddStringToObject(o, "text", text);
    cJSON_AddNumberToObject(o, "length", sol->length);
    cJSON_AddStringToObject(o, "metric", p->metric_name);
    cJSON_AddBoolToObject(o, "optimal", sol->optimal);
    return o;
}

static void
render_stats(cJSON *parent, const solve_run_t *run)
{
    pz_stats_view_t v;
    cJSON *o = cJSON_AddObjectToObject(parent, "stats");

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
    cJSON_AddNumberToObject(o, "depth_bound", v.depth_bound);
    cJSON_AddNumberToObject(o, "iterations", v.iterations);
    cJSON_AddNumberToObject(o, "heuristic_at_start", v.heuristic_at_start);
    cJSON_AddNumberToObject(o, "best_length", v.best_length);
    cJSON_AddNumberToObject(o, "elapsed_ms",
                            (double)(int64_t)(v.elapsed_ms * 1000) / 1000);
    api_add_u64(o, "nodes_per_second", (uint64_t)v.nodes_per_second);
}

/* Engine, heuristic, status, solution and stats of one run into o. */
static void
render_run(cJSON *o, const api_job_info_t *job, int i)
{
    const api_solve_request_t *req = job->req;
    const solve_run_t *run = &req->runs[i];
    int status = run_status(job, i);

    cJSON_AddStringToObject(o, "engine", run->engine->name);
    cJSON_AddStringToObject(o, "heuristic", run->heuristic);
    if (run->weight != 1.0) {
        cJSON_AddNumberToObject(o, "weight", run->weight);
    }
    if (i < job->runs_done && status == PZ_STATUS_SOLVED) {
        cJSON_AddItemToObject(o, "solution", render_solution(req, run));
        cJSON_AddBoolToObject(o, "optimal", run->solution.optimal);
    } else {
        cJSON_AddNullToObject(o, "solution");
    }
    if (i < job->runs_done && run->rc != PZ_OK) {
        cJSON *err = cJSON_AddObjectToObject(o, "error");

        cJSON_AddStringToObject(err, "code", pz_strerror(run->rc));
        cJSON_AddStringToObject(err, "detail", pz_errtitle(run->rc));
    }
    render_stats(o, run);
}

static void
add_time(cJSON *o, const char *name, int64_t ms)
{
    char buf[40];

    if (ms == 0) {
        cJSON_AddNullToObject(o, name);
        return;
    }
    api_format_time(ms, buf, sizeof(buf));
    cJSON_AddStringToObject(o, name, buf);
}

static void
render_request(cJSON *o, const api_solve_request_t *req)
{
    const pz_puzzle_t *p = req->puzzle;
    cJSON *limits = cJSON_AddObjectToObject(o, "limits");
    char buf[512];

    cJSON_AddStringToObject(o, "puzzle", p->id);
    if (p->rows > 0) {
        snprintf(buf, sizeof(buf), "%dx%d", p->rows, p->cols);
        cJSON_AddStringToObject(o, "size", buf);
    }
    cJSON_AddStringToObject(o, "metric", p->metric_name);
    if (req->scramble != NULL) {
        cJSON_AddStringToObject(o, "scramble", req->scramble);
    }
    if (p->ops->format_state(p, &req->spec.start, buf, sizeof(buf)) >= 0) {
        cJSON_AddStringToObject(o, "state", buf);
    }
    if (p->ops->format_state(p, &req->spec.goal, buf, sizeof(buf)) >= 0) {
        cJSON_AddStringToObject(o, "goal", buf);
    }
    api_add_u64(limits, "time_ms", req->spec.limits.time_ms);
    api_add_u64(limits, "memory_mb", req->spec.limits.memory_bytes >> 20);
    api_add_u64(limits, "max_nodes", req->spec.limits.max_nodes);
    cJSON_AddNumberToObject(limits, "max_depth", req->spec.limits.max_depth);
    cJSON_AddNumberToObject(limits, "target_length", req->spec.target_length);
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
        cJSON_AddStringToObject(o, "id", job->id);
    }
    cJSON_AddStringToObject(o, "status", pz_status_name(api_job_status(job)));
    add_time(o, "created_at", job->created_ms);
    add_time(o, "started_at", job->started_ms);
    add_time(o, "finished_at", job->finished_ms);
    render_request(o, req);
    best = api_job_best_run(job);
    cJSON_AddStringToObject(o, "requested_engine", req->requested[best]);
    cJSON_AddBoolToObject(o, "requested_optimal", req->optimal);
    render_run(o, job, best);
    if (req->compare) {
        cJSON *runs = cJSON_AddArrayToObject(o, "runs");

        for (int i = 0; i < req->nruns && runs != NULL; i++) {
            cJSON *row = cJSON_CreateObject();

            cJSON_AddStringToObject(row, "status",
                                    pz_status_name(run_status(job, i)));
            render_run(row, job, i);
            cJSON_AddItemToArray(runs, row);
        }
    }
    return o;
}
