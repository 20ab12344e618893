#!/usr/bin/env python3
"""overhead.py: wall time of hopsplit against curl doing the same work.

usage: overhead.py HOPSPLIT CA RESOLVE URL RUNS

warm: `hopsplit -n 200 --mode warm` against one curl process fetching URL
200 times over one connection (SPEC 8: ratio <= 1.1); cold: `hopsplit -n
60 --mode cold` against 60 curl processes started one after the other by
a shell loop (ratio <= 1.0).  Both tools get the same --resolve and
--cacert, so neither does a DNS lookup.  The runs alternate (hopsplit,
curl, hopsplit, ...) RUNS times; the table shows the medians and their
ratio.  Prints figures; never fails on them.
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def timed(argv):
    t = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main():
    exe, ca, resolve, url, runs = sys.argv[1:6]
    runs = int(runs)
    curl = ["curl", "-sS", "--noproxy", "*", "--resolve", resolve,
            "--cacert", ca]
    hs = [exe, "-q", "--resolve", resolve, "--cacert", ca]
    cases = [
        ("warm", 200, "one curl process, %d URLs" % 200,
         hs + ["-n", "200", "--mode", "warm", url],
         curl + ["-o", "/dev/null"] * 0 + [url] * 200),
        ("cold", 60, "%d curl processes" % 60,
         hs + ["-n", "60", "--mode", "cold", url],
         ["sh", "-c", "i=0; while [ $i -lt 60 ]; do %s -o /dev/null %s "
          "|| exit 1; i=$((i+1)); done" % (" ".join(map(shlex.quote, curl)),
                                           shlex.quote(url))]),
    ]
    targets = {"warm": 1.1, "cold": 1.0}
    print("overhead: %s, medians of %d alternating runs" % (url, runs))
    print()
    print("| mode | samples | hopsplit | curl | curl does | ratio "
          "| target |")
    print("|---|---:|---:|---:|---|---:|---:|")
    for mode, n, what, a, b in cases:
        ta, tb = [], []
        timed(a)
        timed(b)
        for i in range(runs):
            if i % 2:
                tb.append(timed(b))
                ta.append(timed(a))
            else:
                ta.append(timed(a))
                tb.append(timed(b))
        ma, mb = statistics.median(ta), statistics.median(tb)
        print("| %s | %d | %.1f ms (%.3f ms/sample) | %.1f ms | %s | %.2f "
              "| <= %.1f %s |" % (mode, n, ma * 1000, ma * 1000 / n,
                                  mb * 1000, what, ma / mb, targets[mode],
                                  "ok" if ma / mb <= targets[mode]
                                  else "MISSED"))
        sys.stdout.flush()
        if os.environ.get("OVERHEAD_VERBOSE"):
            print("  hopsplit runs: %s" % " ".join("%.1f" % (x * 1000)
                                                    for x in ta))
            print("  curl runs:     %s" % " ".join("%.1f" % (x * 1000)
                                                    for x in tb))


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    main()
