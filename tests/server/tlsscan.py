#!/usr/bin/env python3
"""tlsscan.py: TLS handshakes seen in a loopback pcap, one line per TCP
connection, as ground truth that is neither the client's nor the server's
own word.

usage: tlsscan.py [--port P]... [--json] FILE.pcap

For each TCP connection (in the order of its SYN) to one of the ports
(all ports when none is given) it prints

  CPORT SPORT offered=psk|ticket|id|none accepted=yes|no|? version=1.3
      sni=NAME alpn=h2,http/1.1 fin=client|server|both|none

  offered   what the ClientHello carried to resume: a TLS 1.3
            pre_shared_key extension (psk), a non-empty TLS 1.2
            session_ticket extension (ticket), a TLS 1.2 session id that
            is not the TLS 1.3 compatibility one (id), or nothing (none)
  accepted  yes when the server resumed: its ServerHello has the TLS 1.3
            pre_shared_key extension, or (TLS 1.2) it echoes the offered
            session id or goes straight to ChangeCipherSpec; ? when no
            ServerHello was seen
  version   the version the ServerHello chose (supported_versions)
  alpn      the protocols the ClientHello offered
  fin       who sent the first FIN

Reads classic pcap (tcpdump -w) with Ethernet, Linux cooked (v1, v2),
raw IP or BSD loopback framing; IPv4 and IPv6.  Payload is reassembled
per direction by sequence number (loopback loses nothing, retransmissions
are dropped).  No third-party module needed.
"""
import json
import struct
import sys


