/* SPDX-License-Identifier: MIT */
/* test_tables_blob.c - opaque module tables: build, save, reload, rebuild. */

/*
 * Every test runs in its own forked process (Check's default), so the
 * process-wide table cache starts empty, and uses a fresh temporary table
 * directory. The build function writes a pattern that depends on the
 * index and counts its calls, which shows whether a table was built or
 * read back from its file.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <check.h>

#include "tables.h"
#include "tmpdir_testlib.h"

#define BLOB_BYTES ((uint64_t)3 * 1024 * 1024 + 17)

static atomic_int build_calls;
static atomic_int nonzero_given;
static char last_log[512];

static uint8_t
pattern(uint64_t i, uint32_t seed)
{
    return (uint8_t)((i * 131u + seed * 7u + (i >> 13)) & 0xff);
}

/* Build function: counts calls, checks the buffer arrives zeroed, writes
 * the pattern of seed (arg). */
static int
build_pattern(void *arg, uint8_t *data, uint64_t bytes, tables_build_t *b)
{
    uint32_t seed = (uint32_t)(uintptr_t)arg;
    int nonzero = 0;

    (void)b;
    atomic_fetch_add(&build_calls, 1);
    for (uint64_t i = 0; i < bytes; i++) {
        nonzero += data[i] != 0;
        data[i] = pattern(i, seed);
    }
    atomic_fetch_add(&nonzero_given, nonzero);
    return PZ_OK;
}

static int
build_fails(void *arg, uint8_t *data, uint64_t bytes, tables_build_t *b)
{
    (void)arg;
    (void)data;
    (void)bytes;
    (void)b;
    atomic_fetch_add(&build_calls, 1);
    return PZ_ENOMEM;
}

static void
on_log(void *arg, int level, const char *table, const char *msg)
{
    (void)arg;
    (void)level;
    snprintf(last_log, sizeof(last_log), "%s: %s", table, msg);
}

static tables_blob_def_t
def_of(const char *name, uint32_t version, uint32_t seed, bool huge)
{
    tables_blob_def_t d = {
        .name = name,
        .group = "test",
        .puzzle = "test blob",
        .bytes = BLOB_BYTES,
        .version = version,
        .huge = huge,
        .build = build_pattern,
        .arg = (void *)(uintptr_t)seed,
    };

    return d;
}

/* Number of bytes of data that differ from seed's pattern. */
static uint64_t
mismatches(const uint8_t *data, uint32_t seed)
{
    uint64_t bad = 0;

    for (uint64_t i = 0; i < BLOB_BYTES; i++) {
        bad += data[i] != pattern(i, seed);
    }
    return bad;
}

static void
use_fresh_dir(char *buf, size_t len)
{
    tmpdir_make(buf, len, "pz-blob");
    ck_assert_int_eq(tables_set_dir(buf), PZ_OK);
    tables_set_log(on_log, NULL);
    atomic_store(&build_calls, 0);
    atomic_store(&nonzero_given, 0);
    last_log[0] = '\0';
}

static off_t
file_size(const char *dir, const char *name)
{
    char path[512];
    struct stat st;

    snprintf(path, sizeof(path), "%s/%s.pzt", dir, name);
    return stat(path, &st) == 0 ? st.st_size : -1;
}

static void
flip_byte(const char *dir, const char *name, long offset)
{
    char path[512];
    FILE *f;
    int c;

    snprintf(path, sizeof(path), "%s/%s.pzt", dir, name);
    f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, offset, SEEK_SET), 0);
    c = fgetc(f);
    ck_assert_int_eq(fseek(f, offset, SEEK_SET), 0);
    fputc(c ^ 0x20, f);
    fclose(f);
}

/* --- tables_blob_get ---------------------------------------------------- */

