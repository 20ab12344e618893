#!/usr/bin/env python3
"""serve_tls.py: the probes of tests/bench/serve_tls, and its table.

usage: serve_tls.py run PORT TARGET TOTAL CLIENTS OUT
       serve_tls.py table DIR TOTAL CLIENTS ROUNDS

run: TOTAL GET /probe from CLIENTS threads, each on its own keep-alive
connection and probing TARGET?c=I (a target of its own); every answer must
be HTTP 200 with probe_success 1.  Writes one line per probe to OUT: the
probe's tls and connect (probe_http_duration_seconds) and
probe_duration_seconds, in microseconds.
table: per binary (before, after) the medians and p95s over every round,
and the lock waits lockwait.so counted (DIR/WHICH.R.locks).
"""
import http.client
import re
import os
import statistics
import subprocess
import sys
import threading

PHASE = re.compile(rb'^probe_http_duration_seconds\{phase="(tls|connect)"\} '
                   rb'([0-9.eE+-]+)$|^probe_(duration)_seconds ([0-9.eE+-]+)$',
                   re.M)


def run(port, target, total, clients, out):
    lock = threading.Lock()
    state = {"error": None}
    rows = []

    tickets = iter(range(total))  # next() under the GIL: one each

    def one(conn, path):
        """One probe's phases, or an error string."""
        try:
            conn.request("GET", path, headers={
                "X-Prometheus-Scrape-Timeout-Seconds": "10"})
            resp = conn.getresponse()
            body = resp.read()
        except (OSError, http.client.HTTPException) as e:
            return "request failed: %s" % e
        if resp.status != 200 or b"\nprobe_success 1\n" not in body:
            return "HTTP %d, body starts %r" % (resp.status, body[:200])
        ph = {(m.group(1) or m.group(3)).decode(): float(m.group(2) or m.group(4))
              for m in PHASE.finditer(body)}
        if "tls" not in ph:
            return "no tls phase in %r" % body[:3000]
        return (ph["tls"], ph.get("connect", -1), ph.get("duration", -1))

    def worker(i):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        path = "/probe?target=%s%%3Fc%%3D%d" % (target, i)
        for _ in tickets:
            got = one(conn, path)
            with lock:
                if isinstance(got, str):
                    state["error"] = state["error"] or got
                if state["error"]:
                    break
                rows.append(got)
        conn.close()

    threads = [threading.Thread(target=worker, args=(i,))
               for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if state["error"]:
        sys.stderr.write("serve_tls.py: %s\n" % state["error"])
        return 1
    with open(out, "w") as f:
        for r in rows:
            f.write("%d %d %d\n" % tuple(int(round(x * 1e6)) for x in r))
    return 0


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))]


def symbolize(chain, bins):
    """NAME+0xOFF of a hopsplit binary (its static functions, which dladdr
    cannot name) through addr2line."""
    out = []
    for part in chain.split(" < "):
        m = re.match(r"([^+ ]+)\+(0x[0-9a-f]+)$", part.strip())
        path = bins.get(m.group(1)) if m else None
        if path:
            try:
                name = subprocess.run(["addr2line", "-f", "-e", path,
                                       m.group(2)], capture_output=True,
                                      text=True).stdout.split("\n")[0]
                if name and name != "??":
                    part = name
            except OSError:
                pass
        out.append(part.strip())
    return " < ".join(out)


def table(d, total, clients, rounds):
    print("\nhopsplit serve: %s probes a round from %s connections, %s rounds"
          " (probe_http_duration_seconds tls and connect, probe_duration_seconds; us)" % (total, clients,
                                                             rounds))
    print("| binary | probes | tls p50 | tls p95 | connect p50 | probe p50 |"
          " contended locks / probe | lock wait us / probe | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    sites = {}
    bins = {}
    for which in ("before", "after"):
        try:
            with open("%s/%s.bin" % (d, which)) as f:
                p = f.read().strip()
                bins[os.path.basename(p)] = p
        except OSError:
            pass
    for which in ("before", "after"):
        tls, con, tot, cont, wait, loads = [], [], [], 0, 0, []
        for r in range(1, int(rounds) + 1):
            base = "%s/%s.%d" % (d, which, r)
            try:
                with open(base + ".phases") as f:
                    for line in f:
                        a, b, c = (int(x) for x in line.split())
                        tls.append(a)
                        con.append(b)
                        tot.append(c)
            except OSError:
                continue
            try:
                with open(base + ".load") as f:
                    loads.append(f.read().split()[0])
            except (OSError, IndexError):
                pass
            try:
                with open(base + ".locks") as f:
                    for line in f:
                        m = re.match(r"lockwait: acquisitions \d+ contended (\d+) wait_us (\d+)", line)
                        if m:
                            cont += int(m.group(1))
                            wait += int(m.group(2))
                            continue
                        m = re.match(r"lockwait: (\d+) contended, (\d+) us, \d+ taken: (.*)", line)
                        if m:
                            k = (which, m.group(3).strip())
                            c0, w0 = sites.get(k, (0, 0))
                            sites[k] = (c0 + int(m.group(1)),
                                        w0 + int(m.group(2)))
            except OSError:
                pass
        if not tls:
            continue
        n = len(tls)
        print("| %s | %d | %d | %d | %d | %d | %.3f | %.1f | %s |" % (
            which, n, statistics.median(tls), pct(tls, 0.95),
            statistics.median(con), statistics.median(tot), cont / n,
            wait / n, " ".join(loads)))
    print("\nlock waits by caller (the most waited, summed over the rounds):")
    for (which, chain), (c, w) in sorted(sites.items(),
                                         key=lambda kv: -kv[1][1])[:16]:
        print("  %-6s %6d contended %9d us  %s" % (which, c, w,
                                                    symbolize(chain, bins)))
    return 0


def main(argv):
    if len(argv) >= 6 and argv[0] == "run":
        return run(int(argv[1]), argv[2], int(argv[3]), int(argv[4]), argv[5])
    if len(argv) >= 5 and argv[0] == "table":
        return table(argv[1], argv[2], argv[3], argv[4])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
