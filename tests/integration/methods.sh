#!/bin/sh
# methods: what each hop sends, seen in nginx's access log.  A method given
# with -X is sent on every hop, as curl sends it (body.sh has the switches
# to GET that a POST with a body makes); -H headers and the
# User-Agent (default hopsplit/VERSION, -A to change) go on every hop;
# HEAD has no body.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init methods
hs_require nginx openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"

B="https://origin.test:$HTTPS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"
P=$HTTPS_PORT

# logged ERE...: every ERE matches exactly one line of the access log.
logged() {
  for l_re in "$@"; do
    hs_logged 1 "^$P $l_re"
  done
}

for code in 303 307 308; do
  hs_nginx_log_clear
  hs_run 0 -n 1 --mode cold --format json -X POST --resolve "$R" \
    --cacert "$CA_FILE" "$B/redirect-$code"
  hs_jcheck --shape --closure --all-ok \
    "[h['status'] for h in samples[0]['hops']] == [$code, 200]"
  logged "POST /redirect-$code " "POST /ok "
done

hs_nginx_log_clear
hs_run 0 -n 1 --mode cold --format json --resolve "$R" --cacert "$CA_FILE" \
  -H "X-Test: each-hop" "$B/redirect-chain"
logged "GET /redirect-chain .* ua=\[hopsplit/[^]]+\] x=\[each-hop\]" \
  "GET /redirect-same .* ua=\[hopsplit/[^]]+\] x=\[each-hop\]" \
  "GET /ok .* ua=\[hopsplit/[^]]+\] x=\[each-hop\]"

hs_nginx_log_clear
hs_run 0 -n 1 --mode cold --format json --resolve "$R" --cacert "$CA_FILE" \
  -A "custom-agent/1.0" "$B/ok"
logged "GET /ok .* ua=\[custom-agent/1\.0\]"

hs_nginx_log_clear
hs_run 0 -n 1 --mode cold --format json --resolve "$R" --cacert "$CA_FILE" \
  -X HEAD "$B/big"
hs_jcheck --shape --closure --all-ok \
  "col(H('cold', 0), 'status') == [200]" \
  "col(H('cold', 0), 'size_download') == [0]"
logged "HEAD /big "

hs_pass
