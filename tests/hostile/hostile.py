#!/usr/bin/env python3
"""hostile.py: hostile peers on 127.0.0.1 for tests/hostile (issue 8).

usage: hostile.py http PORTFILE [CERT KEY]
       hostile.py dns PORTFILE

Binds 127.0.0.1:0 (TCP; for dns UDP and TCP on the same port), writes the
port to PORTFILE (atomically), serves for 120 s at most, then exits.  With
CERT and KEY the http server speaks TLS.  Every request line is logged on
stdout.

HTTP, by path (Connection: close everywhere):
  /ok            200 "ok"
  /bigheaders    200 with ~1 MiB of header lines
  /manyheaders   200 with 4000 short x-cache lines (under the caps)
  /toomanyheaders 200 with 6000 short lines (over libcurl 8's 5000)
  /badchunk      chunked body with a bad chunk size
  /short         Content-Length 100000, 100 bytes, close
  /silent        reads the request, never answers
  /drip          200, Content-Length 64, then one body byte a second
  /reset         200, Content-Length 100000, 4 KiB of body, then a TCP reset
  /garbage       bytes that are not HTTP
  /http09        a body without a status line (HTTP/0.9)
  /to-file /to-ftp /to-js /to-data   302 to file:, ftp:, javascript:, data:
  /loc-ctl       302 whose Location has a control character (0x01)
  /loc-del       302 whose Location has DEL (0x7f)
  /loc-long      302 whose Location is 9 KB long
  /loc-nul       302 whose Location has a NUL byte
  /to-idn        302 to http://bücher.test/ok (raw UTF-8 in the header)
  /to-idn-pct    302 to http://b%C3%BCcher.test/ok (percent-encoded)
  /chain/N       302 to /chain/N+1 up to 50, then 200
  /loop[?Q]      302 to /x/../loop[?Q] (a loop through dot segments)
  /secret-redir  302 to /secret-ok?token=...&X-Amz-Signature=...
  /secret-ok     200 with Set-Cookie and the request's query echoed nowhere
  /signed-redir  302 to /signed-ok?... (SIGNED_LOCATION: every signed-URL
                 family) with URL_HEADERS (X-Cache-Key, Content-Location,
                 Link, Refresh ... carrying secrets)
  /signed-ok     200 with URL_HEADERS
  /xo?to=PORT    302 to http://127.0.0.1:PORT/hdrs (another origin)
  /hdrs          200; logs every request header as "hdr NAME: VALUE"
  /ctl-xcache    200 whose X-Cache, Cache-Status and Server carry ESC and
                 OSC sequences
  /loc-esc       302 whose Location carries an OSC sequence
By Host, every path but /cdn-cgi/trace is a 200 that looks like a
Cloudflare edge (cf-ray ...-HKG, server: cloudflare); /cdn-cgi/trace is:
  huge.test      10 MB, no Content-Length (read until close)
  hugecl.test    10 MB with Content-Length
  binary.test    256 bytes of binary noise with colo=HKG inside
  slowtrace.test never answers
  goodtrace.test a valid trace (colo=HKG, loc=KR), the control case
DNS, by query name (A records; AAAA gets an empty NOERROR):
  ok.test          A 127.0.0.1
  nx.test          NXDOMAIN
  servfail.test    SERVFAIL
  trunc.test       truncated (TC) over UDP; the full answer over TCP
  trunctcp.test    truncated over UDP; TCP closes without an answer
  slow.test        the answer comes 8 s late
  badrr.test       an answer whose record runs past the end of the packet
  ctlcname.test    CNAME "a<ESC>[8m<U+202E>b.test" (raw bytes in a label),
                   A 127.0.0.1
  cname.test       CNAME alias1.test, CNAME ok2.test, A 127.0.0.1; the
                   AAAA answer has the same chain and ::1
"""
import os
import socket
import ssl
import struct
import sys
import threading
import time

LIFETIME = 120.0
SECRET_LOCATION = ("/secret-ok?token=SECRETTOKEN1&X-Amz-Signature=SECRETSIG2"
                   "&X-Amz-Credential=SECRETCRED3&plain=visible")


# Signed-URL families (issue 16): AWS SigV2, GCS, CloudFront, Azure SAS,
# Akamai, nginx secure_link, OAuth code, session ids, ';' separators and
# a credential-like name no list knows.
SIGNED_LOCATION = ("/signed-ok?AWSAccessKeyId=SECRETAK&Signature=SECRETS2"
                   "&Expires=9&GoogleAccessId=SECRETGA&Policy=SECRETPOL"
                   "&Key-Pair-Id=SECRETKP&sig=SECRETAZ"
                   "&hdnts=exp=1~acl=/*~hmac=SECRETHM&md5=SECRETMD5"
                   "&code=SECRETCODE&session=SECRETSESS;sid=SECRETSID"
                   "&X-Upload-Sig=SECRETUNK&plain=visible")
