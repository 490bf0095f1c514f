/* SPDX-License-Identifier: MIT */
/* search.c - statistics publishing and limit checks shared by the engines. */
#include "search.h"

#include <stdlib.h>
#include <time.h>

#include "pz_error.h"

static const char *const status_names[PZ_STATUS_COUNT_] = {
    [PZ_STATUS_QUEUED] = "queued",
    [PZ_STATUS_PREPARING] = "preparing",
    [PZ_STATUS_RUNNING] = "running",
    [PZ_STATUS_SOLVED] = "solved",
    [PZ_STATUS_TIMEOUT] = "timeout",
    [PZ_STATUS_MEMORY_LIMIT] = "memory_limit",
    [PZ_STATUS_NODE_LIMIT] = "node_limit",
    [PZ_STATUS_DEPTH_LIMIT] = "depth_limit",
    [PZ_STATUS_CANCELLED] = "cancelled",
    [PZ_STATUS_FAILED] = "failed",
    [PZ_STATUS_UNREACHABLE] = "unreachable",
};

const char *
pz_status_name(int status)
{
    if (status < 0 || status >= PZ_STATUS_COUNT_) {
        return "failed";
    }
    return status_names[status];
}

bool
pz_status_terminal(int status)
{
    return status >= PZ_STATUS_SOLVED && status < PZ_STATUS_COUNT_;
}

uint64_t
pz_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void
stats_init(pz_stats_t *s)
{
    atomic_init(&s->nodes_expanded, 0);
    atomic_init(&s->nodes_generated, 0);
    atomic_init(&s->duplicates, 0);
    atomic_init(&s->open_size, 0);
    atomic_init(&s->frontier_fwd, 0);
    atomic_init(&s->frontier_bwd, 0);
    atomic_init(&s->peak_memory, 0);
    atomic_init(&s->depth_bound, -1);
    atomic_init(&s->iterations, 0);
    atomic_init(&s->heuristic_at_start, -1);
    atomic_init(&s->best_length, -1);
    atomic_init(&s->lower_bound, -1);
    atomic_init(&s->start_ns, 0);
    atomic_init(&s->end_ns, 0);
    atomic_init(&s->best_seq, 0);
    atomic_init(&s->best_n, -1);
    for (int i = 0; i < PZ_BEST_MOVES_MAX; i++) {
        atomic_init(&s->best_moves[i], 0);
    }
}

/* A sequence lock: the count is odd while the moves change. */
void
stats_publish_best(pz_stats_t *s, const uint8_t *moves, int n)
{
    if (n < 0 || n > PZ_BEST_MOVES_MAX) {
        return;
    }
    atomic_fetch_add_explicit(&s->best_seq, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    for (int i = 0; i < n; i++) {
        atomic_store_explicit(&s->best_moves[i], moves[i],
                              memory_order_relaxed);
    }
    atomic_store_explicit(&s->best_n, n, memory_order_relaxed);
    atomic_fetch_add_explicit(&s->best_seq, 1, memory_order_release);
}

int
stats_read_best(const pz_stats_t *s, uint8_t *out)
{
    for (int tries = 0; tries < 8; tries++) {
        unsigned before =
            atomic_load_explicit(&s->best_seq, memory_order_acquire);
        int n;

        if ((before & 1) != 0) {
            continue;
        }
        n = atomic_load_explicit(&s->best_n, memory_order_relaxed);
        for (int i = 0; i < n && i < PZ_BEST_MOVES_MAX; i++) {
            out[i] =
                atomic_load_explicit(&s->best_moves[i], memory_order_relaxed);
        }
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&s->best_seq, memory_order_relaxed) ==
            before) {
            return n;
        }
    }
    return -1;
}

#define LOAD_(field) atomic_load_explicit(&s->field, memory_order_relaxed)

void
stats_read(const pz_stats_t *s, pz_stats_view_t *out)
{
    uint64_t start = LOAD_(start_ns);
    uint64_t end = LOAD_(end_ns);
    uint64_t now;

    out->nodes_expanded = LOAD_(nodes_expanded);
    out->nodes_generated = LOAD_(nodes_generated);
    out->duplicates = LOAD_(duplicates);
    out->open_size = LOAD_(open_size);
    out->frontier_fwd = LOAD_(frontier_fwd);
    out->frontier_bwd = LOAD_(frontier_bwd);
    out->peak_memory = LOAD_(peak_memory);
    out->depth_bound = LOAD_(depth_bound);
    out->iterations = LOAD_(iterations);
    out->heuristic_at_start = LOAD_(heuristic_at_start);
    out->best_length = LOAD_(best_length);
    out->lower_bound = LOAD_(lower_bound);
    out->elapsed_ms = 0;
    out->nodes_per_second = 0;
    if (start != 0) {
        now = end != 0 ? end : pz_now_ns();
        out->elapsed_ms = now > start ? (double)(now - start) / 1e6 : 0;
    }
    if (out->elapsed_ms > 0) {
        out->nodes_per_second =
            (double)out->nodes_generated / (out->elapsed_ms / 1e3);
    }
}

#undef LOAD_

