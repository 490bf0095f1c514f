/* SPDX-License-Identifier: MIT */
/* test_server_hostile.c - hostile HTTP requests, kept as data in the
 * files of tests/hostile, sent over a raw socket to a real daemon. */

/*
 * Every file of tests/hostile is a group of cases; one daemon
 * (srv_testlib.h) serves a whole group. The format is described at the top
 * of each file: a case is its name, the raw bytes it sends (with escapes,
 * so invalid UTF-8, NULs and CR/LF games can be written), the status it
 * must get (one of a set), the problem code of an error, and flags.
 *
 * Every response is checked: the status; the body is strictly valid UTF-8;
 * an error is application/problem+json whose body parses and has the
 * strings type, title, code (the expected one) and detail and the number
 * status (the HTTP status); a case flagged close or known: mhd-html has its
 * connection closed after the response and nothing more sent; no response
 * takes longer than CASE_TIMEOUT_MS (poll deadlines, never sleeps). After
 * each group the daemon still answers /healthz, and it then exits 0 on
 * SIGTERM (a sanitizer report makes it exit otherwise).
 *
 * Some requests are answered by libmicrohttpd itself, and MHD 0.9.75 has
 * no hook for them. A case keeps the status the contract (or RFC 9112)
 * asks for and carries a mark that says how MHD differs: "known:
 * mhd-html", an HTML body (a request line it cannot parse, 505, 414, 431,
 * a bad Content-Length): the status and the closed connection are
 * checked, the body only for UTF-8; "known: mhd-silent", the connection
 * closed without an answer; "known: mhd-lenient", a request read that
 * should be refused: another status is reported, not failed. A marked
 * case answered as expected after all is reported too, so the mark can
 * go.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "srv_testlib.h"

#define HOSTILE_DIR PZ_SOURCE_DIR "/tests/hostile"

/* No response may take longer (the daemon's own idle timeout is 10 s). */
#define CASE_TIMEOUT_MS 5000

/* The catalogue holds at least this many cases. */
#define CASES_MIN 250

#define GROUPS_MAX   32
#define STATUSES_MAX 4
#define HEADERS_MAX  4

/* --- the catalogue --- */

/* The known: marks. */
enum {
    MARK_NONE = 0,
    MARK_HTML,    /* mhd-html: answered with an HTML body */
    MARK_SILENT,  /* mhd-silent: closed without an answer */
    MARK_LENIENT, /* mhd-lenient: read where it should be refused */
};

static const char *const mark_names[] = { "", "mhd-html", "mhd-silent",
                                          "mhd-lenient", NULL };

typedef struct buf {
    char *p; /* NUL-terminated */
    size_t len;
    size_t cap;
} buf_t;

typedef struct hcase {
    char name[64];
    int line; /* of its "case:" line */
    buf_t req;
    buf_t body;     /* json: the body */
    bool json;      /* send body as POST path with its framing */
    char path[256]; /* json: the target */
    int statuses[STATUSES_MAX];
    int nstatuses;  /* 0: not given yet */
    bool none;      /* expect: none (no response, connection closed) */
    char code[48];  /* expected problem code, "" for none */
    char field[64]; /* expected problem field, "" for not checked */
    char headers[HEADERS_MAX][128]; /* "Name: text" */
    int nheaders;
    bool close; /* the server closes after the response */
    int mark;   /* MARK_*: how libmicrohttpd answers instead */
} hcase_t;

typedef struct group {
    char name[64];
    char path[512];
    hcase_t *cases;
    int n;
    bool uses_job; /* some case has {{job}} */
} group_t;

static char g_groups[GROUPS_MAX][64];
static int g_ngroups;

