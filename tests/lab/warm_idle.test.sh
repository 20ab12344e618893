#!/bin/sh
# lab/warm_idle: warm samples record how long their connection sat idle
# (issue 14), and that idle time changes warm numbers: TCP restarts slow
# start on a connection idle for longer than its retransmission timeout
# (net.ipv4.tcp_slow_start_after_idle).  On a 50 ms link (RTT 100 ms),
# warm GETs of /big (64 KiB, 45 segments) over HTTP/1.1:
#
# - back to back (--pause 0): idle_us is below 100 ms, and the body comes
#   in one flight: transfer p50 below RTT / 2;
# - --pause 1500ms: idle_us of every sample after the first is at least
#   the pause (ground truth: the pause), and the server's congestion
#   window restarts: transfer p50 at least one more round trip (RTT / 2
#   as the structural bound, 100 ms expected);
# - the same pause with the server's tcp_slow_start_after_idle off: back
#   to one flight, which shows the pause acts through the sender's TCP.
#
# The server's route is set to CUBIC (ip route ... congctl): BBR, the
# default of some kernels, paces after idle instead of restarting.
. "${HOPSPLIT_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HOPSPLIT_SRC/tests/lab/lab.sh"
lab_init lab-warm_idle
lab_up 50

RTT=100000
lab_dev=$(ip -n "$LAB_S" -o link | awk -F': ' '/ hs/ {print $2}' | cut -d@ -f1)
ip -n "$LAB_S" route replace "$LAB_CLIENT_IP" dev "$lab_dev" \
  src "$LAB_SERVER_IP" congctl cubic ||
  lab_skip "cannot set the congestion control of the server's route"
# (through /proc, as lab.sh does: no procps needed)
ssai=/proc/sys/net/ipv4/tcp_slow_start_after_idle
lab_s sh -c "echo 1 >$ssai" ||
  lab_skip "cannot set net.ipv4.tcp_slow_start_after_idle in $LAB_S"

warm() {
  lab_run 0 -n 6 --mode warm --http1.1 --format json --dns-server "$LAB_DNS" \
    --cacert "$CA_FILE" "$@" "${LAB_URL}big"
}

warm
hs_jcheck --shape --closure --all-ok --samples 6 \
  "col(H('warm', 0), 'reused') == [True] * 6" \
  "all(0 <= s['idle_us'] < 100000 for s in S('warm'))" \
  "sorted(col(H('warm', 0), 'phases_us.transfer'))[2] < $RTT // 2"

warm --pause 1500ms
hs_jcheck --all-ok --samples 6 \
  "col(H('warm', 0), 'reused') == [True] * 6" \
  "all(s['idle_us'] >= 1500000 for s in S('warm')[1:])" \
  "sorted(col(H('warm', 0), 'phases_us.transfer')[1:])[2] >= $RTT // 2"

lab_s sh -c "echo 0 >$ssai" ||
  hs_fail "cannot turn tcp_slow_start_after_idle off"
warm --pause 1500ms
hs_jcheck --all-ok --samples 6 \
  "all(s['idle_us'] >= 1500000 for s in S('warm')[1:])" \
  "sorted(col(H('warm', 0), 'phases_us.transfer')[1:])[2] < $RTT // 2"
hs_pass
