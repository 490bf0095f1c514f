#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# load.sh - HTTP load benchmark of `puzzled serve` against an MHD ceiling.
#
# 1. Builds puzzled (Release, BUILD_DIR) unless PUZZLED_BIN is given, and the
#    minimal responder ceiling.c with cc + pkg-config.
# 2. Starts `puzzled serve` on 127.0.0.1 with an ephemeral port and runs wrk
#    with keep-alive (solve.lua) for each body in BODIES: cube2 = the 2x2x2
#    scramble R U' R' F' U (5 QTM), eight = a 31-move 8-puzzle (the worst
#    case), easy = a 3-move 8-puzzle (mostly HTTP and validation cost);
#    prints requests/s and latency percentiles.
# 3. Runs the same wrk against the ceiling and prints puzzled/ceiling.
#    With RUNS=n, steps 2-3 alternate n times and the median ratio per body
#    is printed (the machine is shared: report medians, with the load).
# 4. Runs a fixed-rate test (hey -q, RATE req/s in total) for p99 latency,
#    when hey is installed.
# Every run is bounded (DURATION, wrapped in timeout). Tunables (env):
#   DURATION=10s THREADS=2 CONNECTIONS=16 RATE=1000 BODIES="cube2 eight easy"
#   RUNS=1 WORKERS=(daemon default) BUILD_DIR=build-bench-http PUZZLED_BIN=...
# The daemon uses its default table directory (PUZZLED_TABLES overrides);
# the run starts once /readyz says the startup tables are loaded.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
duration="${DURATION:-10s}"
threads="${THREADS:-2}"
conns="${CONNECTIONS:-16}"
rate="${RATE:-1000}"
bodies="${BODIES:-cube2 eight easy}"
runs="${RUNS:-1}"
build="${BUILD_DIR:-$root/build-bench-http}"
secs="${duration%s}"
limit=$((secs + 20))

command -v wrk >/dev/null || { echo "load.sh: wrk is not installed" >&2; exit 2; }
tmp="$(mktemp -d /tmp/pz-load-XXXXXX)"
pids=()
cleanup() {
    for p in "${pids[@]}"; do
        kill -TERM "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    rm -rf "$tmp"
}
trap cleanup EXIT

if [[ -z "${PUZZLED_BIN:-}" ]]; then
    echo "== building puzzled (Release) in $build"
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
        -DPZ_BUILD_BENCH=OFF >/dev/null
    cmake --build "$build" -j2 --target puzzled >/dev/null
    PUZZLED_BIN="$build/puzzled"
fi
echo "== building the MHD ceiling responder"
# shellcheck disable=SC2046
cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -o "$tmp/ceiling" \
    "$here/ceiling.c" $(pkg-config --cflags --libs libmicrohttpd)

# wait_port FILE PID: prints the port once FILE holds it.
wait_port() {
    for _ in $(seq 1 500); do
        if [[ -s "$1" ]] && grep -qE '^[0-9]+' "$1"; then
            head -n1 "$1" | tr -d '[:space:]'
            return 0
        fi
        kill -0 "$2" 2>/dev/null || { echo "load.sh: server died" >&2; return 1; }
        sleep 0.02
    done
    echo "load.sh: no port in $1" >&2
    return 1
}

# The request bodies, one file each (wrk, curl and hey read them).
declare -A body_json=(
    [cube2]='{"puzzle":"2x2x2","metric":"qtm","scramble":"R U'"'"' R'"'"' F'"'"' U"}'
    [eight]='{"puzzle":"8-puzzle","state":[8,6,7,2,5,4,3,0,1]}'
    [easy]='{"puzzle":"8-puzzle","state":[1,2,3,4,0,6,7,5,8]}'
)
for b in "${!body_json[@]}"; do
    printf '%s' "${body_json[$b]}" >"$tmp/$b.json"
done

# run_wrk NAME URL BODY [RUN]: one bounded wrk run; prints a summary line
# and keeps its requests/s in $tmp/rps-NAME-BODY-RUN.
run_wrk() {
    local name="$1" url="$2" body="$3" run="${4:-1}" out="$tmp/wrk-$1-$3.txt"
    timeout "$limit" wrk -t"$threads" -c"$conns" -d"$duration" --latency \
        --timeout 5s -s "$here/solve.lua" "$url" -- "$tmp/$body.json" >"$out" 2>&1 || true
    local rps p50 p90 p99 non2xx errs
    rps=$(awk '/^Requests\/sec:/ {print $2}' "$out")
    p50=$(awk '$1 == "50%" {print $2}' "$out")
    p90=$(awk '$1 == "90%" {print $2}' "$out")
    p99=$(awk '$1 == "99%" {print $2}' "$out")
    non2xx=$(awk '/Non-2xx/ {print $NF}' "$out")
    errs=$(awk '/Socket errors/ {print $0}' "$out")
    printf '%-8s %-6s %10s req/s  p50 %-9s p90 %-9s p99 %-9s non-2xx %s %s\n' \
        "$name" "$body" "${rps:-?}" "${p50:-?}" "${p90:-?}" "${p99:-?}" \
        "${non2xx:-0}" "${errs}"
    echo "${rps:-0}" >"$tmp/rps-$name-$body-$run"
}

