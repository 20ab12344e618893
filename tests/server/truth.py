#!/usr/bin/env python3
"""truth.py: hopsplit's TLS facts of each hop against the ground truth of
the same connection: the server's access log and the loopback capture.

usage: truth.py --json RUN.json --log ACCESS.log --server KIND
                [--pcap ROWS.json] [--mode MODE] [--expect-resumed]
                [--expect-offered] [--table] [--wait S]

KIND names the access log format of tests/server/servers.sh: apache,
h2o, nginx (these log whether the session was resumed) or lighttpd (it
logs no TLS facts).  ROWS.json is `tlsscan.py --json` of the capture.

Every hop of MODE (default resumed) that made a new TLS connection is
matched by its local port (hop.local_port) to the log line and the
capture row of that connection.  Checked:
  - the hop has a local_port, and the log and the capture have it;
  - tls.resumed equals the server's word (log, else capture accepted);
  - tls.offered equals the capture's offered != none;
  - the log's protocol equals the hop's http_version;
  - with --expect-resumed every such hop resumed (log and capture);
  - with --expect-offered every such hop offered a session (capture).
Prints one line per hop with --table; exits 1 with the mismatches.
"""
import argparse
import json
import re
import sys
import time

# CLIENT_IP CLIENT_PORT PROTOCOL STATUS PATH ... resumed=X
LINE = re.compile(r"^(\S+) (\d+) (\S+) (\d+) (\S+)(.*)$")
RESUMED = {
    "apache": {"Resumed": True, "Initial": False},
    "h2o": {"1": True, "0": False},
    "nginx": {"r": True, ".": False},
}
PROTO = {"HTTP/1.1": "1.1", "HTTP/2": "2", "HTTP/2.0": "2", "HTTP/1.0": "1.0"}


def read_log(path, kind):
    by_port = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line.strip())
            if not m:
                continue
            port = int(m.group(2))
            rest = m.group(6)
            resumed = None
            if kind in RESUMED:
                r = re.search(r"resumed=(\S+)", rest)
                if r:
                    resumed = RESUMED[kind].get(r.group(1))
            entry = {"ip": m.group(1), "proto": PROTO.get(m.group(3)),
                     "status": int(m.group(4)), "path": m.group(5),
                     "resumed": resumed}
            # h2 logs one line per stream: the connection is the same
            by_port.setdefault(port, entry)
    return by_port


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--server", required=True,
                    choices=("apache", "h2o", "nginx", "lighttpd"))
    ap.add_argument("--pcap")
    ap.add_argument("--mode", default="resumed")
    ap.add_argument("--expect-resumed", action="store_true")
    ap.add_argument("--expect-offered", action="store_true")
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--wait", type=float, default=5.0,
                    help="seconds to wait for the log to have every port "
                    "(lighttpd writes it once a second)")
    a = ap.parse_args()

    with open(a.json) as f:
        doc = json.load(f)
    ports = [h.get("local_port") for s in doc.get("samples", [])
             if s.get("mode") == a.mode for h in s.get("hops", [])
             if not h.get("reused") and (h.get("tls") or {}).get("version")]
    deadline = time.monotonic() + a.wait
    while True:
        log = read_log(a.log, a.server)
        if all(p in log for p in ports if isinstance(p, int)) or \
                time.monotonic() >= deadline:
            break
        time.sleep(0.1)
    rows = {}
    twice = set()
    if a.pcap:
        with open(a.pcap) as f:
            for r in json.load(f):
                if r["client_port"] in rows:
                    twice.add(r["client_port"])
                rows[r["client_port"]] = r
    problems = []
    n = 0
    for s in doc.get("samples", []):
        if s.get("mode") != a.mode:
            continue
        for i, h in enumerate(s.get("hops", [])):
            if h.get("reused") or not (h.get("tls") or {}).get("version"):
                continue
            n += 1
            where = "round %s hop %d" % (s.get("round"), i + 1)
            tls = h["tls"]
            lp = h.get("local_port")
            if not isinstance(lp, int) or lp <= 0:
                problems.append("%s: no local_port in the hop (%r)"
                                % (where, lp))
                continue
            if lp in twice:
                # the port of a closed connection came back: which one
                # is this hop's cannot be told; say so, check the rest
                print("truth.py: %s: port %d used by two connections in "
                      "the capture, not checked" % (where, lp),
                      file=sys.stderr)
                continue
            line = log.get(lp)
            row = rows.get(lp)
            truth_resumed = None
            if line is None:
                problems.append("%s: port %d not in the server's log"
                                % (where, lp))
            else:
                truth_resumed = line["resumed"]
                if line["proto"] != h.get("http_version"):
                    problems.append("%s: server logged %s, hop says %s"
                                    % (where, line["proto"],
                                       h.get("http_version")))
            if a.pcap:
                if row is None:
                    problems.append("%s: port %d not in the capture"
                                    % (where, lp))
                else:
                    acc = row["accepted"] == "yes"
                    if truth_resumed is None:
                        truth_resumed = acc
                    elif truth_resumed != acc:
                        problems.append("%s: log says resumed=%s, capture "
                                        "accepted=%s" % (where, truth_resumed,
                                                         row["accepted"]))
                    offered = row["offered"] not in ("none", "?")
                    if tls.get("offered") != offered:
                        problems.append("%s: tls.offered=%r, capture shows "
                                        "offered=%s" % (where,
                                                        tls.get("offered"),
                                                        row["offered"]))
                    if a.expect_offered and not offered:
                        problems.append("%s: no session offered (capture)"
                                        % where)
            if truth_resumed is not None and tls.get("resumed") != truth_resumed:
                problems.append("%s: tls.resumed=%r, server resumed=%r"
                                % (where, tls.get("resumed"), truth_resumed))
            if a.expect_resumed and truth_resumed is not True:
                problems.append("%s: the server did not resume (%r)"
                                % (where, truth_resumed))
            if a.table:
                print("%s port=%s http=%s hopsplit offered=%s resumed=%s | "
                      "log resumed=%s | capture offered=%s accepted=%s"
                      % (where, lp, h.get("http_version"), tls.get("offered"),
                         tls.get("resumed"),
                         None if line is None else line["resumed"],
                         None if row is None else row["offered"],
                         None if row is None else row["accepted"]))
    if not n:
        problems.append("no new TLS connection in mode %s" % a.mode)
    for p in problems:
        print("truth.py: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
