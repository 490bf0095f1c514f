/* SPDX-License-Identifier: MIT */
/* redis_testlib.h - a private redis-server for the tests: started on a
 * free loopback port in its own directory (no system service), with or
 * without the append-only file, stopped, restarted on the same port, and
 * cleaned up. Every function is static inline. */
#ifndef PZ_TESTS_REDIS_TESTLIB_H
#define PZ_TESTS_REDIS_TESTLIB_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "srv_testlib.h"

#define REDIS_START_TIMEOUT_MS 15000

typedef struct redis_srv {
    pid_t pid;    /* the redis-server child, 0 when stopped */
    int port;     /* its loopback port */
    bool aof;     /* appendonly yes */
    char dir[64]; /* its directory: data files and log */
    char url[96]; /* redis://127.0.0.1:port */
} redis_srv_t;

/* A port nothing listens on now (the kernel's choice). */
static inline int
redis_free_port(void)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    socklen_t len = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int port = -1;

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0) {
        port = ntohs(a.sin_port);
    }
    if (fd >= 0) {
        close(fd);
    }
    return port;
}

/* Sends the inline command cmd ("PING") and reads the reply's first line
 * into out. True when a reply came. */
static inline bool
redis_inline(int port, const char *cmd, char *out, size_t cap)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    struct timeval tv = { 2, 0 };
    char line[512];
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ssize_t n;
    bool ok = false;

    if (fd < 0) {
        return false;
    }
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    snprintf(line, sizeof(line), "%s\r\n", cmd);
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
        send(fd, line, strlen(line), MSG_NOSIGNAL) == (ssize_t)strlen(line) &&
        (n = recv(fd, line, sizeof(line) - 1, 0)) > 0) {
        line[n] = '\0';
        line[strcspn(line, "\r\n")] = '\0';
        snprintf(out, cap, "%s", line);
        ok = true;
    }
    close(fd);
    return ok;
}

/* True once the server answers PING with PONG (it has loaded its data). */
static inline bool
redis_srv_up(const redis_srv_t *r)
{
    char reply[64];

    return redis_inline(r->port, "PING", reply, sizeof(reply)) &&
           strcmp(reply, "+PONG") == 0;
}

/* Starts redis-server on r->port in r->dir; waits until it answers.
 * Returns true, or false when it exited (port taken) or never answered. */
static inline bool
redis_srv_spawn(redis_srv_t *r)
{
    char port[16];
    char log[128];
    int64_t deadline;

    snprintf(port, sizeof(port), "%d", r->port);
    snprintf(log, sizeof(log), "%s/redis.log", r->dir);
    fflush(NULL);
    r->pid = fork();
    if (r->pid < 0) {
        r->pid = 0;
        return false;
    }
    if (r->pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        execlp("redis-server", "redis-server", "--port", port, "--bind",
               "127.0.0.1", "--dir", r->dir, "--save", "", "--appendonly",
               r->aof ? "yes" : "no", "--logfile", log, "--daemonize", "no",
               (char *)NULL);
        _exit(127);
    }
    deadline = now_ms() + REDIS_START_TIMEOUT_MS;
    while (now_ms() < deadline) {
        int st;
        struct timespec ts = { 0, 10 * 1000000L };

        if (waitpid(r->pid, &st, WNOHANG) == r->pid) {
            r->pid = 0;
            return false;
        }
        if (redis_srv_up(r)) {
            return true;
        }
        nanosleep(&ts, NULL);
    }
    kill(r->pid, SIGKILL);
    waitpid(r->pid, NULL, 0);
    r->pid = 0;
    return false;
}

/* A new private Redis. Returns true, or false with a message on stderr
 * (redis-server missing: scripts/setup installs it). */
static inline bool
redis_srv_start(redis_srv_t *r, bool aof)
{
    memset(r, 0, sizeof(*r));
    r->aof = aof;
    snprintf(r->dir, sizeof(r->dir), "/tmp/pz-redis-XXXXXX");
    if (mkdtemp(r->dir) == NULL) {
        perror("redis_srv_start");
        return false;
    }
    /* A port another process takes between the choice and the bind makes
     * redis-server exit: choose again. */
    for (int tries = 0; tries < 5; tries++) {
        r->port = redis_free_port();
        if (r->port > 0 && redis_srv_spawn(r)) {
            snprintf(r->url, sizeof(r->url), "redis://127.0.0.1:%d", r->port);
            return true;
        }
    }
    fprintf(stderr, "redis_srv_start: redis-server did not start (is it "
                    "installed? scripts/setup installs it)\n");
    return false;
}

/* Stops the server: SIGTERM (a clean shutdown: the append-only file is
 * complete) or SIGKILL, and waits for it. */
static inline void
redis_srv_stop(redis_srv_t *r, int sig)
{
    if (r->pid > 0) {
        kill(r->pid, sig);
        waitpid(r->pid, NULL, 0);
        r->pid = 0;
    }
}

/* Starts the stopped server again on the same port and directory. */
static inline bool
redis_srv_restart(redis_srv_t *r)
{
    return redis_srv_spawn(r);
}

/* Stops the server and removes its directory. */
static inline void
redis_srv_cleanup(redis_srv_t *r)
{
    char cmd[160];

    redis_srv_stop(r, SIGKILL);
    if (r->dir[0] != '\0') {
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", r->dir);
        if (system(cmd) != 0) {
            fprintf(stderr, "could not remove %s\n", r->dir);
        }
        r->dir[0] = '\0';
    }
}

#endif
