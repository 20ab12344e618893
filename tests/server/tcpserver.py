#!/usr/bin/env python3
"""tcpserver.py: a misbehaving server on 127.0.0.1 for error tests.

usage: tcpserver.py MODE PORTFILE [LIFETIME_S]

Binds 127.0.0.1:0, writes the port it got to PORTFILE (atomically), then
serves as MODE says, until LIFETIME_S (default 90) passed.  TCP modes:

  blackhole   accept, read, never answer (a timeout for the client)
  garbage     read the request, answer bytes that are not HTTP, close
  badstatus   answer "HTTP/1.1 abc" followed by junk, close
  bigheaders  answer a 200 whose header block is 1 MiB, close
  location    a request whose query is "l=VALUE" gets a 302 with the
              percent-decoded VALUE, byte for byte, as its Location; any
              other request gets a 200 "ok"
  bigline     answer a 200 with one header line of 2 MiB, close
  slowsink    read a request body (Content-Length) at HS_SINK_RATE bytes
              a second (default 8 MiB/s) through a 64 KiB receive buffer,
              answering "100 Continue" when the request expects it; log
              "body BYTES bytes in SECONDS s" (the server's own clock from
              its first body byte to its last), then answer 200, close

UDP modes (a DNS server for --dns-server):

  dns-blackhole  read queries, never answer
  dns-servfail   answer every query with SERVFAIL
  dns-refused    answer every query with REFUSED
"""
import os
import socket
import sys
import threading
import time
from urllib.parse import unquote_to_bytes

RESPONSES = {
    "garbage": b"\x00\x01\x02 this is not an HTTP response \xff\xfe\r\n\r\n",
    "badstatus": b"HTTP/1.1 abc defg\r\n\x01\x02junk\r\n\r\n",
    "bigheaders": (b"HTTP/1.1 200 OK\r\n"
                   + b"".join(b"X-Filler-%05d: %s\r\n" % (i, b"a" * 1000)
                              for i in range(1024))
                   + b"Content-Length: 3\r\n\r\nok\n"),
    "bigline": (b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * (2 * 1024 * 1024)
                + b"\r\nContent-Length: 3\r\n\r\nok\n"),
}


def read_request(conn):
    """Read until the end of the request head, or 2 s, or 64 KiB."""
    conn.settimeout(2.0)
    data = b""
    try:
        while b"\r\n\r\n" not in data and len(data) < 65536:
            chunk = conn.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    return data


def location_response(req):
    """A 302 to the l= of the request line's query, else a 200."""
    target = req.split(b" ", 2)[1] if req.count(b" ") >= 2 else b"/"
    query = target.partition(b"?")[2]
    if query.startswith(b"l="):
        loc = unquote_to_bytes(query[2:])
        return (b"HTTP/1.1 302 Found\r\nLocation: " + loc +
                b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    return (b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n"
            b"Connection: close\r\n\r\nok\n")


def slow_sink(conn, req):
    """Read the body of req's Content-Length at a known rate."""
    rate = float(os.environ.get("HS_SINK_RATE", 8 * 1024 * 1024))
    head, _, body = req.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
        if (name.strip().lower() == b"expect"
                and value.strip().lower() == b"100-continue"):
            conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
    got = len(body)
    conn.settimeout(30.0)
    start = time.monotonic()
    chunk = 16384
    while got < length:
        # Keep the reading at rate: sleep until this many bytes are due.
        due = start + got / rate
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        data = conn.recv(min(chunk, length - got))
        if not data:
            break
        got += len(data)
    took = time.monotonic() - start
    sys.stdout.write("body %d bytes in %.3f s\n" % (got, took))
    sys.stdout.flush()
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n"
                 b"Connection: close\r\n\r\nok\n")


def serve(mode, conn, held):
    if mode == "blackhole":
        held.append(conn)  # keep it open, never answer
        try:
            conn.settimeout(None)
            while conn.recv(4096):
                pass
        except OSError:
            pass
        return
    try:
        req = read_request(conn)
        if mode == "slowsink":
            slow_sink(conn, req)
            conn.shutdown(socket.SHUT_WR)
            time.sleep(0.2)
            return
        if mode == "location":
            conn.sendall(location_response(req))
            conn.shutdown(socket.SHUT_WR)
            time.sleep(0.2)
            return
        conn.sendall(RESPONSES[mode])
        conn.shutdown(socket.SHUT_WR)
        time.sleep(0.2)
    except OSError:
        pass
    finally:
        conn.close()


def write_port(portfile, port):
    tmp = portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, portfile)


def serve_udp(mode, portfile, lifetime):
    srv = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    srv.bind(("127.0.0.1", 0))
    write_port(portfile, srv.getsockname()[1])
    deadline = time.monotonic() + lifetime
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return 0
        srv.settimeout(min(left, 1.0))
        try:
            msg, peer = srv.recvfrom(4096)
        except socket.timeout:
            continue
        sys.stdout.write("%s: query from %s:%d\n" % (mode, *peer))
        sys.stdout.flush()
        if mode in ("dns-servfail", "dns-refused") and len(msg) >= 12:
            # Same id and question; QR=1, RD and RA copied/set, rcode 2
            # (SERVFAIL) or 5 (REFUSED).
            rcode = 2 if mode == "dns-servfail" else 5
            flags = 0x8000 | (msg[2] << 8 & 0x0100) | 0x0080 | rcode
            srv.sendto(msg[:2] + flags.to_bytes(2, "big") + msg[4:6]
                       + b"\0\0\0\0\0\0" + msg[12:], peer)


def main():
    udp_modes = ("dns-blackhole", "dns-servfail", "dns-refused")
    if len(sys.argv) not in (3, 4) or (
            sys.argv[1] not in ("blackhole", "location", "slowsink")
            + udp_modes
            and sys.argv[1] not in RESPONSES):
        sys.stderr.write(__doc__)
        return 2
    mode, portfile = sys.argv[1], sys.argv[2]
    lifetime = float(sys.argv[3]) if len(sys.argv) == 4 else 90.0
    if mode in udp_modes:
        return serve_udp(mode, portfile, lifetime)
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if mode == "slowsink":
        # A small buffer, so that little of the body hides in it.
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)
    write_port(portfile, srv.getsockname()[1])
    deadline = time.monotonic() + lifetime
    held = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        srv.settimeout(min(left, 1.0))
        try:
            conn, peer = srv.accept()
        except socket.timeout:
            continue
        sys.stdout.write("%s: connection from %s:%d\n" % (mode, *peer))
        sys.stdout.flush()
        threading.Thread(target=serve, args=(mode, conn, held),
                         daemon=True).start()
    return 0


if __name__ == "__main__":
    sys.exit(main())
