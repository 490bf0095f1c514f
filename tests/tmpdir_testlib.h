/* SPDX-License-Identifier: MIT */
/* tmpdir_testlib.h - temporary directories for the table tests. */
#ifndef PZ_TESTS_TMPDIR_TESTLIB_H
#define PZ_TESTS_TMPDIR_TESTLIB_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <check.h>

/* Makes a fresh directory /tmp/<prefix>-XXXXXX into buf (len bytes). */
static inline void
tmpdir_make(char *buf, size_t len, const char *prefix)
{
    snprintf(buf, len, "/tmp/%s-XXXXXX", prefix);
    ck_assert_ptr_nonnull(mkdtemp(buf));
}

/* Removes every file in dir, then dir (the tests make no subdirectories). */
static inline void
tmpdir_remove(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];

    if (d == NULL) {
        return;
    }
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            unlink(path);
        }
    }
    closedir(d);
    rmdir(dir);
}

#endif