START_TEST(test_tables_blob_get_builds_saves_and_caches)
{
    tables_blob_def_t d = def_of("blob-a", 1, 5, false);
    const uint8_t *data = NULL;
    const uint8_t *again = NULL;
    bool built = false;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    ck_assert_int_eq(tables_blob_get(&d, &data, &built), PZ_OK);
    ck_assert(built);
    ck_assert_int_eq(atomic_load(&build_calls), 1);
    ck_assert_int_eq(atomic_load(&nonzero_given), 0);
    ck_assert_uint_eq(mismatches(data, 5), 0);
    ck_assert_int_eq(file_size(dir, "blob-a"), 4096 + (off_t)BLOB_BYTES);
    ck_assert_uint_ge(tables_memory_bytes(), BLOB_BYTES);

    ck_assert_int_eq(tables_blob_get(&d, &again, &built), PZ_OK);
    ck_assert(!built);
    ck_assert_ptr_eq(again, data);
    ck_assert_int_eq(atomic_load(&build_calls), 1);
    tables_unload_all();
    tmpdir_remove(dir);
}
END_TEST

/* Writes an empty file dir/name. */
static void
touch(const char *dir, const char *name)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
}

static bool
exists(const char *dir, const char *name)
{
    char path[512];
    struct stat st;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

/* A save removes the temporary file a killed process left for the same
 * table, or one untouched for a day, and keeps a live process's recent one
 * (a build under way). */
START_TEST(test_tables_blob_get_removes_stale_temporary_files)
{
    tables_blob_def_t d = def_of("blob-s", 1, 3, false);
    const uint8_t *data = NULL;
    char dir[64];
    char dead_tmp[96];
    char live_tmp[96];
    char old_tmp[160];
    struct timespec times[2];
    pid_t child = fork();

    ck_assert_int_ge(child, 0);
    if (child == 0) {
        _exit(0);
    }
    ck_assert_int_eq(waitpid(child, NULL, 0), child);
    use_fresh_dir(dir, sizeof(dir));
    snprintf(dead_tmp, sizeof(dead_tmp), "blob-s.pzt.%ld.0.tmp", (long)child);
    snprintf(live_tmp, sizeof(live_tmp), "blob-s.pzt.%ld.0.tmp",
             (long)getppid());
    touch(dir, dead_tmp);
    touch(dir, live_tmp);
    /* Pid 1 is alive here as in every container: a file of its untouched
     * for two days is a killed save's all the same. */
    touch(dir, "blob-s.pzt.1.0.tmp");
    snprintf(old_tmp, sizeof(old_tmp), "%s/blob-s.pzt.1.0.tmp", dir);
    times[0].tv_sec = times[1].tv_sec = time(NULL) - 2 * 24 * 3600;
    times[0].tv_nsec = times[1].tv_nsec = 0;
    ck_assert_int_eq(utimensat(AT_FDCWD, old_tmp, times, 0), 0);
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_OK);
    ck_assert(!exists(dir, dead_tmp));
    ck_assert(!exists(dir, "blob-s.pzt.1.0.tmp"));
    ck_assert(exists(dir, live_tmp));
    ck_assert(exists(dir, "blob-s.pzt"));
    tables_unload_all();
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_blob_get_reads_saved_file_without_building)
{
    bool huge = _i == 1;
    tables_blob_def_t d = def_of("blob-b", 3, 9, huge);
    const uint8_t *data = NULL;
    bool built = true;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    tables_set_loads(huge ? TABLES_LOADS_COPY : TABLES_LOADS_MAP);
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_OK);
    if (huge) {
        ck_assert_uint_eq((uintptr_t)data & ((2u << 20) - 1), 0);
    }
    tables_unload_all(); /* as a new process would start */
    ck_assert_int_eq(tables_blob_get(&d, &data, &built), PZ_OK);
    ck_assert(!built);
    ck_assert_int_eq(atomic_load(&build_calls), 1);
    ck_assert_uint_eq(mismatches(data, 9), 0);
    if (huge) {
        ck_assert_uint_eq((uintptr_t)data & ((2u << 20) - 1), 0);
    }
    tables_unload_all();
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_blob_get_other_version_rebuilt)
{
    tables_blob_def_t v1 = def_of("blob-c", 1, 2, false);
    tables_blob_def_t v2 = def_of("blob-c", 2, 4, false);
    const uint8_t *data = NULL;
    bool built = false;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    ck_assert_int_eq(tables_blob_get(&v1, &data, NULL), PZ_OK);
    tables_unload_all();
    ck_assert_int_eq(tables_blob_get(&v2, &data, &built), PZ_OK);
    ck_assert(built);
    ck_assert_int_eq(atomic_load(&build_calls), 2);
    ck_assert_uint_eq(mismatches(data, 4), 0);
    ck_assert_msg(strstr(last_log, "version") != NULL ||
                      strstr(last_log, "built") != NULL,
                  "log: %s", last_log);
    tables_unload_all();
    ck_assert_int_eq(tables_blob_get(&v2, &data, &built), PZ_OK);
    ck_assert(!built);
    tables_unload_all();
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_blob_get_mapped_load_trusts_entries)
{
    tables_blob_def_t d = def_of("blob-m", 1, 6, false);
    const uint8_t *data = NULL;
    bool built = true;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    tables_set_loads(TABLES_LOADS_MAP);
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_OK);
    tables_unload_all();
    /* A mapped load reads the header only: a short command does not pay
     * for a pass over the entries, which tables_verify makes. */
    flip_byte(dir, "blob-m", 4096 + 123457);
    ck_assert_int_eq(tables_blob_get(&d, &data, &built), PZ_OK);
    ck_assert(!built);
    ck_assert_int_eq(atomic_load(&build_calls), 1);
    ck_assert_uint_eq(mismatches(data, 6), 1);
    tables_unload_all();
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_blob_get_corrupt_file_rebuilt)
{
    bool huge = _i == 1;
    tables_blob_def_t d = def_of("blob-d", 1, 6, huge);
    const uint8_t *data = NULL;
    bool built = false;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    tables_set_loads(huge ? TABLES_LOADS_COPY : TABLES_LOADS_VERIFY);
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_OK);
    tables_unload_all();
    flip_byte(dir, "blob-d", 4096 + 123457);
    ck_assert_int_eq(tables_blob_get(&d, &data, &built), PZ_OK);
    ck_assert(built);
    ck_assert_int_eq(atomic_load(&build_calls), 2);
    ck_assert_uint_eq(mismatches(data, 6), 0);
    ck_assert_msg(strstr(last_log, "blob-d") != NULL, "log: %s", last_log);
    tables_unload_all();
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_blob_get_build_error_returned_and_nothing_kept)
{
    tables_blob_def_t bad = def_of("blob-e", 1, 1, false);
    tables_blob_def_t good = def_of("blob-e", 1, 1, false);
    const uint8_t *data = (const uint8_t *)"x";
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    bad.build = build_fails;
    ck_assert_int_eq(tables_blob_get(&bad, &data, NULL), PZ_ENOMEM);
    ck_assert_ptr_null(data);
    ck_assert_int_eq(file_size(dir, "blob-e"), -1);
    ck_assert_int_eq(tables_blob_get(&good, &data, NULL), PZ_OK);
    ck_assert_uint_eq(mismatches(data, 1), 0);
    ck_assert_int_eq(atomic_load(&build_calls), 2);
    tables_unload_all();
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_blob_get_bad_definition_refused)
{
    static const char *names[] = { "", "../escape", "a/b", ".hidden",
                                   "sp ace" };
    tables_blob_def_t d = def_of("blob-f", 1, 1, false);
    const uint8_t *data;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        d.name = names[i];
        ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_EINVAL);
    }
    d = def_of("blob-f", 1, 1, false);
    d.bytes = 0;
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_EINVAL);
    d = def_of("blob-f", 1, 1, false);
    d.build = NULL;
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_EINVAL);
    ck_assert_int_eq(tables_blob_get(NULL, &data, NULL), PZ_EINVAL);
    ck_assert_int_eq(atomic_load(&build_calls), 0);
    tmpdir_remove(dir);
}
END_TEST