static void
buf_add(buf_t *b, const void *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap == 0 ? 256 : b->cap;

        while (b->len + n + 1 > cap) {
            cap *= 2;
        }
        b->p = realloc(b->p, cap);
        ck_assert_ptr_nonnull(b->p);
        b->cap = cap;
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void
buf_free(buf_t *b)
{
    free(b->p);
    memset(b, 0, sizeof(*b));
}

static int
hexval(int c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * Appends text with its escapes resolved to b: \r \n \t \0 \\ \s (a
 * space, for one at either end of a line) \xNN, and {{job}} for job; a
 * backslash before any other character is sent as it is. Returns NULL, or
 * what is wrong.
 */
static const char *
unescape_into(buf_t *b, const char *text, const char *job)
{
    for (const char *t = text; *t != '\0'; t++) {
        char ch = *t;

        if (strncmp(t, "{{job}}", 7) == 0) {
            buf_add(b, job, strlen(job));
            t += 6;
            continue;
        }
        if (ch != '\\') {
            buf_add(b, &ch, 1);
            continue;
        }
        switch (*++t) {
        case 'r':
            ch = '\r';
            break;
        case 'n':
            ch = '\n';
            break;
        case 't':
            ch = '\t';
            break;
        case '0':
            ch = '\0';
            break;
        case 's':
            ch = ' ';
            break;
        case '\\':
            ch = '\\';
            break;
        case 'x':
            if (hexval(t[1]) < 0 || hexval(t[2]) < 0) {
                return "\\x needs two hex digits";
            }
            ch = (char)(hexval(t[1]) * 16 + hexval(t[2]));
            t += 2;
            break;
        case '\0':
            return "a backslash ends the line";
        default:
            /* Sent as it is: JSON escapes need no doubling. */
            buf_add(b, t - 1, 1);
            ch = *t;
            break;
        }
        buf_add(b, &ch, 1);
    }
    return NULL;
}

/* Parses "expect: STATUS[|STATUS...] [CODE]" or "expect: none". */
static const char *
parse_expect(hcase_t *c, const char *v)
{
    char *end;

    if (strcmp(v, "none") == 0) {
        c->none = true;
        c->nstatuses = 1;
        c->statuses[0] = 0;
        return NULL;
    }
    for (;;) {
        long st = strtol(v, &end, 10);

        if (end == v || st < 100 || st > 599 || c->nstatuses >= STATUSES_MAX) {
            return "expect: a status from 100 to 599, statuses joined by |";
        }
        c->statuses[c->nstatuses++] = (int)st;
        v = end;
        if (*v != '|') {
            break;
        }
        v++;
    }
    while (*v == ' ') {
        v++;
    }
    if (strlen(v) >= sizeof(c->code) || strchr(v, ' ') != NULL) {
        return "expect: one code after the statuses";
    }
    strcpy(c->code, v);
    return NULL;
}

/* Builds the request of a json case: POST path with its framing. */
static void
finish_json(hcase_t *c)
{
    char head[512];
    int n = snprintf(head, sizeof(head),
                     "POST %s HTTP/1.1\r\nHost: hostile.test\r\n"
                     "Content-Type: application/json\r\n"
                     "Content-Length: %zu\r\nConnection: close\r\n\r\n",
                     c->path[0] != '\0' ? c->path : "/v1/solve", c->body.len);

    ck_assert_int_lt(n, (int)sizeof(head));
    buf_add(&c->req, head, (size_t)n);
    buf_add(&c->req, c->body.p != NULL ? c->body.p : "", c->body.len);
}

/* Checks a finished case; returns NULL or what is wrong. */
static const char *
finish_case(hcase_t *c)
{
    bool error = false;

    if (c->nstatuses == 0) {
        return "no expect: line";
    }
    if (c->json && c->req.len > 0) {
        return "a case either sends raw bytes or has a json body";
    }
    if (c->path[0] != '\0' && !c->json) {
        return "path: is for a json: case";
    }
    if (c->json) {
        finish_json(c);
    }
    if (c->req.len == 0) {
        return "nothing to send";
    }
    for (int i = 0; i < c->nstatuses; i++) {
        error = error || c->statuses[i] >= 400;
    }
    if (error && c->mark == MARK_NONE && c->code[0] == '\0') {
        return "an error status needs its problem code";
    }
    if (c->none && (c->code[0] != '\0' || c->mark != MARK_NONE)) {
        return "expect: none takes no code and no known: mark";
    }
    return NULL;
}

static bool
valid_name(const char *s)
{
    if (*s == '\0') {
        return false;
    }
    for (; *s != '\0'; s++) {
        if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) &&
            *s != '_' && *s != '-') {
            return false;
        }
    }
    return true;
}

