#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# redis.sh - synchronous solves through the Redis job backend against the
# memory backend, side by side.
#
# Starts a private redis-server (no persistence, loopback, its own port)
# and, in each of RUNS rounds, one `puzzled serve` on the memory backend,
# one on Redis, and REPLICAS on Redis together; each measured with wrk
# (keep-alive, solve.lua) for every body in BODIES:
#   cube2 = 2x2x2 R U' R' F' U, answered by the complete table on the
#           connection's thread (the table-engine path);
#   queued = an 8-puzzle by A* (23 moves): a job that goes through the
#           queue to a solver thread and back, on Redis through the stream.
# Prints requests/s and latency percentiles per run, the Redis/memory
# ratios per run and their medians, and the round trips to Redis per
# solve (puzzled_job_store_round_trips_total over the requests wrk made,
# and Redis's own command count per solve). Then CANCELS times a DELETE
# sent to one replica against the end of the job it stops on another
# (finished_at minus the moment the DELETE was sent).
# Tunables (env): DURATION=10s THREADS=2 CONNECTIONS=16 RUNS=3 REPLICAS=3
#   BODIES="cube2 queued" CANCELS=5 BUILD_DIR=build-bench-http PUZZLED_BIN=...
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
duration="${DURATION:-10s}"
threads="${THREADS:-2}"
conns="${CONNECTIONS:-16}"
runs="${RUNS:-3}"
cancels="${CANCELS:-5}"
replicas="${REPLICAS:-3}"
bodies="${BODIES:-cube2 queued}"
build="${BUILD_DIR:-$root/build-bench-http}"
secs="${duration%s}"
limit=$((secs + 20))

for tool in wrk redis-server redis-cli curl; do
    command -v "$tool" >/dev/null || { echo "redis.sh: $tool is not installed" >&2; exit 2; }
done
tmp="$(mktemp -d /tmp/pz-redis-bench-XXXXXX)"
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

declare -A body_json=(
    [cube2]='{"puzzle":"2x2x2","metric":"qtm","scramble":"R U'"'"' R'"'"' F'"'"' U"}'
    [queued]='{"puzzle":"8-puzzle","state":[8,1,3,4,0,2,7,6,5],"engine":"astar"}'
)
for b in "${!body_json[@]}"; do
    printf '%s' "${body_json[$b]}" >"$tmp/$b.json"
done

# A free loopback port (the kernel's choice).
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

rport="$(free_port)"
redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no \
    --dir "$tmp" --logfile "$tmp/redis.log" --daemonize no &
pids+=($!)
for _ in $(seq 1 500); do
    [[ "$(redis-cli -p "$rport" ping 2>/dev/null)" == PONG ]] && break
    sleep 0.02
done
echo "== redis-server $(redis-server --version | awk '{print $3}') on port $rport"

# start NAME [serve flags...]: starts a daemon, waits for /readyz 200 and
# prints its port.
start() {
    local name="$1"
    shift
    "$PUZZLED_BIN" serve --port 0 --bind 127.0.0.1 --port-file "$tmp/$name.port" \
        "$@" >"$tmp/$name.log" 2>&1 &
    pids+=($!)
    echo $! >"$tmp/$name.pid"
    for _ in $(seq 1 1500); do
        if [[ -s "$tmp/$name.port" ]]; then
            local port code
            port="$(head -n1 "$tmp/$name.port" | tr -d '[:space:]')"
            code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz" || true)
            if [[ "$code" == 200 ]]; then
                echo "$port"
                return 0
            fi
        fi
        sleep 0.05
    done
    echo "redis.sh: $name never became ready" >&2
    return 1
}

