/* SPDX-License-Identifier: MIT */
/* tables.h - shared read-only tables: directory, cache, files, heuristics. */
#ifndef PZ_SOLVER_TABLES_H
#define PZ_SOLVER_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pz_error.h"

/*
 * Tables are large arrays the program computes itself (complete distance
 * tables, pattern databases). Each is saved as one file in the table
 * directory, <dir>/<name>.pzt, with a header (magic, format version,
 * puzzle, table name, entry count, checksum), and memory-mapped read-only
 * when loaded. A process-wide cache holds every loaded table until exit;
 * a table is immutable once loaded, so any number of threads read it
 * without locks. A missing, truncated or corrupt file is rebuilt (the log
 * hook says why), written under a temporary name and renamed into place,
 * so concurrent builders never leave a half-written file. Table memory is
 * shared by all jobs and never charged to a job's budget; it is reported
 * by tables_memory_bytes.
 */

/* File format version written in every header. */
#define TABLES_FORMAT_VERSION 1

/* Longest table name, including the NUL. */
#define TABLES_NAME_MAX 64

/* Longest path tables_path writes, including the NUL. */
#define TABLES_PATH_MAX 4096

/* Most named tables tables_list reports (callers size arrays by it). */
#define TABLES_LIST_MAX 128

/* Severity of a log hook message. */
typedef enum tables_level {
    TABLES_LOG_ERROR = 0,
    TABLES_LOG_WARN,
    TABLES_LOG_INFO,
} tables_level_t;

/* Receives what the module would log: a table name and one sentence. */
typedef void (*tables_log_fn)(void *arg,
                              int level,
                              const char *table,
                              const char *msg);

/* Receives build progress: done out of total work units, at most a few
 * hundred calls per build. */
typedef void (*tables_progress_fn)(void *arg,
                                   const char *table,
                                   uint64_t done,
                                   uint64_t total);

/*
 * Sets the table directory (copied; created on the first write). NULL
 * restores the default: $PUZZLED_TABLES, else $XDG_CACHE_HOME/puzzled,
 * else $HOME/.cache/puzzled, else ./puzzled-tables. Tables already loaded
 * stay loaded. Returns PZ_OK or PZ_EINVAL (path too long). Thread: any.
 */
int tables_set_dir(const char *dir);

/* Copies the table directory in use into buf (len bytes). Returns its
 * length or PZ_EINVAL when buf is too small. Thread: any. */
int tables_dir(char *buf, size_t len);

/* Installs the log hook (NULL: silent). Thread: any; set it before tables
 * are used. */
void tables_set_log(tables_log_fn fn, void *arg);

/* Installs the build progress hook (NULL: none). Thread: any. */
void tables_set_progress(tables_progress_fn fn, void *arg);

/* One worker's part of a parallel build step: worker is 0..n-1. */
typedef void (*tables_task_fn)(void *arg, int worker);

/*
 * One build under way, handed to every build function: its cancel flag,
 * its progress and the threads it may split its steps over. A build
 * function checks tables_build_cancelled between steps (a level of a
 * breadth-first search, a chunk of rows) and returns PZ_ECANCELLED when it
 * is set; nothing of a cancelled build is kept.
 */
typedef struct tables_build tables_build_t;

/* True once the build should stop. Thread: any (the build's own threads). */
bool tables_build_cancelled(const tables_build_t *b);

/* Reports that done of total work units are finished (any unit; the
 * state of the table shows done / total). Thread: any. */
void tables_build_progress(tables_build_t *b, uint64_t done, uint64_t total);

/* How many parts a parallel step should be split into (>= 1). */
int tables_build_workers(const tables_build_t *b);

/* Runs fn(arg, 0) .. fn(arg, n - 1), on the build's threads when the
 * program lent some (tables_set_runner), else in turn on the calling
 * thread, and returns when every call has returned. Thread: the build's. */
void tables_build_run(tables_build_t *b, tables_task_fn fn, void *arg, int n);