/* The value of one line of the case c; NULL or what is wrong. */
static const char *
case_line(hcase_t *c, const char *key, const char *v, const char *job)
{
    if (strcmp(key, "send") == 0) {
        return unescape_into(&c->req, v, job);
    }
    if (strcmp(key, "repeat") == 0) {
        char *end;
        long n = strtol(v, &end, 10);

        if (end == v || n < 1 || n > 1000000 || *end != ' ') {
            return "repeat: COUNT TEXT";
        }
        for (long i = 0; i < n; i++) {
            const char *why =
                unescape_into(c->json ? &c->body : &c->req, end + 1, job);

            if (why != NULL) {
                return why;
            }
        }
        return NULL;
    }
    if (strcmp(key, "json") == 0) {
        c->json = true;
        return unescape_into(&c->body, v, job);
    }
    if (strcmp(key, "path") == 0) {
        buf_t p = { 0 };
        const char *why = unescape_into(&p, v, job);

        if (why == NULL && p.len >= sizeof(c->path)) {
            why = "path: too long";
        }
        if (why == NULL) {
            memcpy(c->path, p.p, p.len + 1);
        }
        buf_free(&p);
        return why;
    }
    if (strcmp(key, "expect") == 0) {
        return c->nstatuses != 0 ? "expect: given twice" : parse_expect(c, v);
    }
    if (strcmp(key, "field") == 0) {
        if (strlen(v) >= sizeof(c->field)) {
            return "field: too long";
        }
        strcpy(c->field, v);
        return NULL;
    }
    if (strcmp(key, "header") == 0) {
        if (c->nheaders >= HEADERS_MAX || strlen(v) >= sizeof(c->headers[0]) ||
            strstr(v, ": ") == NULL) {
            return "header: NAME: TEXT, at most 4";
        }
        strcpy(c->headers[c->nheaders++], v);
        return NULL;
    }
    if (strcmp(key, "flags") == 0) {
        char copy[128];

        if (strlen(v) >= sizeof(copy)) {
            return "flags: too long";
        }
        strcpy(copy, v);
        for (char *f = strtok(copy, " "); f != NULL; f = strtok(NULL, " ")) {
            if (strcmp(f, "close") == 0) {
                c->close = true;
            } else {
                return "flags: close is the one flag";
            }
        }
        return NULL;
    }
    if (strcmp(key, "known") == 0) {
        for (int i = 1; mark_names[i] != NULL; i++) {
            if (strcmp(v, mark_names[i]) == 0) {
                c->mark = i;
                return NULL;
            }
        }
        return "known: mhd-html, mhd-silent or mhd-lenient";
    }
    return "unknown key";
}

/*
 * Reads the group file path into g; job replaces {{job}}. A mistake in the
 * file fails the test with its line.
 */
static void
group_load(group_t *g, const char *name, const char *job)
{
    char line[8192];
    FILE *f;
    int lineno = 0;
    int cap = 0;
    hcase_t *c = NULL;
    const char *why = NULL;

    memset(g, 0, sizeof(*g));
    snprintf(g->name, sizeof(g->name), "%s", name);
    snprintf(g->path, sizeof(g->path), "%s/%s.txt", HOSTILE_DIR, name);
    f = fopen(g->path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", g->path);
    while (why == NULL && fgets(line, sizeof(line), f) != NULL) {
        size_t n = strlen(line);
        char *colon;
        char *v;

        lineno++;
        ck_assert_msg(n > 0 && line[n - 1] == '\n',
                      "%s:%d: a line too long, or no line end", g->path,
                      lineno);
        while (n > 0 && isspace((unsigned char)line[n - 1])) {
            line[--n] = '\0';
        }
        if (n == 0 || line[0] == '#') {
            continue;
        }
        colon = strchr(line, ':');
        if (colon == NULL) {
            why = "not KEY: VALUE";
            break;
        }
        *colon = '\0';
        for (v = colon + 1; *v == ' ' || *v == '\t'; v++) {
        }
        if (strstr(v, "{{job}}") != NULL) {
            g->uses_job = true;
        }
        if (strcmp(line, "case") == 0) {
            if (c != NULL && (why = finish_case(c)) != NULL) {
                lineno = c->line;
                break;
            }
            if (!valid_name(v) || strlen(v) >= sizeof(c->name)) {
                why = "a case name is [a-z0-9_-]+";
                break;
            }
            for (int i = 0; i < g->n; i++) {
                if (strcmp(g->cases[i].name, v) == 0) {
                    why = "the case name is taken";
                }
            }
            if (g->n == cap) {
                cap = cap == 0 ? 64 : cap * 2;
                g->cases = realloc(g->cases, (size_t)cap * sizeof(*g->cases));
                ck_assert_ptr_nonnull(g->cases);
            }
            c = &g->cases[g->n++];
            memset(c, 0, sizeof(*c));
            strcpy(c->name, v);
            c->line = lineno;
            continue;
        }
        if (c == NULL) {
            why = "a line before the first case:";
            break;
        }
        why = case_line(c, line, v, job);
    }
    if (why == NULL && c != NULL && (why = finish_case(c)) != NULL) {
        lineno = c->line;
    }
    fclose(f);
    ck_assert_msg(why == NULL, "%s:%d: %s", g->path, lineno, why);
    ck_assert_msg(g->n > 0, "%s has no case", g->path);
}

static void
group_free(group_t *g)
{
    for (int i = 0; i < g->n; i++) {
        buf_free(&g->cases[i].req);
        buf_free(&g->cases[i].body);
    }
    free(g->cases);
    memset(g, 0, sizeof(*g));
}

static int
cmp_names(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Lists the .txt files of tests/hostile (without .txt), sorted, into
 * g_groups; PZ_HOSTILE_GROUP=NAME keeps that one group only. */
static bool
list_groups(void)
{
    DIR *d = opendir(HOSTILE_DIR);
    const char *only = getenv("PZ_HOSTILE_GROUP");
    struct dirent *e;

    if (d == NULL) {
        fprintf(stderr, "cannot open %s\n", HOSTILE_DIR);
        return false;
    }
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);

        if (n > 4 && strcmp(e->d_name + n - 4, ".txt") == 0 &&
            n - 4 < sizeof(g_groups[0]) && g_ngroups < GROUPS_MAX &&
            (only == NULL ||
             (strncmp(e->d_name, only, n - 4) == 0 && only[n - 4] == '\0'))) {
            memcpy(g_groups[g_ngroups], e->d_name, n - 4);
            g_groups[g_ngroups][n - 4] = '\0';
            g_ngroups++;
        }
    }
    closedir(d);
    qsort(g_groups, (size_t)g_ngroups, sizeof(g_groups[0]), cmp_names);
    return g_ngroups > 0;
}

