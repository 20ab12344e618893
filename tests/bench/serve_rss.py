#!/usr/bin/env python3
"""serve_rss.py: memory of `hopsplit serve` over many probes (SPEC 8).

usage: serve_rss.py PID PORT TARGET [TOTAL] [CLIENTS]

Sends TOTAL (default 10000) GET /probe?target=TARGET requests to
127.0.0.1:PORT from CLIENTS (default 4) threads, each on its own keep-alive
connection as Prometheus scrapes several targets at once, and prints the
server's VmRSS (from /proc/PID/status) after 100, 1000, 5000 and TOTAL
probes, and its growth from 100 to TOTAL (SPEC 8: within 2 MiB).  Every
answer must be HTTP 200 with probe_success 1, else it stops with an error.
Prints figures; never fails on them.
"""
import http.client
import sys
import threading
import time


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    pid, port, target = int(argv[0]), int(argv[1]), argv[2]
    total = int(argv[3]) if len(argv) > 3 else 10000
    clients = int(argv[4]) if len(argv) > 4 else 4
    marks = sorted({m for m in (100, 1000, 5000, total) if m <= total})
    path = "/probe?target=" + target
    lock = threading.Lock()
    state = {"sent": 0, "done": 0, "error": None}
    figures = {}
    cond = threading.Condition(lock)

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while True:
            with lock:
                if state["sent"] >= total or state["error"]:
                    break
                state["sent"] += 1
            try:
                conn.request("GET", path, headers={
                    "X-Prometheus-Scrape-Timeout-Seconds": "10"})
                resp = conn.getresponse()
                body = resp.read()
            except (OSError, http.client.HTTPException) as e:
                with lock:
                    state["error"] = "request failed: %s" % e
                break
            ok = resp.status == 200 and b"\nprobe_success 1\n" in body
            with cond:
                if not ok:
                    state["error"] = "HTTP %d, body starts %r" % (
                        resp.status, body[:200])
                    break
                state["done"] += 1
                # Read RSS when a mark is reached, before more probes run:
                # the workers wait for it under the lock.
                if state["done"] in marks:
                    figures[state["done"]] = rss_kib(pid)
        conn.close()

    t0 = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - t0
    if state["error"]:
        sys.stderr.write("serve_rss.py: %s after %d probes\n"
                         % (state["error"], state["done"]))
        return 1
    print("hopsplit serve, %d probes of %s from %d keep-alive connections "
          "in %.1f s (%.0f probes/s)" % (total, target, clients, wall,
                                          total / wall))
    for m in marks:
        print("  VmRSS after %6d probes: %7d KiB (%.2f MiB)"
              % (m, figures[m], figures[m] / 1024.0))
    if 100 in figures and total in figures:
        d = figures[total] - figures[100]
        print("  growth from 100 to %d probes: %+d KiB (%+.2f MiB; SPEC 8: "
              "within 2 MiB)" % (total, d, d / 1024.0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
