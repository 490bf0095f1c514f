/* SPDX-License-Identifier: MIT */
/* tables_file.c - table files: their format and checksum, loading,
 * saving, and building a table into one. */

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
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS, MADV_HUGEPAGE */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tables_internal.h"

#define ENDIAN_MARK 0x01020304u

static const char file_magic[8] = { 'P', 'Z', 'T', 'A', 'B', 'L', 'E', '\n' };

/* Numbers the temporary files of this process. Guarded by tables__lock. */
static unsigned tmp_counter;

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
bool
tables__header_ok(const file_header_t *h,
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

/* Bytes read per step of a copy: the progress granularity. */
#define COPY_STEP ((size_t)64 << 20)

/*
 * Copies the entries of the open file fd (header h, checked) into
 * anonymous memory made read-only, checking their checksum on the way:
 * the copy never changes, whatever happens to the file afterwards
 * (truncated, replaced or deleted), where a mapping of a truncated file
 * faults with SIGBUS. A huge table's copy is on huge pages. Closes fd.
 * Same results as tables__load_file.
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

/*
 * Loads the file at path as r's table: the header and the file size are
 * always checked; how = LOAD_MAP maps the file trusting its entries (a
 * short command reads only the pages it needs), LOAD_VERIFY maps it and
 * checks the entries' checksum, LOAD_COPY copies the entries (copy_file).
 * Returns PZ_OK with *out (owned), PZ_ENOT_FOUND when there is no file,
 * PZ_EIO with why otherwise.
 */
int
tables__load_file(const table_recipe_t *r,
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
    if (!tables__header_ok(&h, r, (uint64_t)st.st_size, why, len)) {
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
void
tables__table_free(table_t *t)
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

/* A temporary table file untouched this long is a killed save's. */
#define STALE_TEMPORARY_S (24 * 3600)

/*
 * Removes the temporary files "<path>.<pid>.<k>.tmp" that a process killed
 * while saving left in dir, for a process that no longer exists or untouched
 * for STALE_TEMPORARY_S: a killed save of a 2.6 GB table would otherwise
 * keep its disk for good. A live process's recent file (another build of
 * the same table under way) stays.
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
        struct stat st;
        char *end;
        long pid;

        if (len <= blen + 5 || strncmp(name, base, blen) != 0 ||
            name[blen] != '.' || strcmp(name + len - 4, ".tmp") != 0) {
            continue;
        }
        pid = strtol(name + blen + 1, &end, 10);
        if (end == name + blen + 1 || *end != '.' || pid <= 0) {
            continue;
        }
        snprintf(stale, sizeof(stale), "%s/%s", dir, name);
        /* A process that no longer exists; or, since processes in
         * containers sharing the directory all see their own pid 1, a
         * file no save has written to for a day. */
        if ((pid != (long)getpid() && kill((pid_t)pid, 0) != 0 &&
             errno == ESRCH) ||
            (stat(stale, &st) == 0 &&
             st.st_mtime < time(NULL) - STALE_TEMPORARY_S)) {
            (void)unlink(stale);
        }
    }
    closedir(d);
}

/* GCC, once it inlines this into the external tables__build_table and
 * sees its buffer sizes, warns that the rename message may be cut: it
 * may, on purpose (why is a bounded message). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

/* Temporary names a save tries before it gives up. */
#define TMP_NAMES_MAX 1000u

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
    /* Processes in containers that share the table directory may all be
     * pid 1, and a killed one's file may still be there: a name taken is
     * skipped for the next. */
    do {
        pthread_mutex_lock(&tables__lock);
        k = tmp_counter++;
        pthread_mutex_unlock(&tables__lock);
        snprintf(tmp, sizeof(tmp), "%s.%ld.%u.tmp", path, (long)getpid(), k);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    } while (fd < 0 && errno == EEXIST && k < TMP_NAMES_MAX);
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

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

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
int
tables__build_table(const table_recipe_t *r,
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
    tables__table_path(rr.name, path, sizeof(path));
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
    if (rr.huge || atomic_load(&tables__loads) == TABLES_LOADS_COPY) {
        return keep_built(&rr, &h, data, anon_len, out);
    }
    /* Just written and checksummed: map it without reading it again. */
    if (tables__load_file(&rr, path, LOAD_MAP, NULL, out, swhy, sizeof(swhy)) ==
        PZ_OK) {
        munmap(data, anon_len);
        return PZ_OK;
    }
    return keep_built(&rr, &h, data, anon_len, out);
}
