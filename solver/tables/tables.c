/* SPDX-License-Identifier: MIT */
/* tables.c - table directory, hooks, builds and the shared cache (the files:
 * tables_file.c; the named tables: tables_named.c). */

/*
 * The cache is a fixed array of slots, one per table name. A slot's table
 * pointer is published once with release order and never changes, so the
 * hot path (an engine finding its table) scans the slots without the lock.
 * The lock guards slot creation and the "building" flag; a thread that
 * needs a table another thread is building waits on the condition
 * variable, while threads needing other tables go on.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "search.h"
#include "tables_internal.h"

#define CACHE_MAX 128

pthread_mutex_t tables__lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t built_cond = PTHREAD_COND_INITIALIZER;
slot_t tables__slots[CACHE_MAX];
atomic_int tables__nslots;
static atomic_size_t memory_bytes;
static atomic_size_t memory_limit; /* 0: none */
atomic_int tables__loads;          /* TABLES_LOADS_*: how files are loaded */
static atomic_bool inline_prepare = true;  /* any thread loads and builds */
static _Thread_local bool thread_prepares; /* this thread may, regardless */

/* Guarded by tables__lock. */
static char table_dir[TABLES_PATH_MAX];
static bool dir_chosen;
static tables_log_fn log_fn;
static void *log_arg;
static tables_progress_fn progress_fn;
static void *progress_arg;
static tables_state_fn state_fn;
static void *state_arg;
static tables_run_fn run_fn;
static void *run_ctx;
static int run_workers = 1;

/* ------------------------------------------------------------------------ */
/* Directory and hooks */

/* Fills table_dir with the default. Called with tables__lock held. */
static void
choose_default_dir(void)
{
    const char *env = getenv("PUZZLED_TABLES");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");

    if (env != NULL && env[0] != '\0') {
        snprintf(table_dir, sizeof(table_dir), "%s", env);
    } else if (xdg != NULL && xdg[0] == '/') {
        snprintf(table_dir, sizeof(table_dir), "%s/puzzled", xdg);
    } else if (home != NULL && home[0] != '\0') {
        snprintf(table_dir, sizeof(table_dir), "%s/.cache/puzzled", home);
    } else {
        snprintf(table_dir, sizeof(table_dir), "puzzled-tables");
    }
    dir_chosen = true;
}

int
tables_set_dir(const char *dir)
{
    int rc = PZ_OK;

    pthread_mutex_lock(&tables__lock);
    if (dir == NULL || dir[0] == '\0') {
        choose_default_dir();
    } else if (strlen(dir) + TABLES_NAME_MAX + 32 >= sizeof(table_dir)) {
        rc = PZ_EINVAL;
    } else {
        snprintf(table_dir, sizeof(table_dir), "%s", dir);
        dir_chosen = true;
    }
    pthread_mutex_unlock(&tables__lock);
    return rc;
}

int
tables_dir(char *buf, size_t len)
{
    size_t n;

    pthread_mutex_lock(&tables__lock);
    if (!dir_chosen) {
        choose_default_dir();
    }
    n = strlen(table_dir);
    if (n + 1 > len) {
        pthread_mutex_unlock(&tables__lock);
        return PZ_EINVAL;
    }
    memcpy(buf, table_dir, n + 1);
    pthread_mutex_unlock(&tables__lock);
    return (int)n;
}

void
tables_set_log(tables_log_fn fn, void *arg)
{
    pthread_mutex_lock(&tables__lock);
    log_fn = fn;
    log_arg = arg;
    pthread_mutex_unlock(&tables__lock);
}

void
tables_set_progress(tables_progress_fn fn, void *arg)
{
    pthread_mutex_lock(&tables__lock);
    progress_fn = fn;
    progress_arg = arg;
    pthread_mutex_unlock(&tables__lock);
}

void
tables_set_runner(tables_run_fn run, void *ctx, int workers)
{
    pthread_mutex_lock(&tables__lock);
    run_fn = run;
    run_ctx = ctx;
    run_workers = run != NULL && workers > 1 ? workers : 1;
    pthread_mutex_unlock(&tables__lock);
}

/* ------------------------------------------------------------------------ */
/* Builds */

struct tables_build {
    slot_t *slot; /* the table being built */
    tables_run_fn run;
    void *run_ctx;
    int workers;
};

