/* SPDX-License-Identifier: MIT */
/* log.c - one-line JSON log events on stderr.
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
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "job.h"
#include "jsonout.h"

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

/* Writes the UTC time now, "2026-01-02T03:04:05.678Z", to stamp. */
static void
timestamp(char stamp[48])
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    api_format_time((int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000, stamp,
                    48);
}

/* Adds line (len bytes, ending in a newline) to the buffer and writes
 * the buffer out when now is set or it is full. */
static void
emit(const char *line, size_t len, bool now)
{
    pthread_mutex_lock(&buf_lock);
    if (buf_len + len > sizeof(buf)) {
        flush_locked();
    }
    if (len > sizeof(buf)) {
        write_all(line, len);
    } else {
        memcpy(buf + buf_len, line, len);
        buf_len += len;
    }
    if (now) {
        flush_locked();
    }
    pthread_mutex_unlock(&buf_lock);
}

/* --- events --- */

/* Appends n bytes to l unless that would leave no room for the closing
 * brace and newline; a line that does not fit loses the field. */
static bool
line_put(log_line_t *l, const char *s, size_t n)
{
    if (l->len + n + 2 > sizeof(l->buf)) {
        return false;
    }
    memcpy(l->buf + l->len, s, n);
    l->len += n;
    return true;
}

/* Appends s as a JSON string, escaped as the api layer escapes it. Runs of
 * characters that need no escape are copied at once. */
static bool
line_string(log_line_t *l, const char *s)
{
    bool ok = line_put(l, "\"", 1);

    while (ok && *s != '\0') {
        size_t run = jsonout_plain_run(s);
        char esc[6];
        size_t n;

        if (run > 0) {
            ok = line_put(l, s, run);
            s += run;
            continue;
        }
        n = jsonout_escape((unsigned char)*s++, esc);
        ok = line_put(l, esc, n);
    }
    return ok && line_put(l, "\"", 1);
}

/* Appends ,"key": (or the first key after the brace). */
static bool
line_key(log_line_t *l, const char *key)
{
    return line_put(l, ",", 1) && line_string(l, key) && line_put(l, ":", 1);
}

bool
log_line_begin(log_line_t *l, log_level_t level, const char *msg)
{
    char stamp[48];

    l->len = 0;
    l->on = log_enabled(level);
    l->urgent = level <= LOG_WARN;
    if (!l->on) {
        return false;
    }
    timestamp(stamp);
    line_put(l, "{\"ts\":", 6);
    line_string(l, stamp);
    log_line_str(l, "level", level_names[level]);
    log_line_str(l, "msg", msg);
    return true;
}

void
log_line_str(log_line_t *l, const char *key, const char *value)
{
    size_t mark = l->len;

    if (l->on && !(line_key(l, key) && line_string(l, value))) {
        l->len = mark;
    }
}

/* Appends key and the n characters of a number's text, or nothing when
 * they do not fit. */
static void
line_number(log_line_t *l, const char *key, const char *text, size_t n)
{
    size_t mark = l->len;

    if (!(line_key(l, key) && line_put(l, text, n))) {
        l->len = mark;
    }
}

void
log_line_num(log_line_t *l, const char *key, double value)
{
    char num[JSONOUT_NUMBER_MAX];

    if (l->on) {
        line_number(l, key, num,
                    jsonout_number(value, jsonout_valueint(value), num));
    }
}

void
log_line_u64(log_line_t *l, const char *key, uint64_t value)
{
    char num[JSONOUT_U64_MAX];

    if (l->on) {
        line_number(l, key, num, jsonout_format_u64(value, num));
    }
}

void
log_line_end(log_line_t *l)
{
    if (!l->on) {
        return;
    }
    /* line_put always left room for these two. */
    l->buf[l->len++] = '}';
    l->buf[l->len++] = '\n';
    emit(l->buf, l->len, l->urgent || !atomic_load(&buffered));
    l->on = false;
}

void
log_msg(log_level_t level, const char *msg)
{
    log_line_t l;

    log_line_begin(&l, level, msg);
    log_line_end(&l);
}
