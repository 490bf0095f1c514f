/* SPDX-License-Identifier: MIT */
/* engine_internal.h - the engine files' registry entries (solver/ only). */
#ifndef PZ_SOLVER_ENGINE_INTERNAL_H
#define PZ_SOLVER_ENGINE_INTERNAL_H

#include "engine.h"

extern const engine_ops_t engine__astar;   /* engines/astar.c */
extern const engine_ops_t engine__wastar;  /* engines/astar.c */
extern const engine_ops_t engine__anytime; /* engines/astar.c */
extern const engine_ops_t engine__bibfs;   /* engines/bibfs.c */
extern const engine_ops_t engine__idastar; /* engines/idastar.c */
extern const engine_ops_t engine__aida;    /* engines/idastar.c */
extern const engine_ops_t engine__table;   /* engines/table.c */

#endif
