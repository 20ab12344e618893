#!/bin/sh
# client_cert: --cert/--key (-E) on the command line as curl's, against
# nginx with ssl_verify_client on.  Ground truth: nginx's log of the
# client verification ($ssl_client_verify, the client's DN) and curl's own
# answer with the same files.  Each option error names the option that was
# wrong: a missing --cert or --key file, and a connection that did not
# come within -m (not --connect-timeout) or within --connect-timeout.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
. "$HS_LIB_DIR/prom.sh"
hs_init client_cert
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
(
  cd "$HS_PKI" || exit 1
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout client.key -out client.csr -subj /CN=hs-client &&
    printf '%s\n' 'basicConstraints = critical, CA:FALSE' \
      'extendedKeyUsage = clientAuth' >client.ext &&
    openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key \
      -CAcreateserial -days 2 -sha256 -extfile client.ext -out client.crt
) >"$HS_DIR/client-cert.log" 2>&1 || {
  cat "$HS_DIR/client-cert.log" >&2
  hs_fail "cannot make the client certificate"
}
MTLS_PORT=$(hs_free_port) || hs_fail "no free port"
mkdir -p "$HS_DIR/nginx/servers.d" || hs_fail "cannot create servers.d"
cat >"$HS_DIR/nginx/servers.d/mtls.conf" <<EOC
log_format hsmtls '\$server_port \$status \$ssl_client_verify'
                  ' dn=[\$ssl_client_s_dn] ua=[\$http_user_agent]';
server {
  listen 127.0.0.1:$MTLS_PORT ssl;
  ssl_certificate $HS_PKI/server.crt;
  ssl_certificate_key $HS_PKI/server.key;
  ssl_client_certificate $HS_PKI/ca.crt;
  ssl_verify_client on;
  access_log $HS_DIR/mtls.log hsmtls;
  location = /ok { return 200 "mtls\\n"; }
}
EOC
hs_start_nginx "$HS_DIR/nginx"
U="https://origin.test:$MTLS_PORT/ok"
T="--resolve origin.test:$MTLS_PORT:127.0.0.1 --cacert $CA_FILE"
mtls_logged() { # mtls_logged N PATTERN
  hs_i=0
  while [ "$(grep -c -e "$2" "$HS_DIR/mtls.log" 2>/dev/null)" != "$1" ]; do
    hs_i=$((hs_i + 1))
    [ "$hs_i" -lt $((30 * HS_TF)) ] || {
      cat "$HS_DIR/mtls.log" >&2
      hs_fail "mtls.log: '$2' not $1 times"
    }
    sleep 0.1
  done
}

# curl with the files: nginx verified the client.
# shellcheck disable=SC2086
curl -q -sS --noproxy '*' $T --cert "$HS_PKI/client.crt" \
  --key "$HS_PKI/client.key" -o /dev/null -w '%{http_code}\n' "$U" \
  >"$HS_DIR/curl.code" || hs_fail "curl with the client certificate failed"
[ "$(cat "$HS_DIR/curl.code")" = 200 ] || hs_fail "curl: not 200"
mtls_logged 1 " 200 SUCCESS dn=\[CN=hs-client\] ua=\[curl/"

# hopsplit without them: nginx answers 400 (no certificate was sent).
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json $T "$U"
hs_jcheck "col(H('cold', 0), 'status') == [400]"
mtls_logged 1 " 400 NONE dn=\[-\] ua=\[hopsplit/"
# With them, as curl: 200 and the same DN, cold and warm.
# shellcheck disable=SC2086
hs_run 0 -n 2 --mode cold,warm --format json $T --cert "$HS_PKI/client.crt" \
  --key "$HS_PKI/client.key" "$U"
hs_jcheck --all-ok "col(H('cold', 0), 'status') == [200, 200]" \
  "col(H('warm', 0), 'status') == [200, 200]"
# Two cold samples, a warm priming request and two warm samples.
mtls_logged 5 " 200 SUCCESS dn=\[CN=hs-client\] ua=\[hopsplit/"
# -E is --cert's short name, as curl's; a profile key too.
# shellcheck disable=SC2086
hs_run 0 -n 1 --mode cold --format json $T -E "$HS_PKI/client.crt" \
  --key "$HS_PKI/client.key" "$U"
hs_jcheck --all-ok "col(H('cold', 0), 'status') == [200]"

# Errors blame the option that was wrong.
hs_run 2 --cert "$HS_DIR/none.crt" --dry-run "$U"
hs_grep_err "option --cert: cannot read '.*none.crt'"
hs_run 2 --cert "$HS_PKI/client.crt" --key "$HS_DIR/none.key" --dry-run "$U"
hs_grep_err "option --key: cannot read '.*none.key'"
hs_run 2 --key "$HS_DIR" --dry-run "$U"
hs_grep_err "option --key: '.*' is a directory$"

# A connect that never completes: -m 300ms is what ran out, then
# --connect-timeout 300ms.
hs_start_loadtarget dead "$HS_DIR/dead"
D="http://127.0.0.1:$LT_PORT/"
hs_run 3 -n 1 --mode cold -m 300ms "$D"
hs_grep_err "no connection to 127.0.0.1:$LT_PORT within 300 ms \(-m/--max-time\)"
hs_run 3 -n 1 --mode cold --connect-timeout 300ms -m 5s "$D"
hs_grep_err "no connection to 127.0.0.1:$LT_PORT within 300 ms \(--connect-timeout\)"
hs_pass
