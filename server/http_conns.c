/* SPDX-License-Identifier: MIT */
/* http_conns.c - the acceptor, the connection registry and its policy
 * (http_conns.h). */
#define _GNU_SOURCE 1 /* accept4, pipe2 */
#include "http_conns.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "pz_error.h"

/* How often the acceptor sweeps the registry, and looks at held
 * connections for a place. */
#define CONNS_SWEEP_MS     250
#define CONNS_HELD_POLL_MS 20

/* Connections the acceptor holds at most while the places are taken. */
#define CONNS_HELD_MAX 1024

typedef enum entry_state {
    ENTRY_PENDING = 0, /* handed to MHD, not reported started yet */
    ENTRY_NEW,         /* started, no request head yet */
    ENTRY_IDLE,        /* between requests */
    ENTRY_BODY,        /* request head in, body arriving */
    ENTRY_BUSY,        /* request read: being answered or waiting */
} entry_state_t;

struct http_conn_entry {
    http_conn_entry_t *prev, *next; /* registry order: longest idle first */
    int fd;
    entry_state_t state;
    bool reserve;     /* holds a reserved place */
    bool closing;     /* shut down by the registry; MHD closes it next */
    int64_t since_ms; /* when state began */
};

typedef enum held_mode {
    HELD_WAIT = 0, /* waiting for a place (at most grace_ms) */
    HELD_LINGER,   /* refused: the answer is out, reading until closed */
} held_mode_t;

/* A connection the acceptor keeps while the places are taken. */
typedef struct held {
    int fd;
    held_mode_t mode;
    bool peeked;  /* enough of the request line seen */
    int peek_len; /* bytes seen so far, while not enough */
    bool probe;   /* it asks for a health route */
    int64_t since_ms;
    http_conn_entry_t *entry; /* set once placed */
    struct sockaddr_storage ss;
    socklen_t sslen;
} held_t;

struct http_conns {
    http_conns_cfg_t cfg;
    int listen_fd;
    int wake[2];  /* pipe: wakes the acceptor to stop */
    int spare_fd; /* kept open to accept-and-refuse when out of fds */
    struct MHD_Daemon *daemon;
    pthread_t thread;
    bool started;
    bool quiesced;
    pthread_mutex_t lock;
    http_conn_entry_t *head, *tail; /* every entry, pending ones too */
    int nopen;                      /* entries not closing */
    int nreserve;                   /* of which in reserved places */
    held_t held[CONNS_HELD_MAX];    /* the acceptor's own */
    int nheld;
    struct pollfd pfd[CONNS_HELD_MAX + 2];
    _Atomic int nheld_now; /* nheld, for other threads */
    _Atomic uint64_t evicted_idle, evicted_body, timed_out, refused;
};

static int64_t
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- the listening socket --- */

int
http_conns_listen(const char *bind_addr, int port, int *fd, int *bound_port)
{
    struct sockaddr_storage ss;
    struct sockaddr_in *sin = (struct sockaddr_in *)(void *)&ss;
    struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)(void *)&ss;
    socklen_t len;
    int one = 1;
    int s;

    memset(&ss, 0, sizeof(ss));
    if (inet_pton(AF_INET, bind_addr, &sin->sin_addr) == 1) {
        sin->sin_family = AF_INET;
        sin->sin_port = htons((uint16_t)port);
        len = sizeof(*sin);
    } else if (inet_pton(AF_INET6, bind_addr, &sin6->sin6_addr) == 1) {
        sin6->sin6_family = AF_INET6;
        sin6->sin6_port = htons((uint16_t)port);
        len = sizeof(*sin6);
    } else {
        return PZ_EINVAL;
    }
    s = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s < 0) {
        return PZ_EIO;
    }
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (ss.ss_family == AF_INET6) {
        setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    }
    if (bind(s, (struct sockaddr *)&ss, len) != 0 ||
        listen(s, SOMAXCONN) != 0) {
        int e = errno;

        close(s);
        errno = e;
        return PZ_EIO;
    }
    len = sizeof(ss);
    if (getsockname(s, (struct sockaddr *)&ss, &len) != 0) {
        close(s);
        return PZ_EIO;
    }
    *bound_port =
        ntohs(ss.ss_family == AF_INET ? sin->sin_port : sin6->sin6_port);
    *fd = s;
    return PZ_OK;
}