def packets(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        end = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        end = ">"
    else:
        raise ValueError("%s: not a classic pcap file (pcapng?)" % path)
    linktype = struct.unpack(end + "I", data[20:24])[0]
    off = 24
    while off + 16 <= len(data):
        _, _, incl, _ = struct.unpack(end + "IIII", data[off:off + 16])
        off += 16
        frame = data[off:off + incl]
        off += incl
        ip = strip_link(linktype, frame)
        if ip is not None:
            yield ip


def strip_link(linktype, frame):
    if linktype == 1:  # Ethernet
        if len(frame) < 14:
            return None
        etype = struct.unpack(">H", frame[12:14])[0]
        body = frame[14:]
        while etype == 0x8100 and len(body) >= 4:  # VLAN
            etype = struct.unpack(">H", body[2:4])[0]
            body = body[4:]
        return body if etype in (0x0800, 0x86DD) else None
    if linktype == 113:  # Linux cooked v1
        return frame[16:] if len(frame) > 16 else None
    if linktype == 276:  # Linux cooked v2
        return frame[20:] if len(frame) > 20 else None
    if linktype in (101, 12, 14):  # raw IP
        return frame
    if linktype == 0:  # BSD loopback
        return frame[4:]
    return None


def tcp_of(ip):
    """(src, sport, dst, dport, seq, flags, payload) or None."""
    if not ip:
        return None
    ver = ip[0] >> 4
    if ver == 4:
        ihl = (ip[0] & 15) * 4
        if len(ip) < ihl or ip[9] != 6:
            return None
        total = struct.unpack(">H", ip[2:4])[0]
        src, dst = ip[12:16], ip[16:20]
        seg = ip[ihl:total]
    elif ver == 6:
        if len(ip) < 40 or ip[6] != 6:  # no extension headers on loopback
            return None
        plen = struct.unpack(">H", ip[4:6])[0]
        src, dst = ip[8:24], ip[24:40]
        seg = ip[40:40 + plen]
    else:
        return None
    if len(seg) < 20:
        return None
    sport, dport, seq = struct.unpack(">HHI", seg[:8])
    doff = (seg[12] >> 4) * 4
    flags = seg[13]
    return src, sport, dst, dport, seq, flags, seg[doff:]


class Stream:
    def __init__(self):
        self.isn = None
        self.segs = {}
        self.fin = False

    def add(self, seq, flags, payload):
        if flags & 0x02:  # SYN
            self.isn = (seq + 1) & 0xFFFFFFFF
        if flags & 0x01:
            self.fin = True
        if payload and self.isn is not None:
            rel = (seq - self.isn) & 0xFFFFFFFF
            self.segs.setdefault(rel, payload)

    def data(self):
        out = b""
        for rel in sorted(self.segs):
            seg = self.segs[rel]
            if rel > len(out):
                break  # a hole: stop there
            out += seg[len(out) - rel:]
        return out


def records(stream):
    """(content type, body) of the TLS records at the start of stream."""
    off = 0
    while off + 5 <= len(stream):
        ctype = stream[off]
        length = struct.unpack(">H", stream[off + 3:off + 5])[0]
        if ctype not in (20, 21, 22, 23) or off + 5 + length > len(stream):
            return
        yield ctype, stream[off + 5:off + 5 + length]
        off += 5 + length


def first_handshake(stream):
    """The first handshake message (type, body) and the record types that
    follow the record holding it."""
    buf = b""
    after = []
    msg = None
    for ctype, body in records(stream):
        if msg is not None:
            after.append(ctype)
            if len(after) >= 2:
                break
            continue
        if ctype != 22:
            return None, []
        buf += body
        if len(buf) >= 4:
            mlen = struct.unpack(">I", b"\0" + buf[1:4])[0]
            if len(buf) >= 4 + mlen:
                msg = (buf[0], buf[4:4 + mlen])
                # a second handshake message in the same record counts as
                # "more handshake" (22)
                if len(buf) > 4 + mlen:
                    after.append(22)
    return (msg if msg else (None, None)), after


def extensions(body, off):
    exts = {}
    if off + 2 > len(body):
        return exts
    total = struct.unpack(">H", body[off:off + 2])[0]
    off += 2
    end = min(len(body), off + total)
    while off + 4 <= end:
        etype, elen = struct.unpack(">HH", body[off:off + 4])
        exts[etype] = body[off + 4:off + 4 + elen]
        off += 4 + elen
    return exts


def parse_client_hello(body):
    off = 2 + 32
    sid_len = body[off]
    sid = body[off + 1:off + 1 + sid_len]
    off += 1 + sid_len
    cs_len = struct.unpack(">H", body[off:off + 2])[0]
    off += 2 + cs_len
    comp_len = body[off]
    off += 1 + comp_len
    exts = extensions(body, off)
    sni = None
    if 0 in exts and len(exts[0]) >= 5:
        n = struct.unpack(">H", exts[0][3:5])[0]
        sni = exts[0][5:5 + n].decode("ascii", "replace")
    alpn = []
    if 16 in exts:
        a = exts[16][2:]
        while a:
            n = a[0]
            alpn.append(a[1:1 + n].decode("ascii", "replace"))
            a = a[1 + n:]
    tls13 = 43 in exts and b"\x03\x04" in exts[43][1:]
    if 41 in exts:
        offered = "psk"
    elif exts.get(35):
        offered = "ticket"
    elif sid and not tls13:
        offered = "id"
    else:
        offered = "none"
    return {"offered": offered, "sid": sid, "sni": sni, "alpn": alpn}


def parse_server_hello(body):
    off = 2 + 32
    sid_len = body[off]
    sid = body[off + 1:off + 1 + sid_len]
    off += 1 + sid_len + 2 + 1
    exts = extensions(body, off)
    version = "1.2"
    if 43 in exts and exts[43] == b"\x03\x04":
        version = "1.3"
    return {"sid": sid, "version": version, "psk": 41 in exts}


def scan(path, ports):
    conns = {}
    order = []
    for ip in packets(path):
        t = tcp_of(ip)
        if t is None:
            continue
        src, sport, dst, dport, seq, flags, payload = t
        if flags & 0x02 and not flags & 0x10:  # SYN: client to server
            if ports and dport not in ports:
                continue
            key = (src, sport, dst, dport)
            if key not in conns:
                conns[key] = {"c": Stream(), "s": Stream(), "first_fin": None}
                order.append(key)
        key = (src, sport, dst, dport)
        rkey = (dst, dport, src, sport)
        if key in conns:
            c = conns[key]
            c["c"].add(seq, flags, payload)
            if flags & 0x01 and c["first_fin"] is None:
                c["first_fin"] = "client"
        elif rkey in conns:
            c = conns[rkey]
            c["s"].add(seq, flags, payload)
            if flags & 0x01 and c["first_fin"] is None:
                c["first_fin"] = "server"
    out = []
    for key in order:
        c = conns[key]
        row = {"client_port": key[1], "server_port": key[3],
               "offered": "?", "accepted": "?", "version": None,
               "sni": None, "alpn": [], "fin": c["first_fin"] or "none"}
        (ctype, chello), _ = first_handshake(c["c"].data())
        if ctype == 1:
            ch = parse_client_hello(chello)
            row.update(offered=ch["offered"], sni=ch["sni"], alpn=ch["alpn"])
            (stype, shello), after = first_handshake(c["s"].data())
            if stype == 2:
                sh = parse_server_hello(shello)
                row["version"] = sh["version"]
                if sh["version"] == "1.3":
                    resumed = sh["psk"]
                elif ch["offered"] == "id":
                    resumed = sh["sid"] == ch["sid"]
                elif ch["offered"] == "ticket":
                    resumed = bool(after) and after[0] == 20
                else:
                    resumed = False
                row["accepted"] = "yes" if resumed else "no"
        out.append(row)
    return out


def main():
    args = sys.argv[1:]
    ports = set()
    as_json = False
    while args and args[0].startswith("--"):
        if args[0] == "--port" and len(args) > 1:
            ports.add(int(args[1]))
            args = args[2:]
        elif args[0] == "--json":
            as_json = True
            args = args[1:]
        else:
            break
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    try:
        rows = scan(args[0], ports)
    except (OSError, ValueError) as e:
        sys.stderr.write("tlsscan.py: %s\n" % e)
        return 1
    if as_json:
        json.dump(rows, sys.stdout)
        sys.stdout.write("\n")
        return 0
    for r in rows:
        print("%d %d offered=%s accepted=%s version=%s sni=%s alpn=%s fin=%s"
              % (r["client_port"], r["server_port"], r["offered"],
                 r["accepted"], r["version"], r["sni"],
                 ",".join(r["alpn"]) or "-", r["fin"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
