/* SPDX-License-Identifier: MIT */
/* log.c - one-line JSON log events on stderr, built with cJSON.
 *
 * Every line goes through one buffer under a mutex, so lines from several
 * threads never interleave and keep their order. Unbuffered (the default,
 * and the CLI's mode) each line is written at once. The daemon turns
 * buffering on while it serves: then info and debug lines collect in the
 * buffer and reach stderr when it fills, when a warning or error is logged
 * (which also carries everything before it), or when the loop thread calls
 * log_flush on its periodic timer (at least every 100 ms). Under load that
 * is one write per few hundred lines instead of one per line.
 */
#include "log.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Bytes collected before a write even without a timer. */
#define LOG_BUF_SIZE ((size_t)32 * 1024)

static atomic_int log_level = LOG_INFO;

static pthread_mutex_t buf_lock = PTHREAD_MUTEX_INITIALIZER;
static char buf[LOG_BUF_SIZE]; /* under buf_lock */
static size_t buf_len;         /* under buf_lock */
static atomic_bool buffered;
static atomic_bool flush_at_exit;

/* Writes all of data to stderr; a failed write drops the rest (there is
 * nowhere else to report it). */
static void
write_all(const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(STDERR_FILENO, data, len);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return;
        }
        data += n;
        len -= (size_t)n;
    }
}

/* Writes out the buffer. Under buf_lock. */
static void
flush_locked(void)
{
    write_all(buf, buf_len);
    buf_len = 0;
}

void
log_flush(void)
{
    pthread_mutex_lock(&buf_lock);
    flush_locked();
    pthread_mutex_unlock(&buf_lock);
}

static void
flush_on_exit(void)
{
    log_flush();
}

void
log_set_buffered(bool on)
{
    if (on && !atomic_exchange(&flush_at_exit, true)) {
        /* Lines buffered when something calls exit() still get out. */
        atexit(flush_on_exit);
    }
    atomic_store(&buffered, on);
    if (!on) {
        log_flush();
    }
}

static const char *const level_names[] = { "error", "warn", "info", "debug" };

bool
log_parse_level(const char *name, log_level_t *out)
{
    for (int i = 0; i <= LOG_DEBUG; i++) {
        if (strcmp(name, level_names[i]) == 0) {
            *out = (log_level_t)i;
            return true;
        }
    }
    return false;
}

void
log_set_level(log_level_t level)
{
    atomic_store(&log_level, (int)level);
}

bool
log_enabled(log_level_t level)
{
    return (int)level <= atomic_load(&log_level);
}

cJSON *
log_begin(log_level_t level, const char *msg)
{
    /* gmtime and strftime cost more than the rest of an event; the
     * seconds part changes once a second. */
    static _Thread_local time_t date_sec = -1;
    static _Thread_local char date[32];
    struct timespec ts;
    char stamp[48];
    cJSON *ev;

    if (!log_enabled(level)) {
        return NULL;
    }
    ev = cJSON_CreateObject();
    if (ev == NULL) {
        return NULL;
    }
    clock_gettime(CLOCK_REALTIME, &ts);
    if (ts.tv_sec != date_sec) {
        struct tm tm;

        gmtime_r(&ts.tv_sec, &tm);
        strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
        date_sec = ts.tv_sec;
    }
    snprintf(stamp, sizeof(stamp), "%s.%03ldZ", date, ts.tv_nsec / 1000000);
    cJSON_AddStringToObject(ev, "ts", stamp);
    cJSON_AddStringToObject(ev, "level", level_names[level]);
    cJSON_AddStringToObject(ev, "msg", msg);
    return ev;
}

/* True for events that must not wait in the buffer. */
static bool
urgent(const cJSON *ev)
{
    const cJSON *lv = cJSON_GetObjectItemCaseSensitive(ev, "level");
    const char *name = cJSON_GetStringValue(lv);

    return name == NULL || strcmp(name, level_names[LOG_ERROR]) == 0 ||
           strcmp(name, level_names[LOG_WARN]) == 0;
}

void
log_end(cJSON *ev)
{
    bool now;
    char *line;
    size_t len;

    if (ev == NULL) {
        return;
    }
    now = !atomic_load(&buffered) || urgent(ev);
    line = cJSON_PrintUnformatted(ev);
    cJSON_Delete(ev);
    if (line == NULL) {
        return;
    }
    len = strlen(line);
    line[len] = '\n'; /* replaces the NUL; len + 1 bytes are written */
    pthread_mutex_lock(&buf_lock);
    if (buf_len + len + 1 > sizeof(buf)) {
        flush_locked();
    }
    if (len + 1 > sizeof(buf)) {
        write_all(line, len + 1);
    } else {
        memcpy(buf + buf_len, line, len + 1);
        buf_len += len + 1;
    }
    if (now) {
        flush_locked();
    }
    pthread_mutex_unlock(&buf_lock);
    cJSON_free(line);
}

void
log_msg(log_level_t level, const char *msg)
{
    log_end(log_begin(level, msg));
}
