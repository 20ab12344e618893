#!/bin/sh
# basic: one HTTPS URL resolved through dnsmasq, cold and warm, 3 rounds.
# Asserts the JSON shape, phase closure, the rounds x modes grid, that a cold
# hop does DNS, connect and TLS through the given resolver on a new
# connection, that a warm hop does none of them on a reused connection, and
# that the cold summary is computed from the samples (nearest rank).
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init basic
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

U="https://origin.test:$HTTPS_PORT/"
hs_run 0 -n 3 --mode cold,warm --format json \
  --dns-server "127.0.0.1:$DNS_PORT" --cacert "$CA_FILE" "$U"
hs_jcheck --shape --closure --all-ok --samples 6 --grid 3 cold,warm \
  "d['partial'] == False" \
  "len(targets) == 1" \
  "targets[0]['url'] == '$U'" \
  "sorted(targets[0]['summary']) == ['cold', 'warm']" \
  "nhops('cold') == [1, 1, 1]" \
  "nhops('warm') == [1, 1, 1]" \
  "col(H('cold', 0), 'url') == ['$U'] * 3" \
  "col(H('cold', 0), 'status') == [200] * 3" \
  "col(H('cold', 0), 'size_download') == [len('hopsplit test origin\\n')] * 3" \
  "min(col(H('cold', 0), 'size_header')) > 0" \
  "col(H('cold', 0), 'remote_ip') == ['127.0.0.1'] * 3" \
  "col(H('cold', 0), 'remote_port') == [$HTTPS_PORT] * 3" \
  "col(H('cold', 0), 'reused') == [False] * 3" \
  "min(col(H('cold', 0), 'phases_us.connect')) > 0" \
  "min(col(H('cold', 0), 'phases_us.tls')) > 0" \
  "min(col(H('cold', 0), 'phases_us.wait')) > 0" \
  "min(col(H('cold', 0), 'dns.us')) > 0" \
  "col(H('cold', 0), 'phases_us.dns') == col(H('cold', 0), 'dns.us')" \
  "col(H('cold', 0), 'dns.server') == ['127.0.0.1:$DNS_PORT'] * 3" \
  "col(H('cold', 0), 'dns.pinned') == [False] * 3" \
  "col(H('cold', 0), 'dns.addresses') == [['127.0.0.1']] * 3" \
  "col(H('cold', 0), 'dns.cnames') == [[]] * 3" \
  "col(H('cold', 0), 'tls.resumed') == [False] * 3" \
  "col(H('warm', 0), 'status') == [200] * 3" \
  "col(H('warm', 0), 'reused') == [True] * 3" \
  "col(H('warm', 0), 'phases_us.connect') == [0] * 3" \
  "col(H('warm', 0), 'phases_us.tls') == [0] * 3" \
  "col(H('warm', 0), 'phases_us.dns') == [0] * 3" \
  "col(H('warm', 0), 'dns.us') == [0] * 3" \
  "col(samples, 'redirect_us') == [0] * 6" \
  "summary('cold', 'total', 'n') == 3" \
  "summary('warm', 'total', 'n') == 3" \
  "summary('cold', 'total', 'min_us') == min(col(S('cold'), 'total_us'))" \
  "summary('cold', 'total', 'max_us') == max(col(S('cold'), 'total_us'))" \
  "summary('cold', 'total', 'p50_us') == sorted(col(S('cold'), 'total_us'))[1]" \
  "summary('cold', 'total', 'p95_us') == max(col(S('cold'), 'total_us'))" \
  "summary('cold', 'connect', 'min_us') == min(col(H('cold', 0), 'phases_us.connect'))" \
  "summary('warm', 'connect', 'max_us') == 0" \
  "summary('warm', 'tls', 'max_us') == 0" \
  "summary('cold', 'redirect', 'max_us') == 0"

# A URL without a scheme gets https:// (SPEC 2).
hs_run 0 -n 1 --mode cold --format json \
  --dns-server "127.0.0.1:$DNS_PORT" --cacert "$CA_FILE" \
  "origin.test:$HTTPS_PORT/ok"
hs_jcheck --shape --closure --all-ok --samples 1 \
  "col(H('cold', 0), 'url') == ['https://origin.test:$HTTPS_PORT/ok']" \
  "col(H('cold', 0), 'size_download') == [3]"

# Diagnostic response headers are kept per hop (names compared
# case-insensitively).
hs_run 0 -n 1 --mode cold --format json \
  --dns-server "127.0.0.1:$DNS_PORT" --cacert "$CA_FILE" "${U}nostore"
hs_jcheck --shape --closure --all-ok --samples 1 \
  "[{k.lower(): v for k, v in h['headers'].items()}.get('cache-control') for h in H('cold', 0)] == ['no-store']"

# The default is 10 rounds of cold and warm (SPEC 2).
hs_run 0 --format json --dns-server "127.0.0.1:$DNS_PORT" \
  --cacert "$CA_FILE" "${U}ok"
hs_jcheck --closure --all-ok --samples 20 --grid 10 cold,warm

hs_pass