/* --- strict UTF-8 --- */

/*
 * The length of the longest well-formed UTF-8 prefix of s[0..n) (RFC 3629:
 * no overlong forms, no surrogates, nothing above U+10FFFF). Written here
 * rather than taken from the solver, so the server's own checker is not
 * the judge of its output.
 */
static size_t
utf8_prefix(const unsigned char *s, size_t n)
{
    size_t i = 0;

    while (i < n) {
        unsigned c = s[i];
        uint32_t cp;
        size_t k;

        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            k = 1;
            cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            k = 2;
            cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            k = 3;
            cp = c & 0x07;
        } else {
            return i; /* continuation byte, C0/C1, F5..FF */
        }
        if (k >= n - i) {
            return i; /* cut short */
        }
        for (size_t j = 1; j <= k; j++) {
            if ((s[i + j] & 0xc0) != 0x80) {
                return i;
            }
            cp = cp << 6 | (s[i + j] & 0x3f);
        }
        if ((k == 2 && cp < 0x800) || (k == 3 && cp < 0x10000) ||
            (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
            return i;
        }
        i += k + 1;
    }
    return i;
}

/* --- one exchange over a raw socket --- */

typedef struct hresp {
    buf_t raw;       /* every byte received */
    size_t head_len; /* status line and headers, blank line included */
    size_t body_len; /* the body follows the head */
    int status;      /* 0: no status line */
    bool closed;     /* the server closed (or reset) the connection */
    size_t extra;    /* bytes after the response */
    int64_t ms;      /* from connect to the end of the response */
    char err[160];   /* a transport failure, "" when none */
} hresp_t;

static void
resp_free(hresp_t *r)
{
    buf_free(&r->raw);
}

/* Copies the first header name of r into out (value trimmed); false when
 * there is none. */
static bool
resp_header(const hresp_t *r, const char *name, char *out, size_t cap)
{
    size_t nl = strlen(name);
    const char *p = r->raw.p;
    const char *end = r->raw.p + r->head_len;

    p = memchr(p, '\n', (size_t)(end - p));
    while (p != NULL && ++p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t len;

        if (eol == NULL) {
            break;
        }
        if ((size_t)(eol - p) > nl && strncasecmp(p, name, nl) == 0 &&
            p[nl] == ':') {
            const char *v = p + nl + 1;

            while (v < eol && (*v == ' ' || *v == '\t')) {
                v++;
            }
            len = (size_t)(eol - v);
            while (len > 0 && (v[len - 1] == '\r' || v[len - 1] == ' ')) {
                len--;
            }
            if (len >= cap) {
                len = cap - 1;
            }
            memcpy(out, v, len);
            out[len] = '\0';
            return true;
        }
        p = eol;
    }
    return false;
}

/* Parses the head once it is complete: the status, and where the body
 * ends (SIZE_MAX: at the close). An interim response (100 Continue) is
 * dropped. 0 while the head is incomplete. */
