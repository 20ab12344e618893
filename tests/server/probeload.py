#!/usr/bin/env python3
"""probeload.py: many /probe requests at once to a prober, and what came back.

usage: probeload.py [options] PORT TARGET N

Opens N connections to 127.0.0.1:PORT at once, each sending one
GET /probe?target=TARGET&module=MODULE with X-Prometheus-Scrape-Timeout-
Seconds: TIMEOUT (Connection: close), on one asyncio loop, and reads every
answer.  Meanwhile (--live URL) it probes URL every --live-every seconds
until the load's answers are all in.  With N 1 and --sequential K it sends
K probes one after another instead (the unloaded case).  With --each, load
probe I's target is TARGET with n=I added to its query, so each is a
target of its own (a fleet rather than one target).

Prints one JSON object: n, answered (HTTP 200 with a probe_success line),
right (probe_success equal to --expect), statuses, errors (connection
failures and client timeouts, first few kept), client wall times of the
answers (min, p50, max), the probe_duration_seconds the prober reported (max),
live (sent, ok, probe_duration p50/p95 in ms), wall (first request to last
answer), and with --pid the prober's CPU seconds over the run (utime +
stime from /proc/PID/stat), its peak VmRSS and peak open descriptors
(sampled every 50 ms).  It judges nothing; the caller does.
"""
import argparse
import asyncio
import json
import os
import time
import urllib.parse


def proc_cpu(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick


def proc_rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def proc_fds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def pct(values, p):
    if not values:
        return None
    v = sorted(values)
    k = max(0, min(len(v) - 1, int(round(p / 100.0 * len(v) + 0.5)) - 1))
    return v[k]


def dechunk(body):
    """The payload of a chunked body (blackbox_exporter sends its larger
    answers so)."""
    out = b""
    while body:
        size, _, rest = body.partition(b"\r\n")
        try:
            n = int(size.split(b";")[0], 16)
        except ValueError:
            break
        if n == 0:
            break
        out += rest[:n]
        body = rest[n + 2:]
    return out


def parse_answer(raw):
    """(status, {metric: value}) of an HTTP answer, or (None, {})."""
    head, _, body = raw.partition(b"\r\n\r\n")
    try:
        status = int(head.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None, {}
    if b"transfer-encoding: chunked" in head.lower():
        body = dechunk(body)
    metrics = {}
    for line in body.decode("utf-8", "replace").splitlines():
        if line.startswith(("probe_success ", "probe_duration_seconds ",
                            "hopsplit_probe_interference_seconds ")):
            name, _, val = line.partition(" ")
            try:
                metrics[name] = float(val)
            except ValueError:
                pass
    return status, metrics


async def one_probe(port, path, timeout, client_timeout):
    req = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
           "X-Prometheus-Scrape-Timeout-Seconds: %s\r\n"
           "Connection: close\r\n\r\n" % (path, port, timeout)).encode()
    t0 = time.monotonic()
    writer = None
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port), client_timeout)
        writer.write(req)
        await writer.drain()
        left = client_timeout - (time.monotonic() - t0)
        raw = await asyncio.wait_for(reader.read(), max(left, 0.001))
    except asyncio.TimeoutError:
        return {"error": "client timeout", "wall": time.monotonic() - t0}
    except OSError as e:
        return {"error": "%s" % e, "wall": time.monotonic() - t0}
    finally:
        if writer is not None:
            writer.close()
    status, metrics = parse_answer(raw)
    return {"status": status, "metrics": metrics,
            "wall": time.monotonic() - t0}


def probe_path(a, i):
    """The /probe path of load probe i: TARGET, or with --each TARGET with
    n=i added to its query (each probe a target of its own)."""
    t = a.target
    if a.each:
        t += ("&" if "?" in t else "?") + "n=%d" % i
    q = {"target": t}
    if a.module:
        q["module"] = a.module
    return "/probe?" + urllib.parse.urlencode(q)


