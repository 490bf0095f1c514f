/* SPDX-License-Identifier: MIT */
/* tables_named.c - the named tables: definitions, registration, lookup by
 * name, listing, status and verification. */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "search.h"
#include "tables_internal.h"

#define RECIPES_MAX TABLES_LIST_MAX

/* Characters allowed in a table name (it becomes a file name). */
static bool
name_ok(const char *name)
{
    size_t n = strnlen(name, TABLES_NAME_MAX);

    if (n == 0 || n >= TABLES_NAME_MAX || name[0] == '.') {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char c = name[i];

        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.')) {
            return false;
        }
    }
    return true;
}

/* True when def can be loaded, built and saved. */
static bool
def_ok(const tables_def_t *def)
{
    return def != NULL && name_ok(def->name) && def->entries > 0 &&
           (def->bits == 4 || def->bits == 8) &&
           (def->build != NULL || (def->fill != NULL && def->bits == 8)) &&
           def->kind >= TABLES_KIND_COMPLETE && def->kind <= TABLES_KIND_MODULE;
}

bool
tables_def_of_blob(const tables_blob_def_t *def, tables_def_t *r)
{
    if (def == NULL || def->name == NULL || def->bytes == 0 ||
        def->build == NULL) {
        return false;
    }
    memset(r, 0, sizeof(*r));
    tables__copy_str(r->name, sizeof(r->name), def->name);
    tables__copy_str(r->group, sizeof(r->group),
                     def->group != NULL ? def->group : "other");
    tables__copy_str(r->puzzle, sizeof(r->puzzle),
                     def->puzzle != NULL ? def->puzzle : "");
    r->kind = TABLES_KIND_MODULE;
    r->bits = 8;
    r->entries = def->bytes;
    r->startup = def->startup;
    r->fill = def->build;
    r->arg = def->arg;
    r->version = def->version;
    r->huge = def->huge;
    return def_ok(r);
}

int
tables_defs_of_blobs(int (*provider)(tables_blob_def_t *, int),
                     tables_def_t *out,
                     int max)
{
    tables_blob_def_t defs[16];
    int k = provider(defs, 16);
    int n = 0;

    for (int i = 0; i < k && i < 16 && n < max; i++) {
        if (tables_def_of_blob(&defs[i], &out[n])) {
            n++;
        }
    }
    return n;
}

int
tables_blob_get(const tables_blob_def_t *def, const uint8_t **data, bool *built)
{
    table_recipe_t r;
    const table_t *t;
    int rc;

    *data = NULL;
    if (built != NULL) {
        *built = false;
    }
    if (def != NULL && def->name != NULL) {
        t = tables__cached(def->name);
        if (t != NULL) {
            *data = t->data;
            return PZ_OK;
        }
    }
    if (!tables_def_of_blob(def, &r)) {
        return PZ_EINVAL;
    }
    rc = tables__get(&r, &t, built);
    if (rc == PZ_OK) {
        if (t->kind != TABLES_KIND_MODULE || t->data_bytes != def->bytes) {
            return PZ_EINVAL; /* the name belongs to another table */
        }
        *data = t->data;
    }
    return rc;
}

int
tables_get(const tables_def_t *def, tables_view_t *out, bool *built)
{
    const table_t *t = tables__cached(def->name);
    int rc = PZ_OK;

    if (built != NULL) {
        *built = false;
    }
    if (t == NULL) {
        if (!def_ok(def)) {
            return PZ_EINVAL;
        }
        rc = tables__get(def, &t, built);
    }
    if (rc != PZ_OK) {
        return rc;
    }
    if (t->kind != def->kind || t->entries != def->entries) {
        return PZ_EINVAL; /* the name belongs to another table */
    }
    out->data = t->data;
    out->bits = t->bits;
    out->max_value = t->max_value;
    out->entries = t->entries;
    return PZ_OK;
}

static tables_named_fn named_fn; /* set before tables__named_once runs */

void
tables_set_named(tables_named_fn fn)
{
    named_fn = fn;
}

static int nnamed; /* the first nnamed slots are the named tables */

