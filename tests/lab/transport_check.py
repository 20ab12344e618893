#!/usr/bin/env python3
"""transport_check.py: the checks of tests/lab/transport.test.sh (issue 36).

usage: transport_check.py --dir DIR --delay-ms MS --body BYTES --think-ms MS

Reads DIR/{rtt,think,out,in}.json (hopsplit's documents), DIR/*.link (the
lab link's counters, hs-lablink's SIGUSR1 dump) and DIR/*.think (the
think server's own log).  Prints, per case, the link's settings and
counters beside hopsplit's tcp fields, one line per check, and exits 1
when any fails.  Expected values come from the link and the servers,
never from hopsplit.
"""
import argparse
import json
import re
import statistics
import sys

failures = 0


def check(name, measured, expected, ok):
    global failures
    if not ok:
        failures += 1
    print("%-4s %-58s %-22s %s" % ("ok" if ok else "FAIL", name, measured,
                                   expected))


def link(path):
    """Per direction: dropped (-x), beyond a hole, forwarded."""
    out = {}
    for ln in open(path):
        m = re.search(r"(a->b|b->a) dropped (\d+) data segments \(-x\), "
                      r"forwarded (\d+) beyond a hole", ln)
        if m:
            out.setdefault(m.group(1), {})["dropped"] = int(m.group(2))
            out[m.group(1)]["beyond"] = int(m.group(3))
        m = re.search(r"(a->b|b->a) forwarded (\d+) packets", ln)
        if m:
            out.setdefault(m.group(1), {})["forwarded"] = int(m.group(2))
    for d in ("a->b", "b->a"):
        out.setdefault(d, {}).setdefault("dropped", 0)
        out[d].setdefault("beyond", 0)
    return out


def hops(doc):
    return [(s, h) for s in doc["samples"] for h in s["hops"]]


def side(title, settings, counters, doc):
    print("== %s: link %s; counters %s" % (title, settings, counters))
    for s, h in hops(doc):
        t = h["tcp"] or {}
        print("   %-5s round %d: wait %s us, server_us %s, tcp %s" % (
            s["mode"], s["round"], h["phases_us"]["wait"], h["server_us"],
            {k: v for k, v in t.items() if k != "round_list"}))


