#!/bin/sh
# serve_edges: hopsplit serve's bad inputs, limits and shutdown, with curl
# as the client.  Usage errors exit 2, a taken port 4; a missing target is a
# 400 and a bad scrape timeout header a 400 (as blackbox_exporter); other
# methods 405, other paths 404; a bad target or an unknown module is
# probe_success 0 with the reason under debug=true.  --max-concurrent 1:
# a second probe waits for the first, or gets a 503 when its deadline
# comes first.  SIGTERM: no new connection, the probe under way is
# answered, exit 0.  Profile modules carry the target's settings (nginx's
# log is the ground truth for the header sent).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init serve_edges
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_tcp blackhole "$HS_DIR/tcp"
OK="https://127.0.0.1:$HTTPS_PORT/ok"
HOLE="http://127.0.0.1:$TCP_PORT/"

# Usage errors: nothing listens.
hs_run 2 serve "$OK"
hs_grep_err "serve takes no URL"
hs_run 2 serve --listen nonsense
hs_grep_err "option --listen: 'nonsense' is not ADDR:PORT"
hs_run 2 serve --listen 127.0.0.1:70000
hs_grep_err "is not ADDR:PORT"
hs_run 2 serve --max-concurrent 0
hs_grep_err "option --max-concurrent: '0' is not a number from 1 to 100000"
hs_run 2 serve --max-concurrent
hs_grep_err "option --max-concurrent needs a value"
hs_run 2 serve --timeout-offset -1
hs_grep_err "option --timeout-offset"
hs_run 2 serve -o "$HS_DIR/x.json"
hs_grep_err "serve writes no files"
hs_run 2 serve --config "$HS_DIR/missing.yaml"
hs_grep_err "missing.yaml"
hs_run 2 serve --bogus
hs_grep_err "bogus"
hs_run 0 serve --help
grep -q '/probe?target=URL' "$HS_OUT" || hs_fail "serve --help lacks /probe"

# Profile modules: each target's settings, and the profile's defaults.
cat >"$HS_DIR/mods.yaml" <<EOF
name: mods
rounds: 2
modes: [cold, warm]
defaults:
  cacert: $CA_FILE
  headers:
    Accept: text/plain
targets:
  - name: img
    url: https://example.invalid/img
    headers:
      X-Test: from-img
  - name: plain
    url: https://example.invalid/plain
EOF
hs_start_serve "$HS_DIR/serve" --config "$HS_DIR/mods.yaml" \
  --max-concurrent 1 --vantage edgetest
S="http://127.0.0.1:$SERVE_PORT"
get() { # get OUT URL [curl args]: the status code on stdout
  hs_o=$1
  hs_u=$2
  shift 2
  curl -q -sS --noproxy '*' --max-time 20 -o "$hs_o" -w '%{http_code}' \
    "$@" "$hs_u"
}
want() { # want CODE OUT URL [curl args]
  hs_w=$1
  shift
  hs_c=$(get "$@") || hs_fail "curl failed for $2"
  [ "$hs_c" = "$hs_w" ] || {
    cat "$1" >&2
    hs_fail "HTTP $hs_c, expected $hs_w, for $2"
  }
}
has() { # has FILE FIXED-STRING...
  hs_f=$1
  shift
  for hs_s in "$@"; do
    grep -qF -e "$hs_s" "$hs_f" || {
      cat "$hs_f" >&2
      hs_fail "'$hs_s' missing from $hs_f"
    }
  done
}

want 200 "$HS_DIR/img.prom" "$S/probe?target=$OK&module=img"
has "$HS_DIR/img.prom" 'probe_success 1' 'hopsplit_samples{mode="cold"} 2' \
  'hopsplit_samples{mode="warm"} 2' \
  'hopsplit_probe_info{module="img",vantage="edgetest"'
# Two cold samples, a warm priming request and two warm samples.
hs_logged 5 "^$HTTPS_PORT GET /ok .*x=\[from-img\]"
want 200 "$HS_DIR/def.prom" "$S/probe?target=$OK&module=http_2xx"
has "$HS_DIR/def.prom" 'probe_success 1' 'module="defaults"'
hs_logged 5 "^$HTTPS_PORT GET /ok .*ua=\[hopsplit/.*x=\[-\]"

# Bad requests.
want 400 "$HS_DIR/e1" "$S/probe"
has "$HS_DIR/e1" 'Target parameter is missing'
want 400 "$HS_DIR/e2" "$S/probe?target=$OK" \
  -H 'X-Prometheus-Scrape-Timeout-Seconds: soon'
has "$HS_DIR/e2" 'X-Prometheus-Scrape-Timeout-Seconds'
want 405 "$HS_DIR/e3" "$S/probe?target=$OK" -X POST -d x=1
want 404 "$HS_DIR/e4" "$S/nothing-here"
# A request libmicrohttpd cannot parse: 400, and its message on stderr is
# one of hopsplit's lines (prefixed, through msg: one write each).
"$HS_PYTHON" -c 'import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: zz\r\n\r\n")
sys.stdout.write(s.recv(100).decode("latin-1").split("\r\n")[0])' \
  "$SERVE_PORT" >"$HS_DIR/e5" || hs_fail "the malformed request failed"
has "$HS_DIR/e5" 'HTTP/1.1 400'
has "$SERVE_ERR" 'hopsplit: serve: libmicrohttpd: '
if grep -v '^hopsplit: ' "$SERVE_ERR" >&2; then
  hs_fail "serve wrote a line on stderr that is not one of hopsplit's"