static size_t
parse_head(hresp_t *r, bool head_request)
{
    char *end = strstr(r->raw.p, "\r\n\r\n");
    char v[64];

    if (end == NULL) {
        return 0;
    }
    r->head_len = (size_t)(end + 4 - r->raw.p);
    if (r->head_len < 16 || strncmp(r->raw.p, "HTTP/1.", 7) != 0 ||
        r->raw.p[8] != ' ' || sscanf(r->raw.p + 9, "%3d", &r->status) != 1) {
        r->status = -1;
        return r->head_len;
    }
    if (r->status >= 100 && r->status < 200 && r->status != 101) {
        r->raw.len -= r->head_len;
        memmove(r->raw.p, r->raw.p + r->head_len, r->raw.len + 1);
        r->head_len = 0;
        r->status = 0;
        return parse_head(r, head_request);
    }
    if (head_request || r->status == 204 || r->status == 304 ||
        r->status < 200) {
        return r->head_len;
    }
    if (resp_header(r, "Transfer-Encoding", v, sizeof(v))) {
        snprintf(r->err, sizeof(r->err), "a chunked response");
        return r->head_len;
    }
    if (resp_header(r, "Content-Length", v, sizeof(v))) {
        return r->head_len + strtoull(v, NULL, 10);
    }
    return SIZE_MAX;
}

/*
 * Sends req (len bytes) on a new connection to port and reads one
 * response; with want_close, reads on until the server closes. Gives up at
 * CASE_TIMEOUT_MS (r->err says so).
 */
static void
exchange(int port, const char *req, size_t len, bool want_close, hresp_t *r)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    int64_t t0 = now_ms();
    int64_t deadline = t0 + CASE_TIMEOUT_MS;
    bool head_request = len >= 5 && memcmp(req, "HEAD ", 5) == 0;
    size_t want = 0; /* bytes of the whole response, 0 until the head */
    size_t sent = 0;
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    memset(r, 0, sizeof(*r));
    buf_add(&r->raw, "", 0);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(fcntl(fd, F_SETFL, O_NONBLOCK), 0);
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0 &&
        errno != EINPROGRESS) {
        snprintf(r->err, sizeof(r->err), "connect: %s", strerror(errno));
        close(fd);
        return;
    }
    for (;;) {
        struct pollfd p = { fd, POLLIN, 0 };
        int64_t left = deadline - now_ms();
        char chunk[16384];
        ssize_t got;

        if (sent < len) {
            p.events |= POLLOUT;
        }
        if (left <= 0 && want != 0 && r->raw.len >= want) {
            snprintf(r->err, sizeof(r->err),
                     "the connection stayed open after the response");
            break;
        }
        if (left <= 0) {
            snprintf(r->err, sizeof(r->err),
                     "no %s within %d ms (%zu of %zu bytes sent, %zu read)",
                     want == 0 ? "response" : "end of the response",
                     CASE_TIMEOUT_MS, sent, len, r->raw.len);
            break;
        }
        if (poll(&p, 1, (int)left) <= 0) {
            continue;
        }
        if ((p.revents & POLLOUT) != 0 && sent < len) {
            ssize_t n = send(fd, req + sent, len - sent, MSG_NOSIGNAL);

            if (n > 0) {
                sent += (size_t)n;
            } else if (errno != EAGAIN && errno != EINTR) {
                sent = len; /* the server stopped reading: read its answer */
            }
        }
        if ((p.revents & (POLLIN | POLLHUP | POLLERR)) == 0) {
            continue;
        }
        got = recv(fd, chunk, sizeof(chunk), 0);
        if (got < 0 && (errno == EAGAIN || errno == EINTR)) {
            continue;
        }
        if (got <= 0) {
            r->closed = true; /* closed, or reset after the response */
            break;
        }
        buf_add(&r->raw, chunk, (size_t)got);
        if (want == 0) {
            want = parse_head(r, head_request);
        }
        if (want != 0 && want != SIZE_MAX && r->raw.len >= want &&
            !want_close) {
            break;
        }
    }
    r->ms = now_ms() - t0;
    close(fd);
    if (want == 0 && r->head_len == 0 && r->raw.len > 0 && r->err[0] == '\0') {
        snprintf(r->err, sizeof(r->err), "an incomplete head: %.60s", r->raw.p);
    }
    if (want == SIZE_MAX) {
        want = r->raw.len;
    }
    if (want != 0) {
        if (r->raw.len < want) {
            if (r->err[0] == '\0') {
                snprintf(r->err, sizeof(r->err),
                         "the body is cut short: %zu of %zu bytes",
                         r->raw.len - r->head_len, want - r->head_len);
            }
            want = r->raw.len;
        }
        r->body_len = want - r->head_len;
        r->extra = r->raw.len - want;
    }
}

/* --- checks --- */

/* Checks a problem body: the members and their types, the status, the
 * type, and the code and field when c names them (a case with a known:
 * mark may leave the code out). */