static void *
get_in_thread(void *arg)
{
    tables_blob_def_t d = def_of("blob-g", 1, 8, true);
    const uint8_t **out = arg;

    if (tables_blob_get(&d, out, NULL) != PZ_OK) {
        *out = NULL;
    }
    return NULL;
}

START_TEST(test_tables_blob_get_threads_share_one_build)
{
    pthread_t th[4];
    const uint8_t *got[4];
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(pthread_create(&th[i], NULL, get_in_thread, &got[i]),
                         0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
    }
    ck_assert_int_eq(atomic_load(&build_calls), 1);
    for (int i = 0; i < 4; i++) {
        ck_assert_ptr_nonnull(got[i]);
        ck_assert_ptr_eq(got[i], got[0]);
    }
    ck_assert_uint_eq(mismatches(got[0], 8), 0);
    tables_unload_all();
    tmpdir_remove(dir);
}
END_TEST

/* A table that would take the tables past the memory limit is neither
 * built nor loaded (PZ_ETABLES_MEMORY, the log says what it needs); what
 * is held already counts; with room it is built as before. */
START_TEST(test_tables_blob_get_memory_limit_refuses_before_building)
{
    tables_blob_def_t a = def_of("blob-m", 1, 4, false);
    tables_blob_def_t b = def_of("blob-n", 1, 5, false);
    const uint8_t *data = NULL;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    tables_set_memory_limit(BLOB_BYTES - 1);
    ck_assert_int_eq(tables_blob_get(&a, &data, NULL), PZ_ETABLES_MEMORY);
    ck_assert_ptr_null(data);
    ck_assert_int_eq(atomic_load(&build_calls), 0);
    ck_assert_int_eq(file_size(dir, "blob-m"), -1);
    ck_assert_ptr_nonnull(strstr(last_log, "blob-m: needs"));
    /* Room for one: the first is built, the second refused. */
    tables_set_memory_limit(BLOB_BYTES + BLOB_BYTES / 2);
    ck_assert_int_eq(tables_blob_get(&a, &data, NULL), PZ_OK);
    ck_assert_uint_eq(mismatches(data, 4), 0);
    ck_assert_int_eq(tables_blob_get(&b, &data, NULL), PZ_ETABLES_MEMORY);
    ck_assert_int_eq(atomic_load(&build_calls), 1);
    /* A saved file is not loaded past the limit either. */
    tables_unload_all();
    tables_set_memory_limit(BLOB_BYTES / 2);
    ck_assert_int_eq(tables_blob_get(&a, &data, NULL), PZ_ETABLES_MEMORY);
    tables_set_memory_limit(0);
    ck_assert_int_eq(tables_blob_get(&a, &data, NULL), PZ_OK);
    ck_assert_int_eq(atomic_load(&build_calls), 1);
    ck_assert_uint_eq(mismatches(data, 4), 0);
    tables_unload_all();
    tmpdir_remove(dir);
}
END_TEST

