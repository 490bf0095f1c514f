/* SPDX-License-Identifier: MIT */
/* job.c - renders jobs (request, live statistics, results) as JSON. */
#include "job.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "api_json.h"
#include "batch.h"
#include "tablelist.h"

cJSON *
api_add_u64(cJSON *obj, const char *name, uint64_t v)
{
    char buf[JSONOUT_U64_MAX];
    cJSON *item;

    jsonout_format_u64(v, buf);
    item = cJSON_CreateRaw(buf);
    if (item != NULL && !cJSON_AddItemToObjectCS(obj, name, item)) {
        cJSON_Delete(item);
        item = NULL;
    }
    return item;
}

int64_t
api_wall_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
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
    return i < job->runs_started ? PZ_STATUS_RUNNING
           : job->preparing      ? PZ_STATUS_PREPARING
                                 : PZ_STATUS_QUEUED;
}

int
api_job_status(const api_job_info_t *job)
{
    const api_solve_request_t *req = job->req;

    if (job->runs_done < req->nruns) {
        /* A worker stamps started_ms when it takes the job, a moment before
         * the first run counts as started: either means running. */
        if (job->runs_started == 0 && job->started_ms == 0) {
            return job->preparing ? PZ_STATUS_PREPARING : PZ_STATUS_QUEUED;
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

/*
 * The job is written straight as text (jsonout_t): it is rendered for every
 * reply, and building a cJSON tree of its ~45 members cost more than the
 * rest of a small request's own work. Member order is part of the output
 * (the same for every job), so it follows openapi.yaml's examples.
 */
static void
write_moves(jsonout_t *w,
            const char *key,
            const api_solve_request_t *req,
            const pz_solution_t *sol)
{
    const pz_puzzle_t *p = req->puzzle;
    char text[PZ_SOLUTION_MAX * 6];

    jsonout_begin(w, key, '{');
    jsonout_begin(w, "moves", '[');
    for (int i = 0; i < sol->length; i++) {
        jsonout_string(w, NULL, puzzle_move_name(p, sol->moves[i]));
    }
    jsonout_end(w, ']');
    if (puzzle_has_move_detail(p)) {
        pz_state_t s = p->mask != NULL ? req->start_full : req->spec.start;

        jsonout_begin(w, "tiles", '[');
        for (int i = 0; i < sol->length; i++) {
            jsonout_double(w, NULL, puzzle_move_detail(p, &s, sol->moves[i]));
            puzzle_apply(p, &s, sol->moves[i], &s);
        }
        jsonout_end(w, ']');
    }
    if (puzzle_format_moves(p, sol->moves, sol->length, text, sizeof(text)) <
        0) {
        text[0] = '\0';
    }
    jsonout_string(w, "text", text);
    jsonout_double(w, "length", sol->length);
    jsonout_string(w, "metric", p->metric_name);
    jsonout_bool(w, "optimal", sol->optimal);
    jsonout_end(w, '}');
}

static void
write_solution(jsonout_t *w,
               const api_solve_request_t *req,
               const solve_run_t *run)
{
    write_moves(w, "solution", req, &run->solution);
}

/* Several solutions (the request's "solutions" or "all_optimal"): those
 * kept, shortest first, each marked optimal when it is as short as the
 * proven optimum. */
static void
write_solutions(jsonout_t *w,
                const api_solve_request_t *req,
                const solve_run_t *run)
{
    const pz_solutions_t *s = run->solutions;
    pz_solution_t one;

    jsonout_begin(w, "solutions", '{');
    jsonout_u64(w, "found", s->found);
    jsonout_double(w, "kept", s->kept);
    jsonout_bool(w, "all_optimal", s->all_optimal);
    jsonout_bool(w, "complete", s->complete);
    if (s->stopped != 0) {
        jsonout_string(w, "stopped_by", pz_status_name(s->stopped));
    }
    jsonout_begin(w, "items", '[');
    for (int i = 0; i < s->kept; i++) {
        one.length = s->length[i];
        memcpy(one.moves, solutions_moves(s, i), (size_t)one.length);
        one.optimal =
            run->solution.optimal && one.length == run->solution.length;
        write_moves(w, NULL, req, &one);
    }
    jsonout_end(w, ']');
    jsonout_end(w, '}');
}

/* The best solution an anytime engine has found so far, while it runs
 * on (nothing when it has published none). */
static void
write_best_so_far(jsonout_t *w,
                  const api_solve_request_t *req,
                  const solve_run_t *run)
{
    uint8_t moves[PZ_BEST_MOVES_MAX];
    char text[PZ_BEST_MOVES_MAX * 8];
    int n = stats_read_best(&run->stats, moves);

    if (n < 0 ||
        puzzle_format_moves(req->puzzle, moves, n, text, sizeof(text)) < 0) {
        return;
    }
    jsonout_begin(w, "best_so_far", '{');
    jsonout_begin(w, "moves", '[');
    for (int i = 0; i < n; i++) {
        jsonout_string(w, NULL, puzzle_move_name(req->puzzle, moves[i]));
    }
    jsonout_end(w, ']');
    jsonout_string(w, "text", text);
    jsonout_double(w, "length", n);
    jsonout_end(w, '}');
}

static void
write_stats(jsonout_t *w, const solve_run_t *run)
{
    pz_stats_view_t v;

    stats_read(&run->stats, &v);
    jsonout_begin(w, "stats", '{');
    jsonout_u64(w, "nodes_expanded", v.nodes_expanded);
    jsonout_u64(w, "nodes_generated", v.nodes_generated);
    jsonout_u64(w, "duplicates", v.duplicates);
    jsonout_u64(w, "open_size", v.open_size);
    jsonout_u64(w, "frontier_forward", v.frontier_fwd);
    jsonout_u64(w, "frontier_backward", v.frontier_bwd);
    jsonout_u64(w, "peak_memory_bytes", v.peak_memory);
    jsonout_double(w, "depth_bound", v.depth_bound);
    jsonout_double(w, "iterations", v.iterations);
    jsonout_double(w, "heuristic_at_start", v.heuristic_at_start);
    jsonout_double(w, "best_length", v.best_length);
    jsonout_double(w, "lower_bound", v.lower_bound);
    if (v.best_length > 0 && v.lower_bound > 0) {
        jsonout_double(
            w, "suboptimality",
            (double)(int64_t)((double)v.best_length / v.lower_bound * 10000) /
                10000);
    }
    jsonout_double(w, "elapsed_ms",
                   (double)(int64_t)(v.elapsed_ms * 1000) / 1000);
    jsonout_u64(w, "nodes_per_second", (uint64_t)v.nodes_per_second);
    jsonout_end(w, '}');
}

/* Engine, heuristic, solution, error and stats of run i. */
static void
write_run(jsonout_t *w, const api_job_info_t *job, int i)
{
    const api_solve_request_t *req = job->req;
    const solve_run_t *run = &req->runs[i];
    int status = run_status(job, i);

    jsonout_string(w, "engine", run->engine->name);
    jsonout_string(w, "heuristic", run->heuristic);
    if (run->weight != 1.0) {
        jsonout_double(w, "weight", run->weight);
    }
    /* Set before the job's start time is published. */
    if (job->started_ms != 0) {
        jsonout_u64(w, "threads", (uint64_t)req->spec.threads);
    }
    if (i < job->runs_done && status == PZ_STATUS_SOLVED) {
        write_solution(w, req, run);
        jsonout_bool(w, "optimal", run->solution.optimal);
        if (run->solutions != NULL && run->solutions->kept > 0) {
            write_solutions(w, req, run);
        }
    } else {
        jsonout_null(w, "solution");
        if (i >= job->runs_done) {
            write_best_so_far(w, req, run);
        }
    }
    if (i < job->runs_done && run->rc != PZ_OK) {
        jsonout_begin(w, "error", '{');
        jsonout_string(w, "code", pz_strerror(run->rc));
        jsonout_string(w, "detail", pz_errtitle(run->rc));
        jsonout_end(w, '}');
    }
    write_stats(w, run);
}

static void
write_time(jsonout_t *w, const char *key, int64_t ms)
{
    char buf[40];

    if (ms == 0) {
        jsonout_null(w, key);
        return;
    }
    api_format_time(ms, buf, sizeof(buf));
    jsonout_string(w, key, buf);
}

/* The pieces a masked goal cares about, by name ("~" before those it
 * cares about for their orientation only). */
static void
write_care(jsonout_t *w, const pz_puzzle_t *p)
{
    const puzzle_pieces_t *runs = puzzle_pieces(p);
    const puzzle_care_t *care = &p->mask->care;
    char name[20];

    jsonout_begin(w, "care", '[');
    for (int r = 0; runs[r].name != NULL && r < PUZZLE_RUNS_MAX; r++) {
        for (int q = 0; q < 64; q++) {
            bool cls = care->classed[r] >> q & 1;

            /* A free blank is not among what the goal cares about. */
            if (q == 0 && !runs[r].rigid && p->mask->free_blank) {
                continue;
            }
            if ((care->full[r] >> q & 1) || cls) {
                name[0] = '~';
                puzzle_piece_name(p, r, q, name + cls, sizeof(name) - 1);
                jsonout_string(w, NULL, name);
            }
        }
    }
    jsonout_end(w, ']');
}

static void
write_request(jsonout_t *w, const api_solve_request_t *req)
{
    const pz_puzzle_t *p = req->puzzle;
    char buf[512];

    jsonout_begin(w, "limits", '{');
    jsonout_u64(w, "time_ms", req->spec.limits.time_ms);
    jsonout_u64(w, "memory_mb", req->spec.limits.memory_bytes >> 20);
    jsonout_u64(w, "max_nodes", req->spec.limits.max_nodes);
    jsonout_double(w, "max_depth", req->spec.limits.max_depth);
    jsonout_double(w, "target_length", req->spec.target_length);
    jsonout_end(w, '}');
    jsonout_string(w, "puzzle", p->id);
    if (p->size[0] != '\0') {
        jsonout_string(w, "size", p->size);
    }
    jsonout_string(w, "metric", p->metric_name);
    if (req->scramble != NULL) {
        jsonout_string(w, "scramble", req->scramble);
    }
    if (puzzle_format_state(
            p, p->mask != NULL ? &req->start_full : &req->spec.start, buf,
            sizeof(buf)) >= 0) {
        jsonout_string(w, "state", buf);
    }
    if (puzzle_format_state(p,
                            p->mask != NULL ? &req->goal_full : &req->spec.goal,
                            buf, sizeof(buf)) >= 0) {
        jsonout_string(w, "goal", buf);
    }
    if (p->mask != NULL) {
        write_care(w, p);
    }
    if (p->subset != 0) {
        jsonout_begin(w, "moves", '[');
        for (int m = 0; m < p->nmoves; m++) {
            if (p->subset >> m & 1) {
                jsonout_string(w, NULL, puzzle_move_name(p, m));
            }
        }
        jsonout_end(w, ']');
    }
}

/* The tables a preparing job waits for, with their progress. */
static void
write_tables(jsonout_t *w, const api_solve_request_t *req)
{
    jsonout_begin(w, "tables", '[');
    for (int i = 0; i < req->ntables; i++) {
        tables_status_t st;

        if (tables_status(req->tables[i], &st) != PZ_OK) {
            continue;
        }
        jsonout_begin(w, NULL, '{');
        api_table_write_status(w, &st);
        jsonout_end(w, '}');
    }
    jsonout_end(w, ']');
}

static void
write_warnings(jsonout_t *w, const api_solve_request_t *req)
{
    jsonout_begin(w, "warnings", '[');
    for (int i = 0; i < req->nwarnings; i++) {
        const api_warning_t *x = &req->warnings[i];

        jsonout_begin(w, NULL, '{');
        jsonout_string(w, "code", x->code);
        if (x->table != NULL) {
            jsonout_string(w, "table", x->table);
        }
        jsonout_string(w, "detail", x->detail);
        jsonout_end(w, '}');
    }
    jsonout_end(w, ']');
}

/* A batch job: its progress and the results of the items done, in
 * order, each the item's own job or problem. */
static int
write_batch(jsonout_t *w, const char *key, const api_job_info_t *job)
{
    const api_solve_request_t *req = job->req;
    const api_batch_t *b = req->batch;
    int status = api_job_status(job);
    int done = atomic_load_explicit(&b->done, memory_order_acquire);
    int solved = 0;

    for (int i = 0; i < done; i++) {
        solved += b->status[i] == PZ_STATUS_SOLVED;
    }
    jsonout_begin(w, key, '{');
    if (job->id != NULL) {
        jsonout_string(w, "id", job->id);
    }
    jsonout_string(w, "kind", "batch");
    jsonout_string(w, "status", pz_status_name(status));
    write_time(w, "created_at", job->created_ms);
    write_time(w, "started_at", job->started_ms);
    write_time(w, "finished_at", job->finished_ms);
    jsonout_string(w, "puzzle", req->puzzle->id);
    if (req->puzzle->size[0] != '\0') {
        jsonout_string(w, "size", req->puzzle->size);
    }
    jsonout_string(w, "metric", req->puzzle->metric_name);
    jsonout_string(w, "requested_engine", req->requested[0]);
    jsonout_double(w, "items_total", b->n);
    jsonout_double(w, "items_done", done);
    jsonout_double(w, "items_solved", solved);
    if (status == PZ_STATUS_PREPARING) {
        write_tables(w, req);
    }
    jsonout_begin(w, "items", '[');
    for (int i = 0; i < done; i++) {
        jsonout_raw(w, NULL, b->results[i]);
    }
    jsonout_end(w, ']');
    jsonout_end(w, '}');
    return status;
}

int
api_job_write(jsonout_t *w, const char *key, const api_job_info_t *job)
{
    const api_solve_request_t *req = job->req;
    int best = api_job_best_run(job);
    int status = api_job_status(job);

    if (req->batch != NULL) {
        return write_batch(w, key, job);
    }
    jsonout_begin(w, key, '{');
    if (job->id != NULL) {
        jsonout_string(w, "id", job->id);
    }
    if (job->in_batch) {
        jsonout_double(w, "item", job->item);
    }
    jsonout_string(w, "status", pz_status_name(status));
    write_time(w, "created_at", job->created_ms);
    write_time(w, "started_at", job->started_ms);
    write_time(w, "finished_at", job->finished_ms);
    write_request(w, req);
    jsonout_string(w, "requested_engine", req->requested[best]);
    jsonout_bool(w, "requested_optimal", req->optimal);
    write_run(w, job, best);
    if (status == PZ_STATUS_PREPARING) {
        write_tables(w, req);
    }
    if (req->nwarnings > 0) {
        write_warnings(w, req);
    }
    if (req->compare) {
        jsonout_begin(w, "runs", '[');
        for (int i = 0; i < req->nruns; i++) {
            jsonout_begin(w, NULL, '{');
            jsonout_string(w, "status", pz_status_name(run_status(job, i)));
            write_run(w, job, i);
            jsonout_end(w, '}');
        }
        jsonout_end(w, ']');
    }
    jsonout_end(w, '}');
    return status;
}

char *
api_job_text(const api_job_info_t *job, size_t *len)
{
    jsonout_t w;

    jsonout_init(&w);
    api_job_write(&w, NULL, job);
    return jsonout_finish(&w, len);
}