int
http_conns_new(const http_conns_cfg_t *cfg, int listen_fd, http_conns_t **out)
{
    http_conns_t *c = calloc(1, sizeof(*c));

    *out = NULL;
    if (c == NULL) {
        return PZ_ENOMEM;
    }
    if (pipe2(c->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        free(c);
        return PZ_EIO;
    }
    c->cfg = *cfg;
    c->listen_fd = listen_fd;
    c->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    pthread_mutex_init(&c->lock, NULL);
    *out = c;
    return PZ_OK;
}

/* --- the registry (under c->lock) --- */

static void
unlink_locked(http_conns_t *c, http_conn_entry_t *e)
{
    if (e->prev != NULL) {
        e->prev->next = e->next;
    } else {
        c->head = e->next;
    }
    if (e->next != NULL) {
        e->next->prev = e->prev;
    } else {
        c->tail = e->prev;
    }
    e->prev = e->next = NULL;
}

static void
append_locked(http_conns_t *c, http_conn_entry_t *e)
{
    e->prev = c->tail;
    e->next = NULL;
    if (c->tail != NULL) {
        c->tail->next = e;
    } else {
        c->head = e;
    }
    c->tail = e;
}

/* Takes e out of the counts (it stays listed until MHD reports it). */
static void
uncount_locked(http_conns_t *c, http_conn_entry_t *e)
{
    if (!e->closing) {
        e->closing = true;
        c->nopen--;
        if (e->reserve) {
            c->nreserve--;
        }
    }
}

/* Closes e's connection: MHD sees the end of the stream and closes it. */
static void
shut_locked(http_conns_t *c, http_conn_entry_t *e)
{
    uncount_locked(c, e);
    shutdown(e->fd, SHUT_RDWR);
}

static void
remove_locked(http_conns_t *c, http_conn_entry_t *e)
{
    uncount_locked(c, e);
    unlink_locked(c, e);
    free(e);
}

/* The connection to close to make room, or NULL: the longest idle one
 * (between requests or without a request head) if idle for grace_ms,
 * else the slow body that began first if older than grace_ms. Under a
 * steady load nothing qualifies: busy keep-alive connections are never
 * cut. */
static http_conn_entry_t *
victim_locked(http_conns_t *c, int64_t now, bool *idle)
{
    http_conn_entry_t *body = NULL;

    for (http_conn_entry_t *e = c->head; e != NULL; e = e->next) {
        if (e->closing) {
            continue;
        }
        if ((e->state == ENTRY_IDLE || e->state == ENTRY_NEW) &&
            now - e->since_ms >= c->cfg.grace_ms) {
            *idle = true;
            return e;
        }
        if (e->state == ENTRY_BODY && now - e->since_ms >= c->cfg.grace_ms &&
            (body == NULL || e->since_ms < body->since_ms)) {
            body = e;
        }
    }
    *idle = false;
    return body;
}

/* Closes connections past their head or body deadline. */
static void
sweep_locked(http_conns_t *c, int64_t now)
{
    for (http_conn_entry_t *e = c->head; e != NULL; e = e->next) {
        int64_t age = now - e->since_ms;

        if (e->closing) {
            continue;
        }
        if (((e->state == ENTRY_NEW || e->state == ENTRY_IDLE) &&
             age >= c->cfg.head_ms) ||
            (e->state == ENTRY_BODY && age >= c->cfg.body_ms)) {
            shut_locked(c, e);
            atomic_fetch_add(&c->timed_out, 1);
        }
    }
}

/* --- MHD's side --- */

void
http_conns_notify(void *cls,
                  struct MHD_Connection *conn,
                  void **socket_context,
                  enum MHD_ConnectionNotificationCode toe)
{
    http_conns_t *c = cls;
    const union MHD_ConnectionInfo *info;
    http_conn_entry_t *e;
    int fd;

    pthread_mutex_lock(&c->lock);
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        fd = info != NULL ? info->connect_fd : -1;
        /* The newest pending entry of this descriptor is this connection
         * (an older one was closed by MHD before it started). */
        for (e = c->tail; e != NULL; e = e->prev) {
            if (e->state == ENTRY_PENDING && e->fd == fd) {
                e->state = ENTRY_NEW;
                e->since_ms = now_ms();
                *socket_context = e;
                break;
            }
        }
    } else if (*socket_context != NULL) {
        remove_locked(c, *socket_context);
        *socket_context = NULL;
    }
    pthread_mutex_unlock(&c->lock);
}

