#!/bin/sh
# servers_resumed: --mode resumed against real servers from Debian (Apache
# httpd with mod_ssl and mod_http2, h2o, lighttpd with mod_openssl and with
# mod_gnutls, nginx), over HTTP/1.1 and HTTP/2 (issue 17, items 1 and 2).
#
# Ground truth is never hopsplit's own output:
#  - openssl s_client -sess_out/-sess_in shows that each server resumes a
#    session that is offered, with either ALPN;
#  - the server's access log says per connection whether it resumed
#    (Apache, h2o, nginx) and which protocol it spoke;
#  - a loopback capture (root) shows per connection whether the
#    ClientHello offered a session and whether the ServerHello accepted it.
# Each measured hop is matched to its connection by its local port.
# Asserted: every resumed sample offers a usable session and resumes, and
# hopsplit's tls.offered / tls.resumed agree with the truth; cold samples
# offer nothing; no tls-resumption finding against servers that resume.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/servers.sh"
hs_init servers_resumed
hs_require openssl python3 curl timeout apache2 h2o lighttpd nginx
sv_make_cert
sv_start_apache "$HS_DIR/apache"
sv_start_h2o "$HS_DIR/h2o"
sv_start_lighttpd "$HS_DIR/lt-openssl" openssl
sv_start_lighttpd "$HS_DIR/lt-gnutls" gnutls
sv_start_nginx "$HS_DIR/nginx"

SERVERS="apache:$APACHE_PORT:$APACHE_LOG h2o:$H2O_PORT:$H2O_LOG"
SERVERS="$SERVERS lighttpd-openssl:$LT_OPENSSL_PORT:$LT_OPENSSL_LOG"
SERVERS="$SERVERS lighttpd-gnutls:$LT_GNUTLS_PORT:$LT_GNUTLS_LOG"
SERVERS="$SERVERS nginx:$NGINX_TLS_PORT:$NGINX_TLS_LOG"
N=4

# Failures are collected, so that one run shows every server's state.
PROBLEMS=
problem() {
  hs_log "PROBLEM: $*"
  PROBLEMS="$PROBLEMS
  $*"
}