/*
 * Sets (true) or clears the flag every build reads through
 * tables_build_cancelled: a shutting-down daemon sets it so that builds
 * end within one step. Thread: any.
 */
void tables_cancel_builds(bool on);

/* Runs fn(arg, 0) .. fn(arg, n - 1), possibly at the same time on n
 * threads, and returns when every call has returned. */
typedef void (*tables_run_fn)(void *ctx, int n, tables_task_fn fn, void *arg);

/*
 * Lets long builds (the pattern databases) use threads the caller owns;
 * solver/ starts none of its own. workers is how many parts each step is
 * split into (>= 1). NULL run: one part, on the calling thread. Thread:
 * any; set it before building.
 */
void tables_set_runner(tables_run_fn run, void *ctx, int workers);

/* How a table's file becomes a table in memory (tables_set_loads). */
enum {
    /* Map the file and trust its entries (the header and size are
     * checked): a short command reads only the pages its search touches.
     * The default. */
    TABLES_LOADS_MAP = 0,
    /* Map the file and check the entries' checksum first (a corrupt file
     * is rebuilt): `puzzled tables build`. */
    TABLES_LOADS_VERIFY,
    /* Copy the entries into anonymous memory, checking the checksum on
     * the way: the copy never changes whatever happens to the file later
     * (a mapping of a file truncated under it faults with SIGBUS), and a
     * huge table's copy sits on huge pages (fewer TLB misses on every
     * probe). For long-running processes: the daemon, the benchmarks. */
    TABLES_LOADS_COPY,
};

/* Sets how files are loaded (TABLES_LOADS_*). Thread: any; set it before
 * tables are loaded. */
void tables_set_loads(int how);

/*
 * Whether a thread that needs a table not in memory may load or build it
 * itself (true, the default: commands and tests) or gets
 * PZ_ETABLE_MISSING at once (false: the daemon, whose solver threads must
 * never spend a request's time on a table; its table threads call
 * tables_thread_prepares). Thread: any.
 */
void tables_set_inline(bool on);

/* Lets the calling thread load and build tables even when
 * tables_set_inline is off. Thread: the caller's own. */
void tables_thread_prepares(bool on);

/* True when the calling thread may load or build tables. Thread: any. */
bool tables_may_prepare(void);

/* Caps the memory of the tables this process holds at bytes (0, the
 * default: no cap). A table that would take the total past it is neither
 * loaded nor built: its get returns PZ_ETABLES_MEMORY (and the log says
 * what it needs), instead of the process running out of memory (a
 * container's limit kills the whole daemon). Thread: any. */
void tables_set_memory_limit(size_t bytes);

/* Bytes of every table loaded in this process (mapped or built in
 * memory). Thread: any. */
size_t tables_memory_bytes(void);

/* Counts bytes of other shared, read-only memory (a cache of tables a
 * search built for itself) among the tables' memory, when the cap allows:
 * true when counted, false when it would pass the cap. Thread: any. */
bool tables_account(size_t bytes);

/* Gives back bytes counted by tables_account. Thread: any. */
void tables_unaccount(size_t bytes);

/* Unloads every table and empties the cache. Only when no other thread
 * can be using a table: tests, or the end of a process. Thread: any. */
void tables_unload_all(void);

/* --- States (the daemon's view of every known table) --- */

/* What a table is doing. */
typedef enum tables_state {
    TABLES_MISSING = 0, /* not in memory and no usable file */
    TABLES_STORED,      /* a file with a sound header, not loaded */
    TABLES_QUEUED,      /* waiting for a thread to load or build it */
    TABLES_LOADING,     /* being read from its file */
    TABLES_BUILDING,    /* being built */
    TABLES_READY,       /* in memory */
    TABLES_FAILED,      /* the last load or build failed (rc, why) */
} tables_state_t;

/* "missing", "stored", "queued", "loading", "building", "ready",
 * "failed". */
const char *tables_state_name(int state);