async def run(a):
    path = probe_path(a, 0)
    client_timeout = float(a.timeout) + a.slack
    out = {"n": a.n if not a.sequential else a.sequential}
    peak = {"rss_kib": 0, "fds": 0}
    done = asyncio.Event()

    async def sampler():
        while not done.is_set():
            try:
                peak["rss_kib"] = max(peak["rss_kib"], proc_rss_kib(a.pid))
                peak["fds"] = max(peak["fds"], proc_fds(a.pid))
            except OSError:
                pass
            try:
                await asyncio.wait_for(done.wait(), 0.05)
            except asyncio.TimeoutError:
                pass

    live = []

    async def liver():
        lq = {"target": a.live}
        if a.module:
            lq["module"] = a.module
        lpath = "/probe?" + urllib.parse.urlencode(lq)
        tasks = []
        while not done.is_set():
            tasks.append(asyncio.ensure_future(
                one_probe(a.port, lpath, a.live_timeout,
                          float(a.live_timeout) + a.slack)))
            try:
                await asyncio.wait_for(done.wait(), a.live_every)
            except asyncio.TimeoutError:
                pass
        live.extend(await asyncio.gather(*tasks))

    cpu0 = proc_cpu(a.pid) if a.pid else None
    bg = []
    if a.pid:
        bg.append(asyncio.ensure_future(sampler()))
    if a.live:
        bg.append(asyncio.ensure_future(liver()))
        await asyncio.sleep(a.live_every)
    t0 = time.monotonic()
    if a.sequential:
        results = []
        for _ in range(a.sequential):
            results.append(await one_probe(a.port, path, a.timeout,
                                           client_timeout))
    else:
        results = await asyncio.gather(*[
            one_probe(a.port, probe_path(a, i), a.timeout, client_timeout)
            for i in range(a.n)])
    wall = time.monotonic() - t0
    done.set()
    await asyncio.gather(*bg)
    cpu1 = proc_cpu(a.pid) if a.pid else None

    statuses = {}
    errors = []
    answered = right = 0
    walls, durations = [], []
    for r in results:
        if "error" in r:
            errors.append(r["error"])
            continue
        statuses[str(r["status"])] = statuses.get(str(r["status"]), 0) + 1
        m = r["metrics"]
        if r["status"] == 200 and "probe_success" in m:
            answered += 1
            walls.append(r["wall"])
            if "probe_duration_seconds" in m:
                durations.append(m["probe_duration_seconds"])
            if a.expect is not None and m["probe_success"] == a.expect:
                right += 1
    out.update({"answered": answered, "right": right, "statuses": statuses,
                "errors": len(errors), "error_kinds": sorted(set(errors))[:5],
                "wall_s": round(wall, 3),
                "probes_per_s": round(len(results) / wall, 1) if wall else 0,
                "answer_wall_max_s": round(max(walls), 3) if walls else None,
                "answer_wall_min_s": round(min(walls), 3) if walls else None,
                "answer_wall_p50_s": round(pct(walls, 50), 3)
                if walls else None,
                "duration_max_s": round(max(durations), 3)
                if durations else None,
                "duration_p50_ms": round(pct(durations, 50) * 1000, 2)
                if durations else None,
                "duration_p95_ms": round(pct(durations, 95) * 1000, 2)
                if durations else None})
    if a.live:
        ok = [r for r in live if "error" not in r and r["status"] == 200
              and r["metrics"].get("probe_success") == 1]
        ld = [r["metrics"]["probe_duration_seconds"] * 1000 for r in ok
              if "probe_duration_seconds" in r["metrics"]]
        li = [r["metrics"]["hopsplit_probe_interference_seconds"] * 1000
              for r in ok
              if "hopsplit_probe_interference_seconds" in r["metrics"]]
        out["live"] = {"sent": len(live), "ok": len(ok),
                       "p50_ms": round(pct(ld, 50), 2) if ld else None,
                       "p95_ms": round(pct(ld, 95), 2) if ld else None,
                       "interference_p50_ms": round(pct(li, 50), 3)
                       if li else None,
                       "interference_max_ms": round(max(li), 3)
                       if li else None}
    inter = [r["metrics"]["hopsplit_probe_interference_seconds"] * 1000
             for r in results if "error" not in r
             and "hopsplit_probe_interference_seconds" in r["metrics"]]
    if inter:
        out["interference_ms"] = {"p50": round(pct(inter, 50), 3),
                                  "p95": round(pct(inter, 95), 3),
                                  "max": round(max(inter), 3)}
    if a.pid:
        total = len(results) + len(live)
        out["cpu_s"] = round(cpu1 - cpu0, 3)
        out["cpu_ms_per_probe"] = round((cpu1 - cpu0) * 1000 / total, 3)
        out["peak_rss_mib"] = round(peak["rss_kib"] / 1024.0, 1)
        out["peak_fds"] = peak["fds"]
    print(json.dumps(out), flush=True)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("port", type=int)
    p.add_argument("target")
    p.add_argument("n", type=int)
    p.add_argument("--module", default="http_2xx")
    p.add_argument("--each", action="store_true",
                   help="each load probe a target of its own (n=I added "
                   "to TARGET's query)")
    p.add_argument("--timeout", default="10",
                   help="X-Prometheus-Scrape-Timeout-Seconds")
    p.add_argument("--slack", type=float, default=10.0,
                   help="client timeout beyond TIMEOUT, seconds")
    p.add_argument("--expect", type=float, default=None)
    p.add_argument("--sequential", type=int, default=0)
    p.add_argument("--live")
    p.add_argument("--live-every", type=float, default=0.1)
    p.add_argument("--live-timeout", default="5")
    p.add_argument("--pid", type=int, default=0)
    a = p.parse_args()
    return asyncio.run(run(a))


if __name__ == "__main__":
    raise SystemExit(main())