echo "== starting puzzled serve ($PUZZLED_BIN)"
serve_args=(serve --port 0 --bind 127.0.0.1 --port-file "$tmp/pz.port")
[[ -n "${WORKERS:-}" ]] && serve_args+=(--workers "$WORKERS")
"$PUZZLED_BIN" "${serve_args[@]}" >"$tmp/pz.log" 2>&1 &
pz=$!
pids+=("$pz")
pz_port="$(wait_port "$tmp/pz.port" "$pz")"
# The startup tables load in the background; measuring before they are
# in would count their loading against the daemon.
for _ in $(seq 1 1200); do
    code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$pz_port/readyz" || true)
    [[ "$code" == 200 ]] && break
    sleep 0.05
done
[[ "$code" == 200 ]] || echo "load.sh: /readyz still answers $code; measuring anyway" >&2
for b in $bodies; do
    # Warm-up request: loads any table and checks the body is accepted.
    code=$(curl -s -o "$tmp/warm.json" -w '%{http_code}' -H 'Content-Type: application/json' \
        --data-binary "@$tmp/$b.json" "http://127.0.0.1:$pz_port/v1/solve")
    [[ "$code" == 200 ]] || { echo "load.sh: warm-up $b answered $code: $(head -c 300 "$tmp/warm.json")" >&2; }
done

echo "== ceiling: minimal MHD responder (fixed 1 KiB JSON)"
"$tmp/ceiling" --port-file "$tmp/ceil.port" --threads 2 >"$tmp/ceil.log" 2>&1 &
ceil=$!
pids+=("$ceil")
ceil_port="$(wait_port "$tmp/ceil.port" "$ceil")"

echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrk -t$threads -c$conns -d$duration --latency (keep-alive), POST /v1/solve"
for r in $(seq 1 "$runs"); do
    for b in $bodies; do
        run_wrk puzzled "http://127.0.0.1:$pz_port/v1/solve" "$b" "$r"
    done
    run_wrk ceiling "http://127.0.0.1:$ceil_port/v1/solve" cube2 "$r"
    for b in $bodies; do
        awk -v a="$(cat "$tmp/rps-puzzled-$b-$r")" \
            -v c="$(cat "$tmp/rps-ceiling-cube2-$r")" -v b="$b" \
            'BEGIN { if (c > 0) printf "ratio    %-6s puzzled/ceiling = %.3f\n", b, a / c }' |
            tee -a "$tmp/ratio-$b"
    done
done
if ((runs > 1)); then
    for b in $bodies; do
        awk '{ print $NF }' "$tmp/ratio-$b" | sort -n |
            awk -v b="$b" -v n="$runs" '{ v[NR] = $1 }
                END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
                      printf "median   %-6s puzzled/ceiling = %.3f over %d runs\n", b, m, n }'
    done
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

if command -v hey >/dev/null; then
    workers=10
    per=$(( (rate + workers - 1) / workers ))
    echo
    echo "hey -z $duration -c $workers -q $per (about $rate req/s), POST /v1/solve cube2"
    timeout "$limit" hey -z "$duration" -c "$workers" -q "$per" -m POST \
        -T application/json -D "$tmp/cube2.json" \
        "http://127.0.0.1:$pz_port/v1/solve" >"$tmp/hey.txt" 2>&1 || true
    awk '/Requests\/sec/ {print "fixed    rate   " $2 " req/s achieved"}
         /Status code distribution/ {s = 1; next}
         s && /\[[0-9]+\]/ {print "fixed    status " $0}
         / (50|90|95|99)% in / {print "fixed    " $1 " " $3 " " $4}' "$tmp/hey.txt"
else
    echo "note: hey not installed; no fixed-rate run (wrk 4 has no -R)"
fi

kill -TERM "$pz"
if wait "$pz"; then
    echo "== puzzled exited 0 after SIGTERM"
else
    echo "== puzzled exited with $? after SIGTERM" >&2
fi
pids=("$ceil")
