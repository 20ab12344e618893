#!/usr/bin/env python3
"""projection.py: the table of tests/bench/projection (issue 37).

usage: projection.py DIR NET...

DIR holds the documents of the bench: fast-cold-h1.json, fast-cold-h2.json,
fast-warm-CASE.json (measured on the fast link with --project NET,...) and
NET-cold-h1.json ... (the same targets measured on the lab link set to
NET's delay and rates).  For every case, mode and network it prints the
projected total beside the measured p50 total and the error, and each
phase (summed over hops) whose measured p50 is one RTT or more.  The
ground truth is the lab link's measurement; the projection is hopsplit's.
"""
import json
import os
import sys

PHASES = ["dns", "connect", "tls", "send", "wait", "transfer"]
RTT_MS = {"slow-4g": 150, "fast-4g": 60, "3g": 300, "slow-3g": 400}


def load(path):
    # The fast link's documents projected again by this build's hopsplit
    # report (tests/bench/projection --reproject), when there are some.
    d, b = os.path.split(path)
    if b.startswith("fast-") and os.path.exists(os.path.join(d, "p-" + b)):
        path = os.path.join(d, "p-" + b)
    if not os.path.exists(path):
        return None  # a case not measured (yet)
    with open(path) as f:
        return json.load(f)


def targets(doc):
    return {t["name"]: t for t in doc["targets"]} if doc else None


def projected(t, net, mode):
    for p in t.get("projection", []):
        if p["network"] == net and p["mode"] == mode:
            ph = {k: sum(h["phases_us"][k] for h in p["hops"]) for k in PHASES}
            ph["total"] = p["total_us"]
            return ph
    return None


def measured(t, mode):
    s = t["summary"][mode]["phases"]
    return {k: s[k]["p50_us"] for k in PHASES + ["total"]}


def main():
    d = sys.argv[1]
    nets = sys.argv[2:]
    rows = []
    for mode in ("cold", "warm"):
        for proto in ("h1", "h2"):
            if mode == "cold":
                pairs = [(targets(load(os.path.join(d, "fast-cold-%s.json" % proto))),
                          {n: targets(load(os.path.join(d, "%s-cold-%s.json" % (n, proto))))
                           for n in nets})]
            else:
                pairs = []
                for b in ("b20k", "b450k", "b2m"):
                    for r in ("", "-r2"):
                        name = "%s-%s%s" % (b, proto, r)
                        pairs.append((targets(load(os.path.join(d, "fast-warm-%s.json" % name))),
                                      {n: targets(load(os.path.join(d, "%s-warm-%s.json" % (n, name))))
                                       for n in nets}))
            for fast, labs in pairs:
                if fast is None:
                    continue
                for name, t in fast.items():
                    for n in nets:
                        if labs[n] is None or name not in labs[n]:
                            continue
                        p = projected(t, n, mode)
                        m = measured(labs[n][name], mode)
                        if p is None:
                            continue
                        rows.append((name, mode, n, p, m))
    print("%-16s %-4s %-8s %10s %10s %7s  phases over one RTT "
          "(projected/measured ms, error)" % (
              "case", "mode", "network", "projected", "measured", "error"))
    errs = []
    perr = []
    for name, mode, n, p, m in rows:
        e = 100.0 * (p["total"] - m["total"]) / m["total"] if m["total"] else 0
        errs.append(abs(e))
        parts = []
        for k in PHASES:
            if m[k] >= RTT_MS.get(n, 0) * 1000:
                pe = 100.0 * (p[k] - m[k]) / m[k]
                perr.append(abs(pe))
                parts.append("%s %.0f/%.0f %+.1f%%" % (k, p[k] / 1e3, m[k] / 1e3, pe))
        print("%-16s %-4s %-8s %8.1f ms %8.1f ms %+6.1f%%  %s" % (
            name, mode, n, p["total"] / 1e3, m["total"] / 1e3, e,
            ", ".join(parts)))
    if errs:
        print("\ntotal: %d cases, mean |error| %.1f %%, max %.1f %%, "
              "%d within 10 %%, %d within 5 %%" % (
                  len(errs), sum(errs) / len(errs), max(errs),
                  sum(1 for e in errs if e <= 10), sum(1 for e in errs if e <= 5)))
    if perr:
        print("phases over one RTT: %d, mean |error| %.1f %%, max %.1f %%, "
              "%d within 10 %%" % (len(perr), sum(perr) / len(perr), max(perr),
                                   sum(1 for e in perr if e <= 10)))


main()
