/* SPDX-License-Identifier: MIT */
/* tables.c - table directory, file format, checksums and the shared cache. */

/*
 * Design. A table file is a fixed header (file_header_t, native byte
 * order, recorded so a foreign file is refused), zero padding up to 4 KiB,
 * and the entries. The header names the table and carries the entry
 * count, the bits per entry, a checksum of the entries and a checksum of
 * the header itself. Loading checks all of it and the file size before
 * mapping the file read-only, then checks the entries' checksum (one pass
 * that also pulls the pages in, which the searches would do anyway).
 *
 * Writing goes to a unique temporary name in the same directory, is
 * flushed, and is renamed over the final name: rename is atomic, so a
 * reader sees the old file or the new one, never a mix, and two processes
 * building the same table at once each publish a complete file (the last
 * rename wins; both are identical).
 *
 * The cache is a fixed array of slots, one per table name. A slot's table
 * pointer is published once with release order and never changes, so the
 * hot path (an engine finding its table) scans the slots without the lock.
 * The lock guards slot creation and the "building" flag; a thread that
 * needs a table another thread is building waits on the condition
 * variable, while threads needing other tables go on.
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, MADV_HUGEPAGE */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "search.h"
#include "tables_internal.h"

#define CACHE_MAX   128
#define DATA_OFFSET 4096u
#define ENDIAN_MARK 0x01020304u

static const char file_magic[8] = { 'P', 'Z', 'T', 'A', 'B', 'L', 'E', '\n' };

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
 * The rest is guarded by lock, but for the progress counters, which the
 * build writes and anyone reads.
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

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t built_cond = PTHREAD_COND_INITIALIZER;
static slot_t slots[CACHE_MAX];
static atomic_int nslots;
static atomic_size_t memory_bytes;
static atomic_size_t memory_limit; /* 0: none */
static atomic_int loads;           /* TABLES_LOADS_*: how files are loaded */
static atomic_bool inline_prepare = true;  /* any thread loads and builds */
static _Thread_local bool thread_prepares; /* this thread may, regardless */

/* Guarded by lock. */
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
static unsigned tmp_counter;

/* ------------------------------------------------------------------------ */
/* Directory and hooks */