stop() {
    local pid
    pid="$(cat "$tmp/$1.pid")"
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

metric() {
    curl -s "http://127.0.0.1:$1/metrics" | awk -v n="$2" '$1 == n {print $2}'
}

# wrk_one OUT URL BODY CONNS THREADS: one bounded wrk run into OUT.
wrk_one() {
    timeout "$limit" wrk -t"$5" -c"$4" -d"$duration" --latency --timeout 5s \
        -s "$here/solve.lua" "$2" -- "$tmp/$3.json" >"$1" 2>&1 || true
}

# report NAME BODY RUN OUT...: sums requests/s over the outputs, takes the
# worst p99, prints a line and keeps the rate.
report() {
    local name="$1" body="$2" run="$3"
    shift 3
    local rps p99 non2xx reqs
    rps=$(awk '/^Requests\/sec:/ {s += $2} END {printf "%.0f", s}' "$@")
    reqs=$(awk '/requests in/ {s += $1} END {print s + 0}' "$@")
    p99=$(awk '$1 == "99%" {print $2}' "$@" | sort -h | tail -n1)
    non2xx=$(awk '/Non-2xx/ {s += $NF} END {print s + 0}' "$@")
    printf '%-9s %-6s run %d %8s req/s  p99 %-9s requests %-7s non-2xx %s\n' \
        "$name" "$body" "$run" "$rps" "$p99" "$reqs" "$non2xx"
    echo "$rps" >"$tmp/rps-$name-$body-$run"
    echo "$reqs" >"$tmp/reqs-$name-$body-$run"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrk -t$threads -c$conns -d$duration --latency (keep-alive), POST /v1/solve"
for r in $(seq 1 "$runs"); do
    port="$(start memory)"
    for b in $bodies; do
        curl -s -o /dev/null -H 'Content-Type: application/json' --data-binary "@$tmp/$b.json" \
            "http://127.0.0.1:$port/v1/solve"
        wrk_one "$tmp/w-mem-$b" "http://127.0.0.1:$port/v1/solve" "$b" "$conns" "$threads"
        report memory "$b" "$r" "$tmp/w-mem-$b"
    done
    stop memory

    port="$(start redis1 --redis "redis://127.0.0.1:$rport" --redis-prefix "b$r")"
    for b in $bodies; do
        curl -s -o /dev/null -H 'Content-Type: application/json' --data-binary "@$tmp/$b.json" \
            "http://127.0.0.1:$port/v1/solve"
        rt0="$(metric "$port" puzzled_job_store_round_trips_total)"
        cmd0="$(redis-cli -p "$rport" info stats | awk -F: '/^total_commands_processed/ {print $2+0}')"
        wrk_one "$tmp/w-r1-$b" "http://127.0.0.1:$port/v1/solve" "$b" "$conns" "$threads"
        rt1="$(metric "$port" puzzled_job_store_round_trips_total)"
        cmd1="$(redis-cli -p "$rport" info stats | awk -F: '/^total_commands_processed/ {print $2+0}')"
        report redis-1 "$b" "$r" "$tmp/w-r1-$b"
        awk -v a="$rt0" -v b="$rt1" -v c="$cmd0" -v d="$cmd1" \
            -v n="$(cat "$tmp/reqs-redis-1-$b-$r")" -v body="$b" \
            'BEGIN { if (n > 0) printf "trips     %-6s run %d %.2f round trips and %.2f Redis commands per solve\n", body, '"$r"', (b - a) / n, (d - c) / n }'
    done
    stop redis1

    ports=()
    for i in $(seq 1 "$replicas"); do
        ports+=("$(start "rep$i" --redis "redis://127.0.0.1:$rport" --redis-prefix "c$r")")
    done
    for b in $bodies; do
        outs=()
        wrks=()
        per=$(( (conns + replicas - 1) / replicas ))
        for i in "${!ports[@]}"; do
            curl -s -o /dev/null -H 'Content-Type: application/json' --data-binary "@$tmp/$b.json" \
                "http://127.0.0.1:${ports[$i]}/v1/solve"
        done
        # One wrk per replica, all at once: the balancer's share of each.
        for i in "${!ports[@]}"; do
            wrk_one "$tmp/w-r3-$b-$i" "http://127.0.0.1:${ports[$i]}/v1/solve" "$b" "$per" 1 &
            wrks+=($!)
            outs+=("$tmp/w-r3-$b-$i")
        done
        wait "${wrks[@]}"
        report "redis-$replicas" "$b" "$r" "${outs[@]}"
    done
    for i in $(seq 1 "$replicas"); do
        stop "rep$i"
    done
    for b in $bodies; do
        awk -v m="$(cat "$tmp/rps-memory-$b-$r")" -v a="$(cat "$tmp/rps-redis-1-$b-$r")" \
            -v c="$(cat "$tmp/rps-redis-$replicas-$b-$r")" -v b="$b" -v n="$replicas" \
            'BEGIN { if (m > 0) printf "ratio     %-6s run %d redis-1/memory = %.3f  redis-%d/memory = %.3f\n", b, '"$r"', a / m, n, c / m }' |
            tee -a "$tmp/ratio-$b"
    done
done
# median FILE: the median of the numbers in FILE, one per line.
median() {
    sort -n "$1" | awk '{ v[NR] = $1 }
        END { printf "%.3f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
for b in $bodies; do
    awk '{ split($0, f, "= "); print f[2] + 0 }' "$tmp/ratio-$b" >"$tmp/one-$b"
    awk '{ split($0, f, "= "); print f[3] + 0 }' "$tmp/ratio-$b" >"$tmp/many-$b"
    printf 'median    %-6s redis-1/memory = %s  redis-%d/memory = %s over %d runs\n' \
        "$b" "$(median "$tmp/one-$b")" "$replicas" "$(median "$tmp/many-$b")" "$runs"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# Cancel across replicas: DELETE on B of a job that A (or B) runs.
a="$(start canA --redis "redis://127.0.0.1:$rport" --redis-prefix cancel --workers 1)"
b="$(start canB --redis "redis://127.0.0.1:$rport" --redis-prefix cancel --workers 1)"
long='{"puzzle":"15-puzzle","state":[14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3],"goal":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],"engine":"idastar","heuristic":"none","time_ms":60000,"wait_ms":0}'
for i in $(seq 1 "$cancels"); do
    id=$(curl -s -H 'Content-Type: application/json' -d "$long" "http://127.0.0.1:$a/v1/solve" |
        grep -o '"id":"[0-9a-f]*"' | head -n1 | cut -d'"' -f4)
    for _ in $(seq 1 200); do
        curl -s "http://127.0.0.1:$b/v1/jobs/$id" | grep -q '"status":"running"' && break
        sleep 0.05
    done
    sleep 0.3
    t0=$(date +%s%3N)
    curl -s -o /dev/null -X DELETE "http://127.0.0.1:$b/v1/jobs/$id"
    fin=$(curl -s "http://127.0.0.1:$a/v1/jobs/$id?wait_ms=5000" |
        grep -o '"finished_at":"[^"]*"' | cut -d'"' -f4)
    t1=$(date -d "$fin" +%s%3N)
    echo "cancel    $i: DELETE on one replica to the job's end on its replica: $((t1 - t0)) ms"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
