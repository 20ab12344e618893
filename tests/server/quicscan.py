#!/usr/bin/env python3
"""quicscan.py: QUIC connections seen in a loopback pcap, one line per UDP
flow to the port, as ground truth that is neither the client's nor the
server's own word (RFC 9000 17.2, RFC 8999 5.1).

usage: quicscan.py --port P [--json] FILE.pcap

For each UDP flow (client port, server port P), in the order of its first
datagram, it prints

  CPORT P versions=0x00000001 client=Initial,Handshake,0-RTT,...
      server=Initial,Handshake,... short=C/S tcp=N

  versions  the versions of the long-header packets (both directions)
  client    the long-header packet types the client sent, in order, each
            packet of a coalesced datagram apart (Initial, 0-RTT,
            Handshake, Retry, or VN for a version negotiation)
  server    the same, from the server
  short     how many short-header (1-RTT) packets each side sent

and, on a last line, the TCP segments to or from P (tcp=N).  Only the
invariant header is read; nothing is decrypted.  Packets go through
tlsscan.py's pcap reader (classic pcap, IPv4 and IPv6).
"""
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tlsscan import packets  # noqa: E402

TYPES = ("Initial", "0-RTT", "Handshake", "Retry")


def ports_of(ip):
    """(proto, sport, dport, UDP payload) of a TCP (6) or UDP (17)
    packet over IPv4 or IPv6, or None."""
    if not ip:
        return None
    ver = ip[0] >> 4
    if ver == 4:
        ihl = (ip[0] & 15) * 4
        total = struct.unpack(">H", ip[2:4])[0]
        proto, seg = ip[9], ip[ihl:total]
    elif ver == 6 and len(ip) >= 40:
        plen = struct.unpack(">H", ip[4:6])[0]
        proto, seg = ip[6], ip[40:40 + plen]
    else:
        return None
    if proto not in (6, 17) or len(seg) < 8:
        return None
    sport, dport = struct.unpack(">HH", seg[:4])
    return proto, sport, dport, seg[8:] if proto == 17 else b""


def varint(b, i):
    """RFC 9000 16: (value, next index), or (None, len(b)) when cut."""
    if i >= len(b):
        return None, len(b)
    n = 1 << (b[i] >> 6)
    if i + n > len(b):
        return None, len(b)
    v = b[i] & 0x3F
    for k in range(1, n):
        v = (v << 8) | b[i + k]
    return v, i + n


def long_packets(d):
    """The packets of one datagram: ("long", type, version) per long-header
    packet (coalesced ones walked by their Length), ("short",) for a
    short-header one (which runs to the datagram's end)."""
    out = []
    i = 0
    while i < len(d):
        b0 = d[i]
        if not b0 & 0x80:
            out.append(("short",))
            break
        if i + 6 > len(d):
            break
        version = struct.unpack(">I", d[i + 1:i + 5])[0]
        if version == 0:
            out.append(("long", "VN", version))
            break
        j = i + 5
        dcil = d[j]
        j += 1 + dcil
        if j >= len(d):
            break
        scil = d[j]
        j += 1 + scil
        kind = TYPES[(b0 >> 4) & 3]
        out.append(("long", kind, version))
        if kind == "Retry":
            break
        if kind == "Initial":
            tlen, j = varint(d, j)
            if tlen is None:
                break
            j += tlen
        length, j = varint(d, j)
        if length is None:
            break
        i = j + length
    return out


def scan(path, port):
    flows = {}
    order = []
    tcp = 0
    for ip in packets(path):
        u = ports_of(ip)
        if not u:
            continue
        proto, sport, dport, payload = u
        if port not in (sport, dport):
            continue
        if proto == 6:
            tcp += 1
            continue
        client = dport == port
        cport = sport if client else dport
        f = flows.get(cport)
        if f is None:
            f = flows[cport] = {"cport": cport, "sport": port,
                                "versions": [], "client": [], "server": [],
                                "short": [0, 0]}
            order.append(cport)
        for p in long_packets(payload):
            if p[0] == "short":
                f["short"][0 if client else 1] += 1
                continue
            f["client" if client else "server"].append(p[1])
            v = "0x%08x" % p[2]
            if v not in f["versions"]:
                f["versions"].append(v)
    return [flows[c] for c in order], tcp


def main(argv):
    port = None
    as_json = False
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--port" and i + 1 < len(argv):
            port = int(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--json":
            as_json = True
        else:
            args.append(argv[i])
        i += 1
    if port is None or len(args) != 1:
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    flows, tcp = scan(args[0], port)
    if as_json:
        json.dump({"flows": flows, "tcp": tcp}, sys.stdout)
        sys.stdout.write("\n")
        return 0
    for f in flows:
        print("%d %d versions=%s client=%s server=%s short=%d/%d"
              % (f["cport"], f["sport"], ",".join(f["versions"]) or "-",
                 ",".join(f["client"]) or "-", ",".join(f["server"]) or "-",
                 f["short"][0], f["short"][1]))
    print("tcp=%d" % tcp)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
