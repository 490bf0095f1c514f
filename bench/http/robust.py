#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""robust.py - load, slow-client, storm and shutdown probes of `puzzled serve`.

Starts its own daemon on 127.0.0.1 (ephemeral port, the default table
directory or PUZZLED_TABLES, --table-builds never) for each scenario, runs
it, and prints one JSON object per scenario with what it measured, plus
the daemon's RSS and open descriptors before and after. Loopback only;
every step is bounded in time.

Scenarios (default: all):
  limit    wrk (keep-alive) on POST /v1/solve at the connection limit and at
           twice it, with GET /healthz probes every 50 ms on new
           connections throughout: wrk's requests, statuses and p99; the
           probes' latency and failures.
  slow     SLOW connections trickling a request head (1 byte / 4 s) and
           SLOW trickling a POST body, then a new client's solve requests,
           one every 200 ms: its latency while they hold every place.
  storm    a cancel storm (JOBS long jobs submitted, then all cancelled at
           once) and a memory storm (JOBS requests asking 4 GiB each): the
           statuses, and that every job ends.
  sigterm  CLIENTS clients in a loop of solve requests, SIGTERM after 2 s:
           every request answered (or refused at connect), the exit code
           and the time the stop took.

Usage: bench/http/robust.py [--bin build-release/puzzled] [scenario ...]
Environment: LIMIT=256 SLOW=300 JOBS=2000 CLIENTS=64 DURATION=10
  WRAP="..." runs the daemon under a command (valgrind, strace, ...).
"""
import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

LIMIT = int(os.environ.get("LIMIT", "256"))
SLOW = int(os.environ.get("SLOW", "300"))
JOBS = int(os.environ.get("JOBS", "2000"))
CLIENTS = int(os.environ.get("CLIENTS", "64"))
DURATION = int(os.environ.get("DURATION", "10"))
HERE = os.path.dirname(os.path.abspath(__file__))
CUBE2 = b'{"puzzle":"2x2x2","scramble":"R U R\' U\' F2","wait_ms":2000}'
LONG = (b'{"puzzle":"15-puzzle",'
        b'"state":[14,13,15,7,11,12,9,5,6,0,2,1,4,8,10,3],'
        b'"goal":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],'
        b'"engine":"idastar","heuristic":"none","time_ms":60000,'
        b'"memory_mb":16,"wait_ms":0}')
BIG = (b'{"puzzle":"8-puzzle","scramble":"R D","memory_mb":4096,'
       b'"wait_ms":0}')


def pct(values, p):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


class Daemon:
    """A `puzzled serve` on an ephemeral loopback port."""

    def __init__(self, binary, extra=()):
        self.dir = tempfile.mkdtemp(prefix="pz-robust-")
        port_file = os.path.join(self.dir, "port")
        self.log = open(os.path.join(self.dir, "log"), "w")
        args = [binary, "serve", "--bind", "127.0.0.1", "--port", "0",
                "--port-file", port_file, "--table-builds", "never",
                "--log-level", "warn", "--connection-limit", str(LIMIT)]
        wrap = os.environ.get("WRAP", "").split()
        self.proc = subprocess.Popen(wrap + args + list(extra),
                                     stderr=self.log)
        deadline = time.time() + 60
        while time.time() < deadline:
            if os.path.exists(port_file):
                text = open(port_file).read().strip()
                if text:
                    self.port = int(text)
                    break
            if self.proc.poll() is not None:
                raise RuntimeError("the daemon exited at start")
            time.sleep(0.05)
        else:
            raise RuntimeError("no port file")
        while time.time() < deadline:
            status, _ = asyncio.run(request(self.port, b"GET", "/readyz"))
            if status == 200:
                break
            time.sleep(0.1)

    def resources(self):
        pid = self.proc.pid
        rss = 0
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1]) // 1024
        return {"rss_mib": rss, "fds": len(os.listdir(f"/proc/{pid}/fd"))}

    def stop(self, timeout=30):
        t0 = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = "killed"
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)
        return code, round((time.monotonic() - t0) * 1000)


async def request(port, method, path, body=None, timeout=15):
    """One request on a new connection: (status, seconds); status None on a
    connection failure, 'timeout' when nothing came in time."""
    t0 = time.monotonic()
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port), timeout)
    except (OSError, asyncio.TimeoutError):
        return None, time.monotonic() - t0
    head = f"{method.decode()} {path} HTTP/1.1\r\nHost: b\r\n"
    if body is not None:
        head += ("Content-Type: application/json\r\n"
                 f"Content-Length: {len(body)}\r\n")
    try:
        writer.write(head.encode() + b"Connection: close\r\n\r\n" +
                     (body or b""))
        data = await asyncio.wait_for(reader.read(), timeout)
        status = int(data[9:12]) if data.startswith(b"HTTP/1.") else None
    except asyncio.TimeoutError:
        status = "timeout"
    except OSError:
        status = None
    writer.close()
    return status, time.monotonic() - t0


async def probes(port, stop, out, interval=0.05):
    while not stop.is_set():
        status, secs = await request(port, b"GET", "/healthz", timeout=10)
        out.append((status, secs))
        await asyncio.sleep(interval)


def wrk(port, conns, seconds):
    """wrk with solve.lua on POST /v1/solve; its summary as a dict."""
    body = tempfile.NamedTemporaryFile(delete=False)
    body.write(CUBE2)
    body.close()
    res = subprocess.run(
        ["timeout", str(seconds + 30), "wrk", "-t2", f"-c{conns}",
         f"-d{seconds}s", "--latency", "-s", os.path.join(HERE, "solve.lua"),
         f"http://127.0.0.1:{port}/v1/solve", "--", body.name],
        capture_output=True, text=True)
    os.unlink(body.name)
    out = res.stdout
    summary = {"connections": conns}
    m = re.search(r"(\d+) requests in", out)
    summary["requests"] = int(m.group(1)) if m else None
    m = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    summary["non_2xx"] = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: (.*)", out)
    summary["socket_errors"] = m.group(1) if m else "none"
    m = re.search(r"99%\s+(\S+)", out)
    summary["p99"] = m.group(1) if m else None
    m = re.search(r"Requests/sec:\s+(\S+)", out)
    summary["req_per_s"] = float(m.group(1)) if m else None
    return summary


def probe_summary(results):
    ok = [s for st, s in results if st == 200]
    return {"probes": len(results),
            "answered_200": len(ok),
            "other": sorted({str(st) for st, _ in results if st != 200}),
            "p50_ms": round(pct(ok, 50) * 1000, 1) if ok else None,
            "p99_ms": round(pct(ok, 99) * 1000, 1) if ok else None,
            "max_ms": round(max(ok) * 1000, 1) if ok else None}


async def with_probes(port, fn):
    stop = asyncio.Event()
    results = []
    task = asyncio.create_task(probes(port, stop, results))
    summary = await asyncio.to_thread(fn)
    stop.set()
    await task
    return summary, probe_summary(results)


def scenario_limit(binary):
    d = Daemon(binary)
    before = d.resources()
    runs = []
    for conns in (LIMIT, 2 * LIMIT):
        load, probe = asyncio.run(
            with_probes(d.port, lambda c=conns: wrk(d.port, c, DURATION)))
        runs.append({"wrk": load, "healthz": probe})
    time.sleep(1)
    after = d.resources()
    code, _ = d.stop()
    return {"scenario": "limit", "limit": LIMIT, "runs": runs,
            "before": before, "after": after, "exit": code}


async def trickle(port, head, stop):
    """Sends head a byte every 4 s until stop or the server closes."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return "refused"
    i = 0
    try:
        while not stop.is_set() and i < len(head):
            writer.write(head[i:i + 1])
            await writer.drain()
            i += 1
            try:
                data = await asyncio.wait_for(reader.read(4096), 4)
                if not data:
                    return "closed"
                return "answered"
            except asyncio.TimeoutError:
                pass
    except OSError:
        return "closed"
    finally:
        writer.close()
    return "open"


