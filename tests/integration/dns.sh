#!/bin/sh
# dns: what c-ares found, per hop: the CNAME chain (alias.test -> origin.test),
# the addresses, the TTL dnsmasq gave (300), the resolver that answered when
# the first of two --dns-server entries is dead, and no resolver for an IP
# literal.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init dns
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"
DEAD=$(hs_free_port) || hs_fail "no free port"
DNS="127.0.0.1:$DNS_PORT"

hs_run 0 -n 2 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" "https://alias.test:$HTTPS_PORT/ok"
hs_jcheck --shape --closure --all-ok --samples 2 \
  "all('origin.test' in c for c in col(H('cold', 0), 'dns.cnames'))" \
  "col(H('cold', 0), 'dns.addresses') == [['127.0.0.1']] * 2" \
  "all(0 < t <= 300 for t in col(H('cold', 0), 'dns.ttl'))" \
  "min(col(H('cold', 0), 'dns.us')) > 0" \
  "col(H('cold', 0), 'dns.server') == ['$DNS'] * 2" \
  "col(H('cold', 0), 'status') == [200] * 2"

hs_run 0 -n 1 --mode cold --format json --dns-server "$DNS" \
  --cacert "$CA_FILE" "https://origin.test:$HTTPS_PORT/ok"
hs_jcheck --shape --closure --all-ok \
  "col(H('cold', 0), 'dns.cnames') == [[]]" \
  "all(0 < t <= 300 for t in col(H('cold', 0), 'dns.ttl'))"

# Two resolvers, the first refuses (nothing listens): the second answers.
hs_run 0 -n 1 --mode cold --format json -m 10s \
  --dns-server "127.0.0.1:$DEAD,127.0.0.1:$DNS_PORT" \
  --cacert "$CA_FILE" "https://origin.test:$HTTPS_PORT/ok"
hs_jcheck --shape --closure --all-ok \
  "col(H('cold', 0), 'dns.server') == ['$DNS']"

# An address literal needs no resolver.
hs_run 0 -n 1 --mode cold --format json --dns-server "127.0.0.1:$DEAD" \
  --cacert "$CA_FILE" "https://127.0.0.1:$HTTPS_PORT/ok"
hs_jcheck --shape --closure --all-ok \
  "col(H('cold', 0), 'remote_ip') == ['127.0.0.1']" \
  "col(H('cold', 0), 'dns.server') == [None]"

hs_pass
