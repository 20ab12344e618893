#!/bin/sh
# report_text_fields: every number of the text report's tables is the JSON
# value of the same field, in the text's form (issue 15 item 1: one field
# table feeds text and JSON): phase tables with the idle row, per-hop
# tables, the hop chain of the median sample, the comparison with its
# "explained by", the --compare all matrix and its "other pairs" lines,
# and --brief (report_text_check.py re-implements the forms from their
# definitions).  On the saved run of the golden test (a DNS failure, no
# pairs), and on live runs against nginx: the text on stdout of a run
# against the JSON it wrote with -o.  Every line stays within 80 columns.
. "${HOPSPLIT_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/server/lib.sh"
hs_init report_text_fields
hs_require nginx dnsmasq openssl python3 curl timeout

CHECK=$HOPSPLIT_SRC/tests/integration/report_text_check.py

# check JSON TEXT: the text report TEXT of JSON, and --brief of JSON.
check() {
  hs_run 0 report --brief "$1"
  cp "$HS_OUT" "$HS_DIR/brief.txt"
  "$HS_PYTHON" "$CHECK" "$1" "$2" "$HS_DIR/brief.txt" >"$HS_DIR/check.out" ||
    { cat "$HS_DIR/check.out" >&2; hs_fail "text and JSON differ for $1"; }
  hs_log "$(basename "$1"): $(tail -n 1 "$HS_DIR/check.out")"
  "$HS_PYTHON" - "$2" "$HS_DIR/brief.txt" <<'EOF' || hs_fail "wider than 80"
import sys
for f in sys.argv[1:]:
    for n, l in enumerate(open(f, encoding="utf-8"), 1):
        if len(l.rstrip("\n")) > 80:
            sys.exit("%s:%d: %d columns: %s" % (f, n, len(l) - 1, l))
EOF
}

hs_run 0 report "$HOPSPLIT_SRC/tests/data/golden/run.json"
cp "$HS_OUT" "$HS_DIR/golden.txt"
check "$HOPSPLIT_SRC/tests/data/golden/run.json" "$HS_DIR/golden.txt"
# A target without a successful sample has no p50 (JSON null): "-".
grep -qE '^  broken +- +- +no pairs' "$HS_DIR/golden.txt" ||
  hs_fail "the comparison row of a target that never succeeded is not '-'"

hs_make_ca "$HS_DIR/pki"
hs_start_nginx "$HS_DIR/nginx"
hs_start_dnsmasq "$HS_DIR/dns"
B="https://origin.test:$HTTPS_PORT"
O="https://other.test:$OTHER_PORT"
H="http://origin.test:$HTTP_PORT"
DNS="127.0.0.1:$DNS_PORT"

# Three modes (warm has the idle row), a redirect (per-hop tables),
# --compare all with three targets (the matrix).
hs_run 0 -n 3 --mode cold,warm,resumed --compare all --dns-server "$DNS" \
  --cacert "$CA_FILE" -o "$HS_DIR/modes.json" "base=$B/redirect-cross" \
  "direct=$O/ok" "plain=$H/ok"
cp "$HS_OUT" "$HS_DIR/modes.txt"
grep -q 'every pair' "$HS_DIR/modes.txt" || hs_fail "no matrix"
grep -q '(idle before)' "$HS_DIR/modes.txt" || hs_fail "no idle row"
grep -q 'p50 per hop' "$HS_DIR/modes.txt" || hs_fail "no per-hop table"
check "$HS_DIR/modes.json" "$HS_DIR/modes.txt"

# Enough pairs for a verdict (30, as compare.sh: it holds even if a third
# of the pairs turn around on a loaded machine): the parts that explain it.
hs_run 0 -n 30 --mode cold --dns-server "$DNS" --cacert "$CA_FILE" \
  -o "$HS_DIR/pairs.json" "base=$B/redirect-cross" "direct=$O/ok"
