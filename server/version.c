/* SPDX-License-Identifier: MIT */
/* version.c - build information for --version and /metrics. */
#include "version.h"

const char *
pz_version(void)
{
    return PZ_VERSION;
}
