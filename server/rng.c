/* SPDX-License-Identifier: MIT */
/* rng.c - random bytes for ids, drawn from the kernel a page at a time.
 *
 * Job ids are capabilities (whoever knows one can read or cancel the job),
 * so they must stay unpredictable: no user-space generator stretches a
 * seed here. The kernel's bytes are fetched 4 KiB per system call into a
 * thread-local pool and each byte is handed out once and then wiped. At
 * 24 bytes per request (a job id and a request id) that is one getrandom
 * call per ~170 requests instead of two per request.
 */
#include "rng.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "pz_error.h"

#define RNG_POOL 4096

static _Thread_local unsigned char pool[RNG_POOL];
static _Thread_local size_t pool_left; /* unused bytes at the pool's end */

/* Fills buf with len bytes straight from the kernel. */
static int
kernel_bytes(unsigned char *buf, size_t len)
{
    size_t got = 0;
    int fd;

    while (got < len) {
        ssize_t n = getrandom(buf + got, len - got, 0);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    if (got == len) {
        return PZ_OK;
    }
    /* Kernels without getrandom: the device gives the same bytes. */
    fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return PZ_EIO;
    }
    while (got < len) {
        ssize_t n = read(fd, buf + got, len - got);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            close(fd);
            return PZ_EIO;
        }
        got += (size_t)n;
    }
    close(fd);
    return PZ_OK;
}

int
rng_bytes(void *buf, size_t len)
{
    unsigned char *from;

    if (len > RNG_MAX) {
        return PZ_EINVAL;
    }
    if (pool_left < len) {
        int rc = kernel_bytes(pool, sizeof(pool));

        if (rc != PZ_OK) {
            pool_left = 0;
            return rc;
        }
        pool_left = sizeof(pool);
    }
    from = pool + sizeof(pool) - pool_left;
    memcpy(buf, from, len);
    memset(from, 0, len);
    pool_left -= len;
    return PZ_OK;
}

int
rng_hex(char *out, size_t nbytes)
{
    static const char hex[] = "0123456789abcdef";
    unsigned char raw[RNG_MAX];
    int rc;

    if (nbytes > RNG_MAX) {
        return PZ_EINVAL;
    }
    rc = rng_bytes(raw, nbytes);
    if (rc != PZ_OK) {
        return rc;
    }
    for (size_t i = 0; i < nbytes; i++) {
        out[2 * i] = hex[raw[i] >> 4];
        out[2 * i + 1] = hex[raw[i] & 15];
    }
    out[2 * nbytes] = '\0';
    return PZ_OK;
}