static const char *
check_problem(const hcase_t *c, const hresp_t *r, char *why, size_t cap)
{
    static const char *const strs[] = { "type", "title", "code", "detail",
                                        NULL };
    const char *body = r->raw.p + r->head_len;
    cJSON *j = cJSON_ParseWithLength(body, r->body_len);
    const cJSON *v;
    char type[96];

    if (!cJSON_IsObject(j)) {
        cJSON_Delete(j);
        snprintf(why, cap, "the problem is not a JSON object: %.200s", body);
        return why;
    }
    for (int i = 0; strs[i] != NULL; i++) {
        if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, strs[i]))) {
            snprintf(why, cap, "the problem has no string %s: %.300s", strs[i],
                     body);
            cJSON_Delete(j);
            return why;
        }
    }
    v = cJSON_GetObjectItemCaseSensitive(j, "status");
    if (!cJSON_IsNumber(v) || v->valuedouble != r->status) {
        snprintf(why, cap, "the problem's status is not %d: %.300s", r->status,
                 body);
        cJSON_Delete(j);
        return why;
    }
    v = cJSON_GetObjectItemCaseSensitive(j, "code");
    snprintf(type, sizeof(type), "/problems/%s", v->valuestring);
    if (strcmp(cJSON_GetObjectItemCaseSensitive(j, "type")->valuestring,
               type) != 0 ||
        (c->code[0] != '\0' && strcmp(v->valuestring, c->code) != 0)) {
        snprintf(why, cap, "code %s; expected %s: %.300s", v->valuestring,
                 c->code, body);
        cJSON_Delete(j);
        return why;
    }
    v = cJSON_GetObjectItemCaseSensitive(j, "field");
    if (c->field[0] != '\0' &&
        (!cJSON_IsString(v) || strcmp(v->valuestring, c->field) != 0)) {
        snprintf(why, cap, "field %s; expected %s: %.300s",
                 cJSON_IsString(v) ? v->valuestring : "(none)", c->field, body);
        cJSON_Delete(j);
        return why;
    }
    cJSON_Delete(j);
    return NULL;
}

/* Why r does not answer c, or NULL. note gets a remark that is no
 * failure: a known: mark that is no longer needed, or how MHD read a
 * request it should have refused. */
static const char *
check_case(const hcase_t *c,
           const hresp_t *r,
           char *why,
           size_t cap,
           char *note,
           size_t ncap)
{
    const char *body = r->raw.p + r->head_len;
    bool head = c->req.len >= 5 && memcmp(c->req.p, "HEAD ", 5) == 0;
    char ctype[128] = "";
    bool status_ok = false;
    size_t good;

    note[0] = '\0';
    if (c->none || (c->mark == MARK_SILENT && r->raw.len == 0)) {
        if (r->raw.len > 0) {
            snprintf(why, cap, "a response where none was expected: %.80s",
                     r->raw.p);
            return why;
        }
        if (!r->closed) {
            snprintf(why, cap, "the connection was not closed: %s", r->err);
            return why;
        }
        return NULL;
    }
    if (r->err[0] != '\0') {
        snprintf(why, cap, "%s", r->err);
        return why;
    }
    if (r->raw.len == 0) {
        snprintf(why, cap, "the connection was closed without an answer");
        return why;
    }
    for (int i = 0; i < c->nstatuses; i++) {
        status_ok = status_ok || r->status == c->statuses[i];
    }
    if (!status_ok && c->mark != MARK_LENIENT) {
        snprintf(why, cap, "status %d; expected %d%s: %.300s", r->status,
                 c->statuses[0], c->nstatuses > 1 ? " (or another)" : "",
                 r->raw.p);
        return why;
    }
    if ((good = utf8_prefix((const unsigned char *)body, r->body_len)) !=
        r->body_len) {
        snprintf(why, cap, "the body is not UTF-8 at byte %zu", good);
        return why;
    }
    if (!status_ok) {
        /* mhd-lenient: MHD read the request otherwise; what followed is
         * its business, not the contract's. */
        snprintf(note, ncap, "libmicrohttpd let it through: status %d",
                 r->status);
        return NULL;
    }
    if ((c->close || c->mark == MARK_HTML) && !r->closed) {
        snprintf(why, cap, "the connection stayed open after the response");
        return why;
    }
    if (c->close && r->extra > 0) {
        snprintf(why, cap, "%zu bytes after the response: %.100s", r->extra,
                 body + r->body_len);
        return why;
    }
    resp_header(r, "Content-Type", ctype, sizeof(ctype));
    for (int i = 0; i < c->nheaders; i++) {
        const char *sep = strstr(c->headers[i], ": ");
        char name[64];
        char value[256];

        snprintf(name, sizeof(name), "%.*s", (int)(sep - c->headers[i]),
                 c->headers[i]);
        if (!resp_header(r, name, value, sizeof(value)) ||
            strstr(value, sep + 2) == NULL) {
            snprintf(why, cap, "no header '%s'", c->headers[i]);
            return why;
        }
    }
    if (c->mark == MARK_HTML) {
        if (strcmp(ctype, "application/problem+json") == 0) {
            snprintf(note, ncap,
                     "answered with problem+json now: the known: mark can "
                     "go");
        }
        return NULL;
    }
    if (r->status >= 400) {
        if (strcmp(ctype, "application/problem+json") != 0) {
            snprintf(why, cap, "Content-Type '%s' for a %d", ctype, r->status);
            return why;
        }
        if (!head && check_problem(c, r, why, cap) != NULL) {
            return why;
        }
    } else if (!head && strncmp(ctype, "application/json", 16) == 0) {
        cJSON *j = cJSON_ParseWithLength(body, r->body_len);

        if (j == NULL) {
            snprintf(why, cap, "the body is not JSON: %.200s", body);
            return why;
        }
        cJSON_Delete(j);
    }
    if (c->mark != MARK_NONE) {
        snprintf(note, ncap,
                 "answered as expected now: the known: mark can go");
    }
    return NULL;
}

