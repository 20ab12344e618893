#!/bin/sh
# redirect_same: same-origin redirects, followed hop by hop by hopsplit.
# /redirect-same answers 302 with the relative Location /ok.  In cold mode
# hop 2 reuses hop 1's connection (no DNS, connect or TLS); redirect_us is
# hop 1's total.  /redirect-chain is 301 -> 302 -> 200 (3 hops).  The same
# over plain HTTP.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init redirect_same
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

B="https://origin.test:$HTTPS_PORT"
DNS="127.0.0.1:$DNS_PORT"
hs_run 0 -n 2 --mode cold,warm --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" "$B/redirect-same"
hs_jcheck --shape --closure --all-ok --samples 4 --grid 2 cold,warm \
  "nhops('cold') == [2, 2]" \
  "nhops('warm') == [2, 2]" \
  "col(H('cold', 0), 'url') == ['$B/redirect-same'] * 2" \
  "col(H('cold', 0), 'status') == [302] * 2" \
  "all(l in ('/ok', '$B/ok') for l in col(H('cold', 0), 'location'))" \
  "col(H('cold', 1), 'url') == ['$B/ok'] * 2" \
  "col(H('cold', 1), 'status') == [200] * 2" \
  "col(H('cold', 1), 'size_download') == [3] * 2" \
  "col(H('cold', 0), 'reused') == [False] * 2" \
  "min(col(H('cold', 0), 'phases_us.connect')) > 0" \
  "min(col(H('cold', 0), 'phases_us.tls')) > 0" \
  "col(H('cold', 1), 'reused') == [True] * 2" \
  "col(H('cold', 1), 'phases_us.connect') == [0] * 2" \
  "col(H('cold', 1), 'phases_us.tls') == [0] * 2" \
  "col(H('cold', 1), 'remote_port') == [$HTTPS_PORT] * 2" \
  "col(S('cold'), 'redirect_us') == col(H('cold', 0), 'phases_us.total')" \
  "min(col(S('cold'), 'redirect_us')) > 0" \
  "col(H('warm', 0), 'reused') == [True] * 2" \
  "col(H('warm', 1), 'reused') == [True] * 2" \
  "col(H('warm', 0), 'phases_us.connect') + col(H('warm', 1), 'phases_us.connect') == [0] * 4" \
  "col(S('warm'), 'redirect_us') == col(H('warm', 0), 'phases_us.total')" \
  "summary('cold', 'redirect', 'n') == 2" \
  "summary('cold', 'redirect', 'min_us') > 0" \
  "summary('cold', 'redirect', 'min_us') == min(col(S('cold'), 'redirect_us'))" \
  "len(targets[0]['summary']['cold']['hops']) == 2"

# 301 -> 302 -> 200, and --max-redirs 2 is just enough.
for opt in "" "--max-redirs 2"; do
  # shellcheck disable=SC2086
  hs_run 0 -n 1 --mode cold --format json --dns-server "$DNS" \
    --cacert "$CA_FILE" $opt "$B/redirect-chain"
  hs_jcheck --shape --closure --all-ok --samples 1 \
    "nhops() == [3]" \
    "[h['status'] for h in S('cold')[0]['hops']] == [301, 302, 200]" \
    "[h['url'] for h in S('cold')[0]['hops']] == ['$B/redirect-chain', '$B/redirect-same', '$B/ok']" \
    "[h['reused'] for h in S('cold')[0]['hops']] == [False, True, True]" \
    "S('cold')[0]['redirect_us'] == sum(h['phases_us']['total'] for h in S('cold')[0]['hops'][:2])"
done

# Plain HTTP: same accounting, no TLS facts.
P="http://127.0.0.1:$HTTP_PORT"
hs_run 0 -n 2 --mode cold --format json "$P/redirect-same"
hs_jcheck --shape --closure --all-ok --samples 2 \
  "nhops('cold') == [2, 2]" \
  "col(H('cold', 1), 'url') == ['$P/ok'] * 2" \
  "col(H('cold', 1), 'status') == [200] * 2" \
  "col(H('cold', 1), 'reused') == [True] * 2" \
  "col(H('cold', 0), 'http_version') == ['1.1'] * 2" \
  "col(H('cold', 0), 'phases_us.tls') == [0] * 2" \
  "col(H('cold', 0), 'tls') == [{'version': None, 'cipher': None, 'alpn': None, 'resumed': None, 'offered': None, 'not_offered': None}] * 2"

hs_pass
