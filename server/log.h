/* SPDX-License-Identifier: MIT */
/* log.h - one-line JSON log events on stderr. */
#ifndef PZ_SERVER_LOG_H
#define PZ_SERVER_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Severities, most severe first. */
typedef enum log_level {
    LOG_ERROR = 0,
    LOG_WARN,
    LOG_INFO,
    LOG_DEBUG,
} log_level_t;

/* Parses "error", "warn", "info" or "debug" into *out. Returns false for
 * anything else. Thread: any. */
bool log_parse_level(const char *name, log_level_t *out);

/* Sets the most verbose level that is written. Thread: any (atomic). */
void log_set_level(log_level_t level);

/* True when events of level are written. Thread: any. */
bool log_enabled(log_level_t level);

/*
 * Turns buffering of info and debug lines on or off (off by default).
 * While on, such lines reach stderr when 32 KiB have collected, with the
 * next warning or error, at log_flush, or at exit(); turning it off
 * flushes. The daemon flushes from its loop timer. Thread: any.
 */
void log_set_buffered(bool on);

/* Writes out every buffered line. Thread: any. */
void log_flush(void);

/*
 * An event: its fields are written straight into a buffer on the caller's
 * stack, escaped and with numbers formatted as in the replies (jsonout.h),
 * one line per event. A field that would not fit is left out.
 *
 *     log_line_t l;
 *     log_line_begin(&l, LOG_INFO, "request");
 *     log_line_str(&l, "path", path);
 *     log_line_end(&l);
 */
typedef struct log_line {
    char buf[1536];
    size_t len;
    bool on;     /* the level is enabled */
    bool urgent; /* warn or error: written at once */
} log_line_t;

/* Starts an event with ts, level and msg. Returns false (and the other
 * calls do nothing) when the level is filtered out. Thread: any. */
bool log_line_begin(log_line_t *l, log_level_t level, const char *msg);

/* Adds a string field. */
void log_line_str(log_line_t *l, const char *key, const char *value);

/* Adds a number field, formatted as the replies format numbers. */
void log_line_num(log_line_t *l, const char *key, double value);

/* Adds an unsigned integer field with all its digits. */
void log_line_u64(log_line_t *l, const char *key, uint64_t value);

/* Writes the event as one line to stderr (at once, or later when buffered
 * and it is an info or debug event). Thread: any; lines from several
 * threads never interleave and keep their order. */
void log_line_end(log_line_t *l);

/* Shorthand for an event without fields. */
void log_msg(log_level_t level, const char *msg);

#endif
