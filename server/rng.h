/* SPDX-License-Identifier: MIT */
/* rng.h - random bytes for job and request ids, from the kernel in bulk. */
#ifndef PZ_SERVER_RNG_H
#define PZ_SERVER_RNG_H

#include <stddef.h>

/*
 * Fills buf with len (at most RNG_MAX) bytes from the kernel's random
 * generator. Each thread draws a few kilobytes per getrandom call and hands
 * them out in order, so an id costs a copy rather than a system call; the
 * bytes are the kernel's own, used once each. Returns PZ_OK, or PZ_EIO when
 * neither getrandom nor /dev/urandom gives bytes. Thread: any.
 */
int rng_bytes(void *buf, size_t len);

/* Writes 2 * nbytes lower-case hex digits of nbytes random bytes (at most
 * RNG_MAX) and a NUL to out: the form of job and request ids. PZ_OK or as
 * rng_bytes (then out is untouched). Thread: any. */
int rng_hex(char *out, size_t nbytes);

/* Largest len rng_bytes accepts. */
#define RNG_MAX 64

#endif