/* One table as the daemon reports it. */
typedef struct tables_status {
    char name[TABLES_NAME_MAX];
    char group[32];
    char puzzle[32];
    int state;      /* tables_state_t */
    uint64_t bytes; /* memory it takes when loaded */
    uint64_t done;  /* loading (bytes) or building (units): progress */
    uint64_t total; /* of done; 0 while not known */
    double seconds; /* loading or building: time so far; else the time
                       the last load or build took (0: none yet) */
    bool startup;   /* the daemon prepares it at start */
    bool file;      /* a file with a sound header exists */
    int rc;         /* failed: the code (PZ_ETABLES_MEMORY, ...) */
    char why[256];  /* failed: a sentence */
} tables_status_t;

/* Describes the known table name (a name from tables_list, or one a
 * heuristic or engine registered). Returns PZ_OK or PZ_ENOT_FOUND.
 * Looks at the file of a table not in memory. Thread: any. */
int tables_status(const char *name, tables_status_t *out);

/* Describes every known table: the named ones in list order, then the
 * others registered so far. Writes at most max and returns the count.
 * Thread: any. */
int tables_status_list(tables_status_t *out, int max);

/* Marks the known table name as waiting for a thread that will load or
 * build it (on), or no longer (off), so that its state reads "queued"
 * meanwhile. Returns PZ_OK or PZ_ENOT_FOUND. Thread: any. */
int tables_set_queued(const char *name, bool on);

/*
 * True when each of the n known tables names is in memory or on its way
 * without a new build (a file, a load or a build under way, a thread
 * queued for it); otherwise *missing (may be NULL) gets the first that
 * is not. Thread: any.
 */
bool tables_available(const char *const *names, int n, const char **missing);

/* The memory cap of tables_set_memory_limit (0: none). Thread: any. */
size_t tables_memory_limit(void);

/* Receives a table's new state (TABLES_LOADING, TABLES_BUILDING when a
 * load turns into a build, then TABLES_READY, TABLES_FAILED or
 * TABLES_MISSING). Called on the thread that prepares the table, without
 * any lock of this module held. */
typedef void (*tables_state_fn)(void *arg, const char *table, int state);

/* Installs the state hook (NULL: none). Thread: any. */
void tables_set_state_hook(tables_state_fn fn, void *arg);

/* --- Named tables (the CLI's `puzzled tables` and the daemon) --- */

/* One table file as `puzzled tables list` shows it. */
typedef struct tables_info {
    char name[TABLES_NAME_MAX]; /* "2x2x2-htm", "tiles-4x4-pdb8-00ff-z8" */
    char group[32];             /* "2x2x2", "15-puzzle", ... */
    char puzzle[32];            /* puzzle description, "2x2x2 htm" */
    uint64_t entries;           /* table entries */
    uint64_t bytes;             /* file size when built */
    bool built;                 /* the file exists with a valid header */
    bool loaded;                /* mapped in this process */
    bool startup;               /* loaded by the daemon at startup */
    bool module;                /* another module's table (blob) */
    char path[TABLES_PATH_MAX]; /* where the file is or would be */
} tables_info_t;

/*
 * Describes every table this build knows by name, in a stable order (the
 * groups "8-puzzle", "2x2x2", "pyraminx", "15-puzzle", "24-puzzle",
 * "3x3x3", "master-pyraminx").
 * Writes at most max entries to out (out may be NULL when max is 0) and
 * returns the total count. Tables of puzzles this build cannot instantiate
 * are left out. Thread: any.
 */
int tables_list(tables_info_t *out, int max);

/* True when name is a group ("2x2x2") or a table ("2x2x2-htm") that
 * selects the table called table. Thread: any. */
bool
tables_name_matches(const char *name, const char *group, const char *table);

/*
 * Makes the named table (a name from tables_list) available: loads it,
 * or builds and saves it when its file is missing or bad. *built_out (may
 * be NULL) is set when it had to be built. Returns PZ_OK, PZ_ENOT_FOUND
 * for an unknown name, PZ_ENOMEM, or PZ_EIO when a built table could not
 * be kept. Thread: any.
 */
