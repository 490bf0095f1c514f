#include "api_json.h"
/* SPDX-License-Identifier: MIT */
#include "api_json.h"
/* srv_testlib.h - a `puzzled serve` daemon for the HTTP tests: start it on
#include "api_json.h"
 * a loopback port with prebuilt tables, stop it, talk to it over a raw
#include "api_json.h"
 * socket. */
#include "api_json.h"
#ifndef PZ_TESTS_SRV_TESTLIB_H
#include "api_json.h"
#define PZ_TESTS_SRV_TESTLIB_H
#include "api_json.h"
/*
#include "api_json.h"
 * The daemon is the real binary (PZ_BINARY) on 127.0.0.1 with an ephemeral
#include "api_json.h"
 * port that it writes to a port file. It is not a child of the test: a
#include "api_json.h"
 * small monitor process forks and execs it and records its exit status in
#include "api_json.h"
 * a file, so that a test running in a forked Check child can send SIGTERM
#include "api_json.h"
 * and still assert that the daemon exited with status 0.
#include "api_json.h"
 *
#include "api_json.h"
 * Every function is static inline so each test file uses what it needs.
#include "api_json.h"
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

#include "api_json.h"
/* Generous bounds: the machine is shared and sanitizer builds are slow. */
#include "api_json.h"
#define START_TIMEOUT_MS 15000
#include "api_json.h"
#define STOP_TIMEOUT_MS 15000
#include "api_json.h"
/* --- small utilities --- */
#include "api_json.h"
static inline int64_t
#include "api_json.h"
now_ms(void)
#include "api_json.h"
{
#include "api_json.h"
    struct timespec ts;
#include "api_json.h"
    clock_gettime(CLOCK_MONOTONIC, &ts);
#include "api_json.h"
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
#include "api_json.h"
}
#include "api_json.h"
static inline void
#include "api_json.h"
sleep_ms(int ms)
#include "api_json.h"
{
#include "api_json.h"
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
#include "api_json.h"
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
#include "api_json.h"
    }
#include "api_json.h"
}
#include "api_json.h"
/* Reads a whole small file into a NUL-terminated buffer, or NULL. */
#include "api_json.h"
static inline char *
#include "api_json.h"
read_file(const char *path, size_t *len_out)
#include "api_json.h"
{
#include "api_json.h"
    FILE *f = fopen(path, "rb");
#include "api_json.h"
    char *buf = NULL;
#include "api_json.h"
    size_t cap = 0;
#include "api_json.h"
    size_t len = 0;
#include "api_json.h"
    if (f == NULL) {
#include "api_json.h"
        return NULL;
#include "api_json.h"
    }
#include "api_json.h"
    for (;;) {
#include "api_json.h"
        if (len + 4096 + 1 > cap) {
#include "api_json.h"
            char *nb;
#include "api_json.h"
            cap = cap == 0 ? 8192 : cap * 2;
#include "api_json.h"
            nb = realloc(buf, cap);
#include "api_json.h"
            if (nb == NULL) {
#include "api_json.h"
                free(buf);
#include "api_json.h"
                fclose(f);
#include "api_json.h"
                return NULL;
#include "api_json.h"
            }
#include "api_json.h"
            buf = nb;
#include "api_json.h"
        }
#include "api_json.h"
        size_t n = fread(buf + len, 1, 4096, f);
#include "api_json.h"
        len += n;
#include "api_json.h"
        if (n < 4096) {
#include "api_json.h"
            break;
#include "api_json.h"
        }
#include "api_json.h"
    }
#include "api_json.h"
    fclose(f);
#include "api_json.h"
    buf[len] = '\0';
#include "api_json.h"
    if (len_out != NULL) {
#include "api_json.h"
        *len_out = len;
#include "api_json.h"
    }
#include "api_json.h"
    return buf;
#include "api_json.h"
}
#include "api_json.h"
/* --- the daemon under test --- */
#include "api_json.h"
typedef struct srv {
#include "api_json.h"
    pid_t pid; /* the daemon */
#include "api_json.h"
    pid_t monitor; /* our child: waits for the daemon, records its exit */
#include "api_json.h"
    int port; /* bound port from the port file */
#include "api_json.h"
    char dir[64]; /* private temp dir: port, log, exit status */
#include "api_json.h"
} srv_t;
#include "api_json.h"
extern char **environ;
#include "api_json.h"
/* Clears every PUZZLED_* variable, so the caller's environment cannot
#include "api_json.h"
 * change the daemon's configuration under test. */