/* --- states, the daemon's rules, definitions ------------------------- */

/* States the hook saw, in order, for table "blob-s". */
static int seen_states[16];
static int nseen;

static void
on_state(void *arg, const char *table, int state)
{
    (void)arg;
    if (strcmp(table, "blob-s") == 0 && nseen < 16) {
        seen_states[nseen++] = state;
    }
}

/* A build that stops at the cancel flag, as the builders do between
 * steps: it sets the flag itself at its first step, as a daemon's
 * shutdown would from another thread. */
static int
build_cancelled(void *arg, uint8_t *data, uint64_t bytes, tables_build_t *b)
{
    (void)arg;
    (void)data;
    (void)bytes;
    atomic_fetch_add(&build_calls, 1);
    tables_build_progress(b, 1, 10);
    tables_cancel_builds(true);
    return tables_build_cancelled(b) ? PZ_ECANCELLED : PZ_OK;
}

START_TEST(test_tables_states_follow_a_build)
{
    tables_blob_def_t d = def_of("blob-s", 1, 11, false);
    const uint8_t *data = NULL;
    tables_status_t st;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    nseen = 0;
    tables_set_state_hook(on_state, NULL);
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_OK);
    tables_set_state_hook(NULL, NULL);
    /* A load that found no file turned into a build, which ended ready. */
    ck_assert_int_eq(nseen, 3);
    ck_assert_int_eq(seen_states[0], TABLES_LOADING);
    ck_assert_int_eq(seen_states[1], TABLES_BUILDING);
    ck_assert_int_eq(seen_states[2], TABLES_READY);
    ck_assert_int_eq(tables_status("blob-s", &st), PZ_OK);
    ck_assert_int_eq(st.state, TABLES_READY);
    ck_assert_str_eq(tables_state_name(st.state), "ready");
    ck_assert(st.file);
    ck_assert_uint_eq(st.bytes, BLOB_BYTES);
    ck_assert_int_eq(tables_status("no-such-table", &st), PZ_ENOT_FOUND);
    tables_unload_all();
    /* Unloaded, with its file: stored; marked for a thread: queued. */
    ck_assert_int_eq(tables_status("blob-s", &st), PZ_OK);
    ck_assert_int_eq(st.state, TABLES_STORED);
    ck_assert_int_eq(tables_set_queued("blob-s", true), PZ_OK);
    ck_assert_int_eq(tables_status("blob-s", &st), PZ_OK);
    ck_assert_int_eq(st.state, TABLES_QUEUED);
    ck_assert_int_eq(tables_set_queued("blob-s", false), PZ_OK);
    ck_assert_int_eq(tables_set_queued("no-such-table", true), PZ_ENOT_FOUND);
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_failed_build_state_has_its_reason)
{
    tables_blob_def_t d = def_of("blob-f", 1, 12, false);
    const uint8_t *data = NULL;
    tables_status_t st;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    d.build = build_fails;
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_ENOMEM);
    ck_assert_int_eq(tables_status("blob-f", &st), PZ_OK);
    ck_assert_int_eq(st.state, TABLES_FAILED);
    ck_assert_int_eq(st.rc, PZ_ENOMEM);
    ck_assert_msg(st.why[0] != '\0', "no reason");
    ck_assert(!st.file);
    tmpdir_remove(dir);
}
END_TEST

