/* SPDX-License-Identifier: MIT */
/* test_server_redis.c - replicas of one deployment on one Redis: any
 * replica answers, waits on and cancels any job; a replica killed
 * mid-job loses nothing; Redis down gives 503 and service comes back;
 * a restart keeps every job with the append-only file and ends the
 * queued ones backend_lost without it. Real redis-server and puzzled
 * processes on loopback ports (tests/redis_testlib.h, srv_testlib.h). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "http_testlib.h"
#include "redis_testlib.h"

#define PREFIX   "pzt"
#define LEASE_MS 1000

/* One solver thread per replica, the flags most tests add. */
static const char *const ONE_WORKER[] = { "--workers", "1", NULL };

/* Starts n replicas on r, one deployment (PREFIX, a LEASE_MS lease),
 * with the NULL-terminated extra flags. */
static void
start_replicas(const redis_srv_t *r, srv_t *s, int n, const char *const *extra)
{
    const char *flags[16] = { "--redis",          r->url,
                              "--redis-prefix",   PREFIX,
                              "--redis-lease-ms", "1000" };
    int k = 6;

    for (int i = 0; extra[i] != NULL && k < 15; i++) {
        flags[k++] = extra[i];
    }
    flags[k] = NULL;
    for (int i = 0; i < n; i++) {
        ck_assert(srv_start(&s[i], flags) == 0);
        ht_await_ready(s[i].port);
    }
}

static void
stop_replicas(srv_t *s, int n)
{
    for (int i = 0; i < n; i++) {
        /* 0: a clean stop, and no leak under the sanitizers. */
        ck_assert_int_eq(srv_stop(&s[i]), 0);
        srv_cleanup(&s[i]);
    }
}

/* The field of a job's record in Redis into out ("" when none). */
static void
record_field(const redis_srv_t *r,
             const char *id,
             const char *field,
             char *out,
             size_t cap)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    struct timeval tv = { 2, 0 };
    char buf[512];
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ssize_t n;
    char *nl;

    out[0] = '\0';
    ck_assert_int_ge(fd, 0);
    a.sin_port = htons((uint16_t)r->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    snprintf(buf, sizeof(buf), "HGET " PREFIX ":job:%s %s\r\n", id, field);
    ck_assert(send(fd, buf, strlen(buf), MSG_NOSIGNAL) == (ssize_t)strlen(buf));
    n = recv(fd, buf, sizeof(buf) - 1, 0);
    close(fd);
    ck_assert_int_gt(n, 0);
    buf[n] = '\0';
    /* "$len\r\nvalue\r\n", or "$-1\r\n" for none. */
    if (buf[0] == '$' && buf[1] != '-' && (nl = strstr(buf, "\r\n")) != NULL) {
        nl += 2;
        nl[strcspn(nl, "\r\n")] = '\0';
        snprintf(out, cap, "%s", nl);
    }
}

/* The index of the replica (of n) whose consumer runs job id. */
static int
runner_of(const redis_srv_t *r, const char *id, const srv_t *s, int n)
{
    char owner[128];

    record_field(r, id, "replica", owner, sizeof(owner));
    for (int i = 0; i < n; i++) {
        char pid[24];

        snprintf(pid, sizeof(pid), "-%d-", (int)s[i].pid);
        if (strstr(owner, pid) != NULL) {
            return i;
        }
    }
    ck_abort_msg("no replica is %s", owner);
    return -1;
}

static uint64_t
nodes_of(const cJSON *j)
{
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(j, "stats");
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(stats, "nodes_expanded");

    return cJSON_IsNumber(n) ? (uint64_t)n->valuedouble : 0;
}

/* Polls the job on port until its status is want (at most ms). */
static cJSON *
await_status(int port, const char *id, const char *want, int ms)
{
    int64_t deadline = now_ms() + ms;

    for (;;) {
        cJSON *j = ht_get_job(port, id, 0, NULL);

        if (strcmp(ht_jstr(j, "status"), want) == 0) {
            return j;
        }
        ck_assert_msg(now_ms() < deadline, "job %s is %s, not %s after %d ms",
                      id, ht_jstr(j, "status"), want, ms);
        cJSON_Delete(j);
        sleep_ms(20);
    }
}