http_conn_entry_t *
http_conns_entry(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

    return info != NULL ? info->socket_context : NULL;
}

bool
http_conns_request(http_conns_t *c, http_conn_entry_t *e, bool body)
{
    bool reserved = false;

    if (e == NULL) {
        return false;
    }
    pthread_mutex_lock(&c->lock);
    e->state = body ? ENTRY_BODY : ENTRY_BUSY;
    e->since_ms = now_ms();
    if (e->reserve && !e->closing) {
        /* A place has freed up since: the connection takes it. */
        if (c->nopen - c->nreserve < c->cfg.limit) {
            e->reserve = false;
            c->nreserve--;
        } else {
            reserved = true;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return reserved;
}

void
http_conns_body_done(http_conns_t *c, http_conn_entry_t *e)
{
    if (e == NULL) {
        return;
    }
    pthread_mutex_lock(&c->lock);
    if (e->state == ENTRY_BODY) {
        e->state = ENTRY_BUSY;
    }
    pthread_mutex_unlock(&c->lock);
}

void
http_conns_idle(http_conns_t *c, http_conn_entry_t *e)
{
    if (e == NULL) {
        return;
    }
    pthread_mutex_lock(&c->lock);
    e->state = ENTRY_IDLE;
    e->since_ms = now_ms();
    /* The registry is ordered by the time connections became idle. */
    unlink_locked(c, e);
    append_locked(c, e);
    pthread_mutex_unlock(&c->lock);
}

/* --- the acceptor --- */

/* Answered to a connection no place is left for. */
static const char refuse_body[] =
    "{\"type\":\"/problems/overloaded\",\"title\":\"Server is at its "
    "connection limit\",\"status\":503,\"code\":\"overloaded\",\"detail\":"
    "\"every connection place is taken; retry after a second\"}";

/* Drops a held connection from the acceptor's set. */
static void
held_drop(held_t *h)
{
    close(h->fd);
    h->fd = -1;
}

/* Answers 503 and lets the client read it: the write side is shut, and
 * what the client still sends is read until it closes or linger_ms pass,
 * so that closing does not reset the connection under the answer. */
static void
refuse(http_conns_t *c, held_t *h, int64_t now)
{
    char text[512];
    int n = snprintf(text, sizeof(text),
                     "HTTP/1.1 503 Service Unavailable\r\n"
                     "Content-Type: application/problem+json\r\n"
                     "Retry-After: 1\r\n"
                     "Connection: close\r\n"
                     "Content-Length: %zu\r\n"
                     "\r\n%s",
                     sizeof(refuse_body) - 1, refuse_body);

    (void)!send(h->fd, text, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL);
    shutdown(h->fd, SHUT_WR);
    h->mode = HELD_LINGER;
    h->since_ms = now;
    atomic_fetch_add(&c->refused, 1);
}

/* Hands fd to MHD with an entry; reserve: in a reserved place. */
static void
hand_over_locked(http_conns_t *c, held_t *h, bool reserve, int64_t now)
{
    http_conn_entry_t *e = calloc(1, sizeof(*e));
    http_conn_entry_t *v;

    if (e == NULL) {
        return; /* stays held; refused at its deadline */
    }
    e->fd = h->fd;
    e->state = ENTRY_PENDING;
    e->since_ms = now;
    e->reserve = reserve;
    /* A pending entry of the same descriptor is stale: MHD closed that
     * connection before it started. */
    for (v = c->head; v != NULL; v = v->next) {
        if (v->state == ENTRY_PENDING && v->fd == h->fd) {
            remove_locked(c, v);
            break;
        }
    }
    c->nopen++;
    if (reserve) {
        c->nreserve++;
    }
    append_locked(c, e);
    h->entry = e;
}

/* Finds h a place: a free one, one made by closing an idle or slow
 * connection, or (a health probe) a reserved one. Returns true when h is
 * to be handed to MHD (h->entry set). */
static bool
place(http_conns_t *c, held_t *h, int64_t now)
{
    http_conn_entry_t *v;
    bool idle;
    bool ok = true;

    pthread_mutex_lock(&c->lock);
    if (c->nopen - c->nreserve < c->cfg.limit) {
        hand_over_locked(c, h, false, now);
    } else if ((v = victim_locked(c, now, &idle)) != NULL) {
        shut_locked(c, v);
        atomic_fetch_add(idle ? &c->evicted_idle : &c->evicted_body, 1);
        hand_over_locked(c, h, false, now);
    } else if (h->probe && c->nreserve < c->cfg.reserve) {
        hand_over_locked(c, h, true, now);
    } else {
        ok = false;
    }
    pthread_mutex_unlock(&c->lock);
    return ok && h->entry != NULL;
}

static void
hand_over(http_conns_t *c, held_t *h)
{
    http_conn_entry_t *e = h->entry;

    if (MHD_add_connection(c->daemon, h->fd, (struct sockaddr *)&h->ss,
                           h->sslen) != MHD_YES) {
        /* MHD has closed the descriptor. */
        pthread_mutex_lock(&c->lock);
        for (http_conn_entry_t *v = c->head; v != NULL; v = v->next) {
            if (v == e) {
                remove_locked(c, e);
                break;
            }
        }
        pthread_mutex_unlock(&c->lock);
    }
    h->fd = -1; /* MHD's now */
    h->entry = NULL;
}

/* Reads the start of a held connection's request without taking it, to
 * tell a health probe. Returns false when the client has gone. */
static bool
peek(held_t *h)
{
    static const char *const probes[] = {
        "GET /healthz", "HEAD /healthz", "GET /readyz", "HEAD /readyz",
        "GET /metrics", "HEAD /metrics", NULL
    };
    char buf[32];
    ssize_t n = recv(h->fd, buf, sizeof(buf) - 1, MSG_PEEK | MSG_DONTWAIT);

    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        return false;
    }
    if (n < 0) {
        return true;
    }
    buf[n] = '\0';
    h->peek_len = (int)n;
    for (int i = 0; probes[i] != NULL; i++) {
        size_t len = strlen(probes[i]);

        if ((size_t)n > len && strncmp(buf, probes[i], len) == 0 &&
            (buf[len] == ' ' || buf[len] == '?')) {
            h->probe = true;
        }
    }
    h->peeked = (size_t)n >= sizeof(buf) - 1 || memchr(buf, '\n', n);
    return true;
}

/* One pass over the held connections: places those that can be placed
 * (oldest first), refuses those past the grace, ends lingering ones. */
static void
serve_held(http_conns_t *c, const struct pollfd *pfd, int64_t now)
{
    int n = 0;

    for (int i = 0; i < c->nheld; i++) {
        held_t *h = &c->held[i];
        bool readable = pfd != NULL && pfd[i].revents != 0;

        if (h->mode == HELD_LINGER) {
            char sink[4096];

            if (readable) {
                ssize_t r;

                while ((r = recv(h->fd, sink, sizeof(sink), MSG_DONTWAIT)) >
                       0) {
                }
                if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
                    held_drop(h);
                }
            }
            if (h->fd >= 0 && now - h->since_ms >= c->cfg.grace_ms) {
                held_drop(h);
            }
        } else {
            /* A part of a request line is looked at again each pass,
             * not polled for: it stays readable until taken. */
            if (!h->peeked && (readable || h->peek_len > 0) && !peek(h)) {
                held_drop(h);
            } else if (place(c, h, now)) {
                hand_over(c, h);
            } else if (now - h->since_ms >= c->cfg.grace_ms) {
                refuse(c, h, now);
            }
        }
        if (h->fd >= 0) {
            c->held[n++] = *h;
        }
    }
    c->nheld = n;
}