# Response headers that carry URLs.
URL_HEADERS = [
    ("X-Cache-Key", "S/L/1234/567/1d/origin.test/signed-ok?token=SECRETXCK"
     "&X-Amz-Signature=SECRETXCK2&plain=visible"),
    ("Content-Location", "https://SECRETUI@origin.test/x?sig=SECRETCL"),
    ("Link", "</a.css?token=SECRETLINK>; rel=preload"),
    ("Refresh", "5; url=/next?code=SECRETREF"),
    ("X-Original-Url", "/orig;jsessionid=SECRETJS?x=1"),
]


def log(msg):
    sys.stdout.write(msg + "\n")
    sys.stdout.flush()


def write_port(portfile, port):
    tmp = portfile + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, portfile)


def read_head(conn):
    conn.settimeout(5.0)
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


def response(status, headers=(), body=b"", length=True):
    reason = {200: "OK", 302: "Found"}.get(status, "X")
    out = [b"HTTP/1.1 %d %s\r\n" % (status, reason.encode())]
    for name, value in headers:
        out.append(name.encode() + b": " + (value if isinstance(value, bytes)
                                            else value.encode()) + b"\r\n")
    if length:
        out.append(b"Content-Length: %d\r\n" % len(body))
    out.append(b"Connection: close\r\n\r\n")
    return b"".join(out) + body


def redirect(location):
    return response(302, [("Location", location)], b"moved\n")


TRACE_HOSTS = ("huge.test", "hugecl.test", "binary.test", "slowtrace.test",
               "goodtrace.test")
CF = [("cf-ray", "8f1c2a3b4c5d6e7f-HKG"), ("server", "cloudflare"),
      ("cf-cache-status", "DYNAMIC")]


def trace(conn, host):
    if host == "slowtrace.test":
        time.sleep(30)
        return
    if host in ("huge.test", "hugecl.test"):
        size = 10 * 1024 * 1024
        head = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                + (b"Content-Length: %d\r\n" % size if host == "hugecl.test"
                   else b"") + b"Connection: close\r\n\r\n")
        conn.sendall(head)
        line = b"colo=HKG\nloc=KR\n" + b"x" * 4078 + b"\n"
        sent = 0
        while sent < size:
            conn.sendall(line)
            sent += len(line)
        return
    if host == "goodtrace.test":
        body = b"fl=1\nh=goodtrace.test\ncolo=HKG\nloc=KR\nwarp=off\n"
        conn.sendall(response(200, [("Content-Type", "text/plain")], body))
        return
    if host == "binary.test":
        body = bytes(range(256))[:128] + b"\ncolo=HKG\nloc=KR\n\x00\xff\x01"
        conn.sendall(response(200, [("Content-Type", "text/plain")], body))
        return
    conn.sendall(response(404, [], b"no trace\n"))


