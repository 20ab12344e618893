#!/usr/bin/env python3
"""dnsdelay.py: a UDP DNS server on 127.0.0.1 with a known delay.

usage: dnsdelay.py PORTFILE LOG DELAY_MS [TYPE=RCODE ...]

Binds a free port (written to PORTFILE), answers every question after
DELAY_MS milliseconds: an A question with 127.0.0.1, an AAAA question with
::1, unless TYPE=RCODE (for example AAAA=REFUSED, A=SERVFAIL) says to
answer that type with that response code and no answer.  Each query is
answered on its own timer, so queries asked together are answered
together.  LOG gets one line per query received: "TIME_MS TYPE NAME ID"
(time in ms since the epoch, float).  Runs until killed.
"""
import socket
import struct
import sys
import threading
import time

TYPES = {1: "A", 28: "AAAA", 5: "CNAME", 65: "HTTPS"}
RCODES = {"NOERROR": 0, "FORMERR": 1, "SERVFAIL": 2, "NXDOMAIN": 3,
          "NOTIMP": 4, "REFUSED": 5}


def parse_question(msg):
    off = 12
    labels = []
    while off < len(msg) and msg[off]:
        n = msg[off]
        labels.append(msg[off + 1:off + 1 + n].decode("ascii", "replace"))
        off += 1 + n
    off += 1
    qtype, qclass = struct.unpack(">HH", msg[off:off + 4])
    return ".".join(labels), qtype, off + 4


def answer(msg, rules):
    qid, flags = struct.unpack(">HH", msg[:4])
    name, qtype, qend = parse_question(msg)
    tname = TYPES.get(qtype, str(qtype))
    rcode = rules.get(tname, 0)
    rd = flags & 0x0100
    data = b""
    if rcode == 0 and qtype == 1:
        data = socket.inet_pton(socket.AF_INET, "127.0.0.1")
    elif rcode == 0 and qtype == 28:
        data = socket.inet_pton(socket.AF_INET6, "::1")
    an = 1 if data else 0
    head = struct.pack(">HHHHHH", qid, 0x8000 | 0x0400 | rd | 0x0080 | rcode,
                       1, an, 0, 0)
    out = head + msg[12:qend]
    if data:
        out += struct.pack(">HHHIH", 0xC00C, qtype, 1, 60, len(data)) + data
    return out, tname, name, qid


def main():
    portfile, log, delay = sys.argv[1], sys.argv[2], float(sys.argv[3])
    rules = {}
    for r in sys.argv[4:]:
        t, c = r.split("=", 1)
        rules[t] = RCODES[c]
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % s.getsockname()[1])
    import os
    os.rename(portfile + ".tmp", portfile)
    lock = threading.Lock()
    with open(log, "a", buffering=1) as lf:
        while True:
            msg, peer = s.recvfrom(4096)
            try:
                out, tname, name, qid = answer(msg, rules)
            except Exception:
                continue
            with lock:
                lf.write("%.3f %s %s %d\n" % (time.time() * 1000, tname, name,
                                              qid))
            threading.Timer(delay / 1000.0, s.sendto, (out, peer)).start()


if __name__ == "__main__":
    main()
