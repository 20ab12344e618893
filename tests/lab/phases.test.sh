#!/bin/sh
# lab/phases: hopsplit on a link with a 20 ms one-way delay (RTT 40 ms),
# checked for structure, not for exact numbers.
#
# - Cold: dns, connect, tls and wait are each one round trip: every sample
#   at least 40 ms (a hard floor: each needs a packet there and an answer
#   back through the delaying link, and both ends use CLOCK_MONOTONIC), and
#   the median below 60 ms.  60 ms = 1.5 RTT is the structural bound: a
#   phase that wrongly held a second round trip (connect swallowing the TLS
#   handshake, A and AAAA asked one after the other, a request sent only
#   after another server answer) would be >= 80 ms in every sample, while
#   one round trip plus processing is 40 ms plus a few ms; the midpoint
#   leaves 20 ms for scheduling noise on a loaded CI machine.
# - Warm: no connect, no TLS, no DNS; wait is still one round trip.
# - send + wait, not wait alone, is bounded by the round trip: with libcurl
#   8.10 the split between them is libcurl's time_posttransfer, a stamp it
#   takes after writing the request, which a busy machine can delay (the
#   delay then moves from wait to send; both are still there).
# - /big (64 KiB): the transfer spans at least one more round trip (TCP's
#   initial window of 10 segments cannot carry 64 KiB), below 3.5 RTT.
. "${HOPSPLIT_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HOPSPLIT_SRC/tests/lab/lab.sh"
lab_init lab-phases
lab_up 20

RTT=40000
lab_run 0 -n 5 --mode cold,warm --format json --dns-server "$LAB_DNS" \
  --cacert "$CA_FILE" "${LAB_URL}ok"
hs_jcheck --shape --closure --all-ok --samples 10 --grid 5 cold,warm \
  "nhops('cold') == [1] * 5" \
  "col(H('cold', 0), 'remote_ip') == ['$LAB_SERVER_IP'] * 5" \
  "col(H('cold', 0), 'dns.server') == ['$LAB_DNS'] * 5" \
  "col(H('cold', 0), 'reused') == [False] * 5" \
  "col(H('cold', 0), 'tls.version') == ['TLSv1.3'] * 5" \
  "min(col(H('cold', 0), 'phases_us.dns')) >= $RTT" \
  "min(col(H('cold', 0), 'phases_us.connect')) >= $RTT" \
  "min(col(H('cold', 0), 'phases_us.tls')) >= $RTT" \
  "min(sw('cold', 0)) >= $RTT" \
  "sorted(col(H('cold', 0), 'phases_us.dns'))[2] < $RTT * 3 // 2" \
  "sorted(col(H('cold', 0), 'phases_us.connect'))[2] < $RTT * 3 // 2" \
  "sorted(col(H('cold', 0), 'phases_us.tls'))[2] < $RTT * 3 // 2" \
  "sorted(sw('cold', 0))[2] < $RTT * 3 // 2" \
  "sorted(col(H('cold', 0), 'phases_us.transfer'))[2] < $RTT // 2" \
  "col(H('warm', 0), 'reused') == [True] * 5" \
  "col(H('warm', 0), 'phases_us.dns') == [0] * 5" \
  "col(H('warm', 0), 'phases_us.connect') == [0] * 5" \
  "col(H('warm', 0), 'phases_us.tls') == [0] * 5" \
  "min(sw('warm', 0)) >= $RTT" \
  "sorted(sw('warm', 0))[2] < $RTT * 3 // 2" \
  "sorted(col(S('warm'), 'total_us'))[2] < $RTT * 3 // 2"

# 64 KiB: first byte after one round trip, then at least one more for the
# rest of the body.
lab_run 0 -n 3 --mode cold --format json --dns-server "$LAB_DNS" \
  --cacert "$CA_FILE" "${LAB_URL}big"
hs_jcheck --shape --closure --all-ok --samples 3 \
  "col(H('cold', 0), 'size_download') == [65536] * 3" \
  "min(sw('cold', 0)) >= $RTT" \
  "min(col(H('cold', 0), 'phases_us.transfer')) >= $RTT" \
  "sorted(col(H('cold', 0), 'phases_us.transfer'))[1] < $RTT * 7 // 2"

# A same-origin redirect: hop 2 reuses the connection (no connect, no TLS)
# and pays one round trip of wait.
lab_run 0 -n 3 --mode cold --format json --dns-server "$LAB_DNS" \
  --cacert "$CA_FILE" "${LAB_URL}redirect"
hs_jcheck --shape --closure --all-ok --samples 3 \
  "nhops('cold') == [2] * 3" \
  "col(H('cold', 1), 'reused') == [True] * 3" \
  "col(H('cold', 1), 'phases_us.connect') == [0] * 3" \
  "min(sw('cold', 1)) >= $RTT" \
  "min(col(S('cold'), 'redirect_us')) >= 4 * $RTT"

hs_pass
