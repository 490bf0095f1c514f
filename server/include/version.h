/* SPDX-License-Identifier: MIT */
/* version.h - build information for --version and /metrics. */
#ifndef PZ_SERVER_VERSION_H
#define PZ_SERVER_VERSION_H

/* The release version ("0.1.0"). Static string. Thread: any. */
const char *pz_version(void);

/* The git revision built from ("3d4c5b2a1f0e", "-dirty" appended for
 * uncommitted changes), or "" when the source was not a git checkout.
 * Static string. Thread: any. */
const char *pz_revision(void);

#endif
