#!/bin/sh
# serve_h3: hopsplit serve probes over HTTP/3 when a module says so, in
# both module formats: a hopsplit profile target with http3-only: true, and
# a blackbox_exporter module with enable_http3: true (blackbox 0.28's key;
# its QUIC transport never falls back, so it is --http3-only).  Ground
# truth is caddy's JSON access log: the protocol of each probe's request.
#  - the h3 modules: probe_success 1, probe_http_version 3, and caddy
#    logged HTTP/3.0 for the probe;
#  - the plain module: probe_http_version 2, caddy logged HTTP/2.0;
#  - valid_http_versions [HTTP/3.0] without enable_http3: the probe went
#    over HTTP/2 and fails, as blackbox_exporter's would;
#  - enable_http3 that is not a boolean: an error at its file:line:col.
# Skipped when libcurl-gnutls with HTTP/3 is missing (hopsplit -V says).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init serve_h3
hs_h3_caddy "$HS_DIR/caddy"
U=$H3_URL
R=$H3_RESOLVE

cat >"$HS_DIR/profile.yaml" <<EOF2
name: serve-h3
targets:
  - name: quic
    url: "$U"
    http3-only: true
  - name: tcp
    url: "$U"
EOF2
cat >"$HS_DIR/blackbox.yml" <<EOF2
modules:
  h3:
    prober: http
    http:
      enable_http3: true
      valid_http_versions: ["HTTP/3.0"]
      tls_config: {ca_file: "$CA_FILE"}
  only3:
    prober: http
    http:
      valid_http_versions: ["HTTP/3.0"]
      tls_config: {ca_file: "$CA_FILE"}
EOF2

# probe NAME MODULE: /probe of U with MODULE on the serve of SERVE_PORT;
# its answer in NAME.prom, caddy's log lines of it in NAME.log.
probe() {
  : >"$CADDY_LOG"
  curl -q -sS --noproxy '*' --max-time 20 -o "$HS_DIR/$1.prom" \
    "http://127.0.0.1:$SERVE_PORT/probe?target=$U&module=$2" ||
    hs_fail "cannot fetch /probe of $1"
  i=0
  while [ ! -s "$CADDY_LOG" ] && [ "$i" -lt $((30 * HS_TF)) ]; do
    sleep 0.1
    i=$((i + 1))
  done
  "$HS_PYTHON" -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)["request"]
    print(r["proto"], r["method"], r["uri"])' "$CADDY_LOG" >"$HS_DIR/$1.log"
  hs_log "$1 (module $2): caddy logged: $(tr '\n' ';' <"$HS_DIR/$1.log");" \
    "serve: $(grep -E '^probe_(success|http_version) ' "$HS_DIR/$1.prom" | tr '\n' ' ')"
}
# expect NAME SUCCESS VERSION PROTO: the answer's probe_success and
# probe_http_version, and the protocol caddy logged.
expect() {
  grep -qx "probe_success $2" "$HS_DIR/$1.prom" ||
    hs_fail "$1: probe_success is not $2: $(grep '^probe_success' "$HS_DIR/$1.prom")"
  grep -qx "probe_http_version $3" "$HS_DIR/$1.prom" ||
    hs_fail "$1: probe_http_version is not $3: $(grep '^probe_http_version' "$HS_DIR/$1.prom")"
  [ "$(cut -d' ' -f1 "$HS_DIR/$1.log" | sort -u)" = "$4" ] ||
    hs_fail "$1: caddy logged $(cat "$HS_DIR/$1.log"), expected $4"
}

hs_start_serve "$HS_DIR/serve1" --config "$HS_DIR/profile.yaml" \
  --resolve "$R" --cacert "$CA_FILE"
probe profile-quic quic
expect profile-quic 1 3 HTTP/3.0
probe profile-tcp tcp
expect profile-tcp 1 2 HTTP/2.0
hs_stop "$SERVE_PID"

hs_start_serve "$HS_DIR/serve2" --config "$HS_DIR/blackbox.yml" \
  --resolve "$R"
probe bb-h3 h3
expect bb-h3 1 3 HTTP/3.0
probe bb-only3 only3
expect bb-only3 0 2 HTTP/2.0
hs_stop "$SERVE_PID"

sed 's/enable_http3: true/enable_http3: sometimes/' "$HS_DIR/blackbox.yml" \
  >"$HS_DIR/bad.yml"
hs_run 2 serve --config "$HS_DIR/bad.yml" --listen 127.0.0.1:0
hs_grep_err "bad\.yml:5:21: .*enable_http3"
hs_pass
