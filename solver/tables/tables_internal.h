/* SPDX-License-Identifier: MIT */
/* tables_internal.h - what the table files share: recipes, loaded tables,
 * the registry, the file format. */
#ifndef PZ_SOLVER_TABLES_INTERNAL_H
#define PZ_SOLVER_TABLES_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tables.h"

/* Everything needed to load, check or build one table file. */
typedef tables_def_t table_recipe_t;

/* A table in memory: immutable once published. */
typedef struct table {
    char name[TABLES_NAME_MAX];
    int kind;
    int bits;            /* 4 or 8 */
    int max_value;       /* largest entry */
    uint64_t entries;    /* entries in data */
    const uint8_t *data; /* the entries */
    size_t data_bytes;   /* bytes of data */
    void *map;           /* the file mapping, or NULL */
    size_t map_len;      /* bytes mapped */
    void *anon;          /* anonymous mapping holding data, or NULL */
    size_t anon_len;     /* bytes of anon */
} table_t;

/*
 * The table of recipe r: from the cache, else loaded from its file, else
 * built and saved. Waits while another thread builds it. *built (may be
 * NULL) is set when this call built it. Returns PZ_OK with *out, or
 * PZ_ENOMEM / PZ_EIO. Thread: any.
 */
int tables__get(const table_recipe_t *r, const table_t **out, bool *built);

/* The cached table called name, or NULL; never loads. Thread: any. */
const table_t *tables__cached(const char *name);

/* Loads r's file into the cache if it is present and sound (never
 * builds). PZ_OK, PZ_ENOT_FOUND or PZ_EIO. Thread: any. */
int tables__load_only(const table_recipe_t *r, const table_t **out);

/* True when r's file exists (header not checked). Thread: any. */
bool tables__file_exists(const table_recipe_t *r);

/* Sends one message to the log hook. Thread: any. */
void tables__log(int level, const char *table, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 64-bit checksum of data (FNV-1a over four interleaved lanes of
 * little-endian 8-byte words, the tail bytewise, lanes then combined). */
uint64_t tables__checksum(const uint8_t *data, size_t n);

/* --- shared by tables.c (the cache), tables_file.c (the files) and
 * tables_named.c (the named tables) --- */

/* Where a table file's entries start: the header, zero padded. */
#define DATA_OFFSET 4096u

/* The on-disk header. Fixed-width fields, no padding (checked below). */
typedef struct file_header {
    char magic[8];         /* file_magic */
    uint32_t version;      /* TABLES_FORMAT_VERSION */
    uint32_t header_bytes; /* sizeof(file_header_t) */
    uint32_t endian;       /* ENDIAN_MARK as the writer stored it */
    uint32_t kind;         /* TABLES_KIND_* */
    uint32_t bits;         /* bits per entry */
    uint32_t max_value;    /* largest entry */
    uint64_t entries;      /* number of entries */
    uint64_t data_offset;  /* where the entries start: DATA_OFFSET */
    uint64_t data_bytes;   /* bytes of entries */
    uint64_t checksum;     /* tables__checksum of the entries */
    char puzzle[32];       /* description, NUL-terminated */
    char name[64];         /* table name, NUL-terminated */
    uint64_t header_sum;   /* tables__checksum of the bytes above */
} file_header_t;

_Static_assert(sizeof(file_header_t) == 168, "file_header_t has padding");
_Static_assert(sizeof(file_header_t) <= DATA_OFFSET, "header too large");

/*
 * One known table: a slot of the registry. name is written before the
 * slot is counted and never changes; table is published once (release).
 * The rest is guarded by tables__lock, but for the progress counters,
 * which the build writes and anyone reads.
 */
typedef struct slot {
    char name[TABLES_NAME_MAX];
    _Atomic(const table_t *) table;
    table_recipe_t recipe; /* how to load or build it */
    bool has_recipe;
    bool busy;              /* a thread is loading or building it */
    bool queued;            /* a thread will load or build it */
    int state;              /* TABLES_*: the last load or build's outcome */
    int rc;                 /* failed: why, as a code */
    char why[256];          /* failed: why, as a sentence */
    uint64_t began_ns;      /* the load or build under way began */
    double seconds;         /* the last load or build took */
    _Atomic uint64_t done;  /* progress of the load (bytes) or build */
    _Atomic uint64_t total; /* its total (0: not known yet) */
} slot_t;

/* Where a load reports how far it got (NULL: nowhere). */
typedef struct load_progress {
    _Atomic uint64_t *done;
} load_progress_t;

/* How tables__load_file treats the entries. */
enum {
    LOAD_MAP = 0, /* map the file; header checks only */
    LOAD_VERIFY,  /* map the file and check the entries' checksum */
    LOAD_COPY,    /* copy into anonymous memory, checking the checksum */
};

/* Guards the registry's slots (but for what they publish with atomics),
 * the directory, the hooks and the temporary file counter. */
extern pthread_mutex_t tables__lock;

/* The registry: the first tables__nslots slots are in use (published
 * with release order; a slot's name is written before it is counted). */
extern slot_t tables__slots[];
extern atomic_int tables__nslots;

/* TABLES_LOADS_*: how files are loaded (tables_set_loads). */
extern atomic_int tables__loads;

/* Registers the named tables (tables__register_named) once, before any
 * lookup by name. */
extern pthread_once_t tables__named_once;

/* Writes <dir>/<name>.pzt into buf. */
void tables__table_path(const char *name, char *buf, size_t len);

/* Copies the string src into dst of len bytes, cut if needed. */
void tables__copy_str(char *dst, size_t len, const char *src);

/* The slot for name (any case), or NULL. Called with tables__lock held. */
slot_t *tables__slot_of(const char *name);

/* The slot of r, created (and r recorded) if needed; NULL when the
 * registry is full. Called with tables__lock held. */
slot_t *tables__slot_for(const table_recipe_t *r);

/* Registers the named tables first, in list order; run through
 * pthread_once(&tables__named_once, ...). */
void tables__register_named(void);

/* Checks a header read from a file of file_size bytes against r. Writes
 * why on failure. */
bool tables__header_ok(const file_header_t *h,
                       const table_recipe_t *r,
                       uint64_t file_size,
                       char *why,
                       size_t len);

/*
 * Loads the file at path as r's table, checked as how (LOAD_*) says;
 * pr (may be NULL) gets the progress of a copy. Returns PZ_OK with *out
 * (owned: tables__table_free), PZ_ENOT_FOUND when there is no file,
 * PZ_EIO or PZ_ENOMEM with why otherwise.
 */
int tables__load_file(const table_recipe_t *r,
                      const char *path,
                      int how,
                      load_progress_t *pr,
                      table_t **out,
                      char *why,
                      size_t len);

/* Frees t and its memory; NULL is fine. */
void tables__table_free(table_t *t);

/*
 * Builds r's table as build b and saves it to its file; keeps the built
 * copy or maps the saved file. Returns PZ_OK with *out, PZ_ECANCELLED,
 * PZ_ENOMEM or the build's error; why gets a sentence on failure.
 */
int tables__build_table(const table_recipe_t *r,
                        tables_build_t *b,
                        table_t **out,
                        char *why,
                        size_t len);

#endif
