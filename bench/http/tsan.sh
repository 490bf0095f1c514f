#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tsan.sh - ThreadSanitizer run of the daemon under mixed load.
#
# Builds puzzled with -DENABLE_TSAN=ON in build-tsan, then runs every
# scenario of robust.py against it (load at and over the connection limit
# with probes, slow heads and bodies, cancel and memory storms, SIGTERM
# under load), with the reports written to a temporary directory. Prints
# the number of reports and exits 1 when there is any. Scaled down from
# robust.py's defaults (TSan runs several times slower); the same
# environment variables override it.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD_DIR:-$root/build-tsan}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DENABLE_TSAN=ON -DBUILD_TESTING=OFF -DPZ_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target puzzled >/dev/null
logs="$(mktemp -d /tmp/pz-tsan-XXXXXX)"
trap 'rm -rf "$logs"' EXIT
export TSAN_OPTIONS="log_path=$logs/report ${TSAN_OPTIONS:-}"
export LIMIT="${LIMIT:-32}" SLOW="${SLOW:-40}" JOBS="${JOBS:-300}"
export CLIENTS="${CLIENTS:-16}" DURATION="${DURATION:-5}"
python3 "$root/bench/http/robust.py" --bin "$build/puzzled" "$@"
reports=$(cat "$logs"/report* 2>/dev/null | grep -c "^WARNING: ThreadSanitizer" || true)
echo "ThreadSanitizer reports: $reports"
if [ "$reports" -gt 0 ]; then
    cat "$logs"/report*
    exit 1
fi
