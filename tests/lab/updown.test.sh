#!/bin/sh
# lab/updown: the lab comes up and goes down cleanly.  Up: two namespaces,
# only 198.18.0.0/15 addresses, no route but the point-to-point one, the
# link forwards with at least the configured delay.  Down: the processes
# the lab started are gone, the namespaces and /etc/netns entries deleted,
# and the link reported its counters on SIGTERM.
. "${HOPSPLIT_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HOPSPLIT_SRC/tests/lab/lab.sh"
lab_init lab-updown
lab_up 5

# Addresses and routes: nothing outside 198.18.0.0/15 but loopback.
for ns in "$LAB_C" "$LAB_S"; do
  addrs=$(ip -n "$ns" -4 -o addr show | awk '{print $4}' | sort | tr '\n' ' ')
  routes=$(ip -n "$ns" -4 route show | tr '\n' ';')
  case $addrs in
    "127.0.0.1/8 198.18.0."[12]" ") ;;
    *) hs_fail "$ns: unexpected addresses: $addrs" ;;
  esac
  case $routes in
    "198.18.0."[12]" dev hs"*" scope link src 198.18.0."[12]" ;") ;;
    *) hs_fail "$ns: unexpected routes: $routes" ;;
  esac
  if ip -n "$ns" -6 -o addr show | grep -v ' lo ' | grep -q inet6; then
    hs_fail "$ns: IPv6 addresses on the link"
  fi
done
lab_c ip route get 1.1.1.1 >/dev/null 2>&1 &&
  hs_fail "client namespace has a route off the lab"

# One TCP connect through the link: one RTT, at least 10 ms.
ms=$(lab_c "$HS_PYTHON" -c 'import socket, time
s = socket.socket()
t = time.monotonic()
s.connect(("198.18.0.2", 80))
print(int((time.monotonic() - t) * 1000))')
if [ "$ms" -lt 10 ] || [ "$ms" -ge 200 ]; then
  hs_fail "TCP connect took $ms ms through a 5 ms link"
fi

pids=$LAB_PIDS
link=$LAB_DIR/link.log
c=$LAB_C
s=$LAB_S
lab_down
for p in $pids; do
  hs_is_running "$p" && hs_fail "process $p of the lab still runs"
done
ip netns list | grep -q "^$c\( \|$\)" && hs_fail "namespace $c remains"
ip netns list | grep -q "^$s\( \|$\)" && hs_fail "namespace $s remains"
[ ! -e "/etc/netns/$c" ] || hs_fail "/etc/netns/$c remains"
grep -q 'a->b forwarded [1-9]' "$link" || {
  cat "$link" >&2
  hs_fail "the link did not report its counters"
}
hs_pass