void
solution_clear(pz_solution_t *sol)
{
    sol->status = PZ_STATUS_FAILED;
    sol->length = -1;
    sol->optimal = false;
    sol->proven = false;
}

/* Next expansion count at which to poll: one interval on, but never past
 * the node limit, so max_nodes is exact. */
static uint64_t
next_poll_at(const search_ctx_t *ctx, uint64_t expanded)
{
    uint64_t next = expanded + PZ_POLL_INTERVAL;

    if (ctx->limits.max_nodes != 0 && ctx->limits.max_nodes > expanded &&
        ctx->limits.max_nodes < next) {
        next = ctx->limits.max_nodes;
    }
    return next;
}

void
search_meter_init(const search_ctx_t *ctx, search_meter_t *m)
{
    m->expanded = 0;
    m->generated = 0;
    m->duplicates = 0;
    m->next_poll = next_poll_at(ctx, 0);
}

int
search_poll(const search_ctx_t *ctx, search_meter_t *m)
{
    pz_stats_t *st = ctx->stats;

    m->next_poll = next_poll_at(ctx, m->expanded);
    if (st != NULL) {
        atomic_store_explicit(&st->nodes_expanded, m->expanded,
                              memory_order_relaxed);
        atomic_store_explicit(&st->nodes_generated, m->generated,
                              memory_order_relaxed);
        atomic_store_explicit(&st->duplicates, m->duplicates,
                              memory_order_relaxed);
        if (ctx->budget != NULL) {
            atomic_store_explicit(
                &st->peak_memory,
                atomic_load_explicit(&ctx->budget->peak, memory_order_relaxed),
                memory_order_relaxed);
        }
    }
    if (ctx->cancel != NULL &&
        atomic_load_explicit(ctx->cancel, memory_order_relaxed)) {
        return PZ_STATUS_CANCELLED;
    }
    if (ctx->deadline_ns != 0 && pz_now_ns() >= ctx->deadline_ns) {
        return PZ_STATUS_TIMEOUT;
    }
    if (ctx->limits.max_nodes != 0 && m->expanded >= ctx->limits.max_nodes) {
        return PZ_STATUS_NODE_LIMIT;
    }
    return PZ_STATUS_RUNNING;
}

int
solutions_init(pz_solutions_t *s, int want, bool all_optimal)
{
    memset(s, 0, sizeof(*s));
    if (want < 1 || want > PZ_SOLUTIONS_MAX) {
        return PZ_EINVAL;
    }
    s->want = want;
    s->all_optimal = all_optimal;
    s->cap = (size_t)want * PZ_SOLUTIONS_BYTES_EACH;
    s->moves = malloc(s->cap);
    s->length = malloc((size_t)want * sizeof(*s->length));
    s->offset = malloc((size_t)want * sizeof(*s->offset));
    if (s->moves == NULL || s->length == NULL || s->offset == NULL) {
        solutions_free(s);
        return PZ_ENOMEM;
    }
    return PZ_OK;
}

void
solutions_reset(pz_solutions_t *s)
{
    s->kept = 0;
    s->found = 0;
    s->complete = false;
    s->stopped = 0;
    s->used = 0;
}

void
solutions_free(pz_solutions_t *s)
{
    if (s == NULL) {
        return;
    }
    free(s->moves);
    free(s->length);
    free(s->offset);
    s->moves = NULL;
    s->length = NULL;
    s->offset = NULL;
    s->cap = 0;
}

bool
solutions_add(pz_solutions_t *s, const uint8_t *moves, int n)
{
    s->found++;
    if (s->kept == s->want || n < 0 || (size_t)n > s->cap - s->used) {
        return false;
    }
    memcpy(s->moves + s->used, moves, (size_t)n);
    s->offset[s->kept] = (uint32_t)s->used;
    s->length[s->kept] = (uint16_t)n;
    s->used += (size_t)n;
    s->kept++;
    return true;
}

void
solutions_push_latest(pz_solutions_t *s, const uint8_t *moves, int n)
{
    if (s->kept == s->want && s->kept > 0) {
        size_t drop = s->length[0];

        memmove(s->moves, s->moves + drop, s->used - drop);
        s->used -= drop;
        for (int i = 1; i < s->kept; i++) {
            s->length[i - 1] = s->length[i];
            s->offset[i - 1] = (uint32_t)(s->offset[i] - drop);
        }
        s->kept--;
        s->found--;
    }
    (void)solutions_add(s, moves, n);
}

void
solutions_reverse(pz_solutions_t *s)
{
    uint8_t *copy = malloc(s->used > 0 ? s->used : 1);
    size_t at = 0;

    if (copy == NULL) {
        return; /* left in order of finding: still every one kept */
    }
    for (int i = s->kept - 1; i >= 0; i--) {
        memcpy(copy + at, s->moves + s->offset[i], s->length[i]);
        at += s->length[i];
    }
    memcpy(s->moves, copy, s->used);
    free(copy);
    for (int i = 0, j = s->kept - 1; i < j; i++, j--) {
        uint16_t t = s->length[i];

        s->length[i] = s->length[j];
        s->length[j] = t;
    }
    at = 0;
    for (int i = 0; i < s->kept; i++) {
        s->offset[i] = (uint32_t)at;
        at += s->length[i];
    }
}
