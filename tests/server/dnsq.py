#!/usr/bin/env python3
"""dnsq.py: one DNS query over UDP to 127.0.0.1, for checking the fixture.

usage: dnsq.py [--expect ADDR] PORT NAME [A|AAAA|CNAME]

Prints the response code and the answers ("rcode NOERROR", then lines
"TYPE TTL DATA").  Exit 0 on an answer (and, with --expect, when ADDR is
among the A/AAAA answers), 1 otherwise.  No dig needed.
"""
import random
import socket
import struct
import sys

TYPES = {"A": 1, "CNAME": 5, "AAAA": 28}
RCODES = {0: "NOERROR", 1: "FORMERR", 2: "SERVFAIL", 3: "NXDOMAIN",
          4: "NOTIMP", 5: "REFUSED"}


def encode_name(name):
    out = b""
    for label in name.rstrip(".").split("."):
        out += bytes([len(label)]) + label.encode("ascii")
    return out + b"\0"


def read_name(msg, off):
    labels = []
    jumped = False
    end = off
    for _ in range(64):
        n = msg[off]
        if n & 0xC0 == 0xC0:
            if not jumped:
                end = off + 2
            off = ((n & 0x3F) << 8) | msg[off + 1]
            jumped = True
            continue
        if n == 0:
            if not jumped:
                end = off + 1
            break
        labels.append(msg[off + 1:off + 1 + n].decode("ascii"))
        off += 1 + n
    return ".".join(labels), end


def query(port, name, qtype):
    qid = random.randrange(65536)
    msg = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    msg += encode_name(name) + struct.pack(">HH", TYPES[qtype], 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(1.0)
    try:
        s.sendto(msg, ("127.0.0.1", port))
        resp, _ = s.recvfrom(4096)
    finally:
        s.close()
    rid, flags, qd, an, _, _ = struct.unpack(">HHHHHH", resp[:12])
    if rid != qid:
        raise OSError("id mismatch")
    off = 12
    for _ in range(qd):
        _, off = read_name(resp, off)
        off += 4
    answers = []
    for _ in range(an):
        _, off = read_name(resp, off)
        rtype, _, ttl, rdlen = struct.unpack(">HHIH", resp[off:off + 10])
        off += 10
        rdata = resp[off:off + rdlen]
        if rtype == 1:
            data = socket.inet_ntop(socket.AF_INET, rdata)
        elif rtype == 28:
            data = socket.inet_ntop(socket.AF_INET6, rdata)
        elif rtype == 5:
            data = read_name(resp, off)[0]
        else:
            data = rdata.hex()
        name_of = {v: k for k, v in TYPES.items()}.get(rtype, str(rtype))
        answers.append((name_of, ttl, data))
        off += rdlen
    return RCODES.get(flags & 0xF, str(flags & 0xF)), answers


def main():
    args = sys.argv[1:]
    expect = None
    if args[:1] == ["--expect"]:
        expect, args = args[1], args[2:]
    if len(args) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    port, name = int(args[0]), args[1]
    qtype = args[2] if len(args) == 3 else "A"
    try:
        rcode, answers = query(port, name, qtype)
    except OSError as e:
        print("error %s" % e)
        return 1
    print("rcode %s" % rcode)
    for a in answers:
        print("%s %d %s" % a)
    if expect is not None:
        return 0 if any(a[2] == expect for a in answers) else 1
    return 0 if rcode == "NOERROR" else 1


if __name__ == "__main__":
    sys.exit(main())