def model_rounds(body, mss=1448, iw=10):
    n, sent, w = 0, 0, iw * mss
    while sent < body:
        sent += w
        w *= 2
        n += 1
    return n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--delay-ms", type=float, required=True)
    ap.add_argument("--body", type=int, required=True)
    ap.add_argument("--think-ms", type=float, required=True)
    a = ap.parse_args()
    rtt_us = 2 * a.delay_ms * 1000
    docs = {c: json.load(open("%s/%s.json" % (a.dir, c)))
            for c in ("rtt", "think", "out", "in")}
    links = {c: link("%s/%s.link" % (a.dir, c)) for c in docs}

    # rtt
    d = docs["rtt"]
    side("rtt", "one-way %g ms both ways, no loss" % a.delay_ms,
         links["rtt"], d)
    want = model_rounds(a.body)
    # The link's own lateness (its reader woken late by an idle or busy
    # machine: 0.7 ms seen in CI on a quiet machine) only ever adds to a
    # sample's round trips, as it does to the server's think time below:
    # every sample is bounded by the link (never below its RTT, at most
    # 5 ms above), and the sample the link disturbed least (the smallest
    # min_rtt_us) is held to the link's RTT within [-0.2, +1] ms and to the
    # slow-start model's rounds and their spacing.  +1 ms, not +0.2: each
    # of the link's two directions forwards a packet up to about 0.3 ms
    # after its due time (tests/bench/fidelity_wire: the link's own part
    # -0.23..+0.31 ms) plus its reader's wakeup, so even the least
    # disturbed round trip on a 2-core CI machine came out 50.2 ms in two
    # runs of three (CI stop 40: 50215, 50207 against 50000).
    got = [(h["tcp"]["min_rtt_us"], s["round"]) for s, h in hops(d)
           if h["tcp"] and h["tcp"]["min_rtt_us"] is not None]
    best = min(got)[1] if got else None
    if got:
        check("rtt: smallest min_rtt_us within [-0.2, +1] ms of the link",
              min(got)[0], "%d -200 +1000" % rtt_us,
              rtt_us - 200 <= min(got)[0] <= rtt_us + 1000)
    for s, h in hops(d):
        t = h["tcp"]
        check("rtt: sample %d has tcp" % s["round"], t is not None, "object",
              t is not None)
        if not t:
            continue
        check("rtt: sample %d min_rtt_us within [-0.2, +5] ms of the link" %
              s["round"], t["min_rtt_us"], "%d -200 +5000" % rtt_us,
              t["min_rtt_us"] is not None and
              rtt_us - 200 <= t["min_rtt_us"] <= rtt_us + 5000)
        check("rtt: sample %d rtt_us >= min_rtt_us" % s["round"],
              t["rtt_us"], ">= %d" % t["min_rtt_us"],
              t["rtt_us"] >= t["min_rtt_us"])
        check("rtt: sample %d retransmits (link dropped none)" % s["round"],
              t["retransmits"], "0", t["retransmits"] == 0)
        check("rtt: sample %d bytes_in >= the body" % s["round"],
              t["bytes_in"], ">= %d" % a.body, t["bytes_in"] >= a.body)
        strict = s["round"] == best
        check("rtt: sample %d rounds within %s of the slow-start model" %
              (s["round"], "one" if strict else "three"), t["rounds"],
              "%d +- %d" % (want, 1 if strict else 3),
              t["rounds"] is not None and
              abs(t["rounds"] - want) <= (1 if strict else 3))
        rl = t["round_list"]
        check("rtt: sample %d rounds' bytes add up to the body" % s["round"],
              sum(r["bytes"] for r in rl), "== %d" % a.body,
              sum(r["bytes"] for r in rl) == a.body)
        # From the second round on: the first is anchored at the first
        # response byte as the client saw it, late on a loaded machine.
        starts = [r["start_us"] for r in rl][1:]
        if strict:
            check("rtt: sample %d rounds 2.. start at least 0.9 RTT apart" %
                  s["round"], [round(x / 1000) for x in starts], "ms",
                  all(y - x >= 0.9 * rtt_us
                      for x, y in zip(starts, starts[1:])))
        else:
            check("rtt: sample %d rounds start in order" % s["round"],
                  [round(x / 1000) for x in starts], "ms",
                  all(y > x for x, y in zip(starts, starts[1:])))

    # think: the server's own clock against server_us
    d = docs["think"]
    side("think", "one-way %g ms, server thinks %g ms" %
         (a.delay_ms, a.think_ms), links["think"], d)
    own = [int(ln.split()[-1]) for ln in open("%s/think.think" % a.dir)
           if " /think " in ln]
    srv = [h["server_us"] for s, h in hops(d) if h["server_us"] is not None]
    print("   the server's own times (us): %s" % own)
    check("think: every hop has server_us", len(srv),
          "== %d" % len(hops(d)), len(srv) == len(hops(d)))
    if own and srv:
        # Lateness on a loaded machine (the link's threads, the client's
        # loop) only ever adds: the smallest of each is the undisturbed
        # one, as the minimum RTT is; the medians are bounded loosely.
        check("think: smallest server_us within 1 ms of the server's own",
              min(srv), "%d +- 1000" % min(own),
              abs(min(srv) - min(own)) <= 1000)
        check("think: median server_us within 10 ms of the server's own",
              statistics.median(srv), "%d +- 10000" % statistics.median(own),
              abs(statistics.median(srv) - statistics.median(own)) <= 10000)
        check("think: every server_us at least the think time",
              min(srv), ">= %d" % (a.think_ms * 1000),
              min(srv) >= a.think_ms * 1000)
    for label, doc in (("cold,warm", d),
                       ("warm only", json.load(open("%s/think_warm.json" %
                                                    a.dir)))):
        sw = [f for f in doc["targets"][0]["findings"]
              if f["kind"] == "server-wait"]
        check("think: %s run has a server-wait finding" % label,
              [f["basis"] for f in sw], "[measured]",
              bool(sw) and sw[0]["basis"] == "measured")
        if sw and own:
            check("think: %s server-wait saving within 10 ms of the "
                  "server's own" % label, sw[0]["saving_us"],
                  "%d +- 10000" % statistics.median(own),
                  abs(sw[0]["saving_us"] - statistics.median(own)) <= 10000)
    st = [h.get("server_timing_us") for s, h in hops(d)]
    check("think: server_timing_us is the server's Server-Timing",
          sorted(set(st)), "[%d]" % (a.think_ms * 1000),
          set(st) == {int(a.think_ms * 1000)})
    for s, h in hops(d):
        check("think: %s %d network_us + server_us == hop total" %
              (s["mode"], s["round"]),
              h["network_us"] + h["server_us"], h["phases_us"]["total"],
              h["network_us"] + h["server_us"] == h["phases_us"]["total"])

    # out: client's retransmits against the link's drops on the way out
    d = docs["out"]
    side("out", "one-way %g ms, drops the 20th data segment the client "
         "sends on each connection" % a.delay_ms, links["out"], d)
    retr = [h["tcp"]["retransmits"] for s, h in hops(d) if h["tcp"]]
    dropped = links["out"]["a->b"]["dropped"]
    check("out: the link dropped one segment per sample", dropped,
          "== %d" % len(hops(d)), dropped == len(hops(d)))
    check("out: retransmits add up to the link's drops", sum(retr),
          "== %d" % dropped, sum(retr) == dropped)
    for s, h in hops(d):
        t = h["tcp"] or {}
        check("out: sample %d is an upload with busy_time_us" % s["round"],
              t.get("busy_time_us"), "> 0", (t.get("busy_time_us") or 0) > 0)

    # in: out-of-order arrivals against what the link forwarded beyond
    d = docs["in"]
    side("in", "one-way %g ms, drops the 30th data segment the client "
         "receives on each connection" % a.delay_ms, links["in"], d)
    ooo = [h["tcp"]["rcv_ooopack"] for s, h in hops(d) if h["tcp"]]
    retr = [h["tcp"]["retransmits"] for s, h in hops(d) if h["tcp"]]
    li = links["in"]["b->a"]
    check("in: the link dropped one segment per sample", li["dropped"],
          "== %d" % len(hops(d)), li["dropped"] == len(hops(d)))
    check("in: rcv_ooopack adds up to what the link sent beyond the holes",
          sum(ooo), "== %d" % li["beyond"], sum(ooo) == li["beyond"])
    check("in: the client retransmitted nothing", sum(retr), "== 0",
          sum(retr) == 0)
    print("   findings of 'in': %s" % [(f["kind"], f["saving_us"])
                                      for f in d["targets"][0]["findings"]])
    # The hole holds the body back until its retransmission, a round trip
    # later: a loss finding of whole round trips, bounded by how much
    # longer the transfer took than on the same link without loss.
    loss = [f for f in d["targets"][0]["findings"] if f["kind"] == "loss"]
    xin = statistics.median(h["phases_us"]["transfer"] for s, h in hops(d))
    xok = statistics.median(h["phases_us"]["transfer"]
                            for s, h in hops(docs["rtt"]))
    check("in: a loss finding", len(loss), "1", len(loss) == 1)
    if loss:
        # The two medians come from two labs: the link's lateness in either
        # moves their difference by up to a round trip (CI: 32.7 ms extra
        # transfer beside a 2-RTT finding), so the bound allows 1.5 RTT.
        check("in: its saving is whole round trips of at most the extra "
              "transfer", loss[0]["saving_us"],
              "k x RTT, <= %d + 1.5 RTT" % (xin - xok),
              loss[0]["saving_us"] >= 0.9 * rtt_us and
              loss[0]["saving_us"] <= xin - xok + 1.5 * rtt_us)
    check("rtt: no loss finding without loss",
          [f["kind"] for f in docs["rtt"]["targets"][0]["findings"]
           if f["kind"] == "loss"], "[]",
          not [f for f in docs["rtt"]["targets"][0]["findings"]
               if f["kind"] == "loss"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