#include "api_json.h"
static inline void
#include "api_json.h"
unset_puzzled_env(void)
#include "api_json.h"
{
#include "api_json.h"
    char name[128];
#include "api_json.h"
    bool again = true;
#include "api_json.h"
    while (again) {
#include "api_json.h"
        again = false;
#include "api_json.h"
        for (char **e = environ; *e != NULL; e++) {
#include "api_json.h"
            size_t n = strcspn(*e, "=");
#include "api_json.h"
            if (strncmp(*e, "PUZZLED_", 8) == 0 && n < sizeof(name)) {
#include "api_json.h"
                memcpy(name, *e, n);
#include "api_json.h"
                name[n] = '\0';
#include "api_json.h"
                unsetenv(name);
#include "api_json.h"
                again = true; /* environ changed: scan again */
#include "api_json.h"
                break;
#include "api_json.h"
            }
#include "api_json.h"
        }
#include "api_json.h"
    }
#include "api_json.h"
}
#include "api_json.h"
/* The table directory of daemons started without --tables: the complete
#include "api_json.h"
 * tables, built by main() under the tests' table directory. */
#include "api_json.h"
static char g_tables[512];
#include "api_json.h"
/* True when the NULL-terminated flags (may be NULL) hold flag. */
#include "api_json.h"
static inline bool
#include "api_json.h"
has_flag(const char *const *flags, const char *flag)
#include "api_json.h"
{
#include "api_json.h"
    for (int i = 0; flags != NULL && flags[i] != NULL; i++) {
#include "api_json.h"
        if (strcmp(flags[i], flag) == 0) {
#include "api_json.h"
            return true;
#include "api_json.h"
        }
#include "api_json.h"
    }
#include "api_json.h"
    return false;
#include "api_json.h"
}
#include "api_json.h"
/* Runs in the monitor: starts the daemon, reports its pid on fd, waits
#include "api_json.h"
 * for it and writes "exit N" or "signal N" to DIR/status. Never returns. */
#include "api_json.h"
static inline void
#include "api_json.h"
monitor_main(const srv_t *s, const char *const *extra, int fd)
#include "api_json.h"
{
#include "api_json.h"
    const char *argv[40];
#include "api_json.h"
    char portfile[128];
#include "api_json.h"
    char path[128];
#include "api_json.h"
    int argc = 0;
#include "api_json.h"
    int st = 0;
#include "api_json.h"
    pid_t pid;
#include "api_json.h"
    FILE *f;
#include "api_json.h"
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#include "api_json.h"
    snprintf(portfile, sizeof(portfile), "%s/port", s->dir);
#include "api_json.h"
    argv[argc++] = PZ_BINARY;
#include "api_json.h"
    argv[argc++] = "serve";
#include "api_json.h"
    argv[argc++] = "--port";
#include "api_json.h"
    argv[argc++] = "0";
#include "api_json.h"
    argv[argc++] = "--bind";
#include "api_json.h"
    argv[argc++] = "127.0.0.1";
#include "api_json.h"
    argv[argc++] = "--port-file";
#include "api_json.h"
    argv[argc++] = portfile;
#include "api_json.h"
    if (!has_flag(extra, "--tables")) {
#include "api_json.h"
        /* The complete tables main() built, and no build of its own. */
#include "api_json.h"
        argv[argc++] = "--tables";
#include "api_json.h"
        argv[argc++] = g_tables;
#include "api_json.h"
        argv[argc++] = "--table-builds";
#include "api_json.h"
        argv[argc++] = "never";
#include "api_json.h"
    }
#include "api_json.h"
    if (!has_flag(extra, "--default-wait-ms")) {
#include "api_json.h"
        /* A solve without wait_ms waits for its end (tests that want the
#include "api_json.h"
         * 202 path ask wait_ms 0): a loaded machine does not turn an
#include "api_json.h"
         * expected 200 into 202. */
#include "api_json.h"
        argv[argc++] = "--default-wait-ms";
#include "api_json.h"
        argv[argc++] = "60000";
#include "api_json.h"
    }
#include "api_json.h"
    for (int i = 0; extra != NULL && extra[i] != NULL && argc < 38; i++) {
#include "api_json.h"
        argv[argc++] = extra[i];
#include "api_json.h"
    }
#include "api_json.h"
    argv[argc] = NULL;
#include "api_json.h"
    pid = fork();
#include "api_json.h"
    if (pid == 0) {
#include "api_json.h"
        int log;
#include "api_json.h"
        prctl(PR_SET_PDEATHSIG, SIGKILL);
#include "api_json.h"
        snprintf(path, sizeof(path), "%s/server.log", s->dir);
#include "api_json.h"
        log = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
#include "api_json.h"
        if (log >= 0) {
#include "api_json.h"
            dup2(log, 1);
#include "api_json.h"
            dup2(log, 2);
#include "api_json.h"
            close(log);
#include "api_json.h"
        }
#include "api_json.h"
        close(fd);
#include "api_json.h"
        unset_puzzled_env();
#include "api_json.h"
        execv(PZ_BINARY, (char *const *)argv);
#include "api_json.h"
        _exit(127);
#include "api_json.h"
    }
#include "api_json.h"
    if (write(fd, &pid, sizeof(pid)) != (ssize_t)sizeof(pid)) {
#include "api_json.h"
        _exit(1);
#include "api_json.h"
    }
#include "api_json.h"
    close(fd);
#include "api_json.h"
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
#include "api_json.h"
    }