/* Fills table_dir with the default. Called with lock held. */
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

    pthread_mutex_lock(&lock);
    if (dir == NULL || dir[0] == '\0') {
        choose_default_dir();
    } else if (strlen(dir) + TABLES_NAME_MAX + 32 >= sizeof(table_dir)) {
        rc = PZ_EINVAL;
    } else {
        snprintf(table_dir, sizeof(table_dir), "%s", dir);
        dir_chosen = true;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

int
tables_dir(char *buf, size_t len)
{
    size_t n;

    pthread_mutex_lock(&lock);
    if (!dir_chosen) {
        choose_default_dir();
    }
    n = strlen(table_dir);
    if (n + 1 > len) {
        pthread_mutex_unlock(&lock);
        return PZ_EINVAL;
    }
    memcpy(buf, table_dir, n + 1);
    pthread_mutex_unlock(&lock);
    return (int)n;
}

void
tables_set_log(tables_log_fn fn, void *arg)
{
    pthread_mutex_lock(&lock);
    log_fn = fn;
    log_arg = arg;
    pthread_mutex_unlock(&lock);
}

void
tables_set_progress(tables_progress_fn fn, void *arg)
{
    pthread_mutex_lock(&lock);
    progress_fn = fn;
    progress_arg = arg;
    pthread_mutex_unlock(&lock);
}

void
tables_set_runner(tables_run_fn run, void *ctx, int workers)
{
    pthread_mutex_lock(&lock);
    run_fn = run;
    run_ctx = ctx;
    run_workers = run != NULL && workers > 1 ? workers : 1;
    pthread_mutex_unlock(&lock);
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
    pthread_mutex_lock(&lock);
    b->slot = s;
    b->run = run_fn;
    b->run_ctx = run_ctx;
    b->workers = run_workers;
    pthread_mutex_unlock(&lock);
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
    atomic_store(&loads, how);
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
    pthread_mutex_lock(&lock);
    state_fn = fn;
    state_arg = arg;
    pthread_mutex_unlock(&lock);
}

void
tables_set_memory_limit(size_t bytes)
{
    atomic_store(&memory_limit, bytes);
}

size_t
tables_memory_bytes(void)
{
    return atomic_load(&memory_bytes);
}

void
tables__log(int level, const char *table, const char *fmt, ...)
{
    tables_log_fn fn;
    void *arg;
    char msg[512];
    va_list ap;

    pthread_mutex_lock(&lock);
    fn = log_fn;
    arg = log_arg;
    pthread_mutex_unlock(&lock);
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
    pthread_mutex_lock(&lock);
    fn = progress_fn;
    arg = progress_arg;
    pthread_mutex_unlock(&lock);
    if (fn != NULL) {
        fn(arg, b->slot->name, done, total);
    }
}

/* Writes <dir>/<name>.pzt into buf. */
static void
table_path(const char *name, char *buf, size_t len)
{
    char dir[TABLES_PATH_MAX];

    tables_dir(dir, sizeof(dir));
    if (snprintf(buf, len, "%s/%s.pzt", dir, name) >= (int)len) {
        buf[0] = '\0'; /* cannot happen: tables_set_dir leaves room */
    }
}

/* Copies the string src into dst of len bytes, cut if needed. */
static void
copy_str(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src);

    if (n >= len) {
        n = len - 1;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* ------------------------------------------------------------------------ */
/* Checksum */

#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV_PRIME  UINT64_C(0x100000001b3)

uint64_t
tables__checksum(const uint8_t *data, size_t n)
{
    /* Four independent lanes keep four multiplications in flight; each
     * step x -> (x ^ w) * prime is a bijection (the prime is odd), so
     * changing any one word always changes its lane's result. */
    uint64_t lane[4] = { FNV_OFFSET, FNV_OFFSET ^ 1, FNV_OFFSET ^ 2,
                         FNV_OFFSET ^ 3 };
    uint64_t h = FNV_OFFSET;
    size_t i = 0;

    for (; i + 32 <= n; i += 32) {
        for (int k = 0; k < 4; k++) {
            uint64_t w;

            memcpy(&w, data + i + 8 * (size_t)k, 8);
            lane[k] = (lane[k] ^ w) * FNV_PRIME;
        }
    }
    for (; i < n; i++) {
        lane[0] = (lane[0] ^ data[i]) * FNV_PRIME;
    }
    for (int k = 0; k < 4; k++) {
        h = (h ^ lane[k]) * FNV_PRIME;
    }
    return (h ^ n) * FNV_PRIME;
}

/* ------------------------------------------------------------------------ */
/* Files */

static uint64_t
header_sum(const file_header_t *h)
{
    return tables__checksum((const uint8_t *)h,
                            offsetof(file_header_t, header_sum));
}

/* Checks a header read from a file of file_size bytes against r. Writes
 * why on failure. */
static bool
header_ok(const file_header_t *h,
          const table_recipe_t *r,
          uint64_t file_size,
          char *why,
          size_t len)
{
    uint64_t want;

    if (memcmp(h->magic, file_magic, sizeof(file_magic)) != 0) {
        snprintf(why, len, "not a puzzled table file (bad magic)");
        return false;
    }
    if (h->endian != ENDIAN_MARK) {
        snprintf(why, len, "written on a machine of the other byte order");
        return false;
    }
    if (h->version != TABLES_FORMAT_VERSION ||
        h->header_bytes != sizeof(file_header_t)) {
        snprintf(why, len, "format version %u, this build reads version %d",
                 (unsigned)h->version, TABLES_FORMAT_VERSION);
        return false;
    }
    if (header_sum(h) != h->header_sum) {
        snprintf(why, len, "header checksum mismatch (corrupt header)");
        return false;
    }
    if (memchr(h->name, '\0', sizeof(h->name)) == NULL ||
        strcmp(h->name, r->name) != 0) {
        snprintf(why, len, "the file holds a different table");
        return false;
    }
    if (h->kind != (uint32_t)r->kind || h->entries != r->entries ||
        (h->bits != 4 && h->bits != 8) ||
        (!r->widen && h->bits != (uint32_t)r->bits) ||
        h->data_offset != DATA_OFFSET ||
        h->data_bytes != tables_data_bytes(h->entries, (int)h->bits)) {
        snprintf(why, len,
                 "the header does not describe this table "
                 "(entries, bits or layout differ)");
        return false;
    }
    if (r->kind == TABLES_KIND_MODULE && h->max_value != r->version) {
        snprintf(why, len,
                 "written with layout version %u of its module, this build "
                 "uses version %u",
                 (unsigned)h->max_value, (unsigned)r->version);
        return false;
    }
    want = h->data_offset + h->data_bytes;
    if (file_size != want) {
        snprintf(why, len, "%s: %llu bytes, expected %llu",
                 file_size < want ? "truncated" : "too long",
                 (unsigned long long)file_size, (unsigned long long)want);
        return false;
    }
    return true;
}

#define HUGE_ALIGN ((size_t)2 << 20)

/*
 * Zeroed anonymous memory of at least bytes. huge: 2 MiB aligned and
 * advised for transparent huge pages (random lookups into a large table
 * would otherwise miss the TLB on most probes). *len gets the mapped
 * length, for munmap. NULL when out of memory.
 */
static uint8_t *
anon_alloc(size_t bytes, bool huge, size_t *len)
{
    size_t align = huge ? HUGE_ALIGN : (size_t)4096;
    size_t n = (bytes + align - 1) & ~(align - 1);
    uint8_t *base;
    uint8_t *p;
    size_t head;

    if (n == 0) {
        n = align;
    }
    if (!huge) {
        p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
        if (p == MAP_FAILED) {
            return NULL;
        }
        *len = n;
        return p;
    }
    base = mmap(NULL, n + HUGE_ALIGN, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
        return NULL;
    }
    /* Trim the mapping to an aligned window of n bytes. */
    head =
        (HUGE_ALIGN - ((uintptr_t)base & (HUGE_ALIGN - 1))) & (HUGE_ALIGN - 1);
    p = base + head;
    if (head > 0) {
        munmap(base, head);
    }
    if (HUGE_ALIGN - head > 0) {
        munmap(p + n, HUGE_ALIGN - head);
    }
#ifdef MADV_HUGEPAGE
    (void)madvise(p, n, MADV_HUGEPAGE);
#endif
    *len = n;
    return p;
}

/* Reads n bytes at offset off of fd into buf. */
static bool
read_all(int fd, uint8_t *buf, size_t n, off_t off)
{
    while (n > 0) {
        ssize_t r =
            pread(fd, buf, n > (size_t)1 << 30 ? (size_t)1 << 30 : n, off);

        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return false;
        }
        buf += r;
        off += r;
        n -= (size_t)r;
    }
    return true;
}

/* A table in memory, made from data of data_bytes entries bytes inside
 * the mapping base of len bytes (a file mapping when file is true, else
 * anonymous memory). */
static table_t *
table_new(const table_recipe_t *r,
          const file_header_t *h,
          const uint8_t *data,
          void *base,
          size_t len,
          bool file)
{
    table_t *t = calloc(1, sizeof(*t));

    if (t == NULL) {
        return NULL;
    }
    snprintf(t->name, sizeof(t->name), "%s", r->name);
    t->kind = r->kind;
    t->bits = (int)h->bits;
    t->max_value = (int)h->max_value;
    t->entries = h->entries;
    t->data = data;
    t->data_bytes = (size_t)h->data_bytes;
    if (file) {
        t->map = base;
        t->map_len = len;
    } else {
        t->anon = base;
        t->anon_len = len;
    }
    return t;
}

/* Where a load reports how far it got (NULL: nowhere). */
typedef struct load_progress {
    _Atomic uint64_t *done;
} load_progress_t;

/* Bytes read per step of a copy: the progress granularity. */
#define COPY_STEP ((size_t)64 << 20)

/*
 * Copies the entries of the open file fd (header h, checked) into
 * anonymous memory made read-only, checking their checksum on the way:
 * the copy never changes, whatever happens to the file afterwards
 * (truncated, replaced or deleted), where a mapping of a truncated file
 * faults with SIGBUS. A huge table's copy is on huge pages. Closes fd.
 * Same results as load_file.
 */
static int
copy_file(const table_recipe_t *r,
          const file_header_t *h,
          int fd,
          const char *path,
          load_progress_t *pr,
          table_t **out,
          char *why,
          size_t len)
{
    size_t bytes = (size_t)h->data_bytes;
    size_t anon_len = 0;
    uint8_t *data = anon_alloc(bytes, r->huge, &anon_len);
    size_t off = 0;

    if (data == NULL) {
        close(fd);
        snprintf(why, len, "out of memory (%zu bytes)", bytes);
        return PZ_ENOMEM;
    }
    while (off < bytes) {
        size_t n = bytes - off < COPY_STEP ? bytes - off : COPY_STEP;

        if (!read_all(fd, data + off, n, (off_t)(DATA_OFFSET + off))) {
            snprintf(why, len, "cannot read %s: %s", path,
                     errno != 0 ? strerror(errno) : "end of file");
            close(fd);
            munmap(data, anon_len);
            return PZ_EIO;
        }
        off += n;
        if (pr != NULL && pr->done != NULL) {
            atomic_store(pr->done, (uint64_t)off);
        }
    }
    close(fd);
    if (tables__checksum(data, bytes) != h->checksum) {
        snprintf(why, len, "data checksum mismatch (corrupt entries)");
        munmap(data, anon_len);
        return PZ_EIO;
    }
    (void)mprotect(data, anon_len, PROT_READ);
    *out = table_new(r, h, data, data, anon_len, false);
    if (*out == NULL) {
        munmap(data, anon_len);
        snprintf(why, len, "out of memory");
        return PZ_ENOMEM;
    }
    return PZ_OK;
}

/* How load_file treats the entries. */
enum {
    LOAD_MAP = 0, /* map the file; header checks only */
    LOAD_VERIFY,  /* map the file and check the entries' checksum */
    LOAD_COPY,    /* copy into anonymous memory, checking the checksum */
};

/*
 * Loads the file at path as r's table: the header and the file size are
 * always checked; how = LOAD_MAP maps the file trusting its entries (a
 * short command reads only the pages it needs), LOAD_VERIFY maps it and
 * checks the entries' checksum, LOAD_COPY copies the entries (copy_file).
 * Returns PZ_OK with *out (owned), PZ_ENOT_FOUND when there is no file,
 * PZ_EIO with why otherwise.
 */
static int
load_file(const table_recipe_t *r,
          const char *path,
          int how,
          load_progress_t *pr,
          table_t **out,
          char *why,
          size_t len)
{
    file_header_t h;
    struct stat st;
    void *map;
    int fd;

    *out = NULL;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) {
            snprintf(why, len, "no file at %s", path);
            return PZ_ENOT_FOUND;
        }
        snprintf(why, len, "cannot open %s: %s", path, strerror(errno));
        return PZ_EIO;
    }
    if (fstat(fd, &st) != 0) {
        snprintf(why, len, "cannot stat %s: %s", path, strerror(errno));
        close(fd);
        return PZ_EIO;
    }
    if ((uint64_t)st.st_size < sizeof(h)) {
        snprintf(why, len, "truncated: %lld bytes, less than a header",
                 (long long)st.st_size);
        close(fd);
        return PZ_EIO;
    }
    if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h)) {
        snprintf(why, len, "cannot read the header of %s", path);
        close(fd);
        return PZ_EIO;
    }
    if (!header_ok(&h, r, (uint64_t)st.st_size, why, len)) {
        close(fd);
        return PZ_EIO;
    }
    if (how == LOAD_COPY) {
        return copy_file(r, &h, fd, path, pr, out, why, len);
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) {
        snprintf(why, len, "cannot map %s: %s", path, strerror(errno));
        return PZ_EIO;
    }
    if (how == LOAD_VERIFY &&
        tables__checksum((const uint8_t *)map + DATA_OFFSET,
                         (size_t)h.data_bytes) != h.checksum) {
        snprintf(why, len, "data checksum mismatch (corrupt entries)");
        munmap(map, (size_t)st.st_size);
        return PZ_EIO;
    }
    *out = table_new(r, &h, (const uint8_t *)map + DATA_OFFSET, map,
                     (size_t)st.st_size, true);
    if (*out == NULL) {
        munmap(map, (size_t)st.st_size);
        snprintf(why, len, "out of memory");
        return PZ_ENOMEM;
    }
    return PZ_OK;
}

