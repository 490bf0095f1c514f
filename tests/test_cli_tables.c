/* SPDX-License-Identifier: MIT */
/* test_cli_tables.c - `puzzled tables build|list|verify|stats` through the
 * real binary, each test in a fresh temporary table directory. */

/*
 * Golden facts: the published 2x2x2 HTM and pyraminx (tipless)
 * distributions, which `tables stats` must print line by line.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "tmpdir_testlib.h"

static const char *ref_cube2_htm = "0 1\n1 9\n2 54\n3 321\n4 1847\n5 9992\n"
                                   "6 50136\n7 227536\n8 870072\n9 1887748\n"
                                   "10 623800\n11 2644\n";
static const char *ref_pyraminx = "0 1\n1 8\n2 48\n3 288\n4 1728\n5 9896\n"
                                  "6 51808\n7 220111\n8 480467\n9 166276\n"
                                  "10 2457\n11 32\n";

static char dir[64];

/* Runs `puzzled tables ARGS --dir <dir>`; stderr goes to out too when
 * with_err. Returns the exit code and the first cap-1 bytes of output. */
static int
run(const char *args, bool with_err, char *out, size_t cap)
{
    char cmd[2048];
    FILE *f;
    size_t n;
    int status;

    snprintf(cmd, sizeof(cmd), "%s tables %s --dir %s %s", PZ_BINARY, args, dir,
             with_err ? "2>&1" : "2>/dev/null");
    f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    status = pclose(f);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

static void
setup(void)
{
    tmpdir_make(dir, sizeof(dir), "pz-clitables");
}

static void
teardown(void)
{
    tmpdir_remove(dir);
}

/* The line of out that starts with name, copied into line. */
static bool
line_of(const char *out, const char *name, char *line, size_t len)
{
    size_t n = strlen(name);

    for (const char *p = out; p != NULL && *p != '\0';) {
        const char *end = strchr(p, '\n');
        size_t l = end != NULL ? (size_t)(end - p) : strlen(p);

        if (l > n && strncmp(p, name, n) == 0 && p[n] == ' ') {
            snprintf(line, len, "%.*s", (int)l, p);
            return true;
        }
        p = end != NULL ? end + 1 : NULL;
    }
    return false;
}

START_TEST(test_cli_tables_build_then_load)
{
    static char out[8192];
    char line[512];

    ck_assert_int_eq(run("build 8-puzzle", false, out, sizeof(out)), 0);
    ck_assert_msg(line_of(out, "tiles-3x3", line, sizeof(line)), "%s", out);
    ck_assert_msg(strstr(line, " built ") != NULL, "%s", line);
    ck_assert_int_eq(run("build tiles-3x3", false, out, sizeof(out)), 0);
    ck_assert(line_of(out, "tiles-3x3", line, sizeof(line)));
    ck_assert_msg(strstr(line, " loaded ") != NULL, "%s", line);
}
END_TEST

/* Occurrences of needle in hay. */
static int
count_of(const char *hay, const char *needle)
{
    int n = 0;

    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++) {
        n++;
    }
    return n;
}

/* Without a terminal, `build` prints one line per table and nothing else
 * about it (no notes on stderr), each table once. */
START_TEST(test_cli_tables_build_names_each_table_once)
{
    static char out[16384];
    static const char *const names[] = { "tiles-3x3", "2x2x2-htm",
                                         "2x2x2-qtm" };

    ck_assert_int_eq(run("build 8-puzzle 2x2x2", true, out, sizeof(out)), 0);
    for (int i = 0; i < 3; i++) {
        char line[512];

        ck_assert_msg(line_of(out, names[i], line, sizeof(line)), "%s", out);
        /* The name, then the path of its file: two mentions, one line. */
        ck_assert_msg(count_of(out, names[i]) == 2, "%s\n%s", names[i], out);
    }
    ck_assert_msg(strstr(out, "note") == NULL, "%s", out);
}
END_TEST

/* The start-up tables (what `build` without names and the daemon's warm
 * start build): the complete tables and the two-phase tables, and nothing
 * larger. */
