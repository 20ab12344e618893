#!/bin/sh
# resolve: --resolve pins addresses and skips DNS (dns.pinned, dns.us 0),
# also for the host of a later hop; a host that is not pinned still goes to
# --dns-server.  With two pinned addresses, -4 and -6 pick the family.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init resolve
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

B="https://origin.test:$HTTPS_PORT"
R="origin.test:$HTTPS_PORT:127.0.0.1"
hs_run 0 -n 2 --mode cold,warm --format json --resolve "$R" \
  --cacert "$CA_FILE" "$B/ok"
hs_jcheck --shape --closure --all-ok --samples 4 --grid 2 cold,warm \
  "col(H('cold', 0), 'dns.pinned') == [True] * 2" \
  "col(H('cold', 0), 'dns.us') == [0] * 2" \
  "col(H('cold', 0), 'phases_us.dns') == [0] * 2" \
  "col(H('cold', 0), 'dns.addresses') == [['127.0.0.1']] * 2" \
  "col(H('cold', 0), 'dns.server') == [None] * 2" \
  "col(H('cold', 0), 'remote_ip') == ['127.0.0.1'] * 2" \
  "min(col(H('cold', 0), 'phases_us.connect')) > 0" \
  "col(H('warm', 0), 'dns.us') == [0] * 2" \
  "col(H('warm', 0), 'reused') == [True] * 2"

# Both hosts of a cross-origin redirect pinned.
hs_run 0 -n 1 --mode cold --format json --resolve "$R" \
  --resolve "other.test:$OTHER_PORT:127.0.0.1" --cacert "$CA_FILE" \
  "$B/redirect-cross"
hs_jcheck --shape --closure --all-ok --samples 1 \
  "nhops() == [2]" \
  "[h['dns']['pinned'] for h in samples[0]['hops']] == [True, True]" \
  "[h['dns']['us'] for h in samples[0]['hops']] == [0, 0]" \
  "col(H('cold', 1), 'remote_port') == [$OTHER_PORT]"
# The second pin matches no target but the redirect used it: no warning
# (issue 26 item 7).  --dry-run, which measures nothing, says it may be.
if grep -q 'resolve' "$HS_ERR"; then
  hs_show
  hs_fail "a --resolve a redirect used is called unused"
fi
hs_run 0 --dry-run --resolve "$R" \
  --resolve "other.test:$OTHER_PORT:127.0.0.1" --cacert "$CA_FILE" \
  "$B/redirect-cross"
hs_grep_err "warning: --resolve 'other\.test:$OTHER_PORT:127\.0\.0\.1' matches no target \(HOST:PORT of a URL given\); it is used only if a redirect leads there"
# No hop went there (the same-origin redirect stays on origin.test): the
# run says so once it has measured.
hs_run 0 -n 1 --mode cold --format json --resolve "$R" \
  --resolve "other.test:$OTHER_PORT:127.0.0.1" --cacert "$CA_FILE" \
  "$B/redirect-same"
hs_grep_err "^hopsplit: warning: --resolve 'other\.test:$OTHER_PORT:127\.0\.0\.1' matches no target, and no redirect led there: no request used it$"
[ "$(grep -c resolve "$HS_ERR")" = 1 ] || { hs_show; hs_fail "said twice"; }

# Only origin.test pinned: other.test is resolved by dnsmasq.
hs_run 0 -n 1 --mode cold --format json --resolve "$R" \
  --dns-server "127.0.0.1:$DNS_PORT" --cacert "$CA_FILE" "$B/redirect-cross"
hs_jcheck --shape --closure --all-ok --samples 1 \
  "[h['dns']['pinned'] for h in samples[0]['hops']] == [True, False]" \
  "col(H('cold', 0), 'dns.us') == [0]" \
  "min(col(H('cold', 1), 'dns.us')) > 0" \
  "col(H('cold', 1), 'dns.server') == ['127.0.0.1:$DNS_PORT']"

if [ -n "$HS_IPV6" ]; then
  R2="origin.test:$HTTPS_PORT:127.0.0.1,::1"
  hs_run 0 -n 1 --mode cold --format json -4 --resolve "$R2" \
    --cacert "$CA_FILE" "$B/ok"
  hs_jcheck --closure --all-ok "col(H('cold', 0), 'remote_ip') == ['127.0.0.1']"
  hs_run 0 -n 1 --mode cold --format json -6 --resolve "$R2" \
    --cacert "$CA_FILE" "$B/ok"
  hs_jcheck --closure --all-ok "col(H('cold', 0), 'remote_ip') == ['::1']"
  # As curl, an IPv6 address may be written in brackets.
  hs_run 0 -n 1 --mode cold --format json -6 \
    --resolve "origin.test:$HTTPS_PORT:127.0.0.1,[::1]" \
    --cacert "$CA_FILE" "$B/ok"
  hs_jcheck --closure --all-ok "col(H('cold', 0), 'remote_ip') == ['::1']"
else
  hs_log "no IPv6 loopback: -4/-6 not checked"
fi

hs_pass