/* Registers the named tables first, in list order. */
void
tables__register_named(void)
{
    static table_recipe_t r[RECIPES_MAX];
    int n = named_fn != NULL ? named_fn(r, RECIPES_MAX) : 0;

    pthread_mutex_lock(&tables__lock);
    for (int i = 0; i < n && i < RECIPES_MAX; i++) {
        if (def_ok(&r[i]) && tables__slot_for(&r[i]) != NULL) {
            nnamed++;
        }
    }
    pthread_mutex_unlock(&tables__lock);
}

const char *
tables_register(const tables_def_t *def)
{
    slot_t *s;

    if (!def_ok(def)) {
        return NULL;
    }
    pthread_once(&tables__named_once, tables__register_named);
    pthread_mutex_lock(&tables__lock);
    s = tables__slot_for(def);
    pthread_mutex_unlock(&tables__lock);
    return s != NULL ? s->name : NULL;
}

bool
tables_name_matches(const char *name, const char *group, const char *table)
{
    return strcasecmp(name, group) == 0 || strcasecmp(name, table) == 0;
}

/* True when r's file exists with a header that describes r; *size gets
 * the file's size. */
static bool
file_sound(const table_recipe_t *r, const char *path, uint64_t *size)
{
    file_header_t h;
    struct stat st;
    char why[256];
    bool ok = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        return false;
    }
    if (fstat(fd, &st) == 0 && (uint64_t)st.st_size >= sizeof(h) &&
        pread(fd, &h, sizeof(h), 0) == (ssize_t)sizeof(h) &&
        tables__header_ok(&h, r, (uint64_t)st.st_size, why, sizeof(why))) {
        ok = true;
        *size = (uint64_t)st.st_size;
    }
    close(fd);
    return ok;
}

int
tables_list(tables_info_t *out, int max)
{
    int n;

    pthread_once(&tables__named_once, tables__register_named);
    n = nnamed;
    for (int i = 0; i < n && i < max; i++) {
        const table_recipe_t *r = &tables__slots[i].recipe;
        tables_info_t *o = &out[i];

        memset(o, 0, sizeof(*o));
        tables__copy_str(o->name, sizeof(o->name), r->name);
        tables__copy_str(o->group, sizeof(o->group), r->group);
        tables__copy_str(o->puzzle, sizeof(o->puzzle), r->puzzle);
        o->entries = r->entries;
        o->bytes = DATA_OFFSET + tables_data_bytes(r->entries, r->bits);
        o->startup = r->startup;
        o->module = r->kind == TABLES_KIND_MODULE;
        o->loaded = atomic_load(&tables__slots[i].table) != NULL;
        tables__table_path(r->name, o->path, sizeof(o->path));
        o->built = file_sound(r, o->path, &o->bytes);
    }
    return n;
}

/* The recipe of the known table name into *r; false when unknown. */
static bool
find_named(const char *name, table_recipe_t *r)
{
    slot_t *s;
    bool found = false;

    pthread_once(&tables__named_once, tables__register_named);
    pthread_mutex_lock(&tables__lock);
    s = tables__slot_of(name);
    if (s != NULL && s->has_recipe) {
        *r = s->recipe;
        found = true;
    }
    pthread_mutex_unlock(&tables__lock);
    return found;
}

int
tables_ensure(const char *name, bool *built_out)
{
    table_recipe_t r;
    const table_t *t;

    if (built_out != NULL) {
        *built_out = false;
    }
    if (!find_named(name, &r)) {
        return PZ_ENOT_FOUND;
    }
    return tables__get(&r, &t, built_out);
}

int
tables_load_existing(const char *name)
{
    table_recipe_t r;
    const table_t *t;

    if (!find_named(name, &r)) {
        return PZ_ENOT_FOUND;
    }
    return tables__load_only(&r, &t);
}

static const char *const state_names[] = {
    [TABLES_MISSING] = "missing",   [TABLES_STORED] = "stored",
    [TABLES_QUEUED] = "queued",     [TABLES_LOADING] = "loading",
    [TABLES_BUILDING] = "building", [TABLES_READY] = "ready",
    [TABLES_FAILED] = "failed",
};