/* Submits a blind search of time_ms on port and waits until it runs;
 * returns its id (owned). */
static char *
submit_running(int port, int time_ms)
{
    char body[512];
    char *id;
    long st;

    ht_long_job_body(body, sizeof(body), time_ms, 16, 0);
    id = ht_submit(port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    cJSON_Delete(await_status(port, id, "running", 20000));
    return id;
}

/* Waits with GET ?wait_ms on port until the job has ended (at most ms). */
static cJSON *
await_end(int port, const char *id, int ms)
{
    int64_t deadline = now_ms() + ms;

    for (;;) {
        cJSON *j = ht_get_job(port, id, 2000, NULL);

        if (ht_job_terminal(j)) {
            return j;
        }
        ck_assert_msg(now_ms() < deadline, "job %s still %s after %d ms", id,
                      ht_jstr(j, "status"), ms);
        cJSON_Delete(j);
    }
}

/* Submitted on A, its live node counts read on B, cancelled on C. */
START_TEST(test_redis_any_replica_polls_and_cancels)
{
    redis_srv_t r;
    srv_t s[3];
    char body[512];
    char path[160];
    uint64_t before;
    uint64_t after;
    http_resp_t resp;
    cJSON *j;
    char *id;
    long st;

    ck_assert(redis_srv_start(&r, false));
    start_replicas(&r, s, 3, ONE_WORKER);
    ht_long_job_body(body, sizeof(body), 60000, 16, 0);
    id = ht_submit(s[0].port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    j = await_status(s[1].port, id, "running", 20000);
    before = nodes_of(j);
    cJSON_Delete(j);
    /* Live statistics reach the record every 250 ms: read them grow on
     * another replica than the one that runs the job. */
    for (int64_t deadline = now_ms() + 10000;;) {
        j = ht_get_job(s[1].port, id, 0, NULL);
        after = nodes_of(j);
        cJSON_Delete(j);
        if (after > before) {
            break;
        }
        ck_assert_msg(now_ms() < deadline, "nodes stayed at %llu",
                      (unsigned long long)after);
        sleep_ms(50);
    }
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    http_delete(s[2].port, path, &resp);
    ck_assert_int_eq(resp.status, 202);
    http_resp_free(&resp);
    j = await_end(s[0].port, id, 10000);
    ck_assert_str_eq(ht_jstr(j, "status"), "cancelled");
    cJSON_Delete(j);
    /* The listing is the deployment's, on any replica. */
    http_get(s[2].port, "/v1/jobs", &resp);
    ck_assert_int_eq(resp.status, 200);
    ck_assert_ptr_nonnull(strstr(resp.body, id));
    http_resp_free(&resp);
    free(id);
    stop_replicas(s, 3);
    redis_srv_cleanup(&r);
}
END_TEST

/* A cancel whose message this replica missed (it was resubscribing):
 * the record's flag alone stops the job, read by the keeper's tick. */
START_TEST(test_redis_cancel_flag_stops_without_its_message)
{
    redis_srv_t r;
    srv_t s[1];
    char cmd[160];
    char reply[64];
    cJSON *j;
    char *id;

    ck_assert(redis_srv_start(&r, false));
    start_replicas(&r, s, 1, ONE_WORKER);
    id = submit_running(s[0].port, 60000);
    snprintf(cmd, sizeof(cmd), "HSET " PREFIX ":job:%s cancel 1", id);
    ck_assert(redis_inline(r.port, cmd, reply, sizeof(reply)));
    ck_assert_int_eq(reply[0], ':'); /* an integer reply: no error */
    j = await_end(s[0].port, id, 10000);
    ck_assert_str_eq(ht_jstr(j, "status"), "cancelled");
    cJSON_Delete(j);
    free(id);
    stop_replicas(s, 1);
    redis_srv_cleanup(&r);
}
END_TEST

/* A synchronous solve waits through any replica, whichever runs it, and
 * a long poll on another replica wakes when the job ends. */
START_TEST(test_redis_waits_through_each_replica)
{
    static const char sync_body[] =
        "{\"puzzle\":\"8-puzzle\",\"state\":" EIGHT_HARD_A ","
        "\"engine\":\"astar\",\"wait_ms\":60000}";
    static const char queued_body[] =
        "{\"puzzle\":\"8-puzzle\",\"state\":" EIGHT_HARD_B ","
        "\"engine\":\"astar\",\"wait_ms\":0}";
    redis_srv_t r;
    srv_t s[3];

    ck_assert(redis_srv_start(&r, false));
    start_replicas(&r, s, 3, ONE_WORKER);
    for (int i = 0; i < 3; i++) {
        http_resp_t resp;
        cJSON *j;
        char *id;
        long st;

        id = ht_submit(s[i].port, sync_body, &st, &resp);
        ck_assert_int_eq(st, 200);
        j = ht_job_of(&resp);
        ck_assert_str_eq(ht_jstr(j, "status"), "solved");
        ck_assert_int_eq(
            cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(j, "solution"), "length")
                ->valueint,
            EIGHT_HARD_OPTIMAL);
        cJSON_Delete(j);
        http_resp_free(&resp);
        free(id);
        id = ht_submit(s[i].port, queued_body, &st, NULL);
        ck_assert(st == 202 || st == 200);
        j = await_end(s[(i + 1) % 3].port, id, 30000);
        ck_assert_str_eq(ht_jstr(j, "status"), "solved");
        cJSON_Delete(j);
        free(id);
    }
    stop_replicas(s, 3);
    redis_srv_cleanup(&r);
}
END_TEST

/* SIGKILL the replica that runs a job: after the lease another replica
 * takes it over and runs it to its end. */
START_TEST(test_redis_killed_replica_job_finishes_elsewhere)
{
    redis_srv_t r;
    srv_t s[3];
    char owner[128];
    char path[128];
    char attempts[16];
    int victim;
    cJSON *j;
    char *id;

    ck_assert(redis_srv_start(&r, false));
    start_replicas(&r, s, 3, ONE_WORKER);
    /* Runs 3 s wherever it runs, then ends timeout: an end of its own. */
    id = submit_running(s[0].port, 3000);
    record_field(&r, id, "replica", owner, sizeof(owner));
    victim = runner_of(&r, id, s, 3);
    kill(s[victim].pid, SIGKILL);
    /* Within the lease, a reclaim pass and the job's own 3 s, plus 5 s. */
    j = await_end(s[(victim + 1) % 3].port, id, LEASE_MS + 3000 + 5000);
    ck_assert_str_eq(ht_jstr(j, "status"), "timeout");
    cJSON_Delete(j);
    record_field(&r, id, "attempts", attempts, sizeof(attempts));
    ck_assert_str_eq(attempts, "2");
    record_field(&r, id, "replica", path, sizeof(path));
    ck_assert_str_ne(path, owner);
    free(id);
    for (int i = 0; i < 3; i++) {
        if (i != victim) {
            ck_assert_int_eq(srv_stop(&s[i]), 0);
        }
        srv_cleanup(&s[i]);
    }
    redis_srv_cleanup(&r);
}
END_TEST

/* Past the retry limit a lost replica's job is not run again: it ends
 * failed, run error worker_lost, on the replica that took it over. */
START_TEST(test_redis_job_past_its_attempts_ends_worker_lost)
{
    redis_srv_t r;
    srv_t s[2];
    static const char *const flags[] = { "--redis-attempts", "1", "--workers",
                                         "1", NULL };
    http_resp_t resp;
    int victim;
    cJSON *j;
    char *id;

    ck_assert(redis_srv_start(&r, false));
    start_replicas(&r, s, 2, flags);
    id = submit_running(s[0].port, 60000);
    victim = runner_of(&r, id, s, 2);
    kill(s[victim].pid, SIGKILL);
    j = await_end(s[1 - victim].port, id, LEASE_MS + 5000);
    ck_assert_str_eq(ht_jstr(j, "status"), "failed");
    cJSON_Delete(j);
    cJSON_Delete(ht_get_job(s[1 - victim].port, id, 0, &resp));
    ck_assert_ptr_nonnull(strstr(resp.body, "\"worker_lost\""));
    http_resp_free(&resp);
    free(id);
    ck_assert_int_eq(srv_stop(&s[1 - victim]), 0);
    srv_cleanup(&s[0]);
    srv_cleanup(&s[1]);
    redis_srv_cleanup(&r);
}
END_TEST

/* Waits until the daemon's log has a line with both id and what. */
static void
await_log(const srv_t *s, const char *id, const char *what)
{
    char path[160];
    int64_t deadline = now_ms() + 20000;

    snprintf(path, sizeof(path), "%s/server.log", s->dir);
    for (;;) {
        char *log = read_file(path, NULL);
        bool found = false;

        for (char *line = log; line != NULL && *line != '\0' && !found;) {
            char *nl = strchr(line, '\n');

            if (nl != NULL) {
                *nl = '\0';
            }
            found = strstr(line, id) != NULL && strstr(line, what) != NULL;
            line = nl != NULL ? nl + 1 : NULL;
        }
        free(log);
        if (found) {
            return;
        }
        ck_assert_msg(now_ms() < deadline, "no log line with %s and %s", id,
                      what);
        sleep_ms(20);
    }
}

/* Waits until /readyz answers want (200 or 503) on port. */
static void
await_readyz(int port, long want)
{
    int64_t deadline = now_ms() + 20000;
    http_resp_t resp;

    for (;;) {
        http_get(port, "/readyz", &resp);
        if (resp.status == want) {
            http_resp_free(&resp);
            return;
        }
        http_resp_free(&resp);
        ck_assert_msg(now_ms() < deadline, "/readyz never answered %ld", want);
        sleep_ms(20);
    }
}

/* Redis down: 503 backend_unavailable for what needs it, /readyz not
 * ready; Redis back: service as before, on the same process. */
START_TEST(test_redis_down_gives_503_then_recovers)
{
    static const char cube2[] =
        "{\"puzzle\":\"2x2x2\",\"scramble\":\"" CUBE2_SCRAMBLE "\"}";
    redis_srv_t r;
    srv_t s[1];
    http_resp_t resp;
    char path[160];
    char *late;
    char *id;
    cJSON *j;
    long st;

    ck_assert(redis_srv_start(&r, false));
    start_replicas(&r, s, 1, ONE_WORKER);
    id = ht_submit(s[0].port, cube2, &st, NULL);
    ck_assert_int_eq(st, 200);
    /* A job that ends while Redis is away: its end is stored once Redis
     * is back (this Redis keeps nothing: the record is written anew). */
    late = submit_running(s[0].port, 1000);
    redis_srv_stop(&r, SIGTERM);
    await_readyz(s[0].port, 503);
    await_log(&s[0], late, "\"msg\":\"job end\"");
    http_get(s[0].port, "/readyz", &resp);
    ck_assert_ptr_nonnull(strstr(resp.body, "backend_unavailable"));
    http_resp_free(&resp);
    http_post(s[0].port, "/v1/solve", cube2, &resp);
    ASSERT_PROBLEM(&resp, 503, "backend_unavailable");
    ck_assert_str_eq(resp.retry_after, "1");
    http_resp_free(&resp);
    snprintf(path, sizeof(path), "/v1/jobs/%s", id);
    http_get(s[0].port, path, &resp);
    ASSERT_PROBLEM(&resp, 503, "backend_unavailable");
    http_resp_free(&resp);
    http_get(s[0].port, "/v1/jobs", &resp);
    ASSERT_PROBLEM(&resp, 503, "backend_unavailable");
    http_resp_free(&resp);
    ck_assert_double_eq(
        ht_metric_now(s[0].port, "puzzled_job_store_up{backend=\"redis\"}"), 0);
    ck_assert(redis_srv_restart(&r));
    await_readyz(s[0].port, 200);
    j = await_end(s[0].port, late, 10000);
    ck_assert_str_eq(ht_jstr(j, "status"), "timeout");
    cJSON_Delete(j);
    free(late);
    free(id);
    ck_assert_double_eq(
        ht_metric_now(s[0].port, "puzzled_job_store_up{backend=\"redis\"}"), 1);
    ck_assert(ht_metric_now(s[0].port, "puzzled_job_store_round_trips_total") >
              0);
    id = ht_submit(s[0].port, cube2, &st, NULL);
    ck_assert_int_eq(st, 200);
    cJSON_Delete(ht_get_job(s[0].port, id, 0, NULL));
    free(id);
    stop_replicas(s, 1);
    redis_srv_cleanup(&r);
}
END_TEST

/* One replica, one solver thread busy with a long job and two jobs in
 * the queue, then Redis restarts. */
static void
restart_with_queue(bool aof)
{
    static const char quick[] =
        "{\"puzzle\":\"8-puzzle\",\"state\":" EIGHT_HARD_A
        ",\"engine\":\"astar\",\"wait_ms\":0}";
    redis_srv_t r;
    srv_t s[1];
    char *longid;
    char *queued[2];
    cJSON *j;
    long st;

    ck_assert(redis_srv_start(&r, aof));
    start_replicas(&r, s, 1, ONE_WORKER);
    longid = submit_running(s[0].port, aof ? 60000 : 2000);
    for (int i = 0; i < 2; i++) {
        queued[i] = ht_submit(s[0].port, quick, &st, NULL);
        ck_assert_int_eq(st, 202);
    }
    redis_srv_stop(&r, SIGTERM);
    ck_assert(redis_srv_restart(&r));
    await_readyz(s[0].port, 200);
    if (aof) {
        /* Nothing lost: the queued jobs are still queued and run once the
         * solver thread is free. */
        for (int i = 0; i < 2; i++) {
            j = ht_get_job(s[0].port, queued[i], 0, NULL);
            ck_assert_str_eq(ht_jstr(j, "status"), "queued");
            cJSON_Delete(j);
        }
        ht_cancel_job(s[0].port, longid);
        j = await_end(s[0].port, longid, 10000);
        ck_assert_str_eq(ht_jstr(j, "status"), "cancelled");
        cJSON_Delete(j);
        for (int i = 0; i < 2; i++) {
            j = await_end(s[0].port, queued[i], 30000);
            ck_assert_str_eq(ht_jstr(j, "status"), "solved");
            cJSON_Delete(j);
        }
    } else {
        /* The queue went with the data: the jobs end with a clear code
         * rather than stay queued or vanish; the running one writes its
         * own end. */
        for (int i = 0; i < 2; i++) {
            http_resp_t resp;

            j = await_end(s[0].port, queued[i], 10000);
            ck_assert_str_eq(ht_jstr(j, "status"), "failed");
            cJSON_Delete(j);
            j = ht_get_job(s[0].port, queued[i], 0, &resp);
            ck_assert_ptr_nonnull(strstr(resp.body, "\"backend_lost\""));
            http_resp_free(&resp);
            cJSON_Delete(j);
        }
        for (int64_t deadline = now_ms() + 20000;;) {
            char path[160];
            http_resp_t resp;

            snprintf(path, sizeof(path), "/v1/jobs/%s", longid);
            http_get(s[0].port, path, &resp);
            if (resp.status == 200) {
                j = ht_job_of(&resp);
                http_resp_free(&resp);
                if (ht_job_terminal(j)) {
                    ck_assert_str_eq(ht_jstr(j, "status"), "timeout");
                    cJSON_Delete(j);
                    break;
                }
                cJSON_Delete(j);
            } else {
                ASSERT_PROBLEM(&resp, 404, "job_not_found");
                http_resp_free(&resp);
            }
            ck_assert_msg(now_ms() < deadline, "the running job never ended");
            sleep_ms(50);
        }
    }
    free(longid);
    free(queued[0]);
    free(queued[1]);
    stop_replicas(s, 1);
    redis_srv_cleanup(&r);
}

START_TEST(test_redis_restart_with_aof_loses_nothing)
{
    restart_with_queue(true);
}
END_TEST

START_TEST(test_redis_restart_without_persistence_ends_backend_lost)
{
    restart_with_queue(false);
}
END_TEST

/* The deployment's queue cap holds across replicas. */
START_TEST(test_redis_queue_cap_is_the_deployments)
{
    redis_srv_t r;
    srv_t s[2];
    static const char *const flags[] = { "--queue", "2", "--workers", "1",
                                         NULL };
    char body[512];
    char *ids[4] = { NULL, NULL, NULL, NULL };
    long st;

    ck_assert(redis_srv_start(&r, false));
    start_replicas(&r, s, 2, flags);
    /* Both solver threads busy (one per replica). */
    for (int i = 0; i < 2; i++) {
        ids[i] = submit_running(s[i].port, 60000);
    }
    /* Two queued, one through each replica: the queue is full for
     * both. */
    ht_long_job_body(body, sizeof(body), 60000, 16, 0);
    ids[2] = ht_submit(s[0].port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    ids[3] = ht_submit(s[1].port, body, &st, NULL);
    ck_assert_int_eq(st, 202);
    for (int i = 0; i < 2; i++) {
        http_resp_t resp;

        http_post(s[i].port, "/v1/solve", body, &resp);
        ASSERT_PROBLEM(&resp, 429, "queue_full");
        http_resp_free(&resp);
    }
    for (int i = 0; i < 4; i++) {
        ht_cancel_job(s[i % 2].port, ids[i]);
        free(ids[i]);
    }
    stop_replicas(s, 2);
    redis_srv_cleanup(&r);
}
END_TEST

/* The password of the URL never reaches the log or /metrics. */
START_TEST(test_redis_password_stays_secret)
{
    redis_srv_t r;
    srv_t s;
    char url[160];
    char path[160];
    char *log;
    http_resp_t resp;
    const char *flags[] = { "--redis", url, "--redis-prefix", PREFIX, NULL };

    ck_assert(redis_srv_start(&r, false));
    ck_assert(redis_inline(r.port, "CONFIG SET requirepass s3cret-pw", url,
                           sizeof(url)));
    snprintf(url, sizeof(url), "redis://:s3cret-pw@127.0.0.1:%d", r.port);
    ck_assert(srv_start(&s, flags) == 0);
    ht_await_ready(s.port);
    http_get(s.port, "/metrics", &resp);
    ck_assert_int_eq(resp.status, 200);
    ck_assert_ptr_null(strstr(resp.body, "s3cret"));
    http_resp_free(&resp);
    ck_assert_int_eq(srv_stop(&s), 0);
    snprintf(path, sizeof(path), "%s/server.log", s.dir);
    log = read_file(path, NULL);
    ck_assert_ptr_nonnull(log);
    ck_assert_ptr_nonnull(strstr(log, "redis://***@127.0.0.1"));
    ck_assert_ptr_null(strstr(log, "s3cret"));
    free(log);
    srv_cleanup(&s);
    redis_srv_cleanup(&r);
}
END_TEST

static Suite *
server_redis_suite(void)
{
    Suite *s = suite_create("server_redis");
    TCase *tc = tcase_create("replicas");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_redis_any_replica_polls_and_cancels);
    tcase_add_test(tc, test_redis_cancel_flag_stops_without_its_message);
    tcase_add_test(tc, test_redis_waits_through_each_replica);
    tcase_add_test(tc, test_redis_killed_replica_job_finishes_elsewhere);
    tcase_add_test(tc, test_redis_job_past_its_attempts_ends_worker_lost);
    tcase_add_test(tc, test_redis_down_gives_503_then_recovers);
    tcase_add_test(tc, test_redis_restart_with_aof_loses_nothing);
    tcase_add_test(tc,
                   test_redis_restart_without_persistence_ends_backend_lost);
    tcase_add_test(tc, test_redis_queue_cap_is_the_deployments);
    tcase_add_test(tc, test_redis_password_stays_secret);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr;
    int failed;

    signal(SIGPIPE, SIG_IGN);
    if (!srv_prepare_tables("server-redis")) {
        return EXIT_FAILURE;
    }
    curl_global_init(CURL_GLOBAL_ALL);
    sr = srunner_create(server_redis_suite());
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    curl_global_cleanup();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