def handle(conn, held):
    try:
        head = read_head(conn)
        lines = head.split(b"\r\n")
        parts = lines[0].split(b" ")
        path = parts[1].decode("latin-1") if len(parts) > 1 else "/"
        host = ""
        for line in lines[1:]:
            if line.lower().startswith(b"host:"):
                host = line[5:].strip().decode("latin-1").rsplit(":", 1)[0]
        log("%s %s" % (host, path))
        route = path.split("?", 1)[0]
        if route == "/cdn-cgi/trace":
            trace(conn, host)
        elif host in TRACE_HOSTS:
            conn.sendall(response(200, CF, b"edge ok\n"))
        elif route == "/ok":
            conn.sendall(response(200, [], b"ok\n"))
        elif route == "/bigheaders":
            hdrs = [("X-Filler-%05d" % i, "a" * 1000) for i in range(1100)]
            conn.sendall(response(200, hdrs, b"ok\n"))
        elif route == "/silent":
            held.append(conn)
            time.sleep(60)
        elif route == "/drip":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 64\r\n"
                         b"Connection: close\r\n\r\n")
            for _ in range(64):
                conn.sendall(b"x")
                time.sleep(1)
        elif route == "/reset":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n"
                         b"Connection: close\r\n\r\n" + b"y" * 4096)
            time.sleep(0.3)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                            struct.pack("ii", 1, 0))
            conn.close()
            return
        elif route == "/garbage":
            conn.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 SSH-2.0"
                         b" not http at all\r\n\r\n\x00\x00")
        elif route == "/http09":
            conn.sendall(b"hello from 1991\n<html>no status line</html>\n")
        elif route == "/manyheaders":
            hdrs = [("x-cache", "HIT from edge%d" % i) for i in range(4000)]
            conn.sendall(response(200, hdrs, b"ok\n"))
        elif route == "/toomanyheaders":
            hdrs = [("x-filler", "%d" % i) for i in range(6000)]
            conn.sendall(response(200, hdrs, b"ok\n"))
        elif route == "/badchunk":
            conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n"
                         b"Connection: close\r\n\r\n5\r\nhello\r\n"
                         b"zz\r\nnot a chunk\r\n")
        elif route == "/short":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n"
                         b"Connection: close\r\n\r\n" + b"z" * 100)
        elif route == "/loc-nul":
            conn.sendall(redirect("/ok\x00evil"))
        elif route == "/to-idn":
            conn.sendall(redirect("http://b\u00fccher.test/ok".encode()))
        elif route == "/to-idn-pct":
            conn.sendall(redirect("http://b%C3%BCcher.test/ok"))
        elif route == "/to-file":
            conn.sendall(redirect("file:///etc/passwd"))
        elif route == "/to-ftp":
            conn.sendall(redirect("ftp://127.0.0.1/pub/x?token=SECRETFTP"))
        elif route == "/to-js":
            conn.sendall(redirect("javascript:alert(document.cookie)"))
        elif route == "/to-data":
            conn.sendall(redirect("data:text/html,<script>x</script>"))
        elif route == "/loc-ctl":
            conn.sendall(redirect("/ok\x01evil"))
        elif route == "/loc-del":
            conn.sendall(redirect("/ok\x7fevil"))
        elif route == "/loc-long":
            conn.sendall(redirect("/ok?pad=" + "a" * 9000))
        elif path.startswith("/chain/"):
            n = int(path[7:] or 0)
            if n >= 50:
                conn.sendall(response(200, [], b"end of chain\n"))
            else:
                conn.sendall(redirect("/chain/%d" % (n + 1)))
        elif path.startswith("/loop"):
            conn.sendall(redirect("/x/.." + path))
        elif route == "/signed-redir":
            conn.sendall(response(302, [("Location", SIGNED_LOCATION)]
                                  + URL_HEADERS, b"moved\n"))
        elif route == "/signed-ok":
            conn.sendall(response(200, URL_HEADERS, b"ok\n"))
        elif route == "/xo":
            to = path.split("to=", 1)[1] if "to=" in path else "0"
            conn.sendall(redirect("http://127.0.0.1:%s/hdrs" % to))
        elif route == "/hdrs":
            for line in lines[1:]:
                if line:
                    log("hdr " + line.decode("latin-1"))
            conn.sendall(response(200, [], b"ok\n"))
        elif route == "/ctl-xcache":
            conn.sendall(response(200, [
                ("X-Cache", b"HIT\x1b]0;PWNED-TITLE\x07\x1b[2J from edge"),
                ("Cache-Status", b"edge\x1b[5m; hit"),
                ("Server", b"nginx\x1b]8;;http://evil.test/\x07"),
                ("Age", "3"), ("Cache-Control", "max-age=60")], b"ok\n"))
        elif route == "/loc-esc":
            conn.sendall(redirect(b"/ok?\x1b]0;PWNED-LOC\x07"))
        elif route == "/secret-redir":
            conn.sendall(redirect(SECRET_LOCATION))
        elif path.startswith("/secret-ok"):
            conn.sendall(response(200, [
                ("Set-Cookie", "session=SECRETCOOKIE4; Path=/"),
                ("Cache-Control", "private")], b"ok\n"))
        else:
            conn.sendall(response(404, [], b"not found\n"))
        try:
            conn.shutdown(socket.SHUT_WR)
            time.sleep(0.2)
        except OSError:
            pass
    except (OSError, ValueError, ssl.SSLError):
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def serve_http(portfile, cert=None, key=None):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)
    ctx = None
    if cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(cert, key)
    write_port(portfile, srv.getsockname()[1])
    deadline = time.monotonic() + LIFETIME
    held = []
    while time.monotonic() < deadline:
        srv.settimeout(1.0)
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            continue
        if ctx:
            try:
                conn.settimeout(5.0)
                conn = ctx.wrap_socket(conn, server_side=True)
            except (OSError, ssl.SSLError) as e:
                log("tls handshake failed: %s" % e)
                conn.close()
                continue
        threading.Thread(target=handle, args=(conn, held), daemon=True).start()


# ---- DNS ----

def qname(msg):
    labels, off = [], 12
    while off < len(msg) and msg[off]:
        n = msg[off]
        labels.append(msg[off + 1:off + 1 + n].decode("latin-1"))
        off += 1 + n
    qtype = struct.unpack(">H", msg[off + 1:off + 3])[0] \
        if off + 3 <= len(msg) else 0
    return ".".join(labels).lower(), qtype, off + 5