/* Frees t and its memory; NULL is fine. */
static void
table_free(table_t *t)
{
    if (t == NULL) {
        return;
    }
    if (t->map != NULL) {
        munmap(t->map, t->map_len);
    }
    if (t->anon != NULL) {
        munmap(t->anon, t->anon_len);
    }
    free(t);
}

/* Writes all of buf to fd. */
static bool
write_all(int fd, const void *buf, size_t n)
{
    const uint8_t *p = buf;

    while (n > 0) {
        ssize_t w = write(fd, p, n > (size_t)1 << 30 ? (size_t)1 << 30 : n);

        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Creates dir and its parents (mode 0755). */
static bool
make_dirs(const char *dir)
{
    char buf[TABLES_PATH_MAX];
    size_t n = strlen(dir);

    if (n == 0 || n >= sizeof(buf)) {
        return false;
    }
    memcpy(buf, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];

            buf[i] = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
                return false;
            }
            buf[i] = c;
        }
    }
    return true;
}

/*
 * Removes the temporary files "<path>.<pid>.<k>.tmp" that a process killed
 * while saving left in dir, for a process that no longer exists: a killed
 * save of a 2.6 GB table would otherwise keep its disk for good. A live
 * process's file (another build of the same table under way) stays.
 */
static void
remove_stale_temporaries(const char *dir, const char *path)
{
    const char *base = strrchr(path, '/');
    size_t blen;
    DIR *d;
    struct dirent *e;

    base = base != NULL ? base + 1 : path;
    blen = strlen(base);
    d = opendir(dir);
    if (d == NULL) {
        return;
    }
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        size_t len = strlen(name);
        char stale[TABLES_PATH_MAX + 300];
        char *end;
        long pid;

        if (len <= blen + 5 || strncmp(name, base, blen) != 0 ||
            name[blen] != '.' || strcmp(name + len - 4, ".tmp") != 0) {
            continue;
        }
        pid = strtol(name + blen + 1, &end, 10);
        if (end == name + blen + 1 || *end != '.' || pid <= 0 ||
            pid == (long)getpid() ||
            !(kill((pid_t)pid, 0) != 0 && errno == ESRCH)) {
            continue;
        }
        snprintf(stale, sizeof(stale), "%s/%s", dir, name);
        (void)unlink(stale);
    }
    closedir(d);
}