#include "api_json.h"
    snprintf(path, sizeof(path), "%s/status.tmp", s->dir);
#include "api_json.h"
    f = fopen(path, "w");
#include "api_json.h"
    if (f != NULL) {
#include "api_json.h"
        char final[128];
#include "api_json.h"
        if (WIFEXITED(st)) {
#include "api_json.h"
            fprintf(f, "exit %d\n", WEXITSTATUS(st));
#include "api_json.h"
        } else {
#include "api_json.h"
            fprintf(f, "signal %d\n", WIFSIGNALED(st) ? WTERMSIG(st) : -1);
#include "api_json.h"
        }
#include "api_json.h"
        fclose(f);
#include "api_json.h"
        snprintf(final, sizeof(final), "%s/status", s->dir);
#include "api_json.h"
        rename(path, final);
#include "api_json.h"
    }
#include "api_json.h"
    _exit(0);
#include "api_json.h"
}
#include "api_json.h"
/* Prints the daemon's log to stderr (for a failing test). */
#include "api_json.h"
static inline void
#include "api_json.h"
srv_dump_log(const srv_t *s)
#include "api_json.h"
{
#include "api_json.h"
    char path[128];
#include "api_json.h"
    char *log;
#include "api_json.h"
    snprintf(path, sizeof(path), "%s/server.log", s->dir);
#include "api_json.h"
    log = read_file(path, NULL);
#include "api_json.h"
    fprintf(stderr, "---- %s ----\n%s\n---- end of log ----\n", path,
#include "api_json.h"
            log != NULL ? log : "(no log)");
#include "api_json.h"
    free(log);
#include "api_json.h"
}
#include "api_json.h"
/* Reads DIR/status: the daemon's exit code, 128+signal, or -1 while it
#include "api_json.h"
 * still runs. */
#include "api_json.h"
static inline int
#include "api_json.h"
srv_status(const srv_t *s)
#include "api_json.h"
{
#include "api_json.h"
    char path[128];
#include "api_json.h"
    char *text;
#include "api_json.h"
    int v = -1;
#include "api_json.h"
    int rc = -1;
#include "api_json.h"
    snprintf(path, sizeof(path), "%s/status", s->dir);
#include "api_json.h"
    text = read_file(path, NULL);
#include "api_json.h"
    if (text == NULL) {
#include "api_json.h"
        return -1;
#include "api_json.h"
    }
#include "api_json.h"
    if (sscanf(text, "exit %d", &v) == 1) {
#include "api_json.h"
        rc = v;
#include "api_json.h"
    } else if (sscanf(text, "signal %d", &v) == 1) {
#include "api_json.h"
        rc = 128 + v;
#include "api_json.h"
    } else {
#include "api_json.h"
        rc = 255;
#include "api_json.h"
    }
#include "api_json.h"
    free(text);
#include "api_json.h"
    return rc;
#include "api_json.h"
}
#include "api_json.h"
static inline void srv_cleanup(srv_t *s);
#include "api_json.h"
/* Starts the daemon with extra flags (NULL-terminated, may be NULL) and
#include "api_json.h"
 * waits for its port. Returns 0, or -1 with a message on stderr. */
