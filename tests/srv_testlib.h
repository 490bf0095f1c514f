/* SPDX-License-Identifier: MIT */
/* srv_testlib.h - a `puzzled serve` daemon for the HTTP tests: start it on
 * a loopback port with prebuilt tables, stop it, talk to it over a raw
 * socket. */
#ifndef PZ_TESTS_SRV_TESTLIB_H
#define PZ_TESTS_SRV_TESTLIB_H

/*
 * The daemon is the real binary (PZ_BINARY) on 127.0.0.1 with an ephemeral
 * port that it writes to a port file. It is not a child of the test: a
 * small monitor process forks and execs it and records its exit status in
 * a file, so that a test running in a forked Check child can send SIGTERM
 * and still assert that the daemon exited with status 0.
 *
 * Every function is static inline so each test file uses what it needs.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

/* Generous bounds: the machine is shared and sanitizer builds are slow. */
#define START_TIMEOUT_MS 15000
#define STOP_TIMEOUT_MS  15000

/* --- small utilities --- */

static inline int64_t
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void
sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Reads a whole small file into a NUL-terminated buffer, or NULL. */
static inline char *
read_file(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0;
    size_t len = 0;

    if (f == NULL) {
        return NULL;
    }
    for (;;) {
        if (len + 4096 + 1 > cap) {
            char *nb;

            cap = cap == 0 ? 8192 : cap * 2;
            nb = realloc(buf, cap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, 4096, f);

        len += n;
        if (n < 4096) {
            break;
        }
    }
    fclose(f);
    buf[len] = '\0';
    if (len_out != NULL) {
        *len_out = len;
    }
    return buf;
}

/* --- the daemon under test --- */

typedef struct srv {
    pid_t pid;     /* the daemon */
    pid_t monitor; /* our child: waits for the daemon, records its exit */
    int port;      /* bound port from the port file */
    char dir[64];  /* private temp dir: port, log, exit status */
} srv_t;

extern char **environ;

/* Clears every PUZZLED_* variable, so the caller's environment cannot
 * change the daemon's configuration under test. */
static inline void
unset_puzzled_env(void)
{
    char name[128];
    bool again = true;

    while (again) {
        again = false;
        for (char **e = environ; *e != NULL; e++) {
            size_t n = strcspn(*e, "=");

            if (strncmp(*e, "PUZZLED_", 8) == 0 && n < sizeof(name)) {
                memcpy(name, *e, n);
                name[n] = '\0';
                unsetenv(name);
                again = true; /* environ changed: scan again */
                break;
            }
        }
    }
}

/* Starts the Redis of a suite run against the Redis backend (one per
 * test program, stopped when the program exits). Defined in
 * http_testlib.c. */
bool srv_start_suite_redis(void);

/* The table directory of daemons started without --tables: the complete
 * tables, built by main() under the tests' table directory. One for the
 * whole program, defined in http_testlib.c (linked with every program
 * that includes this header), so that the daemons the library starts use
 * it too. */
extern char g_tables[512];

/* The Redis the daemons keep their jobs in ("" none: the memory backend),
 * set by srv_prepare_tables when PZ_TEST_BACKEND=redis: the same tests
 * then run against the Redis backend, each daemon a deployment of its own
 * (its own key prefix). Defined in http_testlib.c. */
extern char g_redis_url[96];

/* True when the NULL-terminated flags (may be NULL) hold flag. */
static inline bool
has_flag(const char *const *flags, const char *flag)
{
    for (int i = 0; flags != NULL && flags[i] != NULL; i++) {
        if (strcmp(flags[i], flag) == 0) {
            return true;
        }
    }
    return false;
}

/* Runs in the monitor: starts the daemon, reports its pid on fd, waits
 * for it and writes "exit N" or "signal N" to DIR/status. Never returns. */
static inline void
monitor_main(const srv_t *s, const char *const *extra, int fd)
{
    const char *argv[40];
    char portfile[128];
    char path[128];
    int argc = 0;
    int st = 0;
    pid_t pid;
    FILE *f;

    prctl(PR_SET_PDEATHSIG, SIGKILL);
    snprintf(portfile, sizeof(portfile), "%s/port", s->dir);
    argv[argc++] = PZ_BINARY;
    argv[argc++] = "serve";
    argv[argc++] = "--port";
    argv[argc++] = "0";
    argv[argc++] = "--bind";
    argv[argc++] = "127.0.0.1";
    argv[argc++] = "--port-file";
    argv[argc++] = portfile;
    if (!has_flag(extra, "--tables")) {
        /* The complete tables main() built, and no build of its own. */
        argv[argc++] = "--tables";
        argv[argc++] = g_tables;
        argv[argc++] = "--table-builds";
        argv[argc++] = "never";
    }
    if (!has_flag(extra, "--default-wait-ms")) {
        /* A solve without wait_ms waits for its end (tests that want the
         * 202 path ask wait_ms 0): a loaded machine does not turn an
         * expected 200 into 202. */
        argv[argc++] = "--default-wait-ms";
        argv[argc++] = "60000";
    }
    if (g_redis_url[0] != '\0' && !has_flag(extra, "--redis")) {
        argv[argc++] = "--redis";
        argv[argc++] = g_redis_url;
        argv[argc++] = "--redis-prefix";
        argv[argc++] = s->dir + strlen("/tmp/");
    }
    for (int i = 0; extra != NULL && extra[i] != NULL && argc < 38; i++) {
        argv[argc++] = extra[i];
    }
    argv[argc] = NULL;
    pid = fork();
    if (pid == 0) {
        int log;

        prctl(PR_SET_PDEATHSIG, SIGKILL);
        snprintf(path, sizeof(path), "%s/server.log", s->dir);
        log = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (log >= 0) {
            dup2(log, 1);
            dup2(log, 2);
            close(log);
        }
        close(fd);
        unset_puzzled_env();
        execv(PZ_BINARY, (char *const *)argv);
        _exit(127);
    }
    if (write(fd, &pid, sizeof(pid)) != (ssize_t)sizeof(pid)) {
        _exit(1);
    }
    close(fd);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    snprintf(path, sizeof(path), "%s/status.tmp", s->dir);
    f = fopen(path, "w");
    if (f != NULL) {
        char final[128];

        if (WIFEXITED(st)) {
            fprintf(f, "exit %d\n", WEXITSTATUS(st));
        } else {
            fprintf(f, "signal %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : -1);
        }
        fclose(f);
        snprintf(final, sizeof(final), "%s/status", s->dir);
        rename(path, final);
    }
    _exit(0);
}

/* Prints the daemon's log to stderr (for a failing test). */
static inline void
srv_dump_log(const srv_t *s)
{
    char path[128];
    char *log;

    snprintf(path, sizeof(path), "%s/server.log", s->dir);
    log = read_file(path, NULL);
    fprintf(stderr, "---- %s ----\n%s\n---- end of log ----\n", path,
            log != NULL ? log : "(no log)");
    free(log);
}

/* Reads DIR/status: the daemon's exit code, 128+signal, or -1 while it
 * still runs. */
static inline int
srv_status(const srv_t *s)
{
    char path[128];
    char *text;
    int v = -1;
    int rc = -1;

    snprintf(path, sizeof(path), "%s/status", s->dir);
    text = read_file(path, NULL);
    if (text == NULL) {
        return -1;
    }
    if (sscanf(text, "exit %d", &v) == 1) {
        rc = v;
    } else if (sscanf(text, "signal %d", &v) == 1) {
        rc = 128 + v;
    } else {
        rc = 255;
    }
    free(text);
    return rc;
}

static inline void srv_cleanup(srv_t *s);

/* Starts the daemon with extra flags (NULL-terminated, may be NULL) and
 * waits for its port. Returns 0, or -1 with a message on stderr. */
static inline int
srv_start(srv_t *s, const char *const *extra)
{
    int fds[2];
    char path[128];
    int64_t deadline;

    memset(s, 0, sizeof(*s));
    snprintf(s->dir, sizeof(s->dir), "/tmp/pz-http-XXXXXX");
    if (mkdtemp(s->dir) == NULL || pipe(fds) != 0) {
        perror("srv_start");
        return -1;
    }
    fflush(NULL);
    s->monitor = fork();
    if (s->monitor < 0) {
        perror("fork");
        return -1;
    }
    if (s->monitor == 0) {
        close(fds[0]);
        monitor_main(s, extra, fds[1]);
    }
    close(fds[1]);
    if (read(fds[0], &s->pid, sizeof(s->pid)) != (ssize_t)sizeof(s->pid)) {
        close(fds[0]);
        fprintf(stderr, "srv_start: the monitor did not start the daemon\n");
        srv_cleanup(s);
        return -1;
    }
    close(fds[0]);
    snprintf(path, sizeof(path), "%s/port", s->dir);
    deadline = now_ms() + START_TIMEOUT_MS;
    while (now_ms() < deadline) {
        char *text = read_file(path, NULL);

        if (text != NULL) {
            long port = strtol(text, NULL, 10);

            free(text);
            if (port > 0 && port < 65536) {
                s->port = (int)port;
                return 0;
            }
        }
        if (srv_status(s) >= 0) {
            fprintf(stderr,
                    "srv_start: the daemon exited with status %d "
                    "before writing its port\n",
                    srv_status(s));
            srv_dump_log(s);
            srv_cleanup(s);
            return -1;
        }
        sleep_ms(10);
    }
    fprintf(stderr, "srv_start: no port file after %d ms\n", START_TIMEOUT_MS);
    srv_dump_log(s);
    srv_cleanup(s);
    return -1;
}

/* Sends sig to the daemon and waits for it to exit. Returns its exit code
 * (128+signal when killed by one), or -1 when it did not exit in time (it is
 * then killed). Works from any process. */
static inline int
srv_signal_wait(srv_t *s, int sig, int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    int rc;

    if (s->pid > 0 && srv_status(s) < 0) {
        kill(s->pid, sig);
    }
    while ((rc = srv_status(s)) < 0 && now_ms() < deadline) {
        sleep_ms(10);
    }
    if (rc < 0) {
        kill(s->pid, SIGKILL);
        fprintf(stderr, "srv: the daemon did not exit within %d ms\n",
                timeout_ms);
    }
    if (rc != 0) {
        srv_dump_log(s);
    }
    return rc;
}

/* Stops the daemon with SIGTERM; returns as srv_signal_wait. */
static inline int
srv_stop(srv_t *s)
{
    return srv_signal_wait(s, SIGTERM, STOP_TIMEOUT_MS);
}

/* Kills the daemon if it still runs, reaps the monitor (when it is our
 * child) and removes the temp dir. Safe to call twice. */
static inline void
srv_cleanup(srv_t *s)
{
    static const char *const files[] = { "port",       "server.log",  "status",
                                         "status.tmp", "metrics.txt", NULL };
    char path[128];

    if (s->dir[0] == '\0') {
        return;
    }
    if (s->pid > 0 && srv_status(s) < 0) {
        kill(s->pid, SIGKILL);
    }
    if (s->monitor > 0) {
        waitpid(s->monitor, NULL, 0);
    }
    for (int i = 0; files[i] != NULL; i++) {
        snprintf(path, sizeof(path), "%s/%s", s->dir, files[i]);
        unlink(path);
    }
    rmdir(s->dir);
    memset(s, 0, sizeof(*s));
}

/* Builds the complete tables of the 8-puzzle, the 2x2x2 and the pyraminx
 * into g_tables, the directory subdir under $PUZZLED_TABLES (the tests'
 * table directory, else /tmp), for the daemons. Each test program has its
 * own subdir, so that programs run in parallel never build into the same
 * directory. */
static inline bool
srv_prepare_tables(const char *subdir)
{
    const char *base = getenv("PUZZLED_TABLES");
    const char *backend = getenv("PZ_TEST_BACKEND");
    char cmd[1024];

    if (backend != NULL && strcmp(backend, "redis") == 0 &&
        !srv_start_suite_redis()) {
        return false;
    }
    if (base == NULL || base[0] == '\0') {
        base = "/tmp";
    }
    snprintf(g_tables, sizeof(g_tables), "%s/%s", base, subdir);
    snprintf(cmd, sizeof(cmd),
             "'%s' tables build 8-puzzle 2x2x2 pyraminx --dir '%s' "
             ">/dev/null",
             PZ_BINARY, g_tables);
    if (system(cmd) != 0) {
        fprintf(stderr, "could not build the complete tables into %s\n",
                g_tables);
        return false;
    }
    return true;
}

/* Sends the bytes req on a new connection to port and reads the reply
 * into buf (cap bytes, NUL-terminated) until the server closes or 3 s of
 * silence. Returns the bytes read. */
static inline size_t
raw_exchange(int port, const char *req, size_t len, char *buf, size_t cap)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    struct timeval tv = { 3, 0 };
    size_t n = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    ck_assert_int_ge(fd, 0);
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    ck_assert_int_eq(send(fd, req, len, MSG_NOSIGNAL), (ssize_t)len);
    while (n + 1 < cap) {
        ssize_t got = recv(fd, buf + n, cap - 1 - n, 0);

        if (got <= 0) {
            break;
        }
        n += (size_t)got;
    }
    buf[n] = '\0';
    close(fd);
    return n;
}

#endif
