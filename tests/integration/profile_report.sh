#!/bin/sh
# profile_report: `hopsplit report` re-renders a profile run's JSON byte for
# byte, its checks included: the check definitions are read back and
# evaluated again against the rebuilt analysis.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init profile_report
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

cat >"$HS_DIR/p.yaml" <<EOF2
name: round-trip
rounds: 3
modes: [cold, warm]
defaults:
  cacert: $CA_FILE
  dns-server: 127.0.0.1:$DNS_PORT
targets:
  - name: base
    url: https://origin.test:$HTTPS_PORT/files/42.jpg
  - name: direct
    url: https://other.test:$OTHER_PORT/b/42.jpg
checks:
  - {target: direct, metric: total.p95, mode: cold, max: 30s}
  - {target: base, cache: {not: [BYPASS, UNCACHEABLE]}}
  - {target: direct, compare: base, verdict: [faster, no clear difference]}
outputs:
  - $HS_DIR/run.json
  - $HS_DIR/run.txt
EOF2
# The cache check fails (the mimic bypasses its cache): exit 1.
hs_run 1 run "$HS_DIR/p.yaml"
hs_jcheck --file "$HS_DIR/run.json" --shape \
  "[c['pass'] for c in d['checks']] == [True, False, True]" \
  "d['checks_failed'] == 1" \
  "d['profile']['name'] == 'round-trip'"
hs_run 0 report --format json "$HS_DIR/run.json"
cmp "$HS_OUT" "$HS_DIR/run.json" || {
  diff -u "$HS_DIR/run.json" "$HS_OUT" | head -40 >&2
  hs_fail "report --format json differs from the run's JSON"
}
hs_run 0 report --format text --color never "$HS_DIR/run.json"
cmp "$HS_OUT" "$HS_DIR/run.txt" || {
  diff -u "$HS_DIR/run.txt" "$HS_OUT" | head -40 >&2
  hs_fail "report --format text differs from the run's text"
}
hs_pass