cp "$HS_OUT" "$HS_DIR/pairs.txt"
grep -q 'explained by:' "$HS_DIR/pairs.txt" || hs_fail "no 'explained by'"
check "$HS_DIR/pairs.json" "$HS_DIR/pairs.txt"

# The longest TLS words of a hop line ("TLSv1.3 resumed http/1.1"): the
# median sample is a resumed one, over HTTP/1.1.
hs_run 0 -n 2 --mode resumed --http1.1 --dns-server "$DNS" \
  --cacert "$CA_FILE" -o "$HS_DIR/resumed.json" "a=$B/ok" "b=$O/ok"
cp "$HS_OUT" "$HS_DIR/resumed.txt"
grep -q 'resumed http/1.1' "$HS_DIR/resumed.txt" ||
  hs_fail "no hop line says 'resumed http/1.1'"
check "$HS_DIR/resumed.json" "$HS_DIR/resumed.txt"

# Six targets: the pairs beyond the baseline's get a line each.
hs_run 0 -n 2 --mode cold --compare all --dns-server "$DNS" \
  --cacert "$CA_FILE" -o "$HS_DIR/six.json" "a=$B/ok" "b=$O/ok" \
  "c=$B/redirect-same" "d=$H/ok" "e=$B/redirect-cross" "f=$O/ok?x=1"
cp "$HS_OUT" "$HS_DIR/six.txt"
grep -q 'other pairs' "$HS_DIR/six.txt" || hs_fail "no other pairs"
check "$HS_DIR/six.json" "$HS_DIR/six.txt"

# One sample per mode (issue 38): one column of values, no p95 mark and
# no footnote about it; a phase that is 0 in every sample on one line.
hs_run 0 -n 1 --dns-server "$DNS" --cacert "$CA_FILE" \
  -o "$HS_DIR/one.json" "$B/redirect-same"
cp "$HS_OUT" "$HS_DIR/one.txt"
grep -qE '^  cold +n=1 +value$' "$HS_DIR/one.txt" ||
  hs_fail "a single-sample run has no one-column table"
grep -qE 'p95|low confidence' "$HS_DIR/one.txt" &&
  hs_fail "a single-sample run speaks of a p95"
grep -q '^    0 in every sample: dns, connect, tls' "$HS_DIR/one.txt" ||
  hs_fail "warm's DNS, connect and TLS are not folded into one line"
hs_run 0 report --brief "$HS_DIR/one.json"
head -1 "$HS_OUT" | grep -qE '^target +mode +n +total +notes$' ||
  { hs_show; hs_fail "--brief of one sample has more than one column"; }
check "$HS_DIR/one.json" "$HS_DIR/one.txt"

# A batch of twelve unnamed targets on one host (issue 38): named by host
# and path, an overview entry each (p50s, name, the top finding), no
# per-target blocks, and far shorter than twelve blocks would be.
set --
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  set -- "$@" "$B/ok?n=$i"
done
set -- "$@" "$B/redirect-same"
hs_run 0 -n 2 --dns-server "$DNS" --cacert "$CA_FILE" \
  -o "$HS_DIR/batch.json" "$@"
cp "$HS_OUT" "$HS_DIR/batch.txt"
grep -q '^ *cold p50 *warm p50  target  url; top finding$' "$HS_DIR/batch.txt" ||
  hs_fail "the batch has no overview"
grep -qE ' origin.test/redirect-same( |$)' "$HS_DIR/batch.txt" ||
  hs_fail "the batch does not name a unique host and path by them"
grep -q 'median cold sample' "$HS_DIR/batch.txt" &&
  hs_fail "the batch prints the per-target blocks"
n=$(wc -l <"$HS_DIR/batch.txt")
[ "$n" -le 80 ] || hs_fail "the batch of 13 targets takes $n lines"
check "$HS_DIR/batch.json" "$HS_DIR/batch.txt"
hs_pass
