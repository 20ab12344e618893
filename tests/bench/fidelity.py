#!/usr/bin/env python3
"""fidelity.py: timing fidelity of hopsplit on the lab's delaying link.

usage: fidelity.py HOPSPLIT CA DNS URL URL2 OUT.json N DELAY_MS:CLIENT_NS...

For N rounds, in every lab (one per DELAY_MS, each with its own client
namespace), one cold hopsplit sample (a process of its own, `-n 1 --mode
cold`) and one `curl -w '%{json}'` transfer of URL: interleaved across
tools and delays, so that load on the machine hits every series alike.
curl's phases are computed from its -w values with hopsplit's
definitions (wait = time_starttransfer - time_appconnect).  curl is
measured twice per round: its first transfer, which carries the process's
one-time costs (OpenSSL's set-up, loading the CA file), and the second
transfer of a process that first fetched URL2 (the same server under
another name, so a new lookup, connection and full handshake): like for
like with hopsplit, which sets OpenSSL up and reads the trust store before
its first sample.  Then a second series,
hopsplit as it is used: `-n 6` cold runs alternating between the delays,
whose first sample per process is shown apart.  Writes the phases in
microseconds to OUT.json.  `fidelity.py --report OUT.json` prints the
table: per phase, hopsplit's median at each delay, its error against what
the link implies (after subtracting the 0 ms medians), and its difference
to curl's median in the same run.  Prints figures; never fails on them.
"""
import json
import statistics
import subprocess
import sys

PHASES = ("dns", "connect", "tls", "wait", "transfer", "total")
# Round trips each phase of a cold HTTPS GET of a small body takes: DNS
# (A and AAAA asked at once), TCP handshake, TLS 1.3 handshake, request to
# first byte; the body comes with the headers.
RTTS = {"dns": 1, "connect": 1, "tls": 1, "wait": 1, "transfer": 0,
        "total": 4}


def phases_of(s):
    if not s["ok"] or len(s["hops"]) != 1:
        raise SystemExit("hopsplit sample failed: %r" % s.get("error"))
    p = s["hops"][0]["phases_us"]
    r = {k: p[k] for k in ("dns", "connect", "tls", "wait", "transfer")}
    r["total"] = s["total_us"]
    r["send"] = p["send"]
    r["other"] = s["other_us"]
    return r


def hopsplit_run(ns, exe, ca, dns, url, n):
    out = subprocess.run(
        ["ip", "netns", "exec", ns, exe, "-q", "-n", str(n), "--mode",
         "cold", "--format", "json", "--dns-server", dns, "--cacert", ca,
         url], check=True, capture_output=True, text=True).stdout
    return [phases_of(s) for s in json.loads(out)["samples"]]


def hopsplit_sample(ns, exe, ca, dns, url):
    return hopsplit_run(ns, exe, ca, dns, url, 1)[0]


def curl_sample(ns, ca, url, warm_url=None):
    """curl's phases for url, in a process of its own; with warm_url, of
    the second transfer of a process that fetched warm_url first."""
    urls = ([warm_url, "-o", "/dev/null"] if warm_url else []) + [url]
    out = subprocess.run(
        ["ip", "netns", "exec", ns, "curl", "-sS", "--noproxy", "*",
         "--cacert", ca, "-o", "/dev/null", "-w", "%{json}\n"] + urls,
        check=True, capture_output=True, text=True).stdout
    j = json.loads(out.splitlines()[-1])

    def us(k):
        return int(round(j[k] * 1e6))
    return {
        "dns": us("time_namelookup"),
        "connect": us("time_connect") - us("time_namelookup"),
        "tls": us("time_appconnect") - us("time_connect"),
        # As hopsplit defines wait (hopsplit(1), MEASUREMENT): from the
        # connection being ready to the first byte.  libcurl 7.88 may stamp
        # time_pretransfer after the request went out, so it is not used.
        "wait": us("time_starttransfer") - us("time_appconnect"),
        "transfer": us("time_total") - us("time_starttransfer"),
        "total": us("time_total"),
    }