/* GET /healthz answers 200 {"status":"ok"}. */
static bool
healthy(int port)
{
    static const char req[] = "GET /healthz HTTP/1.1\r\nHost: hostile.test\r\n"
                              "Connection: close\r\n\r\n";
    hresp_t r;
    bool ok;

    exchange(port, req, sizeof(req) - 1, false, &r);
    ok = r.status == 200 && r.body_len == 15 &&
         memcmp(r.raw.p + r.head_len, "{\"status\":\"ok\"}", 15) == 0;
    resp_free(&r);
    return ok;
}

/* Waits up to 60 s for GET /readyz to answer 200: the daemon loads its
 * start-up tables in the background, and the cases expect it ready. */
static bool
await_ready(int port)
{
    static const char req[] = "GET /readyz HTTP/1.1\r\nHost: hostile.test\r\n"
                              "Connection: close\r\n\r\n";

    for (int64_t until = now_ms() + 60000; now_ms() < until; sleep_ms(20)) {
        hresp_t r;
        bool ok;

        exchange(port, req, sizeof(req) - 1, false, &r);
        ok = r.status == 200;
        resp_free(&r);
        if (ok) {
            return true;
        }
    }
    return false;
}

/* Solves an 8-puzzle and returns the job's id (owned), for {{job}}. */
static char *
make_job(int port)
{
    static const char body[] = "{\"puzzle\":\"8-puzzle\",\"scramble\":\"D\"}";
    char req[512];
    int n = snprintf(req, sizeof(req),
                     "POST /v1/solve HTTP/1.1\r\nHost: hostile.test\r\n"
                     "Content-Type: application/json\r\nContent-Length: "
                     "%zu\r\n\r\n%s",
                     sizeof(body) - 1, body);
    hresp_t r;
    cJSON *j;
    const cJSON *id;
    char *out;

    exchange(port, req, (size_t)n, false, &r);
    ck_assert_msg(r.status == 200, "the job for {{job}}: %d %s", r.status,
                  r.err);
    j = cJSON_ParseWithLength(r.raw.p + r.head_len, r.body_len);
    id = cJSON_GetObjectItemCaseSensitive(j, "id");
    ck_assert_msg(cJSON_IsString(id), "the job for {{job}} has no id");
    out = strdup(id->valuestring);
    ck_assert_ptr_nonnull(out);
    cJSON_Delete(j);
    resp_free(&r);
    return out;
}

/* A job id for the catalogue check, where no daemon runs. */
#define DUMMY_JOB "0123456789abcdef0123456789abcdef"

/* ======================================================================= */

/* The validator itself: what it must take and what it must refuse. */
START_TEST(test_server_hostile_utf8_validator)
{
    static const struct {
        const char *s;
        size_t good; /* the valid prefix */
    } v[] = {
        { "plain", 5 },
        { "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9 }, /* 2, 3, 4 bytes */
        { "\xf4\x8f\xbf\xbf", 4 },                     /* U+10FFFF */
        { "\xed\x9f\xbf", 3 },                         /* U+D7FF */
        { "a\xc0\xaf", 1 },                            /* overlong / */
        { "a\xc1\xbf", 1 },                            /* overlong */
        { "a\xe0\x80\xaf", 1 },                        /* overlong */
        { "a\xf0\x80\x80\xaf", 1 },                    /* overlong */
        { "a\xed\xa0\x80", 1 },                        /* U+D800 */
        { "a\xed\xbf\xbf", 1 },                        /* U+DFFF */
        { "a\xf4\x90\x80\x80", 1 },                    /* past U+10FFFF */
        { "a\xf5\x80\x80\x80", 1 },
        { "a\x80", 1 },         /* continuation */
        { "a\xe2\x82", 1 },     /* cut short */
        { "a\xe2\x28\xa1", 1 }, /* bad continuation */
        { "a\xff", 1 },
    };

    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        ck_assert_uint_eq(
            utf8_prefix((const unsigned char *)v[i].s, strlen(v[i].s)),
            v[i].good);
    }
}
END_TEST