int tables_ensure(const char *name, bool *built_out);

/*
 * Loads the named table only if its file is present and sound (never
 * builds). Returns PZ_OK, PZ_ENOT_FOUND (unknown name or no file) or the
 * reason it was rejected (PZ_EIO). Thread: any.
 */
int tables_load_existing(const char *name);

/*
 * Checks the file of the named table: header and checksum. Returns PZ_OK,
 * PZ_ENOT_FOUND when there is no file, or PZ_EIO with why (a sentence) in
 * why[len] when it is truncated or corrupt. Thread: any.
 */
int tables_verify(const char *name, char *why, size_t len);

/* --- Table definitions (what a module gives to have a table) --- */

/* Kinds of table, recorded in a file's header. */
enum {
    TABLES_KIND_COMPLETE = 1, /* the distance of every rank of a puzzle */
    TABLES_KIND_PATTERN = 2,  /* a sliding-tile pattern database */
    TABLES_KIND_MODULE = 3,   /* bytes whose layout a module owns */
};

typedef struct tables_def tables_def_t;

/* Fills data (bytes long, zeroed, 2 MiB aligned) with a module's table,
 * as build b (progress, cancel, threads). Returns PZ_OK, PZ_ECANCELLED or
 * a negative PZ_E* code. */
typedef int (*tables_blob_build_fn)(void *arg,
                                    uint8_t *data,
                                    uint64_t bytes,
                                    tables_build_t *b);

/*
 * Fills data (entries of bits each, zeroed, 2 MiB aligned) with def's
 * table as build b, and sets *max_value to the largest entry. A build
 * that finds an entry too large for 4 bits returns PZ_ERANGE, and is
 * called again with bits 8 when def->widen (a table whose encoding
 * defines a cap, as the tiles' pattern databases do, stores it instead).
 * Returns PZ_OK, PZ_ERANGE, PZ_ECANCELLED or another negative PZ_E* code.
 */
typedef int (*tables_build_fn)(const tables_def_t *def,
                               uint8_t *data,
                               int bits,
                               int *max_value,
                               tables_build_t *b);

/*
 * One table: its name (the file is NAME.pzt), what the header records,
 * and how to build it. A plain value; the registry keeps a copy. arg
 * (and what it points to) must live as long as the process.
 */
struct tables_def {
    char name[TABLES_NAME_MAX]; /* file stem and registry key */
    char group[32];             /* what `puzzled tables build GROUP` selects */
    char puzzle[32];            /* description in the header ("2x2x2 htm") */
    int kind;                   /* TABLES_KIND_* */
    int bits;                   /* bits per entry: 4 or 8 (modules: 8) */
    bool widen;                 /* a 4-bit build may find it needs 8 */
    uint64_t entries;           /* entries (modules: bytes) */
    uint32_t version;          /* modules: layout version, in the header; a file
                                  of another version is rebuilt */
    bool startup;              /* the daemon prepares it at start */
    bool huge;                 /* read at random: keep it on huge pages */
    tables_build_fn build;     /* entry tables */
    tables_blob_build_fn fill; /* module tables (build NULL) */
    void *arg;                 /* passed to fill; build gets def */
};

/* A table in memory, as its users read it (immutable). */
typedef struct tables_view {
    const uint8_t *data; /* the entries */
    int bits;            /* 4 or 8 */
    int max_value;       /* largest entry (modules: layout version) */
    uint64_t entries;
} tables_view_t;

/* Bytes that entries of bits each occupy (4-bit entries: two a byte, the
 * even index in the low nibble). */
static inline size_t
tables_data_bytes(uint64_t entries, int bits)
{
    return bits == 8 ? (size_t)entries : (size_t)((entries + 1) / 2);
}