#include "api_json.h"
static inline int
#include "api_json.h"
srv_start(srv_t *s, const char *const *extra)
#include "api_json.h"
{
#include "api_json.h"
    int fds[2];
#include "api_json.h"
    char path[128];
#include "api_json.h"
    int64_t deadline;
#include "api_json.h"
    memset(s, 0, sizeof(*s));
#include "api_json.h"
    snprintf(s->dir, sizeof(s->dir), "/tmp/pz-http-XXXXXX");
#include "api_json.h"
    if (mkdtemp(s->dir) == NULL || pipe(fds) != 0) {
#include "api_json.h"
        perror("srv_start");
#include "api_json.h"
        return -1;
#include "api_json.h"
    }
#include "api_json.h"
    fflush(NULL);
#include "api_json.h"
    s->monitor = fork();
#include "api_json.h"
    if (s->monitor < 0) {
#include "api_json.h"
        perror("fork");
#include "api_json.h"
        return -1;
#include "api_json.h"
    }
#include "api_json.h"
    if (s->monitor == 0) {
#include "api_json.h"
        close(fds[0]);
#include "api_json.h"
        monitor_main(s, extra, fds[1]);
#include "api_json.h"
    }
#include "api_json.h"
    close(fds[1]);
#include "api_json.h"
    if (read(fds[0], &s->pid, sizeof(s->pid)) != (ssize_t)sizeof(s->pid)) {
#include "api_json.h"
        close(fds[0]);
#include "api_json.h"
        fprintf(stderr, "srv_start: the monitor did not start the daemon\n");
#include "api_json.h"
        srv_cleanup(s);
#include "api_json.h"
        return -1;
#include "api_json.h"
    }
#include "api_json.h"
    close(fds[0]);
#include "api_json.h"
    snprintf(path, sizeof(path), "%s/port", s->dir);
#include "api_json.h"
    deadline = now_ms() + START_TIMEOUT_MS;
#include "api_json.h"
    while (now_ms() < deadline) {
#include "api_json.h"
        char *text = read_file(path, NULL);
#include "api_json.h"
        if (text != NULL) {
#include "api_json.h"
            long port = strtol(text, NULL, 10);
#include "api_json.h"
            free(text);
#include "api_json.h"
            if (port > 0 && port < 65536) {
#include "api_json.h"
                s->port = (int)port;
#include "api_json.h"
                return 0;
#include "api_json.h"
            }
#include "api_json.h"
        }
#include "api_json.h"
        if (srv_status(s) >= 0) {
#include "api_json.h"
            fprintf(stderr,
#include "api_json.h"
                    "srv_start: the daemon exited with status %d "
#include "api_json.h"
                    "before writing its port\n",
#include "api_json.h"
                    srv_status(s));
#include "api_json.h"
            srv_dump_log(s);
#include "api_json.h"
            srv_cleanup(s);
#include "api_json.h"
            return -1;
#include "api_json.h"
        }
#include "api_json.h"
        sleep_ms(10);
#include "api_json.h"
    }
#include "api_json.h"
    fprintf(stderr, "srv_start: no port file after %d ms\n", START_TIMEOUT_MS);
#include "api_json.h"
    srv_dump_log(s);
#include "api_json.h"
    srv_cleanup(s);
#include "api_json.h"
    return -1;
#include "api_json.h"
}
#include "api_json.h"
/* Sends sig to the daemon and waits for it to exit. Returns its exit code
#include "api_json.h"
 * (128+signal when killed by one), or -1 when it did not exit in time (it is
#include "api_json.h"
 * then killed). Works from any process. */
#include "api_json.h"
static inline int
#include "api_json.h"
srv_signal_wait(srv_t *s, int sig, int timeout_ms)
#include "api_json.h"
{
#include "api_json.h"
    int64_t deadline = now_ms() + timeout_ms;
#include "api_json.h"
    int rc;
#include "api_json.h"
    if (s->pid > 0 && srv_status(s) < 0) {
#include "api_json.h"
        kill(s->pid, sig);
#include "api_json.h"
    }
#include "api_json.h"
    while ((rc = srv_status(s)) < 0 && now_ms() < deadline) {
#include "api_json.h"
        sleep_ms(10);
#include "api_json.h"
    }
#include "api_json.h"
    if (rc < 0) {
#include "api_json.h"
        kill(s->pid, SIGKILL);
#include "api_json.h"
        fprintf(stderr, "srv: the daemon did not exit within %d ms\n",
#include "api_json.h"
                timeout_ms);
#include "api_json.h"
    }
#include "api_json.h"
    if (rc != 0) {
#include "api_json.h"
        srv_dump_log(s);
#include "api_json.h"
    }
#include "api_json.h"
    return rc;
#include "api_json.h"
}
#include "api_json.h"
/* Stops the daemon with SIGTERM; returns as srv_signal_wait. */
#include "api_json.h"
static inline int
#include "api_json.h"
srv_stop(srv_t *s)
#include "api_json.h"
{
#include "api_json.h"
    return srv_signal_wait(s, SIGTERM, STOP_TIMEOUT_MS);
#include "api_json.h"
}
#include "api_json.h"
/* Kills the daemon if it still runs, reaps the monitor (when it is our
#include "api_json.h"
 * child) and removes the temp dir. Safe to call twice. */
