#!/usr/bin/env python3
"""loadtarget.py: targets for many probes at once, on 127.0.0.1.

usage: loadtarget.py MODE PORTFILE [LIFETIME_S] [DELAY_S]

Binds 127.0.0.1:0, writes the port it got to PORTFILE (atomically), then
serves as MODE says until LIFETIME_S (default 300) passed:

  slow  an HTTP/1.1 server on one asyncio loop: each request is answered
        200 "ok" DELAY_S (default 3) seconds after its head was read;
        thousands of connections at once cost it a socket each, no
        thread.  It logs nothing per request; on SIGTERM or at the end
        it prints "answered N, at most M at once" (the requests it
        answered, and the most it held at the same time).
  dead  a listening socket whose accept queue is full and never emptied:
        listen(0), filled by connections of its own, so the kernel drops
        every further SYN and a client's connect never completes (it
        times out on the client's side).  Nothing is ever accepted.
"""
import asyncio
import os
import signal
import socket
import sys
import time


def write_port(path, port):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, path)


async def slow(portfile, lifetime, delay):
    answered = [0]
    held = [0, 0]  # now, most
    body = b"ok\n"
    head = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body))

    async def handle(reader, writer):
        try:
            while True:
                req = await reader.readuntil(b"\r\n\r\n")
                held[0] += 1
                held[1] = max(held[1], held[0])
                try:
                    await asyncio.sleep(delay)
                finally:
                    held[0] -= 1
                writer.write(head + body)
                await writer.drain()
                answered[0] += 1
                if b"connection: close" in req.lower():
                    break
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError,
                ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0,
                                        backlog=8192)
    write_port(portfile, server.sockets[0].getsockname()[1])
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    try:
        await asyncio.wait_for(stop.wait(), lifetime)
    except asyncio.TimeoutError:
        pass
    print("answered %d, at most %d at once" % (answered[0], held[1]),
          flush=True)
    server.close()


def dead(portfile, lifetime):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(0)
    port = srv.getsockname()[1]
    # Fill the accept queue: connect until a connect no longer completes.
    fillers = []
    for _ in range(16):
        c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        c.settimeout(0.3)
        try:
            c.connect(("127.0.0.1", port))
        except OSError:
            c.close()
            break
        fillers.append(c)
    else:
        sys.stderr.write("loadtarget.py: the accept queue never filled\n")
        return 1
    print("accept queue full after %d connections" % len(fillers),
          flush=True)
    write_port(portfile, port)
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    time.sleep(lifetime)
    return 0


def main(argv):
    if len(argv) < 2 or argv[0] not in ("slow", "dead"):
        sys.stderr.write(__doc__)
        return 2
    lifetime = float(argv[2]) if len(argv) > 2 else 300.0
    if argv[0] == "dead":
        return dead(argv[1], lifetime)
    delay = float(argv[3]) if len(argv) > 3 else 3.0
    asyncio.run(slow(argv[1], lifetime, delay))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