/* Saves h and data as path through a temporary file and a rename. */
static int
save_file(const char *path,
          const file_header_t *h,
          const uint8_t *data,
          char *why,
          size_t len)
{
    static const uint8_t zeros[DATA_OFFSET];
    char dir[TABLES_PATH_MAX];
    char tmp[TABLES_PATH_MAX + 64];
    unsigned k;
    int fd;

    tables_dir(dir, sizeof(dir));
    if (!make_dirs(dir)) {
        snprintf(why, len, "cannot create the directory %s: %s", dir,
                 strerror(errno));
        return PZ_EIO;
    }
    remove_stale_temporaries(dir, path);
    pthread_mutex_lock(&lock);
    k = tmp_counter++;
    pthread_mutex_unlock(&lock);
    snprintf(tmp, sizeof(tmp), "%s.%ld.%u.tmp", path, (long)getpid(), k);
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(why, len, "cannot create %s: %s", tmp, strerror(errno));
        return PZ_EIO;
    }
    if (!write_all(fd, h, sizeof(*h)) ||
        !write_all(fd, zeros, DATA_OFFSET - sizeof(*h)) ||
        !write_all(fd, data, (size_t)h->data_bytes) || fsync(fd) != 0) {
        snprintf(why, len, "cannot write %s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        return PZ_EIO;
    }
    if (close(fd) != 0 || rename(tmp, path) != 0) {
        int w = snprintf(why, len, "cannot rename %s to %s: %s", tmp, path,
                         strerror(errno));

        (void)w; /* a cut message is still a message */
        unlink(tmp);
        return PZ_EIO;
    }
    return PZ_OK;
}

