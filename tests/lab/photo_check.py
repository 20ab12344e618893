#!/usr/bin/env python3
"""photo_check.py: the checks of tests/lab/photo.test.sh (issue 14).

usage: photo_check.py --d-api MS --d-icn MS --rounds N --case CASE.json
                      --pooled POOLED.json --api-log ACCESS.LOG

Reads the two JSON documents of the photo lab's runs, the API host's
nginx access log (format: connection serial, requests on it, host, URI,
status) and the one-way delays the lab was set up with.  Prints one line
per check, the measured value beside the value the delays imply, and
exits 1 when any check fails.  Expected timings come from the delays
only; the nginx log is the ground truth for connection reuse.
"""
import argparse
import json
import sys

TOL = 0.20  # SPEC 8: finding savings within 20 % of what the delays imply

failures = 0


def line(name, measured, expected, ok):
    global failures
    if not ok:
        failures += 1
    print("%-4s %-52s %-18s %s" % ("ok" if ok else "FAIL", name, measured,
                                   expected))


def ms(us):
    return "%.1f ms" % (us / 1000.0)


def target(doc, name):
    for t in doc["targets"]:
        if t["name"] == name:
            return t
    raise SystemExit("no target %r" % name)


def comparison(doc, tgt, base, mode="cold"):
    for c in doc["comparison"]:
        if c["mode"] == mode and c["target"] == tgt and c["baseline"] == base:
            return c
    raise SystemExit("no comparison %s vs %s (%s)" % (tgt, base, mode))


def p50(doc, name, mode="cold"):
    return target(doc, name)["summary"][mode]["phases"]["total"]["p50_us"]


def samples(doc, name, mode):
    return [s for s in doc["samples"]
            if s["target"] == name and s["mode"] == mode]