START_TEST(test_cli_tables_list_marks_startup_tables)
{
    static char out[16384];
    static const char *const startup[] = { "tiles-3x3", "2x2x2-htm",
                                           "2x2x2-qtm", "pyraminx",
                                           "skewb",     "3x3x3-twophase" };
    static const char *const other[] = { "tiles-4x4-pdb8-ff-z8",
                                         "3x3x3-pdb-csplit-htm",
                                         "master-pyraminx-pdb-wings" };

    ck_assert_int_eq(run("list", false, out, sizeof(out)), 0);
    for (int i = 0; i < 6; i++) {
        char line[512];

        ck_assert_msg(line_of(out, startup[i], line, sizeof(line)), "%s", out);
        ck_assert_msg(strstr(line, " no    yes ") != NULL, "%s", line);
    }
    for (int i = 0; i < 3; i++) {
        char line[512];

        ck_assert_msg(line_of(out, other[i], line, sizeof(line)), "%s", out);
        ck_assert_msg(strstr(line, " no    no ") != NULL, "%s", line);
    }
}
END_TEST

START_TEST(test_cli_tables_list_shows_what_is_built)
{
    static char out[16384];
    char line[512];

    ck_assert_int_eq(run("build pyraminx", false, out, sizeof(out)), 0);
    ck_assert_int_eq(run("list", false, out, sizeof(out)), 0);
    ck_assert(strstr(out, dir) != NULL);
    ck_assert_msg(line_of(out, "pyraminx", line, sizeof(line)), "%s", out);
    ck_assert_msg(strstr(line, " yes ") != NULL, "%s", line);
    ck_assert(line_of(out, "2x2x2-htm", line, sizeof(line)));
    ck_assert_msg(strstr(line, " no ") != NULL, "%s", line);
}
END_TEST

START_TEST(test_cli_tables_verify_finds_corruption)
{
    static char out[8192];
    char path[256];
    FILE *f;
    int c;

    ck_assert_int_eq(run("build 8-puzzle", false, out, sizeof(out)), 0);
    ck_assert_int_eq(run("verify 8-puzzle", false, out, sizeof(out)), 0);
    ck_assert_msg(strstr(out, " ok ") != NULL, "%s", out);
    snprintf(path, sizeof(path), "%s/tiles-3x3.pzt", dir);
    f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, 4096 + 5000, SEEK_SET), 0);
    c = fgetc(f);
    ck_assert_int_eq(fseek(f, 4096 + 5000, SEEK_SET), 0);
    fputc(c ^ 0x04, f);
    fclose(f);
    ck_assert_int_ne(run("verify 8-puzzle", false, out, sizeof(out)), 0);
    ck_assert_msg(strstr(out, "CORRUPT") != NULL, "%s", out);
    ck_assert_msg(strstr(out, "checksum") != NULL, "%s", out);
    /* A build replaces the damaged file. */
    ck_assert_int_eq(run("build 8-puzzle", false, out, sizeof(out)), 0);
    ck_assert_int_eq(run("verify 8-puzzle", false, out, sizeof(out)), 0);
}
END_TEST

START_TEST(test_cli_tables_stats_match_depths)
{
    static char out[8192];

    ck_assert_int_eq(
        run("stats --puzzle 2x2x2 --metric htm", false, out, sizeof(out)), 0);
    ck_assert_str_eq(out, ref_cube2_htm);
    ck_assert_int_eq(run("stats --puzzle pyraminx", false, out, sizeof(out)),
                     0);
    ck_assert_str_eq(out, ref_pyraminx);
}
END_TEST

START_TEST(test_cli_tables_unknown_name_exits_2)
{
    static char out[8192];

    ck_assert_int_eq(run("build nosuch", true, out, sizeof(out)), 2);
    ck_assert_msg(strstr(out, "unknown table 'nosuch'") != NULL, "%s", out);
}
END_TEST

START_TEST(test_cli_tables_stats_without_complete_table_exits_2)
{
    static char out[8192];

    ck_assert_int_eq(run("stats --puzzle 15-puzzle", true, out, sizeof(out)),
                     2);
    ck_assert_msg(strstr(out, "no complete table") != NULL, "%s", out);
}
END_TEST

static Suite *
cli_tables_suite(void)
{
    Suite *s = suite_create("cli_tables");
    TCase *tc = tcase_create("tables");

    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_cli_tables_build_then_load);
    tcase_add_test(tc, test_cli_tables_list_shows_what_is_built);
    tcase_add_test(tc, test_cli_tables_build_names_each_table_once);
    tcase_add_test(tc, test_cli_tables_list_marks_startup_tables);
    tcase_add_test(tc, test_cli_tables_verify_finds_corruption);
    tcase_add_test(tc, test_cli_tables_stats_match_depths);
    tcase_add_test(tc, test_cli_tables_unknown_name_exits_2);
    tcase_add_test(tc, test_cli_tables_stats_without_complete_table_exits_2);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(cli_tables_suite());
    int failed;

    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