fi
# Bad targets and modules: probe_success 0 and the reason under debug.
want 200 "$HS_DIR/b1" "$S/probe?target=ftp://127.0.0.1/x&debug=true"
has "$HS_DIR/b1" 'probe_success 0' "scheme 'ftp' is not supported"
want 200 "$HS_DIR/b2" "$S/probe?target=https://%5B::1&debug=true"
has "$HS_DIR/b2" 'probe_success 0' 'msg="Probe failed"'
want 200 "$HS_DIR/b3" "$S/probe?target=$OK&module=nope&debug=true"
has "$HS_DIR/b3" 'probe_success 0' 'unknown module \"nope\"' \
  'img: ' 'plain: ' 'defaults: '
want 200 "$HS_DIR/b4" "$S/probe?target=https://127.0.0.1:$WRONG_PORT/&debug=true"
has "$HS_DIR/b4" 'probe_success 0' 'class=tls'
long=$(head -c 20000 /dev/zero | tr '\0' a)
want 200 "$HS_DIR/b5" "$S/probe?target=https://127.0.0.1/$long&debug=true"
has "$HS_DIR/b5" 'probe_success 0'
want 200 "$HS_DIR/b6" "$S/probe?target=$OK&module=nope"
has "$HS_DIR/b6" 'probe_success 0' 'module="unknown"'
grep -q 'unknown module' "$HS_DIR/b6" &&
  hs_fail "the reason is given without debug=true"

# in_flight N: wait (at most 5 s) until /metrics says N probes measure.
in_flight() {
  hs_i=0
  while [ "$hs_i" -lt $((50 * HS_TF)) ]; do
    curl -q -sS --noproxy '*' --max-time 2 "$S/metrics" 2>/dev/null |
      grep -qx "hopsplit_serve_probes_in_flight $1" && return 0
    sleep 0.1
    hs_i=$((hs_i + 1))
  done
  hs_fail "never $1 probe(s) in flight"
}

# --max-concurrent 1: A holds the place for 3.5 s (a blackhole, budget
# 4 s - 0.5 s); B's budget (1 s - 0.5 s) runs out while it waits: 503; C
# waits for A and is measured.
get "$HS_DIR/a" "$S/probe?target=$HOLE&module=plain" \
  -H 'X-Prometheus-Scrape-Timeout-Seconds: 4' >"$HS_DIR/a.code" &
apid=$!
in_flight 1
want 503 "$HS_DIR/c1" "$S/probe?target=$OK&module=plain" \
  -H 'X-Prometheus-Scrape-Timeout-Seconds: 1'
has "$HS_DIR/c1" 'too many probes under way (--max-concurrent 1)'
want 200 "$HS_DIR/c2" "$S/probe?target=$OK&module=plain" \
  -H 'X-Prometheus-Scrape-Timeout-Seconds: 10'
has "$HS_DIR/c2" 'probe_success 1'
wait "$apid"
[ "$(cat "$HS_DIR/a.code")" = 200 ] || hs_fail "probe A: HTTP $(cat "$HS_DIR/a.code")"
has "$HS_DIR/a" 'probe_success 0' 'class="timeout"} 2'
want 200 "$HS_DIR/m" "$S/metrics"
has "$HS_DIR/m" 'hopsplit_serve_probes_rejected_total 1' \
  'hopsplit_serve_max_concurrent 1' 'hopsplit_serve_bad_requests_total 4' \
  'hopsplit_serve_unknown_module_total 2'
want 200 "$HS_DIR/index.html" "$S/"
has "$HS_DIR/index.html" 'href="metrics"' 'action="probe"' \
  '<b>img</b>' 'edgetest'

# A second server cannot take the same port: setup error.
hs_run 4 serve --listen "127.0.0.1:$SERVE_PORT"
hs_grep_err "cannot listen on '127.0.0.1:$SERVE_PORT'"

# SIGTERM drains: the probe under way (a blackhole, budget 3 s) is
# answered, no new connection is taken, the server exits 0.
get "$HS_DIR/d" "$S/probe?target=$HOLE&module=plain" \
  -H 'X-Prometheus-Scrape-Timeout-Seconds: 3.5' >"$HS_DIR/d.code" &
dpid=$!
in_flight 1
kill -TERM "$SERVE_PID"
# Within a bounded time no new connection is taken, while D still waits
# for its answer.
i=0
while curl -q -sS --noproxy '*' --max-time 1 -o /dev/null "$S/metrics" \
  2>/dev/null; do
  i=$((i + 1))
  [ "$i" -lt $((30 * HS_TF)) ] ||
    hs_fail "new connections are still accepted after SIGTERM"
  sleep 0.1
done
hs_is_running "$dpid" || hs_fail "the drained probe ended before the check"
wait "$dpid"
[ "$(cat "$HS_DIR/d.code")" = 200 ] || hs_fail "drained probe: HTTP $(cat "$HS_DIR/d.code")"
has "$HS_DIR/d" 'probe_success 0' 'probe_duration_seconds 3.'
i=0
while hs_is_running "$SERVE_PID" && [ "$i" -lt $((50 * HS_TF)) ]; do
  sleep 0.1
  i=$((i + 1))
done
hs_is_running "$SERVE_PID" && hs_fail "serve still runs after the drain"
wait "$SERVE_PID"
rc=$?
[ "$rc" = 0 ] || hs_fail "serve exited $rc after SIGTERM, expected 0"
has "$SERVE_ERR" 'SIGTERM: draining 1 probe under way' 'stopped after'
hs_pass
