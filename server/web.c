/* SPDX-License-Identifier: MIT */
/* web.c - the playground's static files.
 *
 * Everything is read at start: a request never touches the file system,
 * so no path a client sends can reach a file outside the table below, and
 * a reply is a pointer into memory. The page is small (a few MB). */
#define _DEFAULT_SOURCE /* realpath */

#include "web.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pz_error.h"

struct web {
    web_file_t files[WEB_FILES_MAX];
    size_t nfiles;
    size_t bytes;
};

static const struct {
    const char *ext;
    const char *ctype;
} ctypes[] = {
    { ".html", "text/html; charset=utf-8" },
    { ".js", "text/javascript; charset=utf-8" },
    { ".mjs", "text/javascript; charset=utf-8" },
    { ".css", "text/css; charset=utf-8" },
    { ".json", "application/json" },
    { ".map", "application/json" },
    { ".svg", "image/svg+xml" },
    { ".png", "image/png" },
    { ".ico", "image/x-icon" },
    { ".woff2", "font/woff2" },
    { ".woff", "font/woff" },
    { ".txt", "text/plain; charset=utf-8" },
    { NULL, NULL },
};

static const char *
ctype_of(const char *name)
{
    const char *dot = strrchr(name, '.');

    for (int i = 0; dot != NULL && ctypes[i].ext != NULL; i++) {
        if (strcmp(dot, ctypes[i].ext) == 0) {
            return ctypes[i].ctype;
        }
    }
    return "application/octet-stream";
}

/* A bundler's hashed name: a dash and at least eight letters or digits
 * before the extension ("app-5XK2Q3ZD.js"). Such a file never changes. */
static bool
hashed(const char *name)
{
    const char *dot = strrchr(name, '.');
    const char *dash;
    size_t n;

    if (dot == NULL) {
        return false;
    }
    for (dash = dot; dash > name && dash[-1] != '-'; dash--) {
    }
    n = (size_t)(dot - dash);
    if (dash == name || n < 8) {
        return false;
    }
    for (const char *p = dash; p < dot; p++) {
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
              (*p >= 'A' && *p <= 'Z'))) {
            return false;
        }
    }
    return true;
}

/* Reads the regular file path as the file served at url. */
static int
add_file(web_t *w, const char *path, const char *url, bool immutable)
{
    web_file_t *f;
    struct stat st;
    FILE *in;

    if (w->nfiles == WEB_FILES_MAX) {
        return PZ_ETOO_LARGE;
    }
    in = fopen(path, "rb");
    if (in == NULL) {
        return PZ_EIO;
    }
    if (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(in);
        errno = EISDIR;
        return PZ_EIO;
    }
    if ((size_t)st.st_size > WEB_BYTES_MAX - w->bytes) {
        fclose(in);
        return PZ_ETOO_LARGE;
    }
    f = &w->files[w->nfiles];
    f->len = (size_t)st.st_size;
    f->data = malloc(f->len + 1);
    f->path = strdup(url);
    if (f->data == NULL || f->path == NULL ||
        fread(f->data, 1, f->len, in) != f->len) {
        free(f->data);
        free(f->path);
        fclose(in);
        return f->data == NULL || f->path == NULL ? PZ_ENOMEM : PZ_EIO;
    }
    fclose(in);
    f->ctype = ctype_of(path);
    f->immutable = immutable;
    w->nfiles++;
    w->bytes += f->len;
    return PZ_OK;
}

/* The regular files of dir/assets, as /assets/<name>. */
static int
add_assets(web_t *w, const char *dir)
{
    char path[PATH_MAX];
    char url[PATH_MAX];
    struct dirent *e;
    DIR *d;
    int rc = PZ_OK;

    snprintf(path, sizeof(path), "%s/assets", dir);
    d = opendir(path);
    if (d == NULL) {
        return errno == ENOENT ? PZ_OK : PZ_EIO;
    }
    while (rc == PZ_OK && (e = readdir(d)) != NULL) {
        struct stat st;

        if (e->d_name[0] == '.' ||
            snprintf(path, sizeof(path), "%s/assets/%s", dir, e->d_name) >=
                (int)sizeof(path) ||
            stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
            continue;
        }
        snprintf(url, sizeof(url), "/assets/%s", e->d_name);
        rc = add_file(w, path, url, hashed(e->d_name));
    }
    closedir(d);
    return rc;
}

int
web_load(const char *dir, web_t **out)
{
    char path[PATH_MAX];
    web_t *w = calloc(1, sizeof(*w));
    int rc;

    *out = NULL;
    if (w == NULL) {
        return PZ_ENOMEM;
    }
    snprintf(path, sizeof(path), "%s/index.html", dir);
    rc = add_file(w, path, "/", false);
    if (rc == PZ_OK) {
        snprintf(path, sizeof(path), "%s/docs.html", dir);
        rc = add_file(w, path, "/docs", false);
        if (rc == PZ_EIO && errno == ENOENT) {
            rc = PZ_OK; /* a page without the reference */
        }
    }
    if (rc == PZ_OK) {
        rc = add_assets(w, dir);
    }
    if (rc != PZ_OK) {
        int e = errno;

        web_free(w);
        errno = e;
        return rc;
    }
    *out = w;
    return PZ_OK;
}

const web_file_t *
web_find(const web_t *w, const char *path)
{
    for (size_t i = 0; w != NULL && i < w->nfiles; i++) {
        if (strcmp(w->files[i].path, path) == 0) {
            return &w->files[i];
        }
    }
    return NULL;
}

void
web_size(const web_t *w, size_t *files, size_t *bytes)
{
    *files = w != NULL ? w->nfiles : 0;
    *bytes = w != NULL ? w->bytes : 0;
}

/* True when dir/index.html is a readable regular file. */
static bool
has_index(const char *dir)
{
    char path[PATH_MAX];
    struct stat st;

    return snprintf(path, sizeof(path), "%s/index.html", dir) <
               (int)sizeof(path) &&
           stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           access(path, R_OK) == 0;
}

bool
web_default_dir(char *out, size_t cap)
{
    static const char *const beside[] = { "web", "../share/puzzled/web", NULL };
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    char *slash;

    if (n <= 0) {
        return false;
    }
    exe[n] = '\0';
    slash = strrchr(exe, '/');
    if (slash == NULL) {
        return false;
    }
    *slash = '\0';
    for (int i = 0; beside[i] != NULL; i++) {
        char dir[PATH_MAX];
        char real[PATH_MAX];

        if (snprintf(dir, sizeof(dir), "%s/%s", exe, beside[i]) <
                (int)sizeof(dir) &&
            has_index(dir) && realpath(dir, real) != NULL &&
            snprintf(out, cap, "%s", real) < (int)cap) {
            return true;
        }
    }
    return false;
}

void
web_free(web_t *w)
{
    if (w == NULL) {
        return;
    }
    for (size_t i = 0; i < w->nfiles; i++) {
        free(w->files[i].path);
        free(w->files[i].data);
    }
    free(w);
}
