#!/usr/bin/env python3
"""fidelity_wire.py: tests/bench/fidelity_wire's table.

usage: fidelity_wire.py DELAY:CLIENT.txt:SERVER.txt:SAMPLES.jsonl...

CLIENT.txt and SERVER.txt are `tcpdump -n -tt -r` of the captures on the
client's and the server's TUN device of a lab whose link delays DELAY ms
one way; SAMPLES.jsonl hopsplit's NDJSON of cold HTTPS GETs in runs of -n 6
(each run's first sample, round 1, is left out).  Each sample's connection
is found in both captures by its local port (hops[0].local_port); a
packet is the same in both captures when its tcpdump line after the
direction is.

Per sample, on the wire (client's capture): tls from the ClientHello out
to the server's first flight in; wait from the request out (the client's
third data segment: after ClientHello and Finished) to the response's
last data segment in (the body of a small response; the segments of
session tickets and settings come before it).  The server's share of
each: the same two packets in the server's capture (in, then out).  The
link's share: the wire's less the server's.  The client's share:
hopsplit's phase less the wire's.  connect: the wire's SYN out to SYN-ACK
in (the server's share is its kernel's).  The error of a phase against the
link is its median at the larger delay less its median at 0 ms less the
round trip the link adds; each share's part of it is the share's median
at the larger delay less at 0 ms (less the link's round trip for the
link's).  Prints figures; never fails on them.
"""
import collections
import json
import re
import statistics
import sys

LINE = re.compile(r"(\d+\.\d+) \S+\s+(In|Out)\s+(IP (\S+)\.(\d+) > (\S+)\.(\d+): "
                  r"Flags \[([^\]]*)\].*length (\d+).*)$")


def capture(path):
    """port -> [(time, 'up'|'down', length, flags, text)], in order."""
    flows = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            m = LINE.match(line.strip())
            if not m:
                continue
            sport, dport = int(m.group(5)), int(m.group(7))
            if 443 not in (sport, dport):
                continue
            port = sport if dport == 443 else dport
            flows[port].append((float(m.group(1)),
                                "up" if dport == 443 else "down",
                                int(m.group(9)), m.group(8), m.group(3)))
    return flows


def data(pkts, way):
    return [p for p in pkts if p[1] == way and p[2] > 0]


def transits(c, s):
    """One-way transit times (us) of the packets in both captures."""
    out = {"up": [], "down": []}
    for port, cp in c.items():
        sp = s.get(port, [])
        seen = {}
        for p in sp:
            seen.setdefault(p[4], []).append(p[0])
        for p in cp:
            t = seen.get(p[4])
            if not t or len(t) != 1:
                continue  # a retransmission's twin: ambiguous
            out[p[1]].append((p[0] - t[0]) * 1e6 if p[1] == "down"
                             else (t[0] - p[0]) * 1e6)
    return out


def split(c, s, samples):
    rows = []
    for smp in samples:
        hop = smp["hops"][0]
        port = hop.get("local_port")
        cp, sp = c.get(port), s.get(port)
        if not cp or not sp:
            continue
        cu, cd, su, sd = (data(cp, "up"), data(cp, "down"), data(sp, "up"),
                          data(sp, "down"))
        syn = [p[0] for p in cp if p[1] == "up" and "S" in p[3]]
        synack = [p[0] for p in cp if p[1] == "down" and "S" in p[3]]
        if len(cu) < 3 or len(su) < 3 or not cd or not sd or not syn or \
                not synack:
            continue
        ph = hop["phases_us"]
        r = {"connect": ph["connect"], "tls": ph["tls"], "wait": ph["wait"],
             "wire connect": (synack[0] - syn[0]) * 1e6,
             "wire tls": (cd[0][0] - cu[0][0]) * 1e6,
             "server tls": (sd[0][0] - su[0][0]) * 1e6,
             "wire wait": (cd[-1][0] - cu[2][0]) * 1e6,
             "server wait": (sd[-1][0] - su[2][0]) * 1e6}
        rows.append(r)
    return rows


def med(rows, k):
    return statistics.median(r[k] for r in rows)


def main(argv):
    labs = []
    for a in argv:
        d, cpath, spath, jpath = a.split(":", 3)
        c, s = capture(cpath), capture(spath)
        with open(jpath) as f:
            samples = [j for j in (json.loads(x) for x in f if x.strip())
                       if j.get("type") == "sample" and j.get("ok") and
                       j.get("round", 1) > 1 and len(j.get("hops", [])) == 1]
        labs.append((float(d), split(c, s, samples), transits(c, s)))
    if len(labs) < 2 or any(not rows for _, rows, _ in labs):
        sys.stderr.write("fidelity_wire.py: a lab has no sample matched to "
                         "both captures\n")
        return 1
    (d0, r0, t0), (d1, r1, t1) = labs[0], labs[-1]
    rtt = 2 * (d1 - d0) * 1000
    print("\nWhere each phase's error against the link comes from: medians "
          "(us) of %d samples at %g ms and %d at %g ms one way (the link "
          "adds %.0f us a round trip)" % (len(r0), d0, len(r1), d1, rtt))
    print("\n| phase | hopsplit @%g | hopsplit @%g | error | the link's part |"
          " the server's part | the client's part |" % (d0, d1))
    print("|---|---:|---:|---:|---:|---:|---:|")
    for ph in ("connect", "tls", "wait"):
        err = med(r1, ph) - med(r0, ph) - rtt
        wire = "wire " + ph
        client = (med(r1, ph) - med(r1, wire)) - (med(r0, ph) - med(r0, wire))
        if ph == "connect":
            link, server = med(r1, wire) - med(r0, wire) - rtt, None
        else:
            sv = "server " + ph
            server = med(r1, sv) - med(r0, sv)
            link = ((med(r1, wire) - med(r1, sv)) -
                    (med(r0, wire) - med(r0, sv)) - rtt)
        print("| %s | %.0f | %.0f | %+.0f | %+.0f | %s | %+.0f |" % (
            ph, med(r0, ph), med(r1, ph), err, link,
            "(its kernel: in the link's)" if server is None
            else "%+.0f" % server, client))
    print("\nThe parts are medians of their own, so they need not add up to "
          "the error exactly.")
    print("\nThe link's one-way transit (us: p50 / p90 / max), from one "
          "capture to the other:")
    for d, _, t in labs:
        for way in ("up", "down"):
            v = sorted(t[way])
            if v:
                print("  %g ms, %s: %.0f / %.0f / %.0f (%d packets; the "
                      "delay %.0f)" % (d, "client to server" if way == "up"
                                       else "server to client",
                                       statistics.median(v),
                                       v[int(0.9 * (len(v) - 1))], v[-1],
                                       len(v), d * 1000))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