/* Elapsed seconds since start_ns (CLOCK_MONOTONIC). */
static double
seconds_since(const struct timespec *start)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) +
           (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

/* Makes a table of the built entries data (anonymous memory of anon_len
 * bytes, header h), read-only from now on. */
static int
keep_built(const table_recipe_t *r,
           const file_header_t *h,
           uint8_t *data,
           size_t anon_len,
           table_t **out)
{
    (void)mprotect(data, anon_len, PROT_READ);
    *out = table_new(r, h, data, data, anon_len, false);
    if (*out == NULL) {
        munmap(data, anon_len);
        return PZ_ENOMEM;
    }
    return PZ_OK;
}

/*
 * Builds r's table as build b and saves it. The built copy is kept (it
 * is anonymous memory, on huge pages for a huge table) when loads copy
 * or the table is huge; otherwise the saved file is mapped instead, so
 * processes share its pages. When it cannot be saved, the built copy is
 * kept. Returns PZ_OK with *out, PZ_ECANCELLED, PZ_ENOMEM or the build's
 * error; why gets a sentence on failure.
 */
static int
build_table(const table_recipe_t *r,
            tables_build_t *b,
            table_t **out,
            char *why,
            size_t len)
{
    table_recipe_t rr = *r;
    file_header_t h;
    struct timespec start;
    char path[TABLES_PATH_MAX];
    char swhy[TABLES_PATH_MAX + 256];
    uint8_t *data = NULL;
    size_t bytes = 0;
    size_t anon_len = 0;
    int max_value = 0;
    int rc;

    *out = NULL;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        bytes = tables_data_bytes(rr.entries, rr.bits);
        data = anon_alloc(bytes, rr.huge, &anon_len);
        if (data == NULL) {
            snprintf(why, len, "out of memory building the table (%zu bytes)",
                     bytes);
            return PZ_ENOMEM;
        }
        if (rr.build == NULL) {
            rc = rr.fill(rr.arg, data, rr.entries, b);
            max_value = (int)rr.version;
        } else {
            rc = rr.build(&rr, data, rr.bits, &max_value, b);
        }
        if (rc == PZ_ERANGE && rr.bits == 4 && rr.widen) {
            /* A distance passed 14: store a byte per entry instead. */
            munmap(data, anon_len);
            rr.bits = 8;
            continue;
        }
        break;
    }
    if (rc == PZ_OK && tables_build_cancelled(b)) {
        rc = PZ_ECANCELLED;
    }
    if (rc != PZ_OK) {
        munmap(data, anon_len);
        snprintf(why, len, "%s",
                 rc == PZ_ECANCELLED ? "the build was cancelled"
                                     : pz_errtitle(rc));
        return rc;
    }
    memset(&h, 0, sizeof(h));
    memcpy(h.magic, file_magic, sizeof(h.magic));
    h.version = TABLES_FORMAT_VERSION;
    h.header_bytes = sizeof(h);
    h.endian = ENDIAN_MARK;
    h.kind = (uint32_t)rr.kind;
    h.bits = (uint32_t)rr.bits;
    h.max_value =
        rr.kind == TABLES_KIND_MODULE ? rr.version : (uint32_t)max_value;
    h.entries = rr.entries;
    h.data_offset = DATA_OFFSET;
    h.data_bytes = bytes;
    h.checksum = tables__checksum(data, bytes);
    snprintf(h.puzzle, sizeof(h.puzzle), "%s", rr.puzzle);
    snprintf(h.name, sizeof(h.name), "%s", rr.name);
    h.header_sum = header_sum(&h);
    table_path(rr.name, path, sizeof(path));
    rc = save_file(path, &h, data, swhy, sizeof(swhy));
    if (rc != PZ_OK) {
        tables__log(TABLES_LOG_WARN, r->name,
                    "built in %.2f s but not saved (%s); kept in memory",
                    seconds_since(&start), swhy);
        return keep_built(&rr, &h, data, anon_len, out);
    }
    tables__log(TABLES_LOG_INFO, r->name,
                "built in %.2f s (%zu bytes, largest entry %d), saved to %s",
                seconds_since(&start), bytes,
                rr.kind == TABLES_KIND_MODULE ? -1 : max_value, path);
    if (rr.huge || atomic_load(&loads) == TABLES_LOADS_COPY) {
        return keep_built(&rr, &h, data, anon_len, out);
    }
    /* Just written and checksummed: map it without reading it again. */
    if (load_file(&rr, path, LOAD_MAP, NULL, out, swhy, sizeof(swhy)) ==
        PZ_OK) {
        munmap(data, anon_len);
        return PZ_OK;
    }
    return keep_built(&rr, &h, data, anon_len, out);
}

