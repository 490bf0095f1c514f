/* SPDX-License-Identifier: MIT */
/* ceiling.c - a minimal libmicrohttpd responder: the ceiling for load.sh. */

/*
 * It answers every request, GET or POST, with one fixed JSON body of about
 * the size of a solved job, started with the daemon's own MHD options
 * (server/http.c): internal polling thread, poll, suspend/resume allowed,
 * a pool of --threads threads (the daemon's --http-threads, default 2),
 * 256 connections, a 10 s idle timeout and 64 KiB of memory per
 * connection (MHD clears that much per request). It reads
 * and discards request bodies, so wrk's POST scripts can run against it
 * unchanged. Whatever puzzled achieves below this figure is the cost of
 * parsing, validating, queueing, solving and rendering, and of the
 * daemon's own acceptor (the responder lets MHD accept).
 *
 * Usage: ceiling --port-file PATH [--threads N]   (binds 127.0.0.1, port 0)
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

/* A job-sized body (about 1 KiB), sent from static memory. */
static const char body[] =
    "{\"id\":\"0f5c2a913e7d4b6a\",\"status\":\"solved\","
    "\"created_at\":\"2026-11-21T07:05:03.120Z\","
    "\"started_at\":\"2026-11-21T07:05:03.121Z\","
    "\"finished_at\":\"2026-11-21T07:05:03.122Z\","
    "\"limits\":{\"time_ms\":10000,\"memory_mb\":256,\"max_nodes\":0,"
    "\"max_depth\":0,\"target_length\":0},\"puzzle\":\"2x2x2\","
    "\"metric\":\"qtm\",\"scramble\":\"R U' R' F' U\","
    "\"state\":\"UFUBRLRDFRDLFBDULDBRUBLF\",\"goal\":"
    "\"UUUURRRRFFFFDDDDLLLLBBBB\","
    "\"requested_engine\":\"auto\",\"requested_optimal\":true,"
    "\"engine\":\"bibfs\",\"heuristic\":\"none\",\"solution\":{\"moves\":"
    "[\"U'\",\"F\",\"R\",\"U\",\"R'\"],\"text\":\"U' F R U R'\",\"length\":5,"
    "\"metric\":\"qtm\",\"optimal\":true},\"optimal\":true,\"stats\":{"
    "\"nodes_expanded\":112,\"nodes_generated\":672,\"duplicates\":85,"
    "\"open_size\":0,\"frontier_forward\":36,\"frontier_backward\":27,"
    "\"peak_memory_bytes\":65536,\"depth_bound\":3,\"iterations\":0,"
    "\"heuristic_at_start\":-1,\"best_length\":-1,\"elapsed_ms\":0.041,"
    "\"nodes_per_second\":16390243}}";

static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
    (void)sig;
    stop = 1;
}

static enum MHD_Result
on_request(void *cls,
           struct MHD_Connection *conn,
           const char *url,
           const char *method,
           const char *version,
           const char *upload,
           size_t *upload_size,
           void **con_cls)
{
    static int first_call_marker;
    struct MHD_Response *resp;
    enum MHD_Result ret;

    (void)cls;
    (void)url;
    (void)method;
    (void)version;
    (void)upload;
    /* First call: headers only. Middle calls: discard the body. */
    if (*con_cls == NULL) {
        *con_cls = &first_call_marker;
        return MHD_YES;
    }
    if (*upload_size != 0) {
        *upload_size = 0;
        return MHD_YES;
    }
    resp = MHD_create_response_from_buffer(sizeof(body) - 1, (void *)body,
                                           MHD_RESPMEM_PERSISTENT);
    if (resp == NULL) {
        return MHD_NO;
    }
    MHD_add_response_header(resp, "Content-Type", "application/json");
    ret = MHD_queue_response(conn, MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    return ret;
}

int
main(int argc, char **argv)
{
    const char *port_file = NULL;
    unsigned threads = 2;
    struct sockaddr_in sin;
    struct MHD_Daemon *d;
    const union MHD_DaemonInfo *info;
    FILE *f;

    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--port-file") == 0) {
            port_file = argv[i + 1];
        } else if (strcmp(argv[i], "--threads") == 0) {
            threads = (unsigned)atoi(argv[i + 1]);
        }
    }
    if (port_file == NULL || threads == 0) {
        fprintf(stderr, "usage: ceiling --port-file PATH [--threads N]\n");
        return 2;
    }
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_port = 0;
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    d = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
            MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG,
        0, NULL, NULL, on_request, NULL, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&sin, MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, 256u, MHD_OPTION_CONNECTION_TIMEOUT, 10u,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)64 * 1024, MHD_OPTION_END);
    if (d == NULL) {
        fprintf(stderr, "ceiling: MHD_start_daemon failed\n");
        return 1;
    }
    info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    f = fopen(port_file, "w");
    if (info == NULL || f == NULL) {
        fprintf(stderr, "ceiling: cannot report the port\n");
        MHD_stop_daemon(d);
        return 1;
    }
    fprintf(f, "%u\n", (unsigned)info->port);
    fclose(f);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    while (!stop) {
        pause();
    }
    MHD_stop_daemon(d);
    return 0;
}