/* Every file parses, case names are unique, and there are enough. */
START_TEST(test_server_hostile_catalogue_well_formed)
{
    int total = 0;
    int marked = 0;

    for (int i = 0; i < g_ngroups; i++) {
        group_t g;

        group_load(&g, g_groups[i], DUMMY_JOB);
        for (int k = 0; k < g.n; k++) {
            if (g.cases[k].mark != MARK_NONE) {
                fprintf(stderr, "hostile: known: %-11s %s/%s\n",
                        mark_names[g.cases[k].mark], g.name, g.cases[k].name);
                marked++;
            }
        }
        fprintf(stderr, "hostile: group %-14s %3d cases\n", g.name, g.n);
        total += g.n;
        group_free(&g);
    }
    fprintf(stderr, "hostile: %d cases in %d groups, %d with a known: mark\n",
            total, g_ngroups, marked);
    ck_assert_msg(total >= CASES_MIN, "%d cases; the catalogue keeps %d", total,
                  CASES_MIN);
}
END_TEST

/* One group against its own daemon. */
START_TEST(test_server_hostile_group)
{
    const char *name = g_groups[_i];
    group_t g;
    srv_t s;
    char *job = NULL;
    int failed = 0;
    int64_t t0 = now_ms();
    int64_t slowest = 0;
    bool alive;
    int stopped;
    int n;

    ck_assert_msg(srv_start(&s, NULL) == 0, "the daemon did not start");
    ck_assert_msg(healthy(s.port), "no /healthz before group %s", name);
    ck_assert_msg(await_ready(s.port), "not ready before group %s", name);
    group_load(&g, name, DUMMY_JOB);
    if (g.uses_job) {
        group_free(&g);
        job = make_job(s.port);
        group_load(&g, name, job);
    }
    for (int i = 0; i < g.n; i++) {
        const hcase_t *c = &g.cases[i];
        char why[768];
        char note[160];
        hresp_t r;

        exchange(s.port, c->req.p, c->req.len,
                 c->close || c->none || c->mark != MARK_NONE, &r);
        if (r.ms > slowest) {
            slowest = r.ms;
        }
        if (check_case(c, &r, why, sizeof(why), note, sizeof(note)) != NULL) {
            fprintf(stderr, "FAIL %s/%s (%s:%d): %s\n", name, c->name, g.path,
                    c->line, why);
            failed++;
        } else if (note[0] != '\0') {
            fprintf(stderr, "note %s/%s (%s:%d): %s\n", name, c->name, g.path,
                    c->line, note);
        }
        resp_free(&r);
        if (srv_status(&s) >= 0) {
            fprintf(stderr, "the daemon died after %s/%s\n", name, c->name);
            srv_dump_log(&s);
            ck_abort_msg("the daemon died after case %s", c->name);
        }
    }
    alive = healthy(s.port);
    fprintf(stderr,
            "hostile: group %-14s %3d cases, %d failed, %lld ms (slowest "
            "response %lld ms)\n",
            name, g.n, failed, (long long)(now_ms() - t0), (long long)slowest);
    n = g.n;
    group_free(&g);
    free(job);
    stopped = srv_stop(&s);
    srv_cleanup(&s);
    ck_assert_msg(alive, "no /healthz after group %s", name);
    ck_assert_msg(failed == 0, "%d of %d cases of %s failed (listed above)",
                  failed, n, name);
    ck_assert_msg(stopped == 0, "the daemon exited with %d after group %s",
                  stopped, name);
}
END_TEST

static Suite *
server_hostile_suite(void)
{
    Suite *s = suite_create("server_hostile");
    TCase *tc = tcase_create("catalogue");

    tcase_add_test(tc, test_server_hostile_utf8_validator);
    tcase_add_test(tc, test_server_hostile_catalogue_well_formed);
    suite_add_tcase(s, tc);
    tc = tcase_create("groups");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_server_hostile_group, 0, g_ngroups);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr;
    int failed;

    signal(SIGPIPE, SIG_IGN);
    if (!list_groups() || !srv_prepare_tables("server-hostile")) {
        return EXIT_FAILURE;
    }
    sr = srunner_create(server_hostile_suite());
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