def check_savings(doc, label):
    """Grouped savings never exceed the total, and they add up."""
    for t in doc["targets"]:
        f = t["findings"]
        groups = t["finding_groups"]
        total = t["findings_total_us"]
        non = t["findings_nonoverlap_us"]
        alone = sum(x["saving_us"] for x in f
                    if x["part_of_total"] and x["group"] is None)
        gsum = sum(g["saving_us"] for g in groups)
        line("%s %s: savings without overlaps <= cold total" %
             (label, t["name"]), ms(non), "<= " + ms(total),
             0 <= non <= total)
        line("%s %s: alone + groups == without overlaps" %
             (label, t["name"]), ms(alone + gsum), "== " + ms(non),
             alone + gsum == non)
        for g in groups:
            members = [f[i - 1] for i in g["members"]]
            biggest = max(m["saving_us"] for m in members)
            summed = sum(m["saving_us"] for m in members)
            line("%s %s: group %d within [max, sum] of its members" %
                 (label, t["name"], g["group"]), ms(g["saving_us"]),
                 "[%s, %s]" % (ms(biggest), ms(summed)),
                 biggest <= g["saving_us"] <= summed)
            line("%s %s: group %d <= cold total" %
                 (label, t["name"], g["group"]), ms(g["saving_us"]),
                 "<= " + ms(total), g["saving_us"] <= total)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--d-api", type=float, required=True)
    ap.add_argument("--d-icn", type=float, required=True)
    ap.add_argument("--rounds", type=int, required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--pooled", required=True)
    ap.add_argument("--api-log", required=True)
    a = ap.parse_args()
    rtt_api = 2 * a.d_api * 1000.0
    rtt_icn = 2 * a.d_icn * 1000.0

    with open(a.case) as f:
        case = json.load(f)
    with open(a.pooled) as f:
        pooled = json.load(f)

    print("%-4s %-52s %-18s %s" % ("", "check", "measured", "expected"))
    for label, doc in (("run 1", case), ("run 2", pooled)):
        bad = [s for s in doc["samples"] if not s["ok"]]
        line("%s: every sample ok" % label, "%d failed" % len(bad), "0",
             not bad)

    # Ranking: thumb < cdn ~ direct < base.
    for m in ("cold", "warm"):
        line("run 1 %s p50: thumb < cdn" % m, "%s < %s" % (
            ms(p50(case, "thumb", m)), ms(p50(case, "cdn", m))),
            "thumb smaller", p50(case, "thumb", m) < p50(case, "cdn", m))
    c = comparison(case, "direct", "base")
    line("run 1 cold: direct vs base", c["verdict"] + " " +
         ms(c["median_diff_us"]), "faster", c["verdict"] == "faster")
    c = comparison(case, "cdn", "direct")
    line("run 1 cold: cdn vs direct (same server, same link)",
         ms(c["median_diff_us"]), "|d| < 10 % of direct",
         abs(c["median_diff_us"]) < 0.10 * p50(case, "direct"))
    c = comparison(case, "thumb", "cdn")
    line("run 1 cold: thumb vs cdn", c["verdict"] + " " +
         ms(c["median_diff_us"]), "faster", c["verdict"] == "faster")
    # The payload finding of cdn (--payload-size 24KiB, the thumbnail's
    # size) prices the shrink from the body's rounds on its own
    # connection: within 20 % of what serving the thumbnail really saved
    # (issue 36).  Same host, same handshakes: the shrink removes transfer
    # time, so the truth is the paired cold difference of the transfer
    # phase; the total's, beside it, carries the other phases' noise on a
    # loaded machine (126 ms against a transfer part of 104 ms at load 12).
    shrink = -c["phases"]["transfer"]["median_diff_us"]
    pay = [f for f in target(case, "cdn")["findings"]
           if f["kind"] == "payload"]
    line("run 1 cdn: a payload finding from the body's rounds",
         pay[0]["basis"] if pay else "none", "rounds",
         bool(pay) and pay[0]["basis"] == "rounds")
    if pay:
        line("run 1 cdn: payload saving within 20 % of the real shrink",
             ms(pay[0]["saving_us"]), "%s +- 20 %% (total %s)" %
             (ms(shrink), ms(-c["median_diff_us"])),
             abs(pay[0]["saving_us"] - shrink) <= TOL * shrink)
    c = comparison(case, "direct", "base")
    parts = [e["part"] for e in c["explained_by"]]
    line("run 1 cold: direct vs base explained first by", ",".join(parts),
         "redirect first", parts[:1] == ["redirect"])

    # Distant edge: 3 round trips (TCP, TLS 1.3, request) of hop 1, each
    # shorter by the API round trip minus the ICN one.
    want = 3 * (rtt_api - rtt_icn)
    de = [x for x in target(case, "base")["findings"]
          if x["kind"] == "distant-edge"]
    line("run 1 base: one distant-edge finding", str(len(de)), "1",
         len(de) == 1)
    if de:
        de = de[0]
        line("run 1 base: distant-edge hop", str(de["hop"]), "1",
             de["hop"] == 1)
        line("run 1 base: distant-edge basis", str(de["basis"]), "measured",
             de["basis"] == "measured")
        line("run 1 base: distant-edge saving", ms(de["saving_us"]),
             "%s +-20 %%" % ms(want),
             abs(de["saving_us"] - want) <= TOL * want)
        kinds = {x["kind"] for x in target(case, "base")["findings"]
                 if x["group"] == de["group"]}
        line("run 1 base: distant-edge grouped with redirect, connections",
             ",".join(sorted(kinds)), "redirect,connections in it",
             de["group"] is not None and
             {"redirect", "connections"} <= kinds)
    check_savings(case, "run 1")

    # Savings that can be had together (issue 38 item 3): sharing a pool
    # removes the API host's set-up only, DNS (a round trip to the
    # resolver at ICN) + TCP + TLS 1.3 to HKG = rtt_icn + 2 rtt_api; the
    # storage host's own set-up remains.  The savings that keep the body
    # are checked against an alternative of the same 454 KB image measured
    # in the run (direct or cdn), which removed about the API hop:
    # rtt_icn + 3 rtt_api (DNS, TCP, TLS, the request).
    want = rtt_icn + 2 * rtt_api
    cn = [x for x in target(case, "base")["findings"]
          if x["kind"] == "connections"]
    line("run 1 base: connections saving (API host's set-up only)",
         ms(cn[0]["saving_us"]) if cn else "none", "%s +-20 %%" % ms(want),
         bool(cn) and abs(cn[0]["saving_us"] - want) <= TOL * want)
    ck = target(case, "base")["findings_check"]
    want = rtt_icn + 3 * rtt_api
    line("run 1 base: checked against an alternative of the same body",
         "%s: %s" % (ck["alternative"], ms(ck["measured_us"])) if ck
         else "none", "direct or cdn, %s +-20 %%" % ms(want),
         bool(ck) and ck["alternative"] in ("direct", "cdn") and
         abs(ck["measured_us"] - want) <= TOL * want)
    line("run 1 base: savings keeping the body agree with it",
         "%s vs %s" % (ms(ck["savings_us"]), ms(ck["measured_us"])) if ck
         else "none", "agrees", bool(ck) and ck["agrees"] is True)

    # Scenario 4.
    ps = samples(pooled, "pooled", "cold")
    bs = samples(pooled, "base", "cold")
    line("run 2 pooled: hop 1 reused in every sample",
         "%d of %d" % (sum(s["hops"][0]["reused"] for s in ps), len(ps)),
         "all", ps and all(s["hops"][0]["reused"] for s in ps))
    line("run 2 pooled: hop 2 (storage) new in every sample",
         "%d of %d" % (sum(not s["hops"][1]["reused"] for s in ps), len(ps)),
         "all", ps and all(len(s["hops"]) == 2 and not s["hops"][1]["reused"]
                           for s in ps))
    line("run 2 pooled: primed[] is the API call",
         str(sorted({tuple(s["primed"]) for s in ps})),
         "[('https://api.test/me',)]",
         all(s["primed"] == ["https://api.test/me"] for s in ps))
    line("run 2 base: hop 1 new, nothing primed",
         "%d of %d" % (sum(not s["hops"][0]["reused"] and not s["primed"]
                           for s in bs), len(bs)), "all",
         bs and all(not s["hops"][0]["reused"] and not s["primed"]
                    for s in bs))
    want = rtt_icn + rtt_api + rtt_api  # DNS (resolver at ICN) + TCP + TLS
    c = comparison(pooled, "pooled", "base")
    line("run 2: pooled vs base verdict", c["verdict"], "faster",
         c["verdict"] == "faster")
    # The total difference carries the storage hop's noise in both
    # samples of a pair: it passes when it is within 20 % of what the
    # delays imply or its interval contains that value.  The first hop's
    # part of it (the redirect part) is what pooling removes, within 20 %.
    line("run 2: pooled - base, median paired",
         "%s [%s, %s]" % (ms(c["median_diff_us"]), ms(c["ci_low_us"]),
                          ms(c["ci_high_us"])),
         "-%s +-20 %% or in CI" % ms(want),
         abs(-c["median_diff_us"] - want) <= TOL * want or
         c["ci_low_us"] <= -want <= c["ci_high_us"])
    r = c["parts"]["redirect"]
    line("run 2: pooled - base, redirect part (hop 1)",
         "%s [%s, %s]" % (ms(r["median_diff_us"]), ms(r["ci_low_us"]),
                          ms(r["ci_high_us"])),
         "-%s +-20 %%" % ms(want),
         abs(-r["median_diff_us"] - want) <= TOL * want)
    setup = sorted(s["hops"][0]["phases_us"]["dns"] +
                   s["hops"][0]["phases_us"]["connect"] +
                   s["hops"][0]["phases_us"]["tls"] for s in bs)
    med_setup = setup[(len(setup) - 1) // 2]
    line("run 2 base: API host's DNS + TCP + TLS (median)",
         ms(med_setup), "%s +-20 %%" % ms(want),
         abs(med_setup - want) <= TOL * want)
    line("run 2: redirect part vs base's measured API set-up",
         ms(-r["median_diff_us"]), "%s +-10 %%" % ms(med_setup),
         abs(-r["median_diff_us"] - med_setup) <= 0.10 * med_setup)
    check_savings(pooled, "run 2")

    # Ground truth for the reuse: the API host's log, by connection.
    conns = {}
    with open(a.api_log) as f:
        for ln in f:
            w = ln.split()
            if len(w) >= 5:
                conns.setdefault(w[0], []).append(w[3])
    both = sum(1 for v in conns.values() if v == ["/me", "/files/42.jpg"])
    alone = sum(1 for v in conns.values() if v == ["/files/42.jpg"])
    line("run 2 nginx: connections carrying /me then /files/42.jpg",
         str(both), str(a.rounds), both == a.rounds)
    line("run 2 nginx: connections carrying /files/42.jpg alone",
         str(alone), str(a.rounds), alone == a.rounds)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
