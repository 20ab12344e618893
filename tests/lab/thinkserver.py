#!/usr/bin/env python3
"""thinkserver.py: an HTTP/1.1 server that thinks a known time.

usage: thinkserver.py ADDR PORT LOG

Serves keep-alive HTTP/1.1 on ADDR:PORT until killed.  A request's body
(Content-Length) is read whole first.  Then the server sleeps the think
time its query asks (think=MS, default 0) and answers 200 with bytes=N
bytes of body (default 3) and "Server-Timing: think;dur=MS".  LOG gets one
line per request:

  METHOD PATH body BYTES think_us US

where US is the server's own clock from the moment its request line was
read to the first bytes of the answer handed to the kernel: the ground
truth of the server's time for the transport tests.
"""
import http.server
import socket
import sys
import time
from urllib.parse import parse_qs, urlsplit

LOG = None
CHUNK = b"x" * 65536


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def parse_request(self):
        self.t_line = time.monotonic()
        return super().parse_request()

    def answer(self):
        q = parse_qs(urlsplit(self.path).query)
        think = float(q.get("think", ["0"])[0]) / 1000.0
        size = int(q.get("bytes", ["3"])[0])
        n = int(self.headers.get("Content-Length", "0") or 0)
        got = 0
        while got < n:
            b = self.rfile.read(min(65536, n - got))
            if not b:
                break
            got += len(b)
        t0 = self.t_line
        if think > 0:
            time.sleep(think)
        head = ("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream"
                "\r\nServer-Timing: think;dur=%g\r\nContent-Length: %d"
                "\r\n\r\n" % (think * 1000.0, size)).encode()
        first = head + CHUNK[:max(0, min(size, 1024))]
        self.wfile.write(first)
        t1 = time.monotonic()
        left = size - (len(first) - len(head))
        while left > 0:
            b = CHUNK[:min(left, len(CHUNK))]
            self.wfile.write(b)
            left -= len(b)
        self.wfile.flush()
        LOG.write("%s %s body %d think_us %d\n" %
                  (self.command, urlsplit(self.path).path, got,
                   int((t1 - t0) * 1e6)))
        LOG.flush()

    do_GET = answer
    do_POST = answer
    do_PUT = answer


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def server_bind(self):
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().server_bind()


def main():
    global LOG
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    LOG = open(sys.argv[3], "a")
    Server((sys.argv[1], int(sys.argv[2])), Handler).serve_forever()


if __name__ == "__main__":
    main()