def measure(argv):
    exe, ca, dns, url, url2, out, n = argv[:7]
    labs = [(int(a.split(":")[0]), a.split(":")[1]) for a in argv[7:]]
    n = int(n)
    runs = {d: {"delay_ms": d, "url": url, "hopsplit": [], "curl": [],
                "curl2": []}
            for d, _ in labs}
    # One of each first, unrecorded: page cache, nginx worker, dnsmasq.
    for d, ns in labs:
        hopsplit_sample(ns, exe, ca, dns, url)
        curl_sample(ns, ca, url, url2)
    for i in range(n):
        order = labs if i % 2 == 0 else labs[::-1]
        for d, ns in order:
            takes = [
                lambda: runs[d]["hopsplit"].append(
                    hopsplit_sample(ns, exe, ca, dns, url)),
                lambda: runs[d]["curl"].append(curl_sample(ns, ca, url)),
                lambda: runs[d]["curl2"].append(
                    curl_sample(ns, ca, url, url2)),
            ]
            # Rotate who goes first, round by round.
            for t in takes[i % 3:] + takes[:i % 3]:
                t()
    # Series B: hopsplit as it is used, many cold samples in one process,
    # in runs of CHUNK alternating between the delays; the first sample of
    # each process (OpenSSL's one-time set-up lands in its TLS phase) is
    # kept apart.
    chunk = 6
    for d in runs:
        runs[d]["inproc"] = []
        runs[d]["first"] = []
    for i in range((n + chunk - 2) // (chunk - 1)):
        order = labs if i % 2 == 0 else labs[::-1]
        for d, ns in order:
            got = hopsplit_run(ns, exe, ca, dns, url, chunk)
            runs[d]["first"].append(got[0])
            runs[d]["inproc"].extend(got[1:])
    with open(out, "w") as f:
        json.dump(sorted(runs.values(), key=lambda r: r["delay_ms"]), f)


def verdict(k, err, limit):
    if k == "total":
        return "(sum of phases)"
    return "ok" if abs(err) <= limit else "MISSED"


def med(rows, k):
    return statistics.median(r[k] for r in rows)


def report(paths):
    runs = sorted((r for p in paths for r in json.load(open(p))),
                  key=lambda r: r["delay_ms"])
    base, far = runs[0], runs[-1]
    rtt_us = 2 * (far["delay_ms"] - base["delay_ms"]) * 1000
    n = min(len(base["hopsplit"]), len(far["hopsplit"]))
    print("fidelity: cold HTTPS GET of %s, %d hopsplit and 2 x %d curl "
          "samples per delay, interleaved across tools and delays" % (
              far["url"], n, len(far["curl"])))
    print("one-way delay %d ms vs %d ms: the link adds %.1f ms per round "
          "trip" % (far["delay_ms"], base["delay_ms"], rtt_us / 1000))
    print()
    print("curl 2nd: the second transfer of a curl process (like for like); "
          "curl 1st: a process's first,\nwith its one-time set-up")
    print()
    print("| phase | RTTs | hopsplit p50 @%d ms | hopsplit p50 @%d ms "
          "| implied | error (<= 1 ms) | curl 2nd p50 @%d ms "
          "| hopsplit - curl 2nd (<= 0.5 ms) | hopsplit - curl 1st "
          "| curl's own error |" % (
              base["delay_ms"], far["delay_ms"], far["delay_ms"]))
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for k in PHASES:
        h0, h1 = med(base["hopsplit"], k), med(far["hopsplit"], k)
        c0, c1 = med(base["curl2"], k), med(far["curl2"], k)
        implied = RTTS[k] * rtt_us
        err = (h1 - h0) - implied
        cerr = (c1 - c0) - implied
        diff = h1 - c1
        print("| %s | %d | %.2f ms | %.2f ms | %.1f ms | %+.2f ms %s "
              "| %.2f ms | %+.2f ms %s | %+.2f ms | %+.2f ms |" % (
                  k, RTTS[k], h0 / 1000, h1 / 1000, implied / 1000,
                  err / 1000, verdict(k, err, 1000), c1 / 1000, diff / 1000,
                  verdict(k, diff, 500),
                  (h1 - med(far["curl"], k)) / 1000, cerr / 1000))
    print()
    print("hopsplit as used: %d cold samples per delay from runs of `-n 6` "
          "in one process,\nwithout the first sample of each process "
          "(%d of those, shown apart)" % (len(far["inproc"]),
                                          len(far["first"])))
    print()
    print("| phase | hopsplit p50 @%d ms | hopsplit p50 @%d ms | implied "
          "| error (<= 1 ms) | first sample of a process: p50 @%d / @%d ms "
          "|" % (base["delay_ms"], far["delay_ms"], base["delay_ms"],
                 far["delay_ms"]))
    print("|---|---:|---:|---:|---:|---:|")
    for k in PHASES:
        h0, h1 = med(base["inproc"], k), med(far["inproc"], k)
        implied = RTTS[k] * rtt_us
        err = (h1 - h0) - implied
        print("| %s | %.2f ms | %.2f ms | %.1f ms | %+.2f ms %s "
              "| %.2f / %.2f ms |" % (
                  k, h0 / 1000, h1 / 1000, implied / 1000, err / 1000,
                  verdict(k, err, 1000),
                  med(base["first"], k) / 1000, med(far["first"], k) / 1000))
    print()
    for r in runs:
        print("at %2d ms: hopsplit other p50 %.2f ms, send p50 %.2f ms; "
              "curl-2nd-minus-hopsplit at this delay: %s" % (
                  r["delay_ms"], med(r["hopsplit"], "other") / 1000,
                  med(r["hopsplit"], "send") / 1000,
                  ", ".join("%s %+.2f" % (k, (med(r["curl2"], k) -
                                               med(r["hopsplit"], k)) / 1000)
                            for k in PHASES)))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--report":
        report(sys.argv[2:])
    elif len(sys.argv) >= 10:
        measure(sys.argv[1:])
    else:
        sys.exit(__doc__)
