/* SPDX-License-Identifier: MIT */
/* log.c - one-line JSON log events on stderr, built with cJSON. */
#include "log.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static atomic_int log_level = LOG_INFO;

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
    struct timespec ts;
    struct tm tm;
    char date[32];
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
    gmtime_r(&ts.tv_sec, &tm);
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(stamp, sizeof(stamp), "%s.%03ldZ", date, ts.tv_nsec / 1000000);
    cJSON_AddStringToObject(ev, "ts", stamp);
    cJSON_AddStringToObject(ev, "level", level_names[level]);
    cJSON_AddStringToObject(ev, "msg", msg);
    return ev;
}

void
log_end(cJSON *ev)
{
    char *line;

    if (ev == NULL) {
        return;
    }
    line = cJSON_PrintUnformatted(ev);
    cJSON_Delete(ev);
    if (line == NULL) {
        return;
    }
    /* One fprintf per line: stdio locks the stream for the call, so
     * concurrent events never interleave within a line. */
    fprintf(stderr, "%s\n", line);
    cJSON_free(line);
}

void
log_msg(log_level_t level, const char *msg)
{
    log_end(log_begin(level, msg));
}