/* Entry i of data (bits 4 or 8). */
static inline int
tables_entry(const uint8_t *data, int bits, uint64_t i)
{
    if (bits == 8) {
        return data[i];
    }
    return (data[i >> 1] >> ((i & 1) << 2)) & 15;
}

/*
 * Makes def known by name (tables_status, tables_ensure, the daemon's
 * table threads) without loading anything; a name already known keeps
 * its first definition. Returns the registry's copy of the name (valid
 * for the life of the process), or NULL when the definition is unusable
 * or the registry is full. Thread: any.
 */
const char *tables_register(const tables_def_t *def);

/*
 * The table of def: from memory, else loaded from its file, else built
 * and saved (the thread must be allowed: tables_set_inline,
 * tables_thread_prepares); concurrent callers wait for one load or build.
 * Later calls return the same bytes for the life of the process. *built
 * (may be NULL) is set when this call built it. Returns PZ_OK with *out,
 * PZ_ETABLE_MISSING (a thread that may not prepare tables),
 * PZ_ETABLES_MEMORY, PZ_ENOMEM, PZ_EIO, PZ_EINVAL (an unusable def, or a
 * name another table holds) or the build's error. Thread: any.
 */
int tables_get(const tables_def_t *def, tables_view_t *out, bool *built);

/* Lists the named tables (a program's whole set, in a stable order):
 * writes at most max definitions and returns how many there are. */
typedef int (*tables_named_fn)(tables_def_t *out, int max);

/* Installs the provider of the named tables (what `puzzled tables list`
 * shows, in that order); it is asked once, on first need. solver/
 * installs it (solve_register_tables), so this module knows no puzzle.
 * Thread: main, before tables are listed. */
void tables_set_named(tables_named_fn fn);

/* --- Tables of other modules (opaque bytes) --- */

/*
 * A table whose layout only its module knows (the 3x3x3 pattern
 * databases, the two-phase tables): the tables module saves, checks,
 * maps and caches its bytes like any other table. version is the
 * module's layout version, recorded in the file: a file written with
 * another version is rebuilt, so a module that changes its layout bumps
 * it.
 */
typedef struct tables_blob_def {
    const char *name;           /* file stem and cache key */
    const char *group;          /* CLI group ("3x3x3") */
    const char *puzzle;         /* header description ("3x3x3 htm") */
    uint64_t bytes;             /* exact size of the data */
    uint32_t version;           /* the module's layout version */
    bool startup;               /* the daemon loads or builds it at start */
    bool huge;                  /* random access: keep it on huge pages */
    tables_blob_build_fn build; /* fills the data */
    void *arg;                  /* passed to build */
} tables_blob_def_t;

/* def as a table definition (kind TABLES_KIND_MODULE, 8-bit entries, one
 * per byte). False when def is unusable. Thread: any. */
bool tables_def_of_blob(const tables_blob_def_t *def, tables_def_t *out);

/* Writes at most max definitions of the module tables provider lists
 * (tables_def_of_blob of each) and returns how many. Thread: any. */
int tables_defs_of_blobs(int (*provider)(tables_blob_def_t *, int),
                         tables_def_t *out,
                         int max);

/*
 * Loads def's table from its file, or builds, saves and maps it; later
 * calls with the same name return the same pointer for the life of the
 * process (until tables_unload_all), and concurrent callers wait for one
 * build. The bytes are read-only, shared by all threads and never charged
 * to a job. A table marked huge is, when tables_set_huge_pages is on,
 * copied from its file into anonymous memory advised for transparent huge
 * pages (file mappings use 4 KiB pages, and random lookups into hundreds
 * of megabytes would miss the TLB); a huge table built in this process
 * keeps its built copy either way. *built (may be NULL) is set when this call
 * built it. Returns PZ_OK, PZ_EINVAL (bad definition), PZ_ENOMEM, PZ_EIO or the
 * build's error. Thread: any.
 */
int tables_blob_get(const tables_blob_def_t *def,
                    const uint8_t **data,
                    bool *built);

#endif
