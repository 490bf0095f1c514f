/* SPDX-License-Identifier: MIT */
/* tables_internal.h - what the table files share: recipes, loaded tables. */
#ifndef PZ_SOLVER_TABLES_INTERNAL_H
#define PZ_SOLVER_TABLES_INTERNAL_H

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

#endif
