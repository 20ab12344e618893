#!/bin/sh
# serve_trace: hopsplit serve sends no request of its own inside a probe.
# A Cloudflare-looking target (nginx answering cf-ray, and a trace at
# /cdn-cgi/trace) probed many times: nginx's access log shows the trace
# fetched once (the cache's interval is 600 s), after the probe's own
# request, and later probes say in debug=true that they used the cache.
# --trace never and a blackbox_exporter module (serve --config of
# blackbox's format) fetch none; --trace always fetches one of a host
# without cf-ray.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init serve_trace
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
mkdir -p "$HS_DIR/nginx/locations.d" || hs_fail "cannot create locations.d"
cat >"$HS_DIR/nginx/locations.d/cf.conf" <<EOC
location = /cf-ok {
  add_header cf-ray "8f1c2a3b4c5d6e7f-HKG" always;
  return 200 "behind cloudflare\\n";
}
EOC
hs_start_nginx "$HS_DIR/nginx"
CF="https://127.0.0.1:$HTTPS_PORT/cf-ok"
PLAIN="https://127.0.0.1:$HTTPS_PORT/ok"

probe() { # probe SERVE_PORT OUT URL [QUERY]: a 200 with probe_success 1
  hs_c=$(curl -q -sS --noproxy '*' --max-time 20 -o "$2" -w '%{http_code}' \
    "http://127.0.0.1:$1/probe?target=$3$4") || hs_fail "curl failed for $3"
  [ "$hs_c" = 200 ] || hs_fail "HTTP $hs_c for $3"
  grep -qx 'probe_success 1' "$2" || {
    cat "$2" >&2
    hs_fail "probe of $3 did not succeed"
  }
}
N=8

# The default module (--trace auto): one trace for eight probes.
hs_start_serve "$HS_DIR/s1" --cacert "$CA_FILE"
P1=$SERVE_PORT
i=0
while [ $i -lt $N ]; do
  probe "$P1" "$HS_DIR/p$i.prom" "$CF"
  i=$((i + 1))
done
hs_logged $N "^$HTTPS_PORT GET /cf-ok "
hs_logged 1 "^$HTTPS_PORT GET /cdn-cgi/trace "
# The trace came after the first probe's request (nginx's timing log, in
# order of the ends of the requests: the first /cf-ok before it).
first=$(grep -n ' /cf-ok$' "$HS_DIR/nginx/timing.log" | head -1 | cut -d: -f1)
tr=$(grep -n ' /cdn-cgi/trace$' "$HS_DIR/nginx/timing.log" | cut -d: -f1)
[ -n "$first" ] && [ -n "$tr" ] && [ "$first" -lt "$tr" ] || {
  cat "$HS_DIR/nginx/timing.log" >&2
  hs_fail "the trace was not fetched after the first probe's request"
}
probe "$P1" "$HS_DIR/dbg.prom" "$CF" "&debug=true"
grep -qF "Using the server's cached /cdn-cgi/trace" "$HS_DIR/dbg.prom" || {
  cat "$HS_DIR/dbg.prom" >&2
  hs_fail "debug=true does not say the cached trace was used"
}
hs_logged 1 "^$HTTPS_PORT GET /cdn-cgi/trace "
hs_nginx_log_clear

# --trace never: none.
hs_start_serve "$HS_DIR/s2" --cacert "$CA_FILE" --trace never
i=0
while [ $i -lt 3 ]; do
  probe "$SERVE_PORT" "$HS_DIR/n$i.prom" "$CF"
  i=$((i + 1))
done
hs_logged 3 "^$HTTPS_PORT GET /cf-ok "
hs_logged 0 "^$HTTPS_PORT GET /cdn-cgi/trace "

# A blackbox_exporter module: none, whatever the target answers.
cat >"$HS_DIR/bb.yml" <<EOB
modules:
  http_2xx:
    prober: http
    http:
      tls_config:
        ca_file: $CA_FILE
EOB
hs_start_serve "$HS_DIR/s3" --config "$HS_DIR/bb.yml"
i=0
while [ $i -lt 3 ]; do
  probe "$SERVE_PORT" "$HS_DIR/b$i.prom" "$CF" "&module=http_2xx"
  i=$((i + 1))
done
hs_logged 6 "^$HTTPS_PORT GET /cf-ok "
hs_logged 0 "^$HTTPS_PORT GET /cdn-cgi/trace "

# --trace always: one of a host that is not Cloudflare's, however often.
hs_start_serve "$HS_DIR/s4" --cacert "$CA_FILE" --trace always
i=0
while [ $i -lt 4 ]; do
  probe "$SERVE_PORT" "$HS_DIR/a$i.prom" "$PLAIN"
  i=$((i + 1))
done
hs_logged 4 "^$HTTPS_PORT GET /ok "
hs_logged 1 "^$HTTPS_PORT GET /cdn-cgi/trace "
hs_pass
