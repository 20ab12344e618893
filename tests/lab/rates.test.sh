#!/bin/sh
# lab/rates: the link's rates per direction (issue 37).  A lab with 1 Mbit/s
# up (client to server) and 8 Mbit/s down; a client in the client
# namespace sends 64 KiB to a server in the server namespace, which answers
# with 64 KiB once it has read them all.  The way up takes at least the
# serialisation of 64 KiB at 1 Mbit/s (524 ms); the way down, timed from
# the answer's first byte to its last, at least that of 64 KiB less one
# initial window at 8 Mbit/s and far less than it would at 1 Mbit/s.
. "${HOPSPLIT_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HOPSPLIT_SRC/tests/lab/lab.sh"
lab_init lab-rates
lab_up_bare 5 8000000 1000000
grep -q 'a->b (up) 1000000 bit/s, b->a (down) 8000000 bit/s' \
  "$LAB_DIR/link.log" || {
  cat "$LAB_DIR/link.log" >&2
  hs_fail "the link does not say its rate per direction"
}

ip netns exec "$LAB_S" "$HS_PYTHON" -c 'import socket
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("198.18.0.2", 9000))
s.listen(1)
s.settimeout(20)
c, _ = s.accept()
c.settimeout(20)
got = 0
while got < 65536:
    b = c.recv(65536)
    if not b:
        break
    got += len(b)
c.sendall(b"x" * 65536)
c.close()' </dev/null >"$LAB_DIR/server.log" 2>&1 &
lab_track $!

out=$(lab_c timeout 30 "$HS_PYTHON" -c 'import socket, time
for i in range(100):
    try:
        s = socket.create_connection(("198.18.0.2", 9000), timeout=5)
        break
    except OSError:
        time.sleep(0.05)
s.settimeout(20)
t0 = time.monotonic()
s.sendall(b"u" * 65536)
first = s.recv(65536)
t1 = time.monotonic()
got = len(first)
while got < 65536:
    b = s.recv(65536)
    if not b:
        break
    got += len(b)
t2 = time.monotonic()
print(int((t1 - t0) * 1000), int((t2 - t1) * 1000), got)') ||
  hs_fail "the transfer through the link failed"
set -- $out
hs_log "up 64 KiB: $1 ms to the answer; down: $2 ms; $3 bytes"
[ "$3" = 65536 ] || hs_fail "received $3 bytes, not 65536"
[ "$1" -ge 524 ] || hs_fail "64 KiB went up in $1 ms: faster than 1 Mbit/s"
[ "$1" -lt 2000 ] || hs_fail "64 KiB went up in $1 ms: far slower than 1 Mbit/s"
# 64 KiB less one initial window (10 x 1448 bytes) at 8 Mbit/s: 51 ms.
[ "$2" -ge 51 ] || hs_fail "64 KiB came down in $2 ms: faster than 8 Mbit/s"
[ "$2" -lt 400 ] || hs_fail "64 KiB came down in $2 ms: the 1 Mbit/s of the way up"
hs_pass