static atomic_bool builds_cancelled;

/* Starts build b of slot s's table with the runner installed now. */
static void
build_begin(tables_build_t *b, slot_t *s)
{
    pthread_mutex_lock(&tables__lock);
    b->slot = s;
    b->run = run_fn;
    b->run_ctx = run_ctx;
    b->workers = run_workers;
    pthread_mutex_unlock(&tables__lock);
}

bool
tables_build_cancelled(const tables_build_t *b)
{
    (void)b;
    return atomic_load_explicit(&builds_cancelled, memory_order_relaxed);
}

void
tables_cancel_builds(bool on)
{
    atomic_store(&builds_cancelled, on);
}

int
tables_build_workers(const tables_build_t *b)
{
    return b->workers;
}

void
tables_build_run(tables_build_t *b, tables_task_fn fn, void *arg, int n)
{
    if (b->run != NULL && n > 1) {
        b->run(b->run_ctx, n, fn, arg);
        return;
    }
    for (int i = 0; i < n; i++) {
        fn(arg, i);
    }
}

void
tables_set_loads(int how)
{
    atomic_store(&tables__loads, how);
}

void
tables_set_inline(bool on)
{
    atomic_store(&inline_prepare, on);
}

void
tables_thread_prepares(bool on)
{
    thread_prepares = on;
}

void
tables_set_state_hook(tables_state_fn fn, void *arg)
{
    pthread_mutex_lock(&tables__lock);
    state_fn = fn;
    state_arg = arg;
    pthread_mutex_unlock(&tables__lock);
}

void
tables_set_memory_limit(size_t bytes)
{
    atomic_store(&memory_limit, bytes);
}

size_t
tables_memory_limit(void)
{
    return atomic_load(&memory_limit);
}

size_t
tables_memory_bytes(void)
{
    return atomic_load(&memory_bytes);
}

void
tables_unaccount(size_t bytes)
{
    atomic_fetch_sub(&memory_bytes, bytes);
}

bool
tables_account(size_t bytes)
{
    size_t held = atomic_load(&memory_bytes);

    for (;;) {
        size_t limit = atomic_load(&memory_limit);

        if (limit != 0 && (bytes > limit || held > limit - bytes)) {
            return false;
        }
        if (atomic_compare_exchange_weak(&memory_bytes, &held, held + bytes)) {
            return true;
        }
    }
}

void
tables__log(int level, const char *table, const char *fmt, ...)
{
    tables_log_fn fn;
    void *arg;
    char msg[512];
    va_list ap;

    pthread_mutex_lock(&tables__lock);
    fn = log_fn;
    arg = log_arg;
    pthread_mutex_unlock(&tables__lock);
    if (fn == NULL) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fn(arg, level, table, msg);
}

void
tables_build_progress(tables_build_t *b, uint64_t done, uint64_t total)
{
    tables_progress_fn fn;
    void *arg;

    atomic_store(&b->slot->total, total);
    atomic_store(&b->slot->done, done);
    pthread_mutex_lock(&tables__lock);
    fn = progress_fn;
    arg = progress_arg;
    pthread_mutex_unlock(&tables__lock);
    if (fn != NULL) {
        fn(arg, b->slot->name, done, total);
    }
}

/* Writes <dir>/<name>.pzt into buf. */
void
tables__table_path(const char *name, char *buf, size_t len)
{
    char dir[TABLES_PATH_MAX];

    tables_dir(dir, sizeof(dir));
    if (snprintf(buf, len, "%s/%s.pzt", dir, name) >= (int)len) {
        buf[0] = '\0'; /* cannot happen: tables_set_dir leaves room */
    }
}