#include "api_json.h"
static inline void
#include "api_json.h"
srv_cleanup(srv_t *s)
#include "api_json.h"
{
#include "api_json.h"
    static const char *const files[] = { "port",       "server.log",  "status",
#include "api_json.h"
                                         "status.tmp", "metrics.txt", NULL };
#include "api_json.h"
    char path[128];
#include "api_json.h"
    if (s->dir[0] == '\0') {
#include "api_json.h"
        return;
#include "api_json.h"
    }
#include "api_json.h"
    if (s->pid > 0 && srv_status(s) < 0) {
#include "api_json.h"
        kill(s->pid, SIGKILL);
#include "api_json.h"
    }
#include "api_json.h"
    if (s->monitor > 0) {
#include "api_json.h"
        waitpid(s->monitor, NULL, 0);
#include "api_json.h"
    }
#include "api_json.h"
    for (int i = 0; files[i] != NULL; i++) {
#include "api_json.h"
        snprintf(path, sizeof(path), "%s/%s", s->dir, files[i]);
#include "api_json.h"
        unlink(path);
#include "api_json.h"
    }
#include "api_json.h"
    rmdir(s->dir);
#include "api_json.h"
    memset(s, 0, sizeof(*s));
#include "api_json.h"
}
#include "api_json.h"
/* Builds the complete tables of the 8-puzzle, the 2x2x2 and the pyraminx
#include "api_json.h"
 * into g_tables, the directory subdir under $PUZZLED_TABLES (the tests'
#include "api_json.h"
 * table directory, else /tmp), for the daemons. Each test program has its
#include "api_json.h"
 * own subdir, so that programs run in parallel never build into the same
#include "api_json.h"
 * directory. */
#include "api_json.h"
static inline bool
#include "api_json.h"
srv_prepare_tables(const char *subdir)
#include "api_json.h"
{
#include "api_json.h"
    const char *base = getenv("PUZZLED_TABLES");
#include "api_json.h"
    char cmd[1024];
#include "api_json.h"
    if (base == NULL || base[0] == '\0') {
#include "api_json.h"
        base = "/tmp";
#include "api_json.h"
    }
#include "api_json.h"
    snprintf(g_tables, sizeof(g_tables), "%s/%s", base, subdir);
#include "api_json.h"
    snprintf(cmd, sizeof(cmd),
#include "api_json.h"
             "'%s' tables build 8-puzzle 2x2x2 pyraminx --dir '%s' "
#include "api_json.h"
             ">/dev/null",
#include "api_json.h"
             PZ_BINARY, g_tables);
#include "api_json.h"
    if (system(cmd) != 0) {
#include "api_json.h"
        fprintf(stderr, "could not build the complete tables into %s\n",
#include "api_json.h"
                g_tables);
#include "api_json.h"
        return false;
#include "api_json.h"
    }
#include "api_json.h"
    return true;
#include "api_json.h"
}
#include "api_json.h"
/* Sends the bytes req on a new connection to port and reads the reply
#include "api_json.h"
 * into buf (cap bytes, NUL-terminated) until the server closes or 3 s of
#include "api_json.h"
 * silence. Returns the bytes read. */
#include "api_json.h"
static inline size_t
#include "api_json.h"
raw_exchange(int port, const char *req, size_t len, char *buf, size_t cap)
#include "api_json.h"
{
#include "api_json.h"
    struct sockaddr_in a = { .sin_family = AF_INET };
#include "api_json.h"
    struct timeval tv = { 3, 0 };
#include "api_json.h"
    size_t n = 0;
#include "api_json.h"
    int fd = socket(AF_INET, SOCK_STREAM, 0);
#include "api_json.h"
    ck_assert_int_ge(fd, 0);
#include "api_json.h"
    a.sin_port = htons((uint16_t)port);
#include "api_json.h"
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
#include "api_json.h"
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
#include "api_json.h"
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
#include "api_json.h"
    ck_assert_int_eq(send(fd, req, len, MSG_NOSIGNAL), (ssize_t)len);
#include "api_json.h"
    while (n + 1 < cap) {
#include "api_json.h"
        ssize_t got = recv(fd, buf + n, cap - 1 - n, 0);
#include "api_json.h"
        if (got <= 0) {
#include "api_json.h"
            break;
#include "api_json.h"
        }
#include "api_json.h"
        n += (size_t)got;
#include "api_json.h"
    }
#include "api_json.h"
    buf[n] = '\0';
#include "api_json.h"
    close(fd);
#include "api_json.h"
    return n;
#include "api_json.h"
}
#include "api_json.h"
#endif