START_TEST(test_tables_cancelled_build_leaves_nothing)
{
    tables_blob_def_t d = def_of("blob-c", 1, 13, false);
    const uint8_t *data = NULL;
    tables_status_t st;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    d.build = build_cancelled;
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_ECANCELLED);
    tables_cancel_builds(false);
    ck_assert_ptr_null(data);
    ck_assert_int_eq(file_size(dir, "blob-c"), -1);
    ck_assert_int_eq(tables_status("blob-c", &st), PZ_OK);
    /* Not failed: nothing is wrong with the table, it is just not there. */
    ck_assert_int_eq(st.state, TABLES_MISSING);
    tmpdir_remove(dir);
}
END_TEST

/* A daemon's solver threads never load or build: they get
 * PZ_ETABLE_MISSING at once, while a table thread may. */
START_TEST(test_tables_inline_off_refuses_other_threads)
{
    tables_blob_def_t d = def_of("blob-i", 1, 14, false);
    const uint8_t *data = NULL;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    tables_set_inline(false);
    ck_assert(!tables_may_prepare());
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_ETABLE_MISSING);
    ck_assert_int_eq(atomic_load(&build_calls), 0);
    ck_assert_int_eq(file_size(dir, "blob-i"), -1);
    tables_thread_prepares(true);
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_OK);
    tables_thread_prepares(false);
    ck_assert_int_eq(atomic_load(&build_calls), 1);
    /* Once in memory it is served to anyone. */
    ck_assert_int_eq(tables_blob_get(&d, &data, NULL), PZ_OK);
    ck_assert_uint_eq(mismatches(data, 14), 0);
    tables_set_inline(true);
    tmpdir_remove(dir);
}
END_TEST

/* An entry table that finds a distance too large for 4 bits is built
 * again with 8, and its view says so. */
static int
build_wide(const tables_def_t *def,
           uint8_t *data,
           int bits,
           int *max_value,
           tables_build_t *b)
{
    (void)b;
    atomic_fetch_add(&build_calls, 1);
    if (bits == 4) {
        return PZ_ERANGE;
    }
    for (uint64_t i = 0; i < def->entries; i++) {
        data[i] = (uint8_t)(i % 20);
    }
    *max_value = 19;
    return PZ_OK;
}

