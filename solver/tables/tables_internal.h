/* SPDX-License-Identifier: MIT */
/* tables_internal.h - what the table files share: recipes, loaded tables. */
#ifndef PZ_SOLVER_TABLES_INTERNAL_H
#define PZ_SOLVER_TABLES_INTERNAL_H

#include "tables.h"

/* Kinds of table (recorded in the header). */
enum {
    TABLES_KIND_COMPLETE = 1, /* distance of every rank of a puzzle */
    TABLES_KIND_PDB = 2,      /* tiles pattern database, one byte each */
    TABLES_KIND_BLOB = 3,     /* another module's bytes (tables_blob_def_t) */
};

/* Rank spaces larger than this get no complete table (about 64 M
 * entries: 32 MiB at 4 bits, a few seconds to build). */
#define TABLES_COMPLETE_MAX (UINT64_C(1) << 26)

typedef struct table_recipe table_recipe_t;

/*
 * Fills data (entries at r->bits each, already sized) with the table.
 * Sets *max_value to the largest entry. Returns PZ_OK, PZ_ERANGE when a
 * value does not fit r->bits (the caller retries wider), PZ_ENOMEM.
 */
typedef int (*table_build_fn)(const table_recipe_t *r,
                              uint8_t *data,
                              int *max_value,
                              tables_build_t *b);

/* Everything needed to load, check or build one table file. */
struct table_recipe {
    char name[TABLES_NAME_MAX]; /* file stem and cache key */
    char group[32];             /* CLI group name */
    char puzzle[32];            /* description for the header */
    int kind;                   /* TABLES_KIND_* */
    int bits;                   /* bits per entry: 4 or 8 */
    uint64_t entries;           /* number of entries */
    bool startup;               /* the daemon loads it at startup */
    table_build_fn build;       /* fills the entries */
    /* Complete tables: the puzzle to instantiate. */
    char pz_name[24];
    pz_params_t params;
    /* Pattern databases: board, pattern cells and the blank's cell. */
    int rows;
    int cols;
    uint64_t mask;
    int blank;
    /* Blobs: entries are bytes (bits 8); the header's max_value field
     * holds the module's layout version. */
    tables_blob_build_fn blob_build;
    void *blob_arg;
    uint32_t blob_version;
    bool huge;
};

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

/* Bits set in x. Written out: __builtin_popcountll is a library call on
 * baseline x86-64, and it is in the pattern databases' inner loops. */
static inline int
tables__popcount(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) +
        ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
}

/* Bytes that entries of bits each occupy. */
static inline size_t
tables__data_bytes(uint64_t entries, int bits)
{
    return bits == 8 ? (size_t)entries : (size_t)((entries + 1) / 2);
}

/* Entry i of data (bits 4 or 8). */
static inline int
tables__entry(const uint8_t *data, int bits, uint64_t i)
{
    if (bits == 8) {
        return data[i];
    }
    return (data[i >> 1] >> ((i & 1) << 2)) & 15;
}

/* Sets entry i of data to v. */
static inline void
tables__set(uint8_t *data, int bits, uint64_t i, int v)
{
    if (bits == 8) {
        data[i] = (uint8_t)v;
        return;
    }
    if (i & 1) {
        data[i >> 1] = (uint8_t)((data[i >> 1] & 0x0F) | (v << 4));
    } else {
        data[i >> 1] = (uint8_t)((data[i >> 1] & 0xF0) | v);
    }
}

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

/* Registers r so that tables_ensure, tables_status and the daemon know
 * it by name (a table a heuristic needs for some goal or board only).
 * Returns the registry's copy of the name (valid for the life of the
 * process), or NULL when the registry is full. Thread: any. */
const char *tables__register(const table_recipe_t *r);

/* True when r's file exists (header not checked). Thread: any. */
bool tables__file_exists(const table_recipe_t *r);

/* Sends one message to the log hook. Thread: any. */
void tables__log(int level, const char *table, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 64-bit checksum of data (FNV-1a over four interleaved lanes of
 * little-endian 8-byte words, the tail bytewise, lanes then combined). */
uint64_t tables__checksum(const uint8_t *data, size_t n);

/* Drops complete.c's memo of tables by puzzle (tables_unload_all). */
void tables__complete_forget(void);

/* Complete-table recipe for p (default goal). PZ_EUNSUPPORTED when p has
 * no rank ops or too many ranks. (complete.c) */
int tables__complete_recipe(const pz_puzzle_t *p, table_recipe_t *r);

/* Blob tables other modules name (blobs.c): writes at most max
 * definitions and returns how many there are. */
int tables__blob_defs(tables_blob_def_t *out, int max);

/* Recipes of the distinct tables "pdb" needs for a rows x cols board
 * whose goal has the blank at cell blank; writes at most max and returns
 * the count, or PZ_EUNSUPPORTED for a board without a partition. (pdb.c)
 */
int tables__pdb_recipes(int rows,
                        int cols,
                        int blank,
                        table_recipe_t *out,
                        int max);

#endif