/* ------------------------------------------------------------------------ */
/* Registry and cache */

static pthread_once_t named_once = PTHREAD_ONCE_INIT;
static void register_named(void);

const table_t *
tables__cached(const char *name)
{
    int n = atomic_load_explicit(&nslots, memory_order_acquire);

    for (int i = 0; i < n; i++) {
        if (strcmp(slots[i].name, name) == 0) {
            return atomic_load_explicit(&slots[i].table, memory_order_acquire);
        }
    }
    return NULL;
}

/* The slot for name, or NULL. Called with lock held. */
static slot_t *
slot_of(const char *name)
{
    int n = atomic_load(&nslots);

    for (int i = 0; i < n; i++) {
        if (strcasecmp(slots[i].name, name) == 0) {
            return &slots[i];
        }
    }
    return NULL;
}

/* The slot of r, created (and r recorded) if needed; NULL when the
 * registry is full. Called with lock held. */
static slot_t *
slot_for(const table_recipe_t *r)
{
    slot_t *s = slot_of(r->name);
    int n;

    if (s != NULL) {
        if (!s->has_recipe) {
            s->recipe = *r;
            s->has_recipe = true;
        }
        return s;
    }
    n = atomic_load(&nslots);
    if (n == CACHE_MAX) {
        return NULL;
    }
    s = &slots[n];
    memset(s, 0, sizeof(*s));
    snprintf(s->name, sizeof(s->name), "%s", r->name);
    s->recipe = *r;
    s->has_recipe = true;
    s->state = TABLES_MISSING;
    atomic_store_explicit(&nslots, n + 1, memory_order_release);
    return s;
}