# 1. The servers resume when a session is offered (s_client).
for s in $SERVERS; do
  name=${s%%:*}
  p=${s#*:}
  p=${p%%:*}
  for alpn in http/1.1 h2; do
    f=$HS_DIR/sess-$name-$(echo "$alpn" | tr / _)
    first=$(sv_sclient "$p" "$alpn" -sess_out "$f")
    second=$(sv_sclient "$p" "$alpn" -sess_in "$f")
    hs_log "s_client $name $alpn: $first then $second"
    { [ "$first" = New ] && [ "$second" = Reused ]; } ||
      problem "s_client against $name ($alpn): '$first' then '$second', expected New then Reused"
  done
done

PCAP=
if [ "$(id -u)" = 0 ] && command -v tcpdump >/dev/null 2>&1; then
  PCAP=1
elif [ -n "${HOPSPLIT_TEST_REQUIRE:-}" ]; then
  hs_fail "the capture needs root and tcpdump"
else
  hs_log "not root or no tcpdump: no capture, the logs are the only truth"
fi

# 2. hopsplit, cold and resumed, per server and HTTP version, each run with
# its own capture and its own piece of the server's log (ports of closed
# connections come back in later runs).  3. Each hop against its
# connection in that log and that capture (truth.py waits for lighttpd,
# which writes its access log once a second).  4. The numbers of the
# report, from the capture and the log: cold samples and priming
# connections are among them.
for s in $SERVERS; do
  name=${s%%:*}
  p=${s#*:}
  log=${p#*:}
  p=${p%%:*}
  kind=${name%%-*}
  for v in 1.1 2; do
    run=$HS_DIR/$name-$v
    : >"$log"
    [ -n "$PCAP" ] && sv_pcap_start "$run.pcap" "$(sv_tls_filter "$p")"
    hs_run 0 -n "$N" --mode cold,resumed "--http$v" --format json \
      --resolve "origin.test:$p:127.0.0.1" --cacert "$CA_FILE" \
      "https://origin.test:$p/ok"
    [ -n "$PCAP" ] && sv_pcap_stop
    cp "$HS_OUT" "$run.json"
    (hs_jcheck --shape --closure --all-ok --samples $((2 * N)) \
      "col(H('resumed', 0) + H('cold', 0), 'http_version') == ['$v'] * $((2 * N))" \
      "col(H('resumed', 0), 'reused') == [False] * $N" \
      "col(H('cold', 0), 'tls.resumed') == [False] * $N" \
      "col(H('cold', 0), 'tls.offered') == [False] * $N" \
      "col(H('resumed', 0), 'tls.offered') == [True] * $N" \
      "col(H('resumed', 0), 'tls.resumed') == [True] * $N" \
      "[f['title'] for f in targets[0]['findings'] if f['kind'] == 'tls-resumption'] == []") ||
      problem "$name HTTP/$v: hopsplit's resumed samples (see above)"
    if [ -n "$PCAP" ]; then
      "$HS_PYTHON" "$HS_LIB_DIR/tlsscan.py" --json "$run.pcap" \
        >"$run.rows.json" || hs_fail "cannot read the capture $run.pcap"
    fi
    for mode in resumed cold; do
      expect=
      [ "$mode" = resumed ] && expect="--expect-resumed --expect-offered"
      # shellcheck disable=SC2086
      "$HS_PYTHON" "$HS_LIB_DIR/truth.py" --json "$run.json" --log "$log" \
        --server "$kind" ${PCAP:+--pcap "$run.rows.json"} --mode "$mode" \
        $expect --table >"$run.truth-$mode.txt" ||
        problem "$name HTTP/$v $mode: hops disagree with the server (truth.py above)"
      sed "s/^/$name HTTP\/$v $mode: /" "$run.truth-$mode.txt" >&2
    done
    cp "$log" "$run.log"
    "$HS_PYTHON" - "$name" "$v" "$run.log" "${PCAP:+$run.rows.json}" "$N" <<'PY' >&2
import json, re, sys
name, v, log, rows, n = sys.argv[1:6]
msg = "summary %s HTTP/%s (%s cold + %s resumed samples):" % (name, v, n, n)
if rows:
    rs = json.load(open(rows))
    msg += " capture: %d connections, %d offered a session, %d resumed;" % (
        len(rs), sum(r["offered"] not in ("none", "?") for r in rs),
        sum(r["accepted"] == "yes" for r in rs))
conns = {}
for l in open(log, errors="replace").read().splitlines():
    f = l.split()
    if len(f) >= 5 and f[4] == "/ok":
        m = re.search(r"resumed=(\S+)", l)
        conns.setdefault(f[1], m.group(1) if m else "?")
vals = list(conns.values())
msg += " log: %d connections, resumed=%s" % (
    len(conns), " ".join("%s:%d" % (k, vals.count(k)) for k in sorted(set(vals))))
print("servers_resumed: " + msg)
PY
  done
done

# 5. A server that sends tickets and never takes them back: the sessions
# are offered (capture) and refused (nginx's log), and the finding says
# so, without blaming the client.
hs_run 0 -n 2 --mode resumed --format json \
  --resolve "origin.test:$NGINX_NORESUME_PORT:127.0.0.1" --cacert "$CA_FILE" \
  "https://origin.test:$NGINX_NORESUME_PORT/ok"
(hs_jcheck --shape --closure --all-ok \
  "col(H('resumed', 0), 'tls.offered') == [True] * 2" \
  "col(H('resumed', 0), 'tls.resumed') == [False] * 2" \
  "[f['kind'] for f in targets[0]['findings']].count('tls-resumption') == 1" \
  "'refused by the server' in [f for f in targets[0]['findings'] if f['kind'] == 'tls-resumption'][0]['detail']" \
  "'not the server' not in [f for f in targets[0]['findings'] if f['kind'] == 'tls-resumption'][0]['detail']") ||
  problem "a server that refuses sessions: not told as offered and refused"
(sv_wait_log "$NGINX_TLS_LOG" 0 "port=$NGINX_NORESUME_PORT resumed=r|resumed=r .*port=$NGINX_NORESUME_PORT") ||
  problem "nginx resumed on the port that should refuse"

# 6. A server that gives out no session (TLS 1.2, no ticket, no cache):
# nothing is offered (capture), the client says why, each sample was
# preceded by a priming request that got none, and the finding does not
# blame the server for refusing.
[ -n "$PCAP" ] && sv_pcap_start "$HS_DIR/nosession.pcap" \
  "$(sv_tls_filter "$NGINX_NOSESSION_PORT")"
hs_run 0 -n 2 --mode resumed --format json \
  --resolve "origin.test:$NGINX_NOSESSION_PORT:127.0.0.1" --cacert "$CA_FILE" \
  "https://origin.test:$NGINX_NOSESSION_PORT/ok"
[ -n "$PCAP" ] && sv_pcap_stop
(hs_jcheck --shape --closure --all-ok \
  "col(H('resumed', 0), 'tls.version') == ['TLSv1.2'] * 2" \
  "col(H('resumed', 0), 'tls.offered') == [False] * 2" \
  "col(H('resumed', 0), 'tls.resumed') == [False] * 2" \
  "all('received none' in w for w in col(H('resumed', 0), 'tls.not_offered'))" \
  "all(len(s['primed']) == 1 for s in S('resumed'))" \
  "'offered no session' in [f for f in targets[0]['findings'] if f['kind'] == 'tls-resumption'][0]['detail']" \
  "'refused by the server' not in [f for f in targets[0]['findings'] if f['kind'] == 'tls-resumption'][0]['detail']") ||
  problem "a server that gives out no session: not told as not offered"
if [ -n "$PCAP" ]; then
  n=$(sv_tlsscan "$HS_DIR/nosession.pcap" "$NGINX_NOSESSION_PORT" | grep -c 'offered=none')
  all=$(sv_tlsscan "$HS_DIR/nosession.pcap" "$NGINX_NOSESSION_PORT" | grep -c .)
  hs_log "no-session server: $n of $all connections offered nothing (capture)"
  [ "$n" = "$all" ] && [ "$all" -ge 4 ] ||
    problem "no-session server: the capture shows $n of $all connections without an offer"
fi

[ -z "$PROBLEMS" ] || hs_fail "$(echo "$PROBLEMS" | grep -c .) problem(s):$PROBLEMS"
hs_pass