START_TEST(test_tables_get_widens_an_entry_table)
{
    tables_def_t def = {
        .name = "entries-w",
        .group = "test",
        .puzzle = "test",
        .kind = TABLES_KIND_COMPLETE,
        .bits = 4,
        .widen = true,
        .entries = 1000,
        .build = build_wide,
    };
    tables_view_t v;
    bool built = false;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    ck_assert_ptr_nonnull(tables_register(&def));
    ck_assert_int_eq(tables_get(&def, &v, &built), PZ_OK);
    ck_assert(built);
    ck_assert_int_eq(atomic_load(&build_calls), 2);
    ck_assert_int_eq(v.bits, 8);
    ck_assert_int_eq(v.max_value, 19);
    ck_assert_uint_eq(v.entries, 1000);
    ck_assert_int_eq(tables_entry(v.data, v.bits, 999), 999 % 20);
    /* A new process reads it back as 8-bit entries. */
    tables_unload_all();
    ck_assert_int_eq(tables_get(&def, &v, &built), PZ_OK);
    ck_assert(!built);
    ck_assert_int_eq(v.bits, 8);
    ck_assert_int_eq(tables_entry(v.data, v.bits, 21), 1);
    /* A definition with no way to build is refused. */
    def.build = NULL;
    ck_assert_ptr_null(tables_register(&def));
    tmpdir_remove(dir);
}
END_TEST

/* The named tables come from the installed provider, in its order. */
static int
two_named(tables_def_t *out, int max)
{
    static const char *const names[] = { "named-b", "named-a" };

    for (int i = 0; i < 2 && i < max; i++) {
        memset(&out[i], 0, sizeof(out[i]));
        snprintf(out[i].name, sizeof(out[i].name), "%s", names[i]);
        snprintf(out[i].group, sizeof(out[i].group), "named");
        out[i].kind = TABLES_KIND_MODULE;
        out[i].bits = 8;
        out[i].entries = 4096;
        out[i].startup = i == 0;
        out[i].fill = build_pattern;
        out[i].arg = (void *)(uintptr_t)(20 + i);
    }
    return 2;
}

START_TEST(test_tables_named_provider_lists_in_order)
{
    tables_info_t info[8];
    tables_status_t st[8];
    bool built = false;
    char dir[64];

    use_fresh_dir(dir, sizeof(dir));
    tables_set_named(two_named);
    ck_assert_int_eq(tables_list(info, 8), 2);
    ck_assert_str_eq(info[0].name, "named-b");
    ck_assert_str_eq(info[1].name, "named-a");
    ck_assert(info[0].startup && !info[1].startup);
    ck_assert(!info[0].built);
    ck_assert_int_ge(tables_status_list(st, 8), 2);
    ck_assert_str_eq(st[0].name, "named-b");
    ck_assert_int_eq(st[0].state, TABLES_MISSING);
    ck_assert_int_eq(tables_ensure("named-a", &built), PZ_OK);
    ck_assert(built);
    ck_assert_int_eq(tables_status_list(st, 8), 2);
    ck_assert_int_eq(st[1].state, TABLES_READY);
    tmpdir_remove(dir);
}
END_TEST

static Suite *
tables_blob_suite(void)
{
    Suite *s = suite_create("tables_blob");
    TCase *tc = tcase_create("get");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_tables_blob_get_builds_saves_and_caches);
    tcase_add_test(tc, test_tables_blob_get_removes_stale_temporary_files);
    tcase_add_loop_test(
        tc, test_tables_blob_get_reads_saved_file_without_building, 0, 2);
    tcase_add_test(tc, test_tables_blob_get_other_version_rebuilt);
    tcase_add_loop_test(tc, test_tables_blob_get_corrupt_file_rebuilt, 0, 2);
    tcase_add_test(tc, test_tables_blob_get_mapped_load_trusts_entries);
    tcase_add_test(tc, test_tables_states_follow_a_build);
    tcase_add_test(tc, test_tables_failed_build_state_has_its_reason);
    tcase_add_test(tc, test_tables_cancelled_build_leaves_nothing);
    tcase_add_test(tc, test_tables_inline_off_refuses_other_threads);
    tcase_add_test(tc, test_tables_get_widens_an_entry_table);
    tcase_add_test(tc, test_tables_named_provider_lists_in_order);
    tcase_add_test(tc,
                   test_tables_blob_get_build_error_returned_and_nothing_kept);
    tcase_add_test(tc, test_tables_blob_get_bad_definition_refused);
    tcase_add_test(tc, test_tables_blob_get_threads_share_one_build);
    tcase_add_test(tc,
                   test_tables_blob_get_memory_limit_refuses_before_building);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(tables_blob_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