def dns_answer(msg, tcp):
    """The reply to msg, or None for no reply."""
    if len(msg) < 17:
        return None
    name, qtype, qend = qname(msg)
    question = msg[12:qend]
    rd = msg[2] & 0x01

    def reply(rcode, answers=b"", count=0, tc=0):
        flags = 0x8000 | 0x0400 | (tc << 9) | (rd << 8) | 0x0080 | rcode
        return (msg[:2] + struct.pack(">HHHHH", flags, 1, count, 0, 0)
                + question + answers)

    a_rr = (b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 4)
            + socket.inet_aton("127.0.0.1"))
    if name == "nx.test":
        return reply(3)
    if name == "servfail.test":
        return reply(2)
    if name in ("trunc.test", "trunctcp.test") and not tcp:
        return reply(0, tc=1)
    if name == "trunctcp.test" and tcp:
        return b""  # close without an answer
    if name == "badrr.test":
        if qtype != 1:
            return reply(0)
        return reply(0, b"\xc0\x0c" + struct.pack(">HHIH", 1, 1, 60, 200)
                     + b"\x7f\x00", 1)
    if name == "ctlcname.test":
        # ctlcname.test -> "a<ESC>[8m<U+202E>b.test" (a label may hold any
        # byte), A 127.0.0.1: a CNAME that would drive the terminal.
        def raw_name(labels):
            return b"".join(bytes([len(x)]) + x for x in labels) + b"\x00"
        target = raw_name([b"a\x1b[8m\xe2\x80\xaeb", b"test"])
        rr = (b"\xc0\x0c" + struct.pack(">HHIH", 5, 1, 60, len(target))
              + target)
        if qtype == 1:
            return reply(0, rr + target + struct.pack(">HHIH", 1, 1, 60, 4)
                         + socket.inet_aton("127.0.0.1"), 2)
        return reply(0, rr, 1)
    if name == "cname.test":
        # cname.test -> alias1.test -> ok2.test (A 127.0.0.1), the chain in
        # the A and the AAAA answer alike.
        def dname(n):
            return b"".join(bytes([len(x)]) + x.encode()
                            for x in n.split(".")) + b"\x00"
        a1, ok2 = dname("alias1.test"), dname("ok2.test")
        chain = (b"\xc0\x0c" + struct.pack(">HHIH", 5, 1, 60, len(a1)) + a1
                 + dname("alias1.test")
                 + struct.pack(">HHIH", 5, 1, 60, len(ok2)) + ok2)
        if qtype == 1:
            return reply(0, chain + dname("ok2.test")
                         + struct.pack(">HHIH", 1, 1, 60, 4)
                         + socket.inet_aton("127.0.0.1"), 3)
        if qtype == 28:
            return reply(0, chain + dname("ok2.test")
                         + struct.pack(">HHIH", 28, 1, 60, 16)
                         + socket.inet_pton(socket.AF_INET6, "::1"), 3)
        return reply(0, chain, 2)
    if name in ("ok.test", "trunc.test", "slow.test"):
        if name == "slow.test":
            time.sleep(8)
        if qtype == 1:
            return reply(0, a_rr, 1)
        return reply(0)
    return reply(3)


def serve_dns_tcp(srv):
    while True:
        try:
            conn, _ = srv.accept()
        except OSError:
            return

        def one(c):
            try:
                c.settimeout(5.0)
                hdr = c.recv(2)
                if len(hdr) < 2:
                    return
                n = struct.unpack(">H", hdr)[0]
                msg = b""
                while len(msg) < n:
                    chunk = c.recv(n - len(msg))
                    if not chunk:
                        return
                    msg += chunk
                log("dns tcp %s" % qname(msg)[0])
                out = dns_answer(msg, True)
                if out:
                    c.sendall(struct.pack(">H", len(out)) + out)
                    time.sleep(0.2)
            except OSError:
                pass
            finally:
                c.close()
        threading.Thread(target=one, args=(conn,), daemon=True).start()


def serve_dns(portfile):
    for _ in range(20):
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.bind(("127.0.0.1", 0))
        port = udp.getsockname()[1]
        tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tcp.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            tcp.bind(("127.0.0.1", port))
        except OSError:
            udp.close()
            tcp.close()
            continue
        break
    else:
        return 1
    tcp.listen(16)
    threading.Thread(target=serve_dns_tcp, args=(tcp,), daemon=True).start()
    write_port(portfile, port)
    deadline = time.monotonic() + LIFETIME
    while time.monotonic() < deadline:
        udp.settimeout(1.0)
        try:
            msg, peer = udp.recvfrom(4096)
        except socket.timeout:
            continue
        log("dns udp %s" % qname(msg)[0] if len(msg) > 12 else "dns short")

        def one(m, p):
            out = dns_answer(m, False)
            if out:
                udp.sendto(out, p)
        threading.Thread(target=one, args=(msg, peer), daemon=True).start()
    return 0


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "dns":
        return serve_dns(args[1])
    if args[:1] == ["http"] and len(args) in (2, 4):
        serve_http(args[1], *(args[2:] or [None, None]))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
