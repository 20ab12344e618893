#!/bin/sh
# servers_warm: warm samples after the server closed the idle connection
# (issue 17, item 5).  nginx closes idle connections after 1 s and the run
# pauses longer between rounds, so each warm sample after the first opens a
# new connection.  Ground truth: nginx's log (one connection number per
# request).  Asserted: the hop says it is a new connection, and its phases
# are measured from consistent points: connect and tls are not 0, and a
# hop whose libcurl stamps were out of order says so (timing_anomaly) and
# still has a connect phase (libcurl 7.88 sometimes stamps namelookup
# after connect on such a connection; the unit tests in test_probe cover
# every inversion with fabricated stamps).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/servers.sh"
hs_init servers_warm
hs_require openssl python3 curl timeout nginx
sv_make_cert
sv_start_nginx "$HS_DIR/nginx"
P=$NGINX_V4_PORT
N=4

for v in 1.1 2; do
  : >"$NGINX_TLS_LOG"
  hs_run 0 -n "$N" --mode warm --pause 1.3s "--http$v" --format json \
    --resolve "origin.test:$P:127.0.0.1" --cacert "$CA_FILE" \
    "https://origin.test:$P/ok"
  hs_jcheck --shape --closure --all-ok --samples "$N" \
    "col(H('warm', 0), 'reused') == [True] + [False] * $((N - 1))" \
    "min(col(H('warm', 0)[1:], 'phases_us.connect')) > 0" \
    "min(col(H('warm', 0)[1:], 'phases_us.tls')) > 0" \
    "all(h['timing_anomaly'] is None or h['phases_us']['connect'] > 0 for h in H('warm', 0))"
  # The priming request and the first sample share a connection (no pause
  # before round 1); every later sample has its own.
  sv_wait_log "$NGINX_TLS_LOG" $((N + 1)) "port=$P\$"
  n=$(sed -n "s/.* conn=\([0-9]*\) port=$P\$/\1/p" "$NGINX_TLS_LOG" | sort -u | wc -l)
  [ "$n" = "$N" ] ||
    hs_fail "HTTP/$v: nginx saw $n connections, expected $N"
done
hs_pass