/* Copies the string src into dst of len bytes, cut if needed. */
void
tables__copy_str(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src);

    if (n >= len) {
        n = len - 1;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* ------------------------------------------------------------------------ */
/* Registry and cache */

pthread_once_t tables__named_once = PTHREAD_ONCE_INIT;

const table_t *
tables__cached(const char *name)
{
    int n = atomic_load_explicit(&tables__nslots, memory_order_acquire);

    for (int i = 0; i < n; i++) {
        if (strcmp(tables__slots[i].name, name) == 0) {
            return atomic_load_explicit(&tables__slots[i].table,
                                        memory_order_acquire);
        }
    }
    return NULL;
}

/* The slot for name, or NULL. Called with tables__lock held. */
slot_t *
tables__slot_of(const char *name)
{
    int n = atomic_load(&tables__nslots);

    for (int i = 0; i < n; i++) {
        if (strcasecmp(tables__slots[i].name, name) == 0) {
            return &tables__slots[i];
        }
    }
    return NULL;
}

/* The slot of r, created (and r recorded) if needed; NULL when the
 * registry is full. Called with tables__lock held. */
slot_t *
tables__slot_for(const table_recipe_t *r)
{
    slot_t *s = tables__slot_of(r->name);
    int n;

    if (s != NULL) {
        if (!s->has_recipe) {
            s->recipe = *r;
            s->has_recipe = true;
        }
        return s;
    }
    n = atomic_load(&tables__nslots);
    if (n == CACHE_MAX) {
        return NULL;
    }
    s = &tables__slots[n];
    memset(s, 0, sizeof(*s));
    snprintf(s->name, sizeof(s->name), "%s", r->name);
    s->recipe = *r;
    s->has_recipe = true;
    s->state = TABLES_MISSING;
    atomic_store_explicit(&tables__nslots, n + 1, memory_order_release);
    return s;
}

/* Sends the state change of table name to the hook. Called without the
 * lock. */
static void
notify_state(const char *name, int state)
{
    tables_state_fn fn;
    void *arg;

    pthread_mutex_lock(&tables__lock);
    fn = state_fn;
    arg = state_arg;
    pthread_mutex_unlock(&tables__lock);
    if (fn != NULL) {
        fn(arg, name, state);
    }
}

/* Ends slot s's load or build (under the lock): publishes made, records
 * the outcome, wakes the waiters. */
static void
finish_locked(slot_t *s,
              table_t *made,
              int rc,
              int fallback_state,
              const char *why)
{
    if (made != NULL) {
        size_t bytes = made->map != NULL    ? made->map_len
                       : made->anon != NULL ? made->anon_len
                                            : made->data_bytes;

        atomic_fetch_add(&memory_bytes, bytes);
        atomic_store_explicit(&s->table, made, memory_order_release);
        s->state = TABLES_READY;
        s->rc = PZ_OK;
        s->why[0] = '\0';
    } else {
        s->state = fallback_state;
        s->rc = rc;
        tables__copy_str(s->why, sizeof(s->why), why);
    }
    s->seconds = (double)(pz_now_ns() - s->began_ns) / 1e9;
    s->busy = false;
    pthread_cond_broadcast(&built_cond);
}

bool
tables_may_prepare(void)
{
    return thread_prepares || atomic_load(&inline_prepare);
}

/*
 * Loads (may_build: or builds) r's table into its slot. A thread that may
 * not prepare tables (tables_set_inline) gets PZ_ETABLE_MISSING for a
 * table not in memory, at once.
 */
static int
get_table(const table_recipe_t *r,
          bool may_build,
          const table_t **out,
          bool *built)
{
    const table_t *t = tables__cached(r->name);
    char path[TABLES_PATH_MAX];
    char why[TABLES_PATH_MAX + 256];
    table_t *made = NULL;
    tables_build_t b;
    slot_t *s;
    size_t limit;
    size_t need;
    size_t held;
    int state_after;
    int rc;

    if (built != NULL) {
        *built = false;
    }
    *out = NULL;
    if (t != NULL) {
        *out = t;
        return PZ_OK;
    }
    pthread_once(&tables__named_once, tables__register_named);
    pthread_mutex_lock(&tables__lock);
    s = tables__slot_for(r);
    if (s == NULL) {
        pthread_mutex_unlock(&tables__lock);
        tables__log(TABLES_LOG_ERROR, r->name,
                    "too many tables known (at most %d)", CACHE_MAX);
        return PZ_ENOMEM;
    }
    if (!tables_may_prepare()) {
        pthread_mutex_unlock(&tables__lock);
        return PZ_ETABLE_MISSING;
    }
    while (s->busy) {
        pthread_cond_wait(&built_cond, &tables__lock);
    }
    t = atomic_load(&s->table);
    if (t != NULL) {
        pthread_mutex_unlock(&tables__lock);
        *out = t;
        return PZ_OK;
    }
    s->busy = true;
    s->queued = false;
    s->state = TABLES_LOADING;
    s->began_ns = pz_now_ns();
    need = tables_data_bytes(r->entries, r->bits);
    atomic_store(&s->done, 0);
    atomic_store(&s->total, (uint64_t)need);
    pthread_mutex_unlock(&tables__lock);
    notify_state(r->name, TABLES_LOADING);

    tables__table_path(r->name, path, sizeof(path));
    limit = atomic_load(&memory_limit);
    held = atomic_load(&memory_bytes);
    if (limit != 0 && (need > limit || held > limit - need)) {
        /* Checked before the file is read: a copy, or a build, takes the
         * whole size at once. */
        snprintf(why, sizeof(why),
                 "needs %.1f MiB; the tables may take %.1f MiB in all and "
                 "%.1f MiB are taken, so it is not %s (give the process "
                 "more memory, or raise its table limit)",
                 (double)need / (1 << 20), (double)limit / (1 << 20),
                 (double)held / (1 << 20), may_build ? "built" : "loaded");
        tables__log(TABLES_LOG_ERROR, r->name, "%s", why);
        rc = PZ_ETABLES_MEMORY;
    } else {
        load_progress_t pr = { &s->done };
        int how = atomic_load(&tables__loads);

        rc = tables__load_file(r, path,
                               how == TABLES_LOADS_COPY     ? LOAD_COPY
                               : how == TABLES_LOADS_VERIFY ? LOAD_VERIFY
                                                            : LOAD_MAP,
                               &pr, &made, why, sizeof(why));
        if (rc == PZ_EIO) {
            tables__log(TABLES_LOG_WARN, r->name, "%s is unusable (%s)%s", path,
                        why, may_build ? "; rebuilding it" : "");
        } else if (rc == PZ_ENOT_FOUND && may_build) {
            tables__log(TABLES_LOG_INFO, r->name, "%s; building it", why);
        }
    }
    state_after = rc == PZ_ENOT_FOUND ? TABLES_MISSING : TABLES_FAILED;
    if (rc != PZ_OK && rc != PZ_ETABLES_MEMORY && may_build) {
        pthread_mutex_lock(&tables__lock);
        s->state = TABLES_BUILDING;
        s->began_ns = pz_now_ns();
        atomic_store(&s->done, 0);
        atomic_store(&s->total, 0);
        pthread_mutex_unlock(&tables__lock);
        notify_state(r->name, TABLES_BUILDING);
        build_begin(&b, s);
        rc = tables__build_table(r, &b, &made, why, sizeof(why));
        if (rc == PZ_OK && built != NULL) {
            *built = true;
        }
        if (rc != PZ_OK) {
            tables__log(rc == PZ_ECANCELLED ? TABLES_LOG_INFO
                                            : TABLES_LOG_ERROR,
                        r->name, "building failed: %s", why);
        }
        state_after = rc == PZ_ECANCELLED ? TABLES_MISSING : TABLES_FAILED;
    }

    pthread_mutex_lock(&tables__lock);
    finish_locked(s, made, rc, state_after, why);
    pthread_mutex_unlock(&tables__lock);
    notify_state(r->name, made != NULL ? TABLES_READY : state_after);
    *out = made;
    return rc;
}

int
tables__get(const table_recipe_t *r, const table_t **out, bool *built)
{
    return get_table(r, true, out, built);
}

int
tables__load_only(const table_recipe_t *r, const table_t **out)
{
    return get_table(r, false, out, NULL);
}

bool
tables__file_exists(const table_recipe_t *r)
{
    char path[TABLES_PATH_MAX];

    tables__table_path(r->name, path, sizeof(path));
    return access(path, R_OK) == 0;
}

void
tables_unload_all(void)
{
    int n;

    pthread_mutex_lock(&tables__lock);
    n = atomic_load(&tables__nslots);
    for (int i = 0; i < n; i++) {
        tables__table_free((table_t *)atomic_load(&tables__slots[i].table));
        atomic_store(&tables__slots[i].table, NULL);
        tables__slots[i].state = TABLES_MISSING;
        tables__slots[i].rc = PZ_OK;
        tables__slots[i].why[0] = '\0';
    }
    atomic_store(&memory_bytes, 0);
    pthread_mutex_unlock(&tables__lock);
}
