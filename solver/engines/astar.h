/* SPDX-License-Identifier: MIT */
/* astar.h - A* stopped at a node cap, its open nodes handed on
 * (solver/engines/ only). */
#ifndef PZ_SOLVER_ENGINES_ASTAR_H
#define PZ_SOLVER_ENGINES_ASTAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nodeset.h"
#include "search.h"

/* What A* leaves when it stops at its cap. */
typedef struct astar_frontier {
    nodeset_t set;   /* every node A* stored (g, h, parent, move) */
    uint32_t *nodes; /* the open nodes, by h, then by g + h */
    uint16_t *f;     /* g + h of each of nodes, in the same order */
    size_t count;    /* of nodes */
    int fmin;        /* the least of f */
    bool depth_cut;  /* A* dropped a successor deeper than max_depth */
    uint64_t expanded;
    uint64_t generated;
    uint64_t duplicates;
} astar_frontier_t;

/*
 * Runs A* on ctx (limits, statistics, budget) until the next expansion
 * could store more than max_nodes nodes. Some optimal path from the start
 * then passes through an open node at that node's optimal depth, so
 * searches from the open nodes together find the optimum. Returns
 * PZ_STATUS_RUNNING with fr filled (free it with astar_frontier_free),
 * PZ_STATUS_SOLVED with out's moves and length set (A* reached the goal first),
 * another terminal status (fr empty, its counts set) or a negative PZ_E* code.
 */
int astar_frontier(const search_ctx_t *ctx,
                   uint32_t max_nodes,
                   astar_frontier_t *fr,
                   pz_solution_t *out);

/*
 * Resumes the A* that left fr (from astar_frontier, RUNNING) until it
 * holds max_nodes nodes, then fills fr with the new open nodes; counts
 * are added to fr's. Returns like astar_frontier; on any status but
 * RUNNING fr is left empty (its counts set).
 */
int astar_frontier_grow(const search_ctx_t *ctx,
                        uint32_t max_nodes,
                        astar_frontier_t *fr,
                        pz_solution_t *out);

/* Writes the moves from the start to node i of fr into moves (room for
 * PZ_SOLUTION_MAX) and returns their number. */
int astar_frontier_path(const astar_frontier_t *fr, uint32_t i, uint8_t *moves);

/* Returns fr's memory to budget. */
void astar_frontier_free(astar_frontier_t *fr, pz_budget_t *budget);

/* Bytes one node of puzzle p takes in a frontier search, about: the node,
 * its share of the hash table and of the queue. */
size_t astar_frontier_node_bytes(const pz_puzzle_t *p);

#endif
