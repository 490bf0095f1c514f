/* SPDX-License-Identifier: MIT */
/* web.h - the playground's static files, read into memory at start and
 * served by GET /, /docs and /assets/<name>. */
#ifndef PZ_SERVER_WEB_H
#define PZ_SERVER_WEB_H

#include <stdbool.h>
#include <stddef.h>

/* Most files and bytes a page directory may hold. */
#define WEB_FILES_MAX 256
#define WEB_BYTES_MAX ((size_t)64 << 20)

/* One file as it is served. */
typedef struct web_file {
    char *path; /* the URL path: "/", "/docs", "/assets/app-X.js" */
    char *data; /* the bytes */
    size_t len;
    const char *ctype; /* Content-Type */
    bool immutable;    /* a hashed asset: cached for a year */
} web_file_t;

typedef struct web web_t;

/*
 * The page directory the daemon serves when --web names none: "web"
 * beside the executable (a build tree), else "../share/puzzled/web" from
 * it (an installed tree), the first that has an index.html. Writes it to
 * out and returns true, or false when there is none. Thread: main.
 */
bool web_default_dir(char *out, size_t cap);

/*
 * Reads dir: index.html (served at /), docs.html (/docs) and the regular
 * files of dir/assets (/assets/<name>, no subfolders). Returns PZ_OK with
 * *out (web_free), PZ_EIO with errno when dir or index.html cannot be
 * read, or PZ_ETOO_LARGE past the WEB_* limits. Thread: main.
 */
int web_load(const char *dir, web_t **out);

/* The file served at path, or NULL. Thread: any. */
const web_file_t *web_find(const web_t *w, const char *path);

/* The number of files and their bytes, for the start-up log. */
void web_size(const web_t *w, size_t *files, size_t *bytes);

void web_free(web_t *w);

#endif