async def slow_run(port):
    stop = asyncio.Event()
    heads = [b"GET /healthz HTTP/1.1\r\nHost: b\r\nX-Slow: " + b"a" * 200]
    body_head = (b"POST /v1/solve HTTP/1.1\r\nHost: b\r\n"
                 b"Content-Type: application/json\r\n"
                 b"Content-Length: 400\r\n\r\n")
    tasks = [asyncio.create_task(trickle(port, heads[0], stop))
             for _ in range(SLOW)]
    # Slow bodies: the head at once, then the body a byte at a time.
    bodies = [asyncio.create_task(
        trickle_body(port, body_head, stop)) for _ in range(SLOW)]
    await asyncio.sleep(2)
    lat = []
    for _ in range(3 * DURATION):
        status, secs = await request(port, b"POST", "/v1/solve", CUBE2)
        lat.append((status, secs))
        await asyncio.sleep(0.2)
    stop.set()
    ends = await asyncio.gather(*tasks, *bodies)
    return lat, ends


async def trickle_body(port, head, stop):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(head)
        await writer.drain()
    except OSError:
        return "refused"
    try:
        while not stop.is_set():
            writer.write(b" ")
            await writer.drain()
            try:
                data = await asyncio.wait_for(reader.read(4096), 4)
                return "closed" if not data else "answered"
            except asyncio.TimeoutError:
                pass
    except OSError:
        return "closed"
    finally:
        writer.close()
    return "open"


