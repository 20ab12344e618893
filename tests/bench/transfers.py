#!/usr/bin/env python3
"""transfers.py: hopsplit's upload and download against curl's.

usage: transfers.py HOPSPLIT PEAKRSS CA RESOLVE SINK_URL UP_FILE UP_SMALL
                    DOWN_URL DOWN_SMALL_URL RUNS

Each run is one request: `hopsplit -n 1 --mode cold` (its sample's
total_us from --format json) against one `curl` process (its time_total),
alternating, RUNS times each.  Peak RSS (ru_maxrss through the peakrss
helper) of both tools at the small and the large body.  Prints figures;
never fails on them.
"""
import json
import shutil
import statistics
import subprocess
import sys
import tempfile


def hs_run(peak, hs, args):
    with tempfile.NamedTemporaryFile("r") as out:
        r = subprocess.run([peak, "-o", out.name, hs, "-n", "1", "--mode",
                            "cold", "--format", "json", "--trace", "never"]
                           + args, check=True, capture_output=True, text=True)
        rss = int(r.stdout.split()[0])
        d = json.load(open(out.name))
    s = d["samples"][0]
    if not s["ok"]:
        raise SystemExit("hopsplit sample failed: %s" % s["error"])
    h = s["hops"][-1]["phases_us"]
    return s["total_us"] / 1e6, rss, h


def curl_run(peak, args):
    with tempfile.NamedTemporaryFile("r") as out:
        r = subprocess.run([peak, "-o", out.name, shutil.which("curl"), "-sS", "--noproxy",
                            "*", "-o", "/dev/null", "-w", "%{time_total} "
                            "%{time_posttransfer} %{http_code}"] + args,
                           check=True, capture_output=True, text=True)
        rss = int(r.stdout.split()[0])
        total, post, code = open(out.name).read().split()
    if code != "200":
        raise SystemExit("curl got status %s" % code)
    return float(total), rss, float(post)


def main():
    (hs, peak, ca, resolve, sink, up, up_small, down, down_small,
     runs) = sys.argv[1:11]
    runs = int(runs)
    tls = ["--resolve", resolve, "--cacert", ca]
    cases = [
        ("upload", ["-T", up, sink], ["-T", up_small, sink]),
        ("download", tls + [down], tls + [down_small]),
    ]
    print("transfers: medians of %d alternating runs, one request each"
          % runs)
    print()
    print("| transfer | hopsplit s | curl s | ratio | target | "
          "hopsplit RSS small/large KiB | curl RSS small/large KiB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, big, small in cases:
        th, tc, rh, rc = [], [], [], []
        send = []
        for i in range(runs):
            order = (0, 1) if i % 2 == 0 else (1, 0)
            for k in order:
                if k == 0:
                    t, rss, ph = hs_run(peak, hs, big)
                    th.append(t)
                    rh.append(rss)
                    send.append(ph["send"])
                else:
                    t, rss, _ = curl_run(peak, big)
                    tc.append(t)
                    rc.append(rss)
        _, rhs, _ = hs_run(peak, hs, small)
        _, rcs, _ = curl_run(peak, small)
        mh, mc = statistics.median(th), statistics.median(tc)
        print("| %s | %.3f | %.3f | %.3f | 1.05 | %d / %d | %d / %d |"
              % (name, mh, mc, mh / mc, rhs, max(rh), rcs, max(rc)))
        if name == "upload":
            print("|  (hopsplit send phase, median) | %.3f | | | | | |"
                  % (statistics.median(send) / 1e6))
    print()


if __name__ == "__main__":
    main()