const char *
tables_state_name(int state)
{
    if (state < 0 || state > TABLES_FAILED) {
        return "failed";
    }
    return state_names[state];
}

/* Describes slot s into *o. check_file: look at the file when the table
 * is neither in memory nor being prepared. */
static void
status_of(slot_t *s, bool check_file, tables_status_t *o)
{
    const table_recipe_t *r;
    char path[TABLES_PATH_MAX];
    uint64_t size = 0;
    bool busy;
    bool queued;

    memset(o, 0, sizeof(*o));
    pthread_mutex_lock(&tables__lock);
    r = &s->recipe;
    tables__copy_str(o->name, sizeof(o->name), s->name);
    tables__copy_str(o->group, sizeof(o->group), r->group);
    tables__copy_str(o->puzzle, sizeof(o->puzzle), r->puzzle);
    o->bytes = tables_data_bytes(r->entries, r->bits);
    o->startup = r->startup;
    o->state = s->state;
    o->rc = s->rc;
    tables__copy_str(o->why, sizeof(o->why), s->why);
    busy = s->busy;
    queued = s->queued;
    o->seconds = busy ? (double)(pz_now_ns() - s->began_ns) / 1e9 : s->seconds;
    if (busy) {
        o->done = atomic_load(&s->done);
        o->total = atomic_load(&s->total);
    }
    pthread_mutex_unlock(&tables__lock);
    if (atomic_load(&s->table) != NULL) {
        o->state = TABLES_READY;
        o->file = true; /* it was loaded from, or saved to, a file */
        return;
    }
    if (!busy && check_file) {
        tables__table_path(o->name, path, sizeof(path));
        o->file = file_sound(r, path, &size);
        if (o->file && o->state == TABLES_MISSING) {
            o->state = TABLES_STORED;
        }
    }
    if (!busy && queued) {
        o->state = TABLES_QUEUED;
    }
}

int
tables_set_queued(const char *name, bool on)
{
    slot_t *s;

    pthread_once(&tables__named_once, tables__register_named);
    pthread_mutex_lock(&tables__lock);
    s = tables__slot_of(name);
    if (s != NULL) {
        s->queued = on;
    }
    pthread_mutex_unlock(&tables__lock);
    return s != NULL ? PZ_OK : PZ_ENOT_FOUND;
}

bool
tables_available(const char *const *names, int n, const char **missing)
{
    for (int i = 0; i < n; i++) {
        tables_status_t st;

        if (tables__cached(names[i]) != NULL) {
            continue;
        }
        if (tables_status(names[i], &st) != PZ_OK ||
            st.state == TABLES_MISSING || st.state == TABLES_FAILED) {
            if (missing != NULL) {
                *missing = names[i];
            }
            return false;
        }
    }
    return true;
}

int
tables_status(const char *name, tables_status_t *out)
{
    slot_t *s;

    pthread_once(&tables__named_once, tables__register_named);
    pthread_mutex_lock(&tables__lock);
    s = tables__slot_of(name);
    pthread_mutex_unlock(&tables__lock);
    if (s == NULL || !s->has_recipe) {
        return PZ_ENOT_FOUND;
    }
    status_of(s, true, out);
    return PZ_OK;
}

int
tables_status_list(tables_status_t *out, int max)
{
    int n;

    pthread_once(&tables__named_once, tables__register_named);
    n = atomic_load_explicit(&tables__nslots, memory_order_acquire);
    for (int i = 0; i < n && i < max; i++) {
        status_of(&tables__slots[i], true, &out[i]);
    }
    return n;
}

int
tables_verify(const char *name, char *why, size_t len)
{
    table_recipe_t r;
    char path[TABLES_PATH_MAX];
    table_t *t = NULL;
    int rc;

    if (len > 0) {
        why[0] = '\0';
    }
    if (!find_named(name, &r)) {
        snprintf(why, len, "unknown table");
        return PZ_ENOT_FOUND;
    }
    tables__table_path(r.name, path, sizeof(path));
    rc = tables__load_file(&r, path, LOAD_VERIFY, NULL, &t, why, len);
    tables__table_free(t);
    return rc;
}