/* Accepts what is in the backlog: placed at once, or held. */
static void
accept_all(http_conns_t *c)
{
    while (c->nheld < CONNS_HELD_MAX) {
        held_t *h = &c->held[c->nheld];
        int one = 1;

        memset(h, 0, sizeof(*h));
        h->sslen = sizeof(h->ss);
        h->fd = accept4(c->listen_fd, (struct sockaddr *)&h->ss, &h->sslen,
                        SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (h->fd >= 0) {
            int64_t now = now_ms();

            setsockopt(h->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
            h->since_ms = now;
            if (place(c, h, now)) {
                hand_over(c, h);
            } else {
                c->nheld++;
            }
            continue;
        }
        if (errno == EINTR || errno == ECONNABORTED) {
            continue;
        }
        if ((errno == EMFILE || errno == ENFILE) && c->spare_fd >= 0) {
            /* Out of descriptors: one is set aside for this, so the
             * client at the head of the backlog is told rather than left
             * waiting. */
            close(c->spare_fd);
            h->fd = accept4(c->listen_fd, NULL, NULL, SOCK_CLOEXEC);
            if (h->fd >= 0) {
                refuse(c, h, 0);
                close(h->fd);
            }
            c->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
            if (h->fd >= 0) {
                continue;
            }
        }
        return;
    }
}

static void *
acceptor_main(void *arg)
{
    http_conns_t *c = arg;
    int64_t next_sweep = now_ms() + CONNS_SWEEP_MS;
    struct pollfd *pfd = c->pfd;

    for (;;) {
        int64_t now = now_ms();
        int64_t wait = next_sweep > now ? next_sweep - now : 0;
        int np = c->nheld;

        /* Held connections are looked at often: a place may free up. */
        if (np > 0 && wait > CONNS_HELD_POLL_MS) {
            wait = CONNS_HELD_POLL_MS;
        }
        for (int i = 0; i < np; i++) {
            const held_t *h = &c->held[i];
            bool wait_data =
                h->mode == HELD_LINGER || (!h->peeked && h->peek_len == 0);

            pfd[i] = (struct pollfd){ h->fd, wait_data ? POLLIN : 0, 0 };
        }
        pfd[np] = (struct pollfd){ c->listen_fd, POLLIN, 0 };
        pfd[np + 1] = (struct pollfd){ c->wake[0], POLLIN, 0 };
        if (poll(pfd, (nfds_t)np + 2, (int)wait) < 0 && errno != EINTR) {
            break;
        }
        if (pfd[np + 1].revents != 0) {
            break;
        }
        now = now_ms();
        serve_held(c, pfd, now);
        if (pfd[np].revents != 0) {
            accept_all(c);
        }
        atomic_store(&c->nheld_now, c->nheld);
        if (now >= next_sweep) {
            pthread_mutex_lock(&c->lock);
            sweep_locked(c, now);
            pthread_mutex_unlock(&c->lock);
            next_sweep = now + CONNS_SWEEP_MS;
        }
    }
    return NULL;
}

int
http_conns_start(http_conns_t *c, struct MHD_Daemon *d)
{
    c->daemon = d;
    if (pthread_create(&c->thread, NULL, acceptor_main, c) != 0) {
        return PZ_EIO;
    }
    c->started = true;
    return PZ_OK;
}

void
http_conns_quiesce(http_conns_t *c)
{
    if (c == NULL || c->quiesced) {
        return;
    }
    c->quiesced = true;
    if (c->started) {
        (void)!write(c->wake[1], "q", 1);
        pthread_join(c->thread, NULL);
    }
    /* Clients in the backlog, and any that come, are refused at once;
     * held ones are let go to retry elsewhere. */
    close(c->listen_fd);
    c->listen_fd = -1;
    for (int i = 0; i < c->nheld; i++) {
        close(c->held[i].fd);
    }
    c->nheld = 0;
}

void
http_conns_free(http_conns_t *c)
{
    if (c == NULL) {
        return;
    }
    http_conns_quiesce(c);
    while (c->head != NULL) {
        remove_locked(c, c->head);
    }
    close(c->wake[0]);
    close(c->wake[1]);
    if (c->spare_fd >= 0) {
        close(c->spare_fd);
    }
    pthread_mutex_destroy(&c->lock);
    free(c);
}

void
http_conns_stats(http_conns_t *c, http_conns_stats_t *out)
{
    memset(out, 0, sizeof(*out));
    pthread_mutex_lock(&c->lock);
    for (const http_conn_entry_t *e = c->head; e != NULL; e = e->next) {
        if (e->closing) {
            continue;
        }
        switch (e->state) {
        case ENTRY_PENDING:
        case ENTRY_NEW:
            out->new_++;
            break;
        case ENTRY_IDLE:
            out->idle++;
            break;
        case ENTRY_BODY:
            out->body++;
            break;
        case ENTRY_BUSY:
            out->busy++;
            break;
        }
    }
    out->reserved = c->nreserve;
    pthread_mutex_unlock(&c->lock);
    out->held = atomic_load(&c->nheld_now);
    out->evicted_idle = atomic_load(&c->evicted_idle);
    out->evicted_body = atomic_load(&c->evicted_body);
    out->timed_out = atomic_load(&c->timed_out);
    out->refused = atomic_load(&c->refused);
}
