#!/bin/sh
# redirect_cross: a redirect to another origin (other.test, another port).
# Hop 2 resolves other.test through dnsmasq and opens a new connection in
# cold mode; warm mode primed both connections.  Authorization and Cookie
# are dropped on the cross-origin hop unless --location-trusted (SPEC 7),
# as seen in nginx's access log, and the secret never reaches the output.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init redirect_cross
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

B="https://origin.test:$HTTPS_PORT"
O="https://other.test:$OTHER_PORT"
DNS="127.0.0.1:$DNS_PORT"
hs_run 0 -n 2 --mode cold,warm --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" "$B/redirect-cross"
hs_jcheck --shape --closure --all-ok --samples 4 --grid 2 cold,warm \
  "nhops('cold') == [2, 2]" \
  "nhops('warm') == [2, 2]" \
  "col(H('cold', 0), 'status') == [302] * 2" \
  "col(H('cold', 0), 'location') == ['$O/ok'] * 2" \
  "col(H('cold', 1), 'url') == ['$O/ok'] * 2" \
  "col(H('cold', 1), 'status') == [200] * 2" \
  "col(H('cold', 1), 'size_download') == [len('other ok\\n')] * 2" \
  "col(H('cold', 1), 'remote_port') == [$OTHER_PORT] * 2" \
  "col(H('cold', 1), 'reused') == [False] * 2" \
  "min(col(H('cold', 1), 'phases_us.connect')) > 0" \
  "min(col(H('cold', 1), 'phases_us.tls')) > 0" \
  "min(col(H('cold', 1), 'dns.us')) > 0" \
  "col(H('cold', 1), 'dns.server') == ['$DNS'] * 2" \
  "col(H('cold', 1), 'dns.addresses') == [['127.0.0.1']] * 2" \
  "col(S('cold'), 'redirect_us') == col(H('cold', 0), 'phases_us.total')" \
  "col(H('warm', 0), 'reused') == [True] * 2" \
  "col(H('warm', 1), 'reused') == [True] * 2" \
  "col(H('warm', 1), 'phases_us.connect') == [0] * 2" \
  "col(H('warm', 1), 'phases_us.tls') == [0] * 2" \
  "col(H('warm', 1), 'remote_port') == [$OTHER_PORT] * 2"

# Credentials stay on the origin that was asked for.
hs_nginx_log_clear
hs_run 0 -n 1 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" -H "Authorization: Bearer sekrit-token" \
  -H "Cookie: session=sekrit-cookie" -H "X-Test: kept" "$B/redirect-cross"
hs_jcheck --closure --all-ok "nhops() == [2]"
# Hop 1 carries both; the cross-origin hop neither (nginx logs an absent
# header as "-") but keeps the other extra header.
hs_logged 1 "^$HTTPS_PORT GET /redirect-cross auth=\[Bearer sekrit-token\] cookie=\[session=sekrit-cookie\]"
hs_logged 1 "^$OTHER_PORT GET /ok auth=\[-\] cookie=\[-\] .* x=\[kept\]"
if grep -q sekrit "$HS_OUT"; then
  grep -n sekrit "$HS_OUT" >&2
  hs_fail "a credential appears unredacted in the JSON output"
fi

hs_nginx_log_clear
hs_run 0 -n 1 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" --location-trusted \
  -H "Authorization: Bearer sekrit-token" "$B/redirect-cross"
hs_logged 1 "^$OTHER_PORT GET /ok auth=\[Bearer sekrit-token\]"

hs_pass
