#!/bin/sh
# report_agree: one run rendered in all seven formats (text, json, ndjson,
# csv with its summary, har, html, prom) says one story (SPEC 4.3, 5;
# issue 26 item 1): every value shown in more than one format agrees with
# the JSON document's, which is the analysis through the field table.
# report_agree.py reads each format with its own parser and compares:
#   the baseline (named with --baseline, not the first target), every
#   comparison's verdict, median difference and the parts that explain it
#   (text, html, prom, summary csv), every finding's title and saving
#   (text, html, prom), every hop's cache verdict (text, html, prom, csv,
#   ndjson, har), every sample's total (ndjson, csv, har) and every median
#   total (text, html, prom, summary csv).
# Three targets whose names differ only at their end (cdn-seoul-a/b/c)
# must stay apart in the comparison table and the --compare all matrix.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_agree
hs_require nginx dnsmasq openssl python3 curl timeout
hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"

B="https://origin.test:$HTTPS_PORT"
O="https://other.test:$OTHER_PORT"
DNS="127.0.0.1:$DNS_PORT"
D=$HS_DIR/out
mkdir -p "$D"

hs_run 0 -n 8 --mode cold,warm --dns-server "$DNS" --cacert "$CA_FILE" \
  --color never --baseline cdn-seoul-b --compare all \
  -o "$D/r.json" -o "$D/r.ndjson" -o "$D/r.csv" -o "$D/r.summary.csv" \
  -o "$D/r.har" -o "$D/r.html" -o "$D/r.prom" \
  "cdn-seoul-a=$B/redirect-cross" "cdn-seoul-b=$O/ok" \
  "cdn-seoul-c=$B/cacheable"
cp "$HS_OUT" "$D/r.txt"
"$HS_PYTHON" "$HOPSPLIT_SRC/tests/integration/report_agree.py" "$D" \
  >"$HS_DIR/agree.out" 2>&1 || {
  cat "$HS_DIR/agree.out" >&2
  hs_fail "the formats disagree"
}
hs_log "$(tail -n 1 "$HS_DIR/agree.out")"
hs_pass