def scenario_slow(binary):
    d = Daemon(binary)
    before = d.resources()
    lat, ends = asyncio.run(slow_run(d.port))
    ok = [s for st, s in lat if st == 200]
    time.sleep(1)
    after = d.resources()
    code, _ = d.stop()
    counts = {}
    for e in ends:
        counts[e] = counts.get(e, 0) + 1
    return {"scenario": "slow", "limit": LIMIT, "slow_heads": SLOW,
            "slow_bodies": SLOW,
            "new_client": {"requests": len(lat), "answered_200": len(ok),
                           "other": sorted({str(st) for st, _ in lat
                                            if st != 200}),
                           "p50_ms": round(pct(ok, 50) * 1000, 1) if ok
                           else None,
                           "max_ms": round(max(ok) * 1000, 1) if ok
                           else None},
            "slow_connections_end": counts, "before": before,
            "after": after, "exit": code}


async def storm_run(port):
    sem = asyncio.Semaphore(128)

    async def one(method, path, body=None):
        async with sem:
            return await request(port, method, path, body)

    async def submit_long():
        async with sem:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"POST /v1/solve HTTP/1.1\r\nHost: b\r\n"
                         b"Content-Type: application/json\r\n"
                         + f"Content-Length: {len(LONG)}\r\n".encode()
                         + b"Connection: close\r\n\r\n" + LONG)
            data = await reader.read()
            writer.close()
            m = re.search(rb'"id":"([0-9a-f]+)"', data)
            return int(data[9:12]), m.group(1).decode() if m else None

    t0 = time.monotonic()
    subs = await asyncio.gather(*[submit_long() for _ in range(JOBS)])
    ids = [i for _, i in subs if i]
    cancels = await asyncio.gather(
        *[one(b"DELETE", f"/v1/jobs/{i}") for i in ids])
    cancel_s = time.monotonic() - t0
    # Every accepted job must end.
    pending = 0
    for i in ids:
        status, _ = await one(b"GET", f"/v1/jobs/{i}?wait_ms=5000")
        pending += status != 200
    mem = await asyncio.gather(*[one(b"POST", "/v1/solve", BIG)
                                 for _ in range(JOBS)])

    def hist(rs):
        h = {}
        for st, _ in rs:
            h[str(st)] = h.get(str(st), 0) + 1
        return h

    return {"submitted": hist([(s, 0) for s, _ in subs]),
            "cancel_statuses": hist(cancels),
            "not_ended_after_5s": pending,
            "seconds": round(cancel_s, 2),
            "memory_storm_statuses": hist(mem)}


def scenario_storm(binary):
    d = Daemon(binary, ["--queue", str(JOBS), "--max-jobs", str(2 * JOBS)])
    before = d.resources()
    result = asyncio.run(storm_run(d.port))
    time.sleep(1)
    after = d.resources()
    code, _ = d.stop()
    return {"scenario": "storm", "jobs": JOBS, **result, "before": before,
            "after": after, "exit": code}


async def sigterm_run(d):
    outcomes = {}
    stop_at = time.monotonic() + 2
    term = {}

    async def client():
        while True:
            status, _ = await request(d.port, b"POST", "/v1/solve", CUBE2,
                                      timeout=20)
            outcomes[str(status)] = outcomes.get(str(status), 0) + 1
            if status is None and "t" in term:
                return

    async def killer():
        await asyncio.sleep(max(0, stop_at - time.monotonic()))
        term["t"] = time.monotonic()
        d.proc.send_signal(signal.SIGTERM)

    await asyncio.gather(killer(), *[client() for _ in range(CLIENTS)])
    return outcomes, term["t"]


def scenario_sigterm(binary):
    d = Daemon(binary)
    before = d.resources()
    outcomes, t_term = asyncio.run(sigterm_run(d))
    code = d.proc.wait(30)
    stop_ms = round((time.monotonic() - t_term) * 1000)
    d.log.close()
    shutil.rmtree(d.dir, ignore_errors=True)
    # None: refused at connect once the listening socket is closed.
    return {"scenario": "sigterm", "clients": CLIENTS,
            "outcomes": outcomes, "exit": code,
            "stop_ms_upper_bound": stop_ms, "before": before}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "..",
                                                  "build-release", "puzzled"))
    ap.add_argument("scenarios", nargs="*",
                    default=["limit", "slow", "storm", "sigterm"])
    args = ap.parse_args()
    table = {"limit": scenario_limit, "slow": scenario_slow,
             "storm": scenario_storm, "sigterm": scenario_sigterm}
    for name in args.scenarios:
        if name not in table:
            sys.exit(f"robust.py: unknown scenario {name}")
        if name == "limit" and shutil.which("wrk") is None:
            sys.exit("robust.py: wrk is not installed "
                     "(scripts/setup --bench)")
        print(json.dumps(table[name](args.bin)), flush=True)


if __name__ == "__main__":
    main()
