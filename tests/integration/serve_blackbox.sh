#!/bin/sh
# serve_blackbox: hopsplit serve answers /probe with blackbox_exporter's
# series as the real prometheus-blackbox-exporter (Debian's) answers the
# same probe of the same nginx targets: TLS expiry of the earliest
# certificate and of the verified chain (also against openssl's reading of
# the certificates nginx serves), TLS version, content length, HTTP
# version, SSL, redirects, status, body length; and promtool accepts the
# answer with the new series.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init serve_blackbox
hs_require nginx openssl python3 curl promtool prometheus-blackbox-exporter
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_blackbox "$HS_DIR/blackbox"
hs_start_serve "$HS_DIR/serve" --cacert "$CA_FILE" -4

OK="https://127.0.0.1:$HTTPS_PORT/ok"
CHAIN="https://127.0.0.1:$HTTPS_PORT/redirect-chain"
PLAIN="http://127.0.0.1:$HTTP_PORT/ok"
BIG="https://127.0.0.1:$HTTPS_PORT/big"
SAME="probe_success probe_http_status_code probe_http_redirects probe_http_ssl
probe_http_version probe_http_content_length
probe_http_uncompressed_body_length"
TLS="probe_ssl_earliest_cert_expiry probe_ssl_last_chain_expiry_timestamp_seconds
probe_tls_version_info"

probe() { # probe NAME PORT TARGET [MODULE]
  curl -q -sS --noproxy '*' --max-time 20 -o "$HS_DIR/$1.prom" \
    "http://127.0.0.1:$2/probe?target=$3&module=${4:-http_2xx}" ||
    hs_fail "cannot fetch /probe of $1"
}
n=0
for u in "$OK" "$CHAIN" "$PLAIN" "$BIG"; do
  n=$((n + 1))
  probe bb$n "$BLACKBOX_PORT" "$u"
  probe hs$n "$SERVE_PORT" "$u"
  names=$SAME
  case $u in https:*) names="$SAME $TLS" ;; esac
  # shellcheck disable=SC2086
  python3 "$HS_LIB_DIR/promdiff.py" "$HS_DIR/bb$n.prom" "$HS_DIR/hs$n.prom" \
    $names || hs_fail "/probe of $u differs from blackbox_exporter's"
  # shellcheck disable=SC2086
  python3 "$HS_LIB_DIR/promdiff.py" "$HS_DIR/hs$n.prom" "$HS_DIR/bb$n.prom" \
    $names || hs_fail "/probe of $u has a series blackbox_exporter has not"
  promtool check metrics <"$HS_DIR/hs$n.prom" >"$HS_DIR/hs$n.check" 2>&1 || {
    cat "$HS_DIR/hs$n.check" >&2
    hs_fail "promtool check metrics rejects /probe of $u"
  }
done
grep -q '^probe_ssl_' "$HS_DIR/hs3.prom" && hs_fail "TLS series for plain HTTP"

# Ground truth of the expiries: the certificates nginx serves, as openssl
# reads them (the earliest one sent: the server's; the verified chain's
# earliest: the server's or the CA's).
epoch() {
  date -d "$(openssl x509 -enddate -noout -in "$1" | cut -d= -f2)" +%s
}
srv=$(epoch "$HS_DIR/pki/server.crt")
ca=$(epoch "$HS_DIR/pki/ca.crt")
chain=$srv
[ "$ca" -lt "$chain" ] && chain=$ca
grep -qx "probe_ssl_earliest_cert_expiry $srv" "$HS_DIR/hs1.prom" ||
  hs_fail "earliest expiry is not the server certificate's $srv"
grep -qx "probe_ssl_last_chain_expiry_timestamp_seconds $chain" \
  "$HS_DIR/hs1.prom" || hs_fail "chain expiry is not $chain"

hs_pass