/* Sends the state change of table name to the hook. Called without the
 * lock. */
static void
notify_state(const char *name, int state)
{
    tables_state_fn fn;
    void *arg;

    pthread_mutex_lock(&lock);
    fn = state_fn;
    arg = state_arg;
    pthread_mutex_unlock(&lock);
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
        copy_str(s->why, sizeof(s->why), why);
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
    pthread_once(&named_once, register_named);
    pthread_mutex_lock(&lock);
    s = slot_for(r);
    if (s == NULL) {
        pthread_mutex_unlock(&lock);
        tables__log(TABLES_LOG_ERROR, r->name,
                    "too many tables known (at most %d)", CACHE_MAX);
        return PZ_ENOMEM;
    }
    if (!tables_may_prepare()) {
        pthread_mutex_unlock(&lock);
        return PZ_ETABLE_MISSING;
    }
    while (s->busy) {
        pthread_cond_wait(&built_cond, &lock);
    }
    t = atomic_load(&s->table);
    if (t != NULL) {
        pthread_mutex_unlock(&lock);
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
    pthread_mutex_unlock(&lock);
    notify_state(r->name, TABLES_LOADING);

    table_path(r->name, path, sizeof(path));
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
        int how = atomic_load(&loads);

        rc = load_file(r, path,
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
        pthread_mutex_lock(&lock);
        s->state = TABLES_BUILDING;
        s->began_ns = pz_now_ns();
        atomic_store(&s->done, 0);
        atomic_store(&s->total, 0);
        pthread_mutex_unlock(&lock);
        notify_state(r->name, TABLES_BUILDING);
        build_begin(&b, s);
        rc = build_table(r, &b, &made, why, sizeof(why));
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

    pthread_mutex_lock(&lock);
    finish_locked(s, made, rc, state_after, why);
    pthread_mutex_unlock(&lock);
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

    table_path(r->name, path, sizeof(path));
    return access(path, R_OK) == 0;
}

void
tables_unload_all(void)
{
    int n;

    pthread_mutex_lock(&lock);
    n = atomic_load(&nslots);
    for (int i = 0; i < n; i++) {
        table_free((table_t *)atomic_load(&slots[i].table));
        atomic_store(&slots[i].table, NULL);
        slots[i].state = TABLES_MISSING;
        slots[i].rc = PZ_OK;
        slots[i].why[0] = '\0';
    }
    atomic_store(&memory_bytes, 0);
    pthread_mutex_unlock(&lock);
}

/* ------------------------------------------------------------------------ */
/* Named tables */

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
    copy_str(r->name, sizeof(r->name), def->name);
    copy_str(r->group, sizeof(r->group),
             def->group != NULL ? def->group : "other");
    copy_str(r->puzzle, sizeof(r->puzzle),
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

static tables_named_fn named_fn; /* set before named_once runs */

void
tables_set_named(tables_named_fn fn)
{
    named_fn = fn;
}

static int nnamed; /* the first nnamed slots are the named tables */

/* Registers the named tables first, in list order. */
static void
register_named(void)
{
    static table_recipe_t r[RECIPES_MAX];
    int n = named_fn != NULL ? named_fn(r, RECIPES_MAX) : 0;

    pthread_mutex_lock(&lock);
    for (int i = 0; i < n && i < RECIPES_MAX; i++) {
        if (def_ok(&r[i]) && slot_for(&r[i]) != NULL) {
            nnamed++;
        }
    }
    pthread_mutex_unlock(&lock);
}

const char *
tables_register(const tables_def_t *def)
{
    slot_t *s;

    if (!def_ok(def)) {
        return NULL;
    }
    pthread_once(&named_once, register_named);
    pthread_mutex_lock(&lock);
    s = slot_for(def);
    pthread_mutex_unlock(&lock);
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
        header_ok(&h, r, (uint64_t)st.st_size, why, sizeof(why))) {
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

    pthread_once(&named_once, register_named);
    n = nnamed;
    for (int i = 0; i < n && i < max; i++) {
        const table_recipe_t *r = &slots[i].recipe;
        tables_info_t *o = &out[i];

        memset(o, 0, sizeof(*o));
        copy_str(o->name, sizeof(o->name), r->name);
        copy_str(o->group, sizeof(o->group), r->group);
        copy_str(o->puzzle, sizeof(o->puzzle), r->puzzle);
        o->entries = r->entries;
        o->bytes = DATA_OFFSET + tables_data_bytes(r->entries, r->bits);
        o->startup = r->startup;
        o->module = r->kind == TABLES_KIND_MODULE;
        o->loaded = atomic_load(&slots[i].table) != NULL;
        table_path(r->name, o->path, sizeof(o->path));
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

    pthread_once(&named_once, register_named);
    pthread_mutex_lock(&lock);
    s = slot_of(name);
    if (s != NULL && s->has_recipe) {
        *r = s->recipe;
        found = true;
    }
    pthread_mutex_unlock(&lock);
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
    pthread_mutex_lock(&lock);
    r = &s->recipe;
    copy_str(o->name, sizeof(o->name), s->name);
    copy_str(o->group, sizeof(o->group), r->group);
    copy_str(o->puzzle, sizeof(o->puzzle), r->puzzle);
    o->bytes = tables_data_bytes(r->entries, r->bits);
    o->startup = r->startup;
    o->state = s->state;
    o->rc = s->rc;
    copy_str(o->why, sizeof(o->why), s->why);
    busy = s->busy;
    queued = s->queued;
    o->seconds = busy ? (double)(pz_now_ns() - s->began_ns) / 1e9 : s->seconds;
    if (busy) {
        o->done = atomic_load(&s->done);
        o->total = atomic_load(&s->total);
    }
    pthread_mutex_unlock(&lock);
    if (atomic_load(&s->table) != NULL) {
        o->state = TABLES_READY;
        o->file = true; /* it was loaded from, or saved to, a file */
        return;
    }
    if (!busy && check_file) {
        table_path(o->name, path, sizeof(path));
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

    pthread_once(&named_once, register_named);
    pthread_mutex_lock(&lock);
    s = slot_of(name);
    if (s != NULL) {
        s->queued = on;
    }
    pthread_mutex_unlock(&lock);
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

size_t
tables_memory_limit(void)
{
    return atomic_load(&memory_limit);
}

int
tables_status(const char *name, tables_status_t *out)
{
    slot_t *s;

    pthread_once(&named_once, register_named);
    pthread_mutex_lock(&lock);
    s = slot_of(name);
    pthread_mutex_unlock(&lock);
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

    pthread_once(&named_once, register_named);
    n = atomic_load_explicit(&nslots, memory_order_acquire);
    for (int i = 0; i < n && i < max; i++) {
        status_of(&slots[i], true, &out[i]);
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
    table_path(r.name, path, sizeof(path));
    rc = load_file(&r, path, LOAD_VERIFY, NULL, &t, why, len);
    table_free(t);
    return rc;
}
