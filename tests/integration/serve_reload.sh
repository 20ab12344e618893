#!/bin/sh
# serve_reload: SIGHUP makes hopsplit serve read its --config again, as
# blackbox_exporter does.  The ground truth is what nginx received: the
# X-Test header each module sends (its x=[...] in the access log).  A
# module changed in the file sends its new header after the reload, a
# module added is probed, a probe under way at the reload finishes with
# the module it began with, and a file that no longer reads keeps the
# modules in use (the server stays up and says why).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init serve_reload
hs_require nginx openssl python3 curl ss
hs_make_ca "$HS_DIR/pki"
mkdir -p "$HS_DIR/nginx/locations.d" "$HS_DIR/nginx/www" ||
  hs_fail "cannot create the nginx directories"
# A page sent at 1 KB/s: 3 KB take at least 2 s after the first second.
head -c 3072 /dev/zero | tr '\0' x >"$HS_DIR/nginx/www/slow.txt" ||
  hs_fail "cannot write slow.txt"
printf 'location = /slow.txt { default_type text/plain; root %s; limit_rate 1k; }\n' \
  "$HS_DIR/nginx/www" >"$HS_DIR/nginx/locations.d/slow.conf"
hs_start_nginx "$HS_DIR/nginx"

CONF=$HS_DIR/blackbox.yml
cat >"$CONF" <<'EOF2'
modules:
  http_2xx:
    prober: http
    http:
      headers:
        X-Test: first
EOF2
hs_start_serve "$HS_DIR/serve" --cacert "$CA_FILE" --config "$CONF"
T="http://127.0.0.1:$HTTP_PORT"

# probe MODULE PATH: one /probe of $T/PATH; its answer in $HS_DIR/answer.
probe() {
  curl -q -s -S -m 30 -o "$HS_DIR/answer" \
    "http://127.0.0.1:$SERVE_PORT/probe?module=$1&target=$T/$2" ||
    hs_fail "/probe?module=$1 of /$2: curl failed"
}
# wait_err ERE: serve's standard error gets a line matching ERE.
wait_err() {
  i=0
  until grep -Eq -e "$1" "$SERVE_ERR"; do
    [ "$i" -lt $((50 * HS_TF)) ] || {
      cat "$SERVE_ERR" >&2
      hs_fail "serve's standard error never said '$1'"
    }
    sleep 0.1
    i=$((i + 1))
  done
}

probe http_2xx ok
hs_logged 1 ' /ok .* x=\[first\]'
probe added ok
hs_logged 0 ' /ok .* x=\[added\]'
grep -q '^probe_success 0' "$HS_DIR/answer" ||
  hs_fail "an unknown module was probed: $(cat "$HS_DIR/answer")"

# A probe of the slow page under way while the file changes.
curl -q -s -S -m 30 -o "$HS_DIR/slow.answer" \
  "http://127.0.0.1:$SERVE_PORT/probe?target=$T/slow.txt" &
slow=$!
i=0
until ss -Htn state established "( dport = :$HTTP_PORT )" | grep -q .; do
  [ "$i" -lt $((50 * HS_TF)) ] || hs_fail "the slow probe never connected"
  sleep 0.1
  i=$((i + 1))
done
cat >"$CONF" <<'EOF2'
modules:
  http_2xx:
    prober: http
    http:
      headers:
        X-Test: second
  added:
    prober: http
    http:
      headers:
        X-Test: added
EOF2
kill -HUP "$SERVE_PID" || hs_fail "cannot send SIGHUP to serve"
wait_err 'serve: SIGHUP: reloaded .*blackbox\.yml, modules: http_2xx \(default\) added$'
probe http_2xx ok
hs_logged 1 ' /ok .* x=\[second\]'
probe added ok
hs_logged 1 ' /ok .* x=\[added\]'
grep -q '^probe_success 1' "$HS_DIR/answer" ||
  hs_fail "the added module failed: $(cat "$HS_DIR/answer")"
wait "$slow" || hs_fail "the probe under way at the reload got no answer"
hs_logged 1 ' /slow\.txt .* x=\[first\]'
grep -q '^probe_success 1' "$HS_DIR/slow.answer" ||
  hs_fail "the probe under way at the reload failed: $(cat "$HS_DIR/slow.answer")"

# A file that no longer reads: the modules read before stay.
printf 'modules:\n  http_2xx:\n    prober: http\n    http:\n      headers: [x]\n' >"$CONF"
kill -HUP "$SERVE_PID" || hs_fail "cannot send SIGHUP to serve"
wait_err "cannot reload '.*blackbox\.yml'; the 2 modules read before stay in use"
grep -q "'headers' takes a mapping" "$SERVE_ERR" ||
  hs_fail "the reload's error does not say what was wrong: $(cat "$SERVE_ERR")"
hs_is_running "$SERVE_PID" || hs_fail "serve stopped on a bad reload"
probe http_2xx ok
hs_logged 2 ' /ok .* x=\[second\]'
probe added ok
hs_logged 2 ' /ok .* x=\[added\]'
hs_pass
