#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_solve_time.sh - wall time of one `puzzled solve` process with its
# tables on disk (a 2-move 3x3x3 scramble by default): the start-up cost a
# command pays (mapping the two-phase tables, no checksum pass), not the
# search. Uses hyperfine when it is installed, else a loop of RUNS runs and
# their median.
#
#   bench/cli_solve_time.sh [PUZZLED_BIN] [-- SOLVE ARGS...]
#   RUNS=21 PUZZLED_TABLES=DIR bench/cli_solve_time.sh build/puzzled
set -euo pipefail
bin=${1:-build/puzzled}
shift || true
[ "${1:-}" = -- ] && shift
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--puzzle 3x3x3 --scramble "R U")
runs=${RUNS:-21}

# Once first: builds the tables if they are missing (not timed).
"$bin" solve "${args[@]}" >/dev/null

if command -v hyperfine >/dev/null 2>&1; then
    exec hyperfine -N --warmup 3 --runs "$runs" \
        "$bin solve $(printf '%q ' "${args[@]}")"
fi
times=()
for _ in $(seq 1 "$runs"); do
    t0=$(date +%s%N)
    "$bin" solve "${args[@]}" >/dev/null
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000)))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
n=${#sorted[@]}
printf 'puzzled solve %s: median %.1f ms, min %.1f ms, max %.1f ms (%d runs)\n' \
    "${args[*]}" "$(echo "${sorted[$((n / 2))]} / 1000" | bc -l)" \
    "$(echo "${sorted[0]} / 1000" | bc -l)" \
    "$(echo "${sorted[$((n - 1))]} / 1000" | bc -l)" "$n"
